/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SQ work requests: send, RDMA write, RDMA read (each with SGEs or inline where the format allows), local
 * invalidate and memory-window bind. Each writes the WQE body, then the header qword with the valid bit
 * (release store), then rings the doorbell when asked. Facts: doc/spec/irdma-uk.md §3.1-§3.4, §5, §5.8.
 */
#include "uk_internal.h"

/* Header bits every SQ WQE carries. */
static inline uint64_t irdma_hdr_common(const struct irdma_post_sq_info *info, uint8_t polarity)
{
	return IRDMA_FIELD_PREP(IRDMAQPSQ_READFENCE, info->read_fence) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_LOCALFENCE, info->local_fence) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_SIGCOMPL, info->signaled) |
	       IRDMA_FIELD_PREP(IRDMAQPSQ_VALID, polarity);
}

static inline void irdma_publish(struct irdma_qp_uk *qp, uint64_t *wqe, uint64_t hdr, bool post_sq)
{
	set_64bit_val_release(wqe, IRDMA_WQE_HDR_BYTE, hdr);
	if (post_sq)
		irdma_sq_doorbell(qp);
}

/* Reserve a WR's quanta (recording it for completion) and pre-clear ahead; NULL when the SQ is full. */
IRDMA_ALWAYS_INLINE uint64_t *irdma_sq_reserve(struct irdma_qp_uk *qp, uint16_t quanta, uint32_t total_size,
					       const struct irdma_post_sq_info *info)
{
	uint32_t wqe_idx;
	uint64_t *wqe;

	wqe = irdma_sq_alloc(qp, &wqe_idx, quanta, total_size, info->wr_id, info->signaled);
	if (likely(wqe != NULL))
		irdma_clr_wqes_inl(qp, wqe_idx);
	return wqe;
}

/* A WR carried by fragments (num_sges SGEs, frag_cnt with the immediate): check both limits, then reserve.
 * Returns 0, -EINVAL or -ENOMEM. */
IRDMA_ALWAYS_INLINE int irdma_sq_reserve_frags(struct irdma_qp_uk *qp, const struct irdma_post_sq_info *info,
					       const struct irdma_sge *sg_list, uint32_t num_sges,
					       uint32_t frag_cnt, uint64_t **wqe)
{
	if (unlikely(num_sges > qp->max_sq_frag_cnt || irdma_frag_quanta(frag_cnt) > qp->max_hw_sq_chunk))
		return -EINVAL;
	*wqe = irdma_sq_reserve(qp, (uint16_t)irdma_frag_quanta(frag_cnt), irdma_sge_total(sg_list, num_sges),
				info);
	return likely(*wqe != NULL) ? 0 : -ENOMEM;
}

/*
 * Fragment part shared by send and RDMA write: the immediate (when valid) or the first SGE in slot 0, the
 * remaining SGEs after the header quantum. Slot 0 always encodes sg_list[0] when there is no immediate,
 * even for zero SGEs (NULL list: null fragment), as the kernel does. Returns the additional fragment count.
 */
static __attribute__((noinline)) uint32_t
irdma_sq_frags_general(struct irdma_qp_uk *qp, uint64_t *wqe, struct irdma_sge *sg_list, uint32_t num_sges,
		       uint32_t frag_cnt, const struct irdma_post_sq_info *info, uint8_t polarity)
{
	const bool gen_1 = qp->hw_rev == IRDMA_GEN_1;

	if (info->imm_data_valid) {
		set_64bit_val(wqe, IRDMA_BYTE_0, IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATA, info->imm_data));
		return irdma_write_tail_frags(gen_1, qp->hw_rev, wqe, sg_list, 0, num_sges, frag_cnt,
					      polarity);
	}
	irdma_frag(gen_1, wqe, IRDMA_BYTE_0, sg_list, polarity);
	return irdma_write_tail_frags(gen_1, qp->hw_rev, wqe, sg_list, 1, num_sges, frag_cnt, polarity);
}

/* The common case inline: one SGE, no immediate, GEN_2 format. */
IRDMA_ALWAYS_INLINE uint32_t irdma_write_sges(struct irdma_qp_uk *qp, uint64_t *wqe, struct irdma_sge *sg_list,
					      uint32_t num_sges, uint32_t frag_cnt,
					      const struct irdma_post_sq_info *info, uint8_t polarity)
{
	if (likely(frag_cnt == 1 && !info->imm_data_valid && qp->hw_rev != IRDMA_GEN_1)) {
		irdma_frag_gen_2(wqe, IRDMA_BYTE_0, sg_list, polarity);
		return 0;
	}
	return irdma_sq_frags_general(qp, wqe, sg_list, num_sges, frag_cnt, info, polarity);
}

