/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SQ completion tracking through sq_wrtrk_array, unsignaled completions, flush replay
 * (GEN_1/2: software parks the CQ head and re-polls; GEN_3: one firmware CQE per WQE),
 * and the CQE error / flush codes -> completion status mapping.
 */
#include <errno.h>
#include <string.h>

#include "irdma_test.h"
#include "ukm_model.h"
#include "ukt_env.h"

struct posted {
	struct ukt_wr wr;
	uint32_t wqe_idx, quanta;
};

/* Posts wr and returns where it went (the SQ head before, after any padding). */
static struct posted post(struct ukt_qp *t, struct ukm_sq *m, struct ukt_wr wr)
{
	struct posted p = { .wr = wr };
	struct ukm_sq_post mp;

	ukm_sq_post(m, ukt_wr_quanta(t->gen, &wr), ukt_wr_clears(&wr), &mp);
	T_EQ(ukt_post(t, &wr, true), 0);
	T_EQ(t->qp.sq_ring.head, m->head);
	p.wqe_idx = mp.wqe_idx;
	p.quanta = mp.quanta;
	return p;
}

static int poll(struct ukt_cq *cq, struct irdma_cq_poll_info *pi)
{
	memset(pi, 0x5a, sizeof(*pi));
	return irdma_uk_cq_poll_cmpl(&cq->cq, pi);
}

/*
 * The tracking array holds wr_id, length, quanta and the signaled flag at each WQE's first
 * quantum; a CQE for a signaled WQE retires it and every unsignaled one before it.
 */
static void tracking(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 32, .max_recv_wr = 8, .sq_sge = 3,
				  .rq_sge = 1, .max_inline = 40 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct posted p[8];
	struct irdma_cq_poll_info pi;
	int n = 0;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 16, gen == 3), 0);
	ukm_sq_init(&m, gen, t.sq_depth, 0, 0);
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 2, .signaled = true, .wr_id = 0xa1 });
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_WRITE, .nsge = 3, .signaled = false, .wr_id = 0xa2 });
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_NOP, .signaled = false, .wr_id = 0xa3 });
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_READ, .nsge = 1, .signaled = true, .wr_id = 0xa4 });
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_INLINE_SEND, .nsge = 2, .inline_len = 20,
					       .signaled = false, .wr_id = 0xa5 });
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_LOCAL_INV, .signaled = true, .wr_id = 0xa6 });
	p[n++] = post(&t, &m, (struct ukt_wr){ .kind = UKT_BIND, .signaled = true, .wr_id = 0xa7 });
	for (int i = 0; i < n; i++) {
		const struct irdma_sq_uk_wr_trk_info *e = &t.trk[p[i].wqe_idx];

		T_EQ(e->wrid, p[i].wr.wr_id);
		T_EQ(e->wr_len, ukt_wr_len(&p[i].wr));
		T_EQ(e->quanta, p[i].quanta);
		T_EQ(e->signaled, p[i].wr.signaled);
	}
	T_EQ(t.trk[p[0].wqe_idx].wr_len, 64 + 0xa1 % 64 + 128 + 0xa1 % 64);

	/* Completing the read (index 3) retires the send, the write and the NOP before it. */
	ukt_hw_sq_done(&cq, &t, p[3].wqe_idx, 0x01);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xa4);
	T_EQ(pi.bytes_xfered, ukt_wr_len(&p[3].wr));
	T_EQ(pi.op_type, 0x01);
	T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_EQ(pi.q_type, IRDMA_CQE_QTYPE_SQ);
	T_CHECK(pi.qp_handle == &t.qp);
	T_EQ(pi.qp_id, 0x1234);
	T_EQ(t.qp.sq_ring.tail, p[3].wqe_idx + p[3].quanta);

	/* Two CQEs polled together: local invalidate, then bind. */
	ukt_hw_sq_done(&cq, &t, p[5].wqe_idx, 0x0a);
	ukt_hw_sq_done(&cq, &t, p[6].wqe_idx, 0x08);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xa6);
	T_EQ(pi.bytes_xfered, 0);
	T_EQ(pi.op_type, 0x0a);
	T_EQ(t.qp.sq_ring.tail, p[5].wqe_idx + 1);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xa7);
	T_EQ(pi.op_type, 0x08);
	T_EQ(t.qp.sq_ring.tail, t.qp.sq_ring.head);
	T_EQ(poll(&cq, &pi), -ENOENT);

	/* A failed (non-flush) completion reports the wr_id but no bytes. */
	p[0] = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1, .signaled = true, .wr_id = 0xb1 });
	{
		struct ukt_cqe c;

		ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, p[0].wqe_idx, 0x03);
		ukt_cqe_error(&c, 0x8003, 0x0042);
		ukt_cq_hw_write(&cq, &c);
	}
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xb1);
	T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_UNKNOWN);
	T_EQ(pi.error, true);
	T_EQ(pi.major_err, 0x8003);
	T_EQ(pi.minor_err, 0x0042);
	T_EQ(pi.bytes_xfered, 0);
	T_EQ(t.qp.sq_ring.tail, t.qp.sq_ring.head);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(tracking_gen1)
{
	tracking(1);
}

