/*
 * A run of wspx: the main thread reads the input and submits jobs in
 * batches as the executor's window allows; the executor (lib/job.c) runs
 * them on the two pools and calls back here to build each command (with
 * command.c) and to count each result; the signal thread (signals.c)
 * turns signals, and a failed write of the output, into a stop of the
 * executor.
 *
 * Ending.  When every job has been reaped: a run stopped by signal N ends
 * by re-raising N, so that wspx's parent sees it killed by it (status
 * 128+N; SIGPIPE when stdout's reader went away); output that could not
 * be written otherwise (a full disk) is reported and the status is 255;
 * else the status counts the failed jobs, as GNU parallel's.
 *
 * Watching.  The callbacks count every job in stats.c's atomics, which the
 * status line (status.c) reads as it likes; --events gets a line per
 * start and end (events.c); SIGUSR1 lists the running jobs (running.c).
 * At the end, --stats, --metrics and the summary event report the final
 * counters, the pools' among them, read once the pools have stopped.
 *
 * Failures.  Each attempt's end gets its --joblog row (lib/joblog.c) and
 * its end event; --resume and its kin (resume.c) skip jobs or take them
 * from the joblog as they are read; --halt's verdict and exit status come
 * from the executor.
 *
 * One file past 600 lines because every part above reads and writes the
 * one struct run that the executor's callbacks get; the per-job reports
 * (events, joblog rows, notes) are the next part to move out, with the
 * struct behind a header of its own.
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "command.h"
#include "events.h"
#include "job.h"
#include "joblog.h"
#include "proc.h"
#include "progpath.h"
#include "resume.h"
#include "running.h"
#include "signals.h"
#include "stats.h"
#include "status.h"
#include "thread.h"
#include "util.h"
#include "wspx.h"

extern char **environ;

#define BATCH 64
/* The work-stealing pool only routes jobs: one worker keeps up with
 * thousands of jobs a second, and idles on less CPU than two. */
#define WS_WORKERS 1
/* Job output kept in memory, all jobs together; the rest spills to
 * temporary files. */
#define OUTPUT_BUDGET	(64u << 20)
#define MIN_SPILL	(64u << 10)
#define MAX_SPILL	(8u << 20)

/* A job of the run: its arguments, and what prepare made for it. */
struct cmdjob {
	struct wspx__execjob ej;
	struct args args;
	char *tag;		/* the tag, or NULL */
	char *cmdtext;		/* the command, for error messages */
	bool nobash;		/* its exported function has no bash */
};

struct run {
	struct config *c;
	struct commands *cmds;	/* the jobs' commands and tags */
	struct wspx__output *out;
	struct wspx__exec *x;
	struct wspx_pool *pool;
	struct wspx_blocking *bp;
	struct input *in;
	int devnull;		/* the jobs' stdin */
	struct stats stats;
	struct events *events;	/* --events, or NULL */
	struct running *running;
	struct status *status;	/* status line or --progress, or NULL */
	int metricsfd;		/* --metrics, or -1 */
	struct wspx__joblog *joblog; /* --joblog, or NULL */
	struct resume *resume;	/* --resume and its kin, or NULL */
	struct signals *signals;
};

static void outputfailed(void *ctx, int err);

static int
prepare(void *ctx, struct wspx__execjob *ej, unsigned slot,
    struct wspx__cmd *cmd)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);
	int rc;

	/* (a retry builds them again: the slot may differ) */
	free(j->tag);
	free(j->cmdtext);
	rc = commands_build(r->cmds, &j->args, ej->seq, slot, cmd,
	    &j->nobash);
	j->tag = commands_tag(r->cmds, &j->args, ej->seq, slot);
	ej->tag = j->tag;
	j->cmdtext = xstrdup(cmd->text);
	return rc;
}

