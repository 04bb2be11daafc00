/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ring wrap: SQ, RQ, SRQ and CQ driven through several passes, for GEN_1, GEN_2 and GEN_3.
 * Every WQE image is compared with the spec layout (with the valid bit of the current pass),
 * every padding NOP is checked, completions come back through irdma_uk_cq_poll_cmpl, and the
 * CQ's head, polarity and shadow consumer index are checked after every poll.
 */
#include <errno.h>
#include <string.h>

#include "irdma_test.h"
#include "ukm_model.h"
#include "ukt_env.h"

#define OP_SEND 0x03
#define OP_NOP 0x0c

static struct irdma_sge sg_of(uint32_t k, uint32_t salt)
{
	return (struct irdma_sge){ .addr = 0x1000000000ull + 0x1010ull * k + salt,
				   .length = 0x100u * (k + 1) + (salt & 0xff),
				   .lkey = 0xa0000u + k };
}

/* Polls one completion and checks the CQ ring against the hardware side. */
static int poll_one(struct ukt_cq *cq, struct irdma_cq_poll_info *info)
{
	int ret;

	memset(info, 0xa5, sizeof(*info));
	ret = irdma_uk_cq_poll_cmpl(&cq->cq, info);
	T_EQ(cq->cq.cq_ring.head, cq->hw_head);
	T_EQ(cq->cq.polarity, cq->hw_pol);
	/* The CQ is empty again, so the consumer index must have been published. */
	T_EQ(cq->shadow[0], cq->cq.cq_ring.head);
	return ret;
}

static void check_wqe(const struct ukt_img *img, const void *mem, uint32_t idx, int gen)
{
	int d = ukt_img_diff(img, mem);

	T_CHECK_MSG(d < 0, "GEN_%d WQE at quantum %u: qword %d = 0x%016llx, expected 0x%016llx", gen,
		    idx, d, d < 0 ? 0ull : (unsigned long long)ukt_get64(mem, 8u * (unsigned)d),
		    d < 0 ? 0ull : (unsigned long long)img->q[d]);
}

