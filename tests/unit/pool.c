/*
 * Unit tests for the work-stealing pool, fork-join and scopes: nested and
 * deep joins give the right results and count every fork; scopes wait for
 * every job, nested spawns included, from a worker and from outside;
 * concurrent callers share the main slot; injection from many threads runs
 * every job once; shutdown runs every accepted job and refuses the rest; an
 * idle pool sleeps; the counters can be read while the pool runs.
 *
 * usage: pool [workers [jobs]]
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "test.h"
#include "wspx.h"

static unsigned nworkers;
static long njobs;

static struct wspx_pool *
newpool(unsigned workers)
{
	struct wspx_pool_opts o = { .workers = workers };
	struct wspx_pool *p = NULL;

	CHECK(wspx_pool_new(&p, &o) == 0);
	return p;
}

/* fib(n) by a join at every level; joins counts the joins it made. */
struct fib {
	int n;
	uint64_t r;
	uint64_t joins;
};

static void
fib(struct wspx_worker *w, void *arg)
{
	struct fib *f = arg, a = { f->n - 1, 0, 0 }, b = { f->n - 2, 0, 0 };

	f->joins = 0;
	if (f->n < 2) {
		f->r = (uint64_t)f->n;
		return;
	}
	wspx_join(w, fib, &a, fib, &b);
	f->r = a.r + b.r;
	f->joins = a.joins + b.joins + 1;
}

/* Joins in fib(n): fib(n+1) - 1. */
static uint64_t
forks(int n)
{
	uint64_t a = 0, b = 1, t;

	for (; n >= 0; n--) {
		t = a + b;
		a = b;
		b = t;
	}
	return a - 1;
}

/* A reader thread that sums the counters while the pool works. */
static _Atomic(bool) reading;

static void *
reader(void *arg)
{
	struct wspx_pool_stats s, prev = { 0 };

	while (atomic_load(&reading)) {
		wspx_pool_stats(arg, &s);
		CHECK(s.executed >= prev.executed);
		CHECK(s.idle + s.sleeping <= s.workers + 1);
		prev = s;
	}
	return NULL;
}

static void
test_fib(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct wspx_pool_stats s;
	struct fib f = { 27, 0, 0 };
	pthread_t r;

	atomic_store(&reading, true);
	pthread_create(&r, NULL, reader, p);
	CHECK(wspx_pool_call(p, fib, &f) == 0);
	CHECK(f.r == 196418);
	CHECK(f.joins == forks(27));
	atomic_store(&reading, false);
	pthread_join(r, NULL);
	wspx_pool_stats(p, &s);
	/* Every fork's stealable half runs once, inline or stolen. */
	CHECK(s.executed == forks(27));
	CHECK(s.workers == nworkers);
	wspx_pool_free(p);
}

/* A chain of nested joins far deeper than the deque's first ring. */
static void
chain(struct wspx_worker *w, void *arg)
{
	long *depth = arg, left = *depth - 1, right = 0;

	if (*depth <= 0)
		return;
	wspx_join(w, chain, &left, chain, &right);
	*depth = left + 1;
}

static void
test_deep(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct wspx_pool_stats s;
	long depth = 5000;

	CHECK(wspx_pool_call(p, chain, &depth) == 0);
	CHECK(depth == 5000);	/* rebuilt on the way back up */
	wspx_pool_stats(p, &s);
	CHECK(s.executed == 5000);
	wspx_pool_free(p);
}

/* Scope jobs; each spawns its children, if any, into the same scope. */
struct sjob {
	struct wspx_job job;
	struct wspx_scope *scope;
	struct sjob *kids;
	int nkids;
	_Atomic(int) ran;
};

static void
sjobrun(struct wspx_worker *w, struct wspx_job *job)
{
	struct sjob *j = wspx_container_of(job, struct sjob, job);
	int i;

	/* release: the pool's reads of *job come before this; the test
	 * frees the jobs after the scope's wait, which orders it anyway. */
	atomic_fetch_add_explicit(&j->ran, 1, memory_order_release);
	for (i = 0; i < j->nkids; i++)
		CHECK(wspx_scope_spawn(j->scope, w, &j->kids[i].job) == 0);
}

/* n top-level jobs with `fanout` children each, all bound to scope s. */
static struct sjob *
makejobs(long n, int fanout, struct wspx_scope *s)
{
	struct sjob *j = calloc((size_t)(n * (1 + fanout)), sizeof(*j));
	long i;

	for (i = 0; i < n * (1 + fanout); i++) {
		j[i].job.run = sjobrun;
		j[i].scope = s;
		if (i < n) {
			j[i].kids = &j[n + i * fanout];
			j[i].nkids = fanout;
		}
	}
	return j;
}

