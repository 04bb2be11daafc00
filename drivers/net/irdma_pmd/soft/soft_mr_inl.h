/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The key checks' common case in line: a valid MR of the right PD, with the rights and
 * bounds asked for. Anything else (a window, an error of any kind, which then gets its
 * exact code) goes to the full check in soft_mr.c, so the answer is the same either way;
 * only the call is saved on the packet path (two or three checks per READ).
 */
#ifndef SOFT_MR_INL_H
#define SOFT_MR_INL_H

#include <string.h>

#include "irdma_stag.h"
#include "soft_priv.h"

/* k is a valid MR with the key byte of stag, of pd_id, with access and [va, +len) in it */
static __rte_always_inline bool soft_mr_fast_ok(const struct soft_key *k, uint32_t stag,
						uint32_t pd_id, uint64_t va, uint64_t len,
						uint32_t access)
{
	return k->state == SOFT_KEY_VALID && !k->is_mw && k->key == irdma_stag_to_key(stag) &&
	       k->pd_id == pd_id && (k->access & access) == access && va >= k->va &&
	       len <= k->len && va - k->va <= k->len - len;
}

/*
 * The host address of [va, +len) when the key is the common case (a valid MR of pd_id with
 * access), else NULL: the caller then takes the full check (soft_mr_check_*), which also
 * answers the rare cases NULL stands for (a region at host address NULL, of length 0).
 */
static __rte_always_inline uint8_t *soft_mr_fast_host(struct soft_dev *dev, uint32_t pd_id,
						      uint32_t stag, uint64_t va, uint64_t len,
						      uint32_t access)
{
	uint32_t idx = irdma_stag_to_index(stag);
	const struct soft_key *k;

	/* index 0 is never allocated: its slot stays SOFT_KEY_FREE */
	if (unlikely(idx >= dev->max_mr))
		return NULL;
	k = &dev->keys[idx];
	if (unlikely(!soft_mr_fast_ok(k, stag, pd_id, va, len, access)))
		return NULL;
	return k->host + (va - k->va);
}

/* soft_mr_check_local(), the common case in line. */
static __rte_always_inline int soft_mr_check_local_inl(struct soft_dev *dev, uint32_t pd_id,
						       uint32_t stag, uint64_t va, uint64_t len,
						       uint32_t access, uint8_t **host)
{
	uint8_t *h = soft_mr_fast_host(dev, pd_id, stag, va, len, access);

	if (likely(h != NULL)) {
		*host = h;
		return 0;
	}
	return soft_mr_check_local(dev, pd_id, stag, va, len, access, host);
}

/* soft_mr_check_remote(), the common case (an MR, not atomic) in line. */
static __rte_always_inline int soft_mr_check_remote_inl(struct soft_dev *dev,
							const struct soft_qp *qp, uint32_t rkey,
							uint64_t va, uint64_t len, uint32_t access,
							uint8_t **host)
{
	uint8_t *h = NULL;

	/* windows are bound per QP (type 2) and atomics need alignment: the full check */
	if (!(access & IRDMA_HW_ACCESS_REMOTE_ATOMIC))
		h = soft_mr_fast_host(dev, qp->pd_id, rkey, va, len, access);
	if (likely(h != NULL)) {
		*host = h;
		return 0;
	}
	return soft_mr_check_remote(dev, qp, rkey, va, len, access, host);
}

/* A copy of checked bytes: 8 to 16 bytes (small WRITEs, READs) as two overlapping 8-byte
 * moves, no call; the rest memcpy. */
static __rte_always_inline void soft_copy(uint8_t *dst, const uint8_t *src, uint32_t len)
{
	if (len - 8 <= 8) {
		uint64_t a, b;

		memcpy(&a, src, 8);
		memcpy(&b, src + len - 8, 8);
		memcpy(dst, &a, 8);
		memcpy(dst + len - 8, &b, 8);
		return;
	}
	memcpy(dst, src, len);
}

/* soft_sges_copy()'s common case: all of it inside the first SGE, whose key is a valid MR
 * (sges_move's first piece, the same check). true when it copied; false: the full copy. */
static __rte_always_inline bool soft_sges_copy_fast(struct soft_dev *dev, uint32_t pd_id,
						    const struct soft_sge *sge, uint32_t n,
						    uint64_t off, uint8_t *buf, uint32_t len,
						    bool to_sges)
{
	uint8_t *host;

	if (unlikely(n == 0 || off >= sge[0].len || len > sge[0].len - off))
		return false;
	host = soft_mr_fast_host(dev, pd_id, sge[0].stag, sge[0].addr + off, len,
				 to_sges ? IRDMA_HW_ACCESS_LOCAL_WRITE : 0);
	if (unlikely(host == NULL))
		return false;
	if (to_sges)
		soft_copy(host, buf, len);
	else
		soft_copy(buf, host, len);
	return true;
}

/* soft_sges_copy() with its common case in line. */
static __rte_always_inline int soft_sges_copy_inl(struct soft_dev *dev, uint32_t pd_id,
						  const struct soft_sge *sge, uint32_t n,
						  uint64_t off, uint8_t *buf, uint32_t len,
						  bool to_sges)
{
	if (likely(soft_sges_copy_fast(dev, pd_id, sge, n, off, buf, len, to_sges)))
		return 0;
	return soft_sges_copy(dev, pd_id, sge, n, off, buf, len, to_sges);
}

#endif /* SOFT_MR_INL_H */
