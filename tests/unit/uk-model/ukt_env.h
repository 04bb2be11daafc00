/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test environment for lib/uk: QPs, SRQs and CQs on zeroed heap memory (as a driver would
 * hand them to lib/uk), and the "hardware" side helpers that write CQEs the way a device
 * does: body first, then the qword holding the valid bit, with release ordering.
 */
#ifndef UKT_ENV_H
#define UKT_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "irdma_user.h"

/* Fixed qwords of a WQE/CQE, read as little-endian values. */
uint64_t ukt_get64(const void *base, uint32_t byte_off);
void ukt_put64(void *base, uint32_t byte_off, uint64_t v);
/* Same with acquire / release ordering (the hardware side of the valid-bit protocol). */
uint64_t ukt_load_acquire64(const void *p);
void ukt_store_release64(void *p, uint64_t v);

#define UKT_BITS(v, lo, hi) (((v) >> (lo)) & ((hi) - (lo) == 63 ? ~0ull : ((1ull << ((hi) - (lo) + 1)) - 1)))

void ukt_attrs(struct irdma_uk_attrs *a, int gen);

struct ukt_qp {
	int gen;
	struct irdma_uk_attrs attrs;
	struct irdma_qp_uk qp;
	struct irdma_qp_uk_init_info info;
	void *sq_mem;  /* sq_depth quanta */
	void *rq_mem;  /* rq_depth quanta */
	struct irdma_sq_uk_wr_trk_info *trk;
	uint64_t *rq_wrid;
	uint64_t shadow[8];
	uint32_t db; /* the WQE-allocate doorbell: a plain memory word */
	uint32_t sq_depth, rq_depth;
	uint8_t sq_shift, rq_shift;
};

struct ukt_qp_cfg {
	int gen;
	uint32_t max_send_wr, max_recv_wr;
	uint32_t sq_sge, rq_sge, max_inline;
	uint32_t qp_type; /* 0 = RoCE RC */
	struct irdma_srq_uk *srq;
	bool first_sq_wq; /* iWARP: reserve the connection WQEs */
};

/* Sizes through irdma_uk_calc_depth_shift_sq/rq, allocates, irdma_uk_qp_init. 0 or -errno. */
int ukt_qp_create(struct ukt_qp *t, const struct ukt_qp_cfg *cfg);
void ukt_qp_destroy(struct ukt_qp *t);

struct ukt_srq {
	struct irdma_uk_attrs attrs;
	struct irdma_srq_uk srq;
	void *mem;
	uint64_t shadow[8];
	uint32_t depth;
	uint8_t shift;
};
int ukt_srq_create(struct ukt_srq *t, uint32_t max_wr, uint32_t max_sge);
void ukt_srq_destroy(struct ukt_srq *t);

struct ukt_cq {
	struct irdma_cq_uk cq;
	void *mem;
	uint64_t shadow[8];
	uint32_t arm_db;
	uint32_t size;  /* slots */
	bool cqe64;     /* 64-byte slots (GEN_3 avoid_mem_cflct) */
	/* hardware producer state */
	uint32_t hw_head;
	uint8_t hw_pol;
};
int ukt_cq_create(struct ukt_cq *t, uint32_t slots, bool cqe64);
void ukt_cq_destroy(struct ukt_cq *t);

/* A CQE as the hardware builds it (qwords 0..3; qwords 4..7 = extension). */
struct ukt_cqe {
	uint64_t q[8];
	bool ext; /* an extension follows (32-byte mode: next slot) */
};

void ukt_cqe_sq(struct ukt_cqe *c, const void *qp_ctx, uint32_t qp_id, uint32_t wqe_idx,
		uint32_t opcode);
void ukt_cqe_rq(struct ukt_cqe *c, const void *qp_ctx, uint32_t qp_id, uint32_t wqe_idx,
		uint32_t bytes);
void ukt_cqe_error(struct ukt_cqe *c, uint16_t major, uint16_t minor);
/* Writes the CQE at the hardware head (body, then the valid qword with release), advances. */
void ukt_cq_hw_write(struct ukt_cq *t, const struct ukt_cqe *c);
void *ukt_cq_slot(struct ukt_cq *t, uint32_t idx);

/* Header qword of SQ quantum idx. */
static inline uint64_t ukt_sq_hdr(const struct ukt_qp *t, uint32_t idx)
{
	return ukt_get64((const uint8_t *)t->sq_mem + 32u * idx, 24);
}


/* An expected WQE image: the qwords the post must write (written mask), in spec layout. */
struct ukt_img {
	uint64_t q[32];
	uint32_t written; /* bit i = qword i is written by the post */
	uint32_t quanta;
};

/*
 * SGE-carrying SQ WQE (send, write, read): fragments (or immediate + fragments), qword 2,
 * header bits given in hdr (without addl frag count and valid, which are computed here).
 */
void ukt_expect_sq_sges(struct ukt_img *img, int gen, const struct irdma_sge *sg, uint32_t n,
			bool imm, uint32_t imm_data, uint64_t q2, uint64_t hdr, uint8_t pol);
/* RQ (q2 = 0) and SRQ (q2 = wr_id) WQE. */
void ukt_expect_rq(struct ukt_img *img, int gen, const struct irdma_sge *sg, uint32_t n,
		   uint64_t q2, uint8_t pol);
/* A 1-quantum NOP. */
void ukt_expect_nop(struct ukt_img *img, bool signaled, uint8_t pol);
/* Index of the first written qword of img that differs from mem, or -1. */
int ukt_img_diff(const struct ukt_img *img, const void *mem);

/* Hardware completes an SQ WQE: writes the CQE. */
void ukt_hw_sq_done(struct ukt_cq *cq, struct ukt_qp *t, uint32_t wqe_idx, uint32_t opcode);

/* A work request of any kind, built and posted through the matching lib/uk function. */
enum ukt_kind {
	UKT_SEND,
	UKT_SEND_INV,
	UKT_WRITE,
	UKT_READ,
	UKT_READ_INV,
	UKT_INLINE_SEND,
	UKT_INLINE_WRITE,
	UKT_NOP,
	UKT_LOCAL_INV,
	UKT_BIND,
	UKT_FAA,
	UKT_CAS,
	UKT_KINDS
};

struct ukt_wr {
	enum ukt_kind kind;
	uint32_t nsge;       /* SGEs (inline: SGEs the inline bytes are split across) */
	uint32_t inline_len;
	bool imm;
	bool signaled;
	uint64_t wr_id;
};

extern const char *const ukt_kind_name[UKT_KINDS];
/* Fills sg[0..nsge) for a WR (inline kinds: slices of a fixed byte pattern); returns the total. */
uint32_t ukt_wr_sges(const struct ukt_wr *wr, struct irdma_sge *sg);
int ukt_post(struct ukt_qp *t, const struct ukt_wr *wr, bool post_sq);
/* Spec facts about a WR (model side, no lib/uk call). */
uint32_t ukt_wr_opcode(const struct ukt_wr *wr);
bool ukt_wr_clears(const struct ukt_wr *wr);
/* Bytes an SQ success completion reports (the tracked wr_len). */
uint32_t ukt_wr_len(const struct ukt_wr *wr);
/* Quanta of a WR by the spec formulas (ukm_model), never by lib/uk's size functions. */
uint32_t ukt_wr_quanta(int gen, const struct ukt_wr *wr);
#endif /* UKT_ENV_H */
