/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The requester front end: after a doorbell, fetch WQEs from the SQ by valid bit, keep
 * them in SQ order, execute the local operations (NOP, local invalidate, MW bind) when
 * everything before them has completed, check local keys, and hand the remote operations
 * to lib/roce's requester (roce_qp_post_send) which segments, numbers, sends and retries
 * them. Completions come back through soft_comp.c.
 */
#include <errno.h>

#include "soft_priv.h"
#include "soft_sq_fast.h"
#include "soft_xport_fast.h"

/*
 * REQ_WAIT_WIRE: once a frame could not be had because the wire's backlog is full
 * (dev->wire_full, set by soft_wire_frame; cleared when a step starts), the SQ is left as
 * it is: the WQE that found no frame stays in the SQ (req_fast: nothing taken) or fetched
 * and PENDING (req_step), the kick stays, the engine ends its work run and visits the QP
 * again after the step's push. Handing it to the general path instead (fetch, lib/roce's
 * post, a queued frame that could not be had either) cost ~900 Ir a WRITE at 1024 busy
 * QPs. An empty mempool is not this case: its frames go the general way, as before.
 */
static inline bool req_wait_wire(const struct soft_qp *qp)
{
	return unlikely(qp->dev->wire_full);
}

#define REQ_WAIT_WIRE (-0x10000) /* req_fetch's answer: no errno of soft_sq_fetch's */

static inline uint32_t swq_next(const struct soft_qp *qp, uint32_t i)
{
	return i + 1 == qp->sq_depth ? 0 : i + 1;
}

static void req_done(struct soft_qp *qp, struct soft_swqe *s, uint8_t status)
{
	s->state = SOFT_SWQE_DONE;
	s->status = status;
	qp->swq_send = swq_next(qp, qp->swq_send);
	/* After an error nothing more is started; earlier work may still complete. */
	if (status)
		qp->sq_stalled = true;
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
	s->read_fence = w->read_fence;
	/* Local invalidate is always fenced (kernel >= 6.19 sets the flag anyway). */
	s->fence = w->local_fence || w->op == IRDMAQP_OP_LOCAL_INVALIDATE;
	s->state = SOFT_SWQE_PENDING;
	s->inl = w->inline_data;
	s->inline_len = w->inline_len;
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

static bool is_local_op(uint8_t op)
{
	return op == IRDMAQP_OP_NOP || op == IRDMAQP_OP_LOCAL_INVALIDATE ||
	       op == IRDMAQP_OP_BIND_MW;
}

static void req_local(struct soft_qp *qp, struct soft_swqe *s, const struct soft_wqe *w)
{
	int e;

	switch (s->op) {
	case IRDMAQP_OP_NOP:
		req_done(qp, s, 0);
		return;
	case IRDMAQP_OP_LOCAL_INVALIDATE:
		e = soft_mr_invalidate(qp->dev, qp->pd_id, qp->id, w->rem_stag, false);
		req_done(qp, s, soft_mr_err_to_flush(e));
		return;
	default: /* bind MW */
		if (qp->type != IRDMA_HW_QP_RC) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return;
		}
		e = soft_mw_bind(qp->dev, qp, w);
		if (e)
			SOFT_LOG(DEBUG, "%s: QP %u: bind MW 0x%x: %s", qp->dev->name, qp->id,
				 w->mw_stag, soft_mr_err_str(e));
		req_done(qp, s, e ? FLUSH_MW_BIND_ERR : 0);
	}
}

