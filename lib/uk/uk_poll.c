/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion polling: decode one CQE into struct irdma_cq_poll_info, retire the SQ/RQ/SRQ entries it
 * completes, and move (or, during GEN_1/2 software flushes, park) the CQ head.
 * Facts: doc/spec/irdma-uk.md §3.6, §3.10, §7.
 */
#include "uk_internal.h"

/**
 * irdma_ae_to_qp_err_code - map an asynchronous event code to a flush code and a QP event
 */
struct qp_err_code irdma_ae_to_qp_err_code(uint16_t ae_id)
{
	struct qp_err_code qp_err = { FLUSH_GENERAL_ERR, IRDMA_QP_EVENT_CATASTROPHIC };

	switch (ae_id) {
	case IRDMA_AE_AMP_BOUNDS_VIOLATION:
	case IRDMA_AE_AMP_INVALID_STAG:
	case IRDMA_AE_AMP_RIGHTS_VIOLATION:
	case IRDMA_AE_AMP_UNALLOCATED_STAG:
	case IRDMA_AE_AMP_BAD_PD:
	case IRDMA_AE_AMP_BAD_QP:
	case IRDMA_AE_AMP_BAD_STAG_KEY:
	case IRDMA_AE_AMP_BAD_STAG_INDEX:
	case IRDMA_AE_AMP_TO_WRAP:
	case IRDMA_AE_PRIV_OPERATION_DENIED:
		qp_err = (struct qp_err_code){ FLUSH_PROT_ERR, IRDMA_QP_EVENT_ACCESS_ERR };
		break;
	case IRDMA_AE_UDA_XMIT_BAD_PD:
	case IRDMA_AE_WQE_UNEXPECTED_OPCODE:
		qp_err = (struct qp_err_code){ FLUSH_LOC_QP_OP_ERR, IRDMA_QP_EVENT_CATASTROPHIC };
		break;
	case IRDMA_AE_UDA_XMIT_DGRAM_TOO_SHORT:
	case IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG:
	case IRDMA_AE_UDA_L4LEN_INVALID:
	case IRDMA_AE_DDP_UBE_INVALID_MO:
	case IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER:
		qp_err = (struct qp_err_code){ FLUSH_LOC_LEN_ERR, IRDMA_QP_EVENT_CATASTROPHIC };
		break;
	case IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS:
	case IRDMA_AE_IB_REMOTE_ACCESS_ERROR:
		qp_err = (struct qp_err_code){ FLUSH_REM_ACCESS_ERR, IRDMA_QP_EVENT_ACCESS_ERR };
		break;
	case IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS:
	case IRDMA_AE_AMP_MWBIND_BIND_DISABLED:
	case IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS:
	case IRDMA_AE_AMP_MWBIND_VALID_STAG:
		qp_err = (struct qp_err_code){ FLUSH_MW_BIND_ERR, IRDMA_QP_EVENT_ACCESS_ERR };
		break;
	case IRDMA_AE_LLP_TOO_MANY_RETRIES:
		qp_err = (struct qp_err_code){ FLUSH_RETRY_EXC_ERR, IRDMA_QP_EVENT_CATASTROPHIC };
		break;
	case IRDMA_AE_IB_INVALID_REQUEST:
		qp_err = (struct qp_err_code){ FLUSH_REM_INV_REQ_ERR, IRDMA_QP_EVENT_REQ_ERR };
		break;
	case IRDMA_AE_LLP_SEGMENT_TOO_SMALL:
	case IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR:
	case IRDMA_AE_ROCE_RSP_LENGTH_ERROR:
	case IRDMA_AE_IB_REMOTE_OP_ERROR:
		qp_err = (struct qp_err_code){ FLUSH_REM_OP_ERR, IRDMA_QP_EVENT_CATASTROPHIC };
		break;
	case IRDMA_AE_LLP_TOO_MANY_RNRS:
		qp_err = (struct qp_err_code){ FLUSH_RNR_RETRY_EXC_ERR, IRDMA_QP_EVENT_CATASTROPHIC };
		break;
	case IRDMA_AE_LCE_QP_CATASTROPHIC:
	case IRDMA_AE_REMOTE_QP_CATASTROPHIC:
	case IRDMA_AE_LOCAL_QP_CATASTROPHIC:
	case IRDMA_AE_RCE_QP_CATASTROPHIC:
		qp_err = (struct qp_err_code){ FLUSH_FATAL_ERR, IRDMA_QP_EVENT_CATASTROPHIC };
		break;
	default:
		break;
	}
	return qp_err;
}

