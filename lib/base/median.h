/*
 * The median of job runtimes, in bounded memory: a histogram with 32
 * buckets per power of two (each at most 3% wide), whose median bucket is
 * followed as values come, so adding one costs a few steps, not a walk.
 * For --timeout N%.  Not thread-safe: the caller serializes.
 */
#ifndef WSPX_MEDIAN_H
#define WSPX_MEDIAN_H

#include <stdint.h>

#define WSPX__MEDIAN_SUB	32	/* buckets per power of two */
#define WSPX__MEDIAN_BUCKETS	(64 * WSPX__MEDIAN_SUB)

struct wspx__median {
	uint64_t count[WSPX__MEDIAN_BUCKETS];
	uint64_t n;		/* values added */
	unsigned at;		/* the bucket holding the median */
	uint64_t below;		/* values in the buckets before at */
};

/* Start with no values; storage is the caller's. */
void wspx__median_init(struct wspx__median *m);

/* Add v (nanoseconds). */
void wspx__median_add(struct wspx__median *m, uint64_t v);

/* The (lower) median of the values added, within 3%; 0 if none. */
uint64_t wspx__median_get(const struct wspx__median *m);

#endif /* WSPX_MEDIAN_H */