/* Sends of 0..3 SGEs over four passes of the SQ; each completed before the next is posted. */
static void sq_wrap(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 32, .max_recv_wr = 8, .sq_sge = 3,
				  .rq_sge = 1 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	uint32_t flips = 0, pads = 0, posts = 0;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 16, gen == 3), 0);
	T_EQ(t.qp.sq_ring.size, t.sq_depth);
	ukm_sq_init(&m, gen, t.sq_depth, 0, 0);

	/* SGE counts whose quanta (2,1,2,1,1,2,2,1,1) sum to 13: the alignment drifts. */
	static const uint32_t pattern[9] = { 2, 1, 3, 0, 0, 2, 3, 1, 0 };

	for (uint32_t i = 0; flips < 4 && !t_case_failures; i++) {
		uint32_t n = pattern[i % 9];
		struct irdma_sge sg[3];
		struct irdma_post_sq_info info;
		struct irdma_cq_poll_info pi;
		struct ukm_sq_post p;
		struct ukt_img img;
		uint32_t total = 0;
		uint8_t before_pol = m.polarity;

		for (uint32_t k = 0; k < n; k++) {
			sg[k] = sg_of(k, i);
			total += sg[k].length;
		}
		memset(&info, 0, sizeof(info));
		info.wr_id = 0x10000 + i;
		info.op_type = OP_SEND;
		info.signaled = true;
		info.op.send.sg_list = n ? sg : NULL;
		info.op.send.num_sges = n;
		ukm_sq_post(&m, ukm_frag_quanta(n), true, &p);
		t.db = 0;
		T_EQ(irdma_uk_send(&t.qp, &info, true), 0);
		T_EQ(t.db, t.qp.qp_id);
		T_EQ(t.qp.sq_ring.head, m.head);
		T_EQ(t.qp.swqe_polarity, m.polarity);
		if (m.polarity != before_pol)
			flips++;
		for (uint32_t k = 0; k < p.npad; k++) {
			ukt_expect_nop(&img, false, p.pad_polarity);
			check_wqe(&img, (uint8_t *)t.sq_mem + 32u * (p.pad_start + k), p.pad_start + k,
				  gen);
			pads++;
		}
		ukt_expect_sq_sges(&img, gen, sg, n, false, 0, 0,
				   ((uint64_t)OP_SEND << 32) | (1ull << 62), p.polarity);
		T_EQ(img.quanta, p.quanta);
		check_wqe(&img, (uint8_t *)t.sq_mem + 32u * p.wqe_idx, p.wqe_idx, gen);
		T_EQ(t.trk[p.wqe_idx].wrid, info.wr_id);
		T_EQ(t.trk[p.wqe_idx].quanta, p.quanta);
		T_EQ(t.trk[p.wqe_idx].wr_len, total);

		ukt_hw_sq_done(&cq, &t, p.wqe_idx, OP_SEND);
		T_EQ(poll_one(&cq, &pi), 0);
		T_EQ(pi.wr_id, info.wr_id);
		T_EQ(pi.bytes_xfered, total);
		T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		T_EQ(pi.op_type, OP_SEND);
		T_EQ(pi.q_type, IRDMA_CQE_QTYPE_SQ);
		ukm_sq_complete(&m, p.wqe_idx, p.quanta);
		T_EQ(t.qp.sq_ring.tail, m.tail);
		posts++;
	}
	T_EQ(flips, 4);
	/* Padding must have happened (mixed 1- and 2-quanta WQEs cross chunk boundaries). */
	T_CHECK_MSG(pads > 0, "no padding NOP in %u posts", posts);
	T_EQ(irdma_uk_cq_poll_cmpl(&cq.cq, &(struct irdma_cq_poll_info){ 0 }), -ENOENT);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(sq_wrap_gen1)
{
	sq_wrap(1);
}

T_CASE(sq_wrap_gen2)
{
	sq_wrap(2);
}

T_CASE(sq_wrap_gen3)
{
	sq_wrap(3);
}

/* Posts a signaled NOP and completes it: moves the SQ head by one quantum. */
static void step_nop(struct ukt_qp *t, struct ukt_cq *cq, struct ukm_sq *m)
{
	struct irdma_cq_poll_info pi;
	struct ukm_sq_post p;

	ukm_sq_post(m, 1, true, &p);
	T_EQ(irdma_nop(&t->qp, 0xeeee, true, true), 0);
	ukt_hw_sq_done(cq, t, p.wqe_idx, OP_NOP);
	T_EQ(poll_one(cq, &pi), 0);
	T_EQ(pi.wr_id, 0xeeee);
	T_EQ(pi.op_type, OP_NOP);
	ukm_sq_complete(m, p.wqe_idx, 1);
}

/*
 * NOP padding across chunk boundaries: a WQE larger than what is left of the chunk is preceded
 * by one NOP per remaining quantum, for every offset in the chunk, and before the wrap (the
 * NOPs keep the old polarity, the WQE at slot 0 takes the new one).
 */
