/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SQ WQE fetch and decode, as the silicon does it: read the header qword, compare its
 * valid bit with the polarity of the current pass, acquire barrier, then read the body.
 * Every opcode lib/uk can post, in the GEN_1, GEN_2 and GEN_3 layouts
 * (doc/spec/irdma-uk.md §3.1-§3.4).
 */
#include <errno.h>

#include "uk_osdep.h"

#include "soft_priv.h"
#include "soft_sq_fast.h"

#define GET(mask, q) IRDMA_FIELD_GET(mask, q)

static inline const uint64_t *sq_wqe(const struct soft_qp *qp, uint32_t idx)
{
	return (const uint64_t *)(qp->sq_base + (size_t)idx * IRDMA_QP_WQE_MIN_SIZE);
}

/* A WQE never wraps (lib/uk pads the ring's end with NOPs): one whose quanta would run past
 * the end is not executable, and its body is not read (it is not queue memory). */
static inline bool sq_fits(const struct soft_qp *qp, const struct soft_wqe *w)
{
	return w->idx + w->quanta <= qp->sq_depth;
}

static void frag_decode(uint8_t gen, const uint64_t *wqe, uint32_t slot, struct soft_sge *s)
{
	uint32_t off = IRDMA_FRAG_BYTE_OFFSET(slot);
	uint64_t q0, q1;

	get_64bit_val(wqe, off, &q0);
	get_64bit_val(wqe, off + 8, &q1);
	s->addr = q0;
	if (gen == IRDMA_GEN_1) {
		s->len = (uint32_t)GET(IRDMAQPSQ_GEN1_FRAG_LEN, q1);
		s->stag = (uint32_t)GET(IRDMAQPSQ_GEN1_FRAG_STAG, q1);
	} else {
		s->len = (uint32_t)GET(IRDMAQPSQ_FRAG_LEN, q1);
		s->stag = (uint32_t)GET(IRDMAQPSQ_FRAG_STAG, q1);
	}
}

/*
 * Fragments of an SGE-carrying WQE. The WQE holds addl + 1 fragment slots; slot 0 is the
 * immediate when there is one. On GEN_2 an even fragment count is followed by a null
 * fragment (valid bit only) that addl counts: it decodes as a zero-length SGE and is
 * dropped, so the SGE count matches what was posted.
 */
static int frags_decode(const struct soft_qp *qp, const uint64_t *wqe, uint32_t addl,
			bool imm, uint32_t max, struct soft_wqe *w)
{
	uint8_t gen = qp->dev->gen;
	uint32_t first = imm ? 1 : 0, slots = addl + 1, i, n = 0;

	if (slots > IRDMA_MAX_SQ_FRAG_CNT_ENCODABLE + 1)
		return -EINVAL;
	for (i = first; i < slots; i++) {
		frag_decode(gen, wqe, i, &w->sge[n]);
		n++;
	}
	if (gen == IRDMA_GEN_2 && n > 1 && w->sge[n - 1].len == 0 && w->sge[n - 1].stag == 0 &&
	    w->sge[n - 1].addr == 0 && ((addl & 1) == 0))
		n--;
	if (n > max && !(n == 1 && w->sge[0].len == 0))
		return -EINVAL;
	w->num_sges = n;
	w->total_len = 0;
	for (i = 0; i < n; i++)
		w->total_len += w->sge[i].len;
	return 0;
}


/*
 * Decodes the WQE at quantum idx whose header is hdr. Returns 1, or -EINVAL for a WQE the
 * device cannot execute (the caller completes it with LOC_QP_OP; w->idx/op/quanta are set).
 */
