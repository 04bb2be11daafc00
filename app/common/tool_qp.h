/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool_qp.h - one way to bring a QP up, for the tools, the benches and the tests: create it
 * on one CQ, then RESET -> INIT -> RTR -> RTS with the attributes an out-of-band exchange
 * gave (the peer's QPN, PSN and GID) and the local choices (MTU, timeouts, read depths).
 * RC QPs take the path in RTR; UD QPs take only their Q_Key (INIT) and send PSN (RTS), and
 * reach their peer through an address handle built from the same path (tool_qp_ah_attr).
 */
#ifndef IRDMA_APP_TOOL_QP_H
#define IRDMA_APP_TOOL_QP_H

#include <stddef.h>
#include <stdint.h>

#include <rte_pmd_irdma.h>

/** What the transitions need. tool_qp_conn_init() fills rdma-core's and perftest's values. */
struct tool_qp_conn {
	/* INIT */
	uint32_t access;             /**< RC: remote access flags (REMOTE_WRITE, ...) */
	uint32_t qkey;               /**< UD: Q_Key (0x11111111) */
	/* RTR (RC) */
	enum rte_pmd_irdma_mtu path_mtu; /**< 1024 */
	uint32_t dest_qpn;           /**< the peer's QP */
	uint32_t rq_psn;             /**< the peer's first send PSN */
	uint8_t max_dest_rd_atomic;  /**< reads/atomics the peer may have in flight here (1) */
	uint8_t min_rnr_timer;       /**< 12 */
	/* the path: RC's RTR, or a UD address handle */
	uint8_t dgid[16];            /**< the peer's GID, wire order */
	uint8_t sgid_index;          /**< ours */
	uint8_t hop_limit;           /**< 64 */
	uint8_t traffic_class;       /**< 0 */
	uint8_t sl;                  /**< 0 */
	/* RTS */
	uint32_t sq_psn;             /**< our first send PSN */
	uint8_t timeout;             /**< local ACK timeout exponent (14) */
	uint8_t retry_cnt;           /**< 7 */
	uint8_t rnr_retry;           /**< 7 (no limit) */
	uint8_t max_rd_atomic;       /**< our reads/atomics in flight (1) */
};

/** Zero @p c and set the defaults noted on each field. */
void tool_qp_conn_init(struct tool_qp_conn *c);

/**
 * A QP of @p type on @p pd whose sends and receives complete on @p cq (receives from @p srq
 * when not NULL). @p cap: what is asked; on success it holds what was granted.
 * @return the QP, or NULL with rte_errno set.
 */
struct rte_pmd_irdma_qp *tool_qp_create(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *cq,
					struct rte_pmd_irdma_srq *srq,
					enum rte_pmd_irdma_qp_type type,
					struct rte_pmd_irdma_qp_cap *cap);

/** RESET -> INIT (port 1, P_Key index 0; RC: c->access, UD: c->qkey).
 *  @return 0 or a negative errno, with a line naming the transition in @p err (may be NULL). */
int tool_qp_to_init(struct rte_pmd_irdma_qp *qp, const struct tool_qp_conn *c, char *err,
		    size_t errlen);

/** INIT -> RTR -> RTS. @return 0 or a negative errno, with a line in @p err (may be NULL). */
int tool_qp_to_rts(struct rte_pmd_irdma_qp *qp, const struct tool_qp_conn *c, char *err,
		   size_t errlen);

/** tool_qp_to_init() then tool_qp_to_rts(). */
int tool_qp_connect(struct rte_pmd_irdma_qp *qp, const struct tool_qp_conn *c, char *err,
		    size_t errlen);

/** UD: the address handle attributes of the path in @p c (GRH, port 1). */
void tool_qp_ah_attr(const struct tool_qp_conn *c, struct rte_pmd_irdma_ah_attr *ah);

#endif /* IRDMA_APP_TOOL_QP_H */
