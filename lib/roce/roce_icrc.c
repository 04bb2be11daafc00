/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC-32 and the RoCEv2 ICRC masking. Two engines behind one entry point: carry-less
 * multiplication folding (x86-64 with PCLMULQDQ, chosen at load time) for the 16-byte
 * blocks of runs of 16 bytes and more, and slicing-by-8 (eight 256-entry tables, 8 KiB,
 * built before main) for the last 0-15 bytes and for other CPUs. With PCLMULQDQ the ICRC
 * prefix (8 x 0xFF, IP, UDP, BTH) is masked in registers and folded as whole blocks.
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
#endif
}

static inline uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The 0-15 bytes after the last folded block, inline: at most one 8-byte and one 4-byte
 * slicing step, then single bytes. (roce_crc32_update_generic stays the plain reference.)
 */
static inline uint32_t crc32_tail(uint32_t reg, const uint8_t *p, size_t len)
{
	if (len >= 8) {
		uint32_t lo = reg ^ load_le32(p), hi = load_le32(p + 4);

		reg = crc_tab[7][lo & 0xFFu] ^ crc_tab[6][(lo >> 8) & 0xFFu] ^
		      crc_tab[5][(lo >> 16) & 0xFFu] ^ crc_tab[4][lo >> 24] ^
		      crc_tab[3][hi & 0xFFu] ^ crc_tab[2][(hi >> 8) & 0xFFu] ^
		      crc_tab[1][(hi >> 16) & 0xFFu] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	if (len >= 4) {
		uint32_t lo = reg ^ load_le32(p);

		reg = crc_tab[3][lo & 0xFFu] ^ crc_tab[2][(lo >> 8) & 0xFFu] ^
		      crc_tab[1][(lo >> 16) & 0xFFu] ^ crc_tab[0][lo >> 24];
		p += 4;
		len -= 4;
	}
	while (len--)
		reg = (reg >> 8) ^ crc_tab[0][(reg ^ *p++) & 0xFFu];
	return reg;
}

#ifdef ROCE_HAVE_CLMUL
/*
 * Folding for the reflected polynomial: four 128-bit lanes are folded 64 bytes at a
 * time with x^(512+32) and x^(512-32) mod P, merged with x^(128+32), x^(128-32), folded
 * per 16 bytes, reduced to 64 and 32 bits, then a Barrett reduction gives the register.
 * Constants are the bit-reflected powers of x mod P(x) = 0x04C11DB7 (with mu for Barrett).
 */
#define CLMUL_FN __attribute__((target("pclmul,sse4.1"))) static inline

/* x0 * x^128 + next: one 16-byte block into the running 128-bit remainder. */
CLMUL_FN __m128i clmul_fold16(__m128i x0, __m128i next)
{
	const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009ell, 0x1751997d0ll);
	__m128i t0 = _mm_clmulepi64_si128(x0, k3k4, 0x00);

	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x0, k3k4, 0x11), t0), next);
}

/* The 128-bit remainder to the 32-bit CRC register. */
CLMUL_FN uint32_t clmul_reduce(__m128i x0)
{
	const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009ell, 0x1751997d0ll);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124ll);
	const __m128i poly_mu = _mm_set_epi64x(0x1f7011641ll, 0x1db710641ll);
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i t0;

	/* 128 -> 64 bits (appending 32 zero bits) */
	t0 = _mm_clmulepi64_si128(x0, k3k4, 0x10);
	x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t0);
	/* 64 -> 32 bits */
	t0 = _mm_srli_si128(x0, 4);
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), k5, 0x00);
	x0 = _mm_xor_si128(x0, t0);
	/* Barrett reduction */
	t0 = x0;
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), poly_mu, 0x10);
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), poly_mu, 0x00);
	x0 = _mm_xor_si128(x0, t0);
	return (uint32_t)_mm_extract_epi32(x0, 1);
}

