/*
 * The commands for job files: run, check, list and graph (see
 * jobfilecmd.c).
 */
#ifndef WSPX_JOBFILECMD_H
#define WSPX_JOBFILECMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobfile.h"
#include "run.h"

/* Whether word is one of those commands. */
bool jobfile_command(const char *word);

/* The jobs that targets[0..n) name and every job they need, as a
 * malloc'd array of flags, or NULL for all when n is 0.  A name that
 * picks no job is a fatal error naming file. */
bool *jobfile_select(const struct wspx__jobfile *jf, const char *file,
    char **targets, size_t n);

/* Number the selected jobs (NULL: all) in a topological order, each job
 * free to go in the file's order, into seq[i] (1, 2, ...; 0 for a job
 * not selected): the sequence numbers by which -k orders the output and
 * the joblog names the jobs.  Returns how many. */
size_t jobfile_number(const struct wspx__jobfile *jf, const bool *selected,
    uint64_t *seq);

/* Do command cmd with the options of c and the words after it (the file,
 * then for run the jobs to run).  Returns the exit status (errors in the
 * file exit 255 here). */
int jobfile_main(struct config *c, const char *cmd, char **words, size_t n);

#endif /* WSPX_JOBFILECMD_H */
