/*
 * SHA-256 (FIPS 180-4), incremental, for the up-to-date check: the digest
 * of a job's command and of the files it reads and writes.  Strings with
 * the CPU's SHA instructions where it has them, else in plain C, a context
 * belonging to one thread at a time; files through libcrypto, opened when
 * first needed.
 */
#ifndef WSPX_SHA256_H
#define WSPX_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A hash in progress.  Transparent so that callers can keep one on their
 * stack; its fields are the implementation's. */
struct wspx__sha256 {
	uint32_t h[8];		/* the chaining state H0..H7 */
	uint64_t len;		/* bytes hashed so far */
	unsigned char buf[64];	/* a partial block not yet compressed */
	size_t nbuf;		/* bytes in buf, 0..63 */
};

/* Start a new hash in c (storage the caller provides). */
void wspx__sha256_init(struct wspx__sha256 *c);

/* Hash the n bytes at p (borrowed; p may be NULL if n is 0).  Whole
 * blocks are compressed straight from p, without copying. */
void wspx__sha256_update(struct wspx__sha256 *c, const void *p, size_t n);

/* Pad, finish and write the 32-byte digest to out.  c must be
 * initialized again before it is reused. */
void wspx__sha256_final(struct wspx__sha256 *c, unsigned char out[32]);

/* The SHA-256 of what is left to read of fd, read in 64 KiB chunks.  Any
 * thread.  Returns 0, -ENOMEM or -errno from read(2). */
int wspx__sha256_fd(int fd, unsigned char out[32]);

/* The same, with libcrypto (if it can be loaded) or with the plain C
 * code: for the tests, which compare the two. */
int wspx__sha256_fdwith(int fd, bool libcrypto, unsigned char out[32]);

/* Use the plain C code only, not the CPU's SHA instructions: for the
 * tests, which compare the two.  Before the first hash. */
void wspx__sha256_portable(void);

/* Whether libcrypto could be loaded (files are then hashed by it). */
bool wspx__sha256_libcrypto(void);

/* The SHA-256 of the file at path, relative to dirfd (AT_FDCWD for the
 * working directory), read in 64 KiB chunks.  Any thread.  Returns 0, or
 * -errno from openat(2) or read(2) (-EISDIR for a directory). */
int wspx__sha256_file(int dirfd, const char *path, unsigned char out[32]);

#endif /* WSPX_SHA256_H */
