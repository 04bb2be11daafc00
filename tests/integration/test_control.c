/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control plane and misuse: every object's create/destroy, and each misuse the PMD must
 * refuse with the exact errno and a log line that says why.
 */
#include <rte_malloc.h>

#include "itest_log.h"
#include "itest_pair.h"

static struct rte_pmd_irdma_dev *dev2, *dev3, *dev1;

static void
open_devices(void)
{
	if (dev2 != NULL)
		return;
	dev2 = rte_pmd_irdma_dev_create("soft,port=loop,name=g2,gen=2,ip=198.18.0.2,max_qp=6");
	dev3 = rte_pmd_irdma_dev_create("soft,port=loop,name=g3,gen=3,ip=198.18.0.3");
	dev1 = rte_pmd_irdma_dev_create("soft,port=loop,name=g1,gen=1,ip=198.18.0.4");
}

/* Bring an RC QP to RTS, connected to itself (its own GID and QPN). */
static int
to_rts(struct rte_pmd_irdma_qp *qp)
{
	union rte_pmd_irdma_gid gid;

	rte_pmd_irdma_query_gid(qp->dev, 1, &gid);
	return qp_to_rts(qp, &gid, qp->qp_num, 7);
}

T_CASE(pd_and_mr)
{
	struct rte_pmd_irdma_pd *pd, *pd2;
	struct rte_pmd_irdma_mr *mr, *mr2;
	static char heap_buf[4096];
	void *dpdk_buf;

	open_devices();
	pd = rte_pmd_irdma_pd_alloc(dev2);
	pd2 = rte_pmd_irdma_pd_alloc(dev2);
	T_CHECK(pd != NULL && pd2 != NULL);
	T_CHECK(pd->handle != pd2->handle);
	T_CHECK(rte_pmd_irdma_pd_alloc(NULL) == NULL && rte_errno == EINVAL);

	/* Bad registrations. */
	itest_log_begin();
	T_CHECK(rte_pmd_irdma_reg_mr(pd, NULL, 64, 0) == NULL);
	T_EQ(rte_errno, EINVAL);
	T_CHECK(rte_pmd_irdma_reg_mr(pd, heap_buf, 0, 0) == NULL);
	T_EQ(rte_errno, EINVAL);
	T_CHECK(rte_pmd_irdma_reg_mr(pd, heap_buf, 64, RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE) == NULL);
	T_EQ(rte_errno, EINVAL);
	T_CHECK(rte_pmd_irdma_reg_mr(pd, heap_buf, 64, RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC) == NULL);
	T_EQ(rte_errno, EINVAL);
	T_CHECK(rte_pmd_irdma_reg_mr(pd, heap_buf, 64, 0x400) == NULL);
	T_EQ(rte_errno, EINVAL);
	itest_log_end();
	T_LOGGED("empty or NULL region");
	T_LOGGED("remote write or atomic access requires LOCAL_WRITE");
	T_LOGGED("unknown bits 0x400");

	/* Application memory: no IOVA. DPDK memory: an IOVA. lkey = rkey. */
	mr = rte_pmd_irdma_reg_mr(pd, heap_buf, sizeof(heap_buf),
				  RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	T_CHECK(mr != NULL);
	if (mr == NULL)
		return;
	T_EQ(mr->lkey, mr->rkey);
	T_CHECK(mr->addr == heap_buf && mr->length == sizeof(heap_buf));
	T_EQ(mr->iova, RTE_BAD_IOVA);
	dpdk_buf = rte_malloc(NULL, 8192, 4096);
	mr2 = rte_pmd_irdma_reg_mr(pd, dpdk_buf, 8192, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	T_CHECK(mr2 != NULL);
	T_CHECK(mr2 != NULL && mr2->iova == rte_mem_virt2iova(dpdk_buf) && mr2->iova != RTE_BAD_IOVA);
	T_CHECK(mr2 != NULL && mr2->lkey != mr->lkey);

	/* A PD with MRs cannot go. */
	itest_log_begin();
	T_EQ(rte_pmd_irdma_pd_free(pd), -EBUSY);
	itest_log_end();
	T_LOGGED("is still used by 2 objects");
	T_EQ(rte_pmd_irdma_dereg_mr(mr), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(mr2), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(NULL), -EINVAL);
	rte_free(dpdk_buf);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd2), 0);
}

