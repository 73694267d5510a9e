/*
 * Sizes, read as GNU parallel 20221122's multiply_binary_prefix() reads
 * them and written for messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/size.h"
#include "test.h"

/*
 * What /usr/bin/parallel 20221122's multiply_binary_prefix() gives, run
 * on each string (its sub, loaded into perl), and, for several, measured
 * through the CLI: `--pipe --recend '' --block S wc -c` prints blocks of
 * 1000 for 1k, 1024 for 1K, 1ki, 1KI and 1kI, 1500 for 1.5k, 1536 for
 * 1.5K, 512 for .5K, 1 for 1.9 and for 1., 100 for 100.7; and --memfree
 * between N*1000 and N*1024 bytes of free memory runs with Nk, waits with
 * NK and NKI.
 */
static void
test_size_parse(void)
{
	static const struct {
		const char *s;
		uint64_t v;
	} good[] = { { "0", 0 }, { "1", 1 }, { "1000", 1000 },
	    { "007", 7 }, { "1k", 1000 }, { "1K", 1024 }, { "1ki", 1024 },
	    { "1Ki", 1024 }, { "1kI", 1024 }, { "1KI", 1024 },
	    { "1m", 1000000 }, { "1M", 1048576 }, { "1mi", 1048576 },
	    { "1g", 1000000000 }, { "1G", 1073741824 },
	    { "13G", 13958643712ull },	/* parallel's own comment */
	    { "1t", 1000000000000ull }, { "1T", 1ull << 40 },
	    { "1p", 1000000000000000ull }, { "1P", 1ull << 50 },
	    { "1e", 1000000000000000000ull }, { "1E", 1ull << 60 },
	    { "1ei", 1ull << 60 }, { "15E", 15ull << 60 },
	    { "1.5k", 1500 }, { "1.5K", 1536 }, { "0.5K", 512 },
	    { ".5K", 512 }, { "1.", 1 }, { "1.9", 1 }, { "100.7", 100 },
	    { "2.5M", 2621440 }, { "15.999K", 16382 }, { "4.35k", 4350 },
	    { "123.456Mi", 129452998 }, { "0.001z", 1000000000000000000ull },
	    { "0Z", 0 }, { "0.0X", 0 }, { "0y", 0 },
	    { "18446744073709551615", UINT64_MAX },
	    { "15.9999999999999999999E", UINT64_MAX },
	    /* exact, where parallel's doubles say 1000, ...142, ...847 */
	    { "1.001k", 1001 }, { "15.999P", 18013272609575141ull },
	    { "0.001E", 1152921504606846ull },
	    { "0.001Z", 1180591620717411303ull } };
	static const char *bad[] = { "", ".", "..5", "1..5", "1.2.3", "K",
	    "k", "i", "1i", "1b", "1B", "1kb", "1KB", "1KiB", "1kiB", "1Kii",
	    "1ik", "-1", "-1K", "+1k", " 1k", "1 k", "1k ", "1\n", "1e3",
	    "1E3", "0x10", "1_000", "1+1", "2KK", "1kK", "1,5K", "1Q",
	    "99999999999999999999junk" };
	static const char *big[] = { "16E", "18446744073709551616",
	    "99999999999999999999", "17179869184G", "1Z", "1z", "1X",
	    "1x", "0.1Y", "16.0000000000000000001E" };
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 12345;
		if (wspx__size_parse(good[i].s, &v) != 0 || v != good[i].v)
			fprintf(stderr, "# %s: %" PRIu64 "\n", good[i].s, v);
		CHECK(wspx__size_parse(good[i].s, &v) == 0 && v == good[i].v);
	}
	v = 12345;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(wspx__size_parse(bad[i], &v) == -EINVAL);
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		CHECK(wspx__size_parse(big[i], &v) == -ERANGE);
	CHECK(v == 12345);
}

static bool
formats(uint64_t bytes, const char *want)
{
	char buf[16];
	const char *got = wspx__size_format(bytes, buf, sizeof(buf));

	if (got != buf || strcmp(got, want) != 0) {
		fprintf(stderr, "# %" PRIu64 ": %s, not %s\n", bytes, got,
		    want);
		return false;
	}
	return true;
}

static void
test_size_format(void)
{
	char buf[16];
	uint64_t v, back, unit;

	CHECK(formats(0, "0"));
	CHECK(formats(100, "100"));
	CHECK(formats(1023, "1023"));
	CHECK(formats(1024, "1K"));
	CHECK(formats(1075, "1K"));
	CHECK(formats(1126, "1.1K"));
	CHECK(formats(1536, "1.5K"));
	CHECK(formats(20480, "20K"));
	CHECK(formats((1ull << 20) - 1, "1M"));
	CHECK(formats(512ull << 20, "512M"));
	CHECK(formats(3ull << 29, "1.5G"));
	CHECK(formats(1ull << 40, "1T"));
	CHECK(formats(1ull << 60, "1E"));
	/* 16E would not read back (it is 2^64): hundredths, rounded down
	 * (found by tests/fuzz/values) */
	CHECK(formats(UINT64_MAX, "15.99E"));
	CHECK(formats(15ull << 60, "15E"));
	CHECK(formats((15ull << 60) + (9ull << 60) / 10, "15.9E"));
	CHECK(formats((15ull << 60) + (1ull << 60) / 100 * 96, "15.95E"));
	/* a short buffer is cut, still terminated */
	CHECK(wspx__size_format(1536, buf, 3) == buf && strcmp(buf, "1.") ==
	    0);
	/* the text reads back to within a twentieth of its unit */
	for (v = 1; v < UINT64_MAX / 3; v = v * 3 / 2 + 1) {
		wspx__size_format(v, buf, sizeof(buf));
		CHECK(wspx__size_parse(buf, &back) == 0);
		for (unit = 1; v / unit >= 1024 && unit < 1ull << 60;)
			unit <<= 10;
		CHECK((back > v ? back - v : v - back) <= unit / 20 + 1);
	}
	for (v = UINT64_MAX; v > UINT64_MAX - (1ull << 58); v -= 1ull << 50) {
		wspx__size_format(v, buf, sizeof(buf));
		CHECK(wspx__size_parse(buf, &back) == 0);
		CHECK((back > v ? back - v : v - back) <= (1ull << 60) / 20);
	}
}

int
main(void)
{
	TEST(test_size_parse(), "size: as GNU parallel 20221122 reads it");
	TEST(test_size_format(), "size: for messages, and read back");
	return test_done();
}
