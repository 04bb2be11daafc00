/* SPDX-License-Identifier: BSD-3-Clause */
/* Protection domains. */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "irdma_pmd.h"

struct rte_pmd_irdma_pd *
rte_pmd_irdma_pd_alloc(struct rte_pmd_irdma_dev *dev)
{
	struct irdma_pmd_pd *pd;
	uint32_t pd_id;
	int ret;

	if (!irdma_dev_valid(dev)) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	pd = IRDMA_ZMALLOC(dev, "irdma_pd", sizeof(*pd), 0);
	if (pd == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->pd_alloc(dev->hw, &pd_id);
	if (ret == 0)
		dev->n_pd++;
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: PD allocation failed: %s", dev->name, strerror(-ret));
		rte_free(pd);
		rte_errno = -ret;
		return NULL;
	}
	pd->pub.dev = dev;
	pd->pub.handle = pd_id;
	pd->magic = IRDMA_MAGIC_PD;
	return &pd->pub;
}

int
rte_pmd_irdma_pd_free(struct rte_pmd_irdma_pd *pub)
{
	struct irdma_pmd_pd *pd = IRDMA_PRIV(irdma_pmd_pd, pub);
	struct rte_pmd_irdma_dev *dev;
	int ret;

	if (!irdma_pd_live(pub) || !irdma_dev_valid(pub->dev)) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->dev;
	rte_spinlock_lock(&dev->lock);
	if (pd->refcnt != 0) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(ctrl, ERR, "%s: PD %u is still used by %u objects (MR, MW, QP, SRQ, AH)",
			  dev->name, pub->handle, pd->refcnt);
		return -EBUSY;
	}
	ret = dev->ops->pd_dealloc(dev->hw, pub->handle);
	if (ret == 0)
		dev->n_pd--;
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: PD %u: backend refused to free it: %s", dev->name,
			  pub->handle, strerror(-ret));
		return ret;
	}
	irdma_handle_retire(pd, &pd->magic);
	return 0;
}
