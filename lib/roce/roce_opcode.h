/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The opcode table: the one description of every RoCEv2 opcode, used by both the packet
 * builder and the parser, and by the state machines to classify packets.
 */
#ifndef ROCE_OPCODE_H
#define ROCE_OPCODE_H

#include <stdint.h>

#include "roce_hdr.h"

/* What follows the BTH, and what the opcode means. */
enum roce_opf {
	/* Extension headers, emitted in this order after the BTH. */
	ROCE_OPF_DETH = 1u << 0,
	ROCE_OPF_FETH = 1u << 1,
	ROCE_OPF_RETH = 1u << 2,
	ROCE_OPF_ATMETH = 1u << 3,
	ROCE_OPF_IMM = 1u << 4,
	ROCE_OPF_IETH = 1u << 5,
	ROCE_OPF_AETH = 1u << 6,
	ROCE_OPF_ATMACK = 1u << 7,
	ROCE_OPF_CNPRSVD = 1u << 8, /* 16 reserved bytes of a CNP */
	/* Payload may follow the headers. */
	ROCE_OPF_PAYLOAD = 1u << 9,
	/* Position in a message; ONLY = FIRST | LAST. */
	ROCE_OPF_FIRST = 1u << 10,
	ROCE_OPF_MIDDLE = 1u << 11,
	ROCE_OPF_LAST = 1u << 12,
	ROCE_OPF_ONLY = ROCE_OPF_FIRST | ROCE_OPF_LAST,
	/* Direction. */
	ROCE_OPF_REQ = 1u << 13,  /* requester → responder */
	ROCE_OPF_RESP = 1u << 14, /* responder → requester */
	/* Operation. */
	ROCE_OPF_SEND = 1u << 15,
	ROCE_OPF_WRITE = 1u << 16,
	ROCE_OPF_READ = 1u << 17,  /* read request or read response */
	ROCE_OPF_ATOMIC = 1u << 18, /* atomic request or atomic ack */
	ROCE_OPF_ACK = 1u << 19,   /* ACKNOWLEDGE */
	ROCE_OPF_FLUSH = 1u << 20,
	ROCE_OPF_ATOMIC_WRITE = 1u << 21,
	ROCE_OPF_CNP = 1u << 22,
	/* The responder consumes a receive WQE for this packet. */
	ROCE_OPF_RWR = 1u << 23,
	/* roce_pkt_parse_rc()'s one pass takes it: an RC opcode whose extension header is
	 * none, a RETH or an AETH, not ATOMIC WRITE (its payload length rule). One flag test
	 * for what were three (opcode < 0x20, known, headers). */
	ROCE_OPF_RC1 = 1u << 24,
	/* The packet is known to the table (entries without it are reserved opcodes). */
	ROCE_OPF_VALID = 1u << 31,
};

#define ROCE_OPF_HDR_MASK                                                                  \
	(ROCE_OPF_DETH | ROCE_OPF_FETH | ROCE_OPF_RETH | ROCE_OPF_ATMETH | ROCE_OPF_IMM |  \
	 ROCE_OPF_IETH | ROCE_OPF_AETH | ROCE_OPF_ATMACK | ROCE_OPF_CNPRSVD)

#define ROCE_HDR_ABSENT 0xFFu

struct roce_opcode_info {
	const char *name;   /* e.g. "RC_SEND_FIRST"; NULL for reserved opcodes */
	uint32_t flags;     /* enum roce_opf */
	uint8_t transport;  /* ROCE_TRANSPORT_* */
	uint8_t ext_len;    /* bytes of extension headers after the BTH */
	/* Offsets of each extension header from the end of the BTH, or ROCE_HDR_ABSENT. */
	uint8_t off_deth, off_feth, off_reth, off_atmeth, off_imm, off_ieth, off_aeth,
		off_atmack;
};

extern const struct roce_opcode_info roce_opcode_table[256];

/* The entry of a known opcode, or NULL. */
static inline const struct roce_opcode_info *roce_opcode_get(uint8_t opcode)
{
	const struct roce_opcode_info *oi = &roce_opcode_table[opcode];

	return (oi->flags & ROCE_OPF_VALID) ? oi : (const struct roce_opcode_info *)0;
}

static inline const char *roce_opcode_name(uint8_t opcode)
{
	const char *n = roce_opcode_table[opcode].name;

	return n ? n : "RESERVED";
}

#endif /* ROCE_OPCODE_H */
