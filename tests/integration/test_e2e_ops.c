/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * End to end between two QPs on port=loop: every operation with the data checked byte for
 * byte and the completions checked field by field, on the generations that have it.
 */
#include "itest_pair.h"

static const struct rte_pmd_irdma_qp_cap cap13 = {
	.max_send_wr = 64, .max_recv_wr = 64, .max_send_sge = 13, .max_recv_sge = 13,
	.max_inline_data = 101,
};

static int
post_recv1(struct endpoint *e, uint64_t wr_id, size_t off, uint32_t len)
{
	struct rte_pmd_irdma_sge s = sge_of(e, off, len);
	struct rte_pmd_irdma_recv_wr r = { wr_id, &s, 1 };
	int err;

	rte_pmd_irdma_post_recv(e->qp, &r, 1, &err);
	return err;
}

static int
post1(struct endpoint *e, struct rte_pmd_irdma_send_wr *wr)
{
	int err;

	rte_pmd_irdma_post_send(e->qp, wr, 1, &err);
	return err;
}

T_CASE(send_recv_from_0_bytes_to_1_MiB)
{
	static const uint32_t sizes[] = { 0, 1, 63, 1023, 1024, 1025, 4096, 65537, 1u << 20 };
	struct rte_pmd_irdma_wc wc[2];
	struct pair p;
	unsigned int i;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap13, 7), 0);
	for (i = 0; i < RTE_DIM(sizes); i++) {
		struct rte_pmd_irdma_sge s = sge_of(&p.a, 0, sizes[i]);
		struct rte_pmd_irdma_send_wr wr = {
			.wr_id = 0xA000 + i, .sg_list = &s, .num_sge = 1,
			.opcode = RTE_PMD_IRDMA_WR_SEND, .send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
		};

		fill_pattern(p.a.buf, sizes[i], i + 1);
		memset(p.b.buf, 0xEE, PAIR_BUF);
		T_EQ(post_recv1(&p.b, 0xB000 + i, 16, (1u << 20) + 16), 0);
		T_EQ(post1(&p.a, &wr), 0);
		T_EQ(itest_poll(&p, p.a.cq, wc, 1), 1);
		T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc[0].opcode, RTE_PMD_IRDMA_WC_SEND);
		T_EQ(wc[0].wr_id, 0xA000 + i);
		T_EQ(wc[0].qp_num, p.a.qp->qp_num);
		T_EQ(itest_poll(&p, p.b.cq, wc, 1), 1);
		T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc[0].opcode, RTE_PMD_IRDMA_WC_RECV);
		T_EQ(wc[0].wr_id, 0xB000 + i);
		T_EQ(wc[0].byte_len, sizes[i]);
		T_EQ(wc[0].qp_num, p.b.qp->qp_num);
		T_EQ(wc[0].wc_flags, 0);
		T_MEMEQ(p.b.buf + 16, p.a.buf, sizes[i]);
		T_EQ(p.b.buf[15], 0xEE);                  /* nothing before the buffer */
		T_EQ(p.b.buf[16 + sizes[i]], 0xEE);       /* nothing after the message */
	}
	pair_close(&p);
}

/* The maximum SGE count of each generation on both sides, split differently: the bytes
 * arrive in order. */
T_CASE(sge_lists_up_to_the_maximum)
{
	static const struct { unsigned int gen; uint32_t max; } g[] = { { 1, 3 }, { 2, 13 }, { 3, 14 } };
	struct rte_pmd_irdma_sge ss[15], rs[14];
	struct rte_pmd_irdma_recv_wr r;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	uint8_t expect[14 * 300];
	unsigned int gi;

	for (gi = 0; gi < RTE_DIM(g); gi++) {
		struct rte_pmd_irdma_qp_cap cap = { 16, 16, g[gi].max, g[gi].max, 0 };
		uint32_t n = g[gi].max, rlen;
		size_t total = 0, off;
		struct pair p;
		uint32_t i;
		int err;

		T_EQ(pair_open(&p, g[gi].gen, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
		fill_pattern(p.a.buf, 64 * 1024, 99 + gi);
		memset(p.b.buf, 0, 16 * 8192);
		for (i = 0; i < n; i++) {
			ss[i] = sge_of(&p.a, (size_t)i * 4096 + i, 100 + 13 * i);
			memcpy(expect + total, p.a.buf + (size_t)i * 4096 + i, ss[i].length);
			total += ss[i].length;
		}
		/* Receive SGEs of equal size that together just hold the message. */
		rlen = (uint32_t)((total + n - 1) / n);
		for (i = 0; i < n; i++)
			rs[i] = sge_of(&p.b, 8192 * (size_t)i + 3, rlen);
		r = (struct rte_pmd_irdma_recv_wr){ 7, rs, n };
		T_EQ(rte_pmd_irdma_post_recv(p.b.qp, &r, 1, &err), 1);
		wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 8, ss, n);
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, &err), 1);
		T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.byte_len, total);
		for (i = 0, off = 0; i < n && off < total; i++) {
			size_t k = RTE_MIN((size_t)rlen, total - off);

			T_MEMEQ(p.b.buf + 8192 * (size_t)i + 3, expect + off, k);
			off += k;
		}
		T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		/* One SGE more than the QP allows is refused at post time. */
		wr.num_sge = n + 1;
		ss[n] = ss[0];
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, &err), 0);
		T_EQ(err, -EINVAL);
		pair_close(&p);
	}
}

