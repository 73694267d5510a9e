/*
 * Reading a duration: one grammar for the options and the job file, so
 * that `--timeout 1m` and `timeout: 1m` mean the same.  GNU parallel's
 * forms: numbers each followed by a unit, added up (2h30m, 1d, 1m30s,
 * 1.5h), the last one's unit seconds when it has none (1m30); and ms,
 * which GNU parallel reads as minutes times seconds.
 */
#include "duration.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DAY 86400.0
#define BAD WSPX__NOT_DURATION

/* The unit at *s, case aside, and *s past it; seconds with none.
 * Returns its seconds, or 0 for a letter that is not a unit. */
static double
unit(const char **s)
{
	static const struct {
		const char *name;
		double seconds;
	} units[] = { { "ms", 0.001 }, { "s", 1 }, { "m", 60 },
	    { "h", 3600 }, { "d", DAY } };
	size_t i, n;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		n = strlen(units[i].name);
		if (strncasecmp(*s, units[i].name, n) == 0) {
			*s += n;
			return units[i].seconds;
		}
	}
	return **s == '\0' ? 1 : 0;
}

bool
wspx__duration_parse(const char *s, double *seconds, const char **why)
{
	double v, u, sum = 0;
	char *end;

	do {
		errno = 0;
		v = strtod(s, &end);
		/* (digits and a point only: no sign, exponent, hex, inf or
		 * nan, no blank) */
		if (end == s || errno != 0 || strspn(s, "0123456789.") !=
		    (size_t)(end - s)) {
			*why = BAD;
			return false;
		}
		s = end;
		if ((u = unit(&s)) == 0) {
			*why = BAD;
			return false;
		}
		sum += v * u;
		if (sum > DAY) {
			*why = "is more than a day";
			return false;
		}
	} while (*s != '\0');
	*seconds = sum;
	return true;
}
