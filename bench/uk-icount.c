/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/uk per-operation cost, for callgrind (see bench/uk-icount.sh).
 *
 *   uk-icount check         compares the WQE/CQE bytes of each measured operation with fixed
 *                           images (golden vectors gen2_send_1sge, gen2_inline_send_8,
 *                           gen2_post_recv_1sge; the spec layout for the 1-SGE write, which
 *                           is the first quantum of gen2_rdma_write_3sge with addl = 0)
 *   uk-icount <op> <N>      runs op N times: send | inline | write | recv | poll
 *
 * Each measured call sits alone in a noinline ukb_op_* function, so callgrind's
 * --toggle-collect=ukb_op_* counts exactly the lib/uk call (plus the wrapper's call/return);
 * the loop around it recycles the ring (send/write/recv) or plays the hardware (poll) outside
 * the collected region. GEN_2 attributes, RoCE RC, power-of-two rings, doorbell = plain word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irdma_user.h"

static struct irdma_uk_attrs attrs = {
	.feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE,
	.max_hw_wq_frags = 13,
	.max_hw_read_sges = 13,
	.max_hw_inline = 101,
	.max_hw_rq_quanta = 32768,
	.max_hw_wq_quanta = 32768,
	.min_hw_cq_size = 1,
	.max_hw_cq_size = 1048575,
	.max_hw_sq_chunk = 8,
	.min_hw_wq_size = 8,
	.hw_rev = IRDMA_GEN_2,
};

struct bench {
	struct irdma_qp_uk qp;
	struct irdma_cq_uk cq;
	struct irdma_qp_quanta *sq, *rq;
	struct irdma_sq_uk_wr_trk_info *trk;
	uint64_t *rq_wrid;
	uint64_t qp_shadow[8], cq_shadow[8];
	struct irdma_cqe *cqes;
	uint32_t cq_size;
	uint32_t db, arm_db;
	/* hardware side of the CQ */
	uint32_t hw_head;
	uint8_t hw_pol;
};

static void *zalloc(size_t bytes)
{
	void *p = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);

	if (!p) {
		fprintf(stderr, "uk-icount: out of memory\n");
		exit(1);
	}
	memset(p, 0, (bytes + 4095) & ~(size_t)4095);
	return p;
}

/* A QP sized like an application asking for 64 WRs, 1 SGE, 8 inline bytes. */
static void bench_init(struct bench *b)
{
	struct irdma_qp_uk_init_info info;
	struct irdma_cq_uk_init_info ci;
	uint32_t sq_depth, rq_depth;
	uint8_t sq_shift, rq_shift;

	memset(b, 0, sizeof(*b));
	memset(&info, 0, sizeof(info));
	info.uk_attrs = &attrs;
	info.max_sq_frag_cnt = 1;
	info.max_rq_frag_cnt = 1;
	info.max_inline_data = 8;
	info.sq_size = 64;
	info.rq_size = 64;
	info.abi_ver = IRDMA_ABI_VER;
	if (irdma_uk_calc_depth_shift_sq(&info, &sq_depth, &sq_shift) ||
	    irdma_uk_calc_depth_shift_rq(&info, &rq_depth, &rq_shift)) {
		fprintf(stderr, "uk-icount: sizing failed\n");
		exit(1);
	}
	b->sq = zalloc((size_t)sq_depth * 32);
	b->rq = zalloc((size_t)rq_depth * 32);
	b->trk = zalloc((size_t)sq_depth * sizeof(*b->trk));
	b->rq_wrid = zalloc((size_t)rq_depth * sizeof(*b->rq_wrid));
	info.sq = b->sq;
	info.rq = b->rq;
	info.sq_wrtrk_array = b->trk;
	info.rq_wrid_array = b->rq_wrid;
	info.shadow_area = b->qp_shadow;
	info.wqe_alloc_db = &b->db;
	info.qp_id = 0x1234;
	info.qp_caps = IRDMA_SEND_WITH_IMM | IRDMA_WRITE_WITH_IMM | IRDMA_ROCE;
	info.sq_depth = sq_depth;
	info.rq_depth = rq_depth;
	info.sq_shift = sq_shift;
	info.rq_shift = rq_shift;
	info.sq_size = sq_depth >> sq_shift;
	info.rq_size = rq_depth >> rq_shift;
	info.type = IRDMA_QP_TYPE_ROCE_RC;
	if (irdma_uk_qp_init(&b->qp, &info)) {
		fprintf(stderr, "uk-icount: qp_init failed\n");
		exit(1);
	}

	b->cq_size = 256;
	b->cqes = zalloc((size_t)b->cq_size * sizeof(struct irdma_cqe));
	memset(&ci, 0, sizeof(ci));
	ci.cq_base = b->cqes;
	ci.cq_size = b->cq_size;
	ci.cq_id = 7;
	ci.shadow_area = b->cq_shadow;
	ci.cqe_alloc_db = &b->arm_db;
	irdma_uk_cq_init(&b->cq, &ci);
	b->hw_head = 0;
	b->hw_pol = 1;
}

