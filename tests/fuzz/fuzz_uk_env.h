/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A lib/uk QP and CQ in plain memory for the fuzz targets: the SQ of 512 quanta, an RQ of 64,
 * the tracking arrays, and a CQ of FUZZ_CQ_SIZE entries. Attributes per generation as the soft
 * device advertises them (the same figures as tests/unit/uk).
 */
#ifndef FUZZ_UK_ENV_H
#define FUZZ_UK_ENV_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irdma_user.h"

#define FUZZ_SQ_QUANTA 512
#define FUZZ_RQ_QUANTA 64
#define FUZZ_CQ_SIZE   32

static const struct irdma_uk_attrs fuzz_attrs[4] = {
	[1] = { .hw_rev = 1, .max_hw_wq_frags = 3, .max_hw_read_sges = 1, .max_hw_inline = 48,
		.max_hw_rq_quanta = 16384, .max_hw_wq_quanta = 2048, .max_hw_sq_chunk = 2,
		.min_hw_wq_size = 4, .max_hw_cq_size = 1048575, .min_hw_cq_size = 1 },
	[2] = { .hw_rev = 2, .max_hw_wq_frags = 13, .max_hw_read_sges = 13, .max_hw_inline = 101,
		.max_hw_rq_quanta = 32768, .max_hw_wq_quanta = 32768, .max_hw_sq_chunk = 8,
		.min_hw_wq_size = 8, .feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE,
		.max_hw_cq_size = 1048575, .min_hw_cq_size = 1 },
	[3] = { .hw_rev = 3, .max_hw_wq_frags = 14, .max_hw_read_sges = 14, .max_hw_inline = 216,
		.max_hw_rq_quanta = 32768, .max_hw_wq_quanta = 32768, .max_hw_sq_chunk = 8,
		.min_hw_wq_size = 16, .max_hw_srq_quanta = 262144, .max_hw_cq_size = 1048575,
		.min_hw_cq_size = 1,
		.feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE |
				 IRDMA_FEATURE_64_BYTE_CQE | IRDMA_FEATURE_ATOMIC_OPS | IRDMA_FEATURE_SRQ },
};

struct fuzz_uk {
	struct irdma_uk_attrs attrs;
	struct irdma_qp_uk qp;
	struct irdma_cq_uk cq;
	struct irdma_qp_quanta *sq, *rq; /* separate allocations: ASan sees writes past them */
	struct irdma_sq_uk_wr_trk_info trk[FUZZ_SQ_QUANTA];
	uint64_t rq_wrid[FUZZ_RQ_QUANTA];
	uint64_t qp_shadow[8];
	uint8_t cqe[FUZZ_CQ_SIZE * 64] __attribute__((aligned(64)));
	uint64_t cq_shadow[8];
	uint32_t db, cq_db, cq_ack;
};

/* Generation 1..3; sq_frags/rq_frags within the generation's limit. Returns 0 or -errno. */
static inline int fuzz_uk_init(struct fuzz_uk *u, unsigned int gen, uint32_t sq_frags,
			       uint32_t inline_max)
{
	struct irdma_qp_uk_init_info qi;
	struct irdma_cq_uk_init_info ci;

	static struct irdma_qp_quanta *sq, *rq;

	if (sq == NULL) {
		sq = malloc(FUZZ_SQ_QUANTA * sizeof(*sq));
		rq = malloc(FUZZ_RQ_QUANTA * sizeof(*rq));
		if (sq == NULL || rq == NULL)
			abort();
	}
	memset(u, 0, sizeof(*u));
	memset(sq, 0, FUZZ_SQ_QUANTA * sizeof(*sq));
	memset(rq, 0, FUZZ_RQ_QUANTA * sizeof(*rq));
	u->sq = sq;
	u->rq = rq;
	u->attrs = fuzz_attrs[gen];
	memset(&qi, 0, sizeof(qi));
	qi.uk_attrs = &u->attrs;
	qi.sq = u->sq;
	qi.rq = u->rq;
	qi.sq_wrtrk_array = u->trk;
	qi.rq_wrid_array = u->rq_wrid;
	qi.shadow_area = u->qp_shadow;
	qi.wqe_alloc_db = &u->db;
	qi.qp_id = 7;
	qi.sq_size = FUZZ_SQ_QUANTA;
	qi.rq_size = FUZZ_RQ_QUANTA >> 2;
	qi.rq_shift = 2;
	qi.max_sq_frag_cnt = sq_frags;
	qi.max_rq_frag_cnt = 3;
	qi.max_inline_data = inline_max;
	qi.type = IRDMA_QP_TYPE_ROCE_RC;
	if (irdma_uk_qp_init(&u->qp, &qi) != 0)
		return -1;
	memset(&ci, 0, sizeof(ci));
	ci.cq_base = (struct irdma_cqe *)(void *)u->cqe;
	ci.cq_size = FUZZ_CQ_SIZE;
	ci.cq_id = 3;
	ci.avoid_mem_cflct = gen == 3; /* 64-byte CQEs */
	ci.shadow_area = u->cq_shadow;
	ci.cqe_alloc_db = &u->cq_db;
	ci.cq_ack_db = &u->cq_ack;
	irdma_uk_cq_init(&u->cq, &ci);
	return 0;
}

#endif /* FUZZ_UK_ENV_H */
