/* SPDX-License-Identifier: BSD-3-Clause */
/* One side's RDMA resources and its RC connection. */
#include "perf_res.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_cycles.h>
#include <rte_random.h>

#include <sys/eventfd.h>
#include <unistd.h>

#include "perf_opts.h"
#include "tool_gid.h"
#include "tool_event.h"
#include "tool_qp.h"

int perf_mtu_enum(uint32_t bytes)
{
	switch (bytes) {
	case 256: return RTE_PMD_IRDMA_MTU_256;
	case 512: return RTE_PMD_IRDMA_MTU_512;
	case 1024: return RTE_PMD_IRDMA_MTU_1024;
	case 2048: return RTE_PMD_IRDMA_MTU_2048;
	case 4096: return RTE_PMD_IRDMA_MTU_4096;
	default: return 0;
	}
}

uint32_t perf_mtu_bytes(int mtu_enum)
{
	return mtu_enum >= 1 && mtu_enum <= 5 ? 128u << mtu_enum : 0;
}

#define FAIL(rc_, ...)                                                                     \
	do {                                                                               \
		snprintf(err, errlen, __VA_ARGS__);                                        \
		return (rc_);                                                              \
	} while (0)

int perf_res_create(struct perf_res *r, struct rte_pmd_irdma_dev *dev,
		    const struct perf_res_cfg *cfg, char *err, size_t errlen)
{
	struct rte_pmd_irdma_cq_init_attr cqa = { .comp_fd = -1 };
	struct rte_pmd_irdma_qp_cap cap = { 0 };
	struct tool_qp_conn conn;
	uint32_t access;
	int rc;

	uint32_t inline_size = cfg->inline_size;

	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->evfd = -1;
	r->qp_timeout = cfg->qp_timeout;
	r->sl = cfg->sl;
	r->tos = cfg->tos;
	r->hop_limit = cfg->hop_limit;
	rc = rte_pmd_irdma_dev_info(dev, &r->info);
	if (rc < 0)
		FAIL(rc, "device info: %s", strerror(-rc));
	r->gid_index = cfg->gid_index < 0 ? tool_best_gid_index(dev) : cfg->gid_index;
	rc = rte_pmd_irdma_query_gid(dev, (unsigned int)r->gid_index, &r->gid);
	if (rc < 0)
		FAIL(rc, "-x %d: the device has no GID at that index", r->gid_index);
	if (cfg->inline_auto)
		inline_size = RTE_MIN(perf_default_inline((enum perf_mode)cfg->mode,
							  r->info.gen), r->info.max_inline_data);
	if (inline_size > r->info.max_inline_data)
		FAIL(-EINVAL, "-I %u: the device allows at most %u bytes inline", inline_size,
		     r->info.max_inline_data);

	r->ud = cfg->ud;
	/* a UD receive lands after a 40-byte GRH area */
	r->slot = RTE_ALIGN_CEIL(RTE_MAX(cfg->max_size + (cfg->ud ? PERF_UD_GRH : 0), (uint64_t)64),
				 (uint64_t)4096);
	r->buf = rte_zmalloc_socket("irdma_perf_buf", 2 * r->slot, 4096, r->info.socket_id);
	if (!r->buf)
		FAIL(-ENOMEM, "cannot allocate 2 x %" PRIu64 " bytes of buffer", r->slot);
	r->pd = rte_pmd_irdma_pd_alloc(dev);
	if (!r->pd)
		FAIL(-rte_errno, "PD: %s", rte_strerror(rte_errno));
	access = RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |
		 RTE_PMD_IRDMA_ACCESS_REMOTE_READ;
	if (cfg->atomics)
		access |= RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	r->mr = rte_pmd_irdma_reg_mr(r->pd, r->buf, 2 * r->slot, access);
	if (!r->mr)
		FAIL(-rte_errno, "MR of %" PRIu64 " bytes: %s", 2 * r->slot,
		     rte_strerror(rte_errno));
	if (cfg->events) {
		r->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (r->evfd < 0)
			FAIL(-errno, "-e: eventfd: %s", strerror(errno));
		cqa.comp_fd = r->evfd;
	}
	cqa.cqe = cfg->tx_depth + cfg->rx_depth + 16;
	r->cq = rte_pmd_irdma_cq_create(dev, &cqa);
	if (!r->cq)
		FAIL(-rte_errno, "CQ of %u entries: %s", cqa.cqe, rte_strerror(rte_errno));

	if (cfg->use_srq) {
		struct rte_pmd_irdma_srq_init_attr sa = {
			.attr = { .max_wr = cfg->rx_depth, .max_sge = 1 },
		};

		if (!(r->info.cap_flags & RTE_PMD_IRDMA_CAP_SRQ))
			FAIL(-EOPNOTSUPP, "--use-srq: the device (gen=%u) has no shared receive "
			     "queues; they need gen=3", r->info.gen);
		r->srq = rte_pmd_irdma_srq_create(r->pd, &sa);
		if (!r->srq)
			FAIL(-rte_errno, "SRQ of %u receives: %s", cfg->rx_depth,
			     rte_strerror(rte_errno));
	}
	cap.max_send_wr = cfg->tx_depth;
	cap.max_recv_wr = r->srq ? 0 : cfg->rx_depth;
	cap.max_send_sge = 1;
	cap.max_recv_sge = 1;
	cap.max_inline_data = inline_size;
	r->qp = tool_qp_create(r->pd, r->cq, r->srq,
			       cfg->ud ? RTE_PMD_IRDMA_QPT_UD : RTE_PMD_IRDMA_QPT_RC, &cap);
	if (!r->qp)
		FAIL(-rte_errno, "%s QP (send %u, recv %u, inline %u): %s", cfg->ud ? "UD" : "RC",
		     cfg->tx_depth, cfg->rx_depth, inline_size, rte_strerror(rte_errno));
	r->max_inline = cap.max_inline_data;

	tool_qp_conn_init(&conn);
	conn.access = access & ~RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE;
	conn.qkey = PERF_UD_QKEY;
	rc = tool_qp_to_init(r->qp, &conn, err, errlen);
	if (rc < 0)
		return rc;
	r->psn = (uint32_t)rte_rand() & 0xffffff;
	r->out_reads = cfg->reads ? RTE_MIN(r->info.max_qp_rd_atom, 128u) : 1;
	if (cfg->reads && cfg->out_reads)
		r->out_reads = RTE_MIN(cfg->out_reads, r->out_reads);
	if (!r->out_reads)
		r->out_reads = 1;
	return 0;
}

