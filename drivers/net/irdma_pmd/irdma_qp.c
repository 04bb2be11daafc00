/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue pairs: creation with queue memory sized by lib/uk, the verbs state machine on
 * modify, query and destroy.
 *
 * Memory of a QP = SQ (sq_depth quanta of 32 bytes) + RQ (rq_depth quanta), exactly the
 * depths irdma_uk_calc_depth_shift_sq/rq return; the 64-byte shadow area comes from the
 * device's shadow pool. A QP on an SRQ has no RQ.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "irdma_ah.h"
#include "irdma_pmd.h"
#include "irdma_qp_state.h"

#define QP_ACCESS_ALLOWED                                                                  \
	(RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |            \
	 RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC)

struct irdma_pmd_qp *
irdma_qp_by_num(struct rte_pmd_irdma_dev *dev, uint32_t qp_num)
{
	struct irdma_pmd_qp *qp;

	TAILQ_FOREACH(qp, &dev->qps, next)
		if (qp->pub.qp_num == qp_num)
			return qp;
	return NULL;
}

void
irdma_qp_state_note_error(struct irdma_pmd_qp *qp)
{
	enum rte_pmd_irdma_qp_state s = irdma_qp_state(qp);

	while (s >= RTE_PMD_IRDMA_QPS_RTR && s <= RTE_PMD_IRDMA_QPS_SQE)
		if (__atomic_compare_exchange_n(&qp->pub.state, &s, RTE_PMD_IRDMA_QPS_ERR, false,
						__ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
			break;
}

static int
qp_check_init_attr(struct rte_pmd_irdma_dev *dev, const struct rte_pmd_irdma_qp_init_attr *init)
{
	const struct irdma_uk_attrs *a = dev->attrs;
	const struct rte_pmd_irdma_qp_cap *cap = &init->cap;

	if (init->qp_type != RTE_PMD_IRDMA_QPT_RC && init->qp_type != RTE_PMD_IRDMA_QPT_UD) {
		IRDMA_LOG(qp, ERR, "%s: qp_type %d: valid types are RC (2) and UD (4)", dev->name,
			  init->qp_type);
		return -EINVAL;
	}
	if (!irdma_cq_live(init->send_cq) || !irdma_cq_live(init->recv_cq) ||
	    (init->srq != NULL && !irdma_srq_live(init->srq))) {
		IRDMA_LOG(qp, ERR, "%s: a QP needs a send_cq and a recv_cq (live handles, as is the SRQ if it names one)", dev->name);
		return -EINVAL;
	}
	if (init->send_cq->dev != dev || init->recv_cq->dev != dev ||
	    (init->srq != NULL && init->srq->pd->dev != dev)) {
		IRDMA_LOG(qp, ERR, "%s: CQs and SRQ must belong to the QP's device", dev->name);
		return -EINVAL;
	}
	if (cap->max_send_sge > a->max_hw_wq_frags || cap->max_recv_sge > a->max_hw_wq_frags) {
		IRDMA_LOG(qp, ERR, "%s: max_send_sge %u / max_recv_sge %u over the %s limit %u",
			  dev->name, cap->max_send_sge, cap->max_recv_sge, irdma_gen_str(a->hw_rev),
			  a->max_hw_wq_frags);
		return -EINVAL;
	}
	if (cap->max_inline_data > a->max_hw_inline) {
		IRDMA_LOG(qp, ERR, "%s: max_inline_data %u over the %s limit %u", dev->name,
			  cap->max_inline_data, irdma_gen_str(a->hw_rev), a->max_hw_inline);
		return -EINVAL;
	}
	if (cap->max_send_wr == 0 || cap->max_send_wr > a->max_hw_wq_quanta) {
		IRDMA_LOG(qp, ERR, "%s: max_send_wr %u out of range 1..%u", dev->name,
			  cap->max_send_wr, a->max_hw_wq_quanta);
		return -EINVAL;
	}
	if (init->srq == NULL && (cap->max_recv_wr == 0 || cap->max_recv_wr > a->max_hw_rq_quanta)) {
		IRDMA_LOG(qp, ERR, "%s: max_recv_wr %u out of range 1..%u", dev->name,
			  cap->max_recv_wr, a->max_hw_rq_quanta);
		return -EINVAL;
	}
	return 0;
}

/* Fill the lib/uk init info and compute depths/shifts (the sizing rule of the seed). */
static int
qp_size(struct rte_pmd_irdma_dev *dev, const struct rte_pmd_irdma_qp_init_attr *init,
	struct irdma_qp_uk_init_info *info)
{
	uint32_t sq_depth, rq_depth = 0;
	uint8_t sq_shift, rq_shift = 0;
	int ret;

	memset(info, 0, sizeof(*info));
	info->uk_attrs = &dev->uk_attrs;
	info->abi_ver = IRDMA_ABI_VER;
	info->sq_size = init->cap.max_send_wr;
	info->rq_size = init->cap.max_recv_wr;
	info->max_sq_frag_cnt = init->cap.max_send_sge;
	info->max_rq_frag_cnt = init->cap.max_recv_sge;
	info->max_inline_data = init->cap.max_inline_data;
	ret = irdma_uk_calc_depth_shift_sq(info, &sq_depth, &sq_shift);
	if (ret < 0) {
		IRDMA_LOG(qp, ERR, "%s: max_send_wr %u with %u SGEs and %u inline bytes needs an SQ "
			  "deeper than %u quanta", dev->name, init->cap.max_send_wr,
			  init->cap.max_send_sge, init->cap.max_inline_data,
			  dev->attrs->max_hw_wq_quanta);
		return ret;
	}
	if (init->srq == NULL) {
		ret = irdma_uk_calc_depth_shift_rq(info, &rq_depth, &rq_shift);
		if (ret < 0) {
			IRDMA_LOG(qp, ERR, "%s: max_recv_wr %u with %u SGEs needs an RQ deeper than "
				  "%u quanta", dev->name, init->cap.max_recv_wr,
				  init->cap.max_recv_sge, dev->attrs->max_hw_rq_quanta);
			return ret;
		}
	}
	info->sq_depth = sq_depth;
	info->sq_shift = sq_shift;
	info->sq_size = sq_depth >> sq_shift;
	info->rq_depth = rq_depth;
	info->rq_shift = rq_shift;
	info->rq_size = rq_depth >> rq_shift;
	info->type = init->qp_type == RTE_PMD_IRDMA_QPT_RC ? IRDMA_QP_TYPE_ROCE_RC :
							      IRDMA_QP_TYPE_ROCE_UD;
	info->qp_caps = IRDMA_ROCE | IRDMA_SEND_WITH_IMM;
	if (init->qp_type == RTE_PMD_IRDMA_QPT_RC)
		info->qp_caps |= IRDMA_WRITE_WITH_IMM;
	return 0;
}

static void
qp_free_mem(struct rte_pmd_irdma_dev *dev, struct irdma_pmd_qp *qp)
{
	irdma_qmem_free(&qp->sq);
	irdma_qmem_free(&qp->rq);
	irdma_shadow_free(dev, &qp->shadow);
	rte_free(qp->sq_wrtrk);
	rte_free(qp->rq_wrid);
	qp->sq_wrtrk = NULL;
	qp->rq_wrid = NULL;
}

static int
qp_alloc_mem(struct rte_pmd_irdma_dev *dev, struct irdma_pmd_qp *qp,
	     const struct irdma_qp_uk_init_info *info)
{
	int ret;

	ret = irdma_qmem_alloc(dev, &qp->sq, "sq", (size_t)info->sq_depth * IRDMA_QP_WQE_MIN_SIZE,
			       IRDMA_QP_WQE_MIN_SIZE, info->sq_depth);
	if (ret < 0)
		return ret;
	if (info->rq_depth != 0) {
		ret = irdma_qmem_alloc(dev, &qp->rq, "rq",
				       (size_t)info->rq_depth * IRDMA_QP_WQE_MIN_SIZE,
				       IRDMA_QP_WQE_MIN_SIZE << info->rq_shift, info->rq_size);
		if (ret < 0)
			goto fail;
	}
	ret = irdma_shadow_alloc(dev, &qp->shadow);
	if (ret < 0)
		goto fail;
	qp->sq_wrtrk = IRDMA_ZMALLOC(dev, "irdma_sq_wrtrk", info->sq_depth * sizeof(*qp->sq_wrtrk),
				     RTE_CACHE_LINE_SIZE);
	qp->rq_wrid = IRDMA_ZMALLOC(dev, "irdma_rq_wrid",
				    RTE_MAX(info->rq_depth, 1u) * sizeof(*qp->rq_wrid),
				    RTE_CACHE_LINE_SIZE);
	if (qp->sq_wrtrk == NULL || qp->rq_wrid == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	qp_free_mem(dev, qp);
	return ret;
}

/* (Re)initialise the lib/uk QP on zeroed rings: at creation and after a move to RESET. */
static int
qp_uk_init(struct irdma_pmd_qp *qp, struct irdma_qp_uk_init_info *info)
{
	int ret;

	memset(qp->sq.addr, 0, qp->sq.len);
	if (qp->rq.addr != NULL)
		memset(qp->rq.addr, 0, qp->rq.len);
	memset(qp->shadow.addr, 0, IRDMA_SHADOW_BYTES);
	info->sq = qp->sq.addr;
	info->rq = qp->rq.addr;
	info->shadow_area = qp->shadow.addr;
	info->sq_wrtrk_array = qp->sq_wrtrk;
	info->rq_wrid_array = qp->rq_wrid;
	ret = irdma_uk_qp_init(&qp->uk, info);
	qp->uk.back_qp = qp;
	return ret;
}

struct rte_pmd_irdma_qp *
rte_pmd_irdma_qp_create(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_qp_init_attr *init)
{
	struct irdma_qp_uk_init_info info;
	struct rte_pmd_irdma_dev *dev;
	struct irdma_pmd_srq *srq = NULL;
	struct irdma_hw_qp_ctx ctx;
	struct irdma_pmd_qp *qp;
	uint32_t qp_id, *db, asked_send_wr;
	int ret;

	if (!irdma_pd_live(pd) || init == NULL || !irdma_dev_valid(pd->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	dev = pd->dev;
	ret = qp_check_init_attr(dev, init);
	if (ret < 0)
		goto fail;
	if (init->srq != NULL) {
		srq = IRDMA_PRIV(irdma_pmd_srq, init->srq);
		if (init->srq->pd->dev != dev) {
			IRDMA_LOG(qp, ERR, "%s: the SRQ belongs to device %s", dev->name,
				  init->srq->pd->dev->name);
			ret = -EINVAL;
			goto fail;
		}
	}
	asked_send_wr = init->cap.max_send_wr; /* qp_size() writes what was granted */
	ret = qp_size(dev, init, &info);
	if (ret < 0)
		goto fail;
	qp = IRDMA_ZMALLOC(dev, "irdma_qp", sizeof(*qp), RTE_CACHE_LINE_SIZE);
	if (qp == NULL) {
		ret = -ENOMEM;
		goto fail;
	}

	rte_spinlock_lock(&dev->lock);
	if (dev->n_qp >= dev->hw_info.max_qp) {
		IRDMA_LOG(qp, ERR, "%s: all %u QPs in use (devargs max_qp=)", dev->name,
			  dev->hw_info.max_qp);
		ret = -ENOSPC;
		goto unlock;
	}
	ret = qp_alloc_mem(dev, qp, &info);
	if (ret < 0)
		goto unlock;

	memset(&ctx, 0, sizeof(ctx));
	ctx.type = init->qp_type == RTE_PMD_IRDMA_QPT_RC ? IRDMA_HW_QP_RC : IRDMA_HW_QP_UD;
	ctx.pd_id = pd->handle;
	ctx.sq_base = qp->sq.addr;
	ctx.sq_iova = qp->sq.iova;
	ctx.sq_depth = info.sq_depth;
	ctx.sq_shift = info.sq_shift;
	ctx.rq_base = qp->rq.addr;
	ctx.rq_iova = qp->rq.addr != NULL ? qp->rq.iova : 0;
	ctx.rq_depth = info.rq_depth;
	ctx.rq_shift = info.rq_shift;
	ctx.use_srq = srq != NULL;
	ctx.srq_id = srq != NULL ? srq->pub.handle : 0;
	ctx.send_cq_id = init->send_cq->handle;
	ctx.recv_cq_id = init->recv_cq->handle;
	ctx.shadow_area = qp->shadow.addr;
	ctx.shadow_iova = qp->shadow.iova;
	ctx.compl_ctx = (uint64_t)(uintptr_t)&qp->uk;
	ctx.max_inline = init->cap.max_inline_data;
	ctx.max_sq_frags = init->cap.max_send_sge;
	ctx.max_rq_frags = init->cap.max_recv_sge;
	ctx.max_send_wr = asked_send_wr;
	ret = dev->ops->qp_create(dev->hw, &ctx, &qp_id, &db);
	if (ret < 0) {
		IRDMA_LOG(qp, ERR, "%s: backend refused the QP: %s", dev->name, strerror(-ret));
		goto free_mem;
	}
	info.qp_id = qp_id;
	info.wqe_alloc_db = db;
	info.srq_uk = srq != NULL ? &srq->uk : NULL;
	ret = qp_uk_init(qp, &info);
	if (ret < 0) {
		IRDMA_LOG(qp, ERR, "%s: lib/uk refused the QP geometry: %s", dev->name,
			  strerror(-ret));
		dev->ops->qp_destroy(dev->hw, qp_id);
		goto free_mem;
	}
	qp->uk_info = info;

	qp->pub.dev = dev;
	qp->pub.pd = pd;
	qp->pub.qp_context = init->qp_context;
	qp->pub.send_cq = init->send_cq;
	qp->pub.recv_cq = init->recv_cq;
	qp->pub.srq = init->srq;
	qp->pub.qp_num = qp_id;
	qp->pub.qp_type = init->qp_type;
	qp->pub.state = RTE_PMD_IRDMA_QPS_RESET; /* not yet published: a plain store */
	qp->pd_id = pd->handle;
	qp->sig_flags = init->sq_sig_all != 0 ? RTE_PMD_IRDMA_SEND_SIGNALED : 0;
	qp->gen = dev->attrs->hw_rev;
	qp->sge_len_max = irdma_sge_len_max(qp->gen);
	qp->keys = dev->keys;
	qp->n_keys = dev->n_keys;
	qp->hw = dev->hw;
	qp->sq_kick = dev->da.cfg.engine == IRDMA_HW_ENGINE_INLINE ? dev->ops->sq_kick : NULL;
	irdma_wr_allowed_init(&qp->wr_allowed, init->qp_type, qp->gen,
			      (dev->attrs->feature_flags & IRDMA_FEATURE_ATOMIC_OPS) != 0,
			      qp->uk.max_sq_frag_cnt, dev->attrs->max_hw_read_sges);

	/* What the application got: the reported caps of the provider (doc/spec/irdma-uk.md §6.2). */
	init->cap.max_send_wr = (info.sq_depth - IRDMA_SQ_RSVD) >> info.sq_shift;
	init->cap.max_recv_wr = srq != NULL ? 0 : (info.rq_depth - IRDMA_RQ_RSVD) >> info.rq_shift;
	if (srq != NULL)
		init->cap.max_recv_sge = 0;
	qp->cap = init->cap;
	qp->attr.cap = init->cap;
	qp->attr.port_num = 1;
	qp->attr.path_mtu = RTE_PMD_IRDMA_MTU_1024;

	IRDMA_PRIV(irdma_pmd_pd, pd)->refcnt++;
	IRDMA_PRIV(irdma_pmd_cq, init->send_cq)->refcnt++;
	IRDMA_PRIV(irdma_pmd_cq, init->recv_cq)->refcnt++;
	if (srq != NULL)
		srq->refcnt++;
	TAILQ_INSERT_TAIL(&dev->qps, qp, next);
	if (qp_id < dev->n_qp_ids)
		dev->qp_by_id[qp_id] = qp;
	dev->n_qp++;
	rte_spinlock_unlock(&dev->lock);
	IRDMA_LOG(qp, DEBUG, "%s: QP %u %s: SQ %u quanta (shift %u), RQ %u quanta (shift %u), "
		  "max_send_wr %u max_recv_wr %u", dev->name, qp_id,
		  init->qp_type == RTE_PMD_IRDMA_QPT_RC ? "RC" : "UD", info.sq_depth,
		  info.sq_shift, info.rq_depth, info.rq_shift, init->cap.max_send_wr,
		  init->cap.max_recv_wr);
	qp->magic = IRDMA_MAGIC_QP;
	return &qp->pub;

free_mem:
	qp_free_mem(dev, qp);
unlock:
	rte_spinlock_unlock(&dev->lock);
	rte_free(qp);
fail:
	rte_errno = -ret;
	return NULL;
}

static uint16_t
mtu_bytes(enum rte_pmd_irdma_mtu mtu)
{
	return (uint16_t)(128u << mtu);
}

/* Check the values of the attributes in @p mask; log the first bad one. */
static int
qp_check_values(struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_qp_attr *attr, uint32_t mask)
{
	struct rte_pmd_irdma_dev *dev = qp->pub.dev;
	uint32_t q = qp->pub.qp_num;

	if ((mask & RTE_PMD_IRDMA_QP_CUR_STATE) && attr->cur_qp_state != irdma_qp_state(qp)) {
		IRDMA_LOG(qp, ERR, "%s qp %u: cur_qp_state %s does not match the state %s",
			  dev->name, q, rte_pmd_irdma_qp_state_str(attr->cur_qp_state),
			  rte_pmd_irdma_qp_state_str(irdma_qp_state(qp)));
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_PKEY_INDEX) && attr->pkey_index != 0) {
		IRDMA_LOG(qp, ERR, "%s qp %u: pkey_index %u: the P_Key table has one entry (0)",
			  dev->name, q, attr->pkey_index);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_PORT) && attr->port_num != 1) {
		IRDMA_LOG(qp, ERR, "%s qp %u: port_num %u: the device has one port (1)", dev->name,
			  q, attr->port_num);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_ACCESS_FLAGS) && (attr->qp_access_flags & ~QP_ACCESS_ALLOWED)) {
		IRDMA_LOG(qp, ERR, "%s qp %u: qp_access_flags 0x%x: only LOCAL_WRITE, REMOTE_WRITE, "
			  "REMOTE_READ and REMOTE_ATOMIC apply to a QP", dev->name, q,
			  attr->qp_access_flags);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_PATH_MTU) &&
	    (attr->path_mtu < RTE_PMD_IRDMA_MTU_256 || attr->path_mtu > RTE_PMD_IRDMA_MTU_4096 ||
	     mtu_bytes(attr->path_mtu) > dev->hw_info.mtu)) {
		IRDMA_LOG(qp, ERR, "%s qp %u: path_mtu %d: valid values are 1 (256) .. %d (%u, the "
			  "device MTU)", dev->name, q, attr->path_mtu,
			  __builtin_ctz(dev->hw_info.mtu) - 7, dev->hw_info.mtu);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_DEST_QPN) && attr->dest_qp_num > 0xFFFFFF) {
		IRDMA_LOG(qp, ERR, "%s qp %u: dest_qp_num 0x%x exceeds 24 bits", dev->name, q,
			  attr->dest_qp_num);
		return -EINVAL;
	}
	if (((mask & RTE_PMD_IRDMA_QP_RQ_PSN) && attr->rq_psn > 0xFFFFFF) ||
	    ((mask & RTE_PMD_IRDMA_QP_SQ_PSN) && attr->sq_psn > 0xFFFFFF)) {
		IRDMA_LOG(qp, ERR, "%s qp %u: PSN 0x%x/0x%x exceeds 24 bits", dev->name, q,
			  attr->rq_psn, attr->sq_psn);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_TIMEOUT) && attr->timeout > 31) {
		IRDMA_LOG(qp, ERR, "%s qp %u: timeout %u: valid values 0..31", dev->name, q,
			  attr->timeout);
		return -EINVAL;
	}
	if (((mask & RTE_PMD_IRDMA_QP_RETRY_CNT) && attr->retry_cnt > 7) ||
	    ((mask & RTE_PMD_IRDMA_QP_RNR_RETRY) && attr->rnr_retry > 7)) {
		IRDMA_LOG(qp, ERR, "%s qp %u: retry_cnt %u / rnr_retry %u: valid values 0..7",
			  dev->name, q, attr->retry_cnt, attr->rnr_retry);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31) {
		IRDMA_LOG(qp, ERR, "%s qp %u: min_rnr_timer %u: valid values 0..31", dev->name, q,
			  attr->min_rnr_timer);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > dev->hw_info.max_qp_init_rd_atom) {
		IRDMA_LOG(qp, ERR, "%s qp %u: max_rd_atomic %u over the device limit %u", dev->name,
			  q, attr->max_rd_atomic, dev->hw_info.max_qp_init_rd_atom);
		return -EINVAL;
	}
	if ((mask & RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > dev->hw_info.max_qp_rd_atom) {
		IRDMA_LOG(qp, ERR, "%s qp %u: max_dest_rd_atomic %u over the device limit %u",
			  dev->name, q, attr->max_dest_rd_atomic, dev->hw_info.max_qp_rd_atom);
		return -EINVAL;
	}
	return 0;
}