T_CASE(tracking_gen2)
{
	tracking(2);
}

T_CASE(tracking_gen3)
{
	tracking(3);
}

/*
 * Kernel >= 6.19: a success CQE for an unsignaled WQE is consumed silently (-EFAULT): the CQ
 * head moves on, the SQ tail does not.
 */
static void unsignaled(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 16, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct posted a, b;
	struct irdma_cq_poll_info pi;
	uint32_t tail;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, gen == 3), 0);
	ukm_sq_init(&m, gen, t.sq_depth, 0, 0);
	a = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1, .signaled = false, .wr_id = 0xc1 });
	b = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1, .signaled = true, .wr_id = 0xc2 });
	tail = t.qp.sq_ring.tail;
	ukt_hw_sq_done(&cq, &t, a.wqe_idx, 0x03);
	T_EQ(poll(&cq, &pi), -EFAULT);
	T_EQ(t.qp.sq_ring.tail, tail);
	T_EQ(cq.cq.cq_ring.head, 1);
	T_EQ(cq.shadow[0], 1);
	T_EQ(poll(&cq, &pi), -ENOENT);
	ukt_hw_sq_done(&cq, &t, b.wqe_idx, 0x03);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xc2);
	T_EQ(t.qp.sq_ring.tail, t.qp.sq_ring.head);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(unsignaled_consumed_gen1)
{
	unsignaled(1);
}

T_CASE(unsignaled_consumed_gen2)
{
	unsignaled(2);
}

T_CASE(unsignaled_consumed_gen3)
{
	unsignaled(3);
}

/*
 * SQ flush. Outstanding: send A, a signaled NOP, write C (big: may be padded), read D, bind E.
 * GEN_1/2: one flush CQE; each poll reports the next non-NOP WQE from the SQ tail with status
 * FLUSHED; the CQ head stays parked (the CQE's minor code is rewritten to the generic flush
 * code after the first report) until the SQ is empty. GEN_3: firmware writes one flush CQE per
 * WQE and the head always advances; bind + PROT is reported as MW_BIND.
 */
