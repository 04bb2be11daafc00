/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame build and parse, both driven by the opcode table: the same per-opcode offsets
 * place every extension header on the way out and find it on the way in.
 */
#include <errno.h>
#include <string.h>

#include "roce_addr.h"
#include "roce_icrc.h"
#include "roce_pkt.h"
#include "roce_pkt_rc.h"
#include "roce_tmpl_hdr.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static inline uint32_t l2_len(const struct roce_pkt *p)
{
	return ROCE_ETH_HLEN + (p->has_vlan ? ROCE_VLAN_HLEN : 0);
}

static inline uint32_t l3_len(const struct roce_pkt *p)
{
	return p->ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN;
}

uint32_t roce_pkt_hdr_len(const struct roce_pkt *p)
{
	return l2_len(p) + l3_len(p) + ROCE_UDP_HLEN + ROCE_BTH_LEN +
	       roce_opcode_table[p->opcode].ext_len;
}

uint32_t roce_pkt_frame_len(const struct roce_pkt *p)
{
	return roce_pkt_hdr_len(p) + p->paylen + roce_pad_len(p->paylen) + ROCE_ICRC_LEN;
}

/* Extension headers at e (just after the BTH), as the opcode entry lays them out. */
static void write_ext(const struct roce_opcode_info *oi, const struct roce_pkt *p, uint8_t *e)
{
	uint8_t *h;

	if (oi->off_deth != ROCE_HDR_ABSENT) {
		h = e + oi->off_deth;
		roce_put_be32(h, p->deth.qkey);
		h[4] = 0;
		roce_put_be24(h + 5, p->deth.sqpn);
	}
	if (oi->off_feth != ROCE_HDR_ABSENT)
		roce_put_be32(e + oi->off_feth, p->feth);
	if (oi->off_reth != ROCE_HDR_ABSENT) {
		h = e + oi->off_reth;
		roce_put_be64(h, p->reth.va);
		roce_put_be32(h + 8, p->reth.rkey);
		roce_put_be32(h + 12, p->reth.len);
	}
	if (oi->off_atmeth != ROCE_HDR_ABSENT) {
		h = e + oi->off_atmeth;
		roce_put_be64(h, p->atmeth.va);
		roce_put_be32(h + 8, p->atmeth.rkey);
		roce_put_be64(h + 12, p->atmeth.swap_add);
		roce_put_be64(h + 20, p->atmeth.cmp);
	}
	if (oi->off_imm != ROCE_HDR_ABSENT)
		roce_put_be32(e + oi->off_imm, p->imm);
	if (oi->off_ieth != ROCE_HDR_ABSENT)
		roce_put_be32(e + oi->off_ieth, p->ieth);
	if (oi->off_aeth != ROCE_HDR_ABSENT) {
		h = e + oi->off_aeth;
		h[0] = p->aeth.syndrome;
		roce_put_be24(h + 1, p->aeth.msn);
	}
	if (oi->off_atmack != ROCE_HDR_ABSENT)
		roce_put_be64(e + oi->off_atmack, p->atmack);
	if (oi->flags & ROCE_OPF_CNPRSVD)
		memset(e + oi->ext_len - ROCE_CNP_RSVD_LEN, 0, ROCE_CNP_RSVD_LEN);
}

