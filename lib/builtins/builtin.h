/*
 * Builtins: jobs of a job file that run in the process, on the
 * work-stealing pool, instead of as a shell command (`builtin: copy`, with
 * its arguments under `with:`).  They never hold a worker for long: what
 * waits for a time or an event (sleep, wait-for) is a tick of the timer, a
 * job injected when its deadline passes, and the work of sha256 is forked
 * over the pool.  File operations are relative to the job's directory fd
 * and open everything close-on-exec.  The builtins are noop, echo, sleep,
 * mkdir, touch, write, copy, remove, sha256 and wait-for; wspx(5) gives
 * their keys.
 */
#ifndef WSPX_BUILTIN_H
#define WSPX_BUILTIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/timer.h"
#include "wspx.h"

struct wspx__diag;
struct wspx__ynode;

/* One key of `with:` and its value(s), after the graph substituted the
 * ${{ }} expressions in them. */
struct wspx__barg {
	const char *key;
	char **v;		/* the values: one for a string */
	size_t n;
	bool list;		/* written as a YAML sequence */
};

/* A call of a builtin, embedded in the caller's job.  The fields up to
 * prefix are set by the caller before wspx__builtin_run(); the rest are
 * the builtin's. */
struct wspx__bcall {
	const char *name;		/* which builtin */
	const struct wspx__barg *args;	/* borrowed until done */
	size_t nargs;
	int dirfd;			/* relative paths resolve against it
					 * (AT_FDCWD or a directory) */
	struct wspx__timer *timer;	/* for sleep and wait-for */
	const _Atomic(bool) *stopping;	/* true once the run is stopping:
					 * a sleep or wait-for ends with
					 * -ECANCELED at its next tick, at
					 * once if the caller then calls
					 * wspx__timer_fire_all (and again
					 * while stopping); NULL: never */
	/* The job's output: stream 1 stdout, 2 stderr.  Called by one
	 * thread at a time for a call. */
	void (*write)(struct wspx__bcall *c, int stream, const char *p,
	    size_t n);
	/* Called exactly once, on a worker of the pool, when the builtin is
	 * over; c is the caller's again (it may free it). */
	void (*done)(struct wspx_worker *w, struct wspx__bcall *c);
	const char *prefix;		/* put before the builtin's messages
					 * (the program's name and ": "), or
					 * NULL */
	int status;			/* set before done: 0 success, 1
					 * failure (a message was written to
					 * stream 2), or -ECANCELED */

	/* The builtin's own state, from here on. */
	struct wspx_job job;		/* a tick: what the timer injects */
	struct wspx__timeout timeout;	/* the tick's deadline */
	int64_t deadline;		/* sleep's end; wait-for's give-up
					 * time (monotonic ns) */
	const char *what;		/* wait-for: the path, or the port as
					 * written */
	const char *within;		/* wait-for: the timeout as written */
	int port;			/* wait-for: the port, or 0: a path */
	int fd;				/* wait-for: a connect under way, or
					 * -1 */
};

/* Whether name is a builtin. */
bool wspx__builtin_exists(const char *name);

/* The builtins' names, in alphabetical order, and how many in *n (for
 * "did you mean" hints).  The array is static. */
const char *const *wspx__builtin_names(size_t *n);

/* Check the `with:` of builtin name, as the job file has it (a mapping
 * node, or NULL when there is none), adding every error to d with its
 * place: unknown keys (with the nearest valid one), values of the wrong
 * kind, bad durations, ports and booleans (a value holding a ${{ }}
 * expression is checked when run), and missing keys, placed at with or,
 * without one, at `at`, the job's `builtin:` value (0:0 if NULL).
 * Nothing for an unknown name. */
void wspx__builtin_check(const char *name, const struct wspx__ynode *with,
    const struct wspx__ynode *at, struct wspx__diag *d);

/* Start c's builtin on worker w.  It ends with c->done(w', c) on a worker
 * w' of the same pool: before this returns, or later from a tick of the
 * timer. */
void wspx__builtin_run(struct wspx_worker *w, struct wspx__bcall *c);

#endif /* WSPX_BUILTIN_H */