static void sq_flush(int gen)
{
	const struct ukm_gen *g = ukm_gen_get(gen);
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 16, .max_recv_wr = 8,
				  .sq_sge = g->max_frags, .rq_sge = 1 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct posted w[5];
	struct irdma_cq_poll_info pi;
	static const int report[4] = { 0, 2, 3, 4 }; /* w[1] is the NOP */
	struct ukt_cqe c;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, gen == 3), 0);
	ukm_sq_init(&m, gen, t.sq_depth, 0, 0);
	w[0] = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1, .signaled = true, .wr_id = 0xd1 });
	w[1] = post(&t, &m, (struct ukt_wr){ .kind = UKT_NOP, .signaled = true, .wr_id = 0xd2 });
	w[2] = post(&t, &m, (struct ukt_wr){ .kind = UKT_WRITE, .nsge = g->max_frags, .signaled = false,
					   .wr_id = 0xd3 });
	w[3] = post(&t, &m, (struct ukt_wr){ .kind = UKT_READ, .nsge = 1, .signaled = true, .wr_id = 0xd4 });
	w[4] = post(&t, &m, (struct ukt_wr){ .kind = UKT_BIND, .signaled = true, .wr_id = 0xd5 });
	if (gen != 1)
		T_CHECK(w[2].wqe_idx > w[1].wqe_idx + 1); /* padding NOPs between: skipped by the walk */

	if (gen < 3) {
		ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, 0, 0);
		ukt_cqe_error(&c, 1, FLUSH_PROT_ERR);
		ukt_cq_hw_write(&cq, &c);
	}
	for (int i = 0; i < 4; i++) {
		const struct posted *e = &w[report[i]];

		if (gen == 3) {
			ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, e->wqe_idx, ukt_wr_opcode(&e->wr));
			ukt_cqe_error(&c, 1, FLUSH_PROT_ERR);
			ukt_cq_hw_write(&cq, &c);
		}
		T_EQ(poll(&cq, &pi), 0);
		T_EQ(pi.wr_id, e->wr.wr_id);
		T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
		T_EQ(pi.error, true);
		T_EQ(pi.major_err, 1);
		T_EQ(pi.op_type, ukt_wr_opcode(&e->wr));
		T_EQ(pi.bytes_xfered, ukt_wr_len(&e->wr));
		T_EQ(pi.q_type, IRDMA_CQE_QTYPE_SQ);
		T_EQ(t.qp.sq_ring.tail, (e->wqe_idx + e->quanta) % t.sq_depth);
		if (gen < 3) {
			/* First report: the CQE's own minor; re-polls: the generic code written back. */
			T_EQ(pi.minor_err, i == 0 ? FLUSH_PROT_ERR : FLUSH_GENERAL_ERR);
			T_EQ(UKT_BITS(ukt_get64(ukt_cq_slot(&cq, 0), 24), 0, 15), FLUSH_GENERAL_ERR);
			T_EQ(cq.cq.cq_ring.head, i < 3 ? 0 : 1);
		} else {
			T_EQ(pi.minor_err, e->wr.kind == UKT_BIND ? FLUSH_MW_BIND_ERR : FLUSH_PROT_ERR);
			T_EQ(cq.cq.cq_ring.head, (uint32_t)i + 1);
		}
		T_EQ(t.qp.sq_flush_complete, i == 3);
		T_EQ(t.qp.sq_flush_seen, 1);
	}
	T_EQ(t.qp.sq_ring.tail, t.qp.sq_ring.head);
	T_EQ(poll(&cq, &pi), -ENOENT);
	T_EQ(cq.cq.cq_ring.head, cq.hw_head);
	T_EQ(cq.shadow[0], cq.hw_head);
	/* A late flush CQE for an empty SQ is consumed and not reported. */
	ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, 0, 0);
	ukt_cqe_error(&c, 1, FLUSH_GENERAL_ERR);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), -ENOENT);
	T_EQ(cq.cq.cq_ring.head, cq.hw_head);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(sq_flush_replay_gen1)
{
	sq_flush(1);
}

T_CASE(sq_flush_replay_gen2)
{
	sq_flush(2);
}

T_CASE(sq_flush_firmware_gen3)
{
	sq_flush(3);
}

/* RQ flush: receives complete in posting order, whatever WQE index the flush CQE carries. */
static void rq_flush(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 8, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1 };
	struct irdma_post_rq_info ri = { 0 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct irdma_cq_poll_info pi;
	struct ukt_cqe c;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, gen == 3), 0);
	for (int i = 0; i < 3; i++) {
		ri.wr_id = 0xe0 + (uint64_t)i;
		T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
	}
	if (gen < 3) {
		ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 2 * t.qp.rq_wqe_size_multiplier, 0);
		ukt_cqe_error(&c, 1, FLUSH_REM_ACCESS_ERR);
		ukt_cq_hw_write(&cq, &c);
	}
	for (int i = 0; i < 3; i++) {
		if (gen == 3) {
			ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 0, 0);
			ukt_cqe_error(&c, 1, FLUSH_REM_ACCESS_ERR);
			ukt_cq_hw_write(&cq, &c);
		}
		T_EQ(poll(&cq, &pi), 0);
		T_EQ(pi.wr_id, 0xe0 + (uint64_t)i);
		T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
		T_EQ(pi.q_type, IRDMA_CQE_QTYPE_RQ);
		T_EQ(pi.minor_err, gen < 3 && i ? FLUSH_GENERAL_ERR : FLUSH_REM_ACCESS_ERR);
		T_EQ(t.qp.rq_ring.tail, (uint32_t)i + 1);
		T_EQ(cq.cq.cq_ring.head, gen < 3 ? (i < 2 ? 0u : 1u) : (uint32_t)i + 1);
		T_EQ(t.qp.rq_flush_complete, i == 2);
	}
	T_EQ(poll(&cq, &pi), -ENOENT);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(rq_flush_replay_gen1)
{
	rq_flush(1);
}

T_CASE(rq_flush_replay_gen2)
{
	rq_flush(2);
}

