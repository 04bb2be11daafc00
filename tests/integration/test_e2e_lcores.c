/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two lcores on dedicated CPUs: one posts, the other polls and checks every byte. Then the
 * same traffic with engine=service, the engines of both devices on a service lcore while the
 * main lcore posts and polls. No timing is asserted: only that every message arrives once,
 * in order, intact. And the QP state handed between lcores: the control path moves a QP to
 * ERR while another lcore posts on it; every WR completes exactly once, successes then
 * flushes, and no post is refused.
 */
#include <rte_launch.h>
#include <rte_service.h>

#include "itest_pair.h"
#include "itest_service.h"

#define N_MSG 20000u
#define MSG_LEN 64u
#define N_RECV 256u

static const struct rte_pmd_irdma_qp_cap cap = {
	.max_send_wr = 256, .max_recv_wr = N_RECV, .max_send_sge = 1, .max_recv_sge = 1,
	.max_inline_data = MSG_LEN,
};

static void
msg_fill(uint8_t *b, uint32_t seq)
{
	fill_pattern(b, MSG_LEN, seq);
	memcpy(b, &seq, sizeof(seq));
}

static int sender_err; /* the sender lcore's error, read by main: __atomic */

/* The poster: SENDs N_MSG inline messages, signaling every 32nd to retire the SQ. */
static int
sender(void *arg)
{
	struct pair *p = arg;
	struct rte_pmd_irdma_wc wc[16];
	uint8_t msg[MSG_LEN];
	uint32_t seq = 0, unacked = 0;
	int err;

	while (seq < N_MSG) {
		struct rte_pmd_irdma_sge s = { (uintptr_t)msg, MSG_LEN, p->a.mr->lkey };
		struct rte_pmd_irdma_send_wr wr = {
			.wr_id = seq, .sg_list = &s, .num_sge = 1, .opcode = RTE_PMD_IRDMA_WR_SEND,
			.send_flags = RTE_PMD_IRDMA_SEND_INLINE |
				      ((seq % 32 == 31) ? RTE_PMD_IRDMA_SEND_SIGNALED : 0),
		};
		int n = rte_pmd_irdma_poll_cq(p->a.cq, wc, 16), i;

		for (i = 0; i < n; i++) {
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
				__atomic_store_n(&sender_err, 1000 + (int)wc[i].status,
						 __ATOMIC_RELAXED);
			unacked -= 32;
		}
		if (n < 0 || __atomic_load_n(&sender_err, __ATOMIC_RELAXED))
			return -1;
		if (unacked >= 128) { /* keep the SQ within its depth */
			rte_pmd_irdma_idle(p->a.dev);
			continue;
		}
		msg_fill(msg, seq);
		if (rte_pmd_irdma_post_send(p->a.qp, &wr, 1, &err) == 1) {
			seq++;
			unacked++;
		} else if (err != -ENOMEM) {
			__atomic_store_n(&sender_err, err, __ATOMIC_RELAXED);
			return -1;
		}
	}
	while (unacked >= 32) { /* drain the last signaled completions */
		int n = rte_pmd_irdma_poll_cq(p->a.cq, wc, 16);

		if (n < 0)
			return -1;
		unacked -= 32 * (uint32_t)n;
	}
	return 0;
}

static void
post_recv_slot(struct pair *p, uint32_t slot)
{
	struct rte_pmd_irdma_sge s = { (uintptr_t)(p->b.buf + slot * 128u), 128, p->b.mr->lkey };
	struct rte_pmd_irdma_recv_wr r = { slot, &s, 1 };

	rte_pmd_irdma_post_recv(p->b.qp, &r, 1, NULL);
}

/* The checker: every message arrives once, in order, byte for byte. */
static void
receive_all(struct pair *p, bool step_a)
{
	uint64_t deadline = rte_get_timer_cycles() + 60 * rte_get_timer_hz();
	struct rte_pmd_irdma_wc wc[32];
	uint8_t expect[MSG_LEN];
	uint32_t next = 0, bad = 0, slot;
	int n, i;

	for (slot = 0; slot < N_RECV; slot++)
		post_recv_slot(p, slot);
	while (next < N_MSG && rte_get_timer_cycles() < deadline &&
	       !__atomic_load_n(&sender_err, __ATOMIC_RELAXED)) {
		if (step_a)
			rte_pmd_irdma_poll_cq(p->a.cq, wc, 0);
		n = rte_pmd_irdma_poll_cq(p->b.cq, wc, 32);
		if (n <= 0) {
			rte_pmd_irdma_idle(p->b.dev);
			continue;
		}
		for (i = 0; i < n; i++) {
			slot = (uint32_t)wc[i].wr_id;
			msg_fill(expect, next);
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS || wc[i].byte_len != MSG_LEN ||
			    memcmp(p->b.buf + slot * 128u, expect, MSG_LEN) != 0)
				bad++;
			next++;
			post_recv_slot(p, slot);
		}
	}
	T_EQ(sender_err, 0);
	T_EQ(next, N_MSG);
	T_EQ(bad, 0);
}

