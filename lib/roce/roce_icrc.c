/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC-32 and the RoCEv2 ICRC masking. Two engines behind one entry point: carry-less
 * multiplication folding (x86-64 with PCLMULQDQ, chosen at load time; 512-bit lanes with
 * AVX-512 VPCLMULQDQ for long runs) for runs of 16 bytes and more, a last partial block
 * included, and slicing-by-8 (eight 256-entry tables, 8 KiB, built before main) for
 * shorter runs and other CPUs. With PCLMULQDQ the ICRC prefix (8 x 0xFF, IP, UDP, BTH) is
 * masked in registers and folded as whole blocks. roce_crc32_copy() folds while it copies.
 */
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ROCE_HAVE_CLMUL 1
#endif

#include "roce_hdr.h"
#include "roce_icrc.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u

static uint32_t crc_tab[8][256];
static int use_clmul;
static int use_vpclmul; /* AVX-512 + VPCLMULQDQ: the 256-byte fold for long runs */
/* roce_icrc_compute()'s and roce_icrc_write()'s engines, picked below (the table engine
 * until then) */
static uint32_t (*icrc_compute_fn)(const uint8_t *l3, size_t len,
				   int ipv6) = roce_icrc_compute_generic;
static void icrc_write_generic(uint8_t *l3, size_t len, int ipv6);
static void (*icrc_write_fn)(uint8_t *l3, size_t len, int ipv6) = icrc_write_generic;
#if defined(__x86_64__) && defined(__GNUC__)
static uint32_t icrc_compute_sse(const uint8_t *l3, size_t len, int ipv6);
static uint32_t icrc_compute_avx(const uint8_t *l3, size_t len, int ipv6);
static void icrc_write_sse(uint8_t *l3, size_t len, int ipv6);
static void icrc_write_avx(uint8_t *l3, size_t len, int ipv6);
#endif

