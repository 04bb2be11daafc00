/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The requester's fast front end (inline RDMA WRITE/SEND from the SQ straight to the frame)
 * interleaved with WQEs the general path takes (SGE WRITE, READ, a local fence), several
 * per doorbell, unsignaled ones among them, over many SQ wraps and on every generation:
 * data lands where it should, send CQEs come in SQ order with their wr_id and opcode,
 * receive CQEs carry the immediate, and nothing is left over.
 */
#include "irdma_test.h"
#include "soft_test.h"

static int post(struct t_qp *qp, uint64_t wr_id, uint8_t op, struct irdma_sge *s,
		uint64_t raddr, uint32_t rkey, bool inl, bool signaled, uint32_t flags)
{
	struct irdma_post_sq_info si;

	t_sq_info(&si, wr_id, op);
	si.signaled = signaled;
	si.read_fence = flags & 1;
	si.local_fence = flags & 2;
	si.imm_data_valid = flags & 4;
	si.imm_data = (uint32_t)wr_id * 3 + 1;
	switch (op) {
	case IRDMA_OP_TYPE_RDMA_WRITE:
		si.op.rdma_write.lo_sg_list = s;
		si.op.rdma_write.num_lo_sges = 1;
		si.op.rdma_write.rem_addr.addr = raddr;
		si.op.rdma_write.rem_addr.lkey = rkey;
		return inl ? irdma_uk_inline_rdma_write(&qp->uk, &si, true) :
			     irdma_uk_rdma_write(&qp->uk, &si, true);
	case IRDMA_OP_TYPE_RDMA_READ:
		si.op.rdma_read.lo_sg_list = s;
		si.op.rdma_read.num_lo_sges = 1;
		si.op.rdma_read.rem_addr.addr = raddr;
		si.op.rdma_read.rem_addr.lkey = rkey;
		return irdma_uk_rdma_read(&qp->uk, &si, false, true);
	default:
		si.op.send.sg_list = s;
		si.op.send.num_sges = 1;
		return inl ? irdma_uk_inline_send(&qp->uk, &si, true) :
			     irdma_uk_send(&qp->uk, &si, true);
	}
}

static void expect_sq(struct t_cq *cq, uint64_t wr_id, uint8_t op)
{
	struct irdma_cq_poll_info info;

	T_EQ(t_poll(cq, &info), 0);
	T_EQ(info.wr_id, wr_id);
	T_EQ(info.op_type, op);
	T_EQ(info.error, false);
}

