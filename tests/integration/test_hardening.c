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

/*
 * Defect 3: every public entry point refuses a destroyed handle with -EINVAL (or NULL and
 * rte_errno EINVAL), and a new object of the same type does not take a destroyed one's address
 * (its stale handle would otherwise name the new object). post_send on a destroyed QP used to
 * dereference freed memory while logging.
 */
#define T_NULL_EINVAL(call)                                                                \
	do {                                                                               \
		rte_errno = 0;                                                             \
		T_CHECK((call) == NULL);                                                   \
		T_EQ(rte_errno, EINVAL);                                                   \
	} while (0)

T_CASE(destroyed_handles_refused_everywhere)
{
	struct rte_pmd_irdma_srq_init_attr si = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct rte_pmd_irdma_qp_init_attr qi;
	struct rte_pmd_irdma_queue_mem qm;
	struct rte_pmd_irdma_qp_attr qa;
	struct rte_pmd_irdma_srq_attr sa;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_ah_attr aa;
	struct rte_pmd_irdma_xstat_name xn[8];
	struct rte_pmd_irdma_xstat xv[8];
	struct rte_pmd_irdma_dev_info di;
	struct rte_pmd_irdma_async_event ev;
	struct rte_pmd_irdma_mw_bind_info bi;
	union rte_pmd_irdma_gid gid;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd, *dpd;
	struct rte_pmd_irdma_cq *cq, *dcq;
	struct rte_pmd_irdma_qp *uqp, *dqp;
	struct rte_pmd_irdma_srq *dsrq;
	struct rte_pmd_irdma_mr *mr, *dmr;
	struct rte_pmd_irdma_mw *dmw;
	struct rte_pmd_irdma_ah *dah;
	struct rte_pmd_irdma_sge sg;
	static uint8_t buf[4096];
	int err;

	dev = itest_dev("gen=3,name=stale,ip=198.18.0.7");
	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 64);
	mr = rte_pmd_irdma_reg_mr(pd, buf, sizeof(buf), ACCESS_ALL);
	uqp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_UD, 8, 1, 0);
	T_CHECK(pd != NULL && cq != NULL && mr != NULL && uqp != NULL);
	T_EQ(qp_to_rts(uqp, NULL, 0, 7), 0);
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = 1;
	aa.grh.sgid_index = 1;
	aa.grh.hop_limit = 64;
	T_EQ(rte_pmd_irdma_query_gid(dev, 1, &aa.grh.dgid), 0);

	/* One of each, destroyed. */
	dpd = rte_pmd_irdma_pd_alloc(dev);
	T_EQ(rte_pmd_irdma_pd_free(dpd), 0);
	dcq = itest_cq(dev, 64);
	T_EQ(rte_pmd_irdma_cq_destroy(dcq), 0);
	dmr = rte_pmd_irdma_reg_mr(pd, buf, sizeof(buf), ACCESS_ALL);
	T_EQ(rte_pmd_irdma_dereg_mr(dmr), 0);
	dmw = rte_pmd_irdma_alloc_mw(pd, RTE_PMD_IRDMA_MW_TYPE_2);
	T_EQ(rte_pmd_irdma_dealloc_mw(dmw), 0);
	dah = rte_pmd_irdma_ah_create(pd, &aa);
	T_EQ(rte_pmd_irdma_ah_destroy(dah), 0);
	dsrq = rte_pmd_irdma_srq_create(pd, &si);
	T_EQ(rte_pmd_irdma_srq_destroy(dsrq), 0);
	dqp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 8, 1, 0);
	T_EQ(rte_pmd_irdma_qp_destroy(dqp), 0);

	/* PD */
	T_EQ(rte_pmd_irdma_pd_free(dpd), -EINVAL);
	T_NULL_EINVAL(rte_pmd_irdma_reg_mr(dpd, buf, sizeof(buf), ACCESS_ALL));
	T_NULL_EINVAL(rte_pmd_irdma_alloc_mw(dpd, RTE_PMD_IRDMA_MW_TYPE_2));
	T_NULL_EINVAL(rte_pmd_irdma_ah_create(dpd, &aa));
	T_NULL_EINVAL(rte_pmd_irdma_srq_create(dpd, &si));
	T_NULL_EINVAL(itest_qp(dpd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 8, 1, 0));
	/* CQ */
	T_EQ(rte_pmd_irdma_cq_destroy(dcq), -EINVAL);
	T_EQ(rte_pmd_irdma_cq_resize(dcq, 128), -EINVAL);
	T_EQ(rte_pmd_irdma_cq_req_notify(dcq, 0), -EINVAL);
	T_EQ(rte_pmd_irdma_cq_queue_mem(dcq, &qm), -EINVAL);
	T_EQ(rte_pmd_irdma_poll_cq(dcq, &wc, 1), -EINVAL);
	T_NULL_EINVAL(itest_qp(pd, dcq, cq, RTE_PMD_IRDMA_QPT_RC, 8, 1, 0));
	T_NULL_EINVAL(itest_qp(pd, cq, dcq, RTE_PMD_IRDMA_QPT_RC, 8, 1, 0));
	/* MR, MW */
	T_EQ(rte_pmd_irdma_dereg_mr(dmr), -EINVAL);
	T_EQ(rte_pmd_irdma_dealloc_mw(dmw), -EINVAL);
	/* AH: a UD send through a destroyed AH */
	sg = (struct rte_pmd_irdma_sge){ (uintptr_t)buf, 8, mr->lkey };
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, &sg, 1);
	wr.wr.ud.ah = dah;
	wr.wr.ud.remote_qpn = uqp->qp_num;
	T_EQ(rte_pmd_irdma_post_send(uqp, &wr, 1, &err), 0);
	T_EQ(err, -EINVAL);
	T_EQ(rte_pmd_irdma_ah_destroy(dah), -EINVAL);
	/* SRQ */
	T_EQ(rte_pmd_irdma_srq_destroy(dsrq), -EINVAL);
	T_EQ(rte_pmd_irdma_srq_query(dsrq, &sa), -EINVAL);
	sa.srq_limit = 1;
	T_EQ(rte_pmd_irdma_srq_modify(dsrq, &sa, RTE_PMD_IRDMA_SRQ_LIMIT), -EINVAL);
	T_EQ(rte_pmd_irdma_srq_queue_mem(dsrq, &qm), -EINVAL);
	r = (struct rte_pmd_irdma_recv_wr){ 1, &sg, 1 };
	T_EQ(rte_pmd_irdma_srq_post_recv(dsrq, &r, 1, &err), 0);
	T_EQ(err, -EINVAL);
	memset(&qi, 0, sizeof(qi));
	qi.send_cq = cq;
	qi.recv_cq = cq;
	qi.srq = dsrq;
	qi.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qi.cap.max_send_wr = 8;
	qi.cap.max_send_sge = 1;
	T_NULL_EINVAL(rte_pmd_irdma_qp_create(pd, &qi));
	/* QP */
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = RTE_PMD_IRDMA_QPS_INIT;
	T_EQ(rte_pmd_irdma_qp_modify(dqp, &qa, RTE_PMD_IRDMA_QP_STATE), -EINVAL);
	T_EQ(rte_pmd_irdma_qp_query(dqp, &qa, 0, NULL), -EINVAL);
	T_EQ(rte_pmd_irdma_qp_queue_mem(dqp, &qm, NULL), -EINVAL);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, &sg, 1);
	T_EQ(rte_pmd_irdma_post_send(dqp, &wr, 1, &err), 0);
	T_EQ(err, -EINVAL);
	T_EQ(rte_pmd_irdma_post_recv(dqp, &r, 1, &err), 0);
	T_EQ(err, -EINVAL);
	bi = (struct rte_pmd_irdma_mw_bind_info){ mr, (uintptr_t)buf, 64,
		RTE_PMD_IRDMA_ACCESS_REMOTE_READ };
	T_EQ(rte_pmd_irdma_bind_mw(dqp, dmw, &bi, 1, 1), -EINVAL);
	T_EQ(rte_pmd_irdma_qp_xstats_get_names(dqp, xn, 8), -EINVAL);
	T_EQ(rte_pmd_irdma_qp_xstats_get(dqp, xv, 8), -EINVAL);
	T_EQ(rte_pmd_irdma_qp_destroy(dqp), -EINVAL);

	/* Handles of a closed device. */
	T_EQ(rte_pmd_irdma_qp_destroy(uqp), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(mr), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), -EINVAL);
	T_EQ(rte_pmd_irdma_dev_info(dev, &di), -EINVAL);
	T_EQ(rte_pmd_irdma_query_gid(dev, 0, &gid), -EINVAL);
	T_EQ(rte_pmd_irdma_progress(dev, 8), -EINVAL);
	T_EQ(rte_pmd_irdma_async_event_get(dev, &ev), -EINVAL);
	T_NULL_EINVAL(rte_pmd_irdma_pd_alloc(dev));
	T_NULL_EINVAL(itest_cq(dev, 64));
	T_CHECK(rte_pmd_irdma_xstats_get_names(dev, xn, 8) < 0);
	T_CHECK(rte_pmd_irdma_xstats_get(dev, xv, 8) < 0);
	T_CHECK(rte_pmd_irdma_xstats_reset(dev) < 0);
}

