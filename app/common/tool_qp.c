/* SPDX-License-Identifier: BSD-3-Clause */
/* One QP bring-up for the tools, benches and tests (see tool_qp.h). */
#include "tool_qp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>

static int qp_fail(int rc, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int qp_fail(int rc, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return rc;
	va_start(ap, fmt);
	n = vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ": %s", strerror(-rc));
	return rc;
}

void tool_qp_conn_init(struct tool_qp_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->qkey = 0x11111111u;
	c->path_mtu = RTE_PMD_IRDMA_MTU_1024;
	c->max_dest_rd_atomic = 1;
	c->min_rnr_timer = 12;
	c->hop_limit = 64;
	c->timeout = 14;
	c->retry_cnt = 7;
	c->rnr_retry = 7;
	c->max_rd_atomic = 1;
}

struct rte_pmd_irdma_qp *tool_qp_create(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *cq,
					struct rte_pmd_irdma_srq *srq,
					enum rte_pmd_irdma_qp_type type,
					struct rte_pmd_irdma_qp_cap *cap)
{
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_qp *qp;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.srq = srq;
	qa.qp_type = type;
	qa.cap = *cap;
	qp = rte_pmd_irdma_qp_create(pd, &qa);
	if (qp)
		*cap = qa.cap;
	return qp;
}

static bool is_ud(const struct rte_pmd_irdma_qp *qp)
{
	return qp->qp_type == RTE_PMD_IRDMA_QPT_UD;
}

int tool_qp_to_init(struct rte_pmd_irdma_qp *qp, const struct tool_qp_conn *c, char *err,
		    size_t errlen)
{
	struct rte_pmd_irdma_qp_attr a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_INIT;
	a.port_num = 1;
	a.qkey = c->qkey;
	a.qp_access_flags = c->access;
	rc = rte_pmd_irdma_qp_modify(qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_PKEY_INDEX |
				     RTE_PMD_IRDMA_QP_PORT |
				     (is_ud(qp) ? RTE_PMD_IRDMA_QP_QKEY :
						  RTE_PMD_IRDMA_QP_ACCESS_FLAGS));
	return rc < 0 ? qp_fail(rc, err, errlen, "%s QP RESET -> INIT", is_ud(qp) ? "UD" : "RC")
		      : 0;
}

int tool_qp_to_rts(struct rte_pmd_irdma_qp *qp, const struct tool_qp_conn *c, char *err,
		   size_t errlen)
{
	struct rte_pmd_irdma_qp_attr a;
	uint32_t mask = RTE_PMD_IRDMA_QP_STATE;
	int rc;

	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_RTR;
	if (!is_ud(qp)) {
		a.path_mtu = c->path_mtu;
		a.dest_qp_num = c->dest_qpn;
		a.rq_psn = c->rq_psn;
		a.max_dest_rd_atomic = c->max_dest_rd_atomic;
		a.min_rnr_timer = c->min_rnr_timer;
		tool_qp_ah_attr(c, &a.ah_attr);
		mask |= RTE_PMD_IRDMA_QP_AV | RTE_PMD_IRDMA_QP_PATH_MTU | RTE_PMD_IRDMA_QP_DEST_QPN |
			RTE_PMD_IRDMA_QP_RQ_PSN | RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC |
			RTE_PMD_IRDMA_QP_MIN_RNR_TIMER;
	}
	rc = rte_pmd_irdma_qp_modify(qp, &a, mask);
	if (rc < 0)
		return is_ud(qp) ? qp_fail(rc, err, errlen, "UD QP INIT -> RTR") :
			qp_fail(rc, err, errlen, "QP INIT -> RTR (peer QPN %#x, MTU %u)",
				c->dest_qpn, 128u << c->path_mtu);

	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_RTS;
	a.sq_psn = c->sq_psn;
	mask = RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN;
	if (!is_ud(qp)) {
		a.timeout = c->timeout;
		a.retry_cnt = c->retry_cnt;
		a.rnr_retry = c->rnr_retry;
		a.max_rd_atomic = c->max_rd_atomic;
		mask |= RTE_PMD_IRDMA_QP_TIMEOUT | RTE_PMD_IRDMA_QP_RETRY_CNT |
			RTE_PMD_IRDMA_QP_RNR_RETRY | RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC;
	}
	rc = rte_pmd_irdma_qp_modify(qp, &a, mask);
	return rc < 0 ? qp_fail(rc, err, errlen, "%s QP RTR -> RTS", is_ud(qp) ? "UD" : "RC") : 0;
}

int tool_qp_connect(struct rte_pmd_irdma_qp *qp, const struct tool_qp_conn *c, char *err,
		    size_t errlen)
{
	int rc = tool_qp_to_init(qp, c, err, errlen);

	return rc < 0 ? rc : tool_qp_to_rts(qp, c, err, errlen);
}

void tool_qp_ah_attr(const struct tool_qp_conn *c, struct rte_pmd_irdma_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->is_global = 1;
	ah->port_num = 1;
	ah->sl = c->sl;
	ah->grh.sgid_index = c->sgid_index;
	ah->grh.hop_limit = c->hop_limit;
	ah->grh.traffic_class = c->traffic_class;
	memcpy(ah->grh.dgid.raw, c->dgid, 16);
}
