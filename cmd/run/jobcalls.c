/*
 * The executor's callbacks for the jobs of a run (see run.c): each job's
 * command built as it starts (commands, --pipe's block, --files' file)
 * and placed (here, a host, a Slurm step); each attempt's start and end
 * counted and reported; a job over, its memory freed; the halt policy
 * met, said.  A job file's jobs are built and freed by its front end
 * (struct jobsource).
 */
#include "run_int.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "gates.h"
#include "input/command.h"
#include "pipe/pipejobs.h"
#include "report/outfiles.h"
#include "report/trace.h"
#include "util/buf.h"
#include "util/util.h"
#include "wspx.h"

/* The job's command as it runs here. */
static int
build(struct run *r, struct cmdjob *j, unsigned slot, struct wspx__cmd *cmd)
{
	int rc;

	if (r->c->source != NULL)
		return r->c->source->prepare(r->c->source->ctx, j, slot, cmd);
	/* (--cat and --fifo make {} here) */
	if (r->pipes != NULL && (rc = pipejobs_prepare(r->pipes, j->pj,
	    cmd)) != 0)
		return rc;
	/* (a retry builds them again: the slot may differ) */
	free(j->tag);
	free(j->cmdtext);
	rc = commands_build(r->cmds, &j->args, j->ej.seq, slot, cmd,
	    &j->nobash);
	j->tag = commands_tag(r->cmds, &j->args, j->ej.seq, slot);
	j->ej.tag = j->tag;
	j->cmdtext = xstrdup(cmd->text);
	if (rc == 0 && r->c->files && !r->c->dryrun &&
	    (rc = cmd->out_fd = outfiles_new(r->c->tmpdir, &j->outfile)) > 0)
		rc = 0;
	return rc;
}

static int
prepare(void *ctx, struct wspx__execjob *ej, unsigned slot,
    struct wspx__cmd *cmd)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);
	int rc;

	if ((rc = build(r, j, slot, cmd)) == 0 && !r->c->dryrun)
		rc = placing_place(&r->placing, &j->rj, j->on, &j->args, ej,
		    cmd);
	if (rc == 0 && r->c->interactive && !r->c->dryrun)
		rc = confirm_ask(&r->confirm, r->x, r->out, cmd);
	free(j->program);
	j->program = rc == 0 && cmd->argv != NULL ? xstrdup(cmd->argv[0]) :
	    NULL;
	return rc;
}

/* Whether the attempt was lost with its host: it runs again. */
static bool
lost(void *ctx, struct wspx__execjob *ej)
{
	struct run *r = ctx;

	return placing_lost(&r->placing, &wspx_container_of(ej, struct cmdjob,
	    ej)->rj, &ej->result);
}

static void
started(void *ctx, struct wspx__execjob *ej, const struct wspx__cmd *cmd)
{
	struct run *r = ctx;

	(void)cmd;
	/* relaxed: a count (see report/stats.c). */
	atomic_fetch_add_explicit(&r->stats.started, 1, memory_order_relaxed);
	/* The job's own copy of its command lives until finished(), which
	 * takes it out of the running table before freeing it. */
	report_started(&r->rep, ej, wspx_container_of(ej, struct cmdjob,
	    ej)->name, wspx_container_of(ej, struct cmdjob, ej)->cmdtext);
}

/* An attempt of a job ended: its reports. */
static void
ended(void *ctx, struct wspx__execjob *ej)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);
	struct jobfacts jf;

	jf.host = placing_ended(&r->placing, &j->rj, &j->args, ej);
	jf.name = j->name;
	jf.cmdtext = j->cmdtext != NULL ? j->cmdtext : "";
	jf.send = r->pipes != NULL ? pipejobs_sent(r->pipes, j->pj) : 0;
	jf.needs = j->needs;
	jf.nneeds = j->nneeds;
	jf.worker = j->worker;
	outfiles_count(j->outfile, &ej->result);
	report_ended(&r->rep, r->x, ej, &jf);
	/* (a job declined at -p did not run: no file of its own) */
	outfiles_ended(r->out, ej->oj, &j->outfile, ej->result.retry ||
	    ej->result.declined);
}

static bool
ran(void *ctx, struct wspx__execjob *ej, struct wspx__outjob *oj)
{
	struct run *r = ctx;
	const struct jobsource *src = r->c->source;

	return src == NULL || src->ran == NULL || src->ran(src->ctx,
	    wspx_container_of(ej, struct cmdjob, ej), oj);
}