T_CASE(rdma_write_read_and_immediates)
{
	struct rte_pmd_irdma_sge s[3];
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	struct pair p;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap13, 7), 0);
	fill_pattern(p.a.buf, 300000, 5);
	memset(p.b.buf, 0, PAIR_BUF);

	/* WRITE from 3 SGEs into B at offset 1000. */
	s[0] = sge_of(&p.a, 0, 5000);
	s[1] = sge_of(&p.a, 100000, 1);
	s[2] = sge_of(&p.a, 200000, 70000);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_RDMA_WRITE, 1, s, 3);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 1000;
	wr.wr.rdma.rkey = p.b.mr->rkey;
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_RDMA_WRITE);
	T_EQ(wc.byte_len, 75001);
	T_MEMEQ(p.b.buf + 1000, p.a.buf, 5000);
	T_EQ(p.b.buf[6000], p.a.buf[100000]);
	T_MEMEQ(p.b.buf + 6001, p.a.buf + 200000, 70000);
	T_EQ(p.b.buf[999], 0);
	T_EQ(p.b.buf[76001], 0);
	/* A write consumes no receive and completes nothing on B. */
	T_EQ(rte_pmd_irdma_poll_cq(p.b.cq, &wc, 1), 0);

	/* READ it back from B into A at 500000, in two SGEs. */
	s[0] = sge_of(&p.a, 500000, 40000);
	s[1] = sge_of(&p.a, 600000, 35001);
	wr.wr_id = 2;
	wr.num_sge = 2;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_RDMA_READ);
	T_EQ(wc.byte_len, 75001);
	T_MEMEQ(p.a.buf + 500000, p.b.buf + 1000, 40000);
	T_MEMEQ(p.a.buf + 600000, p.b.buf + 41000, 35001);

	/* WRITE with immediate: B's receive completes as RECV_RDMA_WITH_IMM. */
	T_EQ(post_recv1(&p.b, 0x77, 0, 16), 0);
	s[0] = sge_of(&p.a, 0, 2048);
	wr.wr_id = 3;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = rte_cpu_to_be_32(0xCAFEF00D);
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 300000;
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM);
	T_EQ(wc.wr_id, 0x77);
	T_EQ(wc.byte_len, 2048);
	T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_IMM);
	T_EQ(rte_be_to_cpu_32(wc.imm_data), 0xCAFEF00D);
	T_MEMEQ(p.b.buf + 300000, p.a.buf, 2048);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);

	/* SEND with immediate. */
	T_EQ(post_recv1(&p.b, 0x78, 0, 64), 0);
	s[0] = sge_of(&p.a, 10, 33);
	wr.wr_id = 4;
	wr.opcode = RTE_PMD_IRDMA_WR_SEND_WITH_IMM;
	wr.imm_data = rte_cpu_to_be_32(0x01020304);
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_RECV);
	T_EQ(wc.byte_len, 33);
	T_CHECK(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_IMM);
	T_EQ(rte_be_to_cpu_32(wc.imm_data), 0x01020304);
	T_MEMEQ(p.b.buf, p.a.buf + 10, 33);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	pair_close(&p);
}

