/*
 * --trace (see trace.h).  The file is "[" and the process's name, then
 * each event on a line of its own after ",", and "]" when the run ends.
 * Each event is written with one write() under the mutex, so a run
 * killed at any point (SIGKILL too) leaves whole events, and only the
 * closing "]" missing, which the format allows and the viewers supply.
 * A write that fails (a full disk, a file size limit) is cut back to the
 * last whole event, and the "]" is still tried at the end.
 *
 * Tracks: pid 1 is this machine, a remote host a pid of its own (2 on,
 * in the order they are first seen); tid is the slot, or for a job that
 * runs in the process (a job file's builtin) TRACE_WORKER_TID + the pool worker
 * that ran it.  A track is named (a metadata event) just before its first
 * span.  Times are microseconds from the trace's opening.
 *
 * The sampler thread reads the counters (relaxed atomics, see stats.h and
 * wspx.h: they order nothing, and nothing here needs them to) every 10
 * ms and writes a counter event for a group only when it changed.
 */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "os/proc.h"
#include "os/thread.h"
#include "util/buf.h"
#include "util/util.h"
#include "wspx.h"

#define SAMPLE_NS	10000000	/* 10 ms */
#define MAXNAME		200		/* a span's name, bytes */

/* The counters as last written, so that an unchanged group is not. */
struct sample {
	uint64_t running, queued, waiting, done, failed;
	uint64_t blocking, idle, stolen, wakes;
};

/* A process's tracks: here (host NULL) or a remote host. */
struct proc {
	char *host;
	bool *named;		/* by slot: its track has its name */
	size_t nnamed;
	bool *workernamed;	/* by worker, the same */
	size_t nworkernamed;
};

struct trace {
	pthread_mutex_t lock;
	int fd;
	int err;		/* first write error; later events dropped */
	off_t whole;		/* bytes written, all whole events */
	void (*failed)(void *ctx, int err);
	void *ctx;
	double t0;		/* Unix time, seconds */
	struct proc *procs;	/* pid 1 on; lock */
	size_t nprocs;
	/* the sampler */
	struct wspx__thread_loop loop;
	bool sampling;
	const struct stats *stats;
	struct wspx_pool *pool;
	struct wspx_blocking *bp;
	struct sample last;
	bool sampled;		/* last holds a sample */
};

/* Write b, whole events each after its ",\n"; lock held.  On an error,
 * what was written of b is taken back. */
static void
emitlocked(struct trace *t, const struct buf *b)
{
	if (t->err != 0)
		return;
	if ((t->err = wspx__proc_writeall(t->fd, b->s, b->len)) == 0) {
		t->whole += (off_t)b->len;
		return;
	}
	(void)ftruncate(t->fd, t->whole);
	t->failed(t->ctx, t->err);
}

/* Write b and free it. */
static void
emit(struct trace *t, struct buf *b)
{
	WSPX_MUST(pthread_mutex_lock(&t->lock));
	emitlocked(t, b);
	WSPX_MUST(pthread_mutex_unlock(&t->lock));
	free(b->s);
}

/* A track's name: process_name or thread_name metadata. */
static void
bufname(struct buf *b, const char *what, unsigned pid, unsigned tid,
    const char *name)
{
	bufprintf(b, "{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %u, "
	    "\"tid\": %u, \"args\": {\"name\": ", what, pid, tid);
	bufjson(b, name);
	bufadds(b, "}}");
}

struct trace *
trace_open(const char *path, void (*failed)(void *, int), void *ctx)
{
	struct buf b = { NULL, 0, 0 };
	struct trace *t;
	int fd, err;

	/* (O_APPEND: after a write cut back to the last whole event, the
	 * next one goes there, not past the end) */
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
	    O_CLOEXEC, 0666)) < 0)
		return NULL;
	bufadds(&b, "[\n");
	bufname(&b, "process_name", 1, 0, "wspx");
	/* (a file that cannot be written is an error before any job, as
	 * one that cannot be opened) */
	if ((err = -wspx__proc_writeall(fd, b.s, b.len)) != 0) {
		free(b.s);
		(void)close(fd);
		errno = err;
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	WSPX_MUST(pthread_mutex_init(&t->lock, NULL));
	t->fd = fd;
	t->whole = (off_t)b.len;
	t->failed = failed;
	t->ctx = ctx;
	t->t0 = wspx__clock_seconds(CLOCK_REALTIME);
	t->procs = xcalloc(1, sizeof(*t->procs));
	t->nprocs = 1;
	free(b.s);
	return t;
}

