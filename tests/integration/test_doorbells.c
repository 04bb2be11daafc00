/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbells are events that are never lost: the main lcore posts RDMA WRITE_WITH_IMM on 64
 * QPs round-robin, one WR per doorbell (32000 doorbells), while another lcore runs the
 * devices' engines concurrently: as their rte_service (engine=service: the doorbell pages'
 * bitmaps taken while the main lcore marks them), or by calling rte_pmd_irdma_progress()
 * in a loop (engine=inline: a post takes its own doorbell when the engine is free, and
 * rings it when the other lcore is in the engine). Every WQE must be executed exactly
 * once: the receiver sees each (QP, sequence) immediate once, none missing, none twice, and
 * the sender gets every completion. No timing is asserted (the deadline only turns a lost
 * doorbell into a failure instead of a hang).
 */
#include <rte_launch.h>
#include <rte_service.h>

#include "itest_pair.h"
#include "itest_service.h"

#define NQ 64u        /* QP pairs */
#define NMSG 500u     /* WRITEs per QP */
#define WINDOW 24u    /* outstanding per QP (SQ and receives 64) */

struct side {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	union rte_pmd_irdma_gid gid;
	struct rte_pmd_irdma_qp *qp[NQ];
	uint32_t service_id;
};

static int
side_open(struct side *s, const char *devargs)
{
	static const struct rte_pmd_irdma_qp_cap cap = { 64, 64, 1, 1, 8 };
	struct rte_pmd_irdma_dev_info info;
	unsigned int q;

	memset(s, 0, sizeof(*s));
	s->dev = rte_pmd_irdma_dev_create(devargs);
	if (s->dev == NULL)
		return -1;
	rte_pmd_irdma_dev_info(s->dev, &info);
	s->service_id = info.service_id;
	rte_pmd_irdma_query_gid(s->dev, 1, &s->gid);
	s->pd = rte_pmd_irdma_pd_alloc(s->dev);
	s->cq = itest_cq(s->dev, 2 * NQ * 64);
	s->buf = rte_zmalloc(NULL, NQ * 64, 4096);
	if (s->pd == NULL || s->cq == NULL || s->buf == NULL)
		return -1;
	s->mr = rte_pmd_irdma_reg_mr(s->pd, s->buf, NQ * 64, ACCESS_ALL);
	if (s->mr == NULL)
		return -1;
	for (q = 0; q < NQ; q++) {
		s->qp[q] = itest_qp(s->pd, s->cq, s->cq, RTE_PMD_IRDMA_QPT_RC, cap.max_send_wr,
				    cap.max_send_sge, cap.max_inline_data);
		if (s->qp[q] == NULL)
			return -1;
	}
	return 0;
}

static void
side_close(struct side *s)
{
	unsigned int q;

	for (q = 0; q < NQ; q++)
		if (s->qp[q] != NULL)
			rte_pmd_irdma_qp_destroy(s->qp[q]);
	if (s->mr)
		rte_pmd_irdma_dereg_mr(s->mr);
	if (s->cq)
		rte_pmd_irdma_cq_destroy(s->cq);
	if (s->pd)
		rte_pmd_irdma_pd_free(s->pd);
	rte_free(s->buf);
	if (s->dev)
		rte_pmd_irdma_dev_close(s->dev);
}

static int
post_recv(struct side *s, unsigned int q)
{
	struct rte_pmd_irdma_recv_wr r = { .wr_id = q, .sg_list = NULL, .num_sge = 0 };

	return rte_pmd_irdma_post_recv(s->qp[q], &r, 1, NULL) == 1 ? 0 : -1;
}

static volatile int stepper_stop;

/* engine=inline's other driver: both devices' engines, until told to stop. */
static int
stepper(void *arg)
{
	struct side *const *s = arg;

	while (!stepper_stop) {
		rte_pmd_irdma_progress(s[0]->dev, 64);
		rte_pmd_irdma_progress(s[1]->dev, 64);
	}
	return 0;
}

