/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The binding between the device and lib/roce's transport state machines. lib/roce keeps
 * PSNs, segmentation, ACKs/NAKs, retries, RNR and responder resources and moves no memory;
 * the device gives it send work, frames from the wire and the time, and answers its
 * callbacks (keys, placement, receive WQEs, completions: soft_resp.c and soft_comp.c).
 * Frames it produces are built into mbufs here with the payload gathered from the SQ WQE
 * or from registered memory, each piece checked against the key table.
 */
#include <errno.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "roce_addr.h"
#include "roce_icrc.h"

#include "soft_mr_inl.h"
#include "soft_priv.h"
#include "soft_xport_fast.h"
#include "soft_tx_payload.h"
#include "soft_tx_zcopy.h"

/* The callbacks lib/roce makes into the device. */
static const struct roce_qp_ops soft_roce_ops = {
	.recv_begin = soft_resp_recv_begin,
	.recv_place = soft_resp_recv_place,
	.recv_end = soft_resp_recv_end,
	.mr_check = soft_resp_mr_check,
	.mem_write = soft_resp_mem_write,
	.mem_write_checked = soft_resp_mem_write_checked,
	.atomic = soft_resp_atomic,
	.read_place = soft_comp_read_place,
	.send_done = soft_comp_send_done,
	.qp_error = soft_resp_qp_error,
};

/* The exact conversion (two divisions), which also moves soft_clock_ns()'s base to tsc. */
uint64_t soft_clock_rebase(struct soft_dev *dev, uint64_t tsc)
{
	uint64_t hz = dev->tsc_hz;
	uint64_t ns = tsc / hz * 1000000000ull + (tsc % hz) * 1000000000ull / hz;

	dev->clk_tsc = tsc;
	dev->clk_ns = ns;
	return ns;
}

/* lib/roce's address vector for frames to av from this device. */
void soft_roce_av(struct soft_dev *dev, const struct irdma_hw_av *av, struct roce_av *out)
{
	const uint8_t *sgid = dev->gid[av->sgid_index < dev->n_gids ? av->sgid_index : 0];
	uint32_t i;

	memset(out, 0, sizeof(*out));
	memcpy(out->dmac, av->dmac, 6);
	memcpy(out->smac, dev->mac, 6);
	out->has_vlan = av->vlan_id != 0xFFFF && av->vlan_id != 0;
	out->vlan_tci = av->vlan_id & 0x0FFF;
	/* The source address family follows the destination's. */
	if (roce_gid_is_ipv4(av->dgid) != roce_gid_is_ipv4(sgid))
		for (i = 0; i < dev->n_gids; i++)
			if (roce_gid_is_ipv4(dev->gid[i]) == roce_gid_is_ipv4(av->dgid))
				sgid = dev->gid[i];
	memcpy(out->sgid, sgid, 16);
	memcpy(out->dgid, av->dgid, 16);
	out->tclass = av->traffic_class;
	out->hop_limit = av->hop_limit ? av->hop_limit : 64;
	out->flow_label = av->flow_label;
	out->sport = 0; /* lib/roce derives it from the QPNs */
}

int soft_xport_init(struct soft_qp *qp)
{
	struct roce_qp_init_attr ia = {
		.type = qp->type == IRDMA_HW_QP_RC ? ROCE_QPT_RC : ROCE_QPT_UD,
		.qpn = qp->id,
		/* WRs in the transport at once (what the QP asked for, not the SQ's quanta):
		 * a full ring makes the front end wait */
		.sq_depth = RTE_MIN(qp->xport_depth, SOFT_MAX_WR_IN_FLIGHT),
		.max_rd_res = SOFT_MAX_IRD,
		.ops = &soft_roce_ops,
		.user = qp,
	};

	qp->xport_mem_bytes = roce_qp_mem_size(&ia);
	qp->xport_mem = rte_zmalloc_socket("soft_roce_qp", qp->xport_mem_bytes, 8,
					qp->dev->cfg.socket_id);
	if (qp->xport_mem == NULL)
		return -ENOMEM;
	return roce_qp_init(&qp->xport, &ia, qp->xport_mem);
}

