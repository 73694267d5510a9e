/*
 * Running the jobs of the configuration the options produce: the reader
 * of the input (or a job file's front end, through struct jobsource), the
 * executor's callbacks, the reports and the signals.
 */
#ifndef WSPX_RUN_H
#define WSPX_RUN_H

#include <stdbool.h>

#include "exec/exec.h"
#include "input/template.h"
#include "options/config.h"
#include "remote/remote.h"

struct pipejob;
struct stats;
struct wspx_pool;

/* A job of the run: its arguments, and what prepare made for it. */
struct cmdjob {
	struct wspx__execjob ej;
	struct args args;
	struct pipejob *pj;	/* --pipe: its block and stdin, or NULL */
	char *tag;		/* the tag, or NULL */
	char *cmdtext;		/* the command, for error messages */
	char *program;		/* what it runs (its argv[0]: the program,
				 * a shell, ssh), for them; or NULL */
	const char *name;	/* a job file's job: its name; else NULL */
	const char **needs;	/* and the names of the jobs it needs */
	size_t nneeds;
	unsigned worker;	/* a builtin: the pool worker (1 on) it ran
				 * on; else 0 */
	bool nobash;		/* its exported function has no bash */
	char *outfile;		/* --files: its stdout's file, till it ends */
	const char *on;		/* the host it must run on, or NULL */
	struct remotejob rj;	/* where its attempt runs (-S, --slurm) */
};

/* What a front end other than the input's gives the run: its jobs. */
struct jobsource {
	/* What the run made for the jobs: the executor, the output, the
	 * pool, the counters. */
	struct wspx__exec *x;
	struct wspx__output *out;
	struct wspx_pool *pool;
	struct stats *stats;
	/* Submit every job and return when all have finished. */
	void (*run)(void *ctx, const struct jobsource *src);
	/* Build a job's command, as the executor's prepare. */
	int (*prepare)(void *ctx, struct cmdjob *j, unsigned slot,
	    struct wspx__cmd *cmd);
	/* An attempt of the job ran: the executor's ran (see exec.h), or
	 * NULL. */
	bool (*ran)(void *ctx, struct cmdjob *j, struct wspx__outjob *oj);
	/* The job is over and counted: it is the front end's again. */
	void (*finished)(void *ctx, struct cmdjob *j);
	/* The run is over (also when a signal stopped it), the output
	 * flushed: the last line, and clean up.  stopped says what stopped
	 * it early ("interrupted by SIGINT", "halted by --halt ..."), or is
	 * NULL; elapsed is its wall time, seconds. */
	void (*end)(void *ctx, const char *stopped, double elapsed);
	void *ctx;
	unsigned workers;	/* for the work-stealing pool; 0: a CPU each */
	bool jobtimeouts;	/* a job may have a time limit of its own
				 * (the watchdog's thread then runs) */
};

/* Run everything; returns the exit status (or does not return, when wspx
 * re-raises the signal that stopped it). */
int run(struct config *c);

#endif /* WSPX_RUN_H */
