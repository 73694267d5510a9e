/*
 * Unit tests for the sleep/wake protocol (lib/runtime/sleep.c).
 *
 * The first tests drive the module directly: a test thread plays an idle
 * worker, calling wspx__sleep_no_work_found() a counted number of times,
 * while the main thread plays posters, setters and wakers, and checks the
 * packed counters after each step.
 *
 * The last test is the lost-wake-up stress on a real pool: hundreds of
 * thousands of cycles of "inject one job, wait for it", with gaps chosen so
 * that the injection lands in every phase of the workers' idle path (still
 * yielding, sleepy, falling asleep, asleep).  A watchdog thread fails the
 * test if any job waits more than WATCHDOG_S seconds.
 *
 * usage: sleep [workers [cycles]]
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "runtime/sleep.h"
#include "runtime/stack.h"
#include "test.h"
#include "wspx.h"

#define WATCHDOG_S 5.0
/* The lost wake-up stress stops after this long even with cycles left:
 * how many cycles a machine gets through depends on its load (each waits
 * for the workers to fall asleep), a lost wake-up does not. */
#define STRESS_BUDGET_S 120.0

/* A test thread acting as the idle worker of slot `index`. */
struct idler {
	struct wspx__sleep *s;
	struct wspx__stack *injected;
	unsigned index;
	_Atomic(int) latch;		/* the event it waits for */
	_Atomic(int) allowed;		/* calls it may make; -1: unbounded */
	_Atomic(int) calls;		/* calls it has made */
	_Atomic(int) inside;		/* 1 while inside a call */
	pthread_t thread;
};

static void *
idlermain(void *arg)
{
	struct idler *d = arg;
	struct wspx__idle idle;

	wspx__sleep_start_looking(d->s, &idle, d->index);
	while (!wspx__sleep_latch_probe(&d->latch)) {
		if (atomic_load(&d->allowed) >= 0 &&
		    atomic_load(&d->calls) >= atomic_load(&d->allowed)) {
			sched_yield();
			continue;
		}
		atomic_store(&d->inside, 1);
		wspx__sleep_no_work_found(d->s, &idle, &d->latch, d->injected);
		atomic_store(&d->inside, 0);
		atomic_fetch_add(&d->calls, 1);
	}
	wspx__sleep_work_found(d->s, false, d->injected);
	return NULL;
}

static void
startidler(struct idler *d, struct wspx__sleep *s, struct wspx__stack *inj,
    unsigned index, int allowed)
{
	d->s = s;
	d->injected = inj;
	d->index = index;
	atomic_init(&d->latch, WSPX__LATCH_UNSET);
	atomic_init(&d->allowed, allowed);
	atomic_init(&d->calls, 0);
	atomic_init(&d->inside, 0);
	pthread_create(&d->thread, NULL, idlermain, d);
}

static void
stopidler(struct idler *d)
{
	wspx__sleep_latch_set(d->s, &d->latch, d->index);
	pthread_join(d->thread, NULL);
}

static uint64_t
counters(struct wspx__sleep *s)
{
	return atomic_load(&s->counters);
}

/* Let d make exactly n calls in all, and wait until it has made them. */
static void
stepto(struct idler *d, int n)
{
	atomic_store(&d->allowed, n);
	WAITFOR(atomic_load(&d->calls) == n);
}