static void
started(void *ctx, struct wspx__execjob *ej, const struct wspx__cmd *cmd)
{
	struct run *r = ctx;
	struct buf b = { NULL, 0, 0 };

	/* relaxed: a count (see stats.c). */
	atomic_fetch_add_explicit(&r->stats.started, 1, memory_order_relaxed);
	/* The job's own copy of its command lives until finished(), which
	 * takes it out of the table before freeing it. */
	running_start(r->running, ej->result.slot, ej->seq,
	    wspx_container_of(ej, struct cmdjob, ej)->cmdtext);
	events_start(r->events, ej->seq, ej->result.slot, ej->result.pid,
	    cmd->text, (double)ej->result.start_ns / 1e9);
	if (!r->c->verbose)
		return;
	bufadds(&b, cmd->text);
	bufaddc(&b, '\n');
	wspx__output_note(r->out, b.s, b.len);
	free(b.s);
}

/* The end event of a job that ran or could not start. */
static void
endevent(struct run *r, struct cmdjob *j)
{
	const struct wspx__result *res = &j->ej.result;
	struct event_end e;
	double now = unixtime();

	memset(&e, 0, sizeof(e));
	e.seq = j->ej.seq;
	e.slot = res->slot;
	e.pid = res->pid;
	e.command = j->cmdtext != NULL ? j->cmdtext : "";
	e.start = res->start_ns != 0 ? (double)res->start_ns / 1e9 : now;
	e.end = res->end_ns != 0 ? (double)res->end_ns / 1e9 : now;
	e.runtime = (double)res->runtime_ns / 1e9;
	e.exited = res->started && (r->c->dryrun || WIFEXITED(res->status));
	e.exit = e.exited && !r->c->dryrun ? WEXITSTATUS(res->status) : 0;
	e.signal = res->started && !r->c->dryrun &&
	    WIFSIGNALED(res->status) ? WTERMSIG(res->status) : 0;
	e.bytes = res->bytes;
	e.error = res->started ? NULL : strerror(-res->error);
	e.attempt = res->attempt;
	e.retry = res->retry;
	e.timedout = res->timedout;
	e.killsig = res->killsig;
	if (!res->started)
		events_start(r->events, e.seq, e.slot, 0, e.command, e.start);
	events_end(r->events, &e);
}

/* The joblog's row for an attempt: GNU parallel's columns; a job wspx
 * killed has Exitval -1 and the signal sent, one killed otherwise
 * Exitval 0 and its signal, one that could not start 127 or 126, as from
 * a shell. */
static void
logrow(struct run *r, struct cmdjob *j)
{
	const struct wspx__result *res = &j->ej.result;
	struct wspx__joblog_row row;
	int rc;

	memset(&row, 0, sizeof(row));
	row.seq = j->ej.seq;
	row.host = ":";
	row.start = res->start_ns != 0 ? (double)res->start_ns / 1e9 :
	    unixtime();
	row.runtime = (double)res->runtime_ns / 1e9;
	row.receive = res->outbytes;
	if (res->killsig != 0) {
		row.exitval = -1;
		row.signal = res->killsig;
	} else if (!res->started) {
		row.exitval = res->error == -ENOENT ? 127 : 126;
	} else if (!r->c->dryrun && WIFSIGNALED(res->status)) {
		row.signal = WTERMSIG(res->status);
	} else if (!r->c->dryrun) {
		row.exitval = WEXITSTATUS(res->status);
	}
	row.command = j->cmdtext != NULL ? j->cmdtext : "";
	if ((rc = wspx__joblog_write(r->joblog, &row)) != 0)
		/* the first failure stops the run, as one of the output */
		outputfailed(r, rc);
}

/* "wspx: killed after its --timeout of 2s: COMMAND" */
static void
timedout(struct run *r, struct cmdjob *j)
{
	struct buf b = { NULL, 0, 0 };

	bufprintf(&b, "wspx: killed after its --timeout (");
	if (r->c->timeoutpct > 0)
		bufprintf(&b, "%u%% of the median runtime", r->c->timeoutpct);
	else
		bufprintf(&b, "%gs", r->c->timeout);
	bufprintf(&b, "): %s\n", j->cmdtext != NULL ? j->cmdtext : "");
	wspx__output_note(r->out, b.s, b.len);
	free(b.s);
}

