/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Error paths of the soft device: the exact completion status on both sides for protection
 * and protocol violations, the QP moving to ERR, flush of outstanding work (one replayed
 * CQE on GEN_1/2, one CQE per WQE on GEN_3), CQ overflow as an error event with no write
 * outside the ring, and nothing ever written outside a registered region.
 */
#include "soft_test.h"

#include "irdma_stag.h"
#include "soft_mr_inl.h"
#include "roce_addr.h"
#include "roce_pkt.h"
#include "soft_loop_q.h"
#include "soft_priv.h"

static void expect_cqe(struct t_cq *cq, uint64_t wr_id, enum irdma_cmpl_status st,
		       uint16_t minor)
{
	struct irdma_cq_poll_info info;

	T_EQ(t_poll(cq, &info), 0);
	T_EQ(info.wr_id, wr_id);
	T_EQ(info.comp_status, st);
	T_EQ(info.minor_err, minor);
}

static bool zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static bool has_event(struct t_dev *d, enum irdma_hw_event_type t, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < d->events.n && i < 64; i++)
		if (d->events.ev[i].type == t && d->events.ev[i].id == id)
			return true;
	return false;
}

/* A bad lkey on the requester: LOC_PROT for it, the WRs behind it and the posted receives
 * flushed, nothing reaches the peer. */