static int sq_decode(const struct soft_qp *qp, uint32_t idx, uint64_t hdr, struct soft_wqe *w)
{
	const uint64_t *wqe = sq_wqe(qp, idx);
	uint8_t gen = qp->dev->gen;
	uint64_t q0, q1, q2;
	uint32_t addl;
	int rc = 0;

	get_64bit_val(wqe, IRDMA_BYTE_0, &q0);
	get_64bit_val(wqe, IRDMA_BYTE_8, &q1);
	get_64bit_val(wqe, IRDMA_BYTE_16, &q2);

	memset(w, 0, offsetof(struct soft_wqe, sge));
	w->idx = idx;
	w->wqe = (const uint8_t *)wqe;
	w->op = (uint8_t)GET(IRDMAQPSQ_OPCODE, hdr);
	w->signaled = GET(IRDMAQPSQ_SIGCOMPL, hdr);
	w->read_fence = GET(IRDMAQPSQ_READFENCE, hdr);
	w->local_fence = qp->type == IRDMA_HW_QP_RC && GET(IRDMAQPSQ_LOCALFENCE, hdr);
	w->imm_valid = GET(IRDMAQPSQ_IMMDATAFLAG, hdr);
	w->inline_data = GET(IRDMAQPSQ_INLINEDATAFLAG, hdr);
	w->quanta = 1;
	addl = (uint32_t)GET(IRDMAQPSQ_ADDFRAGCNT, hdr);
	if (w->imm_valid)
		w->imm = (uint32_t)GET(IRDMAQPSQ_IMMDATA, q0);

	switch (w->op) {
	case IRDMAQP_OP_NOP:
		return 1;
	case IRDMAQP_OP_LOCAL_INVALIDATE:
		w->rem_stag = gen == IRDMA_GEN_1 ? (uint32_t)(q1 >> 32) : (uint32_t)q1;
		return 1;
	case IRDMAQP_OP_BIND_MW: {
		uint32_t rights = (uint32_t)GET(IRDMAQPSQ_STAGRIGHTS, hdr);

		w->bind_va = GET(IRDMAQPSQ_BASEVA_TO_FBO, q0);
		if (gen == IRDMA_GEN_1) {
			w->mr_stag = (uint32_t)GET(IRDMAQPSQ_MWSTAG, q1);
			w->mw_stag = (uint32_t)GET(IRDMAQPSQ_PARENTMRSTAG, q1);
		} else {
			w->mr_stag = (uint32_t)GET(IRDMAQPSQ_PARENTMRSTAG, q1);
			w->mw_stag = (uint32_t)GET(IRDMAQPSQ_MWSTAG, q1);
		}
		w->bind_len = GET(IRDMAQPSQ_MWLEN, q2);
		w->bind_access = 0;
		if (rights & IRDMA_STAGRIGHTS_REMOTE_READ)
			w->bind_access |= IRDMA_HW_ACCESS_REMOTE_READ;
		if (rights & IRDMA_STAGRIGHTS_REMOTE_WRITE)
			w->bind_access |= IRDMA_HW_ACCESS_REMOTE_WRITE;
		if (GET(IRDMAQPSQ_REMOTE_ATOMICS_EN, hdr))
			w->bind_access |= IRDMA_HW_ACCESS_REMOTE_ATOMIC;
		w->bind_zero_based = !GET(IRDMAQPSQ_VABASEDTO, hdr);
		w->bind_type1 = GET(IRDMAQPSQ_MEMWINDOWTYPE, hdr);
		return 1;
	}
	case IRDMAQP_OP_ATOMIC_FETCH_ADD:
	case IRDMAQP_OP_ATOMIC_COMPARE_SWAP:
		w->quanta = IRDMA_ATOMIC_WQE_QUANTA;
		if (!(qp->dev->uk_attrs.feature_flags & IRDMA_FEATURE_ATOMIC_OPS) || !sq_fits(qp, w))
			return -EINVAL;
		w->num_sges = 1;
		w->sge[0].addr = q0;
		w->sge[0].stag = (uint32_t)GET(IRDMAQPSQ_LOCSTAG, q1);
		w->sge[0].len = 8;
		w->total_len = 8;
		w->rem_addr = GET(IRDMAQPSQ_REMTO, q2);
		w->rem_stag = (uint32_t)GET(IRDMAQPSQ_REMSTAG, hdr);
		get_64bit_val(wqe, IRDMA_BYTE_ATOMIC_OPERAND0, &w->atomic_swap_add);
		get_64bit_val(wqe, IRDMA_BYTE_ATOMIC_OPERAND1, &w->atomic_cmp);
		return 1;
	case IRDMAQP_OP_RDMA_SEND:
	case IRDMAQP_OP_RDMA_SEND_INV:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV:
		w->solicited = w->op == IRDMAQP_OP_RDMA_SEND_SOL_EVENT ||
			       w->op == IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV;
		if (qp->type == IRDMA_HW_QP_UD) {
			w->ah_id = (uint32_t)GET(IRDMAQPSQ_AHID, hdr);
			w->qkey = (uint32_t)GET(IRDMAQPSQ_DESTQKEY, q2);
			w->dest_qp = (uint32_t)GET(IRDMAQPSQ_DESTQPN, q2);
		} else {
			w->rem_stag = (uint32_t)GET(IRDMAQPSQ_REMSTAGINV, hdr);
		}
		break;
	case IRDMAQP_OP_RDMA_WRITE:
	case IRDMAQP_OP_RDMA_WRITE_SOL:
		w->solicited = w->op == IRDMAQP_OP_RDMA_WRITE_SOL;
		/* fall through */
	case IRDMAQP_OP_RDMA_READ:
	case IRDMAQP_OP_RDMA_READ_LOC_INV:
		if (qp->type != IRDMA_HW_QP_RC)
			rc = -EINVAL;
		w->rem_addr = GET(IRDMAQPSQ_FRAG_TO, q2);
		w->rem_stag = (uint32_t)GET(IRDMAQPSQ_REMSTAG, hdr);
		break;
	default:
		return -EINVAL; /* fast register needs the control path; others are unknown */
	}

	if (w->inline_data) {
		w->inline_len = (uint32_t)GET(IRDMAQPSQ_INLINEDATALEN, hdr);
		w->quanta = (uint16_t)soft_sq_inline_quanta(gen, w->inline_len);
		w->total_len = w->inline_len;
		if (w->inline_len > qp->max_inline || w->op == IRDMAQP_OP_RDMA_READ ||
		    w->op == IRDMAQP_OP_RDMA_READ_LOC_INV || !sq_fits(qp, w))
			return -EINVAL;
		return rc ? rc : 1;
	}
	w->quanta = (uint16_t)(1 + (addl + 1) / 2);
	if (!sq_fits(qp, w))
		return -EINVAL;
	if (w->op == IRDMAQP_OP_RDMA_READ || w->op == IRDMAQP_OP_RDMA_READ_LOC_INV) {
		if (w->imm_valid)
			return -EINVAL;
		if (frags_decode(qp, wqe, addl, false, qp->dev->uk_attrs.max_hw_read_sges, w))
			return -EINVAL;
	} else if (frags_decode(qp, wqe, addl, w->imm_valid, qp->max_sq_frags, w)) {
		return -EINVAL;
	}
	return rc ? rc : 1;
}