/* An attempt of a job ended: it leaves the running table, and gets its
 * end event and its joblog row. */
static void
ended(void *ctx, struct wspx__execjob *ej)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);

	/* The event last: once a reader sees it, the job is out of the
	 * running table. */
	if (ej->result.started)
		running_end(r->running, ej->result.slot, ej->seq);
	if (ej->result.timedout)
		timedout(r, j);
	if (r->joblog != NULL)
		logrow(r, j);
	if (r->events != NULL)
		endevent(r, j);
}

/* Count the job's end. */
static void
countend(struct run *r, struct cmdjob *j)
{
	const struct wspx__result *res = &j->ej.result;
	bool skipped = !res->started && res->error == -ECANCELED;
	bool failed = !r->c->dryrun && wspx__exec_failed(res);

	stats_ended(&r->stats, res->started ? res->runtime_ns : -1, failed,
	    skipped);
}

/* "wspx: cannot run COMMAND: reason", the command cut short if long (as
 * one too long to run is); nobash: the reason is that. */
static void
cannotrun(struct buf *b, const char *cmdtext, int err, bool nobash)
{
	enum { MAXSHOWN = 200 };
	size_t n = cmdtext != NULL ? strlen(cmdtext) : 0;

	bufadds(b, "wspx: cannot run ");
	if (cmdtext == NULL)
		bufadds(b, "a job");
	else
		bufadd(b, cmdtext, n > MAXSHOWN ? MAXSHOWN : n);
	if (n > MAXSHOWN)
		bufprintf(b, "... (%zu bytes)", n);
	bufprintf(b, ": %s\n", nobash ? "an exported bash function, and no "
	    "bash in PATH" : strerror(-err));
}

/* The message goes with the job's stderr: with -k it is in input order. */
static void
cannotstart(void *ctx, struct wspx__execjob *ej, struct wspx__outjob *oj)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);
	struct buf b = { NULL, 0, 0 };

	cannotrun(&b, j->cmdtext, ej->result.error, j->nobash);
	(void)wspx__output_write(r->out, oj, 2, b.s, b.len);
	free(b.s);
}

static void
finished(void *ctx, struct wspx__execjob *ej)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);
	const struct wspx__result *res = &ej->result;
	struct buf b = { NULL, 0, 0 };

	/* (a job whose output was open got its message there) */
	if (res->error != 0 && res->error != -ECANCELED && !ej->opened) {
		cannotrun(&b, j->cmdtext, res->error, j->nobash);
		wspx__output_note(r->out, b.s, b.len);
		free(b.s);
	}
	countend(r, j);
	free(j->args.v);
	free(j->tag);
	free(j->cmdtext);
	free(j);
}

/* The halt policy was met: say so, as GNU parallel does. */
static void
halted(void *ctx, struct wspx__execjob *ej)
{
	struct run *r = ctx;
	struct cmdjob *j = ej != NULL ? wspx_container_of(ej, struct cmdjob,
	    ej) : NULL;
	const struct wspx__result *res = ej != NULL ? &ej->result : NULL;
	struct buf b = { NULL, 0, 0 };
	size_t running = wspx__exec_inflight(r->x);

	bufprintf(&b, "wspx: --halt %s: ", r->c->haltspec);
	if (res == NULL)
		bufadds(&b, "met");
	else
		bufprintf(&b, "this job %s: %s", wspx__exec_failed(res) ?
		    "failed" : "succeeded", j->cmdtext != NULL ? j->cmdtext :
		    "");
	bufprintf(&b, "\nwspx: starting no more jobs%s\n",
	    r->c->halt.when == WSPX_HALT_NOW ? ", stopping the running ones" :
	    running > 1 ? ", waiting for the running ones" : "");
	wspx__output_note(r->out, b.s, b.len);
	free(b.s);
}

