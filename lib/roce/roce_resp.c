/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RC/UC responder: PSN and opcode-sequence checks, length and key checks, execution
 * through the device callbacks, MSN, ACK coalescing, RNR and error NAKs, duplicate
 * detection and replay of READs and atomics from the responder resources.
 *
 * Responses wait in a small FIFO of jobs (ACK/NAK, READ response stream, atomic ACK) so
 * they leave in PSN order; a new ACK merges into an ACK at the tail (coalescing).
 */
#include <errno.h>

#include "roce_qp_priv.h"

static int syndrome_is_fatal(uint8_t syn)
{
	return (syn & ROCE_AETH_TYPE_MASK) == ROCE_AETH_NAK && syn != ROCE_SYN_NAK_PSN_SEQ;
}

void roce_resp_reset(struct roce_qp *qp)
{
	uint32_t i;

	qp->resp.epsn = 0;
	qp->resp.msn = 0;
	qp->resp.ack_psn = ROCE_PSN_MASK;
	qp->resp.ctx = ROCE_RESP_IDLE;
	qp->resp.nak_sent = 0;
	qp->resp.have_wqe = 0;
	qp->resp.jhead = qp->resp.jtail = 0;
	qp->resp.res_next = 0;
	for (i = 0; i < qp->resp.nres; i++)
		qp->resp.res[i].type = ROCE_RES_FREE;
}

/* Error: the message in progress fails; only error NAKs stay queued. */
void roce_resp_abort(struct roce_qp *qp, uint8_t status)
{
	uint32_t i, keep = qp->resp.jhead;

	if (qp->resp.have_wqe) {
		struct roce_recv_done d = { .status = status };

		qp->resp.have_wqe = 0;
		qp->ops->recv_end(qp, qp->resp.wqe, &d);
	}
	qp->resp.ctx = ROCE_RESP_IDLE;
	for (i = qp->resp.jhead; i != qp->resp.jtail; i++) {
		struct roce_job *j = &qp->resp.jobs[i & qp->resp.jmask];

		if (j->type == ROCE_JOB_ACK && syndrome_is_fatal(j->syndrome))
			qp->resp.jobs[keep++ & qp->resp.jmask] = *j;
	}
	qp->resp.jtail = keep;
}

static int jobs_full(const struct roce_qp *qp)
{
	return qp->resp.jtail - qp->resp.jhead > qp->resp.jmask;
}

static struct roce_job *job_push(struct roce_qp *qp, uint8_t type)
{
	struct roce_job *j;

	if (jobs_full(qp))
		return NULL;
	j = &qp->resp.jobs[qp->resp.jtail++ & qp->resp.jmask];
	j->type = type;
	j->started = 0;
	return j;
}

/*
 * Queues an ACK or NAK. A pending ACK or sequence/RNR NAK at the tail is superseded by
 * the newer one: ACK p acknowledges everything up to p, a NAK at p everything before p.
 */
static void queue_ack(struct roce_qp *qp, uint8_t syn, uint32_t psn)
{
	struct roce_job *j = NULL;

	if (qp->resp.jhead != qp->resp.jtail) {
		j = &qp->resp.jobs[(qp->resp.jtail - 1) & qp->resp.jmask];
		if (j->type != ROCE_JOB_ACK || syndrome_is_fatal(j->syndrome))
			j = NULL;
	}
	if (!j)
		j = job_push(qp, ROCE_JOB_ACK);
	if (!j)
		return; /* full: the requester's timer recovers */
	j->syndrome = syn;
	j->psn = psn;
	j->msn = qp->resp.msn;
}

/* Class A/C errors: NAK, fail the receive WQE of the message, QP to error. */
static enum roce_reason fatal(struct roce_qp *qp, uint8_t syn, uint32_t psn, uint8_t wqe_status,
			      enum roce_reason reason)
{
	if (qp->type == ROCE_QPT_RC) {
		queue_ack(qp, syn, psn);
		qp->stats.err_naks_tx++;
	}
	if (qp->resp.have_wqe) {
		struct roce_recv_done d = { .status = wqe_status };

		qp->resp.have_wqe = 0;
		qp->ops->recv_end(qp, qp->resp.wqe, &d);
	}
	roce_qp_set_error(qp, wqe_status);
	return roce_drop(qp, reason);
}

