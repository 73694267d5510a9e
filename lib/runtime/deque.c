/*
 * The Chase-Lev work-stealing deque (Chase and Lev, SPAA 2005) with the C11
 * orderings of Le, Pop, Cohen and Zappa Nardelli, "Correct and Efficient
 * Work-Stealing for Weak Memory Models" (PPoPP 2013), figure 1.
 *
 * Protocol.
 *   Jobs with indices top <= i < bottom are queued; job i lives in
 *   ring->slot[i & ring->mask].  Indices are signed 64-bit and only grow, so
 *   pop may compute bottom - 1 = -1 on an empty deque without wrapping, and
 *   no index is reused within 2^63 operations (no ABA on top).
 *   - push (owner): write the slot, then publish it with a release store of
 *     bottom.  Linearizes at that store.
 *   - steal (any): read top, then bottom; if top < bottom, read the slot and
 *     claim index top with a CAS top -> top + 1.  Linearizes at the CAS.  The
 *     slot is read before the CAS because after it the owner may reuse it.
 *   - pop (owner): decrement bottom first, then read top.  If more than one
 *     job was queued it takes the bottom job with no atomic read-modify-write
 *     (linearizes at the store of bottom); for the last job it races the
 *     thieves with the same CAS on top (linearizes at the CAS).
 *   The store of bottom in pop and the load of top that follows it are
 *   separated by a seq_cst fence, as are the loads of top and bottom in
 *   steal.  The fences give the Dekker property: if the owner's load of top
 *   misses a thief's claim, that thief's load of bottom sees the decrement,
 *   so it finds the deque empty or competes by CAS for the same last job.
 *   Two claims of one index are impossible because every claim that can
 *   overlap another is a CAS of top from the same value.
 *
 * Ordering.  Every store of bottom is a release (a plain store on x86), and
 * thieves read bottom with acquire: whichever value of bottom a thief reads,
 * it synchronizes with the store that wrote it, which comes after the
 * writes of every slot below it.  Le et al. publish with a release fence
 * before a relaxed store in push and let the stores of pop continue that
 * release sequence; C11 allows that, but C++20 dropped the rule, so we do
 * not lean on it.
 *
 * Growth.  When push finds the ring full it copies the queued indices into a
 * ring twice the size at the same logical positions and publishes it with a
 * release store; push then reloads the ring before writing its slot (the
 * first pitfall: writing into the old ring loses the job).  A thief reads the
 * ring pointer after bottom: if it saw a bottom written after the grow, the
 * acquire/release pair on bottom makes it see the new ring too.  A thief
 * holding the old ring reads an index that was copied, never one written
 * later, and its CAS on top is what decides ownership, so a steal racing a
 * grow hands the job to exactly one thread.
 *
 * push and pop are inline in deque.h, for the fork-join hot path; this
 * comment is their protocol too.
 *
 * Reclamation.  Old rings stay allocated until wspx__deque_fini() (see
 * deque.h): a thief may be between loading the ring pointer and reading it.
 */
#include "deque.h"

#include <errno.h>
#include <stdlib.h>

static struct wspx__ring *
newring(int64_t capacity)
{
	struct wspx__ring *r;

	/* calloc: a thief with a stale top may read a slot that was never
	 * copied; its CAS then fails and the value is ignored, but it must be
	 * a defined value. */
	r = calloc(1, sizeof(*r) + (size_t)capacity * sizeof(r->slot[0]));
	if (r == NULL)
		return NULL;
	r->mask = capacity - 1;
	return r;
}

int
wspx__deque_init(struct wspx__deque *d, size_t capacity)
{
	int64_t cap = 2;
	struct wspx__ring *r;

	while ((size_t)cap < capacity)
		cap *= 2;
	if ((r = newring(cap)) == NULL)
		return -ENOMEM;
	atomic_init(&d->top, 0);
	atomic_init(&d->bottom, 0);
	atomic_init(&d->ring, r);
	return 0;
}

void
wspx__deque_fini(struct wspx__deque *d)
{
	struct wspx__ring *r, *older;

	/* relaxed: every other thread has been joined (see deque.h). */
	r = atomic_load_explicit(&d->ring, memory_order_relaxed);
	for (; r != NULL; r = older) {
		older = r->retired;
		free(r);
	}
}

struct wspx__ring *
wspx__deque_grow(struct wspx__deque *d, struct wspx__ring *r, int64_t t,
    int64_t b)
{
	struct wspx__ring *n;
	int64_t i;

	if ((n = newring(2 * (r->mask + 1))) == NULL)
		return NULL;
	for (i = t; i < b; i++) {
		/* relaxed: published by the release store of the ring below. */
		atomic_store_explicit(&n->slot[i & n->mask],
		    atomic_load_explicit(&r->slot[i & r->mask],
		    memory_order_relaxed), memory_order_relaxed);
	}
	n->retired = r;
	/* release: the copied slots are visible before the new ring; pairs
	 * with the acquire load of the ring in wspx__deque_steal(). */
	atomic_store_explicit(&d->ring, n, memory_order_release);
	return n;
}

struct wspx_job *
wspx__deque_steal(struct wspx__deque *d)
{
	int64_t t, b;
	struct wspx__ring *r;
	struct wspx_job *job;

	/* acquire: pairs with the CAS of the thief that last advanced top. */
	t = atomic_load_explicit(&d->top, WSPX_FENCED(memory_order_acquire));
	/* seq_cst fence: top is read before bottom; pairs with the fence in
	 * pop (see the protocol comment). */
	wspx__fence_seq_cst();
	/* acquire: pairs with the release store of bottom in push, so the
	 * slot and the job it points to are visible. */
	b = atomic_load_explicit(&d->bottom, WSPX_FENCED(memory_order_acquire));
	if (t >= b)
		return NULL;
	/* acquire: pairs with the release store in grow; loaded after bottom
	 * so that a bottom written after a grow brings the new ring. */
	r = atomic_load_explicit(&d->ring, memory_order_acquire);
	/* relaxed: ordered by the acquire loads above; read before the CAS,
	 * since the owner may reuse the slot once top has moved past it. */
	job = atomic_load_explicit(&r->slot[t & r->mask], memory_order_relaxed);
	/* seq_cst: claims index t against other thieves and the owner's pop
	 * of the last job (the same CAS there). */
	if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1,
	    memory_order_seq_cst, memory_order_relaxed))
		return NULL;
	return job;
}

int64_t
wspx__deque_len(struct wspx__deque *d)
{
	int64_t t, b;

	/* relaxed: an estimate, to decide whether a pop or a steal is worth
	 * its fence (see deque.h); nothing is read through it. */
	t = atomic_load_explicit(&d->top, memory_order_relaxed);
	b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
	return b > t ? b - t : 0;
}
