/*
 * The executor: the life of a job that runs a command, from submission to
 * its result.  Jobs enter the work-stealing pool in batches; each is handed
 * to the blocking pool, whose thread takes a slot, asks the caller for the
 * command, spawns it in its own process group, passes its output to the
 * output module and reaps it, and calls the caller's `finished` callback.
 * Each job runs once in the work-stealing pool.  A window bounds the
 * jobs between submission and completion, so memory does not grow with the
 * input.
 */
#ifndef WSPX_EXEC_H
#define WSPX_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "halt.h"
#include "output.h"
#include "results.h"
#include "wspx.h"

struct wspx__exec;
struct wspx__jobserver;

/* A job's command, built by the prepare callback when the job starts. */
struct wspx__cmd {
	char **argv;		/* NULL-terminated; freed with free(argv) */
	const char *file;	/* argv[0]'s path if known (borrowed), or NULL */
	bool search;		/* with no file: look argv[0] up in PATH */
	char *text;		/* the command as -v and --dry-run show it;
				 * freed with free() */
	char *const *envp;	/* its environment, or NULL: the run's (with
				 * WSPX_SEQ and the like); borrowed until
				 * the job is finished */
	const char *dir;	/* the directory it starts in, or NULL;
				 * borrowed likewise */
	int in_fd;		/* its stdin if above 0 (as a pipe the
				 * caller feeds), else the run's; the
				 * executor closes it once the job has
				 * started, or could not */
	int out_fd;		/* its stdout if above 0 (a file of the
				 * caller's), else the run's; closed
				 * likewise */
	int hangup_fd;		/* if above 0, an fd of the caller's that
				 * the executor closes the first time it
				 * tells the job to end (a stop, a timeout,
				 * a halt, an eviction; not a suspend) or
				 * when the job ends: a pipe whose reader
				 * is the job's remote end */
	bool declined;		/* set by prepare: the job is not to run
				 * (-p was answered no); it counts as
				 * failed, not run again */
};

/* How a job ended. */
struct wspx__result {
	bool started;		/* a process ran (or, dry run, was shown) */
	int error;		/* why it could not start: -errno, or 0 */
	int status;		/* wait status, when started */
	unsigned slot;		/* 1..slots, 0 if it never got one */
	pid_t pid;		/* 0 if none */
	int64_t start_ns;	/* wall clock at start (CLOCK_REALTIME) */
	int64_t end_ns;		/* wall clock at end */
	int64_t runtime_ns;	/* monotonic time from start to end */
	uint64_t bytes;		/* output, stdout and stderr */
	uint64_t outbytes;	/* of which stdout */
	unsigned attempt;	/* 1, 2, ...: which run of the job this is */
	bool retry;		/* another attempt follows this one */
	bool timedout;		/* killed for running past the timeout */
	int killsig;		/* the last signal wspx sent the job's group
				 * (a timeout, a halt, a stop), or 0 */
	bool evicted;		/* killed for want of memory: it runs again
				 * (the same attempt) */
	bool lost;		/* lost with the place it ran at (ops->lost):
				 * it runs again (the same attempt) */
	bool rejected;		/* it ran, and the caller failed it for
				 * what it left (ops->ran) */
	bool declined;		/* prepare declined it (wspx__cmd) */
};

/* A job, embedded by the caller, who sets seq and tag; the rest is the
 * executor's until `finished` is called. */
struct wspx__execjob {
	struct wspx_job wsjob;		/* its run in the work-stealing pool */
	struct wspx_task task;		/* the run, on a blocking thread */
	struct wspx__exec *x;
	uint64_t seq;			/* 1, 2, ...: input order */
	uint64_t outseq;		/* its turn in the output, when the
					 * jobs' seq have gaps no job fills
					 * (--retry-failed): 1, 2, ... with
					 * none; or 0: seq */
	const char *tag;		/* put before each output line, or NULL */
	int64_t timeout_ns;		/* its own time limit, or 0: the run's */
	bool ownretries;		/* retries is its own, not the run's */
	unsigned retries;
	bool always;			/* it starts even after a halt or a
					 * stop by a signal (not after
					 * SIGKILL for all), and a stop's
					 * signal and grace spare it if it
					 * starts after the stop */
	bool ignorefail;		/* its failure counts as a success
					 * for the halt policy (and the
					 * caller's exit status) */
	struct wspx__result result;
	bool opened;			/* it had its turn in the output */
	struct wspx__outjob *oj;	/* its output while open, or NULL */
	struct wspx__resultfiles files;	/* with results, while it runs */
	int token;			/* the jobserver token it holds, */
	bool hastoken;			/* if it holds one */
	bool ready;			/* its wsjob ran; executor's lock */
	uint64_t ticket;		/* with a delay, its first attempt's
					 * turn among the others' (input
					 * order), or 0: none, or used or
					 * given up; set as it is handed to
					 * the blocking pool, then its
					 * runner's */
	struct wspx__execjob *next;	/* in the executor's queue */
};

