/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transmit fast paths for the common case, the way hardware keeps exceptions out of its
 * pipeline: a send WR that goes out at once as one packet (roce_qp_post_send_fast), a
 * plain ACK (roce_qp_tx_ack_fast) and a one-packet READ response (roce_qp_tx_read_fast),
 * written straight from the connection's template into the caller's frame. Each does
 * exactly what the general path (roce_qp_post_send() then roce_qp_tx(),
 * roce_pkt_write_hdrs()) would: the same state change, the same bytes. The rest
 * (segmentation, retransmission, NAKs, RNR, multi-packet READ responses, atomics, UD/UC)
 * stays with the general state machines, which these calls leave to by returning 0.
 */
#include "roce_qp_priv.h"
#include "roce_tmpl_hdr.h"

_Static_assert(sizeof(struct roce_send_wr) % 16 == 0, "roce_copy16n copies the WR whole");
_Static_assert(ROCE_IMMDT_LEN == 4 && ROCE_IETH_LEN == 4 && ROCE_RETH_LEN == 16,
	       "fast_opcode's ext: bit 2 set exactly when an ImmDt or IETH follows");

/* The BTH opcode of a one-packet RC request and the bytes of its extension headers (RETH
 * first, then ImmDt or IETH, as the opcode table lays them out), or 0 for a WR the fast
 * path leaves alone. */
static inline uint8_t fast_opcode(uint8_t op, uint32_t *ext)
{
	switch (op) {
	case ROCE_WR_SEND: *ext = 0; return ROCE_OP_RC_SEND_ONLY;
	case ROCE_WR_SEND_IMM: *ext = ROCE_IMMDT_LEN; return ROCE_OP_RC_SEND_ONLY_IMM;
	case ROCE_WR_SEND_INV: *ext = ROCE_IETH_LEN; return ROCE_OP_RC_SEND_ONLY_INV;
	case ROCE_WR_WRITE: *ext = ROCE_RETH_LEN; return ROCE_OP_RC_WRITE_ONLY;
	case ROCE_WR_WRITE_IMM:
		*ext = ROCE_RETH_LEN + ROCE_IMMDT_LEN;
		return ROCE_OP_RC_WRITE_ONLY_IMM;
	case ROCE_WR_READ: *ext = ROCE_RETH_LEN; return ROCE_OP_RC_READ_REQ;
	default: return 0;
	}
}

int roce_qp_post_send_fast(struct roce_qp *qp, const struct roce_send_wr *wr, uint64_t now,
			   uint16_t *ip_id, uint8_t *buf, size_t cap)
{
	const struct roce_tmpl *t = &qp->tmpl;
	uint32_t psn = qp->req.psn, npkts = 1, paylen, hl, ext;
	struct roce_swqe *w;
	uint8_t op, se = 0;
	uint8_t *e;

	/* Nothing ahead of it: no response waiting (responses go first), nothing queued or
	 * being resent, no RNR wait, room in the ring and in the window. */
	if (qp->type != ROCE_QPT_RC || qp->state != ROCE_QPS_RTS || !t->valid ||
	    qp->req.next != qp->req.tail || qp->resp.jhead != qp->resp.jtail ||
	    qp->req.rnr_wait || psn != qp->req.hi_psn ||
	    qp->req.tail - qp->req.head > qp->req.mask ||
	    roce_psn_diff(psn, qp->req.una) >= (int32_t)qp->max_unacked_psn)
		return 0;
	op = fast_opcode(wr->op, &ext);
	if (op == 0)
		return 0;
	if (op == ROCE_OP_RC_READ_REQ) {
		/* the ORD limit and a fence behind READ/atomics are the general path's (the
		 * others' length is at most a path MTU) */
		if (wr->len > (1u << 31) ||
		    qp->req.rd_atomic >= (qp->max_rd_atomic ? qp->max_rd_atomic : 1) ||
		    (wr->flags & ROCE_WR_F_FENCE))
			return 0;
		npkts = roce_wr_npkts(qp, wr);
		paylen = 0;
	} else {
		if (wr->len > qp->pmtu || ((wr->flags & ROCE_WR_F_FENCE) && qp->req.rd_atomic))
			return 0;
		paylen = wr->len;
		se = (wr->flags & ROCE_WR_F_SOLICITED) && wr->op != ROCE_WR_WRITE ? ROCE_BTH_SE : 0;
	}
	hl = t->bth_off + ROCE_BTH_LEN + ext;
	if (cap < ROCE_TMPL_HDR_MAX || cap < hl + paylen + 3 + ROCE_ICRC_LEN)
		return 0;

	/* The frame: template, then the extension headers this opcode carries. */
	e = roce_tmpl_put(t, buf, op, se, 0, 1, psn, ext, paylen, (*ip_id)++);
	if (ext >= ROCE_RETH_LEN) { /* WRITE, READ */
		roce_put_be64(e, wr->raddr);
		roce_put_be32(e + 8, wr->rkey);
		roce_put_be32(e + 12, wr->len);
		e += ROCE_RETH_LEN;
	}
	if (ext & ROCE_IMMDT_LEN) /* ImmDt, or the IETH's R_Key: the 4 bytes after a RETH */
		roce_put_be32(e, wr->imm);

	/* The requester's state as post + transmit leave it: the WR in the ring, started,
	 * its PSNs assigned (what a retransmission rewinds to), the ACK timer running. */
	w = roce_swqe_at(qp, qp->req.tail);
	roce_copy16n(&w->wr, wr, sizeof(*wr));
	w->first_psn = psn;
	w->last_psn = roce_psn_add(psn, npkts - 1);
	w->done = 0;
	w->orig = 0;
	w->started = 1;
	qp->req.tail++;
	qp->req.next = qp->req.tail;
	qp->req.off = 0;
	qp->req.psn = qp->req.hi_psn = roce_psn_add(psn, npkts);
	qp->req.pkts_no_ackreq = 0;
	if (op == ROCE_OP_RC_READ_REQ)
		qp->req.rd_atomic++;
	if (qp->req.ack_deadline == ROCE_TIME_NEVER && qp->req.ack_timeout_ns != ROCE_TIME_NEVER)
		qp->req.ack_deadline = now + qp->req.ack_timeout_ns;
	qp->stats.tx_pkts++;
	return (int)hl;
}

