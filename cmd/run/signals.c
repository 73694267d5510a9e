/*
 * The signal thread.  Every thread but this one blocks the handled
 * signals, so each one reaches this thread, which waits for them with
 * sigwait(); other threads ask it for something by setting a flag and
 * sending it SIGUSR2 (the nudge).
 *
 * Stopping.  The first SIGINT, SIGTERM, SIGHUP or SIGQUIT stops the run:
 * the wake pipe becomes readable (the reader stops reading), the executor
 * starts no new job and sends that signal once to every running job's
 * process group; after the grace period (--term-timeout), or at a second
 * such signal, whatever still runs gets SIGKILL.  If the run still has
 * not ended as long again later (at least a second), or at a third
 * signal, a write of output is stuck (the reader takes nothing) and wspx
 * dies at once.  A failed write of the output stops the run the same way,
 * with SIGTERM for the jobs; when the output's reader went away the run
 * then ends as killed by SIGPIPE, as any writer to a closed pipe.
 *
 * Job control.  Jobs have process groups of their own, so a terminal's
 * Ctrl-Z (SIGTSTP) reaches wspx only: wspx passes it to every running
 * job's group, stops itself, and once continued sends them SIGCONT.
 *
 * SIGUSR1 lists the running jobs on stderr, between jobs' output.
 *
 * Signals ignored at start.  A signal that was ignored when wspx started
 * (SIGHUP under nohup; SIGINT and SIGQUIT for a background job of a
 * script) stays ignored, by wspx and by its jobs, as make and the shells
 * do: it is not among the handled signals, so no thread blocks it and
 * the kernel discards it (a blocked signal would be queued and taken by
 * sigwait, even with SIG_IGN).  The jobs get back the dispositions and
 * the signal mask wspx was started with (signals_inherited()), not wspx's
 * own, which ignores SIGPIPE and SIGXFSZ and blocks the handled signals.
 */
#include "signals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "exec/exec.h"
#include "exec/output.h"
#include "os/proc.h"
#include "os/thread.h"
#include "report/running.h"
#include "report/trace.h"
#include "util/buf.h"
#include "util/owndirs.h"
#include "util/util.h"

struct signals {
	double grace;		/* seconds from the stop to SIGKILL */
	struct wspx__exec *x;
	struct wspx__output *out;
	struct running *running;
	struct trace *trace;
	/* stopsig is written by the signal thread and read after joining
	 * it; the flags are set by other threads before a nudge. */
	_Atomic(int) stopsig;	/* the signal that stopped the run */
	_Atomic(int) outerr;	/* writing the output failed: -errno */
	_Atomic(bool) quit;	/* the signal thread should return */
	_Atomic(bool) started;	/* it exists: it may be nudged */
	pthread_t thread;
	int wake[2];		/* readable once reading should stop */
	sigset_t ignored;	/* ignored when wspx started */
	sigset_t startmask;	/* blocked when wspx started */
	sigset_t handled;	/* what the signal thread takes */
};

/* The signals the signal thread takes, unless ignored at start; every
 * other thread blocks them. */
static void
handled(sigset_t *set, const sigset_t *ignored)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP,
	    SIGUSR1 };	/* USR1: list the running jobs */
	size_t i;

	sigemptyset(set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigismember(ignored, sigs[i]))
			sigaddset(set, sigs[i]);
	sigaddset(set, SIGCONT);	/* blocked, it still continues us */
	sigaddset(set, SIGUSR2);	/* a request from this process */
}

