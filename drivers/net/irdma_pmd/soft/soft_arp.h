/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP (RFC 826) and IPv6 neighbour discovery (RFC 4861, NS/NA with link-layer address
 * options) frames: pure builders and validating parsers on byte buffers, no DPDK. Built
 * frames are untagged Ethernet frames zero-padded to the 60-byte minimum.
 */
#ifndef SOFT_ARP_H
#define SOFT_ARP_H

#include <stdbool.h>
#include <stdint.h>

#define SOFT_ETHERTYPE_ARP 0x0806u
#define SOFT_ARP_REQUEST   1u
#define SOFT_ARP_REPLY     2u
#define SOFT_ND_NS         135u
#define SOFT_ND_NA         136u
#define SOFT_ARP_FRAME_MAX 128u /* room for any frame built here */

struct soft_arp {
	uint16_t op;
	uint8_t sha[6], spa[4], tha[6], tpa[4];
};

struct soft_nd {
	uint8_t type;          /* SOFT_ND_NS or SOFT_ND_NA */
	uint8_t src[16], dst[16], target[16];
	bool solicited;        /* NA: S flag */
	bool has_lladdr;       /* source (NS) / target (NA) link-layer address option */
	uint8_t lladdr[6];
};

/* ARP request (tmac NULL: broadcast, target hardware address zero) or reply. Returns the
 * frame length. */
unsigned int soft_arp_build(uint8_t *buf, uint16_t op, const uint8_t smac[6],
			    const uint8_t sip[4], const uint8_t *tmac, const uint8_t tip[4]);
/* @p p: the ARP payload (after the EtherType), @p len its length. 0, or -1 when malformed
 * (not Ethernet/IPv4, wrong lengths, unknown op, multicast or zero sender MAC). */
int soft_arp_parse(const uint8_t *p, uint32_t len, struct soft_arp *a);

/* NS for @p target from @p sip, to its solicited-node multicast address. */
unsigned int soft_nd_build_ns(uint8_t *buf, const uint8_t smac[6], const uint8_t sip[16],
			      const uint8_t target[16]);
/* Solicited NA for our address @p target to @p dip/@p dmac (override set). */
unsigned int soft_nd_build_na(uint8_t *buf, const uint8_t smac[6], const uint8_t target[16],
			      const uint8_t dmac[6], const uint8_t dip[16], bool solicited);
/* @p ip6: the IPv6 header, @p len bytes to the end of the frame. 0: NS/NA in *n; 1: valid
 * ICMPv6 that is not NS/NA (or not ICMPv6); -1: malformed (hop limit not 255, checksum,
 * lengths, code, options, multicast target). */
int soft_nd_parse(const uint8_t *ip6, uint32_t len, struct soft_nd *n);

/* Solicited-node multicast address ff02::1:ffXX:XXXX of @p ip and its MAC 33:33:ff:XX:XX:XX. */
void soft_nd_snma(const uint8_t ip[16], uint8_t snma[16], uint8_t mac[6]);

#endif /* SOFT_ARP_H */
