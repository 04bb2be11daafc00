/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RoCEv2 opcode table (IBTA opcodes as listed in doc/spec/rocev2.md §2,
 * section 2). Header sizes and offsets are derived from the flags at compile time, so an
 * entry states only what the opcode carries and means.
 */
#include "roce_opcode.h"

#define LEN_IF(f, bit, n) (((f) & (bit)) ? (n) : 0)

/* Byte count of the headers that come before header `bit` in the fixed order. */
#define PRE_DETH(f)   0
#define PRE_FETH(f)   (PRE_DETH(f) + LEN_IF(f, ROCE_OPF_DETH, ROCE_DETH_LEN))
#define PRE_RETH(f)   (PRE_FETH(f) + LEN_IF(f, ROCE_OPF_FETH, ROCE_FETH_LEN))
#define PRE_ATMETH(f) (PRE_RETH(f) + LEN_IF(f, ROCE_OPF_RETH, ROCE_RETH_LEN))
#define PRE_IMM(f)    (PRE_ATMETH(f) + LEN_IF(f, ROCE_OPF_ATMETH, ROCE_ATMETH_LEN))
#define PRE_IETH(f)   (PRE_IMM(f) + LEN_IF(f, ROCE_OPF_IMM, ROCE_IMMDT_LEN))
#define PRE_AETH(f)   (PRE_IETH(f) + LEN_IF(f, ROCE_OPF_IETH, ROCE_IETH_LEN))
#define PRE_ATMACK(f) (PRE_AETH(f) + LEN_IF(f, ROCE_OPF_AETH, ROCE_AETH_LEN))
#define PRE_CNP(f)    (PRE_ATMACK(f) + LEN_IF(f, ROCE_OPF_ATMACK, ROCE_ATMACK_LEN))
#define EXT_LEN(f)    (PRE_CNP(f) + LEN_IF(f, ROCE_OPF_CNPRSVD, ROCE_CNP_RSVD_LEN))

#define OFF(f, bit, pre) (((f) & (bit)) ? (pre) : ROCE_HDR_ABSENT)

/* ROCE_OPF_RC1: RC, and no header the one pass of roce_pkt_parse_rc() does not read */
#define RC1_REJECT                                                                         \
	((ROCE_OPF_HDR_MASK & ~(ROCE_OPF_RETH | ROCE_OPF_AETH)) | ROCE_OPF_ATOMIC_WRITE)
#define RC1(tr, f) (((tr) == ROCE_TRANSPORT_RC && !((f) & RC1_REJECT)) ? ROCE_OPF_RC1 : 0u)

#define OP(code, nm, tr, f)                                                                \
	[code] = {                                                                         \
		.name = nm,                                                                \
		.flags = (f) | RC1(tr, f) | ROCE_OPF_VALID,                                \
		.transport = tr,                                                           \
		.ext_len = EXT_LEN(f),                                                     \
		.off_deth = OFF(f, ROCE_OPF_DETH, PRE_DETH(f)),                            \
		.off_feth = OFF(f, ROCE_OPF_FETH, PRE_FETH(f)),                            \
		.off_reth = OFF(f, ROCE_OPF_RETH, PRE_RETH(f)),                            \
		.off_atmeth = OFF(f, ROCE_OPF_ATMETH, PRE_ATMETH(f)),                      \
		.off_imm = OFF(f, ROCE_OPF_IMM, PRE_IMM(f)),                               \
		.off_ieth = OFF(f, ROCE_OPF_IETH, PRE_IETH(f)),                            \
		.off_aeth = OFF(f, ROCE_OPF_AETH, PRE_AETH(f)),                            \
		.off_atmack = OFF(f, ROCE_OPF_ATMACK, PRE_ATMACK(f)),                      \
	}

#define RQ ROCE_OPF_REQ
#define RS ROCE_OPF_RESP
#define PL ROCE_OPF_PAYLOAD
#define F ROCE_OPF_FIRST
#define M ROCE_OPF_MIDDLE
#define L ROCE_OPF_LAST
#define O ROCE_OPF_ONLY
#define SEND (ROCE_OPF_SEND | RQ | PL)
#define WRITE (ROCE_OPF_WRITE | RQ | PL)
#define RRESP (ROCE_OPF_READ | RS)
#define IMM ROCE_OPF_IMM
#define RETH ROCE_OPF_RETH
#define RWR ROCE_OPF_RWR

