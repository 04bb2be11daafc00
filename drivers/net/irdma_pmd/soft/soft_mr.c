/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The key table: MRs and MWs by STag (index << 8 | key). Every access the device makes
 * to registered memory goes through one of the check functions below first; they return
 * the host address only when key, state, PD (or bound QP), bounds and rights all hold, so
 * no byte moves outside a registered region.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_malloc.h>

#include "irdma_stag.h"
#include "soft_priv.h"

int soft_key_table_init(struct soft_dev *dev)
{
	dev->keys = rte_zmalloc_socket("soft_keys", sizeof(*dev->keys) * dev->max_mr, 0,
				       dev->cfg.socket_id);
	if (dev->keys == NULL)
		return -ENOMEM;
	dev->key_seq = (uint32_t)(dev->args.seed ^ 0x5a);
	return 0;
}

void soft_key_table_fini(struct soft_dev *dev)
{
	rte_free(dev->keys);
	dev->keys = NULL;
}

static int key_alloc(struct soft_dev *dev, uint32_t *index)
{
	uint32_t i;

	/* Index 0 is never handed out: STag 0 is the reserved/privileged key. */
	for (i = 1; i < dev->max_mr; i++) {
		if (dev->keys[i].state == SOFT_KEY_FREE) {
			*index = i;
			return 0;
		}
	}
	return -ENOSPC;
}

static uint8_t fresh_key(struct soft_dev *dev)
{
	dev->key_seq = dev->key_seq * 1103515245u + 12345u;
	return (uint8_t)(dev->key_seq >> 16);
}

