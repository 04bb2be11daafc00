/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What each send work-request opcode needs and allows, as one table the post path validates
 * against (irdma_post.c). A QP derives from it, once at creation, one byte per opcode (with
 * and without SEND_INLINE): the SGE count it allows plus one, 0 when it refuses the opcode,
 * so a post makes one comparison; the table then explains a refusal.
 */
#ifndef IRDMA_WR_RULES_H
#define IRDMA_WR_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "rte_pmd_irdma.h"

#define IRDMA_WR_OPCODES (RTE_PMD_IRDMA_WR_NOP + 1)

enum irdma_wr_need {
	IRDMA_WR_RC = 1u << 0,      /* valid on an RC QP */
	IRDMA_WR_UD = 1u << 1,      /* valid on a UD QP */
	IRDMA_WR_INLINE = 1u << 2,  /* may carry its payload inline (SEND_INLINE) */
	IRDMA_WR_IMM = 1u << 3,     /* carries imm_data: GEN_2 or later */
	IRDMA_WR_REMOTE = 1u << 4,  /* names remote memory (wr.rdma / wr.atomic; the peer checks
				     * the rkey, the PMD cannot) */
	IRDMA_WR_UD_AH = 1u << 5,   /* on UD: wr.ud (a live AH of the QP's PD, QPN, Q_Key) */
	IRDMA_WR_ATOMIC = 1u << 6,  /* the device's atomics (GEN_3): one 8-byte SGE, an 8-byte
				     * aligned remote address */
};

/* Which limit the SGE count of an opcode has. */
enum irdma_wr_sges {
	IRDMA_WR_SGES_SQ,   /* the QP's max_send_sge */
	IRDMA_WR_SGES_READ, /* RDMA READ: also the device's max_sge_rd */
	IRDMA_WR_SGES_ONE,  /* one SGE at most (atomics: exactly one, checked with the shape) */
};

struct irdma_wr_rule {
	const char *name;  /* NULL: not an opcode */
	uint16_t need;     /* enum irdma_wr_need */
	uint8_t sges;      /* enum irdma_wr_sges */
};

extern const struct irdma_wr_rule irdma_wr_rules[IRDMA_WR_OPCODES];

/* What a QP may post, derived from the table at creation: [opcode][inline] = the SGE
 * count allowed + 1, or 0 (refused: num_sge >= 0 always fails the test). */
struct irdma_wr_allowed {
	uint8_t lim[IRDMA_WR_OPCODES][2];
};

void irdma_wr_allowed_init(struct irdma_wr_allowed *a, enum rte_pmd_irdma_qp_type type,
			   uint8_t gen, bool atomics, uint32_t max_send_sge, uint32_t max_sge_rd);

/*
 * Why a QP refuses @p opcode (@p inl: with SEND_INLINE): -EINVAL (not an opcode, not on
 * this QP type, not inline) or -EOPNOTSUPP (the generation lacks it); *why names it for the
 * log line.
 */
int irdma_wr_refusal(int opcode, bool inl, enum rte_pmd_irdma_qp_type type, uint8_t gen,
		     bool atomics, const char **why);

#endif /* IRDMA_WR_RULES_H */
