/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared receive queues (GEN_3). The ring is srq_depth quanta from irdma_get_srqdepth(), one
 * memzone; the shadow area carries the producer index to the device.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "irdma_pmd.h"

struct rte_pmd_irdma_srq *
rte_pmd_irdma_srq_create(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_srq_init_attr *init)
{
	struct irdma_srq_uk_init_info info;
	struct irdma_hw_srq_ctx ctx;
	struct rte_pmd_irdma_dev *dev;
	struct irdma_pmd_srq *srq;
	uint32_t depth, srq_id;
	uint8_t shift;
	int ret;

	if (!irdma_pd_live(pd) || init == NULL || !irdma_dev_valid(pd->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	dev = pd->dev;
	if (!(dev->attrs->feature_flags & IRDMA_FEATURE_SRQ)) {
		IRDMA_LOG(ctrl, ERR, "%s: SRQs need GEN_3 (this device is %s)", dev->name,
			  irdma_gen_str(dev->attrs->hw_rev));
		rte_errno = EOPNOTSUPP;
		return NULL;
	}
	if (init->attr.max_wr == 0 || init->attr.max_wr > irdma_dev_max_srq_wr(dev) ||
	    init->attr.max_sge == 0 || init->attr.max_sge > dev->attrs->max_hw_wq_frags) {
		IRDMA_LOG(ctrl, ERR, "%s: SRQ max_wr %u / max_sge %u: need 1 <= max_wr <= %u "
			  "(dev_info.max_srq_wr) and 1 <= max_sge <= %u", dev->name,
			  init->attr.max_wr, init->attr.max_sge, irdma_dev_max_srq_wr(dev),
			  dev->attrs->max_hw_wq_frags);
		rte_errno = EINVAL;
		return NULL;
	}
	irdma_get_wqe_shift(&dev->uk_attrs, init->attr.max_sge, 0, &shift);
	ret = irdma_get_srqdepth(&dev->uk_attrs, init->attr.max_wr, shift, &depth);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: SRQ of %u WRs with %u SGEs exceeds %u quanta", dev->name,
			  init->attr.max_wr, init->attr.max_sge, dev->attrs->max_hw_srq_quanta);
		rte_errno = -ret;
		return NULL;
	}
	srq = IRDMA_ZMALLOC(dev, "irdma_srq", sizeof(*srq), RTE_CACHE_LINE_SIZE);
	if (srq == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rte_spinlock_init(&srq->tail_lock);

	rte_spinlock_lock(&dev->lock);
	ret = irdma_qmem_alloc(dev, &srq->mem, "srq", (size_t)depth * IRDMA_QP_WQE_MIN_SIZE,
			       IRDMA_QP_WQE_MIN_SIZE << shift, depth >> shift);
	if (ret < 0)
		goto unlock;
	ret = irdma_shadow_alloc(dev, &srq->shadow);
	if (ret < 0)
		goto free_mem;
	memset(&ctx, 0, sizeof(ctx));
	ctx.pd_id = pd->handle;
	ctx.srq_base = srq->mem.addr;
	ctx.srq_iova = srq->mem.iova;
	ctx.srq_depth = depth;
	ctx.srq_shift = shift;
	ctx.max_frags = init->attr.max_sge;
	ctx.shadow_area = srq->shadow.addr;
	ctx.shadow_iova = srq->shadow.iova;
	ctx.limit = init->attr.srq_limit;
	ret = dev->ops->srq_create(dev->hw, &ctx, &srq_id);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: backend refused the SRQ: %s", dev->name, strerror(-ret));
		goto free_shadow;
	}
	memset(&info, 0, sizeof(info));
	info.srq = srq->mem.addr;
	info.uk_attrs = &dev->uk_attrs;
	info.shadow_area = srq->shadow.addr;
	info.srq_id = srq_id;
	info.srq_size = depth >> shift;
	info.max_srq_frag_cnt = init->attr.max_sge;
	info.lock = &srq->tail_lock;
	ret = irdma_uk_srq_init(&srq->uk, &info);
	if (ret < 0) {
		dev->ops->srq_destroy(dev->hw, srq_id);
		goto free_shadow;
	}
	srq->pub.pd = pd;
	srq->pub.srq_context = init->srq_context;
	srq->pub.handle = srq_id;
	srq->pd_id = pd->handle;
	init->attr.max_wr = (depth - IRDMA_RQ_RSVD) >> shift;
	init->attr.max_sge = srq->uk.max_srq_frag_cnt;
	srq->attr = init->attr;
	IRDMA_PRIV(irdma_pmd_pd, pd)->refcnt++;
	TAILQ_INSERT_TAIL(&dev->srqs, srq, next);
	dev->n_srq++;
	rte_spinlock_unlock(&dev->lock);
	srq->magic = IRDMA_MAGIC_SRQ;
	return &srq->pub;

free_shadow:
	irdma_shadow_free(dev, &srq->shadow);
free_mem:
	irdma_qmem_free(&srq->mem);
unlock:
	rte_spinlock_unlock(&dev->lock);
	rte_free(srq);
	rte_errno = -ret;
	return NULL;
}

