/*
 * Stopping running jobs (see exec.h): every signal the executor sends to
 * a job's process group is sent here, under that job's slot lock, which
 * the runner also holds while it registers a new child and when it
 * forgets one that ended (attempt.c), so a signal never reaches a group whose
 * leader was reaped, and each stop reaches every running job once.
 *
 *   a stop (wspx__exec_stop): the caller's signal, or SIGKILL for all;
 *     a job that starts even after a stop (always), started after one,
 *     is spared: it gets neither the stop's signal nor the SIGKILL of
 *     wspx__exec_killstopped() at the end of the grace, only SIGKILL for
 *     all (a second signal);
 *   a suspend: SIGTSTP, then SIGCONT;
 *   a timeout: the watchdog's tick finds a job past its limit: SIGTERM,
 *     then SIGKILL once the grace is over (watchslot);
 *   a halt: soon starts nothing new; now is a stop with SIGTERM, and
 *     SIGKILL for all at the end of the grace (the watchdog again).
 *
 * Each time one of these tells a job to end (not a suspend), the job's
 * hangup fd (a remote job's session) is closed, under the same slot
 * lock, at most once: the slot forgets it as it closes it.
 *
 * The atomics are hints read relaxed: each decision to signal is made
 * under a slot lock, which orders it with the registration it races.
 */
#include "exec_int.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/median.h"
#include "os/proc.h"
#include "os/thread.h"
#include "runtime/watchdog.h"

void
wspx__exec_hangup(struct slot *s)
{
	if (s->hangup > 0)
		close(s->hangup);
	s->hangup = 0;
}

/* Signal slot s's job if a stop asks for it; slot lock held. */
void
wspx__exec_stopslot(struct wspx__exec *x, struct slot *s)
{
	/* relaxed: ordered by the slot lock (see the top of the file). */
	int sig = atomic_load_explicit(&x->stopsig, memory_order_relaxed);

	if (s->pid == 0)
		return;
	if (atomic_load_explicit(&x->suspended, memory_order_relaxed))
		wspx__proc_signal_group(s->pid, SIGTSTP);
	if (atomic_load_explicit(&x->killing, memory_order_relaxed) ||
	    (!s->spared && atomic_load_explicit(&x->killstopped,
	    memory_order_relaxed))) {
		wspx__proc_signal_group(s->pid, SIGKILL);
		s->killsig = SIGKILL;
		wspx__exec_hangup(s);
	} else if (sig != 0 && !s->signalled && !s->spared) {
		wspx__proc_signal_group(s->pid, sig);
		s->signalled = true;
		s->killsig = sig;
		wspx__exec_hangup(s);
	}
}

void
wspx__exec_stop(struct wspx__exec *x, int sig)
{
	unsigned i;
	int none = 0;

	/* relaxed: ordered by the slot locks taken below. */
	if (sig == SIGKILL)
		atomic_store_explicit(&x->killing, true, memory_order_relaxed);
	else
		atomic_compare_exchange_strong_explicit(&x->stopsig, &none,
		    sig, memory_order_relaxed, memory_order_relaxed);
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	WSPX_MUST(pthread_cond_broadcast(&x->room));
	WSPX_MUST(pthread_cond_broadcast(&x->wake));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	for (i = 0; i < x->o.slots; i++) {
		WSPX_MUST(pthread_mutex_lock(&x->slots[i].lock));
		wspx__exec_stopslot(x, &x->slots[i]);
		WSPX_MUST(pthread_mutex_unlock(&x->slots[i].lock));
	}
}

void
wspx__exec_killstopped(struct wspx__exec *x)
{
	unsigned i;

	/* relaxed: ordered by the slot locks, as for a stop. */
	atomic_store_explicit(&x->killstopped, true, memory_order_relaxed);
	for (i = 0; i < x->o.slots; i++) {
		WSPX_MUST(pthread_mutex_lock(&x->slots[i].lock));
		wspx__exec_stopslot(x, &x->slots[i]);
		WSPX_MUST(pthread_mutex_unlock(&x->slots[i].lock));
	}
}

unsigned
wspx__exec_spared(struct wspx__exec *x)
{
	/* relaxed: a count for the signal thread's next look */
	return atomic_load_explicit(&x->nspared, memory_order_relaxed);
}

void
wspx__exec_suspend(struct wspx__exec *x, bool on)
{
	int sig = on ? SIGTSTP : SIGCONT;
	unsigned i;

	/* relaxed: ordered by the slot locks, as for a stop (see the top of
	 * the file): a job registering after this sees it. */
	atomic_store_explicit(&x->suspended, on, memory_order_relaxed);
	for (i = 0; i < x->o.slots; i++) {
		WSPX_MUST(pthread_mutex_lock(&x->slots[i].lock));
		if (x->slots[i].pid != 0)
			wspx__proc_signal_group(x->slots[i].pid, sig);
		WSPX_MUST(pthread_mutex_unlock(&x->slots[i].lock));
	}
}

