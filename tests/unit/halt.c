/*
 * The halt policy, against GNU parallel 20221122: its forms, the bad ones,
 * and the exit statuses it gives.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/halt.h"
#include "test.h"

static bool
parses(const char *s, enum wspx__halt_when when, enum wspx__halt_why why,
    uint64_t count, bool percent)
{
	struct wspx__halt h;

	return wspx__halt_parse(s, &h) == 0 && h.when == when &&
	    (when == WSPX_HALT_NEVER || (h.why == why && h.count == count &&
	    h.percent == percent));
}

static void
test_halt_forms(void)
{
	static const char *bad[] = { "", "sometimes", "now", "now,", "now,fail",
	    "now,fail=", "now,fail=0", "now,fail=x", "now,fail=101%",
	    "now,fail=1x", "now,oops=1", "soon,fail=-1", "3", "-3", "0%",
	    "now,fail=1%%" };
	struct wspx__halt h = { WSPX_HALT_SOON, WSPX_HALT_DONE, 7, false };
	size_t i;

	CHECK(parses("never", WSPX_HALT_NEVER, 0, 0, false));
	CHECK(parses("0", WSPX_HALT_NEVER, 0, 0, false));
	CHECK(parses("1", WSPX_HALT_SOON, WSPX_HALT_FAIL, 1, false));
	CHECK(parses("2", WSPX_HALT_NOW, WSPX_HALT_FAIL, 1, false));
	CHECK(parses("-1", WSPX_HALT_SOON, WSPX_HALT_SUCCESS, 1, false));
	CHECK(parses("-2", WSPX_HALT_NOW, WSPX_HALT_SUCCESS, 1, false));
	CHECK(parses("25%", WSPX_HALT_SOON, WSPX_HALT_FAIL, 25, true));
	CHECK(parses("now,fail=1", WSPX_HALT_NOW, WSPX_HALT_FAIL, 1, false));
	CHECK(parses("soon,success=3", WSPX_HALT_SOON, WSPX_HALT_SUCCESS, 3,
	    false));
	CHECK(parses("now,done=50%", WSPX_HALT_NOW, WSPX_HALT_DONE, 50,
	    true));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(wspx__halt_parse(bad[i], &h) == -EINVAL);
		CHECK(h.when == WSPX_HALT_SOON && h.count == 7);
	}
}

/* The statuses GNU parallel 20221122 exits with, for -j1 and the jobs
 * `exit 0`, `exit 3`, `exit 5`, `exit 0`, `exit 7` (measured). */
static void
test_halt_statuses(void)
{
	static const int codes[] = { 0, 3, 5, 0, 7 };
	static const struct {
		const char *policy;
		int status;
	} want[] = { { "now,fail=1", 3 }, { "soon,fail=2", 2 },
	    { "now,success=1", 0 }, { "soon,done=2", 1 }, { "now,done=1", 0 },
	    { "now,fail=50%", 60 }, { "soon,success=50%", 60 }, { "2", 3 } };
	struct wspx__halt h;
	struct wspx__halt_counts c;
	size_t i, k;
	int status;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK(wspx__halt_parse(want[i].policy, &h) == 0);
		memset(&c, 0, sizeof(c));
		c.total = 5;
		status = -1;
		for (k = 0; k < 5 && status < 0; k++) {
			if (codes[k] != 0)
				c.failed++;
			else
				c.succeeded++;
			if (wspx__halt_met(&h, &c))
				status = wspx__halt_status_met(&h, &c,
				    codes[k]);
		}
		if (status < 0)
			status = wspx__halt_status(&h, &c);
		if (status != want[i].status)
			fprintf(stderr, "# --halt %s: %d, not %d\n",
			    want[i].policy, status, want[i].status);
		CHECK(status == want[i].status);
	}
	/* a percentage waits for the total */
	CHECK(wspx__halt_parse("now,fail=10%", &h) == 0);
	c = (struct wspx__halt_counts){ 5, 0, 0 };
	CHECK(!wspx__halt_met(&h, &c));
	c.total = 50;
	CHECK(wspx__halt_met(&h, &c));
	c.total = 51;
	CHECK(!wspx__halt_met(&h, &c));
	CHECK(wspx__halt_status(&h, &c) == 10);	/* 5 of 51, rounded up */
}

int
main(void)
{
	TEST(test_halt_forms(), "halt: GNU parallel's forms, and bad ones");
	TEST(test_halt_statuses(), "halt: exit statuses as GNU parallel's");
	return test_done();
}
