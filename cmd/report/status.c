/*
 * Progress (see status.h).  The thread sleeps on a condition variable with
 * a timeout, so it costs a few wake-ups a second and stops at once when
 * asked.  The terminal's width is asked for at every redraw, so the line
 * follows a resize within one tick.
 */
#include "status.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "os/thread.h"
#include "running.h"
#include "util/util.h"

struct status {
	struct status_opts o;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;		/* lock */
};

static unsigned
termwidth(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* "120/1000 12%" or "120/?". */
static void
counts(char *b, size_t size, const struct stats_now *n)
{
	if (n->total >= 0)
		snprintf(b, size, "%llu/%lld %d%%", (unsigned long long)n->done,
		    (long long)n->total, n->total > 0 ? (int)(100 *
		    (double)n->done / (double)n->total) : 100);
	else
		snprintf(b, size, "%llu/?", (unsigned long long)n->done);
}

/* The estimated time left, or "?" while it cannot be known. */
static void
eta(char *b, size_t size, const struct stats_now *n)
{
	double rate = n->elapsed > 0 ? (double)n->done / n->elapsed : 0;

	if (n->total < 0 || rate <= 0)
		snprintf(b, size, "?");
	else
		stats_duration(b, size, (double)((uint64_t)n->total > n->done ?
		    (uint64_t)n->total - n->done : 0) / rate);
}

/* The text without the bar; with a job file's graph, the jobs waiting
 * on their needs (neither over nor handed to the executor yet) and the
 * running job named (run, not NULL). */
static int
words(char *b, size_t size, const struct stats_now *n, const char *run)
{
	char c[64], e[32], t[32], w[48] = "";

	counts(c, sizeof(c), n);
	eta(e, sizeof(e), n);
	stats_duration(t, sizeof(t), n->elapsed);
	if (run != NULL && n->total >= 0)
		snprintf(w, sizeof(w), ", %llu waiting", (unsigned long long)
		    ((uint64_t)n->total > n->submitted ? (uint64_t)n->total -
		    n->submitted : 0));
	/* (the running job early: a narrow terminal cuts the end) */
	return snprintf(b, size, "wspx %s%s%s | %llu running, %llu queued%s, "
	    "%llu failed | %.1f/s | %s, ETA %s", c, run != NULL && *run !=
	    '\0' ? " | " : "", run != NULL ? run : "", (unsigned long long)
	    n->running, (unsigned long long)n->queued, w, (unsigned long long)
	    n->failed, n->elapsed > 0 ? (double)n->done / n->elapsed : 0.0, t,
	    e);
}

void
status_format(char *b, size_t size, const struct stats_now *n,
    unsigned width)
{
	status_format_graph(b, size, n, width, NULL);
}

void
status_format_graph(char *b, size_t size, const struct stats_now *n,
    unsigned width, const char *run)
{
	size_t len, room, fill, i;

	/* The last column stays empty: writing it wraps some terminals. */
	if (width > size - 1)
		width = (unsigned)(size - 1);
	if (width > 1)
		width--;
	len = (size_t)words(b, size, n, run);
	if (len >= width) {
		b[width] = '\0';
		return;
	}
	room = width - len;
	if (room < 8 || n->total <= 0)
		return;
	room -= 3;			/* " [" and "]" */
	fill = (size_t)((double)room * (double)n->done / (double)n->total);
	if (fill > room)
		fill = room;
	b[len++] = ' ';
	b[len++] = '[';
	for (i = 0; i < room; i++)
		b[len++] = i < fill ? '#' : '-';
	b[len++] = ']';
	b[len] = '\0';
}

static void
drawline(struct status *s)
{
	struct stats_now n;
	char b[1024], run[128] = "";

	stats_read(s->o.stats, &n);
	if (s->o.running != NULL)
		running_longest(s->o.running, run, sizeof(run));
	status_format_graph(b, sizeof(b), &n, termwidth(s->o.fd),
	    s->o.running != NULL ? run : NULL);
	wspx__output_status_set(s->o.out, b, strlen(b));
}

static void
progressline(struct status *s)
{
	struct stats_now n;
	char b[512];
	int len;

	stats_read(s->o.stats, &n);
	len = words(b, sizeof(b) - 1, &n, NULL);
	if (len < 0)
		return;
	if ((size_t)len > sizeof(b) - 2)
		len = (int)sizeof(b) - 2;
	b[len++] = '\n';
	wspx__output_note(s->o.out, b, (size_t)len);
}

/* The monotonic time seconds from now, for a timed wait. */
static struct timespec
deadline(double seconds)
{
	return wspx__clock_timespec(wspx__clock_now() +
	    (int64_t)(seconds * 1e9));
}

static void *
statusmain(void *arg)
{
	struct status *s = arg;
	struct timespec until;
	bool stop = false;

	for (;;) {
		if (s->o.line)
			drawline(s);
		until = deadline(s->o.interval);
		WSPX_MUST(pthread_mutex_lock(&s->lock));
		while (!s->stop && pthread_cond_timedwait(&s->cond, &s->lock,
		    &until) == 0)
			;
		stop = s->stop;
		WSPX_MUST(pthread_mutex_unlock(&s->lock));
		if (stop)
			return NULL;
		if (!s->o.line)
			progressline(s);
	}
}

struct status *
status_start(const struct status_opts *o)
{
	struct status *s;

	if (!o->line && o->interval <= 0)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->o = *o;
	WSPX_MUST(pthread_mutex_init(&s->lock, NULL));
	wspx__thread_cond_monotonic(&s->cond);
	if (o->line)
		wspx__output_status_start(o->out, o->fd);
	WSPX_MUST(pthread_create(&s->thread, NULL, statusmain, s));
	return s;
}

/* The line left where the status line was. */
static void
summary(struct status *s)
{
	struct stats_now n;
	char t[32], b[256];
	int len;

	stats_read(s->o.stats, &n);
	stats_duration(t, sizeof(t), n.elapsed);
	len = snprintf(b, sizeof(b), PROGNAME ": %llu %s, %llu failed, %llu "
	    "skipped in %s (%.1f/s)\n", (unsigned long long)n.done,
	    n.done == 1 ? "job" : "jobs", (unsigned long long)n.failed, (unsigned long long)n.skipped, t,
	    n.elapsed > 0 ? (double)n.done / n.elapsed : 0.0);
	if (len > 0 && (size_t)len < sizeof(b))
		wspx__output_note(s->o.out, b, (size_t)len);
}

void
status_stop(struct status *s)
{
	if (s == NULL)
		return;
	WSPX_MUST(pthread_mutex_lock(&s->lock));
	s->stop = true;
	WSPX_MUST(pthread_cond_signal(&s->cond));
	WSPX_MUST(pthread_mutex_unlock(&s->lock));
	WSPX_MUST(pthread_join(s->thread, NULL));
	if (s->o.line) {
		wspx__output_status_end(s->o.out);
		if (!s->o.nosummary)
			summary(s);
	} else {
		progressline(s);
	}
	WSPX_MUST(pthread_cond_destroy(&s->cond));
	WSPX_MUST(pthread_mutex_destroy(&s->lock));
	free(s);
}
