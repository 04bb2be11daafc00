/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder: requests arriving at a QP. RC: PSN check (one sequence NAK per gap,
 * duplicates re-ACKed or replayed), opcode sequence and length checks, QP access flags,
 * R_Key checks before any byte moves, SEND into RQ/SRQ WQEs (RNR NAK when none is posted),
 * RDMA WRITE (+immediate), READ and atomics through responder resources whose responses
 * leave in PSN order. UD: Q_Key was checked by the wire; the GRH area then the payload.
 * Errors NAK the requester with the class the peer maps to its completion status, complete
 * the receive WQE in progress with the local status, and take the QP to ERR.
 */
#include <errno.h>

#include "soft_priv.h"

#define RES_MASK(qp) (SOFT_MAX_IRD - 1)

static uint32_t qp_mtu(const struct soft_qp *qp)
{
	return qp->attr.path_mtu ? qp->attr.path_mtu : qp->dev->mtu;
}

/* ACK / NAK / RNR NAK. A control response that finds no room waits in the ctl slot. */
static void resp_ctl(struct soft_qp *qp, uint8_t syn, uint32_t psn)
{
	struct roce_pkt p;
	struct rte_mbuf *m;
	uint8_t *pay;

	if (!soft_wire_tx_room(qp->dev, 1) ||
	    ((syn & ROCE_AETH_TYPE_MASK) == ROCE_AETH_ACK && qp->res_tail != qp->res_next)) {
		/* no room, or a positive ACK behind pending read responses: send it later */
		qp->ctl_pending = true;
		qp->ctl_syn = syn;
		qp->ctl_psn = psn;
		return;
	}
	memset(&p, 0, sizeof(p));
	soft_wire_address(qp->dev, qp, &qp->attr.av, &p);
	p.opcode = ROCE_OP_RC_ACK;
	p.dqpn = qp->attr.dest_qpn;
	p.psn = psn;
	p.aeth.syndrome = syn;
	p.aeth.msn = qp->msn;
	m = soft_wire_alloc(qp->dev, &p, &pay);
	if (m == NULL) {
		qp->ctl_pending = true;
		qp->ctl_syn = syn;
		qp->ctl_psn = psn;
		return;
	}
	soft_wire_send(qp->dev, m, &p);
	qp->ctl_pending = false;
	if ((syn & ROCE_AETH_TYPE_MASK) == ROCE_AETH_ACK)
		qp->st.tx_acks++;
	else if ((syn & ROCE_AETH_TYPE_MASK) == ROCE_AETH_RNR_NAK)
		qp->st.tx_rnr_naks++;
	else
		qp->st.tx_naks++;
}

/* Receive completion opcode as each generation reports it (spec §3.9). */
static uint8_t rq_cqe_op(const struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags;

	if (qp->dev->gen < IRDMA_GEN_3)
		return p->opcode & 0x1F; /* GEN_1/2 RoCE: the BTH opcode */
	if (f & ROCE_OPF_WRITE)
		return p->se ? IRDMAQP_OP_RDMA_WRITE_SOL : IRDMAQP_OP_RDMA_WRITE;
	if (f & ROCE_OPF_IETH)
		return p->se ? IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV : IRDMAQP_OP_RDMA_SEND_INV;
	return p->se ? IRDMAQP_OP_RDMA_SEND_SOL_EVENT : IRDMAQP_OP_RDMA_SEND;
}

static void rq_error_cqe(struct soft_qp *qp, const struct soft_rwqe *r, bool from_srq,
			 uint8_t status)
{
	struct soft_cqe c;

	memset(&c, 0, sizeof(c));
	c.error = true;
	c.major = IRDMA_FLUSH_MAJOR_ERR;
	c.minor = status;
	c.op = IRDMA_OP_TYPE_REC;
	soft_rq_complete(qp, &c, from_srq, r);
}

/*
 * Responder-detected error: NAK (syn != 0) with the packet's PSN, complete the receive WQE
 * in progress with the local status, QP to ERR.
 */
static void resp_fail(struct soft_qp *qp, const struct roce_pkt *p, uint8_t syn, uint8_t status,
		      enum irdma_hw_event_type ev, uint16_t ae)
{
	if (syn)
		resp_ctl(qp, syn, p->psn);
	if (qp->rctx.active) {
		qp->rctx.active = false;
		rq_error_cqe(qp, &qp->rctx.rwqe, qp->rctx.from_srq, status);
	}
	soft_qp_to_error(qp, ev, ae);
}