/* A stale handle is never the address of a newer object of the same type. */
T_CASE(stale_handle_not_reused_by_a_new_object)
{
	struct rte_pmd_irdma_qp *seen[64], *qp;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	unsigned int i, j;
	int err;

	dev = itest_dev("gen=2,name=reuse");
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 64);
	T_CHECK(dev != NULL && pd != NULL && cq != NULL);
	for (i = 0; i < RTE_DIM(seen); i++) {
		qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 8, 1, 0);
		T_CHECK(qp != NULL);
		for (j = 0; j < i; j++)
			T_CHECK_MSG(qp != seen[j], "QP %u took the address of destroyed QP %u", i, j);
		seen[i] = qp;
		T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	}
	/* Every one of them is refused, although 64 QPs were created meanwhile. */
	memset(&wr, 0, sizeof(wr));
	wr.opcode = RTE_PMD_IRDMA_WR_NOP;
	for (i = 0; i < RTE_DIM(seen); i++) {
		T_EQ(rte_pmd_irdma_post_send(seen[i], &wr, 1, &err), 0);
		T_EQ(err, -EINVAL);
	}
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

/* The value of the QP xstat @p name, or UINT64_MAX when the QP has no such counter. */
static uint64_t
qp_xstat(const struct rte_pmd_irdma_qp *qp, const char *name)
{
	struct rte_pmd_irdma_xstat_name names[256];
	struct rte_pmd_irdma_xstat xs[256];
	int n = rte_pmd_irdma_qp_xstats_get_names(qp, names, RTE_DIM(names));

	if (n <= 0 || n > (int)RTE_DIM(names) || rte_pmd_irdma_qp_xstats_get(qp, xs, n) != n)
		return UINT64_MAX;
	return itest_xstat_pick(names, xs, n, name);
}