/* Consume n CQE slots: head and tail move, the expected polarity flips at each wrap to 0. The consumer
 * index in the shadow area is published unless the new head is a multiple of 64 while more CQEs are
 * pending (kernel >= 6.19, a GEN_3 hardware requirement; the struct carries no generation, so it applies
 * to every CQ, as in the kernel). */
static inline void irdma_cq_advance(struct irdma_cq_uk *cq, uint32_t n)
{
	const uint32_t size = cq->cq_ring.size;
	uint32_t head = cq->cq_ring.head;

	while (n--) {
		head = irdma_ring_add(head, 1, size);
		if (unlikely(!head))
			cq->polarity ^= 1;
		cq->cq_ring.tail = irdma_ring_add(cq->cq_ring.tail, 1, size);
	}
	cq->cq_ring.head = head;
	if (likely(head & 0x3f) || irdma_uk_cq_empty(cq))
		set_64bit_val_release(cq->shadow_area, IRDMA_BYTE_CQ_SHADOW_HEAD, head);
}

/* Error classification of CQE qword 3 (bit 55 set). Rewrites a non-generic flush minor code to
 * FLUSH_GENERAL_ERR in the CQE so that re-polls of a parked CQE report the generic code. */
static void irdma_decode_error(struct irdma_cq_poll_info *info, uint64_t *cqe, uint64_t *qword3,
			       const struct irdma_qp_uk *qp)
{
	info->major_err = (uint16_t)IRDMA_FIELD_GET(IRDMA_CQ_MAJERR, *qword3);
	info->minor_err = (uint16_t)IRDMA_FIELD_GET(IRDMA_CQ_MINERR, *qword3);

	switch (info->major_err) {
	case IRDMA_SRQFLUSH_RSVD_MAJOR_ERR:
		info->minor_err = (uint16_t)irdma_ae_to_qp_err_code(info->minor_err).flush_code;
		/* fall through */
	case IRDMA_FLUSH_MAJOR_ERR:
		if (info->minor_err != FLUSH_GENERAL_ERR) {
			*qword3 = IRDMA_FIELD_SET(IRDMA_CQ_MINERR, *qword3, FLUSH_GENERAL_ERR);
			set_64bit_val(cqe, IRDMA_BYTE_24, *qword3);
		}
		info->comp_status = IRDMA_COMPL_STATUS_FLUSHED;
		break;
	default:
		/* UD send: a major code with the CIE signature in its top nibble is informational only. */
		if (info->q_type == IRDMA_CQE_QTYPE_SQ && qp && qp->qp_type == IRDMA_QP_TYPE_ROCE_UD &&
		    IRDMA_FIELD_GET(IRDMA_CQMAJERR_HIGH_NIBBLE, info->major_err) ==
			    (IRDMA_CIE_SIGNATURE >> 12)) {
			info->error = false;
			info->major_err = 0;
			info->minor_err = 0;
			info->comp_status = IRDMA_COMPL_STATUS_SUCCESS;
		} else {
			info->comp_status = IRDMA_COMPL_STATUS_UNKNOWN;
		}
		break;
	}
}

/* Extended CQE: immediate data, UD source MAC and VLAN. Returns false when the extension is not yet
 * valid (the CQE must then stay unconsumed). */
static bool irdma_decode_ext(const struct irdma_cq_uk *cq, const uint64_t *cqe,
			     struct irdma_cq_poll_info *info)
{
	const uint64_t *ext;
	uint64_t qword7, qword6, qword4;
	uint8_t polarity = cq->polarity;

