/*
 * The executor (see exec.h): the window, the queue and the handover of
 * jobs to the blocking pool, and the end of every job.  A job's path:
 *
 *   submitting thread: wspx__exec_submit() appends a batch to the
 *     executor's queue and injects the batch's jobs into the work-stealing
 *     pool (one CAS for the batch);
 *   work-stealing worker, route(): the job is ready to go; the ready jobs
 *     at the head of the queue are handed, in input order, to the blocking
 *     pool, whose queue is FIFO, so jobs start in input order (-j1 runs
 *     them one after another) whatever order the workers run them in;
 *     with a delay, each also takes a ticket there, and the first
 *     attempts take their turns in ticket order (submitbatch());
 *   blocking thread, its attempts (attempt.c): takes a free slot, gets
 *     the command from the caller, spawns it in its own process group,
 *     pumps its stdout and stderr into the output module, waits for it
 *     and reaps it, then wspx__exec_complete(): the caller's `finished`,
 *     and the job leaves the window so the submitting thread may add one
 *     more.
 *
 * A dry run's job only shows its command: route() runs it in place, on
 * the worker, with no blocking thread (wspx__exec_dryrun()), but still in
 * input order: the ready jobs at the head of the queue are shown by one
 * worker at a time (showdry()).  Run as the workers take them, the jobs
 * of a graph's many roots would be shown newest first by a thief, and
 * the ordered output would hold every one of them until the first was
 * shown.
 * A job that
 * the caller runs in the process (a job file's builtin, on the
 * work-stealing pool) takes no slot and no window place: it enters at its
 * start and end only (wspx__exec_startedhere(), wspx__exec_ranhere()), to
 * be reported, counted for the halt policy and finished as the others
 * are.  A job may
 * have a time limit, retries, an environment and a directory of its own.
 *
 * Each job thus runs exactly once in the work-stealing pool (its executed
 * count is the number of jobs), and a job is handed over only after its own
 * run there, so its memory is never in the pool once it has finished.  The
 * blocking pool's queue holds the jobs that wait for a thread, so a thread
 * that finishes one job starts the next at once.
 */
#include "exec.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/median.h"
#include "exec_int.h"
#include "os/proc.h"
#include "os/thread.h"
#include "pump.h"
#include "results.h"
#include "runtime/watchdog.h"

/* The environment of slot s: env without our variables, then them. */
static int
initenv(struct slot *s, char *const *env)
{
	static const char *ours[] = { "WSPX_SEQ=", "WSPX_SLOT=",
	    "PARALLEL_SEQ=", "PARALLEL_JOBSLOT=" };
	size_t n = 0, k = 0, i, v;

	while (env[n] != NULL)
		n++;
	if ((s->envp = calloc(n + NVARS + 1, sizeof(char *))) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		for (v = 0; v < NVARS; v++)
			if (strncmp(env[i], ours[v], strlen(ours[v])) == 0)
				break;
		if (v == NVARS)
			s->envp[k++] = env[i];
	}
	for (v = 0; v < NVARS; v++)
		s->envp[k++] = s->vars[v];
	return 0;
}

static void
freeslots(struct wspx__exec *x, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		WSPX_MUST(pthread_mutex_destroy(&x->slots[i].lock));
		free(x->slots[i].envp);
	}
	free(x->slots);
	free(x->free);
}

static int
initslots(struct wspx__exec *x)
{
	unsigned i;

	x->slots = calloc(x->o.slots, sizeof(*x->slots));
	x->free = calloc(x->o.slots, sizeof(*x->free));
	if (x->slots == NULL || x->free == NULL) {
		freeslots(x, 0);
		return -ENOMEM;
	}
	for (i = 0; i < x->o.slots; i++) {
		WSPX_MUST(pthread_mutex_init(&x->slots[i].lock, NULL));
		if (initenv(&x->slots[i], x->o.env) != 0) {
			freeslots(x, i + 1);
			return -ENOMEM;
		}
		x->free[i] = x->o.slots - i;	/* slot 1 on top */
	}
	x->nfree = x->o.slots;
	return 0;
}