T_CASE(cq_create_destroy_resize_arm)
{
	struct rte_pmd_irdma_cq_init_attr a = { .cqe = 0, .comp_fd = -1 };
	struct rte_pmd_irdma_cq *cq;

	open_devices();
	itest_log_begin();
	T_CHECK(rte_pmd_irdma_cq_create(dev2, &a) == NULL);
	T_EQ(rte_errno, EINVAL);
	a.cqe = 1048575;
	T_CHECK(rte_pmd_irdma_cq_create(dev2, &a) == NULL);
	T_EQ(rte_errno, EINVAL);
	a.cqe = 8;
	a.comp_fd = -2;
	T_CHECK(rte_pmd_irdma_cq_create(dev2, &a) == NULL);
	T_EQ(rte_errno, EINVAL);
	itest_log_end();
	T_LOGGED("cqe 0 out of range 1..1048574");
	T_LOGGED("comp_fd -2: expected an eventfd or -1");

	cq = itest_cq(dev2, 8);
	T_CHECK(cq != NULL);
	if (cq == NULL)
		return;
	T_EQ(cq->cqe, 8);
	itest_log_begin();
	T_EQ(rte_pmd_irdma_cq_req_notify(cq, 0), -EINVAL);
	itest_log_end();
	T_LOGGED("has no comp_fd");
	T_EQ(rte_pmd_irdma_cq_resize(cq, 100), 0);
	T_EQ(cq->cqe, 100);
	T_EQ(rte_pmd_irdma_cq_resize(cq, 0), -EINVAL);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);

	/* GEN_1 has no CQ resize. */
	cq = itest_cq(dev1, 8);
	T_CHECK(cq != NULL);
	itest_log_begin();
	T_EQ(rte_pmd_irdma_cq_resize(cq, 16), -EOPNOTSUPP);
	itest_log_end();
	T_LOGGED("CQ resize is not supported by GEN_1");
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
}

