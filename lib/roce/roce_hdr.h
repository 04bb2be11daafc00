/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 wire constants and big-endian field access.
 *
 * Headers are handled as byte arrays with explicit offsets rather than packed structs:
 * nothing on the wire is trusted to be aligned, and the same accessors serve build and
 * parse. All multi-byte fields are big-endian except the ICRC (see roce_icrc.h).
 */
#ifndef ROCE_HDR_H
#define ROCE_HDR_H

#include <stdint.h>
#include <string.h>

#define ROCE_UDP_PORT 4791u

/* Layer sizes (bytes). */
#define ROCE_ETH_HLEN   14u
#define ROCE_VLAN_HLEN  4u
#define ROCE_IPV4_HLEN  20u
#define ROCE_IPV6_HLEN  40u
#define ROCE_UDP_HLEN   8u
#define ROCE_BTH_LEN    12u
#define ROCE_ICRC_LEN   4u
#define ROCE_GRH_LEN    40u /* GRH area at the head of every UD receive buffer */

#define ROCE_ETHERTYPE_IPV4 0x0800u
#define ROCE_ETHERTYPE_IPV6 0x86DDu
#define ROCE_ETHERTYPE_VLAN 0x8100u
#define ROCE_IPPROTO_UDP    17u

/* Extension header sizes. */
#define ROCE_RETH_LEN    16u
#define ROCE_AETH_LEN    4u
#define ROCE_ATMETH_LEN  28u
#define ROCE_ATMACK_LEN  8u
#define ROCE_DETH_LEN    8u
#define ROCE_IMMDT_LEN   4u
#define ROCE_IETH_LEN    4u
#define ROCE_FETH_LEN    4u
#define ROCE_CNP_RSVD_LEN 16u

/* BTH byte 1. */
#define ROCE_BTH_SE      0x80u
#define ROCE_BTH_MIG     0x40u
#define ROCE_BTH_PAD_SHIFT 4
#define ROCE_BTH_PAD_MASK  0x30u
#define ROCE_BTH_TVER_MASK 0x0Fu
/* BTH byte 8. */
#define ROCE_BTH_ACKREQ  0x80u

#define ROCE_PKEY_DEFAULT 0xFFFFu
#define ROCE_QPN_MASK     0xFFFFFFu
#define ROCE_PSN_MASK     0xFFFFFFu
#define ROCE_MSN_MASK     0xFFFFFFu
#define ROCE_QPN_MULTICAST 0xFFFFFFu
#define ROCE_QKEY_GSI     0x80010000u

/* AETH syndrome (byte 0): bits 6:5 type, bits 4:0 value. */
#define ROCE_AETH_TYPE_MASK 0x60u
#define ROCE_AETH_ACK       0x00u
#define ROCE_AETH_RNR_NAK   0x20u
#define ROCE_AETH_NAK       0x60u
#define ROCE_AETH_VALUE_MASK 0x1Fu
#define ROCE_AETH_CREDIT_INVALID 0x1Fu /* "no credit information", what rxe sends */
#define ROCE_SYN_ACK        (ROCE_AETH_ACK | ROCE_AETH_CREDIT_INVALID) /* 0x1F */
#define ROCE_SYN_NAK_PSN_SEQ 0x60u
#define ROCE_SYN_NAK_INV_REQ 0x61u
#define ROCE_SYN_NAK_REM_ACC 0x62u
#define ROCE_SYN_NAK_REM_OP  0x63u
#define ROCE_SYN_NAK_INV_RD  0x64u

/* Opcode numbers (BTH byte 0). Bits 7:5 select the transport. */
enum roce_opcode {
	ROCE_OP_RC_SEND_FIRST = 0x00,
	ROCE_OP_RC_SEND_MIDDLE = 0x01,
	ROCE_OP_RC_SEND_LAST = 0x02,
	ROCE_OP_RC_SEND_LAST_IMM = 0x03,
	ROCE_OP_RC_SEND_ONLY = 0x04,
	ROCE_OP_RC_SEND_ONLY_IMM = 0x05,
	ROCE_OP_RC_WRITE_FIRST = 0x06,
	ROCE_OP_RC_WRITE_MIDDLE = 0x07,
	ROCE_OP_RC_WRITE_LAST = 0x08,
	ROCE_OP_RC_WRITE_LAST_IMM = 0x09,
	ROCE_OP_RC_WRITE_ONLY = 0x0A,
	ROCE_OP_RC_WRITE_ONLY_IMM = 0x0B,
	ROCE_OP_RC_READ_REQ = 0x0C,
	ROCE_OP_RC_READ_RESP_FIRST = 0x0D,
	ROCE_OP_RC_READ_RESP_MIDDLE = 0x0E,
	ROCE_OP_RC_READ_RESP_LAST = 0x0F,
	ROCE_OP_RC_READ_RESP_ONLY = 0x10,
	ROCE_OP_RC_ACK = 0x11,
	ROCE_OP_RC_ATOMIC_ACK = 0x12,
	ROCE_OP_RC_CMP_SWAP = 0x13,
	ROCE_OP_RC_FETCH_ADD = 0x14,
	ROCE_OP_RC_SEND_LAST_INV = 0x16,
	ROCE_OP_RC_SEND_ONLY_INV = 0x17,
	ROCE_OP_RC_FLUSH = 0x1C,
	ROCE_OP_RC_ATOMIC_WRITE = 0x1D,
	ROCE_OP_UC_BASE = 0x20, /* UC = 0x20 | RC low bits, SEND and WRITE only */
	ROCE_OP_UD_SEND_ONLY = 0x64,
	ROCE_OP_UD_SEND_ONLY_IMM = 0x65,
	ROCE_OP_CNP = 0x81,
};

#define ROCE_OP_TRANSPORT(op) ((uint8_t)(op) & 0xE0u)
#define ROCE_TRANSPORT_RC  0x00u
#define ROCE_TRANSPORT_UC  0x20u
#define ROCE_TRANSPORT_RD  0x40u
#define ROCE_TRANSPORT_UD  0x60u
#define ROCE_TRANSPORT_CNP 0x80u

static inline uint16_t roce_get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t roce_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t roce_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t roce_get_be64(const uint8_t *p)
{
	return (uint64_t)roce_get_be32(p) << 32 | roce_get_be32(p + 4);
}

static inline void roce_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void roce_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void roce_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void roce_put_be64(uint8_t *p, uint64_t v)
{
	roce_put_be32(p, (uint32_t)(v >> 32));
	roce_put_be32(p + 4, (uint32_t)v);
}

/*
 * PSN arithmetic modulo 2^24: the signed distance from b to a (positive when a is
 * after b). Shifting the 24-bit difference into the top of an int32 gives the sign.
 */
static inline int32_t roce_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

static inline uint32_t roce_psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & ROCE_PSN_MASK;
}

#endif /* ROCE_HDR_H */
