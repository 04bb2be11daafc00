/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the soft device tests: an EAL with no hugepages, devices opened through
 * irdma_hw.h, and queues whose memory lib/uk sizes and writes (no PMD involved). Each QP,
 * CQ and SRQ is set up the way a driver would: sizing with irdma_uk_calc_depth_shift_*,
 * irdma_uk_*_init on memory it owns, the contexts handed to the device.
 */
#ifndef SOFT_TEST_H
#define SOFT_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include "irdma_hw.h"
#include "irdma_user.h"
#include "irdma_test.h"

static const struct irdma_hw_ops *hw = &irdma_soft_ops;
static char t_prefix[64];

/* EAL without PCI, hugepages or shared config; one per process. */
static inline void t_eal_init(const char *name)
{
	char *argv[16];
	int argc = 0;
	static char a[8][96];

	snprintf(t_prefix, sizeof(t_prefix), "soft_%s_%d", name, (int)getpid());
	snprintf(a[0], sizeof(a[0]), "test_%s", name);
	snprintf(a[1], sizeof(a[1]), "--file-prefix=%s", t_prefix);
	argv[argc++] = a[0];
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"256";
	argv[argc++] = (char *)"--no-shconf";
	argv[argc++] = (char *)"--no-telemetry"; /* no socket thread outliving the cleanup */
	argv[argc++] = a[1];
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)"0";
	argv[argc++] = (char *)"--log-level=pmd.net.irdma.soft:notice";
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0)
		t_skip_all("rte_eal_init failed (no EAL on this machine)");
}

static inline void t_eal_fini(void)
{
	char cmd[160];

	rte_eal_cleanup();
	snprintf(cmd, sizeof(cmd), "rm -rf /var/run/dpdk/%s", t_prefix);
	if (system(cmd) != 0)
		printf("# could not remove /var/run/dpdk/%s\n", t_prefix);
}

static inline void *t_zalloc(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len ? len : 64) != 0)
		abort();
	memset(p, 0, len ? len : 64);
	return p;
}

struct t_event_log {
	unsigned int n;
	struct irdma_hw_event ev[64];
	/* Called first, in the engine's context: what software does before it has seen the
	 * event (a test sets it after the open). */
	void (*before)(void *ctx, const struct irdma_hw_event *ev);
	void *before_ctx;
};

static inline void t_async_cb(void *arg, const struct irdma_hw_event *ev)
{
	struct t_event_log *log = arg;

	if (log->before)
		log->before(log->before_ctx, ev);
	if (log->n < 64)
		log->ev[log->n] = *ev;
	log->n++;
}

struct t_dev {
	struct irdma_hw_dev *dev;
	struct irdma_hw_dev_info info;
	struct irdma_uk_attrs attrs; /* copy lib/uk reads */
	uint32_t pd;
	uint8_t gen;
	uint8_t ipv4[4];
	struct t_event_log events;
};

static inline int t_dev_open_cfg(struct t_dev *d, struct irdma_hw_dev_config *cfg)
{
	int rc;

	memset(d, 0, sizeof(*d));
	cfg->async_cb = t_async_cb;
	cfg->async_arg = &d->events;
	rc = hw->dev_open(cfg, &d->dev, &d->info);
	if (rc)
		return rc;
	d->attrs = *d->info.uk_attrs;
	d->gen = (uint8_t)cfg->gen;
	memcpy(d->ipv4, cfg->ipv4, 4);
	return hw->pd_alloc(d->dev, &d->pd);
}

static inline int t_dev_open(struct t_dev *d, uint8_t gen, uint8_t host, uint16_t mtu)
{
	struct irdma_hw_dev_config cfg;
	char name[32];

	memset(&cfg, 0, sizeof(cfg));
	snprintf(name, sizeof(name), "soft_g%u_h%u", gen, host);
	cfg.name = name;
	cfg.gen = (enum irdma_hw_gen)gen;
	cfg.engine = IRDMA_HW_ENGINE_INLINE;
	cfg.socket_id = -1;
	cfg.port = "loop";
	cfg.has_ipv4 = true;
	cfg.ipv4[0] = 10;
	cfg.ipv4[3] = host;
	cfg.mtu = mtu;
	return t_dev_open_cfg(d, &cfg);
}

