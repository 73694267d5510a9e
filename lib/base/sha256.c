/*
 * SHA-256 as FIPS 180-4 specifies it (sections 4.1.2, 4.2.2, 5.1.1,
 * 5.3.3 and 6.2), written for the up-to-date check, which hashes every
 * source and generated file of a job before deciding to run it.  Words are
 * loaded big-endian byte by byte, so input of any alignment can be
 * compressed in place: update() copies only the partial blocks at either
 * end of the input into the context's buffer.
 *
 * Files are hashed by libcrypto (OpenSSL 3), whose SHA-256 uses the CPU's
 * SHA extensions where it has them: 4.7 times this code's speed on the
 * machines wspx is measured on (tests/bench/README.md).  It is opened
 * with dlopen(3) when a file is first hashed, not linked: loading it
 * costs 3 ms, which every run of wspx would pay, and a no-op build reads
 * no file.  Without it, files are hashed by this code, to the same
 * digest.  Strings, short (a job's identity, the digest over its parts),
 * keep this code: a libcrypto context costs an allocation and a method
 * lookup per hash.  Its compression function is then the CPU's SHA
 * instructions where it has them (sha256ni.c), 5 times the plain C's
 * speed.
 */
#include "sha256.h"
#include "sha256k.h"
#include "sha256ni.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>

/* (the types alone: libcrypto is opened when it is first needed) */
#include <openssl/evp.h>

/* As os/thread.h has it (base/ comes before os/). */
#define WSPX_MUST(call) do { if ((call) != 0) abort(); } while (0)

#define CHUNK	(64 * 1024)	/* bytes per read(2) of a file */


