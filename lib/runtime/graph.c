/*
 * Running a graph of jobs on the work-stealing pool (see graph.h).
 *
 * Protocol.  Each selected job has an atomic count of its selected needs
 * not yet over.  wspx__graph_done(i) decrements the count of each of i's
 * dependents; the one decrement that takes a count to zero makes that
 * dependent ready, so each job starts exactly once, after all its needs.
 * The decrements are acq_rel: each releases what the caller wrote about i
 * (its result) before done (or needed), and the last one acquires the
 * results of all the needs, so ready() sees every need's result.  A count of jobs not
 * yet over, decremented acq_rel by each done, tells the waiter when the
 * graph is over; the waiter's mutex orders its wake-up.  A done may come
 * in two steps (needed, then over): the dependents are readied by the
 * first and the count is decremented by the second, so a job's last
 * work after its dependents started still ends before the graph does.
 *
 * Order.  The jobs one done makes ready (and those that need none, at
 * the start) are released together: they are linked through their next
 * field, in index order (the dependents are stored in that order), and go
 * to the pool as one job that readies them one after another, so that the
 * caller starts them in the order of the file (-j1 runs a matrix's legs
 * in turn).  The links are written before the push or injection that
 * publishes the chain (release, with the deque's or the injector's
 * acquire on the taking side), and each job is released once, so each
 * next is written once.  A member's next is read before its ready(): the
 * ready of the last job may end the graph, and free it.
 *
 * The dependents are kept in one array indexed by job (compressed
 * rows), built from the needs with two passes: no per-job allocation for
 * a graph of a million jobs.
 */
#include "graph.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "os/thread.h"
#include "pool.h"

struct node {
	struct wspx_job job;		/* its start (or its end) on the pool */
	struct wspx__graph *g;
	struct node *next;		/* the next released with it */
	_Atomic(size_t) pending;	/* needs not yet over */
	bool selected;			/* it runs */
};

struct wspx__graph {
	struct wspx_pool *pool;
	const struct wspx__graph_ops *ops;
	void *ctx;
	size_t n;
	struct node *nodes;
	size_t *first;			/* dependents of i: deps[first[i] ..
					 * first[i + 1]) */
	size_t *deps;
	_Atomic(size_t) remaining;	/* selected jobs not yet over */
	pthread_mutex_t lock;
	pthread_cond_t over;
	bool finished;			/* lock */
};

/* The jobs released together, from nd on, in turn (see Order above). */
static void
startjob(struct wspx_worker *w, struct wspx_job *job)
{
	struct node *nd = wspx_container_of(job, struct node, job), *next;
	struct wspx__graph *g = nd->g;

	for (; nd != NULL; nd = next) {
		next = nd->next;
		g->ops->ready(g->ctx, w, (size_t)(nd - g->nodes));
	}
}

/* Count each selected job's needs and dependents, and fill deps. */
static void
linkdeps(struct wspx__graph *g, const bool *sel)
{
	const size_t *v;
	size_t i, k, m;

	for (i = 0; i <= g->n; i++)
		g->first[i] = 0;
	for (i = 0; i < g->n; i++) {
		if (sel != NULL && !sel[i])
			continue;
		m = g->ops->needs(g->ctx, i, &v);
		for (k = 0; k < m; k++)
			g->first[v[k] + 1]++;
		/* relaxed: before any thread sees the graph */
		atomic_store_explicit(&g->nodes[i].pending, m,
		    memory_order_relaxed);
	}
	for (i = 0; i < g->n; i++)
		g->first[i + 1] += g->first[i];
	for (i = 0; i < g->n; i++) {
		if (sel != NULL && !sel[i])
			continue;
		m = g->ops->needs(g->ctx, i, &v);
		for (k = 0; k < m; k++)
			g->deps[g->first[v[k]]++] = i;
	}
	/* (the fill advanced first[j] to first[j + 1]: shift back) */
	for (i = g->n; i > 0; i--)
		g->first[i] = g->first[i - 1];
	g->first[0] = 0;
}

static size_t
countdeps(const struct wspx__graph_ops *ops, void *ctx, size_t n,
    const bool *sel)
{
	const size_t *v;
	size_t i, total = 0;

	for (i = 0; i < n; i++)
		if (sel == NULL || sel[i])
			total += ops->needs(ctx, i, &v);
	return total;
}

int
wspx__graph_new(struct wspx__graph **out, size_t n, const bool *sel,
    struct wspx_pool *pool, const struct wspx__graph_ops *ops, void *ctx)
{
	struct wspx__graph *g;
	size_t i, nsel = 0;

	if ((g = calloc(1, sizeof(*g))) == NULL)
		return -ENOMEM;
	g->pool = pool;
	g->ops = ops;
	g->ctx = ctx;
	g->n = n;
	g->nodes = calloc(n + 1, sizeof(*g->nodes));
	g->first = malloc((n + 1) * sizeof(*g->first));
	g->deps = malloc((countdeps(ops, ctx, n, sel) + 1) *
	    sizeof(*g->deps));
	if (g->nodes == NULL || g->first == NULL || g->deps == NULL) {
		wspx__graph_free(g);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		g->nodes[i].g = g;
		g->nodes[i].job.run = startjob;
		g->nodes[i].selected = sel == NULL || sel[i];
		nsel += g->nodes[i].selected;
	}
	linkdeps(g, sel);
	/* relaxed: before any thread sees the graph */
	atomic_store_explicit(&g->remaining, nsel, memory_order_relaxed);
	g->finished = nsel == 0;
	WSPX_MUST(pthread_mutex_init(&g->lock, NULL));
	WSPX_MUST(pthread_cond_init(&g->over, NULL));
	*out = g;
	return 0;
}

