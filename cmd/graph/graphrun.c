/*
 * Running a job file's graph (`wspx run`): the second front end of the
 * executor.  run/run.c sets up the run as for the input's jobs (output, pools,
 * executor, signals, reports) and hands over to this file, which starts the
 * graph (lib/runtime/graph.c) on the work-stealing pool.  When a job's needs
 * are over, on a worker: its `if` decides whether it runs, its up-to-date
 * state whether it needs to (graphstate.c), its pool whether it may start now;
 * then a builtin runs in place (lib/builtins/builtin.c) and a command goes to
 * the executor, whose blocking thread builds it (graphcmd.c) and runs it.  When
 * it is over, that thread releases its dependents and records its outputs
 * and state, or hands this to the pool when its generated files are big
 * enough to be worth hashing beside the next job.
 *
 * Outcomes.  Each job's outcome is written before wspx__graph_needed() (or
 * _done()), which publishes it to its dependents (see runtime/graph.c); a
 * dependent reads only the outcomes of its needs.
 */
#include "graphrun.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "builtins/builtin.h"
#include "exec/output.h"
#include "jobselect.h"
#include "os/thread.h"
#include "remote/hosts.h"
#include "report/stats.h"
#include "runtime/graph.h"
#include "util/buf.h"
#include "util/util.h"

static const char *const outcomes[] = { "pending", "succeeded", "failed",
    "was skipped", "was cancelled", "was up to date" };

/* The needs of job i, for the graph. */
static size_t
needsof(void *ctx, size_t i, const size_t **v)
{
	struct graphrun *gr = ctx;

	*v = gr->jf->jobs[i].needs;
	return gr->jf->jobs[i].nneeds;
}

/* The first job up j's needs that failed, following the needs that
 * failed or had a failure further up (anyfail): a path, not a search. */
static const struct gjob *
upfailed(const struct graphrun *gr, const struct gjob *j)
{
	const struct wspx__jfjob *jj;
	const struct gjob *n, *next;
	size_t i;

	for (;;) {
		jj = &gr->jf->jobs[j->index];
		for (i = 0, next = NULL; i < jj->nneeds && next == NULL; i++) {
			n = &gr->jobs[jj->needs[i]];
			if (n->outcome == OUT_FAILED || n->failed)
				return n;
			if (n->anyfail)
				next = n;
		}
		if (next == NULL)
			return NULL;
		j = next;
	}
}

/* Why job j does not run: its own if:, when it has one that asks about
 * failures or cancels; else the first need that failed or did not
 * succeed, or a failure further up. */
void
graphrun_skipreason(struct graphrun *gr, struct gjob *j, struct buf *b)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	const struct gjob *n;
	size_t i;

	if (jj->ifnode != NULL && jj->ifmask != WSPX__IF_SUCCESS) {
		bufprintf(b, "its if: %.60s%s is false", jj->ifnode->str,
		    strlen(jj->ifnode->str) > 60 ? "..." : "");
		return;
	}
	for (i = 0; i < jj->nneeds; i++) {
		n = &gr->jobs[jj->needs[i]];
		if (n->outcome != OUT_OK && n->outcome != OUT_UPTODATE) {
			bufprintf(b, "needs %s, which %s", gr->jf->jobs[
			    jj->needs[i]].name, outcomes[n->outcome]);
			return;
		}
	}
	if ((n = upfailed(gr, j)) != NULL)
		bufprintf(b, "%s failed, further up its needs",
		    gr->jf->jobs[n->index].name);
	else
		bufadds(b, "its if: is false");
}

/* Count one job's outcome, for the last line. */
static void
count(_Atomic(size_t) *n)
{
	/* relaxed: a count, read once every job is over */
	atomic_fetch_add_explicit(n, 1, memory_order_relaxed);
}

/* Job j does not run (outcome says why): count it as skipped, print
 * msg (a line) in its turn in the output, and release its
 * dependents. */
