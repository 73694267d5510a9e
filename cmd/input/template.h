/*
 * The command template: COMMAND with its replacement strings, expanded for
 * each job either into an argv run directly or into a shell command line
 * whose inserted values are quoted for that shell (shellquote.h).
 */
#ifndef WSPX_TEMPLATE_H
#define WSPX_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replstr.h"
#include "shellquote.h"

/* A job's arguments: the fields of its input records.  With several
 * records (-m, -X, -N, -n), record i's fields are v[rec[i]..rec[i + 1]);
 * with nrec 0 (or 1) all of v is one record. */
struct args {
	char **v;
	size_t n;
	size_t nrec;
	const size_t *rec;	/* nrec + 1 offsets into v, or NULL */
};

struct buf;
struct template;

/* How template_new() reads COMMAND. */
enum {
	TMPL_QUOTED = 1,	/* -q: each word stays one argument, no shell */
	TMPL_APPEND = 2,	/* add " {}" if it has no replacement string */
	TMPL_PLUS = 4,		/* read --plus strings */
	TMPL_CONTEXT = 8,	/* -X: a word with {} repeats per argument */
	TMPL_PROGRAMS = 16	/* a first word that is a builtin and also a
				 * program (echo, true) runs as the program
				 * when nothing else needs a shell */
};

/* Parse COMMAND's n words.  Unless TMPL_QUOTED they are joined by spaces
 * into one command line, as GNU parallel does.  names are the
 * replacement strings as options renamed them (replstr.h), or NULL for
 * the defaults.  Returns NULL if there are no words.  {= ... =} (GNU
 * parallel's Perl) is a fatal error. */
struct template *template_new(char *const *words, size_t n,
    const struct replnames *names, int flags);

/* Whether the template has {##} or {0#}, which need the number of jobs:
 * give it with template_set_total() before filling it. */
bool template_needs_total(const struct template *t);

/* The number of jobs ({##}, {0#}) and of slots ({0%}). */
void template_set_total(struct template *t, uint64_t total, unsigned slots);

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

/* The length a record adds to a job's command line, as -s counts it
 * (GNU parallel's way: the line with each value quoted when quote):
 * the record's text at each of the *units places that take records (an
 * all-records string such as {}, or with -X a word holding one), each
 * also taking a space between two records.  scratch is the caller's, for
 * modified values. */
size_t template_reclen(const struct template *t, const struct args *rec,
    bool quote, enum shellkind kind, size_t *units, struct buf *scratch);

/* The length of the command line without its records: the rest of the
 * text (a {#} or {n} counted as one character). */
size_t template_baselen(const struct template *t);

#endif /* WSPX_TEMPLATE_H */
