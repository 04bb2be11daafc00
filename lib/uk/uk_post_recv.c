/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RQ work requests. An RQ WQE (1 << rq_shift quanta) becomes visible to the device through its valid bit;
 * no doorbell. Facts: doc/spec/irdma-uk.md §3.5, §5.7, §5.8.
 */
#include "uk_internal.h"

/**
 * irdma_qp_get_next_recv_wqe - take the next RQ entry
 * Return: the WQE (entry wqe_idx, rq_wqe_size_multiplier quanta), or NULL when the RQ is full.
 */
uint64_t *irdma_qp_get_next_recv_wqe(struct irdma_qp_uk *qp, uint32_t *wqe_idx)
{
	if (!irdma_rq_take(&qp->rq_ring, &qp->rwqe_polarity, wqe_idx))
		return NULL;
	return IRDMA_QUANTA_PTR(qp->rq_base, (size_t)*wqe_idx << qp->rq_wqe_size);
}

/* Fragments of an RQ/SRQ WQE from byte 0; slot 0 always encodes sg_list[0] (NULL list: null fragment),
 * even for zero SGEs, as the kernel does. Returns the additional fragment count. */
uint32_t irdma_recv_wqe_body(uint8_t hw_rev, uint64_t *wqe, struct irdma_sge *sg_list, uint32_t num_sges,
			     uint8_t polarity)
{
	const bool gen_1 = hw_rev == IRDMA_GEN_1;

	irdma_frag(gen_1, wqe, IRDMA_BYTE_0, sg_list, polarity);
	return irdma_write_tail_frags(gen_1, hw_rev, wqe, sg_list, 1, num_sges, num_sges, polarity);
}

/**
 * irdma_uk_post_receive - post a receive WQE on the QP's RQ
 * Return: 0, -EINVAL (too many SGEs, or the QP has no RQ: it uses an SRQ), -ENOMEM (RQ full).
 */
int irdma_uk_post_receive(struct irdma_qp_uk *qp, struct irdma_post_rq_info *info)
{
	const uint32_t num_sges = info->num_sges;
	uint32_t wqe_idx, addl;
	uint8_t polarity;
	uint64_t *wqe;

	if (unlikely(num_sges > qp->max_rq_frag_cnt || !qp->rq_size))
		return -EINVAL;
	if (unlikely(!irdma_rq_take(&qp->rq_ring, &qp->rwqe_polarity, &wqe_idx)))
		return -ENOMEM;
	wqe = IRDMA_QUANTA_PTR(qp->rq_base, (size_t)wqe_idx << qp->rq_wqe_size);
	qp->rq_wrid_array[wqe_idx] = info->wr_id;
	polarity = qp->rwqe_polarity;

	if (likely(num_sges == 1 && qp->hw_rev != IRDMA_GEN_1)) {
		irdma_frag_gen_2(wqe, IRDMA_BYTE_0, info->sg_list, polarity);
		addl = 0;
	} else {
		addl = irdma_recv_wqe_body(qp->hw_rev, wqe, info->sg_list, num_sges, polarity);
	}
	set_64bit_val(wqe, IRDMA_BYTE_16, 0);
	set_64bit_val_release(wqe, IRDMA_WQE_HDR_BYTE,
			      IRDMA_FIELD_PREP(IRDMAQPRQ_ADDFRAGCNT, addl) |
			      IRDMA_FIELD_PREP(IRDMAQPRQ_VALID, polarity));
	return 0;
}
