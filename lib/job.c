/*
 * The executor (see job.h): one file past 600 lines because a job's life,
 * from its queue to its slot, process and result, and the stop that can
 * cut it short at any step, share one set of locks.  A job's path:
 *
 *   submitting thread: wspx__exec_submit() appends a batch to the
 *     executor's queue and injects the batch's jobs into the work-stealing
 *     pool (one CAS for the batch);
 *   work-stealing worker, route(): the job is ready to go; the ready jobs
 *     at the head of the queue are handed, in input order, to the blocking
 *     pool, whose queue is FIFO, so jobs start in input order (-j1 runs
 *     them one after another) whatever order the workers run them in;
 *   blocking thread, runjob(): takes a free slot, gets the command from
 *     the caller, spawns it in its own process group, pumps its stdout and
 *     stderr into the output module, waits for it and reaps it, then
 *     complete(): the caller's `finished`, and the job leaves the window so
 *     the submitting thread may add one more.
 *
 * A dry run's job only shows its command: route() runs it in place, on
 * the worker, with no blocking thread (dryrun()).  A job that the caller
 * runs in the process (a job file's builtin, on the work-stealing pool)
 * takes no slot and no window place: it enters at its start and end only
 * (wspx__exec_startedhere(), wspx__exec_ranhere()), to be reported,
 * counted for the halt policy and finished as the others are.  A job may
 * have a time limit, retries, an environment and a directory of its own.
 *
 * Each job thus runs exactly once in the work-stealing pool (its executed
 * count is the number of jobs), and a job is handed over only after its own
 * run there, so its memory is never in the pool once it has finished.  The
 * blocking pool's queue holds the jobs that wait for a thread, so a thread
 * that finishes one job starts the next at once.
 *
 * Stopping.  wspx__exec_stop() records the signal; a job not yet started is
 * skipped.  Each slot has a mutex guarding the pid of the job it runs and
 * whether that job's group was signalled; the stopper signals under it and
 * so does the runner, right after registering a new pid, if a stop came
 * first.  Whichever takes the mutex second sees the other's write, so every
 * running job's group gets the stop signal exactly once.  The runner holds
 * the mutex across the spawn too, so no child exists unregistered while a
 * stopper walks the slots.  The runner clears
 * the pid under the same mutex after the child has ended but before reaping
 * it: until reaped, the pid and the group id cannot be reused, so a signal
 * never reaches an unrelated process.
 */
#include "job.h"

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

#include "exec.h"
#include "median.h"
#include "proc.h"
#include "pump.h"
#include "results.h"
#include "thread.h"
#include "watchdog.h"

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
	wspx__thread_cond_monotonic(&x->wake);
	atomic_init(&x->stopsig, 0);
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

	if (wspx__output_open(x->o.output, job->seq, NULL, &oj) == 0)
		wspx__output_close(x->o.output, oj);
}

/* The job is over: count it, tell the caller, then free its place in the
 * window. */
