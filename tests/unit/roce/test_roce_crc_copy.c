/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * roce_crc32_copy(), the receive copy fused with the ICRC, against the plain path
 * (memcpy, then the portable table CRC): random lengths 0..9100 (every length up to 600,
 * where the block, four-lane and 256-byte paths change over), every source and
 * destination alignment 0..63 in turn, random seeds. Byte-exact copies, the same
 * register, nothing written outside the destination. And the ICRC of jumbo frames (the
 * long fold after the masked prefix) against the table engine.
 */
#include "irdma_test.h"
#include "roce_hdr.h"
#include "roce_icrc.h"

#define MAXLEN 9100u
#define GUARD  64u

static uint8_t src[MAXLEN + 128], dst[GUARD + MAXLEN + 128 + GUARD];
static uint32_t rng = 88172645u;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

T_CASE(copy_matches_plain_path)
{
	uint32_t i, n = 0, bad_crc = 0, bad_copy = 0, bad_guard = 0;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)rnd();
	for (i = 0; i < 600 + 1200; i++) {
		uint32_t len = i < 600 ? i : rnd() % (MAXLEN + 1);
		uint32_t sa = i % 64, da = (i * 7 + 3) % 64, seed = rnd(), want, got, k;
		uint8_t *d = dst + GUARD + da;

		memset(dst, 0xA5, sizeof(dst));
		want = roce_crc32_update_generic(seed, src + sa, len);
		got = roce_crc32_copy(seed, d, src + sa, len);
		n++;
		bad_crc += got != want;
		bad_copy += memcmp(d, src + sa, len) != 0;
		for (k = 0; k < sizeof(dst); k++)
			if ((dst + k < d || dst + k >= d + len) && dst[k] != 0xA5) {
				bad_guard++;
				break;
			}
	}
	T_EQ(bad_crc, 0);
	T_EQ(bad_copy, 0);
	T_EQ(bad_guard, 0);
	printf("# %u lengths/alignments: fused copy = memcpy + table CRC (%s)\n", n,
	       roce_crc32_accelerated() ? "carry-less multiply" : "table engine");
}

/* A copy in pieces chains like roce_crc32_update() over the same pieces. */
T_CASE(copy_chains_over_pieces)
{
	uint32_t i, bad = 0;

	for (i = 0; i < 200; i++) {
		uint32_t len = rnd() % 5000, cut = len ? rnd() % len : 0, reg;

		reg = roce_crc32_copy(0xFFFFFFFFu, dst, src, cut);
		reg = roce_crc32_copy(reg, dst + cut, src + cut, len - cut);
		bad += reg != roce_crc32_update(0xFFFFFFFFu, src, len);
		bad += memcmp(dst, src, len) != 0;
	}
	T_EQ(bad, 0);
}

/* The check fails when one payload bit differs (the CRC is computed, not assumed). */
T_CASE(copy_sees_one_bit)
{
	uint32_t a, b;

	a = roce_crc32_copy(0xFFFFFFFFu, dst, src, 4096);
	src[2049] ^= 0x10;
	b = roce_crc32_copy(0xFFFFFFFFu, dst, src, 4096);
	src[2049] ^= 0x10;
	T_CHECK(a != b);
	T_EQ(b, roce_crc32_update_generic(0xFFFFFFFFu, dst, 4096));
}

/* Jumbo ICRCs: the prefix in registers, then the long fold, against the tables. */
T_CASE(icrc_long_frames)
{
	static uint8_t f[MAXLEN + 64];
	uint32_t i, bad = 0, n = 0;
	int ipv6;

	for (i = 0; i < sizeof(f); i++)
		f[i] = (uint8_t)rnd();
	for (ipv6 = 0; ipv6 <= 1; ipv6++) {
		uint32_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN +
			       ROCE_BTH_LEN;

		for (i = 0; i < 400; i++) {
			uint32_t len = pre + (i < 200 ? i * 3 : rnd() % (MAXLEN - pre));
			uint32_t al = i % 16;

			n++;
			bad += roce_icrc_compute(f + al, len, ipv6) !=
			       roce_icrc_compute_generic(f + al, len, ipv6);
		}
	}
	T_EQ(bad, 0);
	printf("# %u IPv4/IPv6 frames up to %u bytes agree\n", n, MAXLEN);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
