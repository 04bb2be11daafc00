/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The SQ side of the front end's fast path, inline where it runs (soft_req.c's req_fast,
 * once per WQE): the peek at the SQ head and the advance past a taken WQE. The general
 * fetch and decode stay in soft_sq.c.
 */
#ifndef SOFT_SQ_FAST_H
#define SOFT_SQ_FAST_H

#include "uk_osdep.h"

#include "soft_priv.h"

/* Quanta of an inline WQE of len bytes (doc/spec/irdma-uk.md §3.4). */
static inline uint32_t soft_sq_inline_quanta(uint8_t gen, uint32_t len)
{
	if (gen == IRDMA_GEN_1)
		return len <= IRDMA_INLINE_FIRST_CHUNK_GEN1 ? 1 : 2;
	if (len <= IRDMA_INLINE_FIRST_CHUNK)
		return 1;
	return 1 + (len - IRDMA_INLINE_FIRST_CHUNK + IRDMA_INLINE_CHUNK - 1) / IRDMA_INLINE_CHUNK;
}

/*
 * The front end's fast fetch (soft_req.c): the WQE at the SQ head when it is an inline RDMA
 * WRITE or SEND (solicited or not, with or without immediate, read fence allowed) on an
 * RC QP, with only the fields that needs read. 1: *f filled; 0: no valid WQE there; -1:
 * another kind of WQE or one the general decode must judge (soft_sq_fetch reads it).
 */
static __rte_always_inline int soft_sq_peek_inline(const struct soft_qp *qp,
						  struct soft_sq_inl *f)
{
	const uint64_t *wqe = (const uint64_t *)(qp->sq_base +
					       (size_t)qp->sq_head * IRDMA_QP_WQE_MIN_SIZE);
	uint64_t hdr, q;
	uint8_t op;

	get_64bit_val_acquire(wqe, IRDMA_WQE_HDR_BYTE, &hdr);
	if (IRDMA_FIELD_GET(IRDMAQPSQ_VALID, hdr) != qp->sq_polarity)
		return 0;
	op = (uint8_t)IRDMA_FIELD_GET(IRDMAQPSQ_OPCODE, hdr);
	if (!IRDMA_FIELD_GET(IRDMAQPSQ_INLINEDATAFLAG, hdr) ||
	    IRDMA_FIELD_GET(IRDMAQPSQ_LOCALFENCE, hdr) || qp->type != IRDMA_HW_QP_RC)
		return -1;
	switch (op) {
	case IRDMAQP_OP_RDMA_WRITE:
	case IRDMAQP_OP_RDMA_WRITE_SOL:
		get_64bit_val(wqe, IRDMA_BYTE_16, &q);
		f->raddr = IRDMA_FIELD_GET(IRDMAQPSQ_FRAG_TO, q);
		f->rkey = (uint32_t)IRDMA_FIELD_GET(IRDMAQPSQ_REMSTAG, hdr);
		f->solicited = op == IRDMAQP_OP_RDMA_WRITE_SOL;
		break;
	case IRDMAQP_OP_RDMA_SEND:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT:
		f->raddr = 0;
		f->rkey = 0;
		f->solicited = op == IRDMAQP_OP_RDMA_SEND_SOL_EVENT;
		break;
	default:
		return -1;
	}
	f->idx = qp->sq_head;
	f->op = op;
	f->len = (uint32_t)IRDMA_FIELD_GET(IRDMAQPSQ_INLINEDATALEN, hdr);
	f->quanta = (uint16_t)soft_sq_inline_quanta(qp->dev->gen, f->len);
	if (f->len > qp->max_inline || f->idx + f->quanta > qp->sq_depth)
		return -1;
	f->signaled = IRDMA_FIELD_GET(IRDMAQPSQ_SIGCOMPL, hdr);
	f->read_fence = IRDMA_FIELD_GET(IRDMAQPSQ_READFENCE, hdr);
	f->imm_valid = IRDMA_FIELD_GET(IRDMAQPSQ_IMMDATAFLAG, hdr);
	f->imm = 0;
	if (f->imm_valid) {
		get_64bit_val(wqe, IRDMA_BYTE_0, &q);
		f->imm = (uint32_t)IRDMA_FIELD_GET(IRDMAQPSQ_IMMDATA, q);
	}
	return 1;
}

/* The WQE at the head was taken: advance, flip the polarity at the wrap, and publish the
 * hardware SQ tail in the QP shadow area. */
static __rte_always_inline void soft_sq_advance(struct soft_qp *qp, uint16_t quanta)
{
	qp->sq_head += quanta;
	if (qp->sq_head >= qp->sq_depth) {
		qp->sq_head -= qp->sq_depth;
		qp->sq_polarity ^= 1;
	}
	set_64bit_val_release(qp->shadow, IRDMA_BYTE_0,
			      IRDMA_FIELD_PREP(IRDMA_QP_DBSA_HW_SQ_TAIL, qp->sq_head));
}

#endif /* SOFT_SQ_FAST_H */
