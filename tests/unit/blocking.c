/*
 * Unit tests for the blocking pool: it grows to its cap and no further,
 * queueing the rest; idle threads exit after the keep-alive; spurious
 * wake-ups neither run a task nor keep a thread alive; every task runs
 * exactly once while spurious wake-ups fly; at shutdown mandatory tasks run
 * and the others are cancelled; a thread that cannot be created is an
 * error value and the task is not lost.  The program is linked with
 * -Wl,--wrap=pthread_join, to count the pool's joins: the last thread to
 * exit is joined when the pool starts a thread again.
 *
 * usage: blocking
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/blocking.h"
#include "test.h"
#include "wspx.h"

#define MS 1000000ULL

/* Joins made by the pool (the tests themselves join none while they
 * count). */
static _Atomic(int) joins;

int __real_pthread_join(pthread_t t, void **ret);
int __wrap_pthread_join(pthread_t t, void **ret);

int
__wrap_pthread_join(pthread_t t, void **ret)
{
	atomic_fetch_add(&joins, 1);
	return __real_pthread_join(t, ret);
}

/* A task that may wait on a gate before returning. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;
};

struct btask {
	struct wspx_task task;
	struct gate *gate;		/* NULL: return at once */
	_Atomic(int) ran;		/* times run with status 0 */
	_Atomic(int) cancelled;		/* times given -ECANCELED */
};

static void
btaskrun(struct wspx_task *task, int status)
{
	struct btask *t = wspx_container_of(task, struct btask, task);
	struct gate *g = t->gate;

	if (status == -ECANCELED) {
		atomic_fetch_add(&t->cancelled, 1);
		return;
	}
	CHECK(status == 0);
	if (g != NULL) {
		pthread_mutex_lock(&g->lock);
		while (!g->open)
			pthread_cond_wait(&g->cond, &g->lock);
		pthread_mutex_unlock(&g->lock);
	}
	atomic_fetch_add(&t->ran, 1);
}

static void
gateinit(struct gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->open = false;
}

static void
gateopen(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static struct btask *
tasks(int n, struct gate *g, bool mandatory)
{
	struct btask *t = calloc((size_t)n, sizeof(*t));
	int i;

	for (i = 0; i < n; i++) {
		t[i].task.run = btaskrun;
		t[i].task.mandatory = mandatory;
		t[i].gate = g;
	}
	return t;
}

static struct wspx_blocking_stats
stats(struct wspx_blocking *bp)
{
	struct wspx_blocking_stats s;

	wspx_blocking_stats(bp, &s);
	return s;
}

static void
test_cap(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 4 };
	struct wspx_blocking *bp;
	struct gate g;
	struct btask *t;
	int i;

	gateinit(&g);
	t = tasks(10, &g, false);
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	CHECK(stats(bp).threads == 0);
	for (i = 0; i < 10; i++)
		CHECK(wspx_blocking_submit(bp, &t[i].task) == 0);
	/* Four threads, each blocked in a task; six tasks wait. */
	CHECK(stats(bp).threads == 4);
	WAITFOR(stats(bp).queued == 6);
	CHECK(stats(bp).idle == 0);
	gateopen(&g);
	WAITFOR(stats(bp).executed == 10);
	for (i = 0; i < 10; i++)
		CHECK(atomic_load(&t[i].ran) == 1);
	WAITFOR(stats(bp).idle == 4);
	CHECK(stats(bp).queued == 0 && stats(bp).threads == 4);
	wspx_blocking_free(bp);
	free(t);
}

static void
test_keepalive(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 8,
	    .keep_alive_ns = 100 * MS };
	struct wspx_blocking *bp;
	struct gate g, again;
	struct btask *t;
	double t0;
	int i;

	gateinit(&g);
	t = tasks(8, &g, false);
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	for (i = 0; i < 8; i++)
		CHECK(wspx_blocking_submit(bp, &t[i].task) == 0);
	CHECK(stats(bp).threads == 8);
	gateopen(&g);
	/* All idle, then all gone after about 100 ms; the exiting threads
	 * join one another (ASan and valgrind would see a leaked one). */
	WAITFOR(stats(bp).executed == 8);
	/* The counters are statistics; `ran` is what orders the tasks'
	 * reads of t[] before our reuse of t[0] below. */
	for (i = 0; i < 8; i++)
		CHECK(atomic_load(&t[i].ran) == 1);
	t0 = test_now();
	atomic_store(&joins, 0);
	WAITFOR(stats(bp).threads == 0);
	CHECK(test_now() - t0 < 2.0);
	CHECK(stats(bp).idle == 0);
	/* Each exiting thread joined the one before it: the last one waits
	 * for a join (a thread counts itself out just before its join). */
	WAITFOR(atomic_load(&joins) == 7);
	/* The pool grows again on demand, and the new thread joins the last
	 * exited one before it runs a task. */
	gateinit(&again);
	t[0].gate = &again;
	CHECK(wspx_blocking_submit(bp, &t[0].task) == 0);
	WAITFOR(stats(bp).threads == 1 && stats(bp).queued == 0);
	WAITFOR(atomic_load(&joins) == 8);
	gateopen(&again);
	WAITFOR(atomic_load(&t[0].ran) == 2);
	CHECK(stats(bp).threads == 1);
	wspx_blocking_free(bp);
	free(t);
}