/* The signals whose disposition is SIG_IGN now. */
static void
ignorednow(sigset_t *set)
{
	struct sigaction sa;
	int sig;

	sigemptyset(set);
	for (sig = 1; sig <= SIGRTMAX; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(set, sig);
}

/* Ask the signal thread to act on a request flag. */
static void
nudge(struct signals *s)
{
	pthread_kill(s->thread, SIGUSR2);
}

/* The signal a failed output stops the run with: SIGPIPE if its reader
 * went away, else none (wspx reports the error, exits 255). */
static int
outputsig(struct signals *s)
{
	/* acquire: pairs with the release in signals_outputfailed(). */
	return atomic_load_explicit(&s->outerr, memory_order_acquire) ==
	    -EPIPE ? SIGPIPE : 0;
}

/* A stop by a signal sent to wspx (SIGTERM from a CI runner's timeout, a
 * service manager): say what stopped and what was running, as GNU
 * parallel does; Ctrl-C's SIGINT is seen already on the terminal. */
static void
saystop(struct signals *s, int sig)
{
	struct buf b = { NULL, 0, 0 }, list = { NULL, 0, 0 };
	unsigned n;

	if (sig == SIGINT || sig == SIGPIPE || sig == 0)
		return;
	n = running_list(s->running, &list);
	bufmsg(&b, "%s: starting no more jobs", signame(sig) != NULL ?
	    signame(sig) : "signal");
	if (n > 0)
		bufprintf(&b, ", sending %s to the %u running (SIGKILL after "
		    "%gs):\n%s", signame(sig) != NULL ? signame(sig) :
		    "it", n, s->grace, list.s);
	else
		bufaddc(&b, '\n');
	wspx__output_note(s->out, b.s, b.len);
	free(b.s);
	free(list.s);
}

/* The stop, in the --trace: "interrupted by SIGTERM". */
static void
marktrace(struct signals *s, int sig)
{
	char why[64];

	if (sig == 0)
		return;
	snprintf(why, sizeof(why), "interrupted by %s", signame(sig) != NULL ?
	    signame(sig) : "a signal");
	trace_stopped(s->trace, why, wspx__clock_seconds(CLOCK_REALTIME));
}

/* Stop the run because of sig: no more reading, no more starts, jobsig to
 * the running jobs' groups.  Signal thread only. */
static void
stoprun(struct signals *s, int sig, int jobsig)
{
	static const char one = 1;

	saystop(s, sig);
	marktrace(s, sig);
	/* relaxed: read by the main thread after joining this one. */
	atomic_store_explicit(&s->stopsig, sig, memory_order_relaxed);
	wspx__exec_stop(s->x, jobsig);
	if (write(s->wake[1], &one, 1) < 0)
		abort();	/* a pipe of our own with room: cannot fail */
}

static struct timespec
after(double seconds)
{
	return wspx__clock_timespec((int64_t)(seconds * 1e9));
}

/* The next signal for the signal thread, or 0 when the grace period
 * (until deadline, if not 0) is over. */
static int
waitsig(const sigset_t *set, double deadline)
{
	struct timespec left;
	double now;
	int sig;

	if (deadline == 0)
		return sigwait(set, &sig) == 0 ? sig : SIGUSR2;
	now = wspx__clock_seconds(CLOCK_MONOTONIC);
	left = after(deadline > now ? deadline - now : 0);
	if ((sig = sigtimedwait(set, NULL, &left)) < 0)
		return errno == EAGAIN ? 0 : SIGUSR2;
	return sig;
}

/* Ctrl-Z: stop the jobs and wspx; when wspx is continued, so are they.
 * kill() may return before the stop has reached this thread, so the jobs
 * are continued only once a SIGCONT has come (an earlier one, pending
 * from a continue with no stop, is discarded first). */
static void
suspend(struct signals *s)
{
	struct timespec now = { 0, 0 };
	sigset_t cont;
	int sig;

	sigemptyset(&cont);
	sigaddset(&cont, SIGCONT);
	while (sigtimedwait(&cont, NULL, &now) == SIGCONT)
		;
	wspx__exec_suspend(s->x, true);
	kill(getpid(), SIGSTOP);
	while (sigwait(&cont, &sig) != 0)
		;
	wspx__exec_suspend(s->x, false);
}

/* SIGUSR1: the running jobs, to stderr, between jobs' output. */
static void
listrunning(struct signals *s)
{
	struct buf b = { NULL, 0, 0 };

	running_list(s->running, &b);
	wspx__output_note(s->out, b.s, b.len);
	free(b.s);
}

/* The jobs were killed, yet the run has not ended: a write of output to a
 * reader that takes none (a paused pager) holds a thread.  Die as the stop
 * asked; init reaps the killed jobs.  Signal thread only. */
static void
giveup(struct signals *s)
{
	/* relaxed: stored by this thread. */
	int sig = atomic_load_explicit(&s->stopsig, memory_order_relaxed);

	if (sig == 0) {
		owndir_removeall();
		_exit(255);
	}
	diesig(sig);
}

/* A stop has three stages: the jobs got the stop's signal (until the
 * grace period ends or another signal comes), then SIGKILL (for as long
 * again, at least a second), then wspx gives up waiting for its output.
 * The jobs that start even after a stop (a job file's if: always()) and
 * started after it are spared by the end of the grace: while they run,
 * the stop stays at SPARING, looking again each grace period, and wspx
 * never gives up on them; the next signal kills them too (SIGKILL for
 * all), and only a signal after that gives up. */
enum stage { RUNNING, STOPPED, SPARING, KILLED };

/* The grace of the stopped jobs is over (or, sparing, looked at again):
 * SIGKILL them; the next stage and its deadline. */
static enum stage
graceover(struct signals *s, double *deadline)
{
	double now = wspx__clock_seconds(CLOCK_MONOTONIC);

	wspx__exec_killstopped(s->x);
	*deadline = now + (s->grace > 1 ? s->grace : 1);
	return wspx__exec_spared(s->x) > 0 ? SPARING : KILLED;
}

static void *
sigmain(void *arg)
{
	struct signals *s = arg;
	enum stage stage = RUNNING;
	double deadline = 0;
	bool killedall = false;	/* SIGKILL for all was sent */
	int sig;

	for (;;) {
		sig = waitsig(&s->handled, deadline);
		/* acquire: pairs with the release store made before the
		 * nudge (SIGUSR2) that woke us. */
		if (atomic_load_explicit(&s->quit, memory_order_acquire))
			return NULL;
		if (sig == SIGUSR2 && (stage != RUNNING || atomic_load_explicit(
		    &s->outerr, memory_order_acquire) == 0))
			continue;
		if (sig == SIGTSTP) {
			suspend(s);
			continue;
		}
		if (sig == SIGCONT)	/* continued with no stop of ours */
			continue;
		if (sig == SIGUSR1) {
			listrunning(s);
			continue;
		}
		if (stage == RUNNING) {
			if (sig == SIGUSR2)	/* output failed */
				stoprun(s, outputsig(s), SIGTERM);
			else
				stoprun(s, sig, sig);
			stage = STOPPED;
			deadline = wspx__clock_seconds(CLOCK_MONOTONIC) +
			    s->grace;
		} else if (sig == 0 && stage != KILLED) {
			/* grace over: the stopped jobs, not the spared */
			stage = graceover(s, &deadline);
		} else if (sig == 0 && wspx__exec_spared(s->x) > 0) {
			/* (a spared job started since: never give up on a
			 * job that runs, or it would be left behind) */
			stage = graceover(s, &deadline);
		} else if (sig != 0 && !killedall) {
			/* a second signal: kill them all now */
			wspx__exec_stop(s->x, SIGKILL);
			killedall = true;
			stage = KILLED;
			deadline = wspx__clock_seconds(CLOCK_MONOTONIC) +
			    (s->grace > 1 ? s->grace : 1);
		} else {
			giveup(s);
		}
	}
}

struct signals *
signals_new(double grace)
{
	struct signals *s = xcalloc(1, sizeof(*s));
	sigset_t blocked;

	ignorednow(&s->ignored);
	handled(&s->handled, &s->ignored);
	blocked = s->handled;
	/* SIGCHLD's default is to be discarded, yet each job's end would
	 * still be delivered to some thread, interrupting its system call:
	 * blocked everywhere, it stays pending, unseen (jobs are reaped by
	 * pid). */
	sigaddset(&blocked, SIGCHLD);
	WSPX_MUST(pthread_sigmask(SIG_BLOCK, &blocked, &s->startmask));
	s->grace = grace;
	if (wspx__proc_pipe(s->wake) != 0)
		fatal("pipe:");
	return s;
}

void
signals_start(struct signals *s, struct wspx__exec *x,
    struct wspx__output *out, struct running *running, struct trace *trace)
{
	s->x = x;
	s->out = out;
	s->running = running;
	s->trace = trace;
	WSPX_MUST(pthread_create(&s->thread, NULL, sigmain, s));
	/* seq_cst, with signals_outputfailed(): of a failure that came
	 * before the thread existed and this store, one side sees the
	 * other, and the thread is nudged (twice does no harm) */
	atomic_store(&s->started, true);
	if (atomic_load(&s->outerr) != 0)
		nudge(s);
}

void
signals_inherited(const struct signals *s, const sigset_t **ignored,
    const sigset_t **mask)
{
	*ignored = &s->ignored;
	*mask = &s->startmask;
}

int
signals_wakefd(const struct signals *s)
{
	return s->wake[0];
}

void
signals_outputfailed(struct signals *s, int err)
{
	int none = 0;

	/* seq_cst: before the nudge (the acquires in sigmain and
	 * outputsig() pair with it), and against signals_start()'s store of
	 * started: before the thread exists, signals_start() nudges it.
	 * After signals_stop() (a failure of the last write, on the main
	 * thread) there is no thread left to nudge. */
	if (atomic_compare_exchange_strong(&s->outerr, &none, err) &&
	    atomic_load(&s->started) &&
	    !atomic_load_explicit(&s->quit, memory_order_relaxed))
		nudge(s);
}

int
signals_stop(struct signals *s)
{
	int sig;

	/* release: before the nudge; pairs with the acquire in sigmain. */
	atomic_store_explicit(&s->quit, true, memory_order_release);
	nudge(s);
	WSPX_MUST(pthread_join(s->thread, NULL));
	/* relaxed: the signal thread that stored it has been joined. */
	sig = atomic_load_explicit(&s->stopsig, memory_order_relaxed);
	if (sig == 0)	/* the last job's output met a closed pipe */
		sig = outputsig(s);
	return sig;
}

void
signals_free(struct signals *s)
{
	if (s == NULL)
		return;
	close(s->wake[0]);
	close(s->wake[1]);
	free(s);
}

void
diesig(int sig)
{
	sigset_t set;

	/* (raise() ends the process with no atexit()) */
	owndir_removeall();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}
