/*
 * The commands for job files: run, check, list and graph (see
 * jobfilecmd.c).
 */
#ifndef WSPX_JOBFILECMD_H
#define WSPX_JOBFILECMD_H

#include <stdbool.h>
#include <stddef.h>

#include "options/config.h"

struct wspx__jobfile;

/* wspx list: the jobs, with their desc:, or as JSON with --json
 * (joblist.c). */
void joblist_print(const struct config *c, const struct wspx__jobfile *jf);

/* Whether word is one of those commands. */
bool jobfile_command(const char *word);

/* Do command cmd with the options of c and the words after it (the file,
 * then for run the jobs to run).  Returns the exit status (errors in the
 * file exit 255 here). */
int jobfile_main(struct config *c, const char *cmd, char **words, size_t n);

#endif /* WSPX_JOBFILECMD_H */
