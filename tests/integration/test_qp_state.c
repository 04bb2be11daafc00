/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verbs QP state machine: every legal transition with exactly its required attributes,
 * a refusal (-EINVAL, nothing changed, a log naming the attribute) for each missing or
 * forbidden attribute, illegal transitions and bad values; query returns what was set.
 * The state has one owner (the handle's word): an error completion moves it to ERR, a late
 * report of an error never undoes a RESET, and work posted in ERR completes flushed (sends
 * by the doorbell alone, receives by the PMD's flush request).
 */
#include "itest_pair.h"
#include "itest_log.h"

#define M(x) RTE_PMD_IRDMA_QP_##x
#define S(x) RTE_PMD_IRDMA_QPS_##x

static struct rte_pmd_irdma_dev *dev;
static struct rte_pmd_irdma_pd *pd;
static struct rte_pmd_irdma_cq *cq;

static void
setup(void)
{
	if (dev != NULL)
		return;
	dev = itest_dev("ip=198.18.0.9,mtu=2048");
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 64);
}

static void
fill(struct rte_pmd_irdma_qp_attr *a, const struct rte_pmd_irdma_qp *qp,
     enum rte_pmd_irdma_qp_state s)
{
	memset(a, 0, sizeof(*a));
	a->qp_state = s;
	a->port_num = 1;
	a->qkey = 0x11111111;
	a->qp_access_flags = RTE_PMD_IRDMA_ACCESS_REMOTE_READ;
	a->path_mtu = RTE_PMD_IRDMA_MTU_2048;
	a->dest_qp_num = qp->qp_num;
	a->rq_psn = 0x123456;
	a->sq_psn = 0x654321;
	a->max_dest_rd_atomic = 4;
	a->max_rd_atomic = 2;
	a->min_rnr_timer = 12;
	a->timeout = 14;
	a->retry_cnt = 6;
	a->rnr_retry = 7;
	a->ah_attr.is_global = 1;
	a->ah_attr.port_num = 1;
	a->ah_attr.grh.sgid_index = 1;
	a->ah_attr.grh.hop_limit = 64;
	rte_pmd_irdma_query_gid(dev, 1, &a->ah_attr.grh.dgid);
}

#define RC_INIT (M(STATE) | M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS))
#define UD_INIT (M(STATE) | M(PKEY_INDEX) | M(PORT) | M(QKEY))
#define RC_RTR (M(STATE) | M(AV) | M(PATH_MTU) | M(DEST_QPN) | M(RQ_PSN) |                 \
		M(MAX_DEST_RD_ATOMIC) | M(MIN_RNR_TIMER))
#define RC_RTS (M(STATE) | M(SQ_PSN) | M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) |          \
		M(MAX_QP_RD_ATOMIC))

static int
go(struct rte_pmd_irdma_qp *qp, enum rte_pmd_irdma_qp_state s, uint32_t mask)
{
	struct rte_pmd_irdma_qp_attr a;

	fill(&a, qp, s);
	return rte_pmd_irdma_qp_modify(qp, &a, mask);
}

/* Each required attribute, left out in turn, is named in the refusal. */
static void
each_required(struct rte_pmd_irdma_qp *qp, enum rte_pmd_irdma_qp_state s, uint32_t mask,
	      const char *const *names)
{
	uint32_t bits = mask & ~M(STATE);
	unsigned int k = 0;
	char want[96];

	while (bits) {
		uint32_t bit = bits & -bits;

		bits &= ~bit;
		itest_log_begin();
		T_EQ(go(qp, s, mask & ~bit), -EINVAL);
		itest_log_end();
		snprintf(want, sizeof(want), "requires attribute %s", names[k++]);
		T_LOGGED(want);
	}
}

