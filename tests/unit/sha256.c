/*
 * Unit tests for SHA-256: the FIPS 180-4 example vectors, a message fed in
 * two and three pieces split at every offset, unaligned input, and files
 * hashed by wspx__sha256_file(), with libcrypto and with the plain code,
 * against sha256sum(1).  The plain code compresses with the CPU's SHA
 * instructions where it has them; with `portable`, with the C code alone
 * (make check runs both).
 *
 * usage: sha256 [portable]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sha256.h"
#include "test.h"

static void
hex(const unsigned char d[32], char out[65])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[64] = '\0';
}

/* Whether the SHA-256 of p[0..n) is want (hex), hashed in one update. */
static int
hashes_to(const void *p, size_t n, const char *want)
{
	struct wspx__sha256 c;
	unsigned char d[32];
	char h[65];

	wspx__sha256_init(&c);
	wspx__sha256_update(&c, p, n);
	wspx__sha256_final(&c, d);
	hex(d, h);
	return strcmp(h, want) == 0;
}

static void
test_vectors(void)
{
	static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklm"
	    "klmnlmnomnopnopq";
	static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijkl"
	    "fghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
	    "mnopqrstnopqrstu";
	char *million;

	CHECK(hashes_to(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855"));
	CHECK(hashes_to("abc", 3, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad"));
	CHECK(strlen(m448) == 56 && hashes_to(m448, 56,
	    "248d6a61d20638b8e5c026930c3e6039"
	    "a33ce45964ff2167f6ecedd419db06c1"));
	CHECK(strlen(m896) == 112 && hashes_to(m896, 112,
	    "cf5b16a778af8380036ce59e7b049237"
	    "0b249b11e8f07a51afac45037afee9d1"));
	million = malloc(1000000);
	CHECK(million != NULL);
	if (million == NULL)
		return;
	memset(million, 'a', 1000000);
	CHECK(hashes_to(million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0"));
	free(million);
}

/* The 200-byte message of test_splits(), whose SHA-256 is msg_sum. */
static void
fill(unsigned char *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		m[i] = (unsigned char)(i * 131 + 7);
}

static const char msg_sum[] = "78bbb470b40e45fffa0526d26567d7d3"
    "887d082518e712cc05d0a8f4903e231b";

/* Feed m[0..200) as m[0..i), m[i..j), m[j..200). */
static int
split3(const unsigned char *m, size_t i, size_t j)
{
	struct wspx__sha256 c;
	unsigned char d[32];
	char h[65];

	wspx__sha256_init(&c);
	wspx__sha256_update(&c, m, i);
	wspx__sha256_update(&c, m + i, j - i);
	wspx__sha256_update(&c, m + j, 200 - j);
	wspx__sha256_final(&c, d);
	hex(d, h);
	return strcmp(h, msg_sum) == 0;
}

static void
test_splits(void)
{
	unsigned char m[200];
	size_t i, j;
	int bad = 0;

	fill(m, sizeof(m));
	CHECK(hashes_to(m, sizeof(m), msg_sum));
	for (i = 0; i <= 200; i++)
		bad += !split3(m, i, i);
	CHECK(bad == 0);
	for (i = 0; i <= 200; i++)
		for (j = i; j <= 200; j++)
			bad += !split3(m, i, j);
	CHECK(bad == 0);
}

/* Blocks compressed straight from input at every alignment. */
static void
test_unaligned(void)
{
	unsigned char raw[200 + 16];
	size_t off;

	for (off = 0; off < 16; off++) {
		fill(raw + off, 200);
		CHECK(hashes_to(raw + off, 200, msg_sum));
	}
}

/* sha256sum's digest of path, or "" if it cannot be run. */
static void
sha256sum(const char *path, char out[65])
{
	char cmd[256];
	FILE *f;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "sha256sum '%s'", path);
	if ((f = popen(cmd, "r")) == NULL)
		return;
	if (fscanf(f, "%64s", out) != 1)
		out[0] = '\0';
	pclose(f);
}

/* The file at path hashes to want (hex) with libcrypto, or without. */
static void
checkfd(const char *path, bool libcrypto, const char *want)
{
	unsigned char d[32];
	char got[65];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	CHECK(fd >= 0);
	CHECK(wspx__sha256_fdwith(fd, libcrypto, d) == 0);
	close(fd);
	hex(d, got);
	CHECK(strcmp(got, want) == 0);
}

/* A file of n pseudo-random bytes hashes as sha256sum says. */
static void
check_file(const char *dir, size_t n)
{
	char path[128], want[65], got[65];
	unsigned char *buf, d[32];
	unsigned x = 12345;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "%s/f%zu", dir, n);
	buf = malloc(n + 1);
	CHECK(buf != NULL);
	if (buf == NULL)
		return;
	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (unsigned char)(x >> 16);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0 && write(fd, buf, n) == (ssize_t)n);
	close(fd);
	free(buf);
	sha256sum(path, want);
	CHECK(strlen(want) == 64);
	CHECK(wspx__sha256_file(AT_FDCWD, path, d) == 0);
	hex(d, got);
	CHECK(strcmp(got, want) == 0);
	/* libcrypto's and the plain code's, each */
	checkfd(path, true, want);
	checkfd(path, false, want);
	unlink(path);
}

static void
test_file(void)
{
	char dir[] = "/tmp/wspx-sha256-XXXXXX";
	unsigned char d[32];
	int dfd;

	/* (the build needs libcrypto's headers, whose package brings it) */
	CHECK(wspx__sha256_libcrypto());
	CHECK(mkdtemp(dir) != NULL);
	check_file(dir, 0);
	check_file(dir, 1000);
	/* Across 64 KiB reads, not a multiple of a block. */
	check_file(dir, 3 * 65536 + 77);
	/* Relative to a directory descriptor. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dfd >= 0);
	CHECK(wspx__sha256_file(dfd, "missing", d) == -ENOENT);
	CHECK(wspx__sha256_file(AT_FDCWD, dir, d) == -EISDIR);
	close(dfd);
	CHECK(rmdir(dir) == 0);
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "portable") == 0)
		wspx__sha256_portable();
	else if (argc > 1) {
		fprintf(stderr, "usage: sha256 [portable]\n");
		return 2;
	}
	TEST(test_vectors(), "sha256: the FIPS 180-4 example vectors");
	TEST(test_splits(), "sha256: a message split at every offset");
	TEST(test_unaligned(), "sha256: input at every alignment");
	TEST(test_file(), "sha256: files match sha256sum");
	return test_done();
}