static enum roce_reason inv_req(struct roce_qp *qp, uint32_t psn, enum roce_reason reason)
{
	return fatal(qp, ROCE_SYN_NAK_INV_REQ, psn, ROCE_WC_REM_INV_REQ_ERR, reason);
}

static enum roce_reason place_error(struct roce_qp *qp, uint32_t psn, int r)
{
	if (r == -EMSGSIZE)
		return fatal(qp, ROCE_SYN_NAK_INV_REQ, psn, ROCE_WC_LOC_LEN_ERR, ROCE_R_LENGTH);
	return fatal(qp, ROCE_SYN_NAK_REM_OP, psn,
		     r == -EACCES ? ROCE_WC_LOC_PROT_ERR : ROCE_WC_LOC_QP_OP_ERR,
		     ROCE_R_REMOTE_OP);
}

/* The resources in use are res[0, max_dest_rd_atomic); res_next is the oldest. */
static struct roce_rd_res *find_res(struct roce_qp *qp, uint8_t type, uint32_t psn)
{
	uint32_t i, n = qp->max_dest_rd_atomic, idx = qp->resp.res_next;

	/* Newest first: a wrapped PSN space could match an old entry too. */
	for (i = 0; i < n; i++) {
		struct roce_rd_res *r;

		idx = idx ? idx - 1 : n - 1;
		r = &qp->resp.res[idx];
		if (r->type == type && roce_psn_le(r->first_psn, psn) &&
		    roce_psn_le(psn, r->last_psn))
			return r;
	}
	return NULL;
}

static struct roce_rd_res *new_res(struct roce_qp *qp)
{
	/* Oldest-first reuse; the requester's ORD <= our IRD protects live entries. */
	struct roce_rd_res *r = &qp->resp.res[qp->resp.res_next];

	qp->resp.res_next = qp->resp.res_next + 1 < qp->max_dest_rd_atomic ?
				    qp->resp.res_next + 1 : 0;
	return r;
}

static enum roce_reason duplicate(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t f = pkt->oi->flags;
	struct roce_rd_res *r;
	struct roce_job *j;

	if (f & (ROCE_OPF_SEND | ROCE_OPF_WRITE)) {
		/* Already executed: acknowledge again, with the last executed PSN. */
		qp->stats.dup_requests++;
		queue_ack(qp, ROCE_SYN_ACK, qp->resp.ack_psn);
		return roce_drop(qp, ROCE_R_DUPLICATE);
	}
	if (f & ROCE_OPF_READ) {
		uint32_t skip;

		r = qp->max_dest_rd_atomic ? find_res(qp, ROCE_RES_READ, pkt->psn) : NULL;
		if (!r)
			return roce_drop(qp, ROCE_R_DUP_NO_RES);
		skip = (uint32_t)roce_psn_diff(pkt->psn, r->first_psn) * qp->pmtu;
		/* The request must name the rest of the original range from this PSN. */
		if (pkt->reth.rkey != r->rkey || pkt->reth.va != r->va + skip ||
		    (uint64_t)pkt->reth.len + skip != r->len)
			return roce_drop(qp, ROCE_R_DUP_NO_RES);
		/* A replay is a new execution: the region may have been deregistered since
		 * (found by tests/wire hostile: the response then failed mid-send, the QP
		 * went to error and the requester got no NAK). */
		if (pkt->reth.len && qp->ops->mr_check(qp, pkt->reth.rkey, pkt->reth.va,
						       pkt->reth.len, ROCE_ACCESS_REMOTE_READ))
			return fatal(qp, ROCE_SYN_NAK_REM_ACC, pkt->psn, ROCE_WC_REM_ACCESS_ERR,
				     ROCE_R_REMOTE_ACCESS);
		j = job_push(qp, ROCE_JOB_READ);
		if (!j)
			return roce_drop(qp, ROCE_R_DUP_NO_RES);
		j->psn = pkt->psn;
		j->first_psn = r->first_psn;
		j->va = pkt->reth.va;
		j->rkey = r->rkey;
		j->left = pkt->reth.len;
		j->msn = qp->resp.msn;
		j->syndrome = ROCE_SYN_ACK;
		j->started = pkt->psn != r->first_psn;
		qp->stats.read_replays++;
		return roce_drop(qp, ROCE_R_DUPLICATE);
	}
	if (f & ROCE_OPF_ATOMIC) {
		r = qp->max_dest_rd_atomic ? find_res(qp, ROCE_RES_ATOMIC, pkt->psn) : NULL;
		if (!r)
			return roce_drop(qp, ROCE_R_DUP_NO_RES);
		j = job_push(qp, ROCE_JOB_ATOMIC);
		if (!j)
			return roce_drop(qp, ROCE_R_DUP_NO_RES);
		j->psn = pkt->psn;
		j->orig = r->orig; /* never executed twice */
		j->msn = qp->resp.msn;
		qp->stats.atomic_replays++;
		return roce_drop(qp, ROCE_R_DUPLICATE);
	}
	return roce_drop(qp, ROCE_R_DUPLICATE);
}