static void
notrun(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    enum outcome outcome, const struct buf *msg)
{
	struct wspx__outjob *oj;

	j->outcome = outcome;
	/* relaxed: counts (see report/stats.c) */
	atomic_fetch_add_explicit(&gr->src->stats->submitted, 1,
	    memory_order_relaxed);
	stats_ended(gr->src->stats, -1, false, true);
	(void)stats_position(gr->src->stats);
	/* (its turn in the output is taken, with a line or none) */
	if (wspx__output_open(gr->src->out, j->cj.ej.seq, NULL, &oj) == 0) {
		if (msg->len > 0)
			(void)wspx__output_write(gr->src->out, oj, 2, msg->s,
			    msg->len);
		wspx__output_close(gr->src->out, oj);
	}
	wspx__graph_done(gr->graph, w, j->index);
}

/* Job j is skipped: say why; one kept from starting by a stop is only
 * counted, for one line at the end (a stopped graph of 100,000 jobs
 * would print a line each). */
static void
skip(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    bool cancelled)
{
	struct buf b = { NULL, 0, 0 };

	if (cancelled) {
		count(&gr->notstarted);
		notrun(gr, w, j, OUT_CANCELLED, &b);
		return;
	}
	count(&gr->nskipped);
	bufmsg(&b, "skipped %s: ", gr->jf->jobs[j->index].name);
	graphrun_skipreason(gr, j, &b);
	bufaddc(&b, '\n');
	notrun(gr, w, j, OUT_SKIPPED, &b);
	free(b.s);
}

/* The inputs of j's if: F, K (see jobfile/jobfile.h); j->anyfail set. */
static void
needsstate(struct graphrun *gr, struct gjob *j, bool *k)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	const struct gjob *n;
	size_t i;

	*k = false;
	for (i = 0; i < jj->nneeds; i++) {
		n = &gr->jobs[jj->needs[i]];
		j->anyfail |= n->outcome == OUT_FAILED || n->anyfail;
		*k |= n->outcome != OUT_OK && n->outcome != OUT_UPTODATE;
	}
}

/* Whether the run is stopping: a signal, a halt, or a failed output. */
static bool
cancelled(struct graphrun *gr)
{
	return wspx__exec_halting(gr->src->x);
}

static void launch(struct graphrun *gr, struct wspx_worker *w,
    struct gjob *j);

/* Take a place in j's pool, or queue j there.  Returns whether j may
 * start now. */
static bool
takepool(struct graphrun *gr, struct gjob *j)
{
	int p = gr->jf->jobs[j->index].pool;
	struct gpool *gp;
	bool now;

	if (p < 0)
		return true;
	gp = &gr->pools[p];
	WSPX_MUST(pthread_mutex_lock(&gp->lock));
	now = gp->running < gr->jf->pools[p].depth;
	if (now)
		gp->running++;
	else {
		j->poolnext = NULL;
		if (gp->tail != NULL)
			gp->tail->poolnext = j;
		else
			gp->head = j;
		gp->tail = j;
	}
	WSPX_MUST(pthread_mutex_unlock(&gp->lock));
	return now;
}

/* j's place in its pool is free: the next job queued there takes it. */
static void
givepool(struct graphrun *gr, struct wspx_worker *w, struct gjob *j)
{
	int p = gr->jf->jobs[j->index].pool;
	struct gpool *gp;
	struct gjob *next;

	if (p < 0)
		return;
	gp = &gr->pools[p];
	WSPX_MUST(pthread_mutex_lock(&gp->lock));
	if ((next = gp->head) != NULL) {
		if ((gp->head = next->poolnext) == NULL)
			gp->tail = NULL;
	} else
		gp->running--;
	WSPX_MUST(pthread_mutex_unlock(&gp->lock));
	if (next != NULL)
		launch(gr, w, next);
}

