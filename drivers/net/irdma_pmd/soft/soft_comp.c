/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Send completions. lib/roce reports every send WR it finishes, in SQ order (send_done)
 * and hands READ response data over for placement (read_place); the device marks its WQE
 * and writes data (atomic results, READ data) into the local SGEs with key checks. The
 * oldest WQE's success CQE is written right there, as the response is taken; the rest
 * (WQEs after a local operation still open, errors, a full CQ) afterwards, outside
 * lib/roce's calls, by soft_comp_retire(): strictly in SQ order, one per signaled WQE; the
 * first failed WQE takes the QP to ERR, which writes the error and flush CQEs.
 */
#include <errno.h>

#include "soft_cqe_inl.h"
#include "soft_mr_inl.h"
#include "soft_priv.h"

static inline uint32_t swq_next(const struct soft_qp *qp, uint32_t i)
{
	return i + 1 == qp->sq_depth ? 0 : i + 1;
}

/* enum roce_wc_status (= ibv_wc_status) to the irdma flush code hardware reports. */
uint8_t soft_wc_to_flush(uint8_t st)
{
	switch (st) {
	case ROCE_WC_SUCCESS: return 0;
	case ROCE_WC_LOC_LEN_ERR: return FLUSH_LOC_LEN_ERR;
	case ROCE_WC_LOC_QP_OP_ERR: return FLUSH_LOC_QP_OP_ERR;
	case ROCE_WC_LOC_PROT_ERR: return FLUSH_PROT_ERR;
	case ROCE_WC_WR_FLUSH_ERR: return FLUSH_GENERAL_ERR;
	case ROCE_WC_LOC_ACCESS_ERR: return FLUSH_PROT_ERR;
	case ROCE_WC_REM_INV_REQ_ERR: return FLUSH_REM_INV_REQ_ERR;
	case ROCE_WC_REM_ACCESS_ERR: return FLUSH_REM_ACCESS_ERR;
	case ROCE_WC_REM_OP_ERR: return FLUSH_REM_OP_ERR;
	case ROCE_WC_RETRY_EXC_ERR: return FLUSH_RETRY_EXC_ERR;
	case ROCE_WC_RNR_RETRY_EXC_ERR: return FLUSH_RNR_RETRY_EXC_ERR;
	default: return FLUSH_FATAL_ERR;
	}
}

static struct soft_wqe *wqe_of(struct soft_qp *qp, uint32_t slot)
{
	if (qp->cur_slot != slot) {
		if (soft_sq_decode(qp, qp->swq[slot].idx, &qp->cur) < 0)
			return NULL;
		qp->cur_slot = slot;
	}
	return &qp->cur;
}

int soft_comp_read_place(struct roce_qp *xq, uint64_t wr_id, uint32_t off, const void *data,
			   uint32_t len)
{
	struct soft_qp *qp = xq->user;
	struct soft_wqe *w = wqe_of(qp, (uint32_t)wr_id);
	int e;

	if (w == NULL)
		return -EINVAL;
	e = soft_sges_copy_inl(qp->dev, qp->pd_id, w->sge, w->num_sges, off,
			       (uint8_t *)(uintptr_t)data, len, true);
	return soft_mr_err_roce(e);
}

/* The status of a send WQE lib/roce finished that is not the plain success: the
 * transport's error, a cause the device found, or the local part of a success (an atomic's
 * result into the local SGE, a READ's local invalidate). */
static __rte_noinline uint8_t send_done_status(struct soft_qp *qp, const struct soft_swqe *s,
					       const struct roce_send_done *d)
{
	uint8_t status = likely(d->status == ROCE_WC_SUCCESS) ? 0 : soft_wc_to_flush(d->status);

	if (s->fail)
		status = s->fail;
	if (status == 0 && (s->op == IRDMAQP_OP_ATOMIC_FETCH_ADD ||
			    s->op == IRDMAQP_OP_ATOMIC_COMPARE_SWAP)) {
		struct soft_wqe *w = wqe_of(qp, (uint32_t)d->id);
		uint64_t orig = d->atomic_orig;

		if (w == NULL || soft_sges_copy(qp->dev, qp->pd_id, w->sge, 1, 0,
						(uint8_t *)&orig, 8, true))
			status = FLUSH_PROT_ERR;
	} else if (status == 0 && s->op == IRDMAQP_OP_RDMA_READ_LOC_INV) {
		/* READ with local invalidate: the sink's STag is invalidated once filled */
		struct soft_wqe *w = wqe_of(qp, (uint32_t)d->id);

		if (w == NULL || soft_mr_invalidate(qp->dev, qp->pd_id, qp->id, w->sge[0].stag,
						    false))
			status = FLUSH_PROT_ERR;
	}
	return status;
}