void soft_xport_fini(struct soft_qp *qp)
{
	rte_free(qp->xport_mem);
	qp->xport_mem = NULL;
}

static uint8_t roce_state(enum irdma_hw_qp_state s)
{
	switch (s) {
	case IRDMA_HW_QPS_RESET: return ROCE_QPS_RESET;
	case IRDMA_HW_QPS_INIT: return ROCE_QPS_INIT;
	case IRDMA_HW_QPS_RTR: return ROCE_QPS_RTR;
	case IRDMA_HW_QPS_RTS: return ROCE_QPS_RTS;
	case IRDMA_HW_QPS_SQD: return ROCE_QPS_SQD;
	default: return ROCE_QPS_ERR;
	}
}

/* irdma_hw_qp_attr (verbs attributes) to lib/roce's; the PMD checked the transition. */
int soft_xport_modify(struct soft_qp *qp, const struct irdma_hw_qp_attr *a, uint32_t mask)
{
	struct roce_qp_attr r;
	uint32_t m = 0;

	memset(&r, 0, sizeof(r));
	if (mask & IRDMA_HW_QP_ATTR_STATE) {
		r.state = roce_state(a->state);
		m |= ROCE_QP_STATE;
	}
	if (mask & IRDMA_HW_QP_ATTR_ACCESS_FLAGS) {
		/* IRDMA_HW_ACCESS_REMOTE_* and ROCE_ACCESS_* share their values */
		r.access = (uint8_t)(a->access_flags & (ROCE_ACCESS_REMOTE_WRITE |
							ROCE_ACCESS_REMOTE_READ |
							ROCE_ACCESS_REMOTE_ATOMIC));
		m |= ROCE_QP_ACCESS;
	}
	if (mask & IRDMA_HW_QP_ATTR_QKEY) {
		r.qkey = a->qkey;
		m |= ROCE_QP_QKEY;
	}
	if (mask & IRDMA_HW_QP_ATTR_AV) {
		soft_roce_av(qp->dev, &a->av, &r.av);
		m |= ROCE_QP_AV;
	}
	if (mask & IRDMA_HW_QP_ATTR_PATH_MTU) {
		r.path_mtu = a->path_mtu;
		m |= ROCE_QP_PATH_MTU;
	} else if ((mask & IRDMA_HW_QP_ATTR_STATE) && a->state == IRDMA_HW_QPS_INIT &&
		   qp->type == IRDMA_HW_QP_UD) {
		r.path_mtu = qp->dev->mtu; /* UD: the port's MTU */
		m |= ROCE_QP_PATH_MTU;
	}
	if (mask & IRDMA_HW_QP_ATTR_DEST_QPN) {
		r.dest_qpn = a->dest_qpn;
		m |= ROCE_QP_DEST_QPN;
	}
	if (mask & IRDMA_HW_QP_ATTR_RQ_PSN) {
		r.rq_psn = a->rq_psn;
		m |= ROCE_QP_RQ_PSN;
	}
	if (mask & IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC) {
		r.max_dest_rd_atomic = a->max_dest_rd_atomic;
		m |= ROCE_QP_MAX_DEST_RD_ATOMIC;
	}
	if (mask & IRDMA_HW_QP_ATTR_MIN_RNR_TIMER) {
		r.min_rnr_timer = a->min_rnr_timer;
		m |= ROCE_QP_MIN_RNR_TIMER;
	}
	if (mask & IRDMA_HW_QP_ATTR_SQ_PSN) {
		r.sq_psn = a->sq_psn;
		m |= ROCE_QP_SQ_PSN;
	}
	if (mask & IRDMA_HW_QP_ATTR_TIMEOUT) {
		r.timeout = a->timeout;
		m |= ROCE_QP_TIMEOUT;
	}
	if (mask & IRDMA_HW_QP_ATTR_RETRY_CNT) {
		r.retry_cnt = a->retry_cnt;
		m |= ROCE_QP_RETRY_CNT;
	}
	if (mask & IRDMA_HW_QP_ATTR_RNR_RETRY) {
		r.rnr_retry = a->rnr_retry;
		m |= ROCE_QP_RNR_RETRY;
	}
	if (mask & IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC) {
		r.max_rd_atomic = a->max_rd_atomic ? a->max_rd_atomic : 1;
		m |= ROCE_QP_MAX_RD_ATOMIC;
	}
	return roce_qp_modify(&qp->xport, &r, m);
}

