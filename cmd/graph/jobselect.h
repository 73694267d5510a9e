/*
 * Which jobs of a job file a run takes, and in what order: the jobs named
 * on the command line and all they need, numbered as -k orders their
 * output and the joblog names them (jobselect.c).
 */
#ifndef WSPX_JOBSELECT_H
#define WSPX_JOBSELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/resume.h"

struct wspx__jobfile;

/* The jobs that targets[0..n) name and every job they need, as a
 * malloc'd array of flags, or NULL for all when n is 0.  A name that
 * picks no job is a fatal error naming file. */
bool *jobselect_pick(const struct wspx__jobfile *jf, const char *file,
    char **targets, size_t n);

/* Number the selected jobs (NULL: all) in a topological order, each job
 * free to go in the file's order, into seq[i] (1, 2, ...; 0 for a job
 * not selected): the sequence numbers by which -k orders the output and
 * the joblog names the jobs.  Returns how many. */
size_t jobselect_number(const struct wspx__jobfile *jf, const bool *selected,
    uint64_t *seq);

/* The jobs the joblog at path (of an earlier run of the file) shows
 * done for mode, by their names in its Command column: a malloc'd array
 * of flags.  --resume: a job with a row; --resume-failed: one with a row
 * that succeeded; --retry-failed: every job but those whose rows all
 * failed and what needs them (GitHub's "re-run failed jobs").  A file
 * that is no joblog is a fatal error naming opt, path and line. */
bool *jobselect_resumed(const struct wspx__jobfile *jf, const char *path,
    enum resumemode mode, const char *opt);

#endif /* WSPX_JOBSELECT_H */
