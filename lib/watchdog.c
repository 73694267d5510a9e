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

#include "thread.h"

struct wspx__watchdog {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a poke, or the end */
	bool poked;		/* lock */
	bool ending;		/* lock */
	wspx__watchdog_fn *check;
	void *ctx;
	int64_t tick;
};

int64_t
wspx__watchdog_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *
watch(void *arg)
{
	struct wspx__watchdog *w = arg;
	struct timespec due;
	int64_t t;

	WSPX_MUST(pthread_mutex_lock(&w->lock));
	while (!w->ending) {
		t = wspx__watchdog_now() + w->tick;
		due.tv_sec = (time_t)(t / 1000000000);
		due.tv_nsec = (long)(t % 1000000000);
		while (!w->poked && !w->ending &&
		    pthread_cond_timedwait(&w->cond, &w->lock, &due) == 0)
			;
		if (w->ending)
			break;
		w->poked = false;
		WSPX_MUST(pthread_mutex_unlock(&w->lock));
		w->check(w->ctx, wspx__watchdog_now());
		WSPX_MUST(pthread_mutex_lock(&w->lock));
	}
	WSPX_MUST(pthread_mutex_unlock(&w->lock));
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
	WSPX_MUST(pthread_mutex_init(&w->lock, NULL));
	wspx__thread_cond_monotonic(&w->cond);
	if ((rc = wspx__thread_start(&w->thread, 0, watch, w)) != 0) {
		WSPX_MUST(pthread_cond_destroy(&w->cond));
		WSPX_MUST(pthread_mutex_destroy(&w->lock));
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void
wspx__watchdog_poke(struct wspx__watchdog *w)
{
	WSPX_MUST(pthread_mutex_lock(&w->lock));
	w->poked = true;
	WSPX_MUST(pthread_cond_signal(&w->cond));
	WSPX_MUST(pthread_mutex_unlock(&w->lock));
}

void
wspx__watchdog_free(struct wspx__watchdog *w)
{
	if (w == NULL)
		return;
	WSPX_MUST(pthread_mutex_lock(&w->lock));
	w->ending = true;
	WSPX_MUST(pthread_cond_signal(&w->cond));
	WSPX_MUST(pthread_mutex_unlock(&w->lock));
	WSPX_MUST(pthread_join(w->thread, NULL));
	WSPX_MUST(pthread_cond_destroy(&w->cond));
	WSPX_MUST(pthread_mutex_destroy(&w->lock));
	free(w);
}