/* IBTA opcode sequence: a message in progress admits only its MIDDLE/LAST. */
static int opcode_sequence_ok(const struct roce_qp *qp, uint32_t f)
{
	switch (qp->resp.ctx) {
	case ROCE_RESP_IN_SEND:
		return (f & ROCE_OPF_SEND) && !(f & ROCE_OPF_FIRST);
	case ROCE_RESP_IN_WRITE:
		return (f & ROCE_OPF_WRITE) && !(f & ROCE_OPF_FIRST);
	default:
		return !!(f & ROCE_OPF_FIRST);
	}
}

/* Payload length rules for SEND/WRITE packets and READ/WRITE DMA lengths. */
static int length_ok(const struct roce_qp *qp, const struct roce_pkt *pkt, uint32_t f)
{
	uint32_t n = pkt->paylen, mtu = qp->pmtu;

	if ((f & ROCE_OPF_RETH) && pkt->reth.len > (1u << 31))
		return 0;
	if (!(f & ROCE_OPF_PAYLOAD))
		return 1;
	if ((f & ROCE_OPF_ONLY) == ROCE_OPF_ONLY) {
		if (n > mtu)
			return 0;
	} else if (f & (ROCE_OPF_FIRST | ROCE_OPF_MIDDLE)) {
		if (n != mtu)
			return 0;
	} else if (n == 0 || n > mtu) {
		return 0;
	}
	if (!(f & ROCE_OPF_WRITE))
		return 1;
	/* RDMA WRITE: the packets must add up to the RETH length exactly. */
	if ((f & ROCE_OPF_ONLY) == ROCE_OPF_ONLY)
		return n == pkt->reth.len;
	if (f & ROCE_OPF_FIRST)
		return pkt->reth.len > mtu;
	if (f & ROCE_OPF_MIDDLE)
		return qp->resp.wr_left > mtu;
	return n == qp->resp.wr_left;
}

static enum roce_reason exec_send(struct roce_qp *qp, const struct roce_pkt *pkt, uint32_t f)
{
	int r;

	if (pkt->paylen) {
		r = qp->ops->recv_place(qp, qp->resp.wqe, qp->resp.wqe_off, pkt->payload,
					pkt->paylen);
		if (unlikely(r)) {
			if (r == -EBADMSG) /* ICRC checked while copying (roce_resp_fusable) */
				return roce_drop(qp, ROCE_R_ICRC);
			return place_error(qp, pkt->psn, r);
		}
		qp->resp.wqe_off += pkt->paylen;
	}
	if (f & ROCE_OPF_LAST) {
		struct roce_recv_done d = {
			.status = ROCE_WC_SUCCESS,
			.opcode = ROCE_RECV_SEND,
			.byte_len = qp->resp.wqe_off,
			.pkt = pkt,
		};

		if (f & ROCE_OPF_IMM) {
			d.flags |= ROCE_RECV_F_IMM;
			d.imm = pkt->imm;
		} else if (f & ROCE_OPF_IETH) {
			d.flags |= ROCE_RECV_F_INV;
			d.imm = pkt->ieth;
		}
		if (pkt->se)
			d.flags |= ROCE_RECV_F_SOLICITED;
		qp->resp.have_wqe = 0;
		qp->resp.ctx = ROCE_RESP_IDLE;
		qp->resp.msn = (qp->resp.msn + 1) & ROCE_MSN_MASK;
		qp->ops->recv_end(qp, qp->resp.wqe, &d);
	} else {
		qp->resp.ctx = ROCE_RESP_IN_SEND;
	}
	return ROCE_R_OK;
}

