/*
 * --trace FILE: the run in the Chrome trace event format (its JSON Array
 * Format), which Perfetto, chrome://tracing and speedscope open: a track
 * per slot (and per remote host, as a process of its own), a span per
 * attempt named by its job, instants for retries and timeouts, and
 * counter tracks read from the run's atomic counters.  Written as the run
 * goes, an event a line; nothing is kept per job.
 */
#ifndef WSPX_TRACE_H
#define WSPX_TRACE_H

#include "events.h"
#include "stats.h"

/* A track's tid for the jobs that ran in the process (builtins): this +
 * the pool worker that ran them, 1 on. */
#define TRACE_WORKER_TID	1000000u

struct trace;
struct wspx_pool;
struct wspx_blocking;

/* Open path for the trace, truncating it; now is the trace's time 0.
 * failed(ctx, -errno) is called once if a write fails.  Returns NULL with
 * errno set if path cannot be opened. */
struct trace *trace_open(const char *path, void (*failed)(void *, int),
    void *ctx);

/* An attempt ended (as its --events end event says). */
void trace_end(struct trace *t, const struct event_end *e);

/* Sample the counters at most every 10 ms, on a thread of the trace's,
 * writing them when they change; until trace_close(). */
void trace_sample(struct trace *t, const struct stats *s,
    struct wspx_pool *pool, struct wspx_blocking *bp);

/* Stop the sampling: the pools may go after this. */
void trace_stop(struct trace *t);

/* The run stopped early (why: "interrupted by SIGINT", "halted by ...")
 * at Unix time at: an instant on every track. */
void trace_stopped(struct trace *t, const char *why, double at);

/* The run is over: its totals as an instant, "run over", whose args
 * wspx report reads (the jobs' CPU time, the slots, the wall time). */
void trace_summary(struct trace *t, const struct stats_final *f);

/* Close t (NULL: nothing), ending the JSON array.  Returns 0, or the
 * first error writing. */
int trace_close(struct trace *t);

#endif /* WSPX_TRACE_H */