T_CASE(cq_used_by_qp_cannot_be_destroyed)
{
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *scq, *rcq;
	struct rte_pmd_irdma_qp *qp;
	char want[96];

	open_devices();
	pd = rte_pmd_irdma_pd_alloc(dev2);
	scq = itest_cq(dev2, 16);
	rcq = itest_cq(dev2, 16);
	qp = itest_qp(pd, scq, rcq, RTE_PMD_IRDMA_QPT_RC, 8, 1, 0);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;
	itest_log_begin();
	T_EQ(rte_pmd_irdma_cq_destroy(scq), -EBUSY);
	T_EQ(rte_pmd_irdma_cq_destroy(rcq), -EBUSY);
	T_EQ(rte_pmd_irdma_pd_free(pd), -EBUSY);
	itest_log_end();
	snprintf(want, sizeof(want), "CQ %u is still used by 1 QPs: %u; destroy them first",
		 scq->handle, qp->qp_num);
	T_LOGGED(want);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(scq), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(rcq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
}

T_CASE(qp_create_errors)
{
	struct rte_pmd_irdma_qp_init_attr a;
	struct rte_pmd_irdma_pd *pd, *pd3;
	struct rte_pmd_irdma_cq *cq, *cq3;
	struct rte_pmd_irdma_qp *qps[8];
	int i, n;

	open_devices();
	pd = rte_pmd_irdma_pd_alloc(dev2);
	pd3 = rte_pmd_irdma_pd_alloc(dev3);
	cq = itest_cq(dev2, 64);
	cq3 = itest_cq(dev3, 64);

#define EXPECT_QP_FAIL(err, text)                                                          \
	do {                                                                               \
		itest_log_begin();                                                         \
		T_CHECK(rte_pmd_irdma_qp_create(pd, &a) == NULL);                          \
		T_EQ(rte_errno, err);                                                      \
		itest_log_end();                                                           \
		T_LOGGED(text);                                                            \
	} while (0)

	memset(&a, 0, sizeof(a));
	a.send_cq = cq;
	a.recv_cq = cq;
	a.cap.max_send_wr = 16;
	a.cap.max_recv_wr = 16;
	a.cap.max_send_sge = 1;
	a.cap.max_recv_sge = 1;
	a.qp_type = 3; /* UC */
	EXPECT_QP_FAIL(EINVAL, "qp_type 3: valid types are RC (2) and UD (4)");
	a.qp_type = RTE_PMD_IRDMA_QPT_RC;
	a.send_cq = NULL;
	EXPECT_QP_FAIL(EINVAL, "a QP needs a send_cq and a recv_cq");
	a.send_cq = cq3;
	EXPECT_QP_FAIL(EINVAL, "CQs and SRQ must belong to the QP's device");
	a.send_cq = cq;
	a.cap.max_send_sge = 14;
	EXPECT_QP_FAIL(EINVAL, "max_send_sge 14 / max_recv_sge 1 over the GEN_2 (E810) limit 13");
	a.cap.max_send_sge = 1;
	a.cap.max_inline_data = 102;
	EXPECT_QP_FAIL(EINVAL, "max_inline_data 102 over the GEN_2 (E810) limit 101");
	a.cap.max_inline_data = 0;
	a.cap.max_send_wr = 0;
	EXPECT_QP_FAIL(EINVAL, "max_send_wr 0 out of range 1..32768");
	/* 4095 WRs of 8 quanta (13 SGEs): 32760 + 258 quanta round up past the limit. */
	a.cap.max_send_wr = 4095;
	a.cap.max_send_sge = 13;
	EXPECT_QP_FAIL(EINVAL, "needs an SQ deeper than 32768 quanta");
	a.cap.max_send_wr = 16;
	a.cap.max_send_sge = 1;
	a.cap.max_recv_wr = 32768;
	EXPECT_QP_FAIL(EINVAL, "needs an RQ deeper than 32768 quanta");
	a.cap.max_recv_wr = 16;

	/* max_qp=6 leaves 4 QPs (QPN 0 and 1 are reserved). */
	for (n = 0; n < 8; n++) {
		qps[n] = rte_pmd_irdma_qp_create(pd, &a);
		if (qps[n] == NULL)
			break;
	}
	T_EQ(n, 4);
	T_EQ(rte_errno, ENOSPC);
	for (i = 0; i < n; i++)
		T_EQ(rte_pmd_irdma_qp_destroy(qps[i]), 0);
#undef EXPECT_QP_FAIL
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq3), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd3), 0);
}

