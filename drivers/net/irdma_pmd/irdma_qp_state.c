/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verbs QP state machine as a table: for each (current, next) state and QP type, which
 * attributes must be given and which may be. RoCE has no alternate path or path migration,
 * so those masks are absent (and refused with a message by the caller).
 */
#include "irdma_qp_state.h"

#define S(x) RTE_PMD_IRDMA_QP_##x
#define Q(x) RTE_PMD_IRDMA_QPS_##x

/* Attributes every RC transition into RTR needs: where the peer is and how to answer it. */
#define RC_RTR_REQ (S(STATE) | S(AV) | S(PATH_MTU) | S(DEST_QPN) | S(RQ_PSN) |              \
		    S(MAX_DEST_RD_ATOMIC) | S(MIN_RNR_TIMER))
#define RC_RTS_REQ (S(STATE) | S(SQ_PSN) | S(TIMEOUT) | S(RETRY_CNT) | S(RNR_RETRY) |        \
		    S(MAX_QP_RD_ATOMIC))
#define RC_RTS_OPT (S(CUR_STATE) | S(ACCESS_FLAGS) | S(MIN_RNR_TIMER))
#define RC_SQD_OPT (S(CUR_STATE) | S(AV) | S(ACCESS_FLAGS) | S(MIN_RNR_TIMER) | S(TIMEOUT) |  \
		    S(RETRY_CNT) | S(RNR_RETRY) | S(MAX_QP_RD_ATOMIC) | S(MAX_DEST_RD_ATOMIC))

struct rule {
	enum rte_pmd_irdma_qp_state cur, next;
	uint32_t rc_req, rc_opt;
	uint32_t ud_req, ud_opt;
};

static const struct rule rules[] = {
	{ Q(RESET), Q(INIT),
	  S(STATE) | S(PKEY_INDEX) | S(PORT) | S(ACCESS_FLAGS), 0,
	  S(STATE) | S(PKEY_INDEX) | S(PORT) | S(QKEY), 0 },
	{ Q(INIT), Q(INIT),
	  S(STATE), S(PKEY_INDEX) | S(PORT) | S(ACCESS_FLAGS),
	  S(STATE), S(PKEY_INDEX) | S(PORT) | S(QKEY) },
	{ Q(INIT), Q(RTR),
	  RC_RTR_REQ, S(ACCESS_FLAGS) | S(PKEY_INDEX),
	  S(STATE), S(PKEY_INDEX) | S(QKEY) },
	{ Q(RTR), Q(RTS),
	  RC_RTS_REQ, RC_RTS_OPT,
	  S(STATE) | S(SQ_PSN), S(CUR_STATE) | S(QKEY) },
	{ Q(RTS), Q(RTS),
	  S(STATE), RC_RTS_OPT,
	  S(STATE), S(CUR_STATE) | S(QKEY) },
	{ Q(RTS), Q(SQD),
	  S(STATE), S(EN_SQD_ASYNC_NOTIFY),
	  S(STATE), S(EN_SQD_ASYNC_NOTIFY) },
	{ Q(SQD), Q(RTS),
	  S(STATE), RC_RTS_OPT,
	  S(STATE), S(CUR_STATE) | S(QKEY) },
	{ Q(SQD), Q(SQD),
	  S(STATE), RC_SQD_OPT,
	  S(STATE), S(PKEY_INDEX) | S(QKEY) },
	/* SQE exists for UD only: an SQ error that leaves the RQ working. */
	{ Q(SQE), Q(RTS),
	  0, 0,
	  S(STATE), S(CUR_STATE) | S(QKEY) },
};

#undef S
#undef Q

struct irdma_qp_transition
irdma_qp_transition(enum rte_pmd_irdma_qp_type type, enum rte_pmd_irdma_qp_state cur,
		    enum rte_pmd_irdma_qp_state next)
{
	struct irdma_qp_transition t = { false, 0, 0 };
	bool ud = type == RTE_PMD_IRDMA_QPT_UD;
	unsigned int i;

	if ((unsigned int)cur > RTE_PMD_IRDMA_QPS_ERR || (unsigned int)next > RTE_PMD_IRDMA_QPS_ERR)
		return t;
	/* Any state may go to RESET or ERR with the state alone. */
	if (next == RTE_PMD_IRDMA_QPS_RESET || next == RTE_PMD_IRDMA_QPS_ERR) {
		t.legal = true;
		t.required = RTE_PMD_IRDMA_QP_STATE;
		return t;
	}
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];
		uint32_t req = ud ? r->ud_req : r->rc_req;

		if (r->cur != cur || r->next != next || req == 0)
			continue;
		t.legal = true;
		t.required = req;
		t.optional = ud ? r->ud_opt : r->rc_opt;
		break;
	}
	return t;
}

const char *
irdma_qp_attr_name(uint32_t mask)
{
	static const char *const names[] = {
		"STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX", "PORT",
		"QKEY", "AV", "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN",
		"MAX_QP_RD_ATOMIC", "ALT_PATH", "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC",
		"PATH_MIG_STATE", "CAP", "DEST_QPN",
	};
	unsigned int bit;

	if (mask == 0)
		return "none";
	bit = (unsigned int)__builtin_ctz(mask);
	return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : "unknown attribute";
}
