/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RC completer: processes ACKs, NAKs, READ responses and atomic ACKs for our requests,
 * completes send WRs in SQ order and starts go-back-N, RNR waits and retries.
 */
#include <errno.h>

#include "roce_qp_priv.h"

/* First PSN of w whose response has not arrived (READ: after the bytes received). */
static uint32_t first_missing(const struct roce_qp *qp, const struct roce_swqe *w)
{
	if (w->wr.op == ROCE_WR_READ)
		return roce_psn_add(w->first_psn, w->done / qp->pmtu);
	return w->first_psn;
}

/*
 * Retires the head WR and completes it with success: the one place that says how (every
 * path that finishes the head WR comes here, the fast paths included). `next` may have
 * been rewound onto it (go-back-N in progress): then it moves along, and the WR was not
 * counted in rd_atomic. In line: a fast path that has checked next != head and the WR's
 * opcode leaves only the store to head and the rd_atomic count it needs.
 */
static inline __attribute__((always_inline)) void complete_head(struct roce_qp *qp,
								struct roce_swqe *w)
{
	if (qp->req.next == qp->req.head) {
		uint32_t after = roce_psn_add(w->last_psn, 1);

		/* Keep (next, psn) consistent: the next packet is the next WR's first. */
		qp->req.next++;
		qp->req.off = 0;
		if (roce_psn_lt(qp->req.psn, after))
			qp->req.psn = after;
	} else if (roce_wr_is_rd_atomic(w->wr.op)) {
		qp->req.rd_atomic--;
	}
	qp->req.head++;
	roce_send_complete(qp, w, ROCE_WC_SUCCESS);
}

/*
 * Implicit acknowledgement of every PSN <= psn: completes SEND/WRITE WRs in order and
 * stops at a READ/atomic WR. Returns 1 when that WR's missing response PSN is <= psn,
 * i.e. the responder moved past it and its response was lost.
 */
static int ack_upto(struct roce_qp *qp, uint32_t psn)
{
	while (qp->req.head != qp->req.tail) {
		struct roce_swqe *w = roce_swqe_at(qp, qp->req.head);

		if (!w->started)
			return 0;
		if (roce_wr_is_rd_atomic(w->wr.op))
			return roce_psn_le(first_missing(qp, w), psn);
		if (!roce_psn_le(w->last_psn, psn))
			return 0;
		complete_head(qp, w);
	}
	return 0;
}

/* Oldest unacknowledged PSN once everything <= psn is acknowledged. */
static uint32_t una_after(struct roce_qp *qp, uint32_t psn)
{
	if (qp->req.head != qp->req.tail) {
		struct roce_swqe *w = roce_swqe_at(qp, qp->req.head);

		if (w->started && roce_wr_is_rd_atomic(w->wr.op) &&
		    roce_psn_le(first_missing(qp, w), psn))
			return first_missing(qp, w);
	}
	return roce_psn_add(psn, 1);
}

/* Records progress: retry budgets refill and the ACK timer restarts. */
static void advance(struct roce_qp *qp, uint32_t una, uint64_t now)
{
	if (roce_psn_lt(qp->req.una, una)) {
		qp->req.una = una;
		qp->req.retry_left = qp->retry_cnt;
		qp->req.rnr_left = qp->rnr_retry;
		qp->req.nak_active = 0;
		qp->req.rnr_episode = 0;
		qp->req.ack_deadline = ROCE_TIME_NEVER;
	}
	/* An ACK may cover packets a rewind was about to send again. */
	if (roce_psn_lt(qp->req.psn, qp->req.una))
		roce_req_rewind(qp, qp->req.una);
	if (roce_psn_lt(qp->req.una, qp->req.psn)) {
		if (qp->req.ack_deadline == ROCE_TIME_NEVER &&
		    qp->req.ack_timeout_ns != ROCE_TIME_NEVER)
			qp->req.ack_deadline = now + qp->req.ack_timeout_ns;
	} else {
		qp->req.ack_deadline = ROCE_TIME_NEVER;
	}
}

/* Decrements the transport retry budget; fails the head WR when it is spent (1). */
static int use_retry(struct roce_qp *qp)
{
	if (qp->retry_cnt == 7 && (qp->flags & ROCE_QP_F_RETRY7_INFINITE))
		return 0;
	if (!qp->req.retry_left) {
		roce_req_fail(qp, ROCE_WC_RETRY_EXC_ERR);
		return 1;
	}
	qp->req.retry_left--;
	return 0;
}

/* Go-back-N from psn, once per episode. */
static void go_back(struct roce_qp *qp, uint32_t psn)
{
	if (qp->req.nak_active && qp->req.nak_psn == psn)
		return;
	if (use_retry(qp))
		return;
	qp->req.nak_active = 1;
	qp->req.nak_psn = psn;
	qp->req.ack_deadline = ROCE_TIME_NEVER;
	roce_req_rewind(qp, psn);
}

