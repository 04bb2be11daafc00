/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbells as events. The device has two doorbell pages (irdma_db_page.h): SQ doorbells
 * indexed by QP id and CQ-arm doorbells indexed by CQ id. lib/uk's doorbell write (the DPDK
 * flavour of its seam) stores the id into the object's word and marks the page's summary
 * bitmap; the engine takes the bitmap level by level with atomic exchanges, so it learns
 * which objects rang without looking at the others. The words themselves are only
 * written (hardware's register value); the bits are the events. A bit taken for an object
 * that has since been destroyed is ignored, and one for a re-created object is a harmless
 * extra kick (the device fetches by valid bit).
 */
#include <errno.h>

#include <rte_malloc.h>

#include "soft_priv.h"

static uint32_t div_up(uint32_t n, uint32_t d)
{
	return (n + d - 1) / d;
}

int soft_db_page_init(struct soft_dev *dev, struct soft_db_page *p, uint32_t n_ids,
		      uint64_t *top)
{
	struct irdma_db_page_hdr *h;

	memset(p, 0, sizeof(*p));
	if (n_ids == 0 || n_ids > IRDMA_DB_PAGE_MAX_IDS)
		return -EINVAL;
	p->mem = rte_zmalloc_socket("soft_db_page", sizeof(*h) + (size_t)n_ids * sizeof(uint32_t),
				    RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
	p->leaf = rte_zmalloc_socket("soft_db_leaf", div_up(n_ids, 64) * sizeof(uint64_t),
				     RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
	p->mid = rte_zmalloc_socket("soft_db_mid", div_up(n_ids, 4096) * sizeof(uint64_t),
				    RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
	if (p->mem == NULL || p->leaf == NULL || p->mid == NULL) {
		soft_db_page_fini(p);
		return -ENOMEM;
	}
	h = p->mem;
	h->leaf = p->leaf;
	h->mid = p->mid;
	h->top = top;
	p->top = top;
	p->word = (uint32_t *)(h + 1);
	p->n_ids = n_ids;
	*top = 0;
	return 0;
}

void soft_db_page_fini(struct soft_db_page *p)
{
	rte_free(p->mem);
	rte_free(p->leaf);
	rte_free(p->mid);
	memset(p, 0, sizeof(*p));
}

uint32_t *soft_db_word(struct soft_db_page *p, uint32_t id)
{
	p->word[id] = IRDMA_HW_DB_IDLE;
	return &p->word[id];
}

static void cq_rang(struct soft_dev *dev, uint32_t id)
{
	struct soft_cq *cq = &dev->cq[id];

	if (id < dev->max_cq && cq->in_use)
		soft_cq_arm_doorbell(dev, cq);
}

static void qp_rang(struct soft_dev *dev, uint32_t id)
{
	struct soft_qp *qp = soft_qp_get(dev, id);

	if (qp != NULL) {
		qp->sq_kick = true;
		soft_engine_mark(dev, qp);
	}
}

/* Exactly one bit set (0 and several: no). */
static inline bool one_bit(uint64_t w)
{
	return w != 0 && (w & (w - 1)) == 0;
}

/* The walk below a level whose word held more than one bit: every id under it, each once.
 * Out of line: the common take (one id rang) never needs it. */
static __rte_noinline unsigned int leaf_walk(struct soft_dev *dev, uint32_t j, uint64_t leaf,
					     void (*rang)(struct soft_dev *dev, uint32_t id))
{
	unsigned int n = 0;

	while (leaf) {
		rang(dev, j * 64 + (uint32_t)__builtin_ctzll(leaf));
		leaf &= leaf - 1;
		n++;
	}
	return n;
}

static __rte_noinline unsigned int mid_walk(struct soft_dev *dev, struct soft_db_page *p,
					    uint32_t k, uint64_t mid,
					    void (*rang)(struct soft_dev *dev, uint32_t id))
{
	unsigned int n = 0;

	while (mid) {
		uint32_t j = k * 64 + (uint32_t)__builtin_ctzll(mid);

		mid &= mid - 1;
		n += leaf_walk(dev, j, __atomic_exchange_n(&p->leaf[j], 0, __ATOMIC_ACQUIRE), rang);
	}
	return n;
}

static __rte_noinline unsigned int top_walk(struct soft_dev *dev, struct soft_db_page *p,
					    uint64_t top,
					    void (*rang)(struct soft_dev *dev, uint32_t id))
{
	unsigned int n = 0;

	while (top) {
		uint32_t k = (uint32_t)__builtin_ctzll(top);

		top &= top - 1;
		n += mid_walk(dev, p, k, __atomic_exchange_n(&p->mid[k], 0, __ATOMIC_ACQUIRE),
			      rang);
	}
	return n;
}

/* Every id marked in the page since the last take, each once. Acquire: the WQE stores and
 * shadow-area writes that preceded a doorbell are visible once its bit is. Each level's
 * word is taken with an exchange before the words under it (a producer that finds its
 * level's word non-zero does not mark the level above); a word with one bit, the usual
 * case, leads straight to its one child, and only a word with several bits walks. */
static __rte_always_inline unsigned int
page_take(struct soft_dev *dev, struct soft_db_page *p,
	  void (*rang)(struct soft_dev *dev, uint32_t id))
{
	uint64_t top = __atomic_exchange_n(p->top, 0, __ATOMIC_ACQUIRE), mid, leaf;
	uint32_t k, j;

	if (unlikely(!one_bit(top))) /* none (a racing take), or several */
		return top_walk(dev, p, top, rang);
	k = (uint32_t)__builtin_ctzll(top);
	mid = __atomic_exchange_n(&p->mid[k], 0, __ATOMIC_ACQUIRE);
	if (unlikely(!one_bit(mid)))
		return mid_walk(dev, p, k, mid, rang);
	j = k * 64 + (uint32_t)__builtin_ctzll(mid);
	leaf = __atomic_exchange_n(&p->leaf[j], 0, __ATOMIC_ACQUIRE);
	if (unlikely(!one_bit(leaf)))
		return leaf_walk(dev, j, leaf, rang);
	rang(dev, j * 64 + (uint32_t)__builtin_ctzll(leaf));
	return 1;
}

/* Out of line: the SQ doorbells of the common step keep soft_db_take() small (no
 * register saves for this walk). */
static __rte_noinline unsigned int cq_take(struct soft_dev *dev)
{
	return page_take(dev, &dev->db_cq, cq_rang);
}

/* Arms first: a CQ armed before this step sees the completions the step produces.
 * db_top[0] is the QP page's top word, db_top[1] the CQ page's (soft_dev_open). */
unsigned int soft_db_take(struct soft_dev *dev)
{
	unsigned int n = 0;

	if (unlikely(__atomic_load_n(&dev->db_top[1], __ATOMIC_RELAXED)))
		n += cq_take(dev);
	if (__atomic_load_n(&dev->db_top[0], __ATOMIC_RELAXED))
		n += page_take(dev, &dev->db_qp, qp_rang);
	dev->st.doorbells += n;
	return n;
}
