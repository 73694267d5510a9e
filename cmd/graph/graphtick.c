/*
 * The timer of a run's builtins (see graphrun.h): the builtins that wait
 * (sleep, wait-for) wait on it, and a tick every 100 ms, run on the pool,
 * looks whether the run is stopping; once it is, they end at once.  A run
 * with no builtin has neither the timer nor its thread.
 *
 * The tick re-arms itself until graphtick_end() says the graph is over
 * (over, under the lock); the last tick then says it has run (done), and
 * only then may the struct go.
 */
#include "graphrun.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "exec/exec.h"
#include "os/thread.h"
#include "runtime/timer.h"
#include "util/util.h"

struct graphtick {
	struct wspx_job job;
	struct wspx__timeout to;
	struct graphrun *gr;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool over;		/* the graph is over: no more ticks; lock */
	bool done;		/* the last tick has run; lock */
};

#define TICK_NS 100000000	/* 100 ms */

static void
tick(struct wspx_worker *w, struct wspx_job *job)
{
	struct graphtick *t = wspx_container_of(job, struct graphtick, job);
	struct graphrun *gr = t->gr;
	bool over;

	(void)w;
	WSPX_MUST(pthread_mutex_lock(&t->lock));
	if ((over = t->over)) {
		t->done = true;
		WSPX_MUST(pthread_cond_signal(&t->cond));
	}
	WSPX_MUST(pthread_mutex_unlock(&t->lock));
	if (over)
		return;
	/* relaxed: a hint; a builtin that misses it ends at its next
	 * tick, and the timer's own lock orders the fire_all. */
	if (wspx__exec_halting(gr->src->x)) {
		atomic_store_explicit(&gr->stopping, true,
		    memory_order_relaxed);
		atomic_store_explicit(&gr->killing,
		    wspx__exec_killing(gr->src->x), memory_order_relaxed);
		wspx__timer_fire_all(gr->timer);
	}
	wspx__timer_add(gr->timer, &t->to, wspx__clock_now() + TICK_NS,
	    &t->job);
}

/* Whether a job of the run is a builtin. */
static bool
anybuiltin(const struct graphrun *gr)
{
	size_t i;

	for (i = 0; i < gr->jf->njobs; i++)
		if ((gr->selected == NULL || gr->selected[i]) &&
		    gr->jf->jobs[i].builtin != NULL)
			return true;
	return false;
}

struct graphtick *
graphtick_start(struct graphrun *gr, struct wspx_pool *pool)
{
	struct graphtick *t;
	int rc;

	if (!anybuiltin(gr))
		return NULL;
	if ((rc = wspx__timer_new(&gr->timer, pool)) != 0)
		fatal("cannot start the graph's timer: %s",
		    wspx_strerror(rc));
	t = xcalloc(1, sizeof(*t));
	t->gr = gr;
	t->job.run = tick;
	WSPX_MUST(pthread_mutex_init(&t->lock, NULL));
	WSPX_MUST(pthread_cond_init(&t->cond, NULL));
	wspx__timer_add(gr->timer, &t->to, wspx__clock_now() + TICK_NS,
	    &t->job);
	return t;
}

void
graphtick_end(struct graphtick *t)
{
	struct graphrun *gr;

	if (t == NULL)
		return;
	gr = t->gr;
	/* The last tick must have run before t goes: it is queued in the
	 * timer (fired now) or about to be (at most a tick later). */
	WSPX_MUST(pthread_mutex_lock(&t->lock));
	t->over = true;
	WSPX_MUST(pthread_mutex_unlock(&t->lock));
	wspx__timer_fire_all(gr->timer);
	WSPX_MUST(pthread_mutex_lock(&t->lock));
	while (!t->done)
		WSPX_MUST(pthread_cond_wait(&t->cond, &t->lock));
	WSPX_MUST(pthread_mutex_unlock(&t->lock));
	WSPX_MUST(pthread_mutex_destroy(&t->lock));
	WSPX_MUST(pthread_cond_destroy(&t->cond));
	wspx__timer_free(gr->timer);
	gr->timer = NULL;
	free(t);
}
