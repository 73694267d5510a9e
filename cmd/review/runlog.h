/*
 * A finished (or killed) run as its files tell it, for wspx report: a
 * --trace file, an --events file or a --joblog, each read into the same
 * spans, one per attempt.  What a format does not hold is marked as
 * unknown: a joblog has no slots (they are given back by placing each
 * attempt on the lowest free slot), no needs and no CPU times.
 */
#ifndef WSPX_RUNLOG_H
#define WSPX_RUNLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

enum spanend {
	SPAN_OK,
	SPAN_FAILED,
	SPAN_TIMEDOUT,		/* killed for its timeout */
	SPAN_STOPPED		/* killed by wspx otherwise (a halt, a signal) */
};

/* An attempt. */
struct span {
	const char *name;	/* the job's name, else its command */
	double start, end;	/* seconds from the log's time 0 */
	unsigned slot;		/* 1 on; 0: in the process (a builtin) */
	unsigned worker;	/* a builtin's pool worker, 1 on; or 0 */
	unsigned host;		/* 0 here, else hosts[host - 1] */
	enum spanend end_as;
	unsigned attempt;
	uint64_t seq;
	const char **needs;	/* a job file's job: the jobs it needs */
	size_t nneeds;
};

/* A sample of the trace's counters. */
struct sample {
	double at;
	double running, queued, waiting;
};

struct runlog {
	const char *format;	/* "trace", "events" or "joblog" */
	struct span *spans;
	size_t nspans;
	const char **hosts;
	size_t nhosts;
	struct sample *samples;	/* a trace's, in time order */
	size_t nsamples;
	/* from the run's summary, when it has one (-1: unknown) */
	double wall, cpu;
	long slots;
	bool needs;		/* the spans have needs (a job file's run) */
	struct wspx__arena strings;
};

/* Read path into rl; a file wspx cannot read, or not of a known format,
 * is fatal with its name, line and column. */
void runlog_read(const char *path, struct runlog *rl);

void runlog_free(struct runlog *rl);

/* A duration as the report writes it, into b: 0.25s, 12.3s, 2:03 or
 * 1:02:03; returns b. */
const char *runlog_duration(char *b, size_t size, double seconds);

#endif /* WSPX_RUNLOG_H */