/* Folds the 16-byte blocks of p[0..len) (len a multiple of 16) into x0 and reduces. */
CLMUL_FN uint32_t clmul_fold_tail(__m128i x0, const uint8_t *p, size_t len)
{
	for (; len >= 16; p += 16, len -= 16)
		x0 = clmul_fold16(x0, _mm_loadu_si128((const __m128i *)p));
	return clmul_reduce(x0);
}

/* len >= 16 and a multiple of 16. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc32_clmul(uint32_t reg,
								    const uint8_t *p,
								    size_t len)
{
	const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596ll, 0x154442bd4ll);
	__m128i x0, x1, x2, x3, t0, t1, t2, t3;

	x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)reg));
	if (len < 64) /* short runs: one lane from the start */
		return clmul_fold_tail(x0, p + 16, len - 16);
	x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	p += 64;
	len -= 64;
	while (len >= 64) {
		t0 = _mm_clmulepi64_si128(x0, k1k2, 0x00);
		t1 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
		t2 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
		t3 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
		x0 = _mm_clmulepi64_si128(x0, k1k2, 0x11);
		x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
		x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
		x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
		x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), _mm_loadu_si128((const __m128i *)p));
		x1 = _mm_xor_si128(_mm_xor_si128(x1, t1), _mm_loadu_si128((const __m128i *)(p + 16)));
		x2 = _mm_xor_si128(_mm_xor_si128(x2, t2), _mm_loadu_si128((const __m128i *)(p + 32)));
		x3 = _mm_xor_si128(_mm_xor_si128(x3, t3), _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		len -= 64;
	}
	/* four lanes into one */
	x0 = clmul_fold16(x0, x1);
	x0 = clmul_fold16(x0, x2);
	x0 = clmul_fold16(x0, x3);
	return clmul_fold_tail(x0, p, len);
}

/*
 * The ICRC prefix in registers, no stack copy: the 8 bytes of 0xFF, then the IP, UDP and
 * BTH headers loaded from l3 in 16-byte blocks with the variant fields ORed to ones. The
 * first block is 0xFF x 8 + l3[0..8); the CRC's 0xFFFFFFFF seed XORed into its low four
 * bytes leaves them zero. IPv4 covers l3[0..40) in three blocks (the whole prefix), IPv6
 * l3[0..56) in four (the last 4 BTH bytes, all invariant, follow as data). *done gets the
 * number of l3 bytes folded in; the result is the unreduced remainder.
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

__attribute__((target("pclmul,sse4.1"))) static uint32_t icrc_clmul(const uint8_t *l3,
								   size_t len, int ipv6)
{
	size_t done, n;
	__m128i x0 = clmul_icrc_prefix(l3, ipv6, &done);
	uint32_t reg;

	l3 += done;
	len -= done;
	if (len >= 64) /* long payloads: reduce once, then the four-lane fold */
		return roce_crc32_update(clmul_reduce(x0), l3, len);
	n = len & ~(size_t)15;
	reg = clmul_fold_tail(x0, l3, n);
	return crc32_tail(reg, l3 + n, len - n);
}

__attribute__((target("pclmul,sse4.1"))) static uint32_t icrc_begin_clmul(const uint8_t *l3,
									 int ipv6)
{
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	size_t done;
	uint32_t reg = clmul_reduce(clmul_icrc_prefix(l3, ipv6, &done));

	return crc32_tail(reg, l3 + done, pre - done);
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
	if (len >= 16 && use_clmul) {
		size_t n = len & ~(size_t)15;

		reg = crc32_clmul(reg, buf, n);
		return crc32_tail(reg, (const uint8_t *)buf + n, len - n);
	}
#endif
	return roce_crc32_update_generic(reg, buf, len);
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

uint32_t roce_icrc_compute(const uint8_t *l3, size_t len, int ipv6)
{
#ifdef ROCE_HAVE_CLMUL
	if (use_clmul)
		return roce_icrc_final(icrc_clmul(l3, len, ipv6));
#endif
	return roce_icrc_compute_generic(l3, len, ipv6);
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
