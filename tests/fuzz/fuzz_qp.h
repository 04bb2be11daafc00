/* SPDX-License-Identifier: BSD-3-Clause */
/* Connecting the QPs of the PMD fuzz targets (fuzz_pmd_post, fuzz_pmd_rx). Not the tools'
 * tool_qp.c: the fuzz build (-Dfuzz=true) compiles the code under test into each target and
 * builds no app/, and these QPs start from any state (a RESET first). */
#ifndef FUZZ_QP_H
#define FUZZ_QP_H

#include <string.h>

#include "rte_pmd_irdma.h"

/* A QP from any state through RESET to RTS: remote read, write and atomics allowed, Q_Key
 * 0x11111111, path MTU 1024, GID index 1 to @p dgid (UD: NULL), start PSNs @p rq_psn and
 * @p sq_psn, @p rd_atom reads/atomics each way, ACK timeout code @p timeout, one retry. */
static inline int
fuzz_qp_to_rts(struct rte_pmd_irdma_qp *qp, const union rte_pmd_irdma_gid *dgid, uint32_t dqpn,
	       uint32_t rq_psn, uint32_t sq_psn, uint8_t rd_atom, uint8_t timeout)
{
	struct rte_pmd_irdma_qp_attr a;
	int ud = qp->qp_type == RTE_PMD_IRDMA_QPT_UD;

	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_RESET;
	if (rte_pmd_irdma_qp_modify(qp, &a, RTE_PMD_IRDMA_QP_STATE) < 0)
		return -1;
	a.qp_state = RTE_PMD_IRDMA_QPS_INIT;
	a.port_num = 1;
	a.qkey = 0x11111111;
	a.qp_access_flags = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
			    RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	if (rte_pmd_irdma_qp_modify(qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_PKEY_INDEX |
				    RTE_PMD_IRDMA_QP_PORT |
				    (ud ? RTE_PMD_IRDMA_QP_QKEY : RTE_PMD_IRDMA_QP_ACCESS_FLAGS)) < 0)
		return -1;
	a.qp_state = RTE_PMD_IRDMA_QPS_RTR;
	a.path_mtu = RTE_PMD_IRDMA_MTU_1024;
	a.dest_qp_num = dqpn;
	a.rq_psn = rq_psn;
	a.max_dest_rd_atomic = rd_atom;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 64;
	if (dgid != NULL)
		a.ah_attr.grh.dgid = *dgid;
	if (rte_pmd_irdma_qp_modify(qp, &a, ud ? RTE_PMD_IRDMA_QP_STATE :
		RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_AV | RTE_PMD_IRDMA_QP_PATH_MTU |
		RTE_PMD_IRDMA_QP_DEST_QPN | RTE_PMD_IRDMA_QP_RQ_PSN |
		RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC | RTE_PMD_IRDMA_QP_MIN_RNR_TIMER) < 0)
		return -1;
	a.qp_state = RTE_PMD_IRDMA_QPS_RTS;
	a.sq_psn = sq_psn;
	a.timeout = timeout;
	a.retry_cnt = 1;
	a.rnr_retry = 1;
	a.max_rd_atomic = rd_atom;
	return rte_pmd_irdma_qp_modify(qp, &a, ud ? RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN :
		RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN | RTE_PMD_IRDMA_QP_TIMEOUT |
		RTE_PMD_IRDMA_QP_RETRY_CNT | RTE_PMD_IRDMA_QP_RNR_RETRY |
		RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC);
}

#endif /* FUZZ_QP_H */
