/*
 * The work-stealing pool of Blitz's thread pool design (the "Blitz thread
 * pool" notes, after Rayon's): worker threads that each own a Chase-Lev
 * deque (deque.c), an injection stack for jobs from outside (stack.c),
 * the sleep protocol (sleep.c), and a main worker slot that
 * wspx_pool_call() lends to an outside thread.  Fork-join and scopes,
 * which run on top of this, are in forkjoin.c.
 *
 * A worker looks for work in this order: its own deque (LIFO), a steal from
 * the other slots starting at a random one (FIFO), then the injection stack,
 * whose whole list it takes at once: it keeps the oldest job and pushes the
 * rest on its own deque, where the others can steal them.
 *
 * Shutdown runs every accepted job.  Injection passes a gate (a counter of
 * injectors in flight; bit 0 set once closed), so after closegate() returns
 * nothing more can enter the stack.  Then each thread's terminate latch is
 * set; a thread that sees it still searches until it finds nothing, so the
 * stack is drained, and every job left on a deque has an owner that is
 * awake.
 */
#include "pool.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/thread.h"

#define DEQUE_CAPACITY 256
#define STEAL_TRIES 8		/* per victim, per search */

/* The slot the calling thread runs in, if any; only for wspx_pool_call()
 * and wspx_pool_shutdown() to refuse a call that would deadlock. */
static _Thread_local struct wspx_worker *current;

/* A victim index below n, from the slot's xorshift64* generator. */
static unsigned
randbelow(struct wspx_worker *w, unsigned n)
{
	uint64_t x = w->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	w->rng = x;
	return (unsigned)(((x * 0x2545F4914F6CDD1DULL) >> 32) % n);
}

static struct wspx_job *
steal(struct wspx_worker *w)
{
	struct wspx_pool *p = w->pool;
	struct wspx_worker *v;
	struct wspx_job *job;
	unsigned n = p->nworkers + 1, start, i, tries;

	start = randbelow(w, n);
	for (i = 0; i < n; i++) {
		v = &p->workers[(start + i) % n];
		if (v == w)
			continue;
		/* Look before stealing: an empty deque costs two plain loads,
		 * not a fence.  A lost race means another thread took a job:
		 * retry a few times while the victim still has some. */
		for (tries = 0; tries < STEAL_TRIES &&
		    wspx__deque_len(&v->deque) > 0; tries++) {
			if ((job = wspx__deque_steal(&v->deque)) != NULL) {
				wspx__bump(&w->stolen, 1);
				return job;
			}
		}
	}
	return NULL;
}

/* Put the list l, newest first, back on the injection stack, all but its
 * last (oldest) node, which is returned.  The gate is not passed: these
 * jobs were accepted already. */
static struct wspx_stack_link *
giveback(struct wspx_pool *p, struct wspx_stack_link *l)
{
	struct wspx_stack_link *last = l, *oldest;
	unsigned n = 1;
	bool was_empty;

	for (; last->next->next != NULL; last = last->next)
		n++;
	oldest = last->next;
	last->next = NULL;
	wspx__stack_push(&p->injected, l, last, &was_empty);
	wspx__sleep_new_injected_jobs(&p->sleep, n, was_empty);
	return oldest;
}

/* Take the whole injection stack: keep the oldest job, push the others on
 * w's deque newest first, so that w pops them oldest first and thieves take
 * the newest.  If the deque cannot grow (no memory), the jobs not pushed
 * go back on the stack, where every worker can take them: held here, they
 * would wait behind the job w is about to run, which may wait for them. */
static struct wspx_job *
takeinjected(struct wspx_worker *w)
{
	struct wspx_stack_link *l, *next;
	unsigned pushed = 0;
	bool was_empty = true, e;

	if ((l = wspx__stack_take_all(&w->pool->injected)) == NULL)
		return NULL;
	/* next is read before l is pushed: once on the deque, l may be
	 * stolen, run, and injected again, which rewrites l->next. */
	for (; (next = l->next) != NULL; l = next) {
		if (wspx__deque_push(&w->deque, wspx_container_of(l,
		    struct wspx_job, link), &e) != 0) {
			l = giveback(w->pool, l);
			break;
		}
		if (pushed++ == 0)
			was_empty = e;
	}
	wspx__bump(&w->injected, pushed + 1);
	if (pushed > 0)
		wspx__sleep_new_internal_jobs(&w->pool->sleep, pushed,
		    was_empty);
	return wspx_container_of(l, struct wspx_job, link);
}

/* The next job for w: own deque, a steal, the injection stack.  Empty
 * deques are recognized by a look without a fence, which keeps the idle
 * rounds cheap; a look that misses a job just pushed costs a round at
 * most, as a deque job always has an awake owner (sleep.c, case c). */
