/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hardening regressions (issue 12): each case is a defect found by probing the driver with
 * hostile input. Every case checks the refusal (the errno), that nothing was posted or
 * written, and that the queue still works afterwards.
 */
#include "itest_pair.h"

static const struct rte_pmd_irdma_qp_cap cap = {
	.max_send_wr = 32, .max_recv_wr = 32, .max_send_sge = 4, .max_recv_sge = 4,
	.max_inline_data = 64,
};

/* SQ memory of a QP, to check that a refused WR wrote nothing. */
static const uint8_t *
sq_bytes(struct rte_pmd_irdma_qp *qp, size_t *len)
{
	struct rte_pmd_irdma_queue_mem sq;

	T_EQ(rte_pmd_irdma_qp_queue_mem(qp, &sq, NULL), 0);
	*len = sq.len;
	return sq.addr;
}

/* Post one WR expecting refusal with @p expect; the SQ must be unchanged. */
static void
post_refused(struct rte_pmd_irdma_qp *qp, const struct rte_pmd_irdma_send_wr *wr, int expect)
{
	size_t len;
	const uint8_t *sq = sq_bytes(qp, &len);
	uint8_t *before = malloc(len);
	int err = 0;

	memcpy(before, sq, len);
	T_EQ(rte_pmd_irdma_post_send(qp, wr, 1, &err), 0);
	T_EQ(err, expect);
	T_MEMEQ(sq, before, len);
	free(before);
}

/* Defect 1: inline SGE lengths that sum past 2^32 (a 32-bit sum of 16) are refused. */
T_CASE(inline_sge_sum_past_2_32_refused)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_sge s[3];
	struct rte_pmd_irdma_wc wc;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	s[0] = sge_of(&p.a, 0, 0xfffffff0u);
	s[1] = sge_of(&p.a, 0, 0x20);
	s[2] = sge_of(&p.a, 0, 8);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, s, 2);
	wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	post_refused(p.a.qp, &wr, -EINVAL);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 2, s, 3);
	wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr.wr.rdma.rkey = p.b.mr->rkey;
	post_refused(p.a.qp, &wr, -EINVAL);
	/* The QP still works: a small inline write lands. */
	fill_pattern(p.a.buf, 64, 9);
	s[0] = sge_of(&p.a, 0, 40);
	wr.num_sge = 1;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_MEMEQ(p.b.buf, p.a.buf, 40);
	pair_close(&p);
}

/*
 * Defect 2: an SGE of 2^31 bytes or more does not fit the 31-bit length field of GEN_2/3 (it
 * was encoded as 0 and completed SUCCESS), and a WR over max_msg_sz is not a message: both
 * are refused at post time, on sends, writes, reads and receives.
 */
T_CASE(sge_over_length_field_and_wr_over_max_msg_refused)
{
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_sge s[2];
	struct rte_pmd_irdma_wc wc;
	struct pair p;
	int err;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	T_EQ(rte_pmd_irdma_dev_info(p.a.dev, &info), 0);
	T_EQ(info.max_msg_sz, 1u << 31);
	s[0] = sge_of(&p.a, 0, 0x80000000u);
	s[1] = sge_of(&p.a, 0, 0x10);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 1, s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr.wr.rdma.rkey = p.b.mr->rkey;
	post_refused(p.a.qp, &wr, -EINVAL);
	wr.opcode = RTE_PMD_IRDMA_WR_SEND;
	post_refused(p.a.qp, &wr, -EINVAL);
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
	post_refused(p.a.qp, &wr, -EINVAL);
	s[0].length = 0xffffffffu;
	post_refused(p.a.qp, &wr, -EINVAL);
	/* Each SGE fits the field, the sum is over max_msg_sz. */
	s[0].length = 0x7fffffffu;
	wr.num_sge = 2;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
	post_refused(p.a.qp, &wr, -EINVAL);
	/* A receive SGE over the field. */
	s[0].length = 0x80000000u;
	r = (struct rte_pmd_irdma_recv_wr){ 9, s, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, &err), 0);
	T_EQ(err, -EINVAL);
	/* Nothing was posted: no completion shows up, and a valid WR still works. */
	itest_settle(&p, 20);
	T_EQ(rte_pmd_irdma_poll_cq(p.a.cq, &wc, 1), 0);
	fill_pattern(p.a.buf, 256, 4);
	s[0] = sge_of(&p.a, 0, 256);
	wr.num_sge = 1;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_MEMEQ(p.b.buf, p.a.buf, 256);
	pair_close(&p);
}

