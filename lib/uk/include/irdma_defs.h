/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma hardware formats: constants and the single bit-field idiom.
 *
 * Every hardware format (SQ/RQ/SRQ WQEs, fragments, inline data, CQEs, shadow areas, doorbells) is a set of
 * little-endian 64-bit words ("qwords"). A field is a 64-bit mask built with IRDMA_GENMASK()/IRDMA_BIT();
 * IRDMA_FIELD_PREP() places a value into the field and IRDMA_FIELD_GET() extracts it. The field names are the
 * Linux kernel's (defs.h), so that code reading either side maps one to one.
 *
 * This header is shared by both directions: lib/uk encodes WQEs and decodes CQEs, the software device model
 * decodes WQEs and encodes CQEs with the same definitions. Facts: doc/spec/irdma-uk.md §2-§4.
 */
#ifndef IRDMA_DEFS_H
#define IRDMA_DEFS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------------
 * The bit-field idiom
 * ------------------------------------------------------------------------------------------------------- */

/* Bits h..l (inclusive) of a 64-bit word. Both bounds must be constants in 0..63 with h >= l. */
#define IRDMA_GENMASK(h, l) ((~0ULL >> (63 - (h))) & (~0ULL << (l)))
#define IRDMA_BIT(n) (1ULL << (n))

/* Position of the lowest bit of a (constant, non-zero) mask; folds to a constant. */
#define IRDMA_FIELD_SHIFT(mask) ((unsigned int)__builtin_ctzll(mask))

/* Value -> field, field -> value. Values wider than the field are truncated to it. */
#define IRDMA_FIELD_PREP(mask, val) ((((uint64_t)(val)) << IRDMA_FIELD_SHIFT(mask)) & (uint64_t)(mask))
#define IRDMA_FIELD_GET(mask, qword) ((((uint64_t)(qword)) & (uint64_t)(mask)) >> IRDMA_FIELD_SHIFT(mask))

/* Replace one field of a qword, keeping the others. */
#define IRDMA_FIELD_SET(mask, qword, val) (((uint64_t)(qword) & ~(uint64_t)(mask)) | IRDMA_FIELD_PREP(mask, val))

/* ---------------------------------------------------------------------------------------------------------
 * Hardware generations and feature flags (uk_attrs.hw_rev, uk_attrs.feature_flags)
 * ------------------------------------------------------------------------------------------------------- */
enum irdma_vers {
	IRDMA_GEN_RSVD = 0,
	IRDMA_GEN_1 = 1, /* X722, iWARP only */
	IRDMA_GEN_2 = 2, /* E810 / E82x, iWARP and RoCEv2 */
	IRDMA_GEN_3 = 3, /* IPU: SRQ, atomics, 64-byte CQEs */
	IRDMA_GEN_4 = 4, /* handled exactly like GEN_3 by the uk layer */
	IRDMA_GEN_NEXT,
	IRDMA_GEN_MAX = IRDMA_GEN_NEXT - 1,
};

#define IRDMA_FEATURE_RTS_AE IRDMA_BIT(0)
#define IRDMA_FEATURE_CQ_RESIZE IRDMA_BIT(1)
#define IRDMA_FEATURE_64_BYTE_CQE IRDMA_BIT(5)
#define IRDMA_FEATURE_ATOMIC_OPS IRDMA_BIT(6)
#define IRDMA_FEATURE_SRQ IRDMA_BIT(7)
#define IRDMA_FEATURE_CQE_TIMESTAMPING IRDMA_BIT(8)