static const struct wspx__exec_ops ops = {
	.prepare = prepare, .started = started, .cannotstart = cannotstart,
	.ended = ended, .halted = halted, .finished = finished
};

/* Job seq does not run (--resume): it takes its turn in the output. */
static void
skipseq(struct run *r, uint64_t seq)
{
	struct wspx__outjob *oj;

	if (wspx__output_open(r->out, seq, NULL, &oj) == 0)
		wspx__output_close(r->out, oj);
}

/* --retry-failed: the next failed job of the joblog, with the logged
 * command as its one argument (run as a command line); the sequence
 * numbers in between take their turns in the output. */
static bool
retryjob(struct run *r, struct cmdjob *j, uint64_t *seq)
{
	const char *command;
	uint64_t next;
	size_t n;

	if (!resume_next(r->resume, &next, &command))
		return false;
	while (++*seq < next)
		skipseq(r, *seq);
	n = strlen(command) + 1;
	j->args.v = xcalloc(1, 2 * sizeof(char *) + n);
	j->args.v[0] = memcpy((char *)(j->args.v + 2), command, n);
	j->args.n = 1;
	return true;
}

/* The next job to submit, numbered after *seq, or NULL at the end of the
 * input: from the input, past the jobs --resume skips, or from the
 * joblog for --retry-failed. */
static struct cmdjob *
nextjob(struct run *r, struct input *in, uint64_t *seq)
{
	struct cmdjob *j = xcalloc(1, sizeof(*j));

	if (r->c->resume == RETRY_FAILED) {
		if (!retryjob(r, j, seq)) {
			free(j);
			return NULL;
		}
		j->ej.seq = *seq;
		return j;
	}
	for (;;) {
		if (!input_next(in, &j->args)) {
			free(j);
			return NULL;
		}
		++*seq;
		if (r->resume == NULL || !resume_done(r->resume, *seq))
			break;
		skipseq(r, *seq);
		free(j->args.v);
	}
	j->ej.seq = *seq;
	return j;
}

/* Submit jobs as the window allows, until the input ends or a stop. */
static void
readloop(struct run *r, struct input *in)
{
	struct wspx__execjob *batch[BATCH];
	struct cmdjob *j;
	uint64_t seq = 0, n = 0;
	size_t want, k;
	bool end = false;

	while (!end && (want = wspx__exec_reserve(r->x, BATCH)) > 0) {
		for (k = 0; k < want; k++) {
			/* Never sit on a partial batch while input waits. */
			if (k > 0 && in != NULL && !input_ready(in))
				break;
			if ((j = nextjob(r, in, &seq)) == NULL) {
				end = true;
				break;
			}
			batch[k] = &j->ej;
		}
		n += k;
		if (k > 0) {
			wspx__exec_submit(r->x, batch, k);
			/* relaxed: a count (see stats.c). */
			atomic_fetch_add_explicit(&r->stats.submitted, k,
			    memory_order_relaxed);
		}
	}
	/* All input read: now the total is known. */
	if (end) {
		/* relaxed: a count for the status line (see stats.c). */
		atomic_store_explicit(&r->stats.total, (int64_t)n,
		    memory_order_relaxed);
		wspx__exec_total(r->x, n);
	}
}

/* Jobs between being read and having finished.  A dry run's jobs take no
 * slot and end at once: a wide window lets the reader and the worker run
 * through thousands of jobs between two wake-ups of each other. */
static unsigned
window(const struct config *c)
{
	return 4 * c->jobs + (c->dryrun ? 4096 : 64);
}

/* Each stream's share of the output budget: the jobs that can hold output
 * at once are the running ones, or with -k the whole window. */
static size_t
spillsize(const struct config *c, bool keep)
{
	size_t holders = keep ? window(c) : c->jobs, share;

	share = OUTPUT_BUDGET / (2 * holders);
	return share < MIN_SPILL ? MIN_SPILL : share > MAX_SPILL ? MAX_SPILL :
	    share;
}