static inline bool send_done_plain(const struct soft_swqe *s, const struct roce_send_done *d)
{
	return d->status == ROCE_WC_SUCCESS && !s->fail &&
	       s->op != IRDMAQP_OP_ATOMIC_FETCH_ADD && s->op != IRDMAQP_OP_ATOMIC_COMPARE_SWAP &&
	       s->op != IRDMAQP_OP_RDMA_READ_LOC_INV;
}

/* soft_comp_send_done() past the common case: any status, a WQE before it still open, an
 * error to apply first, a CQ whose counted room is used up or that is armed. */
static __rte_noinline void send_done_general(struct soft_qp *qp, struct soft_swqe *s,
					     uint32_t slot, const struct roce_send_done *d)
{
	uint8_t status = likely(send_done_plain(s, d)) ? 0 : send_done_status(qp, s, d);

	s->state = SOFT_SWQE_DONE;
	s->status = status;
	if (unlikely(status)) {
		qp->sq_stalled = true;
		return;
	}
	/* The oldest WQE completed: its CQE now, as the response is taken (an ACK that covers
	 * several WRs retires each in turn), with no later pass over the ring. Anything else
	 * (an error to apply first, a WQE before it still open, a full CQ) is left to
	 * soft_comp_retire(). */
	if (likely(slot == qp->swq_done && !qp->wire_err)) {
		if (s->signaled) {
			if (soft_cqe_write_sq_ok_inl(qp->dev, qp->scq, qp->id, qp->compl_ctx,
						     s->op, s->idx) != 0)
				return;
			qp->st.completions++;
			qp->swq_tail = swq_next(qp, slot);
		}
		qp->swq_done = swq_next(qp, slot);
	}
}

/* The common case in a frame without calls (the rest is a tail call away): the oldest WQE
 * done with plain success, its CQE (if signaled) into a slot counted free, CQ not armed. */
void soft_comp_send_done(struct roce_qp *xq, const struct roce_send_done *d)
{
	struct soft_qp *qp = xq->user;
	uint32_t slot = (uint32_t)d->id;
	struct soft_swqe *s = &qp->swq[slot];
	struct soft_cq *cq = qp->scq;

	if (unlikely(!send_done_plain(s, d) || slot != qp->swq_done || qp->wire_err ||
		     (s->signaled && (cq->room == 0 || cq->arm_any)))) {
		send_done_general(qp, s, slot, d);
		return;
	}
	s->state = SOFT_SWQE_DONE;
	s->status = 0;
	if (s->signaled) {
		cq->room--;
		soft_cqe_put_sq_ok(cq, qp->id, qp->compl_ctx, s->op, s->idx);
		qp->st.completions++;
		qp->swq_tail = swq_next(qp, slot);
	}
	qp->swq_done = swq_next(qp, slot);
}

/* Success or error CQE of a send WQE. */
int soft_sq_cqe(struct soft_qp *qp, const struct soft_swqe *s, uint8_t minor, bool error)
{
	struct soft_cqe c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.sq = true;
	c.error = error;
	c.major = error ? IRDMA_FLUSH_MAJOR_ERR : 0;
	c.minor = minor;
	c.op = s->op;
	c.wqe_idx = s->idx;
	c.ctx = qp->compl_ctx;
	c.qp_id = qp->id;
	rc = soft_cqe_write(qp->dev, qp->scq, &c);
	if (rc == 0)
		qp->st.completions++;
	return rc;
}

unsigned int soft_comp_retire(struct soft_qp *qp)
{
	unsigned int n = 0;

	while (qp->swq_done != qp->swq_head) {
		struct soft_swqe *s = &qp->swq[qp->swq_done];

		if (s->state != SOFT_SWQE_DONE)
			break;
		if (s->status) {
			soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, 0);
			return n + 1;
		}
		if (s->signaled) {
			if (soft_sq_cqe(qp, s, 0, false)) {
				soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, 0);
				return n + 1;
			}
			qp->swq_tail = swq_next(qp, qp->swq_done);
		}
		qp->swq_done = swq_next(qp, qp->swq_done);
		n++;
	}
	return n;
}
