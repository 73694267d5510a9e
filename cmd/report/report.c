/*
 * The reports of a run's jobs (see report.h).  Every function here may run
 * on several blocking threads at once: each report file keeps its lines
 * whole itself (events.c, lib/exec/joblog.c), and the failures their list.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "events.h"
#include "trace.h"
#include "exec/joblog.h"
#include "os/proc.h"
#include "failures.h"
#include "running.h"
#include "util/buf.h"
#include "util/util.h"

/* Read what --resume and its kin need, then open --joblog: appending
 * when resuming, as GNU parallel does; a dry run runs nothing to log (GNU
 * parallel writes no joblog). */
static void
openjoblog(struct reports *p, const struct report_opts *o)
{
	const char *h = wspx__joblog_header();
	int rc;

	if (o->joblog == NULL || o->dryrun)
		return;
	/* -: the header now, each row after its job's output (as GNU
	 * parallel prints them) */
	p->joblogout = strcmp(o->joblog, "-") == 0;
	if (p->joblogout && (rc = wspx__proc_writeall(STDOUT_FILENO, h,
	    strlen(h))) != 0)
		fatal("--joblog -: %s", strerror(-rc));
	else if (!p->joblogout && (rc = wspx__joblog_open(&p->joblog,
	    o->joblog, o->joblogappend)) != 0)
		fatal("--joblog %s: %s", o->joblog, strerror(-rc));
}

void
reports_open(struct reports *p, const struct report_opts *o,
    void (*failed)(void *ctx, int err), void *ctx)
{
	const char *gh = getenv("GITHUB_ACTIONS");

	memset(p, 0, sizeof(*p));
	p->o = *o;
	p->failed = failed;
	p->ctx = ctx;
	p->github = gh != NULL && strcmp(gh, "true") == 0 && !o->dryrun;
	p->failures = failures_new();
	p->metricsfd = -1;
	if (o->metrics != NULL && strcmp(o->metrics, "-") == 0)
		/* stdout, after every job's output: a copy to close */
		p->metricsfd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	else if (o->metrics != NULL)
		p->metricsfd = open(o->metrics, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0666);
	if (o->metrics != NULL && p->metricsfd < 0)
		fatal("--metrics %s:", o->metrics);
	if (o->events != NULL && (p->events = events_open(o->events, failed,
	    ctx)) == NULL)
		fatal("--events %s:", o->events);
	if (o->trace != NULL && (p->trace = trace_open(o->trace, failed,
	    ctx)) == NULL)
		fatal("--trace %s:", o->trace);
	openjoblog(p, o);
}

/* Append s for a GitHub workflow command: %, CR and LF as the runner
 * reads them back, and for a property's value also , and : (which end
 * one). */
static void
bufcommand(struct buf *b, const char *s, bool property)
{
	for (; *s != '\0'; s++) {
		if (*s == '%' || *s == '\r' || *s == '\n' || (property &&
		    (*s == ',' || *s == ':')))
			bufprintf(b, "%%%02X", (unsigned)(unsigned char)*s);
		else
			bufaddc(b, *s);
	}
}

/* A workflow command's message. */
static void
bufworkflow(struct buf *b, const char *s)
{
	bufcommand(b, s, false);
}

void
report_started(struct reports *p, struct wspx__execjob *ej,
    const char *name, const char *cmdtext)
{
	struct buf b = { NULL, 0, 0 };

	/* (a builtin runs in the process, in no slot) */
	if (ej->result.slot > 0)
		running_start(p->running, ej->result.slot, ej->seq, name,
		    cmdtext);
	events_start(p->events, ej->seq, ej->result.slot, ej->result.pid,
	    name, cmdtext, (double)ej->result.start_ns / 1e9);
	/* (a job file's job is titled by its name, as GitHub titles a
	 * job; the command would be a whole script) */
	if (p->github && ej->oj != NULL) {
		bufadds(&b, "::group::");
		bufworkflow(&b, name != NULL ? name : cmdtext);
		bufaddc(&b, '\n');
		wspx__output_frame(p->out, ej->oj, buftake(&b),
		    xstrdup("::endgroup::\n"));
	}
	if (!p->o.verbose)
		return;
	bufadds(&b, cmdtext);
	bufaddc(&b, '\n');
	wspx__output_note(p->out, b.s, b.len);
	free(b.s);
}

