/*
 * Which shell runs command lines: the one asked for, else the one wspx
 * was started from, as GNU parallel chooses; and bash for the bash
 * functions exported in the environment (export -f).
 */
#ifndef WSPX_SHELL_H
#define WSPX_SHELL_H

#include <stdbool.h>
#include <stddef.h>

#include "template.h"

/* A shell that runs a command line as `path [applet] -c LINE`. */
struct shell {
	const char *path;	/* a path, or a name to look up in PATH */
	const char *applet;	/* the applet busybox runs ("sh"), or NULL */
	enum shellkind kind;	/* how values put into lines are quoted */
};

/* Choose the shell for command lines into sh: opt (--shell) unless NULL,
 * else $WSPX_SHELL, else the parent process if it is a shell wspx knows
 * (sh, ash, dash, bash, zsh, ksh, mksh, busybox sh), else $SHELL if it is
 * one, else /bin/sh.  An opt or $WSPX_SHELL that cannot be run is a fatal
 * error.  The strings live as long as the process.  Call once, after
 * progpath_init(). */
void shell_choose(struct shell *sh, const char *opt);

/* Read the bash functions exported in env (BASH_FUNC_name%%) and find the
 * bash that runs them: run itself if it is bash, else bash in PATH.  Call
 * once, after shell_choose(), before any other thread may call
 * shell_function(). */
void shell_functions_init(char *const *env, const struct shell *run);

/* Free what shell_functions_init() made. */
void shell_fini(void);

/* Whether the environment exports any bash function. */
bool shell_any_function(void);

/* Whether a command whose first word is name[0..n) must run in bash,
 * name being an exported bash function: it is no program in PATH, or the
 * shell of the run is bash (which prefers the function, as when GNU
 * parallel runs it).  Then *bash is the bash to run it with, or NULL if
 * there is no bash in PATH.  Any thread; no allocation. */
bool shell_function(const char *name, size_t n, const struct shell **bash);

/* The first word of command line `line`, as far as a blank or an operator
 * (; & | ( ) < >); *n is its length, 0 if there is none. */
const char *shell_firstword(const char *line, size_t *n);

#endif /* WSPX_SHELL_H */
