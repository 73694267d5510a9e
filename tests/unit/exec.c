/*
 * Unit tests for the executor (lib/exec/exec.c, attempt.c): every
 * submitted job finishes exactly once, and the window empties, whatever
 * keeps jobs from the blocking pool in the middle of a handover.
 *
 * A handover gives the ready jobs at the head of the queue to the blocking
 * pool in batches of 64, under the executor's lock.  If a later batch is
 * kept back (the run stops, or the blocking pool refuses it), the batches
 * already queued belong to the blocking pool, which finishes them; only
 * the rest may be finished by the handover.
 *
 * A long handover needs jobs made ready out of order, and the oldest one
 * last.  The two workers of the work-stealing pool are held by blocker
 * jobs while a director job and then all the jobs are injected.  The
 * first worker let go takes them all: it keeps the oldest, the director,
 * and queues the others on its deque, where the second worker, let go by
 * the director, steals them newest first.  The director holds the first
 * worker until the run is over, so the second one routes every job, the
 * oldest last, and that route hands all of them over in one go.  The
 * program is linked with -Wl,--wrap=wspx_blocking_submit_n, so the test
 * sees each batch the executor queues and can act between two batches of
 * one handover: stop the run there, or refuse the next batch.  Jobs fail
 * in prepare, so none spawns a process.
 *
 * With a delay (of 1 ns, so that no time is lost), the jobs take tickets
 * for their turns as they are handed over: those kept back must not keep
 * one, or the jobs after them would wait for it forever (one more job
 * is run after a refusal, to see that it does not), and those queued
 * must give theirs up, in turn, once the run stops.
 *
 * A dry run's jobs are shown by one worker at a time, in input order:
 * job 1 is submitted alone, and while it is shown (its prepare waits, up
 * to 2 s, for another job's), the other jobs are submitted and routed by
 * the other worker, which must leave them to the first.  Shown by both,
 * the ordered output would hold every job shown ahead of its turn.
 *
 * usage: job [rounds]
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/output.h"
#include "os/thread.h"
#include "test.h"
#include "wspx.h"

#define NJOBS 8192

extern char **environ;

/* What the wrapped wspx_blocking_submit_n does after the first full batch
 * of a run (the first batch of a long handover). */
enum twist {
	NONE,
	STOP,		/* the run is stopped before the next batch */
	REFUSE		/* the next batch is refused, as with no thread */
};

int __real_wspx_blocking_submit_n(struct wspx_blocking *bp,
    struct wspx_task **tasks, size_t n);
int __wrap_wspx_blocking_submit_n(struct wspx_blocking *bp,
    struct wspx_task **tasks, size_t n);

struct testjob {
	struct wspx__execjob ej;
	_Atomic(int) finished;		/* times `finished` was called */
};

/* One round's state; the wrapper reaches it through `current`. */
struct run {
	struct wspx_pool *pool;
	struct wspx_blocking *bp;
	struct wspx__output *out;
	struct wspx__exec *x;
	int devnull;
	enum twist twist;
	int step;		/* 0, 1 after the first full batch, 2 done */
	_Atomic(int) stopping;	/* the stopper thread is about to stop */
	pthread_t stopper;
	_Atomic(bool) hold[2];	/* blocker job i waits while set */
	_Atomic(int) blocked;	/* blocker jobs running */
	struct wspx_job blockers[2];
	struct wspx_job director;
	struct testjob *jobs;
	bool dry;		/* a dry run (the test of showdry()) */
	_Atomic(bool) firstin;	/* job 1's prepare is running */
	_Atomic(int) showing;	/* prepares running */
	_Atomic(bool) overlap;	/* two ran at once */
	_Atomic(size_t) nshown;
	uint64_t *shown;	/* the jobs' seq, in the order shown */
};

static struct run *current;

static void *
stopmain(void *arg)
{
	struct run *r = arg;

	/* release: pairs with the acquire spin in twistafter(). */
	atomic_store_explicit(&r->stopping, 1, memory_order_release);
	wspx__exec_stop(r->x, SIGTERM);
	return NULL;
}

