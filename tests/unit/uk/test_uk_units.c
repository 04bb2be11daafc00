/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/uk's helpers (the functions the kernel keeps static) and of the places where lib/uk
 * follows the newest kernel rather than the golden vectors' rdma-core behaviour. Expected values come from
 * the format rules of doc/spec/irdma-uk.md, written out independently here.
 */
#include <errno.h>
#include <stdlib.h>

#include "irdma_test.h"
#include "irdma_user.h"
#include "uk_internal.h"

static const struct irdma_uk_attrs gen_attrs[4] = {
	[1] = { .hw_rev = 1, .max_hw_wq_frags = 3, .max_hw_read_sges = 1, .max_hw_inline = 48,
		.max_hw_rq_quanta = 16384, .max_hw_wq_quanta = 2048, .max_hw_sq_chunk = 2, .min_hw_wq_size = 4,
		.max_hw_cq_size = 1048575, .min_hw_cq_size = 1 },
	[2] = { .hw_rev = 2, .max_hw_wq_frags = 13, .max_hw_read_sges = 13, .max_hw_inline = 101,
		.max_hw_rq_quanta = 32768, .max_hw_wq_quanta = 32768, .max_hw_sq_chunk = 8, .min_hw_wq_size = 8,
		.feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE, .max_hw_cq_size = 1048575,
		.min_hw_cq_size = 1 },
	[3] = { .hw_rev = 3, .max_hw_wq_frags = 14, .max_hw_read_sges = 14, .max_hw_inline = 216,
		.max_hw_rq_quanta = 32768, .max_hw_wq_quanta = 32768, .max_hw_sq_chunk = 8, .min_hw_wq_size = 16,
		.max_hw_srq_quanta = 262144, .max_hw_cq_size = 1048575, .min_hw_cq_size = 1,
		.feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE | IRDMA_FEATURE_64_BYTE_CQE |
				 IRDMA_FEATURE_ATOMIC_OPS | IRDMA_FEATURE_SRQ | IRDMA_FEATURE_CQE_TIMESTAMPING },
};

static uint64_t q(const void *buf, unsigned int idx)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)buf + 8 * idx, 8);
	return v;
}

/* ---- fragments ---- */

T_CASE(set_fragment_gen2)
{
	uint64_t wqe[8];
	struct irdma_sge sge = { 0x123456789abcdef0ULL, 0x7fffffff, 0xcafef00d };

	memset(wqe, 0x5a, sizeof(wqe));
	irdma_set_fragment(wqe, 32, &sge, 1);
	T_EQ(q(wqe, 4), 0x123456789abcdef0ULL);
	T_EQ(q(wqe, 5), 0xffffffffcafef00dULL); /* valid | length 0x7fffffff | STag */
	T_EQ(q(wqe, 3), 0x5a5a5a5a5a5a5a5aULL);
	T_EQ(q(wqe, 6), 0x5a5a5a5a5a5a5a5aULL);
	irdma_set_fragment(wqe, 0, &sge, 0);
	T_EQ(q(wqe, 1), 0x7fffffffcafef00dULL);
	/* the length field is 31 bits: bit 31 of the length must not reach the valid bit */
	sge.length = 0xffffffff;
	irdma_set_fragment(wqe, 0, &sge, 0);
	T_EQ(q(wqe, 1) >> 63, 0);
	irdma_set_fragment(wqe, 16, NULL, 1);
	T_EQ(q(wqe, 2), 0);
	T_EQ(q(wqe, 3), 0x8000000000000000ULL);
	irdma_set_fragment(wqe, 16, NULL, 0);
	T_EQ(q(wqe, 3), 0);
}

T_CASE(set_fragment_gen1)
{
	uint64_t wqe[4];
	struct irdma_sge sge = { 0x1000000000ULL, 0x100, 0xa0000 };

	memset(wqe, 0x5a, sizeof(wqe));
	irdma_set_fragment_gen_1(wqe, 0, &sge, 1);
	T_EQ(q(wqe, 0), 0x1000000000ULL);
	T_EQ(q(wqe, 1), 0x000a000000000100ULL); /* STag high, length low, no valid bit */
	T_EQ(q(wqe, 2), 0x5a5a5a5a5a5a5a5aULL);
	irdma_set_fragment_gen_1(wqe, 16, NULL, 1);
	T_EQ(q(wqe, 2), 0);
	T_EQ(q(wqe, 3), 0);
}

/* ---- memory-window bind bodies ---- */

T_CASE(mw_bind_both_gens)
{
	struct irdma_bind_window bw = { .mr_stag = 0x111100, .mw_stag = 0x222201, .bind_len = 0x123456789ULL,
					.va = (void *)(uintptr_t)0x7f0000006000ULL };
	uint64_t wqe[4];

	memset(wqe, 0x5a, sizeof(wqe));
	irdma_set_mw_bind_wqe(wqe, &bw);
	T_EQ(q(wqe, 0), 0x7f0000006000ULL);
	T_EQ(q(wqe, 1), 0x0011110000222201ULL);
	T_EQ(q(wqe, 2), 0x123456789ULL);
	T_EQ(q(wqe, 3), 0x5a5a5a5a5a5a5a5aULL);
	irdma_set_mw_bind_wqe_gen_1(wqe, &bw);
	T_EQ(q(wqe, 1), 0x0022220100111100ULL);
	T_EQ(q(wqe, 0), 0x7f0000006000ULL);
	T_EQ(q(wqe, 2), 0x123456789ULL);
}

/* ---- inline data ---- */

/* GEN_2/3 placement of logical byte n, from doc/spec/irdma-uk.md §3.4: 8 bytes at 8..15,
 * then 31 per quantum. */
static unsigned int model_off_gen2(unsigned int n)
{
	return n < 8 ? 8 + n : 32 + 32 * ((n - 8) / 31) + (n - 8) % 31;
}

