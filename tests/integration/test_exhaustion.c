/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exhaustion: a full SQ, RQ and CQ, and every object table at its limit (QPs, CQs, MRs,
 * PDs, AHs, SRQs). Each is refused with a clear error or counted, nothing else breaks, the
 * resource works again once some of it comes back, and no memzone is left behind.
 */
#include "itest_pair.h"

static const struct rte_pmd_irdma_qp_cap small_cap = { 16, 16, 1, 1, 0 };

static int
post_write(struct pair *p, struct rte_pmd_irdma_qp *qp, uint64_t id)
{
	struct rte_pmd_irdma_sge s = sge_of(&p->a, 0, 64);
	struct rte_pmd_irdma_send_wr wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, id, &s, 1);
	int err = 0;

	wr.wr.rdma.remote_addr = (uintptr_t)p->b.buf + 4096;
	wr.wr.rdma.rkey = p->b.mr->rkey;
	if (rte_pmd_irdma_post_send(qp, &wr, 1, &err) != 1)
		return err != 0 ? err : -1;
	return 0;
}

static uint32_t
actual_cap(struct rte_pmd_irdma_qp *qp, bool send)
{
	struct rte_pmd_irdma_qp_init_attr init;
	struct rte_pmd_irdma_qp_attr a;

	if (rte_pmd_irdma_qp_query(qp, &a, 0, &init) != 0)
		return 0;
	return send ? init.cap.max_send_wr : init.cap.max_recv_wr;
}

T_CASE(full_sq_refuses_with_enomem_and_accepts_again_after_completions)
{
	struct rte_pmd_irdma_wc wc[512];
	struct pair p;
	uint32_t cap, n = 0;
	int err;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &small_cap, 0), 0);
	cap = actual_cap(p.a.qp, true);
	T_CHECK(cap >= 16 && cap < 512);
	/* nothing runs the engine: the SQ fills */
	while (n < 1024 && (err = post_write(&p, p.a.qp, n)) == 0)
		n++;
	/* at least what the QP was granted; the ring is counted in quanta, as irdma's is, so
	 * one-SGE WRs may fit more */
	T_CHECK_MSG(n >= cap && n < 1024, "%u WRs accepted, %u granted", n, cap);
	printf("# SQ granted %u WRs, accepted %u one-SGE WRITEs\n", cap, n);
	T_EQ(err, -ENOMEM);
	T_EQ(post_write(&p, p.a.qp, 9999), -ENOMEM); /* still full, still refused */
	T_EQ(itest_poll(&p, p.a.cq, wc, (int)n), (int)n);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc[n - 1].wr_id, n - 1);
	T_EQ(wc[n - 1].status, RTE_PMD_IRDMA_WC_SUCCESS);
	/* room again: the next one is accepted and completes */
	T_EQ(post_write(&p, p.a.qp, 7777), 0);
	T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
	T_EQ(wc[0].wr_id, 7777);
	pair_close(&p);
}

T_CASE(full_rq_refuses_with_enomem_and_accepts_again_after_a_receive)
{
	struct rte_pmd_irdma_wc wc[4];
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_send_wr wr;
	struct pair p;
	uint32_t cap, n = 0;
	int err = 0;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &small_cap, 0), 0);
	cap = actual_cap(p.b.qp, false);
	s = sge_of(&p.b, 0, 64);
	r = (struct rte_pmd_irdma_recv_wr){ 0, &s, 1 };
	while (n < 1024) {
		r.wr_id = n;
		if (rte_pmd_irdma_post_recv(p.b.qp, &r, 1, &err) != 1)
			break;
		n++;
	}
	T_EQ(n, cap);
	T_EQ(err, -ENOMEM);
	/* one SEND consumes a receive: one more fits */
	s = sge_of(&p.a, 0, 32);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, &err), 1);
	T_EQ(itest_poll(&p, p.b.cq, wc, 1), 1);
	T_EQ(wc[0].wr_id, 0);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	s = sge_of(&p.b, 0, 64);
	r.wr_id = 5000;
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, &err), 1);
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, &err), 0);
	T_EQ(err, -ENOMEM);
	pair_close(&p);
}

