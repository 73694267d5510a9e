/*
 * Records into jobs (jobargs.c): one record a job, a count of them (-n,
 * -N, -L), or as many as fit in a command line (-m, -X, --xargs, -s).
 */
#ifndef WSPX_JOBARGS_H
#define WSPX_JOBARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "command.h"
#include "input.h"
#include "template.h"

struct jobargs_opts {
	size_t maxrecs;		/* records per job at most; 0: no count */
	bool fit;		/* as many as fit (-m, -X, --xargs) */
	bool spread;		/* -m, -X: spread a short input's records
				 * over the job slots */
	bool exitbig;		/* -x: a record that does not fit is an
				 * error */
	bool noargs;		/* -N 0: records are read, not given */
	unsigned jobs;		/* -j */
	size_t maxchars;	/* -s, or 0: the system's limit */
	const struct commands *cm;	/* measures command lines */
};

struct jobargs;

/* Jobs from the records of in, which stays the caller's.  A -s beyond
 * the system's limit is brought down to it, with a warning. */
struct jobargs *jobargs_new(struct input *in, const struct jobargs_opts *o);

void jobargs_free(struct jobargs *ja);

/* The next job's arguments (a->nrec records; free(a->v) frees them all).
 * Returns 1, or 0 at the end of the input, or after -x's error. */
int jobargs_next(struct jobargs *ja, struct args *a);

/* Make every job now, to know how many there are ({##}); returns it. */
uint64_t jobargs_readall(struct jobargs *ja);

/* Whether jobargs_next() can return without waiting for input. */
bool jobargs_ready(struct jobargs *ja);

/* Whether -x stopped the input (the error was reported). */
bool jobargs_failed(const struct jobargs *ja);

/* --show-limits: the limits a command line has here, to f. */
void jobargs_limits(const struct jobargs *ja, FILE *f);

#endif /* WSPX_JOBARGS_H */