static void mixed(uint8_t gen)
{
	uint8_t *src = t_zalloc(4096), *loc = t_zalloc(4096), *rem = t_zalloc(8192);
	uint32_t max_inl = gen == 1 ? 48 : 101, i, k;
	struct t_qp_caps caps = t_default_caps;
	struct irdma_cq_poll_info info;
	uint32_t ls, ll, rk, imm = gen > 1 ? 4 : 0; /* GEN_1 carries no immediate */
	struct t_pair p;

	caps.max_inline = max_inl;
	T_EQ(t_pair_open(&p, gen, 1024, &caps, T_ACC_ALL), 0);
	ls = t_mr(&p.da, src, 4096, 0);
	ll = t_mr(&p.da, loc, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	rk = t_mr(&p.db, rem, 8192,
		  IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE |
			  IRDMA_HW_ACCESS_REMOTE_READ);
	for (i = 0; i < 400 && !t_case_failures; i++) {
		uint32_t n_in = 1 + i % max_inl, n_sge = 200 + i % 1800, n_rd = 1 + i % 1500;
		uint64_t id = (uint64_t)i * 8;
		struct irdma_sge a = { (uintptr_t)src, n_in, 0 };
		struct irdma_sge b = { (uintptr_t)src + 100, n_sge, ls };
		struct irdma_sge c = { (uintptr_t)loc, n_rd, ll };
		struct irdma_sge r = { (uintptr_t)rem + 6000, 256, rk };

		t_fill(src, 4096, i);
		memset(loc, 0, 4096);
		memset(rem + 6000, 0, 256);
		T_EQ(t_post_recv(&p.qb, id, &r, 1), 0);
		/* one doorbell's worth, engine not run in between: inline WRITE unsignaled
		 * (fast), SGE WRITE (general), READ (general), inline SEND with immediate,
		 * read-fenced (fast or, behind the READ, the general path), a locally fenced
		 * inline WRITE (general), an inline WRITE (fast once the fence is done) */
		T_EQ(post(&p.qa, id + 1, IRDMA_OP_TYPE_RDMA_WRITE, &a, (uintptr_t)rem, rk, true,
			  false, 0), 0);
		T_EQ(post(&p.qa, id + 2, IRDMA_OP_TYPE_RDMA_WRITE, &b, (uintptr_t)rem + 128, rk,
			  false, true, 0), 0);
		T_EQ(post(&p.qa, id + 3, IRDMA_OP_TYPE_RDMA_READ, &c, (uintptr_t)rem + 128, rk,
			  false, true, 0), 0);
		T_EQ(post(&p.qa, id + 4, IRDMA_OP_TYPE_SEND, &a, 0, 0, true, true, imm | 1), 0);
		T_EQ(post(&p.qa, id + 5, IRDMA_OP_TYPE_RDMA_WRITE, &a, (uintptr_t)rem + 2100, rk,
			  true, i % 2 == 0, 2), 0);
		T_EQ(post(&p.qa, id + 6, IRDMA_OP_TYPE_RDMA_WRITE, &a, (uintptr_t)rem + 2300, rk,
			  true, true, 0), 0);
		expect_sq(&p.ca, id + 2, IRDMA_OP_TYPE_RDMA_WRITE);
		expect_sq(&p.ca, id + 3, IRDMA_OP_TYPE_RDMA_READ);
		expect_sq(&p.ca, id + 4, IRDMA_OP_TYPE_SEND);
		if (i % 2 == 0)
			expect_sq(&p.ca, id + 5, IRDMA_OP_TYPE_RDMA_WRITE);
		expect_sq(&p.ca, id + 6, IRDMA_OP_TYPE_RDMA_WRITE);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, id);
		T_EQ(info.bytes_xfered, n_in);
		T_EQ(info.imm_valid, imm != 0);
		if (imm)
			T_EQ(info.imm_data, (uint32_t)(id + 4) * 3 + 1);
		T_MEMEQ(rem, src, n_in);
		T_MEMEQ(rem + 128, src + 100, n_sge);
		T_MEMEQ(loc, src + 100, n_rd);
		T_MEMEQ(rem + 6000, src, n_in);
		T_MEMEQ(rem + 2100, src, n_in);
		T_MEMEQ(rem + 2300, src, n_in);
		T_EQ(rem[6000 + n_in], 0);
	}
	/* a burst of inline WRITEs on one doorbell, only the last signaled */
	for (i = 0; i < 50 && !t_case_failures; i++) {
		struct irdma_sge a = { (uintptr_t)src + i, 8, 0 };

		for (k = 0; k < 20; k++)
			T_EQ(post(&p.qa, 100000 + k, IRDMA_OP_TYPE_RDMA_WRITE, &a,
				  (uintptr_t)rem + 8 * k, rk, true, k == 19, 0), 0);
		expect_sq(&p.ca, 100019, IRDMA_OP_TYPE_RDMA_WRITE);
		for (k = 0; k < 20; k++)
			T_MEMEQ(rem + 8 * k, src + i, 8);
	}
	T_CHECK(t_cq_quiet(&p.ca));
	T_CHECK(t_cq_quiet(&p.cb));
	t_pair_close(&p);
	free(src);
	free(loc);
	free(rem);
}

T_CASE(fast_and_general_interleaved_gen1)
{
	mixed(1);
}

T_CASE(fast_and_general_interleaved_gen2)
{
	mixed(2);
}

T_CASE(fast_and_general_interleaved_gen3)
{
	mixed(3);
}

