/*
 * The blocking pool of Volt's design (the "Volt blocking pool" notes):
 * for jobs that block (wait for a child process), which must never occupy
 * a work-stealing worker.
 *
 * One mutex guards an intrusive FIFO of tasks, the list of live threads and
 * num_notify.  submit() queues the task, then wakes an idle thread (taking
 * it out of the idle count and adding one to num_notify), or starts a
 * thread if none is idle and the cap allows, or leaves the task queued for
 * the next thread that finishes.  A waiting thread treats a wake-up as real
 * only if it can take one from num_notify; any other return from the
 * condvar is spurious and it waits again for what is left of its
 * keep-alive, measured from when it became idle, so spurious wake-ups
 * neither make it run nor keep it alive.  A thread idle for the whole
 * keep-alive leaves the live list, becomes the pool's last exiting thread
 * and joins the one before it, so no handle is leaked and nothing is
 * detached.  The last one to exit is joined by the next thread the pool
 * starts, as it starts (its stack is then free for the new one, which
 * glibc reuses), or by shutdown, which joins the rest.
 *
 * The counters for threads, idle threads and queue depth are atomics that
 * are written under the mutex and read without it.  A thread leaves the
 * count when it retires, just before it joins its predecessor and returns,
 * so for a moment more than thread_cap threads may exist; never more than
 * thread_cap run tasks.
 *
 * A wait group (struct wspx_blocking_group) counts its tasks that are
 * queued or running in `pending`, guarded by bp->lock like the queue, so
 * it has no lock and no atomic of its own.  A submit counts a task in the
 * critical section that queues it, so a task that is not queued is never
 * counted.  The thread that runs the task, or that cancels it at shutdown,
 * takes it off in the critical section after its function has returned,
 * after the executed counter, and broadcasts the group's condvar if the
 * count is then zero.  Waiters test the count and wait on that condvar
 * with bp->lock held, so no wake-up is lost, and the lock hands them what
 * the tasks wrote and the counters.  A task that submits into its own
 * group counts its children before it is taken off, so the count reaches
 * zero only once all have returned.  Nobody touches a group after the
 * critical section that brings its count to zero: a waiter may free it as
 * soon as its wait returns.
 */
#include "blocking.h"

#include <errno.h>
#include <limits.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "base/clock.h"
#include "os/thread.h"
#include "wspx.h"

#define DEFAULT_CAP		512
#define DEFAULT_KEEP_ALIVE_NS	(10ULL * 1000000000ULL)

/* One pool thread. */
struct bthread {
	pthread_t thread;
	struct bthread *next;		/* in the live list; lock */
	struct bthread *prev;		/* an exited thread to join first */
	struct wspx_blocking *bp;
};

struct wspx_blocking {
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* idle threads wait here */
	struct wspx_task *head, *tail;	/* the queue; lock */
	unsigned num_notify;		/* wake-ups owed to idle threads; lock */
	bool shutdown;			/* begun; lock */
	bool down;			/* finished; lock */
	pthread_cond_t downcond;	/* later shutdown calls wait here */
	struct bthread *live;		/* threads not exiting; lock */
	struct bthread *exiting;	/* last exited, not yet joined; lock */
	unsigned cap;
	uint64_t keep_alive_ns;
	size_t stack_size;
	/* Written under lock (relaxed load-add-store), read by anyone. */
	alignas(WSPX_CACHELINE) _Atomic(unsigned) nthreads;
	_Atomic(unsigned) nidle;
	_Atomic(unsigned) queued;
	_Atomic(uint64_t) executed;
	_Atomic(uint64_t) spawn_failures;
};

struct wspx_blocking_group {
	struct wspx_blocking *bp;	/* where the tasks run */
	pthread_cond_t cond;		/* waiters wait here; bp->lock */
	size_t pending;			/* tasks queued or running; bp->lock */
};

/* Add d to a counter written only under bp->lock. */
static void
addu(_Atomic(unsigned) *c, int d)
{
	/* relaxed: the lock orders writers; readers want a recent value. */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) +
	    (unsigned)d, memory_order_relaxed);
}

static void
add64(_Atomic(uint64_t) *c)
{
	/* relaxed: as addu(). */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) +
	    1, memory_order_relaxed);
}

static unsigned
getu(_Atomic(unsigned) *c)
{
	/* relaxed: as addu(). */
	return atomic_load_explicit(c, memory_order_relaxed);
}