/* Translate the verbs attributes to the backend's. */
static int
qp_hw_attr(struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_qp_attr *attr, uint32_t mask,
	   struct irdma_hw_qp_attr *hw, uint32_t *hw_mask)
{
	uint32_t m = IRDMA_HW_QP_ATTR_STATE;
	int ret;

	memset(hw, 0, sizeof(*hw));
	hw->state = (enum irdma_hw_qp_state)attr->qp_state;
	if (mask & RTE_PMD_IRDMA_QP_ACCESS_FLAGS) {
		hw->access_flags = attr->qp_access_flags;
		m |= IRDMA_HW_QP_ATTR_ACCESS_FLAGS;
	}
	if (mask & RTE_PMD_IRDMA_QP_QKEY) {
		hw->qkey = attr->qkey;
		m |= IRDMA_HW_QP_ATTR_QKEY;
	}
	if (mask & RTE_PMD_IRDMA_QP_AV) {
		ret = irdma_av_from_attr(qp->pub.dev, &attr->ah_attr, &hw->av);
		if (ret < 0)
			return ret;
		m |= IRDMA_HW_QP_ATTR_AV;
	}
	if (mask & RTE_PMD_IRDMA_QP_PATH_MTU) {
		hw->path_mtu = mtu_bytes(attr->path_mtu);
		m |= IRDMA_HW_QP_ATTR_PATH_MTU;
	}
	if (mask & RTE_PMD_IRDMA_QP_TIMEOUT) {
		hw->timeout = attr->timeout;
		m |= IRDMA_HW_QP_ATTR_TIMEOUT;
	}
	if (mask & RTE_PMD_IRDMA_QP_RETRY_CNT) {
		hw->retry_cnt = attr->retry_cnt;
		m |= IRDMA_HW_QP_ATTR_RETRY_CNT;
	}
	if (mask & RTE_PMD_IRDMA_QP_RNR_RETRY) {
		hw->rnr_retry = attr->rnr_retry;
		m |= IRDMA_HW_QP_ATTR_RNR_RETRY;
	}
	if (mask & RTE_PMD_IRDMA_QP_RQ_PSN) {
		hw->rq_psn = attr->rq_psn;
		m |= IRDMA_HW_QP_ATTR_RQ_PSN;
	}
	if (mask & RTE_PMD_IRDMA_QP_SQ_PSN) {
		hw->sq_psn = attr->sq_psn;
		m |= IRDMA_HW_QP_ATTR_SQ_PSN;
	}
	if (mask & RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC) {
		hw->max_rd_atomic = attr->max_rd_atomic;
		m |= IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC;
	}
	if (mask & RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC) {
		hw->max_dest_rd_atomic = attr->max_dest_rd_atomic;
		m |= IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC;
	}
	if (mask & RTE_PMD_IRDMA_QP_MIN_RNR_TIMER) {
		hw->min_rnr_timer = attr->min_rnr_timer;
		m |= IRDMA_HW_QP_ATTR_MIN_RNR_TIMER;
	}
	if (mask & RTE_PMD_IRDMA_QP_DEST_QPN) {
		hw->dest_qpn = attr->dest_qp_num;
		m |= IRDMA_HW_QP_ATTR_DEST_QPN;
	}
	*hw_mask = m;
	return 0;
}