static uint16_t mr_err_ae(enum soft_mr_err e)
{
	switch (e) {
	case SOFT_MR_BAD_INDEX: return IRDMA_AE_AMP_BAD_STAG_INDEX;
	case SOFT_MR_BAD_KEY: return IRDMA_AE_AMP_BAD_STAG_KEY;
	case SOFT_MR_BAD_STATE: return IRDMA_AE_AMP_INVALID_STAG;
	case SOFT_MR_BAD_PD: return IRDMA_AE_AMP_BAD_PD;
	case SOFT_MR_BOUNDS: return IRDMA_AE_AMP_BOUNDS_VIOLATION;
	default: return IRDMA_AE_AMP_RIGHTS_VIOLATION;
	}
}

/* Length rules of rxe/IBTA for segmented messages. */
static bool seg_len_ok(const struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags & ROCE_OPF_ONLY, mtu = qp_mtu(qp);

	if (f == ROCE_OPF_ONLY)
		return p->paylen <= mtu;
	if (f == ROCE_OPF_LAST)
		return p->paylen >= 1 && p->paylen <= mtu;
	return p->paylen == mtu; /* FIRST or MIDDLE */
}

static void resp_send(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags;
	struct soft_recv_ctx *rc = &qp->rctx;
	enum soft_mr_err e;

	if (f & ROCE_OPF_FIRST) {
		int r = soft_rq_fetch(qp, &rc->rwqe, &rc->from_srq, true);

		if (r == 0) {
			resp_ctl(qp, ROCE_AETH_RNR_NAK | (qp->attr.min_rnr_timer & 0x1F), p->psn);
			return;
		}
		rc->active = true;
		rc->offset = 0;
		if (r < 0) {
			resp_fail(qp, p, ROCE_SYN_NAK_REM_OP, FLUSH_LOC_QP_OP_ERR,
				  IRDMA_HW_EVENT_QP_FATAL, IRDMA_AE_WQE_UNEXPECTED_OPCODE);
			return;
		}
	}
	if (rc->offset + p->paylen > rc->rwqe.total_len) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, FLUSH_LOC_LEN_ERR, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER);
		return;
	}
	e = soft_sges_copy(qp->dev, qp->rctx.from_srq ? qp->srq->pd_id : qp->pd_id,
			   rc->rwqe.sge, rc->rwqe.num_sges, rc->offset,
			   (uint8_t *)(uintptr_t)p->payload, p->paylen, true);
	if (e) {
		resp_fail(qp, p, ROCE_SYN_NAK_REM_OP, soft_mr_err_to_flush(e),
			  IRDMA_HW_EVENT_QP_FATAL, mr_err_ae(e));
		return;
	}
	rc->offset += p->paylen;
	qp->epsn = roce_psn_add(qp->epsn, 1);
	qp->last_req_op = p->opcode;
	if (f & ROCE_OPF_LAST) {
		struct soft_cqe c;

		memset(&c, 0, sizeof(c));
		if (f & ROCE_OPF_IETH) {
			e = soft_mr_invalidate(qp->dev, qp->pd_id, qp->id, p->ieth, true);
			if (e) {
				resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, FLUSH_REM_INV_REQ_ERR,
					  IRDMA_HW_EVENT_QP_ACCESS_ERR,
					  IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS);
				return;
			}
			c.inv_or_ipv4 = true;
			c.inv_stag_or_src_qpn = p->ieth;
		}
		qp->msn = (qp->msn + 1) & ROCE_MSN_MASK;
		c.bytes = (uint32_t)rc->offset;
		c.op = rq_cqe_op(qp, p);
		c.solicited = p->se;
		if (f & ROCE_OPF_IMM) {
			c.imm_valid = true;
			c.imm = p->imm;
		}
		rc->active = false;
		if (soft_rq_complete(qp, &c, rc->from_srq, &rc->rwqe)) {
			soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, 0);
			return;
		}
	}
	if (p->ackreq)
		resp_ctl(qp, ROCE_SYN_ACK, p->psn);
}

