/*
 * The readings behind --memfree and --load: /proc/meminfo's text parsed
 * and read (from a file of our own and from /proc), the free memory with
 * and without MemAvailable, the load average, and sizes read as GNU
 * parallel 20221122's multiply_binary_prefix() reads them and written for
 * messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysload.h"
#include "test.h"

static const char sample[] =
    "MemTotal:       24684092 kB\n"
    "MemFree:        23851300 kB\n"
    "MemAvailable:   23983636 kB\n"
    "Buffers:            8692 kB\n"
    "Cached:           286464 kB\n"
    "SwapCached:           12 kB\n"
    "Active:           262144 kB\n"
    "HugePages_Total:       0\n"
    "HugePages_Free:        3\n"
    "Hugepagesize:       2048 kB\n";

/* A kernel before 3.14: no MemAvailable. */
static const char oldsample[] =
    "MemTotal:        2048000 kB\n"
    "MemFree:          100000 kB\n"
    "Buffers:           20000 kB\n"
    "Cached:           300000 kB\n"
    "SwapCached:         4000 kB\n";

static int
parse(const char *text, const char *field, uint64_t *v)
{
	return wspx__meminfo_parse(text, strlen(text), field, v);
}

static void
test_meminfo_parse(void)
{
	static const char *bad[] = { "MemTotal: abc kB\n", "MemTotal:\n",
	    "MemTotal: 12 MB\n", "MemTotal: 12 kB extra\n",
	    "MemTotal: -5 kB\n", "MemTotal: 12kBkB\n", "MemTotal: 1.5 kB\n",
	    "MemTotal: kB\n" };
	const char trunc[] = "MemFree: 12 kBXXXX";	/* n ends before X */
	const char nul[] = "X\0Y\nMemTotal: 1 kB\n";
	uint64_t v = 0;
	size_t i;

	CHECK(parse(sample, "MemTotal", &v) == 0 && v == 24684092ull * 1024);
	CHECK(parse(sample, "MemAvailable", &v) == 0 &&
	    v == 23983636ull * 1024);
	/* Cached is not SwapCached, whichever comes first */
	CHECK(parse(sample, "Cached", &v) == 0 && v == 286464ull * 1024);
	CHECK(parse(sample, "SwapCached", &v) == 0 && v == 12 * 1024);
	/* a value without kB is taken as it is */
	CHECK(parse(sample, "HugePages_Free", &v) == 0 && v == 3);
	CHECK(parse(sample, "Hugepagesize", &v) == 0 && v == 2048 * 1024);
	/* the name must be whole, and start its line */
	v = 7;
	CHECK(parse(sample, "Mem", &v) == -ENOENT);
	CHECK(parse(sample, "MemTota", &v) == -ENOENT);
	CHECK(parse(sample, "emTotal", &v) == -ENOENT);
	CHECK(parse(sample, "MemTotal:", &v) == -EINVAL);
	CHECK(parse(sample, "", &v) == -EINVAL);
	CHECK(parse(sample, "Shmem", &v) == -ENOENT);
	CHECK(wspx__meminfo_parse(sample, 0, "MemTotal", &v) == -ENOENT);
	CHECK(v == 7);
	/* no final newline, no NUL, a NUL before the line, tabs */
	CHECK(parse("MemTotal: 5 kB", "MemTotal", &v) == 0 && v == 5120);
	CHECK(wspx__meminfo_parse(trunc, sizeof(trunc) - 5, "MemFree",
	    &v) == 0 && v == 12 * 1024);
	CHECK(wspx__meminfo_parse(nul, sizeof(nul) - 1, "MemTotal", &v) == 0
	    && v == 1024);
	CHECK(parse("MemTotal:\t7\tkB\n", "MemTotal", &v) == 0 && v == 7168);
	/* the first of two lines counts */
	CHECK(parse("A: 1\nA: 2\n", "A", &v) == 0 && v == 1);
	/* garbage */
	v = 7;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse(bad[i], "MemTotal", &v) == -EINVAL);
	CHECK(parse("\x01\xff garbage\n\n:::\nMem Total: 3 kB\n", "MemTotal",
	    &v) == -ENOENT);
	CHECK(v == 7);
	/* kB times 1024 must still fit */
	CHECK(parse("MemTotal: 18014398509481983 kB\n", "MemTotal", &v) == 0
	    && v == (UINT64_MAX >> 10) << 10);
	CHECK(parse("MemTotal: 18014398509481984 kB\n", "MemTotal", &v) ==
	    -ERANGE);
	CHECK(parse("MemTotal: 99999999999999999999\n", "MemTotal", &v) ==
	    -ERANGE);
}

