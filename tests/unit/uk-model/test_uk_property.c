/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Property test: a seeded PRNG posts random mixes of WRs (send, send-with-invalidate, inline
 * send/write, RDMA write, read, read-with-invalidate, immediate data, local invalidate, MW
 * bind, NOP, atomics on GEN_3; 0..max SGEs; 0..max inline bytes; signaled or not; now and then
 * an invalid one) and receives, while a "hardware" completes them at random points. After every
 * post the ring accounting is checked against the independent model (ukm_model.c):
 *   - return code (0 / -ENOMEM / -EINVAL) and SQ head, polarity, free space;
 *   - padding NOPs (count, position, image) and the WQE's first quantum;
 *   - the bytes of the whole SQ: only the padding, the WQE, the irdma_clr_wqes block and the
 *     GEN_1 odd-slot header may change, each with the exact content the spec gives;
 *   - the header fields and the valid bit of every quantum of the WQE, inline bytes;
 *   - the tracking entry, and on completion wr_id, byte count and opcode.
 * Seed: UK_PROPERTY_SEED (default below), printed; UK_PROPERTY_ITERS overrides the iterations.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "irdma_test.h"
#include "ukm_model.h"
#include "ukt_env.h"

#define DEFAULT_SEED 0x1dea5eed2026ull
#define DEFAULT_ITERS 20000u

struct outst {
	uint32_t wqe_idx, quanta, len, opcode;
	uint64_t wr_id;
	bool signaled;
};

struct prop {
	int gen;
	const struct ukm_gen *g;
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct ukm_rq rm;
	struct ukm_rng rng;
	struct outst *q; /* outstanding SQ WRs, oldest first (ring of sq_depth entries) */
	uint32_t qh, qn;
	uint64_t *rq_ids;
	uint8_t *before;
	uint64_t next_id;
	/* statistics, printed so a run shows what it covered */
	unsigned long posts, pads, enomem, einval, clears, odd, sq_done, efault, rq_done, flips;
	unsigned long kinds[UKT_KINDS];
};

static uint64_t seed_from_env(void)
{
	const char *s = getenv("UK_PROPERTY_SEED");

	return s ? strtoull(s, NULL, 0) : DEFAULT_SEED;
}

static uint32_t iters_from_env(void)
{
	const char *s = getenv("UK_PROPERTY_ITERS");

	return s ? (uint32_t)strtoul(s, NULL, 0) : DEFAULT_ITERS;
}

static struct outst *q_at(struct prop *P, uint32_t i)
{
	return &P->q[(P->qh + i) % P->t.sq_depth];
}

/* Random WR within (or, now and then, beyond) the QP's limits. */
static void random_wr(struct prop *P, struct ukt_wr *wr, bool *invalid)
{
	const struct ukm_gen *g = P->g;
	uint32_t max_sge = P->t.qp.max_sq_frag_cnt;
	uint32_t r = ukm_rng_below(&P->rng, 100);

	memset(wr, 0, sizeof(*wr));
	*invalid = false;
	do {
		wr->kind = (enum ukt_kind)ukm_rng_below(&P->rng, UKT_KINDS);
	} while (P->gen != 3 && (wr->kind == UKT_FAA || wr->kind == UKT_CAS));
	wr->signaled = ukm_rng_below(&P->rng, 2);
	wr->wr_id = P->next_id++;
	switch (wr->kind) {
	case UKT_SEND:
	case UKT_SEND_INV:
	case UKT_WRITE:
		wr->imm = ukm_rng_below(&P->rng, 3) == 0;
		wr->nsge = ukm_rng_below(&P->rng, max_sge + 1);
		if (r < 3) {
			wr->nsge = max_sge + 1;
			*invalid = true;
		}
		/* More quanta than the device fetches per WR (GEN_1: immediate + 3 SGEs). */
		if (ukt_wr_quanta(P->gen, wr) > g->chunk)
			*invalid = true;
		break;
	case UKT_READ:
	case UKT_READ_INV:
		/* Up to the QP's SGE limit: beyond max_hw_read_sges (GEN_1: 1) is refused. */
		wr->nsge = 1 + ukm_rng_below(&P->rng, max_sge);
		if (r < 3)
			wr->nsge = max_sge + 1;
		if (wr->nsge > g->max_read_sges)
			*invalid = true;
		break;
	case UKT_INLINE_SEND:
	case UKT_INLINE_WRITE:
		wr->imm = ukm_rng_below(&P->rng, 3) == 0;
		wr->inline_len = ukm_rng_below(&P->rng, P->t.qp.max_inline_data + 1);
		wr->nsge = 1 + ukm_rng_below(&P->rng, max_sge < 3 ? max_sge : 3);
		if (wr->nsge > wr->inline_len)
			wr->nsge = wr->inline_len ? wr->inline_len : 1;
		if (r < 3) {
			wr->inline_len = P->t.qp.max_inline_data + 1 + ukm_rng_below(&P->rng, 8);
			*invalid = true;
		}
		break;
	default:
		break;
	}
}

