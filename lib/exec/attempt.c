/*
 * A job's attempts, on the blocking thread that runs it (see exec.c for a
 * job's whole path): it takes a slot, waits for its turn (--delay) and the
 * gates, gets its command from the caller, spawns it in its own process group,
 * pumps its output and reaps it; a failed attempt with retries left runs again
 * after a pause, in which it holds no slot.  A dry run's job only shows its
 * command, on the worker.  With --delay, first attempts take their turns
 * in input order: a job waits for its ticket to be served (waitorder())
 * before it takes a slot, and uses or gives it up in taketurn().
 *
 * Stopping.  wspx__exec_stop() records the signal; a job not yet started is
 * skipped.  Each slot has a mutex guarding the pid of the job it runs and
 * whether that job's group was signalled; the stopper signals under it and
 * so does the runner, right after registering a new pid, if a stop came
 * first.  Whichever takes the mutex second sees the other's write, so every
 * running job's group gets the stop signal exactly once (but a job that
 * starts even after a stop, started after one: it is spared, see stop.c).  The runner holds
 * the mutex across the spawn too, so no child exists unregistered while a
 * stopper walks the slots.  The runner clears the pid under the same mutex
 * after the child has ended but before reaping it: until reaped, the pid
 * and the group id cannot be reused, so a signal never reaches an
 * unrelated process.
 */
#include <assert.h>
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
#include "exec_int.h"
#include "os/proc.h"
#include "os/thread.h"
#include "pump.h"
#include "results.h"

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
    const struct wspx__execjob *job, pid_t *pid)
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
		s->started = wspx__clock_now();
		s->limit = job->timeout_ns;
		s->hangup = cmd->hangup_fd;
		/* relaxed: ordered with the stop by this slot's lock */
		s->spared = job->always && atomic_load_explicit(&x->stopsig,
		    memory_order_relaxed) != 0;
		/* relaxed: a count the signal thread looks at each grace
		 * period (wspx__exec_spared()); nothing is read through it */
		if (s->spared)
			atomic_fetch_add_explicit(&x->nspared, 1,
			    memory_order_relaxed);
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
	spec.samegroup = x->o.samegroup;
	spec.renice = x->o.renice;
	spec.nice = x->o.nice;
	spec.search = cmd->file == NULL && cmd->search;
	/* (what wspx names itself, a shell or ssh, is found where wspx
	 * finds it, whatever PATH the job's own environment sets) */
	spec.path = wspx__proc_envpath(s->envp);
	spec.in_fd = cmd->in_fd > 0 ? cmd->in_fd : x->o.in_fd;
	spec.ignore = x->o.ignore;
	spec.mask = x->o.mask;
	spec.out_fd = cmd->out_fd > 0 ? cmd->out_fd : x->o.results != NULL ?
	    job->files.out : p[0][1] >= 0 ? p[0][1] : wspx__output_fd(o, 1);
	spec.err_fd = x->o.results != NULL ? job->files.err : p[1][1] >= 0 ?
	    p[1][1] : wspx__output_fd(o, 2);
	if (rc == 0)
		rc = spawnregister(x, s, &spec, cmd, job, &job->result.pid);
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
	struct timespec ts = wspx__clock_timespec(t);

	while (!wspx__exec_stopping(x) && pthread_cond_timedwait(&x->wake, &x->lock,
	    &ts) == 0)
		;
	return !wspx__exec_stopping(x);
}

/* Whether the job may not start: the run is stopping, and it is not a
 * job that starts even after a halt soon. */
static bool
refuses(struct wspx__exec *x, const struct wspx__execjob *job)
{
	/* relaxed: a hint, as for a stop (exec_int.h) */
	return job->always ? atomic_load_explicit(&x->killing,
	    memory_order_relaxed) : wspx__exec_stopping(x);
}

/* With a ticket (--delay, a first attempt): wait until it is served, the
 * jobs handed over before this one having taken their turns or given
 * them up, before the job takes a slot.  Not cut short by a stop: a
 * ticket is passed on only in turn, and the jobs before it pass theirs
 * on once they get there (refused, their runner gives them up).  They
 * get there: the blocking pool's queue is FIFO, so each has a runner by
 * the time this one has, and no job waits for the order while it holds
 * a slot, so the one served finds a slot once a running job ends. */
static void
waitorder(struct wspx__exec *x, const struct wspx__execjob *job)
{
	if (job->ticket == 0)
		return;
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	while (x->serving != job->ticket)
		WSPX_MUST(pthread_cond_wait(&x->turn, &x->lock));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
}

/* The job's ticket, served, is used or given up: the next one's job
 * goes on.  x's lock held. */
static void
serve(struct wspx__exec *x, struct wspx__execjob *job)
{
	assert(x->serving == job->ticket);
	x->serving++;
	job->ticket = 0;
	WSPX_MUST(pthread_cond_broadcast(&x->turn));
}

/* A job that will not take its turn gives up its ticket, if it still
 * has one, once it is served (it may not be yet, if the job never got to
 * waitorder(): its task was cancelled). */
static void
passturn(struct wspx__exec *x, struct wspx__execjob *job)
{
	if (job->ticket == 0)
		return;
	waitorder(x, job);
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	serve(x, job);
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
}