/* The end event of an attempt that ran or could not start. */
static void
endevent(struct reports *p, const struct wspx__execjob *ej,
    const struct jobfacts *jf)
{
	const struct wspx__result *res = &ej->result;
	bool dry = p->o.dryrun;
	struct event_end e;
	double now = wspx__clock_seconds(CLOCK_REALTIME);

	memset(&e, 0, sizeof(e));
	e.seq = ej->seq;
	e.slot = res->slot;
	e.pid = res->pid;
	e.name = jf->name;
	e.command = jf->cmdtext;
	e.needs = jf->needs;
	e.nneeds = jf->nneeds;
	e.worker = jf->worker;
	e.start = res->start_ns != 0 ? (double)res->start_ns / 1e9 : now;
	e.end = res->end_ns != 0 ? (double)res->end_ns / 1e9 : now;
	e.runtime = (double)res->runtime_ns / 1e9;
	e.exited = res->started && (dry || WIFEXITED(res->status));
	e.exit = e.exited && !dry ? WEXITSTATUS(res->status) : 0;
	e.signal = res->started && !dry && WIFSIGNALED(res->status) ?
	    WTERMSIG(res->status) : 0;
	e.bytes = res->bytes;
	e.error = res->started ? NULL : res->declined ? "declined at the -p "
	    "question" : strerror(-res->error);
	e.attempt = res->attempt;
	e.retry = res->retry;
	e.timedout = res->timedout;
	e.killsig = res->killsig;
	e.host = strcmp(jf->host, ":") != 0 ? jf->host : NULL;
	if (!res->started)
		events_start(p->events, e.seq, e.slot, 0, e.name, e.command,
		    e.start);
	events_end(p->events, &e);
	trace_end(p->trace, &e);
}

/* --joblog -: the row after the job's output. */
static void
logout(struct reports *p, const struct wspx__execjob *ej,
    const struct wspx__joblog_row *row)
{
	size_t n;
	char *line = wspx__joblog_line(row, &n);

	if (line == NULL)
		p->failed(p->ctx, -ENOMEM);
	else
		wspx__output_trail(p->out, ej->oj, line, n);
	free(line);
}

/* The joblog's row for an attempt: GNU parallel's columns; a job wspx
 * killed has Exitval -1 and the signal sent, one killed otherwise
 * Exitval 0 and its signal, one that could not start 127 or 126, as from
 * a shell. */
static void
logrow(struct reports *p, const struct wspx__execjob *ej,
    const char *cmdtext, uint64_t send, const char *host)
{
	const struct wspx__result *res = &ej->result;
	struct wspx__joblog_row row;
	int rc;

	memset(&row, 0, sizeof(row));
	row.seq = ej->seq;
	row.host = host;
	row.start = res->start_ns != 0 ? (double)res->start_ns / 1e9 :
	    wspx__clock_seconds(CLOCK_REALTIME);
	row.runtime = (double)res->runtime_ns / 1e9;
	row.send = send;
	row.receive = res->outbytes;
	if (res->killsig != 0) {
		row.exitval = -1;
		row.signal = res->killsig;
	} else if (!res->started) {
		row.exitval = wspx__exec_exitval(res);
	} else if (!p->o.dryrun && WIFSIGNALED(res->status)) {
		row.signal = WTERMSIG(res->status);
	} else if (!p->o.dryrun) {
		row.exitval = WEXITSTATUS(res->status);
	}
	row.command = cmdtext;
	if (p->joblogout)
		logout(p, ej, &row);
	else if ((rc = wspx__joblog_write(p->joblog, &row)) != 0)
		/* the first failure stops the run, as one of the output */
		p->failed(p->ctx, rc);
}

/* "wspx: killed after its --timeout (2s): COMMAND" */
static void
timedout(struct reports *p, const char *cmdtext)
{
	struct buf b = { NULL, 0, 0 };

	bufmsg(&b, "killed after its --timeout (");
	if (p->o.timeoutpct > 0)
		bufprintf(&b, "%u%% of the median runtime", p->o.timeoutpct);
	else
		bufprintf(&b, "%gs", p->o.timeout);
	bufprintf(&b, "): %s\n", cmdtext);
	wspx__output_note(p->out, b.s, b.len);
	free(b.s);
}

