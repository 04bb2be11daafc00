/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/roce packet layer: ICRC vectors, the example frames of doc/spec/rocev2.md §8 built byte for
 * byte, every frame of the real rxe captures parsed and re-encoded identically, and each
 * class of corruption rejected with its own reason.
 */
#include <dirent.h>
#include <errno.h>

#include "irdma_test.h"
#include "roce_addr.h"
#include "roce_icrc.h"
#include "roce_pkt.h"
#include "roce_test_util.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t mac_b[6] = { 0x02, 0, 0, 0, 0, 0x0b };

/* Hosts of doc/spec/rocev2.md §8: A 192.168.1.10 QPN 0x11, B 192.168.1.11 QPN 0x12. */
static void host_pkt(struct roce_pkt *p, int a_to_b, int ipv6, uint16_t ip_id, uint8_t op)
{
	static const uint8_t ip_a[4] = { 192, 168, 1, 10 }, ip_b[4] = { 192, 168, 1, 11 };

	memset(p, 0, sizeof(*p));
	memcpy(p->smac, a_to_b ? mac_a : mac_b, 6);
	memcpy(p->dmac, a_to_b ? mac_b : mac_a, 6);
	p->ipv6 = (uint8_t)ipv6;
	if (ipv6) {
		roce_gid_parse(a_to_b ? "fd00::a" : "fd00::b", p->sgid);
		roce_gid_parse(a_to_b ? "fd00::b" : "fd00::a", p->dgid);
	} else {
		roce_gid_from_ipv4(p->sgid, a_to_b ? ip_a : ip_b);
		roce_gid_from_ipv4(p->dgid, a_to_b ? ip_b : ip_a);
	}
	p->hop_limit = 64;
	p->ip_id = ip_id;
	p->ip_frag = 0x4000;
	p->sport = roce_udp_sport(0x11, 0x12, 0);
	p->opcode = op;
	p->pkey = 0xFFFF;
	p->dqpn = a_to_b ? 0x12 : 0x11;
}

/* Builds p, compares with the expected hex, then parses it back and re-encodes. */
static void check_frame(const struct roce_pkt *p, const char *hex, size_t cmp_from)
{
	uint8_t exp[2048], got[2048], again[2048];
	size_t n = t_hex(hex, exp, sizeof(exp));
	struct roce_pkt q;
	int len, len2, rc;

	len = roce_pkt_build(p, got, sizeof(got));
	T_EQ(len, (long long)(n + cmp_from));
	if (len != (int)(n + cmp_from))
		return;
	T_EQ(roce_pkt_frame_len(p), len);
	T_MEMEQ(got + cmp_from, exp, n);
	rc = roce_pkt_parse(got, (size_t)len, 0, &q);
	T_EQ(rc, 0);
	if (rc)
		return;
	T_EQ(q.wire_len, len);
	T_EQ(q.paylen, p->paylen);
	len2 = roce_pkt_build(&q, again, sizeof(again));
	T_EQ(len2, len);
	T_MEMEQ(again, got, (size_t)len);
}

T_CASE(crc32_check_value)
{
	/* The CRC-32/IEEE check value, and CRC32C's differs (a guard against the wrong poly). */
	T_EQ(~roce_crc32_update(0xFFFFFFFFu, "123456789", 9), 0xCBF43926u);
	T_CHECK(~roce_crc32_update(0xFFFFFFFFu, "123456789", 9) != 0xE3069283u);
	/* Chaining over pieces equals one pass; the seed is the register after 8 x 0xFF. */
	{
		uint8_t ff[8], buf[1000];
		uint32_t i, a, b;

		memset(ff, 0xFF, 8);
		T_EQ(roce_crc32_update(0xFFFFFFFFu, ff, 8), ROCE_ICRC_SEED);
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)(i * 7 + 3);
		a = roce_crc32_update(0xFFFFFFFFu, buf, sizeof(buf));
		for (i = 1; i < 17; i++) {
			b = roce_crc32_update(0xFFFFFFFFu, buf, i);
			b = roce_crc32_update(b, buf + i, sizeof(buf) - i);
			T_EQ(b, a);
		}
	}
}

