/*
 * Chase-Lev work-stealing deque of job pointers.  One owner thread pushes
 * and pops at the bottom (LIFO); any thread steals at the top (FIFO).
 *
 * Reclamation rule: the deque never allocates or frees jobs.  A ring buffer
 * replaced by a grow is not freed, because a thief that loaded the old
 * pointer may still read one of its slots; it is kept on the owner's list of
 * retired buffers and freed in wspx__deque_fini(), which the pool calls only
 * after every thread that could steal has been joined.  Buffers only double,
 * so the retired ones together are smaller than the live one.
 */
#ifndef WSPX_DEQUE_H
#define WSPX_DEQUE_H

#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atomic.h"

struct wspx_job;

/* A ring buffer of job pointers; capacity is mask + 1, a power of two.  In
 * the header only because push and pop are inline. */
struct wspx__ring {
	int64_t mask;
	struct wspx__ring *retired;	/* the smaller ring this one replaced */
	_Atomic(struct wspx_job *) slot[];
};

/* Embedded in each worker, so the hot path reaches it without a pointer. */
struct wspx__deque {
	/* Next index to steal; advanced only by a CAS (thieves, or the owner
	 * racing them for the last job). */
	alignas(WSPX_CACHELINE) _Atomic(int64_t) top;
	/* One past the newest job; written only by the owner. */
	alignas(WSPX_CACHELINE) _Atomic(int64_t) bottom;
	/* The live ring; replaced only by the owner, in a grow. */
	_Atomic(struct wspx__ring *) ring;
};

/* Set up an empty deque whose ring holds `capacity` jobs (rounded up to a
 * power of two) before its first grow.  Returns 0 or -ENOMEM. */
int wspx__deque_init(struct wspx__deque *d, size_t capacity);

/* Free the live ring and every retired one.  No thread may touch d any more:
 * the caller has joined every possible thief. */
void wspx__deque_fini(struct wspx__deque *d);

/* Owner only: replace the full ring r by one twice its size holding the
 * same jobs t..b-1 and return it, or NULL if out of memory.  Out of line so
 * that the rare grow does not weigh on every push. */
struct wspx__ring *wspx__deque_grow(struct wspx__deque *d,
    struct wspx__ring *r, int64_t t, int64_t b);

/* Push job at the bottom; owner only.  Wait-free unless the ring is full, when
 * it grows (an allocation).  Sets *was_empty when no job was queued before.
 * Returns 0, or -ENOMEM if the ring could not grow: job was not queued.
 * Inline, as pop, for the fork-join hot path; the protocol is in deque.c. */
static inline int
wspx__deque_push(struct wspx__deque *d, struct wspx_job *job, bool *was_empty)
{
	int64_t b, t;
	struct wspx__ring *r;

	/* relaxed: only the owner writes bottom and the ring pointer. */
	b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
	/* acquire: a thief's CAS that advanced top read its slot first; we
	 * may overwrite that slot only after, so pair with that CAS. */
	t = atomic_load_explicit(&d->top, memory_order_acquire);
	r = atomic_load_explicit(&d->ring, memory_order_relaxed);
	if (b - t > r->mask && (r = wspx__deque_grow(d, r, t, b)) == NULL)
		return -ENOMEM;
	/* relaxed: published by the release store of bottom. */
	atomic_store_explicit(&r->slot[b & r->mask], job, memory_order_relaxed);
	*was_empty = b <= t;
	/* release: the slot, and the job it points to, are visible before the
	 * new bottom; pairs with the acquire load of bottom in steal. */
	atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
	return 0;
}

/* Pop the newest job; owner only.  Returns NULL when the deque is empty or a
 * thief won the race for its last job. */
static inline struct wspx_job *
wspx__deque_pop(struct wspx__deque *d)
{
	int64_t b, t;
	struct wspx__ring *r;
	struct wspx_job *job;

	/* relaxed: only the owner writes bottom and the ring pointer. */
	b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
	r = atomic_load_explicit(&d->ring, memory_order_relaxed);
	/* release: as every store of bottom (see deque.c, Ordering). */
	atomic_store_explicit(&d->bottom, b, WSPX_FENCED(memory_order_release));
	/* seq_cst fence: the decrement of bottom is ordered before the load
	 * of top (store-to-load); pairs with the fence in steal. */
	wspx__fence_seq_cst();
	t = atomic_load_explicit(&d->top, WSPX_FENCED(memory_order_relaxed));
	if (t > b) {
		/* release: as every store of bottom (deque.c, Ordering). */
		atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
		return NULL;
	}
	job = atomic_load_explicit(&r->slot[b & r->mask], memory_order_relaxed);
	if (t == b) {
		/* seq_cst: the last job; the CAS on top that thieves use
		 * decides who takes it. */
		if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1,
		    memory_order_seq_cst, memory_order_relaxed))
			job = NULL;
		/* release: as every store of bottom (deque.c, Ordering). */
		atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
	}
	return job;
}

/* Steal the oldest job.  Any thread may call this.  Lock-free.  Returns NULL
 * if d looked empty or the race was lost; the caller tries elsewhere. */
struct wspx_job *wspx__deque_steal(struct wspx__deque *d);

/* Number of queued jobs as seen at one instant, by two relaxed loads: no
 * fence, so it may lag a push or a steal by another thread.  0 from the
 * owner means empty (a stale top only makes it look fuller).  Any thread
 * may call this. */
int64_t wspx__deque_len(struct wspx__deque *d);

#endif /* WSPX_DEQUE_H */
