/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion queues: ring memory sized by the CQ rule, create/destroy/resize/arm.
 *
 * Sizing (the newest kernel's rule, which lib/uk's poll path assumes): n = cqe + 2; doubled
 * when CQEs are 32 bytes on GEN_2 and later (an extended CQE takes two slots); rounded up to
 * even; two more slots when the ring would be exactly one 4 KiB page; at least 4. The ring
 * takes n x CQE size bytes, no more.
 *
 * Resize: the device moves to a new ring at once; the old ring is drained by poll_cq first,
 * through a copy of the uk CQ whose shadow area is private (so the old ring's head never
 * reaches the device), then released and reported with irdma_uk_cq_set_resized_cnt().
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "irdma_cq.h"
#include "irdma_pmd.h"

uint32_t
irdma_cq_slots(const struct irdma_uk_attrs *attrs, uint32_t cqe)
{
	bool cqe64 = (attrs->feature_flags & IRDMA_FEATURE_64_BYTE_CQE) != 0;
	uint32_t bytes = cqe64 ? 64 : 32;
	uint64_t n = (uint64_t)cqe + 2;

	if (!cqe64 && attrs->hw_rev >= IRDMA_GEN_2)
		n *= 2;
	if (n & 1)
		n++;
	if (n * bytes == 4096)
		n += 2;
	if (n < 4)
		n = 4;
	return (uint32_t)n;
}

uint32_t
irdma_cqe_bytes(const struct irdma_uk_attrs *attrs)
{
	return (attrs->feature_flags & IRDMA_FEATURE_64_BYTE_CQE) ? 64 : 32;
}

static void
cq_event_cb(void *arg, uint32_t cq_id)
{
	struct irdma_pmd_cq *cq = arg;

	RTE_SET_USED(cq_id);
	cq->stats.events++;
}

static int
cq_check_size(const struct rte_pmd_irdma_dev *dev, uint32_t cqe)
{
	if (cqe < 1 || cqe >= dev->attrs->max_hw_cq_size) {
		IRDMA_LOG(cq, ERR, "%s: cqe %u out of range 1..%u", dev->name, cqe,
			  dev->attrs->max_hw_cq_size - 1);
		return -EINVAL;
	}
	return 0;
}