int soft_sq_fetch(struct soft_qp *qp, struct soft_wqe *w)
{
	uint64_t hdr;

	get_64bit_val_acquire(sq_wqe(qp, qp->sq_head), IRDMA_WQE_HDR_BYTE, &hdr);
	if (IRDMA_FIELD_GET(IRDMAQPSQ_VALID, hdr) != qp->sq_polarity)
		return 0;
	/* The acquire above orders every read of the body after the valid bit. */
	return sq_decode(qp, qp->sq_head, hdr, w);
}

/* Decodes again a WQE the device already fetched (it owns the slot until its CQE). */
int soft_sq_decode(const struct soft_qp *qp, uint32_t idx, struct soft_wqe *w)
{
	uint64_t hdr;

	get_64bit_val(sq_wqe(qp, idx), IRDMA_WQE_HDR_BYTE, &hdr);
	return sq_decode(qp, idx, hdr, w);
}

/* Copies len bytes of a WQE's inline data starting at logical offset off. */
uint32_t soft_sq_inline_copy(const struct soft_qp *qp, const uint8_t *wqe, uint64_t off,
			     uint8_t *dst, uint32_t len)
{
	uint32_t done = 0;

	/* Within the header quantum's chunk (every small message): one short copy. */
	if (qp->dev->gen != IRDMA_GEN_1 && off + len <= IRDMA_INLINE_FIRST_CHUNK) {
		soft_copy8(dst, wqe + IRDMA_INLINE_FIRST_CHUNK + off, len);
		return len;
	}
	while (done < len) {
		uint32_t o = (uint32_t)off + done, at, run;

		if (qp->dev->gen == IRDMA_GEN_1) {
			at = irdma_inline_byte_offset_gen_1(o);
			run = o < IRDMA_INLINE_FIRST_CHUNK_GEN1 ? IRDMA_INLINE_FIRST_CHUNK_GEN1 - o
								 : len - done;
		} else {
			at = irdma_inline_byte_offset(o);
			run = o < IRDMA_INLINE_FIRST_CHUNK ?
				      IRDMA_INLINE_FIRST_CHUNK - o :
				      IRDMA_INLINE_CHUNK - (o - IRDMA_INLINE_FIRST_CHUNK) %
								   IRDMA_INLINE_CHUNK;
		}
		if (run > len - done)
			run = len - done;
		memcpy(dst + done, wqe + at, run);
		done += run;
	}
	return done;
}

/* The WQE at the head was taken (soft_sq_fast.h). */
void soft_sq_consumed(struct soft_qp *qp, uint16_t quanta)
{
	soft_sq_advance(qp, quanta);
}
