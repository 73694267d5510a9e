/*
 * The timer (see timer.h): a binary min-heap of deadlines under one mutex,
 * and a thread that sleeps on a condition variable with the monotonic
 * clock until the earliest of them.  An add that makes a new earliest
 * deadline signals the thread, which then sleeps for less; other adds do
 * not wake it.  Due jobs are taken off the heap under the mutex and
 * injected after it is released, a batch with one CAS, so that a worker
 * adding its next deadline never waits on an injection.  Each timeout
 * knows its slot in the heap (index), kept up to date by every move.
 */
#include "timer.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "base/clock.h"
#include "os/thread.h"
#include "wspx.h"

/* Most jobs taken off the heap per injection. */
#define BATCH 64

struct wspx__timer {
	struct wspx__thread_loop loop;	/* its thread; cond: a new earliest
					 * deadline, or the end */
	struct wspx_pool *pool;
	struct wspx__timeout **heap;	/* loop.lock: a min-heap on at */
	size_t n, cap;			/* loop.lock */
};

static void
place(struct wspx__timer *t, struct wspx__timeout *e, size_t i)
{
	t->heap[i] = e;
	e->index = i;
}

/* Move heap[i] up to its place.  t->loop.lock is held. */
static void
siftup(struct wspx__timer *t, size_t i)
{
	struct wspx__timeout *e = t->heap[i];
	size_t parent;

	while (i > 0 && t->heap[parent = (i - 1) / 2]->at > e->at) {
		place(t, t->heap[parent], i);
		i = parent;
	}
	place(t, e, i);
}

/* Move heap[i] down to its place.  t->loop.lock is held. */
static void
siftdown(struct wspx__timer *t, size_t i)
{
	struct wspx__timeout *e = t->heap[i];
	size_t child;

	while ((child = 2 * i + 1) < t->n) {
		if (child + 1 < t->n &&
		    t->heap[child + 1]->at < t->heap[child]->at)
			child++;
		if (t->heap[child]->at >= e->at)
			break;
		place(t, t->heap[child], i);
		i = child;
	}
	place(t, e, i);
}

/* Take up to BATCH jobs due by now off the heap into due.  t->loop.lock is
 * held.  Returns how many. */
static size_t
takedue(struct wspx__timer *t, struct wspx_job **due, int64_t now)
{
	size_t k = 0;

	while (k < BATCH && t->n > 0 && t->heap[0]->at <= now) {
		due[k++] = t->heap[0]->job;
		if (--t->n > 0) {
			place(t, t->heap[t->n], 0);
			siftdown(t, 0);
		}
	}
	return k;
}

static void
inject(struct wspx__timer *t, struct wspx_job **jobs, size_t n)
{
	/* The pool outlives the timer (see wspx__timer_new): injection
	 * cannot fail. */
	if (wspx_pool_inject_n(t->pool, jobs, n) != 0)
		abort();
}

/* Inject every pending job, BATCH at a time.  t->loop.lock is not held. */
static void
drain(struct wspx__timer *t)
{
	struct wspx_job *due[BATCH];
	size_t n;

	do {
		WSPX_MUST(pthread_mutex_lock(&t->loop.lock));
		n = takedue(t, due, INT64_MAX);
		WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
		if (n > 0)
			inject(t, due, n);
	} while (n == BATCH);
}

/* Sleep until the earliest deadline, a signal, or a spurious wake-up; the
 * caller looks again either way.  t->loop.lock is held. */
static void
waitnext(struct wspx__timer *t)
{
	struct timespec due;
	int rc;

	if (t->n == 0) {
		WSPX_MUST(pthread_cond_wait(&t->loop.cond, &t->loop.lock));
		return;
	}
	due = wspx__clock_timespec(t->heap[0]->at);
	rc = pthread_cond_timedwait(&t->loop.cond, &t->loop.lock, &due);
	if (rc != 0 && rc != ETIMEDOUT)
		abort();
}

static void *
run(void *arg)
{
	struct wspx__timer *t = arg;
	struct wspx_job *due[BATCH];
	size_t n;

	WSPX_MUST(pthread_mutex_lock(&t->loop.lock));
	while (!t->loop.ending) {
		if ((n = takedue(t, due, wspx__clock_now())) == 0) {
			waitnext(t);
			continue;
		}
		WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
		inject(t, due, n);
		WSPX_MUST(pthread_mutex_lock(&t->loop.lock));
	}
	WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
	return NULL;
}

int
wspx__timer_new(struct wspx__timer **out, struct wspx_pool *pool)
{
	struct wspx__timer *t;
	int rc;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return -ENOMEM;
	t->pool = pool;
	if ((rc = wspx__thread_loop_start(&t->loop, run, t)) != 0) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void
wspx__timer_free(struct wspx__timer *t)
{
	if (t == NULL)
		return;
	/* (every job is taken once, under the lock, by this or the thread,
	 * which has injected what it took once it is joined) */
	drain(t);
	wspx__thread_loop_stop(&t->loop);
	free(t->heap);
	free(t);
}

/* Room for one more timeout.  t->loop.lock is held.  Returns false without
 * memory. */
static bool
reserve(struct wspx__timer *t)
{
	struct wspx__timeout **h;
	size_t cap;

	if (t->n < t->cap)
		return true;
	cap = t->cap != 0 ? 2 * t->cap : 16;
	if ((h = realloc(t->heap, cap * sizeof(*h))) == NULL)
		return false;
	t->heap = h;
	t->cap = cap;
	return true;
}

void
wspx__timer_add(struct wspx__timer *t, struct wspx__timeout *e, int64_t at,
    struct wspx_job *job)
{
	e->job = job;
	e->at = at;
	/* A deadline already past goes straight to the pool, and so does
	 * a job for which the heap has no room. */
	if (at > wspx__clock_now()) {
		WSPX_MUST(pthread_mutex_lock(&t->loop.lock));
		if (reserve(t)) {
			place(t, e, t->n++);
			siftup(t, e->index);
			/* Only a new earliest deadline shortens the wait. */
			if (e->index == 0)
				WSPX_MUST(pthread_cond_signal(&t->loop.cond));
			WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
			return;
		}
		WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
	}
	inject(t, &job, 1);
}

void
wspx__timer_fire_all(struct wspx__timer *t)
{
	drain(t);
}
