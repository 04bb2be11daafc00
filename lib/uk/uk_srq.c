/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared receive queues (GEN_3). An SRQ WQE is an RQ WQE whose qword 2 carries the wr_id (the device returns
 * it in CQE qword 1); each post publishes the new producer index in the SRQ shadow area.
 * Facts: doc/spec/irdma-uk.md §3.5, §5.10.
 */
#include "uk_internal.h"


/**
 * irdma_uk_srq_init - initialise an SRQ
 * The WQE size follows from max_srq_frag_cnt; max_srq_frag_cnt is then raised to what that size holds (at
 * most max_hw_wq_frags). Always uses the GEN_2+ WQE format.
 * Return: 0, or -EINVAL when max_srq_frag_cnt exceeds max_hw_wq_frags or srq_size is 0.
 */
int irdma_uk_srq_init(struct irdma_srq_uk *srq, struct irdma_srq_uk_init_info *info)
{
	uint32_t fits;
	uint8_t shift;

	if (!info->uk_attrs || info->max_srq_frag_cnt > info->uk_attrs->max_hw_wq_frags || !info->srq_size)
		return -EINVAL;

	irdma_get_wqe_shift(info->uk_attrs, info->max_srq_frag_cnt, 0, &shift);
	srq->uk_attrs = info->uk_attrs;
	srq->srq_caps = info->srq_caps;
	srq->srq_base = info->srq;
	srq->shadow_area = info->shadow_area;
	srq->srq_id = info->srq_id;
	srq->srq_size = info->srq_size;
	srq->srwqe_polarity = 0;
	srq->wqe_size = shift;
	srq->wqe_size_multiplier = (uint8_t)(1u << shift);
	srq->deferred_flag = 0;
	srq->lock = info->lock;
	fits = (2u << shift) - 1;
	srq->max_srq_frag_cnt = fits < info->uk_attrs->max_hw_wq_frags ? fits : info->uk_attrs->max_hw_wq_frags;
	IRDMA_RING_INIT(srq->srq_ring, srq->srq_size);
	return 0;
}

/**
 * irdma_srq_get_next_recv_wqe - take the next SRQ entry
 * Return: the WQE, or NULL when the SRQ is full.
 */
uint64_t *irdma_srq_get_next_recv_wqe(struct irdma_srq_uk *srq, uint32_t *wqe_idx)
{
	uint64_t *wqe;

	/* The tail moves in the poll path, possibly on another thread. */
	if (srq->lock)
		irdma_uk_spin_lock(srq->lock);
	wqe = irdma_rq_take(&srq->srq_ring, &srq->srwqe_polarity, wqe_idx) ?
		      IRDMA_QUANTA_PTR(srq->srq_base, (size_t)*wqe_idx << srq->wqe_size) : NULL;
	if (srq->lock)
		irdma_uk_spin_unlock(srq->lock);
	return wqe;
}

/**
 * irdma_uk_srq_post_receive - post a receive WQE on an SRQ and publish the producer index
 * Return: 0, -EINVAL (too many SGEs), -ENOMEM (SRQ full).
 */
int irdma_uk_srq_post_receive(struct irdma_srq_uk *srq, struct irdma_post_rq_info *info)
{
	uint32_t wqe_idx, addl;
	uint64_t *wqe;

	if (unlikely(info->num_sges > srq->max_srq_frag_cnt))
		return -EINVAL;
	wqe = irdma_srq_get_next_recv_wqe(srq, &wqe_idx);
	if (unlikely(!wqe))
		return -ENOMEM;

	addl = irdma_recv_wqe_body(srq->uk_attrs->hw_rev, wqe, info->sg_list, info->num_sges,
				   srq->srwqe_polarity);
	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPRQ_COMPLCTX, info->wr_id));
	set_64bit_val_release(wqe, IRDMA_WQE_HDR_BYTE,
			      IRDMA_FIELD_PREP(IRDMAQPRQ_ADDFRAGCNT, addl) |
			      IRDMA_FIELD_PREP(IRDMAQPRQ_VALID, srq->srwqe_polarity));
	set_64bit_val_release(srq->shadow_area, IRDMA_BYTE_SRQ_SHADOW_PIDX,
			      irdma_ring_add(wqe_idx, 1, srq->srq_ring.size));
	return 0;
}