static long
badruns(struct sjob *j, long total)
{
	long i, bad = 0;

	for (i = 0; i < total; i++)
		bad += atomic_load(&j[i].ran) != 1;
	return bad;
}

struct scopetest {
	long n;
	int fanout;
	long bad;
};

/* In a worker: spawn n jobs into a scope the worker owns, and wait. */
static void
scopeinworker(struct wspx_worker *w, void *arg)
{
	struct scopetest *t = arg;
	struct wspx_scope s;
	struct sjob *j;
	long i;

	wspx_scope_init(&s, wspx_worker_pool(w), w);
	j = makejobs(t->n, t->fanout, &s);
	for (i = 0; i < t->n; i++)
		CHECK(wspx_scope_spawn(&s, w, &j[i].job) == 0);
	wspx_scope_wait(&s);
	t->bad = badruns(j, t->n * (1 + t->fanout));
	free(j);
}

static void
test_scopes(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct scopetest t = { njobs / 10, 9, -1 };
	struct wspx_scope s;
	struct sjob *j;
	long i;

	CHECK(wspx_pool_call(p, scopeinworker, &t) == 0);
	CHECK(t.bad == 0);
	/* From outside the pool: jobs are injected, the caller blocks. */
	wspx_scope_init(&s, p, NULL);
	j = makejobs(njobs / 10, 9, &s);
	for (i = 0; i < njobs / 10; i++)
		CHECK(wspx_scope_spawn(&s, NULL, &j[i].job) == 0);
	wspx_scope_wait(&s);
	CHECK(badruns(j, njobs) == 0);
	free(j);
	/* An empty scope returns at once. */
	wspx_scope_init(&s, p, NULL);
	wspx_scope_wait(&s);
	wspx_pool_free(p);
}

/* Several outside threads calling at once: one gets the main slot, the
 * others' calls are injected. */
static void *
caller(void *arg)
{
	struct wspx_pool *p = arg;
	struct fib f;
	int i;

	for (i = 0; i < 50; i++) {
		f.n = 18;
		CHECK(wspx_pool_call(p, fib, &f) == 0);
		CHECK(f.r == 2584);
	}
	return NULL;
}

static void
nested(struct wspx_worker *w, void *arg)
{
	*(int *)arg = wspx_pool_call(wspx_worker_pool(w), fib, &(struct fib){
	    3, 0, 0 });
}

static void
test_calls(void)
{
	struct wspx_pool *p = newpool(nworkers);
	pthread_t t[4];
	int i, rc = 0;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, caller, p);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	CHECK(wspx_pool_call(p, nested, &rc) == 0);
	CHECK(rc == -EDEADLK);
	wspx_pool_free(p);
}

/* Injection from several threads, jobs[0] of each batch first. */
struct ijob {
	struct wspx_job job;
	_Atomic(int) ran;
};

static _Atomic(long) iran;

static void
ijobrun(struct wspx_worker *w, struct wspx_job *job)
{
	struct ijob *j = wspx_container_of(job, struct ijob, job);

	(void)w;
	/* release: the pool's reads of *job come before these, and the
	 * test frees the jobs once it has seen them (seq_cst loads). */
	atomic_fetch_add_explicit(&j->ran, 1, memory_order_release);
	atomic_fetch_add_explicit(&iran, 1, memory_order_release);
}

struct injector {
	struct wspx_pool *p;
	struct ijob *jobs;
	long n;
	long accepted;		/* jobs the pool took (returned 0) */
	bool untilshut;		/* go on until the pool refuses */
};

static void *
injector(void *arg)
{
	struct injector *in = arg;
	struct wspx_job *batch[8];
	long i = 0;
	int k, rc;

	while (i < in->n) {
		if (i % 3 == 0 && i + 8 <= in->n) {
			for (k = 0; k < 8; k++) {
				in->jobs[i + k].job.run = ijobrun;
				batch[k] = &in->jobs[i + k].job;
			}
			rc = wspx_pool_inject_n(in->p, batch, 8);
			k = 8;
		} else {
			in->jobs[i].job.run = ijobrun;
			rc = wspx_pool_inject(in->p, &in->jobs[i].job);
			k = 1;
		}
		if (rc != 0) {
			CHECK(rc == -ESHUTDOWN && in->untilshut);
			break;
		}
		in->accepted += k;
		i += k;
	}
	return NULL;
}