T_CASE(rq_flush_firmware_gen3)
{
	rq_flush(3);
}

/* GEN_3 SRQ flush: major 0xFFFE carries an async-event code, translated to a flush code. */
T_CASE(srq_flush_ae_code_gen3)
{
	static const struct { uint16_t ae; uint16_t flush; } rows[] = {
		{ 0x0108, FLUSH_PROT_ERR },      { 0x020a, FLUSH_LOC_QP_OP_ERR },
		{ 0x0132, FLUSH_LOC_LEN_ERR },   { 0x020d, FLUSH_REM_ACCESS_ERR },
		{ 0x0118, FLUSH_MW_BIND_ERR },   { 0x050a, FLUSH_RETRY_EXC_ERR },
		{ 0x0208, FLUSH_REM_INV_REQ_ERR }, { 0x020e, FLUSH_REM_OP_ERR },
		{ 0x050f, FLUSH_RNR_RETRY_EXC_ERR }, { 0x0704, FLUSH_FATAL_ERR },
		{ 0x0999, FLUSH_GENERAL_ERR },
	};
	struct ukt_srq s;
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukt_qp_cfg cfg = { .gen = 3, .max_send_wr = 8, .max_recv_wr = 1, .sq_sge = 1,
				  .rq_sge = 1 };
	struct irdma_sge sg = { 0x5000, 64, 0x77 };
	struct irdma_post_rq_info ri = { .sg_list = &sg, .num_sges = 1 };
	struct irdma_cq_poll_info pi;

	T_EQ(ukt_srq_create(&s, 16, 1), 0);
	cfg.srq = &s.srq;
	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 32, true), 0);
	for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ukt_cqe c;

		ri.wr_id = 0xf000 + i;
		T_EQ(irdma_uk_srq_post_receive(&s.srq, &ri), 0);
		ukt_cqe_rq(&c, (void *)(uintptr_t)ri.wr_id, t.qp.qp_id, 0, 0);
		c.q[3] |= 1ull << 52;
		c.q[5] = (uint64_t)(uintptr_t)&t.qp;
		ukt_cqe_error(&c, 0xfffe, rows[i].ae);
		ukt_cq_hw_write(&cq, &c);
		T_EQ(poll(&cq, &pi), 0);
		T_EQ(pi.wr_id, ri.wr_id);
		T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
		T_EQ(pi.major_err, 0xfffe);
		T_EQ(pi.minor_err, rows[i].flush);
		T_EQ(s.srq.srq_ring.tail, s.srq.srq_ring.head);
		T_EQ(cq.cq.cq_ring.head, cq.hw_head);
	}
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
	ukt_srq_destroy(&s);
}

/* The whole async-event -> (flush code, QP event) table of doc/spec/irdma-uk.md §3.10. */
T_CASE(ae_to_qp_err_code_table)
{
	static const struct { uint16_t ae; int flush; int ev; } rows[] = {
		{ 0x0108, 2, 1 }, { 0x0103, 2, 1 }, { 0x0109, 2, 1 }, { 0x0102, 2, 1 },
		{ 0x0105, 2, 1 }, { 0x0104, 2, 1 }, { 0x0106, 2, 1 }, { 0x0107, 2, 1 },
		{ 0x010a, 2, 1 }, { 0x011c, 2, 1 }, { 0x0133, 4, 0 }, { 0x020a, 4, 0 },
		{ 0x0134, 6, 0 }, { 0x0132, 6, 0 }, { 0x0135, 6, 0 }, { 0x0305, 6, 0 },
		{ 0x0303, 6, 0 }, { 0x0112, 3, 1 }, { 0x020d, 3, 1 }, { 0x0118, 9, 1 },
		{ 0x011b, 9, 1 }, { 0x0119, 9, 1 }, { 0x0114, 9, 1 }, { 0x050a, 8, 0 },
		{ 0x0208, 10, 2 }, { 0x0507, 5, 0 }, { 0x0505, 5, 0 }, { 0x0316, 5, 0 },
		{ 0x020e, 5, 0 }, { 0x050f, 11, 0 }, { 0x0700, 7, 0 }, { 0x0703, 7, 0 },
		{ 0x0704, 7, 0 }, { 0x0705, 7, 0 }, { 0x0000, 1, 0 }, { 0x0101, 1, 0 },
		{ 0xffff, 1, 0 },
	};

	/* Event values: 0 catastrophic, 1 access error, 2 request error. */
	T_EQ(IRDMA_QP_EVENT_CATASTROPHIC, 0);
	T_EQ(IRDMA_QP_EVENT_ACCESS_ERR, 1);
	T_EQ(IRDMA_QP_EVENT_REQ_ERR, 2);
	for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct qp_err_code e = irdma_ae_to_qp_err_code(rows[i].ae);

		T_CHECK_MSG((int)e.flush_code == rows[i].flush && (int)e.event_type == rows[i].ev,
			    "AE 0x%04x: flush %d event %d, expected %d %d", rows[i].ae,
			    (int)e.flush_code, (int)e.event_type, rows[i].flush, rows[i].ev);
	}
}