static struct wspx_job *
findwork(struct wspx_worker *w)
{
	struct wspx_job *job;

	if (wspx__deque_len(&w->deque) > 0 &&
	    (job = wspx__deque_pop(&w->deque)) != NULL)
		return job;
	if ((job = steal(w)) != NULL)
		return job;
	return takeinjected(w);
}

void
wspx__pool_execute(struct wspx_worker *w, struct wspx_job *job)
{
	struct wspx_scope *scope = job->scope;

	/* Read scope first: the job may be freed by its own body. */
	job->run(w, job);
	wspx__bump(&w->executed, 1);
	if (scope != NULL)
		wspx__forkjoin_scope_done(scope);
}

/* Whether jobs are queued on w's deque or another's, as seen by plain
 * loads: whether leaving the idle set should wake a sleeper for them. */
static bool
dequework(struct wspx_worker *w)
{
	struct wspx_pool *p = w->pool;
	unsigned i;

	for (i = 0; i <= p->nworkers; i++)
		if (wspx__deque_len(&p->workers[i].deque) > 0)
			return true;
	return false;
}

/* One idle period: search, yield and sleep until a job turns up (run it and
 * return true) or latch is set (return false). */
static bool
lookforwork(struct wspx_worker *w, _Atomic(int) *latch)
{
	struct wspx_pool *p = w->pool;
	struct wspx__idle idle;
	struct wspx_job *job;

	wspx__sleep_start_looking(&p->sleep, &idle, w->index);
	while (!wspx__sleep_latch_probe(latch)) {
		if ((job = findwork(w)) != NULL) {
			wspx__sleep_work_found(&p->sleep, dequework(w),
			    &p->injected);
			wspx__pool_execute(w, job);
			return true;
		}
		wspx__sleep_no_work_found(&p->sleep, &idle, latch,
		    &p->injected);
	}
	wspx__sleep_work_found(&p->sleep, dequework(w), &p->injected);
	return false;
}

void
wspx__pool_wait_until(struct wspx_worker *w, _Atomic(int) *latch)
{
	struct wspx_job *job;

	while (!wspx__sleep_latch_probe(latch)) {
		/* Own jobs first, without touching the shared counters. */
		if ((job = wspx__deque_pop(&w->deque)) != NULL)
			wspx__pool_execute(w, job);
		else if (!lookforwork(w, latch))
			break;
	}
}

static void *
workermain(void *arg)
{
	struct wspx_worker *w = arg;
	struct wspx_job *job;

	current = w;
	wspx__pool_wait_until(w, &w->terminate);
	/* Shutting down: drain what no awake owner is bound to run. */
	while ((job = findwork(w)) != NULL)
		wspx__pool_execute(w, job);
	return NULL;
}

void
wspx__pool_wait_external(struct wspx_pool *p, _Atomic(int) *latch)
{
	WSPX_MUST(pthread_mutex_lock(&p->extlock));
	while (!wspx__sleep_latch_probe(latch))
		WSPX_MUST(pthread_cond_wait(&p->extcond, &p->extlock));
	WSPX_MUST(pthread_mutex_unlock(&p->extlock));
}

void
wspx__pool_set_external(struct wspx_pool *p, _Atomic(int) *latch)
{
	WSPX_MUST(pthread_mutex_lock(&p->extlock));
	/* release: pairs with the acquire probe in wait_external; the lock
	 * makes the waiter's check and wait atomic with respect to this. */
	atomic_store_explicit(latch, WSPX__LATCH_SET, memory_order_release);
	WSPX_MUST(pthread_cond_broadcast(&p->extcond));
	WSPX_MUST(pthread_mutex_unlock(&p->extlock));
}

static unsigned
onlinecpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > (long)WSPX__MAX_SLOTS - 1 ?
	    WSPX__MAX_SLOTS - 1 : (unsigned)n;
}

static int
initworkers(struct wspx_pool *p)
{
	struct wspx_worker *w;
	int rc;

	for (; p->ndeques <= p->nworkers; p->ndeques++) {
		w = &p->workers[p->ndeques];
		if ((rc = wspx__deque_init(&w->deque, DEQUE_CAPACITY)) != 0)
			return rc;
		w->pool = p;
		w->index = p->ndeques;
		w->rng = 0x9E3779B97F4A7C15ULL * (w->index + 1);
		atomic_init(&w->terminate, WSPX__LATCH_UNSET);
		atomic_init(&w->executed, 0);
		atomic_init(&w->stolen, 0);
		atomic_init(&w->injected, 0);
	}
	return 0;
}

