/*
 * A graph of jobs run on the work-stealing pool: each job starts when the
 * jobs it needs are over.  The bookkeeping runs on the pool's workers: a
 * job that ends counts down its dependents, and those it makes ready go
 * on the deque of the worker that did it, as one job that readies them
 * one after another in index order (the jobs that need none, at the
 * start, likewise), where it runs next or is stolen.  What a ready job does (a builtin in place, a command handed to
 * the blocking pool, nothing if it is skipped) is the caller's.
 */
#ifndef WSPX_GRAPH_H
#define WSPX_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "wspx.h"

struct wspx__graph;

struct wspx__graph_ops {
	/* The needs of job i, *v[0..return). */
	size_t (*needs)(void *ctx, size_t i, const size_t **v);
	/* Job i's needs are over: start it, on worker w of the pool.  It
	 * ends with wspx__graph_done(), now or later, on any thread. */
	void (*ready)(void *ctx, struct wspx_worker *w, size_t i);
};

/* A graph of n jobs, of which those with selected[i] run (NULL: all; a
 * selected job's needs must be selected).  The needs must make no cycle.
 * Returns 0 and sets *g, or -ENOMEM. */
int wspx__graph_new(struct wspx__graph **g, size_t n, const bool *selected,
    struct wspx_pool *pool, const struct wspx__graph_ops *ops, void *ctx);

void wspx__graph_free(struct wspx__graph *g);

/* Start the jobs that need none.  Once. */
void wspx__graph_start(struct wspx__graph *g);

/* Job i is over.  w is the calling worker (its dependents made ready go
 * on its deque), or NULL on a thread outside the pool (they are
 * injected).  Whatever the caller wrote about i before this call is seen
 * by the ready() of its dependents. */
void wspx__graph_done(struct wspx__graph *g, struct wspx_worker *w,
    size_t i);

/* wspx__graph_done() in two steps, for a job whose dependents may start
 * before it has finished its own end (a digest of what it made, which they
 * do not need): _needed() makes them ready, as done does; _over() then
 * counts i over, which may end the graph.  Each once, in this order; what
 * the caller writes between them is not seen by the dependents. */
void wspx__graph_needed(struct wspx__graph *g, struct wspx_worker *w,
    size_t i);
void wspx__graph_over(struct wspx__graph *g, size_t i);

/* Wait until every selected job is over.  Not on a worker of the
 * pool. */
void wspx__graph_wait(struct wspx__graph *g);

/* The order in which the jobs would start if one ran at a time, each
 * ready job in the order of the file: order[0..n) (a topological order,
 * used for the sequence numbers that -k orders output by).  Returns 0 or
 * -ENOMEM. */
int wspx__graph_order(size_t n, const struct wspx__graph_ops *ops,
    void *ctx, size_t *order);

#endif /* WSPX_GRAPH_H */
