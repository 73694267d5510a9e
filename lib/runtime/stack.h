/*
 * Treiber stack used as the pool's injection queue: any thread pushes one
 * job or a pre-linked batch with one successful CAS; a consumer takes the
 * whole list with one exchange.  Nodes are struct wspx_stack_link, embedded
 * by the caller (see wspx.h) and recovered with wspx_container_of.
 *
 * Reclamation rule: consumers only take the whole list, never pop one node,
 * so no thread ever reads a node it does not own; a taken node belongs to
 * the taker and may be freed at once (no ABA, no hazard pointers).
 */
#ifndef WSPX_STACK_H
#define WSPX_STACK_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "atomic.h"
#include "wspx.h"

struct wspx__stack {
	/* Newest node, NULL when empty. */
	alignas(WSPX_CACHELINE) _Atomic(struct wspx_stack_link *) head;
};

/* Set up an empty, open stack. */
void wspx__stack_init(struct wspx__stack *s);

/* Push the batch first..last, already linked through ->next from first to
 * last, so that first is the new head.  Any thread may call this; lock-free.
 * Sets *was_empty when the stack held nothing before. */
void wspx__stack_push(struct wspx__stack *s, struct wspx_stack_link *first,
    struct wspx_stack_link *last, bool *was_empty);

/* Take every queued node, newest first, linked through ->next and ending in
 * NULL.  Any thread may call this; wait-free.  Returns NULL if none. */
struct wspx_stack_link *wspx__stack_take_all(struct wspx__stack *s);

/* Whether a node is queued at this instant.  Any thread may call this.  The
 * load is relaxed (seq_cst under TSan): the sleep protocol calls it right
 * after a seq_cst fence, which does the ordering (see sleep.c). */
bool wspx__stack_has_jobs(struct wspx__stack *s);

#endif /* WSPX_STACK_H */
