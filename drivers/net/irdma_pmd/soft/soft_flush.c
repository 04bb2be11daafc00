/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The error path of a QP: to ERR (once, with its asynchronous event) and the flush of
 * outstanding work with flush CQEs in the way each generation does it: GEN_1/2 write one
 * CQE per ring that software replays, GEN_3 writes one CQE per flushed WQE. The flush is
 * also what the SQ doorbell and qp_modify(ERR) ask for when software posts to a QP in ERR.
 */
#include <string.h>

#include <rte_atomic.h>

#include "soft_priv.h"

void soft_async_event(struct soft_dev *dev, enum irdma_hw_event_type t, uint32_t id, uint16_t ae)
{
	struct irdma_hw_event ev = { .type = t, .id = id, .ae_code = ae };

	if (dev->cfg.async_cb)
		dev->cfg.async_cb(dev->cfg.async_arg, &ev);
}

static inline uint32_t swq_next(const struct soft_qp *qp, uint32_t i)
{
	return i + 1 == qp->sq_depth ? 0 : i + 1;
}

static void rq_flush_cqe(struct soft_qp *qp, const struct soft_rwqe *r, bool from_srq)
{
	struct soft_cqe c;

	memset(&c, 0, sizeof(c));
	c.error = true;
	c.op = IRDMA_OP_TYPE_REC;
	if (from_srq) {
		/* GEN_3 SRQ flush: reserved major, the minor carries an AE code (general). */
		c.major = IRDMA_SRQFLUSH_RSVD_MAJOR_ERR;
		c.minor = 0;
	} else {
		c.major = IRDMA_FLUSH_MAJOR_ERR;
		c.minor = FLUSH_GENERAL_ERR;
	}
	soft_rq_complete(qp, &c, from_srq, r);
}

static void flush_sq(struct soft_qp *qp)
{
	struct soft_swqe *first = NULL;
	uint8_t first_status = 0;
	uint32_t i;

	/* Take every WQE software has posted and the device has not fetched yet. */
	for (;;) {
		struct soft_wqe w;
		struct soft_swqe *s;
		int rc = soft_sq_fetch(qp, &w);

		if (rc == 0)
			break;
		s = &qp->swq[qp->swq_head];
		memset(s, 0, sizeof(*s));
		s->idx = w.idx;
		s->quanta = w.quanta;
		s->op = w.op;
		s->signaled = w.signaled;
		s->state = SOFT_SWQE_DONE;
		s->status = FLUSH_GENERAL_ERR;
		qp->swq_head = swq_next(qp, qp->swq_head);
		soft_sq_consumed(qp, w.quanta);
	}
	for (i = qp->swq_tail; i != qp->swq_head; i = swq_next(qp, i)) {
		struct soft_swqe *s = &qp->swq[i];

		if (s->op == IRDMAQP_OP_NOP)
			continue;
		if (first == NULL)
			first = s;
		if (s->status && s->status != FLUSH_GENERAL_ERR && !first_status)
			first_status = s->status;
		if (qp->dev->gen >= IRDMA_GEN_3 &&
		    soft_sq_cqe(qp, s, s->status ? s->status : FLUSH_GENERAL_ERR, true))
			break;
	}
	/* GEN_1/2: one CQE; lib/uk replays it for every WQE from its SQ tail. */
	if (qp->dev->gen < IRDMA_GEN_3 && first)
		soft_sq_cqe(qp, first, first_status ? first_status : FLUSH_GENERAL_ERR, true);
	qp->swq_tail = qp->swq_done = qp->swq_send = qp->swq_head;
	qp->sq_kick = false;
	qp->sq_stalled = false;
}

/* The receives posted to the QP's own RQ (GEN_1/2: one CQE after @p any, the CQE already
 * written for the receive in progress, if there was one). */
static void flush_rq_posted(struct soft_qp *qp, bool any)
{
	struct soft_rwqe r;
	bool from_srq;

	while (soft_rq_fetch(qp, &r, &from_srq, true) != 0) {
		if (qp->dev->gen >= IRDMA_GEN_3 || !any)
			rq_flush_cqe(qp, &r, false);
		any = true;
	}
}

static void flush_rq(struct soft_qp *qp)
{
	bool any = false;

	if (qp->rctx.active) {
		qp->rctx.active = false;
		rq_flush_cqe(qp, &qp->rctx.rwqe, qp->rctx.from_srq);
		any = true;
	}
	if (qp->srq) {
		/* Posted SRQ entries belong to the SRQ, not to this QP. */
		soft_async_event(qp->dev, IRDMA_HW_EVENT_QP_LAST_WQE, qp->id, 0);
		return;
	}
	flush_rq_posted(qp, any);
}

/* Flushes everything outstanding (the QP is in ERR). Also used as the flush request
 * after software posts to a QP already in error. */
void soft_qp_flush(struct soft_qp *qp)
{
	/* The transport gives back what it holds (send WRs complete flushed). */
	roce_qp_set_error(&qp->xport, ROCE_WC_WR_FLUSH_ERR); /* nothing when already in ERR */
	qp->wire_err = false;
	flush_sq(qp);
	flush_rq(qp);
}

/*
 * The device's own move to ERR (an error completion, a peer's NAK, retries exhausted),
 * from the engine. An RQ has no doorbell: a receive posted after the flush below is
 * flushed only because software, seeing ERR in its state word, asks for it (the flush
 * request, qp_modify to ERR). Software learns of ERR from the event, so a receive posted
 * between this flush and the event would stay in the RQ for ever with no CQE. Hence the
 * second scan, after the event, and the ordering argument (a store-buffer pair: each
 * side writes, a full fence, then reads what the other wrote):
 *   device:   state word ERR (the event; the PMD's CAS)  fence  scan the RQ
 *   software: write the receive WQE                      fence  read the state word
 * In the single total order of the two fences, either the device's comes first and
 * software reads ERR and asks for a flush, or software's comes first and the second scan
 * finds the WQE. Both may happen: the request and this scan serialize on engine_lock and
 * each WQE is fetched once. The receives posted before the first scan complete before the
 * event, as they always did.
 */
void soft_qp_to_error(struct soft_qp *qp, enum irdma_hw_event_type ev, uint16_t ae)
{
	bool was_err = qp->state == IRDMA_HW_QPS_ERR;

	qp->state = IRDMA_HW_QPS_ERR;
	qp->st.errors++;
	soft_qp_flush(qp);
	if (was_err)
		return;
	soft_async_event(qp->dev, ev, qp->id, ae);
	if (qp->srq == NULL) {
		rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
		flush_rq_posted(qp, false);
	}
}
