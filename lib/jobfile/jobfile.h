/*
 * A job file (wspx(5)) read and checked: its jobs, each matrix leg a job
 * of its own, with every setting resolved (the job's, else the
 * defaults'), its needs as indices, and its `if` as a truth table.  The
 * YAML tree (base/yamldoc.h) stays alive with it, for the places of values and
 * for the builtins' `with`.  Every error found goes to a wspx__diag with
 * its line and column; nothing stops at the first.
 */
#ifndef WSPX_JOBFILE_H
#define WSPX_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/yamldoc.h"

/* Most legs a matrix may expand to. */
#define WSPX__MATRIX_MAX 4096u
/* Most jobs a file may hold, legs counted (aliases can make a small
 * file expand to many: 29 KB of them, to 10 million). */
#define WSPX__JOBS_MAX 1000000u
/* The expanded weight a file may have beyond twice its length in bytes
 * (see jobsize.c). */
#define WSPX__SIZE_BASE 262144u

/* The inputs of an `if`: F, a job it needs, or one they need, failed;
 * C, the run was cancelled (stopped or halted); K, a job it needs did
 * not succeed (failed, or was skipped or cancelled).  ifmask has bit
 * (F | C << 1 | K << 2) set when the job runs with those inputs. */
#define WSPX__IF_RUNS(mask, f, c, k) (((mask) >> ((unsigned)(f) | \
	(unsigned)(c) << 1 | (unsigned)(k) << 2)) & 1u)
#define WSPX__IF_SUCCESS 0x01u	/* none of them */
#define WSPX__IF_FAILURE 0xaau	/* F */
#define WSPX__IF_CANCELLED 0xccu /* C */
#define WSPX__IF_ALWAYS 0xffu

/* A NAME=value pair of an environment. */
struct wspx__jfenv {
	const char *name;
	const struct wspx__ynode *value;	/* a scalar; ${{ }} unexpanded */
};

/* A job, or one leg of a matrix job. */
struct wspx__jfjob {
	char *name;		/* its key, and for a leg the leg's values:
				 * "test[opt=O0,san=asan]" */
	const struct wspx__ynode *key;	/* its key in jobs:, for places */
	const struct wspx__ynode *run;	/* the shell command: a scalar, or a
					 * sequence of them (run in turn in
					 * one shell); or NULL */
	const char *builtin;		/* or a builtin's name */
	const struct wspx__ynode *with;	/* its with:, or NULL */
	size_t *needs;			/* the jobs it needs, indices */
	size_t nneeds;
	struct wspx__jfenv *env;	/* the file's env, then the
					 * defaults', then the job's (a later
					 * one wins) */
	size_t nenv;
	const struct wspx__ynode *dir;	/* its dir (or the defaults'), or
					 * NULL */
	const char *shell;		/* its shell, or NULL: /bin/sh */
	const struct wspx__ynode *shellnode;	/* its shell: (or the
						 * defaults'), or NULL */
	double timeout;			/* seconds; 0: none; < 0: the run's */
	int retries;			/* -1: the run's */
	int pool;			/* index in pools, or -1 */
	unsigned ifmask;		/* see WSPX__IF_RUNS */
	const struct wspx__ynode *ifnode;	/* its if:, or NULL */
	bool ifalways;			/* it may run whatever happened
					 * (its if calls always() or
					 * cancelled()) */
	bool continue_on_error;
	const char *desc;		/* its desc: (for wspx list), or
					 * NULL */
	const struct wspx__ynode *on;	/* the host it runs on: a spec of
					 * hosts: (without N/), or NULL */
	const char **mkeys;		/* a leg's matrix keys and values */
	const char **mvals;
	size_t nmatrix;
	const struct wspx__ynode *sources;	/* a sequence (or scalar) of
						 * patterns, or NULL */
	const struct wspx__ynode *generates;
	const struct wspx__ynode *outputs;	/* the names of its outputs
						 * it declares (a list), or
						 * NULL: any */
	bool outputs_used;		/* a job reads its outputs: it runs even
					 * when up to date, to make them */
};

/* A pool of the file: at most depth of its jobs run at once. */
struct wspx__jfpool {
	const char *name;
	unsigned depth;
};

struct wspx__jobfile {
	struct wspx__yamldoc doc;
	struct wspx__jfjob *jobs;
	size_t njobs;
	struct wspx__jfpool *pools;
	size_t npools;
	const struct wspx__ynode *hosts; /* hosts:, a sequence of scalars
					 * ([N/]SPEC, as -S), or NULL */
	bool slurm;			/* executor: slurm */
	struct wspx__arena mem;	/* the strings and arrays of jobs; _fini's */
};

/* Read and check the job file in f.  Returns 0 with jf filled, -EINVAL
 * with every error found in d, -ENOMEM or -EIO.  jf must be finished
 * with _fini either way. */
int wspx__jobfile_read(struct wspx__jobfile *jf, FILE *f,
    struct wspx__diag *d);

void wspx__jobfile_fini(struct wspx__jobfile *jf);

/* Find the jobs that name (a job, or "job[k=v,...]") picks, a job's
 * legs for a matrix job; calls found(ctx, index) for each.  Returns how
 * many, or -1 if the name is malformed or a leg selector names a key the
 * matrix lacks. */
long wspx__jobfile_find(const struct wspx__jobfile *jf, const char *name,
    void (*found)(void *ctx, size_t i), void *ctx);

/* One ${{ expression }} of a string, as _next finds it. */
struct wspx__jfexpr {
	size_t start, end;	/* of the whole ${{ ... }} in the string */
	bool matrix;		/* matrix.KEY; else needs.JOB.outputs.KEY */
	const char *job;	/* JOB, and its length */
	size_t joblen;
	const char *key;	/* KEY, and its length */
	size_t keylen;
};

/* Find the next expression in s[*pos..n): returns 1 with e filled and
 * *pos past it, 0 if there is none, or -1 for one that is malformed or
 * not supported (*pos at its start, e->start and e->end its extent). */
int wspx__jobfile_next(const char *s, size_t n, size_t *pos,
    struct wspx__jfexpr *e);

#endif /* WSPX_JOBFILE_H */
