/*
 * wspx's side of the runtime anchor benchmarks (make bench, ANCHORS):
 * the same workloads as the Rayon, oneTBB and OpenMP drivers, speaking
 * their protocol
 *
 *     bench_wspx <bench> <param> <threads> <reps>  ->  one RESULT line
 *
 * so that `make bench` runs it beside them in one run.
 *
 * Thread counts match the anchors': in fib, sum and mix the calling thread
 * works in the pool's main slot (wspx_pool_call), so the pool gets
 * threads - 1 workers and `threads` threads compute, as in Rayon, whose
 * caller blocks while its `threads` workers compute.  In inject and idle the
 * caller does not compute (it injects, or waits on a scope), so the pool
 * gets `threads` workers.
 *
 * inject has two variants: `inject` submits caller-owned jobs (the intrusive
 * API needs no allocation per job); `injectalloc` mallocs each job and the
 * job frees itself, as Rayon's spawn boxes each closure.
 *
 * trickle is wspx's own (no anchor has it): `param` empty jobs injected one
 * per millisecond into a pool of `threads` workers, as wspx's input reader
 * feeds the executor when jobs come slowly; it reports the wake-ups and the
 * CPU time (the whole process's) per job.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "wspx.h"

#define SUM_N 100000000u

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double
cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int
cmpdbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
report(const char *bench, long param, int threads, double *t, int reps,
    uint64_t tasks, uint64_t check, const char *extra)
{
	double med;

	qsort(t, (size_t)reps, sizeof(*t), cmpdbl);
	med = t[reps / 2];
	printf("RESULT rt=wspx bench=%s param=%ld threads=%d reps=%d "
	    "median_ms=%.3f min_ms=%.3f max_ms=%.3f tasks=%llu "
	    "ns_per_task=%.2f check=%llu%s\n", bench, param, threads, reps,
	    med, t[0], t[reps - 1], (unsigned long long)tasks,
	    tasks ? med * 1e6 / (double)tasks : 0.0,
	    (unsigned long long)check, extra ? extra : "");
	fflush(stdout);
}

static uint64_t
fib_forks(int n)
{
	uint64_t a = 0, b = 1, t;
	int i;

	for (i = 0; i < n + 1; i++) {
		t = a + b;
		a = b;
		b = t;
	}
	return a - 1;
}

/* Joins to split len down to grain (a range of one is never split). */
static uint64_t
sum_forks(uint64_t len, uint64_t grain)
{
	return len <= grain || len <= 1 ? 0 : 1 + sum_forks(len / 2, grain) +
	    sum_forks(len - len / 2, grain);
}

static uint64_t
fib_seq(int n)
{
	return n < 2 ? (uint64_t)n : fib_seq(n - 1) + fib_seq(n - 2);
}

/* fib: join at every level, the second branch stealable. */
struct fib {
	int n;
	uint64_t r;
};

static void
fib_par(struct wspx_worker *w, void *arg)
{
	struct fib *f = arg, a, b;

	if (f->n < 2) {
		f->r = (uint64_t)f->n;
		return;
	}
	a.n = f->n - 1;
	b.n = f->n - 2;
	wspx_join(w, fib_par, &a, fib_par, &b);
	f->r = a.r + b.r;
}

static uint64_t
mix(uint32_t x)
{
	uint64_t z = (uint64_t)x * 0x9E3779B97F4A7C15ull;

	z ^= z >> 29;
	z *= 0xBF58476D1CE4E5B9ull;
	z ^= z >> 32;
	z *= 0x94D049BB133111EBull;
	return z ^ (z >> 29);
}

static uint64_t
leaf_sum(const uint32_t *d, uint64_t len)
{
	uint64_t s = 0, i;

	for (i = 0; i < len; i++)
		s += d[i];
	return s;
}

static uint64_t
leaf_mix(const uint32_t *d, uint64_t len)
{
	uint64_t s = 0, i;

	for (i = 0; i < len; i++)
		s += mix(d[i]);
	return s;
}

/* sum and mix: split in halves with join down to grain elements. */
struct range {
	const uint32_t *d;
	uint64_t len, grain, r;
	int mix;
};

static void
range_par(struct wspx_worker *w, void *arg)
{
	struct range *g = arg, a, b;
	uint64_t h;

	if (g->len <= g->grain || g->len <= 1) {
		g->r = g->mix ? leaf_mix(g->d, g->len) : leaf_sum(g->d, g->len);
		return;
	}
	h = g->len / 2;
	a = *g;
	a.len = h;
	b = *g;
	b.d = g->d + h;
	b.len = g->len - h;
	wspx_join(w, range_par, &a, range_par, &b);
	g->r = a.r + b.r;
}

static uint32_t *
make_data(void)
{
	uint32_t *d = malloc(sizeof(uint32_t) * (size_t)SUM_N), i;

	if (d == NULL) {
		perror("malloc");
		exit(1);
	}
	for (i = 0; i < SUM_N; i++)
		d[i] = (i * 2654435761u) >> 22;
	return d;
}