void perf_res_local_dest(const struct perf_res *r, struct perftest_dest *d)
{
	memset(d, 0, sizeof(*d));
	d->lid = 0;
	d->out_reads = (uint16_t)r->out_reads;
	d->qpn = r->qp->qp_num;
	d->psn = r->psn;
	d->rkey = r->mr->rkey;
	d->vaddr = (uint64_t)(uintptr_t)r->buf;
	memcpy(d->gid, r->gid.raw, 16);
	d->srqn = 0;
}

int perf_res_connect(struct perf_res *r, const struct perftest_dest *remote, int mtu_enum,
		     char *err, size_t errlen)
{
	struct tool_qp_conn c;
	int rc;

	tool_qp_conn_init(&c);
	c.path_mtu = (enum rte_pmd_irdma_mtu)mtu_enum;
	c.dest_qpn = remote->qpn;
	c.rq_psn = remote->psn;
	c.max_dest_rd_atomic = (uint8_t)RTE_MIN(r->out_reads, 255u);
	memcpy(c.dgid, remote->gid, 16);
	c.sgid_index = (uint8_t)r->gid_index;
	c.hop_limit = r->hop_limit;
	c.traffic_class = r->tos;
	c.sl = r->sl;
	c.sq_psn = r->psn;
	c.timeout = r->qp_timeout;
	c.max_rd_atomic = (uint8_t)RTE_MIN(RTE_MIN((uint32_t)remote->out_reads,
						   r->info.max_qp_init_rd_atom), 255u);
	if (!c.max_rd_atomic)
		c.max_rd_atomic = 1;
	rc = tool_qp_to_rts(r->qp, &c, err, errlen);
	if (rc < 0 || !r->ud)
		return rc;
	{
		struct rte_pmd_irdma_ah_attr ah;

		tool_qp_ah_attr(&c, &ah);
		r->ah = rte_pmd_irdma_ah_create(r->pd, &ah);
		if (!r->ah)
			FAIL(-rte_errno, "address handle to the peer: %s", rte_strerror(rte_errno));
	}
	r->remote_qpn = remote->qpn;
	return 0;
}

int perf_res_wait_events(struct perf_res *const *r, unsigned int n, uint64_t deadline)
{
	int fds[PERF_MAX_QPS];
	unsigned int i;
	int rc = 0;

	if (n == 0 || n > PERF_MAX_QPS)
		return -EINVAL;
	for (i = 0; i < n && rc == 0; i++) {
		rc = rte_pmd_irdma_cq_req_notify(r[i]->cq, 0);
		fds[i] = r[i]->evfd;
	}
	if (rc == 0)
		rc = tool_wait_cq_events(r[0]->dev, fds, n, deadline);
	return rc == -ETIMEDOUT ? 0 : rc; /* the caller polls again either way */
}

void perf_res_destroy(struct perf_res *r)
{
	if (r->qp)
		rte_pmd_irdma_qp_destroy(r->qp);
	if (r->srq)
		rte_pmd_irdma_srq_destroy(r->srq);
	if (r->ah)
		rte_pmd_irdma_ah_destroy(r->ah);
	if (r->cq)
		rte_pmd_irdma_cq_destroy(r->cq);
	if (r->mr)
		rte_pmd_irdma_dereg_mr(r->mr);
	if (r->pd)
		rte_pmd_irdma_pd_free(r->pd);
	if (r->evfd >= 0)
		close(r->evfd);
	rte_free(r->buf);
	memset(r, 0, sizeof(*r));
	r->evfd = -1;
}