int
wspx_blocking_new(struct wspx_blocking **out,
    const struct wspx_blocking_opts *opts)
{
	struct wspx_blocking *bp;

	if (opts != NULL && opts->stack_size > 0 &&
	    (long)opts->stack_size < sysconf(_SC_THREAD_STACK_MIN))
		return -EINVAL;
	if ((bp = aligned_alloc(WSPX_CACHELINE, sizeof(*bp))) == NULL)
		return -ENOMEM;
	memset(bp, 0, sizeof(*bp));
	bp->cap = opts != NULL && opts->thread_cap > 0 ? opts->thread_cap :
	    DEFAULT_CAP;
	bp->keep_alive_ns = opts != NULL && opts->keep_alive_ns > 0 ?
	    opts->keep_alive_ns : DEFAULT_KEEP_ALIVE_NS;
	bp->stack_size = opts != NULL ? opts->stack_size : 0;
	WSPX_MUST(pthread_mutex_init(&bp->lock, NULL));
	wspx__thread_cond_monotonic(&bp->cond);
	WSPX_MUST(pthread_cond_init(&bp->downcond, NULL));
	atomic_init(&bp->nthreads, 0);
	atomic_init(&bp->nidle, 0);
	atomic_init(&bp->queued, 0);
	atomic_init(&bp->executed, 0);
	atomic_init(&bp->spawn_failures, 0);
	*out = bp;
	return 0;
}

/* Take the oldest task; lock held. */
static struct wspx_task *
dequeue(struct wspx_blocking *bp)
{
	struct wspx_task *t = bp->head;

	if (t != NULL) {
		if ((bp->head = t->next) == NULL)
			bp->tail = NULL;
		addu(&bp->queued, -1);
	}
	return t;
}

static void
enqueue(struct wspx_blocking *bp, struct wspx_task *t)
{
	t->next = NULL;
	if (bp->tail != NULL)
		bp->tail->next = t;
	else
		bp->head = t;
	bp->tail = t;
	addu(&bp->queued, 1);
}

/* The keep-alive deadline, keep_alive_ns from now. */
static struct timespec
deadline(const struct wspx_blocking *bp)
{
	/* (a keep-alive of a century or more is as good as none) */
	const int64_t century = WSPX_NS_PER_S * 86400 * 365 * 100;

	return wspx__clock_timespec(wspx__clock_now() +
	    (bp->keep_alive_ns < (uint64_t)century ?
	    (int64_t)bp->keep_alive_ns : century));
}

/* Wait idle until notified (true), shutdown (true) or the keep-alive ends
 * with nothing to do (false).  lock held; we are counted idle on entry and
 * not on return. */
static bool
idlewait(struct wspx_blocking *bp)
{
	struct timespec until = deadline(bp);
	int rc;

	for (;;) {
		rc = pthread_cond_timedwait(&bp->cond, &bp->lock, &until);
		if (rc != 0 && rc != ETIMEDOUT)
			abort();
		if (bp->num_notify > 0) {
			/* The notifier took us out of the idle count. */
			bp->num_notify--;
			return true;
		}
		if (bp->shutdown || bp->head != NULL || rc == ETIMEDOUT) {
			addu(&bp->nidle, -1);
			return bp->shutdown || bp->head != NULL;
		}
		/* A spurious wake-up: wait out the same deadline. */
	}
}

/* Leave the live list and become the last exiting thread; lock held.
 * Returns the previous exiting thread, for the caller to join. */
static struct bthread *
retire(struct wspx_blocking *bp, struct bthread *me)
{
	struct bthread **pp, *prev;

	for (pp = &bp->live; *pp != me; pp = &(*pp)->next)
		;
	*pp = me->next;
	prev = bp->exiting;
	bp->exiting = me;
	return prev;
}

/* Take a task that has returned off its group's count, if it has a group,
 * and wake the group's waiters if none is left; bp->lock held. */
static void
groupdone(struct wspx_blocking_group *g)
{
	if (g != NULL && --g->pending == 0)
		WSPX_MUST(pthread_cond_broadcast(&g->cond));
}

/* Run queued tasks until none is left; lock held, released around each. */
static void
drain(struct wspx_blocking *bp)
{
	struct wspx_blocking_group *g;
	struct wspx_task *t;

	while ((t = dequeue(bp)) != NULL) {
		g = t->group;	/* t may be freed by its function */
		WSPX_MUST(pthread_mutex_unlock(&bp->lock));
		t->run(t, 0);
		WSPX_MUST(pthread_mutex_lock(&bp->lock));
		add64(&bp->executed);
		groupdone(g);	/* after executed: waiters see it */
	}
}