static uint8_t nak_status(uint8_t syndrome)
{
	switch (syndrome) {
	case ROCE_SYN_NAK_INV_REQ:
		return ROCE_WC_REM_INV_REQ_ERR;
	case ROCE_SYN_NAK_REM_ACC:
		return ROCE_WC_REM_ACCESS_ERR;
	default:
		return ROCE_WC_REM_OP_ERR;
	}
}

static enum roce_reason on_ack(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t p = pkt->psn;
	uint8_t syn = pkt->aeth.syndrome;
	uint32_t prev = roce_psn_add(p, ROCE_PSN_MASK); /* p - 1 */
	int lost;

	/* Only PSNs we have sent can be acknowledged. */
	if (!roce_psn_lt(p, qp->req.hi_psn))
		return roce_drop(qp, ROCE_R_RESP_PSN);

	switch (syn & ROCE_AETH_TYPE_MASK) {
	case ROCE_AETH_ACK:
		if (roce_psn_lt(p, roce_psn_add(qp->req.una, ROCE_PSN_MASK)))
			return roce_drop(qp, ROCE_R_RESP_PSN); /* stale */
		qp->stats.acks_rx++;
		lost = ack_upto(qp, p);
		advance(qp, una_after(qp, p), now);
		if (lost) {
			qp->stats.implicit_naks++;
			go_back(qp, qp->req.una);
		}
		return ROCE_R_OK;

	case ROCE_AETH_RNR_NAK:
		if (roce_psn_lt(p, qp->req.una))
			return roce_drop(qp, ROCE_R_RESP_PSN);
		qp->stats.rnr_naks_rx++;
		lost = ack_upto(qp, prev);
		advance(qp, una_after(qp, prev), now);
		if (lost) {
			/* A READ/atomic response before p went missing: resend from it. */
			qp->stats.implicit_naks++;
			go_back(qp, qp->req.una);
			return ROCE_R_OK;
		}
		if (qp->req.rnr_wait && qp->req.nak_psn == p)
			return ROCE_R_OK; /* same episode */
		if (qp->rnr_retry != 7) {
			if (!qp->req.rnr_left) {
				roce_req_fail(qp, ROCE_WC_RNR_RETRY_EXC_ERR);
				return ROCE_R_OK;
			}
			qp->req.rnr_left--;
		}
		roce_req_rewind(qp, p);
		qp->req.rnr_wait = 1;
		qp->req.rnr_deadline = now + roce_rnr_timer_ns(syn & ROCE_AETH_VALUE_MASK);
		qp->req.ack_deadline = ROCE_TIME_NEVER;
		qp->req.nak_active = 0;
		qp->req.nak_psn = p;
		qp->req.rnr_episode = 1;
		qp->req.rnr_psn = p;
		return ROCE_R_OK;

	case ROCE_AETH_NAK:
		if (roce_psn_lt(p, qp->req.una))
			return roce_drop(qp, ROCE_R_RESP_PSN);
		lost = ack_upto(qp, prev);
		advance(qp, una_after(qp, prev), now);
		if (syn == ROCE_SYN_NAK_PSN_SEQ) {
			qp->stats.seq_naks_rx++;
			if (lost) {
				/* The gap is a READ/atomic response: resend from that request,
				 * not from p (p is past it). */
				qp->stats.implicit_naks++;
				go_back(qp, qp->req.una);
				return ROCE_R_OK;
			}
			/*
			 * A responder that RNR-NAKed p NAKs the packets after p out of sequence,
			 * naming p again, also after the wait, when the resend from p is already
			 * under way (seen with rxe). Those NAKs belong to the RNR episode: the resend
			 * covers them and they must not spend the transport retry budget, which only
			 * progress refills (with rnr_retry = 7 the QP would fail RETRY_EXC_ERR).
			 * A resend that is truly lost is recovered by the ACK timer.
			 */
			if ((qp->req.rnr_wait && qp->req.nak_psn == p) ||
			    (qp->req.rnr_episode && qp->req.rnr_psn == p))
				return ROCE_R_OK;
			go_back(qp, p);
			return ROCE_R_OK;
		}
		qp->stats.err_naks_rx++;
		roce_req_fail(qp, nak_status(syn));
		return ROCE_R_OK;

	default:
		return roce_drop(qp, ROCE_R_RESP_UNEXPECTED);
	}
}