static void
initsync(struct wspx__exec *x)
{

	WSPX_MUST(pthread_mutex_init(&x->lock, NULL));
	WSPX_MUST(pthread_cond_init(&x->room, NULL));
	WSPX_MUST(pthread_cond_init(&x->idle, NULL));
	WSPX_MUST(pthread_cond_init(&x->slotfree, NULL));
	WSPX_MUST(pthread_cond_init(&x->turn, NULL));
	wspx__thread_cond_monotonic(&x->wake);
	x->nextticket = x->serving = 1;
	atomic_init(&x->stopsig, 0);
	atomic_init(&x->killstopped, false);
	atomic_init(&x->nspared, 0);
	atomic_init(&x->killing, false);
	atomic_init(&x->suspended, false);
	atomic_init(&x->draining, false);
	atomic_init(&x->killat, 0);
	atomic_init(&x->timeout, x->o.timeout_ns);
	atomic_init(&x->total, 0);
}

int
wspx__exec_new(struct wspx__exec **out, const struct wspx__exec_opts *o)
{
	struct wspx__exec *x;
	int rc;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return -ENOMEM;
	x->o = *o;
	if (initslots(x) != 0) {
		free(x);
		return -ENOMEM;
	}
	initsync(x);
	if ((rc = wspx__exec_startwatchdog(x)) != 0) {
		wspx__exec_free(x);
		return rc;
	}
	*out = x;
	return 0;
}

void
wspx__exec_free(struct wspx__exec *x)
{
	if (x == NULL)
		return;
	wspx__watchdog_free(x->watchdog);
	free(x->median);
	WSPX_MUST(pthread_cond_destroy(&x->wake));
	WSPX_MUST(pthread_cond_destroy(&x->turn));
	WSPX_MUST(pthread_cond_destroy(&x->slotfree));
	WSPX_MUST(pthread_cond_destroy(&x->idle));
	WSPX_MUST(pthread_cond_destroy(&x->room));
	WSPX_MUST(pthread_mutex_destroy(&x->lock));
	freeslots(x, x->o.slots);
	free(x);
}

size_t
wspx__exec_reserve(struct wspx__exec *x, size_t want)
{
	size_t n;

	WSPX_MUST(pthread_mutex_lock(&x->lock));
	/* Refill only once the window is half empty: one wake-up of the
	 * submitter per window / 2 jobs, not one per job. */
	while (x->inflight > x->o.window / 2 && !wspx__exec_stopping(x))
		WSPX_MUST(pthread_cond_wait(&x->room, &x->lock));
	n = wspx__exec_stopping(x) ? 0 : x->o.window - x->inflight;
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return n < want ? n : want;
}

size_t
wspx__exec_inflight(struct wspx__exec *x)
{
	size_t n;

	WSPX_MUST(pthread_mutex_lock(&x->lock));
	n = x->inflight;
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return n;
}

void
wspx__exec_wait(struct wspx__exec *x)
{
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	while (x->inflight > 0)
		WSPX_MUST(pthread_cond_wait(&x->idle, &x->lock));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
}

/* A job that never got to print still takes its turn in the output, or
 * keep-order would wait for it forever. */
static void
skipoutput(struct wspx__exec *x, struct wspx__execjob *job)
{
	struct wspx__outjob *oj;

	if (wspx__output_open(x->o.output, wspx__exec_outseq(job), NULL,
	    &oj) == 0)
		wspx__output_close(x->o.output, oj);
}

/* The job is over: count it, tell the caller, then free its place in the
 * window. */
void
wspx__exec_complete(struct wspx__execjob *job)
{
	struct wspx__exec *x = job->x;
	const struct wspx__result *r = &job->result;

	if (!job->opened)
		skipoutput(x, job);
	/* (the halt first: once its message is out, nothing new starts) */
	if ((r->started || r->error != -ECANCELED) && wspx__exec_countend(x, r,
	    job->ignorefail)) {
		wspx__exec_halt(x);
		if (x->o.ops->halted != NULL)
			x->o.ops->halted(x->o.ctx, job);
	}
	x->o.ops->finished(x->o.ctx, job);
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	if (--x->inflight == x->o.window / 2)
		WSPX_MUST(pthread_cond_signal(&x->room));
	if (x->inflight == 0) {
		/* Caught up with the input: what a dry run staged is shown
		 * now, before a waiter can see the output's error. */
		if (x->o.dry_run)
			wspx__output_flush(x->o.output);
		WSPX_MUST(pthread_cond_broadcast(&x->idle));
	}
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
}

/* Queue the n jobs from job on, linked through next, whose tasks are
 * tasks[0..n), in the blocking pool.  With a delay each takes a ticket
 * first, the next in line, for its first attempt's turn (see taketurn()
 * in attempt.c): the blocking pool runs them in turn, but their runners
 * race for slots and turns, so input order would be lost there.  The
 * tickets are set before the jobs are queued (a runner may take its job
 * at once) and taken back if they could not be, so that no job waits for
 * one that never comes.  x's lock held.  Returns 0 or -errno. */
