/*
 * A JSON value (RFC 8259) read into a tree, for wspx report, which reads
 * the files a run wrote: a --trace file (one array), an --events file (a
 * value a line).  One value is read at a time from a place in a buffer, so
 * a caller walks an array of a million events element by element and
 * frees each tree (its arena) before the next.
 *
 * Strings are decoded to UTF-8 (\u escapes and their surrogate pairs);
 * numbers are doubles, and one too large for a double is an error.  Nesting deeper than WSPX__JSON_MAX_DEPTH is an
 * error, so no input can exhaust the stack.  Duplicate keys are kept, and
 * wspx__json_get() finds the first.
 */
#ifndef WSPX_JSON_H
#define WSPX_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

#define WSPX__JSON_MAX_DEPTH 256u

enum wspx__json_type {
	WSPX__JSON_NULL,
	WSPX__JSON_BOOL,
	WSPX__JSON_NUMBER,
	WSPX__JSON_STRING,
	WSPX__JSON_ARRAY,
	WSPX__JSON_OBJECT
};

/* A value.  An array's or object's members are a list from first; an
 * object's members have their key. */
struct wspx__json {
	enum wspx__json_type type;
	bool boolean;
	double number;
	const char *str;		/* a string's text, NUL-terminated */
	size_t len;			/* its length (it may hold NULs) */
	const char *key;		/* a member's key, or NULL */
	struct wspx__json *first;	/* members */
	struct wspx__json *next;	/* the next member of its parent */
};

/* Read the value at s[*pos], after any white space, with its nodes from
 * a.  Returns it, *pos just past it; or NULL with *pos where the error is
 * and *why what it is (a static text).  *pos is len when the value was
 * whole so far and the input ran out: a file cut short. */
struct wspx__json *wspx__json_read(struct wspx__arena *a, const char *s,
    size_t len, size_t *pos, const char **why);

/* *pos past the white space at s[*pos]. */
void wspx__json_skipspace(const char *s, size_t len, size_t *pos);

/* The first member of object o named key, or NULL (o NULL or not an
 * object too). */
const struct wspx__json *wspx__json_get(const struct wspx__json *o,
    const char *key);

/* o's member key as a number, a string: def/NULL when o has none of that
 * type. */
double wspx__json_number(const struct wspx__json *o, const char *key,
    double def);
const char *wspx__json_string(const struct wspx__json *o, const char *key);

#endif /* WSPX_JSON_H */