/* A GEN_2 device on the ethdev named port, IPv4 10.<net>.0.<host>, device MTU mtu. */
static inline int t_dev_open_eth(struct t_dev *d, const char *port, uint8_t net, uint8_t host,
				 uint16_t mtu)
{
	struct irdma_hw_dev_config cfg;
	char name[32];

	memset(&cfg, 0, sizeof(cfg));
	snprintf(name, sizeof(name), "soft_eth_%u_%u", net, host);
	cfg.name = name;
	cfg.gen = IRDMA_HW_GEN_2;
	cfg.socket_id = -1;
	cfg.port = port;
	cfg.has_ipv4 = true;
	cfg.ipv4[0] = 10;
	cfg.ipv4[1] = net;
	cfg.ipv4[3] = host;
	cfg.mtu = mtu;
	return t_dev_open_cfg(d, &cfg);
}

static inline void t_dev_close(struct t_dev *d)
{
	if (d->dev == NULL)
		return;
	hw->pd_dealloc(d->dev, d->pd);
	T_EQ(hw->dev_close(d->dev), 0);
	d->dev = NULL;
}

static inline uint32_t t_mr(struct t_dev *d, void *buf, uint64_t len, uint32_t access)
{
	struct irdma_hw_mr_ctx m = {
		.pd_id = d->pd, .va = (uintptr_t)buf, .length = len, .host_addr = buf,
		.iova = (uintptr_t)buf, .access = access,
	};
	uint32_t stag = 0;

	T_EQ(hw->mr_reg(d->dev, &m, &stag), 0);
	return stag;
}

#define T_ACC_ALL                                                                          \
	(IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE |                      \
	 IRDMA_HW_ACCESS_REMOTE_READ | IRDMA_HW_ACCESS_REMOTE_ATOMIC | IRDMA_HW_ACCESS_MW_BIND)

struct t_cq {
	struct irdma_cq_uk uk;
	struct t_dev *d;
	uint8_t *mem;
	size_t bytes;
	uint64_t *shadow;
	uint32_t id;
	uint32_t size;
	int eventfd;
	unsigned int events;
};

static inline void t_cq_event_cb(void *arg, uint32_t cq_id)
{
	struct t_cq *cq = arg;

	(void)cq_id;
	cq->events++;
}

/* CQ sized as rdma-core does: cqe + 1, doubled for extended CQEs on 32-byte GEN_2/3. The
 * buffer gets a guard page after the ring so that overruns are visible. */
static inline int t_cq_create(struct t_dev *d, struct t_cq *cq, uint32_t cqe)
{
	bool cqe64 = (d->attrs.feature_flags & IRDMA_FEATURE_64_BYTE_CQE) != 0;
	struct irdma_cq_uk_init_info ii;
	struct irdma_hw_cq_ctx ctx;
	uint32_t *db = NULL;
	uint32_t n = cqe + 1;
	int rc;

	memset(cq, 0, sizeof(*cq));
	if (!cqe64 && d->gen > 1)
		n *= 2;
	if (n & 1)
		n++;
	if (n < 4)
		n = 4;
	cq->d = d;
	cq->size = n;
	cq->bytes = (size_t)n * (cqe64 ? 64 : 32);
	cq->mem = t_zalloc(cq->bytes + 4096);
	memset(cq->mem + cq->bytes, 0xA5, 4096);
	cq->shadow = t_zalloc(64);
	cq->eventfd = -1;
	memset(&ctx, 0, sizeof(ctx));
	ctx.cq_base = cq->mem;
	ctx.cq_iova = (uintptr_t)cq->mem;
	ctx.cq_size = n;
	ctx.cqe_64byte = cqe64;
	ctx.shadow_area = cq->shadow;
	ctx.eventfd = -1;
	ctx.event_cb = t_cq_event_cb;
	ctx.event_arg = cq;
	rc = hw->cq_create(d->dev, &ctx, &cq->id, &db);
	if (rc)
		return rc;
	memset(&ii, 0, sizeof(ii));
	ii.cqe_alloc_db = db;
	ii.cq_base = (struct irdma_cqe *)cq->mem;
	ii.shadow_area = cq->shadow;
	ii.cq_size = n;
	ii.cq_id = cq->id;
	ii.avoid_mem_cflct = cqe64;
	irdma_uk_cq_init(&cq->uk, &ii);
	return 0;
}

static inline bool t_guard_intact(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0xA5)
			return false;
	return true;
}

static inline void t_cq_destroy(struct t_cq *cq)
{
	T_CHECK(t_guard_intact(cq->mem + cq->bytes, 4096));
	T_EQ(hw->cq_destroy(cq->d->dev, cq->id), 0);
	free(cq->mem);
	free(cq->shadow);
}