static void read_ext(const struct roce_opcode_info *oi, const uint8_t *e, struct roce_pkt *p)
{
	const uint8_t *h;

	if (oi->off_deth != ROCE_HDR_ABSENT) {
		h = e + oi->off_deth;
		p->deth.qkey = roce_get_be32(h);
		p->deth.sqpn = roce_get_be24(h + 5);
	}
	if (oi->off_feth != ROCE_HDR_ABSENT)
		p->feth = roce_get_be32(e + oi->off_feth);
	if (oi->off_reth != ROCE_HDR_ABSENT) {
		h = e + oi->off_reth;
		p->reth.va = roce_get_be64(h);
		p->reth.rkey = roce_get_be32(h + 8);
		p->reth.len = roce_get_be32(h + 12);
	}
	if (oi->off_atmeth != ROCE_HDR_ABSENT) {
		h = e + oi->off_atmeth;
		p->atmeth.va = roce_get_be64(h);
		p->atmeth.rkey = roce_get_be32(h + 8);
		p->atmeth.swap_add = roce_get_be64(h + 12);
		p->atmeth.cmp = roce_get_be64(h + 20);
	}
	if (oi->off_imm != ROCE_HDR_ABSENT)
		p->imm = roce_get_be32(e + oi->off_imm);
	if (oi->off_ieth != ROCE_HDR_ABSENT)
		p->ieth = roce_get_be32(e + oi->off_ieth);
	if (oi->off_aeth != ROCE_HDR_ABSENT) {
		h = e + oi->off_aeth;
		p->aeth.syndrome = h[0];
		p->aeth.msn = roce_get_be24(h + 1);
	}
	if (oi->off_atmack != ROCE_HDR_ABSENT)
		p->atmack = roce_get_be64(e + oi->off_atmack);
}

int roce_pkt_write_hdrs(const struct roce_pkt *p, uint8_t *buf, size_t cap)
{
	const struct roce_opcode_info *oi = roce_opcode_get(p->opcode);
	uint32_t hl, pad, udp_len;
	uint8_t *h;

	if (unlikely(!oi))
		return -EINVAL;
	if (unlikely(p->paylen && !(oi->flags & ROCE_OPF_PAYLOAD)))
		return -EINVAL;
	hl = roce_pkt_hdr_len(p);
	pad = roce_pad_len(p->paylen);
	if (unlikely(cap < hl))
		return -ENOSPC;
	udp_len = ROCE_UDP_HLEN + ROCE_BTH_LEN + oi->ext_len + p->paylen + pad + ROCE_ICRC_LEN;
	if (unlikely(udp_len > 0xFFFFu - ROCE_IPV6_HLEN))
		return -EINVAL;

	/* Ethernet */
	h = buf;
	memcpy(h, p->dmac, 6);
	memcpy(h + 6, p->smac, 6);
	h += 12;
	if (p->has_vlan) {
		roce_put_be16(h, ROCE_ETHERTYPE_VLAN);
		roce_put_be16(h + 2, p->vlan_tci);
		h += 4;
	}
	roce_put_be16(h, p->ipv6 ? ROCE_ETHERTYPE_IPV6 : ROCE_ETHERTYPE_IPV4);
	h += 2;

	/* IP */
	if (p->ipv6) {
		roce_put_be32(h, 6u << 28 | (uint32_t)p->tclass << 20 | (p->flow_label & 0xFFFFFu));
		roce_put_be16(h + 4, (uint16_t)udp_len);
		h[6] = ROCE_IPPROTO_UDP;
		h[7] = p->hop_limit;
		memcpy(h + 8, p->sgid, 16);
		memcpy(h + 24, p->dgid, 16);
		h += ROCE_IPV6_HLEN;
	} else {
		h[0] = 0x45;
		h[1] = p->tclass;
		roce_put_be16(h + 2, (uint16_t)(ROCE_IPV4_HLEN + udp_len));
		roce_put_be16(h + 4, p->ip_id);
		roce_put_be16(h + 6, p->ip_frag);
		h[8] = p->hop_limit;
		h[9] = ROCE_IPPROTO_UDP;
		h[10] = h[11] = 0;
		memcpy(h + 12, p->sgid + 12, 4);
		memcpy(h + 16, p->dgid + 12, 4);
		roce_put_be16(h + 10, roce_ip_csum(h, ROCE_IPV4_HLEN));
		h += ROCE_IPV4_HLEN;
	}

	/* UDP, checksum 0 */
	roce_put_be16(h, p->sport);
	roce_put_be16(h + 2, ROCE_UDP_PORT);
	roce_put_be16(h + 4, (uint16_t)udp_len);
	roce_put_be16(h + 6, 0);
	h += ROCE_UDP_HLEN;

	/* BTH */
	h[0] = p->opcode;
	h[1] = (uint8_t)((p->se ? ROCE_BTH_SE : 0) | (p->mig ? ROCE_BTH_MIG : 0) |
			 pad << ROCE_BTH_PAD_SHIFT);
	roce_put_be16(h + 2, p->pkey);
	h[4] = p->bth_b4;
	roce_put_be24(h + 5, p->dqpn);
	h[8] = p->ackreq ? ROCE_BTH_ACKREQ : 0;
	roce_put_be24(h + 9, p->psn);
	write_ext(oi, p, h + ROCE_BTH_LEN);
	return (int)hl;
}