static void padding(int gen)
{
	const struct ukm_gen *g = ukm_gen_get(gen);
	uint32_t max_sge = g->max_frags;
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 16, .max_recv_wr = 8,
				  .sq_sge = max_sge, .rq_sge = 1 };
	struct irdma_sge sg[14];
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	uint32_t big_q = ukm_frag_quanta(max_sge);
	bool wrapped_pad = false;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, gen == 3), 0);
	ukm_sq_init(&m, gen, t.sq_depth, 0, 0);
	for (uint32_t k = 0; k < max_sge; k++)
		sg[k] = sg_of(k, 0);

	/*
	 * For every offset o of a chunk where the big WQE does not fit, step NOPs until the head is
	 * there and post it; last, do the same just before the end of the ring so the padding NOPs
	 * take the old pass and the WQE slot 0 of the new one.
	 */
	for (uint32_t round = 1; round <= g->chunk && !t_case_failures; round++) {
		bool last = round == g->chunk;
		uint32_t o = last ? g->chunk - (big_q - 1) : round;
		uint32_t target = last ? m.size - g->chunk + o : 0;
		struct irdma_post_sq_info info;
		struct irdma_cq_poll_info pi;
		struct ukm_sq_post p;
		struct ukt_img img;

		if (!last && big_q <= g->chunk - o)
			continue; /* fits in the rest of the chunk: no padding at this offset */
		while (!t_case_failures && (last ? m.head != target : m.head % g->chunk != o))
			step_nop(&t, &cq, &m);
		memset(&info, 0, sizeof(info));
		info.wr_id = 0x7000 + m.head;
		info.op_type = OP_SEND;
		info.signaled = true;
		info.op.send.sg_list = sg;
		info.op.send.num_sges = max_sge;
		ukm_sq_post(&m, big_q, true, &p);
		T_EQ(p.npad, g->chunk - o);
		T_EQ(irdma_uk_send(&t.qp, &info, false), 0);
		T_EQ(t.qp.sq_ring.head, m.head);
		T_EQ(t.qp.swqe_polarity, m.polarity);
		for (uint32_t k = 0; k < p.npad; k++) {
			ukt_expect_nop(&img, false, p.pad_polarity);
			check_wqe(&img, (uint8_t *)t.sq_mem + 32u * (p.pad_start + k), p.pad_start + k,
				  gen);
			T_EQ(t.trk[p.pad_start + k].quanta, 1);
		}
		ukt_expect_sq_sges(&img, gen, sg, max_sge, false, 0, 0,
				   ((uint64_t)OP_SEND << 32) | (1ull << 62), p.polarity);
		check_wqe(&img, (uint8_t *)t.sq_mem + 32u * p.wqe_idx, p.wqe_idx, gen);
		T_EQ(p.wqe_idx % g->chunk, 0);
		if (last) {
			T_EQ(p.wqe_idx, 0);
			T_CHECK(p.pad_polarity != p.polarity);
			wrapped_pad = true;
		}
		ukt_hw_sq_done(&cq, &t, p.wqe_idx, OP_SEND);
		T_EQ(poll_one(&cq, &pi), 0);
		T_EQ(pi.wr_id, info.wr_id);
		ukm_sq_complete(&m, p.wqe_idx, p.quanta);
		T_EQ(t.qp.sq_ring.tail, m.tail);
	}
	T_CHECK(wrapped_pad);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(padding_gen1_chunk2)
{
	padding(1);
}

T_CASE(padding_gen2_chunk8)
{
	padding(2);
}

T_CASE(padding_gen3_chunk8)
{
	padding(3);
}