static void
no_doorbell_lost(bool inline_engine)
{
	static uint8_t seen[NQ][NMSG];
	static struct side a, b;
	struct side *both[2] = { &a, &b };
	unsigned int slcore = rte_get_next_lcore(-1, 1, 0);
	uint32_t posted[NQ] = { 0 }, sent[NQ] = { 0 }, received = 0, completed = 0, dups = 0;
	struct rte_pmd_irdma_wc wc[32];
	uint64_t deadline, kicks;
	unsigned int q, i;

	if (rte_lcore_count() < 2)
		T_SKIP("needs two lcores");
	memset(seen, 0, sizeof(seen));
	if (inline_engine) {
		T_EQ(side_open(&a, "soft,port=loop,gen=2,engine=inline,ip=198.18.5.3,name=dbC"), 0);
		T_EQ(side_open(&b, "soft,port=loop,gen=2,engine=inline,ip=198.18.5.4,name=dbD"), 0);
	} else {
		T_EQ(side_open(&a, "soft,port=loop,gen=2,engine=service,ip=198.18.5.1,name=dbA"), 0);
		T_EQ(side_open(&b, "soft,port=loop,gen=2,engine=service,ip=198.18.5.2,name=dbB"), 0);
	}
	for (q = 0; q < NQ; q++) {
		T_EQ(qp_to_rts(a.qp[q], &b.gid, b.qp[q]->qp_num, 7), 0);
		T_EQ(qp_to_rts(b.qp[q], &a.gid, a.qp[q]->qp_num, 7), 0);
		for (i = 0; i < 64; i++)
			T_EQ(post_recv(&b, q), 0);
	}
	if (inline_engine) {
		stepper_stop = 0;
		T_EQ(rte_eal_remote_launch(stepper, both, slcore), 0);
	} else {
		T_EQ(itest_services_run(slcore, a.service_id, b.service_id), 0);
	}

	deadline = rte_get_timer_cycles() + 60 * rte_get_timer_hz();
	while ((received < NQ * NMSG || completed < NQ * NMSG) &&
	       rte_get_timer_cycles() < deadline) {
		int n;

		for (q = 0; q < NQ; q++) {
			struct rte_pmd_irdma_sge s = { (uintptr_t)(a.buf + q * 64), 8, a.mr->lkey };
			struct rte_pmd_irdma_send_wr wr = {
				.sg_list = &s, .num_sge = 1,
				.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM,
				.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED |
					      RTE_PMD_IRDMA_SEND_INLINE,
			};

			if (posted[q] == NMSG || posted[q] - sent[q] >= WINDOW)
				continue;
			wr.wr_id = q;
			wr.imm_data = rte_cpu_to_be_32(q << 16 | posted[q]);
			wr.wr.rdma.remote_addr = (uintptr_t)(b.buf + q * 64);
			wr.wr.rdma.rkey = b.mr->rkey;
			if (rte_pmd_irdma_post_send(a.qp[q], &wr, 1, NULL) != 1)
				break;
			posted[q]++;
		}
		n = rte_pmd_irdma_poll_cq(a.cq, wc, 32);
		for (i = 0; i < (unsigned int)RTE_MAX(n, 0); i++) {
			T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_SUCCESS);
			sent[wc[i].wr_id]++;
			completed++;
		}
		n = rte_pmd_irdma_poll_cq(b.cq, wc, 32);
		for (i = 0; i < (unsigned int)RTE_MAX(n, 0); i++) {
			uint32_t imm = rte_be_to_cpu_32(wc[i].imm_data), mq = imm >> 16,
				 seq = imm & 0xffff;

			T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_SUCCESS);
			T_CHECK(mq == wc[i].wr_id && seq < NMSG);
			if (mq < NQ && seq < NMSG && seen[mq][seq]++ != 0)
				dups++;
			received++;
			post_recv(&b, (unsigned int)wc[i].wr_id);
		}
	}
	if (inline_engine) {
		stepper_stop = 1;
		T_EQ(rte_eal_wait_lcore(slcore), 0);
	} else {
		T_EQ(itest_services_end(slcore, a.service_id, b.service_id), 0);
	}
	kicks = itest_dev_xstat(a.dev, "sq_kicks");
	printf("# %u WRITEs posted, %u executed at the responder, %u completed; %" PRIu64
	       " posts took their own doorbell, %" PRIu64 " rang it\n",
	       NQ * NMSG, received, completed, kicks, NQ * NMSG - kicks);
	T_EQ(received, NQ * NMSG);
	T_EQ(completed, NQ * NMSG);
	T_EQ(dups, 0);
	for (q = 0; q < NQ; q++)
		for (i = 0; i < NMSG; i++)
			if (seen[q][i] != 1)
				T_CHECK_MSG(0, "QP %u message %u executed %u times", q, i, seen[q][i]);
	if (inline_engine)
		T_CHECK_MSG(kicks > 0 && kicks <= NQ * NMSG, "sq_kicks %" PRIu64, kicks);
	else
		T_EQ(kicks, 0); /* a service engine's posts always ring */
	side_close(&a);
	side_close(&b);
}

T_CASE(no_doorbell_lost_with_the_engine_on_another_lcore)
{
	no_doorbell_lost(false);
}

/* engine=inline, the other lcore stepping both devices: a post finds the engine free and
 * takes its doorbell, or finds it busy and rings; either way each WQE runs once. */
T_CASE(no_doorbell_lost_when_posts_take_the_engine)
{
	no_doorbell_lost(true);
}

int
main(int argc, char **argv)
{
	itest_eal_init("doorbells", "0-1", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