/* ---- the measured calls: one lib/uk call each, never inlined ---- */

__attribute__((noinline)) int ukb_op_send(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info)
{
	return irdma_uk_send(qp, info, true);
}

__attribute__((noinline)) int ukb_op_inline(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info)
{
	return irdma_uk_inline_send(qp, info, true);
}

__attribute__((noinline)) int ukb_op_write(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info)
{
	return irdma_uk_rdma_write(qp, info, true);
}

__attribute__((noinline)) int ukb_op_recv(struct irdma_qp_uk *qp, struct irdma_post_rq_info *info)
{
	return irdma_uk_post_receive(qp, info);
}

__attribute__((noinline)) int ukb_op_poll(struct irdma_cq_uk *cq, struct irdma_cq_poll_info *info)
{
	return irdma_uk_cq_poll_cmpl(cq, info);
}

/* ---- inputs (the golden vectors' sg[0]) ---- */

static struct irdma_sge sge0 = { .addr = 0x1000000000ull, .length = 256, .lkey = 0xa0000 };
static uint8_t inline8[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static struct irdma_sge sge_inline = { .length = 8 };

static void send_info(struct irdma_post_sq_info *si)
{
	memset(si, 0, sizeof(*si));
	si->wr_id = 0x1111;
	si->op_type = IRDMA_OP_TYPE_SEND;
	si->signaled = true;
	si->op.send.sg_list = &sge0;
	si->op.send.num_sges = 1;
}

static void inline_info(struct irdma_post_sq_info *si)
{
	sge_inline.addr = (uintptr_t)inline8;
	memset(si, 0, sizeof(*si));
	si->wr_id = 0xb008;
	si->op_type = IRDMA_OP_TYPE_SEND;
	si->signaled = true;
	si->inline_data = true;
	si->op.send.sg_list = &sge_inline;
	si->op.send.num_sges = 1;
}

static void write_info(struct irdma_post_sq_info *si)
{
	memset(si, 0, sizeof(*si));
	si->wr_id = 0x2222;
	si->op_type = IRDMA_OP_TYPE_RDMA_WRITE;
	si->signaled = true;
	si->op.rdma_write.lo_sg_list = &sge0;
	si->op.rdma_write.num_lo_sges = 1;
	si->op.rdma_write.rem_addr.addr = 0x7f0000001000ull;
	si->op.rdma_write.rem_addr.lkey = 0x123456;
}

/* The hardware writes an SQ success CQE for the WQE at wqe_idx: body, then the valid qword. */
static void hw_cqe(struct bench *b, uint32_t wqe_idx)
{
	uint64_t *c = b->cqes[b->hw_head].buf;

	c[0] = (uint64_t)0x1234 << 32;
	c[1] = (uint64_t)(uintptr_t)&b->qp;
	c[2] = (uint64_t)0x1234 << 32;
	__atomic_store_n(&c[3],
			 IRDMA_FIELD_PREP(IRDMA_CQ_WQEIDX, wqe_idx) |
				 IRDMA_FIELD_PREP(IRDMACQ_OP, IRDMA_OP_TYPE_SEND) |
				 IRDMA_FIELD_PREP(IRDMA_CQ_SQ, 1) | IRDMA_FIELD_PREP(IRDMA_CQ_VALID, b->hw_pol),
			 __ATOMIC_RELEASE);
	if (++b->hw_head == b->cq_size) {
		b->hw_head = 0;
		b->hw_pol ^= 1;
	}
}

static int same(const char *what, const uint64_t *got, const uint64_t *exp, int n)
{
	for (int i = 0; i < n; i++)
		if (got[i] != exp[i]) {
			printf("%s: qword %d is 0x%016llx, expected 0x%016llx\n", what, i,
			       (unsigned long long)got[i], (unsigned long long)exp[i]);
			return 1;
		}
	printf("%s: bytes match\n", what);
	return 0;
}

static int check(void)
{
	static const uint64_t g_send[4] = { 0x0000001000000000ull, 0x80000100000a0000ull, 0,
					    0xc000000300000000ull };
	static const uint64_t g_inline[4] = { 0, 0x0807060504030201ull, 0, 0xc208000300000000ull };
	static const uint64_t g_write[4] = { 0x0000001000000000ull, 0x80000100000a0000ull,
					     0x00007f0000001000ull, 0xc000000000123456ull };
	static const uint64_t g_recv[4] = { 0x0000001000000000ull, 0x80000100000a0000ull, 0,
					    0x8000000000000000ull };
	struct irdma_post_sq_info si;
	struct irdma_post_rq_info ri = { .wr_id = 0x5101, .sg_list = &sge0, .num_sges = 1 };
	struct irdma_cq_poll_info pi;
	struct bench b;
	int bad = 0;

	bench_init(&b);
	send_info(&si);
	bad |= ukb_op_send(&b.qp, &si) != 0 || b.db != 0x1234;
	bad |= same("send 1 SGE (gen2_send_1sge)", b.sq[0].elem, g_send, 4);
	inline_info(&si);
	bad |= ukb_op_inline(&b.qp, &si) != 0;
	bad |= same("inline send 8 B (gen2_inline_send_8)", b.sq[1].elem, g_inline, 4);
	write_info(&si);
	bad |= ukb_op_write(&b.qp, &si) != 0;
	bad |= same("RDMA write 1 SGE (spec layout)", b.sq[2].elem, g_write, 4);
	bad |= ukb_op_recv(&b.qp, &ri) != 0;
	bad |= same("post_receive 1 SGE (gen2_post_recv_1sge)", b.rq[0].elem, g_recv, 4);

	hw_cqe(&b, 0);
	bad |= ukb_op_poll(&b.cq, &pi) != 0;
	if (pi.wr_id != 0x1111 || pi.bytes_xfered != 256 || pi.op_type != IRDMA_OP_TYPE_SEND ||
	    pi.qp_id != 0x1234 || pi.comp_status != IRDMA_COMPL_STATUS_SUCCESS ||
	    pi.stat.raw != 0x1234 || b.qp.sq_ring.tail != 1 || b.cq_shadow[0] != 1) {
		printf("poll 1 CQE: decoded wr_id 0x%llx bytes %u op %u status %d\n",
		       (unsigned long long)pi.wr_id, pi.bytes_xfered, pi.op_type, (int)pi.comp_status);
		bad = 1;
	} else {
		printf("poll 1 CQE (gen2_cqe_sq_send_success fields): decode matches\n");
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct irdma_post_sq_info si;
	struct irdma_post_rq_info ri = { .wr_id = 0x5101, .sg_list = &sge0, .num_sges = 1 };
	struct irdma_cq_poll_info pi;
	struct bench b;
	unsigned long n, i;
	const char *op;
	long sum = 0;

	if (argc == 2 && !strcmp(argv[1], "check"))
		return check();
	if (argc != 3) {
		fprintf(stderr, "usage: uk-icount check | {send|inline|write|recv|poll} N\n");
		return 2;
	}
	op = argv[1];
	n = strtoul(argv[2], NULL, 0);
	bench_init(&b);

	if (!strcmp(op, "send") || !strcmp(op, "inline") || !strcmp(op, "write")) {
		int (*fn)(struct irdma_qp_uk *, struct irdma_post_sq_info *) =
			op[0] == 's' ? ukb_op_send : op[0] == 'i' ? ukb_op_inline : ukb_op_write;

		if (op[0] == 's')
			send_info(&si);
		else if (op[0] == 'i')
			inline_info(&si);
		else
			write_info(&si);
		for (i = 0; i < n; i++) {
			si.wr_id = i;
			sum += fn(&b.qp, &si);
			b.qp.sq_ring.tail = b.qp.sq_ring.head; /* the device consumed it */
		}
	} else if (!strcmp(op, "recv")) {
		for (i = 0; i < n; i++) {
			ri.wr_id = i;
			sum += ukb_op_recv(&b.qp, &ri);
			b.qp.rq_ring.tail = b.qp.rq_ring.head;
		}
	} else if (!strcmp(op, "poll")) {
		/* Every SQ quantum tracked as a signaled 1-quantum send; one CQE per poll. */
		for (i = 0; i < b.qp.sq_ring.size; i++)
			b.trk[i] = (struct irdma_sq_uk_wr_trk_info){ .wrid = i, .wr_len = 256, .quanta = 1,
								     .signaled = 1 };
		for (i = 0; i < n; i++) {
			hw_cqe(&b, (uint32_t)(i & (b.qp.sq_ring.size - 1)));
			sum += ukb_op_poll(&b.cq, &pi);
			sum += pi.wr_id != (i & (b.qp.sq_ring.size - 1));
		}
	} else {
		fprintf(stderr, "uk-icount: unknown op '%s'\n", op);
		return 2;
	}
	if (sum) {
		fprintf(stderr, "uk-icount: %s failed (%ld)\n", op, sum);
		return 1;
	}
	return 0;
}
