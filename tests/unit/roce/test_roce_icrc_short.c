/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ICRC fast path for short frames (carry-less multiply from 16 bytes up, the masked
 * IP/UDP/BTH prefix built in registers) against the portable table engine and against an
 * independent reference built here the way doc/spec/rocev2.md §1.9 describes it: 8 bytes
 * of 0xFF, a copy of the packet with the variant fields set to ones, the standard CRC-32
 * over all of it.
 * Every length 0..256, every alignment of the first byte, IPv4 and IPv6, the engine without
 * AVX too (roce_icrc_compute_noavx), and roce_icrc_write()'s store. And the IP header
 * checksum (native-order sum) against RFC 1071 written out byte by byte.
 */
#include "irdma_test.h"
#include "roce_hdr.h"
#include "roce_icrc.h"

static uint8_t buf[16 + 512];
static uint32_t rng = 2463534242u;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd();
}

/* 1 when bit mask m of prefix byte i is a variant field (RoCEv2 ICRC masking). */
static uint8_t variant_bits(size_t i, int ipv6)
{
	size_t ip = ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN;

	if (ipv6) {
		if (i == 0)
			return 0x0F; /* traffic class, high nibble */
		if (i >= 1 && i <= 3)
			return 0xFF; /* traffic class, flow label */
		if (i == 7)
			return 0xFF; /* hop limit */
	} else if (i == 1 || i == 8 || i == 10 || i == 11) {
		return 0xFF; /* TOS, TTL, header checksum */
	}
	if (i == ip + 6 || i == ip + 7)
		return 0xFF; /* UDP checksum */
	if (i == ip + ROCE_UDP_HLEN + 4)
		return 0xFF; /* BTH FECN/BECN/reserved */
	return 0;
}

/* The spec's definition, written out: no shared code with lib/roce but the table CRC. */
static uint32_t icrc_reference(const uint8_t *l3, size_t len, int ipv6)
{
	static uint8_t m[8 + 512];
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	size_t i;

	memset(m, 0xFF, 8);
	memcpy(m + 8, l3, len);
	for (i = 0; i < pre; i++)
		m[8 + i] |= variant_bits(i, ipv6);
	return ~roce_crc32_update_generic(0xFFFFFFFFu, m, 8 + len);
}

T_CASE(crc32_every_length_0_256)
{
	uint32_t bad = 0, n = 0, len, align, s;

	fill(buf, sizeof(buf));
	for (len = 0; len <= 256; len++)
		for (align = 0; align < 16; align++)
			for (s = 0; s < 3; s++) {
				uint32_t seed = s == 0 ? 0xFFFFFFFFu : s == 1 ? 0 : rnd();

				n++;
				bad += roce_crc32_update(seed, buf + align, len) !=
				       roce_crc32_update_generic(seed, buf + align, len);
			}
	T_EQ(bad, 0);
	printf("# %u cases on the %s engine\n", n,
	       roce_crc32_accelerated() ? "carry-less multiply" : "table (no PCLMULQDQ here)");
}

static void icrc_lengths(int ipv6)
{
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	uint32_t bad_gen = 0, bad_ref = 0, bad_begin = 0, bad_noavx = 0, bad_write = 0, n = 0;
	static uint8_t copy[sizeof(buf)];
	size_t len, align;

	for (len = pre; len <= 256; len++) {
		for (align = 0; align < 16; align++) {
			uint8_t *l3 = buf + align;
			uint32_t fast, reg;

			fill(buf, sizeof(buf));
			fast = roce_icrc_compute(l3, len, ipv6);
			bad_gen += fast != roce_icrc_compute_generic(l3, len, ipv6);
			bad_ref += fast != icrc_reference(l3, len, ipv6);
			bad_noavx += fast != roce_icrc_compute_noavx(l3, len, ipv6);
			/* the chained form the header comment promises */
			reg = roce_icrc_begin(l3, ipv6);
			reg = roce_crc32_update(reg, l3 + pre, len - pre);
			bad_begin += roce_icrc_final(reg) != fast;
			/* roce_icrc_write(): the wire form at l3 + len, nothing else touched */
			memcpy(copy, buf, sizeof(buf));
			roce_icrc_put(copy + align + len, fast);
			roce_icrc_write(l3, len, ipv6);
			bad_write += memcmp(copy, buf, sizeof(buf)) != 0;
			n++;
		}
	}
	T_EQ(bad_gen, 0);
	T_EQ(bad_ref, 0);
	T_EQ(bad_begin, 0);
	T_EQ(bad_noavx, 0);
	T_EQ(bad_write, 0);
	printf("# IPv%d: %u length/alignment cases (%zu..256 bytes)\n", ipv6 ? 6 : 4, n, pre);
}

T_CASE(icrc_ipv4_every_length)
{
	icrc_lengths(0);
}

T_CASE(icrc_ipv6_every_length)
{
	icrc_lengths(1);
}

/* Flipping a variant bit leaves the ICRC alone; flipping any other bit changes it. */
static void icrc_masking(int ipv6)
{
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	size_t len = pre + 16 + 8 + 4, i; /* RETH + 8 bytes + pad-free: a WRITE frame */
	uint32_t wrong = 0, b;

	fill(buf, sizeof(buf));
	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			uint32_t before = roce_icrc_compute(buf, len, ipv6), after;
			int variant = i < pre && (variant_bits(i, ipv6) >> b) & 1;

			buf[i] ^= (uint8_t)(1u << b);
			after = roce_icrc_compute(buf, len, ipv6);
			buf[i] ^= (uint8_t)(1u << b);
			wrong += variant ? after != before : after == before;
		}
	}
	T_EQ(wrong, 0);
}

T_CASE(icrc_ipv4_masked_fields)
{
	icrc_masking(0);
}

T_CASE(icrc_ipv6_masked_fields)
{
	icrc_masking(1);
}

/* RFC 1071 written out: big-endian 16-bit words, the odd byte padded with a zero. */
static uint16_t csum_reference(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFFu) + (sum >> 16);
	return (uint16_t)~sum;
}

T_CASE(ip_csum_every_length)
{
	/* RFC 1071's example: the words sum to 0xDDF2 */
	static const uint8_t rfc[8] = { 0x00, 0x01, 0xF2, 0x03, 0xF4, 0xF5, 0xF6, 0xF7 };
	uint32_t bad = 0, len, align, k;

	T_EQ(roce_ip_csum(rfc, 8), (uint16_t)~0xDDF2u);
	for (k = 0; k < 64; k++) {
		fill(buf, sizeof(buf));
		if (k & 1) /* sums that carry a lot */
			memset(buf, 0xFF, 80);
		for (len = 0; len <= 64; len++)
			for (align = 0; align < 8; align++)
				bad += roce_ip_csum(buf + align, len) !=
				       csum_reference(buf + align, len);
	}
	T_EQ(bad, 0);
	/* a header with its checksum in place sums to zero */
	fill(buf, ROCE_IPV4_HLEN);
	buf[10] = buf[11] = 0;
	k = roce_ip_csum(buf, ROCE_IPV4_HLEN);
	buf[10] = (uint8_t)(k >> 8);
	buf[11] = (uint8_t)k;
	T_EQ(roce_ip_csum(buf, ROCE_IPV4_HLEN), 0);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