/* The square roots of the first 8 primes, likewise (section 5.3.3). */
static const uint32_t h0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t
ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t
load32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void
store32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* The message schedule W0..W63 of one block (section 6.2.2, step 1). */
static void
schedule(uint32_t w[64], const unsigned char *p)
{
	uint32_t s0, s1;
	int t;

	for (t = 0; t < 16; t++)
		w[t] = load32(p + 4 * t);
	for (t = 16; t < 64; t++) {
		s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
		s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
}

/* Compress nblocks 64-byte blocks at p into h (section 6.2.2, steps 2-4).
 * The working variables are locals so that the compiler keeps them in
 * registers; the moves between rounds cost nothing after renaming. */
static void
portable(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int t;

	for (; nblocks > 0; nblocks--, p += 64) {
		schedule(w, p);
		a = h[0]; b = h[1]; c = h[2]; d = h[3];
		e = h[4]; f = h[5]; g = h[6]; hh = h[7];
		for (t = 0; t < 64; t++) {
			t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
			    ((e & f) ^ (~e & g)) + sha256_k[t] + w[t];
			t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
			    ((a & b) ^ (a & c) ^ (b & c));
			hh = g; g = f; f = e; e = d + t1;
			d = c; c = b; b = a; a = t1 + t2;
		}
		h[0] += a; h[1] += b; h[2] += c; h[3] += d;
		h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
	}
}

/* The compression function: the CPU's SHA instructions where it has
 * them (sha256ni.c), else portable(); chosen once. */
static void (*compress)(uint32_t *, const unsigned char *, size_t) =
    portable;
static pthread_once_t compressonce = PTHREAD_ONCE_INIT;
static bool portableonly;		/* before the first hash (tests) */

static void
choose(void)
{
	if (!portableonly && wspx__sha256ni_usable())
		compress = wspx__sha256ni_compress;
}

void
wspx__sha256_portable(void)
{
	portableonly = true;
}

void
wspx__sha256_init(struct wspx__sha256 *c)
{
	/* (the once orders the choice before every use) */
	WSPX_MUST(pthread_once(&compressonce, choose));
	memcpy(c->h, h0, sizeof(c->h));
	c->len = 0;
	c->nbuf = 0;
}

void
wspx__sha256_update(struct wspx__sha256 *c, const void *p, size_t n)
{
	const unsigned char *in = p;
	size_t take;

	if (n == 0)	/* p may be NULL, which memcpy() may not be given */
		return;
	c->len += n;
	if (c->nbuf > 0) {
		take = 64 - c->nbuf < n ? 64 - c->nbuf : n;
		memcpy(c->buf + c->nbuf, in, take);
		c->nbuf += take;
		in += take;
		n -= take;
		if (c->nbuf < 64)
			return;
		compress(c->h, c->buf, 1);
		c->nbuf = 0;
	}
	/* The buffer is empty: whole blocks go straight from the input. */
	compress(c->h, in, n / 64);
	in += n / 64 * 64;
	n %= 64;
	if (n > 0)
		memcpy(c->buf, in, n);
	c->nbuf = n;
}

void
wspx__sha256_final(struct wspx__sha256 *c, unsigned char out[32])
{
	uint64_t bits = c->len * 8;
	int i;

	/* Section 5.1.1: a 1 bit, zeros, then the length in bits as a
	 * 64-bit big-endian number ending the last block. */
	c->buf[c->nbuf++] = 0x80;
	if (c->nbuf > 56) {
		memset(c->buf + c->nbuf, 0, 64 - c->nbuf);
		compress(c->h, c->buf, 1);
		c->nbuf = 0;
	}
	memset(c->buf + c->nbuf, 0, 56 - c->nbuf);
	store32(c->buf + 56, (uint32_t)(bits >> 32));
	store32(c->buf + 60, (uint32_t)bits);
	compress(c->h, c->buf, 1);
	for (i = 0; i < 8; i++)
		store32(out + 4 * i, c->h[i]);
}

/* libcrypto's EVP digest calls, found when a file is first hashed. */
static struct {
	EVP_MD_CTX *(*ctxnew)(void);
	void (*ctxfree)(EVP_MD_CTX *);
	const EVP_MD *(*sha256)(void);
	int (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int (*update)(EVP_MD_CTX *, const void *, size_t);
	int (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
} evp;
static bool haveevp;			/* set once, by loadevp() */
static pthread_once_t evponce = PTHREAD_ONCE_INIT;

/* Find libcrypto's calls (POSIX's way to store dlsym()'s result in a
 * function pointer); without libcrypto, files are hashed here. */
static void
loadevp(void)
{
	void *h = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL)
		return;
	*(void **)&evp.ctxnew = dlsym(h, "EVP_MD_CTX_new");
	*(void **)&evp.ctxfree = dlsym(h, "EVP_MD_CTX_free");
	*(void **)&evp.sha256 = dlsym(h, "EVP_sha256");
	*(void **)&evp.init = dlsym(h, "EVP_DigestInit_ex");
	*(void **)&evp.update = dlsym(h, "EVP_DigestUpdate");
	*(void **)&evp.final = dlsym(h, "EVP_DigestFinal_ex");
	haveevp = evp.ctxnew != NULL && evp.ctxfree != NULL &&
	    evp.sha256 != NULL && evp.init != NULL && evp.update != NULL &&
	    evp.final != NULL;
}

/* Hash what is left of fd with libcrypto into out, reading into buf.
 * 0, -errno reading, -ENOTSUP if libcrypto would not start (nothing
 * read) or -EPROTO if it failed after. */
static int
evpfd(int fd, unsigned char *buf, unsigned char out[32])
{
	EVP_MD_CTX *ctx;
	unsigned int len;
	ssize_t r;
	int rc = 0;

	if ((ctx = evp.ctxnew()) == NULL ||
	    evp.init(ctx, evp.sha256(), NULL) != 1) {
		evp.ctxfree(ctx);
		return -ENOTSUP;
	}
	while ((r = read(fd, buf, CHUNK)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			break;
		}
		if (evp.update(ctx, buf, (size_t)r) != 1) {
			rc = -EPROTO;
			break;
		}
	}
	if (rc == 0 && (evp.final(ctx, out, &len) != 1 || len != 32))
		rc = -EPROTO;
	evp.ctxfree(ctx);
	return rc;
}

/* Hash what is left of fd with the code above into out. */
static int
plainfd(int fd, unsigned char *buf, unsigned char out[32])
{
	struct wspx__sha256 c;
	ssize_t r;

	wspx__sha256_init(&c);
	while ((r = read(fd, buf, CHUNK)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		wspx__sha256_update(&c, buf, (size_t)r);
	}
	wspx__sha256_final(&c, out);
	return 0;
}

int
wspx__sha256_fdwith(int fd, bool libcrypto, unsigned char out[32])
{
	off_t at = lseek(fd, 0, SEEK_CUR);
	unsigned char *buf;
	int rc = -ENOTSUP;

	WSPX_MUST(pthread_once(&evponce, loadevp));
	/* From the heap: a pool worker's stack may be small. */
	if ((buf = malloc(CHUNK)) == NULL)
		return -ENOMEM;
	if (libcrypto && haveevp)
		rc = evpfd(fd, buf, out);
	/* (libcrypto unusable, say an OPENSSL_CONF it cannot load: this
	 * code, from where the file was) */
	if (rc == -ENOTSUP || (rc == -EPROTO && at >= 0 &&
	    lseek(fd, at, SEEK_SET) == at))
		rc = plainfd(fd, buf, out);
	free(buf);
	return rc;
}

bool
wspx__sha256_libcrypto(void)
{
	WSPX_MUST(pthread_once(&evponce, loadevp));
	return haveevp;
}

int
wspx__sha256_fd(int fd, unsigned char out[32])
{
	return wspx__sha256_fdwith(fd, true, out);
}

int
wspx__sha256_file(int dirfd, const char *path, unsigned char out[32])
{
	struct stat st;
	int fd, rc;

	/* O_NONBLOCK: a FIFO must not hold the worker until a writer comes
	 * (it is refused below, as every file that is not a regular one) */
	if ((fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) <
	    0 || fstat(fd, &st) != 0) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode))
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	else
		rc = wspx__sha256_fd(fd, out);
	close(fd);
	return rc;
}