/* Start n injectors of per jobs each; join them with joininjectors(). */
static struct injector *
startinjectors(struct wspx_pool *p, int n, long per, bool untilshut,
    pthread_t *t)
{
	struct injector *in = calloc((size_t)n, sizeof(*in));
	int i;

	for (i = 0; i < n; i++) {
		in[i].p = p;
		in[i].n = per;
		in[i].untilshut = untilshut;
		in[i].jobs = calloc((size_t)per, sizeof(*in[i].jobs));
		pthread_create(&t[i], NULL, injector, &in[i]);
	}
	return in;
}

/* Join the injectors; returns the jobs accepted, and counts in *bad the
 * jobs that ran other than exactly once if accepted, or ran if not. */
static long
joininjectors(struct injector *in, int n, pthread_t *t, long *bad)
{
	long accepted = 0, i;
	int k;

	*bad = 0;
	for (k = 0; k < n; k++) {
		pthread_join(t[k], NULL);
		accepted += in[k].accepted;
	}
	for (k = 0; k < n; k++) {
		for (i = 0; i < in[k].n; i++)
			*bad += atomic_load(&in[k].jobs[i].ran) !=
			    (i < in[k].accepted);
		free(in[k].jobs);
	}
	free(in);
	return accepted;
}

static void
test_inject(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct wspx_pool_stats s;
	struct injector *in;
	pthread_t t[4];
	long accepted, bad;
	double t0;

	atomic_store(&iran, 0);
	in = startinjectors(p, 4, njobs / 4, false, t);
	/* Wait for every job, then check each ran once. */
	while (atomic_load(&iran) < 4 * (njobs / 4))
		sched_yield();
	accepted = joininjectors(in, 4, t, &bad);
	CHECK(accepted == 4 * (njobs / 4));
	CHECK(bad == 0);
	/* A worker counts a job just after its body returns. */
	t0 = test_now();
	do {
		wspx_pool_stats(p, &s);
	} while (s.executed < (uint64_t)accepted && test_now() - t0 < 5);
	CHECK(s.injected == (uint64_t)accepted);
	CHECK(s.executed == (uint64_t)accepted);
	wspx_pool_free(p);
}

/* A job that injects itself again, rounds times: as a timer's tick or a
 * graph's job does, from the worker that runs it. */
struct again {
	struct wspx_job job;
	struct wspx_pool *pool;
	_Atomic(long) runs;
	long rounds;
};

static _Atomic(long) againdone;

static void
againrun(struct wspx_worker *w, struct wspx_job *job)
{
	struct again *a = wspx_container_of(job, struct again, job);

	(void)w;
	if (atomic_fetch_add(&a->runs, 1) + 1 < a->rounds) {
		if (wspx_pool_inject(a->pool, &a->job) != 0)
			abort();
		return;
	}
	atomic_fetch_add(&againdone, 1);
}

/* Batches taken from the injection stack go on a deque while their jobs
 * inject themselves again: the link of a job pushed and stolen must not
 * be read as the batch's (that ran jobs twice, or lost them). */
static void
test_reinject(void)
{
	enum { N = 64 };
	struct wspx_pool *p = newpool(nworkers);
	struct again *a = calloc(N, sizeof(*a));
	struct wspx_job *jobs[N];
	long i, bad = 0, rounds = njobs / N > 10 ? njobs / N : 10;
	double t0 = test_now();

	atomic_store(&againdone, 0);
	for (i = 0; i < N; i++) {
		a[i].job.run = againrun;
		a[i].pool = p;
		a[i].rounds = rounds;
		jobs[i] = &a[i].job;
	}
	CHECK(wspx_pool_inject_n(p, jobs, N) == 0);
	while (atomic_load(&againdone) < N && test_now() - t0 < 60)
		sched_yield();
	wspx_pool_free(p);
	for (i = 0; i < N; i++)
		bad += atomic_load(&a[i].runs) != rounds;
	CHECK(atomic_load(&againdone) == N);
	CHECK(bad == 0);
	free(a);
}

static void
test_shutdown(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct ijob late = { .job.run = ijobrun };
	struct wspx_scope s;
	struct injector *in;
	pthread_t t[3];
	long accepted, bad;
	struct fib f = { 5, 0, 0 };

	atomic_store(&iran, 0);
	in = startinjectors(p, 3, njobs, true, t);
	while (atomic_load(&iran) < njobs / 10)
		sched_yield();
	/* Shut down while three threads inject: what was accepted runs,
	 * what came after is refused and never runs. */
	wspx_pool_shutdown(p);
	accepted = joininjectors(in, 3, t, &bad);
	CHECK(bad == 0);
	CHECK(atomic_load(&iran) == accepted);
	CHECK(wspx_pool_inject(p, &late.job) == -ESHUTDOWN);
	CHECK(wspx_pool_call(p, fib, &f) == -ESHUTDOWN);
	wspx_scope_init(&s, p, NULL);
	CHECK(wspx_scope_spawn(&s, NULL, &late.job) == -ESHUTDOWN);
	wspx_scope_wait(&s);
	wspx_pool_shutdown(p);	/* again: nothing happens */
	wspx_pool_free(p);
	wspx_pool_free(NULL);
}

