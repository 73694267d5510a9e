/*
 * What the ended jobs add up to (see exec.h): the counts the halt policy
 * (halt.c) is checked against as each job ends, the median runtime of the
 * jobs that succeeded for --timeout N%, and the run's exit status under
 * --halt.  All under the executor's lock.
 */
#include "exec_int.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "base/median.h"
#include "os/thread.h"

bool
wspx__exec_failed(const struct wspx__result *r)
{
	/* a job killed for its timeout failed, even if it caught the
	 * signal and exited 0 */
	return r->timedout || r->rejected || r->declined || (r->started ?
	    r->status != 0 :
	    r->error != 0 && r->error != -ECANCELED);
}

int
wspx__exec_exitval(const struct wspx__result *r)
{
	if (r->declined)
		return -2;	/* (as GNU parallel's joblog has it) */
	if (!r->started)
		return r->error == -ENOENT ? 127 : 126;
	return WIFSIGNALED(r->status) ? 128 + WTERMSIG(r->status) :
	    WEXITSTATUS(r->status);
}

/* Whether the halt policy is met now, with r the result that ended last
 * (or NULL); then note the run's status.  lock held. */
static bool
halting(struct wspx__exec *x, const struct wspx__result *r)
{
	/* relaxed: a count set once by the submitter. */
	x->counts.total = atomic_load_explicit(&x->total,
	    memory_order_relaxed);
	if (x->halted || !wspx__halt_met(&x->o.halt, &x->counts))
		return false;
	x->halted = true;
	x->haltstatus = wspx__halt_status_met(&x->o.halt, &x->counts,
	    r != NULL ? wspx__exec_exitval(r) : 0);
	return true;
}

/* Count a job's end (one that ran or could not start), for the halt
 * policy and the timeout in percent.  Returns whether the run must halt
 * now.  A job that wspx itself killed for a stop or a halt (not for its
 * timeout, nor to free memory) did not fail on its own: it counts for
 * neither side, so that a stop does not meet a --halt fail= policy and
 * blame it. */
bool
wspx__exec_countend(struct wspx__exec *x, const struct wspx__result *r,
    bool ignorefail)
{
	bool failed = wspx__exec_failed(r) && !ignorefail, met;
	int64_t limit;

	/* Nobody reads the counts: spare every job's end a lock. */
	if (x->o.halt.when == WSPX_HALT_NEVER && x->median == NULL)
		return false;
	if (r->killsig != 0 && !r->timedout && !r->evicted)
		return false;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	if (failed)
		x->counts.failed++;
	else
		x->counts.succeeded++;
	if (!failed && x->median != NULL && r->started) {
		wspx__median_add(x->median, (uint64_t)r->runtime_ns);
		limit = (int64_t)(wspx__median_get(x->median) / 100 *
		    x->o.timeout_pct);
		/* relaxed: read by the watchdog, which takes the slot
		 * locks before it acts on it. */
		atomic_store_explicit(&x->timeout, limit > 0 ? limit : 1,
		    memory_order_relaxed);
	}
	met = halting(x, r);
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return met;
}

void
wspx__exec_total(struct wspx__exec *x, uint64_t total)
{
	bool met;

	/* relaxed: read under the lock, which orders it (below). */
	atomic_store_explicit(&x->total, total, memory_order_relaxed);
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	met = halting(x, NULL);
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	if (met) {
		if (x->o.ops->halted != NULL)
			x->o.ops->halted(x->o.ctx, NULL);
		wspx__exec_halt(x);
	}
}

bool
wspx__exec_halt_status(struct wspx__exec *x, int *status)
{
	if (x->o.halt.when == WSPX_HALT_NEVER)
		return false;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	*status = x->halted ? x->haltstatus : wspx__halt_status(&x->o.halt,
	    &x->counts);
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return true;
}