static enum roce_reason exec_write(struct roce_qp *qp, const struct roce_pkt *pkt, uint32_t f)
{
	int r;

	if (f & ROCE_OPF_FIRST) {
		qp->resp.wr_va = pkt->reth.va;
		qp->resp.wr_rkey = pkt->reth.rkey;
		qp->resp.wr_left = qp->resp.wr_len = pkt->reth.len;
	}
	if (pkt->paylen) {
		r = qp->ops->mem_write(qp, qp->resp.wr_rkey, qp->resp.wr_va, pkt->payload,
				       pkt->paylen);
		if (unlikely(r))
			return fatal(qp, ROCE_SYN_NAK_REM_ACC, pkt->psn, ROCE_WC_REM_ACCESS_ERR,
				     ROCE_R_REMOTE_ACCESS);
		qp->resp.wr_va += pkt->paylen;
		qp->resp.wr_left -= pkt->paylen;
	}
	if (f & ROCE_OPF_LAST) {
		qp->resp.ctx = ROCE_RESP_IDLE;
		qp->resp.msn = (qp->resp.msn + 1) & ROCE_MSN_MASK;
		if (f & ROCE_OPF_IMM) {
			struct roce_recv_done d = {
				.status = ROCE_WC_SUCCESS,
				.opcode = ROCE_RECV_WRITE_IMM,
				.flags = ROCE_RECV_F_IMM | (pkt->se ? ROCE_RECV_F_SOLICITED : 0),
				.byte_len = qp->resp.wr_len,
				.imm = pkt->imm,
				.pkt = pkt,
			};

			qp->resp.have_wqe = 0;
			qp->ops->recv_end(qp, qp->resp.wqe, &d);
		}
	} else {
		qp->resp.ctx = ROCE_RESP_IN_WRITE;
	}
	return ROCE_R_OK;
}

static void exec_read(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t npkts = pkt->reth.len ? (pkt->reth.len + qp->pmtu - 1) / qp->pmtu : 1;
	struct roce_job *j = job_push(qp, ROCE_JOB_READ);
	struct roce_rd_res *r = new_res(qp);

	r->type = ROCE_RES_READ;
	r->first_psn = pkt->psn;
	r->last_psn = roce_psn_add(pkt->psn, npkts - 1);
	r->va = pkt->reth.va;
	r->rkey = pkt->reth.rkey;
	r->len = pkt->reth.len;
	qp->resp.msn = (qp->resp.msn + 1) & ROCE_MSN_MASK;
	j->psn = j->first_psn = pkt->psn;
	j->va = r->va;
	j->rkey = r->rkey;
	j->left = r->len;
	j->msn = qp->resp.msn;
	qp->resp.epsn = roce_psn_add(r->last_psn, 1);
}

static enum roce_reason exec_atomic(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	struct roce_rd_res *r;
	struct roce_job *j;
	uint64_t orig = 0;

	if (unlikely(qp->ops->atomic(qp, pkt->atmeth.rkey, pkt->atmeth.va,
				     pkt->opcode == ROCE_OP_RC_CMP_SWAP, pkt->atmeth.swap_add,
				     pkt->atmeth.cmp, &orig)))
		return fatal(qp, ROCE_SYN_NAK_REM_ACC, pkt->psn, ROCE_WC_REM_ACCESS_ERR,
			     ROCE_R_REMOTE_ACCESS);
	r = new_res(qp);
	r->type = ROCE_RES_ATOMIC;
	r->first_psn = r->last_psn = pkt->psn;
	r->va = pkt->atmeth.va;
	r->rkey = pkt->atmeth.rkey;
	r->len = 8;
	r->orig = orig;
	qp->resp.msn = (qp->resp.msn + 1) & ROCE_MSN_MASK;
	j = job_push(qp, ROCE_JOB_ATOMIC);
	j->psn = pkt->psn;
	j->orig = orig;
	j->msn = qp->resp.msn;
	qp->resp.ack_psn = pkt->psn;
	qp->resp.epsn = roce_psn_add(pkt->psn, 1);
	return ROCE_R_OK;
}