__attribute__((constructor)) static void roce_crc32_tables_init(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ ((c & 1u) ? CRC32_POLY_REFLECTED : 0u);
		crc_tab[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			crc_tab[j][i] = (crc_tab[j - 1][i] >> 8) ^ crc_tab[0][crc_tab[j - 1][i] & 0xFFu];
#ifdef ROCE_HAVE_CLMUL
	__builtin_cpu_init();
	use_clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
	use_vpclmul = use_clmul && __builtin_cpu_supports("avx512f") &&
		      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
		      __builtin_cpu_supports("vpclmulqdq");
	if (use_clmul) {
		int avx = __builtin_cpu_supports("avx");

		icrc_compute_fn = avx ? icrc_compute_avx : icrc_compute_sse;
		icrc_write_fn = avx ? icrc_write_avx : icrc_write_sse;
	}
#endif
}

#ifdef ROCE_HAVE_CLMUL
/*
 * Folding for the reflected polynomial. A run is kept as a "pending" 128-bit block x0 (the
 * polynomial of everything so far, not yet reduced); each further 16 bytes b give
 * x0 * x^128 + b, computed as lo(x0) * (x^160 mod P) + hi(x0) * (x^96 mod P) + b. Long runs
 * use four lanes folded 64 bytes at a time (x^544, x^480), or with VPCLMULQDQ four 512-bit
 * lanes folded 256 bytes at a time (x^2080, x^2016); a last partial block is shifted into
 * place with PSHUFB (no byte loop); clmul_reduce() gives the 32-bit register (one fold to
 * 96 bits, one Barrett step). Constants: bit-reflected (x^n mod P(x)) << 1, P = 0x04C11DB7.
 */
#define CLMUL_FN __attribute__((target("pclmul,sse4.1"))) static inline
#define CLMUL_K(lo, hi) _mm_set_epi64x((long long)(hi), (long long)(lo))

/* x * x^D for the constant pair k = (x^(D+32), x^(D-32)). */
CLMUL_FN __m128i clmul_shift(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* x0 * x^128 + next: one 16-byte block into the pending remainder. */
CLMUL_FN __m128i clmul_fold16(__m128i x0, __m128i next)
{
	return _mm_xor_si128(clmul_shift(x0, CLMUL_K(0x1751997d0ull, 0x0ccaa009eull)), next);
}

/*
 * The pending x0 followed by the r = 1..15 bytes that end at end: the 16 + r bytes as
 * zeros(16 - r) || x0[0, r) and x0[r, 16) || the new bytes (leading zeros change nothing),
 * one fold. Reads end[-16, 0): the caller's buffer holds at least 16 bytes before end
 * (the bytes x0 came from). With masked, the bytes m sets are ORed into the r new bytes
 * first (m's byte k onto the k-th of them).
 */
__attribute__((always_inline)) CLMUL_FN __m128i clmul_fold_tail(__m128i x0, const uint8_t *end,
							       size_t r, int masked, __m128i m)
{
	static const uint8_t shuf[48] = {
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	};
	__m128i up = _mm_loadu_si128((const __m128i *)(shuf + r));       /* j -> j - (16 - r) */
	__m128i down = _mm_loadu_si128((const __m128i *)(shuf + 16 + r)); /* j -> j + r */
	__m128i t = _mm_loadu_si128((const __m128i *)(end - 16));

	if (masked) /* the new bytes are t[16 - r, 16): m moves up as x0's head does */
		t = _mm_or_si128(t, _mm_shuffle_epi8(m, up));
	return clmul_fold16(_mm_shuffle_epi8(x0, up),
			    _mm_blendv_epi8(_mm_shuffle_epi8(x0, down), t, down));
}

CLMUL_FN __m128i clmul_fold_partial(__m128i x0, const uint8_t *end, size_t r)
{
	return clmul_fold_tail(x0, end, r, 0, _mm_setzero_si128());
}

/*
 * The 128-bit pending remainder to the 32-bit CRC register: fold the first 64 bits into
 * the rest (S, 96 bits, the message times x^32 congruent), then one Barrett reduction of
 * those 96 bits, q = floor(S / P) = S_hi + floor(S_hi * mu' / x^64) with mu = x^64 + mu'
 * = floor(x^96 / P), the register the low 32 bits of S + q * P. Only q's low 32 bits
 * reach them, so q needs no mask. Three multiplications (the 96 -> 64 step and a 64-bit
 * Barrett would take four and three masks).
 */
CLMUL_FN uint32_t clmul_reduce(__m128i x0)
{
	const __m128i k3k4 = CLMUL_K(0x1751997d0ull, 0x0ccaa009eull);
	/* bit-reflected mu' (x^63 at bit 0), the polynomial (x^32 at bit 0) */
	const __m128i mu_poly = CLMUL_K(0x5a72d812fb808b20ull, 0x1db710641ull);
	__m128i s, q;

	s = _mm_xor_si128(_mm_srli_si128(x0, 8), _mm_clmulepi64_si128(x0, k3k4, 0x10));
	/* S_hi * mu': its high 63 bits, shifted into place, are floor(S_hi * mu' / x^64) */
	q = _mm_xor_si128(_mm_slli_epi64(_mm_clmulepi64_si128(s, mu_poly, 0x00), 1), s);
	return (uint32_t)_mm_extract_epi32(
		_mm_xor_si128(_mm_clmulepi64_si128(q, mu_poly, 0x10), s), 2);
}

#define VCLMUL_FN __attribute__((target("avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,sse4.1")))

/* Four lanes of 128 bits times x^D each, k as clmul_shift()'s pairs per lane. */
VCLMUL_FN static inline __m512i vclmul_shift(__m512i z, __m512i k)
{
	return _mm512_xor_si512(_mm512_clmulepi64_epi128(z, k, 0x00),
				_mm512_clmulepi64_epi128(z, k, 0x11));
}

/*
 * The bulk of a long run, 256 bytes per step in four 512-bit lanes; x0 pending before p
 * (whose 16 bytes p[-16, 0) are in the buffer), len >= 256. Copies what it folds to d
 * unless d is NULL. Returns the pending remainder and sets *done to the bytes consumed.
 */
VCLMUL_FN static __m128i vclmul_bulk(__m128i x0, const uint8_t *p, uint8_t *d, size_t len,
				     size_t *done)
{
	const __m512i k2048 = _mm512_broadcast_i32x4(CLMUL_K(0x11542778aull, 0x1322d1430ull));
	const __m512i k512 = _mm512_broadcast_i32x4(CLMUL_K(0x154442bd4ull, 0x1c6e41596ull));
	/* lane i of the last block to the end: x^384, x^256, x^128, x^0 */
	const __m512i kend = _mm512_set_epi64(0, 0, 0x0ccaa009ell, 0x1751997d0ll,
					      0x15a546366ll, 0xf1da05aall,
					      0x174359406ll, 0x3db1ecdcll);
	const uint8_t *p0 = p;
	__m512i z0, z1, z2, z3;
	__m128i r;

	/* the first lane starts 16 bytes early, with x0 in place of those bytes */
	z0 = _mm512_loadu_si512(p - 16);
	z1 = _mm512_loadu_si512(p + 48);
	z2 = _mm512_loadu_si512(p + 112);
	z3 = _mm512_loadu_si512(p + 176);
	if (d != NULL) { /* d[-16, 0) holds those bytes already: rewriting them is harmless */
		_mm512_storeu_si512(d - 16, z0);
		_mm512_storeu_si512(d + 48, z1);
		_mm512_storeu_si512(d + 112, z2);
		_mm512_storeu_si512(d + 176, z3);
		d += 240;
	}
	z0 = _mm512_inserti32x4(z0, x0, 0);
	p += 240;
	len -= 240;
	while (len >= 256) {
		__m512i b0 = _mm512_loadu_si512(p), b1 = _mm512_loadu_si512(p + 64);
		__m512i b2 = _mm512_loadu_si512(p + 128), b3 = _mm512_loadu_si512(p + 192);

		if (d != NULL) {
			_mm512_storeu_si512(d, b0);
			_mm512_storeu_si512(d + 64, b1);
			_mm512_storeu_si512(d + 128, b2);
			_mm512_storeu_si512(d + 192, b3);
			d += 256;
		}
		z0 = _mm512_xor_si512(vclmul_shift(z0, k2048), b0);
		z1 = _mm512_xor_si512(vclmul_shift(z1, k2048), b1);
		z2 = _mm512_xor_si512(vclmul_shift(z2, k2048), b2);
		z3 = _mm512_xor_si512(vclmul_shift(z3, k2048), b3);
		p += 256;
		len -= 256;
	}
	z0 = _mm512_xor_si512(vclmul_shift(z0, k512), z1);
	z0 = _mm512_xor_si512(vclmul_shift(z0, k512), z2);
	z0 = _mm512_xor_si512(vclmul_shift(z0, k512), z3);
	/* the four 128-bit lanes of z0 into one: each shifted to the end of the block */
	z1 = vclmul_shift(z0, kend);
	r = _mm_xor_si128(_mm512_castsi512_si128(z1), _mm512_extracti32x4_epi32(z1, 1));
	r = _mm_xor_si128(r, _mm512_extracti32x4_epi32(z1, 2));
	r = _mm_xor_si128(r, _mm512_extracti32x4_epi32(z0, 3));
	*done = (size_t)(p - p0);
	return r;
}

/*
 * Folds p[0, len) into the pending x0 (which covers at least the 16 bytes before p, in
 * the same buffer), copying the bytes to d unless d is NULL; returns the pending
 * remainder. Inlined into each caller, so the d == NULL case has no copy code.
 */
__attribute__((always_inline)) CLMUL_FN __m128i clmul_run(__m128i x0, const uint8_t *p,
							  uint8_t *d, size_t len)
{
	if (len >= 256 && use_vpclmul) {
		size_t done;

		x0 = vclmul_bulk(x0, p, d, len, &done);
		p += done;
		d = d != NULL ? d + done : NULL;
		len -= done;
	} else if (len >= 128) {
		const __m128i k1k2 = CLMUL_K(0x154442bd4ull, 0x1c6e41596ull);
		__m128i x1, x2, x3, b0, b1, b2, b3;

		/* four lanes: x0 and the next 48 bytes, then 64 bytes per step */
		x1 = _mm_loadu_si128((const __m128i *)p);
		x2 = _mm_loadu_si128((const __m128i *)(p + 16));
		x3 = _mm_loadu_si128((const __m128i *)(p + 32));
		if (d != NULL) {
			_mm_storeu_si128((__m128i *)d, x1);
			_mm_storeu_si128((__m128i *)(d + 16), x2);
			_mm_storeu_si128((__m128i *)(d + 32), x3);
			d += 48;
		}
		p += 48;
		len -= 48;
		while (len >= 64) {
			b0 = _mm_loadu_si128((const __m128i *)p);
			b1 = _mm_loadu_si128((const __m128i *)(p + 16));
			b2 = _mm_loadu_si128((const __m128i *)(p + 32));
			b3 = _mm_loadu_si128((const __m128i *)(p + 48));
			if (d != NULL) {
				_mm_storeu_si128((__m128i *)d, b0);
				_mm_storeu_si128((__m128i *)(d + 16), b1);
				_mm_storeu_si128((__m128i *)(d + 32), b2);
				_mm_storeu_si128((__m128i *)(d + 48), b3);
				d += 64;
			}
			x0 = _mm_xor_si128(clmul_shift(x0, k1k2), b0);
			x1 = _mm_xor_si128(clmul_shift(x1, k1k2), b1);
			x2 = _mm_xor_si128(clmul_shift(x2, k1k2), b2);
			x3 = _mm_xor_si128(clmul_shift(x3, k1k2), b3);
			p += 64;
			len -= 64;
		}
		x0 = clmul_fold16(x0, x1);
		x0 = clmul_fold16(x0, x2);
		x0 = clmul_fold16(x0, x3);
	}
	for (; len >= 16; p += 16, len -= 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)p);

		if (d != NULL) {
			_mm_storeu_si128((__m128i *)d, b);
			d += 16;
		}
		x0 = clmul_fold16(x0, b);
	}
	if (len != 0) {
		if (d != NULL)
			memcpy(d, p, len);
		x0 = clmul_fold_partial(x0, p + len, len);
	}
	return x0;
}

