/* SPDX-License-Identifier: BSD-3-Clause */
/* RDMA-CM over a device's QP 1 for the tools (see tool_cm.h). */
#include "tool_cm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_random.h>

uint64_t tool_cm_now(void)
{
	static uint64_t hz;

	if (!hz)
		hz = rte_get_tsc_hz();
	/* split so that cycles * 1e9 cannot overflow */
	uint64_t c = rte_rdtsc();
	return c / hz * 1000000000ull + c % hz * 1000000000ull / hz;
}

int tool_cm_parse_ip(const char *s, uint8_t gid[16], uint8_t *ip_version)
{
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		memset(gid, 0, 16);
		gid[10] = gid[11] = 0xff;
		memcpy(gid + 12, &a4, 4);
		*ip_version = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, gid) == 1) {
		*ip_version = 6;
		return 0;
	}
	return -EINVAL;
}

uint8_t tool_cm_path_mtu(const struct rte_pmd_irdma_dev *dev)
{
	struct rte_pmd_irdma_dev_info info;
	uint8_t e = 1;

	rte_pmd_irdma_dev_info(dev, &info);
	while (e < 5 && (256u << e) <= info.active_mtu)
		e++;
	return e;
}

static int cm_send(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len)
{
	struct tool_cm *t = ctx;
	union rte_pmd_irdma_gid g;

	memcpy(g.raw, to->gid, 16);
	return rte_pmd_irdma_gsi_send(t->dev, &g, mad, len);
}

static uint32_t access_flags(uint32_t cm_access)
{
	return RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE |
	       ((cm_access & IRDMA_CM_ACCESS_REMOTE_WRITE) ? RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE : 0) |
	       ((cm_access & IRDMA_CM_ACCESS_REMOTE_READ) ? RTE_PMD_IRDMA_ACCESS_REMOTE_READ : 0) |
	       ((cm_access & IRDMA_CM_ACCESS_REMOTE_ATOMIC) ? RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC : 0);
}

struct rte_pmd_irdma_qp *tool_cm_rc_qp(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *cq,
				       uint32_t max_send_wr, uint32_t max_recv_wr)
{
	struct rte_pmd_irdma_qp_init_attr qa;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap.max_send_wr = max_send_wr;
	qa.cap.max_recv_wr = max_recv_wr;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	return rte_pmd_irdma_qp_create(pd, &qa);
}

