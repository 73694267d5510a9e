/*
 * Diagnostics of a job file: every error found, each with its place
 * (line and column, 1-based), kept in memory for the caller to print as
 * "FILE:LINE:COLUMN: message".  lib/ never prints; cmd/ does.
 */
#ifndef WSPX_DIAG_H
#define WSPX_DIAG_H

#include <stdbool.h>
#include <stddef.h>

/* One error. */
struct wspx__diagmsg {
	unsigned line, col;	/* 1-based; 0, 0: the file as a whole */
	char *msg;		/* lower case, no final period; owned */
};

/* The errors of one file, in the order found until sorted. */
struct wspx__diag {
	const char *file;	/* as the user named it ("-": stdin); borrowed */
	struct wspx__diagmsg *v;
	size_t n, cap;
	bool nomem;		/* a message was lost for want of memory */
};

/* Start an empty list for file (borrowed). */
void wspx__diag_init(struct wspx__diag *d, const char *file);

/* Free the messages. */
void wspx__diag_fini(struct wspx__diag *d);

/* Add an error at line:col, printf-style.  Never fails: without memory
 * the message is dropped and nomem set. */
void wspx__diag_add(struct wspx__diag *d, unsigned line, unsigned col,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* s[0..len), user text (a key, a value), made fit to quote in a message:
 * written into buf (of size bytes, at least 16) with control characters
 * escaped as \xNN and, if too long, cut short with "...".  Returns buf. */
const char *wspx__diag_quote(char *buf, size_t size, const char *s,
    size_t len);

/* Sort the errors by place (stable: the order found within one place). */
void wspx__diag_sort(struct wspx__diag *d);

/* The known word nearest to word among words[0..n) (Damerau-Levenshtein
 * distance at most a third of word's length, at least 1), or NULL. */
const char *wspx__diag_nearest(const char *word, const char *const *words,
    size_t n);

#endif /* WSPX_DIAG_H */
