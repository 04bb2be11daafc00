/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The completer: responses arriving at the requester (ACK, NAK, RNR NAK, READ responses,
 * atomic ACKs). Sent WQEs complete strictly in SQ order; read data and atomic results
 * are placed into the local SGEs with the key checks of soft_sges_copy(); NAKs end the
 * WQE with the matching status and take the QP to ERR; RNR NAKs and sequence NAKs rewind
 * the requester (go-back-N). The local ACK timeout retries from the oldest unacknowledged
 * packet.
 */
#include <rte_cycles.h>

#include "soft_priv.h"

static inline uint32_t swq_next(const struct soft_qp *qp, uint32_t i)
{
	return i + 1 == qp->sq_depth ? 0 : i + 1;
}

/* The first WQE that is sent and not complete, or NULL. */
static struct soft_swqe *oldest_sent(struct soft_qp *qp)
{
	uint32_t i;

	for (i = qp->swq_done; i != qp->swq_send; i = swq_next(qp, i)) {
		struct soft_swqe *s = &qp->swq[i];

		if (s->state == SOFT_SWQE_SENT)
			return s;
		if (s->state == SOFT_SWQE_PENDING)
			return NULL;
	}
	return NULL;
}

static void progress_made(struct soft_qp *qp)
{
	qp->retry_left = qp->attr.retry_cnt;
	qp->rnr_left = qp->attr.rnr_retry;
	qp->ack_deadline = 0;
	if (oldest_sent(qp)) {
		/* re-arm for what is still in flight */
		uint64_t ns = 4096ull << qp->attr.timeout;

		if (qp->attr.timeout)
			qp->ack_deadline = rte_get_tsc_cycles() +
					   ns * qp->dev->tsc_hz / 1000000000ull;
	}
}

/* ACK with PSN psn: completes SEND/WRITE WQEs whose last packet is covered. */
static void ack_upto(struct soft_qp *qp, uint32_t psn)
{
	uint32_t i;

	for (i = qp->swq_done; i != qp->swq_send; i = swq_next(qp, i)) {
		struct soft_swqe *s = &qp->swq[i];

		if (s->state == SOFT_SWQE_DONE)
			continue;
		if (s->state != SOFT_SWQE_SENT || s->read_like)
			break; /* a READ/atomic completes with its own response */
		if (roce_psn_diff(s->last_psn, psn) > 0)
			break;
		s->state = SOFT_SWQE_DONE;
		s->status = 0;
	}
	qp->una_psn = roce_psn_add(psn, 1);
}

static void fail_oldest(struct soft_qp *qp, uint8_t status)
{
	struct soft_swqe *s = oldest_sent(qp);

	if (s == NULL)
		return;
	s->state = SOFT_SWQE_DONE;
	s->status = status;
	if (s->read_like && qp->rd_outstanding)
		qp->rd_outstanding--;
	qp->sq_stalled = true;
}

static void comp_ack(struct soft_qp *qp, const struct roce_pkt *p)
{
	uint8_t syn = p->aeth.syndrome;
	uint32_t t = syn & ROCE_AETH_TYPE_MASK;

	if (t == ROCE_AETH_ACK) {
		qp->st.rx_acks++;
		ack_upto(qp, p->psn);
		progress_made(qp);
		return;
	}
	qp->st.rx_naks++;
	if (t == ROCE_AETH_RNR_NAK) {
		static const uint32_t rnr_us[32] = {
			655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280,
			1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440,
			81920, 122880, 163840, 245760, 327680, 491520,
		};

		qp->st.rx_rnr_naks++;
		ack_upto(qp, roce_psn_add(p->psn, ROCE_PSN_MASK)); /* implicit ACK of < psn */
		if (qp->attr.rnr_retry != 7) {
			if (qp->rnr_left == 0) {
				fail_oldest(qp, FLUSH_RNR_RETRY_EXC_ERR);
				return;
			}
			qp->rnr_left--;
		}
		qp->rnr_until = rte_get_tsc_cycles() +
				(uint64_t)rnr_us[syn & ROCE_AETH_VALUE_MASK] * qp->dev->tsc_hz /
					1000000ull;
		soft_req_rewind(qp, p->psn);
		return;
	}
	switch (syn) {
	case ROCE_SYN_NAK_PSN_SEQ:
		ack_upto(qp, roce_psn_add(p->psn, ROCE_PSN_MASK));
		if (qp->retry_left == 0) {
			fail_oldest(qp, FLUSH_RETRY_EXC_ERR);
			return;
		}
		qp->retry_left--;
		soft_req_rewind(qp, p->psn);
		return;
	case ROCE_SYN_NAK_INV_REQ:
		fail_oldest(qp, FLUSH_REM_INV_REQ_ERR);
		return;
	case ROCE_SYN_NAK_REM_ACC:
		fail_oldest(qp, FLUSH_REM_ACCESS_ERR);
		return;
	default:
		fail_oldest(qp, FLUSH_REM_OP_ERR);
		return;
	}
}

