/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fast paths into a frame (soft_transport.c's binding to lib/roce's
 * roce_qp_post_send_fast and roce_qp_tx_ack_fast), inline where they run once per WQE
 * (the front end's fast path, soft_req.c) or per visit of a QP (soft_engine.c): no call
 * and no register saves of their own.
 */
#ifndef SOFT_XPORT_FAST_H
#define SOFT_XPORT_FAST_H

#include "soft_priv.h"

unsigned int soft_xport_tx_from(struct soft_qp *qp, struct rte_mbuf *m, uint16_t *ip_id,
				unsigned int budget, uint64_t now);
int soft_xport_fast_payload(struct soft_qp *qp, struct rte_mbuf *m, uint32_t slot, uint8_t *pay,
			    uint32_t len);

/*
 * The requester's fast path: send WQE swq[slot] (its lib/roce WR in wr) straight into a
 * frame when lib/roce says it is the common case (roce_qp_post_send_fast): template,
 * payload, ICRC, backlog, no roce_tx in between. 1: posted (sent, or failed with the QP
 * to ERR as the general path does); 0: not the common case, nothing changed.
 */
static __rte_always_inline int soft_xport_post_fast_inl(struct soft_qp *qp, uint32_t slot,
						     const struct roce_send_wr *wr,
						     uint64_t now)
{
	struct soft_dev *dev = qp->dev;
	uint32_t len = wr->op == ROCE_WR_READ ? 0 : wr->len;
	struct rte_mbuf *m;
	uint16_t *ip_id;
	uint8_t *buf;
	int hl;

	if (!qp->xport.tmpl.valid)
		return 0;
	m = soft_wire_frame(dev, &ip_id);
	if (unlikely(m == NULL))
		return 0;
	buf = rte_pktmbuf_mtod(m, uint8_t *);
	hl = roce_qp_post_send_fast(&qp->xport, wr, now, ip_id, buf, rte_pktmbuf_tailroom(m));
	if (hl <= 0) {
		soft_wire_mbuf_unget(dev, m);
		return 0;
	}
	if (len) {
		const struct soft_swqe *s = &qp->swq[slot];

		if (likely(s->inl && len <= s->inline_len)) { /* the fast front end's case */
			const uint8_t *wqe = soft_sq_wqe_at(qp, s->idx);

			if (len <= IRDMA_INLINE_FIRST_CHUNK && qp->dev->gen != IRDMA_GEN_1)
				soft_copy8(buf + hl, wqe + IRDMA_INLINE_FIRST_CHUNK, len);
			else
				soft_sq_inline_copy(qp, wqe, 0, buf + hl, len);
		} else if (soft_xport_fast_payload(qp, m, slot, buf + hl, len) != 0) {
			return 1;
		}
	}
	soft_wire_send_tmpl(dev, m, &qp->xport.tmpl, (uint32_t)hl + len, len);
	qp->st.tx_packets++;
	qp->st.tx_bytes += len;
	return 1;
}

/*
 * Frames the transport wants to send now (the engine's visit of a QP, soft_engine.c):
 * a plain ACK first, the responder's one frame of most visits, inline; whatever else,
 * and the frames after it, through soft_xport_tx_from(). *more: lib/roce still wants to
 * send (roce_qp_wants_tx after the last frame).
 */
static __rte_always_inline unsigned int soft_xport_tx(struct soft_qp *qp, unsigned int budget,
						      uint64_t now, bool *more)
{
	struct soft_dev *dev = qp->dev;
	unsigned int sent;
	struct rte_mbuf *m;
	uint16_t *ip_id;
	int hl;

	if (budget == 0) /* a constant where it is inlined */
		goto out;
	m = soft_wire_frame(dev, &ip_id);
	if (unlikely(m == NULL))
		goto out; /* no room (the next step pushes), or lost like on a wire */
	hl = roce_qp_tx_ack_fast(&qp->xport, ip_id, rte_pktmbuf_mtod(m, uint8_t *),
				 rte_pktmbuf_tailroom(m));
	if (hl <= 0) {
		sent = soft_xport_tx_from(qp, m, ip_id, budget, now);
		*more = roce_qp_wants_tx(&qp->xport, now);
		return sent;
	}
	soft_wire_send_tmpl(dev, m, &qp->xport.tmpl, (uint32_t)hl, 0);
	qp->st.tx_packets++;
	*more = roce_qp_wants_tx(&qp->xport, now);
	if (likely(!*more) || budget <= 1)
		return 1;
	sent = 1 + soft_xport_tx_from(qp, NULL, NULL, budget - 1, now);
	*more = roce_qp_wants_tx(&qp->xport, now);
	return sent;
out:
	*more = roce_qp_wants_tx(&qp->xport, now);
	return 0;
}

#endif /* SOFT_XPORT_FAST_H */