/* The lib/roce work request of a remote operation. Returns 0 or an irdma flush code. */
static uint8_t req_build(struct soft_qp *qp, const struct soft_wqe *w, struct roce_send_wr *wr)
{
	memset(wr, 0, sizeof(*wr));
	wr->id = qp->swq_send;
	wr->len = (uint32_t)w->total_len;
	wr->raddr = w->rem_addr;
	wr->rkey = w->rem_stag;
	if (w->solicited)
		wr->flags |= ROCE_WR_F_SOLICITED;
	if (w->read_fence)
		wr->flags |= ROCE_WR_F_FENCE;
	switch (w->op) {
	case IRDMAQP_OP_RDMA_SEND_INV:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV:
		wr->op = ROCE_WR_SEND_INV;
		wr->imm = w->rem_stag;
		break;
	case IRDMAQP_OP_RDMA_SEND:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT:
		wr->op = w->imm_valid ? ROCE_WR_SEND_IMM : ROCE_WR_SEND;
		wr->imm = w->imm;
		break;
	case IRDMAQP_OP_RDMA_WRITE:
	case IRDMAQP_OP_RDMA_WRITE_SOL:
		wr->op = w->imm_valid ? ROCE_WR_WRITE_IMM : ROCE_WR_WRITE;
		wr->imm = w->imm;
		break;
	case IRDMAQP_OP_RDMA_READ:
	case IRDMAQP_OP_RDMA_READ_LOC_INV:
		wr->op = ROCE_WR_READ;
		break;
	case IRDMAQP_OP_ATOMIC_FETCH_ADD:
		wr->op = ROCE_WR_FETCH_ADD;
		wr->swap_add = w->atomic_swap_add;
		break;
	case IRDMAQP_OP_ATOMIC_COMPARE_SWAP:
		wr->op = ROCE_WR_CMP_SWAP;
		wr->swap_add = w->atomic_swap_add;
		wr->cmp = w->atomic_cmp;
		break;
	default:
		return FLUSH_LOC_QP_OP_ERR;
	}
	if (w->total_len > SOFT_MAX_MSG)
		return FLUSH_LOC_LEN_ERR;
	if (qp->type == IRDMA_HW_QP_UD) {
		const struct soft_ah *ah = w->ah_id < qp->dev->max_ah ? &qp->dev->ah[w->ah_id] : NULL;

		if (ah == NULL || !ah->in_use || ah->pd_id != qp->pd_id ||
		    (wr->op != ROCE_WR_SEND && wr->op != ROCE_WR_SEND_IMM))
			return FLUSH_LOC_QP_OP_ERR;
		wr->dqpn = w->dest_qp;
		wr->qkey = w->qkey;
		wr->av = &ah->rav;
	}
	return 0;
}

/* Starts swq[swq_send]. Returns 0 when it moved on, -1 when it must wait. */
static int req_step(struct soft_qp *qp, uint64_t now)
{
	struct soft_swqe *s = &qp->swq[qp->swq_send];
	struct soft_wqe *w = &qp->cur;
	struct roce_send_wr wr;
	uint8_t fail;
	int e;
	int rc;

	if (s->state == SOFT_SWQE_DONE) { /* malformed at fetch */
		qp->swq_send = swq_next(qp, qp->swq_send);
		return 0;
	}
	/* Local operations and local fences wait until everything before completed. */
	if ((s->fence || is_local_op(s->op)) && qp->swq_done != qp->swq_send) {
		soft_comp_retire(qp);
		if (qp->swq_done != qp->swq_send || qp->state == IRDMA_HW_QPS_ERR)
			return -1;
	}
	if (qp->cur_slot != qp->swq_send) {
		if (soft_sq_decode(qp, s->idx, w) < 0) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return 0;
		}
		qp->cur_slot = qp->swq_send;
	}
	if (is_local_op(s->op)) {
		req_local(qp, s, w);
		return 0;
	}
	fail = req_build(qp, w, &wr);
	if (fail) {
		req_done(qp, s, fail);
		return 0;
	}
	if (qp->type == IRDMA_HW_QP_UD && w->total_len > qp->dev->mtu) {
		req_done(qp, s, 0); /* IBTA C10-93.1.1: not sent, completes successfully */
		return 0;
	}
	if (!w->inline_data) {
		bool sink = wr.op == ROCE_WR_READ || wr.op == ROCE_WR_FETCH_ADD ||
			    wr.op == ROCE_WR_CMP_SWAP;

		e = soft_sges_check(qp->dev, qp->pd_id, w->sge, w->num_sges,
				    sink ? IRDMA_HW_ACCESS_LOCAL_WRITE : 0);
		if (e) {
			SOFT_LOG(DEBUG, "%s: QP %u: WQE %u: local key: %s", qp->dev->name, qp->id,
				 w->idx, soft_mr_err_str(e));
			req_done(qp, s, soft_mr_err_to_flush(e));
			return 0;
		}
	}
	/* Posted before the fast path runs: a failure inside it completes the WQE. */
	s->state = SOFT_SWQE_POSTED;
	if (!soft_xport_post_fast(qp, qp->swq_send, &wr, now)) {
		if (req_wait_wire(qp)) { /* REQ_WAIT_WIRE: fetched, for the next visit */
			s->state = SOFT_SWQE_PENDING;
			return -1;
		}
		rc = roce_qp_post_send(&qp->xport, &wr);
		if (rc == -ENOMEM) {
			s->state = SOFT_SWQE_PENDING;
			return -1;
		}
		if (rc) {
			req_done(qp, s, FLUSH_LOC_QP_OP_ERR);
			return 0;
		}
	}
	qp->swq_send = swq_next(qp, qp->swq_send);
	return 0;
}