/* ---------------------------------------------------------------------------------------------------------
 * Sizes and limits
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_QP_WQE_MIN_SIZE 32        /* bytes per quantum */
#define IRDMA_QP_WQE_MAX_SIZE 256       /* largest SQ WQE: 8 quanta */
#define IRDMA_QP_WQE_MIN_QUANTA 1
#define IRDMA_MAX_QUANTA_PER_WR 8       /* SQ chunk on GEN_2/3 */
#define IRDMA_SQ_RSVD 258               /* quanta added to every SQ depth */
#define IRDMA_RQ_RSVD 1                 /* entries added to every RQ/SRQ depth */
#define IRDMA_QP_SW_MIN_WQSIZE 8        /* min_hw_wq_size when the device does not report one */
#define IRDMA_QP_SW_MAX_WQ_QUANTA 32768
#define IRDMA_QP_SW_MAX_SQ_QUANTA 32768
#define IRDMA_QP_SW_MAX_RQ_QUANTA 32768
#define IRDMA_SRQ_MAX_QUANTA 262144
#define IRDMA_MAX_QP_WRS(max_quanta_per_wr) \
	((IRDMA_QP_SW_MAX_WQ_QUANTA - IRDMA_SQ_RSVD) / (max_quanta_per_wr))
#define IRDMA_MAX_RQ_WQE_SHIFT_GEN1 2   /* GEN_1 RQ WQEs are always 128 bytes (ABI > 4) */
#define IRDMA_MAX_RQ_WQE_SHIFT_GEN2 3
#define IRDMA_MAX_SQ_FRAG_CNT_ENCODABLE 15 /* fragments a WQE can describe (with the immediate slot) */

/* The SQ keeps this many quanta unused so that the pre-clear window (irdma_clr_wqes) never reaches WQEs
 * the device still owns. */
#define IRDMA_SQ_RING_RESERVE 257
/* irdma_clr_wqes works on blocks of this many quanta (4 KiB). */
#define IRDMA_SQ_CLR_BLOCK 128

#define IRDMA_WQE_SIZE 4                /* qwords per quantum */
#define IRDMA_CQE_SIZE 4                /* qwords per 32-byte CQE */
#define IRDMA_EXTENDED_CQE_SIZE 8       /* qwords per 64-byte CQE */
#define IRDMA_SHADOW_AREA_SIZE 8        /* qwords per shadow area */
#define IRDMA_CQE_BYTES 32
#define IRDMA_EXTENDED_CQE_BYTES 64
#define IRDMA_SHADOW_AREA_BYTES 64

#define IRDMA_MIN_CQ_SIZE 1
#define IRDMA_MAX_CQ_SIZE 1048575
#define IRDMA_MAX_CQID 524287
#define IRDMA_MAX_IW_QP_ID 262143
#define IRDMA_MAX_WQ_FRAGMENT_COUNT 13
#define IRDMA_MAX_SGE_RD 13
#define IRDMA_MAX_INLINE_DATA_SIZE 101
#define IRDMA_MAX_WQ_ENTRIES 32768
#define IRDMA_MAX_OUTBOUND_MSG_SIZE 2147483647
#define IRDMA_MAX_INBOUND_MSG_SIZE 2147483647
#define IRDMA_MIN_WQ_SIZE_GEN2 8
#define IRDMA_HW_PAGE_SIZE 4096
#define IRDMA_HW_PAGE_SHIFT 12
#define IRDMA_ABI_VER 5

/* Per-generation limits (the values a device reports in struct irdma_uk_attrs). */
#define IRDMA_GEN1_MAX_HW_WQ_FRAGS 3
#define IRDMA_GEN1_MAX_HW_READ_SGES 1
#define IRDMA_GEN1_MAX_HW_INLINE 48
#define IRDMA_GEN1_MAX_HW_WQ_QUANTA 2048
#define IRDMA_GEN1_MAX_HW_RQ_QUANTA 16384
#define IRDMA_GEN1_MAX_HW_SQ_CHUNK 2
#define IRDMA_GEN1_MIN_HW_WQ_SIZE 4
#define IRDMA_GEN2_MAX_HW_WQ_FRAGS 13
#define IRDMA_GEN2_MAX_HW_READ_SGES 13
#define IRDMA_GEN2_MAX_HW_INLINE 101
#define IRDMA_GEN2_MIN_HW_WQ_SIZE 8
#define IRDMA_GEN3_MAX_HW_WQ_FRAGS 14
#define IRDMA_GEN3_MAX_HW_READ_SGES 14
#define IRDMA_GEN3_MAX_HW_INLINE 216
#define IRDMA_GEN3_MIN_HW_WQ_SIZE 16

