/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 frames: Ethernet (+ optional 802.1Q) / IPv4 or IPv6 / UDP 4791 / BTH / extension
 * headers / payload / pad / ICRC, built from and parsed into one struct roce_pkt. The
 * opcode table (roce_opcode.h) decides which extension headers are present.
 */
#ifndef ROCE_PKT_H
#define ROCE_PKT_H

#include <stddef.h>
#include <stdint.h>

#include "roce_hdr.h"
#include "roce_opcode.h"
#include "roce_reason.h"

struct roce_reth {
	uint64_t va;
	uint32_t rkey;
	uint32_t len; /* whole message length */
};

struct roce_aeth {
	uint8_t syndrome;
	uint32_t msn;
};

struct roce_atmeth {
	uint64_t va;
	uint32_t rkey;
	uint64_t swap_add; /* swap (CMP_SWAP) or add (FETCH_ADD) operand */
	uint64_t cmp;      /* compare operand (CMP_SWAP only) */
};

struct roce_deth {
	uint32_t qkey;
	uint32_t sqpn;
};

struct roce_pkt {
	/* Ethernet (dmac and smac adjacent, as on the wire: the parser copies both at once) */
	uint8_t dmac[6];
	uint8_t smac[6];
	uint8_t has_vlan;
	uint16_t vlan_tci;
	/* IP: addresses as GIDs (IPv4 as ::ffff:a.b.c.d) */
	uint8_t ipv6;
	uint8_t tclass;      /* IPv4 TOS / IPv6 traffic class */
	uint8_t hop_limit;   /* IPv4 TTL / IPv6 hop limit */
	uint16_t ip_id;      /* IPv4 identification */
	uint16_t ip_frag;    /* IPv4 flags + fragment offset; senders put 0x4000 (DF) */
	uint32_t flow_label; /* IPv6 */
	uint8_t sgid[16];
	uint8_t dgid[16];
	/* IPv4 (ipv6 0): the source and destination address as they lie in the header
	 * (network byte order), adjacent. A receiver compares these, not the GIDs: the one
	 * pass (roce_pkt_parse_rc*()) writes only these; roce_pkt_parse() both. IPv6: 0. */
	uint32_t ip4_src;
	uint32_t ip4_dst;
	/* UDP: the builder always sends checksum 0, as rxe does */
	uint16_t sport;
	uint16_t udp_csum; /* as received */
	/* BTH */
	uint8_t opcode;
	uint8_t se;
	uint8_t mig;
	uint8_t padcnt;  /* parse output; the builder derives it from paylen */
	uint8_t bth_b4;  /* FECN/BECN/reserved byte (0x40 in a CNP) */
	uint8_t ackreq;
	uint16_t pkey;
	uint32_t dqpn;
	uint32_t psn;
	/* Extension headers: only those the opcode carries are meaningful. */
	struct roce_reth reth;
	struct roce_aeth aeth;
	struct roce_atmeth atmeth;
	uint64_t atmack;  /* original value in an ATOMIC ACKNOWLEDGE */
	struct roce_deth deth;
	uint32_t imm;     /* ImmDt as a host-order number of the big-endian field */
	uint32_t ieth;    /* R_Key to invalidate */
	uint32_t feth;
	/* Payload (pad excluded). Build: copied from here unless NULL (then the caller
	 * has already placed it at buf + roce_pkt_hdr_len()). Parse: points into the frame. */
	const uint8_t *payload;
	uint32_t paylen;
	/* Parse outputs. */
	const struct roce_opcode_info *oi;
	const uint8_t *l3;   /* IP header inside the parsed frame (GRH area source) */
	uint16_t l3_off;
	uint16_t bth_off;
	uint32_t wire_len;   /* bytes from the frame start through the ICRC */
};

/* roce_pkt_parse() flags. */
#define ROCE_PARSE_NO_ICRC   (1u << 0) /* skip the ICRC check (checked elsewhere) */
#define ROCE_PARSE_NO_CSUM   (1u << 1) /* skip IPv4 header and UDP checksum checks */

/* Bytes before the payload: L2 + IP + UDP + BTH + extension headers. */
uint32_t roce_pkt_hdr_len(const struct roce_pkt *p);

/* Whole frame (without Ethernet FCS): headers + payload + pad + ICRC. */
uint32_t roce_pkt_frame_len(const struct roce_pkt *p);

static inline uint32_t roce_pad_len(uint32_t paylen)
{
	return (4u - (paylen & 3u)) & 3u;
}

/*
 * Writes the complete frame into buf: headers, payload (copied from p->payload unless
 * NULL), zero pad, IPv4 header checksum and ICRC. Returns the frame length, -EINVAL
 * for an unknown opcode or a payload the opcode cannot carry, -ENOSPC if cap is short.
 */
int roce_pkt_build(const struct roce_pkt *p, uint8_t *buf, size_t cap);

/*
 * Writes only the headers (all lengths final, IPv4 checksum included) and returns their
 * length; for frames whose payload is scattered. Finish with the pad bytes and
 * roce_icrc_begin()/roce_crc32_update()/roce_icrc_put() over the pieces.
 */
int roce_pkt_write_hdrs(const struct roce_pkt *p, uint8_t *buf, size_t cap);