/* Receives of 0..3 SGEs through five passes of the RQ. */
static void rq_wrap(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 8, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 3 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_rq m;
	uint32_t flips = 0, mult;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, gen == 3), 0);
	mult = 1u << t.rq_shift;
	T_EQ(t.qp.rq_wqe_size_multiplier, mult);
	T_EQ(t.qp.rq_ring.size, t.rq_depth >> t.rq_shift);
	if (gen == 1)
		T_EQ(t.rq_shift, 2); /* GEN_1 RQ WQEs are 128 bytes */
	ukm_rq_init(&m, t.qp.rq_ring.size);

	for (uint32_t i = 0; flips < 5 && !t_case_failures; i++) {
		uint32_t n = i % 4;
		struct irdma_sge sg[3];
		struct irdma_post_rq_info info = { .wr_id = 0x5000 + i, .sg_list = n ? sg : NULL,
						   .num_sges = n };
		struct irdma_cq_poll_info pi;
		struct ukt_cqe c;
		struct ukt_img img;
		uint8_t pol, before = m.polarity;
		int idx;

		for (uint32_t k = 0; k < n; k++)
			sg[k] = sg_of(k, i);
		idx = ukm_rq_post(&m, &pol);
		T_CHECK(idx >= 0);
		T_EQ(irdma_uk_post_receive(&t.qp, &info), 0);
		T_EQ(t.qp.rq_ring.head, m.head);
		T_EQ(t.qp.rwqe_polarity, pol);
		if (pol != before)
			flips++;
		T_EQ(t.rq_wrid[idx], info.wr_id);
		ukt_expect_rq(&img, gen, sg, n, 0, pol);
		check_wqe(&img, (uint8_t *)t.rq_mem + 32u * mult * (uint32_t)idx, (uint32_t)idx, gen);

		ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, (uint32_t)idx * mult, 77 + i);
		ukt_cq_hw_write(&cq, &c);
		T_EQ(poll_one(&cq, &pi), 0);
		T_EQ(pi.wr_id, info.wr_id);
		T_EQ(pi.bytes_xfered, 77 + i);
		T_EQ(pi.q_type, IRDMA_CQE_QTYPE_RQ);
		T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		m.tail = (uint32_t)(idx + 1) % m.size;
		T_EQ(t.qp.rq_ring.tail, m.tail);
	}
	T_EQ(flips, 5);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(rq_wrap_gen1)
{
	rq_wrap(1);
}

T_CASE(rq_wrap_gen2)
{
	rq_wrap(2);
}

T_CASE(rq_wrap_gen3)
{
	rq_wrap(3);
}

/* GEN_3 SRQ: five passes, wr_id in qword 2, producer index in the SRQ shadow area. */
T_CASE(srq_wrap_gen3)
{
	struct ukt_srq s;
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_rq m;
	uint32_t flips = 0;
	struct ukt_qp_cfg cfg = { .gen = 3, .max_send_wr = 8, .max_recv_wr = 1, .sq_sge = 1,
				  .rq_sge = 1 };

	T_EQ(ukt_srq_create(&s, 8, 3), 0);
	cfg.srq = &s.srq;
	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, true), 0);
	T_EQ(s.srq.srq_ring.size, s.depth >> s.shift);
	T_EQ(s.srq.wqe_size_multiplier, 1u << s.shift);
	ukm_rq_init(&m, s.srq.srq_ring.size);

	for (uint32_t i = 0; flips < 5 && !t_case_failures; i++) {
		uint32_t n = 1 + i % 3;
		struct irdma_sge sg[3];
		struct irdma_post_rq_info info = { .wr_id = 0xabc00000ull + i, .sg_list = sg,
						   .num_sges = n };
		struct irdma_cq_poll_info pi;
		struct ukt_cqe c;
		struct ukt_img img;
		uint8_t pol, before = m.polarity;
		int idx;

		for (uint32_t k = 0; k < n; k++)
			sg[k] = sg_of(k, i);
		idx = ukm_rq_post(&m, &pol);
		T_EQ(irdma_uk_srq_post_receive(&s.srq, &info), 0);
		T_EQ(s.srq.srq_ring.head, m.head);
		T_EQ(s.srq.srwqe_polarity, pol);
		T_EQ(s.shadow[0], m.head);
		if (pol != before)
			flips++;
		ukt_expect_rq(&img, 3, sg, n, info.wr_id, pol);
		check_wqe(&img, (uint8_t *)s.mem + 32u * s.srq.wqe_size_multiplier * (uint32_t)idx,
			  (uint32_t)idx, 3);

		/* SRQ CQE: qword 1 = wr_id, qword 5 = QP context, bit 52. */
		ukt_cqe_rq(&c, (void *)(uintptr_t)info.wr_id, t.qp.qp_id, 0, 100 + i);
		c.q[3] |= 1ull << 52;
		c.q[5] = (uint64_t)(uintptr_t)&t.qp;
		ukt_cq_hw_write(&cq, &c);
		T_EQ(poll_one(&cq, &pi), 0);
		T_EQ(pi.wr_id, info.wr_id);
		T_EQ(pi.bytes_xfered, 100 + i);
		T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		m.tail = (m.tail + 1) % m.size;
		T_EQ(s.srq.srq_ring.tail, m.tail);
	}
	T_EQ(flips, 5);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
	ukt_srq_destroy(&s);
}