static void
test_spurious(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 4,
	    .keep_alive_ns = 400 * MS };
	struct wspx_blocking *bp;
	struct gate g;
	struct btask *t;
	double idle_at, t0;
	int i;

	gateinit(&g);
	t = tasks(4, &g, false);
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	for (i = 0; i < 4; i++)
		CHECK(wspx_blocking_submit(bp, &t[i].task) == 0);
	gateopen(&g);
	WAITFOR(stats(bp).idle == 4);
	idle_at = test_now();
	/* Wake the idle threads spuriously every 5 ms for 200 ms: no task
	 * runs, no thread leaves early. */
	for (t0 = test_now(); test_now() - t0 < 0.2;) {
		wspx__blocking_spurious_wakeup(bp);
		nanosleep(&(struct timespec){ 0, 5 * MS }, NULL);
	}
	CHECK(stats(bp).executed == 4);
	CHECK(stats(bp).threads == 4 && stats(bp).idle == 4);
	/* Nor do they extend the keep-alive, counted from going idle. */
	while (stats(bp).threads > 0 && test_now() - idle_at < 5) {
		wspx__blocking_spurious_wakeup(bp);
		nanosleep(&(struct timespec){ 0, 5 * MS }, NULL);
	}
	CHECK(stats(bp).threads == 0);
	CHECK(test_now() - idle_at < 0.4 + 0.6);
	wspx_blocking_free(bp);
	free(t);
}

/* Tasks submitted from several threads while spurious wake-ups fly:
 * each runs exactly once (num_notify keeps wake-ups and tasks matched). */
static struct wspx_blocking *shared;
static _Atomic(bool) spurring;

static void *
spur(void *arg)
{
	(void)arg;
	while (atomic_load(&spurring))
		wspx__blocking_spurious_wakeup(shared);
	return NULL;
}

static void *
submitter(void *arg)
{
	struct btask *t = arg;
	int i;

	for (i = 0; i < 2000; i++) {
		CHECK(wspx_blocking_submit(shared, &t[i].task) == 0);
		if (i % 64 == 0)
			sched_yield();
	}
	return NULL;
}

static void
test_exactly_once(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 3,
	    .keep_alive_ns = 1 * MS };
	struct btask *t[4];
	pthread_t s[4], sp;
	long bad = 0;
	int i, k;

	CHECK(wspx_blocking_new(&shared, &o) == 0);
	atomic_store(&spurring, true);
	pthread_create(&sp, NULL, spur, NULL);
	for (k = 0; k < 4; k++) {
		t[k] = tasks(2000, NULL, false);
		pthread_create(&s[k], NULL, submitter, t[k]);
	}
	for (k = 0; k < 4; k++)
		pthread_join(s[k], NULL);
	WAITFOR(stats(shared).executed == 8000);
	atomic_store(&spurring, false);
	pthread_join(sp, NULL);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < 2000; i++)
			bad += atomic_load(&t[k][i].ran) != 1;
		free(t[k]);
	}
	CHECK(bad == 0);
	CHECK(stats(shared).threads <= 3);
	wspx_blocking_free(shared);
}

/* Open the gate once shutdown has had time to begin. */
static void *
openlater(void *arg)
{
	nanosleep(&(struct timespec){ 0, 100 * MS }, NULL);
	gateopen(arg);
	return NULL;
}

static void
test_shutdown(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 1 };
	struct wspx_blocking *bp;
	struct gate g;
	struct btask *first, *must, *may;
	pthread_t opener;
	int i;

	gateinit(&g);
	first = tasks(1, &g, false);
	must = tasks(3, NULL, true);
	may = tasks(3, NULL, false);
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	/* One thread, busy in `first`; six tasks wait behind it. */
	CHECK(wspx_blocking_submit(bp, &first[0].task) == 0);
	for (i = 0; i < 3; i++) {
		CHECK(wspx_blocking_submit(bp, &may[i].task) == 0);
		CHECK(wspx_blocking_submit(bp, &must[i].task) == 0);
	}
	WAITFOR(stats(bp).queued == 6);
	/* Shutdown waits for the running task: open its gate later. */
	pthread_create(&opener, NULL, openlater, &g);
	wspx_blocking_shutdown(bp);
	pthread_join(opener, NULL);
	CHECK(atomic_load(&first[0].ran) == 1);
	for (i = 0; i < 3; i++) {
		CHECK(atomic_load(&must[i].ran) == 1);
		CHECK(atomic_load(&must[i].cancelled) == 0);
		CHECK(atomic_load(&may[i].ran) == 0);
		CHECK(atomic_load(&may[i].cancelled) == 1);
	}
	CHECK(stats(bp).threads == 0 && stats(bp).queued == 0);
	CHECK(wspx_blocking_submit(bp, &may[0].task) == -ESHUTDOWN);
	wspx_blocking_shutdown(bp);	/* again: nothing happens */
	wspx_blocking_free(bp);
	wspx_blocking_free(NULL);
	free(first);
	free(must);
	free(may);
}

