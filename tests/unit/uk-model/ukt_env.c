/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP/SRQ/CQ set-up on heap memory for the lib/uk tests, and the hardware-side CQE writer.
 * CQE bit positions are restated from doc/spec/irdma-uk.md (§3.6) on purpose instead of using
 * irdma_defs.h: the tests must not share a misplaced field with the library.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ukm_model.h"
#include "ukt_env.h"

uint64_t ukt_get64(const void *base, uint32_t byte_off)
{
	const uint8_t *p = (const uint8_t *)base + byte_off;
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void ukt_put64(void *base, uint32_t byte_off, uint64_t v)
{
	uint8_t *p = (uint8_t *)base + byte_off;

	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The build hosts are little-endian (x86-64); these are the hardware's atomic accesses. */
uint64_t ukt_load_acquire64(const void *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

void ukt_store_release64(void *p, uint64_t v)
{
	__atomic_store_n((uint64_t *)p, v, __ATOMIC_RELEASE);
}

void ukt_attrs(struct irdma_uk_attrs *a, int gen)
{
	memset(a, 0, sizeof(*a));
	a->hw_rev = (uint8_t)gen;
	a->min_hw_cq_size = 1;
	a->max_hw_cq_size = 1048575;
	switch (gen) {
	case 1:
		a->max_hw_wq_frags = 3;
		a->max_hw_read_sges = 1;
		a->max_hw_inline = 48;
		a->max_hw_rq_quanta = 16384;
		a->max_hw_wq_quanta = 2048;
		a->max_hw_sq_chunk = 2;
		a->min_hw_wq_size = 4;
		break;
	case 2:
		a->max_hw_wq_frags = 13;
		a->max_hw_read_sges = 13;
		a->max_hw_inline = 101;
		a->max_hw_rq_quanta = 32768;
		a->max_hw_wq_quanta = 32768;
		a->max_hw_sq_chunk = 8;
		a->min_hw_wq_size = 8;
		a->feature_flags = 0x3; /* RTS_AE | CQ_RESIZE */
		break;
	default:
		a->max_hw_wq_frags = 14;
		a->max_hw_read_sges = 14;
		a->max_hw_inline = 216;
		a->max_hw_rq_quanta = 32768;
		a->max_hw_wq_quanta = 32768;
		a->max_hw_srq_quanta = 262144;
		a->max_hw_sq_chunk = 8;
		a->min_hw_wq_size = 16;
		/* RTS_AE | CQ_RESIZE | 64_BYTE_CQE | ATOMIC_OPS | SRQ | CQE_TIMESTAMPING */
		a->feature_flags = 0x1e3;
		break;
	}
}

static void *ukt_zalloc(size_t bytes)
{
	size_t rounded = (bytes + 4095) & ~(size_t)4095;
	void *p = aligned_alloc(4096, rounded ? rounded : 4096);

	if (p)
		memset(p, 0, rounded ? rounded : 4096);
	return p;
}

int ukt_qp_create(struct ukt_qp *t, const struct ukt_qp_cfg *cfg)
{
	struct irdma_qp_uk_init_info *info = &t->info;
	uint32_t sq_depth = 0, rq_depth = 0;
	uint8_t sq_shift = 0, rq_shift = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	t->gen = cfg->gen;
	ukt_attrs(&t->attrs, cfg->gen);
	info->uk_attrs = &t->attrs;
	info->max_sq_frag_cnt = cfg->sq_sge;
	info->max_rq_frag_cnt = cfg->rq_sge;
	info->max_inline_data = cfg->max_inline;
	info->sq_size = cfg->max_send_wr;
	info->rq_size = cfg->max_recv_wr;
	info->abi_ver = 5;
	ret = irdma_uk_calc_depth_shift_sq(info, &sq_depth, &sq_shift);
	if (ret)
		return ret;
	ret = irdma_uk_calc_depth_shift_rq(info, &rq_depth, &rq_shift);
	if (ret)
		return ret;
	t->sq_depth = sq_depth;
	t->rq_depth = rq_depth;
	t->sq_shift = sq_shift;
	t->rq_shift = rq_shift;
	t->sq_mem = ukt_zalloc((size_t)sq_depth * 32);
	t->rq_mem = ukt_zalloc((size_t)rq_depth * 32);
	t->trk = calloc(sq_depth, sizeof(*t->trk));
	t->rq_wrid = calloc(rq_depth, sizeof(*t->rq_wrid));
	if (!t->sq_mem || !t->rq_mem || !t->trk || !t->rq_wrid) {
		ukt_qp_destroy(t);
		return -ENOMEM;
	}
	info->sq = (struct irdma_qp_quanta *)t->sq_mem;
	info->rq = (struct irdma_qp_quanta *)t->rq_mem;
	info->sq_wrtrk_array = t->trk;
	info->rq_wrid_array = t->rq_wrid;
	info->shadow_area = t->shadow;
	info->wqe_alloc_db = &t->db;
	info->qp_id = 0x1234;
	info->qp_caps = 0x7; /* RoCE RC: SEND_IMM | WRITE_IMM | ROCE */
	info->sq_size = sq_depth >> sq_shift;
	info->rq_size = rq_depth >> rq_shift;
	info->sq_depth = sq_depth;
	info->rq_depth = rq_depth;
	info->sq_shift = sq_shift;
	info->rq_shift = rq_shift;
	info->type = cfg->qp_type ? cfg->qp_type : 3; /* IRDMA_QP_TYPE_ROCE_RC */
	info->first_sq_wq = cfg->first_sq_wq;
	info->srq_uk = cfg->srq;
	ret = irdma_uk_qp_init(&t->qp, info);
	if (ret)
		ukt_qp_destroy(t);
	return ret;
}

void ukt_qp_destroy(struct ukt_qp *t)
{
	free(t->sq_mem);
	free(t->rq_mem);
	free(t->trk);
	free(t->rq_wrid);
	t->sq_mem = t->rq_mem = NULL;
	t->trk = NULL;
	t->rq_wrid = NULL;
}

int ukt_srq_create(struct ukt_srq *t, uint32_t max_wr, uint32_t max_sge)
{
	struct irdma_srq_uk_init_info info;
	uint32_t shift = 0, depth;
	int ret;

	memset(t, 0, sizeof(*t));
	memset(&info, 0, sizeof(info));
	ukt_attrs(&t->attrs, 3);
	/* Sizing per doc/spec/irdma-uk.md §6.1/§6.2 (RQ rule, SRQ limit). */
	if (max_sge > 1)
		shift = max_sge < 4 ? 1 : max_sge < 8 ? 2 : 3;
	depth = 1;
	while (depth < ((uint64_t)max_wr << shift) + 1)
		depth <<= 1;
	if (depth < (16u << shift))
		depth = 16u << shift;
	t->depth = depth;
	t->shift = (uint8_t)shift;
	t->mem = ukt_zalloc((size_t)depth * 32);
	if (!t->mem)
		return -ENOMEM;
	info.srq = (struct irdma_qp_quanta *)t->mem;
	info.uk_attrs = &t->attrs;
	info.shadow_area = t->shadow;
	info.srq_id = 7;
	info.srq_size = depth >> shift;
	info.max_srq_frag_cnt = max_sge;
	ret = irdma_uk_srq_init(&t->srq, &info);
	if (ret)
		ukt_srq_destroy(t);
	return ret;
}

void ukt_srq_destroy(struct ukt_srq *t)
{
	free(t->mem);
	t->mem = NULL;
}

int ukt_cq_create(struct ukt_cq *t, uint32_t slots, bool cqe64)
{
	struct irdma_cq_uk_init_info info;

	memset(t, 0, sizeof(*t));
	memset(&info, 0, sizeof(info));
	t->size = slots;
	t->cqe64 = cqe64;
	t->mem = ukt_zalloc((size_t)slots * (cqe64 ? 64 : 32));
	if (!t->mem)
		return -ENOMEM;
	info.cq_base = (struct irdma_cqe *)t->mem;
	info.cq_size = slots;
	info.cq_id = 0x55;
	info.shadow_area = t->shadow;
	info.cqe_alloc_db = &t->arm_db;
	info.avoid_mem_cflct = cqe64;
	irdma_uk_cq_init(&t->cq, &info);
	t->hw_head = 0;
	t->hw_pol = 1;
	return 0;
}

void ukt_cq_destroy(struct ukt_cq *t)
{
	free(t->mem);
	t->mem = NULL;
}

void *ukt_cq_slot(struct ukt_cq *t, uint32_t idx)
{
	return (uint8_t *)t->mem + (size_t)idx * (t->cqe64 ? 64 : 32);
}

void ukt_cqe_sq(struct ukt_cqe *c, const void *qp_ctx, uint32_t qp_id, uint32_t wqe_idx,
		uint32_t opcode)
{
	memset(c, 0, sizeof(*c));
	c->q[1] = (uint64_t)(uintptr_t)qp_ctx;
	c->q[2] = (uint64_t)qp_id << 32;
	c->q[3] = ((uint64_t)wqe_idx << 32) | ((uint64_t)opcode << 56) | (1ull << 62);
}

void ukt_cqe_rq(struct ukt_cqe *c, const void *qp_ctx, uint32_t qp_id, uint32_t wqe_idx,
		uint32_t bytes)
{
	memset(c, 0, sizeof(*c));
	c->q[0] = bytes;
	c->q[1] = (uint64_t)(uintptr_t)qp_ctx;
	c->q[2] = (uint64_t)qp_id << 32;
	c->q[3] = (uint64_t)wqe_idx << 32;
}

void ukt_cqe_error(struct ukt_cqe *c, uint16_t major, uint16_t minor)
{
	c->q[3] |= (uint64_t)minor | ((uint64_t)major << 16) | (1ull << 55);
}

static void ukt_cq_hw_advance(struct ukt_cq *t)
{
	if (++t->hw_head == t->size) {
		t->hw_head = 0;
		t->hw_pol ^= 1;
	}
}

void ukt_cq_hw_write(struct ukt_cq *t, const struct ukt_cqe *c)
{
	uint8_t *slot = ukt_cq_slot(t, t->hw_head);
	uint64_t q3 = c->q[3] | ((uint64_t)t->hw_pol << 63);

	if (c->ext)
		q3 |= 1ull << 50;
	ukt_put64(slot, 0, c->q[0]);
	ukt_put64(slot, 8, c->q[1]);
	ukt_put64(slot, 16, c->q[2]);
	if (c->ext) {
		uint8_t *ext;
		uint8_t ext_pol = t->hw_pol;

		if (t->cqe64) {
			ext = slot + 32;
		} else {
			uint32_t next = t->hw_head + 1 == t->size ? 0 : t->hw_head + 1;

			ext = ukt_cq_slot(t, next);
			if (next == 0)
				ext_pol ^= 1;
		}
		ukt_put64(ext, 0, c->q[4]);
		ukt_put64(ext, 8, c->q[5]);
		ukt_put64(ext, 16, c->q[6]);
		ukt_store_release64(ext + 24, c->q[7] | ((uint64_t)ext_pol << 63));
	} else if (t->cqe64) {
		/* The second half of a 64-byte slot: SRQ completions carry the QP context there. */
		ukt_put64(slot, 32, c->q[4]);
		ukt_put64(slot, 40, c->q[5]);
		ukt_put64(slot, 48, c->q[6]);
		ukt_put64(slot, 56, c->q[7]);
	}
	ukt_store_release64(slot + 24, q3);
	ukt_cq_hw_advance(t);
	if (c->ext && !t->cqe64)
		ukt_cq_hw_advance(t);
}

static void ukt_img_set(struct ukt_img *img, uint32_t byte_off, uint64_t v)
{
	img->q[byte_off / 8] = v;
	img->written |= 1u << (byte_off / 8);
}

static uint32_t ukt_frag_off(uint32_t k)
{
	return k ? 32u + 16u * (k - 1u) : 0u;
}

static void ukt_img_frag(struct ukt_img *img, int gen, uint32_t off, const struct irdma_sge *sge,
			 uint8_t pol)
{
	if (!sge) {
		ukt_img_set(img, off, 0);
		ukt_img_set(img, off + 8, gen == 1 ? 0 : (uint64_t)pol << 63);
		return;
	}
	ukt_img_set(img, off, sge->addr);
	if (gen == 1)
		ukt_img_set(img, off + 8, (uint64_t)sge->length | ((uint64_t)sge->lkey << 32));
	else
		ukt_img_set(img, off + 8,
			    (uint64_t)sge->lkey | ((uint64_t)(sge->length & 0x7fffffffu) << 32) |
				    ((uint64_t)pol << 63));
}

/* Fragments k = first.. of the list, the GEN_2/3 null fragment for an even count; addl returned. */
static uint32_t ukt_img_frags(struct ukt_img *img, int gen, const struct irdma_sge *sg, uint32_t n,
			      uint32_t slot0, uint32_t frag_cnt, uint8_t pol)
{
	uint32_t k = slot0;

	for (uint32_t i = 0; i < n; i++, k++)
		ukt_img_frag(img, gen, ukt_frag_off(k), &sg[i], pol);
	if (gen != 1 && frag_cnt && !(frag_cnt & 1)) {
		ukt_img_frag(img, gen, ukt_frag_off(frag_cnt), NULL, pol);
		if (gen == 2)
			return frag_cnt;
	}
	return frag_cnt > 1 ? frag_cnt - 1 : 0;
}

void ukt_expect_sq_sges(struct ukt_img *img, int gen, const struct irdma_sge *sg, uint32_t n,
			bool imm, uint32_t imm_data, uint64_t q2, uint64_t hdr, uint8_t pol)
{
	uint32_t frag_cnt = n + (imm ? 1 : 0);
	uint32_t addl;

	memset(img, 0, sizeof(*img));
	if (imm) {
		ukt_img_set(img, 0, imm_data); /* qword 1 stays unwritten */
		addl = ukt_img_frags(img, gen, sg, n, 1, frag_cnt, pol);
	} else if (n == 0) {
		ukt_img_frag(img, gen, 0, NULL, pol);
		addl = 0;
	} else {
		addl = ukt_img_frags(img, gen, sg, n, 0, frag_cnt, pol);
	}
	ukt_img_set(img, 16, q2);
	ukt_img_set(img, 24, hdr | ((uint64_t)addl << 38) | ((uint64_t)pol << 63));
	img->quanta = frag_cnt <= 1 ? 1 : 1 + frag_cnt / 2;
}

void ukt_expect_rq(struct ukt_img *img, int gen, const struct irdma_sge *sg, uint32_t n,
		   uint64_t q2, uint8_t pol)
{
	uint32_t addl;

	memset(img, 0, sizeof(*img));
	if (n == 0) {
		ukt_img_frag(img, gen, 0, NULL, pol);
		addl = 0;
	} else {
		addl = ukt_img_frags(img, gen, sg, n, 0, n, pol);
	}
	ukt_img_set(img, 16, q2);
	ukt_img_set(img, 24, ((uint64_t)addl << 38) | ((uint64_t)pol << 63));
	img->quanta = 1;
}

void ukt_expect_nop(struct ukt_img *img, bool signaled, uint8_t pol)
{
	memset(img, 0, sizeof(*img));
	ukt_img_set(img, 0, 0);
	ukt_img_set(img, 8, 0);
	ukt_img_set(img, 16, 0);
	ukt_img_set(img, 24, (0x0cull << 32) | ((uint64_t)signaled << 62) | ((uint64_t)pol << 63));
	img->quanta = 1;
}

int ukt_img_diff(const struct ukt_img *img, const void *mem)
{
	for (int i = 0; i < 32; i++)
		if ((img->written & (1u << i)) && ukt_get64(mem, 8u * i) != img->q[i])
			return i;
	return -1;
}

void ukt_hw_sq_done(struct ukt_cq *cq, struct ukt_qp *t, uint32_t wqe_idx, uint32_t opcode)
{
	struct ukt_cqe c;

	ukt_cqe_sq(&c, &t->qp, t->qp.qp_id, wqe_idx, opcode);
	ukt_cq_hw_write(cq, &c);
}

const char *const ukt_kind_name[UKT_KINDS] = {
	"send", "send_inv", "write", "read", "read_inv", "inline_send", "inline_write",
	"nop", "local_inv", "bind", "faa", "cas",
};

static uint8_t ukt_inline_src[256];

uint32_t ukt_wr_sges(const struct ukt_wr *wr, struct irdma_sge *sg)
{
	uint32_t total = 0;

	if (wr->kind == UKT_INLINE_SEND || wr->kind == UKT_INLINE_WRITE) {
		uint32_t left = wr->inline_len, off = 0;

		if (!ukt_inline_src[1])
			for (int i = 0; i < 256; i++)
				ukt_inline_src[i] = (uint8_t)(i * 7 + 1);
		for (uint32_t k = 0; k < wr->nsge; k++) {
			uint32_t len = k + 1 == wr->nsge ? left : left / (wr->nsge - k);

			sg[k] = (struct irdma_sge){ .addr = (uintptr_t)&ukt_inline_src[off],
						    .length = len, .lkey = 0 };
			off += len;
			left -= len;
		}
		return wr->inline_len;
	}
	for (uint32_t k = 0; k < wr->nsge; k++) {
		sg[k] = (struct irdma_sge){ .addr = 0x2000000000ull + 0x1000ull * k + (wr->wr_id & 0xfff),
					    .length = 64u * (k + 1) + (uint32_t)(wr->wr_id & 0x3f),
					    .lkey = 0xb0000u + k };
		total += sg[k].length;
	}
	return total;
}

uint32_t ukt_wr_opcode(const struct ukt_wr *wr)
{
	switch (wr->kind) {
	case UKT_SEND:
	case UKT_INLINE_SEND:
		return 0x03;
	case UKT_SEND_INV:
		return 0x04;
	case UKT_WRITE:
	case UKT_INLINE_WRITE:
		return 0x00;
	case UKT_READ:
		return 0x01;
	case UKT_READ_INV:
		return 0x0b;
	case UKT_NOP:
		return 0x0c;
	case UKT_LOCAL_INV:
		return 0x0a;
	case UKT_BIND:
		return 0x08;
	case UKT_FAA:
		return 0x0f;
	case UKT_CAS:
		return 0x11;
	default:
		return 0x3f;
	}
}

/* Which posts pre-clear with irdma_clr_wqes: all but the atomics
 * (doc/spec/irdma-uk.md §3.3, §5 step 4). */
bool ukt_wr_clears(const struct ukt_wr *wr)
{
	return wr->kind != UKT_FAA && wr->kind != UKT_CAS;
}

uint32_t ukt_wr_len(const struct ukt_wr *wr)
{
	struct irdma_sge sg[16];

	switch (wr->kind) {
	case UKT_SEND:
	case UKT_SEND_INV:
	case UKT_WRITE:
	case UKT_READ:
	case UKT_READ_INV:
	case UKT_INLINE_SEND:
	case UKT_INLINE_WRITE:
		return ukt_wr_sges(wr, sg);
	default:
		return 0;
	}
}

int ukt_post(struct ukt_qp *t, const struct ukt_wr *wr, bool post_sq)
{
	struct irdma_post_sq_info info;
	struct irdma_sge sg[16];

	memset(&info, 0, sizeof(info));
	info.wr_id = wr->wr_id;
	info.signaled = wr->signaled;
	info.op_type = (uint8_t)ukt_wr_opcode(wr);
	ukt_wr_sges(wr, sg);
	switch (wr->kind) {
	case UKT_SEND:
	case UKT_SEND_INV:
	case UKT_INLINE_SEND:
		info.op.send.sg_list = sg;
		info.op.send.num_sges = wr->nsge;
		info.imm_data_valid = wr->imm;
		info.imm_data = 0x1d000000u | (uint32_t)(wr->wr_id & 0xffff);
		if (wr->kind == UKT_SEND_INV)
			info.stag_to_inv = 0x3300u + (uint32_t)(wr->wr_id & 0xff);
		if (wr->kind == UKT_INLINE_SEND)
			return irdma_uk_inline_send(&t->qp, &info, post_sq);
		return irdma_uk_send(&t->qp, &info, post_sq);
	case UKT_WRITE:
	case UKT_INLINE_WRITE:
		info.op.rdma_write.lo_sg_list = sg;
		info.op.rdma_write.num_lo_sges = wr->nsge;
		info.op.rdma_write.rem_addr.addr = 0x7f0000000000ull + wr->wr_id;
		info.op.rdma_write.rem_addr.lkey = 0x4400u;
		info.imm_data_valid = wr->imm;
		info.imm_data = 0x1e000000u | (uint32_t)(wr->wr_id & 0xffff);
		if (wr->kind == UKT_INLINE_WRITE)
			return irdma_uk_inline_rdma_write(&t->qp, &info, post_sq);
		return irdma_uk_rdma_write(&t->qp, &info, post_sq);
	case UKT_READ:
	case UKT_READ_INV:
		info.op.rdma_read.lo_sg_list = sg;
		info.op.rdma_read.num_lo_sges = wr->nsge;
		info.op.rdma_read.rem_addr.addr = 0x7e0000000000ull + wr->wr_id;
		info.op.rdma_read.rem_addr.lkey = 0x4500u;
		return irdma_uk_rdma_read(&t->qp, &info, wr->kind == UKT_READ_INV, post_sq);
	case UKT_NOP:
		return irdma_nop(&t->qp, wr->wr_id, wr->signaled, post_sq);
	case UKT_LOCAL_INV:
		info.op.inv_local_stag.target_stag = 0x6600u + (uint32_t)(wr->wr_id & 0xff);
		return irdma_uk_stag_local_invalidate(&t->qp, &info, post_sq);
	case UKT_BIND:
		info.op.bind_window.mr_stag = 0x7700;
		info.op.bind_window.mw_stag = 0x7801;
		info.op.bind_window.bind_len = 0x10000;
		info.op.bind_window.va = (void *)(uintptr_t)0x123000;
		info.op.bind_window.addressing_type = IRDMA_ADDR_TYPE_VA_BASED;
		info.op.bind_window.ena_reads = true;
		info.op.bind_window.ena_writes = (wr->wr_id & 1) != 0;
		return irdma_uk_mw_bind(&t->qp, &info, post_sq);
	case UKT_FAA:
		info.op.atomic_fetch_add.tagged_offset = 0x2100000000ull;
		info.op.atomic_fetch_add.remote_tagged_offset = 0x7d0000000000ull;
		info.op.atomic_fetch_add.fetch_add_data_bytes = wr->wr_id;
		info.op.atomic_fetch_add.stag = 0x4600;
		info.op.atomic_fetch_add.remote_stag = 0x4700;
		return irdma_uk_atomic_fetch_add(&t->qp, &info, post_sq);
	case UKT_CAS:
		info.op.atomic_compare_swap.tagged_offset = 0x2200000000ull;
		info.op.atomic_compare_swap.remote_tagged_offset = 0x7c0000000000ull;
		info.op.atomic_compare_swap.swap_data_bytes = wr->wr_id;
		info.op.atomic_compare_swap.compare_data_bytes = ~wr->wr_id;
		info.op.atomic_compare_swap.stag = 0x4800;
		info.op.atomic_compare_swap.remote_stag = 0x4900;
		return irdma_uk_atomic_compare_swap(&t->qp, &info, post_sq);
	default:
		return -EINVAL;
	}
}

uint32_t ukt_wr_quanta(int gen, const struct ukt_wr *wr)
{
	switch (wr->kind) {
	case UKT_SEND:
	case UKT_SEND_INV:
	case UKT_WRITE:
		return ukm_frag_quanta(wr->nsge + (wr->imm ? 1 : 0));
	case UKT_READ:
	case UKT_READ_INV:
		return ukm_frag_quanta(wr->nsge);
	case UKT_INLINE_SEND:
	case UKT_INLINE_WRITE:
		return ukm_inline_quanta(gen, wr->inline_len);
	case UKT_FAA:
	case UKT_CAS:
		return 2;
	default:
		return 1;
	}
}
