/* SPDX-License-Identifier: BSD-3-Clause */
/* Address handles for UD sends, and the AV conversion shared with RC QPs. */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "irdma_ah.h"
#include "irdma_pmd.h"

int
irdma_av_from_attr(const struct rte_pmd_irdma_dev *dev, const struct rte_pmd_irdma_ah_attr *attr,
		   struct irdma_hw_av *av)
{
	if (!attr->is_global) {
		IRDMA_LOG(ctrl, ERR, "%s: address vector without GRH: RoCE needs is_global=1 and a "
			  "destination GID", dev->name);
		return -EINVAL;
	}
	if (attr->port_num > 1) {
		IRDMA_LOG(ctrl, ERR, "%s: port_num %u: the device has one port (1)", dev->name,
			  attr->port_num);
		return -EINVAL;
	}
	if (attr->grh.sgid_index >= dev->hw_info.n_gids) {
		IRDMA_LOG(ctrl, ERR, "%s: sgid_index %u out of range (the GID table has %u entries)",
			  dev->name, attr->grh.sgid_index, dev->hw_info.n_gids);
		return -EINVAL;
	}
	if (attr->grh.flow_label > 0xFFFFF) {
		IRDMA_LOG(ctrl, ERR, "%s: flow_label 0x%x exceeds 20 bits", dev->name,
			  attr->grh.flow_label);
		return -EINVAL;
	}
	memset(av, 0, sizeof(*av));
	memcpy(av->dgid, attr->grh.dgid.raw, sizeof(av->dgid));
	av->sgid_index = attr->grh.sgid_index;
	av->hop_limit = attr->grh.hop_limit ? attr->grh.hop_limit : 64;
	av->traffic_class = attr->grh.traffic_class;
	av->flow_label = attr->grh.flow_label;
	av->vlan_id = 0xFFFF;
	return 0;
}

struct rte_pmd_irdma_ah *
rte_pmd_irdma_ah_create(struct rte_pmd_irdma_pd *pd, const struct rte_pmd_irdma_ah_attr *attr)
{
	struct rte_pmd_irdma_dev *dev;
	struct irdma_pmd_ah *ah;
	struct irdma_hw_av av;
	uint32_t ah_id;
	int ret;

	if (!irdma_pd_live(pd) || attr == NULL || !irdma_dev_valid(pd->dev)) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	dev = pd->dev;
	ret = irdma_av_from_attr(dev, attr, &av);
	if (ret < 0)
		goto fail;
	ah = IRDMA_ZMALLOC(dev, "irdma_ah", sizeof(*ah), 0);
	if (ah == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->ah_create(dev->hw, pd->handle, &av, &ah_id);
	if (ret == 0) {
		dev->n_ah++;
		IRDMA_PRIV(irdma_pmd_pd, pd)->refcnt++;
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: AH creation failed: %s", dev->name, strerror(-ret));
		rte_free(ah);
		goto fail;
	}
	ah->pub.pd = pd;
	ah->pub.handle = ah_id;
	ah->attr = *attr;
	ah->magic = IRDMA_MAGIC_AH;
	return &ah->pub;
fail:
	rte_errno = -ret;
	return NULL;
}

int
rte_pmd_irdma_ah_destroy(struct rte_pmd_irdma_ah *pub)
{
	struct irdma_pmd_ah *ah = IRDMA_PRIV(irdma_pmd_ah, pub);
	struct rte_pmd_irdma_dev *dev;
	int ret;

	if (!irdma_ah_live(pub) || !irdma_dev_valid(pub->pd->dev)) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->pd->dev;
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->ah_destroy(dev->hw, pub->handle);
	if (ret == 0) {
		dev->n_ah--;
		IRDMA_PRIV(irdma_pmd_pd, pub->pd)->refcnt--;
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: AH %u: backend refused: %s", dev->name, pub->handle,
			  strerror(-ret));
		return ret;
	}
	irdma_handle_retire(ah, &ah->magic);
	return 0;
}