static void local_protection(uint8_t gen)
{
	uint8_t *src = t_zalloc(256), *dst = t_zalloc(256), *rb = t_zalloc(256);
	struct irdma_sge s, bad, r;
	struct t_pair p;
	uint32_t ls;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	ls = t_mr(&p.da, src, 256, 0);
	r = (struct irdma_sge){ (uintptr_t)rb, 256, t_mr(&p.da, rb, 256, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&p.qa, 70, &r, 1), 0);
	T_EQ(t_post_recv(&p.qa, 71, &r, 1), 0);
	{
		struct irdma_sge pr = { (uintptr_t)dst, 256,
					t_mr(&p.db, dst, 256, IRDMA_HW_ACCESS_LOCAL_WRITE) };

		T_EQ(t_post_recv(&p.qb, 80, &pr, 1), 0);
	}
	s = (struct irdma_sge){ (uintptr_t)src, 16, ls };
	bad = (struct irdma_sge){ (uintptr_t)src, 16, ls ^ 0x1 }; /* wrong key byte */
	T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &bad, 1, false), 0);
	T_EQ(t_send(&p.qa, 2, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	T_EQ(t_send(&p.qa, 3, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_PROT_ERR);
	expect_cqe(&p.ca, 2, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	expect_cqe(&p.ca, 3, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	expect_cqe(&p.ca, 70, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	expect_cqe(&p.ca, 71, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	T_CHECK(t_cq_quiet(&p.ca));
	T_CHECK(t_cq_quiet(&p.cb));
	T_EQ(t_qp_get_state(&p.qa), IRDMA_HW_QPS_ERR);
	T_CHECK(has_event(&p.da, IRDMA_HW_EVENT_QP_FATAL, p.qa.id));
	T_CHECK(zero(dst, 256));
	/* Posting to a QP in error: flushed too. */
	T_EQ(t_send(&p.qa, 4, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	expect_cqe(&p.ca, 4, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	t_pair_close(&p);
	free(src);
	free(dst);
	free(rb);
}

T_CASE(local_protection_all_gens)
{
	local_protection(1);
	local_protection(2);
	local_protection(3);
}

T_CASE(local_key_from_other_pd)
{
	uint8_t *src = t_zalloc(64);
	struct irdma_hw_mr_ctx m;
	struct irdma_sge s;
	struct t_pair p;
	uint32_t pd2, stag;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	T_EQ(hw->pd_alloc(p.da.dev, &pd2), 0);
	memset(&m, 0, sizeof(m));
	m.pd_id = pd2;
	m.va = (uintptr_t)src;
	m.length = 64;
	m.host_addr = src;
	T_EQ(hw->mr_reg(p.da.dev, &m, &stag), 0);
	s = (struct irdma_sge){ (uintptr_t)src, 8, stag };
	T_EQ(t_write(&p.qa, 9, &s, 1, 0, 0, false), 0);
	expect_cqe(&p.ca, 9, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_PROT_ERR);
	/* and the READ target needs local write */
	t_pair_close(&p);
	free(src);
}

T_CASE(read_target_needs_local_write)
{
	uint8_t *loc = t_zalloc(64), *rem = t_zalloc(64);
	struct irdma_sge s;
	struct t_pair p;
	uint32_t rk;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	rk = t_mr(&p.db, rem, 64, IRDMA_HW_ACCESS_REMOTE_READ);
	s = (struct irdma_sge){ (uintptr_t)loc, 64, t_mr(&p.da, loc, 64, 0) };
	T_EQ(t_read(&p.qa, 5, &s, 1, (uintptr_t)rem, rk), 0);
	expect_cqe(&p.ca, 5, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_PROT_ERR);
	t_pair_close(&p);
	free(loc);
	free(rem);
}

/* Remote access violations: REM_ACCESS at the requester, the responder QP in ERR with its
 * receives flushed, and not one byte written. */
static void remote_access(uint8_t gen, int kind)
{
	uint8_t *src = t_zalloc(4096), *tgt = t_zalloc(8192), *rb = t_zalloc(64);
	struct irdma_sge s, r;
	struct t_pair p;
	uint32_t rk, ls;
	int rc;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, 4096, 1);
	ls = t_mr(&p.da, src, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	r = (struct irdma_sge){ (uintptr_t)rb, 64, t_mr(&p.db, rb, 64, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&p.qb, 90, &r, 1), 0);
	switch (kind) {
	case 0: /* no remote write right */
		rk = t_mr(&p.db, tgt + 4096, 2048, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_READ);
		s = (struct irdma_sge){ (uintptr_t)src, 100, ls };
		rc = t_write(&p.qa, 1, &s, 1, (uintptr_t)tgt + 4096, rk, false);
		break;
	case 1: /* one byte past the end, on the last packet of a 3-packet write */
		rk = t_mr(&p.db, tgt + 4096, 2048, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
		s = (struct irdma_sge){ (uintptr_t)src, 2049, ls };
		rc = t_write(&p.qa, 1, &s, 1, (uintptr_t)tgt + 4096, rk, false);
		break;
	case 2: /* one byte before the start */
		rk = t_mr(&p.db, tgt + 4096, 2048, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
		s = (struct irdma_sge){ (uintptr_t)src, 10, ls };
		rc = t_write(&p.qa, 1, &s, 1, (uintptr_t)tgt + 4095, rk, false);
		break;
	case 3: /* READ without remote read right */
		rk = t_mr(&p.db, tgt + 4096, 2048, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
		s = (struct irdma_sge){ (uintptr_t)src, 100, ls };
		rc = t_read(&p.qa, 1, &s, 1, (uintptr_t)tgt + 4096, rk);
		break;
	default: /* unknown rkey */
		rk = t_mr(&p.db, tgt + 4096, 2048, T_ACC_ALL);
		s = (struct irdma_sge){ (uintptr_t)src, 100, ls };
		rc = t_write(&p.qa, 1, &s, 1, (uintptr_t)tgt + 4096, rk + 0x100, false);
		break;
	}
	T_EQ(rc, 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_REM_ACCESS_ERR);
	expect_cqe(&p.cb, 90, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	T_EQ(t_qp_get_state(&p.qb), IRDMA_HW_QPS_ERR);
	T_EQ(t_qp_get_state(&p.qa), IRDMA_HW_QPS_ERR);
	T_CHECK(has_event(&p.db, IRDMA_HW_EVENT_QP_ACCESS_ERR, p.qb.id));
	T_CHECK(zero(tgt, 8192));
	T_CHECK(zero(rb, 64));
	if (kind == 3) { /* nothing read back into the local buffer */
		uint8_t orig[4096];

		t_fill(orig, 4096, 1);
		T_MEMEQ(src, orig, 4096);
	}
	t_pair_close(&p);
	free(src);
	free(tgt);
	free(rb);
}

T_CASE(remote_access_violations)
{
	int k;
	uint8_t g;

	for (g = 2; g <= 3; g++)
		for (k = 0; k < 5; k++)
			remote_access(g, k);
	remote_access(1, 1);
}

/* QP access flags without remote write: the responder refuses the operation itself
 * (invalid request), whatever the MR allows. */
T_CASE(qp_access_flags)
{
	uint8_t *src = t_zalloc(64), *tgt = t_zalloc(64);
	struct irdma_sge s;
	struct t_pair p;
	uint32_t rk;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, IRDMA_HW_ACCESS_REMOTE_READ), 0);
	rk = t_mr(&p.db, tgt, 64, T_ACC_ALL);
	s = (struct irdma_sge){ (uintptr_t)src, 8, t_mr(&p.da, src, 64, 0) };
	T_EQ(t_write(&p.qa, 1, &s, 1, (uintptr_t)tgt, rk, false), 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_REM_INV_REQ_ERR);
	T_EQ(t_qp_get_state(&p.qb), IRDMA_HW_QPS_ERR);
	T_CHECK(has_event(&p.db, IRDMA_HW_EVENT_QP_REQ_ERR, p.qb.id));
	T_CHECK(zero(tgt, 64));
	t_pair_close(&p);
	free(src);
	free(tgt);
}

/* A SEND longer than the receive WQE: LOC_LEN at the responder, REM_INV_REQ at the
 * requester, nothing written past the receive buffer. */
static void send_too_long(uint8_t gen)
{
	uint8_t *src = t_zalloc(4096), *dst = t_zalloc(4096);
	struct irdma_sge s, r;
	struct t_pair p;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, 4096, 2);
	r = (struct irdma_sge){ (uintptr_t)dst, 1500,
				t_mr(&p.db, dst, 1500, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&p.qb, 30, &r, 1), 0);
	T_EQ(t_post_recv(&p.qb, 31, &r, 1), 0);
	s = (struct irdma_sge){ (uintptr_t)src, 2000, t_mr(&p.da, src, 4096, 0) };
	T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_REM_INV_REQ_ERR);
	expect_cqe(&p.cb, 30, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_LOC_LEN_ERR);
	expect_cqe(&p.cb, 31, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	T_CHECK(zero(dst + 1500, 4096 - 1500));
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(send_longer_than_receive)
{
	send_too_long(1);
	send_too_long(2);
	send_too_long(3);
}

/* A receive WQE with a bad lkey: LOC_PROT at the responder, REM_OP at the requester. */
T_CASE(receive_bad_lkey)
{
	uint8_t *src = t_zalloc(64), *dst = t_zalloc(64);
	struct irdma_sge s, r;
	struct t_pair p;

	T_EQ(t_pair_open(&p, 3, 1024, &t_default_caps, T_ACC_ALL), 0);
	r = (struct irdma_sge){ (uintptr_t)dst, 64, t_mr(&p.db, dst, 64, 0) }; /* no local write */
	T_EQ(t_post_recv(&p.qb, 30, &r, 1), 0);
	s = (struct irdma_sge){ (uintptr_t)src, 10, t_mr(&p.da, src, 64, 0) };
	T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_REM_OP_ERR);
	expect_cqe(&p.cb, 30, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_PROT_ERR);
	T_CHECK(zero(dst, 64));
	t_pair_close(&p);
	free(src);
	free(dst);
}

/* No receive posted: RNR NAKs until one is (rnr_retry 7 = forever). */
T_CASE(rnr_then_receive)
{
	uint8_t *src = t_zalloc(64), *dst = t_zalloc(64);
	struct irdma_cq_poll_info info;
	struct irdma_sge s, r;
	struct t_pair p;
	uint64_t v[64];
	const char *names[64];
	int n, i;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, 64, 4);
	s = (struct irdma_sge){ (uintptr_t)src, 64, t_mr(&p.da, src, 64, 0) };
	T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	T_CHECK(t_cq_quiet(&p.ca));
	r = (struct irdma_sge){ (uintptr_t)dst, 64, t_mr(&p.db, dst, 64, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&p.qb, 2, &r, 1), 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_SUCCESS, 0);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(info.wr_id, 2);
	T_MEMEQ(dst, src, 64);
	n = hw->xstats_names(p.da.dev, p.qa.id, names, 64);
	T_CHECK(n > 0 && n <= 64);
	T_EQ(hw->xstats_get(p.da.dev, p.qa.id, v, 64), n);
	for (i = 0; i < n; i++)
		if (strcmp(names[i], "rx_rnr_naks") == 0)
			T_CHECK(v[i] >= 1);
	t_pair_close(&p);
	free(src);
	free(dst);
}

/* Moving a QP to ERR flushes posted sends and receives, in order, on every generation. */
static void flush_on_error(uint8_t gen)
{
	uint8_t *buf = t_zalloc(64);
	struct irdma_sge s, r;
	struct t_pair p;
	uint32_t lk;
	int i;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	lk = t_mr(&p.da, buf, 64, IRDMA_HW_ACCESS_LOCAL_WRITE);
	s = (struct irdma_sge){ (uintptr_t)buf, 8, lk };
	r = (struct irdma_sge){ (uintptr_t)buf, 64, lk };
	for (i = 0; i < 3; i++)
		T_EQ(t_post_recv(&p.qa, 100 + i, &r, 1), 0);
	T_EQ(t_qp_state(&p.qa, IRDMA_HW_QPS_ERR), 0);
	for (i = 0; i < 3; i++)
		expect_cqe(&p.ca, 100 + i, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	/* sends posted in ERR, some unsignaled: each still reported flushed */
	for (i = 0; i < 4; i++)
		T_EQ(t_send(&p.qa, 200 + i, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	for (i = 0; i < 4; i++)
		expect_cqe(&p.ca, 200 + i, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	/* receives posted in ERR: flushed on the next flush request (modify to ERR) */
	T_EQ(t_post_recv(&p.qa, 300, &r, 1), 0);
	T_EQ(t_qp_state(&p.qa, IRDMA_HW_QPS_ERR), 0);
	expect_cqe(&p.ca, 300, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	T_CHECK(t_cq_quiet(&p.ca));
	t_pair_close(&p);
	free(buf);
}

T_CASE(flush_on_error_all_gens)
{
	flush_on_error(1);
	flush_on_error(2);
	flush_on_error(3);
}

/*
 * The device takes the QP to ERR on its own (a bad lkey on a send) and software posts a
 * receive after the device's flush but before it has seen the event, so its state word
 * still reads RTS and it sends no flush request. The receive completes flushed anyway,
 * once (the device scans the RQ again after the event), after the ones posted before.
 */
struct late_recv {
	struct t_qp *qp;
	struct irdma_sge sge;
	unsigned int posted;
};

static void post_before_the_event(void *ctx, const struct irdma_hw_event *ev)
{
	struct late_recv *l = ctx;

	if (ev->type != IRDMA_HW_EVENT_QP_FATAL || ev->id != l->qp->id || l->posted)
		return;
	T_EQ(t_post_recv(l->qp, 90, &l->sge, 1), 0);
	l->posted++;
}

static void receive_posted_before_the_error_event(uint8_t gen, bool earlier)
{
	uint8_t *src = t_zalloc(64), *rb = t_zalloc(64);
	struct irdma_sge s, bad;
	struct late_recv l;
	struct t_pair p;
	uint32_t ls;

	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	ls = t_mr(&p.da, src, 64, 0);
	l.qp = &p.qa;
	l.sge = (struct irdma_sge){ (uintptr_t)rb, 64,
				    t_mr(&p.da, rb, 64, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	l.posted = 0;
	if (earlier)
		T_EQ(t_post_recv(&p.qa, 70, &l.sge, 1), 0);
	p.da.events.before = post_before_the_event;
	p.da.events.before_ctx = &l;
	s = (struct irdma_sge){ (uintptr_t)src, 8, ls };
	bad = (struct irdma_sge){ (uintptr_t)src, 8, ls ^ 0x1 };
	T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &bad, 1, false), 0);
	T_EQ(t_send(&p.qa, 2, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	expect_cqe(&p.ca, 1, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_PROT_ERR);
	expect_cqe(&p.ca, 2, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	T_EQ(l.posted, 1u);
	if (earlier)
		expect_cqe(&p.ca, 70, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	expect_cqe(&p.ca, 90, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_GENERAL_ERR);
	T_CHECK(t_cq_quiet(&p.ca));
	T_EQ(t_qp_get_state(&p.qa), IRDMA_HW_QPS_ERR);
	T_CHECK(has_event(&p.da, IRDMA_HW_EVENT_QP_FATAL, p.qa.id));
	p.da.events.before = NULL;
	t_pair_close(&p);
	free(src);
	free(rb);
}

T_CASE(receive_posted_before_the_error_event_is_flushed)
{
	uint8_t gen;

	for (gen = 1; gen <= 3; gen++) {
		receive_posted_before_the_error_event(gen, false);
		receive_posted_before_the_error_event(gen, true);
	}
}

/* More completions than the CQ holds: an error event, the QP in ERR, no byte outside the
 * ring (the guard page after it is intact, checked at destroy). NOPs complete in the front
 * end; RDMA WRITEs (writes) as their ACK is taken, where the CQE is written at once while
 * it fits. */
static void cq_overflow(uint8_t gen, bool writes)
{
	static uint64_t src = 0x1122334455667788ull;
	static uint8_t dst[64];
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp qa, qb;
	int i, rc = 0;

	T_EQ(t_devs_open(&da, &db, gen, 31, 1024), 0);
	T_EQ(t_cq_create(&da, &ca, 3), 0);
	T_EQ(t_cq_create(&db, &cb, 64), 0);
	T_EQ(t_qp_create(&da, &qa, IRDMA_HW_QP_RC, &ca, &ca, &t_default_caps), 0);
	T_EQ(t_qp_create(&db, &qb, IRDMA_HW_QP_RC, &cb, &cb, &t_default_caps), 0);
	T_EQ(t_qp_connect(&qa, &qb, 1024, T_ACC_ALL), 0);
	if (writes) {
		uint32_t rk = t_mr(&db, dst, sizeof(dst),
				   IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
		struct irdma_sge sg = { (uintptr_t)&src, 8, t_mr(&da, &src, 8, 0) };

		/* one at a time: each ACK completes one WRITE */
		for (i = 0; i < 40 && rc == 0; i++) {
			rc = t_write(&qa, i, &sg, 1, (uintptr_t)dst + 8 * (i % 8), rk, false);
			t_progress();
			t_progress();
		}
	} else {
		for (i = 0; i < 40 && rc == 0; i++)
			rc = irdma_nop(&qa.uk, i, true, true);
	}
	for (i = 0; i < 200; i++)
		t_progress();
	T_CHECK(has_event(&da, IRDMA_HW_EVENT_CQ_ERR, ca.id));
	T_EQ(t_qp_get_state(&qa), IRDMA_HW_QPS_ERR);
	if (writes) /* the WRITEs that went before the overflow landed */
		T_EQ(memcmp(dst, &src, 8), 0);
	{
		/* room for the wire's counters (the device has more than 32) */
		uint64_t v[128];
		const char *names[128];
		int n = hw->xstats_names(da.dev, -1, names, 128), k;

		T_EQ(hw->xstats_get(da.dev, -1, v, 128), n);
		for (k = 0; k < n; k++)
			if (strcmp(names[k], "cq_overflows") == 0)
				T_EQ(v[k], 1);
	}
	t_qp_destroy(&qa);
	t_qp_destroy(&qb);
	t_devs_close(&da, &ca, &db, &cb);
}

T_CASE(cq_overflow_all_gens)
{
	cq_overflow(1, false);
	cq_overflow(2, false);
	cq_overflow(3, false);
}

T_CASE(cq_overflow_on_ack_all_gens)
{
	cq_overflow(1, true);
	cq_overflow(2, true);
	cq_overflow(3, true);
}

/* Destroying a QP with work outstanding; the peer's later packets are dropped. */
T_CASE(qp_destroy_with_work)
{
	uint8_t *buf = t_zalloc(4096);
	struct irdma_sge s, r;
	struct t_pair p;
	uint32_t lk, lb;
	int i;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	lk = t_mr(&p.da, buf, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	lb = t_mr(&p.db, buf, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	s = (struct irdma_sge){ (uintptr_t)buf, 4000, lk };
	r = (struct irdma_sge){ (uintptr_t)buf, 4096, lb };
	T_EQ(t_post_recv(&p.qb, 1, &r, 1), 0);
	for (i = 0; i < 8; i++)
		T_EQ(t_send(&p.qa, i, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	T_EQ(hw->cq_destroy(p.da.dev, p.ca.id), -EBUSY); /* QPs still on it */
	hw->progress(p.da.dev, 2);
	t_qp_destroy(&p.qb);
	for (i = 0; i < 1000; i++)
		t_progress();
	t_qp_destroy(&p.qa);
	for (i = 0; i < 100; i++)
		t_progress();
	t_devs_close(&p.da, &p.ca, &p.db, &p.cb);
	free(buf);
}

/* MW bind refused: the region does not allow binding. */
T_CASE(mw_bind_error)
{
	struct irdma_post_sq_info si;
	uint8_t *win = t_zalloc(4096);
	struct t_pair p;
	uint32_t mr, mw;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	mr = t_mr(&p.db, win, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE);
	T_EQ(hw->mw_alloc(p.db.dev, p.db.pd, IRDMA_HW_MW_TYPE_2, &mw), 0);
	t_sq_info(&si, 5, IRDMA_OP_TYPE_BIND_MW);
	si.op.bind_window.mr_stag = mr;
	si.op.bind_window.mw_stag = mw;
	si.op.bind_window.va = win;
	si.op.bind_window.bind_len = 4096;
	si.op.bind_window.addressing_type = IRDMA_ADDR_TYPE_VA_BASED;
	si.op.bind_window.ena_writes = true;
	T_EQ(irdma_uk_mw_bind(&p.qb.uk, &si, true), 0);
	expect_cqe(&p.cb, 5, IRDMA_COMPL_STATUS_FLUSHED, FLUSH_MW_BIND_ERR);
	t_pair_close(&p);
	free(win);
}

/* The key table names each cause of a refusal with its own errno (soft_priv.h), in the
 * debug log's words; every lib/roce callback answers a refusal -EACCES and a completion
 * reports it as FLUSH_PROT_ERR, whatever the cause. */
T_CASE(key_check_errno_per_cause)
{
	static struct soft_qp qp; /* what soft_mr_check_remote() reads: id, pd_id */
	static uint8_t buf[64] __rte_aligned(8);
	struct soft_dev *dev;
	struct t_dev d;
	uint32_t rw, ro, other_key;
	uint8_t *host;
	int e;

	T_EQ(t_dev_open(&d, 2, 1, 1024), 0);
	dev = soft_dev_from_hw(d.dev);
	rw = t_mr(&d, buf, sizeof(buf), T_ACC_ALL);
	ro = t_mr(&d, buf, sizeof(buf), IRDMA_HW_ACCESS_REMOTE_READ);
	qp.id = 5;
	qp.pd_id = d.pd;
	T_EQ(soft_mr_check_local(dev, d.pd, rw, (uintptr_t)buf, 8, IRDMA_HW_ACCESS_LOCAL_WRITE,
				 &host), 0);
	T_CHECK(host == buf);
	T_EQ(soft_mr_check_remote(dev, &qp, rw, (uintptr_t)buf + 8, 8,
				  IRDMA_HW_ACCESS_REMOTE_ATOMIC, &host), 0);
	T_CHECK(host == buf + 8);
	e = soft_mr_check_local(dev, d.pd, irdma_stag_from(0, 1), (uintptr_t)buf, 8, 0, &host);
	T_EQ(e, -ENOENT);
	T_CHECK(strcmp(soft_mr_err_str(e), "no such STag") == 0);
	other_key = irdma_stag_with_key(rw, (uint8_t)(irdma_stag_to_key(rw) + 1));
	e = soft_mr_check_local(dev, d.pd, other_key, (uintptr_t)buf, 8, 0, &host);
	T_EQ(e, -EKEYREJECTED);
	T_CHECK(strcmp(soft_mr_err_str(e), "STag key mismatch") == 0);
	e = soft_mr_check_local(dev, d.pd + 1, rw, (uintptr_t)buf, 8, 0, &host);
	T_EQ(e, -EPERM);
	T_CHECK(strcmp(soft_mr_err_str(e), "PD mismatch") == 0);
	e = soft_mr_check_local(dev, d.pd, ro, (uintptr_t)buf, 8, IRDMA_HW_ACCESS_LOCAL_WRITE, &host);
	T_EQ(e, -EACCES);
	T_CHECK(strcmp(soft_mr_err_str(e), "access right missing") == 0);
	e = soft_mr_check_local(dev, d.pd, rw, (uintptr_t)buf + 60, 8, 0, &host);
	T_EQ(e, -EFAULT);
	T_CHECK(strcmp(soft_mr_err_str(e), "out of bounds") == 0);
	e = soft_mr_check_remote(dev, &qp, rw, (uintptr_t)buf + 4, 8, IRDMA_HW_ACCESS_REMOTE_ATOMIC,
				 &host);
	T_EQ(e, -EINVAL);
	T_CHECK(strcmp(soft_mr_err_str(e), "misaligned atomic") == 0);
	/* the seams: one answer whatever the cause */
	T_EQ(soft_mr_err_roce(e), -EACCES);
	T_EQ(soft_mr_err_to_flush(e), FLUSH_PROT_ERR);
	T_EQ(soft_mr_err_roce(0), 0);
	T_EQ(soft_mr_err_to_flush(0), 0);
	T_EQ(soft_mr_invalidate(dev, d.pd, 0, rw, false), 0);
	e = soft_mr_check_remote(dev, &qp, rw, (uintptr_t)buf, 8, IRDMA_HW_ACCESS_REMOTE_READ, &host);
	T_EQ(e, -EKEYREVOKED);
	T_CHECK(strcmp(soft_mr_err_str(e), "STag not valid") == 0);
	T_EQ(hw->mr_dereg(d.dev, rw), 0);
	T_EQ(hw->mr_dereg(d.dev, ro), 0);
	t_dev_close(&d);
}

/* One key check four ways (in line and full, local and remote): 1 when they agree, and
 * *fast is counted when the in-line lookup alone took it. */
static int key_check_agrees(struct soft_dev *dev, struct soft_qp *qp, uint32_t stag, uint64_t va,
			    uint64_t len, uint32_t access, unsigned int *fast)
{
	uint8_t *h1 = NULL, *h2 = NULL, *hf;
	int e1, e2, ok;

	hf = soft_mr_fast_host(dev, qp->pd_id, stag, va, len, access);
	e1 = soft_mr_check_local(dev, qp->pd_id, stag, va, len, access, &h1);
	e2 = soft_mr_check_local_inl(dev, qp->pd_id, stag, va, len, access, &h2);
	ok = e1 == e2 && (e1 != 0 || h1 == h2) && (hf == NULL || (e1 == 0 && hf == h1));
	*fast += hf != NULL;
	h1 = h2 = NULL;
	e1 = soft_mr_check_remote(dev, qp, stag, va, len, access, &h1);
	e2 = soft_mr_check_remote_inl(dev, qp, stag, va, len, access, &h2);
	return ok && e1 == e2 && (e1 != 0 || h1 == h2);
}

/* The key checks' common case in line (soft_mr_inl.h) answers as the full checks do, for
 * every cause and every boundary: same result, same host address; and what it takes in
 * line is the common case exactly (a valid MR of the PD, the rights, in bounds). */
T_CASE(key_check_inline_same_answers)
{
	static struct soft_key keys[8];
	static struct soft_dev dev;
	static struct soft_qp qp;
	static uint8_t buf[64] __rte_aligned(8);
	static const int64_t offs[] = { -1, 0, 8, 56, 57, 63, 64 };
	static const uint64_t lens[] = { 0, 1, 8, 64, 65 };
	static const uint32_t acc[] = { 0, IRDMA_HW_ACCESS_LOCAL_WRITE,
		IRDMA_HW_ACCESS_REMOTE_READ, IRDMA_HW_ACCESS_REMOTE_WRITE,
		IRDMA_HW_ACCESS_REMOTE_ATOMIC };
	const uint64_t base = 0x10000;
	unsigned int i, idx, fast = 0, bad = 0;

	memset(keys, 0, sizeof(keys));
	dev.keys = keys;
	dev.max_mr = 7; /* index 7 lies past the table */
	qp.id = 5;
	/* 1: MR, all rights; 2: MR, remote read only; 3: MR invalidated; 4: MW type 2 bound
	 * through QP 5; 5: MW type 1; 6: free; 7: valid but past max_mr; 0: never allocated */
	for (idx = 1; idx < 8; idx++)
		keys[idx] = (struct soft_key){ .state = SOFT_KEY_VALID,
					       .key = (uint8_t)(0x40 + idx), .pd_id = 3,
					       .access = T_ACC_ALL, .va = base, .len = sizeof(buf),
					       .host = buf };
	keys[2].access = IRDMA_HW_ACCESS_REMOTE_READ;
	keys[3].state = SOFT_KEY_INVALID;
	keys[4].is_mw = true;
	keys[4].mw_type = 2;
	keys[4].qp_id = 5;
	keys[5].is_mw = true;
	keys[5].mw_type = 1;
	keys[6].state = SOFT_KEY_FREE;
	/* every combination: index, key byte right or not, PD right or not, offset, length,
	 * access */
	for (i = 0; i < 8 * 2 * 2 * RTE_DIM(offs) * RTE_DIM(lens) * RTE_DIM(acc); i++) {
		const unsigned int na = RTE_DIM(acc), nl = RTE_DIM(lens), no = RTE_DIM(offs);
		unsigned int a = i % na, l = i / na % nl, o = i / (na * nl) % no;
		unsigned int pd = 3 + i / (na * nl * no) % 2, kb = i / (na * nl * no * 2) % 2;
		unsigned int ix = i / (na * nl * no * 4);
		uint32_t stag = irdma_stag_from(ix, (uint8_t)(0x40 + ix + kb));

		qp.pd_id = pd;
		bad += !key_check_agrees(&dev, &qp, stag, base + offs[o], lens[l], acc[a], &fast);
	}
	T_EQ(bad, 0);
	/* in line: MR 1 with any of the 5 rights, MR 2 with none or remote read, right key
	 * and PD, in bounds: (offset, lengths) = (0: 0, 1, 8, 64), (8: 0, 1, 8), (56: 0, 1, 8),
	 * (57: 0, 1), (63: 0, 1), (64: 0): 15 */
	T_EQ(fast, (5 + 2) * 15);
}

/* A frame into dev's loop receive queue, built by lib/roce (valid ICRC): an RC SEND ONLY of
 * 8 bytes to dqpn from src to dst (GIDs), in an IPv6 header when v6, else IPv4. */
static void loop_inject(struct soft_dev *dev, bool v6, const char *src, const char *dst,
			uint32_t dqpn)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(dev->pool);
	static const uint8_t pl[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct roce_pkt p;
	int len;

	T_CHECK(m != NULL);
	if (m == NULL)
		return;
	memset(&p, 0, sizeof(p));
	T_EQ(roce_gid_parse(src, p.sgid), 0);
	T_EQ(roce_gid_parse(dst, p.dgid), 0);
	p.ipv6 = v6;
	p.hop_limit = 64;
	p.sport = 0xC000;
	p.opcode = ROCE_OP_RC_SEND_ONLY;
	p.pkey = 0xFFFF;
	p.dqpn = dqpn;
	p.psn = 1;
	p.payload = pl;
	p.paylen = sizeof(pl);
	len = roce_pkt_build(&p, rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_tailroom(m));
	T_CHECK(len > 0);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	/* the test plays the peer: it enqueues, as the loop port does */
	T_EQ(soft_loop_q_enqueue((struct soft_loop_q *)soft_wire_loop_queue(dev), &m, 1), 1);
}

/* port=loop: the wire checks each frame's destination against the device's addresses
 * itself (the loop marks nothing). An IPv4 frame's by its 32 bits against the IPv4-mapped
 * GIDs, an IPv6 frame's by its GID against all of them; a frame to another address is
 * counted in rx_drop_dst_ip and goes no further, one to ours reaches the QP lookup. */
T_CASE(loop_rx_destination_address_ipv4_and_ipv6)
{
	struct soft_dev *dev;
	struct t_pair p;
	uint64_t dst0, unk0;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	dev = soft_dev_from_hw(p.db.dev); /* 10.0.0.2 */
	dst0 = dev->st.wire.rx_drop_dst_ip;
	unk0 = dev->st.rx_unknown_qp;
	/* IPv4 to another host: dropped, whatever the QP */
	loop_inject(dev, false, "10.0.0.1", "10.0.0.3", p.qb.id);
	loop_inject(dev, false, "10.0.0.1", "10.0.1.2", p.qb.id);
	loop_inject(dev, false, "10.0.0.1", "11.0.0.2", p.qb.id);
	t_progress();
	T_EQ(dev->st.wire.rx_drop_dst_ip - dst0, 3);
	T_EQ(dev->st.rx_unknown_qp - unk0, 0);
	/* IPv4 to us: past the check (a QP nobody has) */
	loop_inject(dev, false, "10.0.0.1", "10.0.0.2", 0x7777);
	t_progress();
	T_EQ(dev->st.wire.rx_drop_dst_ip - dst0, 3);
	T_EQ(dev->st.rx_unknown_qp - unk0, 1);
	/* IPv6 to our IPv4-mapped GID: ours; to another address: not */
	loop_inject(dev, true, "::ffff:10.0.0.1", "::ffff:10.0.0.2", 0x7777);
	t_progress();
	T_EQ(dev->st.wire.rx_drop_dst_ip - dst0, 3);
	T_EQ(dev->st.rx_unknown_qp - unk0, 2);
	loop_inject(dev, true, "::ffff:10.0.0.1", "fd00::2", 0x7777);
	loop_inject(dev, true, "fd00::1", "::ffff:10.0.0.3", 0x7777);
	t_progress();
	T_EQ(dev->st.wire.rx_drop_dst_ip - dst0, 5);
	{
		char s[64];

		/* our link-local GID (GID 0) is ours */
		T_CHECK(roce_gid_format(dev->gid[0], s, sizeof(s)) != NULL);
		loop_inject(dev, true, "fd00::1", s, 0x7777);
		t_progress();
		T_EQ(dev->st.wire.rx_drop_dst_ip - dst0, 5);
		T_EQ(dev->st.rx_unknown_qp - unk0, 3);
	}
	t_pair_close(&p);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("errors");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