static int
submitbatch(struct wspx__exec *x, struct wspx__execjob *job,
    struct wspx_task **tasks, size_t n)
{
	uint64_t first = x->nextticket;
	struct wspx__execjob *j;
	size_t i;
	int rc;

	for (i = 0, j = job; i < n && x->o.delay_ns > 0; i++, j = j->next)
		j->ticket = x->nextticket++;
	if ((rc = wspx_blocking_submit_n(x->o.blocking, tasks, n)) != 0) {
		for (i = 0, j = job; i < n; i++, j = j->next)
			j->ticket = 0;
		x->nextticket = first;
	}
	return rc;
}

/* Hand the jobs from job on, linked through next, to the blocking pool in
 * batches; x's lock held, so that they queue there in input order.
 * After a stop, only the jobs that start even then go (see runjob()).
 * Returns the jobs that did not go, linked through next, each with its
 * result.error: -ECANCELED (the run is stopping), or the error that kept
 * its batch from being queued (no thread can take it); they are the
 * caller's to finish.  Those that went are the blocking pool's. */
static struct wspx__execjob *
handover(struct wspx__exec *x, struct wspx__execjob *job)
{
	struct wspx__execjob *next, *left = NULL, **tail = &left, *j;
	struct wspx_task *tasks[64];
	size_t n, i;
	int rc = 0;

	for (; job != NULL; job = next) {
		for (n = 0, next = job; n < 64 && next != NULL &&
		    (n == 0 || !wspx__exec_signalled(x)); n++, next =
		    next->next)
			tasks[n] = &next->task;
		/* (a batch made before the stop goes: runjob() refuses its
		 * jobs that may not start) */
		if (rc == 0 && n == 1 && wspx__exec_signalled(x) &&
		    (!job->always || wspx__exec_killing(x)))
			rc = -ECANCELED;
		else if (rc == 0)
			rc = submitbatch(x, job, tasks, n);
		if (rc == 0)
			continue;
		for (i = 0, j = job; i < n; i++, j = j->next) {
			j->result.error = rc;
			*tail = j;
			tail = &j->next;
		}
		/* (a cancel is one job's; a failure to queue, the rest's) */
		if (rc == -ECANCELED)
			rc = 0;
	}
	*tail = NULL;
	return left;
}

/* Print what is left of the job's output. */
void
wspx__exec_closeoutput(struct wspx__exec *x, struct wspx__execjob *job)
{
	if (job->oj != NULL)
		wspx__output_close(x->o.output, job->oj);
	job->oj = NULL;
}

/* A dry run's jobs routed in turn, first to last, join those to show;
 * returns them all if no worker shows them, for this one to show
 * (showdry()), or NULL.  x's lock held, as for the queue, so that they
 * join in input order. */
static struct wspx__execjob *
queuedry(struct wspx__exec *x, struct wspx__execjob *first,
    struct wspx__execjob *last)
{
	if (x->drytail != NULL)
		x->drytail->next = first;
	else
		x->dryhead = first;
	x->drytail = last;
	if (x->dryshowing)
		return NULL;
	x->dryshowing = true;
	first = x->dryhead;
	x->dryhead = x->drytail = NULL;
	return first;
}

/* Show a dry run's jobs from job on, linked through next, in turn, and
 * those routed meanwhile.  One worker at a time shows them, so no job's
 * output waits for an earlier one, as it would in the ordered output
 * when a second worker ran ahead of a first one descheduled.  A job not
 * yet completed keeps x alive: the last job known is completed after
 * the others routed meanwhile are taken, or this worker's turn ends. */
static void
showdry(struct wspx__exec *x, struct wspx__execjob *job)
{
	struct wspx__execjob *next;

	while (job != NULL) {
		wspx__exec_dryrun(job);
		/* (its turn in the output taken here, not by its completion,
		 * which may come after the next worker's turn began) */
		if (!job->opened) {
			skipoutput(x, job);
			job->opened = true;
		}
		next = job->next;
		if (next == NULL) {
			WSPX_MUST(pthread_mutex_lock(&x->lock));
			next = x->dryhead;
			x->dryhead = x->drytail = NULL;
			x->dryshowing = next != NULL;
			WSPX_MUST(pthread_mutex_unlock(&x->lock));
		}
		wspx__exec_complete(job);
		job = next;
	}
}

