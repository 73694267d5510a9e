/*
 * libwspx: a work-stealing thread pool for in-process jobs and a blocking
 * pool for jobs that wait (on a child process, a pipe, a disk), with
 * counters that can be read at any time without stopping either.
 * See libwspx(3).
 */
#ifndef WSPX_H
#define WSPX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WSPX_VERSION "0.1.0"

/* The struct of type `type` whose member `member` is at `ptr`. */
#define wspx_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Text for an error code returned by this library (a negative errno value).
 * Never NULL; the string is static. */
const char *wspx_strerror(int code);

/*
 * The work-stealing pool.
 */
struct wspx_pool;
struct wspx_worker;
struct wspx_job;
struct wspx_scope;

/* A fork-join branch or a pool call: runs on worker w with its argument. */
typedef void wspx_fn(struct wspx_worker *w, void *arg);

/* A queued job's body: runs once, on worker w.  The job belongs to the
 * caller again as soon as this is called, and may be freed inside it. */
typedef void wspx_job_fn(struct wspx_worker *w, struct wspx_job *job);

/* The intrusive link of the pool's injection queue. */
struct wspx_stack_link {
	struct wspx_stack_link *next;	/* next older node, or NULL */
};

/* A job for wspx_pool_inject() or wspx_scope_spawn(), embedded by the
 * caller in its own struct (recover it with wspx_container_of). */
struct wspx_job {
	wspx_job_fn *run;		/* set by the caller before queueing */
	struct wspx_scope *scope;	/* the pool's: set by wspx_scope_spawn */
	struct wspx_stack_link link;	/* the pool's while queued */
};

struct wspx_pool_opts {
	unsigned workers;	/* worker threads; 0: one per online CPU */
};

/* Start a pool; opts may be NULL for the defaults.  Returns 0 and sets
 * *pool, or -EINVAL (more than 65534 workers), -ENOMEM or -EAGAIN (a thread
 * could not be created; none is left running). */
int wspx_pool_new(struct wspx_pool **pool, const struct wspx_pool_opts *opts);

/* Refuse further injections, run every job accepted so far (and whatever
 * they fork), then stop and join the workers.  A wspx_pool_call() running
 * on the main slot finishes first, and injections go on being accepted
 * until it has.  Calling it again does nothing.  Calling it from a job of
 * this pool, or from a function running on its main slot, aborts. */
void wspx_pool_shutdown(struct wspx_pool *pool);

/* Shut the pool down if needed and free it.  No other thread may use the
 * pool once this has begun.  wspx_pool_free(NULL) does nothing. */
void wspx_pool_free(struct wspx_pool *pool);

/* Queue job from any thread, a job of the pool included: one CAS on the
 * injection stack, then wake a sleeping worker if the work needs one.
 * Returns 0, or -ESHUTDOWN once wspx_pool_shutdown() has closed injection,
 * in which case the job was not queued and is still the caller's.  The
 * worker that takes injected jobs runs the oldest and queues the others on
 * its own deque, so an injected job must not block waiting for another
 * one: wait for a set of jobs with a scope. */
int wspx_pool_inject(struct wspx_pool *pool, struct wspx_job *job);

/* Queue n jobs with one CAS, jobs[0] first in line.  Any thread.  Returns 0
 * or -ESHUTDOWN (none queued); n == 0 does nothing and returns 0. */
int wspx_pool_inject_n(struct wspx_pool *pool, struct wspx_job **jobs,
    size_t n);

/* Run fn(w, arg) in the pool and return when it has returned.  If the main
 * worker slot is free the calling thread takes it and runs fn itself, as a
 * worker whose forks the others can steal, and before leaving the slot runs
 * any job fn left on its deque; otherwise fn is injected and the caller
 * blocks.  Returns 0, -ESHUTDOWN, or -EDEADLK if called from a worker of
 * this pool (call fn directly there). */
int wspx_pool_call(struct wspx_pool *pool, wspx_fn *fn, void *arg);

/* Run a(w, a_arg) and b(w, b_arg), possibly in parallel, and return when
 * both have returned.  w is the worker the caller runs on.  b is offered to
 * thieves while a runs on this thread; if nobody took it, it runs here next,
 * otherwise this thread runs other jobs until it has finished.  A job may
 * block outside the pool (I/O, a lock), but must not wait there for work it
 * queued on its own deque: wait for that with wspx_join or a scope. */
void wspx_join(struct wspx_worker *w, wspx_fn *a, void *a_arg, wspx_fn *b,
    void *b_arg);

/* The pool w belongs to. */
struct wspx_pool *wspx_worker_pool(const struct wspx_worker *w);

/* w's index: 0 .. workers-1 for the pool's threads, `workers` for the main
 * slot that wspx_pool_call() lends to an outside thread. */
unsigned wspx_worker_index(const struct wspx_worker *w);

/* A set of jobs to wait for, embedded by the caller (on its stack, say).
 * Fields are the pool's; initialize with wspx_scope_init(). */
struct wspx_scope {
	_Atomic(long) pending;		/* unfinished jobs, +1 until wait */
	_Atomic(int) latch;		/* set when pending reaches 0 */
	struct wspx_pool *pool;		/* where the jobs run */
	struct wspx_worker *owner;	/* the waiting worker, or NULL */
};

/* Prepare s for jobs in pool.  owner is the worker that will call
 * wspx_scope_wait() (it runs jobs while it waits), or NULL if a thread
 * outside the pool will (it blocks). */
void wspx_scope_init(struct wspx_scope *s, struct wspx_pool *pool,
    struct wspx_worker *owner);

/* Add job to s and queue it.  w is the calling worker (the job goes on its
 * deque, where others can steal it) or NULL outside the pool (the job is
 * injected).  Any job of s may spawn more into s.  Returns 0, or
 * -ESHUTDOWN when injected after wspx_pool_shutdown() began. */