static void resp_write(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags;
	struct soft_write_ctx *w = &qp->wctx;
	struct soft_rwqe r;
	bool from_srq = false;
	enum soft_mr_err e;
	uint8_t *host = NULL;

	if (f & ROCE_OPF_FIRST) {
		if (!(qp->attr.access_flags & IRDMA_HW_ACCESS_REMOTE_WRITE)) {
			resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
				  IRDMA_AE_IB_INVALID_REQUEST);
			return;
		}
		if (p->reth.len > SOFT_MAX_MSG ||
		    ((f & ROCE_OPF_LAST) && p->paylen != p->reth.len) ||
		    (!(f & ROCE_OPF_LAST) && p->reth.len <= p->paylen)) {
			resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
				  IRDMA_AE_IB_INVALID_REQUEST);
			return;
		}
		w->active = true;
		w->va = p->reth.va;
		w->rkey = p->reth.rkey;
		w->remaining = p->reth.len;
		w->total = p->reth.len;
	}
	if (p->paylen > w->remaining || ((f & ROCE_OPF_LAST) && p->paylen != w->remaining)) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_IB_INVALID_REQUEST);
		return;
	}
	/* The receive WQE for the immediate must exist before any byte is written. */
	if (f & ROCE_OPF_RWR) {
		int rc = soft_rq_fetch(qp, &r, &from_srq, false);

		if (rc == 0) {
			resp_ctl(qp, ROCE_AETH_RNR_NAK | (qp->attr.min_rnr_timer & 0x1F), p->psn);
			return;
		}
	}
	/* Zero-length writes validate nothing (IBTA C9-88). The whole message is checked at
	 * its first packet, and every packet again right before its bytes move. */
	if (w->total) {
		e = SOFT_MR_OK;
		if (f & ROCE_OPF_FIRST)
			e = soft_mr_check_remote(qp->dev, qp, w->rkey, w->va, w->total,
						 IRDMA_HW_ACCESS_REMOTE_WRITE, &host);
		if (!e && p->paylen)
			e = soft_mr_check_remote(qp->dev, qp, w->rkey, w->va, p->paylen,
						 IRDMA_HW_ACCESS_REMOTE_WRITE, &host);
		if (e) {
			SOFT_LOG(DEBUG, "%s: QP %u: WRITE rkey 0x%x va 0x%" PRIx64 ": %s",
				 qp->dev->name, qp->id, w->rkey, w->va, soft_mr_err_str(e));
			resp_fail(qp, p, ROCE_SYN_NAK_REM_ACC, 0, IRDMA_HW_EVENT_QP_ACCESS_ERR,
				  mr_err_ae(e));
			return;
		}
		if (p->paylen)
			memcpy(host, p->payload, p->paylen);
	}
	w->va += p->paylen;
	w->remaining -= p->paylen;
	qp->epsn = roce_psn_add(qp->epsn, 1);
	qp->last_req_op = p->opcode;
	if (f & ROCE_OPF_LAST) {
		w->active = false;
		qp->msn = (qp->msn + 1) & ROCE_MSN_MASK;
		if (f & ROCE_OPF_RWR) {
			struct soft_cqe c;
			int rc = soft_rq_fetch(qp, &r, &from_srq, true);

			memset(&c, 0, sizeof(c));
			if (rc < 0) {
				rq_error_cqe(qp, &r, from_srq, FLUSH_LOC_QP_OP_ERR);
				resp_fail(qp, p, ROCE_SYN_NAK_REM_OP, 0, IRDMA_HW_EVENT_QP_FATAL,
					  IRDMA_AE_WQE_UNEXPECTED_OPCODE);
				return;
			}
			c.bytes = (uint32_t)w->total;
			c.op = rq_cqe_op(qp, p);
			c.solicited = p->se;
			c.imm_valid = true;
			c.imm = p->imm;
			if (soft_rq_complete(qp, &c, from_srq, &r)) {
				soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, 0);
				return;
			}
		}
	}
	if (p->ackreq)
		resp_ctl(qp, ROCE_SYN_ACK, p->psn);
}

static struct soft_rd_res *res_push(struct soft_qp *qp)
{
	struct soft_rd_res *r;

	if (qp->res_next - qp->res_tail >= SOFT_MAX_IRD)
		return NULL;
	r = &qp->res[qp->res_next & RES_MASK(qp)];
	memset(r, 0, sizeof(*r));
	r->valid = true;
	qp->res_next++;
	return r;
}