static void check_inline_gen2(unsigned int len, const unsigned int *split, unsigned int nsplit, uint8_t pol)
{
	uint8_t src[256], wqe[256], want[256];
	struct irdma_sge sges[4];
	unsigned int i, off = 0, quanta;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(0x30 + i * 7);
	for (i = 0; i < nsplit; i++) {
		sges[i] = (struct irdma_sge){ (uintptr_t)(src + off), split[i], 0 };
		off += split[i];
	}
	T_EQ(off, len);
	memset(wqe, 0xa5, sizeof(wqe));
	memset(want, 0xa5, sizeof(want));
	for (i = 0; i < len; i++)
		want[model_off_gen2(i)] = src[i];
	/* every quantum after the header that holds data carries the valid byte */
	quanta = len <= 8 ? 1 : 1 + (len - 8 + 30) / 31;
	for (i = 1; i < quanta; i++)
		want[32 * i + 31] = (uint8_t)(pol << 7);
	irdma_copy_inline_data(wqe, sges, nsplit, pol);
	T_MEMEQ(wqe, want, sizeof(want));
	T_EQ(irdma_inline_data_size_to_quanta(len), quanta);
	if (t_case_failures)
		printf("# ^ len %u in %u SGEs, polarity %u\n", len, nsplit, pol);
}

T_CASE(copy_inline_gen2_every_size)
{
	unsigned int len, a, b;

	for (len = 0; len <= 216 && !t_case_failures; len++) {
		unsigned int one[1] = { len };

		check_inline_gen2(len, one, 1, 1);
		check_inline_gen2(len, one, 1, 0);
		a = len / 3;
		b = len / 2 - a / 2;
		{
			unsigned int three[3] = { a, b, len - a - b };

			check_inline_gen2(len, three, 3, 1);
		}
	}
}

T_CASE(copy_inline_gen1)
{
	uint8_t src[64], wqe[64], want[64];
	struct irdma_sge sges[2];
	unsigned int len, i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i + 1);
	for (len = 0; len <= 48; len++) {
		unsigned int first = len / 3;

		sges[0] = (struct irdma_sge){ (uintptr_t)src, first, 0 };
		sges[1] = (struct irdma_sge){ (uintptr_t)(src + first), len - first, 0 };
		memset(wqe, 0xa5, sizeof(wqe));
		memset(want, 0xa5, sizeof(want));
		for (i = 0; i < len; i++)
			want[i < 16 ? i : i + 16] = src[i];
		irdma_copy_inline_data_gen_1(wqe, sges, 2, 1);
		T_MEMEQ(wqe, want, sizeof(want));
		T_EQ(irdma_inline_data_size_to_quanta_gen_1(len), len <= 16 ? 1 : 2);
	}
}

T_CASE(inline_size_to_quanta_tables)
{
	static const uint32_t sizes[] = { 0, 8, 9, 39, 40, 70, 71, 101, 102, 132, 133, 163, 164, 194, 195, 216 };
	static const uint16_t quanta[] = { 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8 };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		T_EQ(irdma_inline_data_size_to_quanta(sizes[i]), quanta[i]);
	/* beyond any hardware limit the answer stays at the largest WQE */
	T_EQ(irdma_inline_data_size_to_quanta(217), 8);
	T_EQ(irdma_inline_data_size_to_quanta(100000), 8);
	T_EQ(irdma_inline_data_size_to_quanta(UINT32_MAX), 8);
	T_EQ(irdma_inline_data_size_to_quanta_gen_1(16), 1);
	T_EQ(irdma_inline_data_size_to_quanta_gen_1(17), 2);
	T_EQ(irdma_inline_data_size_to_quanta_gen_1(UINT32_MAX), 2);
}

/* ---- sizing ---- */

T_CASE(fragcnt_tables)
{
	uint32_t n;

	for (n = 0; n < 40; n++) {
		uint16_t quanta = 0xbeef, size = 0xbeef;
		int r1 = irdma_fragcnt_to_quanta_sq(n, &quanta);
		int r2 = irdma_fragcnt_to_wqesize_rq(n, &size);

		if (n <= 15) {
			T_EQ(r1, 0);
			T_EQ(quanta, n <= 1 ? 1 : 1 + n / 2);
		} else {
			T_EQ(r1, -EINVAL);
			T_EQ(quanta, 0xbeef);
		}
		if (n <= 14) {
			T_EQ(r2, 0);
			T_EQ(size, n <= 1 ? 32 : n <= 3 ? 64 : n <= 7 ? 128 : 256);
		} else {
			T_EQ(r2, -EINVAL);
			T_EQ(size, 0xbeef);
		}
	}
	T_EQ(irdma_fragcnt_to_quanta_sq(UINT32_MAX, &(uint16_t){ 0 }), -EINVAL);
}

T_CASE(get_wqe_shift_exhaustive)
{
	uint32_t sge, inl;
	unsigned int gen;

	for (gen = 1; gen <= 3; gen++) {
		struct irdma_uk_attrs a = gen_attrs[gen];

		for (sge = 0; sge <= 20; sge++)
			for (inl = 0; inl <= 260; inl++) {
				uint8_t shift = 0xff, want;

				if (gen == 1)
					want = (sge <= 1 && inl <= 16) ? 0 : (sge < 4 && inl <= 48) ? 1 : 2;
				else
					want = (sge <= 1 && inl <= 8) ? 0 : (sge < 4 && inl <= 39) ? 1 :
					       (sge < 8 && inl <= 101) ? 2 : 3;
				irdma_get_wqe_shift(&a, sge, inl, &shift);
				T_EQ(shift, want);
			}
	}
}

T_CASE(round_up_wq_values)
{
	uint64_t n;

	T_EQ(irdma_round_up_wq(1), 1);
	T_EQ(irdma_round_up_wq(2), 2);
	T_EQ(irdma_round_up_wq(3), 4);
	T_EQ(irdma_round_up_wq(258), 512);
	T_EQ(irdma_round_up_wq(512), 512);
	T_EQ(irdma_round_up_wq(513), 1024);
	T_EQ(irdma_round_up_wq(0x80000001ULL), 0x100000000ULL);
	T_EQ(irdma_round_up_wq(0x100000001ULL), 0x200000000ULL); /* 64-bit: no wrap at 2^32 */
	T_EQ(irdma_round_up_wq(0), 0);
	for (n = 1; n < 70000; n++) {
		uint64_t r = irdma_round_up_wq(n);

		T_CHECK(r >= n && r < 2 * n + 1 && !(r & (r - 1)));
		if (t_case_failures)
			break;
	}
}

