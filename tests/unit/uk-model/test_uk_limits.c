/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Limits: a full ring returns -ENOMEM and writes nothing (no padding NOP, no tracking entry,
 * no doorbell, no change to the QP); every invalid argument returns -EINVAL, also without
 * writing anything.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "irdma_test.h"
#include "ukm_model.h"
#include "ukt_env.h"

/* Everything a failing post must leave untouched. */
struct snap {
	void *sq, *rq, *trk, *wrid;
	struct irdma_qp_uk qp;
	uint64_t shadow[8];
	size_t sq_bytes, rq_bytes, trk_bytes, wrid_bytes;
};

static void snap_take(struct snap *s, const struct ukt_qp *t)
{
	s->sq_bytes = (size_t)t->sq_depth * 32;
	s->rq_bytes = (size_t)t->rq_depth * 32;
	s->trk_bytes = (size_t)t->sq_depth * sizeof(*t->trk);
	s->wrid_bytes = (size_t)t->rq_depth * sizeof(*t->rq_wrid);
	s->sq = malloc(s->sq_bytes);
	s->rq = malloc(s->rq_bytes);
	s->trk = malloc(s->trk_bytes);
	s->wrid = malloc(s->wrid_bytes);
	memcpy(s->sq, t->sq_mem, s->sq_bytes);
	memcpy(s->rq, t->rq_mem, s->rq_bytes);
	memcpy(s->trk, t->trk, s->trk_bytes);
	memcpy(s->wrid, t->rq_wrid, s->wrid_bytes);
	memcpy(&s->qp, &t->qp, sizeof(s->qp));
	memcpy(s->shadow, t->shadow, sizeof(s->shadow));
}

#define SNAP_SAME(s, t, what)                                                                     \
	do {                                                                                      \
		T_MEMEQ((t)->sq_mem, (s)->sq, (s)->sq_bytes);                                     \
		T_MEMEQ((t)->rq_mem, (s)->rq, (s)->rq_bytes);                                     \
		T_MEMEQ((t)->trk, (s)->trk, (s)->trk_bytes);                                      \
		T_MEMEQ((t)->rq_wrid, (s)->wrid, (s)->wrid_bytes);                                \
		T_MEMEQ(&(t)->qp, &(s)->qp, sizeof((s)->qp));                                     \
		T_MEMEQ((t)->shadow, (s)->shadow, sizeof((s)->shadow));                           \
		if (t_case_failures)                                                              \
			printf("# ... after %s\n", what);                                         \
	} while (0)

static void snap_free(struct snap *s)
{
	free(s->sq);
	free(s->rq);
	free(s->trk);
	free(s->wrid);
}

/* Retires everything: the last posted filler is signaled, one CQE moves the tail past it. */
static void drain(struct ukt_qp *t, struct ukt_cq *cq, struct ukm_sq *m, bool have_last,
		  uint32_t last_idx, uint32_t last_quanta)
{
	struct irdma_cq_poll_info pi;

	if (!have_last)
		return;
	ukt_hw_sq_done(cq, t, last_idx, 0x0c);
	T_EQ(irdma_uk_cq_poll_cmpl(&cq->cq, &pi), 0);
	ukm_sq_complete(m, last_idx, last_quanta);
	T_EQ(t->qp.sq_ring.tail, m->tail);
	T_EQ(t->qp.sq_ring.head, t->qp.sq_ring.tail);
}

/*
 * For each WR kind and each free-space level 0..16 quanta (at varying head offsets in the
 * chunk): the model says whether the post fits, including the padding NOPs; when it does not,
 * lib/uk must return -ENOMEM and leave every byte as it was.
 */
