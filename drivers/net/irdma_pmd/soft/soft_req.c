/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The requester: fetches WQEs after a doorbell, executes local operations in SQ order
 * (NOP, local invalidate, MW bind), checks local keys, and turns remote operations into
 * RoCEv2 request packets: PSN assignment, segmentation by path MTU, AckReq on the last
 * packet, the ORD limit and fences. What is sent stays in the outstanding ring until the
 * completer retires it; soft_req_rewind() is the go-back-N entry point that the
 * retransmission timers and NAKs use.
 */
#include <errno.h>

#include <rte_cycles.h>

#include "soft_priv.h"

static inline uint32_t swq_next(const struct soft_qp *qp, uint32_t i)
{
	return i + 1 == qp->sq_depth ? 0 : i + 1;
}

static void req_done(struct soft_qp *qp, struct soft_swqe *s, uint8_t status)
{
	s->state = SOFT_SWQE_DONE;
	s->status = status;
	qp->swq_send = swq_next(qp, qp->swq_send);
	qp->send_offset = 0;
	/* After an error nothing more is transmitted; earlier work may still complete. */
	if (status)
		qp->sq_stalled = true;
}

static bool is_read_like(uint8_t op)
{
	return op == IRDMAQP_OP_RDMA_READ || op == IRDMAQP_OP_RDMA_READ_LOC_INV ||
	       op == IRDMAQP_OP_ATOMIC_FETCH_ADD || op == IRDMAQP_OP_ATOMIC_COMPARE_SWAP;
}

/* Queues a fetched WQE behind the others. */
static void req_accept(struct soft_qp *qp, const struct soft_wqe *w, int rc)
{
	struct soft_swqe *s = &qp->swq[qp->swq_head];

	memset(s, 0, sizeof(*s));
	s->idx = w->idx;
	s->quanta = w->quanta;
	s->op = w->op;
	s->signaled = w->signaled;
	s->read_like = is_read_like(w->op);
	/* Local invalidate is always fenced (kernel >= 6.19 sets the flag anyway). */
	s->fence = w->read_fence || w->local_fence || w->op == IRDMAQP_OP_LOCAL_INVALIDATE;
	s->length = w->total_len;
	s->state = SOFT_SWQE_PENDING;
	if (rc < 0) {
		s->state = SOFT_SWQE_DONE;
		s->status = FLUSH_LOC_QP_OP_ERR;
		qp->sq_stalled = true;
		SOFT_LOG(DEBUG, "%s: QP %u: malformed WQE at %u (op 0x%x)", qp->dev->name,
			 qp->id, w->idx, w->op);
	}
	qp->swq_head = swq_next(qp, qp->swq_head);
	soft_sq_consumed(qp, w->quanta);
}

static uint8_t send_opcode(const struct soft_qp *qp, const struct soft_wqe *w, bool first,
			   bool last)
{
	bool inv = w->op == IRDMAQP_OP_RDMA_SEND_INV || w->op == IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV;

	if (qp->type == IRDMA_HW_QP_UD)
		return w->imm_valid ? ROCE_OP_UD_SEND_ONLY_IMM : ROCE_OP_UD_SEND_ONLY;
	if (first && last)
		return w->imm_valid ? ROCE_OP_RC_SEND_ONLY_IMM :
		       inv	    ? ROCE_OP_RC_SEND_ONLY_INV :
					ROCE_OP_RC_SEND_ONLY;
	if (first)
		return ROCE_OP_RC_SEND_FIRST;
	if (last)
		return w->imm_valid ? ROCE_OP_RC_SEND_LAST_IMM :
		       inv	    ? ROCE_OP_RC_SEND_LAST_INV :
					ROCE_OP_RC_SEND_LAST;
	return ROCE_OP_RC_SEND_MIDDLE;
}

static uint8_t write_opcode(const struct soft_wqe *w, bool first, bool last)
{
	if (first && last)
		return w->imm_valid ? ROCE_OP_RC_WRITE_ONLY_IMM : ROCE_OP_RC_WRITE_ONLY;
	if (first)
		return ROCE_OP_RC_WRITE_FIRST;
	if (last)
		return w->imm_valid ? ROCE_OP_RC_WRITE_LAST_IMM : ROCE_OP_RC_WRITE_LAST;
	return ROCE_OP_RC_WRITE_MIDDLE;
}

static void arm_ack_timer(struct soft_qp *qp)
{
	if (qp->attr.timeout && qp->ack_deadline == 0) {
		uint64_t us = 4096ull << qp->attr.timeout; /* 4.096 us * 2^timeout, in ns */

		qp->ack_deadline = rte_get_tsc_cycles() + us * qp->dev->tsc_hz / 1000000000ull;
	}
}