/* A job's run in the work-stealing pool: mark it ready, and hand over the
 * ready jobs at the head of the queue (a dry run's are shown, in turn).
 * Those a stop or a failure keeps from the blocking pool finish here,
 * with that error. */
static void
route(struct wspx_worker *w, struct wspx_job *wj)
{
	struct wspx__execjob *job = wspx_container_of(wj, struct wspx__execjob,
	    wsjob), *first, *last = NULL, *left = NULL, *next;
	struct wspx__exec *x = job->x;

	(void)w;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	job->ready = true;
	first = x->head;
	while (x->head != NULL && x->head->ready) {
		last = x->head;
		x->head = x->head->next;
	}
	if (x->head == NULL)
		x->tail = NULL;
	if (last != NULL) {
		last->next = NULL;
		left = x->o.dry_run ? queuedry(x, first, last) :
		    handover(x, first);
	}
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	if (x->o.dry_run) {
		showdry(x, left);
		return;
	}
	for (job = left; job != NULL; job = next) {
		next = job->next;
		wspx__exec_complete(job);
	}
}

void
wspx__exec_submit(struct wspx__exec *x, struct wspx__execjob **jobs,
    size_t n)
{
	struct wspx_job *wsjobs[64];
	size_t i, k;

	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		jobs[i]->x = x;
		jobs[i]->opened = false;
		jobs[i]->oj = NULL;
		jobs[i]->ready = false;
		jobs[i]->ticket = 0;
		jobs[i]->wsjob.run = route;
		jobs[i]->next = i + 1 < n ? jobs[i + 1] : NULL;
		memset(&jobs[i]->result, 0, sizeof(jobs[i]->result));
		jobs[i]->task.run = wspx__exec_runtask;
		jobs[i]->task.mandatory = false;
	}
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	x->inflight += n;
	/* The queue orders the handover to the blocking pool, or a dry
	 * run's jobs. */
	if (x->tail != NULL)
		x->tail->next = jobs[0];
	else
		x->head = jobs[0];
	x->tail = jobs[n - 1];
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	for (i = 0; i < n; i += k) {
		for (k = 0; k < 64 && i + k < n; k++)
			wsjobs[k] = &jobs[i + k]->wsjob;
		/* The pool outlives the executor: injection cannot fail. */
		if (wspx_pool_inject_n(x->o.pool, wsjobs, k) != 0)
			abort();
	}
}

/* The bytes the job wrote, in the output or its result files. */
void
wspx__exec_countbytes(struct wspx__exec *x, struct wspx__execjob *job)
{
	struct wspx__result *r = &job->result;
	uint64_t out, err;

	if (x->o.results != NULL && !x->o.dry_run) {
		wspx__results_sizes(&job->files, &out, &err);
		r->bytes = out + err;
		r->outbytes = out;
	} else {
		r->bytes = wspx__output_bytes(job->oj);
		r->outbytes = wspx__output_stdout_bytes(job->oj);
	}
}

size_t
wspx__exec_errtail(struct wspx__exec *x, struct wspx__execjob *job,
    char *buf, size_t n)
{
	if (x->o.results != NULL && !x->o.dry_run)
		return wspx__results_errtail(&job->files, buf, n);
	return job->oj != NULL ? wspx__output_errtail(job->oj, buf, n) : 0;
}

bool
wspx__exec_halting(struct wspx__exec *x)
{
	return wspx__exec_stopping(x);
}

bool
wspx__exec_stopped(struct wspx__exec *x)
{
	return wspx__exec_signalled(x);
}

bool
wspx__exec_killing(struct wspx__exec *x)
{
	/* relaxed: a hint, as the stop's (exec_int.h) */
	return atomic_load_explicit(&x->killing, memory_order_relaxed);
}

void
wspx__exec_startedhere(struct wspx__exec *x, struct wspx__execjob *job)
{
	static const struct wspx__cmd none = { NULL, NULL, false, NULL, NULL,
	    NULL, 0, 0, 0, false };

	job->x = x;
	x->o.ops->started(x->o.ctx, job, &none);
}

void
wspx__exec_ranhere(struct wspx__exec *x, struct wspx__execjob *job)
{
	const struct wspx__result *r = &job->result;

	job->x = x;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	x->inflight++;
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	if (r->started || r->error != -ECANCELED)
		x->o.ops->ended(x->o.ctx, job);
	wspx__exec_closeoutput(x, job);
	wspx__exec_complete(job);
}