T_CASE(depth_functions)
{
	struct irdma_uk_attrs g1 = gen_attrs[1], g2 = gen_attrs[2], g3 = gen_attrs[3];
	uint32_t d = 0;

	T_EQ(irdma_get_sqdepth(&g2, 0, 0, &d), 0);
	T_EQ(d, 512);
	T_EQ(irdma_get_sqdepth(&g2, 254, 0, &d), 0);
	T_EQ(d, 512);
	T_EQ(irdma_get_sqdepth(&g2, 255, 0, &d), 0);
	T_EQ(d, 1024);
	T_EQ(irdma_get_sqdepth(&g2, 4095, 3, &d), -EINVAL);
	T_EQ(irdma_get_sqdepth(&g1, 1024, 0, &d), 0);
	T_EQ(d, 2048);
	T_EQ(irdma_get_sqdepth(&g1, 1024, 1, &d), -EINVAL);
	T_EQ(irdma_get_rqdepth(&g2, 1, 3, &d), 0);
	T_EQ(d, 64); /* min clamp 8 << 3 */
	T_EQ(irdma_get_rqdepth(&g3, 15, 0, &d), 0);
	T_EQ(d, 16);
	T_EQ(irdma_get_rqdepth(&g2, 32768, 0, &d), -EINVAL);
	T_EQ(irdma_get_srqdepth(&g3, 32767, 3, &d), 0);
	T_EQ(d, 262144);
	T_EQ(irdma_get_srqdepth(&g3, 32768, 3, &d), -EINVAL);
}

/* Kernel 2026 hardening: size << shift in 64 bits. rdma-core (and the vector file's arithmetic) wraps
 * 0x80000000 << 1 to 0, giving a tiny 512-quanta SQ for a huge request. */
T_CASE(depth_hardening)
{
	struct irdma_uk_attrs g2 = gen_attrs[2], g3 = gen_attrs[3];
	struct irdma_qp_uk_init_info ui = { .uk_attrs = &g2, .max_sq_frag_cnt = 1, .max_rq_frag_cnt = 2 };
	uint32_t d = 0xdeadbeef;
	uint8_t shift;

	T_EQ(irdma_get_sqdepth(&g2, 0x80000000u, 1, &d), -EINVAL);
	T_EQ(irdma_get_sqdepth(&g2, 0x80000000u, 3, &d), -EINVAL);
	T_EQ(irdma_get_rqdepth(&g2, 0x80000000u, 1, &d), -EINVAL);
	T_EQ(irdma_get_rqdepth(&g2, UINT32_MAX, 0, &d), -EINVAL); /* + 1 would wrap to 0 in 32 bits */
	T_EQ(irdma_get_srqdepth(&g3, 0x40000000u, 2, &d), -EINVAL);
	T_EQ(d, 0xdeadbeef);
	ui.sq_size = 0x80000000u;
	ui.rq_size = 0x80000000u;
	T_EQ(irdma_uk_calc_depth_shift_sq(&ui, &d, &shift), -EINVAL);
	T_EQ(shift, 1);
	T_EQ(irdma_uk_calc_depth_shift_rq(&ui, &d, &shift), -EINVAL);
	T_EQ(shift, 1);
}

/* Kernel >= 6.19 CQ sizing (doc/spec/irdma-uk.md §6.4 examples 63-65); rdma-core still uses
 * cqe + 1 without the page rule (its examples: cqe 63 on GEN_2 -> 128, cqe 62 on GEN_3 -> 64). */
T_CASE(calc_cq_size)
{
	struct irdma_uk_attrs g1 = gen_attrs[1], g2 = gen_attrs[2], g3 = gen_attrs[3];
	uint32_t n = 0;

	T_EQ(irdma_uk_calc_cq_size(&g2, 62, false, &n), 0);
	T_EQ(n, 130); /* 64 x 2 = 128 slots x 32 B = one page: + 2 */
	T_EQ(irdma_uk_calc_cq_size(&g3, 62, true, &n), 0);
	T_EQ(n, 66);  /* 64 x 64 B = one page: + 2 */
	T_EQ(irdma_uk_calc_cq_size(&g2, 1, false, &n), 0);
	T_EQ(n, 6);
	T_EQ(irdma_uk_calc_cq_size(&g1, 1, false, &n), 0);
	T_EQ(n, 4);   /* GEN_1 does not double; minimum 4 */
	T_EQ(irdma_uk_calc_cq_size(&g2, 63, false, &n), 0);
	T_EQ(n, 130);
	T_EQ(irdma_uk_calc_cq_size(&g3, 2, true, &n), 0);
	T_EQ(n, 4);
	T_EQ(irdma_uk_calc_cq_size(&g2, 0, false, &n), -EINVAL);
	T_EQ(irdma_uk_calc_cq_size(&g2, 1048575, false, &n), -EINVAL);
	T_EQ(irdma_uk_calc_cq_size(&g2, 1048574, false, &n), 0);
	T_EQ(n, 2 * 1048576);
}

T_CASE(calc_shift_wq)
{
	struct irdma_uk_attrs g1 = gen_attrs[1], g2 = gen_attrs[2];
	struct irdma_qp_uk_init_info ui = { .uk_attrs = &g2, .max_sq_frag_cnt = 3, .max_rq_frag_cnt = 3,
					    .max_inline_data = 39, .abi_ver = 5 };
	uint8_t sq = 0xff, rq = 0xff;

	irdma_uk_calc_shift_wq(&ui, &sq, &rq);
	T_EQ(sq, 2); /* GEN_2 counts the immediate slot: 4 fragments */
	T_EQ(rq, 1);
	ui.uk_attrs = &g1;
	ui.max_inline_data = 16;
	irdma_uk_calc_shift_wq(&ui, &sq, &rq);
	T_EQ(sq, 1);
	T_EQ(rq, 2); /* GEN_1 RQ WQEs are 128 bytes */
	ui.abi_ver = 4;
	irdma_uk_calc_shift_wq(&ui, &sq, &rq);
	T_EQ(rq, 1);
}

/* ---- a small QP for the ring-level helpers ---- */

struct uqp {
	struct irdma_uk_attrs attrs;
	struct irdma_qp_uk qp;
	struct irdma_qp_quanta *sq, *rq;
	struct irdma_sq_uk_wr_trk_info trk[1024];
	uint64_t rq_wrid[1024];
	uint64_t shadow[8];
	uint32_t db;
};

static struct uqp *uqp_new(unsigned int gen, uint8_t first_sq_wq, bool legacy)
{
	struct uqp *u = calloc(1, sizeof(*u));
	struct irdma_qp_uk_init_info ui = { 0 };