/* len >= 16: the register over buf (copied to dst unless dst is NULL). */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc32_clmul(uint32_t reg,
								    const uint8_t *p,
								    uint8_t *d, size_t len)
{
	__m128i b = _mm_loadu_si128((const __m128i *)p);

	if (d == NULL)
		return clmul_reduce(clmul_run(_mm_xor_si128(b, _mm_cvtsi32_si128((int)reg)),
					      p + 16, NULL, len - 16));
	_mm_storeu_si128((__m128i *)d, b);
	return clmul_reduce(clmul_run(_mm_xor_si128(b, _mm_cvtsi32_si128((int)reg)), p + 16,
				      d + 16, len - 16));
}

/*
 * The ICRC prefix in registers, no stack copy: the 8 bytes of 0xFF, then the IP, UDP and
 * BTH headers loaded from l3 in 16-byte blocks with the variant fields ORed to ones. The
 * first block is 0xFF x 8 + l3[0..8); the CRC's 0xFFFFFFFF seed XORed into its low four
 * bytes leaves them zero. IPv4 covers l3[0..40) in three blocks (the whole prefix), IPv6
 * l3[0..56) in four (the last 4 BTH bytes, all invariant, follow as data). *done gets the
 * number of l3 bytes folded in; the result is the pending remainder.
 */