/* The output or the events could not be written: stop the run. */
static void
outputfailed(void *ctx, int err)
{
	struct run *r = ctx;

	signals_outputfailed(r->signals, err);
}

static struct wspx__output *
newoutput(struct run *r, const struct config *c, bool eventsout)
{
	struct wspx__output_opts o;
	struct wspx__output *out;

	memset(&o, 0, sizeof(o));
	o.mode = c->mode;
	o.keep_order = c->keep || c->dryrun;
	/* a dry run's lines go out in blocks, at once when it waits */
	o.hold = c->dryrun;
	/* --events -: stdout is for events, the jobs' output goes to stderr */
	o.out_fd = eventsout ? STDERR_FILENO : STDOUT_FILENO;
	o.err_fd = STDERR_FILENO;
	o.spill = spillsize(c, o.keep_order);
	o.tmpdir = c->tmpdir;
	o.failed = outputfailed;
	o.ctx = r;
	if (wspx__output_new(&out, &o) != 0)
		fatal("out of memory");
	return out;
}

/* Start the pools and the executor for the run. */
static void
startexec(struct run *r)
{
	struct wspx_blocking_opts bo = { r->c->jobs, 0, 256 * 1024 };
	struct wspx_pool_opts po = { WS_WORKERS };
	struct wspx__exec_opts xo;
	int rc;

	if ((rc = wspx_pool_new(&r->pool, &po)) != 0 ||
	    (rc = wspx_blocking_new(&r->bp, &bo)) != 0)
		fatal("cannot start the thread pools: %s", wspx_strerror(rc));
	memset(&xo, 0, sizeof(xo));
	xo.slots = r->c->jobs;
	xo.window = window(r->c);
	xo.dry_run = r->c->dryrun;
	xo.show_command = r->c->showcmd;
	xo.retries = r->c->retries;
	xo.retry_delay_ns = (int64_t)(r->c->retrydelay * 1e9);
	xo.timeout_ns = (int64_t)(r->c->timeout * 1e9);
	xo.timeout_pct = r->c->timeoutpct;
	xo.grace_ns = (int64_t)(r->c->termtimeout * 1e9);
	xo.delay_ns = (int64_t)(r->c->delay * 1e9);
	xo.halt = r->c->halt;
	xo.in_fd = r->devnull;
	xo.env = environ;
	signals_inherited(r->signals, &xo.ignore, &xo.mask);
	xo.output = r->out;
	xo.pool = r->pool;
	xo.blocking = r->bp;
	xo.ops = &ops;
	xo.ctx = r;
	if (wspx__exec_new(&r->x, &xo) != 0)
		fatal("out of memory");
}

/* The failed jobs, or as --halt says. */
static int
exitstatus(struct run *r, const struct stats_final *f)
{
	int status;

	if (!r->c->dryrun && wspx__exec_halt_status(r->x, &status))
		return status;
	return f->now.failed > EXIT_MAXFAILED ? EXIT_MANYFAILED :
	    (int)f->now.failed;
}

/* Read what --resume and its kin need, then open --joblog: appending
 * when resuming, as GNU parallel does. */
static void
openjoblog(struct run *r)
{
	static const char *opts[] = { NULL, "--resume", "--resume-failed",
	    "--retry-failed" };
	const struct config *c = r->c;
	int rc;

	if (c->resume != RESUME_NONE)
		r->resume = resume_load(c->joblog, c->resume, opts[c->resume]);
	/* a dry run runs nothing to log (GNU parallel writes no joblog) */
	if (c->joblog != NULL && !c->dryrun && (rc = wspx__joblog_open(
	    &r->joblog, c->joblog, c->joblogappend ||
	    c->resume != RESUME_NONE)) != 0)
		fatal("--joblog %s: %s", c->joblog, strerror(-rc));
}

