/*
 * --resume, --resume-failed and --retry-failed: what an earlier run's
 * joblog says was done, read before any job runs.
 */
#ifndef WSPX_RESUME_H
#define WSPX_RESUME_H

#include <stdbool.h>
#include <stdint.h>

enum resumemode {
	RESUME_NONE,
	RESUME,			/* skip every job the joblog has a row of */
	RESUME_FAILED,		/* skip the jobs that succeeded */
	RETRY_FAILED		/* run the failed jobs' logged commands */
};

struct resume;

/* Read the joblog at path (opt: the option, for errors); exits with a
 * message naming the file and line if it is not a joblog. */
struct resume *resume_load(const char *path, enum resumemode mode,
    const char *opt);

/* Whether job seq is done and is not to run again. */
bool resume_done(const struct resume *r, uint64_t seq);

/* --retry-failed: the next job to run again, in the order of the
 * sequence numbers: *seq and its *command (r's).  false when none is
 * left. */
bool resume_next(struct resume *r, uint64_t *seq, const char **command);

/* Jobs the joblog shows done (for the status line's total). */
uint64_t resume_ndone(const struct resume *r);

void resume_free(struct resume *r);

/* The option of mode m, for messages: "--resume-failed". */
const char *resume_option(enum resumemode m);

/* Refuse (exit 255) mode m without a joblog file to read: no --joblog,
 * or "--joblog -", which writes the rows to standard output. */
void resume_needs_joblog(enum resumemode m, const char *joblog);

#endif /* WSPX_RESUME_H */