/* Queue types reported in CQE qword 3 bit 62, and QP types. */
#define IRDMA_CQE_QTYPE_RQ 0
#define IRDMA_CQE_QTYPE_SQ 1
#define IRDMA_QP_TYPE_IWARP 1
#define IRDMA_QP_TYPE_UDA 2
#define IRDMA_QP_TYPE_ROCE_RC 3
#define IRDMA_QP_TYPE_ROCE_UD 4

/* ---------------------------------------------------------------------------------------------------------
 * Opcodes: SQ WQE header bits 32..37, also reported in CQE qword 3 bits 56..61
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMAQP_OP_RDMA_WRITE 0x00
#define IRDMAQP_OP_RDMA_READ 0x01
#define IRDMAQP_OP_RDMA_SEND 0x03
#define IRDMAQP_OP_RDMA_SEND_INV 0x04
#define IRDMAQP_OP_RDMA_SEND_SOL_EVENT 0x05
#define IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV 0x06
#define IRDMAQP_OP_BIND_MW 0x08
#define IRDMAQP_OP_FAST_REGISTER 0x09
#define IRDMAQP_OP_LOCAL_INVALIDATE 0x0a
#define IRDMAQP_OP_RDMA_READ_LOC_INV 0x0b
#define IRDMAQP_OP_NOP 0x0c
#define IRDMAQP_OP_RDMA_WRITE_SOL 0x0d
#define IRDMAQP_OP_ATOMIC_FETCH_ADD 0x0f
#define IRDMAQP_OP_ATOMIC_COMPARE_SWAP 0x11
#define IRDMAQP_OP_GEN_RTS_AE 0x30

/* The same values under the names the uk layer's callers use (post_sq_info.op_type). */
#define IRDMA_OP_TYPE_RDMA_WRITE 0x00
#define IRDMA_OP_TYPE_RDMA_READ 0x01
#define IRDMA_OP_TYPE_SEND 0x03
#define IRDMA_OP_TYPE_SEND_INV 0x04
#define IRDMA_OP_TYPE_SEND_SOL 0x05
#define IRDMA_OP_TYPE_SEND_SOL_INV 0x06
#define IRDMA_OP_TYPE_BIND_MW 0x08
#define IRDMA_OP_TYPE_FAST_REG_NSMR 0x09
#define IRDMA_OP_TYPE_INV_STAG 0x0a
#define IRDMA_OP_TYPE_RDMA_READ_INV_STAG 0x0b
#define IRDMA_OP_TYPE_NOP 0x0c
#define IRDMA_OP_TYPE_RDMA_WRITE_SOL 0x0d
#define IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD 0x0f
#define IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP 0x11
/* Software-only pseudo-opcodes (flush completions of receives, extended-CQ reporting). */
#define IRDMA_OP_TYPE_REC 0x3e
#define IRDMA_OP_TYPE_REC_IMM 0x3f

/* RQ CQE opcodes that mean "RDMA write with immediate was received": GEN_2 RoCE reports the IB BTH opcode
 * (RDMA WRITE Last with Immediate / Only with Immediate), GEN_3 reports the sender's WQE opcode. */
#define IRDMA_IB_OPCODE_RDMA_WRITE_LAST_WITH_IMM 0x09
#define IRDMA_IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMM 0x0b