int soft_mr_reg(struct soft_dev *dev, const struct irdma_hw_mr_ctx *ctx, uint32_t *stag)
{
	struct soft_key *k;
	uint32_t idx;
	int rc;

	if (ctx->pd_id >= dev->max_pd || !dev->pd_used[ctx->pd_id])
		return -EINVAL;
	if (ctx->length && ctx->host_addr == NULL)
		return -EINVAL;
	if (ctx->va + ctx->length < ctx->va)
		return -EINVAL;
	/* IB: remote write or atomic requires local write. */
	if ((ctx->access & (IRDMA_HW_ACCESS_REMOTE_WRITE | IRDMA_HW_ACCESS_REMOTE_ATOMIC)) &&
	    !(ctx->access & IRDMA_HW_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	rc = key_alloc(dev, &idx);
	if (rc)
		return rc;
	k = &dev->keys[idx];
	memset(k, 0, sizeof(*k));
	k->is_mw = false;
	k->key = fresh_key(dev);
	k->pd_id = ctx->pd_id;
	k->access = ctx->access;
	k->va = (ctx->access & IRDMA_HW_ACCESS_ZERO_BASED) ? 0 : ctx->va;
	k->len = ctx->length;
	k->host = ctx->host_addr;
	k->state = SOFT_KEY_VALID;
	*stag = irdma_stag_from(idx, k->key);
	return 0;
}

/* The allocated key a control call names (its key byte is not checked), or NULL. */
static struct soft_key *key_allocated(struct soft_dev *dev, uint32_t stag)
{
	uint32_t idx = irdma_stag_to_index(stag);

	if (idx == 0 || idx >= dev->max_mr || dev->keys[idx].state == SOFT_KEY_FREE)
		return NULL;
	return &dev->keys[idx];
}

int soft_mr_dereg(struct soft_dev *dev, uint32_t stag)
{
	struct soft_key *k = key_allocated(dev, stag);

	if (k == NULL || k->is_mw || k->key != irdma_stag_to_key(stag))
		return -EINVAL;
	if (k->mw_bound)
		return -EBUSY;
	k->state = SOFT_KEY_FREE;
	return 0;
}

int soft_mw_alloc(struct soft_dev *dev, uint32_t pd_id, uint8_t type, uint32_t *stag)
{
	struct soft_key *k;
	uint32_t idx;
	int rc;

	if (pd_id >= dev->max_pd || !dev->pd_used[pd_id] || (type != 1 && type != 2))
		return -EINVAL;
	rc = key_alloc(dev, &idx);
	if (rc)
		return rc;
	k = &dev->keys[idx];
	memset(k, 0, sizeof(*k));
	k->is_mw = true;
	k->mw_type = type;
	k->key = fresh_key(dev);
	k->pd_id = pd_id;
	k->state = SOFT_KEY_INVALID; /* allocated, not bound */
	*stag = irdma_stag_from(idx, k->key);
	return 0;
}

static void mw_unbind(struct soft_dev *dev, struct soft_key *k)
{
	if (k->state == SOFT_KEY_VALID && dev->keys[k->parent].mw_bound)
		dev->keys[k->parent].mw_bound--;
	k->state = SOFT_KEY_INVALID;
}

int soft_mw_dealloc(struct soft_dev *dev, uint32_t stag)
{
	struct soft_key *k = key_allocated(dev, stag);

	/* No key check: a type 2 window's key byte changes with every bind. */
	if (k == NULL || !k->is_mw)
		return -EINVAL;
	mw_unbind(dev, k);
	k->state = SOFT_KEY_FREE;
	return 0;
}

/* Looks a STag up; checks index, key and state. */
static int key_lookup(struct soft_dev *dev, uint32_t stag, struct soft_key **out)
{
	uint32_t idx = irdma_stag_to_index(stag);
	struct soft_key *k;

	if (unlikely(idx == 0 || idx >= dev->max_mr))
		return -ENOENT;
	k = &dev->keys[idx];
	if (unlikely(k->state == SOFT_KEY_FREE))
		return -ENOENT;
	if (unlikely(k->key != irdma_stag_to_key(stag)))
		return -EKEYREJECTED;
	if (unlikely(k->state != SOFT_KEY_VALID))
		return -EKEYREVOKED;
	*out = k;
	return 0;
}

static int bounds(const struct soft_key *k, uint64_t va, uint64_t len, uint8_t **host)
{
	if (unlikely(va < k->va || len > k->len || va - k->va > k->len - len))
		return -EFAULT;
	*host = k->host + (va - k->va);
	return 0;
}

/* An lkey used by this device on behalf of a local WQE. */
int soft_mr_check_local(struct soft_dev *dev, uint32_t pd_id, uint32_t stag, uint64_t va,
			uint64_t len, uint32_t access, uint8_t **host)
{
	struct soft_key *k;
	int e;

	e = key_lookup(dev, stag, &k);
	if (e)
		return e;
	if (unlikely(k->is_mw))
		return -ENOENT; /* windows are remote-only keys */
	if (unlikely(k->pd_id != pd_id))
		return -EPERM;
	if (unlikely((k->access & access) != access))
		return -EACCES;
	return bounds(k, va, len, host);
}

/* An rkey named by a peer's request arriving on `qp`. */
int soft_mr_check_remote(struct soft_dev *dev, const struct soft_qp *qp, uint32_t rkey,
			 uint64_t va, uint64_t len, uint32_t access, uint8_t **host)
{
	struct soft_key *k;
	int e;

	e = key_lookup(dev, rkey, &k);
	if (e)
		return e;
	if (k->is_mw && k->mw_type == 2) {
		if (unlikely(k->qp_id != qp->id))
			return -EPERM;
	} else if (unlikely(k->pd_id != qp->pd_id)) {
		return -EPERM;
	}
	if (unlikely((k->access & access) != access))
		return -EACCES;
	if (unlikely((access & IRDMA_HW_ACCESS_REMOTE_ATOMIC) && (va & 7)))
		return -EINVAL;
	return bounds(k, va, len, host);
}

/* Local invalidate (remote = false) or send-with-invalidate (remote = true). MRs and
 * type-2 windows can be invalidated; type-1 windows cannot. */
int soft_mr_invalidate(struct soft_dev *dev, uint32_t pd_id, uint32_t qp_id, uint32_t stag,
		       bool remote)
{
	struct soft_key *k;
	int e;

	e = key_lookup(dev, stag, &k);
	if (e)
		return e;
	if (k->is_mw) {
		if (k->mw_type != 2)
			return -EACCES;
		if (remote && k->qp_id != qp_id)
			return -EPERM;
		if (k->pd_id != pd_id)
			return -EPERM;
		mw_unbind(dev, k);
		return 0;
	}
	if (k->pd_id != pd_id)
		return -EPERM;
	if (k->mw_bound)
		return -EKEYREVOKED;
	k->state = SOFT_KEY_INVALID;
	return 0;
}

/* Executes a bind-MW WQE. */
int soft_mw_bind(struct soft_dev *dev, const struct soft_qp *qp, const struct soft_wqe *w)
{
	uint32_t widx = irdma_stag_to_index(w->mw_stag);
	struct soft_key *mw, *mr;
	int e;
	uint8_t *host;

	if (widx == 0 || widx >= dev->max_mr)
		return -ENOENT;
	mw = &dev->keys[widx];
	if (mw->state == SOFT_KEY_FREE || !mw->is_mw)
		return -ENOENT;
	if (mw->pd_id != qp->pd_id)
		return -EPERM;
	if ((mw->mw_type == 1) != w->bind_type1)
		return -EACCES;
	/* A type-2 window is bound once, then invalidated before it can be rebound (the key
	 * byte is the consumer's new one); a type-1 window may be rebound at any time. */
	if (mw->mw_type == 2 && mw->state == SOFT_KEY_VALID)
		return -EKEYREVOKED;
	/* Type 1 with length 0 unbinds. */
	if (mw->mw_type == 1 && w->bind_len == 0) {
		mw_unbind(dev, mw);
		mw->key = irdma_stag_to_key(w->mw_stag);
		return 0;
	}
	e = key_lookup(dev, w->mr_stag, &mr);
	if (e)
		return e;
	if (mr->is_mw)
		return -ENOENT;
	if (mr->pd_id != qp->pd_id)
		return -EPERM;
	if (!(mr->access & IRDMA_HW_ACCESS_MW_BIND))
		return -EACCES;
	/* Remote write/atomic through a window needs local write on the region. */
	if ((w->bind_access & (IRDMA_HW_ACCESS_REMOTE_WRITE | IRDMA_HW_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IRDMA_HW_ACCESS_LOCAL_WRITE))
		return -EACCES;
	e = bounds(mr, w->bind_va, w->bind_len, &host);
	if (e)
		return e;
	mw_unbind(dev, mw);
	mw->key = irdma_stag_to_key(w->mw_stag);
	mw->access = w->bind_access;
	mw->va = w->bind_zero_based ? 0 : w->bind_va;
	mw->len = w->bind_len;
	mw->host = host;
	mw->parent = irdma_stag_to_index(w->mr_stag);
	mw->qp_id = qp->id;
	mw->state = SOFT_KEY_VALID;
	mr->mw_bound++;
	return 0;
}

const char *soft_mr_err_str(int e)
{
	switch (e) {
	case 0: return "ok";
	case -ENOENT: return "no such STag";
	case -EKEYREJECTED: return "STag key mismatch";
	case -EKEYREVOKED: return "STag not valid";
	case -EPERM: return "PD mismatch";
	case -EFAULT: return "out of bounds";
	case -EACCES: return "access right missing";
	case -EINVAL: return "misaligned atomic";
	default: return "?";
	}
}
