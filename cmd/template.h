/*
 * The command template: COMMAND with its replacement strings, expanded for
 * each job either into an argv run directly or into a shell command line
 * whose inserted values are quoted for that shell.
 */
#ifndef WSPX_TEMPLATE_H
#define WSPX_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The quoting rules of the shell that runs command lines. */
enum shellkind {
	SHELL_POSIX,		/* sh, bash, dash, ksh, zsh, ... */
	SHELL_FISH,
	SHELL_CSH		/* csh, tcsh */
};

/* A job's arguments: the fields of its input. */
struct args {
	char **v;
	size_t n;
};

struct template;

/* Parse COMMAND's n words.  Unless quoted they are joined by spaces into
 * one command line, as GNU parallel does; with quoted (-q) each word stays
 * one argument and no shell is used.  plain replaces "{}" as the string for
 * the whole argument (-I), or is NULL.  With append, " {}" is added if
 * there is no replacement string.  Returns NULL if there are no words. */
struct template *template_new(char *const *words, size_t n,
    const char *plain, bool quoted, bool append);

void template_free(struct template *t);

/* Whether the template's own text needs a shell (quotes, pipes, ...). */
bool template_needs_shell(const struct template *t);

/* The job's command line: the template's text with each replacement
 * string replaced by its values, quoted for kind when quote is set (for a
 * tag, values go in as they are).  Returns a malloc'd string. */
char *template_line(const struct template *t, const struct args *a,
    uint64_t seq, unsigned slot, bool quote, enum shellkind kind);

/* The job's argv for running it directly: the template's words, with the
 * values put in as they are; a value list splits a word as the shell would
 * split its quoted words.  Returns a malloc'd NULL-terminated array that
 * one free() releases. */
char **template_argv(const struct template *t, const struct args *a,
    uint64_t seq, unsigned slot);

/* Whether a whole command line needs a shell to run. */
bool line_needs_shell(const char *line);

/* The same, where programs says whether a command that starts with a
 * shell builtin that is also a program (echo, true, test, ...) runs in
 * the shell, as GNU parallel runs it (true), or as that program, as make
 * runs it (false). */
bool line_needs_shell_as(const char *line, bool programs);

/* Split a command line that needs no shell into its words; the result is
 * freed with one free(). */
char **line_argv(const char *line);

/* The shell kind of the shell at path: by its name; unknown names are
 * taken for POSIX shells. */
enum shellkind shell_kind(const char *path);

/* argv as one line, each word quoted for a POSIX shell if it needs it, for
 * -v and --dry-run. */
char *argv_text(char *const *argv);

/* s with the escapes that GNU parallel reads in --tagstring replaced:
 * \t, \n, \r, and octal bytes as \ddd and \d (Perl's way, in its order of
 * passes).  Returns a malloc'd string, or NULL and sets *why (an error's
 * words) if the result would hold a NUL or a character over \377. */
char *unprintf(const char *s, const char **why);

/* Add s to b quoted for kind. */
struct buf;
void quote(struct buf *b, const char *s, enum shellkind kind);

#endif /* WSPX_TEMPLATE_H */