/* Open --metrics now, so that a bad path is an error before any job runs;
 * and --events. */
static void
openreports(struct run *r)
{
	const struct config *c = r->c;

	r->metricsfd = -1;
	if (c->metrics != NULL && strcmp(c->metrics, "-") == 0)
		/* stdout, after every job's output: a copy to close */
		r->metricsfd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	else if (c->metrics != NULL)
		r->metricsfd = open(c->metrics, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0666);
	if (c->metrics != NULL && r->metricsfd < 0)
		fatal("--metrics %s:", c->metrics);
	if (c->events != NULL && (r->events = events_open(c->events,
	    outputfailed, r)) == NULL)
		fatal("--events %s:", c->events);
	openjoblog(r);
}

/* The status line on a terminal, or --progress lines, or nothing. */
static void
startstatus(struct run *r)
{
	const struct config *c = r->c;
	const char *term = getenv("TERM");
	struct status_opts so;

	memset(&so, 0, sizeof(so));
	so.stats = &r->stats;
	so.out = r->out;
	so.fd = STDERR_FILENO;
	so.line = !c->nostatus && !c->dryrun && c->mode != WSPX_OUT_UNGROUP &&
	    isatty(STDERR_FILENO) && term != NULL && strcmp(term, "dumb") != 0;
	/* A few times a second on a terminal; --progress-interval off it. */
	so.interval = so.line ? 0.2 : c->progress ? c->interval : 0;
	r->status = status_start(&so);
}

/* Files wspx keeps open besides the jobs' (std fds, /dev/null, pipes
 * of its own, reports), and what each running job needs at most: two
 * pipes while it starts, then their read ends and two spill files. */
#define OWN_FILES	32
#define JOB_FILES	6

/* Make room for the files -j jobs need: raise the soft limit up to the
 * hard one if it is short (the jobs inherit it), else run fewer jobs at
 * once, with a warning, rather than have jobs fail to start. */
static void
fitfiles(struct config *c)
{
	rlim_t per = c->mode == WSPX_OUT_UNGROUP || c->dryrun ? 1 : JOB_FILES;
	rlim_t need = OWN_FILES + c->nsrc + per * c->jobs;
	struct rlimit rl;
	unsigned fit;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max >= need ? need : rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
		return;
	need -= per * c->jobs;
	fit = rl.rlim_cur > need + per ? (unsigned)((rl.rlim_cur - need) /
	    per) : 1;
	warn("-j %u: only enough open files (ulimit -n %llu) for %u jobs at "
	    "once: running %u", c->jobs, (unsigned long long)rl.rlim_cur,
	    fit, fit);
	c->jobs = fit;
}

/* Everything the run needs before the first job: commands, signals,
 * /dev/null for the jobs' stdin, the input, the output, the pools and the
 * executor, and the signal thread. */