	u->attrs = gen_attrs[gen];
	u->sq = aligned_alloc(4096, 512 * 32);
	u->rq = aligned_alloc(4096, 4096);
	memset(u->sq, 0, 512 * 32);
	memset(u->rq, 0, 64 * 32);
	ui.uk_attrs = &u->attrs;
	ui.sq = u->sq;
	ui.rq = u->rq;
	ui.sq_wrtrk_array = u->trk;
	ui.rq_wrid_array = u->rq_wrid;
	ui.shadow_area = u->shadow;
	ui.wqe_alloc_db = &u->db;
	ui.qp_id = 77;
	ui.sq_size = 512;
	ui.sq_shift = 0;
	ui.rq_size = 16;
	ui.rq_shift = 2;
	ui.max_sq_frag_cnt = 1;
	ui.max_rq_frag_cnt = 3;
	ui.max_inline_data = 0;
	ui.first_sq_wq = first_sq_wq;
	ui.legacy_mode = legacy;
	ui.type = first_sq_wq ? IRDMA_QP_TYPE_IWARP : IRDMA_QP_TYPE_ROCE_RC;
	T_EQ(irdma_uk_qp_init(&u->qp, &ui), 0);
	return u;
}

static void uqp_free(struct uqp *u)
{
	free(u->sq);
	free(u->rq);
	free(u);
}

T_CASE(nop_and_nop_1)
{
	struct uqp *u = uqp_new(2, 0, false);
	uint8_t zero[32] = { 0 };

	T_EQ(irdma_nop_1(&u->qp), -EINVAL); /* padding never starts a pass */
	T_MEMEQ(u->sq, zero, 32);
	T_EQ(irdma_nop(&u->qp, 0x77, true, true), 0);
	T_EQ(u->db, 77);
	T_EQ(q(u->sq, 3), 0xc000000c00000000ULL);
	T_EQ(q(u->sq, 0) | q(u->sq, 1) | q(u->sq, 2), 0);
	T_EQ(u->trk[0].wrid, 0x77);
	T_EQ(u->trk[0].quanta, 1);
	T_EQ(u->trk[0].signaled, 1);
	u->db = 0;
	T_EQ(irdma_nop(&u->qp, 0x78, false, false), 0);
	T_EQ(u->db, 0);
	T_EQ(q(u->sq[1].elem, 3), 0x8000000c00000000ULL);
	/* nop_1 writes at the head without moving it and leaves wr_id/len as they were */
	u->trk[2].wrid = 0xabc;
	u->trk[2].wr_len = 99;
	memset(&u->sq[2], 0xff, 32);
	T_EQ(irdma_nop_1(&u->qp), 0);
	T_EQ(u->qp.sq_ring.head, 2);
	T_EQ(u->trk[2].quanta, 1);
	T_EQ(u->trk[2].wrid, 0xabc);
	T_EQ(u->trk[2].wr_len, 99);
	T_EQ(q(u->sq[2].elem, 3), 0x8000000c00000000ULL);
	T_EQ(q(u->sq[2].elem, 0) | q(u->sq[2].elem, 1) | q(u->sq[2].elem, 2), 0);
	uqp_free(u);
}

static bool all_bytes(const void *p, size_t n, uint8_t v)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != v)
			return false;
	return true;
}

T_CASE(clr_wqes_rules)
{
	struct uqp *u = uqp_new(2, 0, false);

	memset(u->sq, 0x33, 512 * 32);
	irdma_clr_wqes(&u->qp, 1);         /* not a block start: nothing */
	irdma_clr_wqes(&u->qp, 130);
	T_CHECK(all_bytes(u->sq, 512 * 32, 0x33));

	u->qp.swqe_polarity = 1;
	irdma_clr_wqes(&u->qp, 0);         /* target 128, current pass, polarity 1 -> 0x00 */
	T_CHECK(all_bytes(&u->sq[128], 128 * 32, 0x00));
	T_CHECK(all_bytes(&u->sq[0], 128 * 32, 0x33));
	T_CHECK(all_bytes(&u->sq[256], 256 * 32, 0x33));
	irdma_clr_wqes(&u->qp, 384);       /* target 0: next pass flips the polarity -> 0xff */
	T_CHECK(all_bytes(&u->sq[0], 128 * 32, 0xff));
	u->qp.swqe_polarity = 0;
	irdma_clr_wqes(&u->qp, 128);       /* target 256, polarity 0 -> 0xff */
	T_CHECK(all_bytes(&u->sq[256], 128 * 32, 0xff));
	irdma_clr_wqes(&u->qp, 384);       /* target 0, polarity 0 -> 0x00 */
	T_CHECK(all_bytes(&u->sq[0], 128 * 32, 0x00));
	uqp_free(u);
}

T_CASE(setup_connection_wqes)
{
	struct uqp *u = uqp_new(2, 1, false); /* GEN_2 has RTS_AE: 3 connection WQEs */

	T_EQ(u->qp.conn_wqes, 3);
	T_EQ(u->qp.sq_ring.head, 3);
	T_EQ(u->qp.sq_ring.tail, 3);
	T_EQ(u->qp.swqe_polarity, 1);
	T_CHECK(u->qp.first_sq_wq);
	uqp_free(u);
	u = uqp_new(2, 1, true);              /* legacy ABI: 1 */
	T_EQ(u->qp.conn_wqes, 1);
	T_EQ(u->qp.sq_ring.head, 1);
	uqp_free(u);
	u = uqp_new(1, 1, false);             /* GEN_1 has no RTS_AE: 1 */
	T_EQ(u->qp.conn_wqes, 1);
	T_EQ(u->qp.sq_ring.tail, 1);
	/* the helper itself on an initialised QP */
	u->qp.sq_ring.head = u->qp.sq_ring.tail = 0;
	{
		struct irdma_qp_uk_init_info ui = { .legacy_mode = false };

		u->attrs.feature_flags = IRDMA_FEATURE_RTS_AE;
		irdma_setup_connection_wqes(&u->qp, &ui);
		T_EQ(u->qp.conn_wqes, 3);
		T_EQ(u->qp.sq_ring.head, 3);
		T_EQ(u->qp.sq_ring.tail, 3);
	}
	uqp_free(u);
	u = uqp_new(2, 0, false);
	T_EQ(u->qp.conn_wqes, 0);
	T_EQ(u->qp.swqe_polarity, 0);
	T_EQ(u->qp.sq_ring.head, 0);
	uqp_free(u);
}

