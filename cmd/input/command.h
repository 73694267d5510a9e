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

#include "exec/exec.h"
#include "template.h"

struct buf;
struct commands;

/* What the commands are made of, as the options give it. */
struct command_opts {
	char *const *command;	/* COMMAND's words, or NULL: each input
				 * line is a command */
	size_t ncommand;	/* how many words */
	int flags;		/* how COMMAND is read: TMPL_* (template.h);
				 * TMPL_PLUS applies to the tag too */
	const struct replnames *names; /* -I and its kin, or NULL */
	const char *shell;	/* --shell, or NULL (see shell.h) */
	const char *tagstring;	/* --tagstring, escapes read, or NULL */
	bool tag;		/* --tag: the arguments are the tag */
	unsigned jobs;		/* -j, for {0%} */
};

/* Parse COMMAND and --tagstring of o, and choose the shell for command
 * lines (a --shell or $WSPX_SHELL that cannot run is a fatal error).  The
 * strings of o are borrowed for as long as the result lives.  Call once,
 * after progpath_init(), before any job. */
struct commands *commands_new(const struct command_opts *o);

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

/* Whether the jobs' command lines run in a shell, as one argument (which
 * Linux caps at 128 KiB), or directly. */
bool commands_inshell(const struct commands *cm);

/* A job's command line as -s counts it: commands_baselen(), plus what
 * commands_reclen() gives for each record, plus a space per place that
 * takes records (*units) between two records.  scratch is the caller's
 * buffer for the work. */
size_t commands_baselen(const struct commands *cm);
size_t commands_reclen(const struct commands *cm, const struct args *rec,
    size_t *units, struct buf *scratch);

/* {##} and {0#} need the number of jobs before the first is built: whether
 * they are used, and setting it (and -j, for {0%}). */
bool commands_needs_total(const struct commands *cm);
void commands_set_total(struct commands *cm, uint64_t total,
    unsigned slots);

#endif /* WSPX_COMMAND_H */
