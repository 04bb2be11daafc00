/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Execution helpers shared by the requester, responder and completer: checked data
 * movement between packets and SGE lists, completion of send and receive WQEs, the status
 * mapping, and the error path (QP to ERR, flush of outstanding work with flush CQEs in the
 * way each generation does it: GEN_1/2 write one CQE per ring that software replays,
 * GEN_3 writes one CQE per flushed WQE).
 */
#include <errno.h>

#include "roce_icrc.h"

#include "soft_priv.h"
#include "soft_tx_payload.h"

void soft_async_event(struct soft_dev *dev, enum irdma_hw_event_type t, uint32_t id, uint16_t ae)
{
	struct irdma_hw_event ev = { .type = t, .id = id, .ae_code = ae };

	if (dev->cfg.async_cb)
		dev->cfg.async_cb(dev->cfg.async_arg, &ev);
}

/* Local key errors all complete as "local protection" (the irdma flush code PROT). */
uint8_t soft_mr_err_to_flush(enum soft_mr_err e)
{
	return e == SOFT_MR_OK ? 0 : FLUSH_PROT_ERR;
}

enum soft_mr_err soft_sges_check(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
				 uint32_t n, uint32_t access)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint8_t *host;
		enum soft_mr_err e;

		if (sge[i].len == 0)
			continue;
		e = soft_mr_check_local(dev, pd_id, sge[i].stag, sge[i].addr, sge[i].len, access,
					&host);
		if (e)
			return e;
	}
	return SOFT_MR_OK;
}

/*
 * Moves len bytes between a flat buffer and the SGE list, starting at logical offset off
 * of the list. Every SGE piece is checked against the key table right before its bytes
 * move (the region may have been invalidated since the WQE was accepted). With reg !=
 * NULL the bytes are folded into the CRC register *reg as they are copied
 * (roce_crc32_copy: the copies fused with the ICRC, soft_tx_payload.c, soft_rx_fuse.c).
 */
static inline enum soft_mr_err sges_move(struct soft_dev *dev, uint32_t pd_id,
					 const struct soft_sge *sge, uint32_t n, uint64_t off,
					 uint8_t *buf, uint32_t len, bool to_sges, uint32_t *reg)
{
	uint32_t i;

	for (i = 0; i < n && len; i++) {
		uint64_t take;
		uint8_t *host;
		enum soft_mr_err e;

		if (off >= sge[i].len) {
			off -= sge[i].len;
			continue;
		}
		take = sge[i].len - off;
		if (take > len)
			take = len;
		e = soft_mr_check_local(dev, pd_id, sge[i].stag, sge[i].addr + off, take,
					to_sges ? IRDMA_HW_ACCESS_LOCAL_WRITE : 0, &host);
		if (unlikely(e))
			return e;
		if (to_sges && reg != NULL)
			*reg = roce_crc32_copy(*reg, host, buf, take);
		else if (to_sges)
			memcpy(host, buf, take);
		else if (reg != NULL)
			*reg = roce_crc32_copy(*reg, buf, host, take);
		else
			memcpy(buf, host, take);
		buf += take;
		len -= (uint32_t)take;
		off = 0;
	}
	return len ? SOFT_MR_BOUNDS : SOFT_MR_OK;
}

enum soft_mr_err soft_sges_copy(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
				uint32_t n, uint64_t off, uint8_t *buf, uint32_t len,
				bool to_sges)
{
	return sges_move(dev, pd_id, sge, n, off, buf, len, to_sges, NULL);
}

enum soft_mr_err soft_sges_scatter_crc(struct soft_dev *dev, uint32_t pd_id,
				       const struct soft_sge *sge, uint32_t n, uint64_t off,
				       const uint8_t *buf, uint32_t len, uint32_t *reg)
{
	return sges_move(dev, pd_id, sge, n, off, (uint8_t *)(uintptr_t)buf, len, true, reg);
}

enum soft_mr_err soft_sges_gather_crc(struct soft_dev *dev, uint32_t pd_id,
				      const struct soft_sge *sge, uint32_t n, uint64_t off,
				      uint8_t *buf, uint32_t len, uint32_t *reg)
{
	return sges_move(dev, pd_id, sge, n, off, buf, len, false, reg);
}

static inline uint32_t swq_next(const struct soft_qp *qp, uint32_t i)
{
	return i + 1 == qp->sq_depth ? 0 : i + 1;
}

/* Receive completion (success or error) of the WQE r. */
int soft_rq_complete(struct soft_qp *qp, struct soft_cqe *c, bool from_srq,
		     const struct soft_rwqe *r)
{
	int rc;

	c->sq = false;
	c->qp_id = qp->id;
	if (from_srq) {
		c->srq = true;
		c->ctx = r->wr_id;
		c->srq_qp_ctx = qp->compl_ctx;
		c->wqe_idx = r->idx << qp->srq->shift;
	} else {
		c->ctx = qp->compl_ctx;
		c->wqe_idx = r->idx << qp->rq_shift;
	}
	rc = soft_cqe_write(qp->dev, qp->rcq, c);
	if (rc == 0)
		qp->st.completions++;
	return rc;
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

static void flush_rq(struct soft_qp *qp)
{
	struct soft_rwqe r;
	bool from_srq, any = false;

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
	while (soft_rq_fetch(qp, &r, &from_srq, true) != 0) {
		if (qp->dev->gen >= IRDMA_GEN_3 || !any)
			rq_flush_cqe(qp, &r, false);
		any = true;
	}
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

void soft_qp_to_error(struct soft_qp *qp, enum irdma_hw_event_type ev, uint16_t ae)
{
	bool was_err = qp->state == IRDMA_HW_QPS_ERR;

	qp->state = IRDMA_HW_QPS_ERR;
	qp->st.errors++;
	soft_qp_flush(qp);
	if (!was_err)
		soft_async_event(qp->dev, ev, qp->id, ae);
}
