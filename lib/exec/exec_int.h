/*
 * The executor's own state, shared by its files: exec.c (the window and
 * the queue), attempt.c (a job's attempts on its blocking thread), stop.c
 * (every signal sent to the jobs: stops, suspends, timeouts and the halt
 * policy's) and outcome.c (what the ended jobs add up to).
 * Not for the executor's callers, which see exec.h.
 */
#ifndef WSPX_EXEC_INT_H
#define WSPX_EXEC_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "exec.h"
#include "halt.h"

struct wspx__median;
struct wspx__watchdog;

#define NVARS		4	/* WSPX_SEQ, WSPX_SLOT, PARALLEL_SEQ, ..JOBSLOT */

struct slot {
	pthread_mutex_t lock;	/* guards the fields up to vars */
	pid_t pid;		/* running job's process, 0 if none */
	bool signalled;		/* its group got the stop signal */
	bool spared;		/* a job that starts even after a stop (its
				 * if: always()), started after one: the
				 * stop's signal and its grace spare it,
				 * a second signal does not */
	int64_t started;	/* when it started (monotonic ns) */
	int64_t limit;		/* its own time limit (ns), or 0 */
	bool timedout;		/* it got SIGTERM for its timeout */
	bool evicted;		/* it got SIGTERM for want of memory */
	int64_t killat;		/* then SIGKILL at this time, or 0 */
	int killsig;		/* the last signal its group got from us */
	int hangup;		/* the job's hangup_fd, till it is closed */
	char **envp;		/* the base environment, then vars */
	char vars[NVARS][48];
};

struct wspx__exec {
	struct wspx__exec_opts o;
	pthread_mutex_t lock;
	pthread_cond_t room;	/* the window has room, or stopping */
	pthread_cond_t idle;	/* nothing in flight */
	pthread_cond_t slotfree;
	size_t inflight;	/* lock */
	struct wspx__execjob *head, *tail; /* submitted, not routed; lock */
	struct wspx__execjob *dryhead, *drytail; /* a dry run's jobs routed
				 * in turn, for the one showing them; lock */
	bool dryshowing;	/* a worker shows a dry run's jobs; lock */
	unsigned *free;		/* free slot numbers, a stack; lock */
	unsigned nfree;		/* lock */
	struct slot *slots;	/* slots[i] is slot i + 1 */
	_Atomic(int) stopsig;	/* 0, or the signal of the first stop */
	_Atomic(bool) killing;	/* SIGKILL whatever runs */
	_Atomic(bool) killstopped; /* SIGKILL whatever runs but the spared */
	_Atomic(unsigned) nspared; /* spared jobs running */
	_Atomic(bool) suspended; /* SIGTSTP whatever starts */
	_Atomic(bool) draining;	/* start nothing new: a halt soon */
	_Atomic(int64_t) killat; /* a halt now: SIGKILL what runs at this
				  * (monotonic) time, or 0 */
	_Atomic(int64_t) timeout; /* a job's time limit now (ns), 0: none */
	_Atomic(uint64_t) total; /* all jobs of the run, 0 while unknown */
	pthread_cond_t wake;	/* a stop, for pauses (monotonic clock) */
	int64_t nextstart;	/* --delay: no job starts before; lock */
	uint64_t nextticket;	/* --delay: the ticket of the next job
				 * handed over (1, 2, ...); lock */
	uint64_t serving;	/* the ticket whose job takes the next
				 * turn of the first attempts; lock */
	pthread_cond_t turn;	/* serving moved on */
	struct wspx__halt_counts counts; /* jobs ended; lock */
	bool halted;		/* the halt policy was met; lock */
	int haltstatus;		/* then the run's exit status; lock */
	bool gateshut;		/* memory or load keeps jobs waiting and
				 * the caller was told; lock */
	struct wspx__median *median; /* successful runtimes, with
				  * timeout_pct; lock */
	struct wspx__watchdog *watchdog; /* timeouts, halt now; or NULL */
};

/* The job is over: count it, tell the caller (finished), then free its
 * place in the window.  Any thread that ends a job, once per job. */
void wspx__exec_complete(struct wspx__execjob *job);

/* Print what is left of the job's output, and let go of it. */
void wspx__exec_closeoutput(struct wspx__exec *x, struct wspx__execjob *job);

/* Set the job's bytes written, from its output or its result files. */
void wspx__exec_countbytes(struct wspx__exec *x, struct wspx__execjob *job);

/* A job of a dry run: show its command in place, on the work-stealing
 * worker; the caller then completes it. */
void wspx__exec_dryrun(struct wspx__execjob *job);

/* A job's run on a blocking thread (its task's run): every attempt, then
 * wspx__exec_complete(). */
void wspx__exec_runtask(struct wspx_task *task, int status);

/* Close slot s's hangup fd, if it has one: its job was told to end, or
 * ended.  Slot lock held. */
void wspx__exec_hangup(struct slot *s);

/* Job's turn in the output (see outseq). */
static inline uint64_t
wspx__exec_outseq(const struct wspx__execjob *job)
{
	return job->outseq != 0 ? job->outseq : job->seq;
}

/* Whether a stop signal was sent: what is left of a job's group is
 * killed when it ends. */
static inline bool
wspx__exec_signalled(struct wspx__exec *x)
{
	/* relaxed: a hint; the slot mutex decides who signals (see
	 * attempt.c). */
	return atomic_load_explicit(&x->stopsig, memory_order_relaxed) != 0 ||
	    atomic_load_explicit(&x->killing, memory_order_relaxed);
}

/* Whether no job may start (a stop, or a halt soon). */
static inline bool
wspx__exec_stopping(struct wspx__exec *x)
{
	/* relaxed: a hint, as above; a job that starts anyway is signalled
	 * by the stopper or by its own runner. */
	return wspx__exec_signalled(x) ||
	    atomic_load_explicit(&x->draining, memory_order_relaxed);
}

/* Signal slot s's job as a stop or suspend asks.  s's lock held. */
void wspx__exec_stopslot(struct wspx__exec *x, struct slot *s);

/* The child of slot s has ended (not reaped): forget it, kill what is
 * left of its group if it was signalled, note in r what it was sent. */
void wspx__exec_unregister(struct wspx__exec *x, struct slot *s,
    struct wspx__result *r);

/* Sleep until the monotonic time t, or less if a stop comes.  Returns
 * whether the run goes on.  x's lock held. */
bool wspx__exec_sleepuntil(struct wspx__exec *x, int64_t t);

/* Before job starts, in its slot: wait until memory and load allow it,
 * and take a jobserver token.  Returns whether it may start (false: the
 * run is stopping). */
bool wspx__exec_gate(struct wspx__exec *x, struct wspx__execjob *job);

/* The job's attempt is over: give back its jobserver token. */
void wspx__exec_ungate(struct wspx__exec *x, struct wspx__execjob *job);

/* The watchdog's look at memory: with less than half of memfree, evict
 * the youngest of several running jobs. */
void wspx__exec_watchmemory(struct wspx__exec *x, int64_t now);

/* Start the watchdog (and the median) if the options need them. Returns
 * 0 or -errno. */
int wspx__exec_startwatchdog(struct wspx__exec *x);

/* The halt policy was met: start nothing new, and with now stop what
 * runs. */
void wspx__exec_halt(struct wspx__exec *x);

/* Count the end of a job that ran or could not start (a failure counts
 * as a success with ignorefail).  Returns whether the run must halt
 * now. */
bool wspx__exec_countend(struct wspx__exec *x, const struct wspx__result *r,
    bool ignorefail);

#endif /* WSPX_EXEC_INT_H */