/* SEND (RC/UD) and RDMA WRITE: emits packets from send_offset on. Returns packets sent, or
 * -1 when the WQE failed (completed with an error). */
static int req_send_data(struct soft_qp *qp, struct soft_swqe *s, const struct soft_wqe *w,
			 unsigned int budget)
{
	struct soft_dev *dev = qp->dev;
	bool is_send = s->op != IRDMAQP_OP_RDMA_WRITE && s->op != IRDMAQP_OP_RDMA_WRITE_SOL;
	const struct irdma_hw_av *av = &qp->attr.av;
	uint32_t mtu = qp->attr.path_mtu ? qp->attr.path_mtu : dev->mtu;
	uint64_t len = w->total_len, off = qp->send_offset;
	unsigned int sent = 0;

	if (qp->type == IRDMA_HW_QP_UD) {
		const struct soft_ah *ah = w->ah_id < dev->max_ah ? &dev->ah[w->ah_id] : NULL;

		if (ah == NULL || !ah->in_use || ah->pd_id != qp->pd_id) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return -1;
		}
		av = &ah->av;
		mtu = dev->mtu;
		if (len > mtu) { /* IBTA C10-93.1.1: not sent, completes successfully */
			req_done(qp, s, 0);
			return 0;
		}
	}
	if (len > SOFT_MAX_MSG) {
		req_done(qp, s, FLUSH_LOC_LEN_ERR);
		return -1;
	}
	if (off == 0 && !w->inline_data) {
		enum soft_mr_err e = soft_sges_check(dev, qp->pd_id, w->sge, w->num_sges, 0);

		if (e) {
			SOFT_LOG(DEBUG, "%s: QP %u: WQE %u: local key: %s", dev->name, qp->id,
				 w->idx, soft_mr_err_str(e));
			req_done(qp, s, soft_mr_err_to_flush(e));
			return -1;
		}
	}
	do {
		uint32_t chunk = (uint32_t)RTE_MIN((uint64_t)mtu, len - off);
		bool first = off == 0, last = off + chunk == len;
		struct rte_mbuf *m;
		struct roce_pkt p;
		uint8_t *pay;

		if (sent == budget || !soft_wire_tx_room(dev, 1))
			break;
		memset(&p, 0, sizeof(p));
		soft_wire_address(dev, qp, av, &p);
		p.opcode = is_send ? send_opcode(qp, w, first, last) : write_opcode(w, first, last);
		p.psn = qp->send_psn;
		if (qp->type == IRDMA_HW_QP_UD) {
			p.dqpn = w->dest_qp;
			p.deth.qkey = w->qkey;
			p.deth.sqpn = qp->id;
		} else {
			p.dqpn = qp->attr.dest_qpn;
			p.ackreq = last;
		}
		p.se = last && w->solicited && (is_send || w->imm_valid);
		if (!is_send && first) {
			p.reth.va = w->rem_addr;
			p.reth.rkey = w->rem_stag;
			p.reth.len = (uint32_t)len;
		}
		if (last && w->imm_valid)
			p.imm = w->imm;
		if (last)
			p.ieth = w->rem_stag;
		p.paylen = chunk;
		m = soft_wire_alloc(dev, &p, &pay);
		if (m == NULL)
			break;
		if (w->inline_data) {
			soft_sq_inline_copy(qp, w, off, pay, chunk);
		} else {
			enum soft_mr_err e = soft_sges_copy(dev, qp->pd_id, w->sge, w->num_sges, off,
							    pay, chunk, false);
			if (e) {
				rte_pktmbuf_free(m);
				req_done(qp, s, soft_mr_err_to_flush(e));
				return -1;
			}
		}
		if (first)
			s->first_psn = qp->send_psn;
		soft_wire_send(dev, m, &p);
		qp->st.tx_packets++;
		qp->st.tx_bytes += chunk;
		qp->send_psn = roce_psn_add(qp->send_psn, 1);
		off += chunk;
		sent++;
		if (last) {
			s->last_psn = p.psn;
			if (qp->type == IRDMA_HW_QP_UD) {
				req_done(qp, s, 0); /* UD completes once sent */
			} else {
				s->state = SOFT_SWQE_SENT;
				qp->swq_send = swq_next(qp, qp->swq_send);
				qp->send_offset = 0;
				arm_ack_timer(qp);
			}
			return (int)sent;
		}
	} while (off < len);
	qp->send_offset = off;
	return (int)sent;
}