/* Whether j is up to date; with --explain, why not into why.  In a dry
 * run, as make -n sees it: not if a job it needs that generates files
 * would have run (they might then change), else as its state says
 * (nothing is recorded). */
static bool
uptodate(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    struct buf *why)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	size_t i, k;

	for (i = 0; gr->c->dryrun && i < jj->nneeds; i++) {
		k = jj->needs[i];
		if (gr->jobs[k].outcome == OUT_OK &&
		    gr->jf->jobs[k].generates != NULL) {
			if (gr->c->explain)
				bufprintf(why, "%s would run first",
				    gr->jf->jobs[k].name);
			return false;
		}
	}
	return graphstate_uptodate(gr, w, j, why);
}

/* Whether j is up to date: if so, it is over (with its line, with -v,
 * -t or --explain); if not, --explain says why. */
static bool
overifuptodate(struct graphrun *gr, struct wspx_worker *w, struct gjob *j)
{
	const char *name = gr->jf->jobs[j->index].name;
	struct buf b = { NULL, 0, 0 }, why = { NULL, 0, 0 };
	bool yes = uptodate(gr, w, j, &why);

	if (!yes && gr->c->explain)
		warn("explain: %s runs: %s", name, why.s);
	free(why.s);
	if (!yes)
		return false;
	wspx__uptodate_freeparts(&j->groups);
	wspx__uptodate_freeparts(&j->parts);
	count(&gr->uptodate);
	if (gr->c->explain)
		bufmsg(&b, "explain: %s is up to date\n", name);
	else if (gr->c->showcmd || gr->c->verbose)
		bufmsg(&b, "%s is up to date\n", name);
	notrun(gr, w, j, OUT_UPTODATE, &b);
	free(b.s);
	return true;
}

/* Job i's needs are over (the graph's ready), on worker w. */
static void
ready(void *ctx, struct wspx_worker *w, size_t i)
{
	struct graphrun *gr = ctx;
	struct gjob *j = &gr->jobs[i];
	const struct wspx__jfjob *jj = &gr->jf->jobs[i];
	struct buf b = { NULL, 0, 0 };
	bool k, c = cancelled(gr);

	needsstate(gr, j, &k);
	/* (after a stop or a halt, the jobs whose if allows it, as GitHub
	 * Actions runs them after a cancel; after SIGKILL for all, none:
	 * the executor decides for commands, this for builtins) */
	if (!WSPX__IF_RUNS(jj->ifmask, j->anyfail, c, k) ||
	    (c && !jj->ifalways) || (c && jj->builtin != NULL &&
	    wspx__exec_killing(gr->src->x))) {
		skip(gr, w, j, c);
		return;
	}
	/* (a line each only with -v or -t: a no-op run of 5,000 jobs is
	 * one line at the end; a job whose outputs others read runs, as it
	 * would if up to date: they are not kept) */
	if (gr->done != NULL && gr->done[i] && !jj->outputs_used) {
		count(&gr->resumed);
		if (gr->c->showcmd || gr->c->verbose)
			bufmsg(&b, "%s was done before (%s)\n", jj->name,
			    resume_option(gr->c->resume));
		notrun(gr, w, j, OUT_UPTODATE, &b);
		free(b.s);
		return;
	}
	if (overifuptodate(gr, w, j))
		return;
	if (takepool(gr, j))
		launch(gr, w, j);
}

static const struct wspx__graph_ops graphops = { needsof, ready };

/* The job's end, on a worker or (w NULL) on the blocking thread that
 * reaped it (graphstate_endhere): its dependents, then its state (the
 * digests of what it made, which its dependents do not wait for: they may
 * be reading the same files, each read once), then its pool place (a pool
 * of depth 1 keeps the next job from writing what is being read). */
