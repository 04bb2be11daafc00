/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the PMD's post path (rte_pmd_irdma_post_send/post_recv) with arbitrary
 * work requests on a connected RC pair and a UD QP over port=loop: opcodes (valid and not),
 * flags, SGE counts over the QP's limit, lengths near 2^31 and 2^32, inline, NULL lists, remote
 * addresses inside and outside the peer's region. Every WR is accepted or refused; the
 * engines then run, the CQs are drained, and a QP the device moved to ERR is reset and
 * reconnected. Nothing may read or write outside the registered buffers and the queues.
 * EAL: --no-huge --no-pci --no-shconf, a unique file prefix.
 */
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include "fuzz_eal.h"
#include "fuzz_qp.h"
#include "rte_pmd_irdma.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUF (64u << 10)
#define ACCESS (RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | \
		RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC | \
		RTE_PMD_IRDMA_ACCESS_MW_BIND)

struct side {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp, *ud;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	union rte_pmd_irdma_gid gid;
};

static struct side A, B;
static struct rte_pmd_irdma_ah *ah;

static const uint32_t lengths[16] = {
	0, 1, 8, 64, 100, 216, 4096, BUF, BUF + 1, 0x7fffffffu, 0x80000000u, 0x80000001u,
	0xfffffff0u, 0xffffffffu, 0x40000000u, 17,
};

static int
to_rts(struct rte_pmd_irdma_qp *qp, const union rte_pmd_irdma_gid *dgid, uint32_t dqpn)
{
	return fuzz_qp_to_rts(qp, dgid, dqpn, 100, 100, 8, 1);
}

static struct rte_pmd_irdma_qp *
qp_new(struct side *s, enum rte_pmd_irdma_qp_type t)
{
	struct rte_pmd_irdma_qp_init_attr qa;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = s->cq;
	qa.recv_cq = s->cq;
	qa.qp_type = t;
	qa.cap = (struct rte_pmd_irdma_qp_cap){ 64, 64, 4, 4, 64 };
	return rte_pmd_irdma_qp_create(s->pd, &qa);
}

static void
side_open(struct side *s, const char *args)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 4096, .comp_fd = -1 };

	s->dev = rte_pmd_irdma_dev_create(args);
	if (s->dev == NULL)
		abort();
	rte_pmd_irdma_query_gid(s->dev, 1, &s->gid);
	s->pd = rte_pmd_irdma_pd_alloc(s->dev);
	s->cq = rte_pmd_irdma_cq_create(s->dev, &ca);
	s->buf = rte_zmalloc(NULL, BUF, 4096);
	s->mr = rte_pmd_irdma_reg_mr(s->pd, s->buf, BUF, ACCESS);
	s->qp = qp_new(s, RTE_PMD_IRDMA_QPT_RC);
	s->ud = qp_new(s, RTE_PMD_IRDMA_QPT_UD);
	if (s->pd == NULL || s->cq == NULL || s->mr == NULL || s->qp == NULL || s->ud == NULL)
		abort();
}

static void
connect_all(void)
{
	if (to_rts(A.qp, &B.gid, B.qp->qp_num) < 0 || to_rts(B.qp, &A.gid, A.qp->qp_num) < 0 ||
	    to_rts(A.ud, NULL, 0) < 0 || to_rts(B.ud, NULL, 0) < 0)
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rte_pmd_irdma_ah_attr aa;

	(void)argc;
	(void)argv;
	fuzz_eal_init("fuzz_pmd_post");
	side_open(&A, "soft,port=loop,gen=3,ip=198.18.0.1,name=fzA");
	side_open(&B, "soft,port=loop,gen=3,ip=198.18.0.2,name=fzB");
	connect_all();
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.port_num = 1;
	aa.grh.sgid_index = 1;
	aa.grh.hop_limit = 64;
	aa.grh.dgid = B.gid;
	ah = rte_pmd_irdma_ah_create(A.pd, &aa);
	if (ah == NULL)
		abort();
	return 0;
}

static uint32_t
take(const uint8_t **p, size_t *n)
{
	uint32_t v = 0;

	if (*n > 0) {
		v = **p;
		(*p)++;
		(*n)--;
	}
	return v;
}

static void
drain(void)
{
	struct rte_pmd_irdma_wc wc[64];
	int i;

	for (i = 0; i < 16; i++) {
		rte_pmd_irdma_progress(A.dev, 64);
		rte_pmd_irdma_progress(B.dev, 64);
		while (rte_pmd_irdma_poll_cq(A.cq, wc, 64) > 0)
			;
		while (rte_pmd_irdma_poll_cq(B.cq, wc, 64) > 0)
			;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_pmd_irdma_send_wr wr[8];
	struct rte_pmd_irdma_recv_wr rw[8];
	struct rte_pmd_irdma_sge sg[8][6];
	const uint8_t *p = data;
	size_t n = size;
	unsigned int i, j, nb, k;
	int err;

	while (n > 0) {
		uint32_t ctl = take(&p, &n);
		int ud = (ctl & 0x80) != 0;

		nb = 1 + (ctl & 7);
		for (i = 0; i < nb; i++) {
			uint32_t op = take(&p, &n), fl = take(&p, &n), ns = take(&p, &n) % 7;

			memset(&wr[i], 0, sizeof(wr[i]));
			wr[i].wr_id = i;
			wr[i].opcode = (enum rte_pmd_irdma_wr_opcode)(op % 12);
			wr[i].send_flags = fl & 0x1f;
			wr[i].num_sge = ns;
			wr[i].sg_list = (fl & 0x80) && ns != 0 ? NULL : sg[i];
			for (j = 0; j < ns && j < 6; j++) {
				uint32_t b = take(&p, &n);

				sg[i][j].addr = (uintptr_t)A.buf + (b & 0x70) * 64;
				sg[i][j].length = lengths[b & 15];
				sg[i][j].lkey = (b & 0x80) ? A.mr->lkey ^ 0x100 : A.mr->lkey;
			}
			k = take(&p, &n);
			wr[i].wr.rdma.remote_addr = (uintptr_t)B.buf + (k & 0x7f) * 512;
			wr[i].wr.rdma.rkey = (k & 0x80) ? B.mr->rkey ^ 1 : B.mr->rkey;
			if (ud) {
				wr[i].wr.ud.ah = ah;
				wr[i].wr.ud.remote_qpn = B.ud->qp_num;
				wr[i].wr.ud.remote_qkey = (k & 1) ? 0x11111111 : k << 24;
			}
			rw[i] = (struct rte_pmd_irdma_recv_wr){ i, sg[i], ns };
		}
		(void)rte_pmd_irdma_post_recv(ud ? B.ud : B.qp, rw, (uint16_t)nb, &err);
		(void)rte_pmd_irdma_post_send(ud ? A.ud : A.qp, wr, (uint16_t)nb, &err);
		drain();
	}
	/* A QP the device moved to ERR starts the next input connected again. */
	if (A.qp->state != RTE_PMD_IRDMA_QPS_RTS || B.qp->state != RTE_PMD_IRDMA_QPS_RTS ||
	    A.ud->state != RTE_PMD_IRDMA_QPS_RTS || B.ud->state != RTE_PMD_IRDMA_QPS_RTS) {
		drain();
		connect_all();
	}
	return 0;
}