T_CASE(rc_walk_with_each_required_attribute)
{
	static const char *const init_names[] = { "ACCESS_FLAGS", "PKEY_INDEX", "PORT" };
	static const char *const rtr_names[] = { "AV", "PATH_MTU", "RQ_PSN", "MIN_RNR_TIMER",
						 "MAX_DEST_RD_ATOMIC", "DEST_QPN" };
	static const char *const rts_names[] = { "TIMEOUT", "RETRY_CNT", "RNR_RETRY",
						 "MAX_QP_RD_ATOMIC", "SQ_PSN" };
	struct rte_pmd_irdma_qp_attr q;
	struct rte_pmd_irdma_qp *qp;

	setup();
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 16, 2, 0);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;
	T_EQ(qp->state, S(RESET));
	each_required(qp, S(INIT), RC_INIT, init_names);
	T_EQ(qp->state, S(RESET));
	T_EQ(go(qp, S(INIT), RC_INIT), 0);
	T_EQ(qp->state, S(INIT));
	T_EQ(go(qp, S(INIT), M(STATE) | M(ACCESS_FLAGS)), 0); /* INIT -> INIT */
	each_required(qp, S(RTR), RC_RTR, rtr_names);
	T_EQ(qp->state, S(INIT));
	T_EQ(go(qp, S(RTR), RC_RTR), 0);
	each_required(qp, S(RTS), RC_RTS, rts_names);
	T_EQ(go(qp, S(RTS), RC_RTS), 0);
	T_EQ(qp->state, S(RTS));
	T_EQ(go(qp, S(RTS), M(STATE) | M(MIN_RNR_TIMER)), 0); /* RTS -> RTS */
	T_EQ(go(qp, S(SQD), M(STATE)), 0);
	T_EQ(go(qp, S(SQD), M(STATE) | M(TIMEOUT)), 0);      /* SQD -> SQD */
	T_EQ(go(qp, S(RTS), M(STATE) | M(CUR_STATE)), -EINVAL); /* cur_qp_state is RESET */

	/* Query returns what was set. */
	T_EQ(rte_pmd_irdma_qp_query(qp, &q, 0, NULL), 0);
	T_EQ(q.qp_state, S(SQD));
	T_EQ(q.path_mtu, RTE_PMD_IRDMA_MTU_2048);
	T_EQ(q.dest_qp_num, qp->qp_num);
	T_EQ(q.max_dest_rd_atomic, 4);
	T_EQ(q.max_rd_atomic, 2);
	T_EQ(q.timeout, 14);
	T_EQ(q.retry_cnt, 6);
	T_EQ(q.rnr_retry, 7);
	T_EQ(q.min_rnr_timer, 12);
	T_EQ(q.qp_access_flags, RTE_PMD_IRDMA_ACCESS_REMOTE_READ);
	T_EQ(q.ah_attr.grh.sgid_index, 1);
	T_EQ(q.cap.max_send_wr, 127); /* 2 SGEs + 1: shift 1; (16 << 1) + 258 -> 512 quanta */
	T_EQ(go(qp, S(ERR), M(STATE)), 0);
	T_EQ(qp->state, S(ERR));
	T_EQ(go(qp, S(RTS), RC_RTS), -EINVAL);
	T_EQ(go(qp, S(RESET), M(STATE)), 0);
	T_EQ(qp->state, S(RESET));
	/* After RESET the walk works again. */
	T_EQ(go(qp, S(INIT), RC_INIT), 0);
	T_EQ(go(qp, S(RTR), RC_RTR), 0);
	T_EQ(go(qp, S(RTS), RC_RTS), 0);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
}

T_CASE(ud_walk)
{
	struct rte_pmd_irdma_qp_attr q;
	struct rte_pmd_irdma_qp *qp;

	setup();
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_UD, 16, 1, 0);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;
	itest_log_begin();
	T_EQ(go(qp, S(INIT), RC_INIT), -EINVAL); /* UD takes a Q_Key, not access flags */
	itest_log_end();
	T_LOGGED("requires attribute QKEY");
	T_EQ(go(qp, S(INIT), UD_INIT), 0);
	itest_log_begin();
	T_EQ(go(qp, S(RTR), RC_RTR), -EINVAL);
	itest_log_end();
	T_LOGGED("attribute AV is not allowed in UD INIT -> RTR");
	T_EQ(go(qp, S(RTR), M(STATE)), 0);
	T_EQ(go(qp, S(RTS), M(STATE)), -EINVAL);
	T_EQ(go(qp, S(RTS), M(STATE) | M(SQ_PSN)), 0);
	T_EQ(go(qp, S(RTS), M(STATE) | M(QKEY)), 0);
	T_EQ(rte_pmd_irdma_qp_query(qp, &q, 0, NULL), 0);
	T_EQ(q.qkey, 0x11111111);
	T_EQ(q.qp_state, S(RTS));
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
}

