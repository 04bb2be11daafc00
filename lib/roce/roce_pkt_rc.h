/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side's common-case RC parse, inline: a receiver that parses every frame
 * (the device's wire) walks it once, in its own loop, without a call. roce_pkt_parse_rc*()
 * (roce_pkt.c) are the same pass out of line. Any frame the pass does not take goes to
 * roce_pkt_parse(), which names the reason it fails or fills every field.
 */
#ifndef ROCE_PKT_RC_H
#define ROCE_PKT_RC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "roce_hdr.h"
#include "roce_icrc.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_reason.h"

/* An IPv4 header without options sums (one's complement, with its checksum) to 0xFFFF.
 * Native-order 32-bit words, as roce_ip_csum(). */
static inline int roce_ipv4_csum_ok(const uint8_t *h)
{
	uint64_t a, b, sum;
	uint32_t c;

	/* the five 32-bit words as two 64-bit and one 32-bit load, straight from the frame */
	memcpy(&a, h, 8);
	memcpy(&b, h + 8, 8);
	memcpy(&c, h + 16, 4);
	sum = (a & 0xFFFFFFFFu) + (a >> 32) + (b & 0xFFFFFFFFu) + (b >> 32) + c;
	sum = (sum & 0xFFFFFFFFu) + (sum >> 32);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	sum = (sum & 0xFFFFu) + (sum >> 16);
	return sum == 0xFFFFu;
}

/*
 * The one pass over a frame whose IP header would start at l3_off (14, or 18 after an
 * 802.1Q tag): the EtherType just before it must say IPv4. flags: roce_pkt_parse()'s
 * (ROCE_PARSE_NO_CSUM skips the IPv4 header checksum, ROCE_PARSE_NO_ICRC the ICRC), and
 * the general parse a frame falls back to gets them too. The addresses are kept as they
 * lie in the header (ip4_src, ip4_dst), not as GIDs: sgid and dgid are not written.
 * DestQP 1 (the GSI's, which reads the source GID) goes to the general parse.
 */
static inline __attribute__((always_inline)) enum roce_reason
roce_pkt_parse_rc_ipv4(const uint8_t *f, size_t len, uint32_t l3_off, unsigned int flags,
		       struct roce_pkt *p)
{
	const uint8_t *l3 = f + l3_off, *bth = l3 + ROCE_IPV4_HLEN + ROCE_UDP_HLEN;
	const uint8_t *udp = l3 + ROCE_IPV4_HLEN, *icrc;
	const struct roce_opcode_info *oi;
	uint32_t tot, ulen, rest, fl, pad, w, b0;
	uint64_t u;

	if (__builtin_expect(len < l3_off + ROCE_IPV4_HLEN + ROCE_UDP_HLEN + ROCE_BTH_LEN +
				       ROCE_ICRC_LEN, 0))
		goto general;
	/* EtherType IPv4, version 4 with a 20-byte header (one word: a caller that checked
	 * the EtherType already pays nothing more for it); no fragment, UDP (one) */
	if (__builtin_expect((roce_get_be32(l3 - 2) & 0xFFFFFF00u) !=
				     (ROCE_ETHERTYPE_IPV4 << 16 | 0x4500u) ||
			     (roce_get_be32(l3 + 6) & 0x3FFF00FFu) != ROCE_IPPROTO_UDP, 0))
		goto general;
	tot = roce_get_be16(l3 + 2);
	u = roce_get_be64(udp); /* source port, destination port, length, checksum */
	ulen = (uint32_t)(u >> 16) & 0xFFFFu;
	/* UDP port 4791, length = IP total length - 20 and checksum 0 in one compare of the
	 * last six bytes; header room for the BTH (tot >= 44 also keeps tot - 20 from
	 * wrapping into the port's bits) */
	if (__builtin_expect((u & 0xFFFFFFFFFFFFull) !=
				     ((uint64_t)ROCE_UDP_PORT << 32 |
				      (uint64_t)(tot - ROCE_IPV4_HLEN) << 16) ||
			     tot < ROCE_IPV4_HLEN + ROCE_UDP_HLEN + ROCE_BTH_LEN + ROCE_ICRC_LEN ||
			     len < l3_off + tot ||
			     (!(flags & ROCE_PARSE_NO_CSUM) && !roce_ipv4_csum_ok(l3)), 0))
		goto general;
	/* BTH word 0: opcode (RC: transport bits 000), SE/M/pad/TVer, P_Key */
	b0 = roce_get_be32(bth);
	oi = &roce_opcode_table[b0 >> 24];
	fl = oi->flags;
	rest = ulen - ROCE_UDP_HLEN - ROCE_BTH_LEN - ROCE_ICRC_LEN;
	pad = (b0 >> 16 & ROCE_BTH_PAD_MASK) >> ROCE_BTH_PAD_SHIFT;
	if (__builtin_expect(!(fl & ROCE_OPF_RC1) ||
				     (b0 & (ROCE_BTH_TVER_MASK << 16 | 0x7FFFu)) != 0x7FFFu ||
				     rest < oi->ext_len, 0))
		goto general;
	rest -= oi->ext_len;
	p->dqpn = roce_get_be32(bth + 4) & ROCE_QPN_MASK; /* byte 4 is not DestQP */
	/* DestQP 0 is refused, 1 read by the GSI as a whole packet: both the general parse's */
	if (__builtin_expect(p->dqpn <= 1 || (rest && !(fl & ROCE_OPF_PAYLOAD)) || pad > rest ||
				     (rest & 3u), 0))
		goto general;
	p->has_vlan = l3_off != ROCE_ETH_HLEN;
	if (p->has_vlan)
		p->vlan_tci = roce_get_be16(f + ROCE_ETH_HLEN);
	p->ipv6 = 0;
	/* source and destination address together, as they lie in the header */
	_Static_assert(offsetof(struct roce_pkt, ip4_dst) ==
			       offsetof(struct roce_pkt, ip4_src) + 4, "ip4_dst follows ip4_src");
	memcpy((uint8_t *)p + offsetof(struct roce_pkt, ip4_src), l3 + 12, 8);
	p->l3 = l3;
	p->l3_off = (uint16_t)l3_off;
	p->bth_off = (uint16_t)(l3_off + ROCE_IPV4_HLEN + ROCE_UDP_HLEN);
	p->oi = oi;
	p->opcode = (uint8_t)(b0 >> 24);
	p->se = !!(b0 >> 16 & ROCE_BTH_SE);
	p->padcnt = (uint8_t)pad;
	p->pkey = (uint16_t)b0;
	w = roce_get_be32(bth + 8); /* AckReq and reserved bits, PSN */
	p->ackreq = !!(w >> 24 & ROCE_BTH_ACKREQ);
	p->psn = w & ROCE_PSN_MASK;
	if (fl & ROCE_OPF_RETH) {
		p->reth.va = roce_get_be64(bth + ROCE_BTH_LEN);
		p->reth.rkey = roce_get_be32(bth + ROCE_BTH_LEN + 8);
		p->reth.len = roce_get_be32(bth + ROCE_BTH_LEN + 12);
	} else if (fl & ROCE_OPF_AETH) {
		p->aeth.syndrome = bth[ROCE_BTH_LEN];
		p->aeth.msn = roce_get_be24(bth + ROCE_BTH_LEN + 1);
	}
	p->paylen = rest - pad;
	p->payload = bth + ROCE_BTH_LEN + oi->ext_len;
	p->wire_len = l3_off + tot;
	if (flags & ROCE_PARSE_NO_ICRC)
		return ROCE_R_OK;
	icrc = f + p->wire_len - ROCE_ICRC_LEN;
	if (__builtin_expect(roce_icrc_compute(l3, (size_t)(icrc - l3), 0) != roce_icrc_get(icrc),
			     0))
		return ROCE_R_ICRC;
	return ROCE_R_OK;
general:
	return roce_pkt_parse(f, len, flags, p);
}

/*
 * roce_pkt_parse_rc_l3_flags(), with the untagged IPv4 frame's pass inline: one function for
 * a receiver whether or not its port walked the L2 header. A port that did not passes
 * l3_off 14 and ipv6 0 (the pass checks the EtherType at 12 itself: a tagged or IPv6 frame
 * fails it and gets the general parse, as from roce_pkt_parse_rc_flags()). Tagged frames
 * at 18 and IPv6 ones are the out-of-line function's.
 */
static inline __attribute__((always_inline)) enum roce_reason
roce_pkt_parse_rc_inline(const uint8_t *f, size_t len, uint32_t l3_off, int ipv6,
			 unsigned int flags, struct roce_pkt *p)
{
	if (__builtin_expect(l3_off != ROCE_ETH_HLEN || ipv6, 0))
		return roce_pkt_parse_rc_l3_flags(f, len, l3_off, ipv6, flags, p);
	return roce_pkt_parse_rc_ipv4(f, len, ROCE_ETH_HLEN, flags, p);
}

#endif /* ROCE_PKT_RC_H */