/* UC: a gap or an out-of-place opcode drops the message in progress; the receive WQE
 * it had taken is kept for the next message. 1: drop this packet too. */
static int uc_resync(struct roce_qp *qp, const struct roce_pkt *pkt, uint32_t f)
{
	if (pkt->psn != qp->resp.epsn || !opcode_sequence_ok(qp, f)) {
		qp->resp.ctx = ROCE_RESP_IDLE;
		qp->resp.wqe_off = 0;
		qp->resp.epsn = pkt->psn;
		if (!(f & ROCE_OPF_FIRST)) {
			qp->resp.epsn = roce_psn_add(pkt->psn, 1);
			return 1;
		}
	}
	return 0;
}

/*
 * The common case without the case analysis below: the next in-order RDMA WRITE ONLY,
 * MIDDLE or LAST (no immediate) of an RC responder (PSN and length checked by the
 * caller), remote write allowed, lengths as the general path demands. It does what the
 * general path does for such a packet, in the same order (key check of the whole message
 * before a byte moves, then the write, MSN, ACK); anything else returns ROCE_R_GENERAL and
 * takes the general path.
 */
static inline enum roce_reason resp_fast_write(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t n = pkt->paylen, psn = pkt->psn;
	int last, r;

	if (!(qp->access & ROCE_ACCESS_REMOTE_WRITE))
		return ROCE_R_GENERAL;
	switch (pkt->opcode) {
	case ROCE_OP_RC_WRITE_ONLY:
		if (qp->resp.ctx != ROCE_RESP_IDLE || n != pkt->reth.len || n == 0)
			return ROCE_R_GENERAL;
		qp->resp.nak_sent = 0;
		if (likely(qp->ops->mem_write_checked != NULL)) {
			/* The key check and the copy in one pass. The message ends with this
			 * packet, so nothing of it is kept: wr_* are read only inside a WRITE
			 * (MIDDLE/LAST, ctx IN_WRITE) and the next FIRST sets them; ctx stays
			 * IDLE. */
			if (unlikely(qp->ops->mem_write_checked(qp, pkt->reth.rkey, pkt->reth.va,
								pkt->payload, n)))
				return fatal(qp, ROCE_SYN_NAK_REM_ACC, psn,
					     ROCE_WC_REM_ACCESS_ERR, ROCE_R_REMOTE_ACCESS);
			qp->resp.epsn = roce_psn_add(psn, 1);
			qp->resp.ack_psn = psn;
			qp->resp.msn = (qp->resp.msn + 1) & ROCE_MSN_MASK;
			queue_ack(qp, ROCE_SYN_ACK, psn);
			return ROCE_R_OK;
		}
		qp->resp.wr_rkey = pkt->reth.rkey;
		qp->resp.wr_len = n;
		if (unlikely(qp->ops->mr_check(qp, pkt->reth.rkey, pkt->reth.va, n,
					       ROCE_ACCESS_REMOTE_WRITE)))
			return fatal(qp, ROCE_SYN_NAK_REM_ACC, psn, ROCE_WC_REM_ACCESS_ERR,
				     ROCE_R_REMOTE_ACCESS);
		qp->resp.wr_va = pkt->reth.va;
		qp->resp.wr_left = n;
		last = 1;
		break;
	case ROCE_OP_RC_WRITE_MIDDLE:
		if (qp->resp.ctx != ROCE_RESP_IN_WRITE || n != qp->pmtu || qp->resp.wr_left <= n)
			return ROCE_R_GENERAL;
		last = 0;
		break;
	case ROCE_OP_RC_WRITE_LAST:
		if (qp->resp.ctx != ROCE_RESP_IN_WRITE || n == 0 || n != qp->resp.wr_left)
			return ROCE_R_GENERAL;
		last = 1;
		break;
	default:
		return ROCE_R_GENERAL;
	}
	r = qp->ops->mem_write(qp, qp->resp.wr_rkey, qp->resp.wr_va, pkt->payload, n);
	if (unlikely(r)) {
		if (r == -EBADMSG) /* ICRC checked while copying (roce_resp_fusable): not arrived */
			return roce_drop(qp, ROCE_R_ICRC);
		return fatal(qp, ROCE_SYN_NAK_REM_ACC, psn, ROCE_WC_REM_ACCESS_ERR,
			     ROCE_R_REMOTE_ACCESS);
	}
	qp->resp.nak_sent = 0;
	qp->resp.wr_va += n;
	qp->resp.wr_left -= n;
	if (!last) {
		qp->resp.epsn = roce_psn_add(psn, 1);
		qp->resp.ack_psn = psn;
		qp->resp.ctx = ROCE_RESP_IN_WRITE;
		if (pkt->ackreq)
			queue_ack(qp, ROCE_SYN_ACK, psn);
		return ROCE_R_OK;
	}
	qp->resp.epsn = roce_psn_add(psn, 1);
	qp->resp.ack_psn = psn;
	qp->resp.ctx = ROCE_RESP_IDLE;
	qp->resp.msn = (qp->resp.msn + 1) & ROCE_MSN_MASK;
	queue_ack(qp, ROCE_SYN_ACK, psn);
	return ROCE_R_OK;
}