struct wspx__exec_ops {
	/* Build job's command, for slot (1..slots).  Called on a blocking
	 * thread just before the job starts; it may wait.  Returns 0 or
	 * -errno (the job then fails with that error).  A stop or halt
	 * that comes meanwhile keeps the job from starting: the command
	 * is freed, its fds closed, and finished is called. */
	int (*prepare)(void *ctx, struct wspx__execjob *job, unsigned slot,
	    struct wspx__cmd *cmd);
	/* Whether the attempt that just ran was lost with the place it ran
	 * at rather than failed (a remote host whose connection went down):
	 * it then runs again as the same attempt, with result.lost set for
	 * ended.  Blocking thread; may be NULL. */
	bool (*lost)(void *ctx, struct wspx__execjob *job);
	/* An attempt of job ran (not lost): the caller may look at what it
	 * left and fail it, having written why to oj (its output, still
	 * open).  Returns false to fail it (result.rejected; it may run
	 * again, as a failure does).  Blocking thread; may be NULL. */
	bool (*ran)(void *ctx, struct wspx__execjob *job,
	    struct wspx__outjob *oj);
	/* job has started (pid is 0 for a dry run).  Blocking thread. */
	void (*started)(void *ctx, struct wspx__execjob *job,
	    const struct wspx__cmd *cmd);
	/* job's command could not start (result.error says why); oj is its
	 * output, still open, where a message keeps the job's place (as in
	 * input order with keep_order).  Blocking thread. */
	void (*cannotstart)(void *ctx, struct wspx__execjob *job,
	    struct wspx__outjob *oj);
	/* An attempt of job ended (result.attempt; result.retry if another
	 * follows): it ran, or could not start.  Not for a job skipped by a
	 * stop.  Its output is still open.  Blocking thread (dry run: a
	 * work-stealing worker). */
	void (*ended)(void *ctx, struct wspx__execjob *job);
	/* The halt policy was met as job ended: nothing new starts (and with
	 * now, the running jobs are stopped), already when this is called.
	 * Once, before job's finished, on the thread that finishes it; may
	 * be NULL. */
	void (*halted)(void *ctx, struct wspx__execjob *job);
	/* Jobs wait: memory (then value is the bytes available) or the load
	 * (value: the load average) keeps them from starting.  Once each
	 * time that gate closes, on the thread of a waiting job; may be
	 * NULL. */
	void (*waiting)(void *ctx, bool memory, double value);
	/* The load limit now, when it may change during the run (GNU
	 * parallel's --load FILE), read before each start while max_load is
	 * not 0; on any thread, possibly several at once.  NULL: max_load. */
	double (*maxload)(void *ctx);
	/* job is over: ran, failed to start, or was skipped by a stop (then
	 * result.started is false and result.error is -ECANCELED).  Called
	 * once, on the blocking thread that ran it (or, if it never reached
	 * one, and for every job of a dry run, a work-stealing worker),
	 * possibly on several threads at once; job is the caller's again. */
	void (*finished)(void *ctx, struct wspx__execjob *job);
};

struct wspx__exec_opts {
	unsigned slots;			/* jobs running at once */
	unsigned window;		/* jobs submitted and not finished */
	bool dry_run;			/* show commands instead of running:
					 * in place, on the work-stealing
					 * pool; slot numbers in turn; the
					 * output (opened with hold) is
					 * flushed when none is in flight */
	bool show_command;		/* write each command and a newline to
					 * the job's stdout before it runs */
	int in_fd;			/* the jobs' stdin */
	char *const *env;		/* the jobs' environment, borrowed */
	const sigset_t *ignore;		/* signals jobs keep ignored, or NULL;
					 * borrowed */
	const sigset_t *mask;		/* jobs' signal mask, or NULL (none
					 * blocked); borrowed */
	unsigned retries;		/* attempts after a failed first */
	bool rerun;			/* an attempt may be lost (ops->lost)
					 * and run again even without
					 * retries */
	int64_t retry_delay_ns;		/* before the first retry, doubling
					 * for each next one */
	int64_t timeout_ns;		/* a job's time limit, or 0 */
	bool jobtimeouts;		/* jobs may have limits of their own
					 * (execjob.timeout_ns) */
	unsigned timeout_pct;		/* or this percentage of the median
					 * runtime of the jobs that
					 * succeeded so far, or 0 */
	int64_t grace_ns;		/* from SIGTERM to SIGKILL, for a
					 * timeout and a halt now */
	int64_t delay_ns;		/* at least this between starts */
	bool samegroup;			/* jobs stay in the caller's process
					 * group, to read its terminal */
	bool renice;			/* start jobs at niceness nice */
	int nice;
	uint64_t memfree;		/* start no job while less memory is
					 * available; evict the youngest below
					 * half of it; 0: none */
	double max_load;		/* start no job while the 1-minute load
					 * average is this or more; 0: none */
	struct wspx__jobserver *jobserver; /* a job beyond the first takes a
					 * token of it; NULL, or borrowed */
	struct wspx__halt halt;		/* when to stop early */
	struct wspx__output *output;	/* where output goes, borrowed */
	struct wspx__results *results;	/* or, jobs' stdout and stderr,
					 * with their exit values: NULL, or
					 * borrowed */
	struct wspx_pool *pool;		/* borrowed */
	struct wspx_blocking *blocking;	/* borrowed; cap at least slots */
	const struct wspx__exec_ops *ops;
	void *ctx;			/* passed to ops */
};

