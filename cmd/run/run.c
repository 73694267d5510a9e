/*
 * A run of wspx: the main thread reads the input and submits jobs in
 * batches as the executor's window allows; the executor (lib/exec) runs
 * them on the two pools and calls back (jobcalls.c) to build each command
 * (with input/command.c) and to count each result; the signal thread
 * (signals.c) turns signals, and a failed write of the output, into a
 * stop of the executor.  Each part is given what it needs of the options
 * by runopts.c.
 *
 * Ending.  When every job has been reaped: a run stopped by signal N ends
 * by re-raising N, so that wspx's parent sees it killed by it (status
 * 128+N; SIGPIPE when stdout's reader went away); output that could not
 * be written otherwise (a full disk) is reported and the status is 255;
 * else the status counts the failed jobs, as GNU parallel's.
 *
 * Reports.  The callbacks count every job in report/stats.c's atomics,
 * which the status line (report/status.c) reads as it likes; what each
 * job's start and end tell the user and the report files (-t, --events,
 * --joblog, the failure summary, GitHub Actions' lines) is
 * report/report.c's.  The start gates (--memfree, --load, make's
 * jobserver) are set up by gates.c.
 *
 * Failures.  --resume and its kin (report/resume.c) skip jobs or take
 * them from the joblog as they are read; --halt's verdict and exit
 * status come from the executor.
 *
 * --pipe.  The jobs come from pipe/pipejobs.c instead of the input: one
 * block each, which prepare turns into the job's stdin and finished
 * releases; the window is kept small, as each job it holds holds a
 * block.
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
#include <sys/wait.h>
#include <unistd.h>

#include "exec/exec.h"
#include "exec/jobserver.h"
#include "exec/results.h"
#include "gates.h"
#include "input/command.h"
#include "input/jobargs.h"
#include "input/progpath.h"
#include "options/cmdline.h"
#include "os/proc.h"
#include "os/thread.h"
#include "pipe/pipejobs.h"
#include "remote/placing.h"
#include "report/report.h"
#include "report/resume.h"
#include "report/running.h"
#include "report/stats.h"
#include "report/status.h"
#include "report/trace.h"
#include "run_int.h"
#include "semaphore.h"
#include "signals.h"
#include "util/buf.h"
#include "util/util.h"
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

static const char *resumeopts[] = { NULL, "--resume", "--resume-failed",
    "--retry-failed" };

/* Job seq does not run (--resume): it takes its turn in the output. */
static void
skipseq(struct run *r, uint64_t seq)
{
	struct wspx__outjob *oj;

	if (wspx__output_open(r->out, seq, NULL, &oj) == 0)
		wspx__output_close(r->out, oj);
}

/* --retry-failed: the next failed job of the joblog, with the logged
 * command as its one argument (run as a command line) and its logged
 * number.  The jobs take their turns in the output one after another,
 * whatever the numbers between them (a row of job 4294967295 alone is
 * one turn, not four billion). */
static bool
retryjob(struct run *r, struct cmdjob *j, uint64_t *seq)
{
	const char *command;
	uint64_t next;
	size_t n;

	if (!resume_next(r->resume, &next, &command))
		return false;
	*seq = next;
	j->ej.outseq = ++r->retried;
	n = strlen(command) + 1;
	j->args.v = xcalloc(1, 2 * sizeof(char *) + n);
	j->args.v[0] = memcpy((char *)(j->args.v + 2), command, n);
	j->args.n = 1;
	return true;
}

/* The arguments (and with --pipe the block) of the next job; false at the
 * end of the input. */
static bool
readjob(struct run *r, struct cmdjob *j)
{
	if (r->pipes != NULL)
		return pipejobs_next(r->pipes, r->x, &j->pj, &j->args);
	return jobargs_next(r->ja, &j->args);
}

/* The next job to submit, numbered after *seq, or NULL at the end of the
 * input: from the input, past the jobs --resume skips, or from the
 * joblog for --retry-failed. */