/* The head WR for a READ response / atomic ACK at psn p, after implicit ACKs below p. */
static struct roce_swqe *resp_target(struct roce_qp *qp, uint32_t p, enum roce_reason *reason,
				     uint64_t now)
{
	uint32_t prev = roce_psn_add(p, ROCE_PSN_MASK);
	struct roce_swqe *w;

	if (!roce_psn_lt(p, qp->req.hi_psn)) {
		*reason = ROCE_R_RESP_PSN;
		return NULL;
	}
	if (roce_psn_lt(p, qp->req.una)) {
		*reason = ROCE_R_RESP_PSN; /* duplicate */
		return NULL;
	}
	/* A response at p implies the responder executed everything before it. */
	ack_upto(qp, prev);
	advance(qp, una_after(qp, prev), now);
	if (qp->req.head == qp->req.tail) {
		*reason = ROCE_R_RESP_UNEXPECTED;
		return NULL;
	}
	w = roce_swqe_at(qp, qp->req.head);
	if (!w->started) {
		*reason = ROCE_R_RESP_UNEXPECTED;
		return NULL;
	}
	return w;
}

static enum roce_reason on_read_resp(struct roce_qp *qp, const struct roce_pkt *pkt,
				     uint64_t now)
{
	uint32_t f = pkt->oi->flags, p = pkt->psn, left, seg;
	struct roce_swqe *w;
	enum roce_reason reason = ROCE_R_OK;
	int r, final;

	w = resp_target(qp, p, &reason, now);
	if (!w)
		return roce_drop(qp, reason);
	if (w->wr.op != ROCE_WR_READ) {
		if (roce_psn_le(w->first_psn, p) && roce_psn_le(p, w->last_psn)) {
			roce_req_fail(qp, ROCE_WC_BAD_RESP_ERR);
			return roce_drop(qp, ROCE_R_RESP_UNEXPECTED);
		}
		return roce_drop(qp, ROCE_R_RESP_PSN); /* a gap: the timer recovers */
	}
	if (p != first_missing(qp, w))
		return roce_drop(qp, ROCE_R_RESP_PSN);
	left = w->wr.len - w->done;
	seg = left < qp->pmtu ? left : qp->pmtu;
	final = left <= qp->pmtu;
	/* Position and size must fit what is still expected; the opcode's FIRST/MIDDLE
	 * distinction is not checked because a resumed READ may restart with either. */
	if (!!(f & ROCE_OPF_LAST) != final || pkt->paylen != seg ||
	    ((f & ROCE_OPF_AETH) &&
	     (pkt->aeth.syndrome & ROCE_AETH_TYPE_MASK) != ROCE_AETH_ACK)) {
		roce_req_fail(qp, ROCE_WC_BAD_RESP_ERR);
		return roce_drop(qp, ROCE_R_RESP_UNEXPECTED);
	}
	if (seg) {
		r = qp->ops->read_place(qp, w->wr.id, w->done, pkt->payload, seg);
		if (unlikely(r)) {
			roce_req_fail(qp, r == -EACCES ? ROCE_WC_LOC_PROT_ERR : ROCE_WC_LOC_ACCESS_ERR);
			return ROCE_R_OK;
		}
	}
	w->done += seg;
	if (final)
		complete_head(qp, w);
	advance(qp, roce_psn_add(p, 1), now);
	return ROCE_R_OK;
}

static enum roce_reason on_atomic_ack(struct roce_qp *qp, const struct roce_pkt *pkt,
				      uint64_t now)
{
	uint32_t p = pkt->psn;
	struct roce_swqe *w;
	enum roce_reason reason = ROCE_R_OK;

	w = resp_target(qp, p, &reason, now);
	if (!w)
		return roce_drop(qp, reason);
	if (w->wr.op != ROCE_WR_CMP_SWAP && w->wr.op != ROCE_WR_FETCH_ADD) {
		if (roce_psn_le(w->first_psn, p) && roce_psn_le(p, w->last_psn)) {
			roce_req_fail(qp, ROCE_WC_BAD_RESP_ERR);
			return roce_drop(qp, ROCE_R_RESP_UNEXPECTED);
		}
		return roce_drop(qp, ROCE_R_RESP_PSN);
	}
	if (p != w->first_psn)
		return roce_drop(qp, ROCE_R_RESP_PSN);
	if ((pkt->aeth.syndrome & ROCE_AETH_TYPE_MASK) != ROCE_AETH_ACK) {
		roce_req_fail(qp, ROCE_WC_BAD_RESP_ERR);
		return roce_drop(qp, ROCE_R_RESP_UNEXPECTED);
	}
	w->orig = pkt->atmack;
	complete_head(qp, w);
	advance(qp, roce_psn_add(p, 1), now);
	return ROCE_R_OK;
}

