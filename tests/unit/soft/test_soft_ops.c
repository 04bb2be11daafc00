/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every operation lib/uk can post, executed by the soft device between two devices on
 * port=loop (full RoCEv2 frames), for GEN_1, GEN_2 and GEN_3 where the generation has it:
 * data verified byte for byte, completions checked field by field.
 */
#include <sys/eventfd.h>

#include "soft_test.h"

static uint32_t t_max_sge(uint8_t gen)
{
	return gen == 1 ? 3 : gen == 2 ? 13 : 14;
}

static void check_sq_ok(struct t_cq *cq, uint64_t wr_id, uint8_t op)
{
	struct irdma_cq_poll_info info;

	T_EQ(t_poll(cq, &info), 0);
	T_EQ(info.wr_id, wr_id);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_EQ(info.minor_err, 0);
	T_EQ(info.q_type, IRDMA_CQE_QTYPE_SQ);
	T_EQ(info.op_type, op);
	T_EQ(info.error, 0);
}

/* SEND of 3000 bytes from 3 SGEs into 2 receive SGEs, over 3 packets of 1024. */
static void send_recv(uint8_t gen, bool imm, bool solicited)
{
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	struct irdma_sge s[3], r[2];
	uint8_t *src = t_zalloc(3000), *dst = t_zalloc(4096);
	uint32_t ls, ld;
	struct t_pair p;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, 3000, gen);
	ls = t_mr(&p.da, src, 3000, IRDMA_HW_ACCESS_LOCAL_WRITE);
	ld = t_mr(&p.db, dst, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	s[0] = (struct irdma_sge){ (uintptr_t)src, 1000, ls };
	s[1] = (struct irdma_sge){ (uintptr_t)src + 1000, 1, ls };
	s[2] = (struct irdma_sge){ (uintptr_t)src + 1001, 1999, ls };
	r[0] = (struct irdma_sge){ (uintptr_t)dst, 1500, ld };
	r[1] = (struct irdma_sge){ (uintptr_t)dst + 1500, 1600, ld };
	T_EQ(t_post_recv(&p.qb, 77, r, 2), 0);
	t_sq_info(&si, 55, solicited ? IRDMA_OP_TYPE_SEND_SOL : IRDMA_OP_TYPE_SEND);
	si.op.send.sg_list = s;
	si.op.send.num_sges = 3;
	si.imm_data_valid = imm;
	si.imm_data = 0xdeadbeef;
	T_EQ(irdma_uk_send(&p.qa.uk, &si, true), 0);
	check_sq_ok(&p.ca, 55, solicited ? IRDMA_OP_TYPE_SEND_SOL : IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(info.wr_id, 77);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_EQ(info.q_type, IRDMA_CQE_QTYPE_RQ);
	T_EQ(info.bytes_xfered, 3000);
	T_EQ(info.qp_id, p.qb.id);
	T_EQ(info.imm_valid, imm);
	if (imm)
		T_EQ(info.imm_data, 0xdeadbeef);
	T_EQ(info.solicited_event, solicited);
	T_MEMEQ(dst, src, 3000);
	for (ls = 3000; ls < 4096; ls++)
		if (dst[ls])
			break;
	T_EQ(ls, 4096);
	T_CHECK(t_cq_quiet(&p.ca));
	T_CHECK(t_cq_quiet(&p.cb));
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(send_recv_gen1)
{
	send_recv(1, false, false);
}

T_CASE(send_recv_gen2)
{
	send_recv(2, false, false);
	send_recv(2, true, true);
}

T_CASE(send_recv_gen3)
{
	send_recv(3, false, true);
	send_recv(3, true, false);
}

/* RDMA WRITE (with immediate where the generation has it) across several packets. */
static void write_op(uint8_t gen, bool imm)
{
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	uint8_t *src = t_zalloc(5000), *dst = t_zalloc(8192);
	struct irdma_sge s[2];
	uint32_t ls, rk;
	struct t_pair p;
	size_t i;

	T_EQ(t_pair_open(&p, gen, 2048, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, 5000, 40 + gen);
	ls = t_mr(&p.da, src, 5000, 0);
	rk = t_mr(&p.db, dst, 8192, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
	s[0] = (struct irdma_sge){ (uintptr_t)src, 2500, ls };
	s[1] = (struct irdma_sge){ (uintptr_t)src + 2500, 2500, ls };
	if (imm) {
		struct irdma_sge r = { (uintptr_t)dst + 8000, 8, rk };

		T_EQ(t_post_recv(&p.qb, 9, &r, 1), 0);
	}
	t_sq_info(&si, 21, IRDMA_OP_TYPE_RDMA_WRITE);
	si.op.rdma_write.lo_sg_list = s;
	si.op.rdma_write.num_lo_sges = 2;
	si.op.rdma_write.rem_addr.addr = (uintptr_t)dst + 100;
	si.op.rdma_write.rem_addr.lkey = rk;
	si.imm_data_valid = imm;
	si.imm_data = 0x01020304;
	T_EQ(irdma_uk_rdma_write(&p.qa.uk, &si, true), 0);
	check_sq_ok(&p.ca, 21, IRDMA_OP_TYPE_RDMA_WRITE);
	T_MEMEQ(dst + 100, src, 5000);
	for (i = 0; i < 100; i++)
		T_EQ(dst[i], 0);
	for (i = 5100; i < 8000; i++)
		if (dst[i])
			break;
	T_EQ(i, 8000);
	if (imm) {
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, 9);
		T_EQ(info.bytes_xfered, 5000);
		T_EQ(info.imm_valid, true);
		T_EQ(info.imm_data, 0x01020304);
	}
	T_CHECK(t_cq_quiet(&p.cb));
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(rdma_write_all_gens)
{
	write_op(1, false);
	write_op(2, false);
	write_op(3, false);
}

T_CASE(rdma_write_imm)
{
	write_op(2, true);
	write_op(3, true);
}

/* Small WRITE ONLYs (inline and from an SGE) and READs of 1 to 20 bytes at odd addresses:
 * exactly those bytes land, none on either side (the responder's 8-16 byte copy is two
 * overlapping moves; a READ into its first SGE is the completer's one-piece copy). */
T_CASE(small_write_and_read_exact_bytes)
{
	uint8_t *src = t_zalloc(64), *dst = t_zalloc(64), *loc = t_zalloc(64);
	struct t_qp_caps caps = t_default_caps;
	uint32_t ls, rk, ll, len, k, i;
	struct irdma_sge s;
	struct t_pair p;

	caps.max_inline = 101;
	T_EQ(t_pair_open(&p, 2, 1024, &caps, T_ACC_ALL), 0);
	for (i = 0; i < 64; i++)
		src[i] = (uint8_t)(0x11 + 3 * i);
	ls = t_mr(&p.da, src, 64, 0);
	rk = t_mr(&p.db, dst, 64, T_ACC_ALL);
	ll = t_mr(&p.da, loc, 64, IRDMA_HW_ACCESS_LOCAL_WRITE);
	for (len = 1; len <= 20; len++) {
		for (k = 0; k < 2; k++) {
			memset(dst, 0xee, 64);
			s = (struct irdma_sge){ (uintptr_t)src + 1, len, ls };
			T_EQ(t_write(&p.qa, 40 + k, &s, 1, (uintptr_t)dst + 3, rk, k == 1), 0);
			check_sq_ok(&p.ca, 40 + k, IRDMA_OP_TYPE_RDMA_WRITE);
			T_MEMEQ(dst + 3, src + 1, len);
			for (i = 0; i < 64; i++)
				if ((i < 3 || i >= 3 + len) && dst[i] != 0xee)
					break;
			T_EQ(i, 64);
		}
		memset(loc, 0xee, 64);
		s = (struct irdma_sge){ (uintptr_t)loc + 5, len, ll };
		T_EQ(t_read(&p.qa, 42, &s, 1, (uintptr_t)dst + 3, rk), 0);
		check_sq_ok(&p.ca, 42, IRDMA_OP_TYPE_RDMA_READ);
		T_MEMEQ(loc + 5, src + 1, len);
		for (i = 0; i < 64; i++)
			if ((i < 5 || i >= 5 + len) && loc[i] != 0xee)
				break;
		T_EQ(i, 64);
	}
	T_CHECK(t_cq_quiet(&p.cb));
	t_pair_close(&p);
	free(src);
	free(dst);
	free(loc);
}

/* RDMA READ of 5000 bytes (several response packets) into local SGEs. */
static void read_op(uint8_t gen)
{
	uint8_t *rem = t_zalloc(5000), *loc = t_zalloc(8000);
	uint32_t nsge = gen == 1 ? 1 : 2, ll, rk;
	struct irdma_sge s[2];
	struct t_pair p;
	size_t i;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_fill(rem, 5000, 7 + gen);
	rk = t_mr(&p.db, rem, 5000, IRDMA_HW_ACCESS_REMOTE_READ);
	ll = t_mr(&p.da, loc, 8000, IRDMA_HW_ACCESS_LOCAL_WRITE);
	s[0] = (struct irdma_sge){ (uintptr_t)loc, nsge == 1 ? 4999 : 1234, ll };
	s[1] = (struct irdma_sge){ (uintptr_t)loc + 3000, 4999 - 1234, ll };
	T_EQ(t_read(&p.qa, 31, s, nsge, (uintptr_t)rem + 1, rk), 0);
	check_sq_ok(&p.ca, 31, IRDMA_OP_TYPE_RDMA_READ);
	if (nsge == 1) {
		T_MEMEQ(loc, rem + 1, 4999);
	} else {
		T_MEMEQ(loc, rem + 1, 1234);
		T_MEMEQ(loc + 3000, rem + 1 + 1234, 4999 - 1234);
		for (i = 1234; i < 3000; i++)
			T_EQ(loc[i], 0);
	}
	t_pair_close(&p);
	free(rem);
	free(loc);
}

T_CASE(rdma_read_all_gens)
{
	read_op(1);
	read_op(2);
	read_op(3);
}

T_CASE(atomics_gen3)
{
	struct irdma_post_sq_info si;
	uint64_t *rem = t_zalloc(64), *loc = t_zalloc(64);
	uint32_t ll, rk;
	struct t_pair p;

	T_EQ(t_pair_open(&p, 3, 1024, &t_default_caps, T_ACC_ALL), 0);
	rem[1] = 40;
	rk = t_mr(&p.db, rem, 64, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_ATOMIC);
	ll = t_mr(&p.da, loc, 64, IRDMA_HW_ACCESS_LOCAL_WRITE);

	t_sq_info(&si, 1, IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD);
	si.op.atomic_fetch_add.tagged_offset = (uintptr_t)&loc[0];
	si.op.atomic_fetch_add.stag = ll;
	si.op.atomic_fetch_add.remote_tagged_offset = (uintptr_t)&rem[1];
	si.op.atomic_fetch_add.remote_stag = rk;
	si.op.atomic_fetch_add.fetch_add_data_bytes = 2;
	T_EQ(irdma_uk_atomic_fetch_add(&p.qa.uk, &si, true), 0);
	check_sq_ok(&p.ca, 1, IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD);
	T_EQ(loc[0], 40);
	T_EQ(rem[1], 42);

	/* compare matches: swapped */
	t_sq_info(&si, 2, IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP);
	si.op.atomic_compare_swap.tagged_offset = (uintptr_t)&loc[1];
	si.op.atomic_compare_swap.stag = ll;
	si.op.atomic_compare_swap.remote_tagged_offset = (uintptr_t)&rem[1];
	si.op.atomic_compare_swap.remote_stag = rk;
	si.op.atomic_compare_swap.compare_data_bytes = 42;
	si.op.atomic_compare_swap.swap_data_bytes = 0x1122334455667788ull;
	T_EQ(irdma_uk_atomic_compare_swap(&p.qa.uk, &si, true), 0);
	check_sq_ok(&p.ca, 2, IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP);
	T_EQ(loc[1], 42);
	T_EQ(rem[1], 0x1122334455667788ull);

	/* compare differs: unchanged, original returned */
	si.wr_id = 3;
	si.op.atomic_compare_swap.tagged_offset = (uintptr_t)&loc[2];
	si.op.atomic_compare_swap.compare_data_bytes = 1;
	si.op.atomic_compare_swap.swap_data_bytes = 5;
	T_EQ(irdma_uk_atomic_compare_swap(&p.qa.uk, &si, true), 0);
	check_sq_ok(&p.ca, 3, IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP);
	T_EQ(loc[2], 0x1122334455667788ull);
	T_EQ(rem[1], 0x1122334455667788ull);
	T_EQ(rem[0], 0);
	T_EQ(rem[2], 0);
	t_pair_close(&p);
	free(rem);
	free(loc);
}

T_CASE(atomics_refused_before_gen3)
{
	struct irdma_post_sq_info si;
	struct irdma_cq_poll_info info;
	uint64_t *rem = t_zalloc(64), *loc = t_zalloc(64);
	struct t_pair p;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_sq_info(&si, 1, IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD);
	si.op.atomic_fetch_add.tagged_offset = (uintptr_t)loc;
	si.op.atomic_fetch_add.stag = t_mr(&p.da, loc, 64, IRDMA_HW_ACCESS_LOCAL_WRITE);
	si.op.atomic_fetch_add.remote_tagged_offset = (uintptr_t)rem;
	si.op.atomic_fetch_add.remote_stag = t_mr(&p.db, rem, 64, T_ACC_ALL);
	si.op.atomic_fetch_add.fetch_add_data_bytes = 2;
	/* lib/uk writes it (the feature check is the verbs layer's); the device refuses it. */
	T_EQ(irdma_uk_atomic_fetch_add(&p.qa.uk, &si, true), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.wr_id, 1);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
	T_EQ(info.minor_err, FLUSH_LOC_QP_OP_ERR);
	T_EQ(rem[0], 0);
	T_EQ(t_qp_get_state(&p.qa), IRDMA_HW_QPS_ERR);
	t_pair_close(&p);
	free(rem);
	free(loc);
}

T_CASE(nop_signaled)
{
	uint8_t g;

	for (g = 1; g <= 3; g++) {
		struct t_pair p;

		T_EQ(t_pair_open(&p, g, 1024, &t_default_caps, T_ACC_ALL), 0);
		T_EQ(irdma_nop(&p.qa.uk, 99, true, true), 0);
		check_sq_ok(&p.ca, 99, IRDMA_OP_TYPE_NOP);
		T_EQ(irdma_nop(&p.qa.uk, 100, false, true), 0);
		T_CHECK(t_cq_quiet(&p.ca));
		t_pair_close(&p);
	}
}

/* The device executes a WQE only once its valid bit matches the pass: a doorbell for a WQE
 * whose header is not valid yet does nothing, and the next doorbell picks it up. */
T_CASE(valid_bit_gates_fetch)
{
	struct irdma_cq_poll_info info;
	struct t_pair p;
	uint64_t *hdr;
	int i;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	T_EQ(irdma_nop(&p.qa.uk, 7, true, false), 0);
	hdr = &((uint64_t *)p.qa.sq)[3];
	T_EQ(*hdr >> 63, 1);
	*hdr &= ~(1ull << 63); /* as if the header store were not visible yet */
	irdma_uk_qp_post_wr(&p.qa.uk);
	for (i = 0; i < 100; i++)
		t_progress();
	T_EQ(irdma_uk_cq_poll_cmpl(&p.ca.uk, &info), -ENOENT);
	*hdr |= 1ull << 63;
	irdma_uk_qp_post_wr(&p.qa.uk);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.wr_id, 7);
	T_EQ(info.op_type, IRDMA_OP_TYPE_NOP);
	/* the device published its SQ tail (one quantum) in the QP shadow area */
	T_EQ(p.qa.shadow[0] & 0x7FFF, 1);
	t_pair_close(&p);
}

/* Inline SEND and inline WRITE at every size boundary of the generation's inline layout. */
static void inline_sizes(uint8_t gen)
{
	static const uint32_t g1[] = { 0, 1, 15, 16, 17, 47, 48 };
	static const uint32_t g2[] = { 0, 1, 7, 8, 9, 38, 39, 40, 69, 70, 71, 100, 101 };
	static const uint32_t g3[] = { 0, 8, 9, 39, 40, 70, 71, 101, 102, 132, 133,
				       163, 164, 194, 195, 215, 216 };
	const uint32_t *sz = gen == 1 ? g1 : gen == 2 ? g2 : g3;
	unsigned int n = gen == 1 ? RTE_DIM(g1) : gen == 2 ? RTE_DIM(g2) : RTE_DIM(g3), i;
	struct t_qp_caps caps = t_default_caps;
	uint8_t *src = t_zalloc(256), *dst = t_zalloc(512);
	struct irdma_cq_poll_info info;
	struct t_pair p;
	uint32_t rk;

	caps.max_inline = gen == 1 ? 48 : gen == 2 ? 101 : 216;
	T_EQ(t_pair_open(&p, gen, 1024, &caps, T_ACC_ALL), 0);
	rk = t_mr(&p.db, dst, 512, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
	for (i = 0; i < n; i++) {
		/* inline data comes from any memory: no key needed */
		struct irdma_sge s[2] = { { (uintptr_t)src, sz[i] / 2, 0 },
					  { (uintptr_t)src + sz[i] / 2, sz[i] - sz[i] / 2, 0 } };
		struct irdma_sge r = { (uintptr_t)dst, 256, rk };

		t_fill(src, 256, 100 * gen + i);
		memset(dst, 0, 512);
		T_EQ(t_post_recv(&p.qb, 1000 + i, &r, 1), 0);
		T_EQ(t_send(&p.qa, i, IRDMA_OP_TYPE_SEND, s, 2, true), 0);
		check_sq_ok(&p.ca, i, IRDMA_OP_TYPE_SEND);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, 1000 + i);
		T_EQ(info.bytes_xfered, sz[i]);
		T_MEMEQ(dst, src, sz[i]);
		T_EQ(dst[sz[i]], 0);

		T_EQ(t_write(&p.qa, 500 + i, s, 2, (uintptr_t)dst + 256, rk, true), 0);
		check_sq_ok(&p.ca, 500 + i, IRDMA_OP_TYPE_RDMA_WRITE);
		T_MEMEQ(dst + 256, src, sz[i]);
		T_EQ(dst[256 + sz[i]], 0);
	}
	/* one byte over the QP's limit is refused by lib/uk */
	{
		struct irdma_sge s = { (uintptr_t)src, caps.max_inline + 1, 0 };

		T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &s, 1, true), -EINVAL);
	}
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(inline_boundaries_gen1)
{
	inline_sizes(1);
}

T_CASE(inline_boundaries_gen2)
{
	inline_sizes(2);
}

T_CASE(inline_boundaries_gen3)
{
	inline_sizes(3);
}

/* SEND with the maximum SGE count of the generation, into the maximum receive SGE count. */
static void sge_max(uint8_t gen)
{
	uint32_t n = t_max_sge(gen), i, ls, ld;
	struct t_qp_caps caps = t_default_caps;
	uint8_t *src = t_zalloc(4096), *dst = t_zalloc(4096);
	struct irdma_sge s[16], r[16];
	struct irdma_cq_poll_info info;
	struct t_pair p;

	caps.max_send_sge = n;
	caps.max_recv_sge = n;
	T_EQ(t_pair_open(&p, gen, 1024, &caps, T_ACC_ALL), 0);
	t_fill(src, 4096, 3 * gen);
	ls = t_mr(&p.da, src, 4096, 0);
	ld = t_mr(&p.db, dst, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	for (i = 0; i < n; i++) {
		s[i] = (struct irdma_sge){ (uintptr_t)src + i * 200, 100 + i, ls };
		r[i] = (struct irdma_sge){ (uintptr_t)dst + i * 150, 150, ld };
	}
	T_EQ(t_post_recv(&p.qb, 5, r, n), 0);
	T_EQ(t_send(&p.qa, 6, IRDMA_OP_TYPE_SEND, s, n, false), 0);
	check_sq_ok(&p.ca, 6, IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(info.bytes_xfered, n * 100 + n * (n - 1) / 2);
	{
		uint8_t expect[4096];
		uint32_t off = 0;

		for (i = 0; i < n; i++) {
			memcpy(expect + off, src + i * 200, 100 + i);
			off += 100 + i;
		}
		T_MEMEQ(dst, expect, off);
	}
	/* one more SGE than the QP allows is refused by lib/uk */
	T_EQ(t_send(&p.qa, 7, IRDMA_OP_TYPE_SEND, s, n + 1, false), -EINVAL);
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(sge_max_all_gens)
{
	sge_max(1);
	sge_max(2);
	sge_max(3);
}

/* 0-byte and 1 MiB messages: SEND, WRITE and READ. */
T_CASE(zero_and_one_mib)
{
	size_t big = 1u << 20;
	uint8_t *src = t_zalloc(big), *dst = t_zalloc(big), *back = t_zalloc(big);
	struct irdma_cq_poll_info info;
	struct irdma_sge s, r;
	uint32_t ls, ld, lb;
	struct t_pair p;

	T_EQ(t_pair_open(&p, 2, 4096, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, big, 1234);
	ls = t_mr(&p.da, src, big, 0);
	ld = t_mr(&p.db, dst, big, T_ACC_ALL);
	lb = t_mr(&p.da, back, big, IRDMA_HW_ACCESS_LOCAL_WRITE);

	/* 0 bytes */
	r = (struct irdma_sge){ (uintptr_t)dst, 16, ld };
	T_EQ(t_post_recv(&p.qb, 1, &r, 1), 0);
	T_EQ(t_send(&p.qa, 2, IRDMA_OP_TYPE_SEND, NULL, 0, false), 0);
	check_sq_ok(&p.ca, 2, IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(info.wr_id, 1);
	T_EQ(info.bytes_xfered, 0);
	T_EQ(dst[0], 0);
	s = (struct irdma_sge){ (uintptr_t)src, 0, ls };
	T_EQ(t_write(&p.qa, 3, &s, 1, 0, 0, false), 0); /* zero-length: no key checked */
	check_sq_ok(&p.ca, 3, IRDMA_OP_TYPE_RDMA_WRITE);
	s = (struct irdma_sge){ (uintptr_t)back, 0, lb };
	T_EQ(t_read(&p.qa, 4, &s, 1, 0, 0), 0);
	check_sq_ok(&p.ca, 4, IRDMA_OP_TYPE_RDMA_READ);

	/* 1 MiB */
	r = (struct irdma_sge){ (uintptr_t)dst, (uint32_t)big, ld };
	T_EQ(t_post_recv(&p.qb, 5, &r, 1), 0);
	s = (struct irdma_sge){ (uintptr_t)src, (uint32_t)big, ls };
	T_EQ(t_send(&p.qa, 6, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	check_sq_ok(&p.ca, 6, IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(info.bytes_xfered, big);
	T_MEMEQ(dst, src, big);

	memset(dst, 0, big);
	T_EQ(t_write(&p.qa, 7, &s, 1, (uintptr_t)dst, ld, false), 0);
	check_sq_ok(&p.ca, 7, IRDMA_OP_TYPE_RDMA_WRITE);
	T_MEMEQ(dst, src, big);

	s = (struct irdma_sge){ (uintptr_t)back, (uint32_t)big, lb };
	T_EQ(t_read(&p.qa, 8, &s, 1, (uintptr_t)dst, ld), 0);
	check_sq_ok(&p.ca, 8, IRDMA_OP_TYPE_RDMA_READ);
	T_MEMEQ(back, src, big);
	t_pair_close(&p);
	free(src);
	free(dst);
	free(back);
}

/* UD: the receive buffer starts with the 40-byte GRH area (IPv4 header in its last 20). */
static void ud_send(uint8_t gen)
{
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp qa, qb;
	struct irdma_hw_av av;
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	uint8_t *src = t_zalloc(512), *dst = t_zalloc(1024);
	struct irdma_sge s, r;
	uint32_t ah;

	T_EQ(t_devs_open(&da, &db, gen, 11, 1024), 0);
	T_EQ(t_cq_create(&da, &ca, 64), 0);
	T_EQ(t_cq_create(&db, &cb, 64), 0);
	T_EQ(t_qp_create(&da, &qa, IRDMA_HW_QP_UD, &ca, &ca, &t_default_caps), 0);
	T_EQ(t_qp_create(&db, &qb, IRDMA_HW_QP_UD, &cb, &cb, &t_default_caps), 0);
	T_EQ(t_qp_connect_one(&qa, NULL, 1024, 0, 1, 0), 0);
	T_EQ(t_qp_connect_one(&qb, NULL, 1024, 0, 1, 0), 0);
	memset(&av, 0, sizeof(av));
	t_gid_of(&db, av.dgid);
	av.sgid_index = 1;
	av.hop_limit = 64;
	av.vlan_id = 0xFFFF;
	T_EQ(hw->ah_create(da.dev, da.pd, &av, &ah), 0);
	t_fill(src, 512, 77);
	s = (struct irdma_sge){ (uintptr_t)src, 300, t_mr(&da, src, 512, 0) };
	r = (struct irdma_sge){ (uintptr_t)dst, 1024, t_mr(&db, dst, 1024, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&qb, 17, &r, 1), 0);
	t_sq_info(&si, 18, IRDMA_OP_TYPE_SEND);
	si.op.send.sg_list = &s;
	si.op.send.num_sges = 1;
	si.op.send.qkey = 0x11111111;
	si.op.send.dest_qp = qb.id;
	si.op.send.ah_id = ah;
	si.imm_data_valid = gen > 1;
	si.imm_data = 0xabcdef01;
	T_EQ(irdma_uk_send(&qa.uk, &si, true), 0);
	check_sq_ok(&ca, 18, IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&cb, &info), 0);
	T_EQ(info.wr_id, 17);
	T_EQ(info.bytes_xfered, 340);
	T_EQ(info.ud_src_qpn, qa.id);
	T_EQ(info.ipv4, true);
	if (gen > 1) {
		T_EQ(info.imm_valid, true);
		T_EQ(info.imm_data, 0xabcdef01);
		T_EQ(info.ud_smac_valid, true);
	}
	{
		static const uint8_t zero[20];

		T_MEMEQ(dst, zero, 20);
		T_EQ(dst[20], 0x45);       /* IPv4 header */
		T_EQ(dst[20 + 9], 17);     /* UDP */
		T_MEMEQ(dst + 20 + 12, da.ipv4, 4);
		T_MEMEQ(dst + 20 + 16, db.ipv4, 4);
		T_MEMEQ(dst + 40, src, 300);
	}
	/* wrong Q_Key: dropped, nothing consumed */
	si.wr_id = 19;
	si.op.send.qkey = 0x22222222;
	T_EQ(t_post_recv(&qb, 20, &r, 1), 0);
	T_EQ(irdma_uk_send(&qa.uk, &si, true), 0);
	check_sq_ok(&ca, 19, IRDMA_OP_TYPE_SEND);
	T_CHECK(t_cq_quiet(&cb));
	T_EQ(hw->ah_destroy(da.dev, ah), 0);
	t_qp_destroy(&qa);
	t_qp_destroy(&qb);
	t_devs_close(&da, &ca, &db, &cb);
	free(src);
	free(dst);
}

T_CASE(ud_grh_all_gens)
{
	ud_send(1);
	ud_send(2);
	ud_send(3);
}

/* Two QPs receive through one SRQ (GEN_3): wr_ids come from the SRQ WQEs. */
T_CASE(srq_gen3)
{
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp qa1, qa2, qb1, qb2;
	struct t_srq srq;
	struct t_qp_caps caps = t_default_caps;
	struct irdma_cq_poll_info info;
	uint8_t *src = t_zalloc(256), *dst = t_zalloc(1024);
	struct irdma_sge s, r;
	uint32_t ld;
	int i;

	T_EQ(t_devs_open(&da, &db, 3, 21, 1024), 0);
	T_EQ(t_cq_create(&da, &ca, 64), 0);
	T_EQ(t_cq_create(&db, &cb, 64), 0);
	T_EQ(t_srq_create(&db, &srq, 16, 2), 0);
	T_EQ(t_qp_create(&da, &qa1, IRDMA_HW_QP_RC, &ca, &ca, &caps), 0);
	T_EQ(t_qp_create(&da, &qa2, IRDMA_HW_QP_RC, &ca, &ca, &caps), 0);
	caps.srq = &srq;
	T_EQ(t_qp_create(&db, &qb1, IRDMA_HW_QP_RC, &cb, &cb, &caps), 0);
	T_EQ(t_qp_create(&db, &qb2, IRDMA_HW_QP_RC, &cb, &cb, &caps), 0);
	T_EQ(t_qp_connect(&qa1, &qb1, 1024, T_ACC_ALL), 0);
	T_EQ(t_qp_connect(&qa2, &qb2, 1024, T_ACC_ALL), 0);
	ld = t_mr(&db, dst, 1024, IRDMA_HW_ACCESS_LOCAL_WRITE);
	for (i = 0; i < 4; i++) {
		r = (struct irdma_sge){ (uintptr_t)dst + 256 * i, 256, ld };
		T_EQ(t_srq_post(&srq, 0x5000 + i, &r, 1), 0);
	}
	t_fill(src, 256, 5);
	s = (struct irdma_sge){ (uintptr_t)src, 100, t_mr(&da, src, 256, 0) };
	T_EQ(t_send(&qa1, 1, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	check_sq_ok(&ca, 1, IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&cb, &info), 0);
	T_EQ(info.wr_id, 0x5000);
	T_EQ(info.qp_id, qb1.id);
	T_EQ(info.bytes_xfered, 100);
	T_CHECK(info.qp_handle == &qb1.uk);
	s.length = 200;
	T_EQ(t_send(&qa2, 2, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	check_sq_ok(&ca, 2, IRDMA_OP_TYPE_SEND);
	T_EQ(t_poll(&cb, &info), 0);
	T_EQ(info.wr_id, 0x5001);
	T_EQ(info.qp_id, qb2.id);
	T_EQ(info.bytes_xfered, 200);
	T_CHECK(info.qp_handle == &qb2.uk);
	T_MEMEQ(dst, src, 100);
	T_MEMEQ(dst + 256, src, 200);
	T_EQ(hw->srq_destroy(db.dev, srq.id), -EBUSY);
	t_qp_destroy(&qa1);
	t_qp_destroy(&qa2);
	t_qp_destroy(&qb1);
	t_qp_destroy(&qb2);
	t_srq_destroy(&srq);
	t_devs_close(&da, &ca, &db, &cb);
	free(src);
	free(dst);
}

/* LOCAL INVALIDATE and SEND with invalidate: afterwards the rkey no longer works. */
static void invalidate(uint8_t gen)
{
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	uint8_t *buf = t_zalloc(256), *dst = t_zalloc(256);
	struct irdma_sge s, r;
	uint32_t rk, rk2, ld;
	struct t_pair p;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	rk = t_mr(&p.db, dst, 256, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
	rk2 = t_mr(&p.db, dst, 256, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
	ld = t_mr(&p.db, dst + 128, 128, IRDMA_HW_ACCESS_LOCAL_WRITE);
	s = (struct irdma_sge){ (uintptr_t)buf, 8, t_mr(&p.da, buf, 256, 0) };
	t_fill(buf, 256, 9);

	/* B invalidates rk locally */
	t_sq_info(&si, 40, IRDMA_OP_TYPE_INV_STAG);
	si.op.inv_local_stag.target_stag = rk;
	T_EQ(irdma_uk_stag_local_invalidate(&p.qb.uk, &si, true), 0);
	check_sq_ok(&p.cb, 40, IRDMA_OP_TYPE_INV_STAG);

	if (gen > 1) {
		/* A sends with invalidate of rk2 */
		r = (struct irdma_sge){ (uintptr_t)dst + 128, 128, ld };
		T_EQ(t_post_recv(&p.qb, 41, &r, 1), 0);
		t_sq_info(&si, 42, IRDMA_OP_TYPE_SEND_INV);
		si.op.send.sg_list = &s;
		si.op.send.num_sges = 1;
		si.stag_to_inv = rk2;
		T_EQ(irdma_uk_send(&p.qa.uk, &si, true), 0);
		check_sq_ok(&p.ca, 42, IRDMA_OP_TYPE_SEND_INV);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, 41);
		T_EQ(info.stag_invalid_set, true);
		T_EQ(info.inv_stag, rk2);
	}
	/* a WRITE to the invalidated rkey fails with remote access error */
	T_EQ(t_write(&p.qa, 43, &s, 1, (uintptr_t)dst, rk, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.wr_id, 43);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
	T_EQ(info.minor_err, FLUSH_REM_ACCESS_ERR);
	T_EQ(dst[0], 0);
	t_pair_close(&p);
	free(buf);
	free(dst);
}

T_CASE(invalidate_all_gens)
{
	invalidate(1);
	invalidate(2);
	invalidate(3);
}

/* MW bind (type 1 and type 2): the peer writes inside the window, and outside it fails. */
static void mw_bind(uint8_t gen, bool type1)
{
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	uint8_t *buf = t_zalloc(64), *win = t_zalloc(4096);
	uint32_t mr, mw, newkey;
	struct irdma_sge s;
	struct t_pair p;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	mr = t_mr(&p.db, win, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_MW_BIND);
	T_EQ(hw->mw_alloc(p.db.dev, p.db.pd, type1 ? IRDMA_HW_MW_TYPE_1 : IRDMA_HW_MW_TYPE_2, &mw), 0);
	newkey = (mw & ~0xFFu) | ((mw + 1) & 0xFF);
	t_sq_info(&si, 50, IRDMA_OP_TYPE_BIND_MW);
	si.op.bind_window.mr_stag = mr;
	si.op.bind_window.mw_stag = newkey;
	si.op.bind_window.va = win + 1024;
	si.op.bind_window.bind_len = 1024;
	si.op.bind_window.addressing_type = IRDMA_ADDR_TYPE_VA_BASED;
	si.op.bind_window.ena_writes = true;
	si.op.bind_window.mem_window_type_1 = type1;
	T_EQ(irdma_uk_mw_bind(&p.qb.uk, &si, true), 0);
	check_sq_ok(&p.cb, 50, IRDMA_OP_TYPE_BIND_MW);

	t_fill(buf, 64, 3);
	s = (struct irdma_sge){ (uintptr_t)buf, 64, t_mr(&p.da, buf, 64, 0) };
	T_EQ(t_write(&p.qa, 51, &s, 1, (uintptr_t)win + 2048 - 64, newkey, false), 0);
	check_sq_ok(&p.ca, 51, IRDMA_OP_TYPE_RDMA_WRITE);
	T_MEMEQ(win + 2048 - 64, buf, 64);
	/* one byte past the window */
	T_EQ(t_write(&p.qa, 52, &s, 1, (uintptr_t)win + 2048 - 63, newkey, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.wr_id, 52);
	T_EQ(info.minor_err, FLUSH_REM_ACCESS_ERR);
	T_EQ(win[2048], 0);
	t_pair_close(&p);
	free(buf);
	free(win);
}

T_CASE(mw_bind_type1_type2)
{
	mw_bind(2, true);
	mw_bind(2, false);
	mw_bind(3, true);
	mw_bind(3, false);
	mw_bind(1, true);
}

/* IPv6 addressing (GIDs are the addresses themselves) and an 802.1Q tag: RC SEND, and UD
 * whose GRH area is the received IPv6 header, with the VLAN reported in the CQE. */
static int open_v6(struct t_dev *d, uint8_t host)
{
	struct irdma_hw_dev_config cfg;
	char name[32];

	memset(&cfg, 0, sizeof(cfg));
	snprintf(name, sizeof(name), "soft_v6_h%u", host);
	cfg.name = name;
	cfg.gen = IRDMA_HW_GEN_2;
	cfg.socket_id = -1;
	cfg.port = "loop";
	cfg.has_ipv6 = true;
	cfg.ipv6[0] = 0xfd;
	cfg.ipv6[15] = host;
	return t_dev_open_cfg(d, &cfg);
}

T_CASE(ipv6_and_vlan)
{
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp ua, ub;
	struct irdma_hw_av av;
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	uint8_t *src = t_zalloc(256), *dst = t_zalloc(512);
	struct irdma_sge s, r;
	uint32_t ah;

	T_EQ(open_v6(&da, 1), 0);
	T_EQ(open_v6(&db, 2), 0);
	t_devs[0] = &da;
	t_devs[1] = &db;
	T_EQ(da.info.n_gids, 2);
	T_EQ(da.info.gid[0][0], 0xfe); /* fe80::EUI-64 first */
	T_EQ(da.info.gid[1][0], 0xfd);
	T_EQ(t_cq_create(&da, &ca, 64), 0);
	T_EQ(t_cq_create(&db, &cb, 64), 0);
	T_EQ(t_qp_create(&da, &ua, IRDMA_HW_QP_UD, &ca, &ca, &t_default_caps), 0);
	T_EQ(t_qp_create(&db, &ub, IRDMA_HW_QP_UD, &cb, &cb, &t_default_caps), 0);
	T_EQ(t_qp_connect_one(&ua, NULL, 1024, 0, 1, 0), 0);
	T_EQ(t_qp_connect_one(&ub, NULL, 1024, 0, 1, 0), 0);
	memset(&av, 0, sizeof(av));
	memcpy(av.dgid, db.info.gid[1], 16);
	av.sgid_index = 1;
	av.hop_limit = 9;
	av.vlan_id = 100;
	T_EQ(hw->ah_create(da.dev, da.pd, &av, &ah), 0);
	t_fill(src, 256, 66);
	s = (struct irdma_sge){ (uintptr_t)src, 200, t_mr(&da, src, 256, 0) };
	r = (struct irdma_sge){ (uintptr_t)dst, 512, t_mr(&db, dst, 512, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&ub, 1, &r, 1), 0);
	t_sq_info(&si, 2, IRDMA_OP_TYPE_SEND);
	si.op.send.sg_list = &s;
	si.op.send.num_sges = 1;
	si.op.send.qkey = 0x11111111;
	si.op.send.dest_qp = ub.id;
	si.op.send.ah_id = ah;
	T_EQ(irdma_uk_send(&ua.uk, &si, true), 0);
	T_EQ(t_poll(&ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_EQ(t_poll(&cb, &info), 0);
	T_EQ(info.wr_id, 1);
	T_EQ(info.bytes_xfered, 240);
	T_EQ(info.ipv4, false);
	T_EQ(info.ud_vlan_valid, true);
	T_EQ(info.ud_vlan & 0xFFF, 100);
	T_EQ(dst[0] >> 4, 6);    /* IPv6 header in the GRH area */
	T_EQ(dst[6], 17);        /* next header UDP */
	T_EQ(dst[7], 9);         /* hop limit from the AH */
	T_MEMEQ(dst + 8, da.info.gid[1], 16);
	T_MEMEQ(dst + 24, db.info.gid[1], 16);
	T_MEMEQ(dst + 40, src, 200);
	T_EQ(hw->ah_destroy(da.dev, ah), 0);
	t_qp_destroy(&ua);
	t_qp_destroy(&ub);
	{
		/* RC over IPv6 between the same devices */
		struct t_qp qa, qb;
		struct irdma_hw_qp_attr a;
		const uint32_t m = IRDMA_HW_QP_ATTR_AV;

		T_EQ(t_qp_create(&da, &qa, IRDMA_HW_QP_RC, &ca, &ca, &t_default_caps), 0);
		T_EQ(t_qp_create(&db, &qb, IRDMA_HW_QP_RC, &cb, &cb, &t_default_caps), 0);
		T_EQ(t_qp_connect(&qa, &qb, 1024, T_ACC_ALL), 0);
		/* the helper connects with IPv4-mapped GIDs: point the AVs at the IPv6 ones */
		memset(&a, 0, sizeof(a));
		memcpy(a.av.dgid, db.info.gid[1], 16);
		a.av.sgid_index = 1;
		a.av.vlan_id = 0xFFFF;
		T_EQ(hw->qp_modify(da.dev, qa.id, &a, m), 0);
		memcpy(a.av.dgid, da.info.gid[1], 16);
		T_EQ(hw->qp_modify(db.dev, qb.id, &a, m), 0);
		memset(dst, 0, 512);
		T_EQ(t_post_recv(&qb, 3, &r, 1), 0);
		T_EQ(t_send(&qa, 4, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
		T_EQ(t_poll(&ca, &info), 0);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		T_EQ(t_poll(&cb, &info), 0);
		T_EQ(info.bytes_xfered, 200);
		T_MEMEQ(dst, src, 200);
		t_qp_destroy(&qa);
		t_qp_destroy(&qb);
	}
	t_devs_close(&da, &ca, &db, &cb);
	free(src);
	free(dst);
}

/* Many messages: the SQ, RQ and CQ rings wrap several times (polarity flips), with
 * extended CQEs (immediate) landing across the CQ wrap in 32-byte mode too. */
static void ring_wrap(uint8_t gen)
{
	uint8_t *src = t_zalloc(64), *dst = t_zalloc(64);
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	struct irdma_sge s, r;
	struct t_pair p;
	uint32_t i, ld, ls;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	ls = t_mr(&p.da, src, 64, 0);
	ld = t_mr(&p.db, dst, 64, IRDMA_HW_ACCESS_LOCAL_WRITE);
	for (i = 0; i < 3000; i++) {
		bool imm = gen > 1 && i % 3 == 0;

		s = (struct irdma_sge){ (uintptr_t)src, 1 + i % 60, ls };
		r = (struct irdma_sge){ (uintptr_t)dst, 64, ld };
		t_fill(src, 64, i);
		T_EQ(t_post_recv(&p.qb, i, &r, 1), 0);
		t_sq_info(&si, i, IRDMA_OP_TYPE_SEND);
		si.op.send.sg_list = &s;
		si.op.send.num_sges = 1;
		si.imm_data_valid = imm;
		si.imm_data = i * 7;
		T_EQ(irdma_uk_send(&p.qa.uk, &si, true), 0);
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(info.wr_id, i);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, i);
		T_EQ(info.bytes_xfered, 1 + i % 60);
		T_EQ(info.imm_valid, imm);
		if (imm)
			T_EQ(info.imm_data, i * 7);
		T_MEMEQ(dst, src, 1 + i % 60);
		if (t_case_failures)
			break;
	}
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(ring_wrap_all_gens)
{
	ring_wrap(1);
	ring_wrap(2);
	ring_wrap(3);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("ops");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