/* Payload of a request packet: bytes [off, off + len) of send WQE swq[slot]; folded
 * into *reg as well unless reg is NULL (soft_tx_payload.c). */
static __rte_always_inline int sq_payload(struct soft_qp *qp, uint32_t slot, uint32_t off,
					  uint8_t *dst, uint32_t len, uint32_t *reg,
					  const uint8_t **zsrc)
{
	struct soft_wqe *w = &qp->cur;
	int e;

	/* Inline data (the common small message) straight from the WQE: no decode. */
	if (qp->swq[slot].inl) {
		if (unlikely((uint64_t)off + len > qp->swq[slot].inline_len))
			return FLUSH_LOC_QP_OP_ERR;
		soft_sq_inline_copy(qp, soft_sq_wqe_at(qp, qp->swq[slot].idx), off, dst, len);
		if (reg != NULL)
			*reg = roce_crc32_update(*reg, dst, len);
		return 0;
	}
	if (qp->cur_slot != slot) {
		if (soft_sq_decode(qp, qp->swq[slot].idx, w) < 0)
			return FLUSH_LOC_QP_OP_ERR;
		qp->cur_slot = slot;
	}
	if (w->inline_data) {
		soft_sq_inline_copy(qp, w->wqe, off, dst, len);
		if (reg != NULL)
			*reg = roce_crc32_update(*reg, dst, len);
		return 0;
	}
	/* zero-copy: one key-checked piece of registered memory, by reference */
	if (zsrc != NULL && soft_sge_piece(qp->dev, qp->pd_id, w->sge, w->num_sges, off, len,
					   zsrc) == 0)
		return 0;
	e = reg != NULL ? soft_sges_gather_crc(qp->dev, qp->pd_id, w->sge, w->num_sges, off, dst,
					       len, reg) :
			  soft_sges_copy(qp->dev, qp->pd_id, w->sge, w->num_sges, off, dst, len, false);
	return e ? soft_mr_err_to_flush(e) : 0;
}

/* A payload that could not be read: the WQE fails, the QP with it (as on a wire, the
 * frame is not sent). */
static void tx_payload_failed(struct soft_qp *qp, struct rte_mbuf *m, uint32_t slot, int fail)
{
	rte_pktmbuf_free(m);
	qp->swq[slot].fail = (uint8_t)fail;
	roce_qp_set_error(&qp->xport, ROCE_WC_LOC_PROT_ERR);
}

/* The fast path's payload when it is not the WQE's inline data of the fast front end:
 * 0, or -1 when the source failed its check (m freed, the WQE failed, the QP to ERR). */
int soft_xport_fast_payload(struct soft_qp *qp, struct rte_mbuf *m, uint32_t slot, uint8_t *pay,
			    uint32_t len)
{
	int fail = sq_payload(qp, slot, 0, pay, len, NULL, NULL);

	if (unlikely(fail)) {
		tx_payload_failed(qp, m, slot, fail);
		return -1;
	}
	return 0;
}

/* The general front end's way in (req_step); req_fast has it inline. */
int soft_xport_post_fast(struct soft_qp *qp, uint32_t slot, const struct roce_send_wr *wr,
			 uint64_t now)
{
	return soft_xport_post_fast_inl(qp, slot, wr, now);
}

/* The responder's memory a READ response carries, key-checked for remote read before a
 * byte moves; NULL when the region went away while the READ was served: m is freed and
 * the QP goes to ERR. */
static inline const uint8_t *read_src(struct soft_qp *qp, struct rte_mbuf *m, uint32_t rkey,
				      uint64_t va, uint32_t len)
{
	uint8_t *host;

	if (unlikely(soft_mr_check_remote_inl(qp->dev, qp, rkey, va, len,
					      IRDMA_HW_ACCESS_REMOTE_READ, &host) != 0)) {
		rte_pktmbuf_free(m);
		roce_qp_set_error(&qp->xport, ROCE_WC_REM_ACCESS_ERR);
		return NULL;
	}
	return host;
}