/* ---------------------------------------------------------------------------------------------------------
 * SQ WQE (qword 3 = header; written last, after a store barrier)
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_CQPHC_QPCTX IRDMA_GENMASK(63, 0)

#define IRDMAQPSQ_REMSTAG IRDMA_GENMASK(31, 0)      /* remote STag: write, read, atomics */
#define IRDMAQPSQ_REMSTAGINV IRDMA_GENMASK(31, 0)   /* STag to invalidate: send with invalidate */
#define IRDMAQPSQ_AHID IRDMA_GENMASK(16, 0)         /* address handle index: UD send */
#define IRDMAQPSQ_OPCODE IRDMA_GENMASK(37, 32)
#define IRDMAQPSQ_ADDFRAGCNT IRDMA_GENMASK(41, 38)  /* fragments beyond the first */
#define IRDMAQPSQ_L4LEN IRDMA_GENMASK(45, 42)       /* UD send */
#define IRDMAQPSQ_COPY_HOST_PBL IRDMA_BIT(43)       /* fast register only */
#define IRDMAQPSQ_REPORTRTT IRDMA_BIT(46)
#define IRDMAQPSQ_IMMDATAFLAG IRDMA_BIT(47)
#define IRDMAQPSQ_INLINEDATALEN IRDMA_GENMASK(55, 48)
#define IRDMAQPSQ_STAGRIGHTS IRDMA_GENMASK(52, 48)  /* bind MW / fast register */
#define IRDMAQPSQ_VABASEDTO IRDMA_BIT(53)
#define IRDMAQPSQ_MEMWINDOWTYPE IRDMA_BIT(54)       /* 1 = type 1 window, 0 = type 2 */
#define IRDMAQPSQ_REMOTE_ATOMICS_EN IRDMA_BIT(55)   /* GEN_3 bind MW / fast register */
#define IRDMAQPSQ_PUSHWQE IRDMA_BIT(56)
#define IRDMAQPSQ_INLINEDATAFLAG IRDMA_BIT(57)
#define IRDMAQPSQ_STREAMMODE IRDMA_BIT(58)
#define IRDMAQPSQ_WAITFORRCVPDU IRDMA_BIT(59)
#define IRDMAQPSQ_READFENCE IRDMA_BIT(60)
#define IRDMAQPSQ_LOCALFENCE IRDMA_BIT(61)
#define IRDMAQPSQ_UDPHEADER IRDMA_BIT(61)           /* UD send: same bit as the local fence */
#define IRDMAQPSQ_SIGCOMPL IRDMA_BIT(62)
#define IRDMAQPSQ_VALID IRDMA_BIT(63)

/* STag rights inside IRDMAQPSQ_STAGRIGHTS (value = reads << 2 | writes << 3). */
#define IRDMA_STAGRIGHTS_REMOTE_READ 0x4
#define IRDMA_STAGRIGHTS_REMOTE_WRITE 0x8

/* qword 2 */
#define IRDMAQPSQ_FRAG_TO IRDMA_CQPHC_QPCTX         /* remote address: write, read, atomics */
#define IRDMAQPSQ_REMTO IRDMA_CQPHC_QPCTX
#define IRDMAQPSQ_DESTQKEY IRDMA_GENMASK(31, 0)     /* UD send */
#define IRDMAQPSQ_DESTQPN IRDMA_GENMASK(55, 32)     /* UD send */
#define IRDMAQPSQ_MWLEN IRDMA_CQPHC_QPCTX           /* bind MW: window length */

/* qword 0 */
#define IRDMAQPSQ_IMMDATA IRDMA_GENMASK(63, 0)      /* immediate data (32 bits used) */
#define IRDMAQPSQ_BASEVA_TO_FBO IRDMA_CQPHC_QPCTX   /* bind MW: window VA */

/* qword 1, bind MW. GEN_2/3 layout; GEN_1 swaps the two STags. */
#define IRDMAQPSQ_PARENTMRSTAG IRDMA_GENMASK(63, 32)
#define IRDMAQPSQ_MWSTAG IRDMA_GENMASK(31, 0)
#define IRDMAQPSQ_LOCSTAG IRDMA_GENMASK(31, 0)      /* atomics: local STag */

