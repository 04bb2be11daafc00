/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RC/UC requester: turns send WRs into request packets. PSNs are assigned in SQ order,
 * messages are segmented by path MTU, AckReq is set on every last/only packet and every
 * 64th packet of a long message (as rxe), and go-back-N rewinds to any PSN.
 */
#include "roce_qp_priv.h"

void roce_req_reset(struct roce_qp *qp)
{
	qp->req.head = qp->req.next = qp->req.tail = 0;
	qp->req.off = 0;
	qp->req.psn = qp->req.una = qp->req.hi_psn = 0;
	qp->req.rd_atomic = 0;
	qp->req.pkts_no_ackreq = 0;
	qp->req.retry_left = qp->retry_cnt;
	qp->req.rnr_left = qp->rnr_retry;
	qp->req.nak_active = 0;
	qp->req.rnr_wait = 0;
	qp->req.rnr_episode = 0;
	qp->req.ack_deadline = ROCE_TIME_NEVER;
	qp->req.rnr_deadline = ROCE_TIME_NEVER;
}

/*
 * Positions the requester so that the next packet sent has PSN psn: the WR whose PSN
 * range holds it becomes `next` (a READ resumes after the response bytes received, a
 * SEND/WRITE at the matching segment). A PSN past every started WR moves to the first
 * WR not started yet.
 */
void roce_req_rewind(struct roce_qp *qp, uint32_t psn)
{
	uint32_t i, n = 0;

	/* Never before the oldest outstanding WR (its earlier PSNs are acknowledged). */
	if (qp->req.head != qp->req.tail) {
		struct roce_swqe *h = roce_swqe_at(qp, qp->req.head);
		uint32_t first = h->first_psn;

		if (h->wr.op == ROCE_WR_READ)
			first = roce_psn_add(first, h->done / qp->pmtu);
		if (h->started && roce_psn_lt(psn, first))
			psn = first;
	}
	for (i = qp->req.head; i != qp->req.tail; i++) {
		struct roce_swqe *w = roce_swqe_at(qp, i);

		if (!w->started || roce_psn_lt(psn, w->first_psn))
			break;
		if (roce_psn_le(psn, w->last_psn)) {
			qp->req.off = w->wr.op == ROCE_WR_READ ?
					      0 : (uint32_t)roce_psn_diff(psn, w->first_psn) * qp->pmtu;
			goto found;
		}
		n += roce_wr_is_rd_atomic(w->wr.op);
	}
	qp->req.off = 0;
found:
	qp->req.next = i;
	qp->req.psn = psn;
	qp->req.rd_atomic = (uint16_t)n;
	qp->req.pkts_no_ackreq = 0;
}

/* UD/UC: WRs before `next` have been handed out whole; they complete now. */
void roce_req_complete_sent(struct roce_qp *qp)
{
	while (qp->req.head != qp->req.next) {
		struct roce_swqe *w = roce_swqe_at(qp, qp->req.head);

		qp->req.head++;
		roce_send_complete(qp, w, ROCE_WC_SUCCESS);
	}
}

void roce_req_fail(struct roce_qp *qp, uint8_t status)
{
	if (qp->req.head != qp->req.tail) {
		struct roce_swqe *w = roce_swqe_at(qp, qp->req.head);

		qp->req.head++;
		roce_send_complete(qp, w, status);
	}
	roce_qp_set_error(qp, status);
}

static uint8_t send_opcode(uint8_t op, int first, int last)
{
	if (first && last)
		return op == ROCE_WR_SEND_IMM ? ROCE_OP_RC_SEND_ONLY_IMM :
		       op == ROCE_WR_SEND_INV ? ROCE_OP_RC_SEND_ONLY_INV : ROCE_OP_RC_SEND_ONLY;
	if (first)
		return ROCE_OP_RC_SEND_FIRST;
	if (last)
		return op == ROCE_WR_SEND_IMM ? ROCE_OP_RC_SEND_LAST_IMM :
		       op == ROCE_WR_SEND_INV ? ROCE_OP_RC_SEND_LAST_INV : ROCE_OP_RC_SEND_LAST;
	return ROCE_OP_RC_SEND_MIDDLE;
}