/* Set the terminate latch of the first n threads and join them. */
static void
stopthreads(struct wspx_pool *p, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		wspx__sleep_latch_set(&p->sleep, &p->workers[i].terminate, i);
	for (i = 0; i < n; i++)
		WSPX_MUST(pthread_join(p->workers[i].thread, NULL));
}

static int
startthreads(struct wspx_pool *p)
{
	int rc;

	for (p->started = 0; p->started < p->nworkers; p->started++) {
		rc = wspx__thread_start(&p->workers[p->started].thread, 0,
		    workermain, &p->workers[p->started]);
		if (rc != 0) {
			stopthreads(p, p->started);
			return rc;
		}
	}
	return 0;
}

static struct wspx_pool *
allocpool(unsigned nworkers)
{
	struct wspx_pool *p;
	size_t size = (nworkers + 1) * sizeof(p->workers[0]);

	if ((p = aligned_alloc(WSPX_CACHELINE, sizeof(*p))) == NULL)
		return NULL;
	memset(p, 0, sizeof(*p));
	if ((p->workers = aligned_alloc(WSPX_CACHELINE, size)) == NULL) {
		free(p);
		return NULL;
	}
	memset(p->workers, 0, size);
	p->nworkers = nworkers;
	wspx__stack_init(&p->injected);
	atomic_init(&p->gate, 0);
	WSPX_MUST(pthread_mutex_init(&p->mainlock, NULL));
	WSPX_MUST(pthread_mutex_init(&p->extlock, NULL));
	WSPX_MUST(pthread_cond_init(&p->extcond, NULL));
	return p;
}

/* Free what allocpool() and the initialization after it set up; no thread
 * of the pool is running. */
static void
freepool(struct wspx_pool *p)
{
	unsigned i;

	WSPX_MUST(pthread_cond_destroy(&p->extcond));
	WSPX_MUST(pthread_mutex_destroy(&p->extlock));
	WSPX_MUST(pthread_mutex_destroy(&p->mainlock));
	for (i = 0; i < p->ndeques; i++)
		wspx__deque_fini(&p->workers[i].deque);
	if (p->sleep.sleepers != NULL)
		wspx__sleep_fini(&p->sleep);
	free(p->workers);
	free(p);
}

int
wspx_pool_new(struct wspx_pool **out, const struct wspx_pool_opts *opts)
{
	struct wspx_pool *p;
	unsigned n;
	int rc;

	n = opts != NULL && opts->workers > 0 ? opts->workers : onlinecpus();
	if (n >= WSPX__MAX_SLOTS)
		return -EINVAL;
	if ((p = allocpool(n)) == NULL)
		return -ENOMEM;
	if ((rc = wspx__sleep_init(&p->sleep, n + 1)) != 0)
		goto fail;
	if ((rc = initworkers(p)) != 0)
		goto fail;
	if ((rc = startthreads(p)) != 0)
		goto fail;
	*out = p;
	return 0;
fail:
	freepool(p);
	return rc;
}

/* Enter the injection gate; false once shutdown has closed it. */
static bool
gateenter(struct wspx_pool *p)
{
	/* relaxed: read-modify-writes of one word are totally ordered, so
	 * either closegate() sees us in flight or we see it closed. */
	if ((atomic_fetch_add_explicit(&p->gate, 2, memory_order_relaxed) &
	    1) == 0)
		return true;
	atomic_fetch_sub_explicit(&p->gate, 2, memory_order_relaxed);
	return false;
}

static void
gateleave(struct wspx_pool *p)
{
	/* release: our push comes before we leave; pairs with the acquire
	 * load in closegate(), after which the threads drain the stack. */
	atomic_fetch_sub_explicit(&p->gate, 2, memory_order_release);
}

/* Close the gate and wait for injectors in flight to leave it. */
static void
closegate(struct wspx_pool *p)
{
	/* relaxed: see gateenter(). */
	atomic_fetch_or_explicit(&p->gate, 1, memory_order_relaxed);
	/* acquire: pairs with the release in gateleave(). */
	while (atomic_load_explicit(&p->gate, memory_order_acquire) != 1)
		sched_yield();
}

int
wspx__pool_inject_list(struct wspx_pool *p, struct wspx_job *first,
    struct wspx_job *last, size_t n)
{
	bool was_empty;

	if (!gateenter(p))
		return -ESHUTDOWN;
	wspx__stack_push(&p->injected, &first->link, &last->link, &was_empty);
	wspx__sleep_new_injected_jobs(&p->sleep,
	    n > UINT_MAX ? UINT_MAX : (unsigned)n, was_empty);
	gateleave(p);
	return 0;
}