static void resp_read(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t mtu = qp_mtu(qp), n;
	struct soft_rd_res *r;
	enum soft_mr_err e;
	uint8_t *host = NULL;

	if (!(qp->attr.access_flags & IRDMA_HW_ACCESS_REMOTE_READ) ||
	    qp->attr.max_dest_rd_atomic == 0 || p->reth.len > SOFT_MAX_MSG) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_IB_INVALID_REQUEST);
		return;
	}
	if (p->reth.len) {
		e = soft_mr_check_remote(qp->dev, qp, p->reth.rkey, p->reth.va, p->reth.len,
					 IRDMA_HW_ACCESS_REMOTE_READ, &host);
		if (e) {
			SOFT_LOG(DEBUG, "%s: QP %u: READ rkey 0x%x: %s", qp->dev->name, qp->id,
				 p->reth.rkey, soft_mr_err_str(e));
			resp_fail(qp, p, ROCE_SYN_NAK_REM_ACC, 0, IRDMA_HW_EVENT_QP_ACCESS_ERR,
				  mr_err_ae(e));
			return;
		}
	}
	r = res_push(qp);
	if (r == NULL) { /* more reads than max_dest_rd_atomic */
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_IB_INVALID_REQUEST);
		return;
	}
	n = p->reth.len ? (p->reth.len + mtu - 1) / mtu : 1;
	r->first_psn = p->psn;
	r->last_psn = roce_psn_add(p->psn, n - 1);
	r->next_psn = p->psn;
	r->va = p->reth.va;
	r->rkey = p->reth.rkey;
	r->length = p->reth.len;
	qp->epsn = roce_psn_add(p->psn, n);
	qp->msn = (qp->msn + 1) & ROCE_MSN_MASK;
	qp->last_req_op = p->opcode;
}

static void resp_atomic(struct soft_qp *qp, const struct roce_pkt *p)
{
	struct soft_rd_res *r;
	enum soft_mr_err e;
	uint8_t *host;
	uint64_t orig;

	if (!(qp->attr.access_flags & IRDMA_HW_ACCESS_REMOTE_ATOMIC) ||
	    qp->attr.max_dest_rd_atomic == 0) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_IB_INVALID_REQUEST);
		return;
	}
	e = soft_mr_check_remote(qp->dev, qp, p->atmeth.rkey, p->atmeth.va, 8,
				 IRDMA_HW_ACCESS_REMOTE_ATOMIC, &host);
	if (e) {
		resp_fail(qp, p, e == SOFT_MR_ALIGN ? ROCE_SYN_NAK_INV_REQ : ROCE_SYN_NAK_REM_ACC, 0,
			  e == SOFT_MR_ALIGN ? IRDMA_HW_EVENT_QP_REQ_ERR :
					       IRDMA_HW_EVENT_QP_ACCESS_ERR,
			  mr_err_ae(e));
		return;
	}
	r = res_push(qp);
	if (r == NULL) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_IB_INVALID_REQUEST);
		return;
	}
	/* 8-byte aligned (checked): atomic against CPU users of the same memory too. */
	if (p->opcode == ROCE_OP_RC_FETCH_ADD) {
		orig = __atomic_fetch_add((uint64_t *)host, p->atmeth.swap_add, __ATOMIC_SEQ_CST);
	} else {
		orig = p->atmeth.cmp;
		__atomic_compare_exchange_n((uint64_t *)host, &orig, p->atmeth.swap_add, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	r->atomic = true;
	r->atomic_orig = orig;
	r->first_psn = r->last_psn = r->next_psn = p->psn;
	r->rkey = p->atmeth.rkey;
	r->va = p->atmeth.va;
	qp->epsn = roce_psn_add(p->psn, 1);
	qp->msn = (qp->msn + 1) & ROCE_MSN_MASK;
	qp->last_req_op = p->opcode;
}

/* A request behind ePSN: re-ACK, or replay a READ/atomic from its resource. */
static void resp_duplicate(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags, i;

	qp->st.rx_dropped++;
	if (f & (ROCE_OPF_SEND | ROCE_OPF_WRITE)) {
		resp_ctl(qp, ROCE_SYN_ACK, roce_psn_add(qp->epsn, ROCE_PSN_MASK));
		return;
	}
	for (i = 0; i < SOFT_MAX_IRD; i++) {
		struct soft_rd_res *o = &qp->res[i], *r;

		if (!o->valid || roce_psn_diff(p->psn, o->first_psn) < 0 ||
		    roce_psn_diff(p->psn, o->last_psn) > 0)
			continue;
		if (((f & ROCE_OPF_ATOMIC) != 0) != o->atomic)
			return;
		r = res_push(qp);
		if (r == NULL)
			return;
		*r = *o;
		r->next_psn = p->psn;
		r->sent = (uint64_t)(uint32_t)roce_psn_diff(p->psn, o->first_psn) * qp_mtu(qp);
		return;
	}
	/* no resource left for it: dropped, the requester will retry and give up */
}

static void resp_ud(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint8_t grh[ROCE_GRH_LEN];
	struct soft_rwqe r;
	struct soft_cqe c;
	bool from_srq;
	enum soft_mr_err e;
	uint32_t pd;
	int rc;

	if (p->paylen > qp->dev->mtu) {
		qp->st.rx_dropped++;
		return;
	}
	rc = soft_rq_fetch(qp, &r, &from_srq, false);
	if (rc == 0 || (rc > 0 && ROCE_GRH_LEN + (uint64_t)p->paylen > r.total_len)) {
		qp->st.rx_dropped++; /* no WQE, or too small: silently dropped, nothing taken */
		return;
	}
	soft_rq_fetch(qp, &r, &from_srq, true);
	if (rc < 0) {
		rq_error_cqe(qp, &r, from_srq, FLUSH_LOC_QP_OP_ERR);
		soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, IRDMA_AE_WQE_UNEXPECTED_OPCODE);
		return;
	}
	/* GRH area: the IPv6 header, or 20 bytes of zero then the IPv4 header. */
	memset(grh, 0, sizeof(grh));
	if (p->ipv6)
		memcpy(grh, p->l3, ROCE_IPV6_HLEN);
	else
		memcpy(grh + ROCE_GRH_LEN - ROCE_IPV4_HLEN, p->l3, ROCE_IPV4_HLEN);
	pd = from_srq ? qp->srq->pd_id : qp->pd_id;
	e = soft_sges_copy(qp->dev, pd, r.sge, r.num_sges, 0, grh, ROCE_GRH_LEN, true);
	if (!e)
		e = soft_sges_copy(qp->dev, pd, r.sge, r.num_sges, ROCE_GRH_LEN,
				   (uint8_t *)(uintptr_t)p->payload, p->paylen, true);
	if (e) {
		rq_error_cqe(qp, &r, from_srq, soft_mr_err_to_flush(e));
		soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, mr_err_ae(e));
		return;
	}
	memset(&c, 0, sizeof(c));
	c.bytes = ROCE_GRH_LEN + p->paylen;
	c.op = rq_cqe_op(qp, p);
	c.solicited = p->se;
	c.inv_stag_or_src_qpn = p->deth.sqpn;
	c.inv_or_ipv4 = !p->ipv6;
	c.smac_valid = true;
	memcpy(c.smac, p->smac, 6);
	if (p->has_vlan) {
		c.vlan_valid = true;
		c.vlan = p->vlan_tci;
	}
	if (p->oi->flags & ROCE_OPF_IMM) {
		c.imm_valid = true;
		c.imm = p->imm;
	}
	if (soft_rq_complete(qp, &c, from_srq, &r))
		soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_FATAL, 0);
}