/* The pid of host's tracks (NULL: here), named the first time; lock
 * held, b the event about to be written. */
static unsigned
hostpid(struct trace *t, const char *host, struct buf *b)
{
	size_t i;

	if (host == NULL)
		return 1;
	for (i = 1; i < t->nprocs; i++)
		if (strcmp(t->procs[i].host, host) == 0)
			return (unsigned)i + 1;
	t->procs = xrealloc(t->procs, (t->nprocs + 1) * sizeof(*t->procs));
	memset(&t->procs[t->nprocs], 0, sizeof(*t->procs));
	t->procs[t->nprocs].host = xstrdup(host);
	bufname(b, "process_name", (unsigned)t->nprocs + 1, 0, host);
	bufadds(b, ",\n");
	return (unsigned)++t->nprocs;
}

/* Whether (*seen)[i] was false, which it is made true: a first time. */
static bool
firsttime(bool **seen, size_t *n, unsigned i)
{
	if (i >= *n) {
		*seen = xrealloc(*seen, (i + 1) * sizeof(bool));
		memset(*seen + *n, 0, (i + 1 - *n) * sizeof(bool));
		*n = i + 1;
	}
	if ((*seen)[i])
		return false;
	(*seen)[i] = true;
	return true;
}

/* Name the track tid of pid the first time: a slot's, or a worker's
 * (TRACE_WORKER_TID on); lock held. */
static void
nametrack(struct trace *t, unsigned pid, unsigned tid, struct buf *b)
{
	struct proc *p = &t->procs[pid - 1];
	char name[32];

	if (tid >= TRACE_WORKER_TID) {
		if (!firsttime(&p->workernamed, &p->nworkernamed, tid -
		    TRACE_WORKER_TID))
			return;
		snprintf(name, sizeof(name), "worker %u", tid -
		    TRACE_WORKER_TID);
	} else {
		if (!firsttime(&p->named, &p->nnamed, tid))
			return;
		if (tid == 0)
			snprintf(name, sizeof(name), "in process");
		else
			snprintf(name, sizeof(name), "slot %u", tid);
	}
	bufname(b, "thread_name", pid, tid, name);
	bufadds(b, ",\n");
}

/* Microseconds from the run's start to Unix time at. */
static double
micros(const struct trace *t, double at)
{
	double us = (at - t->t0) * 1e6;

	return us > 0 ? us : 0;
}

/* The span's name: the job's, else its command, cut short. */
static void
bufspanname(struct buf *b, const struct event_end *e)
{
	const char *s = e->name != NULL ? e->name : e->command;
	size_t n = strlen(s);
	char *cut;

	if (n <= MAXNAME) {
		bufjson(b, s);
		return;
	}
	/* (not inside a UTF-8 sequence) */
	while (n > MAXNAME || (n > 0 && (s[n] & 0xc0) == 0x80))
		n--;
	cut = xmalloc(n + 4);
	memcpy(cut, s, n);
	strcpy(cut + n, "...");
	bufjson(b, cut);
	free(cut);
}

/* The span's args: what --events says of the attempt. */
static void
bufspanargs(struct buf *b, const struct event_end *e)
{
	bufprintf(b, "\"args\": {\"seq\": %llu, ", (unsigned long long)e->seq);
	/* (a job's name cut short in the span's: whole, for the needs of
	 * others that name it) */
	if (e->name != NULL && strlen(e->name) > MAXNAME) {
		bufadds(b, "\"job\": ");
		bufjson(b, e->name);
		bufadds(b, ", ");
	}
	bufadds(b, "\"command\": ");
	bufjson(b, e->command);
	if (e->exited)
		bufprintf(b, ", \"exit\": %d", e->exit);
	if (e->signal != 0)
		bufprintf(b, ", \"signal\": %d", e->signal);
	if (e->error != NULL) {
		bufadds(b, ", \"error\": ");
		bufjson(b, e->error);
	}
	bufprintf(b, ", \"attempt\": %u, \"bytes\": %llu", e->attempt,
	    (unsigned long long)e->bytes);
	if (e->killsig != 0)
		bufprintf(b, ", \"killed\": %d", e->killsig);
	if (e->host != NULL) {
		bufadds(b, ", \"host\": ");
		bufjson(b, e->host);
	}
	events_needs(b, e->needs, e->nneeds);
	bufadds(b, "}");
}

