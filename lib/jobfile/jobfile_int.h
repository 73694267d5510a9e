/*
 * Between the files of job files only (jobfile.h is their interface): the
 * checks that look across a file's jobs (jobcheck.c), each `needs`
 * resolved to the jobs or legs it names, expressions checked against the
 * job's matrix and needs, the graph searched for cycles; the jobs'
 * weight once expanded (jobsize.c); a job's `if` read (jobcond.c); and
 * the strings of a job that hold expressions (jobexpr.c).
 * jobfile.c calls them as it loads a file.
 */
#ifndef WSPX_JOBFILE_INT_H
#define WSPX_JOBFILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "jobfile.h"
#include "matrix.h"

/* A job as written, before its matrix made legs of it. */
struct wspx__jfproto {
	const struct wspx__ynode *key;		/* its key in jobs: */
	const struct wspx__ynode *needs;	/* or NULL */
	size_t first, nlegs;			/* its legs in jf->jobs */
	struct wspx__leg *legs;			/* its matrix's, or NULL */
};

/* Resolve the needs of every job (protos[0..n)) to indices; errors (a
 * job that is not there, a leg that no leg matches, a job that needs
 * itself) to d.  Returns 0, -EINVAL or -ENOMEM. */
int wspx__jobcheck_needs(struct wspx__jobfile *jf,
    const struct wspx__jfproto *protos, size_t n, struct wspx__diag *d);

/* Check every node of the YAML tree under root against the job file's
 * rules for any YAML: YAML's core tags only, and no NUL in a string;
 * each node once (an alias's copy is not walked again: its anchor was),
 * iteratively.  Returns 0 or -ENOMEM. */
int wspx__jobcheck_yaml(const struct wspx__ynode *root,
    struct wspx__diag *d);

/* fn(arg, s, env) on each string of job j that may hold ${{ }}
 * expressions, a scalar: those of its run, dir, with, sources and
 * generates (env NULL), then each env: value (env its entry). */
typedef void wspx__jfstring_fn(void *arg, const struct wspx__ynode *s,
    const struct wspx__jfenv *env);
void wspx__jobfile_strings(const struct wspx__jfjob *j, wspx__jfstring_fn *fn,
    void *arg);

/* Check the ${{ }} expressions of every job's run, env, dir and with. */
void wspx__jobcheck_exprs(struct wspx__jobfile *jf, struct wspx__diag *d);

/* Weigh the expanded jobs of jf, a file of filesize bytes (see
 * jobsize.c): an error at the job that takes the file past its limit.
 * Returns 0, -EINVAL or -ENOMEM. */
int wspx__jobsize_check(const struct wspx__jobfile *jf, size_t filesize,
    struct wspx__diag *d);

/* Report every cycle of needs, as its path (a -> b -> a), at the first
 * job's key.  Iterative: a chain as deep as the file is long is fine.
 * Returns 0, -EINVAL or -ENOMEM. */
int wspx__jobcheck_cycles(struct wspx__jobfile *jf, struct wspx__diag *d);

/* Check that each job's on: names a host of hosts: (its spec, without
 * N/). */
void wspx__jobcheck_hosts(const struct wspx__jobfile *jf,
    struct wspx__diag *d);

/* Read the `if` v into *mask (see WSPX__IF_RUNS); errors to d.  Returns
 * whether it is good. */
bool wspx__jobfile_cond(const struct wspx__ynode *v, unsigned *mask,
    struct wspx__diag *d);

#endif /* WSPX_JOBFILE_INT_H */
