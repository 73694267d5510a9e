/*
 * Between the files of a run only (run.h is its interface): run.c sets up
 * a run, reads its input and ends it; jobcalls.c has the executor's
 * callbacks for its jobs; runopts.c gives each part of the program what
 * it needs of the options.
 */
#ifndef WSPX_RUN_INT_H
#define WSPX_RUN_INT_H

#include <stdbool.h>

#include "confirm.h"
#include "remote/placing.h"
#include "report/report.h"
#include "report/stats.h"
#include "run.h"

struct command_opts;
struct jobargs_opts;
struct pipe_opts;

/* A run: what setup() made, for the reader, the callbacks and the end. */
struct run {
	struct config *c;	/* the options, borrowed */
	struct commands *cmds;	/* the jobs' commands and tags */
	struct wspx__output *out; /* where the jobs' output goes */
	struct wspx__exec *x;	/* the executor */
	struct wspx_pool *pool;	/* the work-stealing pool */
	struct wspx_blocking *bp; /* the blocking pool */
	struct input *in;	/* the input's records, or NULL */
	struct jobargs *ja;	/* the input's records into jobs */
	struct pipejobs *pipes;	/* --pipe, --pipepart: the blocks, or NULL */
	int devnull;		/* the jobs' stdin */
	struct stats stats;	/* the counters (report/stats.c) */
	struct running *running; /* the running jobs, for SIGUSR1 */
	struct status *status;	/* status line or --progress, or NULL */
	struct resume *resume;	/* --resume and its kin, or NULL */
	uint64_t retried;	/* --retry-failed: the jobs taken so far */
	struct reports rep;	/* reports of each job, and at the end */
	struct wspx__results *results; /* --results, or NULL */
	struct wspx__jobserver *jobserver; /* make's, or --jobserver's */
	struct gates_load *load; /* --load FILE, or NULL */
	bool halted;		/* the halt policy was met */
	struct signals *signals; /* the signal thread */
	struct placing placing;	/* where jobs run: -S, --slurm, here */
	char *zip, *unzip;	/* --compress's filters, or NULL */
	struct confirm confirm;	/* -p's questions */
	_Atomic(int) lastexit;	/* --semaphore: the $? of its one job */
};

/* The executor's callbacks for the run's jobs; their ctx is the run. */
extern const struct wspx__exec_ops jobcalls;

/* What the jobs' commands are made of (c's strings borrowed). */
void runopts_command(const struct config *c, struct command_opts *o);

/* What the reports are asked for. */
void runopts_report(const struct config *c, struct report_opts *o);

/* Whether the run shows a status line: on a terminal, unless told not
 * to, or the input is read from one (the line would be drawn over what
 * the user types). */
bool runopts_statusline(const struct config *c);

/* Whether the run reads its input from a terminal: a source is standard
 * input, and it is one. */
bool runopts_terminalinput(const struct config *c);

/* --pipe's and --pipepart's input and blocks. */
void runopts_pipe(const struct config *c, struct pipe_opts *o);

/* Where the jobs run. */
void runopts_placing(const struct config *c, struct placing_opts *o);

/* The shell commands that compress and decompress the output that
 * waits in files (--compress and its kin), allocated, or NULL. */
void runopts_compress(const struct config *c, char **zip, char **unzip);

/* How the input's records make jobs; o->cm is the caller's to set. */
void runopts_jobargs(const struct config *c, struct jobargs_opts *o);

#endif /* WSPX_RUN_INT_H */