int tool_cm_qp_modify(struct rte_pmd_irdma_qp *qp, unsigned int sgid_index,
		      const struct irdma_cm_qp_attr *c)
{
	struct rte_pmd_irdma_qp_attr a;
	uint32_t mask = RTE_PMD_IRDMA_QP_STATE;
	int rc;

	if (!qp)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	switch (c->state) {
	case IRDMA_CM_QPS_INIT: {
		struct rte_pmd_irdma_qp_attr q;
		struct rte_pmd_irdma_qp_init_attr qi;

		/* a QP the tool moved to INIT itself, or one a refused REQ left behind: from
		 * RESET, so the CM's attributes are the ones it gets */
		if (rte_pmd_irdma_qp_query(qp, &q, RTE_PMD_IRDMA_QP_STATE, &qi) == 0 &&
		    q.qp_state != RTE_PMD_IRDMA_QPS_RESET) {
			a.qp_state = RTE_PMD_IRDMA_QPS_RESET;
			rc = rte_pmd_irdma_qp_modify(qp, &a, RTE_PMD_IRDMA_QP_STATE);
			if (rc < 0)
				return rc;
		}
		a.qp_state = RTE_PMD_IRDMA_QPS_INIT;
		a.port_num = 1;
		a.qp_access_flags = access_flags(c->access);
		mask |= RTE_PMD_IRDMA_QP_PKEY_INDEX | RTE_PMD_IRDMA_QP_PORT |
			RTE_PMD_IRDMA_QP_ACCESS_FLAGS;
		break;
	}
	case IRDMA_CM_QPS_RTR:
		a.qp_state = RTE_PMD_IRDMA_QPS_RTR;
		a.path_mtu = (enum rte_pmd_irdma_mtu)c->path_mtu;
		a.dest_qp_num = c->dest_qpn;
		a.rq_psn = c->rq_psn;
		a.max_dest_rd_atomic = c->max_dest_rd_atomic;
		a.min_rnr_timer = c->min_rnr_timer;
		a.ah_attr.is_global = 1;
		a.ah_attr.port_num = 1;
		a.ah_attr.sl = c->sl;
		a.ah_attr.grh.sgid_index = (uint8_t)sgid_index;
		/* rxe sends the route's TTL (64) whatever the REQ says; a REQ hop limit of 0 or 1
		 * would keep our frames on the link, which is where they are anyway */
		a.ah_attr.grh.hop_limit = c->hop_limit > 1 ? c->hop_limit : 64;
		a.ah_attr.grh.flow_label = c->flow_label;
		a.ah_attr.grh.traffic_class = c->traffic_class;
		memcpy(a.ah_attr.grh.dgid.raw, c->dgid, 16);
		mask |= RTE_PMD_IRDMA_QP_AV | RTE_PMD_IRDMA_QP_PATH_MTU | RTE_PMD_IRDMA_QP_DEST_QPN |
			RTE_PMD_IRDMA_QP_RQ_PSN | RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC |
			RTE_PMD_IRDMA_QP_MIN_RNR_TIMER;
		break;
	case IRDMA_CM_QPS_RTS:
		a.qp_state = RTE_PMD_IRDMA_QPS_RTS;
		a.sq_psn = c->sq_psn;
		a.timeout = c->timeout;
		a.retry_cnt = c->retry_cnt;
		a.rnr_retry = c->rnr_retry;
		a.max_rd_atomic = c->max_rd_atomic;
		mask |= RTE_PMD_IRDMA_QP_SQ_PSN | RTE_PMD_IRDMA_QP_TIMEOUT | RTE_PMD_IRDMA_QP_RETRY_CNT |
			RTE_PMD_IRDMA_QP_RNR_RETRY | RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC;
		break;
	case IRDMA_CM_QPS_ERR:
		a.qp_state = RTE_PMD_IRDMA_QPS_ERR;
		break;
	}
	return rte_pmd_irdma_qp_modify(qp, &a, mask);
}

/* lib/cm's transitions; the connection's user pointer is its QP. */
static int cm_qp_modify(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *c)
{
	struct tool_cm *t = ctx;
	int rc = tool_cm_qp_modify(user, t->sgid_index, c);

	if (rc < 0)
		fprintf(stderr, "rdma-cm: connection %#x: QP to state %d: %s\n", (unsigned)id,
			(int)c->state, strerror(-rc));
	return rc;
}

static void cm_event(void *ctx, const struct irdma_rcm_event *ev)
{
	struct tool_cm *t = ctx;
	struct tool_cm_event *e;

	if (t->debug)
		printf("rdma-cm event %s, connection %#x, status %d\n",
		       irdma_rcm_event_name(ev->type), (unsigned)ev->id, ev->status);
	/* A DREQ is answered at once: the DREP leaves and the QP goes to ERR (what the
	 * tool does next, it does on the event). */
	if (ev->type == IRDMA_RCM_EVENT_DISCONNECTED)
		irdma_rcm_disconnect(&t->rcm, ev->id, tool_cm_now());
	if (t->tail - t->head >= TOOL_CM_QUEUE) {
		t->lost_events++;
		return;
	}
	e = &t->q[t->tail++ % TOOL_CM_QUEUE];
	memset(e, 0, sizeof(*e));
	e->type = ev->type;
	e->id = ev->id;
	e->status = ev->status;
	if (ev->info)
		e->info = *ev->info;
	e->private_data_len = RTE_MIN(ev->private_data_len, (size_t)TOOL_CM_PD_MAX);
	if (ev->private_data && e->private_data_len)
		memcpy(e->private_data, ev->private_data, e->private_data_len);
}