int
wspx_pool_inject(struct wspx_pool *p, struct wspx_job *job)
{
	job->scope = NULL;
	return wspx__pool_inject_list(p, job, job, 1);
}

int
wspx_pool_inject_n(struct wspx_pool *p, struct wspx_job **jobs, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	/* The list runs newest to oldest, and jobs[0] is the oldest. */
	for (i = 0; i < n; i++) {
		jobs[i]->scope = NULL;
		if (i > 0)
			jobs[i]->link.next = &jobs[i - 1]->link;
	}
	return wspx__pool_inject_list(p, jobs[n - 1], jobs[0], n);
}

void
wspx_pool_shutdown(struct wspx_pool *p)
{
	if (current != NULL && current->pool == p)
		abort();	/* a job would join its own thread */
	WSPX_MUST(pthread_mutex_lock(&p->mainlock));
	if (!p->down) {
		closegate(p);
		stopthreads(p, p->nworkers);
		p->down = true;
	}
	WSPX_MUST(pthread_mutex_unlock(&p->mainlock));
}

void
wspx_pool_free(struct wspx_pool *p)
{
	if (p == NULL)
		return;
	wspx_pool_shutdown(p);
	freepool(p);
}

/* A wspx_pool_call() whose caller found the main slot taken. */
struct calljob {
	struct wspx_job job;
	wspx_fn *fn;
	void *arg;
	_Atomic(int) latch;
};

static void
runcall(struct wspx_worker *w, struct wspx_job *job)
{
	struct calljob *c = wspx_container_of(job, struct calljob, job);
	struct wspx_pool *p = w->pool;

	c->fn(w, c->arg);
	wspx__pool_set_external(p, &c->latch);
}

/* Run fn in the main slot, whose lock the caller holds.  Before leaving
 * the slot, run what fn left on its deque (jobs spawned for a scope that
 * another thread waits for): the sleep protocol counts on every queued
 * deque job having an awake owner (sleep.c, case c). */
static int
callmain(struct wspx_pool *p, wspx_fn *fn, void *arg)
{
	struct wspx_worker *saved = current;
	struct wspx_job *job;
	int rc = -ESHUTDOWN;

	if (!p->down) {
		current = &p->workers[p->nworkers];
		fn(current, arg);
		while ((job = wspx__deque_pop(&current->deque)) != NULL)
			wspx__pool_execute(current, job);
		current = saved;
		rc = 0;
	}
	WSPX_MUST(pthread_mutex_unlock(&p->mainlock));
	return rc;
}

int
wspx_pool_call(struct wspx_pool *p, wspx_fn *fn, void *arg)
{
	struct calljob c;
	int rc;

	if (current != NULL && current->pool == p)
		return -EDEADLK;
	if ((rc = pthread_mutex_trylock(&p->mainlock)) == 0)
		return callmain(p, fn, arg);
	if (rc != EBUSY)
		abort();
	c.job.run = runcall;
	c.fn = fn;
	c.arg = arg;
	atomic_init(&c.latch, WSPX__LATCH_UNSET);
	if ((rc = wspx_pool_inject(p, &c.job)) != 0)
		return rc;
	wspx__pool_wait_external(p, &c.latch);
	return 0;
}

struct wspx_pool *
wspx_worker_pool(const struct wspx_worker *w)
{
	return w->pool;
}

unsigned
wspx_worker_index(const struct wspx_worker *w)
{
	return w->index;
}

void
wspx_pool_stats(struct wspx_pool *p, struct wspx_pool_stats *out)
{
	struct wspx_worker *w;
	struct wspx__sleeper *z;
	uint64_t c;
	unsigned i;

	memset(out, 0, sizeof(*out));
	/* relaxed throughout: each counter is read on its own. */
	for (i = 0; i <= p->nworkers; i++) {
		w = &p->workers[i];
		z = &p->sleep.sleepers[i];
		out->executed += atomic_load_explicit(&w->executed,
		    memory_order_relaxed);
		out->stolen += atomic_load_explicit(&w->stolen,
		    memory_order_relaxed);
		out->injected += atomic_load_explicit(&w->injected,
		    memory_order_relaxed);
		out->sleeps += atomic_load_explicit(&z->sleeps,
		    memory_order_relaxed);
		out->wakes += atomic_load_explicit(&z->wakes,
		    memory_order_relaxed);
	}
	c = atomic_load_explicit(&p->sleep.counters, memory_order_relaxed);
	out->workers = p->nworkers;
	out->sleeping = wspx__sleeping(c);
	out->idle = wspx__inactive(c) - out->sleeping;
}