T_CASE(qp_init_rejects)
{
	struct uqp *u = uqp_new(2, 0, false);
	struct irdma_qp_uk_init_info ui = { .uk_attrs = &u->attrs, .sq = u->sq, .rq = u->rq, .sq_size = 512,
					    .rq_size = 16, .rq_shift = 2, .max_sq_frag_cnt = 13,
					    .max_rq_frag_cnt = 13, .max_inline_data = 101,
					    .sq_wrtrk_array = u->trk, .rq_wrid_array = u->rq_wrid };
	struct irdma_qp_uk qp;

	T_EQ(irdma_uk_qp_init(&qp, &ui), 0);
	ui.max_sq_frag_cnt = 14;
	T_EQ(irdma_uk_qp_init(&qp, &ui), -EINVAL);
	ui.max_sq_frag_cnt = 13;
	ui.max_rq_frag_cnt = 14;
	T_EQ(irdma_uk_qp_init(&qp, &ui), -EINVAL);
	ui.max_rq_frag_cnt = 13;
	ui.max_inline_data = 102;
	T_EQ(irdma_uk_qp_init(&qp, &ui), -EINVAL);
	ui.max_inline_data = 101;
	ui.sq_size = 200; /* not a multiple of the 128-quanta pre-clear block */
	T_EQ(irdma_uk_qp_init(&qp, &ui), -EINVAL);
	ui.sq_size = 256; /* not larger than the 257 reserved quanta */
	T_EQ(irdma_uk_qp_init(&qp, &ui), -EINVAL);
	ui.sq_size = 512;
	ui.uk_attrs = NULL;
	T_EQ(irdma_uk_qp_init(&qp, &ui), -EINVAL);
	uqp_free(u);
}

/* ---- CQ: kernel behaviours the golden vectors do not reach ---- */

struct ucq {
	struct irdma_cq_uk cq;
	uint64_t *ring;
	uint64_t shadow[8];
	uint32_t db;
	unsigned int stride; /* qwords per slot */
};

static void ucq_init(struct ucq *c, uint32_t size, bool cqe64)
{
	struct irdma_cq_uk_init_info ci = { 0 };

	memset(c, 0, sizeof(*c));
	c->stride = cqe64 ? 8 : 4;
	c->ring = calloc(size, c->stride * 8);
	ci.cq_base = (struct irdma_cqe *)c->ring;
	ci.cq_size = size;
	ci.cq_id = 9;
	ci.shadow_area = c->shadow;
	ci.cqe_alloc_db = &c->db;
	ci.avoid_mem_cflct = cqe64;
	irdma_uk_cq_init(&c->cq, &ci);
}

/* The "device": a CQE at slot idx of the given pass polarity. */
static void put_cqe(struct ucq *c, uint32_t idx, uint8_t pol, uint64_t q0, void *ctx, uint64_t q2, uint64_t q3)
{
	uint64_t *s = c->ring + (size_t)idx * c->stride;

	s[0] = q0;
	s[1] = (uintptr_t)ctx;
	s[2] = q2;
	s[3] = q3 | ((uint64_t)pol << 63);
}

static uint64_t sq_cqe(uint32_t wqe_idx, uint8_t op)
{
	return IRDMA_CQ_SQ | IRDMA_FIELD_PREP(IRDMA_CQ_WQEIDX, wqe_idx) | IRDMA_FIELD_PREP(IRDMACQ_OP, op);
}

/* Kernel 6.19 ("CQ size and shadow update changes for GEN3"): the consumer index is not published when
 * the new head is a multiple of 64 while CQEs are pending; it is once the CQ is empty there. */
T_CASE(cq_shadow_skip_at_64)
{
	struct uqp *u = uqp_new(3, 0, false);
	struct irdma_cq_poll_info info;
	struct ucq c;
	uint32_t i;

	ucq_init(&c, 130, true);
	for (i = 0; i < 66; i++) {
		T_EQ(irdma_nop(&u->qp, 0x100 + i, true, false), 0);
		put_cqe(&c, i, 1, 0, &u->qp, 0, sq_cqe(i, IRDMAQP_OP_NOP));
	}
	for (i = 0; i < 63; i++)
		T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(c.shadow[0], 63);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0); /* head 64, CQEs 64 and 65 pending */
	T_EQ(info.wr_id, 0x100 + 63);
	T_EQ(c.cq.cq_ring.head, 64);
	T_EQ(c.shadow[0], 63);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(c.shadow[0], 65);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(c.shadow[0], 66);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), -ENOENT);

	/* head reaching 128 with nothing pending: published */
	for (i = 66; i < 128; i++) {
		T_EQ(irdma_nop(&u->qp, 0x100 + i, true, false), 0);
		u->qp.sq_ring.tail = u->qp.sq_ring.head - 1;
		put_cqe(&c, i, 1, 0, &u->qp, 0, sq_cqe(i, IRDMAQP_OP_NOP));
		T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	}
	T_EQ(c.cq.cq_ring.head, 128);
	T_EQ(c.shadow[0], 128);
	T_CHECK(irdma_uk_cq_empty(&c.cq));
	free(c.ring);
	uqp_free(u);
}

/* Kernel 6.19 ("Silently consume unsignaled completions"): a success CQE for an unsignaled WQE is
 * consumed with -EFAULT and does not retire SQ entries; error completions are always reported. */
T_CASE(poll_unsignaled_consumed)
{
	struct uqp *u = uqp_new(2, 0, false);
	struct irdma_cq_poll_info info;
	struct ucq c;

	ucq_init(&c, 8, false);
	T_EQ(irdma_nop(&u->qp, 0xa1, false, false), 0);
	T_EQ(irdma_nop(&u->qp, 0xa2, true, false), 0);
	put_cqe(&c, 0, 1, 0, &u->qp, 0, sq_cqe(0, IRDMAQP_OP_NOP));
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), -EFAULT);
	T_EQ(c.cq.cq_ring.head, 1);
	T_EQ(u->qp.sq_ring.tail, 0);
	put_cqe(&c, 1, 1, 0, &u->qp, 0, sq_cqe(1, IRDMAQP_OP_NOP));
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.wr_id, 0xa2);
	T_EQ(u->qp.sq_ring.tail, 2);
	/* an unsignaled WQE that fails is reported */
	T_EQ(irdma_nop(&u->qp, 0xa3, false, false), 0);
	put_cqe(&c, 2, 1, 0, &u->qp, 0, sq_cqe(2, IRDMAQP_OP_NOP) | IRDMA_CQ_ERROR |
		IRDMA_FIELD_PREP(IRDMA_CQ_MAJERR, 0x8005) | IRDMA_FIELD_PREP(IRDMA_CQ_MINERR, 7));
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.wr_id, 0xa3);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_UNKNOWN);
	T_EQ(info.major_err, 0x8005);
	T_EQ(info.minor_err, 7);
	T_EQ(info.bytes_xfered, 0);
	free(c.ring);
	uqp_free(u);
}