/* Atomic WQEs (GEN_3): 2 quanta; operands in the second quantum. */
#define IRDMA_ATOMIC_WQE_QUANTA 2
#define IRDMA_ATOMIC_ADDL_FRAG_CNT 1
#define IRDMA_BYTE_ATOMIC_OPERAND0 32               /* fetch-add value / swap value */
#define IRDMA_BYTE_ATOMIC_OPERAND1 40               /* compare value */
#define IRDMA_BYTE_ATOMIC_VALID 56                  /* qword 7: valid bit only */

/* Byte offsets of the qwords in the header quantum. */
#define IRDMA_BYTE_0 0
#define IRDMA_BYTE_8 8
#define IRDMA_BYTE_16 16
#define IRDMA_BYTE_24 24
#define IRDMA_BYTE_32 32
#define IRDMA_BYTE_40 40
#define IRDMA_BYTE_48 48
#define IRDMA_BYTE_56 56
#define IRDMA_WQE_HDR_BYTE IRDMA_BYTE_24

/* ---------------------------------------------------------------------------------------------------------
 * Fragments (SGEs): 16 bytes. Fragment 0 at byte 0 (or the immediate in qword 0), fragment k >= 1 at byte
 * 32 + 16 * (k - 1).
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_FRAG_BYTES 16
#define IRDMA_FRAG_BYTE_OFFSET(k) ((k) ? 32u + 16u * ((unsigned int)(k) - 1u) : 0u)

/* GEN_2 / GEN_3: first qword = address, second = STag | length | valid */
#define IRDMAQPSQ_FRAG_VALID IRDMA_BIT(63)
#define IRDMAQPSQ_FRAG_LEN IRDMA_GENMASK(62, 32)
#define IRDMAQPSQ_FRAG_STAG IRDMA_GENMASK(31, 0)
/* GEN_1: first qword = address, second = length | STag, no valid bit */
#define IRDMAQPSQ_GEN1_FRAG_LEN IRDMA_GENMASK(31, 0)
#define IRDMAQPSQ_GEN1_FRAG_STAG IRDMA_GENMASK(63, 32)

/* ---------------------------------------------------------------------------------------------------------
 * Inline data.
 * GEN_2/3: logical byte 0..7 at WQE bytes 8..15; then 31 data bytes per quantum starting at byte 32, byte 31
 * of every such quantum is the "inline valid" byte (polarity << 7).
 * GEN_1: logical bytes 0..15 at WQE bytes 0..15, then contiguous from byte 32; no valid bytes.
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_INLINE_VALID_S 7
#define IRDMA_INLINE_FIRST_CHUNK 8        /* GEN_2/3 bytes in the header quantum */
#define IRDMA_INLINE_CHUNK 31             /* GEN_2/3 bytes per following quantum */
#define IRDMA_INLINE_FIRST_CHUNK_GEN1 16

/* WQE byte offset of logical inline byte n. */
static inline uint32_t irdma_inline_byte_offset(uint32_t n)
{
	if (n < IRDMA_INLINE_FIRST_CHUNK)
		return IRDMA_INLINE_FIRST_CHUNK + n;
	n -= IRDMA_INLINE_FIRST_CHUNK;
	return 32u * (1u + n / IRDMA_INLINE_CHUNK) + n % IRDMA_INLINE_CHUNK;
}

static inline uint32_t irdma_inline_byte_offset_gen_1(uint32_t n)
{
	return n < IRDMA_INLINE_FIRST_CHUNK_GEN1 ? n : n + 16u;
}

