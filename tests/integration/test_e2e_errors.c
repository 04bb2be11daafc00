/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Error paths end to end: each protection or protocol error gives the exact completion
 * status on the side that sees it, moves the QP to ERR, and flushes what was outstanding
 * (WR_FLUSH_ERR, in order, with the right wr_ids). Nothing lands outside a registered region.
 */
#include "itest_pair.h"

static const struct rte_pmd_irdma_qp_cap cap = {
	.max_send_wr = 32, .max_recv_wr = 32, .max_send_sge = 2, .max_recv_sge = 2,
	.max_inline_data = 64,
};

static struct rte_pmd_irdma_send_wr
write_wr(struct pair *p, struct rte_pmd_irdma_sge *s, uint64_t id, uint64_t raddr, uint32_t rkey)
{
	struct rte_pmd_irdma_send_wr wr;

	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, id, s, 1);
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	(void)p;
	return wr;
}

static enum rte_pmd_irdma_qp_state
state_of(struct rte_pmd_irdma_qp *qp)
{
	struct rte_pmd_irdma_qp_attr a;

	rte_pmd_irdma_qp_query(qp, &a, 0, NULL);
	return a.qp_state;
}

T_CASE(bad_rkey_is_remote_access_error_then_flush)
{
	struct rte_pmd_irdma_send_wr wr[3];
	struct rte_pmd_irdma_async_event ev;
	struct rte_pmd_irdma_wc wc[3];
	struct rte_pmd_irdma_sge s;
	struct pair p;
	int err;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(p.b.buf, 0, 4096);
	fill_pattern(p.a.buf, 256, 3);
	s = sge_of(&p.a, 0, 64);
	wr[0] = write_wr(&p, &s, 1, (uintptr_t)p.b.buf, p.b.mr->rkey ^ 0x5500);
	wr[1] = write_wr(&p, &s, 2, (uintptr_t)p.b.buf, p.b.mr->rkey);
	wr[2] = write_wr(&p, &s, 3, (uintptr_t)p.b.buf, p.b.mr->rkey);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 3, &err), 3);
	T_EQ(itest_poll(&p, p.a.cq, wc, 3), 3);
	T_EQ(wc[0].wr_id, 1);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);
	T_EQ(wc[1].wr_id, 2);
	T_EQ(wc[1].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
	T_EQ(wc[2].wr_id, 3);
	T_EQ(wc[2].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
	/* The error completion told the PMD: the handle shows ERR before any query. */
	T_EQ(p.a.qp->state, RTE_PMD_IRDMA_QPS_ERR);
	T_EQ(state_of(p.a.qp), RTE_PMD_IRDMA_QPS_ERR);
	/* Not a byte moved. */
	T_EQ(p.b.buf[0], 0);
	T_EQ(p.b.buf[63], 0);
	/* The responder reported the violation. */
	itest_settle(&p, 50);
	T_EQ(rte_pmd_irdma_async_event_get(p.b.dev, &ev), 0);
	T_EQ(ev.event_type, RTE_PMD_IRDMA_EVENT_QP_ACCESS_ERR);
	T_CHECK(ev.element.qp == p.b.qp);
	/* B's QP is in ERR too: a receive posted now completes flushed. */
	T_EQ(p.b.qp->state, RTE_PMD_IRDMA_QPS_ERR);
	{
		struct rte_pmd_irdma_sge rs = sge_of(&p.b, 0, 64);
		struct rte_pmd_irdma_recv_wr r = { 0x5151, &rs, 1 };

		T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
		T_EQ(itest_poll(&p, p.b.cq, wc, 1), 1);
		T_EQ(wc[0].wr_id, 0x5151);
		T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
	}

	/* Work posted in ERR completes with a flush. */
	wr[0] = write_wr(&p, &s, 4, (uintptr_t)p.b.buf, p.b.mr->rkey);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 1, &err), 1);
	T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
	T_EQ(wc[0].wr_id, 4);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
	pair_close(&p);
}

T_CASE(local_sge_outside_the_mr_is_local_protection_error)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_sge s;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(p.b.buf, 0, 4096);
	s = sge_of(&p.a, PAIR_BUF - 32, 64); /* runs 32 bytes past the MR */
	wr = write_wr(&p, &s, 9, (uintptr_t)p.b.buf, p.b.mr->rkey);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.wr_id, 9);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_LOC_PROT_ERR);
	T_EQ(state_of(p.a.qp), RTE_PMD_IRDMA_QPS_ERR);
	T_EQ(p.b.buf[0], 0);
	pair_close(&p);
}

T_CASE(read_without_remote_read_right)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_mr *wo;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_sge s;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	/* B registers a window of its buffer with remote write only. */
	wo = rte_pmd_irdma_reg_mr(p.b.pd, p.b.buf + 65536, 4096,
				  RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	T_CHECK(wo != NULL);
	memset(p.a.buf, 0x11, 128);
	s = sge_of(&p.a, 0, 128);
	wr = write_wr(&p, &s, 20, (uintptr_t)p.b.buf + 65536, wo->rkey);
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.wr_id, 20);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);
	T_EQ(p.a.buf[0], 0x11); /* nothing was read into it */
	T_EQ(rte_pmd_irdma_dereg_mr(wo), 0);
	pair_close(&p);
}

T_CASE(receive_too_small_is_length_error_on_both_sides)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_sge s, rs;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(p.b.buf, 0, 8192);
	rs = sge_of(&p.b, 0, 100);
	r = (struct rte_pmd_irdma_recv_wr){ 55, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
	s = sge_of(&p.a, 0, 3000);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 56, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.wr_id, 55);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_LOC_LEN_ERR);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.wr_id, 56);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_REM_INV_REQ_ERR);
	T_EQ(p.b.buf[100], 0); /* not a byte past the receive buffer */
	pair_close(&p);
}

T_CASE(no_receive_and_no_rnr_retry)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_sge s;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 0), 0);
	s = sge_of(&p.a, 0, 10);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 77, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.wr_id, 77);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_RNR_RETRY_EXC_ERR);
	pair_close(&p);
}

T_CASE(modify_to_err_flushes_receives_in_order)
{
	struct rte_pmd_irdma_recv_wr r[5];
	struct rte_pmd_irdma_qp_attr a;
	struct rte_pmd_irdma_wc wc[6];
	struct rte_pmd_irdma_sge rs;
	struct pair p;
	int i;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	rs = sge_of(&p.b, 0, 64);
	for (i = 0; i < 5; i++)
		r[i] = (struct rte_pmd_irdma_recv_wr){ 300 + (uint64_t)i, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, r, 5, NULL), 5);
	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_ERR;
	T_EQ(rte_pmd_irdma_qp_modify(p.b.qp, &a, RTE_PMD_IRDMA_QP_STATE), 0);
	T_EQ(itest_poll(&p, p.b.cq, wc, 5), 5);
	for (i = 0; i < 5; i++) {
		T_EQ(wc[i].wr_id, 300 + (uint64_t)i);
		T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
		T_EQ(wc[i].opcode, RTE_PMD_IRDMA_WC_RECV);
	}
	itest_settle(&p, 50);
	T_EQ(rte_pmd_irdma_poll_cq(p.b.cq, wc, 6), 0);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	itest_eal_init("e2e_errors", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