T_CASE(illegal_transitions)
{
	static const struct {
		enum rte_pmd_irdma_qp_state from, to;
	} bad[] = {
		{ S(RESET), S(RTR) }, { S(RESET), S(RTS) }, { S(RESET), S(SQD) },
		{ S(INIT), S(RTS) },  { S(INIT), S(SQD) },  { S(RTR), S(SQD) },
		{ S(RTR), S(INIT) },  { S(RTS), S(INIT) },  { S(RTS), S(RTR) },
		{ S(ERR), S(INIT) },  { S(RESET), S(SQE) },
	};
	static const uint32_t path[] = { 0, RC_INIT, RC_RTR, RC_RTS };
	struct rte_pmd_irdma_qp *qp;
	unsigned int i, k;
	char want[96];

	setup();
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 16, 1, 0);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;
	for (i = 0; i < RTE_DIM(bad); i++) {
		/* Walk to the source state. */
		T_EQ(go(qp, S(RESET), M(STATE)), 0);
		if (bad[i].from == S(ERR)) {
			T_EQ(go(qp, S(ERR), M(STATE)), 0);
		} else {
			for (k = 1; k <= (unsigned int)bad[i].from && k < 4; k++)
				T_EQ(go(qp, (enum rte_pmd_irdma_qp_state)k, path[k]), 0);
		}
		T_EQ(qp->state, bad[i].from);
		itest_log_begin();
		T_EQ(go(qp, bad[i].to, 0x1FFFFF & ~(M(ALT_PATH) | M(PATH_MIG_STATE) | M(CAP))),
		     -EINVAL);
		itest_log_end();
		snprintf(want, sizeof(want), "%s -> %s is not a legal RC transition",
			 rte_pmd_irdma_qp_state_str(bad[i].from), rte_pmd_irdma_qp_state_str(bad[i].to));
		T_LOGGED(want);
		T_EQ(qp->state, bad[i].from);
	}
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
}

T_CASE(bad_values)
{
	struct rte_pmd_irdma_qp_attr a;
	struct rte_pmd_irdma_qp *qp;

	setup();
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 16, 1, 0);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;

#define BAD(state, mask, field, value, text)                                               \
	do {                                                                               \
		fill(&a, qp, state);                                                       \
		a.field = value;                                                           \
		itest_log_begin();                                                         \
		T_EQ(rte_pmd_irdma_qp_modify(qp, &a, mask), -EINVAL);                      \
		itest_log_end();                                                           \
		T_LOGGED(text);                                                            \
	} while (0)

	BAD(S(INIT), RC_INIT, pkey_index, 1, "pkey_index 1: the P_Key table has one entry");
	BAD(S(INIT), RC_INIT, port_num, 2, "port_num 2: the device has one port");
	BAD(S(INIT), RC_INIT, qp_access_flags, RTE_PMD_IRDMA_ACCESS_MW_BIND, "qp_access_flags 0x10");
	T_EQ(go(qp, S(INIT), RC_INIT), 0);
	BAD(S(RTR), RC_RTR, path_mtu, RTE_PMD_IRDMA_MTU_4096,
	    "path_mtu 5: valid values are 1 (256) .. 4 (2048, the device MTU)");
	BAD(S(RTR), RC_RTR, path_mtu, 0, "path_mtu 0");
	BAD(S(RTR), RC_RTR, dest_qp_num, 0x1000000, "dest_qp_num 0x1000000 exceeds 24 bits");
	BAD(S(RTR), RC_RTR, rq_psn, 0x1000000, "exceeds 24 bits");
	BAD(S(RTR), RC_RTR, min_rnr_timer, 32, "min_rnr_timer 32: valid values 0..31");
	BAD(S(RTR), RC_RTR, max_dest_rd_atomic, 200, "max_dest_rd_atomic 200 over the device limit");
	BAD(S(RTR), RC_RTR, ah_attr.is_global, 0, "RoCE needs is_global=1");
	BAD(S(RTR), RC_RTR, ah_attr.grh.sgid_index, 7, "sgid_index 7 out of range");
	T_EQ(go(qp, S(RTR), RC_RTR), 0);
	BAD(S(RTS), RC_RTS, timeout, 32, "timeout 32: valid values 0..31");
	BAD(S(RTS), RC_RTS, retry_cnt, 8, "valid values 0..7");
	BAD(S(RTS), RC_RTS, rnr_retry, 9, "valid values 0..7");
	BAD(S(RTS), RC_RTS, max_rd_atomic, 200, "max_rd_atomic 200 over the device limit");
	BAD(S(RTS), RC_RTS | M(CUR_STATE), cur_qp_state, S(INIT),
	    "cur_qp_state INIT does not match the state RTR");
	BAD(S(RTS), RC_RTS | M(ALT_PATH), timeout, 14, "attribute ALT_PATH is not supported");
	BAD(S(RTS), RC_RTS | M(QKEY), timeout, 14, "attribute QKEY is not allowed in RC RTR -> RTS");
