/*
 * SHA-256's compression function with the CPU's SHA instructions, where
 * it has them (x86's SHA extensions): sha256.c's, faster.
 */
#ifndef WSPX_SHA256NI_H
#define WSPX_SHA256NI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether this CPU has the instructions (and this build the code). */
bool wspx__sha256ni_usable(void);

/* Compress nblocks 64-byte blocks at p (any alignment) into the chaining
 * state h, as FIPS 180-4 section 6.2.2 does.  Only if usable. */
void wspx__sha256ni_compress(uint32_t h[8], const unsigned char *p,
    size_t nblocks);

#endif /* WSPX_SHA256NI_H */