CLMUL_FN __m128i clmul_icrc_prefix(const uint8_t *l3, int ipv6, size_t *done)
{
	__m128i x0, b;

	x0 = _mm_slli_si128(_mm_loadl_epi64((const __m128i *)l3), 8);
	if (!ipv6) {
		/* block 0: TOS (l3[1]); block 1 = l3[8..24): TTL, header checksum;
		 * block 2 = l3[24..40): UDP checksum (l3[26..27]), BTH byte 4 (l3[32]) */
		x0 = _mm_or_si128(x0, _mm_set_epi64x(0x000000000000FF00ll,
						     (long long)0xFFFFFFFF00000000ull));
		b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(l3 + 8)),
				 _mm_set_epi64x(0, 0xFFFF00FFll));
		x0 = clmul_fold16(x0, b);
		b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(l3 + 24)),
				 _mm_set_epi64x(0xFF, 0xFFFF0000ll));
		*done = 40;
		return clmul_fold16(x0, b);
	}
	/* block 0: traffic class and flow label (l3[0] low nibble, l3[1..3]), hop limit
	 * (l3[7]); block 3 = l3[40..56): UDP checksum (l3[46..47]), BTH byte 4 (l3[52]) */
	x0 = _mm_or_si128(x0, _mm_set_epi64x((long long)0xFF000000FFFFFF0Full,
					     (long long)0xFFFFFFFF00000000ull));
	x0 = clmul_fold16(x0, _mm_loadu_si128((const __m128i *)(l3 + 8)));
	x0 = clmul_fold16(x0, _mm_loadu_si128((const __m128i *)(l3 + 24)));
	b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(l3 + 40)),
			 _mm_set_epi64x(0xFF00000000ll, (long long)0xFFFF000000000000ull));
	*done = 56;
	return clmul_fold16(x0, b);
}

