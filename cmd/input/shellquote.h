/*
 * The shell syntax of command lines: whether a line or a word needs a
 * shell or runs directly, its words when it does not, and values quoted
 * as data for the shell that runs it (shellquote.c), in the quoting rules
 * of POSIX shells, fish, and the csh family.
 */
#ifndef WSPX_SHELLQUOTE_H
#define WSPX_SHELLQUOTE_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

/* The quoting rules of the shell that runs command lines. */
enum shellkind {
	SHELL_POSIX,		/* sh, bash, dash, ksh, zsh, ... */
	SHELL_FISH,
	SHELL_CSH		/* csh, tcsh */
};

/* Whether literal text s[0..n), the first word of a line or not, needs a
 * shell: anything but the characters a shell leaves alone, '=' in the
 * first word (an assignment), or a first word that is shell syntax or a
 * builtin (with programs, also one that is a program too, as echo). */
bool text_needs_shell(const char *s, size_t n, bool first, bool programs);

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

/* Add s to b quoted for kind: as it is if the shell leaves it alone,
 * else in single quotes. */
void quote(struct buf *b, const char *s, enum shellkind kind);

/* The length quote() makes of s, without making it. */
size_t quote_len(const char *s, enum shellkind kind);

/* argv as one line, each word quoted for a POSIX shell if it needs it, for
 * -v and --dry-run. */
char *argv_text(char *const *argv);

#endif /* WSPX_SHELLQUOTE_H */
