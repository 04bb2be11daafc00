/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Replays every vector of tests/data/irdma-golden-vectors.json against lib/uk, byte for byte.
 *
 * The file holds rdma-core's outputs. lib/uk implements the newest Linux kernel; where the kernel
 * deliberately differs, the expectation is the kernel's and the difference is listed in kernel_diffs[]
 * below with its reason. Vector-specific setup that the file leaves implicit is described at each replay.
 */
#include <errno.h>
#include <stdlib.h>

#include "irdma_test.h"
#include "irdma_user.h"
#include "uk_internal.h"

#include "golden.h"
#include "uk_golden_vectors.h"

/* ---- kernel vs rdma-core (the vector file) ---- */
struct kernel_diff {
	const char *topic;
	const char *vectors;
	const char *expectation;
};

static const struct kernel_diff kernel_diffs[] = {
	{ "errno sign", "every vector whose ret is non-zero (sizing EINVAL rows, *_err_* SQ cases, gen3_cqe_sq_flush_repoll)",
	  "the kernel returns negative errno: expected = -ret" },
	{ "signaled tracking (6.19)", "every sq_wqe vector",
	  "the tracking entry also records signaled = inputs.signaled (checked in addition to wrid/wr_len/quanta)" },
	{ "bind MW entry point", "gen*_bind_mw_type2",
	  "the kernel uk has no irdma_uk_mw_bind; lib/uk keeps rdma-core's as an extension, same bytes" },
	{ "GEN_3 CQ shadow-update rule (6.19)", "none: the vector CQ heads never reach a multiple of 64",
	  "covered by test_uk_units (cq_shadow_skip_at_64)" },
	{ "64-bit depth hardening (2026)", "none: no sizing row overflows 32 bits in size << shift",
	  "covered by test_uk_units (depth_hardening)" },
	{ "unsignaled success completions (6.19)", "none: the CQE vectors complete signaled WRs",
	  "covered by test_uk_units (poll_unsignaled_consumed)" },
};

static unsigned long replayed;
static unsigned int errno_sign_flips;

/* Kernel return value for an rdma-core style return code of the file. */
static int kret(int file_ret)
{
	if (file_ret)
		errno_sign_flips++;
	return -file_ret;
}

static unsigned int vec_fail_mark;

static void vec_begin(void)
{
	vec_fail_mark = t_case_failures;
}

static void vec_end(const char *name)
{
	if (t_case_failures != vec_fail_mark)
		printf("# ^ in vector %s\n", name);
	replayed++;
}

static struct irdma_uk_attrs attrs_of(uint8_t gen)
{
	const struct gv_attrs *a = &gv_attr_sets[gen];
	struct irdma_uk_attrs u = {
		.feature_flags = a->feature_flags,
		.max_hw_wq_frags = a->max_hw_wq_frags,
		.max_hw_read_sges = a->max_hw_read_sges,
		.max_hw_inline = a->max_hw_inline,
		.max_hw_rq_quanta = a->max_hw_rq_quanta,
		.max_hw_srq_quanta = a->max_hw_srq_quanta,
		.max_hw_wq_quanta = a->max_hw_wq_quanta,
		.min_hw_cq_size = a->min_hw_cq_size,
		.max_hw_cq_size = a->max_hw_cq_size,
		.max_hw_sq_chunk = a->max_hw_sq_chunk,
		.min_hw_wq_size = a->min_hw_wq_size,
		.hw_rev = a->hw_rev,
	};

	T_EQ(a->hw_rev, gen);
	return u;
}