/*
 * The same for the next in-order SEND ONLY (no immediate, no invalidate) of an RC
 * responder: a receive WQE (none: RNR NAK), the payload placed, the receive completed, MSN,
 * ACK, as the general path does for it; a message in progress takes the general path.
 */
static inline enum roce_reason resp_fast_send(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t psn = pkt->psn;
	enum roce_reason r;

	if (qp->resp.ctx != ROCE_RESP_IDLE || qp->resp.have_wqe)
		return ROCE_R_GENERAL;
	qp->resp.nak_sent = 0;
	if (qp->ops->recv_begin(qp, 0, &qp->resp.wqe)) {
		queue_ack(qp, ROCE_AETH_RNR_NAK | (qp->min_rnr_timer & ROCE_AETH_VALUE_MASK), psn);
		qp->resp.nak_sent = 1; /* later packets of the burst: no sequence NAK */
		qp->stats.rnr_naks_tx++;
		return roce_drop(qp, ROCE_R_RNR);
	}
	qp->resp.have_wqe = 1;
	qp->resp.wqe_off = 0;
	r = exec_send(qp, pkt, pkt->oi->flags);
	if (r)
		return r;
	qp->resp.epsn = roce_psn_add(psn, 1);
	qp->resp.ack_psn = psn;
	queue_ack(qp, ROCE_SYN_ACK, psn);
	return ROCE_R_OK;
}

/* The same for the next in-order RC READ request with room for its response: the key
 * check of the whole range, then the response job and its replay resource. */
static inline enum roce_reason resp_fast_read(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	if (qp->resp.ctx != ROCE_RESP_IDLE || !(qp->access & ROCE_ACCESS_REMOTE_READ) ||
	    !qp->max_dest_rd_atomic || pkt->reth.len > (1u << 31) || jobs_full(qp))
		return ROCE_R_GENERAL;
	qp->resp.nak_sent = 0;
	if (pkt->reth.len && unlikely(qp->ops->mr_check(qp, pkt->reth.rkey, pkt->reth.va,
							pkt->reth.len, ROCE_ACCESS_REMOTE_READ)))
		return fatal(qp, ROCE_SYN_NAK_REM_ACC, pkt->psn, ROCE_WC_REM_ACCESS_ERR,
			     ROCE_R_REMOTE_ACCESS);
	exec_read(qp, pkt);
	return ROCE_R_OK;
}

static enum roce_reason resp_rx_general(struct roce_qp *qp, const struct roce_pkt *pkt);

/* The fast paths first, in a frame of their own: the general responder's register
 * saves and stack are not paid on the common packet. */
enum roce_reason roce_resp_rx(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	enum roce_reason r;

	(void)now;
	if (qp->type == ROCE_QPT_RC && pkt->psn == qp->resp.epsn && pkt->paylen <= qp->pmtu) {
		r = pkt->opcode == ROCE_OP_RC_SEND_ONLY ? resp_fast_send(qp, pkt) :
		    pkt->opcode == ROCE_OP_RC_READ_REQ  ? resp_fast_read(qp, pkt) :
							  resp_fast_write(qp, pkt);
		if (r != ROCE_R_GENERAL)
			return r;
	}
	return resp_rx_general(qp, pkt);
}

