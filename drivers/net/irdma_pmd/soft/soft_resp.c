/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder side of the device, as lib/roce's callbacks: receive WQEs taken from the
 * RQ or SRQ (by valid bit), payload placed into their SGEs with key checks, receive CQEs
 * in the generation's format (immediate, invalidate, UD source and GRH flag, solicited),
 * and remote access to registered memory: the R_Key check (key, PD or bound QP, bounds,
 * rights, state) comes before any byte moves, every time.
 */
#include <errno.h>

#include "soft_mr_inl.h"
#include "soft_priv.h"
#include "soft_rx_fuse.h"

/* mr_check hands lib/roce's access bits to the key table unchanged. */
_Static_assert(ROCE_ACCESS_REMOTE_WRITE == IRDMA_HW_ACCESS_REMOTE_WRITE &&
		       ROCE_ACCESS_REMOTE_READ == IRDMA_HW_ACCESS_REMOTE_READ &&
		       ROCE_ACCESS_REMOTE_ATOMIC == IRDMA_HW_ACCESS_REMOTE_ATOMIC,
	       "ROCE_ACCESS_* and IRDMA_HW_ACCESS_REMOTE_* share their values");

static inline struct soft_qp *qp_of(struct roce_qp *xq)
{
	return xq->user;
}

int soft_resp_recv_begin(struct roce_qp *xq, uint32_t min_len, uint64_t *cookie)
{
	struct soft_qp *qp = qp_of(xq);
	struct soft_recv_ctx *rc = &qp->rctx;
	int r;

	/* UD (min_len): look before taking, a WQE too small stays; RC takes it at once */
	r = soft_rq_fetch(qp, &rc->rwqe, &rc->from_srq, min_len == 0);
	if (r == 0)
		return -ENOBUFS;
	if (min_len) {
		if (r > 0 && rc->rwqe.total_len < min_len)
			return -EMSGSIZE; /* UD: too small, not consumed */
		soft_rq_fetch(qp, &rc->rwqe, &rc->from_srq, true);
	}
	rc->active = true;
	*cookie = 0;
	if (r < 0) {
		/* malformed WQE: it completes with an error and takes the QP down */
		struct soft_cqe c;

		memset(&c, 0, sizeof(c));
		c.error = true;
		c.major = IRDMA_FLUSH_MAJOR_ERR;
		c.minor = FLUSH_LOC_QP_OP_ERR;
		c.op = IRDMA_OP_TYPE_REC;
		rc->active = false;
		soft_rq_complete(qp, &c, rc->from_srq, &rc->rwqe);
		qp->wire_err = true;
		qp->wire_err_status = ROCE_WC_LOC_QP_OP_ERR;
		return -EINVAL;
	}
	return 0;
}

int soft_resp_recv_place(struct roce_qp *xq, uint64_t cookie, uint32_t off, const void *data,
			 uint32_t len)
{
	struct soft_qp *qp = qp_of(xq);
	struct soft_recv_ctx *rc = &qp->rctx;

	RTE_SET_USED(cookie);
	if ((uint64_t)off + len > rc->rwqe.total_len) /* a damaged frame: dropped, not NAKed */
		return soft_rx_fuse_settle(qp, data, len) ? -EBADMSG : -EMSGSIZE;
	/* the ICRC too when soft_rx_icrc() left it to this copy */
	return soft_rx_fuse_scatter(qp, rc->from_srq ? qp->srq->pd_id : qp->pd_id, rc->rwqe.sge,
				    rc->rwqe.num_sges, off, data, len);
}

/* Receive CQE opcode as each generation reports it (doc/spec/irdma-uk.md §3.9): GEN_1/2
 * RoCE the BTH opcode of the completing packet, GEN_3 the sender's WQE opcode. */