/* Defect 6: an SRQ of more WRs than dev_info.max_srq_wr is refused; max_srq_wr itself fits. */
T_CASE(srq_over_max_srq_wr_refused)
{
	struct rte_pmd_irdma_srq_init_attr init;
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_srq *srq;
	struct rte_pmd_irdma_pd *pd;

	dev = itest_dev("gen=3,name=srqlim");
	T_CHECK(dev != NULL);
	pd = rte_pmd_irdma_pd_alloc(dev);
	T_CHECK(pd != NULL);
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	T_CHECK(info.max_srq_wr > 0);
	memset(&init, 0, sizeof(init));
	init.attr.max_sge = 1;
	init.attr.max_wr = info.max_srq_wr + 1;
	rte_errno = 0;
	T_CHECK(rte_pmd_irdma_srq_create(pd, &init) == NULL);
	T_EQ(rte_errno, EINVAL);
	init.attr.max_wr = info.max_srq_wr;
	srq = rte_pmd_irdma_srq_create(pd, &init);
	T_CHECK(srq != NULL);
	T_CHECK(init.attr.max_wr >= info.max_srq_wr);
	if (srq != NULL)
		T_EQ(rte_pmd_irdma_srq_destroy(srq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

/* Bind type 2 window @p mw of B's MR with key @p key (signaled BIND_MW on B's QP). */
static void
bind_type2(struct pair *p, struct rte_pmd_irdma_mw *mw, uint32_t key)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 43;
	wr.opcode = RTE_PMD_IRDMA_WR_BIND_MW;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = key;
	wr.bind_mw.bind_info = (struct rte_pmd_irdma_mw_bind_info){ p->b.mr,
		(uintptr_t)p->b.buf + 16384, 4096, RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE };
	T_EQ(rte_pmd_irdma_post_send(p->b.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(p, p->b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
}

/*
 * Defect 5: after the peer invalidates a type 2 window (SEND_WITH_INV), the window no longer
 * names the MR and dereg_mr succeeds. While the window is bound, dereg_mr is -EBUSY.
 */
T_CASE(dereg_mr_after_remote_invalidation_of_its_window)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_mw *mw;
	uint32_t key;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	mw = rte_pmd_irdma_alloc_mw(p.b.pd, RTE_PMD_IRDMA_MW_TYPE_2);
	T_CHECK(mw != NULL);
	key = (mw->rkey & ~0xFFu) | ((mw->rkey + 3) & 0xFFu);
	bind_type2(&p, mw, key);
	T_EQ(rte_pmd_irdma_dereg_mr(p.b.mr), -EBUSY);
	rs = sge_of(&p.b, 0, 64);
	r = (struct rte_pmd_irdma_recv_wr){ 700, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
	s = sge_of(&p.a, 0, 16);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND_WITH_INV, 3, &s, 1);
	wr.invalidate_rkey = key;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_INV);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	/* The device unbound the window: the MR can go although the MW lives on. */
	T_EQ(rte_pmd_irdma_dereg_mr(p.b.mr), 0);
	p.b.mr = rte_pmd_irdma_reg_mr(p.b.pd, p.b.buf, PAIR_BUF, ACCESS_ALL);
	T_CHECK(p.b.mr != NULL);
	/* Rebind to the new MR, invalidate locally: dereg_mr succeeds again. */
	key = (key & ~0xFFu) | ((key + 1) & 0xFFu);
	bind_type2(&p, mw, key);
	T_EQ(rte_pmd_irdma_dereg_mr(p.b.mr), -EBUSY);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 5;
	wr.opcode = RTE_PMD_IRDMA_WR_LOCAL_INV;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.invalidate_rkey = key;
	T_EQ(rte_pmd_irdma_post_send(p.b.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(rte_pmd_irdma_dereg_mr(p.b.mr), 0);
	p.b.mr = rte_pmd_irdma_reg_mr(p.b.pd, p.b.buf, PAIR_BUF, ACCESS_ALL);
	T_CHECK(p.b.mr != NULL);
	T_EQ(rte_pmd_irdma_dealloc_mw(mw), 0);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	itest_eal_init("hardening", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