/* The rest of a long frame after its prefix, out of line: the short frames' path below
 * keeps no stack frame and no bulk set-up. */
__attribute__((target("pclmul,sse4.1"), noinline)) static uint32_t
icrc_clmul_long(__m128i x0, const uint8_t *p, size_t len)
{
	return clmul_reduce(clmul_run(x0, p, NULL, len));
}

/*
 * The whole ICRC register of l3[0, len), len >= the IP + UDP + BTH prefix. The eight 0xFF
 * bytes of the LRH stand-in are not folded as data: from the 0xFFFFFFFF seed they leave
 * the register at ROCE_ICRC_SEED, which XORs into l3's first four bytes like any CRC
 * register. So the blocks start at l3 itself: a WRITE ONLY of 8 bytes (64 bytes from the
 * IPv4 header) is four whole blocks, an ACK (44) two and a 12-byte tail. The blocks of
 * whole IP/UDP headers are masked with constants (IPv4: TOS l3[1], TTL l3[8], header
 * checksum l3[10..11], UDP checksum l3[26..27]; IPv6: traffic class and flow label
 * l3[0..3] but the version nibble, hop limit l3[7], UDP checksum l3[46..47]); the block
 * that holds BTH byte 4 (l3[32] or l3[52], the first after the headers) is masked whole
 * or, when the frame ends inside it, in the shifted tail. One reduction.
 */
__attribute__((target("pclmul,sse4.1"), always_inline)) static inline uint32_t
icrc_clmul(const uint8_t *l3, size_t len, int ipv6);

/* The IPv4 variant bits at l3[k] (TOS, TTL, header checksum, UDP checksum, BTH byte 4). */
static inline uint8_t icrc_v4_variant(size_t k)
{
	return k == 1 || k == 8 || k == 10 || k == 11 || k == 26 || k == 27 || k == 32 ? 0xFF
										      : 0;
}

/* The masks of the 16 bytes from l3[o] (o a constant: the vector is one). */
__attribute__((always_inline)) CLMUL_FN __m128i icrc_v4_mask(size_t o)
{
	uint8_t m[16];
	size_t i;

	for (i = 0; i < 16; i++)
		m[i] = icrc_v4_variant(o + i);
	return _mm_loadu_si128((const __m128i *)m);
}

/*
 * An IPv4 frame of a length n known when this is compiled (n a multiple of 4, 40 <= n
 * < 128): the blocks are aligned to the frame's end. The first holds l3[0, n mod 16)
 * (with the seed; at least 4 bytes) behind zeros, which change nothing, or the whole
 * l3[0, 16); every later block is whole: no shifted tail, no length test, the masks
 * constants.
 */