static bool in_send(uint8_t op)
{
	return op == ROCE_OP_RC_SEND_FIRST || op == ROCE_OP_RC_SEND_MIDDLE;
}

static bool in_write(uint8_t op)
{
	return op == ROCE_OP_RC_WRITE_FIRST || op == ROCE_OP_RC_WRITE_MIDDLE;
}

void soft_resp_rx(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags;
	int32_t d;

	if (qp->type == IRDMA_HW_QP_UD) {
		if (f & ROCE_OPF_SEND)
			resp_ud(qp, p);
		return;
	}
	d = roce_psn_diff(p->psn, qp->epsn);
	if (d > 0) { /* a packet was lost: one sequence NAK per gap */
		qp->st.rx_dropped++;
		if (!qp->nak_sent) {
			qp->nak_sent = true;
			resp_ctl(qp, ROCE_SYN_NAK_PSN_SEQ, qp->epsn);
		}
		return;
	}
	if (d < 0) {
		resp_duplicate(qp, p);
		return;
	}
	qp->nak_sent = false;
	/* Opcode sequence: a MIDDLE/LAST only continues the same kind of message. */
	if ((f & ROCE_OPF_ONLY) != ROCE_OPF_LAST && !(f & ROCE_OPF_MIDDLE)) {
		if (in_send(qp->last_req_op) || in_write(qp->last_req_op)) {
			resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, FLUSH_REM_INV_REQ_ERR,
				  IRDMA_HW_EVENT_QP_REQ_ERR, IRDMA_AE_IB_INVALID_REQUEST);
			return;
		}
	} else if (!((f & ROCE_OPF_SEND) && in_send(qp->last_req_op)) &&
		   !((f & ROCE_OPF_WRITE) && in_write(qp->last_req_op))) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, FLUSH_REM_INV_REQ_ERR,
			  IRDMA_HW_EVENT_QP_REQ_ERR, IRDMA_AE_IB_INVALID_REQUEST);
		return;
	}
	if ((f & (ROCE_OPF_SEND | ROCE_OPF_WRITE)) && !seg_len_ok(qp, p)) {
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, FLUSH_REM_INV_REQ_ERR,
			  IRDMA_HW_EVENT_QP_REQ_ERR, IRDMA_AE_ROCE_RSP_LENGTH_ERROR);
		return;
	}
	if (f & ROCE_OPF_SEND)
		resp_send(qp, p);
	else if (f & ROCE_OPF_WRITE)
		resp_write(qp, p);
	else if (f & ROCE_OPF_READ)
		resp_read(qp, p);
	else if (f & ROCE_OPF_ATOMIC)
		resp_atomic(qp, p);
	else
		resp_fail(qp, p, ROCE_SYN_NAK_INV_REQ, 0, IRDMA_HW_EVENT_QP_REQ_ERR,
			  IRDMA_AE_IB_INVALID_REQUEST);
}