T_CASE(srq_lifecycle)
{
	struct rte_pmd_irdma_srq_init_attr sa;
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_srq_attr q;
	struct rte_pmd_irdma_srq *srq;
	struct rte_pmd_irdma_pd *pd2, *pd3;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;

	open_devices();
	pd2 = rte_pmd_irdma_pd_alloc(dev2);
	pd3 = rte_pmd_irdma_pd_alloc(dev3);
	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = 100;
	sa.attr.max_sge = 2;
	itest_log_begin();
	T_CHECK(rte_pmd_irdma_srq_create(pd2, &sa) == NULL);
	T_EQ(rte_errno, EOPNOTSUPP);
	itest_log_end();
	T_LOGGED("SRQs need GEN_3");

	srq = rte_pmd_irdma_srq_create(pd3, &sa);
	T_CHECK(srq != NULL);
	if (srq == NULL)
		return;
	/* shift 1 (2 SGEs), depth = roundup(100 << 1 + 1) = 256 quanta: max_wr 127, 3 SGEs. */
	T_EQ(sa.attr.max_wr, 127);
	T_EQ(sa.attr.max_sge, 3);
	cq = itest_cq(dev3, 64);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.srq = srq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap.max_send_wr = 8;
	qa.cap.max_send_sge = 1;
	qp = rte_pmd_irdma_qp_create(pd3, &qa);
	T_CHECK(qp != NULL);
	T_EQ(qa.cap.max_recv_wr, 0);
	itest_log_begin();
	T_EQ(rte_pmd_irdma_srq_destroy(srq), -EBUSY);
	itest_log_end();
	T_LOGGED("is still used by 1 QPs");
	q.srq_limit = 10;
	T_EQ(rte_pmd_irdma_srq_modify(srq, &q, RTE_PMD_IRDMA_SRQ_LIMIT), 0);
	T_EQ(rte_pmd_irdma_srq_modify(srq, &q, 1), -EINVAL); /* max_wr cannot change */
	q.srq_limit = 1000;
	T_EQ(rte_pmd_irdma_srq_modify(srq, &q, RTE_PMD_IRDMA_SRQ_LIMIT), -EINVAL);
	T_EQ(rte_pmd_irdma_srq_query(srq, &q), 0);
	T_EQ(q.srq_limit, 10);
	T_EQ(q.max_wr, 127);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_srq_destroy(srq), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd2), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd3), 0);
}

T_CASE(ah_and_mw)
{
	struct rte_pmd_irdma_ah_attr aa;
	struct rte_pmd_irdma_pd *pd, *pd1;
	struct rte_pmd_irdma_ah *ah;
	struct rte_pmd_irdma_mw *mw1, *mw2;

	open_devices();
	pd = rte_pmd_irdma_pd_alloc(dev2);
	pd1 = rte_pmd_irdma_pd_alloc(dev1);
	memset(&aa, 0, sizeof(aa));
	aa.port_num = 1;
	itest_log_begin();
	T_CHECK(rte_pmd_irdma_ah_create(pd, &aa) == NULL);
	T_EQ(rte_errno, EINVAL);
	aa.is_global = 1;
	aa.grh.sgid_index = 9;
	T_CHECK(rte_pmd_irdma_ah_create(pd, &aa) == NULL);
	T_EQ(rte_errno, EINVAL);
	itest_log_end();
	T_LOGGED("RoCE needs is_global=1");
	T_LOGGED("sgid_index 9 out of range");
	aa.grh.sgid_index = 1;
	rte_pmd_irdma_query_gid(dev2, 1, &aa.grh.dgid);
	ah = rte_pmd_irdma_ah_create(pd, &aa);
	T_CHECK(ah != NULL);
	T_EQ(rte_pmd_irdma_ah_destroy(ah), 0);

	T_CHECK(rte_pmd_irdma_alloc_mw(pd, 3) == NULL && rte_errno == EINVAL);
	T_CHECK(rte_pmd_irdma_alloc_mw(pd1, RTE_PMD_IRDMA_MW_TYPE_2) == NULL &&
		rte_errno == EOPNOTSUPP);
	mw1 = rte_pmd_irdma_alloc_mw(pd, RTE_PMD_IRDMA_MW_TYPE_1);
	mw2 = rte_pmd_irdma_alloc_mw(pd, RTE_PMD_IRDMA_MW_TYPE_2);
	T_CHECK(mw1 != NULL && mw2 != NULL);
	T_CHECK(mw1 != NULL && mw2 != NULL && mw1->rkey != mw2->rkey);
	T_EQ(rte_pmd_irdma_dealloc_mw(mw1), 0);
	T_EQ(rte_pmd_irdma_dealloc_mw(mw2), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd1), 0);
}