/* The child of slot s has ended (not yet reaped): forget it, and when
 * it was signalled (a stop, its timeout), kill what is left of its group;
 * note in r what we sent it. */
void
wspx__exec_unregister(struct wspx__exec *x, struct slot *s, struct wspx__result *r)
{
	WSPX_MUST(pthread_mutex_lock(&s->lock));
	if (wspx__exec_signalled(x) || s->timedout || s->evicted)
		wspx__proc_signal_group(s->pid, SIGKILL);
	wspx__exec_hangup(s);
	r->killsig = s->killsig;
	r->timedout = s->timedout;
	r->evicted = s->evicted;
	s->evicted = false;
	if (s->spared)
		/* relaxed: a count (see wspx__exec_spared()) */
		atomic_fetch_sub_explicit(&x->nspared, 1,
		    memory_order_relaxed);
	s->pid = 0;
	s->signalled = false;
	s->spared = false;
	s->timedout = false;
	s->killat = 0;
	s->killsig = 0;
	WSPX_MUST(pthread_mutex_unlock(&s->lock));
}

/* A job past its time limit gets SIGTERM, and SIGKILL once the grace is
 * over.  s's lock held. */
static void
watchslot(struct wspx__exec *x, struct slot *s, int64_t now, int64_t limit)
{
	if (s->pid == 0)
		return;
	if (s->killat != 0 && now >= s->killat) {
		wspx__proc_signal_group(s->pid, SIGKILL);
		s->killsig = SIGKILL;
		s->killat = 0;
	} else if (!s->timedout && limit > 0 && now - s->started >= limit) {
		wspx__proc_signal_group(s->pid, SIGTERM);
		wspx__exec_hangup(s);
		s->killsig = SIGTERM;
		s->timedout = true;
		s->killat = now + x->o.grace_ns;
	}
}

/* The watchdog's look: the running jobs' time limits, and the end of a
 * halt now's grace. */
static void
watch(void *ctx, int64_t now)
{
	struct wspx__exec *x = ctx;
	/* relaxed: set before the poke or tick that brings us here (the
	 * watchdog's mutex), or seen at the next tick. */
	int64_t killat = atomic_load_explicit(&x->killat,
	    memory_order_relaxed);
	int64_t limit = x->o.timeout_ns > 0 || x->median != NULL ?
	    atomic_load_explicit(&x->timeout, memory_order_relaxed) : 0;
	unsigned i;

	if (killat != 0 && now >= killat) {
		atomic_store_explicit(&x->killat, 0, memory_order_relaxed);
		wspx__exec_stop(x, SIGKILL);
	}
	for (i = 0; (limit > 0 || x->o.jobtimeouts || x->o.memfree > 0) &&
	    i < x->o.slots; i++) {
		WSPX_MUST(pthread_mutex_lock(&x->slots[i].lock));
		watchslot(x, &x->slots[i], now, x->slots[i].limit > 0 ?
		    x->slots[i].limit : limit);
		WSPX_MUST(pthread_mutex_unlock(&x->slots[i].lock));
	}
	wspx__exec_watchmemory(x, now);
}

/* Start nothing new; with now, stop what runs too: SIGTERM now, SIGKILL
 * after the grace (the watchdog's). */
void
wspx__exec_halt(struct wspx__exec *x)
{
	if (x->o.halt.when == WSPX_HALT_NOW) {
		/* relaxed: read by the watchdog, poked below (a mutex). */
		atomic_store_explicit(&x->killat, wspx__clock_now() +
		    x->o.grace_ns, memory_order_relaxed);
		wspx__exec_stop(x, SIGTERM);
		wspx__watchdog_poke(x->watchdog);
		return;
	}
	/* relaxed: a hint, as stopping() says; the broadcasts (under the
	 * lock) wake whoever waits on it. */
	atomic_store_explicit(&x->draining, true, memory_order_relaxed);
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	WSPX_MUST(pthread_cond_broadcast(&x->room));
	WSPX_MUST(pthread_cond_broadcast(&x->wake));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
}

/* How often the watchdog looks: a tenth of the timeout, between 10 and
 * 100 ms, so that a job is killed at most that late. */
static int64_t
watchtick(const struct wspx__exec_opts *o)
{
	int64_t t = o->timeout_ns > 0 ? o->timeout_ns / 10 : 100000000;

	return t < 10000000 ? 10000000 : t > 100000000 ? 100000000 : t;
}

/* The watchdog, when there are deadlines to watch. */
int
wspx__exec_startwatchdog(struct wspx__exec *x)
{
	const struct wspx__exec_opts *o = &x->o;

	if (o->timeout_pct > 0 && (x->median = malloc(sizeof(*x->median))) ==
	    NULL)
		return -ENOMEM;
	if (x->median != NULL)
		wspx__median_init(x->median);
	if (o->timeout_ns == 0 && o->timeout_pct == 0 && !o->jobtimeouts &&
	    o->halt.when != WSPX_HALT_NOW && o->memfree == 0)
		return 0;
	return wspx__watchdog_new(&x->watchdog, watch, x, watchtick(o));
}