static void sq_full(int gen)
{
	const struct ukm_gen *g = ukm_gen_get(gen);
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 32, .max_recv_wr = 8,
				  .sq_sge = g->max_frags, .rq_sge = 1, .max_inline = g->max_inline };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	unsigned int enomem = 0, fit = 0;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 64, gen == 3), 0);
	ukm_sq_init(&m, gen, t.sq_depth, 0, 0);

	for (int kind = 0; kind < UKT_KINDS && !t_case_failures; kind++) {
		struct ukt_wr wr = { .kind = (enum ukt_kind)kind, .signaled = true };

		if (gen != 3 && (kind == UKT_FAA || kind == UKT_CAS))
			continue;
		/* The largest form of each kind: padding is most likely. */
		if (kind == UKT_INLINE_SEND || kind == UKT_INLINE_WRITE) {
			wr.inline_len = g->max_inline;
			wr.nsge = 3;
		} else if (kind == UKT_READ || kind == UKT_READ_INV) {
			wr.nsge = gen == 1 ? 1 : g->max_frags;
		} else if (kind <= UKT_WRITE) {
			wr.nsge = g->max_frags - 1;
			wr.imm = gen != 1;
		}
		for (uint32_t level = 0; level <= 16 && !t_case_failures; level++) {
			uint32_t last_idx = 0, last_q = 0, filler = 0;
			bool have_last = false;
			struct ukm_sq_post p;
			struct ukm_sq probe;
			struct snap s;
			int ret;

			/* Fill with 1-quantum NOPs until exactly 'level' quanta are free. */
			while (ukm_sq_free(&m) > level) {
				ukm_sq_post(&m, 1, true, &p);
				T_EQ(irdma_nop(&t.qp, 0xf111, true, false), 0);
				last_idx = p.wqe_idx;
				last_q = 1;
				have_last = true;
				filler++;
			}
			T_EQ(t.qp.sq_ring.head, m.head);
			probe = m;
			ukm_sq_post(&probe, ukt_wr_quanta(gen, &wr), ukt_wr_clears(&wr), &p);
			wr.wr_id = 0xabc000 + level;
			t.db = 0xdead;
			snap_take(&s, &t);
			ret = ukt_post(&t, &wr, true);
			if (p.rc == -ENOMEM) {
				T_EQ(ret, -ENOMEM);
				T_EQ(t.db, 0xdead);
				SNAP_SAME(&s, &t, ukt_kind_name[kind]);
				enomem++;
			} else {
				T_EQ(ret, 0);
				T_EQ(t.qp.sq_ring.head, probe.head);
				m = probe;
				last_idx = p.wqe_idx;
				last_q = p.quanta;
				have_last = true;
				fit++;
			}
			if (t_case_failures)
				printf("# GEN_%d %s, %u quanta free, head %u\n", gen, ukt_kind_name[kind],
				       level, s.qp.sq_ring.head);
			snap_free(&s);
			drain(&t, &cq, &m, have_last, last_idx, last_q);
			/* Shift the head so the next level starts at another chunk offset. */
			for (uint32_t k = 0; k < (level % g->chunk) + 1; k++) {
				ukm_sq_post(&m, 1, true, &p);
				T_EQ(irdma_nop(&t.qp, 0xf222, true, false), 0);
				last_idx = p.wqe_idx;
			}
			drain(&t, &cq, &m, true, last_idx, 1);
		}
	}
	T_CHECK(enomem > 0);
	T_CHECK(fit > 0);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(sq_full_enomem_gen1)
{
	sq_full(1);
}

T_CASE(sq_full_enomem_gen2)
{
	sq_full(2);
}

T_CASE(sq_full_enomem_gen3)
{
	sq_full(3);
}

/* RQ: size - 1 receives fit, the next one is -ENOMEM with nothing written. */
static void rq_full(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 8, .max_recv_wr = 20, .sq_sge = 1,
				  .rq_sge = 2 };
	struct irdma_sge sg[2] = { { 0x1000, 10, 1 }, { 0x2000, 20, 2 } };
	struct irdma_post_rq_info ri = { .sg_list = sg, .num_sges = 2 };
	struct ukt_qp t;
	struct snap s;
	uint32_t n = 0;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	while (n < t.qp.rq_ring.size - 1) {
		ri.wr_id = n;
		T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
		n++;
	}
	snap_take(&s, &t);
	ri.wr_id = 0xffff;
	T_EQ(irdma_uk_post_receive(&t.qp, &ri), -ENOMEM);
	SNAP_SAME(&s, &t, "post_receive on a full RQ");
	snap_free(&s);
	ukt_qp_destroy(&t);
}

T_CASE(rq_full_enomem_gen1)
{
	rq_full(1);
}

T_CASE(rq_full_enomem_gen2)
{
	rq_full(2);
}

T_CASE(rq_full_enomem_gen3)
{
	rq_full(3);
}