__attribute__((noinline)) static enum roce_reason
resp_rx_general(struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t f = pkt->oi->flags, psn = pkt->psn;
	int uc = qp->type == ROCE_QPT_UC, d;
	enum roce_reason r;

	if (uc) {
		if (uc_resync(qp, pkt, f))
			return roce_drop(qp, ROCE_R_UC_DROP);
	} else {
		d = roce_psn_diff(psn, qp->resp.epsn);
		if (d > 0) {
			/* Lost packets before this one: one NAK per gap. */
			if (!qp->resp.nak_sent) {
				qp->resp.nak_sent = 1;
				queue_ack(qp, ROCE_SYN_NAK_PSN_SEQ, qp->resp.epsn);
				qp->stats.seq_naks_tx++;
			}
			return roce_drop(qp, ROCE_R_PSN_AHEAD);
		}
		if (d < 0)
			return duplicate(qp, pkt);
		qp->resp.nak_sent = 0;
		if (!opcode_sequence_ok(qp, f))
			return inv_req(qp, psn, ROCE_R_OPSEQ);
	}

	/* Operation allowed on this QP? */
	if (unlikely(((f & ROCE_OPF_WRITE) && !(qp->access & ROCE_ACCESS_REMOTE_WRITE)) ||
		     ((f & ROCE_OPF_READ) && !(qp->access & ROCE_ACCESS_REMOTE_READ)) ||
		     ((f & ROCE_OPF_ATOMIC) && !(qp->access & ROCE_ACCESS_REMOTE_ATOMIC)) ||
		     ((f & (ROCE_OPF_READ | ROCE_OPF_ATOMIC)) && !qp->max_dest_rd_atomic) ||
		     (f & (ROCE_OPF_FLUSH | ROCE_OPF_ATOMIC_WRITE)))) {
		if (uc)
			return roce_drop(qp, ROCE_R_UC_DROP);
		return inv_req(qp, psn, ROCE_R_INVALID_REQ);
	}
	if (unlikely(!length_ok(qp, pkt, f))) {
		if (uc) {
			qp->resp.ctx = ROCE_RESP_IDLE;
			qp->resp.epsn = roce_psn_add(psn, 1);
			return roce_drop(qp, ROCE_R_UC_DROP);
		}
		return inv_req(qp, psn, ROCE_R_LENGTH);
	}
	if ((f & ROCE_OPF_ATOMIC) && (pkt->atmeth.va & 7u))
		return inv_req(qp, psn, ROCE_R_INVALID_REQ);
	/* No room for the response: the peer exceeds our IRD; drop, it will resend. */
	if ((f & (ROCE_OPF_READ | ROCE_OPF_ATOMIC)) && jobs_full(qp))
		return roce_drop(qp, ROCE_R_DUP_NO_RES);

	/* A receive WQE for SEND FIRST/ONLY and WRITE with immediate: none -> RNR. */
	if ((f & ROCE_OPF_RWR) && !qp->resp.have_wqe) {
		if (qp->ops->recv_begin(qp, 0, &qp->resp.wqe)) {
			if (uc) {
				qp->resp.ctx = ROCE_RESP_IDLE;
				qp->resp.epsn = roce_psn_add(psn, 1);
				return roce_drop(qp, ROCE_R_UC_DROP);
			}
			queue_ack(qp, ROCE_AETH_RNR_NAK | (qp->min_rnr_timer & ROCE_AETH_VALUE_MASK),
				  psn);
			qp->resp.nak_sent = 1; /* later packets of the burst: no sequence NAK */
			qp->stats.rnr_naks_tx++;
			return roce_drop(qp, ROCE_R_RNR);
		}
		qp->resp.have_wqe = 1;
		qp->resp.wqe_off = 0;
	}

	/* Remote keys (zero-length transfers are not checked, IBTA C9-88). */
	if (((f & ROCE_OPF_WRITE) && (f & ROCE_OPF_FIRST) && pkt->reth.len &&
	     qp->ops->mr_check(qp, pkt->reth.rkey, pkt->reth.va, pkt->reth.len,
			       ROCE_ACCESS_REMOTE_WRITE)) ||
	    ((f & ROCE_OPF_READ) && pkt->reth.len &&
	     qp->ops->mr_check(qp, pkt->reth.rkey, pkt->reth.va, pkt->reth.len,
			       ROCE_ACCESS_REMOTE_READ)) ||
	    ((f & ROCE_OPF_ATOMIC) &&
	     qp->ops->mr_check(qp, pkt->atmeth.rkey, pkt->atmeth.va, 8,
			       ROCE_ACCESS_REMOTE_ATOMIC))) {
		if (uc) {
			qp->resp.ctx = ROCE_RESP_IDLE;
			qp->resp.epsn = roce_psn_add(psn, 1);
			return roce_drop(qp, ROCE_R_REMOTE_ACCESS);
		}
		return fatal(qp, ROCE_SYN_NAK_REM_ACC, psn, ROCE_WC_REM_ACCESS_ERR,
			     ROCE_R_REMOTE_ACCESS);
	}

	if (f & ROCE_OPF_SEND) {
		r = exec_send(qp, pkt, f);
	} else if (f & ROCE_OPF_WRITE) {
		r = exec_write(qp, pkt, f);
	} else if (f & ROCE_OPF_READ) {
		exec_read(qp, pkt);
		return ROCE_R_OK;
	} else {
		return exec_atomic(qp, pkt);
	}
	if (r)
		return r;
	qp->resp.epsn = roce_psn_add(psn, 1);
	if (!uc) {
		qp->resp.ack_psn = psn;
		if (pkt->ackreq || (f & ROCE_OPF_LAST)) {
			queue_ack(qp, ROCE_SYN_ACK, psn);
		}
	}
	return ROCE_R_OK;
}

