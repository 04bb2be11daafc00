/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP lifecycle and the three entry points a device calls (rx, tx, timer). The roles
 * live in their own files: roce_req.c (requester), roce_comp.c (completer),
 * roce_resp.c (responder), roce_ud.c (UD).
 */
#include <errno.h>
#include <string.h>

#include "roce_addr.h"
#include "roce_qp_priv.h"

static uint32_t pow2_roundup(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static uint32_t jobs_for(uint32_t nres)
{
	return pow2_roundup(2 * nres + 8);
}

size_t roce_qp_mem_size(const struct roce_qp_init_attr *ia)
{
	uint32_t depth = pow2_roundup(ia->sq_depth ? ia->sq_depth : 1);

	return sizeof(struct roce_swqe) * depth + sizeof(struct roce_rd_res) * ia->max_rd_res +
	       sizeof(struct roce_job) * jobs_for(ia->max_rd_res);
}

int roce_qp_init(struct roce_qp *qp, const struct roce_qp_init_attr *ia, void *mem)
{
	uint32_t depth;
	uint8_t *m = mem;

	if (!qp || !ia || !mem || !ia->ops || ia->type > ROCE_QPT_UD ||
	    (ia->qpn & ~ROCE_QPN_MASK) || !ia->qpn || ia->max_rd_res > 255 ||
	    !ia->sq_depth || ia->sq_depth > (1u << 24) || ia->max_unacked_psn >= (1u << 23))
		return -EINVAL;
	depth = pow2_roundup(ia->sq_depth);
	memset(qp, 0, sizeof(*qp));
	memset(mem, 0, roce_qp_mem_size(ia));
	qp->type = ia->type;
	qp->qpn = ia->qpn;
	qp->ops = ia->ops;
	qp->user = ia->user;
	qp->pmtu = 1024;
	qp->max_unacked_psn = ia->max_unacked_psn ? ia->max_unacked_psn : ROCE_DEFAULT_MAX_UNACKED;
	qp->req.ring = (struct roce_swqe *)m;
	qp->req.mask = depth - 1;
	m += sizeof(struct roce_swqe) * depth;
	qp->resp.res = (struct roce_rd_res *)m;
	qp->resp.nres = ia->max_rd_res;
	m += sizeof(struct roce_rd_res) * ia->max_rd_res;
	qp->resp.jobs = (struct roce_job *)m;
	qp->resp.jmask = jobs_for(ia->max_rd_res) - 1;
	qp->state = ROCE_QPS_RESET;
	roce_req_reset(qp);
	roce_resp_reset(qp);
	return 0;
}

static void flush_sq(struct roce_qp *qp)
{
	while (qp->req.head != qp->req.tail) {
		struct roce_swqe *w = roce_swqe_at(qp, qp->req.head);

		qp->req.head++;
		roce_send_complete(qp, w, ROCE_WC_WR_FLUSH_ERR);
	}
	qp->req.next = qp->req.head;
	qp->req.off = 0;
	qp->req.rd_atomic = 0;
	qp->req.ack_deadline = ROCE_TIME_NEVER;
	qp->req.rnr_wait = 0;
}

static void enter_error(struct roce_qp *qp, uint8_t status, int notify)
{
	if (qp->state == ROCE_QPS_ERR)
		return;
	qp->state = ROCE_QPS_ERR;
	roce_resp_abort(qp, ROCE_WC_WR_FLUSH_ERR);
	flush_sq(qp);
	if (notify && qp->ops->qp_error)
		qp->ops->qp_error(qp, status);
}

void roce_qp_set_error(struct roce_qp *qp, uint8_t status)
{
	enter_error(qp, status, 1);
}

static void tmpl_update(struct roce_qp *qp);

static int valid_mtu(uint32_t mtu)
{
	return mtu >= 256 && mtu <= 4096 && !(mtu & (mtu - 1));
}

int roce_qp_modify(struct roce_qp *qp, const struct roce_qp_attr *a, uint32_t mask)
{
	if ((mask & ROCE_QP_STATE) && a->state > ROCE_QPS_ERR)
		return -EINVAL;
	if ((mask & ROCE_QP_PATH_MTU) && !valid_mtu(a->path_mtu))
		return -EINVAL;
	if ((mask & ROCE_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > qp->resp.nres)
		return -EINVAL;
	if (((mask & ROCE_QP_RETRY_CNT) && a->retry_cnt > 7) ||
	    ((mask & ROCE_QP_RNR_RETRY) && a->rnr_retry > 7) ||
	    ((mask & ROCE_QP_TIMEOUT) && a->timeout > 31) ||
	    ((mask & ROCE_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31) ||
	    ((mask & ROCE_QP_DEST_QPN) && (a->dest_qpn & ~ROCE_QPN_MASK)))
		return -EINVAL;

	if (mask & ROCE_QP_ACCESS)
		qp->access = a->access;
	if (mask & ROCE_QP_QKEY)
		qp->qkey = a->qkey;
	if (mask & ROCE_QP_PATH_MTU)
		qp->pmtu = a->path_mtu;
	if (mask & ROCE_QP_DEST_QPN)
		qp->dest_qpn = a->dest_qpn;
	if (mask & ROCE_QP_AV) {
		qp->av = a->av;
		if (!qp->av.sport)
			qp->av.sport = roce_udp_sport(qp->qpn, qp->dest_qpn, qp->av.flow_label);
		qp->rx_ip4_ok = roce_gid_is_ipv4(qp->av.dgid) && roce_gid_is_ipv4(qp->av.sgid);
		memcpy(&qp->rx_ip4[0], qp->av.dgid + 12, 4);
		memcpy(&qp->rx_ip4[1], qp->av.sgid + 12, 4);
	}
	if (mask & ROCE_QP_RQ_PSN) {
		qp->resp.epsn = a->rq_psn & ROCE_PSN_MASK;
		qp->resp.ack_psn = roce_psn_add(qp->resp.epsn, ROCE_PSN_MASK); /* epsn - 1 */
	}
	if (mask & ROCE_QP_MAX_DEST_RD_ATOMIC) {
		uint32_t i;

		qp->max_dest_rd_atomic = a->max_dest_rd_atomic;
		qp->resp.res_next = 0;
		for (i = 0; i < qp->resp.nres; i++)
			qp->resp.res[i].type = 0;
	}
	if (mask & ROCE_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = a->min_rnr_timer;
	if (mask & ROCE_QP_SQ_PSN) {
		qp->req.psn = a->sq_psn & ROCE_PSN_MASK;
		qp->req.una = qp->req.psn;
		qp->req.hi_psn = qp->req.psn;
	}
	if (mask & ROCE_QP_TIMEOUT) {
		qp->timeout = a->timeout;
		qp->req.ack_timeout_ns = roce_ack_timeout_ns(a->timeout);
	}
	if (mask & ROCE_QP_RETRY_CNT)
		qp->retry_cnt = qp->req.retry_left = a->retry_cnt;
	if (mask & ROCE_QP_RNR_RETRY)
		qp->rnr_retry = qp->req.rnr_left = a->rnr_retry;
	if (mask & ROCE_QP_MAX_RD_ATOMIC)
		qp->max_rd_atomic = a->max_rd_atomic;
	if (mask & ROCE_QP_FLAGS)
		qp->flags = a->flags;
	if (mask & (ROCE_QP_AV | ROCE_QP_DEST_QPN))
		tmpl_update(qp);

	if (mask & ROCE_QP_STATE) {
		if (a->state == ROCE_QPS_RESET) {
			qp->state = ROCE_QPS_RESET;
			roce_req_reset(qp);
			roce_resp_reset(qp);
		} else if (a->state == ROCE_QPS_ERR) {
			enter_error(qp, ROCE_WC_WR_FLUSH_ERR, 0);
		} else {
			qp->state = a->state;
		}
	}
	return 0;
}

int roce_qp_post_send(struct roce_qp *qp, const struct roce_send_wr *wr)
{
	struct roce_swqe *w;

	if (unlikely(wr->op > ROCE_WR_FETCH_ADD || wr->len > (1u << 31)))
		return -EINVAL;
	if (qp->type == ROCE_QPT_UD) {
		if (wr->op != ROCE_WR_SEND && wr->op != ROCE_WR_SEND_IMM)
			return -EINVAL;
		if (!wr->av)
			return -EINVAL;
	} else if (qp->type == ROCE_QPT_UC) {
		if (roce_wr_is_rd_atomic(wr->op) || wr->op == ROCE_WR_SEND_INV)
			return -EINVAL;
	}
	if ((wr->op == ROCE_WR_CMP_SWAP || wr->op == ROCE_WR_FETCH_ADD) &&
	    (wr->len != 8 || (wr->raddr & 7u)))
		return -EINVAL;
	if (unlikely(qp->req.tail - qp->req.head > qp->req.mask))
		return -ENOMEM;
	if (unlikely(qp->state != ROCE_QPS_RTS && qp->state != ROCE_QPS_SQD &&
		     qp->state != ROCE_QPS_ERR))
		return -EINVAL;
	w = roce_swqe_at(qp, qp->req.tail);
	w->wr = *wr; /* and the tracking fields cleared one by one: no memset of the slot */
	w->first_psn = 0;
	w->last_psn = 0;
	w->done = 0;
	w->orig = 0;
	w->started = 0;
	qp->req.tail++;
	if (qp->state == ROCE_QPS_ERR)
		flush_sq(qp);
	return 0;
}

/* The packet fields every frame to av carries (what the template is built from). */
static void pkt_proto(const struct roce_qp *qp, struct roce_pkt *p, const struct roce_av *av,
		      uint32_t dqpn)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->dmac, av->dmac, 6);
	memcpy(p->smac, av->smac, 6);
	p->has_vlan = av->has_vlan;
	p->vlan_tci = av->vlan_tci;
	p->ipv6 = !roce_gid_is_ipv4(av->dgid);
	p->tclass = av->tclass;
	p->hop_limit = av->hop_limit ? av->hop_limit : 64;
	p->ip_frag = 0x4000; /* DF */
	p->flow_label = av->flow_label;
	memcpy(p->sgid, av->sgid, 16);
	memcpy(p->dgid, av->dgid, 16);
	p->sport = av->sport ? av->sport : roce_udp_sport(qp->qpn, dqpn, av->flow_label);
	p->pkey = ROCE_PKEY_DEFAULT;
	p->dqpn = dqpn;
}

/* RC/UC: the template of frames to the connected peer, after av or dest_qpn changed. */
static void tmpl_update(struct roce_qp *qp)
{
	struct roce_pkt p;

	qp->tmpl.valid = 0;
	if (qp->type == ROCE_QPT_UD)
		return;
	pkt_proto(qp, &p, &qp->av, qp->dest_qpn);
	if (roce_tmpl_init(&qp->tmpl, &p) != 0)
		qp->tmpl.valid = 0; /* frames take the general builder */
}

void roce_tx_init(const struct roce_qp *qp, struct roce_tx *tx, const struct roce_av *av,
		  uint8_t opcode, uint32_t dqpn, uint32_t psn)
{
	struct roce_pkt *p = &tx->pkt;

	if (likely(av == &qp->av && dqpn == qp->dest_qpn && qp->tmpl.valid)) {
		*p = qp->tmpl.proto;
		tx->tmpl = &qp->tmpl;
	} else {
		pkt_proto(qp, p, av, dqpn);
		tx->tmpl = NULL;
	}
	tx->pl_src = ROCE_PL_NONE;
	tx->retransmit = 0;
	tx->wr_id = 0;
	tx->offset = 0;
	tx->rkey = 0;
	tx->va = 0;
	p->opcode = opcode;
	p->oi = &roce_opcode_table[opcode];
	p->psn = psn;
}

static uint8_t qp_transport(const struct roce_qp *qp)
{
	return qp->type == ROCE_QPT_RC ? ROCE_TRANSPORT_RC :
	       qp->type == ROCE_QPT_UC ? ROCE_TRANSPORT_UC : ROCE_TRANSPORT_UD;
}

enum roce_reason roce_qp_rx(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	const struct roce_opcode_info *oi = pkt->oi ? pkt->oi : roce_opcode_get(pkt->opcode);
	uint8_t st = qp->state;

	qp->stats.rx_pkts++;
	if (unlikely(!oi))
		return roce_drop(qp, ROCE_R_OPCODE);
	if (unlikely(oi->flags & ROCE_OPF_CNP))
		return roce_drop(qp, ROCE_R_CNP);
	if (unlikely(oi->transport != qp_transport(qp)))
		return roce_drop(qp, ROCE_R_TRANSPORT);
	if (unlikely(pkt->dqpn != qp->qpn &&
		     !(qp->type == ROCE_QPT_UD && pkt->dqpn == ROCE_QPN_MULTICAST)))
		return roce_drop(qp, ROCE_R_QPN);
	if (qp->type == ROCE_QPT_UD) {
		if (unlikely(st != ROCE_QPS_RTR && st != ROCE_QPS_RTS && st != ROCE_QPS_SQD))
			return roce_drop(qp, ROCE_R_QP_STATE);
		return roce_ud_rx(qp, pkt);
	}
	/* RC/UC: only from the connected peer to our own address. */
	if (unlikely(!roce_qp_from_peer(qp, pkt)))
		return roce_drop(qp, ROCE_R_ADDR);
	if (oi->flags & ROCE_OPF_REQ) {
		if (unlikely(st != ROCE_QPS_RTR && st != ROCE_QPS_RTS && st != ROCE_QPS_SQD))
			return roce_drop(qp, ROCE_R_QP_STATE);
		return roce_resp_rx(qp, pkt, now);
	}
	if (unlikely(st != ROCE_QPS_RTS && st != ROCE_QPS_SQD))
		return roce_drop(qp, ROCE_R_QP_STATE);
	return roce_comp_rx(qp, pkt, now);
}

int roce_qp_tx(struct roce_qp *qp, uint64_t now, struct roce_tx *tx)
{
	int n;

	if (qp->type != ROCE_QPT_RC)
		roce_req_complete_sent(qp);
	/* Responses first: they unblock the peer and never wait for credits. */
	if (qp->resp.jhead != qp->resp.jtail) {
		n = roce_resp_tx(qp, tx);
		if (n)
			goto sent;
	}
	if (qp->state != ROCE_QPS_RTS && qp->state != ROCE_QPS_SQD)
		return 0;
	n = qp->type == ROCE_QPT_UD ? roce_ud_tx(qp, tx) : roce_req_tx(qp, now, tx);
	if (!n)
		return 0;
sent:
	qp->stats.tx_pkts++;
	return 1;
}

void roce_qp_timer(struct roce_qp *qp, uint64_t now)
{
	if (qp->type == ROCE_QPT_RC && (qp->state == ROCE_QPS_RTS || qp->state == ROCE_QPS_SQD))
		roce_req_timer(qp, now);
}
