/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive WQE consumption. No doorbell announces RQ WQEs: the device takes the entry at its
 * RQ head when a message needs one and finds it valid (valid bit = polarity of the pass,
 * acquire, then the fragments). SRQ entries are found the same way; their producer index
 * in the SRQ shadow area is only read for the limit event.
 */
#include <errno.h>

#include "uk_osdep.h"

#include "soft_priv.h"

#define GET(mask, q) IRDMA_FIELD_GET(mask, q)

static int rwqe_decode(uint8_t gen, const uint64_t *wqe, uint64_t hdr, uint32_t max,
		       struct soft_rwqe *r)
{
	uint32_t slots = (uint32_t)GET(IRDMAQPRQ_ADDFRAGCNT, hdr) + 1, i;

	for (i = 0; i < slots; i++) {
		uint32_t off = IRDMA_FRAG_BYTE_OFFSET(i);
		uint64_t q0, q1;

		get_64bit_val(wqe, off, &q0);
		get_64bit_val(wqe, off + 8, &q1);
		r->sge[i].addr = q0;
		if (gen == IRDMA_GEN_1) {
			r->sge[i].len = (uint32_t)GET(IRDMAQPSQ_GEN1_FRAG_LEN, q1);
			r->sge[i].stag = (uint32_t)GET(IRDMAQPSQ_GEN1_FRAG_STAG, q1);
		} else {
			r->sge[i].len = (uint32_t)GET(IRDMAQPRQ_FRAG_LEN, q1);
			r->sge[i].stag = (uint32_t)GET(IRDMAQPRQ_STAG, q1);
		}
	}
	/* GEN_2: the null fragment after an even count is counted in addl. */
	if (gen == IRDMA_GEN_2 && slots > 1 && ((slots - 1) & 1) == 0 &&
	    r->sge[slots - 1].len == 0 && r->sge[slots - 1].stag == 0)
		slots--;
	if (slots > max && !(slots == 1 && r->sge[0].len == 0))
		return -EINVAL;
	r->num_sges = slots;
	r->total_len = 0;
	for (i = 0; i < slots; i++)
		r->total_len += r->sge[i].len;
	return 0;
}

static int srq_fetch(struct soft_qp *qp, struct soft_srq *s, struct soft_rwqe *r, bool take)
{
	const uint64_t *wqe = (const uint64_t *)(s->base + ((size_t)s->head << s->shift) *
								 IRDMA_QP_WQE_MIN_SIZE);
	uint64_t hdr, q2;
	int rc;

	get_64bit_val_acquire(wqe, IRDMA_WQE_HDR_BYTE, &hdr);
	if (GET(IRDMAQPRQ_VALID, hdr) != s->polarity)
		return 0;
	rc = rwqe_decode(qp->dev->gen, wqe, hdr, s->max_frags, r);
	get_64bit_val(wqe, IRDMA_BYTE_16, &q2);
	r->wr_id = GET(IRDMAQPRQ_COMPLCTX, q2);
	r->idx = s->head;
	if (!take)
		return rc ? rc : 1;
	if (++s->head == s->size) {
		s->head = 0;
		s->polarity ^= 1;
	}
	if (s->limit) {
		uint64_t pidx;
		uint32_t avail;

		get_64bit_val_acquire(s->shadow, IRDMA_BYTE_SRQ_SHADOW_PIDX, &pidx);
		avail = (uint32_t)((pidx % s->size) + s->size - s->head) % s->size;
		if (avail < s->limit) {
			s->limit = 0; /* one event per arm */
			soft_async_event(qp->dev, IRDMA_HW_EVENT_SRQ_LIMIT, s->id, 0);
		}
	}
	return rc ? rc : 1;
}

/* The next receive WQE of the QP (RQ or SRQ), taken from the ring when take is set. */
int soft_rq_fetch(struct soft_qp *qp, struct soft_rwqe *r, bool *from_srq, bool take)
{
	const uint64_t *wqe;
	uint64_t hdr;
	int rc;

	*from_srq = qp->srq != NULL;
	if (qp->srq)
		return srq_fetch(qp, qp->srq, r, take);
	wqe = (const uint64_t *)(qp->rq_base + ((size_t)qp->rq_head << qp->rq_shift) *
						       IRDMA_QP_WQE_MIN_SIZE);
	get_64bit_val_acquire(wqe, IRDMA_WQE_HDR_BYTE, &hdr);
	if (GET(IRDMAQPRQ_VALID, hdr) != qp->rq_polarity)
		return 0;
	rc = rwqe_decode(qp->dev->gen, wqe, hdr, qp->max_rq_frags, r);
	r->wr_id = 0;
	r->idx = qp->rq_head;
	if (!take)
		return rc ? rc : 1;
	if (++qp->rq_head == qp->rq_size) {
		qp->rq_head = 0;
		qp->rq_polarity ^= 1;
	}
	return rc ? rc : 1;
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
