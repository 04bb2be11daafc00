/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft device's control commands for protection domains, CQs, SRQs, memory regions and
 * windows and address handles (irdma_hw.h). Each runs on the control path; a command that
 * changes what the engine reads takes the engine lock.
 */
#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "soft_ctrl.h"
#include "soft_priv.h"

int soft_pd_alloc(struct irdma_hw_dev *hw, uint32_t *pd_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	uint32_t i;

	for (i = 1; i < dev->max_pd; i++) {
		if (!dev->pd_used[i]) {
			dev->pd_used[i] = 1;
			*pd_id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

int soft_pd_dealloc(struct irdma_hw_dev *hw, uint32_t pd_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (pd_id == 0 || pd_id >= dev->max_pd || !dev->pd_used[pd_id])
		return -EINVAL;
	dev->pd_used[pd_id] = 0;
	return 0;
}

/* ---- CQ ---- */

int soft_cq_create(struct irdma_hw_dev *hw, const struct irdma_hw_cq_ctx *ctx,
		   uint32_t *cq_id, uint32_t **db)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = NULL;
	uint32_t i;

	if (ctx->cq_base == NULL || ctx->shadow_area == NULL || ctx->cq_size < 2 ||
	    ctx->cq_size > IRDMA_MAX_CQ_SIZE)
		return -EINVAL;
	if (ctx->cqe_64byte && !(dev->uk_attrs.feature_flags & IRDMA_FEATURE_64_BYTE_CQE))
		return -EINVAL;
	for (i = 0; i < dev->max_cq; i++) {
		if (!dev->cq[i].in_use) {
			cq = &dev->cq[i];
			break;
		}
	}
	if (cq == NULL)
		return -ENOSPC;
	rte_spinlock_lock(&dev->engine_lock);
	memset(cq, 0, sizeof(*cq));
	cq->id = i;
	cq->base = ctx->cq_base;
	cq->size = ctx->cq_size;
	cq->cqe64 = ctx->cqe_64byte;
	cq->shadow = ctx->shadow_area;
	cq->polarity = 1;
	cq->eventfd = ctx->eventfd;
	cq->event_cb = ctx->event_cb;
	cq->event_arg = ctx->event_arg;
	cq->in_use = true;
	rte_spinlock_unlock(&dev->engine_lock);
	*cq_id = i;
	*db = soft_db_word(&dev->db_cq, i);
	return 0;
}

int soft_cq_destroy(struct irdma_hw_dev *hw, uint32_t cq_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = soft_cq_get(dev, cq_id);

	if (cq == NULL)
		return -EINVAL;
	if (cq->users)
		return -EBUSY;
	rte_spinlock_lock(&dev->engine_lock);
	cq->in_use = false;
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

int soft_cq_resize(struct irdma_hw_dev *hw, uint32_t cq_id, void *base, uint64_t iova,
		   uint32_t size)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = soft_cq_get(dev, cq_id);

	RTE_SET_USED(iova);
	if (cq == NULL || base == NULL || size < 2 || size > IRDMA_MAX_CQ_SIZE)
		return -EINVAL;
	if (!(dev->uk_attrs.feature_flags & IRDMA_FEATURE_CQ_RESIZE))
		return -EOPNOTSUPP;
	rte_spinlock_lock(&dev->engine_lock);
	cq->base = base;
	cq->size = size;
	cq->head = 0;
	cq->room = 0; /* read the new ring's consumer index at the first CQE */
	cq->polarity = 1;
	cq->overflowed = false;
	cq->cons_stale = true;
	get_64bit_val_acquire(cq->shadow, IRDMA_BYTE_CQ_SHADOW_HEAD, &cq->stale_shadow);
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

int soft_cq_set_event(struct irdma_hw_dev *hw, uint32_t cq_id, int eventfd,
		      void (*cb)(void *arg, uint32_t cq_id), void *arg)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = soft_cq_get(dev, cq_id);

	if (cq == NULL)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	cq->eventfd = eventfd;
	cq->event_cb = cb;
	cq->event_arg = arg;
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

/* ---- SRQ ---- */

int soft_srq_create(struct irdma_hw_dev *hw, const struct irdma_hw_srq_ctx *ctx,
		    uint32_t *srq_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_srq *s = NULL;
	uint32_t i;

	if (!(dev->uk_attrs.feature_flags & IRDMA_FEATURE_SRQ))
		return -EOPNOTSUPP;
	if (!soft_pd_valid(dev, ctx->pd_id) || ctx->srq_base == NULL || ctx->shadow_area == NULL ||
	    ctx->srq_shift > 3 || (ctx->srq_depth >> ctx->srq_shift) < 2)
		return -EINVAL;
	for (i = 0; i < dev->max_srq; i++) {
		if (!dev->srq[i].in_use) {
			s = &dev->srq[i];
			break;
		}
	}
	if (s == NULL)
		return -ENOSPC;
	memset(s, 0, sizeof(*s));
	s->id = i;
	s->pd_id = ctx->pd_id;
	s->base = ctx->srq_base;
	s->shift = ctx->srq_shift;
	s->size = ctx->srq_depth >> ctx->srq_shift;
	s->max_frags = ctx->max_frags;
	s->shadow = ctx->shadow_area;
	s->polarity = 1;
	s->limit = ctx->limit;
	s->in_use = true;
	*srq_id = i;
	return 0;
}

int soft_srq_destroy(struct irdma_hw_dev *hw, uint32_t srq_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (srq_id >= dev->max_srq || !dev->srq[srq_id].in_use)
		return -EINVAL;
	if (dev->srq[srq_id].users)
		return -EBUSY;
	dev->srq[srq_id].in_use = false;
	return 0;
}

int soft_srq_arm(struct irdma_hw_dev *hw, uint32_t srq_id, uint32_t limit)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (srq_id >= dev->max_srq || !dev->srq[srq_id].in_use)
		return -EINVAL;
	dev->srq[srq_id].limit = limit;
	return 0;
}

/* ---- MR / MW / AH ---- */

int soft_mr_reg_op(struct irdma_hw_dev *hw, const struct irdma_hw_mr_ctx *ctx,
		   uint32_t *stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mr_reg(dev, ctx, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

int soft_mr_dereg_op(struct irdma_hw_dev *hw, uint32_t stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mr_dereg(dev, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

int soft_mw_alloc_op(struct irdma_hw_dev *hw, uint32_t pd_id, enum irdma_hw_mw_type type,
		     uint32_t *stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mw_alloc(dev, pd_id, (uint8_t)type, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

int soft_mw_dealloc_op(struct irdma_hw_dev *hw, uint32_t stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mw_dealloc(dev, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

int soft_ah_create(struct irdma_hw_dev *hw, uint32_t pd_id, const struct irdma_hw_av *av,
		   uint32_t *ah_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	uint32_t i;

	if (!soft_pd_valid(dev, pd_id) || av == NULL)
		return -EINVAL;
	/* ah_id must fit the 17-bit WQE field. */
	for (i = 1; i < dev->max_ah && i < (1u << 17); i++) {
		if (!dev->ah[i].in_use) {
			dev->ah[i].pd_id = pd_id;
			dev->ah[i].av = *av;
			soft_roce_av(dev, av, &dev->ah[i].rav);
			dev->ah[i].in_use = true;
			*ah_id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

int soft_ah_destroy(struct irdma_hw_dev *hw, uint32_t ah_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (ah_id == 0 || ah_id >= dev->max_ah || !dev->ah[ah_id].in_use)
		return -EINVAL;
	dev->ah[ah_id].in_use = false;
	return 0;
}