/* The model's reading of the header and the per-quantum valid bits of the WQE just posted. */
static void check_wqe(struct prop *P, const struct ukt_wr *wr, const struct ukm_sq_post *p)
{
	const uint8_t *w = (const uint8_t *)P->t.sq_mem + 32u * p->wqe_idx;
	uint64_t hdr = ukt_get64(w, 24);
	uint64_t pol = p->polarity;
	bool inl = wr->kind == UKT_INLINE_SEND || wr->kind == UKT_INLINE_WRITE;
	const struct irdma_sq_uk_wr_trk_info *trk = &P->t.trk[p->wqe_idx];

	T_EQ(hdr >> 63, pol);
	T_EQ(UKT_BITS(hdr, 32, 37), ukt_wr_opcode(wr));
	T_EQ(UKT_BITS(hdr, 62, 62), wr->signaled);
	T_EQ(trk->wrid, wr->wr_id);
	T_EQ(trk->quanta, p->quanta);
	T_EQ(trk->wr_len, ukt_wr_len(wr));
	T_EQ(trk->signaled, wr->signaled);
	if (inl) {
		struct irdma_sge sg[16];
		uint8_t data[256];
		uint32_t off = 0, pos;

		T_EQ(UKT_BITS(hdr, 57, 57), 1);
		T_EQ(UKT_BITS(hdr, 48, 55), wr->inline_len);
		T_EQ(UKT_BITS(hdr, 47, 47), wr->imm);
		ukt_wr_sges(wr, sg);
		for (uint32_t k = 0; k < wr->nsge; k++) {
			memcpy(data + off, (const void *)(uintptr_t)sg[k].addr, sg[k].length);
			off += sg[k].length;
		}
		/* GEN_2/3: 8 bytes at byte 8, then 31 per quantum + valid byte; GEN_1: 16 at 0, then 32. */
		for (uint32_t i = 0; i < wr->inline_len; i++) {
			if (P->gen == 1)
				pos = i < 16 ? i : 32 + (i - 16);
			else
				pos = i < 8 ? 8 + i : 32 * (1 + (i - 8) / 31) + (i - 8) % 31;
			if (w[pos] != data[i]) {
				T_CHECK_MSG(0, "inline byte %u at WQE offset %u: 0x%02x != 0x%02x", i, pos,
					    w[pos], data[i]);
				break;
			}
		}
		if (P->gen != 1)
			for (uint32_t j = 1; j < p->quanta; j++)
				T_EQ(w[32 * j + 31], pol << 7);
		return;
	}
	switch (wr->kind) {
	case UKT_SEND:
	case UKT_SEND_INV:
	case UKT_WRITE:
	case UKT_READ:
	case UKT_READ_INV: {
		uint32_t fc = wr->nsge + (wr->imm ? 1 : 0);
		uint32_t addl = fc > 1 ? fc - 1 : 0;

		if (P->gen == 2 && fc && !(fc & 1))
			addl = fc;
		T_EQ(UKT_BITS(hdr, 38, 41), addl);
		T_EQ(UKT_BITS(hdr, 47, 47), wr->imm);
		if (P->gen != 1)
			for (uint32_t j = 1; j < p->quanta; j++) {
				T_EQ(ukt_get64(w, 32 * j + 8) >> 63, pol);
				T_EQ(ukt_get64(w, 32 * j + 24) >> 63, pol);
			}
		break;
	}
	case UKT_FAA:
	case UKT_CAS:
		T_EQ(UKT_BITS(hdr, 38, 41), 1);
		T_EQ(ukt_get64(w, 56), pol << 63);
		break;
	default:
		T_EQ(UKT_BITS(hdr, 38, 41), 0);
		break;
	}
}