/*
 * CQE error -> status: major 1 (every flush code) -> FLUSHED with the minor; other majors ->
 * UNKNOWN with major/minor kept; on a RoCE UD QP an SQ CQE whose major has the 0xE top nibble
 * is a non-fatal indication -> SUCCESS with the error cleared (not on RC, not on the RQ).
 */
static void status_map(uint32_t qp_type)
{
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 64, .max_recv_wr = 64, .sq_sge = 1,
				  .rq_sge = 1, .qp_type = qp_type };
	static const struct { uint16_t major, minor; } rows[] = {
		{ 1, 0 },  { 1, 1 },  { 1, 2 },  { 1, 3 },  { 1, 4 },  { 1, 5 },  { 1, 6 },
		{ 1, 7 },  { 1, 8 },  { 1, 9 },  { 1, 10 }, { 1, 11 }, { 0x8001, 0x12 },
		{ 0x0002, 0x3 }, { 0xe000, 0x1 }, { 0xe123, 0x45 }, { 0xefff, 0xffff }, { 0xd000, 7 },
		{ 0x000e, 0 },
	};
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct irdma_cq_poll_info pi;
	struct irdma_post_rq_info ri = { 0 };

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(t.qp.qp_type, qp_type);
	T_EQ(ukt_cq_create(&cq, 64, false), 0);
	ukm_sq_init(&m, 2, t.sq_depth, 0, 0);
	for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct posted p = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1,
								.signaled = true, .wr_id = 0x100 + i });
		bool flush = rows[i].major == 1;
		bool cie = qp_type == IRDMA_QP_TYPE_ROCE_UD && (rows[i].major >> 12) == 0xe;
		struct ukt_cqe c;

		for (int q = 0; q < 2; q++) { /* q = 0: SQ completion, 1: RQ completion */
			if (q == 0) {
				ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, p.wqe_idx, 0x03);
			} else {
				ri.wr_id = 0x200 + i;
				T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
				ukt_cqe_rq(&c, &t.qp, t.qp.qp_id,
					   ((t.qp.rq_ring.head + t.qp.rq_ring.size - 1) % t.qp.rq_ring.size) *
						   t.qp.rq_wqe_size_multiplier,
					   0);
			}
			ukt_cqe_error(&c, rows[i].major, rows[i].minor);
			ukt_cq_hw_write(&cq, &c);
			T_EQ(poll(&cq, &pi), 0);
			T_EQ(pi.wr_id, q ? 0x200 + i : 0x100 + i);
			if (flush) {
				T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
				T_EQ(pi.minor_err, rows[i].minor);
				T_EQ(pi.error, true);
			} else if (cie && q == 0) {
				T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
				T_EQ(pi.error, false);
				T_EQ(pi.major_err, 0);
				T_EQ(pi.minor_err, 0);
			} else {
				T_EQ(pi.comp_status, IRDMA_COMPL_STATUS_UNKNOWN);
				T_EQ(pi.error, true);
				T_EQ(pi.major_err, rows[i].major);
				T_EQ(pi.minor_err, rows[i].minor);
			}
			if (t_case_failures) {
				printf("# QP type %u, %s CQE, major 0x%x minor 0x%x\n", qp_type,
				       q ? "RQ" : "SQ", rows[i].major, rows[i].minor);
				break;
			}
		}
		T_EQ(t.qp.sq_ring.tail, t.qp.sq_ring.head);
		T_EQ(t.qp.rq_ring.tail, t.qp.rq_ring.head);
		T_EQ(cq.cq.cq_ring.head, cq.hw_head);
	}
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(status_map_roce_rc)
{
	status_map(IRDMA_QP_TYPE_ROCE_RC);
}

