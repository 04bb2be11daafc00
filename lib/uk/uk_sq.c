/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SQ ring mechanics: slot allocation with NOP padding across chunk boundaries, the 4 KiB pre-clear ahead of
 * the producer, NOPs and the SQ doorbell. Facts: doc/spec/irdma-uk.md §4, §5.2-§5.6.
 */
#include "uk_internal.h"

static inline void irdma_write_nop(struct irdma_qp_uk *qp, uint64_t *wqe, bool signaled)
{
	set_64bit_val(wqe, IRDMA_BYTE_0, 0);
	set_64bit_val(wqe, IRDMA_BYTE_8, 0);
	set_64bit_val(wqe, IRDMA_BYTE_16, 0);
	set_64bit_val_release(wqe, IRDMA_WQE_HDR_BYTE,
			      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, IRDMAQP_OP_NOP) |
			      IRDMA_FIELD_PREP(IRDMAQPSQ_SIGCOMPL, signaled) |
			      IRDMA_FIELD_PREP(IRDMAQPSQ_VALID, qp->swqe_polarity));
}

/**
 * irdma_nop_1 - write an unsignaled padding NOP at the SQ head (the caller moves the head)
 * Records 1 quantum in the tracking array (wr_id and length are left as they were).
 * Return: 0, or -EINVAL at head 0 (padding never starts a pass).
 */
int irdma_nop_1(struct irdma_qp_uk *qp)
{
	uint32_t wqe_idx = qp->sq_ring.head;

	if (!wqe_idx)
		return -EINVAL;
	qp->sq_wrtrk_array[wqe_idx].quanta = IRDMA_QP_WQE_MIN_QUANTA;
	irdma_write_nop(qp, IRDMA_QUANTA_PTR(qp->sq_base, wqe_idx), false);
	return 0;
}

void irdma_sq_pad_nops(struct irdma_qp_uk *qp, uint32_t count)
{
	while (count--) {
		irdma_nop_1(qp);
		qp->sq_ring.head = irdma_ring_add(qp->sq_ring.head, 1, qp->sq_ring.size);
	}
}

void irdma_clr_wqes_block(struct irdma_qp_uk *qp, uint32_t qp_wqe_idx)
{
	uint32_t target = irdma_ring_add(qp_wqe_idx, IRDMA_SQ_CLR_BLOCK, qp->sq_ring.size);
	int fill;

	/* Make stale headers look invalid to the pass that will next reach them: the current pass
	 * (polarity as now) ahead of index 0, the next pass (flipped polarity) from index 0 on. */
	if (target)
		fill = qp->swqe_polarity ? 0x00 : 0xff;
	else
		fill = qp->swqe_polarity ? 0xff : 0x00;
	memset(&qp->sq_base[target], fill, IRDMA_SQ_CLR_BLOCK * sizeof(struct irdma_qp_quanta));
}

/**
 * irdma_clr_wqes - pre-clear the 128 quanta that start 128 quanta ahead of a block-aligned WQE index
 */
void irdma_clr_wqes(struct irdma_qp_uk *qp, uint32_t qp_wqe_idx)
{
	irdma_clr_wqes_inl(qp, qp_wqe_idx);
}

/**
 * irdma_uk_qp_post_wr - ring the SQ doorbell (kernel >= 6.19: unconditional, no elision)
 */
void irdma_uk_qp_post_wr(struct irdma_qp_uk *qp)
{
	irdma_sq_doorbell(qp);
}

/**
 * irdma_qp_get_next_send_wqe - reserve quanta for the next SQ WQE
 * Pads with NOPs when the WQE would cross a max_hw_sq_chunk boundary, flips the polarity when the WQE
 * starts at index 0 and records wr_id, total_size, quanta and signaled at *wqe_idx.
 * Return: the WQE, or NULL when the SQ lacks room (the ring is then unchanged).
 */
uint64_t *irdma_qp_get_next_send_wqe(struct irdma_qp_uk *qp, uint32_t *wqe_idx, uint16_t quanta,
				     uint32_t total_size, struct irdma_post_sq_info *info)
{
	return irdma_sq_alloc(qp, wqe_idx, quanta, total_size, info->wr_id, info->signaled);
}

/**
 * irdma_nop - post a 1-quantum NOP
 * Return: 0 or -ENOMEM.
 */
int irdma_nop(struct irdma_qp_uk *qp, uint64_t wr_id, bool signaled, bool post_sq)
{
	uint32_t wqe_idx;
	uint64_t *wqe;

	wqe = irdma_sq_alloc(qp, &wqe_idx, IRDMA_QP_WQE_MIN_QUANTA, 0, wr_id, signaled);
	if (unlikely(!wqe))
		return -ENOMEM;
	irdma_clr_wqes_inl(qp, wqe_idx);
	irdma_write_nop(qp, wqe, signaled);
	if (post_sq)
		irdma_sq_doorbell(qp);
	return 0;
}
