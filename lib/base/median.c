/*
 * The running median (see median.h).  A value's bucket is its power of
 * two and the next 5 bits below its top bit; values under 32 have a bucket
 * each.  The median bucket `at` keeps below <= k < below + count[at] for
 * the median's rank k = (n - 1) / 2: adding a value moves k by at most
 * one half step, and `at` by the few buckets in between.
 */
#include "median.h"

#include <string.h>

static unsigned
bucket(uint64_t v)
{
	unsigned top;

	if (v < WSPX__MEDIAN_SUB)
		return (unsigned)v;
	top = 63 - (unsigned)__builtin_clzll(v);	/* >= 5 */
	return (top - 4) * WSPX__MEDIAN_SUB +
	    (unsigned)((v >> (top - 5)) & (WSPX__MEDIAN_SUB - 1));
}

/* The middle of bucket b. */
static uint64_t
middle(unsigned b)
{
	unsigned top = b / WSPX__MEDIAN_SUB + 4, sub = b % WSPX__MEDIAN_SUB;
	uint64_t low;

	if (b < WSPX__MEDIAN_SUB)
		return b;
	low = ((uint64_t)(WSPX__MEDIAN_SUB + sub)) << (top - 5);
	return low + (((uint64_t)1 << (top - 5)) >> 1);
}

void
wspx__median_init(struct wspx__median *m)
{
	memset(m, 0, sizeof(*m));
}

void
wspx__median_add(struct wspx__median *m, uint64_t v)
{
	unsigned b = bucket(v);
	uint64_t k;

	m->count[b]++;
	if (m->n++ > 0 && b < m->at)
		m->below++;
	else if (m->n == 1)
		m->at = b;
	k = (m->n - 1) / 2;
	while (k < m->below)
		m->below -= m->count[--m->at];
	while (k >= m->below + m->count[m->at])
		m->below += m->count[m->at++];
}

uint64_t
wspx__median_get(const struct wspx__median *m)
{
	return m->n == 0 ? 0 : middle(m->at);
}