static int
memavail(const char *text, uint64_t *v)
{
	return wspx__memavailable_parse(text, strlen(text), v);
}

static int
loadavg(const char *text, double *load)
{
	return wspx__loadavg_parse(text, strlen(text), load);
}

static void
test_memavailable_parse(void)
{
	uint64_t v = 0;

	CHECK(memavail(sample, &v) == 0 && v == 23983636ull * 1024);
	/* old kernels: MemFree + Buffers + Cached, not SwapCached */
	CHECK(memavail(oldsample, &v) == 0 &&
	    v == (100000ull + 20000 + 300000) * 1024);
	v = 7;
	CHECK(memavail("MemFree: 1 kB\nCached: 1 kB\n", &v) == -ENOENT);
	CHECK(memavail("MemAvailable: x\nMemFree: 1 kB\n", &v) == -EINVAL);
	CHECK(v == 7);
}

static int
writefile(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "w");
	size_t w;

	if (f == NULL)
		return -1;
	w = fwrite(text, 1, n, f);
	return fclose(f) == 0 && w == n ? 0 : -1;
}

static void
test_meminfo_read(void)
{
	char path[] = "/tmp/wspx-meminfo-XXXXXX";
	char big[8192 + 64];
	uint64_t v = 0, total = 0, avail = 0;
	size_t n = 0;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	CHECK(writefile(path, sample, strlen(sample)) == 0);
	CHECK(wspx__meminfo_read(path, "MemTotal", &v) == 0 &&
	    v == 24684092ull * 1024);
	CHECK(wspx__meminfo_read(path, "Hugepagesize", &v) == 0 &&
	    v == 2048 * 1024);
	CHECK(wspx__meminfo_read(path, "Nope", &v) == -ENOENT);
	/* past the 8 KiB the reader takes: the cut line is not read as 12 */
	while (n + 13 <= 8192 - 12) {
		memcpy(big + n, "Filler: 0 kB\n", 13);
		n += 13;
	}
	n += (size_t)snprintf(big + n, sizeof(big) - n,
	    "MemTotal: 1234567 kB\n");
	CHECK(n > 8192 && big[8191] != '\n');
	CHECK(writefile(path, big, n) == 0);
	CHECK(wspx__meminfo_read(path, "Filler", &v) == 0 && v == 0);
	CHECK(wspx__meminfo_read(path, "MemTotal", &v) == -ENOENT);
	unlink(path);
	CHECK(wspx__meminfo_read(path, "MemTotal", &v) == -ENOENT);
	CHECK(wspx__meminfo_read("/", "MemTotal", &v) == -EISDIR);
	/* this machine */
	CHECK(wspx__meminfo_read(NULL, "MemTotal", &total) == 0 && total > 0);
	CHECK(wspx__meminfo_read(NULL, "MemAvailable", &avail) == 0);
	CHECK(avail > 0 && avail <= total);
	v = 0;
	CHECK(wspx__memavailable(&v) == 0 && v > 0 && v <= total);
}

static void
test_loadavg(void)
{
	static const char *bad[] = { "", "abc", "-1.0 0 0", ".5 0 0",
	    "1,5 0 0", "0.52x 0.58" };
	double load = -1;
	size_t i;

	CHECK(loadavg("0.52 0.58 0.59 1/389 12345\n", &load) == 0 &&
	    load > 0.5199 && load < 0.5201);
	CHECK(loadavg("12.00 3.00 1.00 2/3 4\n", &load) == 0 && load == 12.0);
	CHECK(loadavg("3", &load) == 0 && load == 3.0);
	CHECK(loadavg("0.25\t0.1", &load) == 0 && load == 0.25);
	/* n, not a NUL, ends the text */
	CHECK(wspx__loadavg_parse("0.25999", 4, &load) == 0 && load == 0.25);
	load = -1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(loadavg(bad[i], &load) == -EINVAL);
	CHECK(load == -1);
	CHECK(wspx__loadavg(&load) == 0 && load >= 0);
}

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
	CHECK(formats(UINT64_MAX, "16E"));
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
}

int
main(void)
{
	TEST(test_meminfo_parse(), "meminfo: fields, whole names, kB, "
	    "garbage, no final newline");
	TEST(test_memavailable_parse(), "memavailable: MemAvailable, or "
	    "MemFree + Buffers + Cached");
	TEST(test_meminfo_read(), "meminfo: a file, a long file, "
	    "/proc/meminfo");
	TEST(test_loadavg(), "loadavg: /proc/loadavg's text and now");
	TEST(test_size_parse(), "size: as GNU parallel 20221122 reads it");
	TEST(test_size_format(), "size: for messages, and read back");
	return test_done();
}
