/*
 * wspx's own helper commands, run to their end: ssh's connection
 * commands, transfers, salloc, scancel.  Not jobs: no slot, no output of
 * the run's.
 */
#ifndef WSPX_SIDECMD_H
#define WSPX_SIDECMD_H

#include <stddef.h>
#include <sys/types.h>

/* A helper command under way. */
struct sidecmd {
	pid_t pid;		/* 0 if it could not start */
	int rc;			/* then why: -errno */
	int efd, null;
	const char *name;
};

/* Start argv as sidecmd_run() does; sidecmd_wait() ends it.  Several may
 * be under way at once. */
void sidecmd_start(struct sidecmd *sc, char *const *argv, int in_fd,
    int out_fd);

/* Wait for sc and return what sidecmd_run() returns. */
int sidecmd_wait(struct sidecmd *sc, char *err, size_t errlen);

/* An unnamed temporary file for a command's output, or -errno. */
int sidecmd_tmpfile(void);

/* Run argv (argv[0] looked up in PATH) with stdin from in_fd and stdout to
 * out_fd (-1: /dev/null for either); its stderr's last line goes to
 * err[0..errlen) (errlen > 0).  Returns its exit value as a shell gives
 * it (128 + N for signal N), or -errno if it could not start. */
int sidecmd_run(char *const *argv, int in_fd, int out_fd, char *err,
    size_t errlen);

/* The same, with its stdout read into *out (malloc'd, NUL-terminated,
 * at most 64 KiB kept). */
int sidecmd_read(char *const *argv, char **out, char *err, size_t errlen);

#endif /* WSPX_SIDECMD_H */