/* A job that holds its worker until released. */
static _Atomic(int) holding;

static void
holdjob(struct wspx_worker *w, struct wspx_job *job)
{
	(void)w;
	(void)job;
	atomic_store(&holding, 1);
	while (atomic_load(&holding) == 1)
		sched_yield();
}

/* In the main slot: spawn jobs on the main slot's own deque, for a scope
 * that someone else waits for, and return without running them. */
struct leftover {
	struct wspx_scope *scope;
	struct sjob *jobs;
	int n;
};

static void
spawnandleave(struct wspx_worker *w, void *arg)
{
	struct leftover *l = arg;
	int i;

	for (i = 0; i < l->n; i++)
		CHECK(wspx_scope_spawn(l->scope, w, &l->jobs[i].job) == 0);
}

static void
test_mainslot_left_empty(void)
{
	struct wspx_pool *p = newpool(1);
	struct wspx_job hold = { .run = holdjob };
	struct wspx_scope s;
	struct leftover l;

	/* Keep the only pool thread busy, so that nobody steals. */
	atomic_store(&holding, 0);
	CHECK(wspx_pool_inject(p, &hold) == 0);
	while (atomic_load(&holding) == 0)
		sched_yield();
	wspx_scope_init(&s, p, NULL);
	l.scope = &s;
	l.n = 10;
	l.jobs = makejobs(l.n, 0, &s);
	CHECK(wspx_pool_call(p, spawnandleave, &l) == 0);
	/* The caller leaves the slot only once its deque is empty: no job
	 * is stranded on a deque whose owner is gone. */
	CHECK(badruns(l.jobs, l.n) == 0);
	atomic_store(&holding, 2);
	wspx_scope_wait(&s);
	free(l.jobs);
	wspx_pool_free(p);
}

/* Wait up to 5 s until every worker of p sleeps; returns its stats. */
static struct wspx_pool_stats
allasleep(struct wspx_pool *p)
{
	struct wspx_pool_stats s;
	double t0 = test_now();

	do {
		wspx_pool_stats(p, &s);
	} while (s.sleeping < nworkers && test_now() - t0 < 5 &&
	    (sched_yield(), true));
	CHECK(s.sleeping == nworkers);
	return s;
}

/* A lone job injected into a sleeping pool costs one wake-up, for the
 * worker that takes it, and none more: nothing is left for the others. */
static void
test_trickle(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct ijob job = { .job.run = ijobrun };	/* ijobrun wants an ijob */
	uint64_t wakes0 = allasleep(p).wakes, wakes;
	long cycles = 200, k;

	atomic_store(&iran, 0);
	for (k = 0; k < cycles; k++) {
		CHECK(wspx_pool_inject(p, &job.job) == 0);
		while (atomic_load(&iran) < k + 1)
			sched_yield();
		(void)allasleep(p);
	}
	wakes = allasleep(p).wakes - wakes0;
	printf("# %llu wake-ups for %ld lone jobs\n",
	    (unsigned long long)wakes, cycles);
	/* Fewer than one a job is right too: a worker that has counted
	 * itself asleep may find the job in its last look at the injection
	 * stack, and run it unwoken (CI under TSan saw 199 for 200).  Half
	 * as many still shows that the pool slept between the jobs. */
	CHECK(wakes >= (uint64_t)cycles / 2);
	CHECK(wakes <= (uint64_t)cycles + (uint64_t)cycles / 10);
	wspx_pool_free(p);
}

/* The deque cannot grow: calloc fails while this is set (the program is
 * linked with -Wl,--wrap=calloc). */
static _Atomic(bool) nomem;

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

void *
__wrap_calloc(size_t n, size_t size)
{
	if (atomic_load(&nomem))
		return NULL;
	return __real_calloc(n, size);
}

/* Jobs of the no-memory test: the oldest one opens the gate, every other
 * one waits for it (up to 2 s, then counts a failure; after one failure
 * the others do not wait). */
static _Atomic(bool) gate;
static _Atomic(int) stranded;