/*
 * 32-byte CQ: an extended CQE in the last slot puts its extension in slot 0 of the next pass,
 * whose valid bit is the inverted polarity. Until that half is valid the CQE is not consumed.
 */
T_CASE(cq_extended_across_wrap_32b)
{
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 8, .max_recv_wr = 16, .sq_sge = 1,
				  .rq_sge = 1 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct irdma_cq_poll_info pi;
	struct ukt_cqe c;
	struct irdma_post_rq_info ri = { 0 };
	uint32_t i;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, false), 0);
	for (i = 0; i < 8; i++) {
		ri.wr_id = 0x900 + i;
		T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
	}
	/* Seven plain receives fill slots 0..6 (each polled: the CQ stays consistent). */
	for (i = 0; i < 7; i++) {
		ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, i * t.qp.rq_wqe_size_multiplier, i);
		ukt_cq_hw_write(&cq, &c);
		T_EQ(poll_one(&cq, &pi), 0);
		T_EQ(pi.wr_id, 0x900 + i);
		T_EQ(pi.imm_valid, false);
	}
	T_EQ(cq.hw_head, 7);

	/* The main half alone, with its extension slot still holding pass-1 contents: not ready. */
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 7 * t.qp.rq_wqe_size_multiplier, 4);
	c.q[3] |= (1ull << 50) | (1ull << 63); /* extended, valid for pass 1 */
	ukt_put64(ukt_cq_slot(&cq, 7), 0, c.q[0]);
	ukt_put64(ukt_cq_slot(&cq, 7), 8, c.q[1]);
	ukt_put64(ukt_cq_slot(&cq, 7), 16, c.q[2]);
	ukt_put64(ukt_cq_slot(&cq, 7), 24, c.q[3]);
	T_EQ(irdma_uk_cq_poll_cmpl(&cq.cq, &pi), -ENOENT);
	T_EQ(cq.cq.cq_ring.head, 7);
	T_EQ(cq.cq.polarity, 1);

	/* Now the real write: extension in slot 0 with valid = 0 (the next pass). */
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 7 * t.qp.rq_wqe_size_multiplier, 4);
	c.ext = true;
	c.q[4] = 0xfeedbeef;
	c.q[7] = 1ull << 62; /* immediate valid */
	ukt_cq_hw_write(&cq, &c);
	T_EQ(ukt_get64(ukt_cq_slot(&cq, 0), 24) >> 63, 0);
	T_EQ(cq.hw_head, 1);
	T_EQ(cq.hw_pol, 0);
	T_EQ(poll_one(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x907);
	T_EQ(pi.imm_valid, true);
	T_EQ(pi.imm_data, 0xfeedbeef);
	T_EQ(cq.cq.cq_ring.head, 1);
	T_EQ(cq.cq.polarity, 0);
	T_EQ(irdma_uk_cq_poll_cmpl(&cq.cq, &pi), -ENOENT);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

/* Many passes of 32- and 64-byte CQs with a burst of completions polled together. */
static void cq_burst_wrap(bool cqe64)
{
	struct ukt_qp_cfg cfg = { .gen = cqe64 ? 3 : 2, .max_send_wr = 8, .max_recv_wr = 64,
				  .sq_sge = 1, .rq_sge = 1 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct irdma_cq_poll_info pi;
	struct irdma_post_rq_info ri = { 0 };
	uint32_t next_wr = 0, done = 0, flips = 0;
	uint8_t pol = 1;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 16, cqe64), 0);
	while (flips < 6 && !t_case_failures) {
		uint32_t burst = 1 + (next_wr * 7) % 13; /* 1..13 CQEs, less than the ring */
		struct ukt_cqe c;

		for (uint32_t k = 0; k < burst; k++) {
			uint32_t idx = t.qp.rq_ring.head;

			ri.wr_id = 0x40000 + next_wr++;
			T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
			ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, idx * t.qp.rq_wqe_size_multiplier, k);
			ukt_cq_hw_write(&cq, &c);
		}
		for (uint32_t k = 0; k < burst; k++) {
			T_EQ(irdma_uk_cq_poll_cmpl(&cq.cq, &pi), 0);
			T_EQ(pi.wr_id, 0x40000 + done);
			done++;
		}
		T_EQ(irdma_uk_cq_poll_cmpl(&cq.cq, &pi), -ENOENT);
		T_EQ(cq.cq.cq_ring.head, cq.hw_head);
		T_EQ(cq.cq.polarity, cq.hw_pol);
		T_EQ(cq.shadow[0], cq.hw_head);
		if (cq.hw_pol != pol) {
			pol = cq.hw_pol;
			flips++;
		}
	}
	T_EQ(done, next_wr);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(cq_burst_wrap_32b)
{
	cq_burst_wrap(false);
}