/*
 * The fast path of the front end, for the common small message: an inline RDMA WRITE or
 * SEND at the SQ head with nothing fetched before it goes from the SQ to its frame in one
 * pass (soft_sq_peek_inline, soft_xport_post_fast), leaving swq[] and the SQ as fetch,
 * req_accept and req_step would. 1: sent; 0: no valid WQE; -1: not that case, nothing
 * taken (the general fetch reads the WQE again). wr: the caller's, zeroed once for a run
 * of these (every field but the UD and atomic ones, which stay 0, is set here).
 */
static __rte_always_inline int req_fast(struct soft_qp *qp, uint64_t now,
					struct roce_send_wr *wr)
{
	uint32_t slot = qp->swq_head;
	struct soft_swqe *s = &qp->swq[slot];
	struct soft_sq_inl f;
	int rc = soft_sq_peek_inline(qp, &f);
	bool write;

	if (rc <= 0)
		return rc;
	write = f.op == IRDMAQP_OP_RDMA_WRITE || f.op == IRDMAQP_OP_RDMA_WRITE_SOL;
	*s = (struct soft_swqe){
		.idx = f.idx,
		.quanta = f.quanta,
		.op = f.op,
		.signaled = f.signaled,
		.read_fence = f.read_fence,
		.state = SOFT_SWQE_POSTED, /* before the send: a failure inside it completes it */
		.inl = true,
		.inline_len = f.len,
	};
	wr->id = slot;
	wr->op = write ? (f.imm_valid ? ROCE_WR_WRITE_IMM : ROCE_WR_WRITE) :
			 (f.imm_valid ? ROCE_WR_SEND_IMM : ROCE_WR_SEND);
	wr->flags = (uint8_t)((f.solicited ? ROCE_WR_F_SOLICITED : 0) |
			      (f.read_fence ? ROCE_WR_F_FENCE : 0));
	wr->len = f.len;
	wr->raddr = f.raddr;
	wr->rkey = f.rkey;
	wr->imm = f.imm;
	if (qp->cur_slot == slot)
		qp->cur_slot = UINT32_MAX; /* the decoded copy is of an earlier WQE */
	if (!soft_xport_post_fast_inl(qp, slot, wr, now))
		return -1;
	qp->swq_head = qp->swq_send = swq_next(qp, slot);
	soft_sq_advance(qp, f.quanta);
	return 1;
}

/* The general fetch after req_fast turned a WQE down: soft_sq_fetch's answer, or
 * REQ_WAIT_WIRE (nothing fetched). Out of line like the fetch it wraps: the test costs
 * the fast loop nothing (inline, it changed the loop's register use: +7 Ir a WRITE). */
static __rte_noinline int req_fetch(struct soft_qp *qp)
{
	if (req_wait_wire(qp))
		return REQ_WAIT_WIRE;
	return soft_sq_fetch(qp, &qp->cur);
}

unsigned int soft_req_run(struct soft_qp *qp, unsigned int budget, uint64_t now)
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
	/* The state is RTS or SQD here and only a step may take it to ERR: the fetch (RTS
	 * only: SQD starts nothing new, ERR nothing at all) tests it once per run. */
	while (work < budget && !qp->sq_stalled) {
		if (qp->swq_send == qp->swq_head) {
			struct roce_send_wr wr;
			int rc;

			if (!qp->sq_kick || qp->state != IRDMA_HW_QPS_RTS)
				break;
			/* A run of fast WQEs: a sent one leaves the state, the kick and an empty
			 * fetched window as they were; only its failure stalls the SQ. */
			memset(&wr, 0, sizeof(wr));
			do {
				rc = req_fast(qp, now, &wr);
				if (rc <= 0)
					break;
				work++;
			} while (work < budget && !qp->sq_stalled);
			if (rc > 0)
				break;
			rc = rc == 0 ? 0 : req_fetch(qp);
			if (rc == 0) {
				qp->sq_kick = false;
				break;
			}
			if (unlikely(rc == REQ_WAIT_WIRE))
				break; /* the kick stays for the next visit */
			qp->cur_slot = qp->swq_head;
			req_accept(qp, &qp->cur, rc);
			work++;
			continue;
		}
		if (qp->state == IRDMA_HW_QPS_ERR || req_step(qp, now) < 0)
			break;
		work++;
	}
	return work;
}
