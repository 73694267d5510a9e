/*
 * A timer for jobs of the work-stealing pool: when a deadline passes, its
 * job is injected into the pool, so that what waits for a time (a sleep, a
 * poll every 50 ms) holds no worker while it waits.  One thread keeps the
 * deadlines in a binary min-heap; adding one costs O(log n) under a mutex.
 */
#ifndef WSPX_TIMER_H
#define WSPX_TIMER_H

#include <stddef.h>
#include <stdint.h>

struct wspx__timer;
struct wspx_job;
struct wspx_pool;

/* A pending deadline, embedded by the caller next to its job.  Between
 * wspx__timer_add() and the injection of job the timer owns it. */
struct wspx__timeout {
	struct wspx_job *job;	/* injected when at has passed */
	int64_t at;		/* the deadline, CLOCK_MONOTONIC ns (the
				 * clock of wspx__clock_now()) */
	size_t index;		/* its slot in the heap; the timer's */
};

/* Start a timer thread injecting into pool, which must accept injections
 * until wspx__timer_free() has returned.  Returns 0 and sets *t, or
 * -ENOMEM or -EAGAIN. */
int wspx__timer_new(struct wspx__timer **t, struct wspx_pool *pool);

/* Inject every job still pending at once, stop and join the thread, and
 * free t; NULL: no effect.  Call it when no job will add to t any more
 * (every user has ended): no thread may use t once this has begun. */
void wspx__timer_free(struct wspx__timer *t);

/* Have job injected once the monotonic clock reaches at (ns; a time
 * already past injects it at once).  e is the caller's, not pending, and
 * the timer's until job is injected: the job may then add e again.  Any
 * thread.  Never fails: without memory for the heap, job is injected now,
 * early, so a job must check its deadline itself. */
void wspx__timer_add(struct wspx__timer *t, struct wspx__timeout *e,
    int64_t at, struct wspx_job *job);

/* The run is stopping: inject every pending job now.  A job added after
 * this waits for its deadline as usual, so a caller that flags a stop
 * and then fires must fire again while the stop lasts (a builtin may
 * have read the flag just before it was set).  Any thread. */
void wspx__timer_fire_all(struct wspx__timer *t);

#endif /* WSPX_TIMER_H */