/* A one-packet READ response's payload (roce_qp_tx_read_fast's rd) into the frame m at
 * pay: 0, or -1 when the check failed (m freed, the QP to ERR). */
static inline int read_payload(struct soft_qp *qp, struct rte_mbuf *m, uint8_t *pay,
			       const struct roce_tx_read *rd)
{
	const uint8_t *src = read_src(qp, m, rd->rkey, rd->va, rd->len);

	if (unlikely(src == NULL))
		return -1;
	memcpy(pay, src, rd->len);
	return 0;
}

/*
 * The payload of tx into the frame m (at pay): copied, or with reg non-NULL copied and
 * folded into *reg (the ICRC register through the headers), or with zsrc non-NULL left in
 * registered memory (*zsrc, when it is one key-checked piece). 0, or -1 when the source
 * failed its check: m is freed and the QP goes to ERR. Inline: with reg and zsrc NULL (the
 * small frames) it is the plain copy, nothing more.
 */
static inline int tx_payload(struct soft_qp *qp, const struct roce_tx *tx, struct rte_mbuf *m,
			     uint8_t *pay, uint32_t *reg, const uint8_t **zsrc)
{
	uint32_t len = tx->pkt.paylen;

	if (tx->pl_src == ROCE_PL_SQ && len) {
		int fail = sq_payload(qp, (uint32_t)tx->wr_id, tx->offset, pay, len, reg, zsrc);

		if (unlikely(fail)) {
			/* the source went away under the WQE: it fails, the QP with it */
			tx_payload_failed(qp, m, (uint32_t)tx->wr_id, fail);
			return -1;
		}
	} else if (tx->pl_src == ROCE_PL_MEM && len) {
		const uint8_t *host = read_src(qp, m, tx->rkey, tx->va, len);

		if (unlikely(host == NULL))
			return -1;
		/* a READ response is always a copy (soft_tx_zcopy.h): zsrc stays NULL */
		if (reg != NULL)
			*reg = roce_crc32_copy(*reg, pay, host, len);
		else
			memcpy(pay, host, len);
	}
	return 0;
}

/* A frame of SOFT_TX_FUSE_MIN payload bytes and more: the payload by reference where the
 * port allows it (soft_tx_zcopy.c), else copied and folded into the ICRC in one pass
 * (soft_tx_payload.c). Out of line: the small frames' path stays as it was. */
static __rte_noinline int tx_large(struct soft_qp *qp, const struct roce_tx *tx,
				   struct rte_mbuf *m, uint8_t *pay)
{
	struct soft_dev *dev = qp->dev;
	uint32_t reg = soft_tx_hdr_reg(m, &tx->pkt);
	const uint8_t *zsrc = NULL;

	if (tx_payload(qp, tx, m, pay, &reg,
		       soft_tx_zc_wanted(dev->zc, tx->pkt.paylen, tx->retransmit) ?
		       &zsrc : NULL) != 0)
		return -1;
	if (zsrc != NULL)
		soft_tx_zc_send(dev, m, &tx->pkt, zsrc, reg);
	else
		soft_wire_send_reg(dev, m, &tx->pkt, reg);
	return 0;
}

/* Frames the transport wants to send now, into the wire's backlog. ACKs and small
 * one-packet READ responses take the fast paths (roce_qp_tx_ack_fast,
 * roce_qp_tx_read_fast), everything else lib/roce's roce_qp_tx(). m: a frame already
 * taken (ip_id its IP ID) that roce_qp_tx_ack_fast() turned down, or NULL. */