/* Remember what was set, for query (the state is not kept here: query takes pub.state). */
static void
qp_cache_attr(struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_qp_attr *attr, uint32_t mask)
{
	struct rte_pmd_irdma_qp_attr *c = &qp->attr;

	if (mask & RTE_PMD_IRDMA_QP_ACCESS_FLAGS)
		c->qp_access_flags = attr->qp_access_flags;
	if (mask & RTE_PMD_IRDMA_QP_PKEY_INDEX)
		c->pkey_index = attr->pkey_index;
	if (mask & RTE_PMD_IRDMA_QP_PORT)
		c->port_num = attr->port_num;
	if (mask & RTE_PMD_IRDMA_QP_QKEY)
		c->qkey = attr->qkey;
	if (mask & RTE_PMD_IRDMA_QP_AV)
		c->ah_attr = attr->ah_attr;
	if (mask & RTE_PMD_IRDMA_QP_PATH_MTU)
		c->path_mtu = attr->path_mtu;
	if (mask & RTE_PMD_IRDMA_QP_TIMEOUT)
		c->timeout = attr->timeout;
	if (mask & RTE_PMD_IRDMA_QP_RETRY_CNT)
		c->retry_cnt = attr->retry_cnt;
	if (mask & RTE_PMD_IRDMA_QP_RNR_RETRY)
		c->rnr_retry = attr->rnr_retry;
	if (mask & RTE_PMD_IRDMA_QP_RQ_PSN)
		c->rq_psn = attr->rq_psn;
	if (mask & RTE_PMD_IRDMA_QP_SQ_PSN)
		c->sq_psn = attr->sq_psn;
	if (mask & RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC)
		c->max_rd_atomic = attr->max_rd_atomic;
	if (mask & RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC)
		c->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & RTE_PMD_IRDMA_QP_MIN_RNR_TIMER)
		c->min_rnr_timer = attr->min_rnr_timer;
	if (mask & RTE_PMD_IRDMA_QP_DEST_QPN)
		c->dest_qp_num = attr->dest_qp_num;
	if (mask & RTE_PMD_IRDMA_QP_EN_SQD_ASYNC_NOTIFY)
		c->en_sqd_async_notify = attr->en_sqd_async_notify;
}

