/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP and IPv6 neighbour discovery frames. Parsers check every field a peer could get
 * wrong before the caller learns a neighbour from the frame: only well-formed Ethernet/IPv4
 * ARP, and only NS/NA with hop limit 255 (so they cannot have been routed), code 0, a
 * valid checksum and well-formed options are used.
 */
#include <string.h>

#include "roce_hdr.h"
#include "soft_arp.h"

#define ETH_HLEN  14u
#define IP6_HLEN  40u
#define ARP_LEN   28u
#define NS_LEN    24u /* type, code, csum, reserved/flags, target */
#define OPT_LL    8u  /* link-layer address option: type, len (units of 8), MAC */
#define MIN_FRAME 60u
#define PROTO_ICMPV6 58u

static bool mac_ok(const uint8_t m[6])
{
	return !(m[0] & 1) && (m[0] | m[1] | m[2] | m[3] | m[4] | m[5]);
}

static unsigned int eth_hdr(uint8_t *buf, const uint8_t *dmac, const uint8_t smac[6],
			    uint16_t type)
{
	if (dmac != NULL)
		memcpy(buf, dmac, 6);
	else
		memset(buf, 0xff, 6);
	memcpy(buf + 6, smac, 6);
	roce_put_be16(buf + 12, type);
	return ETH_HLEN;
}

static unsigned int pad_frame(uint8_t *buf, unsigned int len)
{
	if (len < MIN_FRAME) {
		memset(buf + len, 0, MIN_FRAME - len);
		len = MIN_FRAME;
	}
	return len;
}

unsigned int soft_arp_build(uint8_t *buf, uint16_t op, const uint8_t smac[6],
			    const uint8_t sip[4], const uint8_t *tmac, const uint8_t tip[4])
{
	uint8_t *a = buf + eth_hdr(buf, tmac, smac, SOFT_ETHERTYPE_ARP);

	roce_put_be16(a, 1);       /* Ethernet */
	roce_put_be16(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	roce_put_be16(a + 6, op);
	memcpy(a + 8, smac, 6);
	memcpy(a + 14, sip, 4);
	if (tmac != NULL)
		memcpy(a + 18, tmac, 6);
	else
		memset(a + 18, 0, 6);
	memcpy(a + 24, tip, 4);
	return pad_frame(buf, ETH_HLEN + ARP_LEN);
}

int soft_arp_parse(const uint8_t *p, uint32_t len, struct soft_arp *a)
{
	if (len < ARP_LEN || roce_get_be16(p) != 1 || roce_get_be16(p + 2) != 0x0800 || p[4] != 6 || p[5] != 4)
		return -1;
	a->op = roce_get_be16(p + 6);
	if (a->op != SOFT_ARP_REQUEST && a->op != SOFT_ARP_REPLY)
		return -1;
	memcpy(a->sha, p + 8, 6);
	memcpy(a->spa, p + 14, 4);
	memcpy(a->tha, p + 18, 6);
	memcpy(a->tpa, p + 24, 4);
	if (!mac_ok(a->sha))
		return -1;
	return 0;
}

void soft_nd_snma(const uint8_t ip[16], uint8_t snma[16], uint8_t mac[6])
{
	static const uint8_t pfx[13] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff };

	memcpy(snma, pfx, sizeof(pfx));
	memcpy(snma + 13, ip + 13, 3);
	mac[0] = 0x33;
	mac[1] = 0x33;
	memcpy(mac + 2, snma + 12, 4);
}

