/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQ control: init, resize, arming, the resize counter in the shadow area, emptiness and cleaning a
 * destroyed QP's CQEs. Facts: doc/spec/irdma-uk.md §3.7, §5.9, §7.3, §7.4.
 */
#include "uk_internal.h"

/**
 * irdma_uk_cq_init - initialise a CQ: ring of cq_size slots, expected polarity 1
 */
void irdma_uk_cq_init(struct irdma_cq_uk *cq, struct irdma_cq_uk_init_info *info)
{
	cq->cq_base = info->cq_base;
	cq->cq_id = info->cq_id;
	cq->cq_size = info->cq_size;
	cq->cqe_alloc_db = info->cqe_alloc_db;
	cq->cq_ack_db = info->cq_ack_db;
	cq->shadow_area = info->shadow_area;
	cq->avoid_mem_cflct = info->avoid_mem_cflct;
	IRDMA_RING_INIT(cq->cq_ring, cq->cq_size);
	cq->polarity = 1;
}

/**
 * irdma_uk_cq_resize - switch the CQ to a new buffer (the caller drains the old one separately)
 */
void irdma_uk_cq_resize(struct irdma_cq_uk *cq, void *cq_base, int cq_size)
{
	cq->cq_base = cq_base;
	cq->cq_size = (uint32_t)cq_size;
	IRDMA_RING_INIT(cq->cq_ring, cq->cq_size);
	cq->polarity = 1;
}

/**
 * irdma_uk_cq_set_resized_cnt - add cq_cnt drained old buffers to the SW CQ select field of the arm word
 * The 14-bit field wraps; the arm bits and sequence number are kept.
 */
void irdma_uk_cq_set_resized_cnt(struct irdma_cq_uk *cq, uint16_t cq_cnt)
{
	uint64_t arm;
	uint32_t sel;

	get_64bit_val(cq->shadow_area, IRDMA_BYTE_CQ_SHADOW_ARM, &arm);
	sel = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_DBSA_SW_CQ_SELECT, arm) + cq_cnt;
	arm = IRDMA_FIELD_PREP(IRDMA_CQ_DBSA_SW_CQ_SELECT, sel) |
	      (arm & (IRDMA_CQ_DBSA_ARM_NEXT | IRDMA_CQ_DBSA_ARM_NEXT_SE | IRDMA_CQ_DBSA_ARM_SEQ_NUM));
	set_64bit_val_release(cq->shadow_area, IRDMA_BYTE_CQ_SHADOW_ARM, arm);
}

/**
 * irdma_uk_cq_request_notification - arm the CQ for the next (or next solicited) completion
 * Bumps the 2-bit arm sequence number, always sets arm-next-solicited, sets arm-next only for
 * IRDMA_CQ_COMPL_EVENT, keeps the SW CQ select field, then writes cq_id to the arm doorbell.
 */
void irdma_uk_cq_request_notification(struct irdma_cq_uk *cq, enum irdma_cmpl_notify cq_notify)
{
	uint64_t arm;
	uint32_t seq;

	get_64bit_val(cq->shadow_area, IRDMA_BYTE_CQ_SHADOW_ARM, &arm);
	seq = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm) + 1;
	arm = IRDMA_FIELD_PREP(IRDMA_CQ_DBSA_ARM_SEQ_NUM, seq) |
	      (arm & IRDMA_CQ_DBSA_SW_CQ_SELECT) |
	      IRDMA_CQ_DBSA_ARM_NEXT_SE |
	      IRDMA_FIELD_PREP(IRDMA_CQ_DBSA_ARM_NEXT, cq_notify == IRDMA_CQ_COMPL_EVENT);
	set_64bit_val_release(cq->shadow_area, IRDMA_BYTE_CQ_SHADOW_ARM, arm);
	irdma_uk_db_write(cq->cqe_alloc_db, cq->cq_id);
}

/**
 * irdma_uk_cq_empty - true when the CQE at the head does not carry the expected polarity
 */
bool irdma_uk_cq_empty(struct irdma_cq_uk *cq)
{
	uint64_t qword3;

	get_64bit_val_acquire(irdma_cqe_at(cq, cq->cq_ring.head), IRDMA_BYTE_24, &qword3);
	return IRDMA_FIELD_GET(IRDMA_CQ_VALID, qword3) != cq->polarity;
}

/**
 * irdma_uk_clean_cq - detach the CQEs of a QP being destroyed
 * Walks the valid CQEs from the head (head, tail and polarity are not changed) and zeroes the completion
 * context of those that belong to q, so later polls consume them with -EFAULT. lib/uk also clears the QP
 * context of SRQ completions (qword 5), which the poll would otherwise follow.
 */
void irdma_uk_clean_cq(void *q, struct irdma_cq_uk *cq)
{
	uint32_t idx = cq->cq_ring.head;
	uint8_t polarity = cq->polarity;
	uint32_t n;

	for (n = 0; n < cq->cq_ring.size; n++) {
		uint64_t *cqe = irdma_cqe_at(cq, idx);
		uint64_t qword3, ctx;

		get_64bit_val_acquire(cqe, IRDMA_BYTE_24, &qword3);
		if (IRDMA_FIELD_GET(IRDMA_CQ_VALID, qword3) != polarity)
			break;
		if (qword3 & IRDMA_CQ_SRQ) {
			get_64bit_val(cqe, IRDMA_BYTE_SRQ_QPCTX, &ctx);
			if ((void *)(uintptr_t)ctx == q)
				set_64bit_val(cqe, IRDMA_BYTE_SRQ_QPCTX, 0);
		} else {
			get_64bit_val(cqe, IRDMA_BYTE_8, &ctx);
			if ((void *)(uintptr_t)ctx == q)
				set_64bit_val(cqe, IRDMA_BYTE_8, 0);
		}
		idx = irdma_ring_add(idx, 1, cq->cq_ring.size);
		if (!idx)
			polarity ^= 1;
	}
}