static void
over(struct wspx_worker *w, struct wspx_job *job)
{
	struct gjob *j = wspx_container_of(job, struct gjob, over);
	struct graphrun *gr = j->gr;

	graphstate_wrote(gr);
	wspx__graph_needed(gr->graph, w, j->index);
	graphstate_ended(gr, w, j, j->outcome == OUT_OK && !j->failed &&
	    !gr->c->dryrun);
	givepool(gr, w, j);
	graphcmd_free(j);
	wspx__graph_over(gr->graph, j->index);
}

/* The line of j's stderr that says why it failed, if it did (for the
 * step summary); oj its output. */
static void
keeperrline(struct gjob *j, const struct wspx__outjob *oj)
{
	char tail[1024];
	size_t n;

	free(j->errline);
	j->errline = NULL;
	if (oj == NULL || j->cj.ej.result.status == 0)
		return;
	n = wspx__output_errtail(oj, tail, sizeof(tail));
	j->errline = graphend_errline(tail, n);
}

/* An attempt of j ran (the executor's ran): its outputs. */
static bool
ran(void *ctx, struct cmdjob *cj, struct wspx__outjob *oj)
{
	struct gjob *j = wspx_container_of(cj, struct gjob, cj);

	keeperrline(j, oj);
	return graphstate_outputs(ctx, j, oj);
}

/* The executor is done with j (run/jobcalls.c's finished): its outcome,
 * then its end on the pool. */
static void
finished(void *ctx, struct cmdjob *cj)
{
	struct graphrun *gr = ctx;
	struct gjob *j = wspx_container_of(cj, struct gjob, cj);
	const struct wspx__result *r = &cj->ej.result;

	/* (a job killed by a stop or a halt now was cancelled, not failed,
	 * for its dependents' if) */
	if (!r->started && r->error == -ECANCELED) {
		j->outcome = OUT_CANCELLED;
		count(&gr->notstarted);
	} else if (r->started && r->killsig != 0 && !r->timedout &&
	    !r->evicted && cancelled(gr)) {
		j->outcome = OUT_CANCELLED;
		count(&gr->nstopped);
	} else if ((j->failed = wspx__exec_failed(r) && !gr->c->dryrun) &&
	    !gr->jf->jobs[j->index].continue_on_error) {
		j->outcome = OUT_FAILED;
		count(&gr->nfailed);
	} else {
		j->outcome = OUT_OK;	/* (continue-on-error: as if it were) */
		count(j->failed ? &gr->nfailed : &gr->nok);
	}
	/* A builtin ends on a worker already, which goes on with its end
	 * (bdone); a command's end is done by its blocking thread when it
	 * is cheap, else goes to the pool. */
	if (j->inprocess)
		return;
	if (graphstate_endhere(gr, j)) {
		over(NULL, &j->over);
		return;
	}
	j->over.run = over;
	/* The pool outlives the graph: injection cannot fail. */
	if (wspx_pool_inject(gr->src->pool, &j->over) != 0)
		abort();
}

/* A builtin's output (its bcall's write). */
static void
bwrite(struct wspx__bcall *c, int stream, const char *p, size_t n)
{
	struct gjob *j = wspx_container_of(c, struct gjob, bc);

	(void)wspx__output_write(j->gr->src->out, j->oj, stream, p, n);
}

/* A builtin is over (its bcall's done), on worker w. */
static void
bdone(struct wspx_worker *w, struct wspx__bcall *c)
{
	struct gjob *j = wspx_container_of(c, struct gjob, bc);
	struct graphrun *gr = j->gr;
	struct wspx__result *r = &j->cj.ej.result;

	r->end_ns = wspx__clock_ns(CLOCK_REALTIME);
	r->runtime_ns = wspx__clock_now() - r->runtime_ns;
	if (c->status == -ECANCELED) {
		r->started = false;
		r->error = -ECANCELED;
	} else
		r->status = c->status == 0 ? 0 : 1 << 8;	/* exit 1 */
	if (j->oj != NULL) {
		r->bytes = wspx__output_bytes(j->oj);
		r->outbytes = wspx__output_stdout_bytes(j->oj);
	}
	keeperrline(j, j->oj);
	r->attempt = 1;
	if (c->dirfd >= 0 && c->dirfd != gr->basefd)
		close(c->dirfd);
	/* (the executor closes the output after its report, which shows
	 * the last lines of its stderr if it failed) */
	j->oj = NULL;
	wspx__exec_ranhere(gr->src->x, &j->cj.ej);
	over(w, &j->over);
}