/* SEND and RDMA WRITE opcodes shared by RC (base 0x00) and UC (base 0x20). */
#define SEND_WRITE_OPS(base, tr, pfx)                                                      \
	OP(base | 0x00, pfx "_SEND_FIRST", tr, SEND | F | RWR),                            \
	OP(base | 0x01, pfx "_SEND_MIDDLE", tr, SEND | M),                                 \
	OP(base | 0x02, pfx "_SEND_LAST", tr, SEND | L),                                   \
	OP(base | 0x03, pfx "_SEND_LAST_WITH_IMMEDIATE", tr, SEND | L | IMM),              \
	OP(base | 0x04, pfx "_SEND_ONLY", tr, SEND | O | RWR),                             \
	OP(base | 0x05, pfx "_SEND_ONLY_WITH_IMMEDIATE", tr, SEND | O | IMM | RWR),        \
	OP(base | 0x06, pfx "_RDMA_WRITE_FIRST", tr, WRITE | F | RETH),                    \
	OP(base | 0x07, pfx "_RDMA_WRITE_MIDDLE", tr, WRITE | M),                          \
	OP(base | 0x08, pfx "_RDMA_WRITE_LAST", tr, WRITE | L),                            \
	OP(base | 0x09, pfx "_RDMA_WRITE_LAST_WITH_IMMEDIATE", tr, WRITE | L | IMM | RWR), \
	OP(base | 0x0A, pfx "_RDMA_WRITE_ONLY", tr, WRITE | O | RETH),                     \
	OP(base | 0x0B, pfx "_RDMA_WRITE_ONLY_WITH_IMMEDIATE", tr,                         \
	   WRITE | O | RETH | IMM | RWR)

const struct roce_opcode_info roce_opcode_table[256] = {
	SEND_WRITE_OPS(0x00, ROCE_TRANSPORT_RC, "RC"),
	OP(0x0C, "RC_RDMA_READ_REQUEST", ROCE_TRANSPORT_RC, ROCE_OPF_READ | RQ | O | RETH),
	OP(0x0D, "RC_RDMA_READ_RESPONSE_FIRST", ROCE_TRANSPORT_RC, RRESP | PL | F | ROCE_OPF_AETH),
	OP(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", ROCE_TRANSPORT_RC, RRESP | PL | M),
	OP(0x0F, "RC_RDMA_READ_RESPONSE_LAST", ROCE_TRANSPORT_RC, RRESP | PL | L | ROCE_OPF_AETH),
	OP(0x10, "RC_RDMA_READ_RESPONSE_ONLY", ROCE_TRANSPORT_RC, RRESP | PL | O | ROCE_OPF_AETH),
	OP(0x11, "RC_ACKNOWLEDGE", ROCE_TRANSPORT_RC, ROCE_OPF_ACK | RS | O | ROCE_OPF_AETH),
	OP(0x12, "RC_ATOMIC_ACKNOWLEDGE", ROCE_TRANSPORT_RC,
	   ROCE_OPF_ATOMIC | RS | O | ROCE_OPF_AETH | ROCE_OPF_ATMACK),
	OP(0x13, "RC_CMP_SWAP", ROCE_TRANSPORT_RC, ROCE_OPF_ATOMIC | RQ | O | ROCE_OPF_ATMETH),
	OP(0x14, "RC_FETCH_ADD", ROCE_TRANSPORT_RC, ROCE_OPF_ATOMIC | RQ | O | ROCE_OPF_ATMETH),
	OP(0x16, "RC_SEND_LAST_WITH_INVALIDATE", ROCE_TRANSPORT_RC, SEND | L | ROCE_OPF_IETH),
	OP(0x17, "RC_SEND_ONLY_WITH_INVALIDATE", ROCE_TRANSPORT_RC,
	   SEND | O | ROCE_OPF_IETH | RWR),
	OP(0x1C, "RC_FLUSH", ROCE_TRANSPORT_RC, ROCE_OPF_FLUSH | RQ | O | ROCE_OPF_FETH | RETH),
	OP(0x1D, "RC_ATOMIC_WRITE", ROCE_TRANSPORT_RC, ROCE_OPF_ATOMIC_WRITE | RQ | PL | O | RETH),
	SEND_WRITE_OPS(0x20, ROCE_TRANSPORT_UC, "UC"),
	OP(0x64, "UD_SEND_ONLY", ROCE_TRANSPORT_UD, SEND | O | ROCE_OPF_DETH | RWR),
	OP(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", ROCE_TRANSPORT_UD,
	   SEND | O | ROCE_OPF_DETH | IMM | RWR),
	OP(0x81, "CNP", ROCE_TRANSPORT_CNP, ROCE_OPF_CNP | O | ROCE_OPF_CNPRSVD),
};