/*
 * Parses and validates a frame (starting at the Ethernet header; trailing Ethernet
 * padding allowed). Returns ROCE_R_OK (0) with *p filled, or the ROCE_R_* naming the
 * first check that failed (the frame's classification, not an errno). Frames that are not
 * RoCEv2 at all give ROCE_R_ETHERTYPE, ROCE_R_NOT_UDP or ROCE_R_UDP_PORT.
 */
enum roce_reason roce_pkt_parse(const uint8_t *frame, size_t len, unsigned int flags,
				struct roce_pkt *p);

/*
 * roce_pkt_parse(frame, len, 0, p) for a receiver whose RC transport reads the result:
 * the same return value for every frame, ICRC included. The common frame (untagged IPv4
 * without options, UDP checksum 0, an RC opcode with no extension header, a RETH or an
 * AETH) is checked in one pass that writes only opcode, oi, se, padcnt, ackreq, pkey,
 * dqpn, psn, the RETH or AETH, payload, paylen, ip4_src, ip4_dst (not sgid and dgid),
 * ipv6 (0), has_vlan (0), l3, l3_off, bth_off and wire_len; the other fields keep what they
 * held. Every other frame (DestQP 1's too) gets roce_pkt_parse() and all its fields.
 * roce_pkt_rc.h has the same pass inline.
 */
enum roce_reason roce_pkt_parse_rc(const uint8_t *frame, size_t len, struct roce_pkt *p);

/*
 * roce_pkt_parse_rc() for a frame whose receiver has already walked its L2 header: the IP
 * header starts at l3_off (14, or 18 after an 802.1Q tag) and is IPv6 when ipv6 is set, as
 * the caller found from the EtherType. The same return value and fields as
 * roce_pkt_parse_rc() (has_vlan and vlan_tci also written), without looking at the
 * Ethernet header again; IPv6 frames and other offsets get roce_pkt_parse().
 */
enum roce_reason roce_pkt_parse_rc_l3(const uint8_t *frame, size_t len, uint32_t l3_off,
				      int ipv6, struct roce_pkt *p);

/*
 * The same two with roce_pkt_parse()'s flags: roce_pkt_parse(frame, len, flags, p)'s
 * return value for every frame and, for the common frame, the one pass with the fields
 * above. ROCE_PARSE_NO_ICRC: a receiver that checks the ICRC itself (fused with the
 * payload's copy) still parses long frames in one pass; ROCE_PARSE_NO_CSUM: a receiver
 * that knows the IPv4 header checksum is right (the NIC checked it, or the frame is the
 * sender's own build).
 */
enum roce_reason roce_pkt_parse_rc_flags(const uint8_t *frame, size_t len, unsigned int flags,
					 struct roce_pkt *p);
enum roce_reason roce_pkt_parse_rc_l3_flags(const uint8_t *frame, size_t len, uint32_t l3_off,
					    int ipv6, unsigned int flags, struct roce_pkt *p);

/*
 * Frame template: the Ethernet/[VLAN]/IP/UDP/BTH bytes of every frame one connection sends,
 * built once from a prototype packet (roce_tmpl_init) and patched per frame with what
 * changes (roce_tmpl_write_hdrs): IP total/payload length, IP id, IPv4 header checksum
 * (incrementally, from the sum of the invariant words), UDP length, the BTH's opcode,
 * SE/pad byte, AckReq and PSN, and the extension headers. The bytes are those
 * roce_pkt_write_hdrs() writes for a packet whose address, VLAN, traffic class, hop limit,
 * flow label, fragment, UDP source port, P_Key, BTH byte 4 and DestQP fields equal the
 * prototype's.
 */
#define ROCE_TMPL_HDR_MAX 80u /* 14 + 4 + 40 + 8 + 12 = 78, rounded up to whole 16 bytes */

struct roce_tmpl {
	uint8_t valid;
	uint8_t ipv6;
	uint8_t l3_off;     /* 14, or 18 with a VLAN tag */
	uint8_t bth_off;    /* bytes before the BTH */
	uint32_t csum_base; /* IPv4: sum of the header's 16-bit words, length/id/checksum zero */
	struct roce_pkt proto; /* the prototype; opcode, PSN, lengths and ext. headers unused */
	uint8_t hdr[ROCE_TMPL_HDR_MAX]; /* the headers through the BTH of the prototype */
};

/* Builds t from proto (its L2/L3/UDP fields, P_Key, DestQP). 0 or -EINVAL. */
int roce_tmpl_init(struct roce_tmpl *t, const struct roce_pkt *proto);

/*
 * roce_pkt_write_hdrs() for a packet of t's connection, byte for byte the same: writes the
 * headers of p (opcode, SE, MIG, BTH byte 4, AckReq, PSN, extension headers, paylen,
 * ip_id; the other fields are taken from the template) and returns their length, or
 * -EINVAL / -ENOSPC as roce_pkt_write_hdrs(). Writes up to ROCE_TMPL_HDR_MAX bytes plus
 * the extension headers (cap must allow for that).
 */
int roce_tmpl_write_hdrs(const struct roce_tmpl *t, const struct roce_pkt *p, uint8_t *buf,
			 size_t cap);

#endif /* ROCE_PKT_H */