__attribute__((always_inline)) CLMUL_FN uint32_t icrc_v4_fixed(const uint8_t *l3, size_t n)
{
	size_t r = n & 15, o;
	__m128i x0;

	x0 = _mm_xor_si128(_mm_or_si128(_mm_loadu_si128((const __m128i *)l3), icrc_v4_mask(0)),
			   _mm_cvtsi32_si128((int)ROCE_ICRC_SEED));
	switch (r) { /* the first r bytes to the top of the block */
	case 4: x0 = _mm_slli_si128(x0, 12); break;
	case 8: x0 = _mm_slli_si128(x0, 8); break;
	case 12: x0 = _mm_slli_si128(x0, 4); break;
	default: break;
	}
	for (o = r ? r : 16; o < n; o += 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(l3 + o));

		if (o <= 32) /* a block past l3[32] has no variant field */
			b = _mm_or_si128(b, icrc_v4_mask(o));
		x0 = clmul_fold16(x0, b);
	}
	return clmul_reduce(x0);
}

/* ICRC_V4_LEN(n): the IPv4 path for a frame of exactly n bytes, every branch decided
 * when it is compiled (one copy per common length: no loop or length test left). */
#define ICRC_V4_LEN(n)                                                                       \
	case n:                                                                              \
		return icrc_v4_fixed(l3, n)

/*
 * The short IPv4 frames the fast paths send and receive (40..80 bytes: ACK 44, READ
 * request 56, READ response up to 36 payload bytes, SEND ONLY up to 40, WRITE ONLY up to
 * 24) reach a copy of the fold compiled for their length through one jump table; the
 * rest the general code.
 */
__attribute__((target("pclmul,sse4.1"), always_inline)) static inline uint32_t
icrc_clmul_dispatch(const uint8_t *l3, size_t len, int ipv6)
{
	if (!ipv6) {
		switch (len) {
		ICRC_V4_LEN(40); ICRC_V4_LEN(44); ICRC_V4_LEN(48); ICRC_V4_LEN(52);
		ICRC_V4_LEN(56); ICRC_V4_LEN(60); ICRC_V4_LEN(64); ICRC_V4_LEN(68);
		ICRC_V4_LEN(72); ICRC_V4_LEN(76); ICRC_V4_LEN(80);
		default:
			break;
		}
	}
	return icrc_clmul(l3, len, ipv6);
}

__attribute__((target("pclmul,sse4.1"), always_inline)) static inline uint32_t
icrc_clmul(const uint8_t *l3, size_t len, int ipv6)
{
	const __m128i seed = _mm_cvtsi32_si128((int)ROCE_ICRC_SEED);
	__m128i x0, m;
	size_t r;

	if (!ipv6) {
		x0 = _mm_or_si128(_mm_loadu_si128((const __m128i *)l3),
				  _mm_set_epi64x(0xFFFF00FFll, 0xFF00ll));
		x0 = clmul_fold16(_mm_xor_si128(x0, seed),
				  _mm_or_si128(_mm_loadu_si128((const __m128i *)(l3 + 16)),
					       _mm_set_epi64x(0xFFFF0000ll, 0)));
		l3 += 32;
		len -= 32;
		m = _mm_cvtsi32_si128(0xFF); /* BTH byte 4 at l3[32]: byte 0 of the next block */
	} else {
		x0 = _mm_or_si128(_mm_loadu_si128((const __m128i *)l3),
				  _mm_set_epi64x(0, (long long)0xFF000000FFFFFF0Full));
		x0 = clmul_fold16(_mm_xor_si128(x0, seed),
				  _mm_loadu_si128((const __m128i *)(l3 + 16)));
		x0 = clmul_fold16(x0, _mm_or_si128(_mm_loadu_si128((const __m128i *)(l3 + 32)),
						   _mm_set_epi64x((long long)0xFFFF000000000000ull,
								  0)));
		l3 += 48;
		len -= 48;
		m = _mm_slli_si128(_mm_cvtsi32_si128(0xFF), 4); /* l3[52]: byte 4 */
	}
	if (len >= 16) {
		x0 = clmul_fold16(x0, _mm_or_si128(_mm_loadu_si128((const __m128i *)l3), m));
		l3 += 16;
		len -= 16;
		if (__builtin_expect(len >= 128, 0))
			return icrc_clmul_long(x0, l3, len);
		/* straight-line blocks: a loop's trip-count set-up costs as much as a block */
		if (len >= 16) {
			x0 = clmul_fold16(x0, _mm_loadu_si128((const __m128i *)l3));
			l3 += 16;
			len -= 16;
			for (; len >= 16; l3 += 16, len -= 16)
				x0 = clmul_fold16(x0, _mm_loadu_si128((const __m128i *)l3));
		}
		if (len != 0)
			x0 = clmul_fold_partial(x0, l3 + len, len);
		return clmul_reduce(x0);
	}
	/* the frame ends in the block of BTH byte 4 (len >= 8 bytes of it): its mask moves
	 * with the tail's shift */
	r = len;
	return clmul_reduce(clmul_fold_tail(x0, l3 + r, r, 1, m));
}

