/*
 * Fork-join on the work-stealing pool: wspx_join() and scopes.
 *
 * join(a, b) pushes b on the caller's deque, runs a, then pops.  Thieves
 * steal the oldest job first, so if b was not stolen it is still at the
 * bottom and pop returns it, the common case and the cheap one: two calls
 * and no atomic read-modify-write.  If b was stolen the caller runs other
 * jobs, its own deque first, until the thief sets b's latch (the thief's
 * wake-up reaches the caller through the 4-state latch if it fell asleep).
 * b's record lives in the caller's stack frame, which is safe because the
 * caller does not return before the latch is set, and the setter touches
 * only the pool after setting it.
 *
 * A scope counts its unfinished jobs plus one that wspx_scope_wait() drops;
 * whoever brings the count to zero sets the scope's latch.
 */
#include "pool.h"

#include <assert.h>
#include <errno.h>

/* The half of a join that thieves may take. */
struct joinjob {
	struct wspx_job job;
	wspx_fn *fn;
	void *arg;
	unsigned owner;		/* slot of the worker waiting for it */
	_Atomic(int) latch;	/* set once fn has returned */
};

static void
runjoin(struct wspx_worker *w, struct wspx_job *job)
{
	struct joinjob *j = wspx_container_of(job, struct joinjob, job);
	unsigned owner = j->owner;

	j->fn(w, j->arg);
	/* j may be gone once the latch is set: owner was read before. */
	wspx__sleep_latch_set(&w->pool->sleep, &j->latch, owner);
}

void
wspx_join(struct wspx_worker *w, wspx_fn *a, void *a_arg, wspx_fn *b,
    void *b_arg)
{
	struct joinjob j;
	struct wspx_job *job;
	bool was_empty;

	j.job.run = runjoin;
	j.job.scope = NULL;
	j.fn = b;
	j.arg = b_arg;
	j.owner = w->index;
	atomic_init(&j.latch, WSPX__LATCH_UNSET);
	if (wspx__deque_push(&w->deque, &j.job, &was_empty) != 0) {
		/* No memory to grow the deque: no parallelism, same result. */
		a(w, a_arg);
		b(w, b_arg);
		return;
	}
	wspx__sleep_new_internal_jobs(&w->pool->sleep, 1, was_empty);
	a(w, a_arg);
	if ((job = wspx__deque_pop(&w->deque)) == &j.job) {
		b(w, b_arg);
		wspx__bump(&w->executed, 1);
		return;
	}
	/* pop returned another job, or none.  A job above b's record is one
	 * that a left behind: a job it spawned into a scope it did not wait
	 * for (someone else waits), or one that a nested wait took from the
	 * injection stack and queued here.  Run it; b is then either still
	 * below, where the wait pops it first, or stolen, and the wait runs
	 * other jobs until its thief sets the latch. */
	if (job != NULL)
		wspx__pool_execute(w, job);
	wspx__pool_wait_until(w, &j.latch);
}

void
wspx_scope_init(struct wspx_scope *s, struct wspx_pool *pool,
    struct wspx_worker *owner)
{
	assert(owner == NULL || owner->pool == pool);
	atomic_init(&s->pending, 1);
	atomic_init(&s->latch, WSPX__LATCH_UNSET);
	s->pool = pool;
	s->owner = owner;
}

int
wspx_scope_spawn(struct wspx_scope *s, struct wspx_worker *w,
    struct wspx_job *job)
{
	bool was_empty;
	int rc;

	job->scope = s;
	/* relaxed: the job's completion is ordered after this increment by
	 * the release that queues the job (deque push or stack CAS). */
	atomic_fetch_add_explicit(&s->pending, 1, memory_order_relaxed);
	if (w == NULL) {
		rc = wspx__pool_inject_list(s->pool, job, job, 1);
		/* relaxed: the job never ran, there is nothing to publish.
		 * It cannot reach zero: the +1 of the caller (the scope's
		 * owner before its wait, or a job of s) is still there. */
		if (rc != 0)
			atomic_fetch_sub_explicit(&s->pending, 1,
			    memory_order_relaxed);
		return rc;
	}
	if (wspx__deque_push(&w->deque, job, &was_empty) != 0) {
		wspx__pool_execute(w, job);	/* no memory to queue it */
		return 0;
	}
	wspx__sleep_new_internal_jobs(&w->pool->sleep, 1, was_empty);
	return 0;
}

void
wspx__forkjoin_push(struct wspx_worker *w, struct wspx_job *job)
{
	bool was_empty;

	job->scope = NULL;
	if (wspx__deque_push(&w->deque, job, &was_empty) != 0) {
		wspx__pool_execute(w, job);	/* no memory to queue it */
		return;
	}
	wspx__sleep_new_internal_jobs(&w->pool->sleep, 1, was_empty);
}

/* Set s's latch for its owner.  Reads s before the store: the owner may
 * return from wspx_scope_wait() and free s right after it. */
static void
setscope(struct wspx_scope *s)
{
	struct wspx_pool *p = s->pool;
	struct wspx_worker *owner = s->owner;

	if (owner != NULL)
		wspx__sleep_latch_set(&p->sleep, &s->latch, owner->index);
	else
		wspx__pool_set_external(p, &s->latch);
}

void
wspx__forkjoin_scope_done(struct wspx_scope *s)
{
	/* acq_rel: release publishes this job's effects; the one that
	 * reaches zero acquires everyone's before setting the latch. */
	if (atomic_fetch_sub_explicit(&s->pending, 1,
	    memory_order_acq_rel) == 1)
		setscope(s);
}

void
wspx_scope_wait(struct wspx_scope *s)
{
	/* acq_rel: when we reach zero ourselves, acquire the jobs' effects. */
	if (atomic_fetch_sub_explicit(&s->pending, 1,
	    memory_order_acq_rel) == 1)
		return;
	if (s->owner != NULL)
		wspx__pool_wait_until(s->owner, &s->latch);
	else
		wspx__pool_wait_external(s->pool, &s->latch);
}
