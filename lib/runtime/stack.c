/*
 * The injection queue: a Treiber stack (R. K. Treiber, "Systems Programming:
 * Coping with Parallelism", IBM RJ 5118, 1986) whose consumers only ever take
 * the whole list.
 *
 * Protocol.
 *   - push (any thread): link the batch's last node to the head just read,
 *     then CAS head from that value to the batch's first node.  Linearizes
 *     at the successful CAS.  A pusher never reads through head, so a head
 *     that changed and changed back (ABA) is harmless: the batch is still
 *     linked on top of the current list.
 *   - take_all (any thread): exchange head with NULL.  Linearizes at the
 *     exchange and returns the whole list.  No node is ever popped singly, so
 *     no thread reads the next pointer of a node another thread may have
 *     taken and freed: there is no ABA and nothing to reclaim lazily.
 *
 * Ordering.  The CAS in push is a release: the batch's next pointers and the
 * jobs' contents are visible to whoever acquires that head value.  The
 * exchange is an acquire; because every later push or take is a
 * read-modify-write of head, it continues the release sequence of each
 * earlier push, so a taker synchronizes with every pusher whose nodes it
 * receives, not only with the last one.
 */
#include "stack.h"

#include <stddef.h>

void
wspx__stack_init(struct wspx__stack *s)
{
	atomic_init(&s->head, NULL);
}

void
wspx__stack_push(struct wspx__stack *s, struct wspx_stack_link *first,
    struct wspx_stack_link *last, bool *was_empty)
{
	struct wspx_stack_link *old;

	/* relaxed: only compared, never dereferenced (see above). */
	old = atomic_load_explicit(&s->head, memory_order_relaxed);
	do {
		last->next = old;
	/* release: the batch's links and jobs before the new head; pairs
	 * with the acquire exchange in take_all.  The sleep protocol follows
	 * this with a seq_cst fence (wspx__sleep_new_injected_jobs). */
	} while (!atomic_compare_exchange_weak_explicit(&s->head, &old, first,
	    WSPX_FENCED(memory_order_release), memory_order_relaxed));
	*was_empty = old == NULL;
}

struct wspx_stack_link *
wspx__stack_take_all(struct wspx__stack *s)
{
	/* relaxed: a cheap look first, so that idle workers polling an empty
	 * stack do not take its cache line exclusive. */
	if (atomic_load_explicit(&s->head, memory_order_relaxed) == NULL)
		return NULL;
	/* acquire: pairs with the release CAS of every push whose nodes we
	 * take (release sequence, see above). */
	return atomic_exchange_explicit(&s->head, NULL, memory_order_acquire);
}

bool
wspx__stack_has_jobs(struct wspx__stack *s)
{
	/* relaxed: the caller's seq_cst fence orders this load (sleep.c). */
	return atomic_load_explicit(&s->head,
	    WSPX_FENCED(memory_order_relaxed)) != NULL;
}