/* An instant on the attempt's track at its end. */
static void
bufinstant(struct buf *b, const char *name, double ts, unsigned pid,
    unsigned tid, uint64_t seq)
{
	bufprintf(b, ",\n{\"name\": \"%s\", \"cat\": \"job\", \"ph\": \"i\", "
	    "\"s\": \"t\", \"ts\": %.3f, \"pid\": %u, \"tid\": %u, "
	    "\"args\": {\"seq\": %llu}}", name, ts, pid, tid,
	    (unsigned long long)seq);
}

void
trace_end(struct trace *t, const struct event_end *e)
{
	struct buf b = { NULL, 0, 0 };
	double ts, dur;
	unsigned pid, tid;

	if (t == NULL)
		return;
	/* (a builtin on its worker's track, after the slots' numbers) */
	tid = e->slot == 0 && e->worker > 0 ? TRACE_WORKER_TID + e->worker :
	    e->slot;
	ts = micros(t, e->start);
	dur = micros(t, e->end) - ts;
	WSPX_MUST(pthread_mutex_lock(&t->lock));
	bufadds(&b, ",\n");
	pid = hostpid(t, e->host, &b);
	nametrack(t, pid, tid, &b);
	bufadds(&b, "{\"name\": ");
	bufspanname(&b, e);
	bufprintf(&b, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, "
	    "\"dur\": %.3f, \"pid\": %u, \"tid\": %u, ",
	    e->exited && e->exit == 0 && e->signal == 0 ? "ok" : "failed",
	    ts, dur > 0 ? dur : 0, pid, tid);
	bufspanargs(&b, e);
	bufadds(&b, "}");
	if (e->timedout)
		bufinstant(&b, "timeout", ts + dur, pid, tid, e->seq);
	if (e->retry)
		bufinstant(&b, "retry", ts + dur, pid, tid, e->seq);
	emitlocked(t, &b);
	WSPX_MUST(pthread_mutex_unlock(&t->lock));
	free(b.s);
}

void
trace_stopped(struct trace *t, const char *why, double at)
{
	struct buf b = { NULL, 0, 0 };

	if (t == NULL)
		return;
	bufadds(&b, ",\n{\"name\": ");
	bufjson(&b, why);
	bufprintf(&b, ", \"cat\": \"run\", \"ph\": \"i\", \"s\": \"g\", "
	    "\"ts\": %.3f, \"pid\": 1, \"tid\": 0}", micros(t, at));
	emit(t, &b);
}

void
trace_summary(struct trace *t, const struct stats_final *f)
{
	struct buf b = { NULL, 0, 0 };

	if (t == NULL)
		return;
	bufprintf(&b, ",\n{\"name\": \"run over\", \"cat\": \"run\", "
	    "\"ph\": \"i\", \"s\": \"g\", \"ts\": %.3f, \"pid\": 1, "
	    "\"tid\": 0, \"args\": {", micros(t,
	    wspx__clock_seconds(CLOCK_REALTIME)));
	events_summarykeys(&b, f);
	bufadds(&b, "}}");
	emit(t, &b);
}

/* The counters now into s. */
static void
readsample(const struct trace *t, struct sample *s)
{
	struct wspx_blocking_stats bs;
	struct wspx_pool_stats ps;
	struct stats_now n;

	stats_read(t->stats, &n);
	wspx_pool_stats(t->pool, &ps);
	wspx_blocking_stats(t->bp, &bs);
	s->running = n.running;
	s->queued = n.queued;
	/* (not over, running nor queued: waiting for its needs, or for
	 * its input to be read) */
	s->waiting = n.total >= 0 && (uint64_t)n.total > n.done + n.running +
	    n.queued ? (uint64_t)n.total - n.done - n.running - n.queued : 0;
	s->done = n.done;
	s->failed = n.failed;
	s->blocking = bs.threads;
	s->idle = ps.idle + ps.sleeping;
	s->stolen = ps.stolen;
	s->wakes = ps.wakes;
}

