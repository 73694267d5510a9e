/*
 * What a job waits for, in its slot, before it starts, besides --delay:
 * free memory (memfree), a load average under the limit (max_load), and
 * a token of make's jobserver; and the eviction of the youngest job when
 * memory runs short (GNU parallel's --memfree rule).
 *
 * The gates are read before each start, not cached: a read of
 * /proc/meminfo or /proc/loadavg costs microseconds, and only runs with
 * the option.  A closed gate is looked at again every GATE_POLL, in a
 * wait on the executor's wake condition, so a stop ends it at once.
 *
 * Eviction runs on the watchdog's tick: with less than half of memfree
 * available and more than one job running, the youngest job not already
 * on its way out gets SIGTERM (SIGKILL after the grace, as a timeout),
 * one at a time, and its runner runs it again once the gates open.  The
 * oldest job always keeps running, so the run makes progress.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "base/clock.h"
#include "exec_int.h"
#include "jobserver.h"
#include "os/proc.h"
#include "os/sysload.h"
#include "os/thread.h"

#define GATE_POLL	(250 * (int64_t)1000000)	/* ns */

/* Whether memory and load let a job start; if not, *memory says which
 * gate is closed and *have what it read. */
static bool
gatesopen(const struct wspx__exec *x, bool *memory, double *have)
{
	uint64_t avail;
	double load, limit;

	if (x->o.memfree > 0 && wspx__sysload_memavailable(&avail) == 0 &&
	    avail < x->o.memfree) {
		*memory = true;
		*have = (double)avail;
		return false;
	}
	if (x->o.max_load == 0)
		return true;
	limit = x->o.ops->maxload != NULL ? x->o.ops->maxload(x->o.ctx) :
	    x->o.max_load;
	if (wspx__sysload_loadavg(&load) == 0 && load >= limit) {
		*memory = false;
		*have = load;
		return false;
	}
	return true;
}

/* Wait until memory and load let a job start; the caller hears once each
 * time a gate closes. */
static bool
waitgates(struct wspx__exec *x)
{
	bool memory, tell, on;
	double have;

	if (x->o.memfree == 0 && x->o.max_load == 0)
		return true;
	while (!gatesopen(x, &memory, &have)) {
		WSPX_MUST(pthread_mutex_lock(&x->lock));
		tell = !x->gateshut;
		x->gateshut = true;
		WSPX_MUST(pthread_mutex_unlock(&x->lock));
		if (tell && x->o.ops->waiting != NULL)
			x->o.ops->waiting(x->o.ctx, memory, have);
		WSPX_MUST(pthread_mutex_lock(&x->lock));
		on = wspx__exec_sleepuntil(x, wspx__clock_now() +
		    GATE_POLL);
		WSPX_MUST(pthread_mutex_unlock(&x->lock));
		if (!on)
			return false;
	}
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	x->gateshut = false;
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return true;
}

static bool
stoppingfn(void *ctx)
{
	return wspx__exec_stopping(ctx);
}

bool
wspx__exec_gate(struct wspx__exec *x, struct wspx__execjob *job)
{
	if (!waitgates(x))
		return false;
	if (x->o.jobserver == NULL)
		return true;
	if (wspx__jobserver_take(x->o.jobserver, stoppingfn, x,
	    &job->token) != 1)
		return false;	/* stopping, or the jobserver is gone */
	job->hastoken = true;
	return true;
}

void
wspx__exec_ungate(struct wspx__exec *x, struct wspx__execjob *job)
{
	if (!job->hastoken)
		return;
	wspx__jobserver_give(x->o.jobserver, job->token);
	job->hastoken = false;
}

/* The slot of the youngest running job, if more than one runs and none
 * is on its way out already (one eviction at a time), or NULL.  *pid is
 * the job's, to check under the slot's lock: it may end meanwhile. */
static struct slot *
youngest(struct wspx__exec *x, pid_t *pid)
{
	struct slot *best = NULL, *s;
	int64_t started = 0;
	unsigned i, running = 0;
	bool leaving = false;

	for (i = 0; i < x->o.slots; i++) {
		s = &x->slots[i];
		WSPX_MUST(pthread_mutex_lock(&s->lock));
		if (s->pid != 0) {
			running++;
			leaving |= s->killsig != 0;
			if (best == NULL || s->started > started) {
				best = s;
				started = s->started;
				*pid = s->pid;
			}
		}
		WSPX_MUST(pthread_mutex_unlock(&s->lock));
	}
	return running > 1 && !leaving ? best : NULL;
}

void
wspx__exec_watchmemory(struct wspx__exec *x, int64_t now)
{
	struct slot *s;
	uint64_t avail;
	pid_t pid = 0;

	if (x->o.memfree == 0 || wspx__sysload_memavailable(&avail) != 0 ||
	    avail >= x->o.memfree / 2 || (s = youngest(x, &pid)) == NULL)
		return;
	WSPX_MUST(pthread_mutex_lock(&s->lock));
	if (s->pid == pid && s->killsig == 0) {
		wspx__proc_signal_group(s->pid, SIGTERM);
		wspx__exec_hangup(s);
		s->killsig = SIGTERM;
		s->evicted = true;
		s->killat = now + x->o.grace_ns;
	}
	WSPX_MUST(pthread_mutex_unlock(&s->lock));
}
