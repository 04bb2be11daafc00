/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * End to end with the other objects: UD with AHs and the GRH area, SRQ receives, memory
 * windows (type 1 and 2), local invalidate and send with invalidate, CQ arm with an
 * eventfd, CQ resize with completions pending, CQ overflow, QP destroy with work outstanding.
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "itest_pair.h"

static void
ud_send_with_grh_area(unsigned int gen)
{
	struct rte_pmd_irdma_dev_info ia;
	struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 32 };
	struct rte_pmd_irdma_ah_attr aa;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_ah *ah;
	struct pair p;
	int k;

	T_EQ(pair_open(&p, gen, RTE_PMD_IRDMA_QPT_UD, &cap, 7), 0);
	rte_pmd_irdma_dev_info(p.a.dev, &ia);
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = 1;
	aa.grh.sgid_index = 1;
	aa.grh.hop_limit = 64;
	aa.grh.dgid = p.b.gid;
	ah = rte_pmd_irdma_ah_create(p.a.pd, &aa);
	T_CHECK(ah != NULL);
	for (k = 0; k < 2; k++) {
		uint32_t len = k == 0 ? 700 : 20;

		memset(p.b.buf, 0xEE, 2048);
		fill_pattern(p.a.buf, len, 40u + k);
		rs = sge_of(&p.b, 0, 40 + 1024);
		r = (struct rte_pmd_irdma_recv_wr){ 500 + (uint64_t)k, &rs, 1 };
		T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
		s = sge_of(&p.a, 0, len);
		wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND_WITH_IMM, 600 + (uint64_t)k, &s, 1);
		if (k == 1)
			wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
		wr.imm_data = rte_cpu_to_be_32(0x1234);
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = p.b.qp->qp_num;
		wr.wr.ud.remote_qkey = 0x11111111;
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
		T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_SEND);
		T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.wr_id, 500 + (uint64_t)k);
		T_EQ(wc.byte_len, 40 + len);       /* the GRH area counts */
		T_EQ(wc.src_qp, p.a.qp->qp_num);
		T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_GRH);
		T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_IMM);
		T_EQ(rte_be_to_cpu_32(wc.imm_data), 0x1234);
		/* The sender's MAC from the extended CQE. */
		T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_SMAC);
		T_MEMEQ(wc.smac, ia.mac, 6);
		T_MEMEQ(p.b.buf + 40, p.a.buf, len);
		T_EQ(p.b.buf[40 + len], 0xEE);
	}
	/* A wrong Q_Key is dropped by the receiver: no completion there. */
	r = (struct rte_pmd_irdma_recv_wr){ 510, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.ud.remote_qkey = 0x22222222;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	itest_settle(&p, 100);
	T_EQ(rte_pmd_irdma_poll_cq(p.b.cq, &wc, 1), 0);
	/* RC-only operations are refused on UD. */
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 1, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 0);
	T_EQ(rte_pmd_irdma_ah_destroy(ah), 0);
	pair_close(&p);
}

/* GEN_2: 32-byte CQEs with the extension in the next slot; GEN_3: 64-byte CQEs. */
T_CASE(ud_send_with_grh_area_gen2)
{
	ud_send_with_grh_area(2);
}

T_CASE(ud_send_with_grh_area_gen3)
{
	ud_send_with_grh_area(3);
}

