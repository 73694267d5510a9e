/*
 * --files: each job's stdout goes to a file of its own in --tmpdir, and
 * the file's name is the job's output instead (outfiles.c).
 */
#ifndef WSPX_OUTFILES_H
#define WSPX_OUTFILES_H

#include <stdbool.h>

#include "exec/exec.h"
#include "exec/output.h"

/* A new empty file in dir for a job's stdout: returns its fd (the
 * caller's to close) and sets *path (malloc'd), or returns -errno. */
int outfiles_new(const char *dir, char **path);

/* Count the bytes of the file at path (NULL: none) as the attempt's
 * stdout, as GNU parallel's joblog counts them in Receive. */
void outfiles_count(const char *path, struct wspx__result *res);

/* An attempt of the job ended: with retry another replaces it and its
 * file is removed; else the file's name and a newline go into the job's
 * stdout, oj.  *path is freed and set to NULL either way. */
void outfiles_ended(struct wspx__output *out, struct wspx__outjob *oj,
    char **path, bool retry);

#endif /* WSPX_OUTFILES_H */
