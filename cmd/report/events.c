/*
 * --events (see events.h).  Each line is built outside the mutex and
 * written with one write() under it: lines never interleave, and each is
 * in the file (or the pipe) once its job's callback returns.
 */
#include "events.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/thread.h"
#include "util/buf.h"
#include "util/util.h"

struct events {
	pthread_mutex_t lock;
	int fd;
	bool own;		/* fd is ours to close */
	int err;		/* first write error; later lines are dropped */
	void (*failed)(void *ctx, int err);	/* told of err */
	void *ctx;
};

struct events *
events_open(const char *path, void (*failed)(void *, int), void *ctx)
{
	struct events *e;
	int fd = STDOUT_FILENO;

	if (strcmp(path, "-") != 0 && (fd = open(path, O_WRONLY | O_CREAT |
	    O_TRUNC | O_CLOEXEC, 0666)) < 0)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	WSPX_MUST(pthread_mutex_init(&e->lock, NULL));
	e->fd = fd;
	e->own = fd != STDOUT_FILENO;
	e->failed = failed;
	e->ctx = ctx;
	return e;
}

static void
emitline(struct events *e, struct buf *b)
{
	bufaddc(b, '\n');
	WSPX_MUST(pthread_mutex_lock(&e->lock));
	if (e->err == 0 && (e->err = wspx__proc_writeall(e->fd, b->s,
	    b->len)) != 0)
		e->failed(e->ctx, e->err);
	WSPX_MUST(pthread_mutex_unlock(&e->lock));
	free(b->s);
}

/* The keys that start and end events share, from the opening brace. */
static void
header(struct buf *b, const char *event, uint64_t seq, unsigned slot,
    pid_t pid, const char *name, const char *command)
{
	bufprintf(b, "{\"event\": \"%s\", \"seq\": %llu, \"slot\": %u",
	    event, (unsigned long long)seq, slot);
	if (name != NULL) {
		bufadds(b, ", \"job\": ");
		bufjson(b, name);
	}
	if (pid > 0)
		bufprintf(b, ", \"pid\": %ld", (long)pid);
	else
		bufadds(b, ", \"pid\": null");
	bufadds(b, ", \"command\": ");
	bufjson(b, command);
}

void
events_needs(struct buf *b, const char *const *needs, size_t n)
{
	size_t i;

	if (needs == NULL)
		return;
	bufadds(b, ", \"needs\": [");
	for (i = 0; i < n; i++) {
		if (i > 0)
			bufadds(b, ", ");
		bufjson(b, needs[i]);
	}
	bufadds(b, "]");
}

void
events_start(struct events *e, uint64_t seq, unsigned slot, pid_t pid,
    const char *name, const char *command, double start)
{
	struct buf b = { NULL, 0, 0 };

	if (e == NULL)
		return;
	header(&b, "start", seq, slot, pid, name, command);
	bufprintf(&b, ", \"start\": %.6f}", start);
	emitline(e, &b);
}

void
events_end(struct events *e, const struct event_end *x)
{
	struct buf b = { NULL, 0, 0 };

	if (e == NULL)
		return;
	header(&b, "end", x->seq, x->slot, x->pid, x->name, x->command);
	bufprintf(&b, ", \"start\": %.6f, \"end\": %.6f, \"runtime\": %.6f",
	    x->start, x->end, x->runtime);
	if (x->exited)
		bufprintf(&b, ", \"exit\": %d", x->exit);
	else
		bufadds(&b, ", \"exit\": null");
	if (x->signal != 0)
		bufprintf(&b, ", \"signal\": %d", x->signal);
	else
		bufadds(&b, ", \"signal\": null");
	bufprintf(&b, ", \"bytes\": %llu, \"attempt\": %u, \"retry\": %s",
	    (unsigned long long)x->bytes, x->attempt, x->retry ? "true" :
	    "false");
	if (x->timedout)
		bufadds(&b, ", \"timeout\": true");
	if (x->killsig != 0)
		bufprintf(&b, ", \"killed\": %d", x->killsig);
	if (x->worker != 0)
		bufprintf(&b, ", \"worker\": %u", x->worker);
	events_needs(&b, x->needs, x->nneeds);
	if (x->host != NULL) {
		bufadds(&b, ", \"host\": ");
		bufjson(&b, x->host);
	}
	if (x->error != NULL) {
		bufadds(&b, ", \"error\": ");
		bufjson(&b, x->error);
	}
	bufaddc(&b, '}');
	emitline(e, &b);
}

void
events_summarykeys(struct buf *b, const struct stats_final *f)
{
	bufprintf(b, "\"jobs\": %llu, \"succeeded\": %llu, \"failed\": %llu, "
	    "\"skipped\": %llu, \"wall\": %.6f, \"cpu_user\": %.6f, "
	    "\"cpu_system\": %.6f, \"slots\": %u, \"exit_status\": %d",
	    (unsigned long long)f->now.done,
	    (unsigned long long)f->succeeded, (unsigned long long)f->now.failed,
	    (unsigned long long)f->now.skipped, f->now.elapsed, f->child_user,
	    f->child_sys, f->slots, f->exitstatus);
}

void
events_summary(struct events *e, const struct stats_final *f)
{
	struct buf b = { NULL, 0, 0 };

	if (e == NULL)
		return;
	bufadds(&b, "{\"event\": \"summary\", ");
	events_summarykeys(&b, f);
	bufaddc(&b, '}');
	emitline(e, &b);
}

int
events_close(struct events *e)
{
	int rc;

	if (e == NULL)
		return 0;
	rc = e->err;
	if (e->own && close(e->fd) != 0 && rc == 0)
		rc = -errno;
	WSPX_MUST(pthread_mutex_destroy(&e->lock));
	free(e);
	return rc;
}