/* READ response: PSN must be the next one the oldest outstanding READ expects. */
static void comp_read_resp(struct soft_qp *qp, const struct roce_pkt *p)
{
	struct soft_dev *dev = qp->dev;
	uint32_t mtu = qp->attr.path_mtu ? qp->attr.path_mtu : dev->mtu;
	bool last = (p->oi->flags & ROCE_OPF_LAST) != 0;
	struct soft_swqe *s;
	enum soft_mr_err e;
	uint64_t off;
	uint32_t i;

	/* Everything sent before the READ is implicitly acknowledged. */
	for (i = qp->swq_done; i != qp->swq_send; i = swq_next(qp, i)) {
		s = &qp->swq[i];
		if (s->state == SOFT_SWQE_SENT && s->read_like)
			break;
	}
	if (i == qp->swq_send)
		return; /* no READ outstanding: stale response */
	s = &qp->swq[i];
	if (s->op != IRDMAQP_OP_RDMA_READ && s->op != IRDMAQP_OP_RDMA_READ_LOC_INV) {
		qp->st.rx_dropped++;
		return;
	}
	if (p->psn != s->resp_psn) {
		qp->st.rx_dropped++; /* gap or duplicate: wait for the retry */
		return;
	}
	ack_upto(qp, roce_psn_add(s->first_psn, ROCE_PSN_MASK));
	off = (uint64_t)(uint32_t)roce_psn_diff(p->psn, s->first_psn) * mtu;
	if (off + p->paylen > s->length || (!last && p->paylen != mtu)) {
		fail_oldest(qp, FLUSH_REM_OP_ERR);
		return;
	}
	if (qp->cur_slot != i) {
		if (soft_sq_decode(qp, s->idx, &qp->cur) < 0) {
			fail_oldest(qp, FLUSH_LOC_QP_OP_ERR);
			return;
		}
		qp->cur_slot = i;
	}
	e = soft_sges_copy(dev, qp->pd_id, qp->cur.sge, qp->cur.num_sges, off,
			   (uint8_t *)(uintptr_t)p->payload, p->paylen, true);
	if (e) {
		fail_oldest(qp, soft_mr_err_to_flush(e));
		return;
	}
	s->resp_psn = roce_psn_add(p->psn, 1);
	if (last) {
		if (off + p->paylen != s->length) {
			fail_oldest(qp, FLUSH_REM_OP_ERR);
			return;
		}
		if (s->op == IRDMAQP_OP_RDMA_READ_LOC_INV) {
			e = soft_mr_invalidate(dev, qp->pd_id, qp->id, qp->cur.rem_stag, false);
			/* the read itself succeeded; a bad key to invalidate is a local error */
			if (e) {
				fail_oldest(qp, FLUSH_PROT_ERR);
				return;
			}
		}
		s->state = SOFT_SWQE_DONE;
		s->status = 0;
		qp->rd_outstanding--;
	}
	progress_made(qp);
}

static void comp_atomic_ack(struct soft_qp *qp, const struct roce_pkt *p)
{
	struct soft_swqe *s = oldest_sent(qp);
	enum soft_mr_err e;
	uint64_t orig = p->atmack;
	uint32_t i;

	for (i = qp->swq_done; i != qp->swq_send; i = swq_next(qp, i)) {
		s = &qp->swq[i];
		if (s->state == SOFT_SWQE_SENT && s->read_like)
			break;
	}
	if (i == qp->swq_send || p->psn != s->first_psn ||
	    (s->op != IRDMAQP_OP_ATOMIC_FETCH_ADD && s->op != IRDMAQP_OP_ATOMIC_COMPARE_SWAP)) {
		qp->st.rx_dropped++;
		return;
	}
	ack_upto(qp, roce_psn_add(s->first_psn, ROCE_PSN_MASK));
	if (qp->cur_slot != i) {
		if (soft_sq_decode(qp, s->idx, &qp->cur) < 0) {
			fail_oldest(qp, FLUSH_LOC_QP_OP_ERR);
			return;
		}
		qp->cur_slot = i;
	}
	e = soft_sges_copy(qp->dev, qp->pd_id, qp->cur.sge, 1, 0, (uint8_t *)&orig, 8, true);
	s->state = SOFT_SWQE_DONE;
	s->status = e ? soft_mr_err_to_flush(e) : 0;
	qp->rd_outstanding--;
	progress_made(qp);
}

void soft_comp_rx(struct soft_qp *qp, const struct roce_pkt *p)
{
	switch (p->opcode) {
	case ROCE_OP_RC_ACK:
		comp_ack(qp, p);
		break;
	case ROCE_OP_RC_ATOMIC_ACK:
		comp_atomic_ack(qp, p);
		break;
	case ROCE_OP_RC_READ_RESP_FIRST:
	case ROCE_OP_RC_READ_RESP_MIDDLE:
	case ROCE_OP_RC_READ_RESP_LAST:
	case ROCE_OP_RC_READ_RESP_ONLY:
		comp_read_resp(qp, p);
		break;
	default:
		qp->st.rx_dropped++;
		return;
	}
	soft_comp_retire(qp);
}

/* Local ACK timeout: resend from the oldest unacknowledged packet, or give up. */
void soft_comp_timers(struct soft_qp *qp, uint64_t now)
{
	struct soft_swqe *s;

	if (qp->ack_deadline == 0 || now < qp->ack_deadline || qp->state == IRDMA_HW_QPS_ERR)
		return;
	qp->ack_deadline = 0;
	s = oldest_sent(qp);
	if (s == NULL)
		return;
	if (qp->retry_left == 0) {
		fail_oldest(qp, FLUSH_RETRY_EXC_ERR);
		soft_comp_retire(qp);
		return;
	}
	qp->retry_left--;
	soft_req_rewind(qp, s->read_like ? s->resp_psn : qp->una_psn);
}
