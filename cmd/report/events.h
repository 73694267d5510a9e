/*
 * --events: one JSON object per line for every job's start and end, and a
 * summary at the end, each written as it happens so that a reader can
 * follow the run (wspx(1) lists the keys).  Any thread may write; a mutex
 * keeps lines whole.
 */
#ifndef WSPX_EVENTS_H
#define WSPX_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "stats.h"

struct buf;
struct events;

/* How a job ended, for its end event. */
struct event_end {
	uint64_t seq;
	unsigned slot;
	pid_t pid;		/* 0: none (dry run, or it could not start) */
	const char *name;	/* a job file's job's ("job"), or NULL */
	const char *command;
	double start, end;	/* Unix time, seconds */
	double runtime;		/* seconds */
	bool exited;		/* exit is valid */
	int exit;
	int signal;		/* killed by this signal, or 0 */
	uint64_t bytes;		/* output, stdout and stderr */
	const char *error;	/* why it could not start, or NULL */
	unsigned attempt;	/* 1, 2, ... (--retries) */
	bool retry;		/* another attempt follows */
	bool timedout;		/* killed for its --timeout */
	int killsig;		/* the signal wspx sent it, or 0 */
	const char *host;	/* where it ran, or NULL: here */
	const char *const *needs; /* a job file's job's, by name */
	size_t nneeds;
	unsigned worker;	/* a builtin's pool worker, 1 on; or 0 */
};

/* Open path for events ("-": wspx's stdout), truncating it; failed(ctx,
 * -errno) is called once if writing an event fails, with a lock held.
 * Returns NULL with errno set if it cannot be opened. */
struct events *events_open(const char *path, void (*failed)(void *, int),
    void *ctx);

/* A job's start; name: a job file's job's ("job"), or NULL. */
void events_start(struct events *e, uint64_t seq, unsigned slot, pid_t pid,
    const char *name, const char *command, double start);
void events_end(struct events *e, const struct event_end *end);
/* A job file's job's needs as a key, ", \"needs\": [...]" (none if
 * needs is NULL: not a job file's), which wspx report reads for the
 * critical path; --trace's spans have it too. */
void events_needs(struct buf *b, const char *const *needs, size_t n);

/* The summary's keys, "\"jobs\": 3, ..., \"exit_status\": 0", which
 * --trace's "run over" instant has too. */
void events_summarykeys(struct buf *b, const struct stats_final *f);

void events_summary(struct events *e, const struct stats_final *f);

/* Close e (NULL: nothing).  Returns 0, or the first error writing. */
int events_close(struct events *e);

#endif /* WSPX_EVENTS_H */