int roce_tmpl_init(struct roce_tmpl *t, const struct roce_pkt *proto)
{
	struct roce_pkt p = *proto;
	int hl;

	memset(t, 0, sizeof(*t));
	p.opcode = ROCE_OP_RC_SEND_ONLY; /* no extension header: the template ends at the BTH */
	p.paylen = 0;
	p.payload = NULL;
	p.ip_id = 0;
	p.psn = 0;
	p.se = p.mig = p.ackreq = p.bth_b4 = 0;
	hl = roce_pkt_write_hdrs(&p, t->hdr, sizeof(t->hdr));
	if (hl < 0)
		return hl;
	t->proto = *proto;
	t->ipv6 = p.ipv6 ? 1 : 0;
	t->l3_off = (uint8_t)l2_len(&p);
	t->bth_off = (uint8_t)(hl - ROCE_BTH_LEN);
	if (!t->ipv6) {
		uint8_t h[ROCE_IPV4_HLEN];

		/* The checksum of the invariant words; length and id are added per frame. The
		 * sum is never zero (version/IHL), so the incremental fold lands on the same
		 * representative as roce_ip_csum() over the whole header. */
		memcpy(h, t->hdr + t->l3_off, sizeof(h));
		memset(h + 2, 0, 4);
		memset(h + 10, 0, 2);
		t->csum_base = (uint16_t)~roce_ip_csum(h, sizeof(h));
	}
	t->valid = 1;
	return 0;
}

int roce_tmpl_write_hdrs(const struct roce_tmpl *t, const struct roce_pkt *p, uint8_t *buf,
			 size_t cap)
{
	const struct roce_opcode_info *oi = &roce_opcode_table[p->opcode];
	uint32_t ext = oi->ext_len, hl = t->bth_off + ROCE_BTH_LEN + ext;
	uint32_t pad = roce_pad_len(p->paylen), udp_len;
	uint8_t *h;

	if (unlikely(!(oi->flags & ROCE_OPF_VALID) ||
		     (p->paylen && !(oi->flags & ROCE_OPF_PAYLOAD))))
		return -EINVAL;
	if (unlikely(cap < ROCE_TMPL_HDR_MAX || cap < hl))
		return -ENOSPC;
	udp_len = ROCE_UDP_HLEN + ROCE_BTH_LEN + ext + p->paylen + pad + ROCE_ICRC_LEN;
	if (unlikely(udp_len > 0xFFFFu - ROCE_IPV6_HLEN))
		return -EINVAL;
	h = roce_tmpl_put(t, buf, p->opcode,
			  (uint8_t)((p->se ? ROCE_BTH_SE : 0) | (p->mig ? ROCE_BTH_MIG : 0)),
			  p->bth_b4, p->ackreq, p->psn, ext, p->paylen, p->ip_id);
	/* The extension headers of the common frames directly; the table walk for the rest. */
	switch (oi->flags & ROCE_OPF_HDR_MASK) {
	case 0:
		break;
	case ROCE_OPF_RETH:
		roce_put_be64(h, p->reth.va);
		roce_put_be32(h + 8, p->reth.rkey);
		roce_put_be32(h + 12, p->reth.len);
		break;
	case ROCE_OPF_AETH:
		h[0] = p->aeth.syndrome;
		roce_put_be24(h + 1, p->aeth.msn);
		break;
	default:
		write_ext(oi, p, h);
		break;
	}
	return (int)hl;
}