struct rte_pmd_irdma_cq *
rte_pmd_irdma_cq_create(struct rte_pmd_irdma_dev *dev, const struct rte_pmd_irdma_cq_init_attr *attr)
{
	struct irdma_cq_uk_init_info info;
	struct irdma_hw_cq_ctx ctx;
	struct irdma_pmd_cq *cq;
	uint32_t n, bytes, cq_id, *db;
	int ret;

	if (!irdma_dev_valid(dev) || attr == NULL) {
		IRDMA_LOG(cq, ERR, "NULL handle or argument, or a closed device");
		rte_errno = EINVAL;
		return NULL;
	}
	ret = cq_check_size(dev, attr->cqe);
	if (ret < 0)
		goto fail;
	if (attr->comp_fd < -1) {
		IRDMA_LOG(cq, ERR, "%s: comp_fd %d: expected an eventfd or -1", dev->name,
			  attr->comp_fd);
		ret = -EINVAL;
		goto fail;
	}
	cq = IRDMA_ZMALLOC(dev, "irdma_cq", sizeof(*cq), RTE_CACHE_LINE_SIZE);
	if (cq == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	n = irdma_cq_slots(dev->attrs, attr->cqe);
	bytes = irdma_cqe_bytes(dev->attrs);

	rte_spinlock_lock(&dev->lock);
	ret = irdma_qmem_alloc(dev, &cq->mem, "cq", (size_t)n * bytes, bytes, n);
	if (ret < 0)
		goto unlock;
	ret = irdma_shadow_alloc(dev, &cq->shadow);
	if (ret < 0)
		goto free_mem;

	memset(&ctx, 0, sizeof(ctx));
	ctx.cq_base = cq->mem.addr;
	ctx.cq_iova = cq->mem.iova;
	ctx.cq_size = n;
	ctx.cqe_64byte = bytes == 64;
	ctx.shadow_area = cq->shadow.addr;
	ctx.shadow_iova = cq->shadow.iova;
	ctx.eventfd = attr->comp_fd;
	ctx.event_cb = cq_event_cb;
	ctx.event_arg = cq;
	ret = dev->ops->cq_create(dev->hw, &ctx, &cq_id, &db);
	if (ret < 0) {
		IRDMA_LOG(cq, ERR, "%s: backend refused a CQ of %u slots: %s", dev->name, n,
			  strerror(-ret));
		goto free_shadow;
	}

	memset(&info, 0, sizeof(info));
	info.cq_base = cq->mem.addr;
	info.shadow_area = cq->shadow.addr;
	info.cq_size = n;
	info.cq_id = cq_id;
	info.avoid_mem_cflct = bytes == 64;
	info.cqe_alloc_db = db;
	irdma_uk_cq_init(&cq->uk, &info);

	cq->hw = dev->hw;
	cq->progress = dev->da.cfg.engine == IRDMA_HW_ENGINE_INLINE ? dev->ops->progress : NULL;
	cq->pub.dev = dev;
	cq->pub.cq_context = attr->cq_context;
	cq->pub.cqe = attr->cqe;
	cq->pub.handle = cq_id;
	cq->pub.comp_fd = attr->comp_fd;
	if (cq_id < dev->n_cq_ids)
		dev->cq_by_id[cq_id] = cq;
	TAILQ_INSERT_TAIL(&dev->cqs, cq, next);
	dev->n_cq++;
	rte_spinlock_unlock(&dev->lock);
	IRDMA_LOG(cq, DEBUG, "%s: CQ %u: cqe %u, %u slots of %u bytes", dev->name, cq_id,
		  attr->cqe, n, bytes);
	cq->magic = IRDMA_MAGIC_CQ;
	return &cq->pub;

free_shadow:
	irdma_shadow_free(dev, &cq->shadow);
free_mem:
	irdma_qmem_free(&cq->mem);
unlock:
	rte_spinlock_unlock(&dev->lock);
	rte_free(cq);
fail:
	rte_errno = -ret;
	return NULL;
}

static void
cq_free_old(struct irdma_pmd_cq *cq)
{
	unsigned int i;

	for (i = 0; i < cq->n_old; i++) {
		irdma_qmem_free(&cq->old[i]->mem);
		rte_free(cq->old[i]);
		cq->old[i] = NULL;
	}
	cq->n_old = 0;
}

int
rte_pmd_irdma_cq_destroy(struct rte_pmd_irdma_cq *pub)
{
	struct irdma_pmd_cq *cq = IRDMA_PRIV(irdma_pmd_cq, pub);
	struct rte_pmd_irdma_dev *dev;
	struct irdma_pmd_qp *qp;
	char users[128];
	size_t off = 0;
	int ret;

	if (!irdma_cq_live(pub) || !irdma_dev_valid(pub->dev)) {
		IRDMA_LOG(cq, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->dev;
	rte_spinlock_lock(&dev->lock);
	if (cq->refcnt != 0) {
		users[0] = '\0';
		TAILQ_FOREACH(qp, &dev->qps, next)
			if ((qp->pub.send_cq == pub || qp->pub.recv_cq == pub) &&
			    off < sizeof(users))
				off += snprintf(users + off, sizeof(users) - off, " %u",
						qp->pub.qp_num);
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(cq, ERR, "%s: CQ %u is still used by %u QPs:%s; destroy them first",
			  dev->name, pub->handle, cq->refcnt, users);
		return -EBUSY;
	}
	ret = dev->ops->cq_destroy(dev->hw, pub->handle);
	if (ret < 0) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(cq, ERR, "%s: CQ %u: backend refused: %s", dev->name, pub->handle,
			  strerror(-ret));
		return ret;
	}
	if (pub->handle < dev->n_cq_ids)
		dev->cq_by_id[pub->handle] = NULL;
	TAILQ_REMOVE(&dev->cqs, cq, next);
	dev->n_cq--;
	dev->retired_cq.completions += cq->stats.completions;
	dev->retired_cq.error_completions += cq->stats.error_completions;
	dev->retired_cq.flush_completions += cq->stats.flush_completions;
	dev->retired_cq.events += cq->stats.events;
	cq_free_old(cq);
	irdma_shadow_free(dev, &cq->shadow);
	irdma_qmem_free(&cq->mem);
	rte_spinlock_unlock(&dev->lock);
	irdma_handle_retire(cq, &cq->magic);
	return 0;
}

/* CQEs written and not yet polled in one ring (walks the valid bits like clean_cq). */
static uint32_t
ring_outstanding(const struct irdma_cq_uk *uk, uint32_t stride)
{
	uint32_t head = IRDMA_RING_CURRENT_HEAD(uk->cq_ring), n = 0, i;
	uint8_t pol = uk->polarity;
	const uint8_t *base = (const uint8_t *)uk->cq_base;

	for (i = 0; i < uk->cq_ring.size; i++) {
		const uint64_t *cqe = (const uint64_t *)(base + (size_t)head * stride);
		uint64_t q3 = rte_le_to_cpu_64(cqe[3]);

		if ((uint8_t)(q3 >> 63) != pol)
			break;
		n++;
		/* In 32-byte mode an extended CQE also takes the next slot. */
		if (stride == 32 && (q3 & IRDMA_CQ_EXTCQE)) {
			i++;
			if (++head == uk->cq_ring.size) {
				head = 0;
				pol ^= 1;
			}
		}
		if (++head == uk->cq_ring.size) {
			head = 0;
			pol ^= 1;
		}
	}
	return n;
}

int
rte_pmd_irdma_cq_resize(struct rte_pmd_irdma_cq *pub, uint32_t cqe)
{
	struct irdma_pmd_cq *cq = IRDMA_PRIV(irdma_pmd_cq, pub);
	struct rte_pmd_irdma_dev *dev;
	struct irdma_cq_old_ring *old;
	struct irdma_qmem mem;
	uint32_t n, bytes, pending, i;
	int ret;

	if (!irdma_cq_live(pub) || !irdma_dev_valid(pub->dev)) {
		IRDMA_LOG(cq, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	dev = pub->dev;
	if (!(dev->attrs->feature_flags & IRDMA_FEATURE_CQ_RESIZE)) {
		IRDMA_LOG(cq, ERR, "%s: CQ resize is not supported by %s", dev->name,
			  irdma_gen_str(dev->attrs->hw_rev));
		return -EOPNOTSUPP;
	}
	ret = cq_check_size(dev, cqe);
	if (ret < 0)
		return ret;
	bytes = irdma_cqe_bytes(dev->attrs);
	n = irdma_cq_slots(dev->attrs, cqe);

	rte_spinlock_lock(&dev->lock);
	if (cq->n_old == IRDMA_CQ_MAX_OLD_RINGS) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(cq, ERR, "%s: CQ %u has %u resized rings not yet drained; poll it first",
			  dev->name, pub->handle, cq->n_old);
		return -EBUSY;
	}
	pending = ring_outstanding(&cq->uk, bytes);
	for (i = 0; i < cq->n_old; i++)
		pending += ring_outstanding(&cq->old[i]->uk, bytes);
	if (pending > cqe) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(cq, ERR, "%s: CQ %u holds %u completions, more than the new size %u",
			  dev->name, pub->handle, pending, cqe);
		return -EINVAL;
	}
	old = IRDMA_ZMALLOC(dev, "irdma_cq_old", sizeof(*old), RTE_CACHE_LINE_SIZE);
	if (old == NULL) {
		rte_spinlock_unlock(&dev->lock);
		return -ENOMEM;
	}
	ret = irdma_qmem_alloc(dev, &mem, "cq", (size_t)n * bytes, bytes, n);
	if (ret < 0)
		goto fail;
	ret = dev->ops->cq_resize(dev->hw, pub->handle, mem.addr, mem.iova, n);
	if (ret < 0) {
		IRDMA_LOG(cq, ERR, "%s: CQ %u: backend refused the resize to %u slots: %s",
			  dev->name, pub->handle, n, strerror(-ret));
		irdma_qmem_free(&mem);
		goto fail;
	}
	/* The current ring becomes an old ring, drained before the new one. */
	old->uk = cq->uk;
	old->uk.shadow_area = old->scratch_shadow;
	old->mem = cq->mem;
	cq->old[cq->n_old++] = old;
	cq->mem = mem;
	irdma_uk_cq_resize(&cq->uk, mem.addr, (int)n);
	pub->cqe = cqe;
	rte_spinlock_unlock(&dev->lock);
	IRDMA_LOG(cq, DEBUG, "%s: CQ %u resized to cqe %u (%u slots)", dev->name, pub->handle,
		  cqe, n);
	return 0;
fail:
	rte_spinlock_unlock(&dev->lock);
	rte_free(old);
	return ret;
}

int
rte_pmd_irdma_cq_req_notify(struct rte_pmd_irdma_cq *pub, int solicited_only)
{
	struct irdma_pmd_cq *cq = IRDMA_PRIV(irdma_pmd_cq, pub);

	if (!irdma_cq_live(pub) || !irdma_dev_valid(pub->dev))
		return -EINVAL;
	if (pub->comp_fd < 0) {
		IRDMA_LOG(cq, ERR, "%s: CQ %u has no comp_fd: create it with an eventfd to arm it",
			  pub->dev->name, pub->handle);
		return -EINVAL;
	}
	irdma_uk_cq_request_notification(&cq->uk, solicited_only ? IRDMA_CQ_COMPL_SOLICITED :
						   IRDMA_CQ_COMPL_EVENT);
	return 0;
}

void
irdma_cq_clean_qp(struct irdma_pmd_cq *cq, struct irdma_pmd_qp *qp)
{
	unsigned int i;

	for (i = 0; i < cq->n_old; i++)
		irdma_uk_clean_cq(&qp->uk, &cq->old[i]->uk);
	irdma_uk_clean_cq(&qp->uk, &cq->uk);
}

int
rte_pmd_irdma_cq_queue_mem(const struct rte_pmd_irdma_cq *pub, struct rte_pmd_irdma_queue_mem *m)
{
	const struct irdma_pmd_cq *cq = (const struct irdma_pmd_cq *)pub;

	if (!irdma_cq_live(pub) || m == NULL)
		return -EINVAL;
	irdma_qmem_describe(&cq->mem, m);
	return 0;
}
