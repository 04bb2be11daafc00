/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft device's QP control commands (irdma_hw.h): create (context, WQE shadow, transport),
 * modify (the state machine of the hardware QP context), query and destroy.
 */
#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "soft_ctrl.h"
#include "soft_priv.h"

/* ---- QP ---- */

int soft_qp_create(struct irdma_hw_dev *hw, const struct irdma_hw_qp_ctx *ctx,
		   uint32_t *qp_id, uint32_t **db)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *scq = soft_cq_get(dev, ctx->send_cq_id);
	struct soft_cq *rcq = soft_cq_get(dev, ctx->recv_cq_id);
	struct soft_srq *srq = NULL;
	struct soft_swqe *swq;
	struct soft_qp *qp = NULL;
	uint32_t i;

	if (ctx->type != IRDMA_HW_QP_RC && ctx->type != IRDMA_HW_QP_UD)
		return -EINVAL;
	if (!soft_pd_valid(dev, ctx->pd_id) || scq == NULL || rcq == NULL)
		return -EINVAL;
	if (ctx->sq_base == NULL || ctx->shadow_area == NULL || ctx->sq_depth < 8 ||
	    (ctx->sq_depth & (ctx->sq_depth - 1)))
		return -EINVAL;
	if (ctx->max_sq_frags > dev->uk_attrs.max_hw_wq_frags ||
	    ctx->max_rq_frags > dev->uk_attrs.max_hw_wq_frags ||
	    ctx->max_inline > dev->uk_attrs.max_hw_inline)
		return -EINVAL;
	if (ctx->use_srq) {
		if (ctx->srq_id >= dev->max_srq || !dev->srq[ctx->srq_id].in_use)
			return -EINVAL;
		srq = &dev->srq[ctx->srq_id];
	} else if (ctx->rq_base == NULL || ctx->rq_shift > 3 ||
		   (ctx->rq_depth >> ctx->rq_shift) < 2) {
		return -EINVAL;
	}
	for (i = dev->qp_hint; i < dev->max_qp && dev->qp[i] != NULL; i++)
		;
	if (i == dev->max_qp)
		return -ENOSPC;
	qp = rte_zmalloc_socket("soft_qp", sizeof(*qp), RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
	swq = rte_zmalloc_socket("soft_swq", sizeof(*swq) * ctx->sq_depth, 0,
				 dev->cfg.socket_id);
	if (qp == NULL || swq == NULL) {
		rte_free(qp);
		rte_free(swq);
		return -ENOMEM;
	}
	rte_spinlock_lock(&dev->engine_lock);
	qp->id = i;
	qp->dev = dev;
	qp->type = ctx->type;
	qp->pd_id = ctx->pd_id;
	qp->state = IRDMA_HW_QPS_RESET;
	qp->sq_base = ctx->sq_base;
	qp->sq_depth = ctx->sq_depth;
	qp->xport_depth = ctx->max_send_wr ? RTE_MIN(ctx->max_send_wr, ctx->sq_depth) :
			  ctx->sq_depth;
	qp->sq_polarity = 1;
	qp->max_inline = ctx->max_inline;
	qp->max_sq_frags = ctx->max_sq_frags;
	qp->max_rq_frags = ctx->max_rq_frags;
	qp->shadow = ctx->shadow_area;
	qp->compl_ctx = ctx->compl_ctx;
	qp->srq = srq;
	if (srq == NULL) {
		qp->rq_base = ctx->rq_base;
		qp->rq_shift = ctx->rq_shift;
		qp->rq_size = ctx->rq_depth >> ctx->rq_shift;
		qp->rq_polarity = 1;
	} else {
		srq->users++;
	}
	qp->scq = scq;
	qp->rcq = rcq;
	scq->users++;
	rcq->users++;
	qp->swq = swq;
	qp->cur_slot = UINT32_MAX;
	qp->attr.av.vlan_id = 0xFFFF;
	if (soft_xport_init(qp) != 0) {
		scq->users--;
		rcq->users--;
		if (srq)
			srq->users--;
		rte_spinlock_unlock(&dev->engine_lock);
		rte_free(swq);
		rte_free(qp);
		return -ENOMEM;
	}
	qp->in_use = true;
	dev->qp[i] = qp;
	dev->qp_hint = i + 1;
	rte_spinlock_unlock(&dev->engine_lock);
	*qp_id = i;
	*db = soft_db_word(&dev->db_qp, i);
	return 0;
}

/* Back to an empty SQ/RQ view (RESET, or RESET -> INIT). */
static void qp_reset(struct soft_qp *qp)
{
	qp->sq_head = 0;
	qp->sq_polarity = 1;
	qp->rq_head = 0;
	qp->rq_polarity = 1;
	qp->swq_head = qp->swq_tail = qp->swq_done = qp->swq_send = 0;
	qp->sq_stalled = false;
	qp->sq_kick = false;
	qp->wire_err = false;
	memset(&qp->rctx, 0, sizeof(qp->rctx));
	qp->cur_slot = UINT32_MAX;
}