static void
setup(struct run *r, struct config *c)
{
	struct inputopts io = { c->delim, c->hascolsep ? &c->colsep : NULL,
	    c->maxargs, c->skipblank, -1, c->trim };

	memset(r, 0, sizeof(*r));
	r->c = c;
	stats_init(&r->stats);
	if (c->total >= 0)
		/* relaxed: before the status thread exists. */
		atomic_store_explicit(&r->stats.total, c->total,
		    memory_order_relaxed);
	progpath_init(getenv("PATH"));
	r->cmds = commands_new(c);
	fitfiles(c);
	r->signals = signals_new(c->termtimeout);
	/* Write errors are reported, not deaths (the jobs get the actions
	 * wspx was started with back). */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	if ((r->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		fatal("/dev/null:");
	io.wakefd = signals_wakefd(r->signals);
	openreports(r);
	r->running = running_new(c->jobs);
	wspx__proc_widen_pipe(STDOUT_FILENO);
	/* --retry-failed takes its jobs from the joblog */
	if (c->resume != RETRY_FAILED)
		r->in = input_open(c->src, c->nsrc, &io);
	r->out = newoutput(r, c, c->events != NULL && strcmp(c->events, "-") ==
	    0);
	startexec(r);
	startstatus(r);
	signals_start(r->signals, r->x, r->out, r->running);
}

/* Once every job has finished: stop the status line, the signal thread
 * and the pools, and read the final counters into f.  Returns the signal
 * that stopped the run, or 0. */
static int
finishrun(struct run *r, struct stats_final *f)
{
	struct wspx_blocking_stats after;
	int sig;

	status_stop(r->status);
	sig = signals_stop(r->signals);
	memset(f, 0, sizeof(*f));
	/* The gauges as the run ends; the counts once nothing runs (a job's
	 * completion returns before its thread counts it). */
	wspx_blocking_stats(r->bp, &f->blocking);
	wspx_blocking_shutdown(r->bp);
	wspx_pool_shutdown(r->pool);
	wspx_blocking_stats(r->bp, &after);
	f->blocking.executed = after.executed;
	f->blocking.spawn_failures = after.spawn_failures;
	wspx_pool_stats(r->pool, &f->pool);
	f->workers = WS_WORKERS;
	f->slots = r->c->jobs;
	stats_finish(&r->stats, f);
	return sig;
}

/* --stats, --metrics and the summary event.  Returns the exit status,
 * 255 (EXIT_USAGE) if a report could not be written. */
static int
report(struct run *r, struct stats_final *f, int status)
{
	int rc;

	f->exitstatus = status;
	if (r->c->stats && (rc = stats_print(f, STDERR_FILENO)) != 0)
		warn("--stats: %s", strerror(-rc));
	if (r->metricsfd >= 0) {
		if ((rc = stats_json(f, r->metricsfd)) != 0 ||
		    (close(r->metricsfd) != 0 && (rc = -errno) != 0)) {
			warn("--metrics %s: %s", r->c->metrics, strerror(-rc));
			status = EXIT_USAGE;
		}
	}
	if ((rc = wspx__joblog_close(r->joblog)) != 0) {
		warn("--joblog %s: %s", r->c->joblog, strerror(-rc));
		status = EXIT_USAGE;
	}
	events_summary(r->events, f);
	if ((rc = events_close(r->events)) != 0) {
		/* a reader that went away is no news: it stopped the run */
		if (rc != -EPIPE)
			warn("--events %s: %s", r->c->events, strerror(-rc));
		status = EXIT_USAGE;
	}
	return status;
}

/* Free everything. */
static void
teardown(struct run *r)
{
	wspx__exec_free(r->x);
	wspx_blocking_free(r->bp);
	wspx_pool_free(r->pool);
	if (r->in != NULL)
		input_close(r->in);
	resume_free(r->resume);
	wspx__output_free(r->out);
	running_free(r->running);
	commands_free(r->cmds);
	progpath_fini();
	close(r->devnull);
	signals_free(r->signals);
}

int
run(struct config *c)
{
	struct run r;
	struct stats_final f;
	bool inputfailed;
	int sig, status, oerr;

	setup(&r, c);
	readloop(&r, r.in);
	inputfailed = r.in != NULL && input_failed(r.in);
	wspx__exec_wait(r.x);
	sig = finishrun(&r, &f);
	status = sig != 0 ? 128 + sig : inputfailed ? EXIT_USAGE :
	    exitstatus(&r, &f);
	if (sig == 0 && (oerr = wspx__output_error(r.out)) != 0) {
		warn("cannot write the output: %s", strerror(-oerr));
		status = EXIT_USAGE;
	}
	if ((oerr = wspx__output_spill_error(r.out)) != 0)
		warn("temporary files in %s: %s: output waited in memory",
		    c->tmpdir, strerror(-oerr));
	status = report(&r, &f, status);
	teardown(&r);
	if (sig != 0)	/* as wspx was asked to, now that all is cleaned up */
		diesig(sig);
	return status;
}