/* Count the job's end. */
static void
countend(struct run *r, struct cmdjob *j)
{
	const struct wspx__result *res = &j->ej.result;
	bool skipped = !res->started && res->error == -ECANCELED;
	bool failed = !r->c->dryrun && wspx__exec_failed(res) &&
	    !j->ej.ignorefail;

	stats_ended(&r->stats, res->started ? res->runtime_ns : -1, failed,
	    skipped);
}

/* Whether err says that the program itself cannot be run (missing, not
 * allowed, not a program), not the command as a whole. */
static bool
programerror(int err)
{
	return err == -ENOENT || err == -EACCES || err == -ENOEXEC ||
	    err == -ENOTDIR || err == -ELOOP || err == -ENAMETOOLONG ||
	    err == -EISDIR;
}

/* "wspx: cannot run PROGRAM: reason" when the program is at fault, as
 * with no such program; else "wspx: cannot run COMMAND: reason", the
 * command cut short if long (as one too long to run is); with nobash,
 * the reason is that. */
static void
cannotrun(struct buf *b, const struct cmdjob *j, int err)
{
	enum { MAXSHOWN = 200 };
	const char *what = j->program != NULL && programerror(err) &&
	    !j->nobash ? j->program : j->cmdtext;
	size_t n = what != NULL ? strlen(what) : 0;

	bufmsg(b, "cannot run ");
	if (what == NULL)
		bufadds(b, "a job");
	else
		bufadd(b, what, n > MAXSHOWN ? MAXSHOWN : n);
	if (n > MAXSHOWN)
		bufprintf(b, "... (%zu bytes)", n);
	bufprintf(b, ": %s\n", j->nobash ? "an exported bash function, and "
	    "no bash in PATH" : strerror(-err));
}

/* The message goes with the job's stderr: with -k it is in input order. */
static void
cannotstart(void *ctx, struct wspx__execjob *ej, struct wspx__outjob *oj)
{
	struct run *r = ctx;
	struct cmdjob *j = wspx_container_of(ej, struct cmdjob, ej);
	struct buf b = { NULL, 0, 0 };

	cannotrun(&b, j, ej->result.error);
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
		cannotrun(&b, j, res->error);
		wspx__output_note(r->out, b.s, b.len);
		free(b.s);
	}
	placing_release(&r->placing, &j->rj);	/* (its end counted) */
	/* (--files: a job stopped after its file was made, before it ran) */
	outfiles_ended(r->out, NULL, &j->outfile, true);
	countend(r, j);
	if (r->c->sem.on)
		/* relaxed: run() reads it after wspx__exec_wait(), whose
		 * return every job's end happens before. */
		atomic_store_explicit(&r->lastexit, wspx__exec_exitval(res),
		    memory_order_relaxed);
	report_finished(&r->rep, ej);
	if (r->c->source != NULL) {
		r->c->source->finished(r->c->source->ctx, j);
		return;
	}
	if (r->pipes != NULL)
		pipejobs_finished(r->pipes, &j->pj);
	free(j->args.v);
	free(j->tag);
	free(j->cmdtext);
	free(j->program);
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
	char why[96];

	r->halted = true;
	snprintf(why, sizeof(why), "halted by --halt %.60s", r->c->haltspec);
	trace_stopped(r->rep.trace, why, wspx__clock_seconds(CLOCK_REALTIME));

	bufmsg(&b, "--halt %s: ", r->c->haltspec);
	if (res == NULL)
		bufadds(&b, "met");
	else
		bufprintf(&b, "this job %s: %s", wspx__exec_failed(res) ?
		    "failed" : "succeeded", j->name != NULL ? j->name :
		    j->cmdtext != NULL ? j->cmdtext : "");
	bufadds(&b, "\n");
	bufmsg(&b, "starting no more jobs%s\n",
	    r->c->halt.when == WSPX_HALT_NOW ? ", stopping the running ones" :
	    running > 1 ? ", waiting for the running ones" : "");
	wspx__output_note(r->out, b.s, b.len);
	free(b.s);
}

static void
waiting(void *ctx, bool memory, double value)
{
	struct run *r = ctx;

	gates_waiting(r->c, r->out, memory, value);
}

static double
maxload(void *ctx)
{
	struct run *r = ctx;

	return r->load != NULL ? gates_load_limit(r->load) : r->c->maxload;
}

const struct wspx__exec_ops jobcalls = {
	.prepare = prepare, .lost = lost, .ran = ran, .started = started,
	.cannotstart = cannotstart,
	.ended = ended, .halted = halted, .waiting = waiting,
	.maxload = maxload, .finished = finished
};