T_CASE(srq_receives_for_two_qps)
{
	struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct rte_pmd_irdma_srq_init_attr sa;
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_recv_wr r[8];
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_sge s, rs[8];
	struct rte_pmd_irdma_wc wc[8];
	struct rte_pmd_irdma_srq *srq;
	struct rte_pmd_irdma_qp *b2, *a2;
	uint64_t seen = 0;
	struct pair p;
	int i, n;

	T_EQ(pair_open(&p, 3, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = 16;
	sa.attr.max_sge = 1;
	srq = rte_pmd_irdma_srq_create(p.b.pd, &sa);
	T_CHECK(srq != NULL);
	if (srq == NULL)
		return;
	/* Two QPs on B share the SRQ; each has its own peer on A. */
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = p.b.cq;
	qa.recv_cq = p.b.cq;
	qa.srq = srq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap = cap;
	b2 = rte_pmd_irdma_qp_create(p.b.pd, &qa);
	qa.send_cq = p.a.cq;
	qa.recv_cq = p.a.cq;
	qa.srq = NULL;
	qa.cap = cap; /* create wrote back what b2 got (no RQ) */
	a2 = rte_pmd_irdma_qp_create(p.a.pd, &qa);
	T_CHECK(b2 != NULL && a2 != NULL);
	if (b2 == NULL || a2 == NULL)
		return;
	T_EQ(qp_to_rts(b2, &p.a.gid, a2->qp_num, 7), 0);
	T_EQ(qp_to_rts(a2, &p.b.gid, b2->qp_num, 7), 0);
	for (i = 0; i < 8; i++) {
		rs[i] = sge_of(&p.b, 256 * (size_t)i, 256);
		r[i] = (struct rte_pmd_irdma_recv_wr){ 900 + (uint64_t)i, &rs[i], 1 };
	}
	T_EQ(rte_pmd_irdma_srq_post_recv(srq, r, 8, NULL), 8);
	/* Armed at 7 WRs: falling to 6 raises SRQ_LIMIT_REACHED once. */
	{
		struct rte_pmd_irdma_srq_attr lim = { .srq_limit = 7 };

		T_EQ(rte_pmd_irdma_srq_modify(srq, &lim, RTE_PMD_IRDMA_SRQ_LIMIT), 0);
	}
	fill_pattern(p.a.buf, 64, 1);
	s = sge_of(&p.a, 0, 64);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(a2, &wr, 1, NULL), 1);
	T_EQ(rte_pmd_irdma_post_send(a2, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, wc, 2), 2);
	for (n = 0; n < 2; n++) {
		T_EQ(wc[n].status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc[n].qp_num, b2->qp_num);
		T_EQ(wc[n].byte_len, 64);
		T_CHECK(wc[n].wr_id >= 900 && wc[n].wr_id < 908);
		seen |= 1ull << (wc[n].wr_id - 900);
		T_MEMEQ(p.b.buf + 256 * (wc[n].wr_id - 900), p.a.buf, 64);
	}
	T_EQ(__builtin_popcountll(seen), 2);
	T_EQ(itest_poll(&p, p.a.cq, wc, 2), 2);
	{
		struct rte_pmd_irdma_async_event ev;
		struct rte_pmd_irdma_srq_attr q;

		T_EQ(rte_pmd_irdma_async_event_get(p.b.dev, &ev), 0);
		T_EQ(ev.event_type, RTE_PMD_IRDMA_EVENT_SRQ_LIMIT_REACHED);
		T_CHECK(ev.element.srq == srq);
		T_EQ(rte_pmd_irdma_async_event_get(p.b.dev, &ev), -EAGAIN);
		T_EQ(rte_pmd_irdma_srq_query(srq, &q), 0);
		T_EQ(q.srq_limit, 0); /* disarmed */
	}
	/* post_recv on a QP that uses an SRQ is a misuse. */
	T_EQ(rte_pmd_irdma_post_recv(b2, r, 1, &n), 0);
	T_EQ(n, -EINVAL);
	T_EQ(rte_pmd_irdma_qp_destroy(b2), 0);
	T_EQ(rte_pmd_irdma_qp_destroy(a2), 0);
	T_EQ(rte_pmd_irdma_srq_destroy(srq), 0);
	pair_close(&p);
}

T_CASE(memory_windows_type1_type2_and_invalidation)
{
	struct rte_pmd_irdma_qp_cap cap = { 32, 32, 1, 1, 0 };
	struct rte_pmd_irdma_mw_bind_info bi;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_mw *mw1, *mw2;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	uint32_t old, k2;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(p.b.buf, 0, 65536);
	fill_pattern(p.a.buf, 4096, 8);

	/* Type 1, bound by B on its own QP: a window of 1 KiB at offset 8192, write only. */
	mw1 = rte_pmd_irdma_alloc_mw(p.b.pd, RTE_PMD_IRDMA_MW_TYPE_1);
	T_CHECK(mw1 != NULL);
	old = mw1->rkey;
	bi = (struct rte_pmd_irdma_mw_bind_info){ p.b.mr, (uintptr_t)p.b.buf + 8192, 1024,
		RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE };
	T_EQ(rte_pmd_irdma_bind_mw(p.b.qp, mw1, &bi, 42, 1), 0);
	T_CHECK(mw1->rkey != old && (mw1->rkey & ~0xFFu) == (old & ~0xFFu));
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_BIND_MW);
	T_EQ(wc.wr_id, 42);
	/* The MR cannot go while a window is bound to it. */
	T_EQ(rte_pmd_irdma_dereg_mr(p.b.mr), -EBUSY);

	s = sge_of(&p.a, 0, 512);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 1, &s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 8192 + 512;
	wr.wr.rdma.rkey = mw1->rkey;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_MEMEQ(p.b.buf + 8192 + 512, p.a.buf, 512);

	/* Type 2, bound with a work request, then invalidated by A's SEND_WITH_INV. */
	mw2 = rte_pmd_irdma_alloc_mw(p.b.pd, RTE_PMD_IRDMA_MW_TYPE_2);
	T_CHECK(mw2 != NULL);
	k2 = (mw2->rkey & ~0xFFu) | ((mw2->rkey + 7) & 0xFFu);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 43;
	wr.opcode = RTE_PMD_IRDMA_WR_BIND_MW;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.bind_mw.mw = mw2;
	wr.bind_mw.rkey = k2;
	wr.bind_mw.bind_info = (struct rte_pmd_irdma_mw_bind_info){ p.b.mr,
		(uintptr_t)p.b.buf + 16384, 4096,
		RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ };
	T_EQ(rte_pmd_irdma_post_send(p.b.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_BIND_MW);
	T_EQ(mw2->rkey, k2);
	/* Read through it. */
	s = sge_of(&p.a, 8192, 100);
	memset(p.b.buf + 16384, 0x3C, 100);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_READ, 2, &s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 16384;
	wr.wr.rdma.rkey = k2;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(p.a.buf[8192], 0x3C);
	T_EQ(p.a.buf[8192 + 99], 0x3C);

	/* SEND_WITH_INV invalidates the window on B: B's receive reports it. */
	rs = sge_of(&p.b, 0, 64);
	r = (struct rte_pmd_irdma_recv_wr){ 700, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
	s = sge_of(&p.a, 0, 16);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND_WITH_INV, 3, &s, 1);
	wr.invalidate_rkey = k2;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.wr_id, 700);
	T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_INV);
	T_EQ(wc.invalidated_rkey, k2);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);

	/* The invalidated key no longer works: remote access error. */
	s = sge_of(&p.a, 8192, 8);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 4, &s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 16384;
	wr.wr.rdma.rkey = k2;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);

	T_EQ(rte_pmd_irdma_dealloc_mw(mw1), 0);
	T_EQ(rte_pmd_irdma_dealloc_mw(mw2), 0);
	pair_close(&p);
}

