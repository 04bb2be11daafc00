/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory regions. The backend owns the STag table (it checks every access); the PMD keeps a
 * copy of {STag, PD} per index, one word each, so the post path can refuse an lkey of another
 * PD (struct irdma_key_entry).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "irdma_pmd.h"

#define IRDMA_MR_ACCESS_ALL                                                                \
	(RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |            \
	 RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC |           \
	 RTE_PMD_IRDMA_ACCESS_MW_BIND | RTE_PMD_IRDMA_ACCESS_ZERO_BASED)

void
irdma_keys_set(struct rte_pmd_irdma_dev *dev, uint32_t stag, uint32_t pd_id)
{
	uint32_t idx = irdma_stag_to_index(stag);

	if (idx < dev->n_keys)
		__atomic_store_n(&dev->keys[idx].word, irdma_key_word(stag, pd_id),
				 __ATOMIC_RELEASE);
}

void
irdma_keys_clear(struct rte_pmd_irdma_dev *dev, uint32_t stag)
{
	uint32_t idx = irdma_stag_to_index(stag);

	/* Control path (dev->lock): the only writer, so a plain read of the word is exact. */
	if (idx < dev->n_keys && (uint32_t)dev->keys[idx].word == stag)
		__atomic_store_n(&dev->keys[idx].word, 0, __ATOMIC_RELEASE);
}

/* IOVA of application memory: known for DPDK memory, unknown (RTE_BAD_IOVA) otherwise. */
static uint64_t
mr_iova(void *addr)
{
	if (rte_mem_virt2memseg_list(addr) == NULL)
		return RTE_BAD_IOVA;
	return rte_mem_virt2iova(addr);
}

struct rte_pmd_irdma_mr *
rte_pmd_irdma_reg_mr(struct rte_pmd_irdma_pd *pd, void *addr, size_t length, uint32_t access)
{
	struct irdma_pmd_pd *ppd = IRDMA_PRIV(irdma_pmd_pd, pd);
	struct rte_pmd_irdma_dev *dev;
	struct irdma_hw_mr_ctx ctx;
	struct irdma_pmd_mr *mr;
	uint32_t stag;
	int ret = -EINVAL;

	if (!irdma_pd_live(pd) || !irdma_dev_valid(pd->dev)) {
		IRDMA_LOG(mem, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	dev = pd->dev;
	if (addr == NULL || length == 0) {
		IRDMA_LOG(ctrl, ERR, "%s: MR of %zu bytes at %p: empty or NULL region", dev->name,
			  length, addr);
		goto fail;
	}
	if (access & ~IRDMA_MR_ACCESS_ALL) {
		IRDMA_LOG(ctrl, ERR, "%s: MR access flags 0x%x: unknown bits 0x%x", dev->name,
			  access, access & ~IRDMA_MR_ACCESS_ALL);
		goto fail;
	}
	if ((access & (RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE)) {
		IRDMA_LOG(ctrl, ERR, "%s: MR access flags 0x%x: remote write or atomic access "
			  "requires LOCAL_WRITE", dev->name, access);
		goto fail;
	}
	if (dev->hw_info.max_mr_size != 0 && length > dev->hw_info.max_mr_size) {
		IRDMA_LOG(ctrl, ERR, "%s: MR of %zu bytes exceeds max_mr_size %" PRIu64, dev->name,
			  length, dev->hw_info.max_mr_size);
		goto fail;
	}
	mr = IRDMA_ZMALLOC(dev, "irdma_mr", sizeof(*mr), 0);
	if (mr == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.pd_id = pd->handle;
	ctx.va = (access & RTE_PMD_IRDMA_ACCESS_ZERO_BASED) ? 0 : (uint64_t)(uintptr_t)addr;
	ctx.length = length;
	ctx.host_addr = addr;
	ctx.iova = mr_iova(addr);
	ctx.access = access;

	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->mr_reg(dev->hw, &ctx, &stag);
	if (ret == 0) {
		dev->n_mr++;
		ppd->refcnt++;
		irdma_keys_set(dev, stag, pd->handle);
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: MR of %zu bytes at %p: backend refused: %s", dev->name,
			  length, addr, strerror(-ret));
		rte_free(mr);
		goto fail;
	}
	mr->stag = stag;
	mr->pub.pd = pd;
	mr->pub.addr = addr;
	mr->pub.length = length;
	mr->pub.iova = ctx.iova;
	mr->pub.access = access;
	mr->pub.lkey = stag;
	mr->pub.rkey = stag;
	IRDMA_LOG(ctrl, DEBUG, "%s: MR %p+%zu pd %u access 0x%x stag 0x%08x", dev->name, addr,
		  length, pd->handle, access, stag);
	mr->magic = IRDMA_MAGIC_MR;
	return &mr->pub;
fail:
	rte_errno = -ret;
	return NULL;
}

int
rte_pmd_irdma_dereg_mr(struct rte_pmd_irdma_mr *pub)
{
	struct irdma_pmd_mr *mr = IRDMA_PRIV(irdma_pmd_mr, pub);
	struct rte_pmd_irdma_dev *dev;
	int ret;

	if (!irdma_mr_live(pub) || !irdma_dev_valid(pub->pd->dev)) {
		IRDMA_LOG(mem, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->pd->dev;
	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->mr_dereg(dev->hw, mr->stag);
	if (ret == 0) {
		irdma_keys_clear(dev, mr->stag);
		dev->n_mr--;
		IRDMA_PRIV(irdma_pmd_pd, pub->pd)->refcnt--;
	}
	rte_spinlock_unlock(&dev->lock);
	if (ret == -EBUSY) {
		IRDMA_LOG(ctrl, ERR, "%s: MR 0x%08x has memory windows bound to it (unbind, "
			  "invalidate or deallocate them first)", dev->name, mr->stag);
		return ret;
	}
	if (ret < 0) {
		IRDMA_LOG(ctrl, ERR, "%s: MR 0x%08x: backend refused deregistration: %s", dev->name,
			  mr->stag, strerror(-ret));
		return ret;
	}
	irdma_handle_retire(mr, &mr->magic);
	return 0;
}