struct t_srq {
	struct irdma_srq_uk uk;
	struct t_dev *d;
	void *mem;
	uint64_t *shadow;
	uint32_t id;
	irdma_uk_spinlock_t lock;
};

static inline int t_srq_create(struct t_dev *d, struct t_srq *s, uint32_t max_wr, uint32_t max_sge)
{
	struct irdma_srq_uk_init_info ii;
	struct irdma_hw_srq_ctx ctx;
	uint32_t depth;
	uint8_t shift;
	int rc;

	memset(s, 0, sizeof(*s));
	s->d = d;
	irdma_get_wqe_shift(&d->attrs, max_sge, 0, &shift);
	rc = irdma_get_srqdepth(&d->attrs, max_wr, shift, &depth);
	if (rc)
		return rc;
	s->mem = t_zalloc((size_t)depth * 32);
	s->shadow = t_zalloc(64);
	memset(&ctx, 0, sizeof(ctx));
	ctx.pd_id = d->pd;
	ctx.srq_base = s->mem;
	ctx.srq_depth = depth;
	ctx.srq_shift = shift;
	ctx.max_frags = max_sge;
	ctx.shadow_area = s->shadow;
	rc = hw->srq_create(d->dev, &ctx, &s->id);
	if (rc)
		return rc;
	memset(&ii, 0, sizeof(ii));
	ii.srq = s->mem;
	ii.uk_attrs = &d->attrs;
	ii.shadow_area = s->shadow;
	ii.srq_id = s->id;
	ii.srq_size = depth >> shift;
	ii.max_srq_frag_cnt = max_sge;
	ii.lock = &s->lock;
	return irdma_uk_srq_init(&s->uk, &ii);
}

static inline void t_srq_destroy(struct t_srq *s)
{
	T_EQ(hw->srq_destroy(s->d->dev, s->id), 0);
	free(s->mem);
	free(s->shadow);
}

struct t_qp {
	struct irdma_qp_uk uk;
	struct t_dev *d;
	struct t_cq *scq, *rcq;
	void *sq, *rq;
	uint64_t *shadow;
	struct irdma_sq_uk_wr_trk_info *trk;
	uint64_t *rqwr;
	uint32_t id;
	uint32_t sq_depth, rq_depth;
	enum irdma_hw_qp_type type;
};

struct t_qp_caps {
	uint32_t max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline;
	struct t_srq *srq;
};

static inline int t_qp_create(struct t_dev *d, struct t_qp *qp, enum irdma_hw_qp_type type,
			      struct t_cq *scq, struct t_cq *rcq, const struct t_qp_caps *caps)
{
	struct irdma_qp_uk_init_info ii;
	struct irdma_hw_qp_ctx ctx;
	uint32_t *db = NULL;
	uint8_t sq_shift, rq_shift;
	int rc;

