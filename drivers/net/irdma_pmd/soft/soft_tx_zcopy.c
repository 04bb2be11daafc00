/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Zero-copy transmit (see soft_tx_zcopy.h). Each frame sent by reference holds one of
 * SOFT_TX_ZC_SLOTS descriptors (the rte_mbuf_ext_shared_info the payload mbuf points to)
 * until the port frees the mbuf; the free callback, which may run on whichever lcore
 * frees it (a net_ring peer's), clears the slot's busy word with a release store, and
 * the engine, the only one taking slots, reads it with acquire: no lock. A busy slot
 * means a copy, never a wait. The registered memory itself is only read: the WQE it
 * belongs to completes once the peer acknowledged the frame, after the port took it;
 * retransmissions are copied (soft_tx_zc_wanted()), so no frame that reads the buffer is
 * left once the WQE completed.
 * Transmit fault injection (corrupt=) flips a byte of the first segment only, so a chained
 * frame is damaged in its headers and the registered memory it points to never is.
 */
#include <errno.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "roce_icrc.h"

#include "soft_priv.h"
#include "soft_tx_zcopy.h"

struct zc_slot {
	struct rte_mbuf_ext_shared_info sh;
	uint32_t busy;
};

struct soft_tx_zc {
	uint32_t next;
	uintptr_t ok_lo, ok_hi; /* the memseg list found last: [lo, hi) is DPDK memory */
	uint64_t frames, fallbacks;
	struct zc_slot slot[SOFT_TX_ZC_SLOTS];
};

static void zc_free_cb(void *addr, void *opaque)
{
	struct zc_slot *s = opaque;

	(void)addr;
	__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

int soft_tx_zc_open(struct soft_dev *dev, bool chains)
{
	if (!chains || rte_eal_iova_mode() != RTE_IOVA_VA || dev->args.delay_ppm != 0) {
		/* delay= holds a share of the frames and lets the others pass: an original
		 * held by reference could leave after its WQE completed (soft_tx_zcopy.h) */
		SOFT_LOG(INFO, "%s: zero-copy transmit off (%s)", dev->name,
			 !chains ? "the port takes no multi-segment mbufs" :
			 dev->args.delay_ppm != 0 ? "delay= holds frames" : "IOVA as PA");
		return 0;
	}
	dev->zc = rte_zmalloc_socket("soft_tx_zc", sizeof(*dev->zc), RTE_CACHE_LINE_SIZE,
				     dev->cfg.socket_id);
	if (dev->zc == NULL)
		return -ENOMEM;
	SOFT_LOG(INFO, "%s: zero-copy transmit from registered memory for payloads of %u "
		 "bytes and more", dev->name, SOFT_TX_ZC_MIN);
	return 0;
}

void soft_tx_zc_close(struct soft_dev *dev)
{
	rte_free(dev->zc);
	dev->zc = NULL;
}

int soft_tx_zc_region_ok(struct soft_dev *dev, const void *va, uint32_t len)
{
	struct soft_tx_zc *z = dev->zc;
	uintptr_t a = (uintptr_t)va;
	struct rte_memseg_list *msl;

	if (z == NULL)
		return 0;
	if (likely(a >= z->ok_lo && a + len <= z->ok_hi))
		return 1;
	msl = rte_mem_virt2memseg_list(va);
	if (msl == NULL || a + len > (uintptr_t)msl->base_va + msl->len)
		return 0; /* not DPDK's memory (a NIC could not reach it), or across lists */
	z->ok_lo = (uintptr_t)msl->base_va;
	z->ok_hi = (uintptr_t)msl->base_va + msl->len;
	return 1;
}

struct rte_mbuf *soft_tx_zc_chain(struct soft_dev *dev, struct rte_mbuf *m,
				  const struct roce_pkt *p, const uint8_t *src, uint32_t reg)
{
	struct soft_tx_zc *z = dev->zc;
	uint32_t len = p->paylen, pad = roce_pad_len(len);
	struct rte_mbuf *seg[2];
	struct zc_slot *s;
	uint8_t *tail;

	if (z == NULL || len > UINT16_MAX || !soft_tx_zc_region_ok(dev, src, len))
		return NULL;
	s = &z->slot[z->next];
	if (__atomic_load_n(&s->busy, __ATOMIC_ACQUIRE) != 0)
		return NULL; /* the port still holds the oldest: copy this one */
	if (rte_pktmbuf_alloc_bulk(dev->pool, seg, 2) != 0)
		return NULL;
	z->next = z->next + 1 == SOFT_TX_ZC_SLOTS ? 0 : z->next + 1;
	s->busy = 1;
	s->sh.free_cb = zc_free_cb;
	s->sh.fcb_opaque = s;
	rte_mbuf_ext_refcnt_set(&s->sh, 1);
	/* IOVA as VA (soft_tx_zc_open): the payload's IOVA is its address */
	rte_pktmbuf_attach_extbuf(seg[0], (void *)(uintptr_t)src, (rte_iova_t)(uintptr_t)src,
				  (uint16_t)len, &s->sh);
	seg[0]->data_len = (uint16_t)len;
	reg = roce_crc32_update(reg, src, len);
	tail = rte_pktmbuf_mtod(seg[1], uint8_t *);
	memset(tail, 0, 4);
	reg = roce_crc32_update(reg, tail, pad);
	roce_icrc_put(tail + pad, roce_icrc_final(reg));
	seg[1]->data_len = (uint16_t)(pad + ROCE_ICRC_LEN);
	m->next = seg[0];
	seg[0]->next = seg[1];
	m->nb_segs = 3;
	m->pkt_len = m->data_len + len + pad + ROCE_ICRC_LEN;
	return m;
}

void soft_tx_zc_send(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p,
		     const uint8_t *src, uint32_t reg)
{
	if (likely(soft_tx_zc_chain(dev, m, p, src, reg) != NULL)) {
		dev->zc->frames++;
		soft_wire_queue(dev, m, p);
		return;
	}
	if (dev->zc != NULL)
		dev->zc->fallbacks++;
	reg = roce_crc32_copy(reg, rte_pktmbuf_mtod(m, uint8_t *) + m->data_len, src, p->paylen);
	soft_wire_send_reg(dev, m, p, reg);
}

void soft_tx_zc_stats_get(const struct soft_dev *dev, struct soft_tx_zc_stats *st)
{
	const struct soft_tx_zc *z = dev->zc;
	uint32_t i;

	memset(st, 0, sizeof(*st));
	if (z == NULL)
		return;
	st->frames = z->frames;
	st->fallbacks = z->fallbacks;
	for (i = 0; i < SOFT_TX_ZC_SLOTS; i++)
		st->busy += __atomic_load_n(&z->slot[i].busy, __ATOMIC_ACQUIRE) != 0;
}