/* The ICMPv6 checksum: one's complement sum over the pseudo-header and the message. */
static uint16_t icmp6_csum(const uint8_t src[16], const uint8_t dst[16], const uint8_t *msg,
			   uint32_t len)
{
	uint32_t sum = 0, i;

	for (i = 0; i < 16; i += 2)
		sum += roce_get_be16(src + i) + roce_get_be16(dst + i);
	sum += len >> 16;
	sum += len & 0xffff;
	sum += PROTO_ICMPV6;
	for (i = 0; i + 1 < len; i += 2)
		sum += roce_get_be16(msg + i);
	if (len & 1)
		sum += (uint32_t)msg[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static unsigned int nd_frame(uint8_t *buf, const uint8_t smac[6], const uint8_t dmac[6],
			     const uint8_t sip[16], const uint8_t dip[16], uint8_t type,
			     uint32_t flags, const uint8_t target[16], uint8_t opt_type)
{
	uint8_t *ip = buf + eth_hdr(buf, dmac, smac, 0x86DD);
	uint8_t *m = ip + IP6_HLEN;
	uint32_t mlen = NS_LEN + OPT_LL;

	ip[0] = 0x60;
	memset(ip + 1, 0, 3);
	roce_put_be16(ip + 4, (uint16_t)mlen);
	ip[6] = PROTO_ICMPV6;
	ip[7] = 255;
	memcpy(ip + 8, sip, 16);
	memcpy(ip + 24, dip, 16);
	m[0] = type;
	m[1] = 0;
	roce_put_be16(m + 2, 0);
	m[4] = (uint8_t)(flags >> 24);
	memset(m + 5, 0, 3);
	memcpy(m + 8, target, 16);
	m[24] = opt_type;
	m[25] = 1;
	memcpy(m + 26, smac, 6);
	roce_put_be16(m + 2, icmp6_csum(sip, dip, m, mlen));
	return pad_frame(buf, ETH_HLEN + IP6_HLEN + mlen);
}

unsigned int soft_nd_build_ns(uint8_t *buf, const uint8_t smac[6], const uint8_t sip[16],
			      const uint8_t target[16])
{
	uint8_t snma[16], mac[6];

	soft_nd_snma(target, snma, mac);
	return nd_frame(buf, smac, mac, sip, snma, SOFT_ND_NS, 0, target, 1);
}

unsigned int soft_nd_build_na(uint8_t *buf, const uint8_t smac[6], const uint8_t target[16],
			      const uint8_t dmac[6], const uint8_t dip[16], bool solicited)
{
	/* R = 0 (not a router), S as asked, O = 1: our answer is authoritative */
	uint32_t flags = (solicited ? 0x40000000u : 0) | 0x20000000u;

	return nd_frame(buf, smac, dmac, target, dip, SOFT_ND_NA, flags, target, 2);
}

int soft_nd_parse(const uint8_t *ip6, uint32_t len, struct soft_nd *n)
{
	const uint8_t *m = ip6 + IP6_HLEN;
	uint32_t plen, off;

	if (len < IP6_HLEN || (ip6[0] >> 4) != 6)
		return -1;
	plen = roce_get_be16(ip6 + 4);
	if (ip6[6] != PROTO_ICMPV6)
		return 1;
	if (plen > len - IP6_HLEN || plen < 4)
		return -1;
	if (icmp6_csum(ip6 + 8, ip6 + 24, m, plen) != 0)
		return -1;
	if (m[0] != SOFT_ND_NS && m[0] != SOFT_ND_NA)
		return 1;
	if (ip6[7] != 255 || m[1] != 0 || plen < NS_LEN)
		return -1;
	memset(n, 0, sizeof(*n));
	n->type = m[0];
	memcpy(n->src, ip6 + 8, 16);
	memcpy(n->dst, ip6 + 24, 16);
	memcpy(n->target, m + 8, 16);
	n->solicited = n->type == SOFT_ND_NA && (m[4] & 0x40);
	if (n->target[0] == 0xff)
		return -1;
	for (off = NS_LEN; off < plen;) {
		uint32_t olen;

		if (plen - off < 2)
			return -1;
		olen = m[off + 1] * 8u;
		if (olen == 0 || olen > plen - off)
			return -1;
		if (m[off] == (n->type == SOFT_ND_NS ? 1 : 2)) {
			if (olen != OPT_LL || !mac_ok(m + off + 2))
				return -1;
			n->has_lladdr = true;
			memcpy(n->lladdr, m + off + 2, 6);
		}
		off += olen;
	}
	return 0;
}