T_CASE(local_invalidate_of_a_window)
{
	struct rte_pmd_irdma_qp_cap cap = { 32, 32, 1, 1, 0 };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_mw *mw;
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_wc wc;
	uint32_t key;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	mw = rte_pmd_irdma_alloc_mw(p.b.pd, RTE_PMD_IRDMA_MW_TYPE_2);
	T_CHECK(mw != NULL);
	key = (mw->rkey & ~0xFFu) | ((mw->rkey + 1) & 0xFFu);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = RTE_PMD_IRDMA_WR_BIND_MW;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = key;
	wr.bind_mw.bind_info = (struct rte_pmd_irdma_mw_bind_info){ p.b.mr, (uintptr_t)p.b.buf,
		4096, RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE };
	T_EQ(rte_pmd_irdma_post_send(p.b.qp, &wr, 1, NULL), 1); /* unsignaled */
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 5;
	wr.opcode = RTE_PMD_IRDMA_WR_LOCAL_INV;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.invalidate_rkey = key;
	T_EQ(rte_pmd_irdma_post_send(p.b.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.wr_id, 5);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_LOCAL_INV);
	s = sge_of(&p.a, 0, 8);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 6, &s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr.wr.rdma.rkey = key;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);
	T_EQ(rte_pmd_irdma_dealloc_mw(mw), 0);
	pair_close(&p);
}

