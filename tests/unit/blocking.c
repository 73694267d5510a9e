/*
 * Unit tests for the blocking pool: it grows to its cap and no further,
 * queueing the rest; idle threads exit after the keep-alive; spurious
 * wake-ups neither run a task nor keep a thread alive; every task runs
 * exactly once while spurious wake-ups fly; at shutdown mandatory tasks run
 * and the others are cancelled; a thread that cannot be created is an
 * error value and the task is not lost.  A wait group returns once its
 * tasks have run, those they submit into it included, with what they wrote
 * visible and the pool's counters up to date; tasks cancelled at shutdown
 * release its waiters too; two groups of one pool wait each for its own;
 * a failed submit is not counted.  The group tests synchronize through
 * gates and the waits themselves, never through time.  The program is
 * linked with -Wl,--wrap=pthread_join, to count the pool's joins: the last
 * thread to exit is joined when the pool starts a thread again.
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

static void
gatewait(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

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
	if (g != NULL)
		gatewait(g);
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

/* A task of a wait group.  Its counts are plain ints, read after the
 * group's wait: the wait must make them visible (TSan checks that). */
struct gtask {
	struct wspx_task task;
	struct wspx_blocking_group *group;
	struct gate *gate;		/* NULL: return at once */
	struct gtask *nodes;		/* the array this task is in */
	int i, n;			/* submits nodes 2i+1, 2i+2 below n */
	int ran;			/* times run with status 0 */
	int cancelled;			/* times given -ECANCELED */
};

static void
gtaskrun(struct wspx_task *task, int status)
{
	struct gtask *t = wspx_container_of(task, struct gtask, task);
	int c;

	if (status != 0) {
		CHECK(status == -ECANCELED);
		t->cancelled++;
		return;
	}
	if (t->gate != NULL)
		gatewait(t->gate);
	for (c = 2 * t->i + 1; c <= 2 * t->i + 2 && c < t->n; c++)
		CHECK(wspx_blocking_group_submit(t->group,
		    &t->nodes[c].task) == 0);
	t->ran++;
}

/* n tasks of group g; with tree, task i submits tasks 2i+1 and 2i+2. */
static struct gtask *
gtasks(int n, struct wspx_blocking_group *g, bool tree, bool mandatory)
{
	struct gtask *t = calloc((size_t)n, sizeof(*t));
	int i;

	for (i = 0; i < n; i++) {
		t[i].task.run = gtaskrun;
		t[i].task.mandatory = mandatory;
		t[i].group = g;
		t[i].nodes = t;
		t[i].i = i;
		t[i].n = tree ? n : 0;
	}
	return t;
}

/* A thread waiting for a group, which opens `done` once the wait has
 * returned. */
struct waiter {
	pthread_t thread;
	struct wspx_blocking_group *group;
	struct gate done;
	_Atomic(bool) returned;
};

static void *
waitthread(void *arg)
{
	struct waiter *w = arg;

	wspx_blocking_group_wait(w->group);
	atomic_store(&w->returned, true);
	gateopen(&w->done);
	return NULL;
}

static void
waitstart(struct waiter *w, struct wspx_blocking_group *g)
{
	w->group = g;
	gateinit(&w->done);
	atomic_init(&w->returned, false);
	pthread_create(&w->thread, NULL, waitthread, w);
}

/* Submit tasks t[0..n) into g; the number that ran once, not cancelled. */
static void
gsubmit(struct wspx_blocking_group *g, struct gtask *t, int n)
{
	int i;

	for (i = 0; i < n; i++)
		CHECK(wspx_blocking_group_submit(g, &t[i].task) == 0);
}

/* A pool of cap threads with group *g1 and, if g2 is not NULL, *g2. */
static struct wspx_blocking *
gpool(unsigned cap, struct wspx_blocking_group **g1,
    struct wspx_blocking_group **g2)
{
	struct wspx_blocking_opts o = { .thread_cap = cap };
	struct wspx_blocking *bp;

	CHECK(wspx_blocking_new(&bp, &o) == 0);
	CHECK(wspx_blocking_group_new(g1, bp) == 0);
	if (g2 != NULL)
		CHECK(wspx_blocking_group_new(g2, bp) == 0);
	return bp;
}

/* Free the groups, then their pool. */
static void
gpoolfree(struct wspx_blocking *bp, struct wspx_blocking_group *g1,
    struct wspx_blocking_group *g2)
{
	wspx_blocking_group_free(g1);
	wspx_blocking_group_free(g2);
	wspx_blocking_free(bp);
}

/* How many of t[0..n) ran once (cancelled: were cancelled once) and did
 * not do the other. */
static int
gonce(const struct gtask *t, int n, bool cancelled)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += t[i].ran == !cancelled && t[i].cancelled == cancelled;
	return k;
}

static void
test_group(void)
{
	struct wspx_blocking *bp;
	struct wspx_blocking_group *g;
	struct gtask *t;

	bp = gpool(4, &g, NULL);
	wspx_blocking_group_wait(g);	/* empty: returns at once */
	t = gtasks(2000, g, false, false);
	gsubmit(g, t, 1000);
	wspx_blocking_group_wait(g);
	/* Every task ran, and the pool counted it before the wait
	 * returned: the counters are not a moment behind. */
	CHECK(gonce(t, 1000, false) == 1000);
	CHECK(stats(bp).executed == 1000);
	/* The group serves again. */
	gsubmit(g, t + 1000, 1000);
	wspx_blocking_group_wait(g);
	CHECK(gonce(t, 2000, false) == 2000);
	CHECK(stats(bp).executed == 2000);
	gpoolfree(bp, g, NULL);	/* freeing NULL does nothing */
	free(t);
}