/*
 * Defect 4: frames a QP drops (wrong Q_Key, no receive posted, UD send larger than the
 * receive) are counted under their lib/roce reason in the QP's xstats, named
 * rx_drop_<roce_reason_name()>.
 */
T_CASE(qp_level_drops_are_named_xstats)
{
	static const struct rte_pmd_irdma_qp_cap ucap = { 32, 32, 1, 1, 0 };
	static const char *const reasons[] = { "rx_drop_qkey", "rx_drop_ud_no_receive",
					       "rx_drop_ud_too_long", "rx_drop_qp_state",
					       "rx_drop_transport", "rx_drop_address",
					       "rx_drop_psn_ahead", "rx_drop_response_unexpected" };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_ah_attr aa;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_ah *ah;
	struct pair p;
	unsigned int i;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_UD, &ucap, 7), 0);
	for (i = 0; i < RTE_DIM(reasons); i++)
		T_CHECK_MSG(qp_xstat(p.b.qp, reasons[i]) == 0, "QP xstat %s: %" PRIu64,
			    reasons[i], qp_xstat(p.b.qp, reasons[i]));
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = 1;
	aa.grh.sgid_index = 1;
	aa.grh.hop_limit = 64;
	aa.grh.dgid = p.b.gid;
	ah = rte_pmd_irdma_ah_create(p.a.pd, &aa);
	T_CHECK(ah != NULL);
	s = sge_of(&p.a, 0, 700);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, &s, 1);
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = p.b.qp->qp_num;
	wr.wr.ud.remote_qkey = 0x11111111;
	/* 1. no receive posted */
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	itest_settle(&p, 50);
	T_EQ(qp_xstat(p.b.qp, "rx_drop_ud_no_receive"), 1);
	/* 2. a wrong Q_Key, with a receive posted */
	rs = sge_of(&p.b, 0, 40 + 64);
	r = (struct rte_pmd_irdma_recv_wr){ 510, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
	wr.wr.ud.remote_qkey = 0x22222222;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	itest_settle(&p, 50);
	T_EQ(qp_xstat(p.b.qp, "rx_drop_qkey"), 1);
	T_EQ(rte_pmd_irdma_poll_cq(p.b.cq, &wc, 1), 0);
	/* 3. 700 bytes into a 64-byte receive */
	wr.wr.ud.remote_qkey = 0x11111111;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	itest_settle(&p, 50);
	T_EQ(qp_xstat(p.b.qp, "rx_drop_ud_too_long"), 1);
	(void)rte_pmd_irdma_poll_cq(p.b.cq, &wc, 1);
	/* The others did not move. */
	for (i = 3; i < RTE_DIM(reasons); i++)
		T_EQ(qp_xstat(p.b.qp, reasons[i]), 0);
	T_EQ(rte_pmd_irdma_ah_destroy(ah), 0);
	pair_close(&p);
}

