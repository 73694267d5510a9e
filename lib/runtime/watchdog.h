/*
 * A thread that calls a check every tick, for what must happen at a time
 * rather than at an event: a job's timeout, the SIGKILL after a grace
 * period, a memory gate.  The executor starts one only when a run has
 * such deadlines, so that a run without them has no timer waking up.
 */
#ifndef WSPX_WATCHDOG_H
#define WSPX_WATCHDOG_H

#include <stdint.h>

struct wspx__watchdog;

/* Called on the watchdog's thread, about every tick and after
 * wspx__watchdog_poke(), with the monotonic time in nanoseconds. */
typedef void wspx__watchdog_fn(void *ctx, int64_t now);

/* Start a watchdog calling check(ctx, now) every tick_ns.  Returns 0 and
 * sets *w, or -ENOMEM or -EAGAIN. */
int wspx__watchdog_new(struct wspx__watchdog **w, wspx__watchdog_fn *check,
    void *ctx, int64_t tick_ns);

/* Have the check run now rather than at the next tick.  Any thread. */
void wspx__watchdog_poke(struct wspx__watchdog *w);

/* Stop the thread (a check under way ends first) and free w; NULL: no
 * effect.  Not from the check itself. */
void wspx__watchdog_free(struct wspx__watchdog *w);

#endif /* WSPX_WATCHDOG_H */
