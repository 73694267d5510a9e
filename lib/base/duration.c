/*
 * Reading a duration: one grammar for the options and the job file, so
 * that `--timeout 1m` and `timeout: 1m` mean the same.
 */
#include "duration.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DAY 86400.0

bool
wspx__duration_parse(const char *s, double *seconds, const char **why)
{
	static const struct {
		const char *suffix;
		double seconds;
	} units[] = { { "", 1 }, { "ms", 0.001 }, { "s", 1 }, { "m", 60 },
	    { "h", 3600 } };
	const char *bad = "is not a duration (like 2s, 500ms, 1m)";
	double v;
	char *end;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	/* (digits and a point only: no sign, exponent, hex, inf or nan) */
	if (end == s || errno != 0 || strspn(s, "0123456789.") !=
	    (size_t)(end - s)) {
		*why = bad;
		return false;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (v * units[i].seconds > DAY) {
			*why = "is more than a day";
			return false;
		}
		*seconds = v * units[i].seconds;
		return true;
	}
	*why = bad;
	return false;
}