static void
complete(struct wspx__execjob *job)
{
	struct wspx__exec *x = job->x;
	const struct wspx__result *r = &job->result;

	if (!job->opened)
		skipoutput(x, job);
	if ((r->started || r->error != -ECANCELED) && wspx__exec_countend(x, r,
	    job->ignorefail)) {
		if (x->o.ops->halted != NULL)
			x->o.ops->halted(x->o.ctx, job);
		wspx__exec_halt(x);
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

static void runtask(struct wspx_task *task, int status);

/* Hand the jobs from job on, linked through next, to the blocking pool in
 * batches; x's lock held, so that they queue there in input order.
 * Returns 0, or the error that kept a batch from being queued (the run is
 * stopping, or no thread can take them): *rest is then the first job of
 * that batch, and it and the jobs after it are the caller's to finish.
 * The batches before it are the blocking pool's, which finishes them. */
static int
handover(struct wspx__exec *x, struct wspx__execjob *job,
    struct wspx__execjob **rest)
{
	struct wspx_task *tasks[64];
	struct wspx__execjob *next;
	size_t n;
	int rc = 0;

	for (; job != NULL && rc == 0; job = next) {
		for (n = 0, next = job; n < 64 && next != NULL; n++,
		    next = next->next)
			tasks[n] = &next->task;
		/* (a halt soon leaves the jobs that start even then to
		 * runjob()) */
		if (wspx__exec_signalled(x))
			rc = -ECANCELED;
		else
			rc = wspx_blocking_submit_n(x->o.blocking, tasks, n);
		*rest = job;
	}
	return rc;
}

static void runjob(struct wspx__exec *x, struct wspx__execjob *job);

/* Print what is left of the job's output. */
static void
closeoutput(struct wspx__exec *x, struct wspx__execjob *job)
{
	if (job->oj != NULL)
		wspx__output_close(x->o.output, job->oj);
	job->oj = NULL;
}

/* A job of a dry run only shows its command: it runs on the work-stealing
 * worker, in place, as an in-process job, with no thread to wait for and
 * no slot to wait for: its slot number is the one it would have if the
 * jobs took the slots in turn. */
static void
dryrun(struct wspx__execjob *job)
{
	struct wspx__exec *x = job->x;

	job->result.slot = (unsigned)((job->seq - 1) % x->o.slots) + 1;
	job->result.attempt = 1;
	runjob(x, job);
	closeoutput(x, job);
	complete(job);
}

/* A job's run in the work-stealing pool: mark it ready, and hand over the
 * ready jobs at the head of the queue.  Those a stop or a failure keeps
 * from the blocking pool finish here, with that error. */
static void
route(struct wspx_worker *w, struct wspx_job *wj)
{
	struct wspx__execjob *job = wspx_container_of(wj, struct wspx__execjob,
	    wsjob), *first, *last = NULL, *rest = NULL, *next;
	struct wspx__exec *x = job->x;
	int rc = 0;

	(void)w;
	if (x->o.dry_run) {
		dryrun(job);
		return;
	}
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
		rc = handover(x, first, &rest);
	}
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	for (job = rc != 0 ? rest : NULL; job != NULL; job = next) {
		next = job->next;
		job->result.error = rc;
		complete(job);
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
		jobs[i]->wsjob.run = route;
		jobs[i]->next = i + 1 < n ? jobs[i + 1] : NULL;
		memset(&jobs[i]->result, 0, sizeof(jobs[i]->result));
		jobs[i]->task.run = runtask;
		jobs[i]->task.mandatory = false;
	}
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	x->inflight += n;
	/* The queue orders the handover to the blocking pool; a dry run's
	 * jobs never go there, and are freed as soon as they have run. */
	if (!x->o.dry_run && x->tail != NULL)
		x->tail->next = jobs[0];
	else if (!x->o.dry_run)
		x->head = jobs[0];
	if (!x->o.dry_run)
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

static unsigned
takeslot(struct wspx__exec *x)
{
	unsigned s;

	WSPX_MUST(pthread_mutex_lock(&x->lock));
	while (x->nfree == 0)
		WSPX_MUST(pthread_cond_wait(&x->slotfree, &x->lock));
	s = x->free[--x->nfree];
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return s;
}

static void
giveslot(struct wspx__exec *x, unsigned s)
{
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	x->free[x->nfree++] = s;
	WSPX_MUST(pthread_cond_signal(&x->slotfree));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
}

static void
setvars(struct slot *s, uint64_t seq, unsigned slot)
{
	snprintf(s->vars[0], sizeof(s->vars[0]), "WSPX_SEQ=%llu",
	    (unsigned long long)seq);
	snprintf(s->vars[1], sizeof(s->vars[1]), "WSPX_SLOT=%u", slot);
	snprintf(s->vars[2], sizeof(s->vars[2]), "PARALLEL_SEQ=%llu",
	    (unsigned long long)seq);
	snprintf(s->vars[3], sizeof(s->vars[3]), "PARALLEL_JOBSLOT=%u", slot);
}

/* Pipes for the job's stdout (unless !out) and stderr, p[i][0] to read,
 * p[i][1] for the child, if output is captured (else all -1).  Returns 0
 * or -errno. */
static int
openpipes(struct wspx__output *o, int p[2][2], bool out)
{
	int rc = 0;

	p[0][0] = p[0][1] = p[1][0] = p[1][1] = -1;
	if (!wspx__output_captures(o))
		return 0;
	if (out)
		rc = wspx__proc_pipe(p[0]);
	if (rc == 0)
		rc = wspx__proc_pipe(p[1]);
	return rc;
}

/* Spawn spec in slot s and register the pid, under the slot's lock: a stop
 * or suspend that walks the slots waits for it, so it never misses a child
 * that exists but is not registered yet.  Returns 0 or -errno. */
static int
spawnregister(struct wspx__exec *x, struct slot *s,
    struct wspx__proc_spec *spec, const struct wspx__cmd *cmd,
    int64_t limit, pid_t *pid)
{
	int rc;

	WSPX_MUST(pthread_mutex_lock(&s->lock));
	if ((rc = wspx__proc_spawn(spec, pid)) == -ENOENT &&
	    cmd->file != NULL && cmd->search) {
		/* The program moved since its path was found: search. */
		spec->file = cmd->argv[0];
		spec->search = true;
		rc = wspx__proc_spawn(spec, pid);
	}
	if (rc == 0) {
		s->pid = *pid;
		s->started = wspx__watchdog_now();
		s->limit = limit;
		s->hangup = cmd->hangup_fd;
		wspx__exec_stopslot(x, s);
	}
	WSPX_MUST(pthread_mutex_unlock(&s->lock));
	return rc;
}

/* Spawn the job's cmd in slot s, its output into pipes pf (or, ungrouped,
 * straight to wspx's fds; with results, to its files), and register its
 * pid for stops.  Returns 0 or -errno. */
static int
spawnjob(struct wspx__exec *x, struct slot *s, struct wspx__execjob *job,
    const struct wspx__cmd *cmd, struct pollfd pf[2])
{
	struct wspx__output *o = x->o.output;
	struct wspx__proc_spec spec;
	int p[2][2], rc, i;

	if (x->o.results != NULL) {
		p[0][0] = p[0][1] = p[1][0] = p[1][1] = -1;
		rc = 0;
	} else {	/* (a stdout of the job's own needs no pipe) */
		rc = openpipes(o, p, cmd->out_fd <= 0);
	}
	spec.file = cmd->file != NULL ? cmd->file : cmd->argv[0];
	spec.argv = cmd->argv;
	spec.envp = cmd->envp != NULL ? cmd->envp : s->envp;
	spec.dir = cmd->dir;
	spec.search = cmd->file == NULL && cmd->search;
	spec.in_fd = cmd->in_fd > 0 ? cmd->in_fd : x->o.in_fd;
	spec.ignore = x->o.ignore;
	spec.mask = x->o.mask;
	spec.out_fd = cmd->out_fd > 0 ? cmd->out_fd : x->o.results != NULL ?
	    job->files.out : p[0][1] >= 0 ? p[0][1] : wspx__output_fd(o, 1);
	spec.err_fd = x->o.results != NULL ? job->files.err : p[1][1] >= 0 ?
	    p[1][1] : wspx__output_fd(o, 2);
	if (rc == 0)
		rc = spawnregister(x, s, &spec, cmd, job->timeout_ns,
		    &job->result.pid);
	for (i = 0; i < 2; i++) {
		if (p[i][1] >= 0)
			close(p[i][1]);
		if (rc != 0 && p[i][0] >= 0)
			close(p[i][0]);
		pf[i].fd = rc == 0 ? p[i][0] : -1;
		pf[i].events = POLLIN;
	}
	return rc;
}

/* The job's own stdin and stdout, in the child now (or never to be): the
 * feeder's writes fail once the job has gone. */
static void
closeinput(struct wspx__cmd *cmd)
{
	if (cmd->in_fd > 0)
		close(cmd->in_fd);
	if (cmd->out_fd > 0)
		close(cmd->out_fd);
	if (cmd->hangup_fd > 0)
		close(cmd->hangup_fd);
	cmd->in_fd = cmd->out_fd = cmd->hangup_fd = 0;
}

/* Write the command and a newline into the job's stdout: for a dry run,
 * and before the job's own output with show_command, so that it goes with
 * it (grouped, tagged, in order). */
static void
showcommand(struct wspx__exec *x, const struct wspx__cmd *cmd,
    struct wspx__outjob *oj)
{
	wspx__output_write(x->o.output, oj, 1, cmd->text, strlen(cmd->text));
	wspx__output_write(x->o.output, oj, 1, "\n", 1);
}

/* Run cmd: dry run, or spawn, pump and reap.  Returns 0, or the -errno
 * that kept it from starting. */
static int
startandwait(struct wspx__exec *x, struct wspx__execjob *job,
    struct wspx__cmd *cmd, struct wspx__outjob *oj)
{
	struct wspx__result *r = &job->result;
	struct slot *s = &x->slots[r->slot - 1];
	struct pollfd pf[2];
	int rc;

	if (x->o.dry_run) {
		r->started = true;
		x->o.ops->started(x->o.ctx, job, cmd);
		showcommand(x, cmd, oj);
		return 0;
	}
	if (x->o.show_command)
		showcommand(x, cmd, oj);
	setvars(s, job->seq, r->slot);
	rc = spawnjob(x, s, job, cmd, pf);
	if (rc == 0)
		cmd->hangup_fd = 0;	/* the slot's now */
	closeinput(cmd);
	if (rc != 0)
		return rc;
	r->started = true;
	x->o.ops->started(x->o.ctx, job, cmd);
	wspx__pump(x->o.output, oj, pf, r->pid);
	wspx__proc_exited(r->pid, true);
	wspx__exec_unregister(x, s, r);
	wspx__proc_reap(r->pid, &r->status);
	return 0;
}

bool
wspx__exec_sleepuntil(struct wspx__exec *x, int64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000), (long)(t %
	    1000000000) };

	while (!wspx__exec_stopping(x) && pthread_cond_timedwait(&x->wake, &x->lock,
	    &ts) == 0)
		;
	return !wspx__exec_stopping(x);
}