/* ---------------------------------------------------------------------------------------------------------
 * RQ / SRQ WQE: fragments from byte 0, qword 2 = 0 (RQ) or wr_id (SRQ), qword 3 = addl frag cnt | valid
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMAQPRQ_ADDFRAGCNT IRDMAQPSQ_ADDFRAGCNT
#define IRDMAQPRQ_VALID IRDMAQPSQ_VALID
#define IRDMAQPRQ_COMPLCTX IRDMA_CQPHC_QPCTX   /* SRQ qword 2: wr_id, returned in CQE qword 1 */
#define IRDMAQPRQ_FRAG_LEN IRDMAQPSQ_FRAG_LEN
#define IRDMAQPRQ_STAG IRDMAQPSQ_FRAG_STAG
#define IRDMAQPRQ_TO IRDMAQPSQ_FRAG_TO

/* ---------------------------------------------------------------------------------------------------------
 * CQE. 32-byte slots (GEN_1/2; GEN_3 without 64-byte CQEs) or 64-byte slots (avoid_mem_cflct).
 * ------------------------------------------------------------------------------------------------------- */
/* qword 0 */
#define IRDMACQ_PAYLDLEN IRDMA_GENMASK(31, 0)
#define IRDMACQ_TCPSQN_ROCEPSN_RTT_TS IRDMA_GENMASK(63, 32)
/* qword 1: completion context (the uk QP pointer) or, for SRQ completions, the wr_id */
#define IRDMA_CQ_QPCTX IRDMA_CQPHC_QPCTX
/* qword 2 */
#define IRDMACQ_INVSTAG IRDMA_GENMASK(31, 0)
#define IRDMACQ_UDSRCQPN IRDMA_GENMASK(31, 0)
#define IRDMACQ_QPID IRDMA_GENMASK(55, 32)
/* qword 3 */
#define IRDMA_CQ_MINERR IRDMA_GENMASK(15, 0)
#define IRDMA_CQ_MAJERR IRDMA_GENMASK(31, 16)
#define IRDMA_CQ_WQEIDX IRDMA_GENMASK(46, 32)
#define IRDMA_CQ_EXTCQE IRDMA_BIT(50)
#define IRDMACQ_PSHDROP IRDMA_BIT(51)
#define IRDMA_CQ_SRQ IRDMA_BIT(52)
#define IRDMACQ_STAG IRDMA_BIT(53)           /* RQ: remote invalidate happened */
#define IRDMACQ_IPV4 IRDMA_BIT(53)           /* UD: same bit */
#define IRDMACQ_SOEVENT IRDMA_BIT(54)
#define IRDMA_OOO_CMPL IRDMA_BIT(54)
#define IRDMA_CQ_ERROR IRDMA_BIT(55)
#define IRDMACQ_OP IRDMA_GENMASK(61, 56)
#define IRDMA_CQ_SQ IRDMA_BIT(62)
#define IRDMA_CQ_VALID IRDMA_BIT(63)
/* qword 5 of a 64-byte slot: QP completion context of an SRQ completion */
#define IRDMA_BYTE_SRQ_QPCTX 40

/* Extension (next 32-byte slot, or bytes 32..63 of a 64-byte slot); offsets relative to its start. */
#define IRDMA_CQ_IMMDATALOW32 IRDMA_GENMASK(31, 0)   /* ext qword 0 */
#define IRDMA_CQ_IMMDATAUP32 IRDMA_GENMASK(63, 32)
#define IRDMA_CQ_UDSMAC IRDMA_GENMASK(47, 0)         /* ext qword 2 */
#define IRDMA_CQ_UDVLAN IRDMA_GENMASK(63, 48)
#define IRDMA_CQ_UDVLANVALID IRDMA_BIT(60)           /* ext qword 3 */
#define IRDMA_CQ_UDSMACVALID IRDMA_BIT(61)
#define IRDMA_CQ_IMMVALID IRDMA_BIT(62)