/*
 * Receive-side fault injection (rx_drop/rx_dup/rx_reorder/rx_corrupt): on both ends of an RC
 * connection, 120 RDMA writes of 2 KiB and 120 sends arrive intact, each completion once and in
 * order, while every receive fault counter moved.
 */
T_CASE(rx_fault_injection_both_ends_data_intact)
{
	static const char *const faults[] = { "rx_fault_drops", "rx_fault_dups",
					      "rx_fault_reorders", "rx_fault_corrupts" };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	struct pair p;
	unsigned int i, k;

	memset(&p, 0, sizeof(p));
	p.type = RTE_PMD_IRDMA_QPT_RC;
	T_EQ(endpoint_open(&p.a, "soft,port=loop,gen=2,ip=198.18.0.1,name=rxA,rx_drop=4%,"
			   "rx_dup=4%,rx_reorder=4%,rx_corrupt=2%,seed=11", p.type, &cap, NULL), 0);
	T_EQ(endpoint_open(&p.b, "soft,port=loop,gen=2,ip=198.18.0.2,name=rxB,rx_drop=4%,"
			   "rx_dup=4%,rx_reorder=4%,rx_corrupt=2%,seed=12", p.type, &cap, NULL), 0);
	T_EQ(qp_to_rts(p.a.qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	T_EQ(qp_to_rts(p.b.qp, &p.a.gid, p.a.qp->qp_num, 7), 0);
	fill_pattern(p.a.buf, 120 * 2048, 77);
	for (i = 0; i < 120; i++) {
		s = sge_of(&p.a, i * 2048, 2048);
		wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, i, &s, 1);
		wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + i * 2048;
		wr.wr.rdma.rkey = p.b.mr->rkey;
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
		T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.wr_id, i);
	}
	T_MEMEQ(p.b.buf, p.a.buf, 120 * 2048);
	for (i = 0; i < 120; i++) {
		k = 1024 * 1024 + (i % 8) * 512;
		rs = sge_of(&p.b, k, 512);
		r = (struct rte_pmd_irdma_recv_wr){ 1000 + i, &rs, 1 };
		T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
		s = sge_of(&p.a, i * 512, 300);
		wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 2000 + i, &s, 1);
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
		T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.wr_id, 1000 + i);
		T_EQ(wc.byte_len, 300);
		T_MEMEQ(p.b.buf + k, p.a.buf + i * 512, 300);
		T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
		T_EQ(wc.wr_id, 2000 + i);
	}
	itest_settle(&p, 50);
	T_EQ(rte_pmd_irdma_poll_cq(p.a.cq, &wc, 1), 0);
	T_EQ(rte_pmd_irdma_poll_cq(p.b.cq, &wc, 1), 0);
	for (i = 0; i < RTE_DIM(faults); i++) {
		T_CHECK_MSG(itest_dev_xstat(p.a.dev, faults[i]) + itest_dev_xstat(p.b.dev, faults[i]) > 0 &&
			    itest_dev_xstat(p.a.dev, faults[i]) != UINT64_MAX, "%s did not move", faults[i]);
		printf("# %s: A %" PRIu64 ", B %" PRIu64 "\n", faults[i], itest_dev_xstat(p.a.dev, faults[i]),
		       itest_dev_xstat(p.b.dev, faults[i]));
	}
	T_EQ(itest_dev_xstat(p.a.dev, "tx_fault_drops"), 0);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	itest_eal_init("hardening", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