/* "wspx: --memfree 1G: less than half of it available: stopped the
 * youngest job, to run it again: COMMAND" */
static void
evicted(struct reports *p, const char *cmdtext)
{
	struct buf b = { NULL, 0, 0 };

	bufmsg(&b, "--memfree %s: less than half of it available: "
	    "stopped the youngest job, to run it again: %s\n",
	    p->o.memfreespec, cmdtext);
	wspx__output_note(p->out, b.s, b.len);
	free(b.s);
}

/* In GitHub Actions, an ::error:: line for a failed job: after the end
 * of its group when its output is grouped, else at once. */
static void
githuberror(struct reports *p, struct wspx__execjob *ej, const char *name,
    const char *cmdtext)
{
	struct buf b = { NULL, 0, 0 }, how = { NULL, 0, 0 };
	bool grouped = ej->result.started && p->o.mode == WSPX_OUT_GROUP;

	bufhowended(&how, &ej->result);
	if (grouped)
		bufadds(&b, "::endgroup::\n");
	if (name != NULL) {
		bufadds(&b, "::error title=");
		bufcommand(&b, name, true);
		bufadds(&b, " failed::");
		bufworkflow(&b, how.s);
	} else {
		bufprintf(&b, "::error title=wspx job %llu failed::",
		    (unsigned long long)ej->seq);
		bufworkflow(&b, how.s);
		bufadds(&b, ": ");
		bufworkflow(&b, cmdtext);
	}
	bufaddc(&b, '\n');
	free(how.s);
	if (grouped) {
		wspx__output_frame(p->out, ej->oj, NULL, buftake(&b));
		return;
	}
	wspx__output_note(p->out, b.s, b.len);
	free(b.s);
}

/* A failed job's last attempt: for the summary, and GitHub.  A job that
 * wspx killed for a stop or a halt was cancelled, not failed. */
static void
failedjob(struct reports *p, struct wspx__exec *x, struct wspx__execjob *ej,
    const char *name, const char *cmdtext)
{
	char tail[FAILURES_TAIL];
	size_t n;

	if (ej->result.killsig != 0 && !ej->result.timedout) {
		failures_cancelled(p->failures);
		return;
	}
	/* (one that could not start wrote nothing: its stderr holds only
	 * wspx's message, said already) */
	n = ej->result.started ? wspx__exec_errtail(x, ej, tail, sizeof(tail)) :
	    0;
	failures_add(p->failures, ej->seq, name, cmdtext, &ej->result, tail,
	    n);
	if (p->github)
		githuberror(p, ej, name, cmdtext);
}

/* How a job ended, for its progress line: "exit 1", "killed by
 * SIGSEGV", "timed out", "could not start". */
static void
bufshortend(struct buf *b, const struct wspx__result *res)
{
	const char *name;

	if (res->timedout)
		bufadds(b, " timed out");
	else if (res->declined)
		bufadds(b, " declined");
	else if (!res->started)
		bufadds(b, " could not start");
	else if (WIFSIGNALED(res->status) && (name = signame(WTERMSIG(
	    res->status))) != NULL)
		bufprintf(b, " killed by %s", name);
	else if (WIFSIGNALED(res->status))
		bufprintf(b, " killed by signal %d", WTERMSIG(res->status));
	else if (WEXITSTATUS(res->status) != 0)
		bufprintf(b, " exit %d", WEXITSTATUS(res->status));
	else if (res->rejected)
		bufadds(b, " outputs refused");
}

/* A job file's job is over: "[3/7] ok build 0.4s", "[4/7] FAILED
 * test[n=2] exit 1 0.1s", before its output, as ninja and a CI log
 * print them.  A job wspx stopped is STOPPED, not failed. */
