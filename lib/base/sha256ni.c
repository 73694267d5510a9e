/*
 * SHA-256's compression function with the x86 SHA extensions (SHA-NI:
 * sha256rnds2, sha256msg1, sha256msg2), for the strings the up-to-date
 * check hashes itself: a job's identity lines and the digest over its
 * parts, which in a no-op build of a real tree (100 jobs naming 150
 * headers each) is a megabyte, and took the plain code 12% of the run.
 * The same digest as the plain code (sha256.c), which tests/unit/sha256
 * checks on the same inputs.
 *
 * The instructions keep the eight working variables in two registers,
 * ABEF and CDGH (A in the high lane of ABEF), and sha256rnds2 does two
 * rounds from the low two lanes of its third operand, W[t] + K[t]; the
 * schedule is made four words at a time: msg1 adds sigma0 of the next
 * word to each of W[t-16..t-13], the words W[t-7..t-4] are added from the
 * two vectors before, and msg2 adds sigma1, two words at a time, as each
 * needs the two before it.
 *
 * Built only for x86 with a compiler that takes per-function targets, so
 * that the rest of wspx keeps the baseline instruction set; used only if
 * cpuid says the CPU has SHA, SSSE3 and SSE4.1.
 */
#include "sha256ni.h"
#include "sha256k.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

#define TARGET	__attribute__((target("sha,ssse3,sse4.1")))

bool
wspx__sha256ni_usable(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) ||
	    !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return false;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return false;
	return (b & bit_SHA) != 0;
}

/* Words W[4i..4i+3] of the schedule, given the four vectors before. */
TARGET static inline __m128i
nextwords(__m128i w16, __m128i w12, __m128i w8, __m128i w4)
{
	__m128i t = _mm_sha256msg1_epu32(w16, w12);

	t = _mm_add_epi32(t, _mm_alignr_epi8(w4, w8, 4));
	return _mm_sha256msg2_epu32(t, w4);
}

TARGET void
wspx__sha256ni_compress(uint32_t h[8], const unsigned char *p,
    size_t nblocks)
{
	/* (big-endian words from bytes: each lane's bytes reversed) */
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
	    0x0405060700010203LL);
	__m128i abef, cdgh, saveabef, savecdgh, t, w[16];
	int i;

	/* h[0..3] is DCBA and h[4..7] HGFE in lane order, high to low */
	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]),
	    0x1b);
	abef = _mm_alignr_epi8(t, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, t, 0xf0);
	for (; nblocks > 0; nblocks--, p += 64) {
		saveabef = abef;
		savecdgh = cdgh;
		for (i = 0; i < 4; i++)
			w[i] = _mm_shuffle_epi8(_mm_loadu_si128(
			    (const __m128i *)(p + 16 * i)), swap);
		for (i = 4; i < 16; i++)
			w[i] = nextwords(w[i - 4], w[i - 3], w[i - 2],
			    w[i - 1]);
		for (i = 0; i < 16; i++) {
			t = _mm_add_epi32(w[i], _mm_loadu_si128(
			    (const __m128i *)&sha256_k[4 * i]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, t);
			/* (the high two lanes down, for the next two
			 * rounds; the old ABEF is the new CDGH) */
			abef = _mm_sha256rnds2_epu32(abef, cdgh,
			    _mm_shuffle_epi32(t, 0x0e));
		}
		abef = _mm_add_epi32(abef, saveabef);
		cdgh = _mm_add_epi32(cdgh, savecdgh);
	}
	/* back to DCBA and HGFE */
	t = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, t, 8));
}

#else

#include <stdlib.h>

bool
wspx__sha256ni_usable(void)
{
	return false;
}

void
wspx__sha256ni_compress(uint32_t h[8], const unsigned char *p,
    size_t nblocks)
{
	(void)h;
	(void)p;
	(void)nblocks;
	abort();	/* never: not usable */
}

#endif
