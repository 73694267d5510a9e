/*
 * Showing a run's progress while it goes: on a terminal, a status line at
 * the bottom of the screen, redrawn a few times a second, with job output
 * printed above it; off a terminal (--progress), a plain line every few
 * seconds.  A thread of its own reads the counters of stats.h, so the
 * jobs never wait for it.
 */
#ifndef WSPX_STATUS_H
#define WSPX_STATUS_H

#include <stdbool.h>

#include "exec/output.h"
#include "stats.h"

struct running;

struct status_opts {
	const struct stats *stats;
	struct wspx__output *out;	/* the terminal line goes through it */
	int fd;				/* wspx's stderr */
	bool line;			/* the terminal status line */
	bool nosummary;			/* none left in its place */
	struct running *running;	/* a job file's: the jobs waiting
					 * on needs, the running job named;
					 * else NULL */
	double interval;		/* seconds between lines; plain lines:
					 * --progress, if not line */
};

struct status;

/* Start showing progress (returns NULL if there is nothing to show). */
struct status *status_start(const struct status_opts *o);

/* Stop: erase the status line and leave a one-line summary in its place;
 * a plain progress line ends with a last one.  NULL: nothing. */
void status_stop(struct status *s);

/* The text of a status line width columns wide (no newline). */
void status_format(char *b, size_t size, const struct stats_now *n,
    unsigned width);

/* The same for a job file's run: with the jobs waiting on their needs,
 * and run, the running job's name, after the rest. */
void status_format_graph(char *b, size_t size, const struct stats_now *n,
    unsigned width, const char *run);

#endif /* WSPX_STATUS_H */