T_CASE(one_lcore_posts_the_other_polls)
{
	struct pair p;

	if (rte_lcore_count() < 2)
		T_SKIP("needs two lcores");
	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	sender_err = 0;
	T_EQ(rte_eal_remote_launch(sender, &p, rte_get_next_lcore(-1, 1, 0)), 0);
	receive_all(&p, false);
	T_EQ(rte_eal_wait_lcore(rte_get_next_lcore(-1, 1, 0)), 0);
	pair_close(&p);
}

/* engine=service: both engines on a service lcore; the main lcore posts and polls. */
T_CASE(service_engine_on_a_service_lcore)
{
	struct rte_pmd_irdma_dev_info ia, ib;
	unsigned int slcore = rte_get_next_lcore(-1, 1, 0);
	struct rte_pmd_irdma_wc wc[16];
	struct pair p;
	char args[128];
	uint32_t i, posted = 0;
	int ret;

	if (rte_lcore_count() < 2)
		T_SKIP("needs two lcores");
	memset(&p, 0, sizeof(p));
	snprintf(args, sizeof(args), "soft,port=loop,gen=3,engine=service,ip=198.18.0.1,name=epA");
	T_EQ(endpoint_open(&p.a, args, RTE_PMD_IRDMA_QPT_RC, &cap, NULL), 0);
	snprintf(args, sizeof(args), "soft,port=loop,gen=3,engine=service,ip=198.18.0.2,name=epB");
	T_EQ(endpoint_open(&p.b, args, RTE_PMD_IRDMA_QPT_RC, &cap, NULL), 0);
	T_EQ(qp_to_rts(p.a.qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	T_EQ(qp_to_rts(p.b.qp, &p.a.gid, p.a.qp->qp_num, 7), 0);
	rte_pmd_irdma_dev_info(p.a.dev, &ia);
	rte_pmd_irdma_dev_info(p.b.dev, &ib);
	T_EQ(itest_services_run(slcore, ia.service_id, ib.service_id), 0);

	/* RDMA WRITE_WITH_IMM of 1000 messages into distinct slots of B. */
	for (i = 0; i < N_RECV; i++)
		post_recv_slot(&p, i);
	fill_pattern(p.a.buf, 1000 * 64, 123);
	for (i = 0; i < 1000; i++) {
		struct rte_pmd_irdma_sge s = { (uintptr_t)(p.a.buf + i * 64u), 64, p.a.mr->lkey };
		struct rte_pmd_irdma_send_wr wr = {
			.wr_id = i, .sg_list = &s, .num_sge = 1,
			.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM,
			.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
		};
		uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

		wr.imm_data = rte_cpu_to_be_32(i);
		wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 65536 + i * 64u;
		wr.wr.rdma.rkey = p.b.mr->rkey;
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
		posted++;
		/* Lock-step: wait for both completions before the next. */
		ret = 0;
		while (ret < 2 && rte_get_timer_cycles() < deadline) {
			if (rte_pmd_irdma_poll_cq(p.a.cq, wc, 1) == 1) {
				T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
				ret++;
			}
			if (rte_pmd_irdma_poll_cq(p.b.cq, wc, 1) == 1) {
				T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
				T_EQ(rte_be_to_cpu_32(wc[0].imm_data), i);
				post_recv_slot(&p, (uint32_t)wc[0].wr_id);
				ret++;
			}
		}
		T_EQ(ret, 2);
		if (ret != 2)
			break;
	}
	T_EQ(posted, 1000);
	T_MEMEQ(p.b.buf + 65536, p.a.buf, 1000 * 64);
	T_EQ(itest_services_end(slcore, ia.service_id, ib.service_id), 0);
	pair_close(&p);
}

/* The state hand-off: the worker posts (and polls A's CQ) while main moves A's QP to ERR. */
#define ERR_TOTAL 4000u
#define ERR_AT 1000u

struct err_run {
	struct pair *p;
	uint32_t posted;          /* __atomic: the worker's count, read by main */
	int done;                 /* __atomic: the worker finished */
	uint32_t completed, success, flushed, other, dup, disorder, refused;
	uint8_t seen[ERR_TOTAL];
};

static int
err_worker(void *arg)
{
	struct err_run *r = arg;
	struct rte_pmd_irdma_wc wc[16];
	uint8_t msg[MSG_LEN] = { 1 };
	uint32_t posted = 0;
	bool flushing = false;
	int err, n, i;
	uint64_t deadline = rte_get_timer_cycles() + 60 * rte_get_timer_hz();

	while (r->completed < ERR_TOTAL && rte_get_timer_cycles() < deadline) {
		n = rte_pmd_irdma_poll_cq(r->p->a.cq, wc, 16);
		for (i = 0; i < n; i++) {
			uint64_t id = wc[i].wr_id;

			r->completed++;
			if (id >= ERR_TOTAL || r->seen[id]++)
				r->dup++;
			if (wc[i].status == RTE_PMD_IRDMA_WC_SUCCESS) {
				r->success++;
				if (flushing)
					r->disorder++; /* a success after a flush */
			} else if (wc[i].status == RTE_PMD_IRDMA_WC_WR_FLUSH_ERR) {
				r->flushed++;
				flushing = true;
			} else {
				r->other++;
			}
		}
		if (posted == ERR_TOTAL || posted - r->completed >= 128)
			continue;
		{
			struct rte_pmd_irdma_sge s = { (uintptr_t)msg, MSG_LEN, r->p->a.mr->lkey };
			struct rte_pmd_irdma_send_wr wr = {
				.wr_id = posted, .sg_list = &s, .num_sge = 1,
				.opcode = RTE_PMD_IRDMA_WR_SEND,
				.send_flags = RTE_PMD_IRDMA_SEND_INLINE | RTE_PMD_IRDMA_SEND_SIGNALED,
			};

			if (rte_pmd_irdma_post_send(r->p->a.qp, &wr, 1, &err) == 1)
				__atomic_store_n(&r->posted, ++posted, __ATOMIC_RELEASE);
			else if (err != -ENOMEM)
				r->refused++;
		}
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return 0;
}

T_CASE(control_path_moves_a_qp_to_err_while_another_lcore_posts)
{
	static struct err_run r;
	struct rte_pmd_irdma_qp_attr a;
	struct rte_pmd_irdma_wc wc[32];
	unsigned int worker, slot;
	struct pair p;
	bool moved = false;
	int n, i;

	if (rte_lcore_count() < 2)
		T_SKIP("needs two lcores");
	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(&r, 0, sizeof(r));
	r.p = &p;
	for (slot = 0; slot < N_RECV; slot++)
		post_recv_slot(&p, slot);
	worker = rte_get_next_lcore(-1, 1, 0);
	T_EQ(rte_eal_remote_launch(err_worker, &r, worker), 0);
	while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE)) {
		/* B's side: take receives and give the slots back. */
		n = rte_pmd_irdma_poll_cq(p.b.cq, wc, 32);
		for (i = 0; i < n; i++)
			post_recv_slot(&p, (uint32_t)wc[i].wr_id);
		if (!moved && __atomic_load_n(&r.posted, __ATOMIC_ACQUIRE) >= ERR_AT) {
			memset(&a, 0, sizeof(a));
			a.qp_state = RTE_PMD_IRDMA_QPS_ERR;
			T_EQ(rte_pmd_irdma_qp_modify(p.a.qp, &a, RTE_PMD_IRDMA_QP_STATE), 0);
			moved = true;
		}
		if (n <= 0)
			rte_pmd_irdma_idle(p.b.dev);
	}
	T_EQ(rte_eal_wait_lcore(worker), 0);
	T_CHECK(moved);
	T_EQ(r.refused, 0);     /* ERR accepts posts: they complete flushed */
	T_EQ(r.completed, ERR_TOTAL);
	T_EQ(r.dup, 0);
	T_EQ(r.other, 0);
	T_EQ(r.disorder, 0);
	T_CHECK(r.success >= 1 && r.flushed >= ERR_TOTAL - ERR_AT);
	T_EQ(r.success + r.flushed, ERR_TOTAL);
	T_EQ(p.a.qp->state, RTE_PMD_IRDMA_QPS_ERR);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	itest_eal_init("e2e_lcores", "0-1", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