/* RDMA READ request or atomic: one packet. Returns 1, 0 (stalled) or -1 (failed). */
static int req_send_read_like(struct soft_qp *qp, struct soft_swqe *s, const struct soft_wqe *w)
{
	struct soft_dev *dev = qp->dev;
	uint32_t mtu = qp->attr.path_mtu ? qp->attr.path_mtu : dev->mtu;
	uint32_t ord = qp->attr.max_rd_atomic ? qp->attr.max_rd_atomic : 1;
	bool atomic = s->op == IRDMAQP_OP_ATOMIC_FETCH_ADD ||
		      s->op == IRDMAQP_OP_ATOMIC_COMPARE_SWAP;
	enum soft_mr_err e;
	struct rte_mbuf *m;
	struct roce_pkt p;
	uint8_t *pay;
	uint32_t npkts;

	if (qp->rd_outstanding >= ord || !soft_wire_tx_room(dev, 1))
		return 0;
	if (w->total_len > SOFT_MAX_MSG) {
		req_done(qp, s, FLUSH_LOC_LEN_ERR);
		return -1;
	}
	e = soft_sges_check(dev, qp->pd_id, w->sge, w->num_sges, IRDMA_HW_ACCESS_LOCAL_WRITE);
	if (e) {
		SOFT_LOG(DEBUG, "%s: QP %u: WQE %u: local key: %s", dev->name, qp->id, w->idx,
			 soft_mr_err_str(e));
		req_done(qp, s, soft_mr_err_to_flush(e));
		return -1;
	}
	memset(&p, 0, sizeof(p));
	soft_wire_address(dev, qp, &qp->attr.av, &p);
	p.dqpn = qp->attr.dest_qpn;
	p.psn = qp->send_psn;
	p.ackreq = 1;
	if (atomic) {
		p.opcode = s->op == IRDMAQP_OP_ATOMIC_FETCH_ADD ? ROCE_OP_RC_FETCH_ADD
							       : ROCE_OP_RC_CMP_SWAP;
		p.atmeth.va = w->rem_addr;
		p.atmeth.rkey = w->rem_stag;
		p.atmeth.swap_add = w->atomic_swap_add;
		p.atmeth.cmp = w->atomic_cmp;
		npkts = 1;
	} else {
		p.opcode = ROCE_OP_RC_READ_REQ;
		p.reth.va = w->rem_addr;
		p.reth.rkey = w->rem_stag;
		p.reth.len = (uint32_t)w->total_len;
		npkts = w->total_len ? (uint32_t)((w->total_len + mtu - 1) / mtu) : 1;
	}
	m = soft_wire_alloc(dev, &p, &pay);
	if (m == NULL)
		return 0;
	soft_wire_send(dev, m, &p);
	qp->st.tx_packets++;
	s->first_psn = p.psn;
	s->resp_psn = p.psn;
	s->last_psn = roce_psn_add(p.psn, npkts - 1);
	qp->send_psn = roce_psn_add(p.psn, npkts);
	s->state = SOFT_SWQE_SENT;
	qp->rd_outstanding++;
	qp->swq_send = swq_next(qp, qp->swq_send);
	qp->send_offset = 0;
	arm_ack_timer(qp);
	return 1;
}

/* Local operations, executed when they reach the head of the transmit order. */
static void req_local(struct soft_qp *qp, struct soft_swqe *s, const struct soft_wqe *w)
{
	enum soft_mr_err e;

	switch (s->op) {
	case IRDMAQP_OP_NOP:
		req_done(qp, s, 0);
		return;
	case IRDMAQP_OP_LOCAL_INVALIDATE:
		e = soft_mr_invalidate(qp->dev, qp->pd_id, qp->id, w->rem_stag, false);
		req_done(qp, s, e ? FLUSH_PROT_ERR : 0);
		return;
	case IRDMAQP_OP_BIND_MW:
		if (qp->type != IRDMA_HW_QP_RC) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return;
		}
		e = soft_mw_bind(qp->dev, qp, w);
		if (e)
			SOFT_LOG(DEBUG, "%s: QP %u: bind MW 0x%x: %s", qp->dev->name, qp->id,
				 w->mw_stag, soft_mr_err_str(e));
		req_done(qp, s, e ? FLUSH_MW_BIND_ERR : 0);
		return;
	default:
		req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
	}
}

