/*
 * Sizes (see size.h), parsed by hand rather than with strtod(), so that a
 * caller's setlocale() cannot turn the decimal point into a comma, and
 * computed exactly rather than in floating point.
 */
#include "size.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* The power of base that unit suffix u (the rest of a size after its
 * number) stands for; 1^0 for none.  Returns 0, or -EINVAL if u is not a
 * unit GNU parallel's multiply_binary_prefix() knows. */
static int
unit(const char *u, uint32_t *base, int *power)
{
	static const char lower[] = "kmgtpezyx", upper[] = "KMGTPEZYX";
	const char *l, *h;

	*base = 1;
	*power = 0;
	if (*u == '\0')
		return 0;
	l = strchr(lower, *u);
	h = strchr(upper, *u);
	if (l == NULL && h == NULL)
		return -EINVAL;
	*power = l != NULL ? (int)(l - lower) + 1 : (int)(h - upper) + 1;
	*base = h != NULL ? 1024 : 1000;
	if (u[1] == 'i' || u[1] == 'I') {
		*base = 1024;
		u++;
	}
	return u[1] == '\0' ? 0 : -EINVAL;
}

/*
 * A size is computed exactly in 128 bits: the unit goes up to 1024^9 =
 * 2^90, so "0.001Z" needs more than 64 bits on the way to a result that
 * fits.  Only multiplication and division by a small number are needed.
 */
struct big {
	uint32_t w[4];		/* little-endian 32-bit limbs */
};

/* a = a * m + b (b may be NULL).  The callers keep it under 2^128. */
static void
big_muladd(struct big *a, uint32_t m, const struct big *b)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < 4; i++) {
		c += (uint64_t)a->w[i] * m + (b != NULL ? b->w[i] : 0);
		a->w[i] = (uint32_t)c;
		c >>= 32;
	}
	assert(c == 0);
}

/* a = floor(a / 10). */
static void
big_div10(struct big *a)
{
	uint64_t r = 0, cur;
	size_t i;

	for (i = 4; i-- > 0;) {
		cur = r << 32 | a->w[i];
		a->w[i] = (uint32_t)(cur / 10);
		r = cur % 10;
	}
}

static bool
big_fits(const struct big *a, uint64_t *v)
{
	*v = (uint64_t)a->w[1] << 32 | a->w[0];
	return a->w[2] == 0 && a->w[3] == 0;
}

/* floor(digits * m) for the numeral [is, ie) . [fs, fe), into *bytes:
 * the integer part by Horner's rule, stopping once it is past 2^64; the
 * fraction from its last digit as t = floor((d * m + t) / 10), which is
 * exact because floor((a + floor(x)) / 10) == floor((a + x) / 10) for an
 * integer a.  Below 2^128 throughout: v < 2^64, t < m <= 2^90. */
static int
scale(const char *is, const char *ie, const char *fs, const char *fe,
    const struct big *m, uint64_t *bytes)
{
	struct big v = { { 0 } }, t = { { 0 } }, dm;
	uint64_t out;

	for (; is < ie; is++) {
		dm = *m;
		big_muladd(&dm, (uint32_t)(*is - '0'), NULL);
		big_muladd(&v, 10, &dm);
		if (!big_fits(&v, &out))
			return -ERANGE;
	}
	while (fe > fs) {
		dm = *m;
		big_muladd(&dm, (uint32_t)(*--fe - '0'), &t);
		big_div10(&dm);
		t = dm;
	}
	big_muladd(&v, 1, &t);
	if (!big_fits(&v, &out))
		return -ERANGE;
	*bytes = out;
	return 0;
}

int
wspx__size_parse(const char *s, uint64_t *bytes)
{
	const char *p = s, *ie, *fs, *fe;
	struct big m = { { 1 } };
	uint32_t base;
	int power, rc;

	while (isdig(*p))
		p++;
	ie = fs = fe = p;
	if (*p == '.') {
		for (fs = ++p; isdig(*p); p++)
			;
		fe = p;
	}
	if (ie == s && fe == fs)
		return -EINVAL;		/* no digit: "", ".", "K", "-1" */
	if ((rc = unit(p, &base, &power)) != 0)
		return rc;
	while (power-- > 0)
		big_muladd(&m, base, NULL);
	return scale(s, ie, fs, fe, &m, bytes);
}

const char *
wspx__size_format(uint64_t bytes, char *buf, size_t n)
{
	static const char units[] = "KMGTPE";
	uint64_t u = 1024, tenths;
	int i = 0;

	if (bytes < 1024) {
		snprintf(buf, n, "%" PRIu64, bytes);
		return buf;
	}
	while (i < 5 && bytes / u >= 1024) {
		u *= 1024;
		i++;
	}
	/* one decimal, rounded; 1023.96K becomes 1M, not 1024.0K */
	tenths = bytes / u * 10 + (bytes % u * 10 + u / 2) / u;
	if (tenths >= 10240 && i < 5) {
		u *= 1024;
		i++;
		tenths = bytes / u * 10 + (bytes % u * 10 + u / 2) / u;
	}
	/* 16E is one byte more than any uint64_t and would not read
	 * back: what rounds to it is written in hundredths, rounded down
	 * (at most 15.99E, within a hundredth) */
	if (i == 5 && tenths >= 160)
		snprintf(buf, n, "15.%02uE",
		    (unsigned)(bytes % u / (u / 100 + 1)));
	else if (tenths % 10 == 0)
		snprintf(buf, n, "%" PRIu64 "%c", tenths / 10, units[i]);
	else
		snprintf(buf, n, "%" PRIu64 ".%u%c", tenths / 10,
		    (unsigned)(tenths % 10), units[i]);
	return buf;
}