T_CASE(srq_full_enomem)
{
	struct irdma_sge sg[1] = { { 0x1000, 10, 1 } };
	struct irdma_post_rq_info ri = { .sg_list = sg, .num_sges = 1 };
	struct ukt_srq s;
	struct irdma_srq_uk before;
	uint64_t shadow[8];
	void *mem;
	size_t bytes;

	T_EQ(ukt_srq_create(&s, 20, 1), 0);
	for (uint32_t n = 0; n < s.srq.srq_ring.size - 1; n++) {
		ri.wr_id = n;
		T_EQ(irdma_uk_srq_post_receive(&s.srq, &ri), 0);
	}
	bytes = (size_t)s.depth * 32;
	mem = malloc(bytes);
	memcpy(mem, s.mem, bytes);
	memcpy(shadow, s.shadow, sizeof(shadow));
	before = s.srq;
	T_EQ(irdma_uk_srq_post_receive(&s.srq, &ri), -ENOMEM);
	T_MEMEQ(s.mem, mem, bytes);
	T_MEMEQ(s.shadow, shadow, sizeof(shadow));
	T_MEMEQ(&s.srq, &before, sizeof(before));
	free(mem);
	ukt_srq_destroy(&s);
}

/* One invalid post: -EINVAL and nothing written. */
static void expect_einval(struct ukt_qp *t, const struct ukt_wr *wr, const char *what)
{
	struct snap s;

	t->db = 0xdead;
	snap_take(&s, t);
	T_EQ(ukt_post(t, wr, true), -EINVAL);
	T_EQ(t->db, 0xdead);
	SNAP_SAME(&s, t, what);
	if (t_case_failures)
		printf("# %s\n", what);
	snap_free(&s);
}

static void expect_ok(struct ukt_qp *t, const struct ukt_wr *wr, const char *what)
{
	int ret = ukt_post(t, wr, true);

	T_CHECK_MSG(ret == 0, "%s: got %d", what, ret);
}

static void sq_einval(int gen)
{
	const struct ukm_gen *g = ukm_gen_get(gen);
	/* The QP's own limits are below the hardware's: those are the ones that count. */
	uint32_t qp_sge = g->max_frags - 1, qp_inline = g->max_inline / 2;
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 64, .max_recv_wr = 8, .sq_sge = qp_sge,
				  .rq_sge = 1, .max_inline = qp_inline };
	struct ukt_qp t;
	char what[96];

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(t.qp.max_sq_frag_cnt, qp_sge);
	T_EQ(t.qp.max_inline_data, qp_inline);
	for (int kind = UKT_SEND; kind <= UKT_INLINE_WRITE; kind++) {
		struct ukt_wr wr = { .kind = (enum ukt_kind)kind, .signaled = true, .wr_id = 1 };
		bool inl = kind == UKT_INLINE_SEND || kind == UKT_INLINE_WRITE;

		/* Too many SGEs. */
		wr.nsge = qp_sge + 1;
		wr.inline_len = inl ? qp_sge + 1 : 0;
		snprintf(what, sizeof(what), "GEN_%d %s with %u SGEs (max %u)", gen,
			 ukt_kind_name[kind], wr.nsge, qp_sge);
		expect_einval(&t, &wr, what);
		wr.nsge = qp_sge;
		if (kind == UKT_READ || kind == UKT_READ_INV)
			wr.nsge = qp_sge < g->max_read_sges ? qp_sge : g->max_read_sges;
		snprintf(what, sizeof(what), "GEN_%d %s with %u SGEs", gen, ukt_kind_name[kind],
			 wr.nsge);
		expect_ok(&t, &wr, what);
		if (!inl)
			continue;
		/* Inline longer than the QP's max_inline_data (not the hardware's). */
		wr.nsge = 2;
		wr.inline_len = qp_inline + 1;
		snprintf(what, sizeof(what), "GEN_%d %s of %u bytes (max %u)", gen,
			 ukt_kind_name[kind], wr.inline_len, qp_inline);
		expect_einval(&t, &wr, what);
		wr.inline_len = qp_inline;
		expect_ok(&t, &wr, what);
	}
	ukt_qp_destroy(&t);
}

T_CASE(sq_einval_gen1)
{
	sq_einval(1);
}

T_CASE(sq_einval_gen2)
{
	sq_einval(2);
}

T_CASE(sq_einval_gen3)
{
	sq_einval(3);
}

