/*
 * A table of strings, each with a value: open addressing with linear
 * probing, FNV-1a hashes.  The YAML reader (yamldoc.c) keeps a large
 * mapping's keys in one, to find duplicates, and its anchors in another.
 * The table borrows its strings and values; only its array is its own.
 */
#ifndef WSPX_STRTAB_H
#define WSPX_STRTAB_H

#include <stddef.h>

/* A string and its value, which the caller sets. */
struct wspx__strtab_entry {
	const char *s;			/* borrowed; NULL in a free slot */
	size_t len, hash;		/* of s */
	void *val;			/* NULL until the caller sets it */
	size_t aux;			/* the caller's, beside val */
};

/* Embedded by its owner; all zero is an empty table. */
struct wspx__strtab {
	struct wspx__strtab_entry *v;	/* the slots */
	size_t n, cap;			/* cap 0 or a power of 2 >= 2n */
};

/* Find s[0..len) in t, or add it with val NULL for the caller to set:
 * *out is its entry, valid until the next _put.  Returns 0 or -ENOMEM.
 * The caller may point the entry's s at another copy of the same text. */
int wspx__strtab_put(struct wspx__strtab *t, const char *s, size_t len,
    struct wspx__strtab_entry **out);

/* The entry of s[0..len) in t, or NULL. */
struct wspx__strtab_entry *wspx__strtab_get(const struct wspx__strtab *t,
    const char *s, size_t len);

/* Free t's array; t is then empty. */
void wspx__strtab_fini(struct wspx__strtab *t);

#endif /* WSPX_STRTAB_H */