int
rte_pmd_irdma_srq_destroy(struct rte_pmd_irdma_srq *pub)
{
	struct irdma_pmd_srq *srq = IRDMA_PRIV(irdma_pmd_srq, pub);
	struct rte_pmd_irdma_dev *dev;
	int ret;

	if (!irdma_srq_live(pub) || !irdma_dev_valid(pub->pd->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->pd->dev;
	rte_spinlock_lock(&dev->lock);
	if (srq->refcnt != 0) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(ctrl, ERR, "%s: SRQ %u is still used by %u QPs", dev->name, pub->handle,
			  srq->refcnt);
		return -EBUSY;
	}
	ret = dev->ops->srq_destroy(dev->hw, pub->handle);
	if (ret < 0) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(ctrl, ERR, "%s: SRQ %u: backend refused: %s", dev->name, pub->handle,
			  strerror(-ret));
		return ret;
	}
	IRDMA_PRIV(irdma_pmd_pd, pub->pd)->refcnt--;
	TAILQ_REMOVE(&dev->srqs, srq, next);
	dev->n_srq--;
	irdma_shadow_free(dev, &srq->shadow);
	irdma_qmem_free(&srq->mem);
	rte_spinlock_unlock(&dev->lock);
	irdma_handle_retire(srq, &srq->magic);
	return 0;
}

int
rte_pmd_irdma_srq_query(struct rte_pmd_irdma_srq *pub, struct rte_pmd_irdma_srq_attr *attr)
{
	struct irdma_pmd_srq *srq = IRDMA_PRIV(irdma_pmd_srq, pub);

	if (!irdma_srq_live(pub) || attr == NULL)
		return -EINVAL;
	*attr = srq->attr;
	return 0;
}

int
rte_pmd_irdma_srq_modify(struct rte_pmd_irdma_srq *pub, struct rte_pmd_irdma_srq_attr *attr,
			 uint32_t attr_mask)
{
	struct irdma_pmd_srq *srq = IRDMA_PRIV(irdma_pmd_srq, pub);
	struct rte_pmd_irdma_dev *dev;
	int ret;

	if (!irdma_srq_live(pub) || attr == NULL || !irdma_dev_valid(pub->pd->dev)) {
		IRDMA_LOG(qp, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->pd->dev;
	if (attr_mask & ~RTE_PMD_IRDMA_SRQ_LIMIT) {
		IRDMA_LOG(ctrl, ERR, "%s: SRQ %u: only the limit can be modified (mask 0x%x)",
			  dev->name, pub->handle, attr_mask);
		return -EINVAL;
	}
	if (!(attr_mask & RTE_PMD_IRDMA_SRQ_LIMIT))
		return 0;
	if (attr->srq_limit > srq->attr.max_wr) {
		IRDMA_LOG(ctrl, ERR, "%s: SRQ %u: limit %u over max_wr %u", dev->name, pub->handle,
			  attr->srq_limit, srq->attr.max_wr);
		return -EINVAL;
	}
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->srq_arm(dev->hw, pub->handle, attr->srq_limit);
	if (ret == 0)
		srq->attr.srq_limit = attr->srq_limit;
	rte_spinlock_unlock(&dev->lock);
	return ret;
}

int
rte_pmd_irdma_srq_queue_mem(const struct rte_pmd_irdma_srq *pub, struct rte_pmd_irdma_queue_mem *m)
{
	const struct irdma_pmd_srq *srq = (const struct irdma_pmd_srq *)pub;

	if (!irdma_srq_live(pub) || m == NULL)
		return -EINVAL;
	irdma_qmem_describe(&srq->mem, m);
	return 0;
}