/* A counter event: name, then pairs of series and value. */
static void
bufcounter(struct buf *b, const char *name, double ts, int n, ...)
{
	va_list ap;
	int i;

	bufprintf(b, ",\n{\"name\": \"%s\", \"cat\": \"counters\", "
	    "\"ph\": \"C\", \"ts\": %.3f, \"pid\": 1, \"tid\": 0, "
	    "\"args\": {", name, ts);
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *series = va_arg(ap, const char *);

		bufprintf(b, "%s\"%s\": %llu", i > 0 ? ", " : "", series,
		    (unsigned long long)va_arg(ap, uint64_t));
	}
	va_end(ap);
	bufadds(b, "}}");
}

/* The groups of s that changed since the last sample. */
static void
bufsample(struct trace *t, struct buf *b, const struct sample *s,
    double ts)
{
	const struct sample *l = &t->last;
	bool all = !t->sampled;

	if (all || s->running != l->running || s->queued != l->queued ||
	    s->waiting != l->waiting)
		bufcounter(b, "jobs", ts, 3, "running", s->running, "queued",
		    s->queued, "waiting", s->waiting);
	if (all || s->done != l->done || s->failed != l->failed)
		bufcounter(b, "jobs over", ts, 2, "done", s->done, "failed",
		    s->failed);
	if (all || s->blocking != l->blocking || s->idle != l->idle)
		bufcounter(b, "threads", ts, 2, "blocking", s->blocking,
		    "idle workers", s->idle);
	if (all || s->stolen != l->stolen || s->wakes != l->wakes)
		bufcounter(b, "scheduler", ts, 2, "steals", s->stolen,
		    "wake-ups", s->wakes);
	t->last = *s;
	t->sampled = true;
}

/* Take a sample and write what changed. */
static void
sampleonce(struct trace *t)
{
	struct buf b = { NULL, 0, 0 };
	struct sample s;

	readsample(t, &s);
	bufsample(t, &b, &s, micros(t, wspx__clock_seconds(CLOCK_REALTIME)));
	if (b.len > 0)
		emit(t, &b);
	else
		free(b.s);
}

static void *
sampler(void *arg)
{
	struct trace *t = arg;
	struct timespec due;

	WSPX_MUST(pthread_mutex_lock(&t->loop.lock));
	while (!t->loop.ending) {
		WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
		sampleonce(t);
		WSPX_MUST(pthread_mutex_lock(&t->loop.lock));
		due = wspx__clock_timespec(wspx__clock_now() + SAMPLE_NS);
		while (!t->loop.ending && pthread_cond_timedwait(
		    &t->loop.cond, &t->loop.lock, &due) == 0)
			;
	}
	WSPX_MUST(pthread_mutex_unlock(&t->loop.lock));
	sampleonce(t);		/* (the counters as the run ends) */
	return NULL;
}

void
trace_sample(struct trace *t, const struct stats *s,
    struct wspx_pool *pool, struct wspx_blocking *bp)
{
	int rc;

	if (t == NULL)
		return;
	t->stats = s;
	t->pool = pool;
	t->bp = bp;
	if ((rc = wspx__thread_loop_start(&t->loop, sampler, t)) != 0)
		fatal("--trace: cannot start its thread: %s", strerror(-rc));
	t->sampling = true;
}

void
trace_stop(struct trace *t)
{
	if (t == NULL || !t->sampling)
		return;
	wspx__thread_loop_stop(&t->loop);
	t->sampling = false;
}

int
trace_close(struct trace *t)
{
	size_t i;
	int err;

	if (t == NULL)
		return 0;
	trace_stop(t);
	/* (after an error too: the last whole event may have room) */
	err = wspx__proc_writeall(t->fd, "\n]\n", 3);
	if (t->err != 0)
		err = t->err;
	if (close(t->fd) != 0 && err == 0)
		err = -errno;
	for (i = 0; i < t->nprocs; i++) {
		free(t->procs[i].host);
		free(t->procs[i].named);
		free(t->procs[i].workernamed);
	}
	free(t->procs);
	WSPX_MUST(pthread_mutex_destroy(&t->lock));
	free(t);
	return err;
}