/* Join th, an exited pool thread, and free it, if there is one. */
static void
joinexited(struct bthread *th)
{
	if (th == NULL)
		return;
	WSPX_MUST(pthread_join(th->thread, NULL));
	free(th);
}

static void *
threadmain(void *arg)
{
	struct bthread *me = arg, *prev = NULL;
	struct wspx_blocking *bp = me->bp;

	joinexited(me->prev);
	WSPX_MUST(pthread_mutex_lock(&bp->lock));
	for (;;) {
		drain(bp);
		if (bp->shutdown)
			break;
		addu(&bp->nidle, 1);
		if (!idlewait(bp)) {
			prev = retire(bp, me);
			break;
		}
	}
	addu(&bp->nthreads, -1);
	WSPX_MUST(pthread_mutex_unlock(&bp->lock));
	joinexited(prev);
	return NULL;
}

/* Start a thread; lock held.  Returns 0 or a negative errno value. */
static int
spawn(struct wspx_blocking *bp)
{
	struct bthread *t;
	int rc;

	if ((t = malloc(sizeof(*t))) == NULL)
		return -ENOMEM;
	t->bp = bp;
	/* The new thread joins the last exited one: it may be long before
	 * another thread exits and would. */
	t->prev = bp->exiting;
	if ((rc = wspx__thread_start(&t->thread, bp->stack_size, threadmain,
	    t)) != 0) {
		free(t);
		return rc;
	}
	bp->exiting = NULL;
	t->next = bp->live;
	bp->live = t;
	addu(&bp->nthreads, 1);
	return 0;
}

/* Get a thread for each of n new tasks: wake an idle one, or start one
 * while under the cap.  lock held.  Returns 0, or the error of a failed
 * start (the tasks stay queued). */
static int
staff(struct wspx_blocking *bp, size_t n)
{
	int rc;

	for (; n > 0; n--) {
		if (getu(&bp->nidle) > 0) {
			addu(&bp->nidle, -1);
			bp->num_notify++;
			WSPX_MUST(pthread_cond_signal(&bp->cond));
		} else if (getu(&bp->nthreads) < bp->cap) {
			if ((rc = spawn(bp)) != 0) {
				add64(&bp->spawn_failures);
				return rc;
			}
		} else {
			break;	/* they wait for a busy thread */
		}
	}
	return 0;
}

/* Queue tasks[0..n) as tasks of g (or of none, if g is NULL) and staff
 * them, as wspx_blocking_submit_n() says. */
static int
submitn(struct wspx_blocking *bp, struct wspx_task **tasks, size_t n,
    struct wspx_blocking_group *g)
{
	size_t i;
	int rc;

	WSPX_MUST(pthread_mutex_lock(&bp->lock));
	if (bp->shutdown) {
		WSPX_MUST(pthread_mutex_unlock(&bp->lock));
		return -ESHUTDOWN;
	}
	for (i = 0; i < n; i++) {
		tasks[i]->group = g;
		enqueue(bp, tasks[i]);
	}
	if ((rc = staff(bp, n)) != 0 && getu(&bp->nthreads) == 0) {
		/* Nobody to run them: the queue held only these tasks
		 * (threads never exit while tasks wait). */
		bp->head = bp->tail = NULL;
		addu(&bp->queued, -(int)n);
	} else {
		rc = 0;	/* a live thread will take them */
		if (g != NULL)
			g->pending += n;
	}
	WSPX_MUST(pthread_mutex_unlock(&bp->lock));
	return rc;
}

int
wspx_blocking_submit_n(struct wspx_blocking *bp, struct wspx_task **tasks,
    size_t n)
{
	return submitn(bp, tasks, n, NULL);
}

int
wspx_blocking_submit(struct wspx_blocking *bp, struct wspx_task *task)
{
	return wspx_blocking_submit_n(bp, &task, 1);
}