static void
test_progressive(void)
{
	struct wspx__sleep s;
	struct wspx__stack inj;
	struct idler d;

	CHECK(wspx__sleep_init(&s, 1) == 0);
	wspx__stack_init(&inj);
	startidler(&d, &s, &inj, 0, 32);
	/* 32 yield rounds: still not sleepy, JEC untouched (0, even). */
	stepto(&d, 32);
	CHECK(wspx__inactive(counters(&s)) == 1);
	CHECK(wspx__jec(counters(&s)) == 0);
	/* Call 33 announces: an even JEC stays even, nobody sleeps. */
	stepto(&d, 33);
	CHECK(wspx__jec(counters(&s)) % 2 == 0);
	CHECK(wspx__sleeping(counters(&s)) == 0);
	/* Call 34 blocks; the waker, not the sleeper, uncounts it. */
	atomic_store(&d.allowed, 34);
	WAITFOR(wspx__sleeping(counters(&s)) == 1);
	CHECK(atomic_load(&d.calls) == 33 && atomic_load(&d.inside) == 1);
	CHECK(wspx__sleep_wake_specific(&s, 0));
	CHECK(wspx__sleeping(counters(&s)) == 0);
	WAITFOR(atomic_load(&d.calls) == 34);
	CHECK(!wspx__sleep_wake_specific(&s, 0));
	stopidler(&d);
	CHECK(atomic_load(&s.sleepers[0].sleeps) == 1);
	CHECK(atomic_load(&s.sleepers[0].wakes) == 1);
	CHECK((counters(&s) & 0xffffffffu) == 0);	/* none inactive */
	wspx__sleep_fini(&s);
}

static void
test_jec_change(void)
{
	struct wspx__sleep s;
	struct wspx__stack inj;
	struct idler d;
	uint32_t jec;

	CHECK(wspx__sleep_init(&s, 1) == 0);
	wspx__stack_init(&inj);
	startidler(&d, &s, &inj, 0, 33);
	stepto(&d, 33);
	jec = wspx__jec(counters(&s));
	/* A job posted between the announcement and the sleep: the poster
	 * makes the JEC odd, and the worker does not sleep. */
	wspx__sleep_new_jobs(&s, 1, true);
	CHECK(wspx__jec(counters(&s)) == jec + 1);
	stepto(&d, 34);
	CHECK(wspx__sleeping(counters(&s)) == 0);
	CHECK(atomic_load(&s.sleepers[0].sleeps) == 0);
	/* It goes back to just before announcing: announce, then sleep. */
	stepto(&d, 35);
	CHECK(wspx__jec(counters(&s)) == jec + 2);
	atomic_store(&d.allowed, 36);
	WAITFOR(wspx__sleeping(counters(&s)) == 1);
	stopidler(&d);
	CHECK(wspx__sleeping(counters(&s)) == 0);
	CHECK(wspx__inactive(counters(&s)) == 0);
	wspx__sleep_fini(&s);
}

static void
test_latch_and_last_look(void)
{
	struct wspx__sleep s;
	struct wspx__stack inj;
	struct wspx_stack_link node;
	struct idler d;
	bool empty;

	CHECK(wspx__sleep_init(&s, 1) == 0);
	wspx__stack_init(&inj);
	/* The latch set while the worker is sleepy: it never blocks. */
	startidler(&d, &s, &inj, 0, 33);
	stepto(&d, 33);
	wspx__sleep_latch_set(&s, &d.latch, 0);
	atomic_store(&d.allowed, -1);
	pthread_join(d.thread, NULL);
	CHECK(atomic_load(&s.sleepers[0].sleeps) == 0);
	CHECK(wspx__sleeping(counters(&s)) == 0);
	/* A job on the injection stack that came with no JEC toggle (the
	 * poster's fence has not run yet): the last look after registering
	 * finds it; the worker takes its own registration back. */
	startidler(&d, &s, &inj, 0, 33);
	stepto(&d, 33);
	wspx__stack_push(&inj, &node, &node, &empty);
	stepto(&d, 34);
	CHECK(wspx__sleeping(counters(&s)) == 0);
	CHECK(atomic_load(&s.sleepers[0].sleeps) == 0);
	stopidler(&d);
	wspx__sleep_fini(&s);
}

/* Start n idlers and wait until all of them are blocked. */
static void
allasleep(struct idler *d, unsigned n, struct wspx__sleep *s,
    struct wspx__stack *inj)
{
	unsigned i;

	for (i = 0; i < n; i++)
		startidler(&d[i], s, inj, i, -1);
	WAITFOR(wspx__sleeping(counters(s)) == n);
}

