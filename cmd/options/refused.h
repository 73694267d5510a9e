/*
 * GNU parallel's options that wspx does not have, refused by name with
 * the reason (refused.c).
 */
#ifndef WSPX_REFUSED_H
#define WSPX_REFUSED_H

#include <stdbool.h>
#include <stddef.h>

/* If name[0..n) is (with prefix: begins) one of GNU parallel's long
 * options that wspx lacks, say so and exit with status 255. */
void refused_long(const char *name, size_t n, bool prefix);

/* The same for GNU parallel's one-letter option -c. */
void refused_short(char c);

#endif /* WSPX_REFUSED_H */