T_CASE(overflowing_cq_is_counted_and_raised_and_spares_the_other_cqs)
{
	struct rte_pmd_irdma_wc wc[64];
	struct rte_pmd_irdma_async_event ev;
	struct rte_pmd_irdma_cq *small;
	struct rte_pmd_irdma_qp *qa, *qb;
	struct pair p;
	unsigned int before = itest_memzones();
	int i, posted = 0, got = 0, r, events = 0;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &small_cap, 0), 0);
	small = itest_cq(p.a.dev, 4);
	T_CHECK(small != NULL);
	qa = itest_qp(p.a.pd, small, small, RTE_PMD_IRDMA_QPT_RC, 64, 1, 0);
	qb = itest_qp(p.b.pd, p.b.cq, p.b.cq, RTE_PMD_IRDMA_QPT_RC, 64, 1, 0);
	T_CHECK(qa != NULL && qb != NULL);
	T_EQ(qp_to_rts(qa, &p.b.gid, qb->qp_num, 0), 0);
	T_EQ(qp_to_rts(qb, &p.a.gid, qa->qp_num, 0), 0);
	/* more signaled completions than the CQ holds, nobody polls */
	for (i = 0; i < 40; i++)
		posted += post_write(&p, qa, (uint64_t)i) == 0;
	T_EQ(posted, 40);
	itest_settle(&p, 200);
	T_CHECK_MSG(itest_dev_xstat(p.a.dev, "cq_overflows") == 1, "cq_overflows %lu",
		    (unsigned long)itest_dev_xstat(p.a.dev, "cq_overflows"));
	while (rte_pmd_irdma_async_event_get(p.a.dev, &ev) == 0)
		if (ev.event_type == RTE_PMD_IRDMA_EVENT_CQ_ERR && ev.element.cq == small)
			events++;
	T_EQ(events, 1);
	/* what the CQ did hold is intact and in order; then nothing more (no CQE past it) */
	while ((r = rte_pmd_irdma_poll_cq(small, wc + got, 64 - got)) > 0)
		got += r;
	T_CHECK_MSG(got > 0 && got < 40, "%d completions from a CQ of 4", got);
	for (i = 0; i < got; i++) {
		T_EQ(wc[i].wr_id, (uint64_t)i);
		T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_SUCCESS);
	}
	/* the pair's own QP and CQ on the same device are unaffected */
	T_EQ(post_write(&p, p.a.qp, 4242), 0);
	T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
	T_EQ(wc[0].wr_id, 4242);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(rte_pmd_irdma_qp_destroy(qa), 0);
	T_EQ(rte_pmd_irdma_qp_destroy(qb), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(small), 0);
	pair_close(&p);
	T_EQ(itest_memzones(), before);
}

/* Creates objects until one is refused; returns how many, the refusal in *err. */
#define FILL(arr, max, expr, err)                                                          \
	({                                                                                 \
		unsigned int n_ = 0;                                                       \
		while (n_ < (max) && ((arr)[n_] = (expr)) != NULL)                         \
			n_++;                                                              \
		*(err) = rte_errno;                                                        \
		n_;                                                                        \
	})