#undef BAD
	T_EQ(qp->state, S(RTR));
	T_EQ(go(qp, S(RTS), RC_RTS), 0);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
}

static const struct rte_pmd_irdma_qp_cap pair_cap = {
	.max_send_wr = 32, .max_recv_wr = 32, .max_send_sge = 1, .max_recv_sge = 1,
	.max_inline_data = 64,
};

static int
drain(struct pair *p, struct rte_pmd_irdma_cq *cq)
{
	struct rte_pmd_irdma_wc wc[16];
	int n = 0, r;

	itest_settle(p, 20);
	while ((r = rte_pmd_irdma_poll_cq(cq, wc, RTE_DIM(wc))) > 0)
		n += r;
	return n;
}

T_CASE(posts_in_err_complete_flushed_sends_by_doorbell_receives_by_request)
{
	struct rte_pmd_irdma_send_wr wr[3];
	struct rte_pmd_irdma_recv_wr rw[2];
	struct rte_pmd_irdma_wc wc[4];
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_qp_attr q;
	struct pair p;
	unsigned int i;
	int err;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &pair_cap, 7), 0);
	T_EQ(go(p.a.qp, S(ERR), M(STATE)), 0);
	T_EQ(p.a.qp->state, S(ERR));
	T_EQ(drain(&p, p.a.cq), 0); /* nothing was outstanding */
	s = sge_of(&p.a, 0, 16);
	for (i = 0; i < 3; i++)
		wr[i] = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 0x500 + i, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 3, &err), 3);
	T_EQ(err, 0);
	T_EQ(itest_poll(&p, p.a.cq, wc, 3), 3);
	for (i = 0; i < 3; i++) {
		T_EQ(wc[i].wr_id, 0x500 + i);
		T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
		T_EQ(wc[i].opcode, RTE_PMD_IRDMA_WC_SEND);
	}
	for (i = 0; i < 2; i++) {
		rw[i].wr_id = 0x600 + i;
		rw[i].sg_list = &s;
		rw[i].num_sge = 1;
	}
	T_EQ(rte_pmd_irdma_post_recv(p.a.qp, rw, 2, &err), 2);
	T_EQ(err, 0);
	T_EQ(itest_poll(&p, p.a.cq, wc, 2), 2);
	for (i = 0; i < 2; i++) {
		T_EQ(wc[i].wr_id, 0x600 + i);
		T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
		T_EQ(wc[i].opcode, RTE_PMD_IRDMA_WC_RECV);
	}
	T_EQ(drain(&p, p.a.cq), 0); /* each WR once */
	T_EQ(rte_pmd_irdma_qp_query(p.a.qp, &q, 0, NULL), 0);
	T_EQ(q.qp_state, S(ERR));
	T_EQ(q.cur_qp_state, S(ERR));
	pair_close(&p);
}

T_CASE(error_completion_moves_the_handle_and_a_late_event_does_not_undo_reset)
{
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_async_event ev;
	struct rte_pmd_irdma_qp_attr q;
	struct rte_pmd_irdma_wc wc[2];
	struct rte_pmd_irdma_sge s;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &pair_cap, 7), 0);
	s = sge_of(&p.a, 0, 8);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 0x77, &s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr.wr.rdma.rkey = p.b.mr->rkey ^ 0x3300; /* no such key on B */
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);
	T_EQ(p.a.qp->state, S(ERR)); /* before any query */
	/* Back to RESET while A's device event about the error is still queued. */
	T_EQ(go(p.a.qp, S(RESET), M(STATE)), 0);
	T_EQ(p.a.qp->state, S(RESET));
	T_EQ(rte_pmd_irdma_async_event_get(p.a.dev, &ev), 0);
	T_CHECK(ev.element.qp == p.a.qp);
	T_EQ(p.a.qp->state, S(RESET)); /* the late report is about the old incarnation */
	T_EQ(rte_pmd_irdma_qp_query(p.a.qp, &q, 0, NULL), 0);
	T_EQ(q.qp_state, S(RESET));
	/* And the QP comes back: a write lands. */
	T_EQ(qp_to_rts(p.a.qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	T_EQ(p.a.qp->state, S(RTS));
	T_EQ(go(p.b.qp, S(RESET), M(STATE)), 0);
	T_EQ(qp_to_rts(p.b.qp, &p.a.gid, p.a.qp->qp_num, 7), 0);
	p.a.buf[0] = 0x5a;
	wr.wr.rdma.rkey = p.b.mr->rkey;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(p.b.buf[0], 0x5a);
	pair_close(&p);
}

T_CASE(teardown)
{
	setup();
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("qp_state", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