T_CASE(status_map_roce_ud)
{
	status_map(IRDMA_QP_TYPE_ROCE_UD);
}

/* irdma_uk_clean_cq: CQEs of the destroyed QP get a NULL context and poll as -EFAULT. */
T_CASE(clean_cq_then_poll)
{
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 16, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1 };
	struct ukt_qp a, b;
	struct ukt_cq cq;
	struct ukm_sq ma, mb;
	struct posted pa, pb;
	struct irdma_cq_poll_info pi;

	T_EQ(ukt_qp_create(&a, &cfg), 0);
	T_EQ(ukt_qp_create(&b, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, false), 0);
	ukm_sq_init(&ma, 2, a.sq_depth, 0, 0);
	ukm_sq_init(&mb, 2, b.sq_depth, 0, 0);
	/* Fill past the wrap: completions in slots 6, 7 (pass 1) and 0, 1 (pass 2). */
	for (int i = 0; i < 6; i++) {
		pa = post(&a, &ma, (struct ukt_wr){ .kind = UKT_NOP, .signaled = true, .wr_id = 1 });
		ukt_hw_sq_done(&cq, &a, pa.wqe_idx, 0x0c);
		T_EQ(poll(&cq, &pi), 0);
	}
	for (int i = 0; i < 2; i++) {
		pa = post(&a, &ma, (struct ukt_wr){ .kind = UKT_NOP, .signaled = true, .wr_id = 0xa0 + (uint64_t)i });
		ukt_hw_sq_done(&cq, &a, pa.wqe_idx, 0x0c);
		pb = post(&b, &mb, (struct ukt_wr){ .kind = UKT_NOP, .signaled = true, .wr_id = 0xb0 + (uint64_t)i });
		ukt_hw_sq_done(&cq, &b, pb.wqe_idx, 0x0c);
	}
	irdma_uk_clean_cq(&a.qp, &cq.cq);
	T_EQ(cq.cq.cq_ring.head, 6);
	T_EQ(cq.cq.polarity, 1);
	T_EQ(ukt_get64(ukt_cq_slot(&cq, 6), 8), 0);
	T_EQ(ukt_get64(ukt_cq_slot(&cq, 7), 8), (uintptr_t)&b.qp);
	T_EQ(ukt_get64(ukt_cq_slot(&cq, 0), 8), 0);
	T_EQ(ukt_get64(ukt_cq_slot(&cq, 1), 8), (uintptr_t)&b.qp);
	T_EQ(poll(&cq, &pi), -EFAULT);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xb0);
	T_EQ(poll(&cq, &pi), -EFAULT);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0xb1);
	T_EQ(poll(&cq, &pi), -ENOENT);
	T_EQ(cq.cq.cq_ring.head, 2);
	T_EQ(cq.cq.polarity, 0);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&a);
	ukt_qp_destroy(&b);
}

/* CQ resize: new buffer, indices reset, polarity 1; the resized count and the arm word. */
T_CASE(cq_resize_and_arm)
{
	struct ukt_cq cq;
	void *nb;
	uint64_t w;

	T_EQ(ukt_cq_create(&cq, 8, false), 0);
	nb = calloc(16, 32);
	cq.cq.cq_ring.head = 5;
	cq.cq.cq_ring.tail = 5;
	cq.cq.polarity = 0;
	irdma_uk_cq_resize(&cq.cq, nb, 16);
	T_CHECK((void *)cq.cq.cq_base == nb);
	T_EQ(cq.cq.cq_size, 16);
	T_EQ(cq.cq.cq_ring.size, 16);
	T_EQ(cq.cq.cq_ring.head, 0);
	T_EQ(cq.cq.cq_ring.tail, 0);
	T_EQ(cq.cq.polarity, 1);
	T_EQ(irdma_uk_cq_empty(&cq.cq), true);

	/* SW CQ select is 14 bits and wraps; arm bits and the sequence are kept. */
	cq.shadow[4] = (3ull << 16) | (1ull << 15) | 0x3ffe;
	irdma_uk_cq_set_resized_cnt(&cq.cq, 3);
	T_EQ(cq.shadow[4], (3ull << 16) | (1ull << 15) | 0x0001);
	cq.arm_db = 0;
	irdma_uk_cq_request_notification(&cq.cq, IRDMA_CQ_COMPL_EVENT);
	w = cq.shadow[4];
	T_EQ(UKT_BITS(w, 16, 17), 0);   /* sequence 3 -> 0 */
	T_EQ(UKT_BITS(w, 15, 15), 1);   /* arm next solicited: always */
	T_EQ(UKT_BITS(w, 14, 14), 1);   /* arm next: EVENT */
	T_EQ(UKT_BITS(w, 0, 13), 1);    /* SW CQ select kept */
	T_EQ(cq.arm_db, 0x55);
	irdma_uk_cq_request_notification(&cq.cq, IRDMA_CQ_COMPL_SOLICITED);
	w = cq.shadow[4];
	T_EQ(UKT_BITS(w, 16, 17), 1);
	T_EQ(UKT_BITS(w, 14, 14), 0);
	T_EQ(UKT_BITS(w, 15, 15), 1);
	free(nb);
	cq.cq.cq_base = (struct irdma_cqe *)cq.mem;
	ukt_cq_destroy(&cq);
}

