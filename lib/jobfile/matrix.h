/*
 * A job's matrix (wspx(5)): its legs, the cross product of its keys'
 * values in the order written (the first key varies slowest), less the
 * `exclude` entries, with the `include` entries added as GitHub Actions
 * adds them; and the names by which `needs` and the command line pick
 * legs, as in test[opt=O2,san=none].
 */
#ifndef WSPX_MATRIX_H
#define WSPX_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/yamldoc.h"

/* A leg: its keys and values (strings of the YAML tree). */
struct wspx__leg {
	const char **keys;
	const char **vals;
	size_t n;
};

/* Expand the matrix node m (a mapping) into *legs (*n of them), at most
 * max.  Returns 0, -EINVAL with the errors added to d (their places in
 * m), or -ENOMEM.  Free the legs with wspx__matrix_free(). */
int wspx__matrix_expand(const struct wspx__ynode *m, size_t max,
    struct wspx__leg **legs, size_t *n, struct wspx__diag *d);

void wspx__matrix_free(struct wspx__leg *legs, size_t n);

/* At least as many legs as the matrix node m expands to, without
 * expanding it: the product of its lists (max + 1 past max), and its
 * includes.  For a file's count of jobs before any is made. */
size_t wspx__matrix_bound(const struct wspx__ynode *m, size_t max);

/* The leg's name: key[k1=v1,k2=v2], with a backslash before each \ , =
 * [ and ] of the keys and values, and a newline, tab and carriage
 * return written \n, \t and \r: two legs have one name only if they
 * have the same keys and values.  Returns a malloc'd string, or NULL
 * without memory. */
char *wspx__matrix_name(const char *key, const struct wspx__leg *l);

/* Whether the leg is picked by sel[0..n), a list "k1=v1,k2=v2" of some of
 * its keys: each key given has that value.  Returns 1 (picked), 0 (not),
 * or -1 if sel is malformed or names a key the leg lacks. */
int wspx__matrix_match(const struct wspx__leg *l, const char *sel,
    size_t n);

#endif /* WSPX_MATRIX_H */
