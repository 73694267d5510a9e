/*
 * The work-stealing pool's insides, shared by pool.c (threads, finding work,
 * waiting, injection, shutdown) and forkjoin.c (join and scopes).
 */
#ifndef WSPX_POOL_H
#define WSPX_POOL_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "atomic.h"
#include "deque.h"
#include "sleep.h"
#include "stack.h"
#include "wspx.h"

/* One worker slot: a pool thread, or the main slot lent to an outside
 * thread by wspx_pool_call(). */
struct wspx_worker {
	struct wspx__deque deque;	/* this worker's jobs */
	struct wspx_pool *pool;		/* the pool it belongs to */
	unsigned index;			/* slot in pool->workers and sleep */
	uint64_t rng;			/* victim choice; the slot's thread only */
	_Atomic(int) terminate;		/* latch the pool thread waits on */
	pthread_t thread;		/* the pool thread (not the main slot) */
	/* Counters written only by the thread in the slot (relaxed
	 * load-add-store), read by anyone. */
	alignas(WSPX_CACHELINE) _Atomic(uint64_t) executed;
	_Atomic(uint64_t) stolen;
	_Atomic(uint64_t) injected;
};

struct wspx_pool {
	struct wspx__sleep sleep;	/* counters and per-slot sleep state */
	struct wspx__stack injected;	/* jobs from wspx_pool_inject() */
	/* Injectors in flight times two, plus one once shutdown closed the
	 * gate (see gateenter() in pool.c). */
	alignas(WSPX_CACHELINE) _Atomic(uint64_t) gate;
	alignas(WSPX_CACHELINE) struct wspx_worker *workers; /* nworkers+1 */
	unsigned nworkers;		/* pool threads; the main slot is last */
	unsigned started;		/* pool threads created */
	unsigned ndeques;		/* slots whose deque is set up */
	pthread_mutex_t mainlock;	/* held by the main slot's user */
	bool down;			/* shutdown done; under mainlock */
	pthread_mutex_t extlock;	/* external waiters: see waitexternal */
	pthread_cond_t extcond;
};

/* Run job on w and count it; completes its scope, if any. */
void wspx__pool_execute(struct wspx_worker *w, struct wspx_job *job);

/* Queue job (scope NULL) on the deque of w, the calling worker, where it
 * runs next or is stolen, waking a sleeper if one is needed; with no
 * memory to queue it, run it now.  forkjoin.c */
void wspx__forkjoin_push(struct wspx_worker *w, struct wspx_job *job);

/* Run jobs on w until latch is set: own deque first, then steal, then the
 * injection stack, sleeping by the protocol of sleep.c when there is none.
 * latch is waited on by w's slot. */
void wspx__pool_wait_until(struct wspx_worker *w, _Atomic(int) *latch);

/* Block the calling thread, which is not a worker, until latch is set by
 * wspx__pool_set_external(). */
void wspx__pool_wait_external(struct wspx_pool *p, _Atomic(int) *latch);

/* Set a latch waited on by wspx__pool_wait_external().  Touches only p after
 * the store, so the waiter may free the latch once it returns. */
void wspx__pool_set_external(struct wspx_pool *p, _Atomic(int) *latch);

/* Queue the list first..last (n jobs, linked newest to oldest through
 * link.next) on the injection stack and wake workers for it.  Any thread.
 * Returns 0, or -ESHUTDOWN once shutdown has closed the gate. */
int wspx__pool_inject_list(struct wspx_pool *p, struct wspx_job *first,
    struct wspx_job *last, size_t n);

/* A job of scope s has returned; the last one sets s's latch.  forkjoin.c */
void wspx__forkjoin_scope_done(struct wspx_scope *s);

/* Add n to a counter only the calling slot writes. */
static inline void
wspx__bump(_Atomic(uint64_t) *c, uint64_t n)
{
	/* relaxed: single writer; readers only sum. */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) +
	    n, memory_order_relaxed);
}

#endif /* WSPX_POOL_H */