static void
gatejob(struct wspx_worker *w, struct wspx_job *job)
{
	double t0 = test_now();

	(void)w;
	(void)job;
	while (!atomic_load(&gate) && atomic_load(&stranded) == 0 &&
	    test_now() - t0 < 2)
		sched_yield();
	if (!atomic_load(&gate))
		atomic_fetch_add(&stranded, 1);
	atomic_fetch_add(&iran, 1);
}

static void
opengate(struct wspx_worker *w, struct wspx_job *job)
{
	(void)w;
	(void)job;
	atomic_store(&gate, true);
	atomic_fetch_add(&iran, 1);
}

/* A worker takes a batch bigger than its deque holds, and the deque cannot
 * grow: the jobs it could not queue must not wait unseen behind the job it
 * runs.  Each job waits for the oldest, so any job run before it waits in
 * vain; the oldest must run first, and every job must run. */
static void
test_takeinjected_nomem(void)
{
	struct wspx_pool *p = newpool(1);
	struct wspx_job hold = { .run = holdjob };
	struct wspx_job *jobs[600];
	struct wspx_job *mem = calloc(600, sizeof(*mem));
	int i;

	CHECK(mem != NULL);
	for (i = 0; i < 600; i++) {
		mem[i].run = i == 0 ? opengate : gatejob;
		jobs[i] = &mem[i];
	}
	atomic_store(&iran, 0);
	atomic_store(&gate, false);
	atomic_store(&stranded, 0);
	atomic_store(&holding, 0);
	CHECK(wspx_pool_inject(p, &hold) == 0);
	while (atomic_load(&holding) == 0)
		sched_yield();
	CHECK(wspx_pool_inject_n(p, jobs, 600) == 0);
	atomic_store(&nomem, true);
	atomic_store(&holding, 2);
	while (atomic_load(&iran) < 600)
		sched_yield();
	atomic_store(&nomem, false);
	CHECK(atomic_load(&stranded) == 0);
	wspx_pool_free(p);
	free(mem);
}

static double
cpums(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static void
test_idle(void)
{
	struct wspx_pool *p = newpool(nworkers);
	struct wspx_pool_stats s;
	struct fib f = { 20, 0, 0 };
	double t0, c0;

	CHECK(wspx_pool_call(p, fib, &f) == 0);
	/* Every worker blocks soon after the work is done... */
	t0 = test_now();
	do {
		wspx_pool_stats(p, &s);
	} while (s.sleeping < nworkers && test_now() - t0 < 5 &&
	    (sched_yield(), true));
	CHECK(s.sleeping == nworkers);
	CHECK(s.idle == 0);
	/* ...and then uses no CPU. */
	c0 = cpums();
	nanosleep(&(struct timespec){ 0, 300000000 }, NULL);
	CHECK(cpums() - c0 < 30);
	wspx_pool_free(p);
}

static void
test_config(void)
{
	struct wspx_pool_opts o = { .workers = 70000 };
	struct wspx_pool *p;
	struct wspx_pool_stats s;

	CHECK(wspx_pool_new(&p, &o) == -EINVAL);
	CHECK(wspx_pool_new(&p, NULL) == 0);
	wspx_pool_stats(p, &s);
	CHECK(s.workers == (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	wspx_pool_free(p);
	CHECK(wspx_strerror(-ESHUTDOWN) != NULL);
}

int
main(int argc, char **argv)
{
	nworkers = (unsigned)test_arg(argc, argv, 1, 4);
	njobs = test_arg(argc, argv, 2, 200000);

	TEST(test_fib(), "pool: fib(27) by nested joins, every fork counted");
	TEST(test_deep(), "pool: 5000 nested joins");
	TEST(test_scopes(), "pool: scopes with nested spawns, in a worker "
	    "and outside");
	TEST(test_calls(), "pool: concurrent calls share the main slot; a "
	    "call from a worker is refused");
	TEST(test_mainslot_left_empty(), "pool: the main slot is left with "
	    "an empty deque");
	TEST(test_inject(), "pool: %ld jobs injected from 4 threads, each "
	    "run once", 4 * (njobs / 4));
	TEST(test_reinject(), "pool: 64 jobs injecting themselves again, "
	    "each run exactly as often");
	TEST(test_shutdown(), "pool: shutdown runs every accepted job, "
	    "refuses later ones");
	TEST(test_idle(), "pool: an idle pool sleeps and uses no CPU");
	TEST(test_trickle(), "pool: a lone job into a sleeping pool wakes "
	    "one worker, no more");
	TEST(test_takeinjected_nomem(), "pool: a deque that cannot grow "
	    "gives the rest of a taken batch back to the stack");
	TEST(test_config(), "pool: default size, bad size");
	return test_done();
}