/**
 * irdma_uk_send - post a send (plain, solicited, with invalidate, UD) with SGEs
 * Return: 0, -EINVAL (too many SGEs, or more quanta than one WR may take: max_hw_sq_chunk, i.e. 15
 * fragments with the immediate on GEN_2/3, 3 on GEN_1), -ENOMEM (SQ full).
 */
int irdma_uk_send(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_post_send *op_info = &info->op.send;
	const uint32_t num_sges = op_info->num_sges;
	const uint32_t frag_cnt = num_sges + info->imm_data_valid;
	uint32_t addl;
	uint8_t polarity;
	uint64_t *wqe;
	int ret;

	ret = irdma_sq_reserve_frags(qp, info, op_info->sg_list, num_sges, frag_cnt, &wqe);
	if (unlikely(ret))
		return ret;
	polarity = qp->swqe_polarity;

	addl = irdma_write_sges(qp, wqe, num_sges ? op_info->sg_list : NULL, num_sges, frag_cnt, info,
				polarity);
	set_64bit_val(wqe, IRDMA_BYTE_16,
		      IRDMA_FIELD_PREP(IRDMAQPSQ_DESTQKEY, op_info->qkey) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_DESTQPN, op_info->dest_qp));
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REMSTAGINV, info->stag_to_inv) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_AHID, op_info->ah_id) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATAFLAG, info->imm_data_valid) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REPORTRTT, info->report_rtt) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, info->op_type) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_ADDFRAGCNT, addl) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_UDPHEADER, info->udp_hdr) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_L4LEN, info->l4len),
		      post_sq);
	return 0;
}

/**
 * irdma_uk_rdma_write - post an RDMA write (op_type 0x00 or solicited 0x0d), optionally with immediate
 * Return: 0, -EINVAL (too many SGEs or quanta, as irdma_uk_send), -ENOMEM (SQ full).
 */
int irdma_uk_rdma_write(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_rdma_write *op_info = &info->op.rdma_write;
	const uint32_t num_sges = op_info->num_lo_sges;
	const uint32_t frag_cnt = num_sges + info->imm_data_valid;
	uint32_t addl;
	uint8_t polarity;
	uint64_t *wqe;
	int ret;

	ret = irdma_sq_reserve_frags(qp, info, op_info->lo_sg_list, num_sges, frag_cnt, &wqe);
	if (unlikely(ret))
		return ret;
	polarity = qp->swqe_polarity;

	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, op_info->rem_addr.addr));
	addl = irdma_write_sges(qp, wqe, op_info->lo_sg_list, num_sges, frag_cnt, info, polarity);
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REMSTAG, op_info->rem_addr.lkey) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, info->op_type) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATAFLAG, info->imm_data_valid) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REPORTRTT, info->report_rtt) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_ADDFRAGCNT, addl),
		      post_sq);
	return 0;
}

/**
 * irdma_uk_rdma_read - post an RDMA read, or read with local invalidate when inv_stag is true
 * Return: 0, -EINVAL (more SGEs than max_sq_frag_cnt or the device's max_hw_read_sges), -ENOMEM (SQ full).
 */
int irdma_uk_rdma_read(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool inv_stag,
		       bool post_sq)
{
	struct irdma_rdma_read *op_info = &info->op.rdma_read;
	const uint32_t num_sges = op_info->num_lo_sges;
	const bool gen_1 = unlikely(qp->hw_rev == IRDMA_GEN_1);
	uint32_t addl;
	uint8_t polarity;
	uint64_t *wqe;
	int ret;

	/* lib/uk also enforces what the kernel leaves to its verbs layer: the device's read SGE limit */
	if (unlikely(num_sges > qp->uk_attrs->max_hw_read_sges))
		return -EINVAL;
	ret = irdma_sq_reserve_frags(qp, info, op_info->lo_sg_list, num_sges, num_sges, &wqe);
	if (unlikely(ret))
		return ret;
	polarity = qp->swqe_polarity;

	if (likely(num_sges == 1 && !gen_1)) {
		irdma_frag_gen_2(wqe, IRDMA_BYTE_0, op_info->lo_sg_list, polarity);
		addl = 0;
	} else {
		irdma_frag(gen_1, wqe, IRDMA_BYTE_0, op_info->lo_sg_list, polarity);
		addl = irdma_write_tail_frags(gen_1, qp->hw_rev, wqe, op_info->lo_sg_list, 1, num_sges,
					      num_sges, polarity);
	}
	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, op_info->rem_addr.addr));
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REMSTAG, op_info->rem_addr.lkey) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REPORTRTT, info->report_rtt) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_ADDFRAGCNT, addl) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, inv_stag ? IRDMAQP_OP_RDMA_READ_LOC_INV :
								    IRDMAQP_OP_RDMA_READ),
		      post_sq);
	return 0;
}

