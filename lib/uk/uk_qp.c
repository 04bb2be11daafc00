/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP initialisation: the state that the driver and the device share. The SQ ring has sq_size << sq_shift
 * quanta, the RQ ring rq_size entries of 1 << rq_shift quanta; WQE size x WQE count is the memory of each
 * queue. Facts: doc/spec/irdma-uk.md §5.10.
 */
#include "uk_internal.h"

/**
 * irdma_setup_connection_wqes - reserve the iWARP connection-establishment WQEs at the start of the SQ
 * Three with RTS_AE (not in legacy mode), else one.
 */
void irdma_setup_connection_wqes(struct irdma_qp_uk *qp, struct irdma_qp_uk_init_info *info)
{
	uint16_t move_cnt = 1;

	if (!info->legacy_mode && (qp->uk_attrs->feature_flags & IRDMA_FEATURE_RTS_AE))
		move_cnt = 3;
	qp->conn_wqes = move_cnt;
	IRDMA_RING_MOVE_HEAD_BY_COUNT_NOCHECK(qp->sq_ring, move_cnt);
	IRDMA_RING_MOVE_TAIL_BY_COUNT(qp->sq_ring, move_cnt);
}

/**
 * irdma_uk_qp_init - initialise the shared QP state
 * Return: 0, or -EINVAL when a fragment limit exceeds max_hw_wq_frags, or (lib/uk checks that protect
 * memory) max_inline_data exceeds max_hw_inline or 255, the SQ ring is not a multiple of 128 quanta larger
 * than the 257 reserved quanta, or max_hw_sq_chunk is not a power of two of at most 8.
 */
int irdma_uk_qp_init(struct irdma_qp_uk *qp, struct irdma_qp_uk_init_info *info)
{
	struct irdma_uk_attrs *attrs = info->uk_attrs;
	uint64_t sq_ring_size;

	if (!attrs)
		return -EINVAL;
	if (info->max_sq_frag_cnt > attrs->max_hw_wq_frags || info->max_rq_frag_cnt > attrs->max_hw_wq_frags)
		return -EINVAL;
	if (info->max_inline_data > attrs->max_hw_inline ||
	    info->max_inline_data > IRDMA_FIELD_GET(IRDMAQPSQ_INLINEDATALEN, IRDMAQPSQ_INLINEDATALEN))
		return -EINVAL;
	sq_ring_size = (uint64_t)info->sq_size << info->sq_shift;
	if (sq_ring_size % IRDMA_SQ_CLR_BLOCK || sq_ring_size <= IRDMA_SQ_RING_RESERVE ||
	    sq_ring_size > UINT32_MAX)
		return -EINVAL;
	if (!attrs->max_hw_sq_chunk || attrs->max_hw_sq_chunk > IRDMA_MAX_QUANTA_PER_WR ||
	    (attrs->max_hw_sq_chunk & (attrs->max_hw_sq_chunk - 1)))
		return -EINVAL;
	if (info->rq_shift > IRDMA_MAX_RQ_WQE_SHIFT_GEN2)
		return -EINVAL;

	qp->uk_attrs = attrs;
	qp->hw_rev = attrs->hw_rev;
	qp->max_hw_sq_chunk = attrs->max_hw_sq_chunk;
	qp->qp_caps = info->qp_caps;
	qp->sq_base = info->sq;
	qp->rq_base = info->rq;
	qp->qp_type = info->type ? info->type : IRDMA_QP_TYPE_IWARP;
	qp->shadow_area = info->shadow_area;
	qp->sq_wrtrk_array = info->sq_wrtrk_array;
	qp->rq_wrid_array = info->rq_wrid_array;
	qp->wqe_alloc_db = info->wqe_alloc_db;
	qp->qp_id = info->qp_id;
	qp->sq_size = info->sq_size;
	qp->max_sq_frag_cnt = info->max_sq_frag_cnt;
	IRDMA_RING_INIT(qp->sq_ring, (uint32_t)sq_ring_size);
	qp->conn_wqes = 0;
	qp->deferred_flag = false;
	qp->sq_flush_complete = false;
	qp->rq_flush_complete = false;
	qp->destroy_pending = false;
	qp->dbg_rq_flushed = 0;
	qp->sq_flush_seen = 0;
	qp->rq_flush_seen = 0;
	if (info->first_sq_wq) {
		irdma_setup_connection_wqes(qp, info);
		qp->swqe_polarity = 1;
		qp->first_sq_wq = true;
	} else {
		qp->swqe_polarity = 0;
		qp->first_sq_wq = false;
	}
	qp->swqe_polarity_deferred = 1;
	qp->rwqe_polarity = 0;
	qp->rq_size = info->rq_size;
	qp->max_rq_frag_cnt = info->max_rq_frag_cnt;
	qp->max_inline_data = info->max_inline_data;
	qp->rq_wqe_size = info->rq_shift;
	/* A QP without RQ (SRQ users) gets a 1-entry ring, which is always full (posts are refused anyway). */
	IRDMA_RING_INIT(qp->rq_ring, qp->rq_size ? qp->rq_size : 1);
	qp->rq_wqe_size_multiplier = (uint8_t)(1u << info->rq_shift);
	/* No wqe_ops to fill: the posting functions test hw_rev where the format differs
	 * (irdma_user.h says why). */
	qp->srq_uk = info->srq_uk;
	return 0;
}