T_CASE(cq_arm_delivers_an_event_on_the_eventfd)
{
	struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct rte_pmd_irdma_cq_init_attr ca;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_cq *ecq;
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_qp *qp;
	uint64_t v = 0;
	struct pair p;
	int efd;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	efd = eventfd(0, EFD_NONBLOCK);
	T_CHECK(efd >= 0);
	memset(&ca, 0, sizeof(ca));
	ca.cqe = 16;
	ca.comp_fd = efd;
	ecq = rte_pmd_irdma_cq_create(p.a.dev, &ca);
	T_CHECK(ecq != NULL);
	/* A second QP on A whose send CQ has the eventfd, connected to B's QP. */
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = ecq;
	qa.recv_cq = ecq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap = cap;
	rte_pmd_irdma_qp_destroy(p.b.qp);
	qa.send_cq = p.b.cq;
	qa.recv_cq = p.b.cq;
	p.b.qp = rte_pmd_irdma_qp_create(p.b.pd, &qa);
	qa.send_cq = ecq;
	qa.recv_cq = ecq;
	qp = rte_pmd_irdma_qp_create(p.a.pd, &qa);
	T_CHECK(qp != NULL && p.b.qp != NULL);
	T_EQ(qp_to_rts(qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	T_EQ(qp_to_rts(p.b.qp, &p.a.gid, qp->qp_num, 7), 0);

	s = sge_of(&p.a, 0, 8);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 1, &s, 1);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr.wr.rdma.rkey = p.b.mr->rkey;
	/* Not armed: a completion writes nothing to the eventfd. */
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, ecq, &wc, 1), 1);
	T_EQ(read(efd, &v, sizeof(v)), -1);
	/* Armed: one event. */
	T_EQ(rte_pmd_irdma_cq_req_notify(ecq, 0), 0);
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, ecq, &wc, 1), 1);
	T_EQ(read(efd, &v, sizeof(v)), (ssize_t)sizeof(v));
	T_EQ(v, 1);
	/* One event per arm. */
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, ecq, &wc, 1), 1);
	T_EQ(read(efd, &v, sizeof(v)), -1);
	/* Solicited-only arm: an unsolicited completion does not fire it. */
	T_EQ(rte_pmd_irdma_cq_req_notify(ecq, 1), 0);
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, ecq, &wc, 1), 1);
	T_EQ(read(efd, &v, sizeof(v)), -1);

	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(ecq), 0);
	close(efd);
	pair_close(&p);
}

/* Solicited events: a receive CQ armed for solicited completions fires on a SEND with the
 * solicited flag only, and the completion says it was solicited. */