static void
progressline(struct reports *p, struct wspx__execjob *ej, const char *name)
{
	const struct wspx__result *res = &ej->result;
	bool failed = wspx__exec_failed(res), stopped = res->killsig != 0 &&
	    !res->timedout && !res->evicted;
	struct buf b = { NULL, 0, 0 };
	char t[32];
	int64_t total;

	if (p->o.progress == PROGRESS_NONE || (p->o.progress ==
	    PROGRESS_FAILED && (!failed || stopped)))
		return;
	/* relaxed: set before the first job */
	total = atomic_load_explicit(&p->stats->total, memory_order_relaxed);
	bufprintf(&b, "[%llu/%lld] %s ", (unsigned long long)stats_position(
	    p->stats), (long long)total, stopped ? "STOPPED" : failed ?
	    "FAILED" : "ok");
	bufescaped(&b, name, strlen(name), 200);
	if (failed && !stopped)
		bufshortend(&b, res);
	stats_duration(t, sizeof(t), (double)res->runtime_ns / 1e9);
	bufprintf(&b, " %s%s\n", t, failed && ej->ignorefail ?
	    " (continue-on-error)" : "");
	if (ej->oj != NULL)
		wspx__output_lead(p->out, ej->oj, b.s);
	else
		wspx__output_note(p->out, b.s, b.len);
	free(b.s);
}

void
report_ended(struct reports *p, struct wspx__exec *x,
    struct wspx__execjob *ej, const struct jobfacts *jf)
{
	const struct wspx__result *res = &ej->result;
	const char *name = jf->name, *cmdtext = jf->cmdtext;

	/* The event last: once a reader sees it, the job is out of the
	 * running table. */
	if (res->started && res->slot > 0)
		running_end(p->running, res->slot, ej->seq);
	if (res->timedout)
		timedout(p, cmdtext);
	if (res->evicted)
		evicted(p, cmdtext);
	if (!res->retry && !p->o.dryrun && wspx__exec_failed(res))
		failedjob(p, x, ej, name, cmdtext);
	if (!res->retry && name != NULL)
		progressline(p, ej, name);
	/* (a job file's job by its name: its identity, and no command
	 * text that a --retry-failed of the stdin mode could run) */
	if (p->joblog != NULL || p->joblogout)
		logrow(p, ej, name != NULL ? name : cmdtext, jf->send,
		    jf->host);
	if (p->events != NULL || p->trace != NULL)
		endevent(p, ej, jf);
}

void
report_finished(struct reports *p, const struct wspx__execjob *ej)
{
	if (!ej->result.started && ej->result.error == -ECANCELED)
		failures_cancelled(p->failures);
}

/* The failure summary, if anything failed. */
static void
summary(struct reports *p, const char *why)
{
	struct buf b = { NULL, 0, 0 };

	failures_summary(p->failures, &b, why);
	if (b.len > 0)
		wspx__output_note(p->out, b.s, b.len);
	free(b.s);
}

int
reports_close(struct reports *p, struct stats_final *f, int status,
    const char *why)
{
	int rc;

	summary(p, why);
	failures_free(p->failures);
	f->exitstatus = status;
	if (p->o.stats && (rc = stats_print(f, STDERR_FILENO)) != 0)
		warn("--stats: %s", strerror(-rc));
	if (p->metricsfd >= 0) {
		if ((rc = stats_json(f, p->metricsfd)) != 0 ||
		    (close(p->metricsfd) != 0 && (rc = -errno) != 0)) {
			warn("--metrics %s: %s", p->o.metrics, strerror(-rc));
			status = EXIT_USAGE;
		}
	}
	if ((rc = wspx__joblog_close(p->joblog)) != 0) {
		warn("--joblog %s: %s", p->o.joblog, strerror(-rc));
		status = EXIT_USAGE;
	}
	events_summary(p->events, f);
	trace_summary(p->trace, f);
	if ((rc = events_close(p->events)) != 0) {
		/* a reader that went away is no news: it stopped the run */
		if (rc != -EPIPE)
			warn("--events %s: %s", p->o.events, strerror(-rc));
		status = EXIT_USAGE;
	}
	if ((rc = trace_close(p->trace)) != 0) {
		warn("--trace %s: %s", p->o.trace, strerror(-rc));
		status = EXIT_USAGE;
	}
	return status;
}