/* Sends pending READ responses and atomic ACKs in PSN order, then a deferred ACK. */
unsigned int soft_resp_run(struct soft_qp *qp, unsigned int budget)
{
	uint32_t mtu = qp_mtu(qp);
	unsigned int sent = 0;

	if (qp->type != IRDMA_HW_QP_RC || qp->state == IRDMA_HW_QPS_ERR)
		return 0;
	while (qp->res_tail != qp->res_next && sent < budget && soft_wire_tx_room(qp->dev, 1)) {
		struct soft_rd_res *r = &qp->res[qp->res_tail & RES_MASK(qp)];
		struct roce_pkt p;
		struct rte_mbuf *m;
		uint8_t *pay;
		uint32_t chunk = 0;
		bool first, last;

		memset(&p, 0, sizeof(p));
		soft_wire_address(qp->dev, qp, &qp->attr.av, &p);
		p.dqpn = qp->attr.dest_qpn;
		p.psn = r->next_psn;
		p.aeth.syndrome = ROCE_SYN_ACK;
		p.aeth.msn = qp->msn;
		if (r->atomic) {
			p.opcode = ROCE_OP_RC_ATOMIC_ACK;
			p.atmack = r->atomic_orig;
			last = true;
		} else {
			chunk = (uint32_t)RTE_MIN((uint64_t)mtu, r->length - r->sent);
			first = r->next_psn == r->first_psn;
			last = r->sent + chunk == r->length;
			p.opcode = first && last ? ROCE_OP_RC_READ_RESP_ONLY :
				   first	 ? ROCE_OP_RC_READ_RESP_FIRST :
				   last		 ? ROCE_OP_RC_READ_RESP_LAST :
						   ROCE_OP_RC_READ_RESP_MIDDLE;
			p.paylen = chunk;
		}
		m = soft_wire_alloc(qp->dev, &p, &pay);
		if (m == NULL)
			break;
		if (chunk) {
			uint8_t *host;
			enum soft_mr_err e = soft_mr_check_remote(qp->dev, qp, r->rkey,
								  r->va + r->sent, chunk,
								  IRDMA_HW_ACCESS_REMOTE_READ, &host);
			if (e) { /* the region went away under the read */
				rte_pktmbuf_free(m);
				resp_ctl(qp, ROCE_SYN_NAK_REM_ACC, r->next_psn);
				soft_qp_to_error(qp, IRDMA_HW_EVENT_QP_ACCESS_ERR, mr_err_ae(e));
				return sent;
			}
			memcpy(pay, host, chunk);
		}
		soft_wire_send(qp->dev, m, &p);
		qp->st.tx_packets++;
		qp->st.tx_bytes += chunk;
		sent++;
		r->sent += chunk;
		r->next_psn = roce_psn_add(r->next_psn, 1);
		if (last)
			qp->res_tail++;
	}
	if (qp->ctl_pending && sent < budget && qp->res_tail == qp->res_next) {
		resp_ctl(qp, qp->ctl_syn, qp->ctl_psn);
		sent++;
	}
	return sent;
}