static uint8_t write_opcode(uint8_t op, int first, int last)
{
	if (first && last)
		return op == ROCE_WR_WRITE_IMM ? ROCE_OP_RC_WRITE_ONLY_IMM : ROCE_OP_RC_WRITE_ONLY;
	if (first)
		return ROCE_OP_RC_WRITE_FIRST;
	if (last)
		return op == ROCE_WR_WRITE_IMM ? ROCE_OP_RC_WRITE_LAST_IMM : ROCE_OP_RC_WRITE_LAST;
	return ROCE_OP_RC_WRITE_MIDDLE;
}

/* Builds one SEND/WRITE segment of w at the current offset. */
static void tx_segment(struct roce_qp *qp, struct roce_swqe *w, struct roce_tx *tx, int rc)
{
	const struct roce_send_wr *wr = &w->wr;
	uint32_t left = wr->len - qp->req.off;
	uint32_t seg = left < qp->pmtu ? left : qp->pmtu;
	int first = qp->req.off == 0, last = seg == left;
	int is_send = wr->op <= ROCE_WR_SEND_INV;
	uint8_t op = is_send ? send_opcode(wr->op, first, last) : write_opcode(wr->op, first, last);
	struct roce_pkt *p = &tx->pkt;

	if (!rc)
		op |= ROCE_TRANSPORT_UC;
	roce_tx_init(qp, tx, &qp->av, op, qp->dest_qpn, qp->req.psn);
	if (!is_send && first) {
		p->reth.va = wr->raddr;
		p->reth.rkey = wr->rkey;
		p->reth.len = wr->len;
	}
	if (last) {
		p->imm = wr->imm;
		p->ieth = wr->imm;
		p->se = (wr->flags & ROCE_WR_F_SOLICITED) &&
			(is_send || wr->op == ROCE_WR_WRITE_IMM);
	}
	if (rc && (last || ++qp->req.pkts_no_ackreq >= ROCE_MAX_PKT_PER_ACK)) {
		p->ackreq = 1;
		qp->req.pkts_no_ackreq = 0;
	}
	tx->pl_src = seg ? ROCE_PL_SQ : ROCE_PL_NONE;
	tx->wr_id = wr->id;
	tx->offset = qp->req.off;
	p->paylen = seg;
	qp->req.psn = roce_psn_add(qp->req.psn, 1);
	qp->req.off += seg;
	if (last) {
		qp->req.next++;
		qp->req.off = 0;
	}
}