int soft_qp_modify(struct irdma_hw_dev *hw, uint32_t qp_id,
		   const struct irdma_hw_qp_attr *attr, uint32_t mask)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp = soft_qp_get(dev, qp_id);
	struct irdma_hw_qp_attr *a;
	int rc;

	if (qp == NULL || attr == NULL)
		return -EINVAL;
	if ((mask & IRDMA_HW_QP_ATTR_PATH_MTU) &&
	    (attr->path_mtu < 256 || attr->path_mtu > dev->mtu ||
	     (attr->path_mtu & (attr->path_mtu - 1))))
		return -EINVAL;
	if ((mask & IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > SOFT_MAX_ORD)
		return -EINVAL;
	if ((mask & IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > SOFT_MAX_IRD)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_xport_modify(qp, attr, mask);
	if (rc) {
		rte_spinlock_unlock(&dev->engine_lock);
		return rc;
	}
	a = &qp->attr;
	if (mask & IRDMA_HW_QP_ATTR_ACCESS_FLAGS)
		a->access_flags = attr->access_flags;
	if (mask & IRDMA_HW_QP_ATTR_QKEY)
		a->qkey = attr->qkey;
	if (mask & IRDMA_HW_QP_ATTR_AV)
		a->av = attr->av;
	if (mask & IRDMA_HW_QP_ATTR_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IRDMA_HW_QP_ATTR_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IRDMA_HW_QP_ATTR_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IRDMA_HW_QP_ATTR_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IRDMA_HW_QP_ATTR_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IRDMA_HW_QP_ATTR_DEST_QPN)
		a->dest_qpn = attr->dest_qpn & ROCE_QPN_MASK;
	if (mask & IRDMA_HW_QP_ATTR_RQ_PSN)
		a->rq_psn = attr->rq_psn & ROCE_PSN_MASK;
	if (mask & IRDMA_HW_QP_ATTR_SQ_PSN)
		a->sq_psn = attr->sq_psn & ROCE_PSN_MASK;
	if (mask & IRDMA_HW_QP_ATTR_STATE) {
		enum irdma_hw_qp_state old = qp->state;

		if (attr->state == IRDMA_HW_QPS_RESET) {
			qp_reset(qp);
			soft_engine_forget(dev, qp);
			qp->state = IRDMA_HW_QPS_RESET;
		} else if (attr->state == IRDMA_HW_QPS_ERR) {
			/* Also the flush request software sends after posting in ERR. */
			qp->state = IRDMA_HW_QPS_ERR;
			soft_qp_flush(qp);
		} else {
			if (old == IRDMA_HW_QPS_RESET)
				qp_reset(qp);
			qp->state = attr->state;
		}
		if (qp->state != IRDMA_HW_QPS_RESET)
			soft_engine_mark(dev, qp); /* a doorbell rung before RTS runs now */
	}
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

int soft_qp_query(struct irdma_hw_dev *hw, uint32_t qp_id, struct irdma_hw_qp_attr *attr)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp = soft_qp_get(dev, qp_id);
	struct roce_qp_status st;

	if (qp == NULL || attr == NULL)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	roce_qp_query(&qp->xport, &st);
	*attr = qp->attr;
	/* lib/roce may have failed the QP a moment ago; the device applies it next step */
	attr->state = st.state == ROCE_QPS_ERR ? IRDMA_HW_QPS_ERR : qp->state;
	attr->sq_psn = st.sq_psn;
	attr->rq_psn = st.rq_psn;
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

int soft_qp_destroy(struct irdma_hw_dev *hw, uint32_t qp_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp = soft_qp_get(dev, qp_id);
	uint32_t i;

	if (qp == NULL)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	soft_engine_forget(dev, qp);
	/* Windows bound through this QP die with it. */
	for (i = 1; i < dev->max_mr; i++) {
		struct soft_key *k = &dev->keys[i];

		if (k->is_mw && k->mw_type == 2 && k->state == SOFT_KEY_VALID &&
		    k->qp_id == qp->id) {
			dev->keys[k->parent].mw_bound--;
			k->state = SOFT_KEY_INVALID;
		}
	}
	qp->scq->users--;
	qp->rcq->users--;
	if (qp->srq)
		qp->srq->users--;
	soft_xport_fini(qp);
	rte_free(qp->swq);
	qp->in_use = false;
	dev->qp[qp_id] = NULL;
	if (qp_id < dev->qp_hint)
		dev->qp_hint = qp_id;
	rte_spinlock_unlock(&dev->engine_lock);
	rte_free(qp);
	return 0;
}