	memset(qp, 0, sizeof(*qp));
	qp->d = d;
	qp->scq = scq;
	qp->rcq = rcq;
	qp->type = type;
	memset(&ii, 0, sizeof(ii));
	ii.uk_attrs = &d->attrs;
	ii.sq_size = caps->max_send_wr;
	ii.rq_size = caps->srq ? 1 : caps->max_recv_wr;
	ii.max_sq_frag_cnt = caps->max_send_sge;
	ii.max_rq_frag_cnt = caps->srq ? d->attrs.max_hw_wq_frags : caps->max_recv_sge;
	ii.max_inline_data = caps->max_inline;
	ii.abi_ver = IRDMA_ABI_VER;
	ii.type = type == IRDMA_HW_QP_RC ? IRDMA_QP_TYPE_ROCE_RC : IRDMA_QP_TYPE_ROCE_UD;
	ii.qp_caps = IRDMA_ROCE | IRDMA_SEND_WITH_IMM |
		     (type == IRDMA_HW_QP_RC ? IRDMA_WRITE_WITH_IMM : 0);
	rc = irdma_uk_calc_depth_shift_sq(&ii, &qp->sq_depth, &sq_shift);
	if (rc)
		return rc;
	rc = irdma_uk_calc_depth_shift_rq(&ii, &qp->rq_depth, &rq_shift);
	if (rc)
		return rc;
	qp->sq = t_zalloc((size_t)qp->sq_depth * 32);
	qp->rq = t_zalloc((size_t)qp->rq_depth * 32);
	qp->shadow = t_zalloc(64);
	qp->trk = t_zalloc(sizeof(*qp->trk) * qp->sq_depth);
	qp->rqwr = t_zalloc(sizeof(*qp->rqwr) * qp->rq_depth);
	memset(&ctx, 0, sizeof(ctx));
	ctx.type = type;
	ctx.pd_id = d->pd;
	ctx.sq_base = qp->sq;
	ctx.sq_depth = qp->sq_depth;
	ctx.sq_shift = sq_shift;
	ctx.rq_base = caps->srq ? NULL : qp->rq;
	ctx.rq_depth = qp->rq_depth;
	ctx.rq_shift = rq_shift;
	ctx.use_srq = caps->srq != NULL;
	ctx.srq_id = caps->srq ? caps->srq->id : 0;
	ctx.send_cq_id = scq->id;
	ctx.recv_cq_id = rcq->id;
	ctx.shadow_area = qp->shadow;
	ctx.compl_ctx = (uintptr_t)&qp->uk;
	ctx.max_inline = caps->max_inline;
	ctx.max_sq_frags = caps->max_send_sge;
	ctx.max_rq_frags = ii.max_rq_frag_cnt;
	rc = hw->qp_create(d->dev, &ctx, &qp->id, &db);
	if (rc)
		return rc;
	ii.sq = qp->sq;
	ii.rq = qp->rq;
	ii.wqe_alloc_db = db;
	ii.shadow_area = qp->shadow;
	ii.sq_wrtrk_array = qp->trk;
	ii.rq_wrid_array = qp->rqwr;
	ii.qp_id = qp->id;
	ii.sq_depth = qp->sq_depth;
	ii.rq_depth = qp->rq_depth;
	ii.sq_size = qp->sq_depth >> sq_shift;
	ii.rq_size = qp->rq_depth >> rq_shift;
	ii.sq_shift = sq_shift;
	ii.rq_shift = rq_shift;
	ii.srq_uk = caps->srq ? &caps->srq->uk : NULL;
	return irdma_uk_qp_init(&qp->uk, &ii);
}

static inline void t_qp_destroy(struct t_qp *qp)
{
	T_EQ(hw->qp_destroy(qp->d->dev, qp->id), 0);
	free(qp->sq);
	free(qp->rq);
	free(qp->shadow);
	free(qp->trk);
	free(qp->rqwr);
}

static inline void t_gid_of(const struct t_dev *d, uint8_t gid[16])
{
	memset(gid, 0, 16);
	gid[10] = gid[11] = 0xFF;
	memcpy(gid + 12, d->ipv4, 4);
}

static inline int t_qp_state(struct t_qp *qp, enum irdma_hw_qp_state st)
{
	struct irdma_hw_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.state = st;
	return hw->qp_modify(qp->d->dev, qp->id, &a, IRDMA_HW_QP_ATTR_STATE);
}

static inline enum irdma_hw_qp_state t_qp_get_state(struct t_qp *qp)
{
	struct irdma_hw_qp_attr a;

	memset(&a, 0, sizeof(a));
	hw->qp_query(qp->d->dev, qp->id, &a);
	return a.state;
}

/* Transport attributes the next connects use. */
static uint8_t t_timeout = 14, t_retry_cnt = 7, t_rnr_retry = 7;

