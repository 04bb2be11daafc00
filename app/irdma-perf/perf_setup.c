/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-perf: devices, QPs, connection, engines. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_service.h>

#include "perf.h"

void
perf_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "irdma-perf: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

void
side_open(struct side *s, const struct opts *o, const char *ip)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 1024, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_dev_info info;
	char args[512];

	s->o = o;
	snprintf(args, sizeof(args), "soft,name=%s,port=loop,gen=%u,ip=%s,engine=%s%s%s", s->name,
		 o->gen, ip, o->service ? "service" : "inline", o->extra ? "," : "",
		 o->extra ? o->extra : "");
	s->dev = rte_pmd_irdma_dev_create(args);
	if (s->dev == NULL)
		perf_die("cannot create device \"%s\": %s", args, rte_strerror(rte_errno));
	rte_pmd_irdma_dev_info(s->dev, &info);
	if (o->test == PERF_ATOMIC_LAT && !(info.cap_flags & RTE_PMD_IRDMA_CAP_ATOMICS))
		perf_die("atomics need a GEN_3 device (-g 3)");
	if (rte_pmd_irdma_query_gid(s->dev, 1, &s->gid) < 0)
		perf_die("%s: no IPv4 GID", s->name);
	s->pd = rte_pmd_irdma_pd_alloc(s->dev);
	s->cq = rte_pmd_irdma_cq_create(s->dev, &ca);
	s->buf = rte_zmalloc_socket("perf_buf", 2 * MAX_SIZE, 4096, info.socket_id);
	if (s->pd == NULL || s->cq == NULL || s->buf == NULL)
		perf_die("%s: cannot allocate PD, CQ or buffer", s->name);
	s->mr = rte_pmd_irdma_reg_mr(s->pd, s->buf, 2 * MAX_SIZE,
				     RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE |
					     RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |
					     RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
					     (info.cap_flags & RTE_PMD_IRDMA_CAP_ATOMICS ?
						      RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC : 0));
	s->max_inline = o->inline_size < 0 ? info.max_inline_data :
					     RTE_MIN((uint32_t)o->inline_size, info.max_inline_data);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = s->cq;
	qa.recv_cq = s->cq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap.max_send_wr = RTE_MAX(o->tx_depth, 128u);
	qa.cap.max_recv_wr = 256;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = s->max_inline;
	s->qp = rte_pmd_irdma_qp_create(s->pd, &qa);
	if (s->mr == NULL || s->qp == NULL)
		perf_die("%s: cannot register the buffer or create the QP: %s", s->name,
			 rte_strerror(rte_errno));
	s->inline_engine = !o->service;
}

void
side_connect(struct side *s)
{
	uint32_t init = RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_PKEY_INDEX | RTE_PMD_IRDMA_QP_PORT |
			RTE_PMD_IRDMA_QP_ACCESS_FLAGS;
	uint32_t rtr = RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_AV | RTE_PMD_IRDMA_QP_PATH_MTU |
		       RTE_PMD_IRDMA_QP_DEST_QPN | RTE_PMD_IRDMA_QP_RQ_PSN |
		       RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC | RTE_PMD_IRDMA_QP_MIN_RNR_TIMER;
	uint32_t rts = RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN | RTE_PMD_IRDMA_QP_TIMEOUT |
		       RTE_PMD_IRDMA_QP_RETRY_CNT | RTE_PMD_IRDMA_QP_RNR_RETRY |
		       RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC;
	struct rte_pmd_irdma_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
			    RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	if (rte_pmd_irdma_qp_modify(s->qp, &a, init) < 0)
		perf_die("%s: cannot move the QP to INIT", s->name);
	a.qp_state = RTE_PMD_IRDMA_QPS_RTR;
	a.path_mtu = RTE_PMD_IRDMA_MTU_1024;
	a.dest_qp_num = s->peer->qp->qp_num;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.dgid = s->peer->gid;
	if (rte_pmd_irdma_qp_modify(s->qp, &a, rtr) < 0)
		perf_die("%s: cannot move the QP to RTR", s->name);
	a.qp_state = RTE_PMD_IRDMA_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 16;
	if (rte_pmd_irdma_qp_modify(s->qp, &a, rts) < 0)
		perf_die("%s: cannot move the QP to RTS", s->name);
}

void
side_close(struct side *s)
{
	rte_pmd_irdma_qp_destroy(s->qp);
	rte_pmd_irdma_dereg_mr(s->mr);
	rte_pmd_irdma_cq_destroy(s->cq);
	rte_pmd_irdma_pd_free(s->pd);
	rte_free(s->buf);
	rte_pmd_irdma_dev_close(s->dev);
}

static void
service_ids(struct side *a, struct side *b, uint32_t *ia, uint32_t *ib)
{
	struct rte_pmd_irdma_dev_info i;

	rte_pmd_irdma_dev_info(a->dev, &i);
	*ia = i.service_id;
	rte_pmd_irdma_dev_info(b->dev, &i);
	*ib = i.service_id;
}

void
services_start(struct side *a, struct side *b, unsigned int lcore)
{
	uint32_t ia, ib;

	service_ids(a, b, &ia, &ib);
	if (rte_service_lcore_add(lcore) < 0 || rte_service_map_lcore_set(ia, lcore, 1) < 0 ||
	    rte_service_map_lcore_set(ib, lcore, 1) < 0 || rte_service_runstate_set(ia, 1) < 0 ||
	    rte_service_runstate_set(ib, 1) < 0 || rte_service_lcore_start(lcore) < 0)
		perf_die("cannot run the device engines on service lcore %u", lcore);
}

void
services_stop(struct side *a, struct side *b, unsigned int lcore)
{
	uint32_t ia, ib;

	service_ids(a, b, &ia, &ib);
	rte_service_runstate_set(ia, 0);
	rte_service_runstate_set(ib, 0);
	rte_service_lcore_stop(lcore);
	while (rte_service_lcore_may_be_active(lcore) == 1)
		rte_pause();
	rte_service_lcore_del(lcore);
}

int
side_wait_wc(struct side *s, struct rte_pmd_irdma_wc *wc)
{
	uint64_t stall = rte_get_tsc_cycles() + STALL_SECONDS * rte_get_tsc_hz();
	unsigned int spins = 0;
	int n;

	for (;;) {
		n = rte_pmd_irdma_poll_cq(s->cq, wc, 1);
		if (n == 1)
			return wc->status == RTE_PMD_IRDMA_WC_SUCCESS ? 0 : -EIO;
		if (n < 0)
			return n;
		if ((++spins & 1023) == 0 && rte_get_tsc_cycles() > stall)
			return -ETIMEDOUT;
	}
}

/* With engine=inline nothing moves a device but its own lcore: before leaving, wait for a
 * signaled NOP behind the last WR, so everything before it has left. */
int
side_drain(struct side *s)
{
	struct rte_pmd_irdma_send_wr nop = {
		.wr_id = UINT64_MAX, .opcode = RTE_PMD_IRDMA_WR_NOP,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
	};
	struct rte_pmd_irdma_wc wc;
	int err;

	if (rte_pmd_irdma_post_send(s->qp, &nop, 1, &err) != 1)
		return err;
	do {
		err = side_wait_wc(s, &wc);
	} while (err == 0 && wc.wr_id != UINT64_MAX);
	return err;
}

int
side_serve(void *arg)
{
	struct side *s = arg;

	while (!s->stop) {
		if (s->inline_engine)
			rte_pmd_irdma_progress(s->dev, 64);
		else
			rte_pause();
	}
	return 0;
}