void
wspx__graph_free(struct wspx__graph *g)
{
	if (g == NULL)
		return;
	if (g->nodes != NULL && g->first != NULL && g->deps != NULL) {
		WSPX_MUST(pthread_mutex_destroy(&g->lock));
		WSPX_MUST(pthread_cond_destroy(&g->over));
	}
	free(g->nodes);
	free(g->first);
	free(g->deps);
	free(g);
}

/* Hand the chain from head on to the pool: on w's deque, or injected
 * from a thread outside the pool. */
static void
release(struct wspx__graph *g, struct wspx_worker *w, struct node *head)
{
	if (head == NULL)
		return;
	if (w != NULL) {
		wspx__forkjoin_push(w, &head->job);
		return;
	}
	/* The pool outlives the graph: injection cannot fail. */
	if (wspx_pool_inject(g->pool, &head->job) != 0)
		abort();
}

void
wspx__graph_start(struct wspx__graph *g)
{
	struct node *head = NULL, **tail = &head;
	const size_t *v;
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (!g->nodes[i].selected || g->ops->needs(g->ctx, i, &v) != 0)
			continue;
		*tail = &g->nodes[i];
		tail = &g->nodes[i].next;
	}
	*tail = NULL;
	release(g, NULL, head);
}

/* The graph is over: wake the waiter. */
static void
finish(struct wspx__graph *g)
{
	WSPX_MUST(pthread_mutex_lock(&g->lock));
	g->finished = true;
	WSPX_MUST(pthread_cond_broadcast(&g->over));
	WSPX_MUST(pthread_mutex_unlock(&g->lock));
}

void
wspx__graph_needed(struct wspx__graph *g, struct wspx_worker *w, size_t i)
{
	struct node *nd, *head = NULL, **tail = &head;
	size_t k;

	for (k = g->first[i]; k < g->first[i + 1]; k++) {
		nd = &g->nodes[g->deps[k]];
		/* acq_rel: releases i's result to the dependent's ready();
		 * the last decrement acquires every need's (see the top). */
		if (atomic_fetch_sub_explicit(&nd->pending, 1,
		    memory_order_acq_rel) != 1)
			continue;
		*tail = nd;
		tail = &nd->next;
	}
	*tail = NULL;
	/* (the chain before the count: once remaining is zero the graph
	 * may be freed; while a released job has not run, it is not) */
	release(g, w, head);
}

void
wspx__graph_over(struct wspx__graph *g, size_t i)
{
	(void)i;
	/* acq_rel: the last job over sees every job's writes before it
	 * tells the waiter (whose mutex orders the rest). */
	if (atomic_fetch_sub_explicit(&g->remaining, 1,
	    memory_order_acq_rel) == 1)
		finish(g);
}

void
wspx__graph_done(struct wspx__graph *g, struct wspx_worker *w, size_t i)
{
	wspx__graph_needed(g, w, i);
	wspx__graph_over(g, i);
}

void
wspx__graph_wait(struct wspx__graph *g)
{
	WSPX_MUST(pthread_mutex_lock(&g->lock));
	while (!g->finished)
		WSPX_MUST(pthread_cond_wait(&g->over, &g->lock));
	WSPX_MUST(pthread_mutex_unlock(&g->lock));
}

/* A binary min-heap of job indices. */
static void
heappush(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++, p;

	for (; i > 0 && h[p = (i - 1) / 2] > v; i = p)
		h[i] = h[p];
	h[i] = v;
}

static size_t
heappop(size_t *h, size_t *n)
{
	size_t top = h[0], v = h[--*n], i = 0, c;

	for (; (c = 2 * i + 1) < *n; i = c) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
	}
	h[i] = v;
	return top;
}

int
wspx__graph_order(size_t n, const struct wspx__graph_ops *ops, void *ctx,
    size_t *order)
{
	struct wspx__graph *g;
	size_t *heap, nh = 0, i, k, done = 0, j;
	int rc;

	if ((rc = wspx__graph_new(&g, n, NULL, NULL, ops, ctx)) != 0)
		return rc;
	if ((heap = malloc((n + 1) * sizeof(*heap))) == NULL) {
		wspx__graph_free(g);
		return -ENOMEM;
	}
	/* relaxed, here and below: one thread, no pool */
	for (i = 0; i < n; i++)
		if (atomic_load_explicit(&g->nodes[i].pending,
		    memory_order_relaxed) == 0)
			heappush(heap, &nh, i);
	while (nh > 0) {
		order[done++] = i = heappop(heap, &nh);
		for (k = g->first[i]; k < g->first[i + 1]; k++) {
			j = g->deps[k];
			if (atomic_fetch_sub_explicit(&g->nodes[j].pending, 1,
			    memory_order_relaxed) == 1)
				heappush(heap, &nh, j);
		}
	}
	free(heap);
	wspx__graph_free(g);
	return 0;
}
