/*
 * The blocking pool's internal entry points (its public API is in wspx.h).
 */
#ifndef WSPX_BLOCKING_H
#define WSPX_BLOCKING_H

struct wspx_blocking;

/* Broadcast the pool's condvar without a notification, as a spurious
 * wake-up would: idle threads must go back to waiting.  For tests. */
void wspx__blocking_spurious_wakeup(struct wspx_blocking *bp);

#endif /* WSPX_BLOCKING_H */