unsigned int soft_xport_tx_from(struct soft_qp *qp, struct rte_mbuf *m, uint16_t *ip_id,
				unsigned int budget, uint64_t now)
{
	struct soft_dev *dev = qp->dev;
	unsigned int sent = 0;
	struct roce_tx_read rd;
	struct roce_tx tx;

	while (sent < budget) {
		uint32_t len;
		uint8_t *pay;
		int hl;

		if (m == NULL) {
			m = soft_wire_frame(dev, &ip_id);
			if (unlikely(m == NULL))
				break; /* no room (the next step pushes), or lost like on a wire */
			hl = roce_qp_tx_ack_fast(&qp->xport, ip_id, rte_pktmbuf_mtod(m, uint8_t *),
						 rte_pktmbuf_tailroom(m));
			if (hl > 0) {
				soft_wire_send_tmpl(dev, m, &qp->xport.tmpl, (uint32_t)hl, 0);
				m = NULL;
				qp->st.tx_packets++;
				sent++;
				if (!roce_qp_wants_tx(&qp->xport, now))
					break;
				continue;
			}
		}
		/* a small one-packet READ response from the template; the large ones keep
		 * tx_large()'s fused copy or zero copy */
		hl = roce_qp_tx_read_fast(&qp->xport, ip_id, rte_pktmbuf_mtod(m, uint8_t *),
					  rte_pktmbuf_tailroom(m), SOFT_TX_FUSE_MIN - 1, &rd);
		if (hl > 0) {
			if (rd.len && read_payload(qp, m, rte_pktmbuf_mtod(m, uint8_t *) + hl, &rd) != 0)
				break;
			soft_wire_send_tmpl(dev, m, &qp->xport.tmpl, (uint32_t)hl + rd.len, rd.len);
			m = NULL;
			qp->st.tx_packets++;
			qp->st.tx_bytes += rd.len;
			sent++;
			if (!roce_qp_wants_tx(&qp->xport, now))
				break;
			continue;
		}
		if (roce_qp_tx(&qp->xport, now, &tx) != 1) {
			soft_wire_mbuf_unget(dev, m);
			break;
		}
		if (unlikely(soft_wire_hdrs(dev, m, &tx.pkt, tx.tmpl, &pay) != 0)) {
			rte_pktmbuf_free(m);
			break;
		}
		len = tx.pkt.paylen;
		if (unlikely(len >= SOFT_TX_FUSE_MIN)) {
			if (tx_large(qp, &tx, m, pay) != 0)
				break;
		} else {
			if (tx_payload(qp, &tx, m, pay, NULL, NULL) != 0)
				break;
			soft_wire_send(dev, m, &tx.pkt);
		}
		m = NULL;
		qp->st.tx_packets++;
		qp->st.tx_bytes += len;
		sent++;
		/* most steps build one frame: skip the roce_qp_tx() call that finds nothing */
		if (!roce_qp_wants_tx(&qp->xport, now))
			break;
	}
	return sent;
}

void soft_xport_timers(struct soft_qp *qp, uint64_t now)
{
	if (now >= roce_qp_next_deadline(&qp->xport))
		roce_qp_timer(&qp->xport, now);
}

/* After lib/roce returned: apply an error it raised, retire completed send WQEs. */
void soft_xport_settle(struct soft_qp *qp)
{
	if (unlikely(qp->wire_err)) {
		uint8_t st = qp->wire_err_status;
		enum irdma_hw_event_type ev = IRDMA_HW_EVENT_QP_FATAL;
		uint16_t ae = IRDMA_AE_LOCAL_QP_CATASTROPHIC;

		qp->wire_err = false;
		if (st == ROCE_WC_REM_ACCESS_ERR || st == ROCE_WC_LOC_PROT_ERR) {
			ev = IRDMA_HW_EVENT_QP_ACCESS_ERR;
			ae = IRDMA_AE_IB_REMOTE_ACCESS_ERROR;
		} else if (st == ROCE_WC_REM_INV_REQ_ERR || st == ROCE_WC_LOC_LEN_ERR) {
			ev = IRDMA_HW_EVENT_QP_REQ_ERR;
			ae = IRDMA_AE_IB_INVALID_REQUEST;
		} else if (st == ROCE_WC_RETRY_EXC_ERR) {
			ae = IRDMA_AE_LLP_TOO_MANY_RETRIES;
		} else if (st == ROCE_WC_RNR_RETRY_EXC_ERR) {
			ae = IRDMA_AE_LLP_TOO_MANY_RNRS;
		}
		/* Send WQEs complete in order first: the failed one reports its own status. */
		soft_comp_retire(qp);
		if (qp->state != IRDMA_HW_QPS_ERR)
			soft_qp_to_error(qp, ev, ae);
		return;
	}
	soft_comp_retire(qp);
}