/*
 * Every field of a decoded CQE: RQ completion with remote invalidate, solicited event, PSN, UD
 * source QPN; extended CQEs with immediate, source MAC and VLAN, in 32-byte mode (extension in
 * the next slot, head + 2) and 64-byte mode (same slot, head + 1).
 */
static void cqe_fields(bool cqe64)
{
	struct ukt_qp_cfg cfg = { .gen = cqe64 ? 3 : 2, .max_send_wr = 8, .max_recv_wr = 8,
				  .sq_sge = 1, .rq_sge = 1, .qp_type = IRDMA_QP_TYPE_ROCE_UD };
	struct irdma_post_rq_info ri = { 0 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct irdma_cq_poll_info pi;
	struct ukt_cqe c;
	static const uint8_t mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 8, cqe64), 0);
	for (int i = 0; i < 4; i++) {
		ri.wr_id = 0x700 + (uint64_t)i;
		T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);
	}
	/* Plain RQ completion: invalidated STag, solicited, PSN, IPv4 bit. */
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 0, 1500);
	c.q[0] |= 0xabcdefull << 32;
	c.q[2] |= 0x00c0ffee;
	c.q[3] |= (1ull << 53) | (1ull << 54) | (0x3full << 56);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x700);
	T_EQ(pi.bytes_xfered, 1500);
	T_EQ(pi.stat.raw, 0xabcdef);
	T_EQ(pi.qp_id, 0x1234);
	T_EQ(pi.stag_invalid_set, true);
	T_EQ(pi.inv_stag, 0x00c0ffee);
	T_EQ(pi.ud_src_qpn, 0x00c0ffee); /* same bits: UD source QPN */
	T_EQ(pi.ipv4, true);
	T_EQ(pi.solicited_event, true);
	T_EQ(pi.op_type, 0x3f);
	T_EQ(pi.imm_valid, false);
	T_EQ(pi.ud_smac_valid, false);
	T_EQ(pi.ud_vlan_valid, false);
	T_EQ(pi.error, false);
	T_CHECK(pi.qp_handle == &t.qp);

	/* Extended: immediate + SMAC + VLAN (PCP 5, VID 0x123). */
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 1 * t.qp.rq_wqe_size_multiplier, 64);
	c.ext = true;
	c.q[4] = 0x1122334455667788ull; /* upper immediate bits are not reported */
	c.q[6] = ((uint64_t)0xa123 << 48) | 0x021122334455ull;
	c.q[7] = (1ull << 60) | (1ull << 61) | (1ull << 62);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x701);
	T_EQ(pi.imm_valid, true);
	T_EQ(pi.imm_data, 0x55667788);
	T_EQ(pi.ud_vlan_valid, true);
	T_EQ(pi.ud_vlan, 0xa123);
	T_EQ(pi.ud_smac_valid, true);
	T_MEMEQ(pi.ud_smac, mac, 6);
	T_EQ(cq.cq.cq_ring.head, cqe64 ? 2 : 3);
	T_EQ(cq.shadow[0], cq.cq.cq_ring.head);

	/* Extended with only the immediate: SMAC/VLAN not valid. */
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 2 * t.qp.rq_wqe_size_multiplier, 8);
	c.ext = true;
	c.q[4] = 0x42;
	c.q[7] = 1ull << 62;
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x702);
	T_EQ(pi.imm_valid, true);
	T_EQ(pi.imm_data, 0x42);
	T_EQ(pi.ud_vlan_valid, false);
	T_EQ(pi.ud_smac_valid, false);

	/* After an extended CQE a plain one decodes with every extension flag cleared. */
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 3 * t.qp.rq_wqe_size_multiplier, 9);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x703);
	T_EQ(pi.imm_valid, false);
	T_EQ(pi.ud_smac_valid, false);
	T_EQ(pi.ud_vlan_valid, false);
	T_EQ(pi.stag_invalid_set, false);
	T_EQ(poll(&cq, &pi), -ENOENT);
	T_EQ(cq.cq.cq_ring.head, cq.hw_head);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

