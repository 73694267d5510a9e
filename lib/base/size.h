/*
 * Sizes as GNU parallel 20221122 reads and writes them (--memfree,
 * --block, and the messages about them): a number with an optional
 * fraction and a unit of powers of 1000 or 1024.  Every function is
 * reentrant.
 */
#ifndef WSPX_SIZE_H
#define WSPX_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Read a size as GNU parallel 20221122 does for --memfree and --block:
 * digits with an optional fraction ("1.5", ".5", "1."), then an optional
 * unit: K M G T P E Z Y X are powers of 1024, k m g t p e z y x powers of
 * 1000, and a unit followed by i or I (Ki, mi, GI) is a power of 1024
 * whatever the letter's case.  The product is exact, with a fraction of a
 * byte dropped.  Returns 0 and sets *bytes, -EINVAL for anything else (a
 * sign, spaces, "b", "KiB", "1e3"), or -ERANGE above UINT64_MAX; on error
 * *bytes is unchanged. */
int wspx__size_parse(const char *s, uint64_t *bytes);

/* Write bytes into buf (n bytes, 16 suffice) for a message: under 1024 as
 * a number ("100"), else in the largest binary unit K M G T P E that keeps
 * it at least 1, rounded to one decimal, without a ".0" ("1.5G", "512M");
 * what would round to 16E, which is more than a uint64_t, is written in
 * hundredths rounded down, at most 15.99E.
 * The text reads back through wspx__size_parse() to within a twentieth
 * of its unit.  Returns buf. */
const char *wspx__size_format(uint64_t bytes, char *buf, size_t n);

#endif /* WSPX_SIZE_H */
