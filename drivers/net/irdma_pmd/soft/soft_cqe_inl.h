/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The common CQE in line: a send WQE's success CQE of one slot (soft_comp_send_done writes
 * one per signaled WQE as its response is taken). The rare parts stay in soft_cqe.c: the
 * room count when the last one is used up, the event of an armed CQ, and every other CQE
 * (soft_cqe_write), with the same bytes as soft_cqe_write() puts for this one.
 */
#ifndef SOFT_CQE_INL_H
#define SOFT_CQE_INL_H

#include <errno.h>

#include "uk_osdep.h"

#include "soft_priv.h"

/* soft_cqe.c */
int soft_cq_refill(struct soft_cq *cq, uint32_t need);
void soft_cq_event(struct soft_dev *dev, struct soft_cq *cq);

/* The CQE itself into the next slot, which the caller has counted as free (cq->room), and
 * the move to the slot after it; no event (the caller knows the CQ is not armed, or fires
 * it). */
static __rte_always_inline void soft_cqe_put_sq_ok(struct soft_cq *cq, uint32_t qp_id,
						   uint64_t ctx, uint8_t op, uint32_t wqe_idx)
{
	/* cq_slot() without the multiply, cq_advance() for an unsolicited CQE of one slot */
	uint64_t *cqe = (uint64_t *)(cq->base + ((size_t)cq->head << (cq->cqe64 ? 6 : 5)));

	RTE_BUILD_BUG_ON(IRDMA_CQE_BYTES != 1 << 5 || IRDMA_EXTENDED_CQE_BYTES != 1 << 6);
	/* the fields soft_cqe_write() puts for a send CQE without error: length, PSN, the
	 * invalidated STag and every flag but SQ are 0 */
	set_64bit_val(cqe, IRDMA_BYTE_0, 0);
	set_64bit_val(cqe, IRDMA_BYTE_8, ctx);
	set_64bit_val(cqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMACQ_QPID, qp_id));
	set_64bit_val_release(cqe, IRDMA_BYTE_24,
			      IRDMA_FIELD_PREP(IRDMA_CQ_WQEIDX, wqe_idx) |
				      IRDMA_FIELD_PREP(IRDMACQ_OP, op) |
				      IRDMA_FIELD_PREP(IRDMA_CQ_SQ, 1) |
				      IRDMA_FIELD_PREP(IRDMA_CQ_VALID, cq->polarity));
	if (unlikely(++cq->head == cq->size)) {
		cq->head = 0;
		cq->polarity ^= 1;
	}
	cq->n_cqes++;
}

/* A send WQE's success CQE: 0, or -ENOSPC when the CQ has no room (the caller reports it:
 * soft_cqe_write()). */
static __rte_always_inline int soft_cqe_write_sq_ok_inl(struct soft_dev *dev, struct soft_cq *cq,
							uint32_t qp_id, uint64_t ctx, uint8_t op,
							uint32_t wqe_idx)
{
	if (likely(cq->room != 0))
		cq->room--;
	else if (unlikely(soft_cq_refill(cq, 1) != 0))
		return -ENOSPC;
	soft_cqe_put_sq_ok(cq, qp_id, ctx, op, wqe_idx);
	if (unlikely(cq->arm_any)) /* not solicited: only an any-completion arm fires */
		soft_cq_event(dev, cq);
	return 0;
}

#endif /* SOFT_CQE_INL_H */