	if (cq->avoid_mem_cflct) {
		ext = cqe + IRDMA_CQE_SIZE;
	} else {
		uint32_t peek = irdma_ring_add(cq->cq_ring.head, 1, cq->cq_ring.size);

		ext = irdma_cqe_at(cq, peek);
		if (!peek) /* the extension lies in the next pass */
			polarity ^= 1;
	}
	get_64bit_val_acquire(ext, IRDMA_BYTE_24, &qword7);
	if (IRDMA_FIELD_GET(IRDMA_CQ_VALID, qword7) != polarity)
		return false;

	info->imm_valid = IRDMA_FIELD_GET(IRDMA_CQ_IMMVALID, qword7);
	if (info->imm_valid) {
		get_64bit_val(ext, IRDMA_BYTE_0, &qword4);
		info->imm_data = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_IMMDATALOW32, qword4);
	}
	info->ud_smac_valid = IRDMA_FIELD_GET(IRDMA_CQ_UDSMACVALID, qword7);
	info->ud_vlan_valid = IRDMA_FIELD_GET(IRDMA_CQ_UDVLANVALID, qword7);
	if (info->ud_smac_valid || info->ud_vlan_valid) {
		get_64bit_val(ext, IRDMA_BYTE_16, &qword6);
		if (info->ud_vlan_valid)
			info->ud_vlan = (uint16_t)IRDMA_FIELD_GET(IRDMA_CQ_UDVLAN, qword6);
		if (info->ud_smac_valid) {
			uint64_t mac = IRDMA_FIELD_GET(IRDMA_CQ_UDSMAC, qword6);
			int i;

			for (i = 5; i >= 0; i--, mac >>= 8)
				info->ud_smac[i] = (uint8_t)mac;
		}
	}
	return true;
}

/* SQ flush: report the oldest outstanding non-NOP WQE, read from the software copy of the SQ. */
static int irdma_sq_flush_one(struct irdma_qp_uk *qp, struct irdma_cq_poll_info *info)
{
	while (qp->sq_ring.tail != qp->sq_ring.head) {
		uint32_t tail = qp->sq_ring.tail;
		const struct irdma_sq_uk_wr_trk_info *trk = &qp->sq_wrtrk_array[tail];
		uint64_t hdr;

		get_64bit_val(IRDMA_QUANTA_PTR(qp->sq_base, tail), IRDMA_WQE_HDR_BYTE, &hdr);
		info->op_type = (uint8_t)IRDMA_FIELD_GET(IRDMAQPSQ_OPCODE, hdr);
		qp->sq_ring.tail = irdma_ring_add(tail, trk->quanta ? trk->quanta : 1, qp->sq_ring.size);
		if (info->op_type != IRDMAQP_OP_NOP) {
			info->wr_id = trk->wrid;
			info->bytes_xfered = trk->wr_len;
			return 0;
		}
	}
	return -ENOENT; /* only NOPs were outstanding */
}

/* The fields every CQE carries: one decode for the fast and the general path (q_type apart: the
 * fast path knows it from its branch). */
IRDMA_ALWAYS_INLINE void irdma_cqe_common(struct irdma_cq_poll_info *info, uint64_t qword0,
						 uint64_t qword2, uint64_t qword3)
{
	info->ipv4 = IRDMA_FIELD_GET(IRDMACQ_IPV4, qword3);
	info->solicited_event = IRDMA_FIELD_GET(IRDMACQ_SOEVENT, qword3);
	info->stat.raw = (uint32_t)IRDMA_FIELD_GET(IRDMACQ_TCPSQN_ROCEPSN_RTT_TS, qword0);
	info->qp_id = (uint32_t)IRDMA_FIELD_GET(IRDMACQ_QPID, qword2);
	info->ud_src_qpn = (uint32_t)IRDMA_FIELD_GET(IRDMACQ_UDSRCQPN, qword2);
}

