/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A device holds 16384 QPs: they are created on one device (devargs max_qp=16386: QP0 and
 * QP1 are reserved) with their queues carved from a few large memzones, not two memzones
 * each (EAL allows 2560 in all), and destroyed again with every memzone given back. The
 * 16385th QP is refused with ENOSPC. Each ring keeps exactly lib/uk's size.
 */
#include "itest.h"

#define N_QP 16384u

T_CASE(sixteen_thousand_qps_on_one_device_and_no_memzone_leak)
{
	static struct rte_pmd_irdma_qp *qp[N_QP];
	struct rte_pmd_irdma_queue_mem sq, rq, sq0, rq0;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	unsigned int before, during, i, made = 0;

	dev = itest_dev("gen=2,max_qp=16386");
	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 16);
	T_CHECK(pd != NULL && cq != NULL);
	before = itest_memzones();
	for (i = 0; i < N_QP; i++) {
		qp[i] = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 1, 1, 0);
		if (qp[i] == NULL)
			break;
		made++;
	}
	T_EQ(made, N_QP);
	if (made < N_QP)
		printf("# QP %u: %s\n", made, rte_strerror(rte_errno));
	T_CHECK(itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 1, 1, 0) == NULL && rte_errno == ENOSPC);
	during = itest_memzones();
	printf("# %u QPs: %u memzones before, %u with them\n", made, before, during);
	T_CHECK(during - before <= 64); /* zones of 4 .. 64 MiB, not one per ring */
	/* Every ring the size lib/uk computes (GEN_2, 1 WR, 1 SGE: 512 SQ quanta, 8 RQ quanta). */
	T_EQ(rte_pmd_irdma_qp_queue_mem(qp[0], &sq0, &rq0), 0);
	T_EQ(sq0.len, 512u * 32);
	T_EQ(rq0.len, 8u * 32);
	for (i = 1; i < made; i++) {
		T_EQ(rte_pmd_irdma_qp_queue_mem(qp[i], &sq, &rq), 0);
		if (sq.len != sq0.len || rq.len != rq0.len || ((uintptr_t)sq.addr & 4095) ||
		    ((uintptr_t)rq.addr & 4095) || !sq.iova_contig) {
			T_CHECK_MSG(0, "QP %u: SQ %zu at %p, RQ %zu at %p", i, sq.len, sq.addr,
				    rq.len, rq.addr);
			break;
		}
	}
	for (i = 0; i < made; i++)
		T_EQ(rte_pmd_irdma_qp_destroy(qp[i]), 0);
	T_EQ(itest_memzones(), before);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("scale", "0", ITEST_NO_HUGE_LARGE);
	return t_main(argc, argv);
}
