/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two endpoints on port=loop: two devices of one process (A: 198.18.0.1, B: 198.18.0.2),
 * each with a PD, one CQ, a QP and a registered buffer; RC QPs connected to each other.
 * The engines run inline: itest_poll() steps both devices while it waits.
 */
#ifndef ITEST_PAIR_H
#define ITEST_PAIR_H

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "itest.h"
#include "tool_qp.h"

#define PAIR_BUF (2u << 20)

struct endpoint {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	union rte_pmd_irdma_gid gid; /* GID index 1: IPv4-mapped */
};

struct pair {
	struct endpoint a, b;
	enum rte_pmd_irdma_qp_type type;
};

#define ACCESS_ALL                                                                         \
	(RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |            \
	 RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC |           \
	 RTE_PMD_IRDMA_ACCESS_MW_BIND)

/* The tools' bring-up (app/common/tool_qp.h): PSN 100 both ways, 8 reads in flight, the
 * shortest RNR timer; @p dgid NULL leaves the path's GID zero. */
static inline int
qp_to_rts(struct rte_pmd_irdma_qp *qp, const union rte_pmd_irdma_gid *dgid, uint32_t dqpn,
	  uint8_t rnr_retry)
{
	struct tool_qp_conn c;

	tool_qp_conn_init(&c);
	c.access = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
		   RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	c.dest_qpn = dqpn;
	c.rq_psn = 100;
	c.sq_psn = 100;
	c.max_dest_rd_atomic = 8;
	c.max_rd_atomic = 8;
	c.min_rnr_timer = 1;
	c.rnr_retry = rnr_retry;
	c.sgid_index = 1;
	if (dgid != NULL)
		memcpy(c.dgid, dgid->raw, 16);
	return tool_qp_connect(qp, &c, NULL, 0);
}

static inline int
endpoint_open(struct endpoint *e, const char *devargs, enum rte_pmd_irdma_qp_type type,
	      const struct rte_pmd_irdma_qp_cap *cap, struct rte_pmd_irdma_srq *srq_unused)
{
	struct rte_pmd_irdma_qp_cap qcap = *cap;

	(void)srq_unused;
	memset(e, 0, sizeof(*e));
	e->dev = rte_pmd_irdma_dev_create(devargs);
	if (e->dev == NULL)
		return -rte_errno;
	rte_pmd_irdma_query_gid(e->dev, 1, &e->gid);
	e->pd = rte_pmd_irdma_pd_alloc(e->dev);
	e->cq = itest_cq(e->dev, 1024);
	e->buf = rte_zmalloc(NULL, PAIR_BUF, 4096);
	if (e->pd == NULL || e->cq == NULL || e->buf == NULL)
		return -ENOMEM;
	e->mr = rte_pmd_irdma_reg_mr(e->pd, e->buf, PAIR_BUF, ACCESS_ALL);
	e->qp = tool_qp_create(e->pd, e->cq, NULL, type, &qcap);
	return (e->mr != NULL && e->qp != NULL) ? 0 : -rte_errno;
}

static inline void
endpoint_close(struct endpoint *e)
{
	if (e->qp != NULL)
		T_EQ(rte_pmd_irdma_qp_destroy(e->qp), 0);
	if (e->mr != NULL)
		T_EQ(rte_pmd_irdma_dereg_mr(e->mr), 0);
	if (e->cq != NULL)
		T_EQ(rte_pmd_irdma_cq_destroy(e->cq), 0);
	if (e->pd != NULL)
		T_EQ(rte_pmd_irdma_pd_free(e->pd), 0);
	rte_free(e->buf);
	if (e->dev != NULL)
		T_EQ(rte_pmd_irdma_dev_close(e->dev), 0);
	memset(e, 0, sizeof(*e));
}

/* Open A and B of generation @p gen with QPs of @p type and @p cap, connected (RC). */
static inline int
pair_open(struct pair *p, unsigned int gen, enum rte_pmd_irdma_qp_type type,
	  const struct rte_pmd_irdma_qp_cap *cap, uint8_t rnr_retry)
{
	char args[128];
	int ret;

	memset(p, 0, sizeof(*p));
	p->type = type;
	snprintf(args, sizeof(args), "soft,port=loop,gen=%u,ip=198.18.0.1,name=epA", gen);
	ret = endpoint_open(&p->a, args, type, cap, NULL);
	if (ret < 0)
		return ret;
	snprintf(args, sizeof(args), "soft,port=loop,gen=%u,ip=198.18.0.2,name=epB", gen);
	ret = endpoint_open(&p->b, args, type, cap, NULL);
	if (ret < 0)
		return ret;
	ret = qp_to_rts(p->a.qp, &p->b.gid, p->b.qp->qp_num, rnr_retry);
	if (ret < 0)
		return ret;
	return qp_to_rts(p->b.qp, &p->a.gid, p->a.qp->qp_num, rnr_retry);
}

static inline void
pair_close(struct pair *p)
{
	endpoint_close(&p->a);
	endpoint_close(&p->b);
}

/*
 * Wait for @p n completions on @p cq, stepping both devices; gives up after ~5 s of wall
 * time (a hang is a failure, not a timing assertion). Returns how many arrived.
 */
static inline int
itest_poll(struct pair *p, struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc, int n)
{
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	int got = 0, r;

	while (got < n) {
		rte_pmd_irdma_progress(p->a.dev, 64);
		rte_pmd_irdma_progress(p->b.dev, 64);
		r = rte_pmd_irdma_poll_cq(cq, wc + got, (uint16_t)(n - got));
		if (r < 0)
			return got;
		got += r;
		if (r == 0 && rte_get_timer_cycles() > deadline)
			break;
	}
	return got;
}

/* Step both devices for a while (to let work that must NOT complete show up if it did). */
static inline void
itest_settle(struct pair *p, unsigned int rounds)
{
	while (rounds--) {
		rte_pmd_irdma_progress(p->a.dev, 64);
		rte_pmd_irdma_progress(p->b.dev, 64);
	}
}

static inline void
fill_pattern(uint8_t *b, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (uint8_t)(seed >> 16);
	}
}

/* An SGE of @p len bytes at offset @p off of the endpoint's registered buffer. */
static inline struct rte_pmd_irdma_sge
sge_of(const struct endpoint *e, size_t off, uint32_t len)
{
	struct rte_pmd_irdma_sge s = { (uintptr_t)(e->buf + off), len, e->mr->lkey };

	return s;
}

/* A signaled work request of @p n SGEs (other fields zero; set them after). */
static inline struct rte_pmd_irdma_send_wr
signaled_wr(enum rte_pmd_irdma_wr_opcode op, uint64_t id, const struct rte_pmd_irdma_sge *s,
	    uint32_t n)
{
	struct rte_pmd_irdma_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = id;
	wr.opcode = op;
	wr.sg_list = s;
	wr.num_sge = n;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	return wr;
}

#endif /* ITEST_PAIR_H */
