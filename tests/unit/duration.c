/*
 * Durations (lib/base/duration.c), read as GNU parallel 20221122's
 * multiply_time_units() reads them, but for ms (milliseconds here) and
 * the arithmetic it evaluates (refused here), at most a day.
 */
#include <stdio.h>
#include <string.h>

#include "base/duration.h"
#include "test.h"

/*
 * The seconds /usr/bin/parallel 20221122's multiply_time_units() gives,
 * run on each string (its sub, loaded into perl): 2h30m 9000, 1d 86400,
 * 1m30s 90, 1m30 90, 1.5h 5400, 2H 7200, 1D 86400, .5m 30, 30m1h 5400,
 * 23h59m60s 86400, 1s1s 2, 0.25s 0.25, 1h0.5m 3630.  It reads 500ms as
 * 30000 (500*60*1) and 1m/3 as 20 (a Perl expression).
 */
static void
test_duration_gnu(void)
{
	static const struct {
		const char *s;
		double v;
	} good[] = { { "2h30m", 9000 }, { "1d", 86400 }, { "1m30s", 90 },
	    { "1m30", 90 }, { "1.5h", 5400 }, { "2H", 7200 }, { "1D", 86400 },
	    { "10", 10 }, { "0", 0 }, { ".5m", 30 }, { "30m1h", 5400 },
	    { "23h59m60s", 86400 }, { "1s1s", 2 }, { "0.25s", 0.25 },
	    { "1h0.5m", 3630 }, { "500ms", 0.5 }, { "1m500ms", 60.5 },
	    { "2MS", 0.002 }, { "86399s1000ms", 86400 } };
	const char *why;
	double v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		why = NULL;
		v = -1;
		CHECK(wspx__duration_parse(good[i].s, &v, &why));
		if (v != good[i].v)
			fprintf(stderr, "%s: %g, not %g\n", good[i].s, v,
			    good[i].v);
		CHECK(v == good[i].v);
		CHECK(why == NULL);
	}
}

static void
test_duration_refused(void)
{
	static const char *const notdur[] = { "", "x", "h", "ms", "1x",
	    "1mx", "1 m", " 1", "1m ", "1h-1m", "-1", "+1", "1e3", "0x10",
	    "inf", "nan", "1..5", "1m/3", "1m*2", "1hh", "1m30x" };
	static const char *const toolong[] = { "2d", "1d1s", "24h1s",
	    "23h59m61s", "86401", "86399s1001ms", "1441m", "1440m1" };
	const char *why;
	double v;
	size_t i;

	for (i = 0; i < sizeof(notdur) / sizeof(notdur[0]); i++) {
		why = NULL;
		CHECK(!wspx__duration_parse(notdur[i], &v, &why));
		CHECK(why != NULL && strcmp(why, WSPX__NOT_DURATION) == 0);
	}
	for (i = 0; i < sizeof(toolong) / sizeof(toolong[0]); i++) {
		why = NULL;
		CHECK(!wspx__duration_parse(toolong[i], &v, &why));
		CHECK(why != NULL && strcmp(why, "is more than a day") == 0);
	}
}

int
main(void)
{
	TEST(test_duration_gnu(), "duration: GNU parallel's forms, summed; "
	    "ms in milliseconds");
	TEST(test_duration_refused(), "duration: what is not one, and more "
	    "than a day");
	return test_done();
}
