/*
 * The watchdog (see watchdog.h): one thread sleeping on a condition
 * variable with the monotonic clock, so that a change of the wall clock
 * moves no deadline.  A poke or the end sets a flag under the mutex and
 * signals; the thread tests the flags under the same mutex before it
 * sleeps, so neither is missed.
 */
#include "watchdog.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "base/clock.h"
#include "os/thread.h"

struct wspx__watchdog {
	struct wspx__thread_loop loop;	/* its thread; cond: a poke, or the
					 * end */
	bool poked;		/* loop.lock */
	wspx__watchdog_fn *check;
	void *ctx;
	int64_t tick;
};

static void *
watch(void *arg)
{
	struct wspx__watchdog *w = arg;
	struct timespec due;

	WSPX_MUST(pthread_mutex_lock(&w->loop.lock));
	while (!w->loop.ending) {
		due = wspx__clock_timespec(wspx__clock_now() + w->tick);
		while (!w->poked && !w->loop.ending &&
		    pthread_cond_timedwait(&w->loop.cond, &w->loop.lock,
		    &due) == 0)
			;
		if (w->loop.ending)
			break;
		w->poked = false;
		WSPX_MUST(pthread_mutex_unlock(&w->loop.lock));
		w->check(w->ctx, wspx__clock_now());
		WSPX_MUST(pthread_mutex_lock(&w->loop.lock));
	}
	WSPX_MUST(pthread_mutex_unlock(&w->loop.lock));
	return NULL;
}

int
wspx__watchdog_new(struct wspx__watchdog **out, wspx__watchdog_fn *check,
    void *ctx, int64_t tick_ns)
{
	struct wspx__watchdog *w;
	int rc;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return -ENOMEM;
	w->check = check;
	w->ctx = ctx;
	w->tick = tick_ns;
	if ((rc = wspx__thread_loop_start(&w->loop, watch, w)) != 0) {
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void
wspx__watchdog_poke(struct wspx__watchdog *w)
{
	WSPX_MUST(pthread_mutex_lock(&w->loop.lock));
	w->poked = true;
	WSPX_MUST(pthread_cond_signal(&w->loop.cond));
	WSPX_MUST(pthread_mutex_unlock(&w->loop.lock));
}

void
wspx__watchdog_free(struct wspx__watchdog *w)
{
	if (w == NULL)
		return;
	wspx__thread_loop_stop(&w->loop);
	free(w);
}