T_CASE(solicited_event_on_the_receive_cq)
{
	struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 16 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_cq *rcq;
	uint64_t v = 0;
	struct pair p;
	int efd, k;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	efd = eventfd(0, EFD_NONBLOCK);
	ca.comp_fd = efd;
	rcq = rte_pmd_irdma_cq_create(p.b.dev, &ca);
	T_CHECK(efd >= 0 && rcq != NULL);
	/* B's QP again, now receiving on the eventfd CQ. */
	T_EQ(rte_pmd_irdma_qp_destroy(p.b.qp), 0);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = p.b.cq;
	qa.recv_cq = rcq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap = cap;
	p.b.qp = rte_pmd_irdma_qp_create(p.b.pd, &qa);
	T_CHECK(p.b.qp != NULL);
	T_EQ(rte_pmd_irdma_qp_modify(p.a.qp, &(struct rte_pmd_irdma_qp_attr){
		.qp_state = RTE_PMD_IRDMA_QPS_RESET }, RTE_PMD_IRDMA_QP_STATE), 0);
	T_EQ(qp_to_rts(p.a.qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	T_EQ(qp_to_rts(p.b.qp, &p.a.gid, p.a.qp->qp_num, 7), 0);
	rs = sge_of(&p.b, 0, 64);
	s = sge_of(&p.a, 0, 8);
	T_EQ(rte_pmd_irdma_cq_req_notify(rcq, 1), 0);
	for (k = 0; k < 2; k++) {
		r = (struct rte_pmd_irdma_recv_wr){ (uint64_t)k, &rs, 1 };
		T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = 10 + (uint64_t)k;
		wr.sg_list = &s;
		wr.num_sge = 1;
		wr.opcode = RTE_PMD_IRDMA_WR_SEND;
		wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED |
				(k == 1 ? RTE_PMD_IRDMA_SEND_SOLICITED : 0);
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
		T_EQ(itest_poll(&p, rcq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.solicited, k);
		T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
		if (k == 0) {
			T_EQ(read(efd, &v, sizeof(v)), -1); /* unsolicited: no event */
		} else {
			T_EQ(read(efd, &v, sizeof(v)), (ssize_t)sizeof(v));
			T_EQ(v, 1);
		}
	}
	T_EQ(rte_pmd_irdma_qp_destroy(p.b.qp), 0);
	p.b.qp = NULL;
	T_EQ(rte_pmd_irdma_cq_destroy(rcq), 0);
	close(efd);
	pair_close(&p);
}

T_CASE(cq_resize_keeps_pending_completions_in_order)
{
	struct rte_pmd_irdma_qp_cap cap = { 64, 64, 1, 1, 0 };
	struct rte_pmd_irdma_send_wr wr[40];
	struct rte_pmd_irdma_wc wc[40];
	struct pair p;
	int i, n;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	for (i = 0; i < 40; i++)
		wr[i] = signaled_wr(RTE_PMD_IRDMA_WR_NOP, 100 + (uint64_t)i, NULL, 0);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 20, NULL), 20);
	itest_settle(&p, 200); /* 20 completions now sit in the ring */
	T_EQ(rte_pmd_irdma_cq_resize(p.a.cq, 10), -EINVAL); /* fewer than pending */
	T_EQ(rte_pmd_irdma_cq_resize(p.a.cq, 4000), 0);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr + 20, 20, NULL), 20);
	n = itest_poll(&p, p.a.cq, wc, 40);
	T_EQ(n, 40);
	for (i = 0; i < n; i++) {
		T_EQ(wc[i].wr_id, 100 + (uint64_t)i);
		T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_SUCCESS);
	}
	pair_close(&p);
}