/* --delay: wait until the job may start, delay_ns after the one before
 * it started.  A first attempt comes here with its ticket served (see
 * waitorder()), so the first attempts take their turns in input order;
 * an attempt run again has none, and takes the turn when its pause is
 * over.  The next turn is set from the time this one is taken, not
 * from the time it was due: a thread that wakes late (a loaded machine)
 * must not bring the next start closer.  An attempt run again may take
 * the turn while this one sleeps (the lock is let go), hence the loop.
 * Whether the job starts or not, its ticket is used up here.  Returns
 * whether it may start. */
static bool
taketurn(struct wspx__exec *x, struct wspx__execjob *job)
{
	int64_t now = 0;
	bool on;

	if (x->o.delay_ns == 0)
		return !refuses(x, job);
	WSPX_MUST(pthread_mutex_lock(&x->lock));
	on = !refuses(x, job);
	while (on && (now = wspx__clock_now()) < x->nextstart)
		on = wspx__exec_sleepuntil(x, x->nextstart);
	if (on)
		x->nextstart = now + x->o.delay_ns;
	if (job->ticket != 0)
		serve(x, job);
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
	on = wspx__exec_sleepuntil(x, wspx__clock_now() + (d < day ? d : day));
	WSPX_MUST(pthread_mutex_unlock(&x->lock));
	return on;
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
	    0, false };
	int64_t t0;

	/* none open until wspx__results_start() (the caller zeroed them) */
	job->files.dir = job->files.out = job->files.err = -1;
	if (!taketurn(x, job) || !wspx__exec_gate(x, job))
		r->error = -ECANCELED;
	else
		r->error = x->o.ops->prepare(x->o.ctx, job, r->slot, &cmd);
	/* (prepare may wait, as for a remote host's slot: a stop or halt
	 * meanwhile keeps the job from starting; the caller's finished
	 * undoes what prepare did) */
	if (r->error == 0 && refuses(x, job))
		r->error = -ECANCELED;
	r->declined = r->error == 0 && cmd.declined;
	if (r->error == 0 && job->oj == NULL && (r->error =
	    wspx__output_open(x->o.output, wspx__exec_outseq(job), job->tag,
	    &job->oj)) == 0) {
		job->opened = true;
		if (mayrunagain(x, job))
			wspx__output_hold(x->o.output, job->oj);
	}
	/* (a failure stops the run: results that cannot be kept are output
	 * that cannot be written) */
	if (r->error == 0 && !r->declined && x->o.results != NULL &&
	    !x->o.dry_run && wspx__results_start(x->o.results, job->seq,
	    &job->files) != 0)
		r->error = -ECANCELED;
	if (r->error == 0 && !r->declined) {
		r->start_ns = wspx__clock_ns(CLOCK_REALTIME);
		t0 = wspx__clock_now();
		r->error = startandwait(x, job, &cmd, job->oj);
		if (r->error != 0)
			x->o.ops->cannotstart(x->o.ctx, job, job->oj);
		else if (x->o.ops->lost != NULL && r->killsig == 0)
			r->lost = x->o.ops->lost(x->o.ctx, job);
		if (r->error == 0 && !r->lost && x->o.ops->ran != NULL)
			r->rejected = !x->o.ops->ran(x->o.ctx, job, job->oj);
		r->runtime_ns = wspx__clock_now() - t0;
		r->end_ns = wspx__clock_ns(CLOCK_REALTIME);
		wspx__exec_countbytes(x, job);
	}
	wspx__exec_ungate(x, job);
	if (r->started || r->error != -ECANCELED) {
		/* (an evicted or lost job runs again, as the same
		 * attempt) */
		r->retry = (r->evicted || r->lost || (wspx__exec_failed(r) &&
		    !r->declined &&
		    r->attempt <= (job->ownretries ? job->retries :
		    x->o.retries))) && !refuses(x, job);
		x->o.ops->ended(x->o.ctx, job);
	}
	if (x->o.results != NULL && !x->o.dry_run && !r->declined)
		wspx__results_end(x->o.results, job->seq, &job->files,
		    wspx__exec_exitval(r));
	closeinput(&cmd);
	free(cmd.argv);
	free(cmd.text);
}

/* A job of a dry run only shows its command: it runs on the work-stealing
 * worker, in place, as an in-process job, with no thread to wait for and
 * no slot to wait for: its slot number is the one it would have if the
 * jobs took the slots in turn.  The caller then ends it. */
void
wspx__exec_dryrun(struct wspx__execjob *job)
{
	struct wspx__exec *x = job->x;

	job->result.slot = (unsigned)((job->seq - 1) % x->o.slots) + 1;
	job->result.attempt = 1;
	runjob(x, job);
	wspx__exec_closeoutput(x, job);
}

/* The job's run on a blocking thread: its attempts, each in a slot, with
 * a pause before each retry, in which no slot is held. */
void
wspx__exec_runtask(struct wspx_task *task, int status)
{
	struct wspx__execjob *job;
	struct wspx__exec *x;
	unsigned attempt;

	job = wspx_container_of(task, struct wspx__execjob, task);
	x = job->x;
	job->result.error = status;
	for (attempt = 1; status == 0; attempt++) {
		job->result.attempt = attempt;
		waitorder(x, job);
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
	passturn(x, job);	/* (a task cancelled before it ran) */
	wspx__exec_closeoutput(x, job);
	wspx__exec_complete(job);
}