int roce_resp_tx(struct roce_qp *qp, struct roce_tx *tx)
{
	while (qp->resp.jhead != qp->resp.jtail) {
		struct roce_job *j = &qp->resp.jobs[qp->resp.jhead & qp->resp.jmask];
		uint32_t seg;
		int final;
		uint8_t op;

		switch (j->type) {
		case ROCE_JOB_ACK:
			roce_tx_init(qp, tx, &qp->av, ROCE_OP_RC_ACK, qp->dest_qpn, j->psn);
			tx->pkt.aeth.syndrome = j->syndrome;
			tx->pkt.aeth.msn = j->msn;
			if (j->syndrome == ROCE_SYN_ACK)
				qp->stats.acks_tx++;
			qp->resp.jhead++;
			return 1;
		case ROCE_JOB_ATOMIC:
			roce_tx_init(qp, tx, &qp->av, ROCE_OP_RC_ATOMIC_ACK, qp->dest_qpn, j->psn);
			tx->pkt.aeth.syndrome = ROCE_SYN_ACK;
			tx->pkt.aeth.msn = j->msn;
			tx->pkt.atmack = j->orig;
			qp->resp.jhead++;
			return 1;
		case ROCE_JOB_READ:
			seg = j->left < qp->pmtu ? j->left : qp->pmtu;
			final = j->left <= qp->pmtu;
			op = !j->started ? (final ? ROCE_OP_RC_READ_RESP_ONLY : ROCE_OP_RC_READ_RESP_FIRST)
					 : (final ? ROCE_OP_RC_READ_RESP_LAST : ROCE_OP_RC_READ_RESP_MIDDLE);
			roce_tx_init(qp, tx, &qp->av, op, qp->dest_qpn, j->psn);
			tx->pkt.aeth.syndrome = ROCE_SYN_ACK;
			tx->pkt.aeth.msn = j->msn;
			tx->pkt.paylen = seg;
			if (seg) {
				tx->pl_src = ROCE_PL_MEM;
				tx->rkey = j->rkey;
				tx->va = j->va;
			}
			j->va += seg;
			j->left -= seg;
			j->psn = roce_psn_add(j->psn, 1);
			j->started = 1;
			if (final)
				qp->resp.jhead++;
			return 1;
		default:
			qp->resp.jhead++;
			break;
		}
	}
	return 0;
}
