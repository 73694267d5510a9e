/*
 * The commands of the jobs: from a job's arguments to what it runs, an
 * argv run directly or a line for a shell with every value quoted for that
 * shell, with its text (for -v, -t, --dry-run and errors), and its --tag.
 * The shell is the run's (shell.c), or bash for a bash function exported
 * in the environment.
 */
#ifndef WSPX_COMMAND_H
#define WSPX_COMMAND_H

#include <stdbool.h>
#include <stdint.h>

#include "job.h"
#include "run.h"
#include "template.h"

struct commands;

/* Parse COMMAND and --tagstring of c, and choose the shell for command
 * lines (a --shell or $WSPX_SHELL that cannot run is a fatal error).  c is
 * borrowed for as long as the result lives.  Call once, after
 * progpath_init(), before any job. */
struct commands *commands_new(const struct config *c);

void commands_free(struct commands *cm);

/* Build in cmd the command of the job numbered seq, in slot, with the
 * arguments a.  Returns 0, or -ENOENT with *nobash set when it is an
 * exported bash function and there is no bash to run it.  Any thread. */
int commands_build(const struct commands *cm, const struct args *a,
    uint64_t seq, unsigned slot, struct wspx__cmd *cmd, bool *nobash);

/* The job's tag followed by a TAB (--tag, --tagstring), or NULL if the
 * run has none.  Any thread; the result is the caller's to free. */
char *commands_tag(const struct commands *cm, const struct args *a,
    uint64_t seq, unsigned slot);

#endif /* WSPX_COMMAND_H */
