/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Independent model of the irdma ring accounting. Every formula here is restated from the
 * spec, on purpose without looking at lib/uk, so that a shared misreading cannot make both
 * sides agree.
 */
#include <errno.h>

#include "ukm_model.h"

#define UKM_SQ_RSVD 258u
#define UKM_RQ_RSVD 1u
#define UKM_SQ_KEEP_FREE 257u /* the SQ full test keeps 257 quanta unused */
#define UKM_CLR_QUANTA 128u

static const struct ukm_gen ukm_gens[3] = {
	{ .gen = 1, .max_frags = 3, .max_read_sges = 1, .max_inline = 48, .chunk = 2,
	  .min_wq_size = 4, .max_sq_quanta = 2048, .max_rq_quanta = 16384 },
	{ .gen = 2, .max_frags = 13, .max_read_sges = 13, .max_inline = 101, .chunk = 8,
	  .min_wq_size = 8, .max_sq_quanta = 32768, .max_rq_quanta = 32768 },
	{ .gen = 3, .max_frags = 14, .max_read_sges = 14, .max_inline = 216, .chunk = 8,
	  .min_wq_size = 16, .max_sq_quanta = 32768, .max_rq_quanta = 32768 },
};

const struct ukm_gen *ukm_gen_get(int gen)
{
	return (gen >= 1 && gen <= 3) ? &ukm_gens[gen - 1] : 0;
}

uint32_t ukm_frag_quanta(uint32_t frag_cnt)
{
	/* Header quantum holds fragment 0; every further quantum holds two fragments. */
	if (frag_cnt >= 16)
		return 0;
	return frag_cnt <= 1 ? 1 : 1 + frag_cnt / 2;
}

uint32_t ukm_inline_quanta(int gen, uint32_t len)
{
	if (gen == 1)
		return len <= 16 ? 1 : 2;
	/* 8 bytes in the header quantum, then 31 data bytes + 1 valid byte per quantum. */
	if (len <= 8)
		return 1;
	uint32_t q = 1 + (len - 8 + 30) / 31;
	return q > 8 ? 8 : q;
}

uint32_t ukm_wqe_shift(int gen, uint32_t sge, uint32_t inline_len)
{
	if (gen == 1) {
		if (sge <= 1 && inline_len <= 16)
			return 0;
		if (sge < 4 && inline_len <= 48)
			return 1;
		return 2;
	}
	if (sge <= 1 && inline_len <= 8)
		return 0;
	if (sge < 4 && inline_len <= 39)
		return 1;
	if (sge < 8 && inline_len <= 101)
		return 2;
	return 3;
}

uint64_t ukm_pow2(uint64_t n)
{
	uint64_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static uint32_t ukm_depth(uint64_t wqes, uint32_t shift, uint32_t rsvd, uint32_t min_wq,
			  uint32_t max_quanta)
{
	uint64_t d = ukm_pow2((wqes << shift) + rsvd);
	uint64_t min = (uint64_t)min_wq << shift;

	if (d < min)
		return (uint32_t)min;
	return d > max_quanta ? 0 : (uint32_t)d;
}

uint32_t ukm_sq_depth(int gen, uint32_t sq_size, uint32_t shift)
{
	const struct ukm_gen *g = ukm_gen_get(gen);

	return ukm_depth(sq_size, shift, UKM_SQ_RSVD, g->min_wq_size, g->max_sq_quanta);
}

uint32_t ukm_rq_depth(int gen, uint32_t rq_size, uint32_t shift)
{
	const struct ukm_gen *g = ukm_gen_get(gen);

	return ukm_depth(rq_size, shift, UKM_RQ_RSVD, g->min_wq_size, g->max_rq_quanta);
}

void ukm_sq_init(struct ukm_sq *sq, int gen, uint32_t size, uint32_t head, uint8_t polarity)
{
	sq->gen = gen;
	sq->size = size;
	sq->head = head;
	sq->tail = head;
	sq->polarity = polarity;
}

uint32_t ukm_sq_used(const struct ukm_sq *sq)
{
	return (sq->head + sq->size - sq->tail) % sq->size;
}

uint32_t ukm_sq_free(const struct ukm_sq *sq)
{
	return sq->size - ukm_sq_used(sq) - UKM_SQ_KEEP_FREE;
}

void ukm_sq_post(struct ukm_sq *sq, uint32_t quanta, bool clears, struct ukm_sq_post *out)
{
	uint32_t chunk = ukm_gen_get(sq->gen)->chunk;
	uint32_t avail = chunk - sq->head % chunk;
	uint32_t free_q = ukm_sq_free(sq);

	*out = (struct ukm_sq_post){ .rc = 0, .quanta = quanta };
	if (quanta <= avail) {
		if (quanta > free_q) {
			out->rc = -ENOMEM;
			return;
		}
	} else {
		/* The WQE would straddle a chunk: the rest of the chunk becomes NOPs first. */
		if (quanta + avail > free_q) {
			out->rc = -ENOMEM;
			return;
		}
		out->pad_start = sq->head;
		out->npad = avail;
		out->pad_polarity = sq->polarity;
		sq->head = (sq->head + avail) % sq->size;
	}
	out->wqe_idx = sq->head;
	if (sq->head == 0)
		sq->polarity ^= 1;
	out->polarity = sq->polarity;
	sq->head = (sq->head + quanta) % sq->size;
	if (sq->gen == 1 && quanta == 1 && (sq->head & 1)) {
		out->odd_fixup = true;
		out->odd_slot = sq->head;
	}
	if (clears && out->wqe_idx % UKM_CLR_QUANTA == 0) {
		uint32_t target = (out->wqe_idx + UKM_CLR_QUANTA) % sq->size;

		out->clr = true;
		out->clr_start = target;
		/* Stale headers must look invalid to the pass that next uses those slots. */
		if (target != 0)
			out->clr_byte = sq->polarity ? 0x00 : 0xff;
		else
			out->clr_byte = sq->polarity ? 0xff : 0x00;
	}
}

void ukm_sq_complete(struct ukm_sq *sq, uint32_t wqe_idx, uint32_t quanta)
{
	sq->tail = (wqe_idx + quanta) % sq->size;
}

void ukm_rq_init(struct ukm_rq *rq, uint32_t size)
{
	rq->size = size;
	rq->head = rq->tail = 0;
	rq->polarity = 0;
}

uint32_t ukm_rq_used(const struct ukm_rq *rq)
{
	return (rq->head + rq->size - rq->tail) % rq->size;
}

int ukm_rq_post(struct ukm_rq *rq, uint8_t *polarity_out)
{
	uint32_t idx;

	if (ukm_rq_used(rq) == rq->size - 1)
		return -ENOMEM;
	idx = rq->head;
	if (idx == 0)
		rq->polarity ^= 1;
	rq->head = (rq->head + 1) % rq->size;
	*polarity_out = rq->polarity;
	return (int)idx;
}
