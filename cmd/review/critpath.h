/*
 * The critical path of a job file's run: the chain of needs whose jobs'
 * times add up to the most, ending at the job that ends it.  A job's time
 * is from its first attempt's start to its last's end.  Making a job on
 * it faster is what can make the run shorter; no job off it can.
 */
#ifndef WSPX_CRITPATH_H
#define WSPX_CRITPATH_H

#include <stddef.h>

#include "runlog.h"

/* A job on the path. */
struct critjob {
	const char *name;
	double start, end;
};

/* The path of rl, first job first, malloc'd (NULL, 0 when rl's spans
 * have no needs). */
struct critjob *critpath_find(const struct runlog *rl, size_t *n);

/* The names of path's n jobs, sorted, for critpath_has(); malloc'd. */
const char **critpath_names(const struct critjob *path, size_t n);

/* Whether name is one of names (n, from critpath_names()). */
int critpath_has(const char *const *names, size_t n, const char *name);

#endif /* WSPX_CRITPATH_H */