static struct cmdjob *
nextjob(struct run *r, uint64_t *seq)
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
		if (!readjob(r, j)) {
			free(j);
			return NULL;
		}
		++*seq;
		if (r->resume == NULL || !resume_done(r->resume, *seq))
			break;
		skipseq(r, *seq);
		if (r->pipes != NULL)
			pipejobs_finished(r->pipes, &j->pj);
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
			/* Never sit on a partial batch while input waits;
			 * a block is a batch of its own. */
			if (k > 0 && (r->pipes != NULL || (in != NULL &&
			    !jobargs_ready(r->ja))))
				break;
			if ((j = nextjob(r, &seq)) == NULL) {
				end = true;
				break;
			}
			batch[k] = &j->ej;
		}
		n += k;
		if (k > 0) {
			wspx__exec_submit(r->x, batch, k);
			/* relaxed: a count (see report/stats.c). */
			atomic_fetch_add_explicit(&r->stats.submitted, k,
			    memory_order_relaxed);
		}
	}
	/* All input read: now the total is known. */
	if (end) {
		/* relaxed: a count for the status line (see
		 * report/stats.c). */
		atomic_store_explicit(&r->stats.total, (int64_t)n,
		    memory_order_relaxed);
		wspx__exec_total(r->x, n);
	}
}

/* A job file's jobs, given the run's machinery. */
static void
feedjobs(struct run *r, struct jobsource *f)
{
	f->x = r->x;
	f->out = r->out;
	f->pool = r->pool;
	f->stats = &r->stats;
	f->run(f->ctx, f);
}

/* The work-stealing pool's workers. */
static unsigned
po_workers(const struct run *r)
{
	struct wspx_pool_stats ps;

	wspx_pool_stats(r->pool, &ps);
	return ps.workers;
}

/* Jobs between being read and having finished.  A dry run's jobs take no
 * slot and end at once: a wide window lets the reader and the worker run
 * through thousands of jobs between two wake-ups of each other.  With
 * --pipe each job holds a block: the next -j wait while -j run. */