/* Every byte of the SQ against the snapshot: only the model's regions may change. */
static void check_sq_bytes(struct prop *P, const struct ukm_sq_post *p)
{
	const uint8_t *now = P->t.sq_mem, *was = P->before;
	uint32_t size = P->t.sq_depth;

	for (uint32_t qi = 0; qi < size; qi++) {
		const uint8_t *a = now + 32u * qi, *b = was + 32u * qi;
		bool in_pad = p->npad && (qi - p->pad_start) % size < p->npad;
		bool in_wqe = (qi - p->wqe_idx) % size < p->quanta;
		bool in_clr = p->clr && qi >= p->clr_start && qi < p->clr_start + 128;

		if (in_pad) {
			uint64_t exp = (0x0cull << 32) | ((uint64_t)p->pad_polarity << 63);

			T_EQ(ukt_get64(a, 0), 0);
			T_EQ(ukt_get64(a, 8), 0);
			T_EQ(ukt_get64(a, 16), 0);
			T_EQ(ukt_get64(a, 24), exp);
			T_EQ(P->t.trk[qi].quanta, 1);
			continue;
		}
		if (in_wqe)
			continue; /* checked field by field in check_wqe() */
		if (in_clr) {
			for (int i = 0; i < 32; i++)
				if (a[i] != p->clr_byte) {
					T_CHECK_MSG(0, "clr block: quantum %u byte %d = 0x%02x, expected 0x%02x",
						    qi, i, a[i], p->clr_byte);
					return;
				}
			continue;
		}
		if (p->odd_fixup && qi == p->odd_slot) {
			T_MEMEQ(a, b, 24);
			T_EQ(ukt_get64(a, 24), (uint64_t)!p->polarity << 63);
			continue;
		}
		if (memcmp(a, b, 32)) {
			T_CHECK_MSG(0, "quantum %u changed outside the WQE (wqe_idx %u, %u quanta, %u pads)",
				    qi, p->wqe_idx, p->quanta, p->npad);
			return;
		}
	}
}

static void poll_expect(struct prop *P, int want, struct irdma_cq_poll_info *pi)
{
	int ret = irdma_uk_cq_poll_cmpl(&P->cq.cq, pi);

	T_EQ(ret, want);
	T_EQ(P->cq.cq.cq_ring.head, P->cq.hw_head);
	T_EQ(P->cq.cq.polarity, P->cq.hw_pol);
}

/* Hardware completes the oldest k WRs: one CQE for the newest signaled one among them. */
static void complete_sq(struct prop *P, uint32_t k)
{
	struct irdma_cq_poll_info pi;
	int last = -1;

	for (uint32_t i = 0; i < k && i < P->qn; i++)
		if (q_at(P, i)->signaled)
			last = (int)i;
	if (last < 0)
		return;
	struct outst *o = q_at(P, (uint32_t)last);

	ukt_hw_sq_done(&P->cq, &P->t, o->wqe_idx, o->opcode);
	poll_expect(P, 0, &pi);
	T_EQ(pi.wr_id, o->wr_id);
	T_EQ(pi.bytes_xfered, o->len);
	T_EQ(pi.op_type, o->opcode);
	T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	ukm_sq_complete(&P->m, o->wqe_idx, o->quanta);
	T_EQ(P->t.qp.sq_ring.tail, P->m.tail);
	P->qh = (P->qh + (uint32_t)last + 1) % P->t.sq_depth;
	P->qn -= (uint32_t)last + 1;
	P->sq_done++;
}

/* A CQE for an unsignaled WR is consumed silently (-EFAULT) and retires nothing. */
static void complete_unsignaled(struct prop *P)
{
	struct irdma_cq_poll_info pi;

	for (uint32_t i = 0; i < P->qn; i++) {
		struct outst *o = q_at(P, i);

		if (o->signaled)
			continue;
		ukt_hw_sq_done(&P->cq, &P->t, o->wqe_idx, o->opcode);
		poll_expect(P, -EFAULT, &pi);
		T_EQ(P->t.qp.sq_ring.tail, P->m.tail);
		P->efault++;
		return;
	}
}