T_CASE(cq_burst_wrap_64b)
{
	cq_burst_wrap(true);
}

/*
 * irdma_clr_wqes: a WQE starting on a 128-quantum block pre-fills the block 128 quanta ahead
 * (0x00 while the pass polarity is 1, 0xFF in the block that starts the next pass). The atomic
 * posting functions do not pre-clear (doc/spec/irdma-uk.md §3.3 notes, §5 step 4).
 */
T_CASE(clr_wqes_block_and_atomics_gen3)
{
	struct ukt_qp_cfg cfg = { .gen = 3, .max_send_wr = 16, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	uint8_t *blk, pattern[128 * 32];
	struct ukt_wr faa = { .kind = UKT_FAA, .signaled = true, .wr_id = 0xfa };

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(t.sq_depth, 512);
	T_EQ(ukt_cq_create(&cq, 8, true), 0);
	ukm_sq_init(&m, 3, t.sq_depth, 0, 0);
	/* The NOP at 0 (polarity 1) clears [128, 256) to 0x00. */
	memset((uint8_t *)t.sq_mem + 128 * 32, 0x5a, 128 * 32);
	step_nop(&t, &cq, &m);
	memset(pattern, 0x00, sizeof(pattern));
	T_MEMEQ((uint8_t *)t.sq_mem + 128 * 32, pattern, sizeof(pattern));
	while (m.head != 128)
		step_nop(&t, &cq, &m);
	/* An atomic at 128 leaves [256, 384) alone. */
	blk = (uint8_t *)t.sq_mem + 256 * 32;
	memset(blk, 0x5a, 128 * 32);
	memcpy(pattern, blk, sizeof(pattern));
	{
		struct ukm_sq_post p;

		ukm_sq_post(&m, 2, false, &p);
		T_EQ(p.wqe_idx, 128);
		T_CHECK(!p.clr);
	}
	T_EQ(ukt_post(&t, &faa, true), 0);
	T_MEMEQ(blk, pattern, sizeof(pattern));
	ukt_hw_sq_done(&cq, &t, 128, 0x0f);
	{
		struct irdma_cq_poll_info pi;

		T_EQ(poll_one(&cq, &pi), 0);
		T_EQ(pi.wr_id, 0xfa);
		T_EQ(pi.bytes_xfered, 0); /* atomics report 0 bytes (wr_len 0) */
		T_EQ(pi.op_type, 0x0f);
	}
	ukm_sq_complete(&m, 128, 2);
	while (m.head != 384)
		step_nop(&t, &cq, &m);
	/* A NOP at 384 clears the first block of the next pass, [0, 128), to 0xFF. */
	memset(pattern, 0xff, sizeof(pattern));
	step_nop(&t, &cq, &m);
	T_MEMEQ(t.sq_mem, pattern, sizeof(pattern));
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