/* Sends (part of) swq[swq_send]. Returns packets sent, or -1 when it must wait. */
static int req_step(struct soft_qp *qp, unsigned int budget)
{
	struct soft_swqe *s = &qp->swq[qp->swq_send];
	struct soft_wqe *w = &qp->cur;
	int rc;

	if (s->state == SOFT_SWQE_DONE) { /* malformed at fetch */
		qp->swq_send = swq_next(qp, qp->swq_send);
		return 0;
	}
	/* Fence: wait until everything before it completed. */
	if (s->fence && qp->swq_done != qp->swq_send)
		return -1;
	if (qp->cur_slot != qp->swq_send) {
		if (soft_sq_decode(qp, s->idx, w) < 0) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return 0;
		}
		qp->cur_slot = qp->swq_send;
	}
	switch (s->op) {
	case IRDMAQP_OP_RDMA_SEND:
	case IRDMAQP_OP_RDMA_SEND_INV:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV:
	case IRDMAQP_OP_RDMA_WRITE:
	case IRDMAQP_OP_RDMA_WRITE_SOL:
		rc = req_send_data(qp, s, w, budget);
		if (rc == 0 && s->state == SOFT_SWQE_PENDING)
			return -1;
		return rc < 0 ? 0 : rc;
	case IRDMAQP_OP_RDMA_READ:
	case IRDMAQP_OP_RDMA_READ_LOC_INV:
	case IRDMAQP_OP_ATOMIC_FETCH_ADD:
	case IRDMAQP_OP_ATOMIC_COMPARE_SWAP:
		if (qp->type != IRDMA_HW_QP_RC) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return 0;
		}
		rc = req_send_read_like(qp, s, w);
		return rc == 0 ? -1 : (rc < 0 ? 0 : rc);
	default:
		req_local(qp, s, w);
		return 0;
	}
}

unsigned int soft_req_run(struct soft_qp *qp, unsigned int budget)
{
	unsigned int work = 0;

	if (qp->state == IRDMA_HW_QPS_ERR) {
		if (qp->sq_kick) { /* posts to a QP in error are flushed */
			soft_qp_flush(qp);
			qp->sq_kick = false;
			return 1;
		}
		return 0;
	}
	if (qp->state != IRDMA_HW_QPS_RTS && qp->state != IRDMA_HW_QPS_SQD)
		return 0;
	if (qp->rnr_until) {
		if (rte_get_tsc_cycles() < qp->rnr_until)
			return 0;
		qp->rnr_until = 0;
	}
	while (work < budget && qp->state != IRDMA_HW_QPS_ERR && !qp->sq_stalled) {
		int rc;

		if (qp->swq_send == qp->swq_head) {
			struct soft_wqe *w = &qp->cur;

			if (!qp->sq_kick || qp->state == IRDMA_HW_QPS_SQD)
				break;
			rc = soft_sq_fetch(qp, w);
			if (rc == 0) {
				qp->sq_kick = false;
				break;
			}
			qp->cur_slot = qp->swq_head;
			req_accept(qp, w, rc);
			work++;
			continue;
		}
		rc = req_step(qp, budget - work);
		if (rc < 0)
			break;
		work += (unsigned int)rc + 1;
	}
	soft_comp_retire(qp);
	return work;
}

/* Go-back-N: the next packet sent is the one with PSN psn, inside the oldest WQE that is
 * not complete. Everything after it is sent again. */
void soft_req_rewind(struct soft_qp *qp, uint32_t psn)
{
	uint32_t mtu = qp->attr.path_mtu ? qp->attr.path_mtu : qp->dev->mtu;
	uint32_t i;

	for (i = qp->swq_done; i != qp->swq_send; i = swq_next(qp, i)) {
		struct soft_swqe *s = &qp->swq[i];

		if (s->state != SOFT_SWQE_SENT)
			continue;
		if (roce_psn_diff(psn, s->last_psn) > 0)
			continue; /* entirely acknowledged by the PSN */
		break;
	}
	if (i == qp->swq_send)
		return;
	qp->swq_send = i;
	qp->cur_slot = UINT32_MAX;
	if (qp->swq[i].read_like || roce_psn_diff(psn, qp->swq[i].first_psn) < 0)
		psn = qp->swq[i].first_psn;
	qp->send_offset = (uint64_t)(uint32_t)roce_psn_diff(psn, qp->swq[i].first_psn) * mtu;
	qp->send_psn = psn;
	qp->rd_outstanding = 0;
	for (; i != qp->swq_head; i = swq_next(qp, i))
		if (qp->swq[i].state == SOFT_SWQE_SENT)
			qp->swq[i].state = SOFT_SWQE_PENDING;
	qp->st.retransmits++;
}