__attribute__((target("pclmul,sse4.1"))) static uint32_t icrc_begin_clmul(const uint8_t *l3,
									 int ipv6)
{
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	size_t done;
	__m128i x0 = clmul_icrc_prefix(l3, ipv6, &done);

	return clmul_reduce(clmul_run(x0, l3 + done, NULL, pre - done));
}
#endif

uint32_t roce_crc32_update_generic(uint32_t reg, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len >= 8) {
		/* Byte-wise loads keep this endian- and alignment-neutral. */
		uint32_t lo = reg ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
			      (uint32_t)p[7] << 24;

		reg = crc_tab[7][lo & 0xFFu] ^ crc_tab[6][(lo >> 8) & 0xFFu] ^
		      crc_tab[5][(lo >> 16) & 0xFFu] ^ crc_tab[4][lo >> 24] ^
		      crc_tab[3][hi & 0xFFu] ^ crc_tab[2][(hi >> 8) & 0xFFu] ^
		      crc_tab[1][(hi >> 16) & 0xFFu] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		reg = (reg >> 8) ^ crc_tab[0][(reg ^ *p++) & 0xFFu];
	return reg;
}

uint32_t roce_crc32_update(uint32_t reg, const void *buf, size_t len)
{
#ifdef ROCE_HAVE_CLMUL
	if (len >= 16 && use_clmul)
		return crc32_clmul(reg, buf, NULL, len);
#endif
	return roce_crc32_update_generic(reg, buf, len);
}

uint32_t roce_crc32_copy(uint32_t reg, void *dst, const void *src, size_t len)
{
#ifdef ROCE_HAVE_CLMUL
	if (len >= 16 && use_clmul)
		return crc32_clmul(reg, src, dst, len);
#endif
	memcpy(dst, src, len);
	return roce_crc32_update_generic(reg, dst, len);
}

int roce_crc32_accelerated(void)
{
	return use_clmul;
}

/* The masked prefix on the portable path: a copy with the variant fields set to ones. */
static uint32_t icrc_begin_generic(const uint8_t *l3, int ipv6)
{
	uint8_t m[ROCE_IPV6_HLEN + ROCE_UDP_HLEN + ROCE_BTH_LEN];
	size_t iplen = ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN;
	size_t n = iplen + ROCE_UDP_HLEN + ROCE_BTH_LEN;

	memcpy(m, l3, n);
	if (ipv6) {
		/* Traffic class and flow label: everything but the version nibble. */
		m[0] |= 0x0F;
		m[1] = m[2] = m[3] = 0xFF;
		m[7] = 0xFF; /* hop limit */
	} else {
		m[1] = 0xFF;          /* TOS */
		m[8] = 0xFF;          /* TTL */
		m[10] = m[11] = 0xFF; /* header checksum */
	}
	m[iplen + 6] = m[iplen + 7] = 0xFF;           /* UDP checksum */
	m[iplen + ROCE_UDP_HLEN + 4] = 0xFF;          /* BTH FECN/BECN/reserved */
	return roce_crc32_update_generic(ROCE_ICRC_SEED, m, n);
}

uint32_t roce_icrc_begin(const uint8_t *l3, int ipv6)
{
#ifdef ROCE_HAVE_CLMUL
	if (use_clmul)
		return icrc_begin_clmul(l3, ipv6);
#endif
	return icrc_begin_generic(l3, ipv6);
}