static uint8_t rq_cqe_op(const struct soft_qp *qp, const struct roce_recv_done *d)
{
	bool se = d->flags & ROCE_RECV_F_SOLICITED;

	if (d->pkt == NULL)
		return IRDMA_OP_TYPE_REC;
	if (qp->dev->gen < IRDMA_GEN_3)
		return d->pkt->opcode & 0x1F;
	if (d->opcode == ROCE_RECV_WRITE_IMM)
		return se ? IRDMAQP_OP_RDMA_WRITE_SOL : IRDMAQP_OP_RDMA_WRITE;
	if (d->flags & ROCE_RECV_F_INV)
		return se ? IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV : IRDMAQP_OP_RDMA_SEND_INV;
	return se ? IRDMAQP_OP_RDMA_SEND_SOL_EVENT : IRDMAQP_OP_RDMA_SEND;
}

void soft_resp_recv_end(struct roce_qp *xq, uint64_t cookie, const struct roce_recv_done *d)
{
	struct soft_qp *qp = qp_of(xq);
	struct soft_recv_ctx *rc = &qp->rctx;
	uint8_t status = soft_wc_to_flush(d->status);
	struct soft_cqe c;

	RTE_SET_USED(cookie);
	if (!rc->active)
		return;
	rc->active = false;
	memset(&c, 0, sizeof(c));
	if (status == 0 && (d->flags & ROCE_RECV_F_INV)) {
		if (soft_mr_invalidate(qp->dev, qp->pd_id, qp->id, d->imm, true)) {
			/* an R_Key that cannot be invalidated: the receive fails, QP to ERR */
			status = FLUSH_REM_INV_REQ_ERR;
			qp->wire_err = true;
			qp->wire_err_status = ROCE_WC_REM_INV_REQ_ERR;
		} else {
			c.inv_or_ipv4 = true;
			c.inv_stag_or_src_qpn = d->imm;
		}
	}
	if (status) {
		c.error = true;
		c.major = IRDMA_FLUSH_MAJOR_ERR;
		c.minor = status;
		c.op = IRDMA_OP_TYPE_REC;
	} else {
		c.bytes = d->byte_len;
		c.op = rq_cqe_op(qp, d);
		c.solicited = (d->flags & ROCE_RECV_F_SOLICITED) != 0;
		if (d->flags & ROCE_RECV_F_IMM) {
			c.imm_valid = true;
			c.imm = d->imm;
		}
		if (qp->type == IRDMA_HW_QP_UD && d->pkt) {
			c.inv_stag_or_src_qpn = d->src_qp;
			c.inv_or_ipv4 = !d->pkt->ipv6;
			c.smac_valid = true;
			memcpy(c.smac, d->pkt->smac, 6);
			if (d->pkt->has_vlan) {
				c.vlan_valid = true;
				c.vlan = d->pkt->vlan_tci;
			}
		}
	}
	if (soft_rq_complete(qp, &c, rc->from_srq, &rc->rwqe) && !qp->wire_err) {
		qp->wire_err = true; /* CQ overflow */
		qp->wire_err_status = ROCE_WC_FATAL_ERR;
	}
}

int soft_resp_mr_check(struct roce_qp *xq, uint32_t rkey, uint64_t va, uint32_t len,
		       unsigned int access)
{
	struct soft_qp *qp = qp_of(xq);
	uint8_t *host;
	int e = soft_mr_check_remote_inl(qp->dev, qp, rkey, va, len, access, &host);

	if (e >= 0 && access == ROCE_ACCESS_REMOTE_WRITE) {
		qp->rctx.wchk_rkey = rkey;
		qp->rctx.wchk_va = va;
		qp->rctx.wchk_len = len;
		qp->rctx.wchk_host = host;
	}
	if (e < 0)
		SOFT_LOG(DEBUG, "%s: QP %u: rkey 0x%x [0x%" PRIx64 ", +%u) access 0x%x: %s",
			 qp->dev->name, qp->id, rkey, va, len, access, soft_mr_err_str(e));
	return soft_mr_err_roce(e);
}