/* After a move to RESET: completions of the old incarnation go, the rings start over. */
static int
qp_reset(struct irdma_pmd_qp *qp)
{
	irdma_cq_clean_qp(IRDMA_PRIV(irdma_pmd_cq, qp->pub.send_cq), qp);
	if (qp->pub.recv_cq != qp->pub.send_cq)
		irdma_cq_clean_qp(IRDMA_PRIV(irdma_pmd_cq, qp->pub.recv_cq), qp);
	memset(qp->sq_wrtrk, 0, qp->uk_info.sq_depth * sizeof(*qp->sq_wrtrk));
	return qp_uk_init(qp, &qp->uk_info);
}

int
rte_pmd_irdma_qp_modify(struct rte_pmd_irdma_qp *pub, struct rte_pmd_irdma_qp_attr *attr,
			uint32_t mask)
{
	struct irdma_pmd_qp *qp = IRDMA_PRIV(irdma_pmd_qp, pub);
	struct irdma_qp_transition t;
	enum rte_pmd_irdma_qp_state cur, next;
	struct rte_pmd_irdma_dev *dev;
	struct irdma_hw_qp_attr hw;
	uint32_t hw_mask, extra, missing;
	int ret;

	if (!irdma_qp_live(pub) || attr == NULL || !irdma_dev_valid(pub->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->dev;
	if (mask & (RTE_PMD_IRDMA_QP_ALT_PATH | RTE_PMD_IRDMA_QP_PATH_MIG_STATE | RTE_PMD_IRDMA_QP_CAP)) {
		IRDMA_LOG(qp, ERR, "%s qp %u: attribute %s is not supported (RoCE has no alternate "
			  "path; capabilities are fixed at creation)", dev->name, pub->qp_num,
			  irdma_qp_attr_name(mask & (RTE_PMD_IRDMA_QP_ALT_PATH |
						     RTE_PMD_IRDMA_QP_PATH_MIG_STATE |
						     RTE_PMD_IRDMA_QP_CAP)));
		return -EINVAL;
	}

	rte_spinlock_lock(&dev->lock);
	cur = irdma_qp_state(qp);
	next = (mask & RTE_PMD_IRDMA_QP_STATE) ? attr->qp_state : cur;
	t = irdma_qp_transition(pub->qp_type, cur, next);
	if (!t.legal) {
		IRDMA_LOG(qp, ERR, "%s qp %u: %s -> %s is not a legal %s transition", dev->name,
			  pub->qp_num, rte_pmd_irdma_qp_state_str(cur),
			  rte_pmd_irdma_qp_state_str(next),
			  pub->qp_type == RTE_PMD_IRDMA_QPT_RC ? "RC" : "UD");
		ret = -EINVAL;
		goto out;
	}
	/* A modify without STATE keeps the state: treat it as cur -> cur. */
	missing = t.required & ~mask & ~((mask & RTE_PMD_IRDMA_QP_STATE) ? 0 : RTE_PMD_IRDMA_QP_STATE);
	if (missing) {
		IRDMA_LOG(qp, ERR, "%s qp %u: %s -> %s requires attribute %s", dev->name,
			  pub->qp_num, rte_pmd_irdma_qp_state_str(cur),
			  rte_pmd_irdma_qp_state_str(next), irdma_qp_attr_name(missing));
		ret = -EINVAL;
		goto out;
	}
	extra = mask & ~(t.required | t.optional | RTE_PMD_IRDMA_QP_STATE);
	if (extra) {
		IRDMA_LOG(qp, ERR, "%s qp %u: attribute %s is not allowed in %s %s -> %s",
			  dev->name, pub->qp_num, irdma_qp_attr_name(extra),
			  pub->qp_type == RTE_PMD_IRDMA_QPT_RC ? "RC" : "UD",
			  rte_pmd_irdma_qp_state_str(cur), rte_pmd_irdma_qp_state_str(next));
		ret = -EINVAL;
		goto out;
	}
	ret = qp_check_values(qp, attr, mask);
	if (ret < 0)
		goto out;
	{
		struct rte_pmd_irdma_qp_attr a = *attr;

		a.qp_state = next;
		ret = qp_hw_attr(qp, &a, mask, &hw, &hw_mask);
		if (ret < 0)
			goto out;
		ret = dev->ops->qp_modify(dev->hw, pub->qp_num, &hw, hw_mask);
		if (ret < 0) {
			IRDMA_LOG(qp, ERR, "%s qp %u: backend refused %s -> %s: %s", dev->name,
				  pub->qp_num, rte_pmd_irdma_qp_state_str(cur),
				  rte_pmd_irdma_qp_state_str(next), strerror(-ret));
			goto out;
		}
		qp_cache_attr(qp, &a, mask);
	}
	if (next == RTE_PMD_IRDMA_QPS_RESET || next == RTE_PMD_IRDMA_QPS_ERR) {
		/* The device is there already: publish it first, so posts see RESET (refused)
		 * before the rings start over. */
		irdma_qp_state_set(qp, next);
		if (next == RTE_PMD_IRDMA_QPS_ERR) {
			/* A receive another lcore wrote after the device's flush while the
			 * word still read the old state: one more flush, after the word and a
			 * full fence, finds it (the pair is explained at rq_flush_request). */
			rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
			hw.state = IRDMA_HW_QPS_ERR;
			dev->ops->qp_modify(dev->hw, pub->qp_num, &hw, IRDMA_HW_QP_ATTR_STATE);
		}
		if (next == RTE_PMD_IRDMA_QPS_RESET && cur != RTE_PMD_IRDMA_QPS_RESET) {
			ret = qp_reset(qp);
			if (ret < 0)
				goto out;
		}
	} else {
		/* An error the device reported meanwhile (note_error from the engine or a
		 * poll) stands: a modify racing with it does not hide it. */
		enum rte_pmd_irdma_qp_state seen = cur;

		__atomic_compare_exchange_n(&pub->state, &seen, next, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED);
	}
	IRDMA_LOG(qp, DEBUG, "%s qp %u: %s -> %s (mask 0x%x)", dev->name, pub->qp_num,
		  rte_pmd_irdma_qp_state_str(cur), rte_pmd_irdma_qp_state_str(next), mask);
out:
	rte_spinlock_unlock(&dev->lock);
	return ret;
}

int
rte_pmd_irdma_qp_query(struct rte_pmd_irdma_qp *pub, struct rte_pmd_irdma_qp_attr *attr,
		       uint32_t attr_mask, struct rte_pmd_irdma_qp_init_attr *init)
{
	struct irdma_pmd_qp *qp = IRDMA_PRIV(irdma_pmd_qp, pub);
	struct rte_pmd_irdma_dev *dev;
	struct irdma_hw_qp_attr hw;
	int ret;

	RTE_SET_USED(attr_mask);
	if (!irdma_qp_live(pub) || attr == NULL || !irdma_dev_valid(pub->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->dev;
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->qp_query(dev->hw, pub->qp_num, &hw);
	if (ret == 0 && hw.state == IRDMA_HW_QPS_ERR)
		irdma_qp_state_note_error(qp); /* a fatal error, a peer's NAK */
	*attr = qp->attr;
	attr->qp_state = irdma_qp_state(qp);
	attr->cur_qp_state = attr->qp_state;
	attr->cap = qp->cap;
	if (ret == 0) {
		attr->sq_psn = hw.sq_psn;
		attr->rq_psn = hw.rq_psn;
	}
	if (init != NULL) {
		memset(init, 0, sizeof(*init));
		init->qp_context = pub->qp_context;
		init->send_cq = pub->send_cq;
		init->recv_cq = pub->recv_cq;
		init->srq = pub->srq;
		init->cap = qp->cap;
		init->qp_type = pub->qp_type;
		init->sq_sig_all = qp->sig_flags != 0;
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0)
		IRDMA_LOG(qp, ERR, "%s qp %u: backend query failed: %s", dev->name, pub->qp_num,
			  strerror(-ret));
	return ret;
}

int
rte_pmd_irdma_qp_destroy(struct rte_pmd_irdma_qp *pub)
{
	struct irdma_pmd_qp *qp = IRDMA_PRIV(irdma_pmd_qp, pub);
	struct rte_pmd_irdma_dev *dev;
	struct irdma_qp_stats *r;
	int ret;

	if (!irdma_qp_live(pub) || !irdma_dev_valid(pub->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->dev;
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->qp_destroy(dev->hw, pub->qp_num);
	if (ret < 0) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(qp, ERR, "%s qp %u: backend refused to destroy it: %s", dev->name,
			  pub->qp_num, strerror(-ret));
		return ret;
	}
	/* CQEs the device wrote for it stay in the rings: make the poll path skip them. */
	qp->uk.destroy_pending = true;
	irdma_cq_clean_qp(IRDMA_PRIV(irdma_pmd_cq, pub->send_cq), qp);
	if (pub->recv_cq != pub->send_cq)
		irdma_cq_clean_qp(IRDMA_PRIV(irdma_pmd_cq, pub->recv_cq), qp);

	IRDMA_PRIV(irdma_pmd_pd, pub->pd)->refcnt--;
	IRDMA_PRIV(irdma_pmd_cq, pub->send_cq)->refcnt--;
	IRDMA_PRIV(irdma_pmd_cq, pub->recv_cq)->refcnt--;
	if (pub->srq != NULL)
		IRDMA_PRIV(irdma_pmd_srq, pub->srq)->refcnt--;
	r = &dev->retired_qp;
	r->tx_wrs += qp->stats.tx_wrs;
	r->tx_doorbells += qp->stats.tx_doorbells;
	r->tx_rejected_wrs += qp->stats.tx_rejected_wrs;
	r->tx_sq_full += qp->stats.tx_sq_full;
	r->rx_wrs += qp->stats.rx_wrs;
	r->rx_rejected_wrs += qp->stats.rx_rejected_wrs;
	r->rx_rq_full += qp->stats.rx_rq_full;
	TAILQ_REMOVE(&dev->qps, qp, next);
	if (pub->qp_num < dev->n_qp_ids)
		dev->qp_by_id[pub->qp_num] = NULL;
	dev->n_qp--;
	qp_free_mem(dev, qp);
	rte_spinlock_unlock(&dev->lock);
	IRDMA_LOG(qp, DEBUG, "%s: QP %u destroyed", dev->name, pub->qp_num);
	irdma_handle_retire(qp, &qp->magic);
	return 0;
}

int
rte_pmd_irdma_qp_queue_mem(const struct rte_pmd_irdma_qp *pub, struct rte_pmd_irdma_queue_mem *sq,
			   struct rte_pmd_irdma_queue_mem *rq)
{
	const struct irdma_pmd_qp *qp = (const struct irdma_pmd_qp *)pub;

	if (!irdma_qp_live(pub))
		return -EINVAL;
	if (sq != NULL)
		irdma_qmem_describe(&qp->sq, sq);
	if (rq != NULL)
		irdma_qmem_describe(&qp->rq, rq);
	return 0;
}