/* All n idlers are blocked: let each finish the call it is blocked in
 * and make no more, so that a woken idler stays awake until the checks
 * that follow have read the count (else, on a loaded machine, it can go
 * back to sleep first). */
static void
holdawake(struct idler *d, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		atomic_store(&d[i].allowed, atomic_load(&d[i].calls) + 1);
}

/* Let the idlers call again, wait until all n are blocked, hold them. */
static void
resleep(struct idler *d, unsigned n, struct wspx__sleep *s)
{
	unsigned i;

	for (i = 0; i < n; i++)
		atomic_store(&d[i].allowed, -1);
	WAITFOR(wspx__sleeping(counters(s)) == n);
	holdawake(d, n);
}

static void
test_wake_counts(void)
{
	struct wspx__sleep s;
	struct wspx__stack inj;
	struct wspx_stack_link node;
	struct wspx__idle me;
	struct idler d[4];
	unsigned i;
	bool empty;

	CHECK(wspx__sleep_init(&s, 5) == 0);
	wspx__stack_init(&inj);
	allasleep(d, 4, &s, &inj);
	holdawake(d, 4);
	/* One job, queue had work: exactly one sleeper is woken, and the
	 * count drops before the poster returns (the waker decrements). */
	wspx__sleep_new_jobs(&s, 1, false);
	CHECK(wspx__sleeping(counters(&s)) == 3);
	resleep(d, 4, &s);
	wspx__sleep_new_jobs(&s, 2, false);
	CHECK(wspx__sleeping(counters(&s)) == 2);
	resleep(d, 4, &s);
	/* An awake idle worker (this thread, in slot 4) will find a job
	 * posted to an empty queue: nobody is woken for it... */
	wspx__sleep_start_looking(&s, &me, 4);
	wspx__sleep_new_jobs(&s, 1, true);
	CHECK(wspx__sleeping(counters(&s)) == 4);
	/* ...but two jobs need one more thread. */
	wspx__sleep_new_jobs(&s, 2, true);
	CHECK(wspx__sleeping(counters(&s)) == 3);
	resleep(d, 4, &s);
	/* A worker (this one) that stops looking with no work left in
	 * sight, having taken the only job or seen its latch set, wakes
	 * nobody... */
	wspx__sleep_work_found(&s, false, &inj);
	CHECK(wspx__sleeping(counters(&s)) == 4);
	/* ...but with a job on the injection stack it wakes two, as it does
	 * when it saw jobs left on a deque. */
	wspx__stack_push(&inj, &node, &node, &empty);
	wspx__sleep_start_looking(&s, &me, 4);
	wspx__sleep_work_found(&s, false, &inj);
	CHECK(wspx__sleeping(counters(&s)) == 2);
	/* (These idlers take no jobs: empty the stack for them, or their
	 * last look keeps them from sleeping.) */
	CHECK(wspx__stack_take_all(&inj) == &node);
	resleep(d, 4, &s);
	wspx__sleep_start_looking(&s, &me, 4);
	wspx__sleep_work_found(&s, true, &inj);
	CHECK(wspx__sleeping(counters(&s)) == 2);
	for (i = 0; i < 4; i++)
		stopidler(&d[i]);
	CHECK(wspx__sleeping(counters(&s)) == 0);
	CHECK(wspx__inactive(counters(&s)) == 0);
	wspx__sleep_fini(&s);
}

/* The lost-wake-up stress. */
struct stress {
	struct wspx_pool *pool;
	struct wspx_job job;
	_Atomic(long) ran;
	_Atomic(uint64_t) pending_ns;	/* when the job was queued; 0: none */
	_Atomic(bool) stop;
	long cycle;
};

static uint64_t
nowns(void)
{
	return (uint64_t)(test_now() * 1e9);
}

static void
stressjob(struct wspx_worker *w, struct wspx_job *job)
{
	struct stress *st = wspx_container_of(job, struct stress, job);

	(void)w;
	atomic_store(&st->pending_ns, 0);
	atomic_fetch_add(&st->ran, 1);
}