/* Inline sends and writes at every quantum boundary of each generation. */
T_CASE(inline_sizes_at_every_boundary)
{
	static const struct {
		unsigned int gen;
		uint32_t max;
		uint32_t sizes[16];
		unsigned int n;
	} g[] = {
		{ 1, 48, { 0, 1, 15, 16, 17, 47, 48 }, 7 },
		{ 2, 101, { 0, 1, 8, 9, 39, 40, 70, 71, 100, 101 }, 10 },
		{ 3, 216, { 0, 8, 9, 39, 40, 70, 71, 101, 102, 132, 133, 163, 164, 194, 195, 216 },
		  16 },
	};
	unsigned int gi, k;

	for (gi = 0; gi < RTE_DIM(g); gi++) {
		struct rte_pmd_irdma_qp_cap cap = { 32, 32, 2, 2, g[gi].max };
		struct rte_pmd_irdma_wc wc;
		struct pair p;

		T_EQ(pair_open(&p, g[gi].gen, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
		for (k = 0; k < g[gi].n; k++) {
			uint32_t len = g[gi].sizes[k];
			struct rte_pmd_irdma_sge s[2] = { sge_of(&p.a, 0, len / 2),
							  sge_of(&p.a, 1000, len - len / 2) };
			struct rte_pmd_irdma_send_wr wr = {
				.wr_id = len, .sg_list = s, .num_sge = 2,
				.opcode = RTE_PMD_IRDMA_WR_SEND,
				.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED | RTE_PMD_IRDMA_SEND_INLINE,
			};
			uint8_t expect[256];

			fill_pattern(p.a.buf, 2000, len + 7);
			memcpy(expect, p.a.buf, len / 2);
			memcpy(expect + len / 2, p.a.buf + 1000, len - len / 2);
			memset(p.b.buf, 0, 4096);
			T_EQ(post_recv1(&p.b, len, 0, 256), 0);
			T_EQ(post1(&p.a, &wr), 0);
			/* The source may change at once: inline data was copied at post time. */
			memset(p.a.buf, 0x5A, 2000);
			T_EQ(itest_poll(&p, p.b.cq, &wc, 1), 1);
			T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
			T_EQ(wc.byte_len, len);
			T_MEMEQ(p.b.buf, expect, len);
			T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
			T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);

			/* Inline RDMA WRITE of the same bytes. */
			fill_pattern(p.a.buf, 2000, len + 7);
			s[0] = sge_of(&p.a, 0, len / 2);
			s[1] = sge_of(&p.a, 1000, len - len / 2);
			wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
			wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf + 2048;
			wr.wr.rdma.rkey = p.b.mr->rkey;
			T_EQ(post1(&p.a, &wr), 0);
			T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
			T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
			T_MEMEQ(p.b.buf + 2048, expect, len);
		}
		pair_close(&p);
	}
}

T_CASE(atomics_on_gen3)
{
	struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_wc wc;
	uint64_t *remote, *local;
	struct pair p;

	T_EQ(pair_open(&p, 3, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	remote = (uint64_t *)(p.b.buf + 4096);
	local = (uint64_t *)(p.a.buf + 64);
	*remote = 1000;
	s = sge_of(&p.a, 64, 8);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD, 1, &s, 1);
	wr.wr.atomic.remote_addr = (uintptr_t)remote;
	wr.wr.atomic.rkey = p.b.mr->rkey;
	wr.wr.atomic.compare_add = 234;
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_FETCH_ADD);
	T_EQ(*local, 1000);
	T_EQ(*remote, 1234);

	/* CAS that matches, then one that does not. */
	wr.opcode = RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 1234;
	wr.wr.atomic.swap = 0xFEEDFACE12345678ull;
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc.opcode, RTE_PMD_IRDMA_WC_COMP_SWAP);
	T_EQ(*local, 1234);
	T_EQ(*remote, 0xFEEDFACE12345678ull);
	wr.wr.atomic.compare_add = 1;
	wr.wr.atomic.swap = 2;
	T_EQ(post1(&p.a, &wr), 0);
	T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(*local, 0xFEEDFACE12345678ull);
	T_EQ(*remote, 0xFEEDFACE12345678ull);
	pair_close(&p);
}

T_CASE(nop_and_unsignaled_work)
{
	struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct rte_pmd_irdma_send_wr wr[3];
	struct rte_pmd_irdma_wc wc[4];
	struct rte_pmd_irdma_sge s;
	struct pair p;
	int err;

	T_EQ(pair_open(&p, 2, RTE_PMD_IRDMA_QPT_RC, &cap, 7), 0);
	s = sge_of(&p.a, 0, 100);
	memset(wr, 0, sizeof(wr));
	wr[0].wr_id = 10;
	wr[0].opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE; /* unsignaled: no completion */
	wr[0].sg_list = &s;
	wr[0].num_sge = 1;
	wr[0].wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr[0].wr.rdma.rkey = p.b.mr->rkey;
	wr[1].wr_id = 11;
	wr[1].opcode = RTE_PMD_IRDMA_WR_NOP;
	wr[1].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr[2] = wr[0];
	wr[2].wr_id = 12;
	wr[2].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	T_EQ(rte_pmd_irdma_post_send(p.a.qp, wr, 3, &err), 3);
	T_EQ(err, 0);
	T_EQ(itest_poll(&p, p.a.cq, wc, 2), 2);
	T_EQ(wc[0].wr_id, 11);
	T_EQ(wc[0].opcode, RTE_PMD_IRDMA_WC_NOP);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(wc[1].wr_id, 12);
	T_EQ(wc[1].opcode, RTE_PMD_IRDMA_WC_RDMA_WRITE);
	itest_settle(&p, 100);
	T_EQ(rte_pmd_irdma_poll_cq(p.a.cq, wc, 4), 0);
	pair_close(&p);
}

int
main(int argc, char **argv)
{
	itest_eal_init("e2e_ops", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
