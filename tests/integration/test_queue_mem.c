/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue memory equals the sizing formula, no more: for many (max_send_wr, max_sge,
 * max_inline) triples on all three generations, the SQ and RQ are exactly depth x 32 bytes
 * with the depths of the irdma sizing rule (computed here independently), 4 KiB aligned,
 * inside a memzone, on the device's socket, with an IOVA; the reported caps follow from the
 * depths. Same for CQs (the CQ rule) and SRQs.
 */
#include <rte_memzone.h>

#include "itest.h"

struct gen_limits {
	uint8_t gen;
	uint32_t max_frags, max_inline, max_sq_quanta, max_rq_quanta, min_wq;
};

static const struct gen_limits gens[] = {
	{ 1, 3, 48, 2048, 16384, 4 },
	{ 2, 13, 101, 32768, 32768, 8 },
	{ 3, 14, 216, 32768, 32768, 16 },
};

static uint8_t
wqe_shift(uint8_t gen, uint32_t sge, uint32_t inl)
{
	if (gen == 1)
		return (sge <= 1 && inl <= 16) ? 0 : (sge < 4 && inl <= 48) ? 1 : 2;
	if (sge <= 1 && inl <= 8)
		return 0;
	if (sge < 4 && inl <= 39)
		return 1;
	if (sge < 8 && inl <= 101)
		return 2;
	return 3;
}