T_CASE(cq_overflow_is_an_error_event)
{
	struct rte_pmd_irdma_qp_cap cap = { 64, 64, 1, 1, 0 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_async_event ev;
	struct rte_pmd_irdma_send_wr wr[60];
	struct rte_pmd_irdma_queue_mem m;
	struct rte_pmd_irdma_wc wc[64];
	struct rte_pmd_irdma_cq *small;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_sge s;
	struct pair p;
	int i, r, total = 0;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	small = itest_cq(p.a.dev, 2); /* 8 slots of 32 bytes on GEN_2 */
	T_CHECK(small != NULL);
	T_EQ(rte_pmd_irdma_cq_queue_mem(small, &m), 0);
	T_EQ(m.len, 256);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = small;
	qa.recv_cq = small;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap = cap;
	qp = rte_pmd_irdma_qp_create(p.a.pd, &qa);
	T_CHECK(qp != NULL);
	T_EQ(qp_to_rts(qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	for (i = 0; i < 60; i++)
		wr[i] = signaled_wr(RTE_PMD_IRDMA_WR_NOP, (uint64_t)i, NULL, 0);
	T_EQ(rte_pmd_irdma_post_send(qp, wr, 60, NULL), 60);
	itest_settle(&p, 500);
	/* What was written before the overflow reads back intact and in order... */
	do {
		r = rte_pmd_irdma_poll_cq(small, wc, 64);
		for (i = 0; i < r; i++) {
			T_EQ(wc[i].wr_id, (uint64_t)(total + i));
			T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_SUCCESS);
		}
		if (r > 0)
			total += r;
	} while (r > 0);
	/* ...then the CQ reports its error state instead of returning garbage. */
	T_EQ(r, -EIO);
	T_CHECK(total > 0 && total < 60);
	T_EQ(rte_pmd_irdma_async_event_get(p.a.dev, &ev), 0);
	T_EQ(ev.event_type, RTE_PMD_IRDMA_EVENT_CQ_ERR);
	T_CHECK(ev.element.cq == small);
	T_EQ(rte_pmd_irdma_poll_cq(small, wc, 64), -EIO);
	/* The rest of the device is unharmed: a write on the other QP lands byte for byte. */
	fill_pattern(p.a.buf, 1000, 77);
	memset(p.b.buf, 0, 1000);
	s = sge_of(&p.a, 0, 1000);
	wr[0] = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 1, &s, 1);
	wr[0].wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr[0].wr.rdma.rkey = p.b.mr->rkey;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_MEMEQ(p.b.buf, p.a.buf, 1000);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(small), 0);
	pair_close(&p);
}

T_CASE(qp_destroy_with_work_outstanding)
{
	struct rte_pmd_irdma_qp_cap cap = { 128, 128, 1, 1, 0 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_send_wr wr[100];
	struct rte_pmd_irdma_wc wc[128];
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_qp *victim, *vpeer;
	struct pair p;
	int i, n, r;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = p.a.cq;
	qa.recv_cq = p.a.cq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap = cap;
	victim = rte_pmd_irdma_qp_create(p.a.pd, &qa);
	/* RC is one to one: the victim gets its own peer on B. */
	qa.send_cq = p.b.cq;
	qa.recv_cq = p.b.cq;
	qa.cap = cap;
	vpeer = rte_pmd_irdma_qp_create(p.b.pd, &qa);
	T_CHECK(victim != NULL && vpeer != NULL);
	if (victim == NULL || vpeer == NULL)
		return;
	T_EQ(qp_to_rts(victim, &p.b.gid, vpeer->qp_num, 7), 0);
	T_EQ(qp_to_rts(vpeer, &p.a.gid, victim->qp_num, 7), 0);
	s = sge_of(&p.a, 0, 4096);
	for (i = 0; i < 100; i++) {
		wr[i] = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 0xDEAD0000 + (uint64_t)i, &s, 1);
		wr[i].wr.rdma.remote_addr = (uintptr_t)p.b.buf + 8192;
		wr[i].wr.rdma.rkey = p.b.mr->rkey;
	}
	/* 100 writes, some executed (completions in the CQ), most not: destroy now. */
	T_EQ(rte_pmd_irdma_post_send(victim, wr, 100, NULL), 100);
	itest_settle(&p, 3);
	T_EQ(rte_pmd_irdma_qp_destroy(victim), 0);
	/* The survivor on the same CQ works, and nothing of the victim shows up. */
	for (i = 0; i < 10; i++) {
		wr[i].wr_id = 7000 + (uint64_t)i;
		wr[i].wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	}
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 10, NULL), 10);
	n = itest_poll(&p, p.a.cq, wc, 10);
	T_EQ(n, 10);
	itest_settle(&p, 200);
	r = rte_pmd_irdma_poll_cq(p.a.cq, wc + n, 16);
	T_EQ(r, 0);
	for (i = 0; i < n; i++) {
		T_EQ(wc[i].wr_id, 7000 + (uint64_t)i);
		T_EQ(wc[i].qp_num, p.a.qp->qp_num);
		T_EQ(wc[i].status, RTE_PMD_IRDMA_WC_SUCCESS);
	}
	T_EQ(rte_pmd_irdma_qp_destroy(vpeer), 0);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	itest_eal_init("e2e_objects", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