/* The receive side's own fields: bytes placed and the STag the peer invalidated. */
IRDMA_ALWAYS_INLINE void irdma_cqe_rq_fields(struct irdma_cq_poll_info *info, uint64_t qword0,
						    uint64_t qword2, uint64_t qword3)
{
	info->bytes_xfered = (uint32_t)IRDMA_FIELD_GET(IRDMACQ_PAYLDLEN, qword0);
	info->stag_invalid_set = IRDMA_FIELD_GET(IRDMACQ_STAG, qword3);
	if (info->stag_invalid_set)
		info->inv_stag = (uint32_t)IRDMA_FIELD_GET(IRDMACQ_INVSTAG, qword2);
}

/* Every case: extended CQEs, errors and flushes, SRQ, iWARP connection WQEs, unsignaled and bad CQEs. */
static __attribute__((noinline)) int irdma_cq_poll_general(struct irdma_cq_uk *cq,
							  struct irdma_cq_poll_info *info)
{
	struct irdma_ring *pring = NULL;
	struct irdma_qp_uk *qp;
	uint64_t qword0, qword2, qword3, ctx;
	bool ext_valid, srq_cqe, move_cq_head = true;
	uint32_t wqe_idx;
	uint64_t *cqe;
	int ret = 0;

again:
	cqe = irdma_cqe_at(cq, cq->cq_ring.head);
	get_64bit_val_acquire(cqe, IRDMA_BYTE_24, &qword3);
	if (IRDMA_FIELD_GET(IRDMA_CQ_VALID, qword3) != cq->polarity)
		return -ENOENT;

	ext_valid = qword3 & IRDMA_CQ_EXTCQE;
	if (unlikely(ext_valid)) {
		if (!irdma_decode_ext(cq, cqe, info))
			return -ENOENT;
	} else {
		info->imm_valid = false;
		info->ud_smac_valid = false;
		info->ud_vlan_valid = false;
	}

	get_64bit_val(cqe, IRDMA_BYTE_0, &qword0);
	get_64bit_val(cqe, IRDMA_BYTE_16, &qword2);
	info->q_type = (uint8_t)IRDMA_FIELD_GET(IRDMA_CQ_SQ, qword3);
	irdma_cqe_common(info, qword0, qword2, qword3);
	info->stag_invalid_set = false;
	/* SRQ completions carry the wr_id in qword 1 and the QP context in qword 5, which only a
	 * 64-byte CQE has (SRQs come with GEN_3's 64-byte CQEs): in a 32-byte CQE the bit must
	 * not move the context read past the CQE, possibly past the ring (found by fuzzing). */
	srq_cqe = (qword3 & IRDMA_CQ_SRQ) && cq->avoid_mem_cflct;
	get_64bit_val(cqe, srq_cqe ? IRDMA_BYTE_SRQ_QPCTX : IRDMA_BYTE_8, &ctx);
	qp = (struct irdma_qp_uk *)(uintptr_t)ctx;

	info->error = IRDMA_FIELD_GET(IRDMA_CQ_ERROR, qword3);
	if (likely(!info->error)) {
		info->comp_status = IRDMA_COMPL_STATUS_SUCCESS;
		info->major_err = 0;
		info->minor_err = 0;
	} else {
		irdma_decode_error(info, cqe, &qword3, qp);
	}