static void post_sq(struct prop *P)
{
	struct ukt_wr wr;
	struct ukm_sq_post p;
	struct ukm_sq probe = P->m;
	bool invalid;
	int ret;

	random_wr(P, &wr, &invalid);
	/* Keep the newest WR signaled when the ring is nearly full, so that hardware can retire it. */
	ukm_sq_post(&probe, ukt_wr_quanta(P->gen, &wr), ukt_wr_clears(&wr), &p);
	if (!invalid && p.rc == 0 && ukm_sq_free(&probe) < 64)
		wr.signaled = true;
	memcpy(P->before, P->t.sq_mem, (size_t)P->t.sq_depth * 32);
	P->t.db = 0;
	ret = ukt_post(&P->t, &wr, true);
	if (invalid) {
		T_EQ(ret, -EINVAL);
		T_EQ(P->t.qp.sq_ring.head, P->m.head);
		T_EQ(P->t.db, 0);
		T_MEMEQ(P->t.sq_mem, P->before, (size_t)P->t.sq_depth * 32);
		P->einval++;
		return;
	}
	if (p.rc) {
		T_EQ(ret, -ENOMEM);
		T_EQ(P->t.qp.sq_ring.head, P->m.head);
		T_EQ(P->t.qp.swqe_polarity, P->m.polarity);
		T_EQ(P->t.db, 0);
		T_MEMEQ(P->t.sq_mem, P->before, (size_t)P->t.sq_depth * 32);
		P->enomem++;
		complete_sq(P, P->qn);
		T_EQ(P->qn, 0);
		return;
	}
	T_EQ(ret, 0);
	if (ret)
		return;
	if (probe.polarity != P->m.polarity)
		P->flips++;
	P->m = probe;
	T_EQ(P->t.qp.sq_ring.head, P->m.head);
	T_EQ(P->t.qp.swqe_polarity, P->m.polarity);
	T_EQ(P->t.qp.sq_ring.size - ((P->t.qp.sq_ring.head + P->t.qp.sq_ring.size -
				      P->t.qp.sq_ring.tail) % P->t.qp.sq_ring.size) - 257,
	     ukm_sq_free(&P->m));
	T_EQ(P->t.db, P->t.qp.qp_id);
	check_wqe(P, &wr, &p);
	check_sq_bytes(P, &p);
	P->pads += p.npad;
	P->clears += p.clr;
	P->odd += p.odd_fixup;
	P->posts++;
	P->kinds[wr.kind]++;
	*q_at(P, P->qn) = (struct outst){ .wqe_idx = p.wqe_idx, .quanta = p.quanta,
					  .len = ukt_wr_len(&wr), .opcode = ukt_wr_opcode(&wr),
					  .wr_id = wr.wr_id, .signaled = wr.signaled };
	P->qn++;
	if (t_case_failures)
		printf("# GEN_%d %s nsge %u inline %u imm %d -> wqe_idx %u quanta %u pads %u\n", P->gen,
		       ukt_kind_name[wr.kind], wr.nsge, wr.inline_len, wr.imm, p.wqe_idx, p.quanta,
		       p.npad);
}

static void rq_step(struct prop *P)
{
	struct irdma_sge sg[16];
	uint32_t n = ukm_rng_below(&P->rng, P->t.qp.max_rq_frag_cnt + 1);
	struct irdma_post_rq_info ri = { .wr_id = P->next_id++, .sg_list = n ? sg : NULL,
					 .num_sges = n };
	uint8_t pol;
	int idx;

	if (ukm_rng_below(&P->rng, 2) && ukm_rq_used(&P->rm)) {
		/* Hardware consumes the oldest receive. */
		struct irdma_cq_poll_info pi;
		struct ukt_cqe c;
		uint32_t i = P->rm.tail;

		ukt_cqe_rq(&c, &P->t.qp, P->t.qp.qp_id, i * P->t.qp.rq_wqe_size_multiplier, i);
		ukt_cq_hw_write(&P->cq, &c);
		poll_expect(P, 0, &pi);
		T_EQ(pi.wr_id, P->rq_ids[i]);
		T_EQ(pi.bytes_xfered, i);
		P->rm.tail = (i + 1) % P->rm.size;
		T_EQ(P->t.qp.rq_ring.tail, P->rm.tail);
		P->rq_done++;
		return;
	}
	for (uint32_t k = 0; k < n; k++)
		sg[k] = (struct irdma_sge){ .addr = 0x3000 + k, .length = 8 * k, .lkey = k };
	idx = ukm_rq_post(&P->rm, &pol);
	T_EQ(irdma_uk_post_receive(&P->t.qp, &ri), idx < 0 ? -ENOMEM : 0);
	T_EQ(P->t.qp.rq_ring.head, P->rm.head);
	if (idx >= 0) {
		P->rq_ids[idx] = ri.wr_id;
		T_EQ(P->t.qp.rwqe_polarity, pol);
		T_EQ(ukt_get64(P->t.rq_mem, 32u * P->t.qp.rq_wqe_size_multiplier * (uint32_t)idx + 24) >>
			     63,
		     pol);
	}
}