int roce_qp_tx_ack_fast(struct roce_qp *qp, uint16_t *ip_id, uint8_t *buf, size_t cap)
{
	const struct roce_tmpl *t = &qp->tmpl;
	const struct roce_job *j;
	uint8_t *e;

	uint32_t hl = t->bth_off + ROCE_BTH_LEN + ROCE_AETH_LEN;

	if (qp->resp.jhead == qp->resp.jtail || qp->type != ROCE_QPT_RC || !t->valid ||
	    cap < ROCE_TMPL_HDR_MAX || cap < hl + ROCE_ICRC_LEN)
		return 0;
	j = &qp->resp.jobs[qp->resp.jhead & qp->resp.jmask];
	if (j->type != ROCE_JOB_ACK)
		return 0;
	e = roce_tmpl_put(t, buf, ROCE_OP_RC_ACK, 0, 0, 0, j->psn, ROCE_AETH_LEN, 0, (*ip_id)++);
	e[0] = j->syndrome;
	roce_put_be24(e + 1, j->msn);
	if (j->syndrome == ROCE_SYN_ACK)
		qp->stats.acks_tx++;
	qp->resp.jhead++;
	qp->stats.tx_pkts++;
	return (int)hl;
}

/* The state change is roce_resp_tx()'s and roce_qp_tx()'s for the same job (a READ whose
 * response is one packet), field for field. */
int roce_qp_tx_read_fast(struct roce_qp *qp, uint16_t *ip_id, uint8_t *buf, size_t cap,
			 uint32_t max_pl, struct roce_tx_read *rd)
{
	const struct roce_tmpl *t = &qp->tmpl;
	struct roce_job *j;
	uint32_t len;
	uint8_t *e;

	uint32_t hl = t->bth_off + ROCE_BTH_LEN + ROCE_AETH_LEN;

	if (qp->resp.jhead == qp->resp.jtail || qp->type != ROCE_QPT_RC || !t->valid)
		return 0;
	j = &qp->resp.jobs[qp->resp.jhead & qp->resp.jmask];
	len = j->left;
	if (j->type != ROCE_JOB_READ || j->started || len > qp->pmtu || len > max_pl ||
	    cap < ROCE_TMPL_HDR_MAX || cap < hl + len + 3 + ROCE_ICRC_LEN)
		return 0;
	e = roce_tmpl_put(t, buf, ROCE_OP_RC_READ_RESP_ONLY, 0, 0, 0, j->psn, ROCE_AETH_LEN, len,
			  (*ip_id)++);
	e[0] = ROCE_SYN_ACK;
	roce_put_be24(e + 1, j->msn);
	rd->va = j->va;
	rd->rkey = j->rkey;
	rd->len = len;
	j->va += len;
	j->left = 0;
	j->psn = roce_psn_add(j->psn, 1);
	j->started = 1;
	qp->resp.jhead++;
	qp->stats.tx_pkts++;
	return (int)hl;
}