/* Run j's builtin here, on worker w. */
static void
runbuiltin(struct graphrun *gr, struct wspx_worker *w, struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct wspx__result *r = &j->cj.ej.result;
	struct buf b = { NULL, 0, 0 };

	j->inprocess = true;
	graphcmd_bargs(gr, j);
	bufprintf(&b, "builtin %s", jj->builtin);
	free(j->cj.cmdtext);
	j->cj.cmdtext = buftake(&b);
	memset(r, 0, sizeof(*r));
	r->started = true;
	r->start_ns = wspx__clock_ns(CLOCK_REALTIME);
	/* (the start, until done) */
	r->runtime_ns = wspx__clock_now();
	if (wspx__output_open(gr->src->out, j->cj.ej.seq, j->cj.ej.tag,
	    &j->oj) != 0)
		j->oj = NULL;
	j->cj.ej.oj = j->oj;
	j->cj.ej.opened = j->oj != NULL;
	wspx__exec_startedhere(gr->src->x, &j->cj.ej);
	j->bc.name = jj->builtin;
	j->cj.worker = wspx_worker_index(w) + 1;
	j->bc.args = j->bargs;
	j->bc.nargs = j->nbargs;
	/* (the job file's directory is open already; a dir: of its own is
	 * opened for the call) */
	j->bc.dirfd = jj->dir == NULL ? gr->basefd : open(j->dir, O_RDONLY |
	    O_DIRECTORY | O_CLOEXEC);
	j->bc.timer = gr->timer;
	/* (a builtin that starts even after a stop ends only at SIGKILL
	 * for all, as a spared command does) */
	j->bc.stopping = jj->ifalways ? &gr->killing : &gr->stopping;
	j->bc.prefix = PROGNAME ": ";
	j->bc.write = bwrite;
	j->bc.done = bdone;
	if (j->bc.dirfd < 0) {		/* its dir: is not there */
		bufmsg(&b, "%s: dir %s: %s\n", jj->name, j->dir,
		    strerror(errno));
		bwrite(&j->bc, 2, b.s, b.len);
		free(b.s);
		j->bc.status = 1;
		bdone(w, &j->bc);
		return;
	}
	wspx__builtin_run(w, &j->bc);
}

/* Start j: its builtin here, or its command through the executor. */
static void
launch(struct graphrun *gr, struct wspx_worker *w, struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct wspx__execjob *e = &j->cj.ej;

	/* relaxed: a count (see report/stats.c) */
	atomic_fetch_add_explicit(&gr->src->stats->submitted, 1,
	    memory_order_relaxed);
	if (gr->c->tag) {
		j->cj.tag = xmalloc(strlen(jj->name) + 2);
		sprintf(j->cj.tag, "%s\t", jj->name);
		e->tag = j->cj.tag;
	}
	e->ignorefail = jj->continue_on_error;
	if (jj->builtin != NULL && !gr->c->dryrun) {
		runbuiltin(gr, w, j);
		return;
	}
	/* (a timeout: 0 of its own is none, whatever --timeout says) */
	e->timeout_ns = jj->timeout < 0 ? 0 : jj->timeout == 0 ? INT64_MAX :
	    (int64_t)(jj->timeout * 1e9);
	e->ownretries = jj->retries >= 0;
	e->retries = jj->retries >= 0 ? (unsigned)jj->retries : 0;
	e->always = jj->ifalways;
	wspx__exec_submit(gr->src->x, &e, 1);
}