/* After a full batch was queued, with the executor's lock held by the
 * handover: make the next batch meet a stop (set by another thread: the
 * stop takes that lock after setting its flag), or a refusal. */
static void
twistafter(struct run *r)
{
	struct timespec ms = { 0, 20 * 1000000 };

	r->step = 1;
	if (r->twist != STOP)
		return;
	WSPX_MUST(pthread_create(&r->stopper, NULL, stopmain, r));
	/* acquire: see stopmain(). */
	while (atomic_load_explicit(&r->stopping, memory_order_acquire) == 0)
		sched_yield();
	/* The stop's flag is its first store; give the thread that long. */
	nanosleep(&ms, NULL);
}

int
__wrap_wspx_blocking_submit_n(struct wspx_blocking *bp,
    struct wspx_task **tasks, size_t n)
{
	struct run *r = current;
	int rc;

	if (r->step == 1 && r->twist == REFUSE) {
		r->step = 2;
		return -EAGAIN;
	}
	rc = __real_wspx_blocking_submit_n(bp, tasks, n);
	if (rc == 0 && n == 64 && r->step == 0)
		twistafter(r);
	return rc;
}

/* A dry run's job: note its turn and whether another job is being shown
 * too; job 1 waits for one (2 s at most). */
static void
showdry(struct run *r, struct wspx__execjob *ej)
{
	double t0 = test_now();

	/* relaxed: counts and flags read after the pools are shut down;
	 * job 1's wait only needs to see them eventually. */
	if (atomic_fetch_add_explicit(&r->showing, 1,
	    memory_order_relaxed) > 0)
		atomic_store_explicit(&r->overlap, true, memory_order_relaxed);
	r->shown[atomic_fetch_add_explicit(&r->nshown, 1,
	    memory_order_relaxed)] = ej->seq;
	if (ej->seq == 1) {
		atomic_store_explicit(&r->firstin, true, memory_order_relaxed);
		while (!atomic_load_explicit(&r->overlap,
		    memory_order_relaxed) && test_now() - t0 < 2)
			sched_yield();
	}
	atomic_fetch_sub_explicit(&r->showing, 1, memory_order_relaxed);
}

static int
prepare(void *ctx, struct wspx__execjob *ej, unsigned slot,
    struct wspx__cmd *cmd)
{
	struct run *r = ctx;

	(void)slot;
	(void)cmd;
	if (r->dry)
		showdry(r, ej);
	return -EPERM;
}

static void
started(void *ctx, struct wspx__execjob *ej, const struct wspx__cmd *cmd)
{
	(void)ctx;
	(void)ej;
	(void)cmd;
}

static void
cannotstart(void *ctx, struct wspx__execjob *ej, struct wspx__outjob *oj)
{
	(void)ctx;
	(void)ej;
	(void)oj;
}

static void
finished(void *ctx, struct wspx__execjob *ej)
{
	struct testjob *j = wspx_container_of(ej, struct testjob, ej);

	(void)ctx;
	/* relaxed: read after the pools are shut down, which orders it. */
	atomic_fetch_add_explicit(&j->finished, 1, memory_order_relaxed);
}

/* An attempt ended: nothing to log here. */
static void
ended(void *ctx, struct wspx__execjob *ej)
{
	(void)ctx;
	(void)ej;
}

static const struct wspx__exec_ops ops = {
	.prepare = prepare, .started = started, .cannotstart = cannotstart,
	.ended = ended, .halted = NULL, .finished = finished
};

/* A job that holds its worker until the test lets go. */
static void
blocker(struct wspx_worker *w, struct wspx_job *job)
{
	struct run *r = current;
	int i = job == &r->blockers[0] ? 0 : 1;

	(void)w;
	/* relaxed: a count the test waits on; hold is what orders. */
	atomic_fetch_add_explicit(&r->blocked, 1, memory_order_relaxed);
	/* acquire: pairs with the release that lets it go. */
	while (atomic_load_explicit(&r->hold[i], memory_order_acquire))
		sched_yield();
}

/* The oldest job of the first worker's batch: let the other worker go,
 * and keep this one away from the jobs until they have all finished (at
 * most 30 s: a job finished twice would keep the window from emptying). */