	if (unlikely(!qp || qp->destroy_pending)) {
		ret = -EFAULT;
		goto exit;
	}
	info->qp_handle = qp;
	/* As the kernel: op_type only for a CQE whose QP context is live (not on -EFAULT above). */
	info->op_type = (uint8_t)IRDMA_FIELD_GET(IRDMACQ_OP, qword3);
	wqe_idx = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_WQEIDX, qword3);

	if (info->q_type == IRDMA_CQE_QTYPE_RQ) {
		uint32_t idx;

		irdma_cqe_rq_fields(info, qword0, qword2, qword3);
		if (srq_cqe) {
			struct irdma_srq_uk *srq = qp->srq_uk;

			if (unlikely(!srq)) {
				ret = -EFAULT;
				goto exit;
			}
			get_64bit_val(cqe, IRDMA_BYTE_8, &info->wr_id);
			if (srq->lock)
				irdma_uk_spin_lock(srq->lock);
			srq->srq_ring.tail = irdma_ring_add(srq->srq_ring.tail, 1, srq->srq_ring.size);
			if (srq->lock)
				irdma_uk_spin_unlock(srq->lock);
			pring = &srq->srq_ring;
		} else {
			idx = wqe_idx >> qp->rq_wqe_size;
			if (unlikely(info->comp_status != IRDMA_COMPL_STATUS_SUCCESS)) {
				/* flushed / failed receives complete in posting order */
				if (qp->rq_ring.head == qp->rq_ring.tail) {
					ret = -ENOENT;
					goto exit;
				}
				idx = qp->rq_ring.tail;
			}
			if (unlikely(idx >= qp->rq_size)) {
				ret = -EFAULT;
				goto exit;
			}
			info->wr_id = qp->rq_wrid_array[idx];
			qp->rq_ring.tail = irdma_ring_add(idx, 1, qp->rq_ring.size);
			if (info->comp_status == IRDMA_COMPL_STATUS_FLUSHED) {
				qp->rq_flush_seen = true;
				if (qp->rq_ring.head == qp->rq_ring.tail)
					qp->rq_flush_complete = true;
				else
					move_cq_head = false;
			}
			pring = &qp->rq_ring;
		}
	} else {
		if (unlikely(qp->first_sq_wq)) {
			/* iWARP connection-establishment WQEs complete silently */
			if (wqe_idx + 1 >= qp->conn_wqes)
				qp->first_sq_wq = false;
			if (wqe_idx < qp->conn_wqes && qp->sq_ring.head == qp->sq_ring.tail) {
				irdma_cq_advance(cq, 1);
				memset(info, 0, sizeof(*info));
				goto again;
			}
		}
		if (likely(info->comp_status != IRDMA_COMPL_STATUS_FLUSHED)) {
			const struct irdma_sq_uk_wr_trk_info *trk;

			if (unlikely(wqe_idx >= qp->sq_ring.size)) {
				ret = -EFAULT;
				goto exit;
			}
			trk = &qp->sq_wrtrk_array[wqe_idx];
			info->wr_id = trk->wrid;
			info->bytes_xfered = info->comp_status == IRDMA_COMPL_STATUS_SUCCESS ? trk->wr_len : 0;
			if (unlikely(!trk->signaled) && info->comp_status == IRDMA_COMPL_STATUS_SUCCESS) {
				/* kernel >= 6.19: unsignaled work completes silently */
				ret = -EFAULT;
				goto exit;
			}
			qp->sq_ring.tail = irdma_ring_add(wqe_idx, trk->quanta, qp->sq_ring.size);
		} else {
			if (qp->sq_ring.head == qp->sq_ring.tail) {
				ret = -ENOENT;
				goto exit;
			}
			ret = irdma_sq_flush_one(qp, info);
			if (ret)
				goto exit;
			if (info->op_type == IRDMA_OP_TYPE_BIND_MW && info->minor_err == FLUSH_PROT_ERR)
				info->minor_err = FLUSH_MW_BIND_ERR;
			qp->sq_flush_seen = true;
			if (qp->sq_ring.head == qp->sq_ring.tail)
				qp->sq_flush_complete = true;
		}
		pring = &qp->sq_ring;
	}

exit:
	if (!ret && info->comp_status == IRDMA_COMPL_STATUS_FLUSHED && pring &&
	    pring->head != pring->tail) {
		/* GEN_1/2: park the head so the same CQE flushes the next WQE (software generates one
		 * completion per outstanding WQE); GEN_3+ firmware writes a CQE per flushed WQE. */
		move_cq_head = qp->hw_rev > IRDMA_GEN_2;
	}
	if (move_cq_head) {
		irdma_cq_advance(cq, (ext_valid && !cq->avoid_mem_cflct) ? 2 : 1);
	} else {
		qword3 = IRDMA_FIELD_SET(IRDMA_CQ_WQEIDX, qword3, pring->tail);
		set_64bit_val(cqe, IRDMA_BYTE_24, qword3);
	}
	return ret;
}