static uint64_t
pow2_at_least(uint64_t n)
{
	uint64_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Depth in quanta, or 0 when the queue would exceed the generation's limit. */
static uint32_t
depth(uint64_t wr, uint8_t shift, uint32_t rsvd, uint32_t min_wq, uint32_t max_quanta)
{
	uint64_t d = pow2_at_least((wr << shift) + rsvd);

	if (d < ((uint64_t)min_wq << shift))
		return min_wq << shift;
	return d > max_quanta ? 0 : (uint32_t)d;
}

struct mz_find {
	const void *addr;
	size_t len;
	int found;
};

static void
mz_cb(const struct rte_memzone *mz, void *arg)
{
	struct mz_find *f = arg;
	const char *a = f->addr, *z = mz->addr;

	if (a >= z && a + f->len <= z + mz->len)
		f->found = 1;
}

/* [addr, addr + len) lies inside one memzone (a queue-memory zone of the device, or a
 * memzone of its own for a large ring). */
static void
check_zone(const void *addr, size_t len)
{
	struct mz_find f = { addr, len, 0 };

	rte_memzone_walk(mz_cb, &f);
	T_CHECK_MSG(f.found, "no memzone holds [%p, +%zu)", addr, len);
}

static void
check_qmem(const struct rte_pmd_irdma_queue_mem *m, size_t len, uint32_t entry, uint32_t depth_,
	   int socket)
{
	T_EQ(m->len, len);
	T_EQ(m->entry_size, entry);
	T_EQ(m->depth, depth_);
	T_EQ((uintptr_t)m->addr & 4095, 0);
	T_CHECK(m->iova != RTE_BAD_IOVA);
	T_EQ(m->iova_contig, 1);
	T_EQ(m->socket_id, socket);
	check_zone(m->addr, len);
}

static unsigned int n_checked;

static void
one_triple(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *cq, const struct gen_limits *g,
	   int socket, uint32_t wr, uint32_t sge, uint32_t inl)
{
	struct rte_pmd_irdma_qp_init_attr a;
	struct rte_pmd_irdma_queue_mem sq, rq;
	struct rte_pmd_irdma_qp *qp;
	uint8_t sq_shift = wqe_shift(g->gen, g->gen >= 2 ? sge + 1 : sge, inl);
	uint8_t rq_shift = g->gen == 1 ? 2 : wqe_shift(g->gen, sge, 0);
	uint32_t sqd = depth(wr, sq_shift, 258, g->min_wq, g->max_sq_quanta);
	uint32_t rqd = depth(wr, rq_shift, 1, g->min_wq, g->max_rq_quanta);
	bool valid = sge <= g->max_frags && inl <= g->max_inline && sqd != 0 && rqd != 0 &&
		     wr <= g->max_sq_quanta && wr <= g->max_rq_quanta;

	memset(&a, 0, sizeof(a));
	a.send_cq = cq;
	a.recv_cq = cq;
	a.qp_type = RTE_PMD_IRDMA_QPT_RC;
	a.cap.max_send_wr = wr;
	a.cap.max_recv_wr = wr;
	a.cap.max_send_sge = sge;
	a.cap.max_recv_sge = sge;
	a.cap.max_inline_data = inl;
	qp = rte_pmd_irdma_qp_create(pd, &a);
	if (!valid) {
		T_CHECK_MSG(qp == NULL && rte_errno == EINVAL,
			    "GEN_%u wr %u sge %u inline %u: expected EINVAL", g->gen, wr, sge, inl);
		if (qp != NULL)
			rte_pmd_irdma_qp_destroy(qp);
		return;
	}
	T_CHECK_MSG(qp != NULL, "GEN_%u wr %u sge %u inline %u: %s", g->gen, wr, sge, inl,
		    rte_strerror(rte_errno));
	if (qp == NULL)
		return;
	T_EQ(rte_pmd_irdma_qp_queue_mem(qp, &sq, &rq), 0);
	/* Memory of the QP = WQE size x depth for each queue, nothing else. */
	check_qmem(&sq, (size_t)sqd * 32, 32, sqd, socket);
	check_qmem(&rq, (size_t)rqd * 32, 32u << rq_shift, rqd >> rq_shift, socket);
	T_EQ(a.cap.max_send_wr, (sqd - 258) >> sq_shift);
	T_EQ(a.cap.max_recv_wr, (rqd - 1) >> rq_shift);
	T_EQ(a.cap.max_send_sge, sge);
	T_EQ(a.cap.max_inline_data, inl);
	T_CHECK(a.cap.max_send_wr >= wr);
	T_CHECK(a.cap.max_recv_wr >= wr);
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	n_checked++;
}

T_CASE(qp_memory_equals_the_formula_on_every_gen)
{
	static const uint32_t wrs[] = { 1, 2, 7, 8, 63, 64, 100, 127, 128, 255, 256, 1000, 1024,
					2000, 4063, 4064, 8000, 16383, 32767 };
	static const uint32_t sges[] = { 1, 2, 3, 4, 7, 8, 13, 14, 15 };
	static const uint32_t inls[] = { 0, 8, 9, 16, 17, 39, 40, 48, 49, 101, 102, 216, 217 };
	unsigned int gi, w, s, i;
	char args[64];

	for (gi = 0; gi < RTE_DIM(gens); gi++) {
		struct rte_pmd_irdma_dev_info info;
		struct rte_pmd_irdma_dev *dev;
		struct rte_pmd_irdma_pd *pd;
		struct rte_pmd_irdma_cq *cq;

		snprintf(args, sizeof(args), "gen=%u", gens[gi].gen);
		dev = itest_dev(args);
		T_CHECK(dev != NULL);
		if (dev == NULL)
			continue;
		rte_pmd_irdma_dev_info(dev, &info);
		pd = rte_pmd_irdma_pd_alloc(dev);
		cq = itest_cq(dev, 16);
		for (w = 0; w < RTE_DIM(wrs); w++)
			for (s = 0; s < RTE_DIM(sges); s++)
				for (i = 0; i < RTE_DIM(inls); i++)
					one_triple(pd, cq, &gens[gi], info.socket_id, wrs[w],
						   sges[s], inls[i]);
		T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
		T_EQ(rte_pmd_irdma_pd_free(pd), 0);
		T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	}
	printf("# %u valid QP geometries checked\n", n_checked);
	T_CHECK(n_checked > 1000);
}

/* CQ rule (newest kernel): n = cqe + 2, x2 for 32-byte CQEs on GEN_2+, even, +2 if exactly
 * one 4 KiB page, at least 4; memory = n x CQE size. */
static uint32_t
cq_slots(uint8_t gen, uint32_t cqe)
{
	uint32_t bytes = gen == 3 ? 64 : 32;
	uint64_t n = (uint64_t)cqe + 2;

	if (gen == 2)
		n *= 2;
	n += n & 1;
	if (n * bytes == 4096)
		n += 2;
	return n < 4 ? 4 : (uint32_t)n;
}

T_CASE(cq_memory_equals_the_formula)
{
	static const uint32_t cqes[] = { 1, 2, 3, 61, 62, 63, 64, 126, 127, 128, 1000, 4095,
					 32767, 32768, 100000 };
	unsigned int gi, c;
	char args[64];

	for (gi = 0; gi < RTE_DIM(gens); gi++) {
		struct rte_pmd_irdma_dev_info info;
		struct rte_pmd_irdma_dev *dev;

		snprintf(args, sizeof(args), "gen=%u", gens[gi].gen);
		dev = itest_dev(args);
		T_CHECK(dev != NULL);
		if (dev == NULL)
			continue;
		rte_pmd_irdma_dev_info(dev, &info);
		for (c = 0; c < RTE_DIM(cqes); c++) {
			struct rte_pmd_irdma_queue_mem m;
			struct rte_pmd_irdma_cq *cq = itest_cq(dev, cqes[c]);
			uint32_t n = cq_slots(gens[gi].gen, cqes[c]);
			uint32_t bytes = gens[gi].gen == 3 ? 64 : 32;

			T_CHECK_MSG(cq != NULL, "GEN_%u cqe %u", gens[gi].gen, cqes[c]);
			if (cq == NULL)
				continue;
			T_EQ(rte_pmd_irdma_cq_queue_mem(cq, &m), 0);
			check_qmem(&m, (size_t)n * bytes, bytes, n, info.socket_id);
			/* Resizing moves to a ring of the new size, same rule. */
			if (gens[gi].gen > 1 && cqes[c] < 1000) {
				T_EQ(rte_pmd_irdma_cq_resize(cq, cqes[c] * 3), 0);
				T_EQ(rte_pmd_irdma_cq_queue_mem(cq, &m), 0);
				T_EQ(m.len, (size_t)cq_slots(gens[gi].gen, cqes[c] * 3) * bytes);
			}
			T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
		}
		T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	}
	/* Worked values of the rule (doc/spec/irdma-uk.md §6.4, kernel >= 6.19). */
	T_EQ(cq_slots(2, 62), 130);
	T_EQ(cq_slots(3, 62), 66);
	T_EQ(cq_slots(2, 1), 6);
}

T_CASE(srq_memory_equals_the_formula)
{
	static const uint32_t wrs[] = { 1, 15, 16, 100, 1000, 32767 };
	static const uint32_t sges[] = { 1, 2, 3, 4, 8, 14 };
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev = itest_dev("gen=3");
	struct rte_pmd_irdma_pd *pd;
	unsigned int w, s;

	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	rte_pmd_irdma_dev_info(dev, &info);
	pd = rte_pmd_irdma_pd_alloc(dev);
	for (w = 0; w < RTE_DIM(wrs); w++) {
		for (s = 0; s < RTE_DIM(sges); s++) {
			struct rte_pmd_irdma_srq_init_attr a = { .attr = { wrs[w], sges[s], 0 } };
			struct rte_pmd_irdma_queue_mem m;
			struct rte_pmd_irdma_srq *srq;
			uint8_t shift = wqe_shift(3, sges[s], 0);
			uint32_t d = depth(wrs[w], shift, 1, 16, 262144);

			srq = rte_pmd_irdma_srq_create(pd, &a);
			if (d == 0) {
				T_CHECK(srq == NULL && rte_errno == EINVAL);
				continue;
			}
			T_CHECK_MSG(srq != NULL, "SRQ wr %u sge %u", wrs[w], sges[s]);
			if (srq == NULL)
				continue;
			T_EQ(rte_pmd_irdma_srq_queue_mem(srq, &m), 0);
			check_qmem(&m, (size_t)d * 32, 32u << shift, d >> shift, info.socket_id);
			T_EQ(a.attr.max_wr, (d - 1) >> shift);
			T_EQ(rte_pmd_irdma_srq_destroy(srq), 0);
		}
	}
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("queue_mem", "0", ITEST_NO_HUGE);
	/* Thousands of geometries are refused on purpose: keep their log lines out. */
	rte_log_set_level_pattern("pmd.net.irdma.*", RTE_LOG_CRIT);
	return t_main(argc, argv);
}