int roce_pkt_build(const struct roce_pkt *p, uint8_t *buf, size_t cap)
{
	uint32_t pad = roce_pad_len(p->paylen);
	uint32_t l3o = l2_len(p), crc;
	int hl;
	uint8_t *end;

	hl = roce_pkt_write_hdrs(p, buf, cap);
	if (unlikely(hl < 0))
		return hl;
	if (unlikely(cap < (size_t)hl + p->paylen + pad + ROCE_ICRC_LEN))
		return -ENOSPC;
	if (p->payload && p->paylen && p->payload != buf + hl)
		memcpy(buf + hl, p->payload, p->paylen);
	end = buf + hl + p->paylen;
	memset(end, 0, pad);
	end += pad;
	crc = roce_icrc_compute(buf + l3o, (size_t)(end - (buf + l3o)), p->ipv6);
	roce_icrc_put(end, crc);
	return (int)(end + ROCE_ICRC_LEN - buf);
}

/* ::ffff:a.b.c.d, inline: the general parser writes two per IPv4 frame. */
static inline void gid_v4mapped(uint8_t gid[16], const uint8_t *ip)
{
	static const uint8_t pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

	memcpy(gid, pre, sizeof(pre));
	memcpy(gid + 12, ip, 4);
}

/* UDP checksum over the IPv4/IPv6 pseudo header and the datagram; 0 when correct. */
static uint16_t udp_csum_check(const uint8_t *l3, int ipv6, const uint8_t *udp, uint32_t ulen)
{
	uint32_t sum = 0, i;

	if (ipv6) {
		for (i = 8; i < 40; i += 2)
			sum += roce_get_be16(l3 + i);
	} else {
		for (i = 12; i < 20; i += 2)
			sum += roce_get_be16(l3 + i);
	}
	sum += ROCE_IPPROTO_UDP + ulen;
	for (i = 0; i + 1 < ulen; i += 2)
		sum += roce_get_be16(udp + i);
	if (ulen & 1)
		sum += (uint32_t)udp[ulen - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFFu) + (sum >> 16);
	return (uint16_t)~sum;
}

enum roce_reason roce_pkt_parse(const uint8_t *f, size_t len, unsigned int flags,
				struct roce_pkt *p)
{
	const struct roce_opcode_info *oi;
	const uint8_t *l3, *udp, *bth;
	uint32_t off = ROCE_ETH_HLEN, ulen, avail, rest;
	uint16_t etype;

	if (unlikely(len < ROCE_ETH_HLEN))
		return ROCE_R_TRUNC;
	/* dmac and smac in one copy: they are adjacent in struct roce_pkt too */
	_Static_assert(offsetof(struct roce_pkt, smac) == offsetof(struct roce_pkt, dmac) + 6,
		       "smac follows dmac");
	memcpy((uint8_t *)p + offsetof(struct roce_pkt, dmac), f, 12);
	etype = roce_get_be16(f + 12);
	p->has_vlan = 0;
	p->vlan_tci = 0;
	if (etype == ROCE_ETHERTYPE_VLAN) {
		if (unlikely(len < ROCE_ETH_HLEN + ROCE_VLAN_HLEN))
			return ROCE_R_TRUNC;
		p->has_vlan = 1;
		p->vlan_tci = roce_get_be16(f + 14);
		etype = roce_get_be16(f + 16);
		off += ROCE_VLAN_HLEN;
	}
	l3 = f + off;
	p->l3 = l3;
	p->l3_off = (uint16_t)off;