static void *zalloc(size_t n)
{
	void *p = aligned_alloc(4096, (n + 4095) & ~(size_t)4095);

	if (!p)
		abort();
	memset(p, 0, (n + 4095) & ~(size_t)4095);
	return p;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Sizing rows                                                                                          */
/* ---------------------------------------------------------------------------------------------------- */

T_CASE(golden_get_wqe_shift)
{
	unsigned int i;

	for (i = 0; i < GV_WQE_SHIFT_ROWS_COUNT; i++) {
		const struct gv_wqe_shift *r = &gv_wqe_shift_rows[i];
		struct irdma_uk_attrs a = attrs_of(r->gen);
		uint8_t shift = 0xff;

		vec_begin();
		irdma_get_wqe_shift(&a, r->sge, r->inline_len, &shift);
		T_EQ(shift, r->shift);
		if (t_case_failures != vec_fail_mark)
			printf("# ^ get_wqe_shift gen%u sge %u inline %u\n", r->gen, r->sge, r->inline_len);
		replayed++;
	}
}

T_CASE(golden_fragcnt_tables)
{
	unsigned int i;

	for (i = 0; i < GV_FRAGCNT_SQ_ROWS_COUNT; i++) {
		const struct gv_fragcnt *r = &gv_fragcnt_sq_rows[i];
		uint16_t q = 0xffff;
		int ret = irdma_fragcnt_to_quanta_sq(r->frag_cnt, &q);

		vec_begin();
		T_EQ(ret, kret(r->ret));
		if (!ret)
			T_EQ(q, r->value);
		vec_end("fragcnt_to_quanta_sq");
	}
	for (i = 0; i < GV_FRAGCNT_RQ_ROWS_COUNT; i++) {
		const struct gv_fragcnt *r = &gv_fragcnt_rq_rows[i];
		uint16_t sz = 0xffff;
		int ret = irdma_fragcnt_to_wqesize_rq(r->frag_cnt, &sz);

		vec_begin();
		T_EQ(ret, kret(r->ret));
		if (!ret)
			T_EQ(sz, r->value);
		vec_end("fragcnt_to_wqesize_rq");
	}
}

T_CASE(golden_depths)
{
	unsigned int i;

	for (i = 0; i < GV_DEPTH_ROWS_COUNT; i++) {
		const struct gv_depth *r = &gv_depth_rows[i];
		struct irdma_uk_attrs a = attrs_of(r->gen);
		uint32_t depth = 0xdeadbeef;
		int ret;

		vec_begin();
		if (r->fn == GV_SQDEPTH)
			ret = irdma_get_sqdepth(&a, r->size, r->shift, &depth);
		else if (r->fn == GV_RQDEPTH)
			ret = irdma_get_rqdepth(&a, r->size, r->shift, &depth);
		else
			ret = irdma_get_srqdepth(&a, r->size, r->shift, &depth);
		T_EQ(ret, kret(r->ret));
		if (!ret)
			T_EQ(depth, r->depth);
		if (t_case_failures != vec_fail_mark)
			printf("# ^ depth fn %d gen%u size %u shift %u\n", r->fn, r->gen, r->size, r->shift);
		replayed++;
	}
}

T_CASE(golden_calc_depth_shift)
{
	unsigned int i;

	for (i = 0; i < GV_CALC_ROWS_COUNT; i++) {
		const struct gv_calc *r = &gv_calc_rows[i];
		struct irdma_uk_attrs a = attrs_of(r->gen);
		struct irdma_qp_uk_init_info ui = {
			.uk_attrs = &a,
			.sq_size = r->max_send_wr,
			.rq_size = r->max_recv_wr,
			.max_sq_frag_cnt = r->max_send_sge,
			.max_rq_frag_cnt = r->max_recv_sge,
			.max_inline_data = r->max_inline,
			.abi_ver = r->abi_ver,
		};
		uint32_t sq_depth = 0, rq_depth = 0;
		uint8_t sq_shift = 0xff, rq_shift = 0xff, s1 = 0xff, s2 = 0xff;
		int sq_ret, rq_ret;

		vec_begin();
		sq_ret = irdma_uk_calc_depth_shift_sq(&ui, &sq_depth, &sq_shift);
		rq_ret = irdma_uk_calc_depth_shift_rq(&ui, &rq_depth, &rq_shift);
		T_EQ(sq_ret, kret(r->sq_ret));
		T_EQ(rq_ret, kret(r->rq_ret));
		T_EQ(sq_shift, r->sq_shift);
		T_EQ(rq_shift, r->rq_shift);
		/* irdma_uk_calc_shift_wq computes the same shifts without depths */
		irdma_uk_calc_shift_wq(&ui, &s1, &s2);
		T_EQ(s1, r->sq_shift);
		T_EQ(s2, r->rq_shift);
		/* the derived values of the file: sizes handed to qp_init and capabilities reported back;
		 * the file writes -1 / 0 for them when the depth failed */
		if (!sq_ret) {
			T_EQ(sq_depth, r->sq_depth);
			T_EQ(sq_depth >> sq_shift, r->sq_size_for_qp_init);
			T_EQ((sq_depth - IRDMA_SQ_RSVD) >> sq_shift, r->reported_max_send_wr);
		} else {
			T_EQ(r->reported_max_send_wr, -1);
			T_EQ(r->sq_size_for_qp_init, 0);
		}
		if (!rq_ret) {
			T_EQ(rq_depth, r->rq_depth);
			T_EQ(rq_depth >> rq_shift, r->rq_size_for_qp_init);
			T_EQ((rq_depth - IRDMA_RQ_RSVD) >> rq_shift, r->reported_max_recv_wr);
		} else {
			T_EQ(r->reported_max_recv_wr, -1);
			T_EQ(r->rq_size_for_qp_init, 0);
		}
		vec_end("calc_depth_shift");
	}
}

/* ---------------------------------------------------------------------------------------------------- */
/* SQ and RQ WQE images: one QP per generation, vectors in file order                                   */
/* ---------------------------------------------------------------------------------------------------- */

struct test_qp {
	struct irdma_uk_attrs attrs;
	struct irdma_qp_uk qp;
	struct irdma_qp_quanta *sq, *rq;
	struct irdma_sq_uk_wr_trk_info *trk;
	uint64_t *rq_wrid;
	uint64_t shadow[8];
	uint32_t db;
	bool ready;
};

static void test_qp_create(struct test_qp *t, const struct gv_qp_cfg *c)
{
	struct irdma_qp_uk_init_info ui = { 0 };
	uint32_t depth;
	uint8_t shift;

	memset(t, 0, sizeof(*t));
	t->attrs = attrs_of(c->gen);
	/* The file's QP: sizes from the depth functions with max_send_wr = max_recv_wr = 32. */
	ui.uk_attrs = &t->attrs;
	ui.sq_size = 32;
	ui.rq_size = 32;
	ui.max_sq_frag_cnt = c->max_sq_frag_cnt;
	ui.max_rq_frag_cnt = c->max_rq_frag_cnt;
	ui.max_inline_data = c->max_inline_data;
	ui.abi_ver = IRDMA_ABI_VER;
	T_EQ(irdma_uk_calc_depth_shift_sq(&ui, &depth, &shift), 0);
	T_EQ(depth, c->sq_depth);
	T_EQ(shift, c->sq_shift);
	T_EQ(irdma_uk_calc_depth_shift_rq(&ui, &depth, &shift), 0);
	T_EQ(depth, c->rq_depth);
	T_EQ(shift, c->rq_shift);

	t->sq = zalloc((size_t)c->sq_depth * 32);
	t->rq = zalloc((size_t)c->rq_depth * 32);
	t->trk = calloc(c->sq_depth, sizeof(*t->trk));
	t->rq_wrid = calloc(c->rq_depth, sizeof(uint64_t));
	ui.sq = t->sq;
	ui.rq = t->rq;
	ui.wqe_alloc_db = &t->db;
	ui.shadow_area = t->shadow;
	ui.sq_wrtrk_array = t->trk;
	ui.rq_wrid_array = t->rq_wrid;
	ui.qp_id = c->qp_id;
	ui.qp_caps = IRDMA_SEND_WITH_IMM | IRDMA_WRITE_WITH_IMM | IRDMA_ROCE;
	ui.type = IRDMA_QP_TYPE_ROCE_RC;
	ui.first_sq_wq = c->first_sq_wq;
	ui.sq_size = c->sq_depth >> c->sq_shift;
	ui.rq_size = c->rq_depth >> c->rq_shift;
	ui.sq_shift = c->sq_shift;
	ui.rq_shift = c->rq_shift;
	ui.sq_depth = c->sq_depth;
	ui.rq_depth = c->rq_depth;
	T_EQ(irdma_uk_qp_init(&t->qp, &ui), 0);
	T_EQ(t->qp.sq_ring.size, c->sq_ring_size);
	T_EQ(t->qp.rq_ring.size, c->rq_ring_size);
	t->ready = true;
}

static void test_qp_destroy(struct test_qp *t)
{
	free(t->sq);
	free(t->rq);
	free(t->trk);
	free(t->rq_wrid);
	t->ready = false;
}

/*
 * The file jumps the SQ head between some vectors (e.g. to the slot before a chunk boundary, or to the last
 * ring slot). Get there the way a driver would: post unsignaled NOPs and let the "device" retire them
 * (tail = head). This keeps irdma_clr_wqes in play: gen1_send_last_slot's next_slot_qword3 of all ones is
 * its 0xff pre-fill of slot 0, which only happens when WQEs were really posted through index 384.
 */
static void sq_advance_to(struct test_qp *t, uint32_t head)
{
	while (t->qp.sq_ring.head != head) {
		if (irdma_nop(&t->qp, 0, false, false)) {
			T_CHECK_MSG(0, "cannot advance the SQ to %u", head);
			return;
		}
		t->qp.sq_ring.tail = t->qp.sq_ring.head;
	}
}

static uint8_t inline_buf[256];

static void replay_sq(struct test_qp *t, const struct gv_sq *v)
{
	struct irdma_sge sges[GV_MAX_SGES];
	struct irdma_post_sq_info info;
	struct irdma_qp_uk *qp = &t->qp;
	uint32_t i, q;
	int ret = -1;

	sq_advance_to(t, v->before_head);
	T_EQ(qp->sq_ring.head, v->before_head);
	T_EQ(qp->swqe_polarity, v->before_polarity);

	memset(&info, 0, sizeof(info));
	info.wr_id = v->wr_id;
	info.op_type = v->op_type;
	info.signaled = v->signaled;
	info.read_fence = v->read_fence;
	info.local_fence = v->local_fence;
	info.report_rtt = v->report_rtt;
	info.udp_hdr = v->udp_hdr;
	info.l4len = v->l4len;
	info.imm_data_valid = v->imm_valid;
	info.imm_data = v->imm_data;
	info.stag_to_inv = v->stag_to_inv;

	if (v->op == GV_OP_INLINE_SEND || v->op == GV_OP_INLINE_WRITE) {
		for (i = 0; i < sizeof(inline_buf); i++)
			inline_buf[i] = (uint8_t)(i + 1);
		sges[0] = (struct irdma_sge){ (uintptr_t)inline_buf, v->inline_split[0], 0 };
		sges[1] = (struct irdma_sge){ (uintptr_t)inline_buf + v->inline_split[0], v->inline_split[1], 0 };
		info.inline_data = true;
	} else {
		for (i = 0; i < v->num_sges; i++)
			sges[i] = (struct irdma_sge){ v->sges[i].addr, v->sges[i].len, v->sges[i].lkey };
	}

	t->db = 0xdeadbeef;
	switch (v->op) {
	case GV_OP_SEND:
	case GV_OP_INLINE_SEND:
		info.op.send.sg_list = sges;
		info.op.send.num_sges = v->num_sges;
		info.op.send.qkey = v->qkey;
		info.op.send.dest_qp = v->dest_qp;
		info.op.send.ah_id = v->ah_id;
		ret = v->op == GV_OP_SEND ? irdma_uk_send(qp, &info, v->post_sq) :
					    irdma_uk_inline_send(qp, &info, v->post_sq);
		break;
	case GV_OP_RDMA_WRITE:
	case GV_OP_INLINE_WRITE:
		info.op.rdma_write.lo_sg_list = sges;
		info.op.rdma_write.num_lo_sges = v->num_sges;
		info.op.rdma_write.rem_addr.addr = v->remote_addr;
		info.op.rdma_write.rem_addr.lkey = v->rkey;
		ret = v->op == GV_OP_RDMA_WRITE ? irdma_uk_rdma_write(qp, &info, v->post_sq) :
						  irdma_uk_inline_rdma_write(qp, &info, v->post_sq);
		break;
	case GV_OP_RDMA_READ:
		info.op.rdma_read.lo_sg_list = sges;
		info.op.rdma_read.num_lo_sges = v->num_sges;
		info.op.rdma_read.rem_addr.addr = v->remote_addr;
		info.op.rdma_read.rem_addr.lkey = v->rkey;
		ret = irdma_uk_rdma_read(qp, &info, v->inv_stag, v->post_sq);
		break;
	case GV_OP_LOCAL_INV:
		info.op.inv_local_stag.target_stag = v->target_stag;
		ret = irdma_uk_stag_local_invalidate(qp, &info, v->post_sq);
		break;
	case GV_OP_BIND_MW:
		info.op.bind_window.mr_stag = v->mr_stag;
		info.op.bind_window.mw_stag = v->mw_stag;
		info.op.bind_window.bind_len = v->bind_len;
		info.op.bind_window.va = (void *)(uintptr_t)v->va;
		info.op.bind_window.addressing_type = v->va_based ? IRDMA_ADDR_TYPE_VA_BASED :
								    IRDMA_ADDR_TYPE_ZERO_BASED;
		info.op.bind_window.ena_reads = v->ena_reads;
		info.op.bind_window.ena_writes = v->ena_writes;
		info.op.bind_window.mem_window_type_1 = v->type1;
		ret = irdma_uk_mw_bind(qp, &info, v->post_sq);
		break;
	case GV_OP_NOP:
		ret = irdma_nop(qp, v->wr_id, v->signaled, v->post_sq);
		break;
	case GV_OP_ATOMIC_FAA:
		info.op.atomic_fetch_add.tagged_offset = v->local_addr;
		info.op.atomic_fetch_add.stag = v->lkey;
		info.op.atomic_fetch_add.remote_tagged_offset = v->remote_addr;
		info.op.atomic_fetch_add.remote_stag = v->rkey;
		info.op.atomic_fetch_add.fetch_add_data_bytes = v->add;
		ret = irdma_uk_atomic_fetch_add(qp, &info, v->post_sq);
		break;
	case GV_OP_ATOMIC_CAS:
		info.op.atomic_compare_swap.tagged_offset = v->local_addr;
		info.op.atomic_compare_swap.stag = v->lkey;
		info.op.atomic_compare_swap.remote_tagged_offset = v->remote_addr;
		info.op.atomic_compare_swap.remote_stag = v->rkey;
		info.op.atomic_compare_swap.swap_data_bytes = v->swap;
		info.op.atomic_compare_swap.compare_data_bytes = v->compare;
		ret = irdma_uk_atomic_compare_swap(qp, &info, v->post_sq);
		break;
	}

	T_EQ(ret, kret(v->ret));
	T_EQ(qp->sq_ring.head, v->after_head);
	T_EQ(qp->swqe_polarity, v->after_polarity);
	if (v->doorbell_written)
		T_EQ(t->db, v->doorbell_value);
	else
		T_EQ(t->db, 0xdeadbeef);

	for (i = 0; i < v->nslots; i++) {
		const struct gv_slot *s = &v->slots[i];
		const uint64_t *mem = t->sq[s->wqe_idx].elem;
		const uint8_t *bytes = (const uint8_t *)mem;

		for (q = 0; q < s->nqwords; q++) {
			uint64_t got;

			get_64bit_val(mem, q * 8, &got);
			T_EQ(got, s->qwords[q]);
		}
		for (q = 0; q < s->nqwords * 8; q++) {
			uint8_t want = (uint8_t)(hexval(s->bytes_le[2 * q]) << 4 | hexval(s->bytes_le[2 * q + 1]));

			T_EQ(bytes[q], want);
		}
		T_EQ(t->trk[s->wqe_idx].wrid, s->wrid);
		T_EQ(t->trk[s->wqe_idx].wr_len, s->wr_len);
		T_EQ(t->trk[s->wqe_idx].quanta, s->quanta);
		/* kernel 6.19 signaled tracking: padding NOPs are unsignaled, the WQE as posted */
		if (i + 1 == v->nslots && v->op != GV_OP_NOP)
			T_EQ(t->trk[s->wqe_idx].signaled, v->signaled);
	}
	if (v->has_next_slot_qword3) {
		uint64_t got;

		get_64bit_val(t->sq[v->after_head].elem, IRDMA_WQE_HDR_BYTE, &got);
		T_EQ(got, v->next_slot_qword3);
	}
}

static void replay_rq(struct test_qp *t, const struct gv_rq *v)
{
	struct irdma_sge sges[GV_MAX_SGES];
	struct irdma_post_rq_info info;
	struct irdma_qp_uk *qp = &t->qp;
	uint32_t i;
	int ret;

	T_EQ(qp->rq_ring.head, v->before_head);
	T_EQ(qp->rwqe_polarity, v->before_polarity);
	/* sg_list always points at sg[0..]: with num_sges 0 the RQ WQE still encodes sg[0] in slot 0 */
	for (i = 0; i < GV_MAX_SGES; i++)
		sges[i] = (struct irdma_sge){ 0x1000000000ULL + 0x1010ULL * i, 0x100 * (i + 1), 0xa0000 + i };
	info.wr_id = v->wr_id;
	info.sg_list = sges;
	info.num_sges = v->num_sges;
	ret = irdma_uk_post_receive(qp, &info);
	T_EQ(ret, kret(v->ret));
	T_EQ(qp->rq_ring.head, v->after_head);
	T_EQ(qp->rwqe_polarity, v->after_polarity);
	T_EQ(qp->rq_wqe_size_multiplier, v->after_multiplier);
	T_EQ(v->nqwords, 4u * v->after_multiplier);
	T_EQ(qp->rq_wrid_array[v->before_head], v->wr_id);
	T_EQ(v->before_head * qp->rq_wqe_size_multiplier, v->slot_quanta_index);
	for (i = 0; i < v->nqwords; i++) {
		uint64_t got;

		get_64bit_val(t->rq[v->slot_quanta_index].elem, i * 8, &got);
		T_EQ(got, v->qwords[i]);
	}
}

T_CASE(golden_sq_rq_wqes)
{
	struct test_qp qps[4] = { 0 };
	unsigned int i;

	for (i = 0; i < GV_QP_SEQ_COUNT; i++) {
		const struct gv_seq *s = &gv_qp_seq[i];
		const struct gv_qp_cfg *cfg = s->kind == GV_SEQ_SQ ? &gv_sq_rows[s->idx].qp : &gv_rq_rows[s->idx].qp;
		const char *name = s->kind == GV_SEQ_SQ ? gv_sq_rows[s->idx].name : gv_rq_rows[s->idx].name;
		struct test_qp *t = &qps[cfg->gen];

		vec_begin();
		if (!t->ready)
			test_qp_create(t, cfg);
		if (s->kind == GV_SEQ_SQ)
			replay_sq(t, &gv_sq_rows[s->idx]);
		else
			replay_rq(t, &gv_rq_rows[s->idx]);
		vec_end(name);
	}
	for (i = 0; i < 4; i++)
		if (qps[i].ready)
			test_qp_destroy(&qps[i]);
}

/* ---------------------------------------------------------------------------------------------------- */
/* SRQ WQE images                                                                                       */
/* ---------------------------------------------------------------------------------------------------- */

T_CASE(golden_srq_wqes)
{
	struct irdma_uk_attrs a = attrs_of(IRDMA_GEN_3);
	struct irdma_srq_uk srq;
	struct irdma_qp_quanta *ring = NULL;
	uint64_t shadow[8] = { 0 };
	unsigned int i, q;

	for (i = 0; i < GV_SRQ_ROWS_COUNT; i++) {
		const struct gv_srq *v = &gv_srq_rows[i];
		struct irdma_sge sges[GV_MAX_SGES];
		struct irdma_post_rq_info info;
		uint32_t depth = 0;
		uint8_t shift = 0;

		vec_begin();
		if (!ring) {
			struct irdma_srq_uk_init_info si = { 0 };

			irdma_get_wqe_shift(&a, v->max_sge_requested, 0, &shift);
			T_EQ(shift, v->wqe_shift);
			T_EQ(irdma_get_srqdepth(&a, v->depth_wrs, shift, &depth), 0);
			T_EQ(depth, v->depth);
			ring = zalloc((size_t)depth * 32);
			si.srq = ring;
			si.uk_attrs = &a;
			si.shadow_area = shadow;
			si.srq_id = 7;
			si.srq_size = depth >> shift;
			si.max_srq_frag_cnt = v->max_sge_requested;
			T_EQ(irdma_uk_srq_init(&srq, &si), kret(v->init_ret));
			T_EQ(srq.srq_ring.size, v->ring_size);
			T_EQ(srq.max_srq_frag_cnt, v->max_srq_frag_cnt);
			T_EQ(srq.wqe_size_multiplier, v->multiplier);
			T_EQ(srq.wqe_size, v->wqe_shift);
		}
		T_EQ(srq.srq_ring.head, v->before_head);
		T_EQ(srq.srwqe_polarity, v->before_polarity);
		for (q = 0; q < GV_MAX_SGES; q++)
			sges[q] = (struct irdma_sge){ 0x1000000000ULL + 0x1010ULL * q, 0x100 * (q + 1), 0xa0000 + q };
		info.wr_id = v->wr_id;
		info.sg_list = sges;
		info.num_sges = v->num_sges;
		T_EQ(irdma_uk_srq_post_receive(&srq, &info), kret(v->ret));
		T_EQ(srq.srq_ring.head, v->after_head);
		T_EQ(srq.srwqe_polarity, v->after_polarity);
		T_EQ(shadow[0], v->shadow_qword0);
		T_EQ(v->nqwords, 4u * srq.wqe_size_multiplier);
		for (q = 0; q < v->nqwords; q++) {
			uint64_t got;

			get_64bit_val(ring[v->before_head * srq.wqe_size_multiplier].elem, q * 8, &got);
			T_EQ(got, v->qwords[q]);
		}
		vec_end(v->name);
	}
	free(ring);
}

/* ---------------------------------------------------------------------------------------------------- */
/* CQE decode: one CQ of 8 slots and one QP per generation, vectors in file order                       */
/* ---------------------------------------------------------------------------------------------------- */

struct test_cq {
	struct test_qp tq;
	struct irdma_cq_uk cq;
	void *ring;
	uint64_t shadow[8];
	uint32_t arm_db;
};

/*
 * The QP whose WRs the CQEs complete. The file states the WRs ("a send of 2 SGEs" at index 0, the RDMA
 * write at the index of the write CQE, then the two WRs the flush reports) through wr_id/bytes/tails; they
 * are posted for real here, signaled. The RQ CQE with wqe_idx 4 completes RQ entry 1 (rq tail 1 -> 2), so
 * the RQ uses 4 quanta per entry (rq_shift 2: GEN_1's fixed 128-byte RQ WQE, 4..7 SGEs on GEN_2/3).
 */
static void test_cq_setup(struct test_cq *c, const struct gv_cqe *v)
{
	struct gv_qp_cfg cfg = { .gen = v->gen, .qp_id = 0x1234 };
	struct irdma_uk_attrs a = attrs_of(v->gen);
	struct irdma_sge sg[2] = { { 0x1000000000ULL, 0x100, 0xa0000 }, { 0x1000001010ULL, 0x200, 0xa0001 } };
	struct irdma_post_sq_info info = { 0 };
	struct irdma_post_rq_info rinfo = { 0 };
	struct irdma_qp_uk_init_info ui = { .uk_attrs = &a, .sq_size = 32, .rq_size = 32, .abi_ver = 5 };
	struct irdma_cq_uk_init_info ci = { 0 };
	uint8_t shift;

	cfg.max_sq_frag_cnt = 3;
	cfg.max_rq_frag_cnt = v->gen == IRDMA_GEN_1 ? 3 : 4;
	cfg.max_inline_data = 0;
	ui.max_sq_frag_cnt = cfg.max_sq_frag_cnt;
	ui.max_rq_frag_cnt = cfg.max_rq_frag_cnt;
	T_EQ(irdma_uk_calc_depth_shift_sq(&ui, &cfg.sq_depth, &shift), 0);
	cfg.sq_shift = shift;
	T_EQ(irdma_uk_calc_depth_shift_rq(&ui, &cfg.rq_depth, &shift), 0);
	cfg.rq_shift = shift;
	T_EQ(cfg.rq_shift, 2);
	cfg.sq_ring_size = cfg.sq_depth;
	cfg.rq_ring_size = cfg.rq_depth >> cfg.rq_shift;
	test_qp_create(&c->tq, &cfg);

	info.signaled = true;
	info.op_type = IRDMA_OP_TYPE_SEND;
	info.wr_id = 0xaa01;
	info.op.send.sg_list = sg;
	info.op.send.num_sges = 2;
	T_EQ(irdma_uk_send(&c->tq.qp, &info, true), 0);
	info.op_type = IRDMA_OP_TYPE_RDMA_WRITE;
	info.wr_id = 0xaa02;
	info.op.rdma_write.lo_sg_list = sg;
	info.op.rdma_write.num_lo_sges = 1;
	T_EQ(irdma_uk_rdma_write(&c->tq.qp, &info, true), 0);
	info.op_type = IRDMA_OP_TYPE_SEND;
	info.op.send.sg_list = sg;
	info.op.send.num_sges = 1;
	info.wr_id = 0xaa03;
	T_EQ(irdma_uk_send(&c->tq.qp, &info, true), 0);
	info.wr_id = 0xaa04;
	T_EQ(irdma_uk_send(&c->tq.qp, &info, true), 0);
	T_EQ(c->tq.qp.sq_ring.head, 5);

	rinfo.sg_list = sg;
	rinfo.num_sges = 1;
	rinfo.wr_id = 0xbb00;
	T_EQ(irdma_uk_post_receive(&c->tq.qp, &rinfo), 0);
	rinfo.wr_id = 0xbb01;
	T_EQ(irdma_uk_post_receive(&c->tq.qp, &rinfo), 0);

	c->ring = zalloc((size_t)v->cq_size * (v->avoid_mem_cflct ? 64 : 32));
	memset(c->shadow, 0, sizeof(c->shadow));
	ci.cq_base = c->ring;
	ci.cq_size = v->cq_size;
	ci.cq_id = 66;
	ci.shadow_area = c->shadow;
	ci.cqe_alloc_db = &c->arm_db;
	ci.avoid_mem_cflct = v->avoid_mem_cflct;
	irdma_uk_cq_init(&c->cq, &ci);
}

static void replay_cqe(struct test_cq *c, const struct gv_cqe *v)
{
	struct irdma_qp_uk *qp = &c->tq.qp;
	struct irdma_cq_poll_info info;
	uint64_t *slot = irdma_cqe_at(&c->cq, v->head_before);
	uint64_t want[8], got;
	bool fresh = true;
	uint32_t i;
	int ret;

	T_EQ(c->cq.cq_ring.head, v->head_before);
	T_EQ(c->cq.polarity, v->polarity_before);
	T_EQ(c->cq.cq_ring.size, v->cq_size);
	T_EQ(qp->sq_ring.tail, v->sq_tail_before);
	T_EQ(qp->rq_ring.tail, v->rq_tail_before);

	/* The "device" writes the CQE (qwords 4..7: the next 32-byte slot or the second half of a 64-byte
	 * one). A slot the uk parked must already hold exactly what the file shows for the re-poll. */
	for (i = 0; i < v->nqwords; i++) {
		want[i] = v->qword_is_qp_ctx[i] ? (uint64_t)(uintptr_t)qp : v->qwords[i];
		if (slot[i])
			fresh = false;
	}
	if (!fresh)
		for (i = 0; i < v->nqwords; i++)
			T_EQ(slot[i], want[i]);
	for (i = 0; i < v->nqwords; i++)
		set_64bit_val(slot, i * 8, want[i]);

	memset(&info, 0, sizeof(info));
	ret = irdma_uk_cq_poll_cmpl(&c->cq, &info);
	T_EQ(ret, kret(v->ret));
	T_EQ(info.wr_id, v->info.wr_id);
	T_EQ(info.bytes_xfered, v->info.bytes_xfered);
	T_EQ(info.qp_id, v->info.qp_id);
	T_EQ(info.ud_src_qpn, v->info.ud_src_qpn);
	T_EQ(info.imm_valid, v->info.imm_valid);
	T_EQ(info.imm_data, v->info.imm_data);
	T_EQ(info.stag_invalid_set, v->info.stag_invalid_set);
	T_EQ(info.inv_stag, v->info.inv_stag);
	T_EQ(info.comp_status, v->info.comp_status);
	T_EQ(info.error, v->info.error);
	T_EQ(info.major_err, v->info.major_err);
	T_EQ(info.minor_err, v->info.minor_err);
	T_EQ(info.op_type, v->info.op_type);
	T_EQ(info.q_type, v->info.q_type);
	T_EQ(info.solicited_event, v->info.solicited_event);
	T_EQ(info.ipv4, v->info.ipv4);
	T_EQ(info.ud_vlan_valid, v->info.ud_vlan_valid);
	T_EQ(info.ud_vlan, v->info.ud_vlan);
	T_EQ(info.ud_smac_valid, v->info.ud_smac_valid);
	T_MEMEQ(info.ud_smac, v->info.ud_smac, 6);
	T_EQ(info.stat.raw, v->info.stat_raw);
	if (!ret)
		T_CHECK(info.qp_handle == qp);

	T_EQ(c->cq.cq_ring.head, v->head_after);
	T_EQ(c->cq.cq_ring.tail, v->tail_after);
	T_EQ(c->cq.polarity, v->polarity_after);
	T_EQ(c->shadow[0], v->shadow_qword0_after);
	T_EQ(qp->sq_ring.tail, v->sq_tail_after);
	T_EQ(qp->rq_ring.tail, v->rq_tail_after);
	get_64bit_val(slot, IRDMA_BYTE_24, &got);
	T_EQ(got, v->qword3_after);
}

T_CASE(golden_cqe_decode)
{
	struct test_cq cqs[4];
	bool ready[4] = { false };
	unsigned int i;

	for (i = 0; i < GV_CQE_ROWS_COUNT; i++) {
		const struct gv_cqe *v = &gv_cqe_rows[i];

		vec_begin();
		if (!ready[v->gen]) {
			test_cq_setup(&cqs[v->gen], v);
			ready[v->gen] = true;
		}
		T_EQ(cqs[v->gen].cq.avoid_mem_cflct, v->avoid_mem_cflct);
		replay_cqe(&cqs[v->gen], v);
		vec_end(v->name);
	}
	for (i = 0; i < 4; i++)
		if (ready[i]) {
			test_qp_destroy(&cqs[i].tq);
			free(cqs[i].ring);
		}
}

T_CASE(golden_cq_arm_and_resized_cnt)
{
	unsigned int i;

	for (i = 0; i < GV_ARM_ROWS_COUNT; i++) {
		const struct gv_arm *v = &gv_arm_rows[i];
		struct irdma_cq_uk_init_info ci = { 0 };
		struct irdma_cqe ring[4] = { 0 };
		struct irdma_cq_uk cq;
		uint64_t shadow[8] = { 0 };
		uint32_t db = 0xdeadbeef;

		vec_begin();
		ci.cq_base = ring;
		ci.cq_size = 4;
		ci.cq_id = v->resized_cnt ? 66 : v->cq_id;
		ci.shadow_area = shadow;
		ci.cqe_alloc_db = &db;
		irdma_uk_cq_init(&cq, &ci);
		shadow[4] = v->shadow_before;
		if (v->resized_cnt) {
			irdma_uk_cq_set_resized_cnt(&cq, v->cnt);
			T_EQ(db, 0xdeadbeef);
		} else {
			irdma_uk_cq_request_notification(&cq, (enum irdma_cmpl_notify)v->notify);
			T_EQ(db, v->doorbell_value);
		}
		T_EQ(shadow[4], v->shadow_after);
		for (unsigned int q = 0; q < 8; q++)
			if (q != 4)
				T_EQ(shadow[q], 0);
		vec_end(v->name);
	}
}

T_CASE(golden_all_vectors_replayed)
{
	unsigned int i;

	printf("# replayed %lu of %d golden vectors (%u expectations sign-flipped to kernel errno)\n", replayed,
	       GV_TOTAL_VECTORS, errno_sign_flips);
	for (i = 0; i < sizeof(kernel_diffs) / sizeof(kernel_diffs[0]); i++)
		printf("# kernel vs vectors: %s: %s -> %s\n", kernel_diffs[i].topic, kernel_diffs[i].vectors,
		       kernel_diffs[i].expectation);
	T_EQ(replayed, GV_TOTAL_VECTORS);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