int wspx_scope_spawn(struct wspx_scope *s, struct wspx_worker *w,
    struct wspx_job *job);

/* Wait until every job spawned into s has returned; call it exactly once,
 * from the owner given to wspx_scope_init(). */
void wspx_scope_wait(struct wspx_scope *s);

/* The pool's counters, summed over the worker threads and the main slot.
 * A fork counts as one job: the half of wspx_join() offered to thieves. */
struct wspx_pool_stats {
	uint64_t executed;	/* jobs run: queued ones and join halves */
	uint64_t stolen;	/* jobs taken from another worker's deque */
	uint64_t injected;	/* jobs taken from the injection queue */
	uint64_t sleeps;	/* times a worker blocked on its condvar */
	uint64_t wakes;		/* times a blocked worker was woken */
	unsigned workers;	/* worker threads (the main slot not included) */
	unsigned idle;		/* slots looking for work right now, awake */
	unsigned sleeping;	/* slots blocked right now */
};

/* Read the counters without stopping or locking anything; any thread, any
 * time.  A job is counted just after it returns.  They are statistics:
 * reading them orders nothing, so a caller that wants to touch what a job
 * wrote synchronizes with the job itself.  idle + sleeping is at most
 * workers + 1. */
void wspx_pool_stats(struct wspx_pool *pool, struct wspx_pool_stats *out);

/*
 * The blocking pool.
 */
struct wspx_blocking;
struct wspx_blocking_group;
struct wspx_task;

/* A blocking task's body.  status is 0 when it runs, or -ECANCELED when the
 * pool shut down before it started (a task that was not mandatory): release
 * it then.  The task belongs to the caller again once this is called. */
typedef void wspx_task_fn(struct wspx_task *task, int status);

/* A task embedded by the caller (recover it with wspx_container_of). */
struct wspx_task {
	wspx_task_fn *run;		/* set by the caller */
	bool mandatory;			/* still run at shutdown */
	struct wspx_task *next;		/* the pool's while queued */
	struct wspx_blocking_group *group; /* the pool's: set by submit */
};

struct wspx_blocking_opts {
	unsigned thread_cap;	/* most threads at once; 0: 512 */
	uint64_t keep_alive_ns;	/* an idle thread exits after this; 0: 10 s */
	size_t stack_size;	/* per thread; 0: the system's default */
};

/* Create a blocking pool with no threads yet; opts may be NULL.  Returns 0
 * and sets *bp, -EINVAL if stack_size is below the system's minimum, or
 * -ENOMEM. */
int wspx_blocking_new(struct wspx_blocking **bp,
    const struct wspx_blocking_opts *opts);

/* Queue task; any thread.  Wakes an idle thread, or starts one if none is
 * idle and the cap allows; if that fails while other threads exist, the
 * task waits for one of them.  Returns 0; -ESHUTDOWN after shutdown began;
 * or, when no thread exists to run it, the error creating one (-EAGAIN,
 * -ENOMEM).  On an error the task was not queued and is still the
 * caller's. */
int wspx_blocking_submit(struct wspx_blocking *bp, struct wspx_task *task);

/* Queue tasks[0..n), tasks[0] first, with one lock, and wake or start
 * threads for them as wspx_blocking_submit() does.  Any thread.  Returns as
 * wspx_blocking_submit() does; on an error none was queued. */
int wspx_blocking_submit_n(struct wspx_blocking *bp, struct wspx_task **tasks,
    size_t n);

/* Stop: queued tasks that are not mandatory get status -ECANCELED, the
 * mandatory ones and those running are finished, every thread is joined.
 * Calling it again waits for the first call to finish.  Must not be called
 * from a task of this pool. */
void wspx_blocking_shutdown(struct wspx_blocking *bp);

/* Shut down if needed and free.  wspx_blocking_free(NULL) does nothing. */
void wspx_blocking_free(struct wspx_blocking *bp);

/* A wait group: a set of tasks of one blocking pool to wait for, which its
 * own tasks may grow.  Create it empty for the tasks of bp, which must be
 * freed after it.  Returns 0 and sets *g, or -ENOMEM. */
int wspx_blocking_group_new(struct wspx_blocking_group **g,
    struct wspx_blocking *bp);

/* Queue task as wspx_blocking_submit() does, and count it in g until its
 * function has returned, also when it is cancelled at shutdown.  Any
 * thread, tasks of g included.  Returns as wspx_blocking_submit() does; on
 * an error the task is neither queued nor counted. */
int wspx_blocking_group_submit(struct wspx_blocking_group *g,
    struct wspx_task *task);

/* Block until every task submitted in g has returned from its function,
 * then return; what they did is visible to the caller.  Any thread, any
 * number at once, but not a task of g (it would wait for itself).  g may
 * be used again afterwards. */
void wspx_blocking_group_wait(struct wspx_blocking_group *g);

/* Wait for g as wspx_blocking_group_wait() does, then free it.  Once this
 * has begun only the tasks of g may use it, to submit into it.  Not from a
 * task of g.  wspx_blocking_group_free(NULL) does nothing. */
void wspx_blocking_group_free(struct wspx_blocking_group *g);

/* The blocking pool's counters, read without its lock. */
struct wspx_blocking_stats {
	unsigned threads;	/* threads alive */
	unsigned idle;		/* threads waiting for a task */
	unsigned queued;	/* tasks waiting for a thread */
	uint64_t executed;	/* tasks run to completion */
	uint64_t spawn_failures; /* thread creations that failed */
};

/* Read the counters; any thread, any time. */
void wspx_blocking_stats(struct wspx_blocking *bp,
    struct wspx_blocking_stats *out);

#endif /* WSPX_H */