T_CASE(cqe_fields_32b)
{
	cqe_fields(false);
}

T_CASE(cqe_fields_64b)
{
	cqe_fields(true);
}

/*
 * CQEs that must be consumed but not reported (-EFAULT): NULL context, a QP being destroyed,
 * an SQ WQE index beyond the ring, an RQ index beyond the ring. The SQ/RQ tails do not move.
 */
T_CASE(bad_cqes_efault)
{
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 8, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1 };
	struct irdma_post_rq_info ri = { .wr_id = 0x99 };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct posted p;
	struct irdma_cq_poll_info pi;
	struct ukt_cqe c;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 16, false), 0);
	ukm_sq_init(&m, 2, t.sq_depth, 0, 0);
	p = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1, .signaled = true, .wr_id = 0x98 });
	T_EQ(irdma_uk_post_receive(&t.qp, &ri), 0);

	ukt_cqe_sq(&c, NULL, t.qp.qp_id, p.wqe_idx, 0x03);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), -EFAULT);
	ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, t.sq_depth, 0x03); /* index == ring size */
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), -EFAULT);
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, t.qp.rq_ring.size * t.qp.rq_wqe_size_multiplier, 4);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), -EFAULT);
	t.qp.destroy_pending = true;
	ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, p.wqe_idx, 0x03);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), -EFAULT);
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 0, 4);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), -EFAULT);
	T_EQ(cq.cq.cq_ring.head, 5);
	T_EQ(cq.shadow[0], 5);
	T_EQ(t.qp.sq_ring.tail, 0);
	T_EQ(t.qp.rq_ring.tail, 0);
	t.qp.destroy_pending = false;
	ukt_cqe_sq(&c, &t.qp, t.qp.qp_id, p.wqe_idx, 0x03);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x98);
	ukt_cqe_rq(&c, &t.qp, t.qp.qp_id, 0, 4);
	ukt_cq_hw_write(&cq, &c);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x99);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

/*
 * iWARP (first_sq_wq): with RTS_AE the first 3 SQ quanta belong to the connection messages; the
 * SQ starts at index 3 with polarity 1; their CQEs are consumed silently while the SQ is empty.
 */
T_CASE(iwarp_connection_wqes)
{
	struct ukt_qp_cfg cfg = { .gen = 2, .max_send_wr = 8, .max_recv_wr = 8, .sq_sge = 1,
				  .rq_sge = 1, .qp_type = IRDMA_QP_TYPE_IWARP, .first_sq_wq = true };
	struct ukt_qp t;
	struct ukt_cq cq;
	struct ukm_sq m;
	struct posted p;
	struct irdma_cq_poll_info pi;

	T_EQ(ukt_qp_create(&t, &cfg), 0);
	T_EQ(ukt_cq_create(&cq, 16, false), 0);
	T_EQ(t.qp.conn_wqes, 3);
	T_EQ(t.qp.sq_ring.head, 3);
	T_EQ(t.qp.sq_ring.tail, 3);
	T_EQ(t.qp.swqe_polarity, 1);
	ukm_sq_init(&m, 2, t.sq_depth, 3, 1);
	/* Connection-message completions with an empty SQ: consumed, and the poll goes on. */
	ukt_hw_sq_done(&cq, &t, 0, 0x03);
	ukt_hw_sq_done(&cq, &t, 2, 0x03);
	T_EQ(poll(&cq, &pi), -ENOENT);
	T_EQ(cq.cq.cq_ring.head, 2);
	T_EQ(t.qp.first_sq_wq, false);
	p = post(&t, &m, (struct ukt_wr){ .kind = UKT_SEND, .nsge = 1, .signaled = true, .wr_id = 0x31 });
	T_EQ(p.wqe_idx, 3);
	T_EQ(ukt_sq_hdr(&t, 3) >> 63, 1);
	ukt_hw_sq_done(&cq, &t, 3, 0x03);
	T_EQ(poll(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x31);
	ukt_cq_destroy(&cq);
	ukt_qp_destroy(&t);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