static const struct irdma_rcm_ops tool_cm_ops = { cm_send, cm_qp_modify, cm_event };

int tool_cm_init(struct tool_cm *t, struct rte_pmd_irdma_dev *dev, unsigned int sgid_index,
		 uint8_t plt)
{
	struct rte_pmd_irdma_dev_info info;
	struct irdma_rcm_config cfg;
	uint64_t guid;
	int rc;

	memset(t, 0, sizeof(*t));
	t->dev = dev;
	t->sgid_index = sgid_index;
	rc = rte_pmd_irdma_query_gid(dev, sgid_index, &t->gid);
	if (rc < 0) {
		fprintf(stderr, "rdma-cm: the device has no GID %u\n", sgid_index);
		return rc;
	}
	rte_pmd_irdma_dev_info(dev, &info);
	/* EUI-64 of the MAC, as Linux derives a RoCE node GUID */
	guid = (uint64_t)(info.mac[0] ^ 2) << 56 | (uint64_t)info.mac[1] << 48 |
	       (uint64_t)info.mac[2] << 40 | 0xfffeull << 24 | (uint64_t)info.mac[3] << 16 |
	       (uint64_t)info.mac[4] << 8 | info.mac[5];
	memset(&cfg, 0, sizeof(cfg));
	cfg.cm.local_ca_guid = guid;
	cfg.cm.ca_ack_delay = 15;
	cfg.cm.packet_life_time = plt ? plt : 18;
	cfg.cm.cm_response_timeout = (uint8_t)(cfg.cm.packet_life_time + 2);
	cfg.cm.max_cm_retries = 15;
	cfg.cm.mra_service_timeout = 24;
	cfg.cm.hi_tid = (uint32_t)rte_rand();
	cfg.cm.seed = rte_rand() | 1;
	memcpy(cfg.local_gids[0], t->gid.raw, 16);
	cfg.n_local_gids = 1;
	rc = irdma_rcm_init(&t->rcm, &cfg, &tool_cm_ops, t);
	if (rc < 0)
		fprintf(stderr, "rdma-cm: cannot start: %s\n", strerror(-rc));
	return rc;
}

int tool_cm_step(struct tool_cm *t)
{
	struct rte_pmd_irdma_mad mads[8];
	uint64_t now;
	int n, i;

	rte_pmd_irdma_progress(t->dev, 64);
	n = rte_pmd_irdma_gsi_recv(t->dev, mads, RTE_DIM(mads));
	now = tool_cm_now();
	for (i = 0; i < n; i++) {
		struct irdma_cm_addr from;

		memcpy(from.gid, mads[i].sgid.raw, 16);
		irdma_rcm_rx(&t->rcm, &from, mads[i].data, sizeof(mads[i].data), now);
	}
	if (now >= irdma_rcm_next_deadline(&t->rcm))
		irdma_rcm_timer(&t->rcm, now);
	return n < 0 ? 0 : n;
}

bool tool_cm_next_event(struct tool_cm *t, struct tool_cm_event *ev)
{
	if (t->head == t->tail)
		return false;
	*ev = t->q[t->head++ % TOOL_CM_QUEUE];
	return true;
}

int tool_cm_connect(struct tool_cm *t, struct rte_pmd_irdma_qp *qp,
		    struct irdma_rcm_connect_param *p)
{
	p->qpn = qp->qp_num;
	p->user = qp;
	memcpy(p->src.gid, t->gid.raw, 16);
	if (!p->path_mtu)
		p->path_mtu = tool_cm_path_mtu(t->dev);
	if (!p->hop_limit)
		p->hop_limit = 64;
	return irdma_rcm_connect(&t->rcm, p, tool_cm_now());
}

int tool_cm_accept(struct tool_cm *t, struct rte_pmd_irdma_qp *qp, int id,
		   struct irdma_cm_accept_param *p)
{
	p->qpn = qp->qp_num;
	p->user = qp;
	return irdma_rcm_accept(&t->rcm, id, p, tool_cm_now());
}