T_CASE(crc32_engines_agree)
{
	static uint8_t buf[4200];
	uint32_t i, len, align, x = 12345, bad = 0, n = 0;

	for (i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (len = 0; len <= 4096; len += (len < 300 ? 1 : 37)) {
		for (align = 0; align < 16; align += (len < 300 ? 1 : 5)) {
			uint32_t seed = x = x * 1103515245u + 12345u;

			n++;
			bad += roce_crc32_update(seed, buf + align, len) !=
			       roce_crc32_update_generic(seed, buf + align, len);
		}
	}
	T_EQ(bad, 0);
	printf("# CRC-32 engine: %s; %u length/alignment/seed cases agree with the tables\n",
	       roce_crc32_accelerated() ? "carry-less multiply (PCLMULQDQ)" : "slicing-by-8", n);
}

T_CASE(icrc_connectx4_cnp)
{
	static const uint8_t src[4] = { 10, 0, 17, 1 }, dst[4] = { 10, 0, 18, 1 };
	struct roce_pkt p;
	uint8_t f[128], exp[4];
	int len;

	memset(&p, 0, sizeof(p));
	roce_gid_from_ipv4(p.sgid, src);
	roce_gid_from_ipv4(p.dgid, dst);
	p.tclass = 0xC2;
	p.ip_id = 0x718C;
	p.ip_frag = 0x4000;
	p.hop_limit = 64;
	p.sport = 0;
	p.opcode = ROCE_OP_CNP;
	p.pkey = 0xFFFF;
	p.bth_b4 = 0x40;
	p.dqpn = 0x118;
	len = roce_pkt_build(&p, f, sizeof(f));
	T_EQ(len, 14 + 20 + 40);
	t_hex("82fd002a", exp, 4);
	T_MEMEQ(f + len - 4, exp, 4);
	T_EQ(roce_get_be16(f + 14 + 20 + 4), 40); /* UDP length */
}

T_CASE(udp_sport_formula)
{
	T_EQ(roce_udp_sport(0x11, 0x12, 0), 0xC132);
	T_EQ(roce_udp_sport(0x12, 0x11, 0), 0xC132); /* symmetric */
	T_EQ(roce_udp_sport(0x20, 0x21, 0), 0xC420);
	T_EQ(roce_udp_sport(0x1a, 0x1b, 0), 49854); /* atomic_fadd.pcap */
	T_EQ(roce_udp_sport(0x12, 0x13, 0), 49494); /* rc_send.pcap */
	/* A flow label replaces the QPN hash: fl = 0x12345 -> 0x2345 ^ 0x4 */
	T_EQ(roce_udp_sport(1, 2, 0x12345), 0xC000 | (0x2345 ^ 0x4));
}

T_CASE(spec_8_1_write_only)
{
	struct roce_pkt p;

	host_pkt(&p, 1, 0, 1, ROCE_OP_RC_WRITE_ONLY);
	p.ackreq = 1;
	p.psn = 0xABCD;
	p.reth.va = 0x00007f0000001000ull;
	p.reth.rkey = 0x1234;
	p.reth.len = 8;
	p.payload = (const uint8_t *)"RDMA-WR!";
	p.paylen = 8;
	check_frame(&p,
		    "0200 0000 000b 0200 0000 000a 0800 4500 0044 0001 4000 4011 b742 c0a8"
		    "010a c0a8 010b c132 12b7 0030 0000 0a00 ffff 0000 0012 8000 abcd 0000"
		    "7f00 0000 1000 0000 1234 0000 0008 5244 4d41 2d57 5221 7647 bb63", 0);
}

T_CASE(spec_8_2_ack_ipv4_and_ipv6)
{
	struct roce_pkt p;

	host_pkt(&p, 0, 0, 1, ROCE_OP_RC_ACK);
	p.psn = 0xABCD;
	p.aeth.syndrome = ROCE_SYN_ACK;
	p.aeth.msn = 1;
	check_frame(&p,
		    "0200 0000 000a 0200 0000 000b 0800 4500 0030 0001 4000 4011 b756 c0a8"
		    "010b c0a8 010a c132 12b7 001c 0000 1100 ffff 0000 0011 0000 abcd 1f00"
		    "0001 3882 ec9f", 0);
	host_pkt(&p, 0, 1, 0, ROCE_OP_RC_ACK);
	p.psn = 0xABCD;
	p.aeth.syndrome = ROCE_SYN_ACK;
	p.aeth.msn = 1;
	check_frame(&p,
		    "0200 0000 000a 0200 0000 000b 86dd 6000 0000 001c 1140 fd00 0000 0000"
		    "0000 0000 0000 0000 000b fd00 0000 0000 0000 0000 0000 0000 000a c132"
		    "12b7 001c 0000 1100 ffff 0000 0011 0000 abcd 1f00 0001 4510 6290", 0);
}

T_CASE(spec_8_1_ipv6_icrc)
{
	struct roce_pkt p;
	uint8_t f[256], exp[4];
	int len;

	host_pkt(&p, 1, 1, 0, ROCE_OP_RC_WRITE_ONLY);
	p.ackreq = 1;
	p.psn = 0xABCD;
	p.reth.va = 0x00007f0000001000ull;
	p.reth.rkey = 0x1234;
	p.reth.len = 8;
	p.payload = (const uint8_t *)"RDMA-WR!";
	p.paylen = 8;
	len = roce_pkt_build(&p, f, sizeof(f));
	T_EQ(len, 14 + 40 + 8 + 12 + 16 + 8 + 4);
	t_hex("28bae4e6", exp, 4);
	T_MEMEQ(f + len - 4, exp, 4);
}

T_CASE(spec_8_3_read_request)
{
	struct roce_pkt p;

	host_pkt(&p, 1, 0, 2, ROCE_OP_RC_READ_REQ);
	p.ackreq = 1;
	p.psn = 0xABCE;
	p.reth.va = 0x00007f0000002000ull;
	p.reth.rkey = 0x1234;
	p.reth.len = 0x1000;
	check_frame(&p,
		    "0200 0000 000b 0200 0000 000a 0800 4500 003c 0002 4000 4011 b749 c0a8"
		    "010a c0a8 010b c132 12b7 0028 0000 0c00 ffff 0000 0012 8000 abce 0000"
		    "7f00 0000 2000 0000 1234 0000 1000 b406 6465", 0);
}

T_CASE(spec_8_4_send_only_imm_padded)
{
	struct roce_pkt p;

	host_pkt(&p, 1, 0, 3, ROCE_OP_RC_SEND_ONLY_IMM);
	p.ackreq = 1;
	p.se = 1;
	p.psn = 0xABD2;
	p.imm = 0xDEADBEEF;
	p.payload = (const uint8_t *)"hello";
	p.paylen = 5;
	check_frame(&p,
		    "0200 0000 000b 0200 0000 000a 0800 4500 0038 0003 4000 4011 b74c c0a8"
		    "010a c0a8 010b c132 12b7 0024 0000 05b0 ffff 0000 0012 8000 abd2 dead"
		    "beef 6865 6c6c 6f00 0000 f1a4 3770", 0);
}

T_CASE(spec_8_5_more)
{
	struct roce_pkt p;

	/* UD SEND ONLY */
	host_pkt(&p, 1, 0, 4, ROCE_OP_UD_SEND_ONLY);
	p.sport = roce_udp_sport(0x20, 0x21, 0);
	p.dqpn = 0x20;
	p.psn = 1;
	p.deth.qkey = 0x11111111;
	p.deth.sqpn = 0x21;
	p.payload = (const uint8_t *)"ping";
	p.paylen = 4;
	check_frame(&p,
		    "0200 0000 000b 0200 0000 000a 0800 4500 0038 0004 4000 4011 b74b c0a8"
		    "010a c0a8 010b c420 12b7 0024 0000 6400 ffff 0000 0020 0000 0001 1111"
		    "1111 0000 0021 7069 6e67 7e60 1520", 0);
	/* NAK PSN sequence error */
	host_pkt(&p, 0, 0, 5, ROCE_OP_RC_ACK);
	p.psn = 0xABCE;
	p.aeth.syndrome = ROCE_SYN_NAK_PSN_SEQ;
	p.aeth.msn = 1;
	check_frame(&p,
		    "0200 0000 000a 0200 0000 000b 0800 4500 0030 0005 4000 4011 b752 c0a8"
		    "010b c0a8 010a c132 12b7 001c 0000 1100 ffff 0000 0011 0000 abce 6000"
		    "0001 c760 450a", 0);
	/* RNR NAK, timer 12 */
	host_pkt(&p, 0, 0, 6, ROCE_OP_RC_ACK);
	p.psn = 0xABD2;
	p.aeth.syndrome = ROCE_AETH_RNR_NAK | 12;
	p.aeth.msn = 1;
	check_frame(&p,
		    "0200 0000 000a 0200 0000 000b 0800 4500 0030 0006 4000 4011 b751 c0a8"
		    "010b c0a8 010a c132 12b7 001c 0000 1100 ffff 0000 0011 0000 abd2 2c00"
		    "0001 3ae1 0cad", 0);
	/* READ RESPONSE ONLY (compared from the UDP header on) */
	host_pkt(&p, 0, 0, 7, ROCE_OP_RC_READ_RESP_ONLY);
	p.psn = 0xABCE;
	p.aeth.syndrome = ROCE_SYN_ACK;
	p.aeth.msn = 2;
	p.payload = (const uint8_t *)"READDATA";
	p.paylen = 8;
	check_frame(&p,
		    "c132 12b7 0024 0000 1000 ffff 0000 0011 0000 abce 1f00 0002 5245 4144"
		    "4441 5441 f401 cbe4", 34);
	/* FETCH_ADD */
	host_pkt(&p, 1, 0, 8, ROCE_OP_RC_FETCH_ADD);
	p.ackreq = 1;
	p.psn = 0xABD3;
	p.atmeth.va = 0x00007f0000003000ull;
	p.atmeth.rkey = 0x1234;
	p.atmeth.swap_add = 5;
	check_frame(&p,
		    "c132 12b7 0034 0000 1400 ffff 0000 0012 8000 abd3 0000 7f00 0000 3000"
		    "0000 1234 0000 0000 0000 0005 0000 0000 0000 0000 a591 8dd3", 34);
	/* ATOMIC ACKNOWLEDGE */
	host_pkt(&p, 0, 0, 9, ROCE_OP_RC_ATOMIC_ACK);
	p.psn = 0xABD3;
	p.aeth.syndrome = ROCE_SYN_ACK;
	p.aeth.msn = 3;
	p.atmack = 42;
	check_frame(&p,
		    "c132 12b7 0024 0000 1200 ffff 0000 0011 0000 abd3 1f00 0003 0000 0000"
		    "0000 002a 91f4 3381", 34);
}

T_CASE(vlan_and_build_errors)
{
	struct roce_pkt p, q;
	uint8_t f[256];
	int len;

	host_pkt(&p, 1, 0, 1, ROCE_OP_RC_SEND_ONLY);
	p.has_vlan = 1;
	p.vlan_tci = 0x6005; /* PCP 3, VID 5 */
	p.payload = (const uint8_t *)"abc";
	p.paylen = 3;
	len = roce_pkt_build(&p, f, sizeof(f));
	T_EQ(len, 18 + 20 + 8 + 12 + 4 + 4);
	T_EQ(roce_get_be16(f + 12), 0x8100);
	T_EQ(roce_pkt_parse(f, (size_t)len, 0, &q), 0);
	T_EQ(q.has_vlan, 1);
	T_EQ(q.vlan_tci, 0x6005);
	T_EQ(q.padcnt, 1);
	T_EQ(q.paylen, 3);
	T_MEMEQ(q.payload, "abc", 3);
	/* Trailing Ethernet padding is not part of the packet. */
	memset(f + len, 0xEE, 8);
	T_EQ(roce_pkt_parse(f, (size_t)len + 8, 0, &q), 0);
	T_EQ(q.wire_len, len);
	/* Build errors */
	T_EQ(roce_pkt_build(&p, f, (size_t)len - 1), -ENOSPC);
	p.opcode = 0x15;
	T_EQ(roce_pkt_build(&p, f, sizeof(f)), -EINVAL);
	p.opcode = ROCE_OP_RC_ACK; /* carries no payload */
	T_EQ(roce_pkt_build(&p, f, sizeof(f)), -EINVAL);
}

T_CASE(opcode_table_shape)
{
	unsigned int op, known = 0;

	for (op = 0; op < 256; op++) {
		const struct roce_opcode_info *oi = roce_opcode_get((uint8_t)op);
		uint32_t sum = 0, f;

		if (!oi)
			continue;
		known++;
		f = oi->flags;
		sum += (f & ROCE_OPF_DETH) ? ROCE_DETH_LEN : 0;
		sum += (f & ROCE_OPF_FETH) ? ROCE_FETH_LEN : 0;
		sum += (f & ROCE_OPF_RETH) ? ROCE_RETH_LEN : 0;
		sum += (f & ROCE_OPF_ATMETH) ? ROCE_ATMETH_LEN : 0;
		sum += (f & ROCE_OPF_IMM) ? ROCE_IMMDT_LEN : 0;
		sum += (f & ROCE_OPF_IETH) ? ROCE_IETH_LEN : 0;
		sum += (f & ROCE_OPF_AETH) ? ROCE_AETH_LEN : 0;
		sum += (f & ROCE_OPF_ATMACK) ? ROCE_ATMACK_LEN : 0;
		sum += (f & ROCE_OPF_CNPRSVD) ? ROCE_CNP_RSVD_LEN : 0;
		T_EQ(oi->ext_len, sum);
		T_EQ(oi->transport, ROCE_OP_TRANSPORT(op));
		T_CHECK(!!(f & ROCE_OPF_REQ) + !!(f & ROCE_OPF_RESP) + !!(f & ROCE_OPF_CNP) == 1);
		T_CHECK(oi->name != NULL);
	}
	/* 25 RC (0x00-0x14, 0x16, 0x17, 0x1C, 0x1D) + 12 UC + 2 UD + CNP */
	T_EQ(known, 25 + 12 + 2 + 1);
	T_EQ(roce_opcode_get(ROCE_OP_RC_ATOMIC_ACK)->off_atmack, 4);
	T_EQ(roce_opcode_get(ROCE_OP_RC_WRITE_ONLY_IMM)->off_imm, 16);
	T_EQ(roce_opcode_get(ROCE_OP_UD_SEND_ONLY_IMM)->off_imm, 8);
	T_EQ(roce_opcode_get(ROCE_OP_RC_FLUSH)->off_reth, 4);
	T_CHECK(roce_opcode_get(0x15) == NULL);
	T_CHECK(roce_opcode_get(0x40) == NULL); /* RD is not supported */
}

/* ---- corruption: one mutation per reason ---- */

static int base_frame(uint8_t *f, int op_padded)
{
	struct roce_pkt p;

	if (op_padded) {
		host_pkt(&p, 1, 0, 3, ROCE_OP_RC_SEND_ONLY_IMM);
		p.imm = 0xDEADBEEF;
		p.payload = (const uint8_t *)"hello";
		p.paylen = 5;
	} else {
		host_pkt(&p, 1, 0, 1, ROCE_OP_RC_WRITE_ONLY);
		p.reth.len = 8;
		p.payload = (const uint8_t *)"RDMA-WR!";
		p.paylen = 8;
	}
	p.ackreq = 1;
	p.psn = 0xABCD;
	return roce_pkt_build(&p, f, 256);
}

static void fix_ip_csum(uint8_t *f)
{
	f[24] = f[25] = 0;
	roce_put_be16(f + 24, roce_ip_csum(f + 14, 20));
}

/* Changes the IP and UDP lengths by delta (and the IP checksum). */
static void adjust_len(uint8_t *f, int delta)
{
	roce_put_be16(f + 16, (uint16_t)(roce_get_be16(f + 16) + delta));
	roce_put_be16(f + 38, (uint16_t)(roce_get_be16(f + 38) + delta));
	fix_ip_csum(f);
}

static void fix_icrc(uint8_t *f, int len)
{
	roce_icrc_put(f + len - 4, roce_icrc_compute(f + 14, (size_t)len - 14 - 4, 0));
}

T_CASE(corruption_reasons)
{
	uint8_t f[256];
	struct roce_pkt q;
	int len, i;
	unsigned int seen = 0;

#define EXPECT(mutation, reason)                                                           \
	do {                                                                               \
		len = base_frame(f, 0);                                                    \
		mutation;                                                                  \
		T_EQ(roce_pkt_parse(f, (size_t)len, 0, &q), (reason));                     \
		seen |= 1u << (reason);                                                    \
	} while (0)

	len = base_frame(f, 0);
	T_EQ(roce_pkt_parse(f, (size_t)len, 0, &q), 0);

	EXPECT(len = 40, ROCE_R_TRUNC);
	EXPECT(len = 10, ROCE_R_TRUNC);
	EXPECT(len -= 1, ROCE_R_TRUNC);
	EXPECT(f[12] = 0x08; f[13] = 0x06, ROCE_R_ETHERTYPE);
	EXPECT(f[14] = 0x65, ROCE_R_IP_VERSION);
	EXPECT(f[14] = 0x46; fix_ip_csum(f), ROCE_R_IP_HDR);
	EXPECT(f[20] = 0x20; fix_ip_csum(f), ROCE_R_IP_HDR); /* more fragments */
	EXPECT(f[24] ^= 0x01, ROCE_R_IP_CSUM);
	EXPECT(roce_put_be16(f + 16, 20); fix_ip_csum(f), ROCE_R_IP_LEN);
	EXPECT(f[23] = 6; fix_ip_csum(f), ROCE_R_NOT_UDP);
	EXPECT(f[37] = 0xB8, ROCE_R_UDP_PORT);
	EXPECT(f[39] += 4, ROCE_R_UDP_LEN);
	EXPECT(f[40] = 0x12; f[41] = 0x34, ROCE_R_UDP_CSUM);
	EXPECT(f[43] |= 0x01, ROCE_R_BTH_TVER);
	EXPECT(f[42] = 0x15, ROCE_R_OPCODE);
	EXPECT(f[42] = 0x40, ROCE_R_OPCODE);
	EXPECT(f[44] = 0x12, ROCE_R_PKEY);
	EXPECT(f[47] = f[48] = f[49] = 0, ROCE_R_QPN);
	/* READ REQUEST carries a RETH but no payload: the 8 bytes are illegal. */
	EXPECT(f[42] = ROCE_OP_RC_READ_REQ, ROCE_R_PAYLOAD);
	/* ATOMIC ACK needs 12 bytes of headers; shrink to 8 bytes of BTH extension. */
	EXPECT(f[42] = ROCE_OP_RC_ATOMIC_ACK; adjust_len(f, -16); len -= 16, ROCE_R_HDR_LEN);
	/* Payload + pad not a multiple of 4. */
	EXPECT(adjust_len(f, -1); len -= 1, ROCE_R_PAD);
	/* PadCnt larger than the payload: SEND ONLY with no payload and PadCnt 1 */
	EXPECT(f[42] = ROCE_OP_RC_SEND_ONLY; f[43] = 0x10; adjust_len(f, -24); len -= 24,
	       ROCE_R_PAD);
	EXPECT(f[72] ^= 0x40, ROCE_R_ICRC);
	EXPECT(f[len - 1] ^= 0x01, ROCE_R_ICRC);
	EXPECT(f[52] ^= 0x01, ROCE_R_ICRC); /* PSN is covered */
	/* Variant fields are not covered: TOS, TTL (with checksum fixed) and BTH byte 4. */
	EXPECT(f[15] = 0x02; f[22] = 3; fix_ip_csum(f); f[46] = 0x80, ROCE_R_OK);
	/* Recomputed ICRC with a corrupted payload is accepted (the ICRC is the only guard). */
	EXPECT(f[72] ^= 0x40; fix_icrc(f, len), ROCE_R_OK);
	/* A correct non-zero UDP checksum is accepted. */
	len = base_frame(f, 0);
	{
		uint32_t sum = 0;
		int ulen = roce_get_be16(f + 38);

		for (i = 26; i < 34; i += 2)
			sum += roce_get_be16(f + i);
		sum += 17 + (uint32_t)ulen;
		for (i = 0; i < ulen; i += 2)
			sum += roce_get_be16(f + 34 + i);
		while (sum >> 16)
			sum = (sum & 0xFFFF) + (sum >> 16);
		roce_put_be16(f + 40, (uint16_t)~sum);
		T_EQ(roce_pkt_parse(f, (size_t)len, 0, &q), 0);
		f[41] ^= 1;
		T_EQ(roce_pkt_parse(f, (size_t)len, 0, &q), ROCE_R_UDP_CSUM);
		T_EQ(roce_pkt_parse(f, (size_t)len, ROCE_PARSE_NO_CSUM, &q), 0);
	}
	/* Flags that skip checks. */
	len = base_frame(f, 1);
	f[len - 2] ^= 0xFF;
	T_EQ(roce_pkt_parse(f, (size_t)len, 0, &q), ROCE_R_ICRC);
	T_EQ(roce_pkt_parse(f, (size_t)len, ROCE_PARSE_NO_ICRC, &q), 0);
	T_EQ(q.padcnt, 3);
	T_EQ(q.paylen, 5);

	/* Every parse-time reason was produced by some mutation above. */
	for (i = ROCE_R_TRUNC; i <= ROCE_R_ICRC; i++)
		T_CHECK_MSG(seen & (1u << i), "reason %s never produced", roce_reason_name(i));
	T_CHECK(strcmp(roce_reason_name(ROCE_R_ICRC), "icrc") == 0);
#undef EXPECT
}

/* ---- the real rxe captures ---- */

/* Independent classification: Ethernet (+VLAN) / IPv4 or IPv6 / UDP dport 4791. */
static int is_roce(const uint8_t *f, uint32_t len)
{
	uint32_t off = 14;
	uint16_t et;

	if (len < 14)
		return 0;
	et = roce_get_be16(f + 12);
	if (et == 0x8100) {
		et = roce_get_be16(f + 16);
		off = 18;
	}
	if (et == 0x0800 && len >= off + 28 && f[off + 9] == 17)
		return roce_get_be16(f + off + (f[off] & 0xF) * 4 + 2) == 4791;
	if (et == 0x86DD && len >= off + 48 && f[off + 6] == 17)
		return roce_get_be16(f + off + 42) == 4791;
	return 0;
}

T_CASE(rxe_captures_parse_and_reencode)
{
	char dir[512], path[1024];
	DIR *d;
	struct dirent *de;
	unsigned long files = 0, frames = 0, roce = 0, other = 0, ops[256] = { 0 };
	unsigned int i, distinct = 0;

	snprintf(dir, sizeof(dir), "%s/rxe-pcaps", TEST_DATA_DIR);
	d = opendir(dir);
	T_CHECK_MSG(d != NULL, "cannot open %s", dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct t_pcap pc;
		const uint8_t *f;
		uint32_t cap, orig;
		size_t nl = strlen(de->d_name);
		int r;

		if (nl < 6 || strcmp(de->d_name + nl - 5, ".pcap"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		T_CHECK_MSG(t_pcap_open(&pc, path) == 0, "bad pcap %s", path);
		if (!pc.data)
			continue;
		T_EQ(pc.linktype, 1); /* Ethernet */
		files++;
		while ((r = t_pcap_next(&pc, &f, &cap, &orig)) == 1) {
			struct roce_pkt q;
			uint8_t again[9000];
			int rc, len;

			frames++;
			rc = roce_pkt_parse(f, cap, 0, &q);
			if (!is_roce(f, cap)) {
				other++;
				T_CHECK_MSG(rc == ROCE_R_ETHERTYPE || rc == ROCE_R_NOT_UDP ||
						    rc == ROCE_R_UDP_PORT,
					    "%s frame %lu: non-RoCE frame gave %s", de->d_name,
					    frames, roce_reason_name(rc));
				continue;
			}
			roce++;
			T_CHECK_MSG(rc == 0, "%s frame %lu: %s", de->d_name, frames,
				    roce_reason_name(rc));
			if (rc)
				continue;
			T_CHECK(cap == orig);
			ops[q.opcode]++;
			len = roce_pkt_build(&q, again, sizeof(again));
			T_EQ(len, q.wire_len);
			if (len > 0)
				T_CHECK_MSG(memcmp(again, f, (size_t)len) == 0,
					    "%s frame %lu (%s) re-encodes differently", de->d_name,
					    frames, roce_opcode_name(q.opcode));
		}
		T_EQ(r, 0);
		t_pcap_close(&pc);
	}
	closedir(d);
	for (i = 0; i < 256; i++)
		distinct += ops[i] != 0;
	printf("# rxe captures: %lu files, %lu frames, %lu RoCEv2 frames parsed and re-encoded "
	       "byte-exact (%u opcodes), %lu other frames classified as not RoCE\n",
	       files, frames, roce, distinct, other);
	T_EQ(files, 13);
	T_EQ(roce, 10 + 10 + 8 + 32 + 70 + 20 + 20 + 20 + 41 + 20 + 16 + 8 + 8);
	/* Opcodes seen in the captures (tshark summary). */
	T_CHECK(ops[0x00] && ops[0x01] && ops[0x02] && ops[0x04] && ops[0x06] && ops[0x07]);
	T_CHECK(ops[0x08] && ops[0x0A] && ops[0x0C] && ops[0x0D] && ops[0x0E] && ops[0x0F]);
	T_CHECK(ops[0x10] && ops[0x11] && ops[0x12] && ops[0x13] && ops[0x14] && ops[0x24]);
	T_CHECK(ops[0x64]);
}

/* Fields of single frames against the tshark dissection in tshark-excerpts.txt. */
static int pcap_frame(const char *name, unsigned int n, struct roce_pkt *q)
{
	char path[1024];
	struct t_pcap pc;
	const uint8_t *f;
	uint32_t cap, orig;
	unsigned int i;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/rxe-pcaps/%s", TEST_DATA_DIR, name);
	if (t_pcap_open(&pc, path))
		return -1;
	for (i = 1; t_pcap_next(&pc, &f, &cap, &orig) == 1; i++) {
		if (i == n) {
			static uint8_t keep[9000];

			memcpy(keep, f, cap);
			rc = roce_pkt_parse(keep, cap, 0, q);
			break;
		}
	}
	t_pcap_close(&pc);
	return rc;
}

T_CASE(rxe_capture_fields)
{
	struct roce_pkt q;
	uint8_t icrc[4];
	char s[ROCE_GID_STRLEN];

	T_EQ(pcap_frame("rc_send.pcap", 11, &q), 0);
	T_EQ(q.opcode, ROCE_OP_RC_SEND_FIRST);
	T_EQ(q.dqpn, 0x13);
	T_EQ(q.psn, 2954289);
	T_EQ(q.ackreq, 0);
	T_EQ(q.sport, 49494);
	T_EQ(q.ip_id, 0x9f97);
	T_EQ(q.paylen, 1024);
	T_EQ(q.hop_limit, 64);
	T_CHECK(strcmp(roce_gid_format(q.sgid, s, sizeof(s)), "198.18.0.12") == 0);
	T_CHECK(strcmp(roce_gid_format(q.dgid, s, sizeof(s)), "198.18.0.11") == 0);
	t_hex("033449da", icrc, 4);
	T_MEMEQ(q.payload + q.paylen, icrc, 4);

	T_EQ(pcap_frame("atomic_fadd.pcap", 23, &q), 0);
	T_EQ(q.opcode, ROCE_OP_RC_FETCH_ADD);
	T_EQ(q.dqpn, 0x1b);
	T_EQ(q.psn, 7285089);
	T_EQ(q.ackreq, 1);
	T_EQ(q.atmeth.va, 0x000055ca7759d000ull);
	T_EQ(q.atmeth.rkey, 0xd85);
	T_EQ(q.atmeth.swap_add, 1);
	T_EQ(q.atmeth.cmp, 0);

	T_EQ(pcap_frame("atomic_fadd.pcap", 24, &q), 0);
	T_EQ(q.opcode, ROCE_OP_RC_ATOMIC_ACK);
	T_EQ(q.dqpn, 0x1a);
	T_EQ(q.psn, 7285089);
	T_EQ(q.aeth.syndrome, 0x1F);
	T_EQ(q.aeth.msn, 1);
}

T_CASE(gid_helpers)
{
	uint8_t g[16], m[6];
	static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x96, 0xb7, 0x07 };
	char s[ROCE_GID_STRLEN];

	T_EQ(roce_gid_parse("198.18.0.11", g), 0);
	T_CHECK(roce_gid_is_ipv4(g));
	T_EQ(g[10], 0xFF);
	T_EQ(g[15], 11);
	T_EQ(roce_gid_parse("fd00::1", g), 0);
	T_CHECK(!roce_gid_is_ipv4(g));
	T_EQ(roce_gid_parse("not-an-ip", g), -EINVAL);
	roce_gid_from_mac(g, mac);
	T_CHECK(strcmp(roce_gid_format(g, s, sizeof(s)), "fe80::5054:ff:fe96:b707") == 0);
	T_EQ(roce_gid_parse("239.1.2.3", g), 0);
	roce_mcast_mac(g, m);
	T_EQ(m[0], 0x01);
	T_EQ(m[2], 0x5E);
	T_EQ(m[3], 1);
	T_EQ(m[5], 3);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
