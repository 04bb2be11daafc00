/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue sizing: WQE size from the fragment count (shift), ring depths in quanta, fragment-count tables.
 * The memory of a queue is depth x 32 bytes. Depth arithmetic is 64-bit (kernel "Harden depth calculation
 * functions", 2026): a size << shift that overflows 32 bits is -EINVAL instead of a tiny wrapped depth.
 * Facts: doc/spec/irdma-uk.md §6.
 */
#include "uk_internal.h"

/**
 * irdma_round_up_wq - smallest power of two >= wqdepth (0 stays 0)
 */
uint64_t irdma_round_up_wq(uint64_t wqdepth)
{
	int scount = 1;

	for (wqdepth--; scount <= 32; scount *= 2)
		wqdepth |= wqdepth >> scount;
	return ++wqdepth;
}

/**
 * irdma_get_wqe_shift - log2 of the WQE size in quanta for a fragment count and inline size
 * GEN_2+: 0 (sge <= 1, inline <= 8), 1 (sge < 4, inline <= 39), 2 (sge < 8, inline <= 101), else 3.
 * GEN_1: 0 (sge <= 1, inline <= 16), 1 (sge < 4, inline <= 48), else 2.
 */
void irdma_get_wqe_shift(struct irdma_uk_attrs *uk_attrs, uint32_t sge, uint32_t inline_data,
			 uint8_t *shift)
{
	*shift = 0;
	if (uk_attrs->hw_rev >= IRDMA_GEN_2) {
		if (sge > 1 || inline_data > 8) {
			if (sge < 4 && inline_data <= 39)
				*shift = 1;
			else if (sge < 8 && inline_data <= 101)
				*shift = 2;
			else
				*shift = 3;
		}
	} else if (sge > 1 || inline_data > 16) {
		*shift = (sge < 4 && inline_data <= 48) ? 1 : 2;
	}
}

/* depth = round_up((size << shift) + reserve), at least min_hw_wq_size << shift, at most max_quanta
 * (the maximum is not checked when the minimum applied). */
static int irdma_get_depth(const struct irdma_uk_attrs *uk_attrs, uint32_t size, uint8_t shift,
			   uint32_t reserve, uint32_t max_quanta, uint32_t *depth)
{
	uint64_t min_size = (uint64_t)uk_attrs->min_hw_wq_size << shift;
	uint64_t d;

	if (shift > 32)
		return -EINVAL;
	d = irdma_round_up_wq(((uint64_t)size << shift) + reserve);
	if (d < min_size)
		d = min_size;
	else if (d > max_quanta)
		return -EINVAL;
	*depth = (uint32_t)d;
	return 0;
}

/**
 * irdma_get_sqdepth - SQ depth in quanta for sq_size WRs of 1 << shift quanta (258 quanta reserved)
 * Return: 0 or -EINVAL when the depth exceeds max_hw_wq_quanta.
 */
int irdma_get_sqdepth(struct irdma_uk_attrs *uk_attrs, uint32_t sq_size, uint8_t shift,
		      uint32_t *sqdepth)
{
	return irdma_get_depth(uk_attrs, sq_size, shift, IRDMA_SQ_RSVD, uk_attrs->max_hw_wq_quanta, sqdepth);
}

/**
 * irdma_get_rqdepth - RQ depth in quanta (1 entry reserved)
 * Return: 0 or -EINVAL when the depth exceeds max_hw_rq_quanta.
 */
int irdma_get_rqdepth(struct irdma_uk_attrs *uk_attrs, uint32_t rq_size, uint8_t shift,
		      uint32_t *rqdepth)
{
	return irdma_get_depth(uk_attrs, rq_size, shift, IRDMA_RQ_RSVD, uk_attrs->max_hw_rq_quanta, rqdepth);
}

/**
 * irdma_get_srqdepth - SRQ depth in quanta (1 entry reserved)
 * Return: 0 or -EINVAL when the depth exceeds max_hw_srq_quanta.
 */
int irdma_get_srqdepth(struct irdma_uk_attrs *uk_attrs, uint32_t srq_size, uint8_t shift,
		       uint32_t *srqdepth)
{
	return irdma_get_depth(uk_attrs, srq_size, shift, IRDMA_RQ_RSVD, uk_attrs->max_hw_srq_quanta,
			       srqdepth);
}

/* GEN_2+ SQ WQEs reserve a fragment slot for immediate data. */
static inline uint32_t irdma_sq_shift_sges(const struct irdma_qp_uk_init_info *ukinfo)
{
	return ukinfo->uk_attrs->hw_rev >= IRDMA_GEN_2 ? ukinfo->max_sq_frag_cnt + 1 : ukinfo->max_sq_frag_cnt;
}

static inline void irdma_rq_shift(const struct irdma_qp_uk_init_info *ukinfo, uint8_t *rq_shift)
{
	irdma_get_wqe_shift(ukinfo->uk_attrs, ukinfo->max_rq_frag_cnt, 0, rq_shift);
	/* GEN_1 RQ WQEs are 128 bytes with every ABI newer than the legacy i40iw one. */
	if (ukinfo->uk_attrs->hw_rev == IRDMA_GEN_1 && ukinfo->abi_ver > 4)
		*rq_shift = IRDMA_MAX_RQ_WQE_SHIFT_GEN1;
}

/**
 * irdma_uk_calc_shift_wq - SQ and RQ WQE shifts from the QP's fragment and inline limits
 */
void irdma_uk_calc_shift_wq(struct irdma_qp_uk_init_info *ukinfo, uint8_t *sq_shift, uint8_t *rq_shift)
{
	irdma_get_wqe_shift(ukinfo->uk_attrs, irdma_sq_shift_sges(ukinfo), ukinfo->max_inline_data, sq_shift);
	irdma_rq_shift(ukinfo, rq_shift);
}

/**
 * irdma_uk_calc_depth_shift_sq - SQ shift and depth (quanta) for ukinfo->sq_size WRs
 * Return: 0 or -EINVAL (depth over the device limit). The shift is set in both cases.
 */
int irdma_uk_calc_depth_shift_sq(struct irdma_qp_uk_init_info *ukinfo, uint32_t *sq_depth,
				 uint8_t *sq_shift)
{
	irdma_get_wqe_shift(ukinfo->uk_attrs, irdma_sq_shift_sges(ukinfo), ukinfo->max_inline_data, sq_shift);
	return irdma_get_sqdepth(ukinfo->uk_attrs, ukinfo->sq_size, *sq_shift, sq_depth);
}

/**
 * irdma_uk_calc_depth_shift_rq - RQ shift and depth (quanta) for ukinfo->rq_size WRs
 * Return: 0 or -EINVAL (depth over the device limit). The shift is set in both cases.
 */
int irdma_uk_calc_depth_shift_rq(struct irdma_qp_uk_init_info *ukinfo, uint32_t *rq_depth,
				 uint8_t *rq_shift)
{
	irdma_rq_shift(ukinfo, rq_shift);
	return irdma_get_rqdepth(ukinfo->uk_attrs, ukinfo->rq_size, *rq_shift, rq_depth);
}

/**
 * irdma_fragcnt_to_quanta_sq - SQ quanta for a fragment count (immediate included): 1 + frag_cnt / 2
 * Return: 0, or -EINVAL above 15 fragments.
 */
int irdma_fragcnt_to_quanta_sq(uint32_t frag_cnt, uint16_t *quanta)
{
	if (frag_cnt > IRDMA_MAX_SQ_FRAG_CNT_ENCODABLE)
		return -EINVAL;
	*quanta = (uint16_t)((frag_cnt >> 1) + 1);
	return 0;
}

/**
 * irdma_fragcnt_to_wqesize_rq - RQ WQE bytes for a fragment count: 32, 64, 128 or 256
 * Return: 0, or -EINVAL above 14 fragments.
 */
int irdma_fragcnt_to_wqesize_rq(uint32_t frag_cnt, uint16_t *wqe_size)
{
	if (frag_cnt <= 1)
		*wqe_size = 32;
	else if (frag_cnt <= 3)
		*wqe_size = 64;
	else if (frag_cnt <= 7)
		*wqe_size = 128;
	else if (frag_cnt <= 14)
		*wqe_size = 256;
	else
		return -EINVAL;
	return 0;
}

/**
 * irdma_uk_calc_cq_size - CQE slots for a CQ that must hold cqe completions (lib/uk extension)
 * Kernel >= 6.19 rule: cqe + 2; doubled for 32-byte CQEs on GEN_2 and later (room for extended CQEs);
 * rounded up to even; grown by 2 when the ring would be exactly one 4 KiB page (a GEN_3 hardware
 * requirement the kernel applies to all); at least 4. The buffer is slots x 32 (or 64) bytes.
 * Return: 0, or -EINVAL when cqe is 0 or not below max_hw_cq_size.
 */
int irdma_uk_calc_cq_size(struct irdma_uk_attrs *uk_attrs, uint32_t cqe, bool cqe_64byte, uint32_t *cq_size)
{
	uint64_t n;

	if (!cqe || cqe >= uk_attrs->max_hw_cq_size)
		return -EINVAL;
	n = (uint64_t)cqe + 2;
	if (!cqe_64byte && uk_attrs->hw_rev >= IRDMA_GEN_2)
		n *= 2;
	n += n & 1;
	if (n * (cqe_64byte ? IRDMA_EXTENDED_CQE_BYTES : IRDMA_CQE_BYTES) == IRDMA_HW_PAGE_SIZE)
		n += 2;
	*cq_size = (uint32_t)(n < 4 ? 4 : n);
	return 0;
}