int soft_resp_mem_write(struct roce_qp *xq, uint32_t rkey, uint64_t va, const void *data,
			uint32_t len)
{
	struct soft_qp *qp = qp_of(xq);
	uint8_t *host;
	int e;

	if (len == 0)
		return 0;
	/* The first packet of the WRITE, checked for the whole message by mr_check a moment
	 * ago within the same frame: no second lookup. */
	if (qp->rctx.wchk_len && rkey == qp->rctx.wchk_rkey && va == qp->rctx.wchk_va &&
	    len <= qp->rctx.wchk_len) {
		qp->rctx.wchk_len = 0;
		memcpy(qp->rctx.wchk_host, data, len);
		return 0;
	}
	e = soft_mr_check_remote_inl(qp->dev, qp, rkey, va, len, IRDMA_HW_ACCESS_REMOTE_WRITE,
				     &host);
	if (e < 0) /* a damaged frame is dropped, not answered (its ICRC first, if not checked) */
		return soft_rx_fuse_settle(qp, data, len) ? -EBADMSG : soft_mr_err_roce(e);
	return soft_rx_fuse_copy(qp, host, data, len); /* the ICRC too when left to it */
}

/* soft_resp_mem_write_checked() past the common case: the full check, its log, the copy. */
static __rte_noinline int write_checked_slow(const struct soft_qp *qp, uint32_t rkey,
					     uint64_t va, const void *data, uint32_t len)
{
	uint8_t *host;
	int e = soft_mr_check_remote(qp->dev, qp, rkey, va, len, IRDMA_HW_ACCESS_REMOTE_WRITE,
				     &host);

	if (unlikely(e < 0)) {
		SOFT_LOG(DEBUG, "%s: QP %u: rkey 0x%x [0x%" PRIx64 ", +%u) write: %s",
			 qp->dev->name, qp->id, rkey, va, len, soft_mr_err_str(e));
		return soft_mr_err_roce(e);
	}
	memcpy(host, data, len);
	return 0;
}

/* A WRITE ONLY: the key check and the copy in one pass, no frame of its own in the common
 * case (the rest is one tail call away). */
int soft_resp_mem_write_checked(struct roce_qp *xq, uint32_t rkey, uint64_t va, const void *data,
				uint32_t len)
{
	const struct soft_qp *qp = qp_of(xq);
	uint8_t *host = soft_mr_fast_host(qp->dev, qp->pd_id, rkey, va, len,
					  IRDMA_HW_ACCESS_REMOTE_WRITE);

	if (unlikely(host == NULL))
		return write_checked_slow(qp, rkey, va, data, len);
	soft_copy(host, data, len);
	return 0;
}

int soft_resp_atomic(struct roce_qp *xq, uint32_t rkey, uint64_t va, int cmp_swap,
		     uint64_t swap_add, uint64_t cmp, uint64_t *orig)
{
	struct soft_qp *qp = qp_of(xq);
	uint8_t *host;
	int e;

	e = soft_mr_check_remote(qp->dev, qp, rkey, va, 8, IRDMA_HW_ACCESS_REMOTE_ATOMIC, &host);
	if (e < 0)
		return soft_mr_err_roce(e);
	/* Aligned (checked): atomic against CPU users of the same memory as well. */
	if (cmp_swap) {
		*orig = cmp;
		__atomic_compare_exchange_n((uint64_t *)host, orig, swap_add, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	} else {
		*orig = __atomic_fetch_add((uint64_t *)host, swap_add, __ATOMIC_SEQ_CST);
	}
	return 0;
}

/* lib/roce moved the QP to ERR (its send queue is flushed already): the device applies
 * it once lib/roce has returned (soft_xport_settle). */
void soft_resp_qp_error(struct roce_qp *xq, uint8_t status)
{
	struct soft_qp *qp = qp_of(xq);

	if (!qp->wire_err) {
		qp->wire_err = true;
		qp->wire_err_status = status;
	}
}