	if (etype == ROCE_ETHERTYPE_IPV4) {
		uint32_t tot;

		if (unlikely(len < off + ROCE_IPV4_HLEN))
			return ROCE_R_TRUNC;
		if (unlikely(l3[0] != 0x45 || (roce_get_be16(l3 + 6) & 0x3FFFu)))
			return (l3[0] >> 4) != 4 ? ROCE_R_IP_VERSION : ROCE_R_IP_HDR;
		if (unlikely(l3[9] != ROCE_IPPROTO_UDP))
			return ROCE_R_NOT_UDP;
		tot = roce_get_be16(l3 + 2);
		if (unlikely(tot < ROCE_IPV4_HLEN + ROCE_UDP_HLEN))
			return ROCE_R_IP_LEN;
		if (unlikely(len < off + tot))
			return ROCE_R_TRUNC;
		if (!(flags & ROCE_PARSE_NO_CSUM) && unlikely(!roce_ipv4_csum_ok(l3)))
			return ROCE_R_IP_CSUM;
		p->ipv6 = 0;
		p->tclass = l3[1];
		p->ip_id = roce_get_be16(l3 + 4);
		p->ip_frag = roce_get_be16(l3 + 6);
		p->hop_limit = l3[8];
		p->flow_label = 0;
		gid_v4mapped(p->sgid, l3 + 12);
		gid_v4mapped(p->dgid, l3 + 16);
		/* and the destination, as the one pass */
		memcpy((uint8_t *)p + offsetof(struct roce_pkt, ip4_src), l3 + 12, 8);
		off += ROCE_IPV4_HLEN;
		avail = tot - ROCE_IPV4_HLEN;
	} else if (etype == ROCE_ETHERTYPE_IPV6) {
		uint32_t w;

		if (unlikely(len < off + ROCE_IPV6_HLEN))
			return ROCE_R_TRUNC;
		w = roce_get_be32(l3);
		if (unlikely((w >> 28) != 6))
			return ROCE_R_IP_VERSION;
		if (unlikely(l3[6] != ROCE_IPPROTO_UDP))
			return ROCE_R_NOT_UDP;
		avail = roce_get_be16(l3 + 4);
		if (unlikely(avail < ROCE_UDP_HLEN))
			return ROCE_R_IP_LEN;
		if (unlikely(len < off + ROCE_IPV6_HLEN + avail))
			return ROCE_R_TRUNC;
		p->ipv6 = 1;
		p->tclass = (uint8_t)(w >> 20);
		p->flow_label = w & 0xFFFFFu;
		p->hop_limit = l3[7];
		p->ip_id = 0;
		p->ip_frag = 0;
		memcpy(p->sgid, l3 + 8, 16);
		memcpy(p->dgid, l3 + 24, 16);
		p->ip4_src = p->ip4_dst = 0;
		off += ROCE_IPV6_HLEN;
	} else {
		return ROCE_R_ETHERTYPE;
	}

	/* UDP */
	udp = f + off;
	if (unlikely(roce_get_be16(udp + 2) != ROCE_UDP_PORT))
		return ROCE_R_UDP_PORT;
	ulen = roce_get_be16(udp + 4);
	if (unlikely(ulen != avail))
		return ROCE_R_UDP_LEN;
	if (unlikely(ulen < ROCE_UDP_HLEN + ROCE_BTH_LEN + ROCE_ICRC_LEN))
		return ROCE_R_HDR_LEN;
	p->sport = roce_get_be16(udp);
	p->udp_csum = roce_get_be16(udp + 6);
	off += ROCE_UDP_HLEN;

	/* BTH */
	bth = f + off;
	p->bth_off = (uint16_t)off;
	oi = roce_opcode_get(bth[0]);
	if (unlikely(!oi))
		return ROCE_R_OPCODE;
	if (unlikely(bth[1] & ROCE_BTH_TVER_MASK))
		return ROCE_R_BTH_TVER;
	p->oi = oi;
	p->opcode = bth[0];
	p->se = !!(bth[1] & ROCE_BTH_SE);
	p->mig = !!(bth[1] & ROCE_BTH_MIG);
	p->padcnt = (bth[1] & ROCE_BTH_PAD_MASK) >> ROCE_BTH_PAD_SHIFT;
	p->pkey = roce_get_be16(bth + 2);
	p->bth_b4 = bth[4];
	p->dqpn = roce_get_be24(bth + 5);
	p->ackreq = !!(bth[8] & ROCE_BTH_ACKREQ);
	p->psn = roce_get_be24(bth + 9);
	if (unlikely((p->pkey & 0x7FFFu) != 0x7FFFu))
		return ROCE_R_PKEY;
	if (unlikely(p->dqpn == 0))
		return ROCE_R_QPN;