static struct wspx_pool *
newpool(unsigned workers)
{
	struct wspx_pool_opts o = { .workers = workers > 0 ? workers : 1 };
	struct wspx_pool *p;
	int rc;

	if ((rc = wspx_pool_new(&p, &o)) != 0) {
		fprintf(stderr, "pool: %s\n", wspx_strerror(rc));
		exit(1);
	}
	return p;
}

static void
bench_fib(const char *bench, long param, int threads, int reps)
{
	volatile int nv = (int)param;
	struct wspx_pool *p = NULL;
	struct fib f = { 0, 0 };
	double *t = calloc((size_t)reps + 1, sizeof(*t)), t0;
	int seq = bench[0] == 's', r;

	if (!seq)
		p = newpool((unsigned)threads - 1);
	for (r = 0; r <= reps; r++) {
		t0 = now_ms();
		f.n = nv;
		if (seq)
			f.r = fib_seq(f.n);
		else
			wspx_pool_call(p, fib_par, &f);
		if (r > 0)
			t[r - 1] = now_ms() - t0;
	}
	report(bench, param, seq ? 1 : threads, t, reps, fib_forks((int)param),
	    f.r, NULL);
	wspx_pool_free(p);
	free(t);
}

static void
bench_range(const char *bench, long param, int threads, int reps)
{
	struct wspx_pool *p = NULL;
	uint32_t *d = make_data();
	struct range g;
	double *t = calloc((size_t)reps + 1, sizeof(*t)), t0;
	int seq = bench[0] == 's' && bench[1] == 'e', r;

	g.mix = strstr(bench, "mix") != NULL;
	if (!seq)
		p = newpool((unsigned)threads - 1);
	for (r = 0; r <= reps; r++) {
		t0 = now_ms();
		g.d = d;
		g.len = SUM_N;
		/* sumidiom: no parallel-for in wspx; the idiom is join down
		 * to four chunks per thread. */
		g.grain = seq ? SUM_N : param > 0 ? (uint64_t)param :
		    SUM_N / (4 * (uint64_t)threads) + 1;
		if (seq)
			g.r = g.mix ? leaf_mix(d, SUM_N) : leaf_sum(d, SUM_N);
		else
			wspx_pool_call(p, range_par, &g);
		if (r > 0)
			t[r - 1] = now_ms() - t0;
	}
	report(bench, param, seq ? 1 : threads, t, reps,
	    seq ? 0 : sum_forks(SUM_N, g.grain), g.r, NULL);
	wspx_pool_free(p);
	free(d);
	free(t);
}

/* inject: N empty jobs from a thread outside the pool, one call each; the
 * last job to run signals the waiting thread, as in the Rayon driver. */
static _Atomic(long) done;
static long target;
static pthread_mutex_t donelock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t donecond = PTHREAD_COND_INITIALIZER;
static int alldone;

static void
taskdone(void)
{
	if (atomic_fetch_add_explicit(&done, 1, memory_order_acq_rel) + 1 ==
	    target) {
		pthread_mutex_lock(&donelock);
		alldone = 1;
		pthread_cond_signal(&donecond);
		pthread_mutex_unlock(&donelock);
	}
}

static void
emptyjob(struct wspx_worker *w, struct wspx_job *job)
{
	(void)w;
	(void)job;
	taskdone();
}

static void
alloced(struct wspx_worker *w, struct wspx_job *job)
{
	(void)w;
	free(job);
	taskdone();
}

static double
injectrun(struct wspx_pool *p, struct wspx_job *jobs, long n, double *submit)
{
	struct wspx_job *job;
	double t0 = now_ms();
	long i;

	for (i = 0; i < n; i++) {
		if (jobs != NULL) {
			job = &jobs[i];
			job->run = emptyjob;
		} else {
			job = malloc(sizeof(*job));
			job->run = alloced;
		}
		wspx_pool_inject(p, job);
	}
	*submit = now_ms() - t0;
	pthread_mutex_lock(&donelock);
	while (!alldone)
		pthread_cond_wait(&donecond, &donelock);
	pthread_mutex_unlock(&donelock);
	return now_ms() - t0;
}

static void
bench_inject(const char *bench, long n, int threads, int reps)
{
	struct wspx_pool *p = newpool((unsigned)threads);
	struct wspx_job *jobs = NULL;
	double *t = calloc((size_t)reps + 1, sizeof(*t));
	double *s = calloc((size_t)reps + 1, sizeof(*s)), dt, ds;
	char extra[64];
	int r;

	if (strcmp(bench, "inject") == 0)
		jobs = calloc((size_t)n, sizeof(*jobs));
	target = n;
	for (r = 0; r <= reps; r++) {
		atomic_store(&done, 0);
		alldone = 0;
		dt = injectrun(p, jobs, n, &ds);
		if (r > 0) {
			t[r - 1] = dt;
			s[r - 1] = ds;
		}
	}
	qsort(s, (size_t)reps, sizeof(*s), cmpdbl);
	snprintf(extra, sizeof(extra), " submit_median_ms=%.3f", s[reps / 2]);
	report(bench, n, threads, t, reps, (uint64_t)n,
	    (uint64_t)atomic_load(&done), extra);
	wspx_pool_free(p);
	free(jobs);
	free(t);
	free(s);
}