/* RESET -> INIT -> RTR -> RTS with the peer's QPN and GID. */
static inline int t_qp_connect_one(struct t_qp *qp, const struct t_qp *peer, uint16_t mtu,
				   uint32_t access, uint32_t my_psn, uint32_t peer_psn)
{
	struct irdma_hw_qp_attr a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.state = IRDMA_HW_QPS_INIT;
	a.access_flags = access;
	a.qkey = 0x11111111;
	rc = hw->qp_modify(qp->d->dev, qp->id, &a,
			   IRDMA_HW_QP_ATTR_STATE | IRDMA_HW_QP_ATTR_ACCESS_FLAGS |
				   IRDMA_HW_QP_ATTR_QKEY);
	if (rc || qp->type == IRDMA_HW_QP_UD) {
		if (!rc) {
			a.state = IRDMA_HW_QPS_RTR;
			rc = hw->qp_modify(qp->d->dev, qp->id, &a, IRDMA_HW_QP_ATTR_STATE);
		}
		if (!rc) {
			a.state = IRDMA_HW_QPS_RTS;
			a.sq_psn = my_psn;
			rc = hw->qp_modify(qp->d->dev, qp->id, &a,
					   IRDMA_HW_QP_ATTR_STATE | IRDMA_HW_QP_ATTR_SQ_PSN);
		}
		return rc;
	}
	a.state = IRDMA_HW_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qpn = peer->id;
	a.rq_psn = peer_psn;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;
	t_gid_of(peer->d, a.av.dgid);
	a.av.sgid_index = 1;
	a.av.hop_limit = 64;
	a.av.vlan_id = 0xFFFF;
	rc = hw->qp_modify(qp->d->dev, qp->id, &a,
			   IRDMA_HW_QP_ATTR_STATE | IRDMA_HW_QP_ATTR_PATH_MTU |
				   IRDMA_HW_QP_ATTR_DEST_QPN | IRDMA_HW_QP_ATTR_RQ_PSN |
				   IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC |
				   IRDMA_HW_QP_ATTR_MIN_RNR_TIMER | IRDMA_HW_QP_ATTR_AV);
	if (rc)
		return rc;
	a.state = IRDMA_HW_QPS_RTS;
	a.sq_psn = my_psn;
	a.timeout = t_timeout;
	a.retry_cnt = t_retry_cnt;
	a.rnr_retry = t_rnr_retry;
	a.max_rd_atomic = 4;
	return hw->qp_modify(qp->d->dev, qp->id, &a,
			     IRDMA_HW_QP_ATTR_STATE | IRDMA_HW_QP_ATTR_SQ_PSN |
				     IRDMA_HW_QP_ATTR_TIMEOUT | IRDMA_HW_QP_ATTR_RETRY_CNT |
				     IRDMA_HW_QP_ATTR_RNR_RETRY |
				     IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC);
}

static inline int t_qp_connect(struct t_qp *a, struct t_qp *b, uint16_t mtu, uint32_t access)
{
	/* PSNs near the 24-bit wrap so that PSN arithmetic is exercised. */
	int rc = t_qp_connect_one(a, b, mtu, access, 0xFFFFF0, 0x000123);

	return rc ? rc : t_qp_connect_one(b, a, mtu, access, 0x000123, 0xFFFFF0);
}

static struct t_dev *t_devs[4];

static inline void t_progress(void)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (t_devs[i] && t_devs[i]->dev)
			hw->progress(t_devs[i]->dev, 64);
}

/* Polls one completion, driving every registered device meanwhile. */
static inline int t_poll(struct t_cq *cq, struct irdma_cq_poll_info *info)
{
	unsigned int i;

	for (i = 0; i < 200000; i++) {
		int rc;

		memset(info, 0, sizeof(*info));
		rc = irdma_uk_cq_poll_cmpl(&cq->uk, info);
		if (rc == 0)
			return 0;
		if (rc != -ENOENT && rc != -EFAULT)
			return rc;
		t_progress();
	}
	return -ETIMEDOUT;
}

/* True when nothing more completes after letting the engines run for a while. */
static inline bool t_cq_quiet(struct t_cq *cq)
{
	struct irdma_cq_poll_info info;
	unsigned int i;

	for (i = 0; i < 2000; i++)
		t_progress();
	return irdma_uk_cq_poll_cmpl(&cq->uk, &info) == -ENOENT;
}