/* Major error codes (CQE qword 3 bits 16..31). */
#define IRDMA_FLUSH_MAJOR_ERR 1
#define IRDMA_SRQFLUSH_RSVD_MAJOR_ERR 0xfffe        /* GEN_3 SRQ flush; minor is an AE code */
#define IRDMA_CIE_SIGNATURE 0xe000                  /* UD SQ: non-fatal indication in the top nibble */
#define IRDMA_CQMAJERR_HIGH_NIBBLE IRDMA_GENMASK(15, 12)

/* ---------------------------------------------------------------------------------------------------------
 * Shadow areas (64 bytes of host memory each)
 * ------------------------------------------------------------------------------------------------------- */
/* QP: qword 0 = hardware SQ tail (written by the device) */
#define IRDMA_QP_DBSA_HW_SQ_TAIL IRDMA_GENMASK(14, 0)
/* CQ: qword 0 = consumer index (software), qword 4 (byte 32) = arm word */
#define IRDMA_CQ_DBSA_CQEIDX IRDMA_GENMASK(19, 0)
#define IRDMA_CQ_DBSA_SW_CQ_SELECT IRDMA_GENMASK(13, 0)
#define IRDMA_CQ_DBSA_ARM_NEXT IRDMA_BIT(14)
#define IRDMA_CQ_DBSA_ARM_NEXT_SE IRDMA_BIT(15)
#define IRDMA_CQ_DBSA_ARM_SEQ_NUM IRDMA_GENMASK(17, 16)
#define IRDMA_BYTE_CQ_SHADOW_HEAD IRDMA_BYTE_0
#define IRDMA_BYTE_CQ_SHADOW_ARM IRDMA_BYTE_32
/* SRQ: qword 0 = software producer index */
#define IRDMA_BYTE_SRQ_SHADOW_PIDX IRDMA_BYTE_0

/* ---------------------------------------------------------------------------------------------------------
 * Doorbells (32-bit writes into the doorbell page)
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_DB_SQ_OFFSET 0      /* value: qp_id */
#define IRDMA_DB_CQ_OFFSET 64     /* value: cq_id */
#define IRDMA_PUSH_DB_WQE_IDX IRDMA_GENMASK(31, 20) /* push doorbell: qp_id | (wqe_idx >> 3) << 20 */
/* Kernel register offsets (GEN_2) of the same doorbells, for reference. */
#define IRDMA_PFPE_WQEALLOC 0x00504400
#define IRDMA_VFPE_WQEALLOC 0x0000c000
#define IRDMA_PFPE_CQARM 0x00502c00
#define IRDMA_VFPE_CQARM 0x0000b400

