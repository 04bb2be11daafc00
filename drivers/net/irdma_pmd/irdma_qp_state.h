/* SPDX-License-Identifier: BSD-3-Clause */
/* The verbs QP state machine: legal transitions and their attribute masks. */
#ifndef IRDMA_QP_STATE_H
#define IRDMA_QP_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "rte_pmd_irdma.h"

struct irdma_qp_transition {
	bool legal;
	uint32_t required;
	uint32_t optional;
};

/*
 * The rule for moving a QP of @p type from @p cur to @p next. Illegal transitions have
 * legal == false. RTE_PMD_IRDMA_QP_STATE is part of every required mask.
 */
struct irdma_qp_transition irdma_qp_transition(enum rte_pmd_irdma_qp_type type,
					       enum rte_pmd_irdma_qp_state cur,
					       enum rte_pmd_irdma_qp_state next);

/* Name of the lowest attribute bit set in @p mask ("PATH_MTU"), for messages. */
const char *irdma_qp_attr_name(uint32_t mask);

#endif /* IRDMA_QP_STATE_H */