/* The executor's prepare, for the job source. */
static int
prepare(void *ctx, struct cmdjob *cj, unsigned slot, struct wspx__cmd *cmd)
{
	(void)slot;
	return graphcmd_prepare(ctx, wspx_container_of(cj, struct gjob, cj),
	    cmd);
}

/* Run the graph, given the run's machinery (the job source's run). */
static void
rungraph(void *ctx, const struct jobsource *f)
{
	struct graphrun *gr = ctx;
	struct graphtick *tick;
	int rc;

	/* relaxed: before the status thread reads it, a count */
	atomic_store_explicit(&f->stats->total, (int64_t)gr->nselected,
	    memory_order_relaxed);
	wspx__exec_total(f->x, gr->nselected);
	if ((rc = wspx__graph_new(&gr->graph, gr->jf->njobs, gr->selected,
	    f->pool, &graphops, gr)) != 0)
		fatal("cannot start the graph: %s", wspx_strerror(rc));
	tick = graphtick_start(gr, f->pool);
	wspx__graph_start(gr->graph);
	wspx__graph_wait(gr->graph);
	graphtick_end(tick);
	wspx__exec_wait(f->x);
}

/* Number the jobs to run (see jobselect_number). */
static void
number(struct graphrun *gr)
{
	uint64_t *seq = xcalloc(gr->jf->njobs + 1, sizeof(*seq));
	size_t i;

	gr->nselected = jobselect_number(gr->jf, gr->selected, seq);
	for (i = 0; i < gr->jf->njobs; i++)
		gr->jobs[i].cj.ej.seq = seq[i];
	free(seq);
}

/* Whether the job file is a regular file (through links): one that is
 * not (stdin, a pipe as <(...) makes, /dev/stdin) has no directory of its
 * own to run in, nor to keep state in. */
static bool
regular(const char *file)
{
	struct stat st;

	return strcmp(file, "-") != 0 && stat(file, &st) == 0 &&
	    S_ISREG(st.st_mode);
}

/* The directory the jobs run in: the job file's, or the current one for
 * a file that is not a regular file. */
static char *
basedir(const char *file, bool isregular)
{
	const char *slash = strrchr(file, '/');

	if (!isregular || slash == NULL)
		return xstrdup(".");
	if (slash == file)
		return xstrdup("/");
	return memcpy(xcalloc(1, (size_t)(slash - file) + 1), file,
	    (size_t)(slash - file));
}

/* j's needs by name, for the reports (--trace, --events). */
static void
setneeds(struct graphrun *gr, struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	size_t k;

	j->cj.nneeds = jj->nneeds;
	j->cj.needs = xcalloc(jj->nneeds + 1, sizeof(*j->cj.needs));
	for (k = 0; k < jj->nneeds; k++)
		j->cj.needs[k] = gr->jf->jobs[jj->needs[k]].name;
}

static void
setupjobs(struct graphrun *gr)
{
	size_t i;

	gr->jobs = xcalloc(gr->jf->njobs, sizeof(*gr->jobs));
	for (i = 0; i < gr->jf->njobs; i++) {
		gr->jobs[i].index = i;
		gr->jobs[i].gr = gr;
		gr->jobs[i].cj.on = gr->jf->jobs[i].on != NULL ?
		    gr->jf->jobs[i].on->str : NULL;
		gr->jobs[i].cj.name = gr->jf->jobs[i].name;
		setneeds(gr, &gr->jobs[i]);
	}
	gr->pools = xcalloc(gr->jf->npools + 1, sizeof(*gr->pools));
	for (i = 0; i < gr->jf->npools; i++)
		WSPX_MUST(pthread_mutex_init(&gr->pools[i].lock, NULL));
}