/*
 * The common ACK, in line: a positive ACK of exactly the head WR's last PSN, a SEND or
 * WRITE sent and not being resent (next is past it). on_ack() would retire it (ack_upto:
 * the WR after it starts at p + 1, so it neither completes nor counts as lost), find the
 * oldest unacknowledged PSN p + 1 (una_after) and advance; this does the same, in the
 * same order. Returns 1 when it took the ACK, 0 for on_ack().
 */
static inline int ack_fast(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t p = pkt->psn, h = qp->req.head;
	struct roce_swqe *w;

	if ((pkt->aeth.syndrome & ROCE_AETH_TYPE_MASK) != ROCE_AETH_ACK || h == qp->req.tail ||
	    h == qp->req.next)
		return 0;
	w = roce_swqe_at(qp, h);
	if (w->last_psn != p || !w->started || roce_wr_is_rd_atomic(w->wr.op) ||
	    !roce_psn_lt(p, qp->req.hi_psn) ||
	    roce_psn_lt(p, roce_psn_add(qp->req.una, ROCE_PSN_MASK)))
		return 0;
	qp->stats.acks_rx++;
	complete_head(qp, w);
	advance(qp, roce_psn_add(p, 1), now);
	return 1;
}

/*
 * The common READ response, in line: READ RESPONSE ONLY (positive AETH) at exactly the
 * head READ's PSN, none of it received, the whole length in it, una at that PSN and
 * nothing being resent. on_read_resp() would find nothing to acknowledge before p
 * (resp_target: the head is this READ; advance(p) moves nothing), place the data,
 * retire and complete the WR and advance to p + 1; this does the same, in the same
 * order. Returns 1 when it took the packet (*rc the result), 0 for on_read_resp().
 */
static inline int read_resp_fast(struct roce_qp *qp, const struct roce_pkt *pkt,
				 uint64_t now, enum roce_reason *rc)
{
	uint32_t p = pkt->psn, h = qp->req.head, n = pkt->paylen;
	struct roce_swqe *w;
	int r;

	if (pkt->opcode != ROCE_OP_RC_READ_RESP_ONLY ||
	    (pkt->aeth.syndrome & ROCE_AETH_TYPE_MASK) != ROCE_AETH_ACK ||
	    h == qp->req.tail || h == qp->req.next || p != qp->req.una ||
	    !roce_psn_lt(p, qp->req.hi_psn) || roce_psn_lt(qp->req.psn, p))
		return 0;
	w = roce_swqe_at(qp, h);
	if (w->first_psn != p || !w->started || w->wr.op != ROCE_WR_READ || w->done != 0 ||
	    w->wr.len != n || n > qp->pmtu)
		return 0;
	if (n) {
		r = qp->ops->read_place(qp, w->wr.id, 0, pkt->payload, n);
		if (unlikely(r)) {
			advance(qp, p, now); /* what resp_target() did before the placement */
			roce_req_fail(qp, r == -EACCES ? ROCE_WC_LOC_PROT_ERR : ROCE_WC_LOC_ACCESS_ERR);
			*rc = ROCE_R_OK;
			return 1;
		}
	}
	w->done = n;
	complete_head(qp, w);
	advance(qp, roce_psn_add(p, 1), now);
	*rc = ROCE_R_OK;
	return 1;
}

static enum roce_reason comp_rx_general(struct roce_qp *qp, const struct roce_pkt *pkt,
				       uint64_t now);

/* A READ response: its fast path, in a frame of its own (the ACK's stays small). */
__attribute__((noinline)) static enum roce_reason
comp_rx_read(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	enum roce_reason rc;

	if (read_resp_fast(qp, pkt, now, &rc))
		return rc;
	return comp_rx_general(qp, pkt, now);
}

/* The fast paths first, in frames of their own (as roce_resp_rx). */
enum roce_reason roce_comp_rx(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t f = pkt->oi->flags;

	if (likely(qp->type == ROCE_QPT_RC)) {
		if (likely(f & ROCE_OPF_ACK) && ack_fast(qp, pkt, now))
			return ROCE_R_OK;
		if (f & ROCE_OPF_READ)
			return comp_rx_read(qp, pkt, now);
	}
	return comp_rx_general(qp, pkt, now);
}

__attribute__((noinline)) static enum roce_reason
comp_rx_general(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t f = pkt->oi->flags;

	if (unlikely(qp->type != ROCE_QPT_RC))
		return roce_drop(qp, ROCE_R_TRANSPORT);
	if (f & ROCE_OPF_ACK)
		return on_ack(qp, pkt, now);
	if (f & ROCE_OPF_READ)
		return on_read_resp(qp, pkt, now);
	if (f & ROCE_OPF_ATOMIC)
		return on_atomic_ack(qp, pkt, now);
	return roce_drop(qp, ROCE_R_RESP_UNEXPECTED);
}