/*
 * RDMA read with more local SGEs than the device reads (max_hw_read_sges) is refused even when
 * the QP allows that many SGEs for sends: GEN_1 reads one SGE, sends up to three.
 */
T_CASE(read_over_max_hw_read_sges_gen1)
{
	struct ukt_qp_cfg cfg = { .gen = 1, .max_send_wr = 16, .max_recv_wr = 8, .sq_sge = 3,
				  .rq_sge = 1 };
	struct ukt_wr wr = { .kind = UKT_READ, .nsge = 2, .signaled = true, .wr_id = 9 };
	struct ukt_qp t;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	expect_einval(&t, &wr, "GEN_1 RDMA read with 2 SGEs (max_hw_read_sges 1)");
	wr.nsge = 1;
	expect_ok(&t, &wr, "GEN_1 RDMA read with 1 SGE");
	ukt_qp_destroy(&t);
}

/*
 * GEN_1 fetches at most 2 quanta per WR (max_hw_sq_chunk 2): a WR that needs 3 (immediate data
 * plus 3 SGEs = 4 fragments) cannot be represented. It must be refused; posting it pads the
 * whole chunk, and at SQ index 0 the padding skips slot 0 without flipping the polarity, so the
 * WQE is written with the previous pass's valid bit and the device would never see it.
 */
T_CASE(gen1_wr_over_chunk_einval)
{
	struct ukt_qp_cfg cfg = { .gen = 1, .max_send_wr = 16, .max_recv_wr = 8, .sq_sge = 3,
				  .rq_sge = 1 };
	struct ukt_qp t;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	for (int kind = UKT_SEND; kind <= UKT_WRITE; kind++) {
		struct ukt_wr wr = { .kind = (enum ukt_kind)kind, .nsge = 3, .imm = true,
				     .signaled = true, .wr_id = 0x77 };
		char what[80];

		snprintf(what, sizeof(what), "GEN_1 %s with immediate data and 3 SGEs (3 quanta)",
			 ukt_kind_name[kind]);
		expect_einval(&t, &wr, what);
		wr.nsge = 2; /* 3 fragments: 2 quanta, fine */
		expect_ok(&t, &wr, what);
	}
	ukt_qp_destroy(&t);
}

T_CASE(rq_srq_einval)
{
	struct irdma_sge sg[16];
	struct irdma_post_rq_info ri = { .wr_id = 5, .sg_list = sg };
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 8, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 3 };
	struct ukt_qp t;
	struct ukt_srq s;
	struct snap sn;
	struct irdma_srq_uk before;

	memset(sg, 0, sizeof(sg));
	T_EQ(ukt_qp_create(&t, &cfg), 0);
	ri.num_sges = 4;
	snap_take(&sn, &t);
	T_EQ(irdma_uk_post_receive(&t.qp, &ri), -EINVAL);
	SNAP_SAME(&sn, &t, "post_receive with 4 SGEs (max 3)");
	snap_free(&sn);
	ri.num_sges = 3;
	T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
	ukt_qp_destroy(&t);

	/* max_srq_frag_cnt 2 is clamped up to what the WQE size holds: 3
	 * (doc/spec/irdma-uk.md §5.10). */
	T_EQ(ukt_srq_create(&s, 8, 2), 0);
	T_EQ(s.srq.max_srq_frag_cnt, 3);
	ri.num_sges = 4;
	before = s.srq;
	T_EQ(irdma_uk_srq_post_receive(&s.srq, &ri), -EINVAL);
	T_MEMEQ(&s.srq, &before, sizeof(before));
	T_EQ(s.shadow[0], 0);
	ri.num_sges = 3;
	T_EQ(irdma_uk_srq_post_receive(&s.srq, &ri), 0);
	ukt_srq_destroy(&s);
}

T_CASE(init_einval)
{
	for (int gen = 1; gen <= 3; gen++) {
		const struct ukm_gen *g = ukm_gen_get(gen);
		struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 8, .max_recv_wr = 8,
					  .sq_sge = g->max_frags + 1, .rq_sge = 1 };
		struct ukt_qp t;

		/* The depth functions accept it (they only size), qp_init refuses it. */
		T_EQ(ukt_qp_create(&t, &cfg), -EINVAL);
		cfg.sq_sge = 1;
		cfg.rq_sge = g->max_frags + 1;
		T_EQ(ukt_qp_create(&t, &cfg), -EINVAL);
		cfg.rq_sge = g->max_frags;
		T_EQ(ukt_qp_create(&t, &cfg), 0);
		ukt_qp_destroy(&t);
	}
	{
		struct ukt_srq s;

		T_EQ(ukt_srq_create(&s, 8, 15), -EINVAL);
	}
}