/* Post-path misuse: state, SGE count, inline size, lkey of another PD, full SQ. */
T_CASE(post_misuse)
{
	static char buf[4096];
	struct rte_pmd_irdma_pd *pd, *other;
	struct rte_pmd_irdma_mr *mr, *mr_other;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_sge sge[4];
	struct rte_pmd_irdma_send_wr wr[300];
	struct rte_pmd_irdma_recv_wr rwr;
	struct rte_pmd_irdma_xstat_name names[64];
	struct rte_pmd_irdma_xstat xs[64];
	int err, i, n;

	open_devices();
	pd = rte_pmd_irdma_pd_alloc(dev2);
	other = rte_pmd_irdma_pd_alloc(dev2);
	mr = rte_pmd_irdma_reg_mr(pd, buf, 2048, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	mr_other = rte_pmd_irdma_reg_mr(other, buf + 2048, 2048, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	cq = itest_cq(dev2, 512);
	/* 127 WRs of 1 SGE: shift 1, SQ 512 quanta; 16 inline bytes. */
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 127, 1, 16);
	T_CHECK(pd && other && mr && mr_other && cq && qp);
	if (!(pd && other && mr && mr_other && cq && qp))
		return;

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < 4; i++) {
		sge[i].addr = (uintptr_t)buf + 64 * i;
		sge[i].length = 8;
		sge[i].lkey = mr->lkey;
	}
	wr[0].opcode = RTE_PMD_IRDMA_WR_SEND;
	wr[0].sg_list = sge;
	wr[0].num_sge = 1;

	/* Wrong state: RESET accepts neither sends nor receives. */
	itest_log_begin();
	T_EQ(rte_pmd_irdma_post_send(qp, wr, 1, &err), 0);
	T_EQ(err, -EPERM);
	rwr.wr_id = 1;
	rwr.sg_list = sge;
	rwr.num_sge = 1;
	T_EQ(rte_pmd_irdma_post_recv(qp, &rwr, 1, &err), 0);
	T_EQ(err, -EPERM);
	itest_log_end();
	T_LOGGED("post_send in state RESET (needs RTS, SQD, SQE or ERR)");
	T_LOGGED("in RESET (move it to INIT first)");

	T_EQ(to_rts(qp), 0);

	/* Burst of 3: the second has 2 SGEs on a 1-SGE QP. */
	wr[1] = wr[0];
	wr[1].num_sge = 2;
	wr[1].wr_id = 0x77;
	wr[2] = wr[0];
	itest_log_begin();
	T_EQ(rte_pmd_irdma_post_send(qp, wr, 3, &err), 1);
	T_EQ(err, -EINVAL);
	itest_log_end();
	T_LOGGED("wr_id 0x77: 2 SGEs, the QP allows 1");

	/* Inline size over the QP's max_inline_data. */
	wr[1] = wr[0];
	wr[1].send_flags = RTE_PMD_IRDMA_SEND_INLINE;
	sge[3].length = 17;
	wr[1].sg_list = &sge[3];
	itest_log_begin();
	T_EQ(rte_pmd_irdma_post_send(qp, &wr[1], 1, &err), 0);
	T_EQ(err, -EINVAL);
	itest_log_end();
	T_LOGGED("17 inline bytes, the QP allows 16");
	sge[3].length = 16;
	T_EQ(rte_pmd_irdma_post_send(qp, &wr[1], 1, &err), 1);
	T_EQ(err, 0);

	/* An lkey of another PD. */
	sge[2].lkey = mr_other->lkey;
	wr[1] = wr[0];
	wr[1].sg_list = &sge[2];
	itest_log_begin();
	T_EQ(rte_pmd_irdma_post_send(qp, wr, 2, &err), 1);
	T_EQ(err, -EPERM);
	T_EQ(rte_pmd_irdma_post_recv(qp, &(struct rte_pmd_irdma_recv_wr){ 5, &sge[2], 1 }, 1,
				      &err), 0);
	T_EQ(err, -EPERM);
	itest_log_end();
	T_LOGGED("belongs to another PD");

	/* Opcodes this QP type or generation lacks. */
	wr[1] = wr[0];
	wr[1].opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
	T_EQ(rte_pmd_irdma_post_send(qp, &wr[1], 1, &err), 0);
	T_EQ(err, -EOPNOTSUPP);
	wr[1].opcode = 42;
	T_EQ(rte_pmd_irdma_post_send(qp, &wr[1], 1, &err), 0);
	T_EQ(err, -EINVAL);

	/* Full SQ: 512 quanta keep 257 free; 4 taken so far (two sends, a 2-quantum inline). */
	for (i = 0; i < 300; i++) {
		wr[i] = wr[0];
		wr[i].opcode = RTE_PMD_IRDMA_WR_NOP;
		wr[i].wr_id = 1000 + (uint64_t)i;
	}
	n = rte_pmd_irdma_post_send(qp, wr, 300, &err);
	T_EQ(n, 512 - 257 - 4);
	T_EQ(err, -ENOMEM);

	n = rte_pmd_irdma_qp_xstats_get_names(qp, names, 64);
	T_CHECK(n > 4 && n <= 64);
	T_EQ(rte_pmd_irdma_qp_xstats_get(qp, xs, 64), n);
	T_CHECK(strcmp(names[0].name, "tx_wrs") == 0);
	T_EQ(xs[0].value, 3 + 251);
	T_CHECK(strcmp(names[2].name, "tx_rejected_wrs") == 0);
	T_EQ(xs[2].value, 6);
	T_CHECK(strcmp(names[3].name, "tx_sq_full_errors") == 0);
	T_EQ(xs[3].value, 1);

	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(mr), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(mr_other), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_pd_free(other), 0);
}

