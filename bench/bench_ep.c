/* SPDX-License-Identifier: BSD-3-Clause */
#include "bench_ep.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "tool_qp.h"

#define FAIL(rc_, ...)                                                                     \
	do {                                                                               \
		snprintf(err, errlen, __VA_ARGS__);                                        \
		return (rc_);                                                              \
	} while (0)

struct rte_pmd_irdma_dev *bench_dev_create(const char *devargs, uint32_t *service_id,
					   char *err, size_t errlen)
{
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev = rte_pmd_irdma_dev_create(devargs);

	if (!dev) {
		snprintf(err, errlen, "cannot create the device '%s': %s", devargs,
			 rte_strerror(rte_errno));
		return NULL;
	}
	rte_pmd_irdma_dev_info(dev, &info);
	*service_id = info.engine == RTE_PMD_IRDMA_ENGINE_SERVICE ? info.service_id : UINT32_MAX;
	return dev;
}

static int ep_qp_create(struct bench_ep *ep, uint32_t depth, char *err, size_t errlen);

static int ep_create(struct bench_ep *ep, struct rte_pmd_irdma_dev *dev, size_t len,
		     uint32_t depth, uint32_t cqe, char *err, size_t errlen)
{
	struct rte_pmd_irdma_cq_init_attr cqa = { .comp_fd = -1 };
	struct rte_pmd_irdma_dev_info info;
	uint32_t access = RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |
			  RTE_PMD_IRDMA_ACCESS_REMOTE_READ; /* irdma-icount read */
	unsigned int i;
	int rc;

	memset(ep, 0, sizeof(*ep));
	ep->dev = dev;
	ep->len = len;
	rte_pmd_irdma_dev_info(dev, &info);
	rc = rte_pmd_irdma_query_gid(dev, 0, &ep->gid);
	if (rc < 0)
		FAIL(rc, "%s: no GID at index 0", info.name);
	/* RoCEv2 over IPv4 when the device has an address: ::ffff:a.b.c.d */
	for (i = 1; i < 8; i++) {
		union rte_pmd_irdma_gid g;
		static const uint8_t v4map[12] = { [10] = 0xff, [11] = 0xff };

		if (rte_pmd_irdma_query_gid(dev, i, &g) < 0)
			break;
		if (memcmp(g.raw, v4map, sizeof(v4map)) == 0) {
			ep->gid = g;
			ep->gid_index = (uint8_t)i;
			break;
		}
	}
	ep->buf = rte_zmalloc_socket("bench_ep_buf", len, 4096, info.socket_id);
	if (!ep->buf)
		FAIL(-ENOMEM, "%s: cannot allocate %zu bytes of buffer", info.name, len);
	ep->pd = rte_pmd_irdma_pd_alloc(dev);
	if (!ep->pd)
		FAIL(-rte_errno, "%s: PD: %s", info.name, rte_strerror(rte_errno));
	ep->mr = rte_pmd_irdma_reg_mr(ep->pd, ep->buf, len, access);
	if (!ep->mr)
		FAIL(-rte_errno, "%s: MR: %s", info.name, rte_strerror(rte_errno));
	cqa.cqe = cqe;
	ep->cq = rte_pmd_irdma_cq_create(dev, &cqa);
	if (!ep->cq)
		FAIL(-rte_errno, "%s: CQ of %u: %s", info.name, cqa.cqe, rte_strerror(rte_errno));
	return ep_qp_create(ep, depth, err, errlen);
}

int bench_ep_create(struct bench_ep *ep, struct rte_pmd_irdma_dev *dev, size_t len,
		    uint32_t depth, char *err, size_t errlen)
{
	return ep_create(ep, dev, len, depth, 2 * depth + 16, err, errlen);
}

int bench_ep_create_many(struct bench_ep *ep, unsigned int n, struct rte_pmd_irdma_dev *dev,
			 size_t len, uint32_t depth, uint32_t cqe, char *err, size_t errlen)
{
	unsigned int i;
	int rc = ep_create(&ep[0], dev, len, depth, cqe, err, errlen);

	for (i = 1; rc == 0 && i < n; i++) {
		ep[i] = ep[0];
		ep[i].qp = NULL;
		ep[i].shared = true;
		rc = ep_qp_create(&ep[i], depth, err, errlen);
	}
	return rc;
}

void bench_ep_destroy_many(struct bench_ep *ep, unsigned int n)
{
	while (n-- > 0)
		bench_ep_destroy(&ep[n]);
}

static int ep_qp_create(struct bench_ep *ep, uint32_t depth, char *err, size_t errlen)
{
	struct rte_pmd_irdma_qp_cap cap = { .max_send_wr = depth, .max_recv_wr = depth,
					    .max_send_sge = 1, .max_recv_sge = 1,
					    .max_inline_data = 8 };
	struct tool_qp_conn conn;
	struct rte_pmd_irdma_dev_info info;
	int rc;

	rte_pmd_irdma_dev_info(ep->dev, &info);
	ep->qp = tool_qp_create(ep->pd, ep->cq, NULL, RTE_PMD_IRDMA_QPT_RC, &cap);
	if (!ep->qp)
		FAIL(-rte_errno, "%s: RC QP of depth %u: %s", info.name, depth,
		     rte_strerror(rte_errno));
	ep->max_inline = cap.max_inline_data;
	tool_qp_conn_init(&conn);
	conn.access = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ;
	rc = tool_qp_to_init(ep->qp, &conn, err, errlen);
	if (rc < 0)
		return rc;
	ep->psn = (ep->qp->qp_num * 2654435761u) & 0xffffff;
	return 0;
}

void bench_ep_addr_of(const struct bench_ep *ep, struct bench_ep_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->qpn = ep->qp->qp_num;
	a->psn = ep->psn;
	a->rkey = ep->mr->rkey;
	a->addr = (uint64_t)(uintptr_t)ep->buf;
	a->gid = ep->gid;
}

int bench_ep_connect(struct bench_ep *ep, const struct bench_ep_addr *peer, char *err,
		     size_t errlen)
{
	struct tool_qp_conn c;

	tool_qp_conn_init(&c);
	if (ep->path_mtu)
		c.path_mtu = ep->path_mtu;
	c.dest_qpn = peer->qpn;
	c.rq_psn = peer->psn;
	c.sq_psn = ep->psn;
	c.sgid_index = ep->gid_index;
	memcpy(c.dgid, peer->gid.raw, 16);
	return tool_qp_to_rts(ep->qp, &c, err, errlen);
}

void bench_ep_destroy(struct bench_ep *ep)
{
	if (ep->qp)
		rte_pmd_irdma_qp_destroy(ep->qp);
	if (ep->shared) { /* the rest belongs to the first endpoint of the group */
		memset(ep, 0, sizeof(*ep));
		return;
	}
	if (ep->cq)
		rte_pmd_irdma_cq_destroy(ep->cq);
	if (ep->mr)
		rte_pmd_irdma_dereg_mr(ep->mr);
	if (ep->pd)
		rte_pmd_irdma_pd_free(ep->pd);
	rte_free(ep->buf);
	memset(ep, 0, sizeof(*ep));
}
