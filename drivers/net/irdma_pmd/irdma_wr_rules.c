/* SPDX-License-Identifier: BSD-3-Clause */
/* The send work-request opcode table (irdma_wr_rules.h). */
#include <errno.h>
#include <string.h>

#include "irdma_defs.h"

#include "irdma_wr_rules.h"

#define RC IRDMA_WR_RC
#define UD IRDMA_WR_UD
#define INL IRDMA_WR_INLINE
#define IMM IRDMA_WR_IMM
#define REM IRDMA_WR_REMOTE
#define AH IRDMA_WR_UD_AH
#define ATOM IRDMA_WR_ATOMIC

const struct irdma_wr_rule irdma_wr_rules[IRDMA_WR_OPCODES] = {
	[RTE_PMD_IRDMA_WR_RDMA_WRITE] = { "RDMA_WRITE", RC | INL | REM, IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM] = { "RDMA_WRITE_WITH_IMM", RC | INL | REM | IMM,
						   IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_SEND] = { "SEND", RC | UD | INL | AH, IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_SEND_WITH_IMM] = { "SEND_WITH_IMM", RC | UD | INL | AH | IMM,
					     IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_RDMA_READ] = { "RDMA_READ", RC | REM, IRDMA_WR_SGES_READ },
	[RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP] = { "ATOMIC_CMP_AND_SWP", RC | REM | ATOM,
						  IRDMA_WR_SGES_ONE },
	[RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD] = { "ATOMIC_FETCH_AND_ADD", RC | REM | ATOM,
						    IRDMA_WR_SGES_ONE },
	[RTE_PMD_IRDMA_WR_LOCAL_INV] = { "LOCAL_INV", RC | UD, IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_BIND_MW] = { "BIND_MW", RC, IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_SEND_WITH_INV] = { "SEND_WITH_INV", RC | INL, IRDMA_WR_SGES_SQ },
	[RTE_PMD_IRDMA_WR_NOP] = { "NOP", RC | UD, IRDMA_WR_SGES_SQ },
};

int
irdma_wr_refusal(int opcode, bool inl, enum rte_pmd_irdma_qp_type type, uint8_t gen,
		 bool atomics, const char **why)
{
	const struct irdma_wr_rule *r;

	if (opcode < 0 || opcode >= IRDMA_WR_OPCODES || irdma_wr_rules[opcode].name == NULL) {
		*why = "is not an opcode";
		return -EINVAL;
	}
	r = &irdma_wr_rules[opcode];
	if (!(r->need & (type == RTE_PMD_IRDMA_QPT_RC ? RC : UD))) {
		*why = type == RTE_PMD_IRDMA_QPT_RC ? "is not valid on an RC QP" :
						     "is not valid on a UD QP";
		return -EINVAL;
	}
	if (inl && !(r->need & INL)) {
		*why = "does not take SEND_INLINE";
		return -EINVAL;
	}
	if ((r->need & IMM) && gen < IRDMA_GEN_2) {
		*why = "needs GEN_2 or later (immediate data)";
		return -EOPNOTSUPP;
	}
	if ((r->need & ATOM) && !atomics) {
		*why = "needs GEN_3 (atomics)";
		return -EOPNOTSUPP;
	}
	*why = NULL;
	return 0;
}

void
irdma_wr_allowed_init(struct irdma_wr_allowed *a, enum rte_pmd_irdma_qp_type type, uint8_t gen,
		      bool atomics, uint32_t max_send_sge, uint32_t max_sge_rd)
{
	const char *why;
	uint32_t max;
	int op, inl;

	memset(a, 0, sizeof(*a));
	if (max_send_sge > UINT8_MAX - 1)
		max_send_sge = UINT8_MAX - 1;
	for (op = 0; op < IRDMA_WR_OPCODES; op++) {
		switch (irdma_wr_rules[op].sges) {
		case IRDMA_WR_SGES_READ:
			max = max_sge_rd < max_send_sge ? max_sge_rd : max_send_sge;
			break;
		case IRDMA_WR_SGES_ONE:
			max = max_send_sge < 1 ? max_send_sge : 1;
			break;
		default:
			max = max_send_sge;
			break;
		}
		for (inl = 0; inl < 2; inl++)
			if (irdma_wr_refusal(op, inl, type, gen, atomics, &why) == 0)
				a->lim[op][inl] = (uint8_t)(max + 1);
	}
}