static inline void t_fill(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static inline int t_post_recv(struct t_qp *qp, uint64_t wr_id, struct irdma_sge *sg, uint32_t n)
{
	struct irdma_post_rq_info ri = { .wr_id = wr_id, .sg_list = sg, .num_sges = n };

	return irdma_uk_post_receive(&qp->uk, &ri);
}

static inline int t_srq_post(struct t_srq *s, uint64_t wr_id, struct irdma_sge *sg, uint32_t n)
{
	struct irdma_post_rq_info ri = { .wr_id = wr_id, .sg_list = sg, .num_sges = n };

	return irdma_uk_srq_post_receive(&s->uk, &ri);
}

static inline void t_sq_info(struct irdma_post_sq_info *si, uint64_t wr_id, uint8_t op)
{
	memset(si, 0, sizeof(*si));
	si->wr_id = wr_id;
	si->op_type = op;
	si->signaled = true;
}

static inline int t_send(struct t_qp *qp, uint64_t wr_id, uint8_t op, struct irdma_sge *sg,
			 uint32_t n, bool inl)
{
	struct irdma_post_sq_info si;

	t_sq_info(&si, wr_id, op);
	si.op.send.sg_list = sg;
	si.op.send.num_sges = n;
	if (inl)
		return irdma_uk_inline_send(&qp->uk, &si, true);
	return irdma_uk_send(&qp->uk, &si, true);
}

static inline int t_write(struct t_qp *qp, uint64_t wr_id, struct irdma_sge *sg, uint32_t n,
			  uint64_t raddr, uint32_t rkey, bool inl)
{
	struct irdma_post_sq_info si;

	t_sq_info(&si, wr_id, IRDMA_OP_TYPE_RDMA_WRITE);
	si.op.rdma_write.lo_sg_list = sg;
	si.op.rdma_write.num_lo_sges = n;
	si.op.rdma_write.rem_addr.addr = raddr;
	si.op.rdma_write.rem_addr.lkey = rkey;
	if (inl)
		return irdma_uk_inline_rdma_write(&qp->uk, &si, true);
	return irdma_uk_rdma_write(&qp->uk, &si, true);
}

static inline int t_read(struct t_qp *qp, uint64_t wr_id, struct irdma_sge *sg, uint32_t n,
			 uint64_t raddr, uint32_t rkey)
{
	struct irdma_post_sq_info si;

	t_sq_info(&si, wr_id, IRDMA_OP_TYPE_RDMA_READ);
	si.op.rdma_read.lo_sg_list = sg;
	si.op.rdma_read.num_lo_sges = n;
	si.op.rdma_read.rem_addr.addr = raddr;
	si.op.rdma_read.rem_addr.lkey = rkey;
	return irdma_uk_rdma_read(&qp->uk, &si, false, true);
}

/* Two devices of one test on port=loop, hosts host and host + 1, registered for t_progress(). */
static inline int t_devs_open(struct t_dev *a, struct t_dev *b, uint8_t gen, uint8_t host,
			      uint16_t mtu)
{
	int rc = t_dev_open(a, gen, host, mtu);

	if (!rc)
		rc = t_dev_open(b, gen, (uint8_t)(host + 1), mtu);
	t_devs[0] = a;
	t_devs[1] = b;
	return rc;
}

/* The end of a two-device test: each CQ (NULL: none) and both devices. */
static inline void t_devs_close(struct t_dev *a, struct t_cq *ca, struct t_dev *b, struct t_cq *cb)
{
	if (ca != NULL)
		t_cq_destroy(ca);
	if (cb != NULL)
		t_cq_destroy(cb);
	t_dev_close(a);
	t_dev_close(b);
	t_devs[0] = t_devs[1] = NULL;
}

/* The usual two-device RC setup of a test. */
struct t_pair {
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp qa, qb;
};

/* A pair's CQs (256 each) and its connected RC QPs, on devices p->da and p->db already open. */
static inline int t_pair_link(struct t_pair *p, uint16_t mtu, const struct t_qp_caps *caps,
			      uint32_t access)
{
	int rc = t_cq_create(&p->da, &p->ca, 256);

	if (!rc)
		rc = t_cq_create(&p->db, &p->cb, 256);
	if (!rc)
		rc = t_qp_create(&p->da, &p->qa, IRDMA_HW_QP_RC, &p->ca, &p->ca, caps);
	if (!rc)
		rc = t_qp_create(&p->db, &p->qb, IRDMA_HW_QP_RC, &p->cb, &p->cb, caps);
	if (!rc)
		rc = t_qp_connect(&p->qa, &p->qb, mtu, access);
	return rc;
}

static inline int t_pair_open(struct t_pair *p, uint8_t gen, uint16_t mtu,
			      const struct t_qp_caps *caps, uint32_t access)
{
	int rc;

	memset(p, 0, sizeof(*p));
	rc = t_devs_open(&p->da, &p->db, gen, 1, mtu);
	return rc ? rc : t_pair_link(p, mtu, caps, access);
}

static inline void t_pair_close(struct t_pair *p)
{
	t_qp_destroy(&p->qa);
	t_qp_destroy(&p->qb);
	t_devs_close(&p->da, &p->ca, &p->db, &p->cb);
}

/* One counter of a device's xstats (qp < 0) or of one QP's; UINT64_MAX when there is none. */
static inline uint64_t t_xstat(struct irdma_hw_dev *dev, int64_t qp, const char *name)
{
	const char *names[256];
	uint64_t v[256];
	int n = hw->xstats_names(dev, qp, names, 256), i;

	if (n <= 0 || n > 256 || hw->xstats_get(dev, qp, v, 256) != n)
		return UINT64_MAX;
	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return v[i];
	return UINT64_MAX;
}

static const struct t_qp_caps t_default_caps = {
	.max_send_wr = 64, .max_recv_wr = 64, .max_send_sge = 3, .max_recv_sge = 3,
	.max_inline = 0,
};

#endif /* SOFT_TEST_H */