T_CASE(ae_to_flush_codes)
{
	static const struct { uint16_t ae; enum irdma_flush_opcode fc; enum irdma_qp_event_type ev; } t[] = {
		{ IRDMA_AE_AMP_BOUNDS_VIOLATION, FLUSH_PROT_ERR, IRDMA_QP_EVENT_ACCESS_ERR },
		{ IRDMA_AE_PRIV_OPERATION_DENIED, FLUSH_PROT_ERR, IRDMA_QP_EVENT_ACCESS_ERR },
		{ IRDMA_AE_WQE_UNEXPECTED_OPCODE, FLUSH_LOC_QP_OP_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
		{ IRDMA_AE_UDA_L4LEN_INVALID, FLUSH_LOC_LEN_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
		{ IRDMA_AE_IB_REMOTE_ACCESS_ERROR, FLUSH_REM_ACCESS_ERR, IRDMA_QP_EVENT_ACCESS_ERR },
		{ IRDMA_AE_AMP_MWBIND_VALID_STAG, FLUSH_MW_BIND_ERR, IRDMA_QP_EVENT_ACCESS_ERR },
		{ IRDMA_AE_LLP_TOO_MANY_RETRIES, FLUSH_RETRY_EXC_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
		{ IRDMA_AE_IB_INVALID_REQUEST, FLUSH_REM_INV_REQ_ERR, IRDMA_QP_EVENT_REQ_ERR },
		{ IRDMA_AE_ROCE_RSP_LENGTH_ERROR, FLUSH_REM_OP_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
		{ IRDMA_AE_LLP_TOO_MANY_RNRS, FLUSH_RNR_RETRY_EXC_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
		{ IRDMA_AE_RCE_QP_CATASTROPHIC, FLUSH_FATAL_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
		{ 0x0001, FLUSH_GENERAL_ERR, IRDMA_QP_EVENT_CATASTROPHIC },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct qp_err_code e = irdma_ae_to_qp_err_code(t[i].ae);

		T_EQ(e.flush_code, t[i].fc);
		T_EQ(e.event_type, t[i].ev);
	}
}

/* GEN_3 SRQ flush: major 0xfffe carries an AE code that maps to the flush code; the QP context is in qword 5
 * and the wr_id in qword 1. Also: a flushed bind MW with PROT becomes MW_BIND (kernel GEN3 series). */
T_CASE(poll_srq_flush_and_bind_rewrite)
{
	struct uqp *u = uqp_new(3, 0, false);
	struct irdma_srq_uk srq;
	struct irdma_srq_uk_init_info si = { 0 };
	struct irdma_qp_quanta *srq_ring = aligned_alloc(4096, 4096);
	uint64_t srq_shadow[8] = { 0 };
	struct irdma_sge sge = { 0x1000, 64, 5 };
	struct irdma_post_rq_info ri = { .wr_id = 0x5151, .sg_list = &sge, .num_sges = 1 };
	struct irdma_post_sq_info bi = { .wr_id = 0xb1, .signaled = true };
	struct irdma_cq_poll_info info;
	irdma_uk_spinlock_t lock = IRDMA_UK_SPINLOCK_INITIALIZER;
	struct ucq c;
	uint64_t *s;

	memset(srq_ring, 0, 64 * 32);
	si.srq = srq_ring;
	si.uk_attrs = &u->attrs;
	si.shadow_area = srq_shadow;
	si.srq_size = 32;
	si.max_srq_frag_cnt = 1;
	si.lock = &lock;
	T_EQ(irdma_uk_srq_init(&srq, &si), 0);
	u->qp.srq_uk = &srq;
	T_EQ(irdma_uk_srq_post_receive(&srq, &ri), 0);
	T_EQ(irdma_uk_srq_post_receive(&srq, &ri), 0);
	T_EQ(srq_shadow[0], 2);

	ucq_init(&c, 8, true);
	s = c.ring;
	s[0] = 0;
	s[1] = 0x5151;
	s[2] = 0;
	s[5] = (uintptr_t)&u->qp;
	s[3] = IRDMA_CQ_VALID | IRDMA_CQ_SRQ | IRDMA_CQ_ERROR |
	       IRDMA_FIELD_PREP(IRDMA_CQ_MAJERR, IRDMA_SRQFLUSH_RSVD_MAJOR_ERR) |
	       IRDMA_FIELD_PREP(IRDMA_CQ_MINERR, IRDMA_AE_AMP_BAD_STAG_KEY);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
	T_EQ(info.minor_err, FLUSH_PROT_ERR);
	T_EQ(info.wr_id, 0x5151);
	T_EQ(info.q_type, IRDMA_CQE_QTYPE_RQ);
	T_CHECK(info.qp_handle == &u->qp);
	T_EQ(srq.srq_ring.tail, 1);
	T_EQ(IRDMA_FIELD_GET(IRDMA_CQ_MINERR, s[3]), FLUSH_GENERAL_ERR); /* rewritten for re-polls */
	T_EQ(c.cq.cq_ring.head, 1); /* GEN_3 advances */

	/* flushed bind MW with a protection error */
	bi.op.bind_window.mr_stag = 1;
	bi.op.bind_window.mw_stag = 2;
	T_EQ(irdma_uk_mw_bind(&u->qp, &bi, false), 0);
	put_cqe(&c, 1, 1, 0, &u->qp, 0, sq_cqe(0, 0) | IRDMA_CQ_ERROR |
		IRDMA_FIELD_PREP(IRDMA_CQ_MAJERR, IRDMA_FLUSH_MAJOR_ERR) |
		IRDMA_FIELD_PREP(IRDMA_CQ_MINERR, FLUSH_PROT_ERR));
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.op_type, IRDMA_OP_TYPE_BIND_MW);
	T_EQ(info.minor_err, FLUSH_MW_BIND_ERR);
	T_EQ(info.wr_id, 0xb1);
	T_CHECK(u->qp.sq_flush_complete);
	free(c.ring);
	free(srq_ring);
	uqp_free(u);
}

/* irdma_uk_clean_cq: CQEs of a destroyed QP lose their context and are consumed with -EFAULT; others stay. */
T_CASE(clean_cq_detaches_qp)
{
	struct uqp *a = uqp_new(2, 0, false), *b = uqp_new(2, 0, false);
	struct irdma_cq_poll_info info;
	struct ucq c;

	ucq_init(&c, 8, false);
	T_EQ(irdma_nop(&a->qp, 0xa, true, false), 0);
	T_EQ(irdma_nop(&b->qp, 0xb, true, false), 0);
	put_cqe(&c, 0, 1, 0, &a->qp, 0, sq_cqe(0, IRDMAQP_OP_NOP));
	put_cqe(&c, 1, 1, 0, &b->qp, 0, sq_cqe(0, IRDMAQP_OP_NOP));
	irdma_uk_clean_cq(&a->qp, &c.cq);
	T_EQ(c.ring[1], 0);
	T_EQ(c.ring[4 + 1], (uintptr_t)&b->qp);
	T_EQ(c.cq.cq_ring.head, 0);
	/* The kernel fills op_type only past the QP-context check: an -EFAULT leaves it alone. */
	info.op_type = 0x5a;
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), -EFAULT);
	T_EQ(info.op_type, 0x5a);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.op_type, IRDMAQP_OP_NOP);
	T_EQ(info.wr_id, 0xb);
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), -ENOENT);
	free(c.ring);
	uqp_free(a);
	uqp_free(b);
}