T_CASE(every_object_table_holds_what_dev_info_says_then_refuses_and_recovers)
{
	struct rte_pmd_irdma_qp *qp[16];
	struct rte_pmd_irdma_cq *cq[16];
	struct rte_pmd_irdma_mr *mr[16];
	struct rte_pmd_irdma_pd *pd[16];
	struct rte_pmd_irdma_ah *ah[16];
	struct rte_pmd_irdma_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct rte_pmd_irdma_srq *srq[16];
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_ah_attr aa;
	struct rte_pmd_irdma_dev *dev;
	unsigned int before = itest_memzones(), nqp, ncq, nmr, npd, nah, nsrq, i;
	uint8_t *buf = rte_zmalloc(NULL, 4096, 4096);
	uint32_t old_rkey;
	int err;

	dev = itest_dev("gen=3,ip=198.18.0.1,max_qp=6,max_cq=3,max_mr=4,max_pd=3,max_ah=3,"
			"max_srq=2");
	T_CHECK(dev != NULL && buf != NULL);
	if (dev == NULL || buf == NULL)
		return;
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	printf("# dev_info: max_qp %u max_cq %u max_mr %u max_pd %u max_ah %u max_srq %u\n",
	       info.max_qp, info.max_cq, info.max_mr, info.max_pd, info.max_ah, info.max_srq);
	npd = FILL(pd, 16, rte_pmd_irdma_pd_alloc(dev), &err);
	T_EQ(npd, info.max_pd);
	T_EQ(err, ENOSPC);
	ncq = FILL(cq, 16, itest_cq(dev, 64), &err);
	T_EQ(ncq, info.max_cq);
	T_EQ(err, ENOSPC);
	nmr = FILL(mr, 16, rte_pmd_irdma_reg_mr(pd[0], buf, 4096, ACCESS_ALL), &err);
	T_EQ(nmr, info.max_mr);
	T_EQ(err, ENOSPC);
	nqp = FILL(qp, 16, itest_qp(pd[0], cq[0], cq[0], RTE_PMD_IRDMA_QPT_RC, 16, 1, 0), &err);
	T_EQ(nqp, info.max_qp);
	T_EQ(err, ENOSPC);
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = 1;
	aa.grh.sgid_index = 1;
	aa.grh.hop_limit = 64;
	aa.grh.dgid.raw[10] = aa.grh.dgid.raw[11] = 0xff;
	aa.grh.dgid.raw[12] = 198;
	aa.grh.dgid.raw[13] = 18;
	aa.grh.dgid.raw[15] = 2;
	nah = FILL(ah, 16, rte_pmd_irdma_ah_create(pd[0], &aa), &err);
	T_EQ(nah, info.max_ah);
	T_EQ(err, ENOSPC);
	nsrq = FILL(srq, 16, rte_pmd_irdma_srq_create(pd[1], &sa), &err);
	T_EQ(nsrq, info.max_srq);
	T_EQ(err, ENOSPC);
	T_CHECK(npd >= 2 && ncq >= 1 && nmr >= 1 && nqp >= 1 && nah >= 1 && nsrq >= 1);
	if (!(npd >= 2 && ncq >= 1 && nmr >= 1 && nqp >= 1 && nah >= 1 && nsrq >= 1))
		return;

	/* one of each back: one of each again (a new MR gets a new key, not the old one) */
	old_rkey = mr[nmr - 1]->rkey;
	T_EQ(rte_pmd_irdma_dereg_mr(mr[nmr - 1]), 0);
	mr[nmr - 1] = rte_pmd_irdma_reg_mr(pd[0], buf, 4096, ACCESS_ALL);
	T_CHECK(mr[nmr - 1] != NULL && mr[nmr - 1]->rkey != old_rkey);
	T_EQ(rte_pmd_irdma_qp_destroy(qp[nqp - 1]), 0);
	qp[nqp - 1] = itest_qp(pd[0], cq[0], cq[0], RTE_PMD_IRDMA_QPT_UD, 16, 1, 0);
	T_CHECK(qp[nqp - 1] != NULL);
	T_EQ(rte_pmd_irdma_ah_destroy(ah[0]), 0);
	ah[0] = rte_pmd_irdma_ah_create(pd[0], &aa);
	T_CHECK(ah[0] != NULL);
	T_EQ(rte_pmd_irdma_srq_destroy(srq[0]), 0);
	srq[0] = rte_pmd_irdma_srq_create(pd[1], &sa);
	T_CHECK(srq[0] != NULL);
	/* full again */
	T_CHECK(rte_pmd_irdma_reg_mr(pd[0], buf, 4096, ACCESS_ALL) == NULL);
	T_CHECK(itest_qp(pd[0], cq[0], cq[0], RTE_PMD_IRDMA_QPT_RC, 16, 1, 0) == NULL);
	T_CHECK(rte_pmd_irdma_pd_alloc(dev) == NULL);

	for (i = 0; i < nsrq; i++)
		T_EQ(rte_pmd_irdma_srq_destroy(srq[i]), 0);
	for (i = 0; i < nah; i++)
		T_EQ(rte_pmd_irdma_ah_destroy(ah[i]), 0);
	for (i = 0; i < nqp; i++)
		T_EQ(rte_pmd_irdma_qp_destroy(qp[i]), 0);
	for (i = 0; i < nmr; i++)
		T_EQ(rte_pmd_irdma_dereg_mr(mr[i]), 0);
	for (i = 0; i < ncq; i++)
		T_EQ(rte_pmd_irdma_cq_destroy(cq[i]), 0);
	for (i = 0; i < npd; i++)
		T_EQ(rte_pmd_irdma_pd_free(pd[i]), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	rte_free(buf);
	T_EQ(itest_memzones(), before);
}

T_CASE(create_destroy_loops_leave_no_memzone_key_or_qp_number_behind)
{
	struct rte_pmd_irdma_dev *dev = itest_dev("gen=3,max_qp=6,max_mr=3");
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	uint8_t *buf = rte_zmalloc(NULL, 4096, 4096);
	unsigned int before, i, k, made = 0;

	T_CHECK(dev != NULL && buf != NULL);
	if (dev == NULL || buf == NULL)
		return;
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	T_CHECK(info.max_qp == 4 && info.max_mr == 2);
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 64);
	before = itest_memzones();
	/* 200 rounds over full tables of 4 QPs and 2 MRs: one slot leaked per round would
	 * fill them within a few rounds */
	for (i = 0; i < 200; i++) {
		struct rte_pmd_irdma_qp *q[4];
		struct rte_pmd_irdma_mr *m[2];

		for (k = 0; k < 4; k++)
			made += (q[k] = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 16, 1, 0)) != NULL;
		for (k = 0; k < 2; k++)
			made += (m[k] = rte_pmd_irdma_reg_mr(pd, buf, 4096, ACCESS_ALL)) != NULL;
		for (k = 0; k < 4; k++)
			if (q[k] != NULL)
				rte_pmd_irdma_qp_destroy(q[k]);
		for (k = 0; k < 2; k++)
			if (m[k] != NULL)
				rte_pmd_irdma_dereg_mr(m[k]);
	}
	T_EQ(made, 200 * 6);
	T_EQ(itest_memzones(), before);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	rte_free(buf);
}

int
main(int argc, char **argv)
{
	itest_eal_init("exhaustion", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
