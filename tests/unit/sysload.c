/*
 * The readings behind --memfree and --load: /proc/meminfo's text parsed
 * and read (from a file of our own and from /proc), the free memory with
 * and without MemAvailable, and the load average.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/sysload.h"
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
	return wspx__sysload_meminfo_parse(text, strlen(text), field, v);
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
	CHECK(wspx__sysload_meminfo_parse(sample, 0, "MemTotal", &v) ==
	    -ENOENT);
	CHECK(v == 7);
	/* no final newline, no NUL, a NUL before the line, tabs */
	CHECK(parse("MemTotal: 5 kB", "MemTotal", &v) == 0 && v == 5120);
	CHECK(wspx__sysload_meminfo_parse(trunc, sizeof(trunc) - 5, "MemFree",
	    &v) == 0 && v == 12 * 1024);
	CHECK(wspx__sysload_meminfo_parse(nul, sizeof(nul) - 1, "MemTotal",
	    &v) == 0
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
	return wspx__sysload_memavailable_parse(text, strlen(text), v);
}

static int
loadavg(const char *text, double *load)
{
	return wspx__sysload_loadavg_parse(text, strlen(text), load);
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
	CHECK(wspx__sysload_meminfo_read(path, "MemTotal", &v) == 0 &&
	    v == 24684092ull * 1024);
	CHECK(wspx__sysload_meminfo_read(path, "Hugepagesize", &v) == 0 &&
	    v == 2048 * 1024);
	CHECK(wspx__sysload_meminfo_read(path, "Nope", &v) == -ENOENT);
	/* past the 8 KiB the reader takes: the cut line is not read as 12 */
	while (n + 13 <= 8192 - 12) {
		memcpy(big + n, "Filler: 0 kB\n", 13);
		n += 13;
	}
	n += (size_t)snprintf(big + n, sizeof(big) - n,
	    "MemTotal: 1234567 kB\n");
	CHECK(n > 8192 && big[8191] != '\n');
	CHECK(writefile(path, big, n) == 0);
	CHECK(wspx__sysload_meminfo_read(path, "Filler", &v) == 0 && v == 0);
	CHECK(wspx__sysload_meminfo_read(path, "MemTotal", &v) == -ENOENT);
	unlink(path);
	CHECK(wspx__sysload_meminfo_read(path, "MemTotal", &v) == -ENOENT);
	CHECK(wspx__sysload_meminfo_read("/", "MemTotal", &v) == -EISDIR);
	/* this machine */
	CHECK(wspx__sysload_meminfo_read(NULL, "MemTotal", &total) == 0 &&
	    total > 0);
	CHECK(wspx__sysload_meminfo_read(NULL, "MemAvailable", &avail) == 0);
	CHECK(avail > 0 && avail <= total);
	v = 0;
	CHECK(wspx__sysload_memavailable(&v) == 0 && v > 0 && v <= total);
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
	CHECK(wspx__sysload_loadavg_parse("0.25999", 4, &load) == 0 &&
	    load == 0.25);
	load = -1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(loadavg(bad[i], &load) == -EINVAL);
	CHECK(load == -1);
	CHECK(wspx__sysload_loadavg(&load) == 0 && load >= 0);
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
	return test_done();
}