/* 32-byte mode: an extended CQE in the last slot has its extension in slot 0 of the next pass. */
T_CASE(poll_ext_cqe_across_wrap)
{
	struct uqp *u = uqp_new(2, 0, false);
	struct irdma_sge sge = { 0x1000, 64, 5 };
	struct irdma_post_rq_info ri = { .wr_id = 0x77, .sg_list = &sge, .num_sges = 1 };
	struct irdma_cq_poll_info info;
	struct ucq c;

	ucq_init(&c, 4, false);
	c.cq.cq_ring.head = c.cq.cq_ring.tail = 3;
	T_EQ(irdma_uk_post_receive(&u->qp, &ri), 0);
	put_cqe(&c, 3, 1, 64, &u->qp, 0, IRDMA_CQ_EXTCQE);
	/* extension not written yet (slot 0 still shows the old pass): not consumed */
	c.ring[3] = 1ULL << 63;
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), -ENOENT);
	T_EQ(c.cq.cq_ring.head, 3);
	/* the next pass writes valid = 0 */
	c.ring[0] = 0xfeedULL;
	c.ring[3] = IRDMA_CQ_IMMVALID;
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.imm_valid, 1);
	T_EQ(info.imm_data, 0xfeed);
	T_EQ(info.wr_id, 0x77);
	T_EQ(c.cq.cq_ring.head, 1);
	T_EQ(c.cq.polarity, 0);
	free(c.ring);
	uqp_free(u);
}

/* RoCE UD: an SQ error whose major code has the CIE signature is informational: success. */
T_CASE(poll_ud_cie_is_success)
{
	struct uqp *u = uqp_new(2, 0, false);
	struct irdma_cq_poll_info info;
	struct ucq c;

	u->qp.qp_type = IRDMA_QP_TYPE_ROCE_UD;
	ucq_init(&c, 8, false);
	T_EQ(irdma_nop(&u->qp, 0x1, true, false), 0);
	put_cqe(&c, 0, 1, 0, &u->qp, 0, sq_cqe(0, IRDMAQP_OP_NOP) | IRDMA_CQ_ERROR |
		IRDMA_FIELD_PREP(IRDMA_CQ_MAJERR, 0xe123) | IRDMA_FIELD_PREP(IRDMA_CQ_MINERR, 4));
	T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_EQ(info.error, 0);
	T_EQ(info.major_err, 0);
	T_EQ(info.minor_err, 0);
	free(c.ring);
	uqp_free(u);
}

/* GEN_2 RQ flush parks the CQ head while RQ entries remain; GEN_3 advances. */
T_CASE(poll_rq_flush_park_vs_advance)
{
	unsigned int gen;

	for (gen = 2; gen <= 3; gen++) {
		struct uqp *u = uqp_new(gen, 0, false);
		struct irdma_sge sge = { 0x1000, 64, 5 };
		struct irdma_post_rq_info ri = { .sg_list = &sge, .num_sges = 1 };
		struct irdma_cq_poll_info info;
		struct ucq c;

		ucq_init(&c, 8, gen == 3);
		ri.wr_id = 1;
		T_EQ(irdma_uk_post_receive(&u->qp, &ri), 0);
		ri.wr_id = 2;
		T_EQ(irdma_uk_post_receive(&u->qp, &ri), 0);
		put_cqe(&c, 0, 1, 0, &u->qp, 0, IRDMA_CQ_ERROR |
			IRDMA_FIELD_PREP(IRDMA_CQ_MAJERR, IRDMA_FLUSH_MAJOR_ERR) |
			IRDMA_FIELD_PREP(IRDMA_CQ_MINERR, FLUSH_GENERAL_ERR));
		T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
		T_EQ(info.wr_id, 1);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
		T_EQ(c.cq.cq_ring.head, gen == 2 ? 0 : 1);
		if (gen == 2) {
			T_EQ(irdma_uk_cq_poll_cmpl(&c.cq, &info), 0);
			T_EQ(info.wr_id, 2);
			T_EQ(c.cq.cq_ring.head, 1);
			T_CHECK(u->qp.rq_flush_complete);
		}
		free(c.ring);
		uqp_free(u);
	}
}

