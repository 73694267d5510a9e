/*
 * The script a remote job runs as, on its host (see sshscript.c).
 */
#ifndef WSPX_SSHSCRIPT_H
#define WSPX_SSHSCRIPT_H

#include <stddef.h>
#include <stdint.h>

struct wspx__cmd;

/* What every job's script starts with: a renice of the script's shell to
 * nice unless it is 0 (--nice), and "export A='v'; B='w'; " for the
 * variables names[0..n) that are set here (--env); malloc'd. */
char *sshscript_prologue(const char *const *names, size_t n, int nice);

/* The script of cmd's job (seq, slot) in dir there, with exports; grace:
 * seconds from SIGTERM to SIGKILL when it is told to end.  malloc'd. */
char *sshscript(const char *dir, const char *exports,
    const struct wspx__cmd *cmd, uint64_t seq, unsigned slot, double grace);

#endif /* WSPX_SSHSCRIPT_H */