static void
test_group_nested(void)
{
	struct wspx_blocking *bp;
	struct wspx_blocking_group *g;
	struct waiter w;
	struct gate root;
	struct gtask *t;

	bp = gpool(4, &g, NULL);
	/* A binary tree of 1023 tasks, each submitting its children into
	 * the group as it runs; the root waits on a gate. */
	t = gtasks(1023, g, true, false);
	gateinit(&root);
	t[0].gate = &root;
	gsubmit(g, t, 1);
	waitstart(&w, g);
	/* The root has not returned: the waiter cannot have either. */
	CHECK(!atomic_load(&w.returned));
	gateopen(&root);
	pthread_join(w.thread, NULL);
	CHECK(gonce(t, 1023, false) == 1023);
	CHECK(stats(bp).executed == 1023);
	gpoolfree(bp, g, NULL);
	free(t);
}

static void
test_group_cancelled(void)
{
	struct wspx_blocking *bp;
	struct wspx_blocking_group *may, *must;
	struct gtask *a, *b;
	struct waiter w;
	struct gate g;
	pthread_t down;

	bp = gpool(1, &may, &must);
	/* The one thread is held by b[0], mandatory, which waits on a gate;
	 * behind it wait the tasks of `may`, which are not mandatory, and
	 * more of `must`, which are. */
	gateinit(&g);
	a = gtasks(5, may, false, false);
	b = gtasks(4, must, false, true);
	b[0].gate = &g;
	gsubmit(must, b, 1);
	gsubmit(may, a, 5);
	gsubmit(must, b + 1, 3);
	waitstart(&w, may);
	pthread_create(&down, NULL, shutdownthread, bp);
	/* Only the shutdown can finish the tasks of `may`, cancelling them,
	 * while b[0] still holds the thread: their waiter returns. */
	gatewait(&w.done);
	pthread_join(w.thread, NULL);
	CHECK(gonce(a, 5, true) == 5);
	gateopen(&g);
	wspx_blocking_group_wait(must);
	CHECK(gonce(b, 4, false) == 4);
	CHECK(stats(bp).executed == 4);	/* cancelled ones do not count */
	pthread_join(down, NULL);
	/* Refused after shutdown, and not counted: the wait returns. */
	CHECK(wspx_blocking_group_submit(may, &a[0].task) == -ESHUTDOWN);
	wspx_blocking_group_wait(may);
	CHECK(a[0].cancelled == 1);
	gpoolfree(bp, may, must);
	free(a);
	free(b);
}

static void
test_group_two(void)
{
	struct wspx_blocking *bp;
	struct wspx_blocking_group *slow, *fast;
	struct gtask *s, *f;
	struct waiter w;
	struct gate g;

	bp = gpool(2, &slow, &fast);
	gateinit(&g);
	s = gtasks(1, slow, false, false);
	f = gtasks(100, fast, false, false);
	s[0].gate = &g;
	gsubmit(slow, s, 1);
	waitstart(&w, slow);
	/* `fast` is done while the task of `slow` holds one of the two
	 * threads: its wait does not wait for `slow`. */
	gsubmit(fast, f, 100);
	wspx_blocking_group_wait(fast);
	CHECK(gonce(f, 100, false) == 100);
	CHECK(!atomic_load(&w.returned));
	CHECK(s[0].ran == 0);	/* its gate is shut */
	gateopen(&g);
	pthread_join(w.thread, NULL);
	CHECK(gonce(s, 1, false) == 1);
	CHECK(stats(bp).executed == 101);
	gpoolfree(bp, slow, fast);
	free(s);
	free(f);
}

static void
test_group_spawn_failure(void)
{
	struct wspx_blocking_opts o = { .stack_size = (size_t)1 << 60 };
	struct wspx_blocking *bp;
	struct wspx_blocking_group *g;
	struct gtask *t = gtasks(1, NULL, false, true);
	int rc;

	CHECK(wspx_blocking_new(&bp, &o) == 0);
	CHECK(wspx_blocking_group_new(&g, bp) == 0);
	rc = wspx_blocking_group_submit(g, &t[0].task);
	CHECK(rc == -EAGAIN || rc == -ENOMEM);
	/* Not queued, so not counted: the wait returns at once. */
	wspx_blocking_group_wait(g);
	wspx_blocking_group_free(g);
	wspx_blocking_free(bp);
	CHECK(t[0].ran == 0 && t[0].cancelled == 0);
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
	TEST(test_group(), "blocking group: 1000 tasks waited for, twice; "
	    "the counters up to date");
	TEST(test_group_nested(), "blocking group: a tree of 1023 tasks "
	    "submitted by the group's own tasks");
	TEST(test_group_cancelled(), "blocking group: tasks cancelled at "
	    "shutdown release the waiter");
	TEST(test_group_two(), "blocking group: two groups of one pool "
	    "wait each for its own");
	TEST(test_group_spawn_failure(), "blocking group: a task that could "
	    "not be queued is not counted");
	return test_done();
}