/**
 * irdma_uk_cq_poll_cmpl - report one completion
 * The common case (a successful, signaled SQ or RQ completion without extension) is decoded inline; every
 * other CQE goes through the general path before anything is modified, so both give the same result.
 * Return: 0 (info filled), -ENOENT (no completion to report), -EFAULT (a CQE was consumed that must not be
 * reported: its QP is gone or being destroyed, its index is out of range, or it completes an unsignaled
 * SQ WQE successfully).
 */
int irdma_uk_cq_poll_cmpl(struct irdma_cq_uk *cq, struct irdma_cq_poll_info *info)
{
	const uint32_t head = cq->cq_ring.head;
	uint64_t *cqe = irdma_cqe_at(cq, head);
	uint64_t qword0, qword2, qword3, ctx;
	struct irdma_qp_uk *qp;
	uint32_t wqe_idx, next;

	get_64bit_val_acquire(cqe, IRDMA_BYTE_24, &qword3);
	if (IRDMA_FIELD_GET(IRDMA_CQ_VALID, qword3) != cq->polarity)
		return -ENOENT;
	if (unlikely(qword3 & (IRDMA_CQ_EXTCQE | IRDMA_CQ_ERROR | IRDMA_CQ_SRQ)))
		return irdma_cq_poll_general(cq, info);
	get_64bit_val(cqe, IRDMA_BYTE_8, &ctx);
	qp = (struct irdma_qp_uk *)(uintptr_t)ctx;
	if (unlikely(!qp || qp->destroy_pending || qp->first_sq_wq))
		return irdma_cq_poll_general(cq, info);

	wqe_idx = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_WQEIDX, qword3);
	get_64bit_val(cqe, IRDMA_BYTE_0, &qword0);
	get_64bit_val(cqe, IRDMA_BYTE_16, &qword2);
	if (qword3 & IRDMA_CQ_SQ) {
		const struct irdma_sq_uk_wr_trk_info *trk = &qp->sq_wrtrk_array[wqe_idx];

		if (unlikely(wqe_idx >= qp->sq_ring.size || !trk->signaled))
			return irdma_cq_poll_general(cq, info);
		info->wr_id = trk->wrid;
		info->bytes_xfered = trk->wr_len;
		info->q_type = IRDMA_CQE_QTYPE_SQ;
		info->stag_invalid_set = false;
		qp->sq_ring.tail = irdma_ring_add(wqe_idx, trk->quanta, qp->sq_ring.size);
	} else {
		uint32_t idx = wqe_idx >> qp->rq_wqe_size;

		if (unlikely(idx >= qp->rq_size))
			return irdma_cq_poll_general(cq, info);
		info->wr_id = qp->rq_wrid_array[idx];
		info->q_type = IRDMA_CQE_QTYPE_RQ;
		irdma_cqe_rq_fields(info, qword0, qword2, qword3);
		qp->rq_ring.tail = idx + 1 == qp->rq_ring.size ? 0 : idx + 1;
	}
	info->qp_handle = qp;
	irdma_cqe_common(info, qword0, qword2, qword3);
	info->comp_status = IRDMA_COMPL_STATUS_SUCCESS;
	info->major_err = 0;
	info->minor_err = 0;
	info->op_type = (uint8_t)IRDMA_FIELD_GET(IRDMACQ_OP, qword3);
	info->error = false;
	info->ud_vlan_valid = false;
	info->ud_smac_valid = false;
	info->imm_valid = false;

	/* consume the slot */
	next = head + 1;
	if (unlikely(next == cq->cq_ring.size)) {
		next = 0;
		cq->polarity ^= 1;
	}
	/* the CQ tail always equals the head: both move together, in every path */
	cq->cq_ring.head = next;
	cq->cq_ring.tail = next;
	if (likely(next & 0x3f) || irdma_uk_cq_empty(cq))
		set_64bit_val_release(cq->shadow_area, IRDMA_BYTE_CQ_SHADOW_HEAD, next);
	return 0;
}