	/* Extension headers, payload, pad */
	rest = ulen - ROCE_UDP_HLEN - ROCE_BTH_LEN - ROCE_ICRC_LEN;
	if (unlikely(rest < oi->ext_len))
		return ROCE_R_HDR_LEN;
	switch (oi->flags & ROCE_OPF_HDR_MASK) { /* the common frames directly */
	case 0:
		break;
	case ROCE_OPF_RETH:
		p->reth.va = roce_get_be64(bth + ROCE_BTH_LEN);
		p->reth.rkey = roce_get_be32(bth + ROCE_BTH_LEN + 8);
		p->reth.len = roce_get_be32(bth + ROCE_BTH_LEN + 12);
		break;
	case ROCE_OPF_AETH:
		p->aeth.syndrome = bth[ROCE_BTH_LEN];
		p->aeth.msn = roce_get_be24(bth + ROCE_BTH_LEN + 1);
		break;
	default:
		read_ext(oi, bth + ROCE_BTH_LEN, p);
		break;
	}
	rest -= oi->ext_len;
	if (unlikely(rest && !(oi->flags & ROCE_OPF_PAYLOAD)))
		return ROCE_R_PAYLOAD;
	if (unlikely(p->padcnt > rest || (rest & 3u)))
		return ROCE_R_PAD;
	p->paylen = rest - p->padcnt;
	p->payload = bth + ROCE_BTH_LEN + oi->ext_len;
	if (unlikely((oi->flags & ROCE_OPF_ATOMIC_WRITE) && p->paylen != 8))
		return ROCE_R_PAYLOAD;
	p->wire_len = off + ulen - ROCE_UDP_HLEN;

	if (!(flags & ROCE_PARSE_NO_CSUM) && p->udp_csum &&
	    unlikely(udp_csum_check(l3, p->ipv6, udp, ulen)))
		return ROCE_R_UDP_CSUM;
	if (!(flags & ROCE_PARSE_NO_ICRC)) {
		const uint8_t *icrc = f + p->wire_len - ROCE_ICRC_LEN;
		uint32_t crc = roce_icrc_compute(l3, (size_t)(icrc - l3), p->ipv6);

		if (unlikely(crc != roce_icrc_get(icrc)))
			return ROCE_R_ICRC;
	}
	return ROCE_R_OK;
}

/*
 * The common frame in one pass: untagged IPv4 without options, UDP checksum 0, an RC
 * opcode whose extension header is none, a RETH or an AETH. Every check roce_pkt_parse()
 * makes for such a frame is made here, in the same order of outcome (a frame that fails
 * one before the ICRC is handed to roce_pkt_parse(), which names the reason); only the
 * fields the RC transport reads are written.
 */
enum roce_reason roce_pkt_parse_rc(const uint8_t *f, size_t len, struct roce_pkt *p)
{
	return roce_pkt_parse_rc_ipv4(f, len, ROCE_ETH_HLEN, 0, p);
}

enum roce_reason roce_pkt_parse_rc_flags(const uint8_t *f, size_t len, unsigned int flags,
					 struct roce_pkt *p)
{
	return roce_pkt_parse_rc_ipv4(f, len, ROCE_ETH_HLEN, flags, p);
}

enum roce_reason roce_pkt_parse_rc_l3_flags(const uint8_t *f, size_t len, uint32_t l3_off,
					    int ipv6, unsigned int flags, struct roce_pkt *p)
{
	if (unlikely(ipv6))
		return roce_pkt_parse(f, len, flags, p);
	/* the untagged frame with its offsets constant, as roce_pkt_parse_rc() has them */
	if (likely(l3_off == ROCE_ETH_HLEN))
		return roce_pkt_parse_rc_ipv4(f, len, ROCE_ETH_HLEN, flags, p);
	if (l3_off != ROCE_ETH_HLEN + ROCE_VLAN_HLEN)
		return roce_pkt_parse(f, len, flags, p);
	return roce_pkt_parse_rc_ipv4(f, len, ROCE_ETH_HLEN + ROCE_VLAN_HLEN, flags, p);
}

enum roce_reason roce_pkt_parse_rc_l3(const uint8_t *f, size_t len, uint32_t l3_off, int ipv6,
				      struct roce_pkt *p)
{
	return roce_pkt_parse_rc_l3_flags(f, len, l3_off, ipv6, 0, p);
}
