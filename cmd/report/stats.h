/*
 * A run's numbers: how many jobs were read, started, ended and failed, and
 * how long they ran, counted with atomics by whoever feeds and finishes
 * jobs (input lines today, the job graph later) and read at any moment,
 * without a lock, by the status line, --stats, --metrics and --events.
 * Nothing here knows where jobs come from.
 */
#ifndef WSPX_STATS_H
#define WSPX_STATS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "wspx.h"

/* Job runtimes, log-linear: 64 linear buckets per power of two, so a
 * percentile is within 1/64 (1.6%) of the true value. */
#define STATS_SUB	64
#define STATS_BUCKETS	(STATS_SUB + 58 * STATS_SUB)

struct stats {
	/* Each counter only grows; all relaxed (see stats_read()). */
	_Atomic(uint64_t) submitted;	/* read and handed to the executor */
	_Atomic(uint64_t) started;	/* a process ran (or dry run shown) */
	_Atomic(uint64_t) ran;		/* ended, after starting */
	_Atomic(uint64_t) ended;	/* over: ran, could not start, skipped */
	_Atomic(uint64_t) failed;	/* exit status not 0, or no start */
	_Atomic(uint64_t) skipped;	/* never started: the run stopped */
	_Atomic(int64_t) total;		/* known number of jobs, or -1 */
	_Atomic(uint64_t) positions;	/* given by stats_position() */
	_Atomic(int64_t) maxns;		/* longest runtime */
	_Atomic(uint64_t) hist[STATS_BUCKETS];
	int64_t t0;			/* CLOCK_MONOTONIC ns at the start */
	double t0real;			/* Unix time at the start, seconds */
};

/* One consistent-enough reading of the counters. */
struct stats_now {
	uint64_t done;		/* ended */
	uint64_t running;
	uint64_t queued;	/* submitted, not started */
	uint64_t submitted;	/* handed to the executor (or skipped) */
	uint64_t failed;
	uint64_t skipped;
	int64_t total;		/* -1: not known yet */
	double elapsed;		/* seconds since the start */
};

/* The final figures, for --stats and --metrics. */
struct stats_final {
	struct stats_now now;
	uint64_t started;		/* jobs that ran */
	uint64_t succeeded;		/* done, neither failed nor skipped */
	double p50, p90, p99, max;	/* job runtimes, seconds */
	double user, sys;		/* wspx's own CPU, seconds */
	double child_user, child_sys;	/* the jobs' CPU, seconds */
	struct wspx_pool_stats pool;
	struct wspx_blocking_stats blocking; /* gauges at the run's end */
	unsigned workers, slots;
	int exitstatus;
};

void stats_init(struct stats *s);

/* A job has ended; runtime_ns is its runtime if it started, else < 0. */
void stats_ended(struct stats *s, int64_t runtime_ns, bool failed,
    bool skipped);

/* The next position of a job that is over, 1 and on: the k of a job
 * file's "[k/N]" line (one that does not run takes one too, so that the
 * last line's is N). */
uint64_t stats_position(struct stats *s);

/* Read the counters now; any thread, never blocks the run. */
void stats_read(const struct stats *s, struct stats_now *now);

/* Seconds since s started. */
double stats_elapsed(const struct stats *s);

/* Fill the percentiles, CPU times and counters of f.  */
void stats_finish(const struct stats *s, struct stats_final *f);

/* Print f for --stats (text, to fd) or --metrics (JSON, to fd).  Return 0
 * or -errno. */
int stats_print(const struct stats_final *f, int fd);
int stats_json(const struct stats_final *f, int fd);

/* "1:02:03", "2:03" or "5.2s" for a duration, into b (size >= 16). */
void stats_duration(char *b, size_t size, double seconds);

#endif /* WSPX_STATS_H */