/* Unlink the queued tasks that are not mandatory, oldest first; lock held. */
static struct wspx_task *
takecancelled(struct wspx_blocking *bp)
{
	struct wspx_task *t, *keep = NULL, **kp = &keep, *drop = NULL;
	struct wspx_task **dp = &drop;

	while ((t = dequeue(bp)) != NULL) {
		if (t->mandatory) {
			*kp = t;
			kp = &t->next;
		} else {
			*dp = t;
			dp = &t->next;
		}
	}
	*kp = *dp = NULL;
	for (t = keep; t != NULL; t = keep) {
		keep = t->next;
		enqueue(bp, t);
	}
	return drop;
}

void
wspx_blocking_shutdown(struct wspx_blocking *bp)
{
	struct wspx_task *drop, *t;
	struct wspx_blocking_group *g;
	struct bthread *live, *last, *th;

	WSPX_MUST(pthread_mutex_lock(&bp->lock));
	if (bp->shutdown) {
		while (!bp->down)
			WSPX_MUST(pthread_cond_wait(&bp->downcond, &bp->lock));
		WSPX_MUST(pthread_mutex_unlock(&bp->lock));
		return;
	}
	bp->shutdown = true;
	drop = takecancelled(bp);
	WSPX_MUST(pthread_cond_broadcast(&bp->cond));
	live = bp->live;
	last = bp->exiting;
	bp->live = bp->exiting = NULL;
	WSPX_MUST(pthread_mutex_unlock(&bp->lock));
	for (; drop != NULL; drop = t) {
		t = drop->next;
		g = drop->group;
		drop->run(drop, -ECANCELED);
		if (g != NULL) {	/* a cancelled task returns too */
			WSPX_MUST(pthread_mutex_lock(&bp->lock));
			groupdone(g);
			WSPX_MUST(pthread_mutex_unlock(&bp->lock));
		}
	}
	for (; live != NULL; live = th) {
		th = live->next;
		joinexited(live);
	}
	joinexited(last);
	/* Mandatory tasks no thread was alive to run. */
	WSPX_MUST(pthread_mutex_lock(&bp->lock));
	drain(bp);
	bp->down = true;
	WSPX_MUST(pthread_cond_broadcast(&bp->downcond));
	WSPX_MUST(pthread_mutex_unlock(&bp->lock));
}

void
wspx_blocking_free(struct wspx_blocking *bp)
{
	if (bp == NULL)
		return;
	wspx_blocking_shutdown(bp);
	WSPX_MUST(pthread_cond_destroy(&bp->downcond));
	WSPX_MUST(pthread_cond_destroy(&bp->cond));
	WSPX_MUST(pthread_mutex_destroy(&bp->lock));
	free(bp);
}

void
wspx_blocking_stats(struct wspx_blocking *bp, struct wspx_blocking_stats *out)
{
	out->threads = getu(&bp->nthreads);
	out->idle = getu(&bp->nidle);
	out->queued = getu(&bp->queued);
	/* relaxed: each counter is read on its own. */
	out->executed = atomic_load_explicit(&bp->executed,
	    memory_order_relaxed);
	out->spawn_failures = atomic_load_explicit(&bp->spawn_failures,
	    memory_order_relaxed);
}

int
wspx_blocking_group_new(struct wspx_blocking_group **out,
    struct wspx_blocking *bp)
{
	struct wspx_blocking_group *g;

	if ((g = malloc(sizeof(*g))) == NULL)
		return -ENOMEM;
	g->bp = bp;
	WSPX_MUST(pthread_cond_init(&g->cond, NULL));
	g->pending = 0;
	*out = g;
	return 0;
}

int
wspx_blocking_group_submit(struct wspx_blocking_group *g,
    struct wspx_task *task)
{
	return submitn(g->bp, &task, 1, g);
}

void
wspx_blocking_group_wait(struct wspx_blocking_group *g)
{
	WSPX_MUST(pthread_mutex_lock(&g->bp->lock));
	while (g->pending > 0)
		WSPX_MUST(pthread_cond_wait(&g->cond, &g->bp->lock));
	WSPX_MUST(pthread_mutex_unlock(&g->bp->lock));
}

void
wspx_blocking_group_free(struct wspx_blocking_group *g)
{
	if (g == NULL)
		return;
	wspx_blocking_group_wait(g);
	WSPX_MUST(pthread_cond_destroy(&g->cond));
	free(g);
}

void
wspx__blocking_spurious_wakeup(struct wspx_blocking *bp)
{
	WSPX_MUST(pthread_mutex_lock(&bp->lock));
	WSPX_MUST(pthread_cond_broadcast(&bp->cond));
	WSPX_MUST(pthread_mutex_unlock(&bp->lock));
}