/* The post path's view of the key table follows deregistration and reuse of an index: an
 * lkey of another PD is refused while that MR lives, and its index, registered again in our
 * PD under a new key, is ours; the old key is then the device's to refuse, not the post's. */
T_CASE(key_check_follows_dereg_and_reuse)
{
	static char buf[4096];
	struct rte_pmd_irdma_pd *pd, *other;
	struct rte_pmd_irdma_mr *mine, *theirs, *again;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_sge sge = { (uintptr_t)buf, 8, 0 };
	struct rte_pmd_irdma_send_wr wr;
	uint32_t old;
	int err;

	open_devices();
	pd = rte_pmd_irdma_pd_alloc(dev2);
	other = rte_pmd_irdma_pd_alloc(dev2);
	mine = rte_pmd_irdma_reg_mr(pd, buf, 2048, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	theirs = rte_pmd_irdma_reg_mr(other, buf + 2048, 2048, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	cq = itest_cq(dev2, 64);
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 16, 1, 0);
	T_CHECK(pd && other && mine && theirs && cq && qp);
	if (!(pd && other && mine && theirs && cq && qp))
		return;
	T_EQ(to_rts(qp), 0);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = RTE_PMD_IRDMA_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	old = theirs->lkey;
	sge.lkey = old;
	itest_log_begin();
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, &err), 0);
	itest_log_end();
	T_EQ(err, -EPERM);
	T_EQ(rte_pmd_irdma_dereg_mr(theirs), 0);
	again = rte_pmd_irdma_reg_mr(pd, buf + 2048, 2048, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	T_CHECK(again != NULL);
	if (again == NULL)
		return;
	T_EQ(again->lkey >> 8, old >> 8); /* the index came back (lowest free) ... */
	T_CHECK(again->lkey != old);      /* ... under another key */
	sge.lkey = again->lkey;
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, &err), 1);
	T_EQ(err, 0);
	sge.lkey = old; /* stale: no live MR of another PD has it */
	T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, &err), 1);
	T_EQ(err, 0);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(again), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(mine), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_pd_free(other), 0);
}

T_CASE(close_all)
{
	open_devices();
	T_EQ(rte_pmd_irdma_dev_close(dev1), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev2), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev3), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("control", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
