/*
 * The running median of --timeout N%: within 3% as the values come.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/median.h"
#include "test.h"

static void
test_median(void)
{
	static struct wspx__median m;
	uint64_t v, got, i;

	wspx__median_init(&m);
	CHECK(wspx__median_get(&m) == 0);
	wspx__median_add(&m, 7);
	CHECK(wspx__median_get(&m) == 7);
	/* 1000 values 1..1000 ms in a scrambled order: about 500 ms */
	wspx__median_init(&m);
	for (i = 0; i < 1000; i++) {
		v = (i * 7919) % 1000 + 1;
		wspx__median_add(&m, v * 1000000);
	}
	got = wspx__median_get(&m);
	CHECK(got >= 485000000 && got <= 515000000);
	/* skewed: many short, a few long, then the long ones take over */
	wspx__median_init(&m);
	for (i = 0; i < 100; i++)
		wspx__median_add(&m, 1000);
	for (i = 0; i < 10; i++)
		wspx__median_add(&m, 1000000000000ull);
	got = wspx__median_get(&m);
	CHECK(got >= 970 && got <= 1030);
	for (i = 0; i < 200; i++)
		wspx__median_add(&m, 1000000000000ull);
	got = wspx__median_get(&m);
	CHECK(got >= 970000000000ull && got <= 1030000000000ull);
	/* every magnitude, up to the largest value */
	wspx__median_init(&m);
	wspx__median_add(&m, UINT64_MAX);
	CHECK(wspx__median_get(&m) >= UINT64_MAX / 100 * 97);
}

int
main(void)
{
	TEST(test_median(), "median: within 3%%, as values come");
	return test_done();
}