/* Small inline payloads (one SGE of at most 8 bytes) fill only WQE bytes 8..15 on GEN_2/3: copy them
 * without a memcpy call. */
static inline void irdma_copy_inline_small(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	uint32_t a, b;

	if (n >= 4) {
		memcpy(&a, src, 4);
		memcpy(&b, src + n - 4, 4);
		memcpy(dst, &a, 4);
		memcpy(dst + n - 4, &b, 4);
	} else if (n) {
		dst[0] = src[0];
		if (n > 1) {
			dst[1] = src[1];
			if (n > 2)
				dst[2] = src[2];
		}
	}
}

static inline void irdma_put_inline(struct irdma_qp_uk *qp, uint64_t *wqe, struct irdma_sge *sg_list,
				    uint32_t num_sges, uint32_t total_size, uint8_t polarity)
{
	if (unlikely(qp->hw_rev == IRDMA_GEN_1))
		irdma_copy_inline_data_gen_1((uint8_t *)wqe, sg_list, num_sges, polarity);
	else if (likely(num_sges == 1 && total_size <= IRDMA_INLINE_FIRST_CHUNK))
		irdma_copy_inline_small((uint8_t *)wqe + IRDMA_INLINE_FIRST_CHUNK,
					(const uint8_t *)(uintptr_t)sg_list[0].addr, total_size);
	else
		irdma_copy_inline_data((uint8_t *)wqe, sg_list, num_sges, polarity);
}

static inline uint16_t irdma_inline_quanta(const struct irdma_qp_uk *qp, uint32_t total_size)
{
	if (likely(total_size <= IRDMA_INLINE_FIRST_CHUNK))
		return 1;
	return unlikely(qp->hw_rev == IRDMA_GEN_1) ? irdma_inline_data_size_to_quanta_gen_1(total_size) :
						     irdma_inline_data_size_to_quanta(total_size);
}

/* An inline WR: check the SGE count and the payload size, then reserve. Returns 0, -EINVAL or -ENOMEM. */
IRDMA_ALWAYS_INLINE int irdma_sq_reserve_inline(struct irdma_qp_uk *qp, const struct irdma_post_sq_info *info,
						const struct irdma_sge *sg_list, uint32_t num_sges,
						uint32_t *total_size, uint64_t **wqe)
{
	if (unlikely(num_sges > qp->max_sq_frag_cnt))
		return -EINVAL;
	*total_size = irdma_sge_total_sat(sg_list, num_sges);
	if (unlikely(*total_size > qp->max_inline_data))
		return -EINVAL;
	*wqe = irdma_sq_reserve(qp, irdma_inline_quanta(qp, *total_size), *total_size, info);
	return likely(*wqe != NULL) ? 0 : -ENOMEM;
}

/**
 * irdma_uk_inline_send - post a send whose payload is copied into the WQE
 * The immediate (if any) stays in qword 0 and adds no quantum.
 * Return: 0, -EINVAL (too many SGEs or total length over max_inline_data), -ENOMEM (SQ full).
 */
int irdma_uk_inline_send(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_post_send *op_info = &info->op.send;
	const uint32_t num_sges = op_info->num_sges;
	uint32_t total_size;
	uint8_t polarity;
	uint64_t *wqe;
	int ret;

	ret = irdma_sq_reserve_inline(qp, info, op_info->sg_list, num_sges, &total_size, &wqe);
	if (unlikely(ret))
		return ret;
	polarity = qp->swqe_polarity;

	set_64bit_val(wqe, IRDMA_BYTE_16,
		      IRDMA_FIELD_PREP(IRDMAQPSQ_DESTQKEY, op_info->qkey) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_DESTQPN, op_info->dest_qp));
	if (info->imm_data_valid)
		set_64bit_val(wqe, IRDMA_BYTE_0, IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATA, info->imm_data));
	irdma_put_inline(qp, wqe, op_info->sg_list, num_sges, total_size, polarity);
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REMSTAGINV, info->stag_to_inv) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_AHID, op_info->ah_id) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, info->op_type) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_INLINEDATALEN, total_size) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATAFLAG, info->imm_data_valid) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REPORTRTT, info->report_rtt) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_INLINEDATAFLAG, 1) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_UDPHEADER, info->udp_hdr) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_L4LEN, info->l4len),
		      post_sq);
	return 0;
}