/* --delay: wait until the job may start, delay_ns after the one before
 * it started.  The next turn is set from the time this one is taken, not
 * from the time it was due: a thread that wakes late (a loaded machine)
 * must not bring the next start closer.  Another job may take the turn
 * while this one sleeps (the lock is let go), hence the loop.  Returns
 * whether the run goes on. */
static bool
waitturn(struct wspx__exec *x)
{
	int64_t now;
	bool on = true;

	if (x->o.delay_ns == 0)
		return true;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	while (on && (now = wspx__watchdog_now()) < x->nextstart)
		on = wspx__exec_sleepuntil(x, x->nextstart);
	if (on)
		x->nextstart = now + x->o.delay_ns;
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return on;
}

/* Before attempt n + 1 of a job: retry_delay_ns, doubled for each attempt
 * after the second (at most a day).  Returns whether the run goes on. */
static bool
retrypause(struct wspx__exec *x, unsigned n)
{
	int64_t d = x->o.retry_delay_ns, day = 86400 * (int64_t)1000000000;
	bool on;

	while (--n > 0 && d < day)
		d *= 2;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	on = wspx__exec_sleepuntil(x, wspx__watchdog_now() + (d < day ? d : day));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return on;
}

/* The bytes the job wrote, in the output or its result files. */
static void
countbytes(struct wspx__exec *x, struct wspx__execjob *job)
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

