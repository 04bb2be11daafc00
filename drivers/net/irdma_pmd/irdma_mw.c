/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory windows: allocation, and the type 1 bind call (type 2 binds are work requests). */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "irdma_pmd.h"
#include "irdma_post.h"

struct rte_pmd_irdma_mw *
rte_pmd_irdma_alloc_mw(struct rte_pmd_irdma_pd *pd, enum rte_pmd_irdma_mw_type type)
{
	struct rte_pmd_irdma_dev *dev;
	struct irdma_pmd_mw *mw;
	uint32_t stag;
	int ret;

	if (!irdma_pd_live(pd) || !irdma_dev_valid(pd->dev)) {
		IRDMA_LOG(mem, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	dev = pd->dev;
	if (type != RTE_PMD_IRDMA_MW_TYPE_1 && type != RTE_PMD_IRDMA_MW_TYPE_2) {
		IRDMA_LOG(ctrl, ERR, "%s: MW type %d: valid types are 1 and 2", dev->name, type);
		rte_errno = EINVAL;
		return NULL;
	}
	if (type == RTE_PMD_IRDMA_MW_TYPE_2 && dev->attrs->hw_rev < IRDMA_GEN_2) {
		IRDMA_LOG(ctrl, ERR, "%s: type 2 memory windows need GEN_2 or later", dev->name);
		rte_errno = EOPNOTSUPP;
		return NULL;
	}
	mw = IRDMA_ZMALLOC(dev, "irdma_mw", sizeof(*mw), 0);
	if (mw == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->mw_alloc(dev->hw, pd->handle,
				 type == RTE_PMD_IRDMA_MW_TYPE_1 ? IRDMA_HW_MW_TYPE_1 :
								   IRDMA_HW_MW_TYPE_2, &stag);
	if (ret == 0) {
		dev->n_mw++;
		IRDMA_PRIV(irdma_pmd_pd, pd)->refcnt++;
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: MW allocation failed: %s", dev->name, strerror(-ret));
		rte_free(mw);
		rte_errno = -ret;
		return NULL;
	}
	mw->stag = stag;
	mw->pub.pd = pd;
	mw->pub.rkey = stag;
	mw->pub.handle = irdma_stag_to_index(stag);
	mw->pub.type = type;
	mw->magic = IRDMA_MAGIC_MW;
	return &mw->pub;
}

int
rte_pmd_irdma_dealloc_mw(struct rte_pmd_irdma_mw *pub)
{
	struct irdma_pmd_mw *mw = IRDMA_PRIV(irdma_pmd_mw, pub);
	struct rte_pmd_irdma_dev *dev;
	int ret;

	if (!irdma_mw_live(pub) || !irdma_dev_valid(pub->pd->dev)) {
		IRDMA_LOG(mem, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->pd->dev;
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->mw_dealloc(dev->hw, mw->stag);
	if (ret == 0) {
		dev->n_mw--;
		IRDMA_PRIV(irdma_pmd_pd, pub->pd)->refcnt--;
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: MW 0x%x: backend refused: %s", dev->name, mw->stag,
			  strerror(-ret));
		return ret;
	}
	irdma_handle_retire(mw, &mw->magic);
	return 0;
}

int
rte_pmd_irdma_bind_mw(struct rte_pmd_irdma_qp *qp_pub, struct rte_pmd_irdma_mw *mw,
		      const struct rte_pmd_irdma_mw_bind_info *bind, uint64_t wr_id, int signaled)
{
	struct irdma_pmd_qp *qp = IRDMA_PRIV(irdma_pmd_qp, qp_pub);
	uint32_t new_rkey;
	int ret;

	if (!irdma_qp_live(qp_pub) || !irdma_mw_live(mw) || bind == NULL ||
	    (bind->mr != NULL && !irdma_mr_live(bind->mr)) || !irdma_dev_valid(qp_pub->dev)) {
		IRDMA_LOG(ctrl, ERR, "NULL or destroyed handle (QP, MW or MR), or a closed device");
		return -EINVAL;
	}
	if (mw->type != RTE_PMD_IRDMA_MW_TYPE_1) {
		IRDMA_LOG(ctrl, ERR, "%s qp %u: rte_pmd_irdma_bind_mw() binds type 1 windows; "
			  "type 2 windows are bound with a BIND_MW work request",
			  qp_pub->dev->name, qp_pub->qp_num);
		return -EINVAL;
	}
	if (irdma_qp_state(qp) != RTE_PMD_IRDMA_QPS_RTS) {
		IRDMA_LOG(ctrl, ERR, "%s qp %u: bind_mw in state %s (needs RTS)", qp_pub->dev->name,
			  qp_pub->qp_num, rte_pmd_irdma_qp_state_str(irdma_qp_state(qp)));
		return -EPERM;
	}
	/* A type 1 bind gives the window a new key: the next value of the key byte. */
	new_rkey = irdma_stag_with_key(mw->rkey, (uint8_t)(irdma_stag_to_key(mw->rkey) + 1));
	ret = irdma_post_bind(qp, mw, bind, new_rkey, wr_id, signaled != 0 || qp->sig_flags != 0,
			      false, true);
	if (ret == 0) {
		qp->stats.tx_wrs++;
		qp->stats.tx_doorbells++;
	}
	return ret;
}