static void
direct(struct wspx_worker *w, struct wspx_job *job)
{
	struct run *r = current;
	double t0 = test_now();

	(void)w;
	(void)job;
	/* release: pairs with the acquire in blocker(). */
	atomic_store_explicit(&r->hold[1], false, memory_order_release);
	while (wspx__exec_inflight(r->x) > 0 && test_now() - t0 < 30)
		sched_yield();
}

static void
start(struct run *r, enum twist twist, bool dry, bool delay)
{
	struct wspx_pool_opts po = { 2 };
	struct wspx_blocking_opts bo = { 2, 0, 0 };
	struct wspx__output_opts oo;
	struct wspx__exec_opts xo;

	memset(r, 0, sizeof(*r));
	memset(&oo, 0, sizeof(oo));
	memset(&xo, 0, sizeof(xo));
	r->twist = twist;
	r->dry = xo.dry_run = dry;
	CHECK((r->devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0);
	CHECK(wspx_pool_new(&r->pool, &po) == 0);
	CHECK(wspx_blocking_new(&r->bp, &bo) == 0);
	oo.mode = WSPX_OUT_GROUP;
	oo.out_fd = oo.err_fd = r->devnull;
	CHECK(wspx__output_new(&r->out, &oo) == 0);
	xo.slots = 2;
	xo.delay_ns = delay ? 1 : 0;
	xo.window = NJOBS + 64;
	xo.in_fd = r->devnull;
	xo.env = environ;
	xo.output = r->out;
	xo.pool = r->pool;
	xo.blocking = r->bp;
	xo.ops = &ops;
	xo.ctx = r;
	CHECK(wspx__exec_new(&r->x, &xo) == 0);
	current = r;
}

static void
stop(struct run *r)
{
	wspx_blocking_shutdown(r->bp);
	wspx_pool_shutdown(r->pool);
	if (r->twist == STOP && r->step > 0)
		WSPX_MUST(pthread_join(r->stopper, NULL));
	wspx__exec_free(r->x);
	wspx_blocking_free(r->bp);
	wspx_pool_free(r->pool);
	wspx__output_free(r->out);
	close(r->devnull);
}

/* Hold both workers, submit NJOBS jobs, then let the workers go. */
static void
submitall(struct run *r)
{
	struct wspx__execjob **batch = calloc(NJOBS, sizeof(*batch));
	size_t i;

	CHECK(batch != NULL);
	CHECK((r->jobs = calloc(NJOBS, sizeof(*r->jobs))) != NULL);
	for (i = 0; i < NJOBS; i++) {
		r->jobs[i].ej.seq = i + 1;
		atomic_init(&r->jobs[i].finished, 0);
		batch[i] = &r->jobs[i].ej;
	}
	atomic_init(&r->blocked, 0);
	for (i = 0; i < 2; i++) {
		atomic_init(&r->hold[i], true);
		r->blockers[i].run = blocker;
		CHECK(wspx_pool_inject(r->pool, &r->blockers[i]) == 0);
	}
	WAITFOR(atomic_load_explicit(&r->blocked, memory_order_relaxed) == 2);
	r->director.run = direct;
	CHECK(wspx_pool_inject(r->pool, &r->director) == 0);
	CHECK(wspx__exec_reserve(r->x, NJOBS) == NJOBS);
	wspx__exec_submit(r->x, batch, NJOBS);
	/* release: see blocker(). */
	atomic_store_explicit(&r->hold[0], false, memory_order_release);
	free(batch);
}

/* One more job after the others, alone: it must not wait for a turn
 * that a job of theirs kept.  Returns whether it finished once. */
static bool
onemore(struct run *r)
{
	struct testjob j;
	struct wspx__execjob *ej = &j.ej;

	memset(&j, 0, sizeof(j));
	j.ej.seq = NJOBS + 1;
	atomic_init(&j.finished, 0);
	CHECK(wspx__exec_reserve(r->x, 1) == 1);
	wspx__exec_submit(r->x, &ej, 1);
	wspx__exec_wait(r->x);
	/* relaxed: exec_wait() returned after its finished, under x's
	 * lock. */
	return atomic_load_explicit(&j.finished, memory_order_relaxed) == 1;
}

/* One round; returns how many jobs did not finish exactly once. */
static long
oneround(enum twist twist, bool delay)
{
	struct run r;
	long bad = 0;
	size_t i;

	start(&r, twist, false, delay);
	submitall(&r);
	wspx__exec_wait(r.x);
	CHECK(wspx__exec_inflight(r.x) == 0);
	/* The jobs went over in one long handover, which met the twist. */
	CHECK(r.step != 0);
	if (twist == REFUSE && delay && !onemore(&r))
		bad++;
	stop(&r);
	for (i = 0; i < NJOBS; i++)
		/* relaxed: the threads that wrote it have been joined. */
		if (atomic_load_explicit(&r.jobs[i].finished,
		    memory_order_relaxed) != 1)
			bad++;
	free(r.jobs);
	return bad;
}

static void
test_twist(enum twist twist, bool delay, long rounds)
{
	long k, bad;

	for (k = 0; k < rounds; k++) {
		bad = oneround(twist, delay);
		CHECK(bad == 0);
		if (bad != 0 || test_failures != 0) {
			fprintf(stderr, "round %ld: %ld of %d jobs did not "
			    "finish exactly once\n", k, bad, NJOBS);
			return;
		}
	}
}

/* A dry run of n jobs: job 1 alone, then the others while it is shown. */
static void
test_dryturns(size_t n)
{
	struct wspx__execjob **batch = calloc(n, sizeof(*batch));
	struct run r;
	size_t i;

	start(&r, NONE, true, false);
	CHECK(batch != NULL);
	CHECK((r.jobs = calloc(n, sizeof(*r.jobs))) != NULL);
	CHECK((r.shown = calloc(n, sizeof(*r.shown))) != NULL);
	for (i = 0; i < n; i++) {
		r.jobs[i].ej.seq = i + 1;
		atomic_init(&r.jobs[i].finished, 0);
		batch[i] = &r.jobs[i].ej;
	}
	CHECK(wspx__exec_reserve(r.x, 1) == 1);
	wspx__exec_submit(r.x, batch, 1);
	WAITFOR(atomic_load_explicit(&r.firstin, memory_order_relaxed));
	CHECK(wspx__exec_reserve(r.x, n - 1) == n - 1);
	wspx__exec_submit(r.x, batch + 1, n - 1);
	wspx__exec_wait(r.x);
	stop(&r);
	/* relaxed: the threads that wrote them have been joined. */
	CHECK(!atomic_load_explicit(&r.overlap, memory_order_relaxed));
	CHECK(atomic_load_explicit(&r.nshown, memory_order_relaxed) == n);
	for (i = 0; i < n; i++) {
		CHECK(r.shown[i] == i + 1);
		CHECK(atomic_load_explicit(&r.jobs[i].finished,
		    memory_order_relaxed) == 1);
	}
	free(r.shown);
	free(r.jobs);
	free(batch);
}

int
main(int argc, char **argv)
{
	long rounds = test_arg(argc, argv, 1, 10);

	/* A double completion may hang the window: fail in a minute. */
	setenv("WSPX_TEST_TIMEOUT", "60", 0);
	TEST(test_twist(REFUSE, false, rounds), "job: the blocking pool "
	    "refuses a batch of a long handover: each job finishes once "
	    "(%ld rounds)", rounds);
	TEST(test_twist(STOP, false, rounds), "job: a stop during a long "
	    "handover, two workers: each job finishes once (%ld rounds)",
	    rounds);
	TEST(test_twist(REFUSE, true, rounds), "job: with a delay, a batch "
	    "refused gives back its tickets: each job finishes once "
	    "(%ld rounds)", rounds);
	TEST(test_twist(STOP, true, rounds), "job: with a delay, a stop "
	    "during a long handover: the tickets queued are given up, each "
	    "job finishes once (%ld rounds)", rounds);
	TEST(test_dryturns(1024), "job: a dry run's jobs are shown one at a "
	    "time, in turn, though two workers route them");
	return test_done();
}
