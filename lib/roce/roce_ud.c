/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UD: one packet per message with a DETH, Q_Key checked on receive, the 40-byte GRH
 * area at the head of every receive buffer. No ACKs, no retransmission.
 */
#include <errno.h>
#include <string.h>

#include "roce_qp_priv.h"

enum roce_reason roce_ud_rx(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t want = qp->qpn == 1 ? ROCE_QKEY_GSI : qp->qkey;
	uint8_t grh[ROCE_GRH_LEN];
	uint64_t cookie;
	int r;

	if (unlikely(pkt->deth.qkey != want))
		return roce_drop(qp, ROCE_R_QKEY);
	r = qp->ops->recv_begin(qp, ROCE_GRH_LEN + pkt->paylen, &cookie);
	if (unlikely(r))
		return roce_drop(qp, r == -EMSGSIZE ? ROCE_R_UD_TOO_LONG : ROCE_R_UD_NO_RECV);

	/* GRH area: the IPv6 header, or for IPv4 the IPv4 header in its last 20 bytes. */
	memset(grh, 0, sizeof(grh));
	if (pkt->l3) {
		if (pkt->ipv6)
			memcpy(grh, pkt->l3, ROCE_IPV6_HLEN);
		else
			memcpy(grh + ROCE_GRH_LEN - ROCE_IPV4_HLEN, pkt->l3, ROCE_IPV4_HLEN);
	}
	r = qp->ops->recv_place(qp, cookie, 0, grh, ROCE_GRH_LEN);
	if (!r && pkt->paylen)
		r = qp->ops->recv_place(qp, cookie, ROCE_GRH_LEN, pkt->payload, pkt->paylen);
	if (unlikely(r)) {
		struct roce_recv_done d = {
			.status = r == -EMSGSIZE ? ROCE_WC_LOC_LEN_ERR :
				  r == -EACCES   ? ROCE_WC_LOC_PROT_ERR : ROCE_WC_LOC_QP_OP_ERR,
		};

		qp->ops->recv_end(qp, cookie, &d);
		roce_qp_set_error(qp, d.status);
		return roce_drop(qp, ROCE_R_REMOTE_OP);
	}
	{
		struct roce_recv_done d = {
			.status = ROCE_WC_SUCCESS,
			.opcode = ROCE_RECV_SEND,
			.flags = ROCE_RECV_F_GRH,
			.byte_len = ROCE_GRH_LEN + pkt->paylen,
			.src_qp = pkt->deth.sqpn,
			.pkt = pkt,
		};

		if (pkt->oi->flags & ROCE_OPF_IMM) {
			d.flags |= ROCE_RECV_F_IMM;
			d.imm = pkt->imm;
		}
		if (pkt->se)
			d.flags |= ROCE_RECV_F_SOLICITED;
		qp->ops->recv_end(qp, cookie, &d);
	}
	return ROCE_R_OK;
}

int roce_ud_tx(struct roce_qp *qp, struct roce_tx *tx)
{
	while (qp->req.next != qp->req.tail) {
		struct roce_swqe *w = roce_swqe_at(qp, qp->req.next);
		const struct roce_send_wr *wr = &w->wr;

		qp->req.next++;
		/* IBTA C10-93.1.1: a UD message over the MTU is not sent, yet completes. */
		if (unlikely(wr->len > qp->pmtu)) {
			qp->stats.ud_oversize++; /* nothing is lost silently */
			continue;
		}
		roce_tx_init(qp, tx, wr->av,
			     wr->op == ROCE_WR_SEND_IMM ? ROCE_OP_UD_SEND_ONLY_IMM : ROCE_OP_UD_SEND_ONLY,
			     wr->dqpn, qp->req.psn);
		tx->pkt.deth.qkey = wr->qkey;
		tx->pkt.deth.sqpn = qp->qpn;
		tx->pkt.imm = wr->imm;
		tx->pkt.se = !!(wr->flags & ROCE_WR_F_SOLICITED);
		tx->pkt.paylen = wr->len;
		tx->pl_src = wr->len ? ROCE_PL_SQ : ROCE_PL_NONE;
		tx->wr_id = wr->id;
		qp->req.psn = roce_psn_add(qp->req.psn, 1);
		return 1;
	}
	return 0;
}
