/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An independent model of the irdma SQ/RQ ring accounting, written from the formulas of
 * doc/spec/irdma-uk.md (§4 ring model, §5.4 clr_wqes, §5.6 get_next_send_wqe, §6.3 fragment
 * tables, §5.1 inline quanta). It never calls lib/uk: the tests compare lib/uk's rings and
 * memory against what this model predicts.
 */
#ifndef UKM_MODEL_H
#define UKM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* Per-generation limits the model needs (doc/spec/irdma-uk.md §2.2). */
struct ukm_gen {
	int gen;                 /* 1, 2, 3 */
	uint32_t max_frags;      /* max_hw_wq_frags */
	uint32_t max_read_sges;  /* max_hw_read_sges */
	uint32_t max_inline;     /* max_hw_inline */
	uint32_t chunk;          /* max_hw_sq_chunk */
	uint32_t min_wq_size;    /* min_hw_wq_size */
	uint32_t max_sq_quanta;  /* max_hw_wq_quanta */
	uint32_t max_rq_quanta;  /* max_hw_rq_quanta */
};

const struct ukm_gen *ukm_gen_get(int gen);

/* Quanta of an SGE-carrying WQE with frag_cnt fragments (immediate slot included); 0 = invalid. */
uint32_t ukm_frag_quanta(uint32_t frag_cnt);
/* Quanta of an inline WQE of len bytes. */
uint32_t ukm_inline_quanta(int gen, uint32_t len);
/* WQE shift for (sge, inline) on a generation (doc/spec/irdma-uk.md §6.1). */
uint32_t ukm_wqe_shift(int gen, uint32_t sge, uint32_t inline_len);
/* Smallest power of two >= n (n >= 1). */
uint64_t ukm_pow2(uint64_t n);
/* SQ depth in quanta for sq_size WQEs of 32 << shift bytes; 0 when over the HW limit. */
uint32_t ukm_sq_depth(int gen, uint32_t sq_size, uint32_t shift);
uint32_t ukm_rq_depth(int gen, uint32_t rq_size, uint32_t shift);

/* The SQ ring as the spec describes it: indices modulo size, 257 quanta kept unused. */
struct ukm_sq {
	int gen;
	uint32_t size;  /* quanta */
	uint32_t head;
	uint32_t tail;
	uint8_t polarity; /* swqe_polarity */
};

/* What one post does to the SQ. */
struct ukm_sq_post {
	int rc;              /* 0 or -ENOMEM */
	uint32_t pad_start;  /* first padding NOP slot */
	uint32_t npad;       /* padding NOPs written (1 quantum each) */
	uint32_t wqe_idx;    /* first quantum of the WQE */
	uint32_t quanta;
	uint8_t polarity;    /* valid bit value written into the WQE (and the padding NOPs) */
	uint8_t pad_polarity;
	bool clr;            /* irdma_clr_wqes filled 128 quanta */
	uint32_t clr_start;
	uint8_t clr_byte;
	bool odd_fixup;      /* GEN_1: qword 3 of slot odd_slot = (!polarity) << 63 */
	uint32_t odd_slot;
};

void ukm_sq_init(struct ukm_sq *sq, int gen, uint32_t size, uint32_t head, uint8_t polarity);
uint32_t ukm_sq_used(const struct ukm_sq *sq);
/* Quanta still postable: size - used - 257 (never negative in a consistent ring). */
uint32_t ukm_sq_free(const struct ukm_sq *sq);
/* Applies a post of 'quanta' quanta; 'clears' tells whether the post function pre-clears. */
void ukm_sq_post(struct ukm_sq *sq, uint32_t quanta, bool clears, struct ukm_sq_post *out);
/* Hardware completed the WQE at wqe_idx with the given quanta: tail moves past it. */
void ukm_sq_complete(struct ukm_sq *sq, uint32_t wqe_idx, uint32_t quanta);

/* RQ/SRQ ring counts WQEs. */
struct ukm_rq {
	uint32_t size;
	uint32_t head;
	uint32_t tail;
	uint8_t polarity;
};

void ukm_rq_init(struct ukm_rq *rq, uint32_t size);
/* Returns the index taken, or -ENOMEM when full (size - 1 entries in use). */
int ukm_rq_post(struct ukm_rq *rq, uint8_t *polarity_out);
uint32_t ukm_rq_used(const struct ukm_rq *rq);

/* A small deterministic PRNG (xorshift64*), so seeds reproduce on every libc. */
struct ukm_rng {
	uint64_t s;
};

static inline void ukm_rng_seed(struct ukm_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ull;
}

static inline uint64_t ukm_rng_next(struct ukm_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, n). */
static inline uint32_t ukm_rng_below(struct ukm_rng *r, uint32_t n)
{
	return n ? (uint32_t)((ukm_rng_next(r) >> 32) % n) : 0;
}

#endif /* UKM_MODEL_H */