/* Tasks that record the order they ran in. */
struct otask {
	struct wspx_task task;
	int id;
};

static int order[16], norder;

static void
otaskrun(struct wspx_task *task, int status)
{
	struct otask *t = wspx_container_of(task, struct otask, task);

	if (status == 0)
		order[norder++] = t->id;	/* one thread: no race */
}

static void
test_submit_n(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 1 };
	struct wspx_blocking_opts huge = { .stack_size = (size_t)1 << 60 };
	struct wspx_blocking *bp;
	struct otask t[16];
	struct wspx_task *p[16];
	int i;

	for (i = 0; i < 16; i++) {
		t[i].task.run = otaskrun;
		t[i].task.mandatory = true;
		t[i].id = i;
		p[i] = &t[i].task;
	}
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	CHECK(wspx_blocking_submit_n(bp, p, 16) == 0);
	wspx_blocking_shutdown(bp);	/* runs the mandatory rest */
	CHECK(norder == 16);
	for (i = 0; i < norder; i++)
		CHECK(order[i] == i);	/* one thread: in submission order */
	wspx_blocking_free(bp);
	/* No thread can start: none of the batch is queued. */
	CHECK(wspx_blocking_new(&bp, &huge) == 0);
	CHECK(wspx_blocking_submit_n(bp, p, 16) < 0);
	CHECK(stats(bp).queued == 0);
	wspx_blocking_free(bp);
	CHECK(norder == 16);
}

/* Shut bp down, from another thread. */
static void *
shutdownthread(void *arg)
{
	wspx_blocking_shutdown(arg);
	return NULL;
}

static void
test_shutdown_twice(void)
{
	struct wspx_blocking_opts o = { .thread_cap = 1 };
	struct wspx_blocking *bp;
	struct gate g;
	struct btask *t;
	pthread_t first, opener;

	gateinit(&g);
	t = tasks(1, &g, false);
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	CHECK(wspx_blocking_submit(bp, &t[0].task) == 0);
	/* The task must be running, not queued: a shutdown would cancel a
	 * queued one (ASan on a loaded machine caught that race). */
	WAITFOR(stats(bp).queued == 0);
	pthread_create(&first, NULL, shutdownthread, bp);
	nanosleep(&(struct timespec){ 0, 50 * MS }, NULL);
	pthread_create(&opener, NULL, openlater, &g);
	/* The second call returns only once the first has finished, so the
	 * running task is done and the pool's threads are joined. */
	wspx_blocking_shutdown(bp);
	CHECK(atomic_load(&t[0].ran) == 1);
	CHECK(stats(bp).threads == 0);
	pthread_join(first, NULL);
	pthread_join(opener, NULL);
	wspx_blocking_free(bp);
	free(t);
}

static void
test_spawn_failure(void)
{
	/* No system can map a stack this large: thread creation fails. */
	struct wspx_blocking_opts o = { .stack_size = (size_t)1 << 60 };
	struct wspx_blocking_opts tiny = { .stack_size = 1 };
	struct wspx_blocking *bp;
	struct btask *t = tasks(1, NULL, true);
	int rc;

	CHECK(wspx_blocking_new(&bp, &tiny) == -EINVAL);
	CHECK(wspx_blocking_new(&bp, &o) == 0);
	rc = wspx_blocking_submit(bp, &t[0].task);
	CHECK(rc == -EAGAIN || rc == -ENOMEM);
	/* Not queued, not run, not lost: still the caller's. */
	CHECK(stats(bp).queued == 0 && stats(bp).threads == 0);
	CHECK(stats(bp).spawn_failures == 1);
	wspx_blocking_free(bp);
	CHECK(atomic_load(&t[0].ran) == 0);
	CHECK(atomic_load(&t[0].cancelled) == 0);
	free(t);
}

int
main(void)
{
	TEST(test_cap(), "blocking: grows to its cap of 4, queues the rest");
	TEST(test_keepalive(), "blocking: idle threads exit after the "
	    "keep-alive, the pool grows again");
	TEST(test_spurious(), "blocking: spurious wake-ups run nothing and "
	    "do not extend the keep-alive");
	TEST(test_exactly_once(), "blocking: 8000 tasks from 4 threads "
	    "amid spurious wake-ups, each run once");
	TEST(test_shutdown(), "blocking: shutdown runs mandatory tasks, "
	    "cancels the others");
	TEST(test_submit_n(), "blocking: a batch with one lock, run in order; "
	    "none queued if no thread starts");
	TEST(test_shutdown_twice(), "blocking: a second shutdown waits for "
	    "the first");
	TEST(test_spawn_failure(), "blocking: a thread that cannot be "
	    "created is an error, the task is not lost");
	return test_done();
}