int roce_req_tx(struct roce_qp *qp, uint64_t now, struct roce_tx *tx)
{
	struct roce_swqe *w;
	uint32_t psn = qp->req.psn;
	int rc = qp->type == ROCE_QPT_RC;

	if (qp->req.rnr_wait) {
		if (now < qp->req.rnr_deadline)
			return 0;
		qp->req.rnr_wait = 0;
	}
	if (qp->req.next == qp->req.tail)
		return 0;
	w = roce_swqe_at(qp, qp->req.next);
	if (rc && roce_psn_diff(psn, qp->req.una) >= (int32_t)qp->max_unacked_psn)
		return 0;
	if (qp->req.off == 0 && !(w->wr.op == ROCE_WR_READ && w->done)) {
		/* Beginning a WR: ordering rules first. */
		if (qp->state == ROCE_QPS_SQD && !w->started)
			return 0;
		if (roce_wr_is_rd_atomic(w->wr.op) &&
		    qp->req.rd_atomic >= (qp->max_rd_atomic ? qp->max_rd_atomic : 1))
			return 0;
		if ((w->wr.flags & ROCE_WR_F_FENCE) && qp->req.rd_atomic)
			return 0;
		w->first_psn = psn;
		w->last_psn = roce_psn_add(psn, roce_wr_npkts(qp, &w->wr) - 1);
		w->started = 1;
	}

	switch (w->wr.op) {
	case ROCE_WR_READ:
		roce_tx_init(qp, tx, &qp->av, ROCE_OP_RC_READ_REQ, qp->dest_qpn, psn);
		tx->pkt.reth.va = w->wr.raddr + w->done;
		tx->pkt.reth.rkey = w->wr.rkey;
		tx->pkt.reth.len = w->wr.len - w->done;
		tx->pkt.ackreq = 1;
		qp->req.psn = roce_psn_add(w->last_psn, 1);
		qp->req.next++;
		qp->req.rd_atomic++;
		qp->req.pkts_no_ackreq = 0;
		break;
	case ROCE_WR_CMP_SWAP:
	case ROCE_WR_FETCH_ADD:
		roce_tx_init(qp, tx, &qp->av,
			     w->wr.op == ROCE_WR_CMP_SWAP ? ROCE_OP_RC_CMP_SWAP : ROCE_OP_RC_FETCH_ADD,
			     qp->dest_qpn, psn);
		tx->pkt.atmeth.va = w->wr.raddr;
		tx->pkt.atmeth.rkey = w->wr.rkey;
		tx->pkt.atmeth.swap_add = w->wr.swap_add;
		tx->pkt.atmeth.cmp = w->wr.op == ROCE_WR_CMP_SWAP ? w->wr.cmp : 0;
		tx->pkt.ackreq = 1;
		qp->req.psn = roce_psn_add(psn, 1);
		qp->req.next++;
		qp->req.rd_atomic++;
		qp->req.pkts_no_ackreq = 0;
		break;
	default:
		tx_segment(qp, w, tx, rc);
		break;
	}

	if (roce_psn_lt(psn, qp->req.hi_psn)) {
		tx->retransmit = 1;
		qp->stats.retransmits++;
	}
	if (roce_psn_lt(qp->req.hi_psn, qp->req.psn))
		qp->req.hi_psn = qp->req.psn;
	if (rc && qp->req.ack_deadline == ROCE_TIME_NEVER &&
	    qp->req.ack_timeout_ns != ROCE_TIME_NEVER)
		qp->req.ack_deadline = now + qp->req.ack_timeout_ns;
	return 1;
}

void roce_req_timer(struct roce_qp *qp, uint64_t now)
{
	if (qp->req.rnr_wait) {
		if (now >= qp->req.rnr_deadline)
			qp->req.rnr_wait = 0; /* the resend re-arms the ACK timer */
		return;
	}
	if (qp->req.ack_deadline == ROCE_TIME_NEVER || now < qp->req.ack_deadline)
		return;
	qp->req.ack_deadline = ROCE_TIME_NEVER;
	/* Outstanding: sent (below hi_psn) and not acknowledged. Not "below psn": after a rewind
	 * whose resend could not leave yet, psn is back at una. The timer runs on from here, not
	 * from the resend, so a resend that cannot leave (the port takes nothing while the peer
	 * is gone) still ends in RETRY_EXC_ERR (found by tests/wire peer_killed: the QP waited
	 * forever with its resend stuck behind a full transmit backlog). */
	if (!roce_psn_lt(qp->req.una, qp->req.hi_psn))
		return; /* nothing outstanding */
	qp->req.ack_deadline = now + qp->req.ack_timeout_ns;
	qp->stats.timeouts++;
	if (!qp->req.retry_left &&
	    !(qp->retry_cnt == 7 && (qp->flags & ROCE_QP_F_RETRY7_INFINITE))) {
		roce_req_fail(qp, ROCE_WC_RETRY_EXC_ERR);
		return;
	}
	if (qp->req.retry_left && !(qp->retry_cnt == 7 && (qp->flags & ROCE_QP_F_RETRY7_INFINITE)))
		qp->req.retry_left--;
	qp->req.nak_active = 0;
	roce_req_rewind(qp, qp->req.una);
}
