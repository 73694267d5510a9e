/*
 * libwspx in one page: a parallel sum by fork-join, a batch of blocking
 * tasks, and the pools' counters.
 *     cc -o forkjoin forkjoin.c $(pkg-config --cflags --libs wspx)
 */
#include <stdio.h>
#include <time.h>
#include <wspx.h>

struct range {
	long lo, hi, sum;
};

/* r->sum = lo + ... + hi-1, split in halves that may run in parallel. */
static void
sum(struct wspx_worker *w, void *arg)
{
	struct range *r = arg, a = { r->lo, (r->lo + r->hi) / 2, 0 };
	struct range b = { a.hi, r->hi, 0 };

	if (r->hi - r->lo <= 1000) {
		for (r->sum = 0; r->lo < r->hi; r->lo++)
			r->sum += r->lo;
		return;
	}
	wspx_join(w, sum, &a, sum, &b);
	r->sum = a.sum + b.sum;
}

/* A blocking task: sleeps 10 ms, as a job waiting on a child would. */
static void
nap(struct wspx_task *t, int status)
{
	(void)t;
	if (status == 0)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
}

int
main(void)
{
	struct wspx_pool *pool;
	struct wspx_blocking *bp;
	struct wspx_pool_stats ps;
	struct wspx_blocking_stats bs;
	struct wspx_task naps[8];
	struct range r = { 0, 10000000, 0 };
	int i;

	if (wspx_pool_new(&pool, NULL) != 0 || wspx_blocking_new(&bp, NULL))
		return 1;
	wspx_pool_call(pool, sum, &r);
	for (i = 0; i < 8; i++) {
		naps[i] = (struct wspx_task){ .run = nap, .mandatory = true };
		wspx_blocking_submit(bp, &naps[i]);
	}
	wspx_blocking_stats(bp, &bs);
	wspx_blocking_free(bp);		/* waits for the mandatory naps */
	wspx_pool_stats(pool, &ps);
	printf("sum %ld by %llu jobs (%llu stolen); %u blocking threads\n",
	    r.sum, (unsigned long long)ps.executed,
	    (unsigned long long)ps.stolen, bs.threads);
	wspx_pool_free(pool);
	return 0;
}