/*
 * irdma_uk_qp_init's checks that protect memory (lib/uk, beyond the kernel's fragment checks):
 * inline limit above the device's, an SQ ring that is not a multiple of 128 quanta above the
 * 257 reserved, a non-power-of-two or oversized chunk, an RQ WQE over 256 bytes; a QP without
 * RQ (it receives through an SRQ) refuses receives with -EINVAL, writing nothing;
 * irdma_uk_srq_init refuses an empty SRQ.
 */
T_CASE(qp_init_memory_checks)
{
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 8, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1, .max_inline = 101 };
	struct ukt_qp t;
	struct irdma_qp_uk qp;
	struct irdma_qp_uk_init_info info;
	struct irdma_uk_attrs a;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	info = t.info;
	a = t.attrs;
	info.uk_attrs = &a;
	memset(&qp, 0, sizeof(qp));
	T_EQ(irdma_uk_qp_init(&qp, &info), 0);

	info.max_inline_data = 102;
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	info.max_inline_data = 101;
	info.sq_size = 256 >> info.sq_shift; /* 256 quanta: not above the 257 reserved */
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	info.sq_size = (512 + 64) >> info.sq_shift; /* not a multiple of 128 */
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	info.sq_size = t.info.sq_size;
	a.max_hw_sq_chunk = 6;
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	a.max_hw_sq_chunk = 16;
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	a.max_hw_sq_chunk = 0;
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	a.max_hw_sq_chunk = 8;
	info.rq_shift = 4;
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	info.rq_shift = t.info.rq_shift;
	info.uk_attrs = NULL;
	T_EQ(irdma_uk_qp_init(&qp, &info), -EINVAL);
	info.uk_attrs = &a;

	/* No RQ (the QP uses an SRQ): receives are refused, nothing written. */
	info.rq_size = 0;
	info.rq = NULL;
	info.rq_wrid_array = NULL;
	T_EQ(irdma_uk_qp_init(&qp, &info), 0);
	{
		struct irdma_post_rq_info ri = { .wr_id = 1 };
		struct irdma_qp_uk before = qp;

		T_EQ(irdma_uk_post_receive(&qp, &ri), -EINVAL);
		T_MEMEQ(&qp, &before, sizeof(qp));
	}
	ukt_qp_destroy(&t);

	{
		struct ukt_srq s;
		struct irdma_srq_uk srq;
		struct irdma_srq_uk_init_info si = { 0 };

		T_EQ(ukt_srq_create(&s, 8, 1), 0);
		si.srq = (struct irdma_qp_quanta *)s.mem;
		si.uk_attrs = &s.attrs;
		si.shadow_area = s.shadow;
		si.srq_size = 0;
		si.max_srq_frag_cnt = 1;
		T_EQ(irdma_uk_srq_init(&srq, &si), -EINVAL);
		ukt_srq_destroy(&s);
	}
}

/* CQ sizing (kernel >= 6.19 rule, doc/spec/irdma-uk.md §6.4) and its limits. */
T_CASE(calc_cq_size)
{
	struct irdma_uk_attrs a2, a3, a1;
	uint32_t n = 0xdead;

	ukt_attrs(&a1, 1);
	ukt_attrs(&a2, 2);
	ukt_attrs(&a3, 3);
	T_EQ(irdma_uk_calc_cq_size(&a2, 62, false, &n), 0);
	T_EQ(n, 130); /* (62 + 2) x 2 = 128 slots = exactly 4 KiB -> +2 */
	T_EQ(irdma_uk_calc_cq_size(&a3, 62, true, &n), 0);
	T_EQ(n, 66);
	T_EQ(irdma_uk_calc_cq_size(&a2, 1, false, &n), 0);
	T_EQ(n, 6);
	T_EQ(irdma_uk_calc_cq_size(&a1, 1, false, &n), 0);
	T_EQ(n, 4); /* GEN_1: no doubling, 3 -> 4 */
	T_EQ(irdma_uk_calc_cq_size(&a2, 63, false, &n), 0);
	T_EQ(n, 130);
	T_EQ(irdma_uk_calc_cq_size(&a2, 1048574, false, &n), 0);
	T_EQ(n, 2097152);
	n = 0xdead;
	T_EQ(irdma_uk_calc_cq_size(&a2, 0, false, &n), -EINVAL);
	T_EQ(irdma_uk_calc_cq_size(&a2, 1048575, false, &n), -EINVAL);
	T_EQ(irdma_uk_calc_cq_size(&a2, 0xffffffffu, true, &n), -EINVAL);
	T_EQ(n, 0xdead);
}