/**
 * irdma_uk_inline_rdma_write - post an RDMA write whose payload is copied into the WQE
 * Return: 0, -EINVAL (too many SGEs or total length over max_inline_data), -ENOMEM (SQ full).
 */
int irdma_uk_inline_rdma_write(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_rdma_write *op_info = &info->op.rdma_write;
	const uint32_t num_sges = op_info->num_lo_sges;
	uint32_t total_size;
	uint8_t polarity;
	uint64_t *wqe;
	int ret;

	ret = irdma_sq_reserve_inline(qp, info, op_info->lo_sg_list, num_sges, &total_size, &wqe);
	if (unlikely(ret))
		return ret;
	polarity = qp->swqe_polarity;

	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, op_info->rem_addr.addr));
	if (info->imm_data_valid)
		set_64bit_val(wqe, IRDMA_BYTE_0, IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATA, info->imm_data));
	irdma_put_inline(qp, wqe, op_info->lo_sg_list, num_sges, total_size, polarity);
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REMSTAG, op_info->rem_addr.lkey) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, info->op_type) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_INLINEDATALEN, total_size) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REPORTRTT, info->report_rtt) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_INLINEDATAFLAG, 1) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_IMMDATAFLAG, info->imm_data_valid),
		      post_sq);
	return 0;
}

/**
 * irdma_uk_stag_local_invalidate - post a local invalidate of info->op.inv_local_stag.target_stag
 * The STag travels in a fragment built with valid = 0 on every generation.
 * Return: 0 or -ENOMEM.
 */
int irdma_uk_stag_local_invalidate(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info,
				   bool post_sq)
{
	struct irdma_sge sge = { .addr = 0, .length = 0, .lkey = info->op.inv_local_stag.target_stag };
	uint64_t *wqe;

	wqe = irdma_sq_reserve(qp, IRDMA_QP_WQE_MIN_QUANTA, 0, info);
	if (unlikely(!wqe))
		return -ENOMEM;

	irdma_frag(qp->hw_rev == IRDMA_GEN_1, wqe, IRDMA_BYTE_0, &sge, 0);
	set_64bit_val(wqe, IRDMA_BYTE_16, 0);
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, qp->swqe_polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, IRDMA_OP_TYPE_INV_STAG),
		      post_sq);
	return 0;
}

/**
 * irdma_uk_mw_bind - post a memory-window bind (lib/uk extension; rdma-core's entry point)
 * Return: 0 or -ENOMEM.
 */
int irdma_uk_mw_bind(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq)
{
	struct irdma_bind_window *op_info = &info->op.bind_window;
	uint64_t *wqe;

	wqe = irdma_sq_reserve(qp, IRDMA_QP_WQE_MIN_QUANTA, 0, info);
	if (unlikely(!wqe))
		return -ENOMEM;

	if (unlikely(qp->hw_rev == IRDMA_GEN_1))
		irdma_set_mw_bind_wqe_gen_1(wqe, op_info);
	else
		irdma_set_mw_bind_wqe(wqe, op_info);
	irdma_publish(qp, wqe,
		      irdma_hdr_common(info, qp->swqe_polarity) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_OPCODE, IRDMA_OP_TYPE_BIND_MW) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_STAGRIGHTS,
				       (op_info->ena_reads ? IRDMA_STAGRIGHTS_REMOTE_READ : 0) |
				       (op_info->ena_writes ? IRDMA_STAGRIGHTS_REMOTE_WRITE : 0)) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_VABASEDTO,
				       op_info->addressing_type == IRDMA_ADDR_TYPE_VA_BASED) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_MEMWINDOWTYPE, op_info->mem_window_type_1) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_REMOTE_ATOMICS_EN, op_info->remote_atomics_en),
		      post_sq);
	return 0;
}