/*
 * REQ_WAIT_WIRE: more inline WRITEs than the receiver's loop queue (4096) and the sender's
 * backlog (512) hold, on many QPs, with only the sender's engine running: once the backlog
 * is full, a WQE that finds no frame stays in the SQ (the SQ's hardware tail, in the
 * shadow area, counts exactly the WQEs sent: the general path would have fetched one more
 * per visit into lib/roce's queue). Then both engines run: every WRITE lands, each QP's
 * CQEs in SQ order.
 */
#define WW_QPS 96u
#define WW_PER 56u /* under lib/roce's window (128 unacknowledged): the fast path's case */

T_CASE(wire_full_waits_in_sq)
{
	static struct t_qp qa[WW_QPS], qb[WW_QPS];
	struct t_qp_caps caps = t_default_caps;
	uint8_t *src = t_zalloc(WW_QPS * WW_PER * 8), *dst = t_zalloc(WW_QPS * WW_PER * 8);
	uint32_t next[WW_QPS], q, k, rk, got;
	struct irdma_cq_poll_info info;
	uint64_t taken = 0, sent;
	struct t_dev da, db;
	struct t_cq ca, cb;
	int i;

	caps.max_inline = 64;
	T_EQ(t_devs_open(&da, &db, 2, 71, 1024), 0);
	T_EQ(t_cq_create(&da, &ca, 8192), 0);
	T_EQ(t_cq_create(&db, &cb, 64), 0);
	for (q = 0; q < WW_QPS && !t_case_failures; q++) {
		T_EQ(t_qp_create(&da, &qa[q], IRDMA_HW_QP_RC, &ca, &ca, &caps), 0);
		T_EQ(t_qp_create(&db, &qb[q], IRDMA_HW_QP_RC, &cb, &cb, &caps), 0);
		T_EQ(t_qp_connect(&qa[q], &qb[q], 1024, T_ACC_ALL), 0);
		next[q] = 0;
	}
	t_fill(src, WW_QPS * WW_PER * 8, 7);
	rk = t_mr(&db, dst, WW_QPS * WW_PER * 8, T_ACC_ALL);
	T_EQ(hw->xstats_reset(da.dev, -1), 0);
	for (q = 0; q < WW_QPS && !t_case_failures; q++)
		for (k = 0; k < WW_PER; k++) {
			uint32_t off = (q * WW_PER + k) * 8;
			struct irdma_sge s = { (uintptr_t)src + off, 8, 0 };

			T_EQ(t_write(&qa[q], (uint64_t)q << 16 | k, &s, 1, (uintptr_t)dst + off, rk,
				     true), 0);
		}
	/* the sender alone: the receiver's queue fills, then the sender's backlog */
	for (i = 0; i < 4000; i++)
		hw->progress(da.dev, 64);
	sent = t_xstat(da.dev, -1, "tx_packets");
	for (q = 0; q < WW_QPS; q++)
		taken += IRDMA_FIELD_GET(IRDMA_QP_DBSA_HW_SQ_TAIL, qa[q].shadow[0]);
	T_CHECK(t_xstat(da.dev, -1, "tx_backlog_full") > 0);
	T_CHECK(sent >= 4096 && sent < WW_QPS * WW_PER);
	T_EQ(taken, sent);
	/* both: everything lands, in order per QP */
	for (got = 0; got < WW_QPS * WW_PER && !t_case_failures; got++) {
		T_EQ(t_poll(&ca, &info), 0);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		q = (uint32_t)(info.wr_id >> 16);
		T_CHECK(q < WW_QPS);
		if (q >= WW_QPS)
			break;
		T_EQ(info.wr_id & 0xffff, next[q]);
		next[q]++;
	}
	T_MEMEQ(dst, src, WW_QPS * WW_PER * 8);
	T_CHECK(t_cq_quiet(&ca));
	for (q = 0; q < WW_QPS; q++) {
		t_qp_destroy(&qa[q]);
		t_qp_destroy(&qb[q]);
	}
	t_devs_close(&da, &ca, &db, &cb);
	free(src);
	free(dst);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("req_fast");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