static void run(int gen, uint32_t max_send_wr, uint64_t seed, uint32_t iters)
{
	struct prop *P = calloc(1, sizeof(*P));
	const struct ukm_gen *g = ukm_gen_get(gen);
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = max_send_wr, .max_recv_wr = 16,
				  .sq_sge = g->max_frags, .rq_sge = g->max_frags,
				  .max_inline = g->max_inline };

	P->gen = gen;
	P->g = g;
	ukm_rng_seed(&P->rng, seed);
	printf("# GEN_%d max_send_wr %u seed 0x%" PRIx64 " iterations %u\n", gen, max_send_wr, seed,
	       iters);
	T_EQ(ukt_qp_create(&P->t, &cfg), 0);
	T_EQ(ukt_cq_create(&P->cq, 64, gen == 3), 0);
	/* The depth lib/uk chose must be the spec's. */
	T_EQ(P->t.sq_depth, ukm_sq_depth(gen, max_send_wr, ukm_wqe_shift(gen, g->max_frags + (gen > 1),
									   g->max_inline)));
	ukm_sq_init(&P->m, gen, P->t.sq_depth, 0, 0);
	ukm_rq_init(&P->rm, P->t.qp.rq_ring.size);
	P->q = calloc(P->t.sq_depth, sizeof(*P->q));
	P->rq_ids = calloc(P->rm.size, sizeof(*P->rq_ids));
	P->before = malloc((size_t)P->t.sq_depth * 32);
	P->next_id = 0x100000;

	for (uint32_t it = 0; it < iters && !t_case_failures; it++) {
		uint32_t r = ukm_rng_below(&P->rng, 100);
		/* One phase in three the hardware stalls long enough for any SQ to fill up to -ENOMEM. */
		bool stalled = (it / 2048) % 4 == 3;

		if (r < 70 || (stalled && r >= 80))
			post_sq(P);
		else if (r < 80)
			rq_step(P);
		else if (r < 82)
			complete_unsignaled(P);
		else
			complete_sq(P, 1 + ukm_rng_below(&P->rng, P->qn ? P->qn : 1));
		if (t_case_failures)
			printf("# failed at iteration %u (seed 0x%" PRIx64 ")\n", it, seed);
	}
	printf("# posts %lu, padding NOPs %lu, -ENOMEM %lu, -EINVAL %lu, clr blocks %lu, GEN_1 odd "
	       "headers %lu, SQ flips %lu, SQ CQEs %lu, unsignaled CQEs %lu, RQ CQEs %lu\n",
	       P->posts, P->pads, P->enomem, P->einval, P->clears, P->odd, P->flips, P->sq_done,
	       P->efault, P->rq_done);
	/* The run must have exercised what it claims to check (moot once a check failed). */
	if (t_case_failures)
		goto out;
	T_CHECK(P->pads > 0);
	T_CHECK(P->enomem > 0);
	T_CHECK(P->einval > 0);
	T_CHECK(P->clears > 0);
	T_CHECK(P->flips >= 2);
	T_CHECK(P->efault > 0);
	if (gen == 1)
		T_CHECK(P->odd > 0);
	for (int k = 0; k < UKT_KINDS; k++)
		if (gen == 3 || (k != UKT_FAA && k != UKT_CAS))
			T_CHECK_MSG(P->kinds[k] > 0, "kind %s never posted", ukt_kind_name[k]);
out:
	free(P->q);
	free(P->rq_ids);
	free(P->before);
	ukt_cq_destroy(&P->cq);
	ukt_qp_destroy(&P->t);
	free(P);
}

static void run_gen(int gen)
{
	uint64_t seed = seed_from_env();
	uint32_t iters = iters_from_env();
	/* Three SQ sizes per generation: depths 512, 1024 and 2048 quanta. */
	static const uint32_t wrs[2][3] = { { 8, 150, 800 }, { 16, 60, 200 } };

	for (int i = 0; i < 3 && !t_case_failures; i++)
		run(gen, wrs[gen > 1][i], seed + 0x1000u * (uint64_t)gen + (uint64_t)i, iters);
}

T_CASE(property_gen1)
{
	run_gen(1);
}

T_CASE(property_gen2)
{
	run_gen(2);
}

T_CASE(property_gen3)
{
	run_gen(3);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