/* Atomics do not pre-clear ahead (kernel and rdma-core alike), even at a block start. */
T_CASE(atomic_at_block_start_no_preclear)
{
	struct uqp *u = uqp_new(3, 0, false);
	struct irdma_post_sq_info info = { .wr_id = 0xfa, .signaled = true };
	unsigned int i;

	for (i = 0; i < 128; i++)
		T_EQ(irdma_nop(&u->qp, i, false, false), 0);
	u->qp.sq_ring.tail = 128;
	memset(&u->sq[256], 0x5a, 128 * 32);
	info.op.atomic_fetch_add.fetch_add_data_bytes = 1;
	T_EQ(irdma_uk_atomic_fetch_add(&u->qp, &info, false), 0);
	T_CHECK(all_bytes(&u->sq[256], 128 * 32, 0x5a));
	T_EQ(q(u->sq[128].elem, 3), 0xc000004f00000000ULL);
	T_EQ(q(u->sq[128].elem, 7), 0x8000000000000000ULL);
	uqp_free(u);
}

T_CASE(cq_resize_and_empty)
{
	struct ucq c;
	uint64_t other[8 * 4] = { 0 };

	ucq_init(&c, 4, false);
	T_CHECK(irdma_uk_cq_empty(&c.cq));
	c.ring[3] = 1ULL << 63;
	T_CHECK(!irdma_uk_cq_empty(&c.cq));
	c.cq.cq_ring.head = 2;
	c.cq.polarity = 0;
	irdma_uk_cq_resize(&c.cq, other, 8);
	T_EQ(c.cq.cq_size, 8);
	T_EQ(c.cq.cq_ring.size, 8);
	T_EQ(c.cq.cq_ring.head, 0);
	T_EQ(c.cq.cq_ring.tail, 0);
	T_EQ(c.cq.polarity, 1);
	T_CHECK(c.cq.cq_base == (struct irdma_cqe *)other);
	T_CHECK(irdma_uk_cq_empty(&c.cq));
	free(c.ring);
}

/* A WR may not take more quanta than max_hw_sq_chunk (GEN_1: 2), and a read no more SGEs than the device
 * reads (GEN_1: 1): -EINVAL, nothing written. */
T_CASE(gen1_chunk_and_read_sge_limits)
{
	struct uqp *u = uqp_new(1, 0, false);
	struct irdma_sge sg[4] = { { 0x1000, 1, 1 }, { 0x2000, 2, 2 }, { 0x3000, 3, 3 }, { 0x4000, 4, 4 } };
	struct irdma_post_sq_info info = { .wr_id = 1, .signaled = true, .imm_data_valid = true };
	uint8_t before[512 * 32];

	u->qp.max_sq_frag_cnt = 3;
	memcpy(before, u->sq, sizeof(before));
	info.op.send.sg_list = sg;
	info.op.send.num_sges = 3; /* + immediate: 4 fragments, 3 quanta */
	T_EQ(irdma_uk_send(&u->qp, &info, true), -EINVAL);
	info.op.rdma_write.lo_sg_list = sg;
	info.op.rdma_write.num_lo_sges = 3;
	T_EQ(irdma_uk_rdma_write(&u->qp, &info, true), -EINVAL);
	info.imm_data_valid = false;
	info.op.rdma_read.lo_sg_list = sg;
	info.op.rdma_read.num_lo_sges = 2;
	T_EQ(irdma_uk_rdma_read(&u->qp, &info, false, true), -EINVAL);
	T_MEMEQ(u->sq, before, sizeof(before));
	T_EQ(u->qp.sq_ring.head, 0);
	T_EQ(u->db, 0);
	info.op.rdma_read.num_lo_sges = 1;
	T_EQ(irdma_uk_rdma_read(&u->qp, &info, false, true), 0);
	info.imm_data_valid = true;
	info.op.send.num_sges = 2; /* 3 fragments: 2 quanta */
	T_EQ(irdma_uk_send(&u->qp, &info, true), 0);
	T_EQ(u->qp.sq_ring.head, 4); /* read at 0, pad at 1, send at 2..3 */
	uqp_free(u);
}

/* A QP that uses an SRQ has no RQ: receives are refused, nothing is written. */
T_CASE(post_receive_without_rq)
{
	struct uqp *u = uqp_new(3, 0, false);
	struct irdma_qp_uk_init_info ui = { .uk_attrs = &u->attrs, .sq = u->sq, .sq_size = 512,
					    .max_sq_frag_cnt = 1, .sq_wrtrk_array = u->trk, .wqe_alloc_db = &u->db };
	struct irdma_sge sge = { 0x1000, 8, 1 };
	struct irdma_post_rq_info ri = { .wr_id = 1, .sg_list = &sge, .num_sges = 1 };
	uint32_t idx;

	T_EQ(irdma_uk_qp_init(&u->qp, &ui), 0);
	T_EQ(u->qp.rq_size, 0);
	T_EQ(irdma_uk_post_receive(&u->qp, &ri), -EINVAL);
	T_CHECK(irdma_qp_get_next_recv_wqe(&u->qp, &idx) == NULL);
	uqp_free(u);
}

/*
 * Inline SGE lengths that sum past 2^32 wrap a 32-bit sum to a small value: the payload size must be
 * summed without wrapping, so the WR is refused before anything is copied (issue 12, defect 1).
 */
T_CASE(inline_sge_sum_wraps_refused)
{
	struct uqp *u = uqp_new(2, 0, false);
	static uint8_t src[64];
	struct irdma_sge sg[3] = { { (uintptr_t)src, 0xfffffff0u, 1 }, { (uintptr_t)src, 0x20, 1 },
				   { (uintptr_t)src, 8, 1 } };
	struct irdma_post_sq_info info = { .wr_id = 1, .signaled = true };
	uint8_t before[512 * 32];

	u->qp.max_sq_frag_cnt = 3;
	u->qp.max_inline_data = 101;
	memcpy(before, u->sq, sizeof(before));
	info.op.send.sg_list = sg;
	info.op.send.num_sges = 2; /* 0xfffffff0 + 0x20 = 2^32 + 16: 16 in 32 bits */
	T_EQ(irdma_uk_inline_send(&u->qp, &info, true), -EINVAL);
	info.op.rdma_write.lo_sg_list = sg;
	info.op.rdma_write.num_lo_sges = 3;
	T_EQ(irdma_uk_inline_rdma_write(&u->qp, &info, true), -EINVAL);
	T_MEMEQ(u->sq, before, sizeof(before));
	T_EQ(u->qp.sq_ring.head, 0);
	T_EQ(u->db, 0);
	/* a payload that fits still posts */
	sg[0].length = 40;
	T_EQ(irdma_uk_inline_rdma_write(&u->qp, &info, true), 0);
	T_CHECK(u->qp.sq_ring.head != 0);
	uqp_free(u);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