T_CASE(calc_einval)
{
	struct irdma_uk_attrs a;
	struct irdma_qp_uk_init_info info;
	uint32_t depth = 0xdeadbeef;
	uint8_t shift = 0xee;

	for (int gen = 1; gen <= 3; gen++) {
		const struct ukm_gen *g = ukm_gen_get(gen);
		uint32_t wr_max;

		ukt_attrs(&a, gen);
		memset(&info, 0, sizeof(info));
		info.uk_attrs = &a;
		info.abi_ver = 5;
		info.max_sq_frag_cnt = g->max_frags;
		info.max_rq_frag_cnt = g->max_frags;
		info.max_inline_data = g->max_inline;
		/* The largest SQ that fits: (max quanta - 258) >> shift WRs; one more must fail. */
		shift = 0xee;
		T_EQ(irdma_uk_calc_depth_shift_sq(&info, &depth, &shift), 0);
		wr_max = (g->max_sq_quanta - 258) >> shift;
		info.sq_size = wr_max;
		T_EQ(irdma_uk_calc_depth_shift_sq(&info, &depth, &shift), 0);
		T_EQ(depth, g->max_sq_quanta);
		info.sq_size = wr_max + 1;
		T_EQ(irdma_uk_calc_depth_shift_sq(&info, &depth, &shift), -EINVAL);
		/* 64-bit depth hardening: size << shift must not wrap to a small depth. */
		info.sq_size = 0x80000000u;
		T_EQ(irdma_uk_calc_depth_shift_sq(&info, &depth, &shift), -EINVAL);
		info.sq_size = 0xffffffffu;
		T_EQ(irdma_uk_calc_depth_shift_sq(&info, &depth, &shift), -EINVAL);

		T_EQ(irdma_uk_calc_depth_shift_rq(&info, &depth, &shift), 0);
		wr_max = (g->max_rq_quanta - 1) >> shift;
		info.rq_size = wr_max;
		T_EQ(irdma_uk_calc_depth_shift_rq(&info, &depth, &shift), 0);
		T_EQ(depth, g->max_rq_quanta);
		info.rq_size = wr_max + 1;
		T_EQ(irdma_uk_calc_depth_shift_rq(&info, &depth, &shift), -EINVAL);
		info.rq_size = 0x80000000u;
		T_EQ(irdma_uk_calc_depth_shift_rq(&info, &depth, &shift), -EINVAL);

		T_EQ(irdma_get_sqdepth(&a, 0x40000000u, 2, &depth), -EINVAL);
		T_EQ(irdma_get_rqdepth(&a, 0x40000000u, 2, &depth), -EINVAL);
	}
	ukt_attrs(&a, 3);
	T_EQ(irdma_get_srqdepth(&a, 32767, 3, &depth), 0);
	T_EQ(depth, 262144);
	T_EQ(irdma_get_srqdepth(&a, 32768, 3, &depth), -EINVAL);
	T_EQ(irdma_get_srqdepth(&a, 0x20000000u, 3, &depth), -EINVAL);

	{
		uint16_t q = 0xeeee, w = 0xeeee;

		T_EQ(irdma_fragcnt_to_quanta_sq(15, &q), 0);
		T_EQ(q, 8);
		T_EQ(irdma_fragcnt_to_quanta_sq(16, &q), -EINVAL);
		T_EQ(irdma_fragcnt_to_quanta_sq(0xffffffffu, &q), -EINVAL);
		T_EQ(irdma_fragcnt_to_wqesize_rq(14, &w), 0);
		T_EQ(w, 256);
		T_EQ(irdma_fragcnt_to_wqesize_rq(15, &w), -EINVAL);
		T_EQ(irdma_fragcnt_to_wqesize_rq(0xffffffffu, &w), -EINVAL);
	}
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
