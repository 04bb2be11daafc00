/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The send work-request opcode table, from the outside: for each generation, QP type, opcode
 * and SEND_INLINE, a refused opcode gets the errno and log line its rule gives (-EINVAL for
 * a type or inline it does not take, -EOPNOTSUPP for what the generation lacks), and an
 * accepted one reaches the SGE check, whose limit is the opcode's (max_send_sge, the device's
 * read SGEs for RDMA READ, one for atomics). The expectations are written here by hand, not
 * read from the table. No WR is posted: each one carries one SGE too many.
 */
#include "itest_pair.h"
#include "itest_log.h"

#define W(x) RTE_PMD_IRDMA_WR_##x

enum { OK = 0, INVAL = -EINVAL, NOSUP = -EOPNOTSUPP };

/* Expected verdict per opcode 0..11 (10 is not an opcode), without and with inline. */
struct verdicts {
	int plain[12], inl[12];
};

static void
check_qp(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *cq, unsigned int gen,
	 enum rte_pmd_irdma_qp_type type, const struct verdicts *v, const uint32_t *limit)
{
	static struct rte_pmd_irdma_sge sge[8];
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_qp *qp;
	char want[128];
	int op, inl, err;

	qp = itest_qp(pd, cq, cq, type, 16, 3, 32);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;
	T_EQ(qp_to_rts(qp, NULL, qp->qp_num, 7), 0);
	for (op = 0; op < 12; op++) {
		for (inl = 0; inl < 2; inl++) {
			int expect = inl ? v->inl[op] : v->plain[op];

			memset(&wr, 0, sizeof(wr));
			wr.wr_id = 0x1000u + (unsigned int)op;
			wr.opcode = (enum rte_pmd_irdma_wr_opcode)op;
			wr.sg_list = sge;
			wr.num_sge = limit[op] + 1; /* one too many: nothing is posted */
			wr.send_flags = inl ? RTE_PMD_IRDMA_SEND_INLINE : 0;
			itest_log_begin();
			T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, &err), 0);
			itest_log_end();
			if (expect == OK) {
				T_EQ(err, -EINVAL);
				snprintf(want, sizeof(want), "%u SGEs, the QP allows %u in ",
					 limit[op] + 1, limit[op]);
				T_LOGGED(want);
			} else {
				T_CHECK_MSG(err == expect, "gen %u %s opcode %d inline %d: err %d, "
					    "expected %d", gen, type == RTE_PMD_IRDMA_QPT_RC ? "RC" : "UD",
					    op, inl, err, expect);
				snprintf(want, sizeof(want), "opcode %d (", op);
				T_LOGGED(want);
			}
		}
	}
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
}

static void
check_gen(unsigned int gen)
{
	/* RC: everything but atomics before GEN_3, immediate data before GEN_2. */
	struct verdicts rc = {
		.plain = { OK, OK, OK, OK, OK, NOSUP, NOSUP, OK, OK, OK, INVAL, OK },
		.inl = { OK, OK, OK, OK, INVAL, INVAL, INVAL, INVAL, INVAL, OK, INVAL, INVAL },
	};
	/* UD: SENDs, LOCAL_INV and NOP; only SENDs inline. */
	struct verdicts ud = {
		.plain = { INVAL, INVAL, OK, OK, INVAL, INVAL, INVAL, OK, INVAL, INVAL, INVAL, OK },
		.inl = { INVAL, INVAL, OK, OK, INVAL, INVAL, INVAL, INVAL, INVAL, INVAL, INVAL,
			 INVAL },
	};
	/* 3 SGEs asked; RDMA READ is also held to the device's read SGEs (1 on GEN_1). */
	uint32_t limit[12] = { 3, 3, 3, 3, gen == 1 ? 1 : 3, 1, 1, 3, 3, 3, 3, 3 };
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	char args[96];

	if (gen == 3) {
		rc.plain[W(ATOMIC_CMP_AND_SWP)] = OK;
		rc.plain[W(ATOMIC_FETCH_AND_ADD)] = OK;
	}
	if (gen == 1) {
		rc.plain[W(RDMA_WRITE_WITH_IMM)] = rc.inl[W(RDMA_WRITE_WITH_IMM)] = NOSUP;
		rc.plain[W(SEND_WITH_IMM)] = rc.inl[W(SEND_WITH_IMM)] = NOSUP;
		ud.plain[W(SEND_WITH_IMM)] = ud.inl[W(SEND_WITH_IMM)] = NOSUP;
	}
	snprintf(args, sizeof(args), "gen=%u,ip=198.18.0.%u,name=wr%u", gen, 20 + gen, gen);
	dev = itest_dev(args);
	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 64);
	T_CHECK(pd != NULL && cq != NULL);
	if (pd != NULL && cq != NULL) {
		check_qp(pd, cq, gen, RTE_PMD_IRDMA_QPT_RC, &rc, limit);
		check_qp(pd, cq, gen, RTE_PMD_IRDMA_QPT_UD, &ud, limit);
	}
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

T_CASE(gen1_rules)
{
	check_gen(1);
}

T_CASE(gen2_rules)
{
	check_gen(2);
}

T_CASE(gen3_rules)
{
	check_gen(3);
}

T_CASE(out_of_range_opcodes_are_refused)
{
	static const int ops[] = { -1, 12, 200 };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	unsigned int i;
	int err;

	dev = itest_dev("ip=198.18.0.30,name=wrx");
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 64);
	qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, 16, 1, 0);
	T_CHECK(qp != NULL);
	if (qp == NULL)
		return;
	T_EQ(qp_to_rts(qp, NULL, qp->qp_num, 7), 0);
	for (i = 0; i < RTE_DIM(ops); i++) {
		memset(&wr, 0, sizeof(wr));
		wr.opcode = (enum rte_pmd_irdma_wr_opcode)ops[i];
		itest_log_begin();
		T_EQ(rte_pmd_irdma_post_send(qp, &wr, 1, &err), 0);
		itest_log_end();
		T_EQ(err, -EINVAL);
		T_LOGGED("is not an opcode");
	}
	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("wr_rules", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
