/*
 * What the jobs of a run tell the user and the report files, job by job
 * and at the end: the -t line, the running table (SIGUSR1), --events
 * lines, --joblog rows, the note of a timeout, the failure summary and,
 * in GitHub Actions, a group around each job's output and an ::error::
 * line per failure; at the end --stats, --metrics and the summary event.
 */
#ifndef WSPX_REPORT_H
#define WSPX_REPORT_H

#include <stdbool.h>

#include "exec/exec.h"
#include "exec/output.h"
#include "stats.h"

/* A job file's progress lines ("[3/7] ok build 0.4s"): none (the
 * stdin mode, a dry run), for the failed jobs only (--quiet, or under
 * the status line of a terminal), or for every job. */
enum progress_mode { PROGRESS_NONE, PROGRESS_FAILED, PROGRESS_ALL };

/* What the reports are asked for, as the options give it. */
struct report_opts {
	bool dryrun;			/* --dry-run: no joblog, no summary */
	bool verbose;			/* -t: each command to stderr */
	enum wspx_outmode mode;		/* how output is printed */
	double timeout;			/* --timeout, seconds, or 0 */
	unsigned timeoutpct;		/* --timeout N%, or 0 */
	const char *memfreespec;	/* --memfree as given, or NULL */
	bool stats;			/* --stats */
	const char *metrics;		/* --metrics FILE, or NULL */
	const char *events;		/* --events FILE ("-": stdout), or
					 * NULL */
	const char *trace;		/* --trace FILE, or NULL */
	const char *joblog;		/* --joblog FILE, or NULL */
	bool joblogappend;		/* append to it (+FILE, resuming) */
	enum progress_mode progress;	/* a job file's lines per job */
};

struct reports {
	struct report_opts o;		/* its strings borrowed */
	struct wspx__output *out;	/* for notes */
	struct running *running;	/* the running jobs, for SIGUSR1 */
	struct stats *stats;		/* the positions of progress lines */
	struct events *events;		/* --events, or NULL */
	struct trace *trace;		/* --trace, or NULL */
	struct wspx__joblog *joblog;	/* --joblog FILE, or NULL */
	bool joblogout;			/* --joblog -: rows to stdout */
	int metricsfd;			/* --metrics, or -1 */
	struct failures *failures;	/* for the summary */
	bool github;			/* GITHUB_ACTIONS=true */
	/* A report file could not be written (-errno): stop the run. */
	void (*failed)(void *ctx, int err);
	void *ctx;
};

/* Open the report files the options name, so that a bad path is an error
 * before any job runs (the -- options' messages, then exit 255); out,
 * running and stats are set by the caller before the first job. */
void reports_open(struct reports *p, const struct report_opts *o,
    void (*failed)(void *ctx, int err), void *ctx);

/* The job's attempt has started; cmdtext is the job's copy of its command
 * (borrowed until its end), name a job file's job's name or NULL. */
void report_started(struct reports *p, struct wspx__execjob *ej,
    const char *name, const char *cmdtext);

/* What the run knows of a job whose attempt ended: name and cmdtext as
 * for report_started(); send, the bytes given to its stdin (--pipe), for
 * the joblog; host, where it ran (":" for here); a job file's job's
 * needs, by name; worker, the pool worker (1 on) that ran a builtin. */
struct jobfacts {
	const char *name;
	const char *cmdtext;
	uint64_t send;
	const char *host;
	const char *const *needs;
	size_t nneeds;
	unsigned worker;
};

/* An attempt of the job ended (the executor's ended()), on x. */
void report_ended(struct reports *p, struct wspx__exec *x,
    struct wspx__execjob *ej, const struct jobfacts *jf);

/* The job is over (the executor's finished()): a job skipped by a stop
 * counts as cancelled. */
void report_finished(struct reports *p, const struct wspx__execjob *ej);

/* At the end of the run: the failure summary (why: what cancelled jobs,
 * or NULL), --stats, --metrics, the summary event; close the files.
 * Returns status, or 255 if a report could not be written. */
int reports_close(struct reports *p, struct stats_final *f, int status,
    const char *why);

#endif /* WSPX_REPORT_H */