static void *
watchdog(void *arg)
{
	struct stress *st = arg;
	struct wspx_pool_stats ps;
	uint64_t since;

	while (!atomic_load(&st->stop)) {
		since = atomic_load(&st->pending_ns);
		if (since != 0 && nowns() - since > WATCHDOG_S * 1e9) {
			wspx_pool_stats(st->pool, &ps);
			printf("not ok - cycle %ld: job queued %.0f s and not "
			    "run (idle %u, sleeping %u, sleeps %llu, wakes "
			    "%llu): lost wake-up\n", st->cycle, WATCHDOG_S,
			    ps.idle, ps.sleeping,
			    (unsigned long long)ps.sleeps,
			    (unsigned long long)ps.wakes);
			fflush(stdout);
			_exit(1);
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return NULL;
}

/* The idle gap before the next injection: none, a short spin into the
 * yield or sleepy phase, or until every worker has blocked. */
static void
gap(struct stress *st, unsigned *seed, unsigned workers)
{
	struct wspx_pool_stats ps;
	unsigned kind = (unsigned)rand_r(seed) % 4, n, i;

	if (kind == 0)
		return;
	if (kind == 3) {
		for (;;) {
			wspx_pool_stats(st->pool, &ps);
			if (ps.sleeping == workers)
				return;
			sched_yield();
		}
	}
	n = (unsigned)rand_r(seed) % (kind == 1 ? 200 : 5000);
	for (i = 0; i < n; i++)
		cpu_relax();
}

static void
test_lost_wakeup(unsigned workers, long cycles)
{
	struct wspx_pool_opts o = { .workers = workers };
	struct wspx_pool_stats ps;
	struct stress st;
	pthread_t dog;
	unsigned seed = 7;
	uint64_t end;

	CHECK(wspx_pool_new(&st.pool, &o) == 0);
	atomic_init(&st.ran, 0);
	atomic_init(&st.pending_ns, 0);
	atomic_init(&st.stop, false);
	pthread_create(&dog, NULL, watchdog, &st);
	end = nowns() + STRESS_BUDGET_S * 1e9;
	for (st.cycle = 0; st.cycle < cycles && nowns() < end; st.cycle++) {
		gap(&st, &seed, workers);
		st.job.run = stressjob;
		atomic_store(&st.pending_ns, nowns());
		CHECK(wspx_pool_inject(st.pool, &st.job) == 0);
		while (atomic_load(&st.ran) == st.cycle)
			sched_yield();
	}
	atomic_store(&st.stop, true);
	pthread_join(dog, NULL);
	wspx_pool_stats(st.pool, &ps);
	CHECK(atomic_load(&st.ran) == st.cycle);
	CHECK(ps.injected == (uint64_t)st.cycle);
	CHECK(ps.sleeps > 0 && ps.wakes > 0);
	printf("# %ld of %ld cycles: %llu sleeps, %llu wakes\n", st.cycle,
	    cycles,
	    (unsigned long long)ps.sleeps, (unsigned long long)ps.wakes);
	wspx_pool_free(st.pool);
}

int
main(int argc, char **argv)
{
	unsigned workers = (unsigned)test_arg(argc, argv, 1, 4);
	long cycles = test_arg(argc, argv, 2, 200000);

	TEST(test_progressive(), "sleep: 32 yields, announce, one more "
	    "round, block; the waker uncounts");
	TEST(test_jec_change(), "sleep: a job posted after the "
	    "announcement prevents the sleep");
	TEST(test_latch_and_last_look(), "sleep: latch set while sleepy; "
	    "last look at the injection stack");
	TEST(test_wake_counts(), "sleep: new jobs wake only as many as "
	    "needed; a leaver wakes two only for work left");
	TEST(test_lost_wakeup(workers, cycles), "sleep: %ld inject-after-"
	    "idle cycles on %u workers (or as many as %.0f s allow), none "
	    "waited %.0f s", cycles, workers, STRESS_BUDGET_S, WATCHDOG_S);
	return test_done();
}
