/*
 * Where each ${{ }} expression of a job's command stands in its shell's
 * syntax, so that the value can be put there as data (wspx(5),
 * "Expressions"): the program puts each value in the job's environment
 * and writes, in place of the expression, a reference to that variable
 * made for the place (a bare word, inside double or single quotes, in a
 * comment, in a here-document).  A reference expands to the value and is
 * never read again as syntax, in every place a shell has, but three:
 * arithmetic (bash evaluates a variable's value there as an expression,
 * subscripts and $(...) included), bash's $'...' (which sh reads
 * otherwise) and csh's here-documents (tcsh runs the backquotes of a
 * value there).  The scanner refuses an expression in those, and one
 * right after a backslash or in a here-document's delimiter.
 *
 * The scanner follows quotes, $(...), `...`, ${...}, comments and
 * here-documents; it is not a whole parser (case patterns, for one, can
 * end a $(...) early for it), so it was made so that its mistakes cost
 * nothing: every reference is balanced in every quoting, and expands to
 * data in each of them.
 */
#ifndef WSPX_SHELLCTX_H
#define WSPX_SHELLCTX_H

#include <stddef.h>

#include "base/shellname.h"

/* Where an expression stands. */
enum wspx__shctx {
	WSPX__SHCTX_WORD,	/* where a word may stand: bare, in $(...),
				 * in `...` */
	WSPX__SHCTX_DQUOTE,	/* inside "..." */
	WSPX__SHCTX_SQUOTE,	/* inside '...' */
	WSPX__SHCTX_COMMENT,	/* in a comment */
	WSPX__SHCTX_HEREDOC	/* in a here-document's text (POSIX only) */
};

/* What to write for a span of the command. */
enum wspx__shedit_kind {
	WSPX__SHEDIT_VALUE,	/* an expression: a reference for ctx */
	WSPX__SHEDIT_UNQUOTE,	/* the quoted delimiter of a here-document
				 * that holds an expression: the delimiter
				 * without its quotes, so that the text
				 * expands */
	WSPX__SHEDIT_ESCAPE	/* text of that here-document: each \, $
				 * and ` with a \ before it, so that it
				 * stays as it was */
};

struct wspx__shedit {
	enum wspx__shedit_kind kind;
	enum wspx__shctx ctx;	/* for a VALUE */
	size_t start, end;	/* the span of the command it replaces */
};

/* The edits of one command, or why it cannot be made safe. */
struct wspx__shscan {
	struct wspx__shedit *edits;	/* by start, none overlapping */
	size_t n;
	size_t erroff;		/* on failure: where, an offset */
	const char *err;	/* on failure: why, static text that reads
				 * after the expression: "stands in
				 * arithmetic, ..." */
};

/* Scan command s[0..n) for lang into out.  Returns 0, or -1 with
 * out->err and out->erroff set (out->err is "out of memory" when that is
 * why).  Free with _free() either way. */
int wspx__shellctx_scan(const char *s, size_t n, enum wspx__shlang lang,
    struct wspx__shscan *out);

void wspx__shellctx_free(struct wspx__shscan *out);

/* The guards that do not rest on the scanner's reading of quotes
 * (shellguard.c): whether an expression of s[0..n) stands, whatever the
 * quotes, in a place where lang's shells may evaluate a value as code.
 * Returns 0, or -1 with *at (the expression) and *why set.  The scan
 * calls it first. */
int wspx__shellguard_check(const char *s, size_t n, enum wspx__shlang lang,
    size_t *at, const char **why);

#endif /* WSPX_SHELLCTX_H */