/* Whether the job may not start: the run is stopping, and it is not a
 * job that starts even after a halt soon. */
static bool
refuses(struct wspx__exec *x, const struct wspx__execjob *job)
{
	return job->always ? wspx__exec_signalled(x) : wspx__exec_stopping(x);
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

void
wspx__exec_startedhere(struct wspx__exec *x, struct wspx__execjob *job)
{
	static const struct wspx__cmd none = { NULL, NULL, false, NULL, NULL,
	    NULL, 0, 0, 0 };

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
	closeoutput(x, job);
	complete(job);
}

/* Whether an attempt of the job may be followed by another, whose output
 * replaces its own: then it is not printed as it comes (with -k). */
static bool
mayrunagain(const struct wspx__exec *x, const struct wspx__execjob *job)
{
	return (job->ownretries ? job->retries : x->o.retries) > 0 ||
	    x->o.memfree > 0 || x->o.rerun;
}

/* Build the command of the job, which has its slot, and run it: one
 * attempt, whose output adds to the job's (opened at its first). */
static void
runjob(struct wspx__exec *x, struct wspx__execjob *job)
{
	struct wspx__result *r = &job->result;
	struct wspx__cmd cmd = { NULL, NULL, false, NULL, NULL, NULL, 0, 0,
	    0 };
	int64_t t0;

	/* none open until wspx__results_start() (the caller zeroed them) */
	job->files.dir = job->files.out = job->files.err = -1;
	if (refuses(x, job) || !waitturn(x) || !wspx__exec_gate(x, job))
		r->error = -ECANCELED;
	else
		r->error = x->o.ops->prepare(x->o.ctx, job, r->slot, &cmd);
	/* (prepare may wait, as for a remote host's slot: a stop or halt
	 * meanwhile keeps the job from starting; the caller's finished
	 * undoes what prepare did) */
	if (r->error == 0 && refuses(x, job))
		r->error = -ECANCELED;
	if (r->error == 0 && job->oj == NULL && (r->error =
	    wspx__output_open(x->o.output, job->seq, job->tag, &job->oj)) == 0) {
		job->opened = true;
		if (mayrunagain(x, job))
			wspx__output_hold(x->o.output, job->oj);
	}
	/* (a failure stops the run: results that cannot be kept are output
	 * that cannot be written) */
	if (r->error == 0 && x->o.results != NULL && !x->o.dry_run &&
	    wspx__results_start(x->o.results, job->seq, &job->files) != 0)
		r->error = -ECANCELED;
	if (r->error == 0) {
		r->start_ns = wspx__exec_nowns(CLOCK_REALTIME);
		t0 = wspx__exec_nowns(CLOCK_MONOTONIC);
		r->error = startandwait(x, job, &cmd, job->oj);
		if (r->error != 0)
			x->o.ops->cannotstart(x->o.ctx, job, job->oj);
		else if (x->o.ops->lost != NULL && r->killsig == 0)
			r->lost = x->o.ops->lost(x->o.ctx, job);
		r->runtime_ns = wspx__exec_nowns(CLOCK_MONOTONIC) - t0;
		r->end_ns = wspx__exec_nowns(CLOCK_REALTIME);
		countbytes(x, job);
	}
	wspx__exec_ungate(x, job);
	if (r->started || r->error != -ECANCELED) {
		/* (an evicted or lost job runs again, as the same
		 * attempt) */
		r->retry = (r->evicted || r->lost || (wspx__exec_failed(r) &&
		    r->attempt <= (job->ownretries ? job->retries :
		    x->o.retries))) && !refuses(x, job);
		x->o.ops->ended(x->o.ctx, job);
	}
	if (x->o.results != NULL && !x->o.dry_run)
		wspx__results_end(x->o.results, job->seq, &job->files,
		    wspx__exec_exitval(r));
	closeinput(&cmd);
	free(cmd.argv);
	free(cmd.text);
}

/* The job's run on a blocking thread: its attempts, each in a slot, with
 * a pause before each retry, in which no slot is held. */
static void
runtask(struct wspx_task *task, int status)
{
	struct wspx__execjob *job;
	struct wspx__exec *x;
	unsigned attempt;

	job = wspx_container_of(task, struct wspx__execjob, task);
	x = job->x;
	job->result.error = status;
	for (attempt = 1; status == 0; attempt++) {
		job->result.attempt = attempt;
		job->result.slot = takeslot(x);
		runjob(x, job);
		giveslot(x, job->result.slot);
		if (job->result.retry && (job->result.evicted ||
		    job->result.lost))
			attempt--;	/* (an evicted one's gate waits for the
					 * memory) */
		else if (!job->result.retry || !retrypause(x, attempt))
			break;
		/* The next attempt's output replaces this one's. */
		if (job->oj != NULL)
			wspx__output_discard(x->o.output, job->oj);
		memset(&job->result, 0, sizeof(job->result));
	}
	closeoutput(x, job);
	complete(job);
}
