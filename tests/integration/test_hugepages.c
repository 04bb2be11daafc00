/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hugepage queues: with EAL on hugepages (--in-memory, nothing left behind), every queue
 * lives on hugepages with a real IOVA; a CQ over 2 MiB in IOVA-as-PA mode is described by a
 * page list; traffic works over both. Skips when no hugepage is free.
 */
#include <rte_memzone.h>

#include "itest_pair.h"

static long
free_hugepages(void)
{
	char line[128];
	long n = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

struct zone_find {
	const void *addr;
	const struct rte_memzone *mz;
};

static void
zone_cb(const struct rte_memzone *mz, void *arg)
{
	struct zone_find *f = arg;
	const char *a = f->addr, *z = mz->addr;

	if (a >= z && a < z + mz->len)
		f->mz = mz;
}

/* The memzone that holds @p addr (queues are carved from the device's zones). */
static const struct rte_memzone *
zone_of(const void *addr)
{
	struct zone_find f = { addr, NULL };

	rte_memzone_walk(zone_cb, &f);
	return f.mz;
}

T_CASE(queues_on_hugepages_and_traffic)
{
	static const struct rte_pmd_irdma_qp_cap cap = { 64, 64, 2, 2, 32 };
	struct rte_pmd_irdma_queue_mem sq, rq, cqm;
	const struct rte_memzone *mz;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_sge s, rs;
	struct rte_pmd_irdma_wc wc;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	T_EQ(rte_pmd_irdma_qp_queue_mem(p.a.qp, &sq, &rq), 0);
	T_EQ(rte_pmd_irdma_cq_queue_mem(p.a.cq, &cqm), 0);
	mz = zone_of(sq.addr);
	T_CHECK(mz != NULL);
	T_CHECK(mz != NULL && mz->hugepage_sz >= (2u << 20));
	T_CHECK(sq.iova != RTE_BAD_IOVA && sq.iova_contig);
	T_EQ(sq.iova, rte_mem_virt2iova(sq.addr));
	T_EQ(rq.iova, rte_mem_virt2iova(rq.addr));
	T_EQ(cqm.iova, rte_mem_virt2iova(cqm.addr));
	T_CHECK(p.a.mr->iova != RTE_BAD_IOVA);
	T_EQ(p.a.mr->iova, rte_mem_virt2iova(p.a.buf));

	/* 1 MiB SEND, byte for byte. */
	fill_pattern(p.a.buf, 1u << 20, 5);
	memset(p.b.buf, 0, (1u << 20) + 64);
	rs = (struct rte_pmd_irdma_sge){ (uintptr_t)p.b.buf, 1u << 20, p.b.mr->lkey };
	r = (struct rte_pmd_irdma_recv_wr){ 1, &rs, 1 };
	T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, NULL), 1);
	s = (struct rte_pmd_irdma_sge){ (uintptr_t)p.a.buf, 1u << 20, p.a.mr->lkey };
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 2, &s, 1);
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.byte_len, 1u << 20);
	T_MEMEQ(p.b.buf, p.a.buf, 1u << 20);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	pair_close(&p);
}

T_CASE(cq_over_2_MiB)
{
	static const struct rte_pmd_irdma_qp_cap cap = { 64, 64, 1, 1, 0 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_queue_mem m;
	struct rte_pmd_irdma_send_wr wr[64];
	struct rte_pmd_irdma_wc wc[64];
	struct rte_pmd_irdma_cq *big;
	struct rte_pmd_irdma_qp *qp;
	struct pair p;
	int i, n;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	big = itest_cq(p.a.dev, 40000); /* (40000 + 2) x 2 slots x 32 bytes = 2.4 MiB */
	T_CHECK(big != NULL);
	if (big == NULL) {
		pair_close(&p);
		return;
	}
	T_EQ(rte_pmd_irdma_cq_queue_mem(big, &m), 0);
	T_EQ(m.len, (size_t)80004 * 32);
	if (rte_eal_iova_mode() == RTE_IOVA_PA)
		printf("# IOVA as PA: the CQ is %s\n", m.iova_contig ? "IOVA-contiguous" :
		       "described by a page list");
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = big;
	qa.recv_cq = big;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap = cap;
	qp = rte_pmd_irdma_qp_create(p.a.pd, &qa);
	T_CHECK(qp != NULL);
	T_EQ(qp_to_rts(qp, &p.b.gid, p.b.qp->qp_num, 7), 0);
	for (i = 0; i < 64; i++) {
		memset(&wr[i], 0, sizeof(wr[i]));
		wr[i].wr_id = (uint64_t)i;
		wr[i].opcode = RTE_PMD_IRDMA_WR_NOP;
		wr[i].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	}
	T_EQ(rte_pmd_irdma_post_send(qp, wr, 64, NULL), 64);
	n = itest_poll(&p, big, wc, 64);
	T_EQ(n, 64);
	for (i = 0; i < n; i++)
		T_EQ(wc[i].wr_id, (uint64_t)i);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(big), 0);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	if (free_hugepages() < 48)
		t_skip_all("fewer than 48 free 2 MiB hugepages (HugePages_Free in /proc/meminfo); "
			   "reserve some with scripts/hugepages.sh or "
			   "'echo 128 > /proc/sys/vm/nr_hugepages'");
	itest_eal_init("hugepages", "0", ITEST_HUGE);
	return t_main(argc, argv);
}