/* ---------------------------------------------------------------------------------------------------------
 * Asynchronous event codes that map to flush codes (GEN_3 SRQ flush CQEs carry them as minor error)
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_AE_AMP_UNALLOCATED_STAG 0x0102
#define IRDMA_AE_AMP_INVALID_STAG 0x0103
#define IRDMA_AE_AMP_BAD_QP 0x0104
#define IRDMA_AE_AMP_BAD_PD 0x0105
#define IRDMA_AE_AMP_BAD_STAG_KEY 0x0106
#define IRDMA_AE_AMP_BAD_STAG_INDEX 0x0107
#define IRDMA_AE_AMP_BOUNDS_VIOLATION 0x0108
#define IRDMA_AE_AMP_RIGHTS_VIOLATION 0x0109
#define IRDMA_AE_AMP_TO_WRAP 0x010a
#define IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS 0x0112
#define IRDMA_AE_AMP_MWBIND_VALID_STAG 0x0114
#define IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS 0x0118
#define IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS 0x0119
#define IRDMA_AE_AMP_MWBIND_BIND_DISABLED 0x011b
#define IRDMA_AE_PRIV_OPERATION_DENIED 0x011c
#define IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG 0x0132
#define IRDMA_AE_UDA_XMIT_BAD_PD 0x0133
#define IRDMA_AE_UDA_XMIT_DGRAM_TOO_SHORT 0x0134
#define IRDMA_AE_UDA_L4LEN_INVALID 0x0135
#define IRDMA_AE_IB_INVALID_REQUEST 0x0208
#define IRDMA_AE_WQE_UNEXPECTED_OPCODE 0x020a
#define IRDMA_AE_IB_REMOTE_ACCESS_ERROR 0x020d
#define IRDMA_AE_IB_REMOTE_OP_ERROR 0x020e
#define IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER 0x0303
#define IRDMA_AE_DDP_UBE_INVALID_MO 0x0305
#define IRDMA_AE_ROCE_RSP_LENGTH_ERROR 0x0316
#define IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR 0x0505
#define IRDMA_AE_LLP_SEGMENT_TOO_SMALL 0x0507
#define IRDMA_AE_LLP_TOO_MANY_RETRIES 0x050a
#define IRDMA_AE_LLP_TOO_MANY_RNRS 0x050f
#define IRDMA_AE_LCE_QP_CATASTROPHIC 0x0700
#define IRDMA_AE_REMOTE_QP_CATASTROPHIC 0x0703
#define IRDMA_AE_LOCAL_QP_CATASTROPHIC 0x0704
#define IRDMA_AE_RCE_QP_CATASTROPHIC 0x0705

/* ---------------------------------------------------------------------------------------------------------
 * Rings: {head, tail, size}, indices modulo size. These generic forms divide; lib/uk's hot paths use
 * compare-and-subtract equivalents (uk_internal.h).
 * ------------------------------------------------------------------------------------------------------- */
#define IRDMA_RING_INIT(_ring, _size)                                                          \
	do {                                                                                   \
		(_ring).head = 0;                                                              \
		(_ring).tail = 0;                                                              \
		(_ring).size = (_size);                                                        \
	} while (0)
#define IRDMA_RING_SIZE(_ring) ((_ring).size)
#define IRDMA_RING_CURRENT_HEAD(_ring) ((_ring).head)
#define IRDMA_RING_CURRENT_TAIL(_ring) ((_ring).tail)
#define IRDMA_RING_USED_QUANTA(_ring) \
	((((_ring).head + (_ring).size - (_ring).tail) % (_ring).size))
#define IRDMA_RING_FREE_QUANTA(_ring) (((_ring).size - IRDMA_RING_USED_QUANTA(_ring) - 1))
#define IRDMA_SQ_RING_FREE_QUANTA(_ring) \
	(((_ring).size - IRDMA_RING_USED_QUANTA(_ring) - IRDMA_SQ_RING_RESERVE))
#define IRDMA_RING_FULL_ERR(_ring) ((IRDMA_RING_USED_QUANTA(_ring) == ((_ring).size - 1)))
#define IRDMA_SQ_RING_FULL_ERR(_ring) \
	((IRDMA_RING_USED_QUANTA(_ring) == ((_ring).size - IRDMA_SQ_RING_RESERVE)))
#define IRDMA_RING_MORE_WORK(_ring) ((IRDMA_RING_USED_QUANTA(_ring) != 0))
#define IRDMA_RING_MOVE_HEAD_NOCHECK(_ring) ((_ring).head = ((_ring).head + 1) % (_ring).size)
#define IRDMA_RING_MOVE_HEAD_BY_COUNT_NOCHECK(_ring, _count) \
	((_ring).head = ((_ring).head + (_count)) % (_ring).size)
#define IRDMA_RING_MOVE_TAIL(_ring) ((_ring).tail = ((_ring).tail + 1) % (_ring).size)
#define IRDMA_RING_MOVE_TAIL_BY_COUNT(_ring, _count) \
	((_ring).tail = ((_ring).tail + (_count)) % (_ring).size)
#define IRDMA_RING_SET_TAIL(_ring, _pos) ((_ring).tail = (_pos) % (_ring).size)

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_DEFS_H */
