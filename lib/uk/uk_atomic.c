/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GEN_3 atomics: fetch-and-add and compare-and-swap, 2 quanta each. The local buffer is implicitly 8 bytes,
 * so the tracked length is 0. Whether the device supports atomics (IRDMA_FEATURE_ATOMIC_OPS) is the
 * caller's check, as in the kernel. Facts: doc/spec/irdma-uk.md §3.3.
 */
#include "uk_internal.h"

static inline uint64_t *irdma_atomic_wqe(struct irdma_qp_uk *qp, const struct irdma_post_sq_info *info,
					 uint64_t local_addr, uint32_t lkey, uint64_t remote_addr,
					 uint64_t operand0, uint64_t operand1)
{
	uint32_t wqe_idx;
	uint64_t *wqe;

	wqe = irdma_sq_alloc(qp, &wqe_idx, IRDMA_ATOMIC_WQE_QUANTA, 0, info->wr_id, info->signaled);
	if (unlikely(!wqe))
		return NULL;
	/* As in the kernel, atomics do not pre-clear ahead (irdma_clr_wqes). */

	set_64bit_val(wqe, IRDMA_BYTE_0, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, local_addr));
	set_64bit_val(wqe, IRDMA_BYTE_8, IRDMA_FIELD_PREP(IRDMAQPSQ_LOCSTAG, lkey));
	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, remote_addr));
	set_64bit_val(wqe, IRDMA_BYTE_ATOMIC_OPERAND0, operand0);
	set_64bit_val(wqe, IRDMA_BYTE_ATOMIC_OPERAND1, operand1);
	set_64bit_val(wqe, IRDMA_BYTE_48, 0);
	set_64bit_val(wqe, IRDMA_BYTE_ATOMIC_VALID, IRDMA_FIELD_PREP(IRDMAQPSQ_VALID, qp->swqe_polarity));
	return wqe;
}

static inline uint64_t irdma_atomic_hdr(const struct irdma_qp_uk *qp, const struct irdma_post_sq_info *info,
					uint32_t remote_stag, uint8_t opcode)
{
	return IRDMA_FIELD_PREP(IRDMAQPSQ_ADDFRAGCNT, IRDMA_ATOMIC_ADDL_FRAG_CNT) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_REMSTAG, remote_stag) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, opcode) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_READFENCE, info->read_fence) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_LOCALFENCE, info->local_fence) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_SIGCOMPL, info->signaled) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_VALID, qp->swqe_polarity);
}

/**
 * irdma_uk_atomic_fetch_add - post an atomic fetch-and-add (GEN_3)
 * Return: 0 or -ENOMEM.
 */
int irdma_uk_atomic_fetch_add(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_atomic_fetch_add *op_info = &info->op.atomic_fetch_add;
	uint64_t *wqe;

	wqe = irdma_atomic_wqe(qp, info, op_info->tagged_offset, op_info->stag, op_info->remote_tagged_offset,
			       op_info->fetch_add_data_bytes, 0);
	if (unlikely(!wqe))
		return -ENOMEM;
	set_64bit_val_release(wqe, IRDMA_WQE_HDR_BYTE,
			      irdma_atomic_hdr(qp, info, op_info->remote_stag, IRDMAQP_OP_ATOMIC_FETCH_ADD));
	if (post_sq)
		irdma_sq_doorbell(qp);
	return 0;
}

/**
 * irdma_uk_atomic_compare_swap - post an atomic compare-and-swap (GEN_3)
 * Return: 0 or -ENOMEM.
 */
int irdma_uk_atomic_compare_swap(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_atomic_compare_swap *op_info = &info->op.atomic_compare_swap;
	uint64_t *wqe;

	wqe = irdma_atomic_wqe(qp, info, op_info->tagged_offset, op_info->stag, op_info->remote_tagged_offset,
			       op_info->swap_data_bytes, op_info->compare_data_bytes);
	if (unlikely(!wqe))
		return -ENOMEM;
	set_64bit_val_release(wqe, IRDMA_WQE_HDR_BYTE,
			      irdma_atomic_hdr(qp, info, op_info->remote_stag,
					       IRDMAQP_OP_ATOMIC_COMPARE_SWAP));
	if (post_sq)
		irdma_sq_doorbell(qp);
	return 0;
}