static unsigned
window(const struct config *c)
{
	if (c->pipe)
		return 2 * c->jobs;
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
	runopts_compress(c, &r->zip, &r->unzip);
	o.compress = r->zip;
	o.decompress = r->unzip;
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
	struct wspx_pool_opts po = { r->c->source != NULL ?
	    r->c->source->workers : WS_WORKERS };
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
	xo.rerun = placing_rerun(&r->placing);
	xo.retry_delay_ns = (int64_t)(r->c->retrydelay * 1e9);
	xo.timeout_ns = (int64_t)(r->c->timeout * 1e9);
	xo.timeout_pct = r->c->timeoutpct;
	xo.jobtimeouts = r->c->source != NULL && r->c->source->jobtimeouts;
	xo.grace_ns = (int64_t)(r->c->termtimeout * 1e9);
	xo.delay_ns = (int64_t)(r->c->delay * 1e9);
	xo.renice = r->c->nice != 0;
	xo.nice = r->c->nice;
	xo.halt = r->c->halt;
	xo.in_fd = r->devnull;
	xo.samegroup = r->c->tty;
	xo.env = environ;
	signals_inherited(r->signals, &xo.ignore, &xo.mask);
	xo.output = r->out;
	xo.results = r->results;
	xo.memfree = r->c->memfree;
	xo.max_load = r->c->maxload;
	xo.jobserver = r->jobserver;
	xo.pool = r->pool;
	xo.blocking = r->bp;
	xo.ops = &jobcalls;
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

/* The status line on a terminal, or --progress lines, or nothing. */
static void
startstatus(struct run *r)
{
	const struct config *c = r->c;
	struct status_opts so;

	memset(&so, 0, sizeof(so));
	so.stats = &r->stats;
	so.out = r->out;
	so.fd = STDERR_FILENO;
	so.line = runopts_statusline(c);
	/* (a job file's run ends with a line of its own) */
	so.nosummary = c->source != NULL;
	so.running = c->source != NULL ? r->running : NULL;
	/* A few times a second on a terminal; --progress-interval off it. */
	so.interval = so.line ? 0.2 : c->progress ? c->interval : 0;
	r->status = status_start(&so);
}

/* Files wspx keeps open besides the jobs' (std fds, /dev/null, pipes
 * of its own, reports), and what each running job needs at most: two
 * pipes while it starts, then their read ends and two spill files; and
 * with --compress, the pipes to their two compressors. */
#define OWN_FILES	32
#define JOB_FILES	6
#define ZIP_FILES	2

/* Make room for the files -j jobs need: raise the soft limit up to the
 * hard one if it is short (the jobs inherit it), else run fewer jobs at
 * once, with a warning, rather than have jobs fail to start. */
static void
fitfiles(struct config *c)
{
	bool zip = c->compress || c->compressprog != NULL;
	rlim_t per = (c->mode == WSPX_OUT_UNGROUP || c->dryrun ? 1 :
	    JOB_FILES + (zip ? ZIP_FILES : 0)) +
	    (c->pipe ? 1 : 0);	/* (--pipe: its stdin's pipe) */
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
	if (!c->jobsall)	/* (-j 0 asked for what the limits allow) */
		warn("-j %u: only enough open files (ulimit -n %llu) for %u "
		    "jobs at once: running %u", c->jobs,
		    (unsigned long long)rl.rlim_cur, fit, fit);
	c->jobs = fit;
}

/* -j 0, as many jobs at once as possible: as many as the limit on the
 * user's processes leaves room for, each job being a process and a
 * thread of wspx's (and with --compress its two compressors), and then
 * as many as have open files (fitfiles()). */
static void
fitprocs(struct config *c)
{
	rlim_t per = c->compress || c->compressprog != NULL ? 4 : 2;
	struct rlimit rl;

	if (!c->jobsall || getrlimit(RLIMIT_NPROC, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur / per >= c->jobs)
		return;
	c->jobs = rl.rlim_cur >= 2 * per ? (unsigned)(rl.rlim_cur / per) : 1;
}

/* The input's records into jobs; --show-limits. */
static struct jobargs *
newjobargs(struct input *in, struct commands *cm, const struct config *c)
{
	struct jobargs_opts o;
	struct jobargs *ja;

	runopts_jobargs(c, &o);
	o.cm = cm;
	ja = jobargs_new(in, &o);
	if (c->showlimits)
		jobargs_limits(ja, stderr);
	return ja;
}

static struct commands *
newcommands(const struct config *c)
{
	struct command_opts co;

	runopts_command(c, &co);
	return commands_new(&co);
}

/* The commands and the input, before the signals are blocked (signals.h):
 * opening the input reads all of its sources but the first, and with
 * --header the first record of each, which may wait, and Ctrl-C must stop
 * that.  --header's names go into the commands (and the remote files),
 * so those are made after it; else before, so that a bad command is told
 * at once. */
static void
opencommands(struct run *r, struct config *c, const struct inputopts *io)
{
	bool reads = !c->pipe && c->resume != RETRY_FAILED &&
	    c->source == NULL;
	char *const *names;
	size_t n;

	if (!reads || !io->header)
		r->cmds = newcommands(c);
	if (reads)
		r->in = input_open(c->src, c->nsrc, io);
	if (reads && io->header) {
		names = input_header(r->in, &n);
		config_namefields(c, names, n);
		r->cmds = newcommands(c);
	}
}

/* Everything the run needs before the first job: commands, signals,
 * /dev/null for the jobs' stdin, the input, the output, the pools and the
 * executor, and the signal thread. */
static void
setup(struct run *r, struct config *c)
{
	struct inputopts io = { c->delim, c->hascolsep ? &c->colsep : NULL,
	    c->skipblank, c->maxlines > 0, c->eofstr, c->link, -1, c->trim,
	    config_headernames(c) };
	struct report_opts ro;
	struct placing_opts plo;
	struct pipe_opts pio;
	int rc;

	memset(r, 0, sizeof(*r));
	r->c = c;
	r->jobserver = gates_jobserver(c);
	gates_check(c);
	stats_init(&r->stats);
	if (c->total >= 0)
		/* relaxed: before the status thread exists. */
		atomic_store_explicit(&r->stats.total, c->total,
		    memory_order_relaxed);
	progpath_init(getenv("PATH"));
	/* (as GNU parallel warns: a user who forgot ::: or a pipe sees
	 * why nothing happens) */
	if (runopts_terminalinput(c))
		warn("reading the input from the terminal (CTRL-D ends it): "
		    "forgot ::: or a pipe?");
	opencommands(r, c, &io);
	r->signals = signals_new(c->termtimeout);
	/* Write errors are reported, not deaths (the jobs get the actions
	 * wspx was started with back). */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	/* (--tty without a terminal, as under cron: GNU parallel runs the
	 * jobs all the same; wspx says so) */
	if (c->tty && (r->devnull = open("/dev/tty", O_RDONLY |
	    O_CLOEXEC)) < 0) {
		warn("--tty: no terminal to give the jobs (/dev/tty: %s): "
		    "their stdin is /dev/null", strerror(errno));
		c->tty = false;
	}
	/* (--semaphore: COMMAND reads wspx's stdin, as sem's does) */
	if (c->tty)
		;
	else if (c->sem.on && (r->devnull = fcntl(STDIN_FILENO,
	    F_DUPFD_CLOEXEC, 3)) < 0)
		fatal("stdin:");
	else if (!c->sem.on && (r->devnull = open("/dev/null", O_RDONLY |
	    O_CLOEXEC)) < 0)
		fatal("/dev/null:");
	confirm_open(&r->confirm, c->interactive && !c->dryrun,
	    signals_wakefd(r->signals));
	io.wakefd = signals_wakefd(r->signals);
	if (r->in != NULL)
		input_wakefd(r->in, io.wakefd);
	if (c->resume != RESUME_NONE)
		r->resume = resume_load(c->joblog, c->resume,
		    resumeopts[c->resume]);
	runopts_report(c, &ro);
	reports_open(&r->rep, &ro, outputfailed, r);
	if (c->results != NULL && !c->dryrun && (rc = wspx__results_open(
	    &r->results, c->results, outputfailed, r)) != 0)
		fatal("--results %s: %s", c->results, strerror(-rc));
	c->remote.grace = c->termtimeout;
	c->remote.nice = c->nice;
	runopts_placing(c, &plo);
	c->jobs = placing_open(&r->placing, &plo);
	if (c->maxchars == 0)
		c->maxchars = placing_maxchars(&r->placing);
	fitprocs(c);
	fitfiles(c);
	r->running = r->rep.running = running_new(c->jobs);
	r->rep.stats = &r->stats;
	wspx__proc_widen_pipe(STDOUT_FILENO);
	/* --retry-failed takes its jobs from the joblog */
	if (c->pipe && c->resume != RETRY_FAILED && c->source == NULL) {
		runopts_pipe(c, &pio);
		r->pipes = pipejobs_new(&pio, io.wakefd);
	} else if (r->in != NULL) {
		r->ja = newjobargs(r->in, r->cmds, c);
	}
	r->out = r->rep.out = newoutput(r, c, c->events != NULL &&
	    strcmp(c->events, "-") == 0);
	r->load = gates_load_new(c, r->out);
	startexec(r);
	startstatus(r);
	signals_start(r->signals, r->x, r->out, r->running, r->rep.trace);
	/* (after the signal thread, which a failed write nudges) */
	trace_sample(r->rep.trace, &r->stats, r->pool, r->bp);
	/* {##}: every job made now, to count them, reading all the input
	 * (after the signal thread, which stops that reading) */
	if (r->ja != NULL && commands_needs_total(r->cmds))
		commands_set_total(r->cmds, jobargs_readall(r->ja), c->jobs);
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
	/* (the sampler before the signal thread, which its failed write
	 * would nudge) */
	trace_stop(r->rep.trace);
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
	f->workers = po_workers(r);
	f->slots = r->c->jobs;
	stats_finish(&r->stats, f);
	return sig;
}

/* What cancelled the jobs that were, for the failure summary. */
static const char *
cancelledby(struct run *r, int sig)
{
	static char why[64];

	if (r->halted) {
		snprintf(why, sizeof(why), "by --halt %.40s", r->c->haltspec);
		return why;
	}
	if (sig != 0 && signame(sig) != NULL) {
		snprintf(why, sizeof(why), "by %s", signame(sig));
		return why;
	}
	return NULL;
}

/* What stopped the run early, for a job file's last line, or NULL. */
static const char *
stoppedby(struct run *r, int sig)
{
	const char *by = cancelledby(r, sig);
	static char why[96];

	if (by == NULL)
		return NULL;
	snprintf(why, sizeof(why), "%s %s", r->halted ? "halted" :
	    "interrupted", by);
	return why;
}

/* Free everything. */
static void
teardown(struct run *r)
{
	placing_close(&r->placing);
	wspx__exec_free(r->x);
	wspx_blocking_free(r->bp);
	wspx_pool_free(r->pool);
	jobargs_free(r->ja);
	if (r->in != NULL)
		input_close(r->in);
	pipejobs_free(r->pipes);
	resume_free(r->resume);
	wspx__results_free(r->results);
	wspx__jobserver_free(r->jobserver);
	gates_load_free(r->load);
	wspx__output_free(r->out);
	running_free(r->running);
	commands_free(r->cmds);
	progpath_fini();
	free(r->zip);
	free(r->unzip);
	confirm_close(&r->confirm);
	close(r->devnull);
	signals_free(r->signals);
}

/* Whether a --compress filter failed; if so, say which, how, and that
 * the output that waited is lost. */
static bool
zipfailed(struct run *r)
{
	struct buf b = { NULL, 0, 0 };
	enum wspx_zipper which;
	const char *name;
	int why;

	if ((which = wspx__output_zipfailed(r->out, &why)) == WSPX_ZIP_NONE)
		return false;
	bufprintf(&b, "the %scompress program (%s) ", which ==
	    WSPX_ZIP_COMPRESS ? "" : "de", which == WSPX_ZIP_COMPRESS ?
	    r->zip : r->unzip);
	if (why == -EPIPE)
		bufadds(&b, "stopped reading what it had to compress");
	else if (why == -EBADMSG)
		bufadds(&b, "did not give back as many bytes as were "
		    "compressed");
	else if (why < 0)
		bufprintf(&b, "could not start: %s", strerror(-why));
	else if (WIFSIGNALED(why) && (name = signame(WTERMSIG(why))) != NULL)
		bufprintf(&b, "was killed by %s", name);
	else if (WIFSIGNALED(why))
		bufprintf(&b, "was killed by signal %d", WTERMSIG(why));
	else
		bufprintf(&b, "failed with exit status %d", WEXITSTATUS(why));
	warn("%s: the output that waited in --tmpdir %s is lost: stopped",
	    b.s != NULL ? b.s : "failed", r->c->tmpdir);
	free(b.s);
	return true;
}

int
run(struct config *c)
{
	struct run r;
	struct stats_final f;
	bool inputfailed;
	int sig, status, oerr;
	char what[512];

	setup(&r, c);
	if (c->source != NULL)
		feedjobs(&r, c->source);
	else
		readloop(&r, r.in);
	if (r.pipes != NULL)
		pipejobs_end(r.pipes);
	inputfailed = (r.in != NULL && (input_failed(r.in) ||
	    jobargs_failed(r.ja))) || (r.pipes != NULL &&
	    pipejobs_failed(r.pipes));
	wspx__exec_wait(r.x);
	/* (what a dry run staged: the executor shows it when it is idle,
	 * which it never was if no job went to it, every job of a job file
	 * up to date) */
	if (c->dryrun)
		wspx__output_flush(r.out);
	sig = finishrun(&r, &f);
	status = sig != 0 ? 128 + sig : inputfailed ? EXIT_USAGE :
	    c->sem.on ? semaphore_status(atomic_load_explicit(&r.lastexit,
	    memory_order_relaxed)) : exitstatus(&r, &f);
	if (sig == 0 && (oerr = wspx__output_error(r.out)) != 0 &&
	    zipfailed(&r)) {
		status = EXIT_USAGE;
	} else if (sig == 0 && oerr != 0 && wspx__output_overflowed(r.out)) {
		warn("temporary files in %s: %s: the output that waited in "
		    "memory reached its bound (64 MiB), and what the jobs "
		    "printed was dropped: stopped (make room there, or "
		    "choose another --tmpdir)", c->tmpdir, strerror(-oerr));
		status = EXIT_USAGE;
	} else if (sig == 0 && oerr != 0) {
		warn("cannot write the output: %s", strerror(-oerr));
		status = EXIT_USAGE;
	}
	if (r.results != NULL && wspx__results_error(r.results, what,
	    sizeof(what)) != 0) {
		warn("--results: %s", what);
		status = EXIT_USAGE;
	}
	if ((oerr = wspx__output_spill_error(r.out)) != 0 &&
	    !wspx__output_overflowed(r.out))
		warn("temporary files in %s: %s: output waited in memory",
		    c->tmpdir, strerror(-oerr));
	status = reports_close(&r.rep, &f, status, cancelledby(&r, sig));
	teardown(&r);
	if (c->source != NULL)
		c->source->end(c->source->ctx, stoppedby(&r, sig),
		    f.now.elapsed);
	if (sig != 0)	/* as wspx was asked to, now that all is cleaned up */
		diesig(sig);
	return status;
}
