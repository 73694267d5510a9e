/*
 * The signal thread of a run: it alone takes the signals wspx handles
 * (every other thread blocks them) and turns them into stops, suspends
 * and listings of the executor's jobs.
 */
#ifndef WSPX_SIGNALS_H
#define WSPX_SIGNALS_H

#include <signal.h>

struct running;
struct signals;
struct trace;
struct wspx__exec;
struct wspx__output;

/* Note the signals ignored and blocked now, as wspx started; block the
 * handled signals (those not ignored) in the calling thread, and so in the
 * threads it creates after, and make the signal state; grace is
 * --term-timeout in seconds.  Main thread, before any other thread exists
 * and before wspx changes a disposition. */
struct signals *signals_new(double grace);

/* The signals that were ignored when wspx started, which its jobs keep
 * ignored, and the signal mask it was started with, for its jobs.  Both
 * live until signals_free(). */
void signals_inherited(const struct signals *s, const sigset_t **ignored,
    const sigset_t **mask);

/* Start the signal thread for the jobs of x, whose output goes through
 * out, and whose running ones are listed from running at SIGUSR1; a stop
 * is marked in trace (--trace, or NULL).  All are borrowed until
 * signals_stop().  Main thread. */
void signals_start(struct signals *s, struct wspx__exec *x,
    struct wspx__output *out, struct running *running, struct trace *trace);

/* A descriptor that becomes readable once the run stops: the input
 * reader polls it.  It stays open until signals_free(). */
int signals_wakefd(const struct signals *s);

/* Writing the output (or --events) failed with -errno err: have the run
 * stopped; only the first call counts.  Any thread once signals_start()
 * has returned, also with the output's lock held (it only sets a flag and
 * sends a signal); after signals_stop() it only records err. */
void signals_outputfailed(struct signals *s, int err);

/* End the signal thread, once every job has finished.  Returns the signal
 * the run was stopped with: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE
 * when the output's reader went away, or 0.  Main thread. */
int signals_stop(struct signals *s);

void signals_free(struct signals *s);

/* Die of signal sig (its default action restored and unblocked in the
 * calling thread), or with status 128 + sig if it does not kill. */
_Noreturn void diesig(int sig);

#endif /* WSPX_SIGNALS_H */