/* trickle: one job per millisecond; each job just counts itself. */
static void
countjob(struct wspx_worker *w, struct wspx_job *job)
{
	(void)w;
	(void)job;
	atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
}

/* Inject n jobs, one every millisecond on the monotonic clock. */
static void
trickle(struct wspx_pool *p, struct wspx_job *jobs, long n)
{
	struct timespec next;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		jobs[i].run = countjob;
		wspx_pool_inject(p, &jobs[i]);
		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	while (atomic_load_explicit(&done, memory_order_relaxed) < n)
		sched_yield();
}

static void
bench_trickle(long n, int threads, int reps)
{
	struct wspx_pool *p = newpool((unsigned)threads);
	struct wspx_job *jobs = calloc((size_t)n, sizeof(*jobs));
	struct wspx_pool_stats s0, s1;
	double *t = calloc((size_t)reps + 1, sizeof(*t)), c0, t0;
	double wakes = 0, cpu = 0;
	char extra[96];
	int r;

	for (r = 0; r <= reps; r++) {
		atomic_store(&done, 0);
		wspx_pool_stats(p, &s0);
		c0 = cpu_ms();
		t0 = now_ms();
		trickle(p, jobs, n);
		if (r == 0)
			continue;
		t[r - 1] = now_ms() - t0;
		cpu += cpu_ms() - c0;
		wspx_pool_stats(p, &s1);
		wakes += (double)(s1.wakes - s0.wakes);
	}
	snprintf(extra, sizeof(extra), " wakes_per_job=%.3f cpu_us_per_job="
	    "%.1f", wakes / (double)(n * reps), cpu * 1e3 / (double)(n * reps));
	report("trickle", n, threads, t, reps, (uint64_t)n,
	    (uint64_t)atomic_load(&done), extra);
	wspx_pool_free(p);
	free(jobs);
	free(t);
}

/* idle: fib(27) as a job injected from outside, the caller blocked, as in
 * the Rayon driver (rayon::scope from main): `threads` workers compute and
 * then go idle, and nothing else competes with them for the CPUs. */
struct fibjob {
	struct wspx_job job;
	struct fib f;
};

static void
runfib(struct wspx_worker *w, struct wspx_job *job)
{
	fib_par(w, &wspx_container_of(job, struct fibjob, job)->f);
}

static void
bench_idle(int threads)
{
	struct wspx_pool *p = newpool((unsigned)threads);
	struct fibjob fj = { .job.run = runfib };
	struct fib f = { 27, 0 };
	struct wspx_scope s;
	double c0, t0;
	int i;

	for (i = 0; i < 3; i++) {
		fj.f.n = 27;
		wspx_scope_init(&s, p, NULL);
		wspx_scope_spawn(&s, NULL, &fj.job);
		wspx_scope_wait(&s);
		f.r = fj.f.r;
	}
	c0 = cpu_ms();
	t0 = now_ms();
	sleep(1);
	printf("RESULT rt=wspx bench=idle param=0 threads=%d reps=1 "
	    "idle_wall_ms=%.1f idle_cpu_ms=%.2f check=%llu\n", threads,
	    now_ms() - t0, cpu_ms() - c0, (unsigned long long)f.r);
	wspx_pool_free(p);
}

int
main(int argc, char **argv)
{
	const char *bench;
	long param;
	int threads, reps;

	if (argc < 5) {
		fprintf(stderr, "usage: %s bench param threads reps\n",
		    argv[0]);
		return 2;
	}
	bench = argv[1];
	param = atol(argv[2]);
	threads = atoi(argv[3]);
	reps = atoi(argv[4]);
	if (threads < 1 || reps < 1)
		return 2;
	if (strcmp(bench, "fib") == 0 || strcmp(bench, "seqfib") == 0)
		bench_fib(bench, param, threads, reps);
	else if (strstr(bench, "sum") != NULL || strstr(bench, "mix") != NULL)
		bench_range(bench, param, threads, reps);
	else if (strncmp(bench, "inject", 6) == 0)
		bench_inject(bench, param, threads, reps);
	else if (strcmp(bench, "idle") == 0)
		bench_idle(threads);
	else if (strcmp(bench, "trickle") == 0)
		bench_trickle(param, threads, reps);
	else {
		fprintf(stderr, "unknown bench %s\n", bench);
		return 2;
	}
	return 0;
}