uint32_t roce_icrc_compute_generic(const uint8_t *l3, size_t len, int ipv6)
{
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	uint32_t reg = icrc_begin_generic(l3, ipv6);

	reg = roce_crc32_update_generic(reg, l3 + pre, len - pre);
	return roce_icrc_final(reg);
}

#ifdef ROCE_HAVE_CLMUL
/* The fold inlined into two copies: SSE, and AVX (three-operand forms: no register copy
 * per multiplication). */
__attribute__((target("pclmul,sse4.1"))) static uint32_t icrc_compute_sse(const uint8_t *l3,
									 size_t len, int ipv6)
{
	return roce_icrc_final(icrc_clmul_dispatch(l3, len, ipv6));
}

__attribute__((target("avx,pclmul,sse4.1"))) static uint32_t
icrc_compute_avx(const uint8_t *l3, size_t len, int ipv6)
{
	return roce_icrc_final(icrc_clmul_dispatch(l3, len, ipv6));
}

/* The same two with the store (roce_icrc_write()): each length's copy ends on it. */
__attribute__((target("pclmul,sse4.1"))) static void icrc_write_sse(uint8_t *l3, size_t len,
								    int ipv6)
{
	roce_icrc_put(l3 + len, roce_icrc_final(icrc_clmul_dispatch(l3, len, ipv6)));
}

__attribute__((target("avx,pclmul,sse4.1"))) static void icrc_write_avx(uint8_t *l3, size_t len,
								        int ipv6)
{
	roce_icrc_put(l3 + len, roce_icrc_final(icrc_clmul_dispatch(l3, len, ipv6)));
}
#endif

static void icrc_write_generic(uint8_t *l3, size_t len, int ipv6)
{
	roce_icrc_put(l3 + len, roce_icrc_compute_generic(l3, len, ipv6));
}

uint32_t roce_icrc_compute_noavx(const uint8_t *l3, size_t len, int ipv6)
{
#ifdef ROCE_HAVE_CLMUL
	if (use_clmul)
		return icrc_compute_sse(l3, len, ipv6);
#endif
	return roce_icrc_compute_generic(l3, len, ipv6);
}

/* The engine picked before main (roce_crc32_tables_init): one indirect jump, no CPU test
 * per frame. */
uint32_t roce_icrc_compute(const uint8_t *l3, size_t len, int ipv6)
{
	return icrc_compute_fn(l3, len, ipv6);
}

void roce_icrc_write(uint8_t *l3, size_t len, int ipv6)
{
	icrc_write_fn(l3, len, ipv6);
}

uint16_t roce_ip_csum(const void *hdr, size_t len)
{
	const uint8_t *p = hdr;
	uint64_t sum = 0;
	uint32_t w;
	uint16_t h;

	/*
	 * One's-complement sums do not care about byte order (RFC 1071 2.B): add native
	 * 32-bit words (2^16 = 1 modulo 0xFFFF, so both halves count with weight one) and
	 * swap the folded result once, instead of assembling big-endian words byte by byte.
	 * An IPv4 header without options, the only caller on the hot path, unrolled.
	 */
	if (len == ROCE_IPV4_HLEN) {
		uint32_t v[5];

		memcpy(v, p, sizeof(v));
		sum = (uint64_t)v[0] + v[1] + v[2] + v[3] + v[4];
		len = 0;
	}
	for (; len >= 4; p += 4, len -= 4) {
		memcpy(&w, p, 4);
		sum += w;
	}
	if (len >= 2) {
		memcpy(&h, p, 2);
		sum += h;
		p += 2;
		len -= 2;
	}
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	if (len)
		sum += (uint32_t)p[0] << 8;
#else
	if (len)
		sum += p[0]; /* the high byte of a big-endian word: the low one here */
#endif
	sum = (sum & 0xFFFFFFFFu) + (sum >> 32);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	h = (uint16_t)~sum;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return h;
#else
	return (uint16_t)(h << 8 | h >> 8);
#endif
}