/* Create an executor.  Returns 0 and sets *x, or -ENOMEM. */
int wspx__exec_new(struct wspx__exec **x, const struct wspx__exec_opts *o);

/* Free x; every submitted job must have finished. */
void wspx__exec_free(struct wspx__exec *x);

/* Wait until the window is at most half full, then return how many jobs
 * (1..want) may be submitted now; 0 once x is stopping.  The submitting
 * thread only. */
size_t wspx__exec_reserve(struct wspx__exec *x, size_t want);

/* Submit n jobs reserved with wspx__exec_reserve(), jobs[0] first in line.
 * They start in the order they were submitted.  The submitting thread
 * only. */
void wspx__exec_submit(struct wspx__exec *x, struct wspx__execjob **jobs,
    size_t n);

/* Wait until every submitted job has finished. */
void wspx__exec_wait(struct wspx__exec *x);

/* Start no more jobs, and send sig to the process group of every running
 * job, exactly once per job (a job starting meanwhile gets it when it
 * starts).  With sig SIGKILL, kill every running group now, again if need
 * be.  Any thread, any number of times. */
void wspx__exec_stop(struct wspx__exec *x, int sig);

/* The stop's grace is over: SIGKILL every running job's group but the
 * spared ones (jobs that start even after a stop, started after it),
 * which only wspx__exec_stop(x, SIGKILL) kills.  Any thread. */
void wspx__exec_killstopped(struct wspx__exec *x);

/* How many spared jobs run now.  Any thread. */
unsigned wspx__exec_spared(struct wspx__exec *x);

/* Job control: with on, stop every running job's process group with
 * SIGTSTP, and any job that starts while suspended too; with !on, send
 * SIGCONT to them.  Any thread. */
void wspx__exec_suspend(struct wspx__exec *x, bool on);

/* The run has total jobs, now that the submitter knows (percentages of
 * the halt policy wait for it).  Any thread. */
void wspx__exec_total(struct wspx__exec *x, uint64_t total);

/* Whether a result is a failure: a job that ran and did not exit 0, was
 * killed for its timeout, or could not start (a skipped job is neither). */
bool wspx__exec_failed(const struct wspx__result *r);

/* The run's exit status as the halt policy gives it, once every job has
 * finished: *status is set and true returned when a policy other than
 * never was given. */
bool wspx__exec_halt_status(struct wspx__exec *x, int *status);

/* The exit value of an attempt as a shell's $? gives it: its exit
 * status, 128 + N if a signal N killed it, 127 (not found) or 126 if it
 * could not start. */
int wspx__exec_exitval(const struct wspx__result *r);

/* Copy up to n of the last bytes of the job's stderr into buf; returns
 * how many.  During ended(), on its thread. */
size_t wspx__exec_errtail(struct wspx__exec *x, struct wspx__execjob *job,
    char *buf, size_t n);

/* A job that the caller ran itself, in the process (a builtin), with its
 * result set (started, status as a wait status, times, attempt): count
 * it for the halt policy, then call ended and finished as for a job that
 * ran.  Its output, opened by the caller (oj, with opened set) or NULL,
 * is closed here after ended.  Any thread, job not submitted. */
void wspx__exec_ranhere(struct wspx__exec *x, struct wspx__execjob *job);

/* The caller starts a job itself, in the process (a builtin): call
 * started as for a job that the executor started.  Any thread. */
void wspx__exec_startedhere(struct wspx__exec *x,
    struct wspx__execjob *job);

/* Whether the run starts no more jobs: stopped, or halting (soon or now);
 * any thread. */
bool wspx__exec_halting(struct wspx__exec *x);

/* Whether the run was stopped by a signal or a halt now.  Any thread. */
bool wspx__exec_stopped(struct wspx__exec *x);

/* Whether every running job was told to die (SIGKILL for all): not even
 * the jobs that start after a stop start.  Any thread. */
bool wspx__exec_killing(struct wspx__exec *x);

/* Jobs submitted and not yet finished; any thread. */
size_t wspx__exec_inflight(struct wspx__exec *x);

#endif /* WSPX_EXEC_H */