/* What is left when the run is over, or stopped by a signal. */
static void
endgraph(void *ctx, const char *stopped, double elapsed)
{
	struct graphrun *gr = ctx;
	size_t i, k;

	graphend_line(gr, stopped, elapsed);
	if (gr->words->source != NULL && stopped == NULL)
		graphstate_sources(gr, gr->words);
	graphstate_close(gr);
	for (i = 0; i < gr->jf->njobs; i++) {
		for (k = 0; k < gr->jobs[i].noutputs; k++) {
			free(gr->jobs[i].outputs[k].key);
			free(gr->jobs[i].outputs[k].value);
		}
		free(gr->jobs[i].outputs);
		wspx__uptodate_freeparts(&gr->jobs[i].groups);
		wspx__uptodate_freeparts(&gr->jobs[i].parts);
		free(gr->jobs[i].errline);
		free(gr->jobs[i].cj.tag);
		free(gr->jobs[i].cj.cmdtext);
		free(gr->jobs[i].cj.program);
		free(gr->jobs[i].cj.needs);
	}
	for (i = 0; i < gr->jf->npools; i++)
		WSPX_MUST(pthread_mutex_destroy(&gr->pools[i].lock));
	wspx__graph_free(gr->graph);
	free(gr->pools);
	free(gr->jobs);
	free(gr->selected);
	free(gr->done);
	free(gr->base);
	close(gr->basefd);
}

/* A job file's hosts: and executor: into rc, after -S's and --slurm;
 * an error is fatal, naming the file, line and column. */
static void
jobfilehosts(struct remoteconf *rc, const struct wspx__jobfile *jf,
    const char *file)
{
	const struct wspx__ynode *h;
	const char *err;
	size_t i;

	for (i = 0; jf->hosts != NULL && i < jf->hosts->n; i++) {
		h = jf->hosts->items[i];
		if ((err = hosts_add(&rc->hosts, h->str)) != NULL)
			fatal("%s:%u:%u: hosts: %s: %s", file, h->line, h->col,
			    h->str, err);
	}
	rc->slurm = rc->slurm || jf->slurm;
	if (rc->slurm && rc->hosts.n > 0)
		fatal("%s: -S or hosts: with --slurm or executor: slurm: jobs "
		    "run on the hosts or as Slurm steps", file);
}

/* Whether a job of the run has a timeout of its own. */
static bool
anytimeout(const struct graphrun *gr)
{
	size_t i;

	for (i = 0; i < gr->jf->njobs; i++)
		if ((gr->selected == NULL || gr->selected[i]) &&
		    gr->jf->jobs[i].timeout > 0)
			return true;
	return false;
}

int
graphrun(struct config *c, struct wspx__jobfile *jf, const struct jobwords *w)
{
	const char *file = w->file;
	struct graphrun gr;
	struct jobsource src;

	memset(&gr, 0, sizeof(gr));
	memset(&src, 0, sizeof(src));
	gr.c = c;
	gr.jf = jf;
	gr.file = file;
	gr.vars = w->vars;
	gr.nvars = w->nvars;
	gr.words = w;
	gr.regular = regular(file);
	gr.base = basedir(file, gr.regular);
	if ((gr.basefd = open(gr.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		fatal("%s:", gr.base);
	gr.src = &src;
	jobfilehosts(&c->remote, jf, file);
	setupjobs(&gr);
	gr.selected = jobselect_pick(jf, file, w->targets, w->ntargets);
	if (c->resume != RESUME_NONE)
		gr.done = jobselect_resumed(jf, c->joblog, c->resume,
		    resume_option(c->resume));
	number(&gr);
	graphstate_open(&gr);
	src.run = rungraph;
	src.prepare = prepare;
	src.ran = ran;
	src.finished = finished;
	src.end = endgraph;
	src.ctx = &gr;
	src.workers = 0;	/* one per CPU, for builtins and hashing */
	src.jobtimeouts = anytimeout(&gr);
	c->source = &src;
	return run(c);
}
