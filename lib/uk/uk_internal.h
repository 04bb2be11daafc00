/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/uk internals: the helpers the kernel keeps static in uk.c (exported here so that unit tests can call
 * them directly; the posting functions pick one by a test of hw_rev), and inline fast-path pieces shared by the
 * source files. Not installed.
 */
#ifndef UK_INTERNAL_H
#define UK_INTERNAL_H

#include <errno.h>

#include "irdma_user.h"

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
/* Hot-path helpers must inline: a call costs more than most of them. */
#define IRDMA_ALWAYS_INLINE static inline __attribute__((always_inline))

/* ---- helpers that are static in the kernel's uk.c ---- */
void irdma_set_fragment(uint64_t *wqe, uint32_t offset, struct irdma_sge *sge, uint8_t valid);
void irdma_set_fragment_gen_1(uint64_t *wqe, uint32_t offset, struct irdma_sge *sge, uint8_t valid);
void irdma_set_mw_bind_wqe(uint64_t *wqe, struct irdma_bind_window *op_info);
void irdma_set_mw_bind_wqe_gen_1(uint64_t *wqe, struct irdma_bind_window *op_info);
void irdma_copy_inline_data(uint8_t *wqe, struct irdma_sge *sge_list, uint32_t num_sges, uint8_t polarity);
void irdma_copy_inline_data_gen_1(uint8_t *wqe, struct irdma_sge *sge_list, uint32_t num_sges,
				  uint8_t polarity);
uint16_t irdma_inline_data_size_to_quanta(uint32_t data_size);
uint16_t irdma_inline_data_size_to_quanta_gen_1(uint32_t data_size);
int irdma_nop_1(struct irdma_qp_uk *qp);
uint64_t irdma_round_up_wq(uint64_t wqdepth);
void irdma_setup_connection_wqes(struct irdma_qp_uk *qp, struct irdma_qp_uk_init_info *info);

/* NOP padding up to the next chunk boundary (cold part of the SQ slot allocation). */
void irdma_sq_pad_nops(struct irdma_qp_uk *qp, uint32_t count);
/* The 4 KiB pre-clear of irdma_clr_wqes, for an index already known to be a block start. */
void irdma_clr_wqes_block(struct irdma_qp_uk *qp, uint32_t qp_wqe_idx);

/* Fragments of an RQ/SRQ WQE (shared by the RQ and SRQ post paths); returns the additional fragment count. */
uint32_t irdma_recv_wqe_body(uint8_t hw_rev, uint64_t *wqe, struct irdma_sge *sg_list, uint32_t num_sges,
			     uint8_t polarity);

/* ---- inline pieces of the hot paths ---- */

/* A WQE spans 1..8 quanta: address it through the ring, not through one quantum's elem[] (whose bounds the
 * compiler would apply to the whole WQE). */
#define IRDMA_QUANTA_PTR(base, idx) ((uint64_t *)((base) + (idx)))

/* SQ quanta of a WQE with frag_cnt fragments (immediate included): 1 + frag_cnt / 2. A WR may not take
 * more than max_hw_sq_chunk quanta (8 on GEN_2/3: 15 fragments; 2 on GEN_1: 3 fragments): padding could
 * not place it, and at index 0 it would be written with the previous pass's polarity. */
IRDMA_ALWAYS_INLINE uint32_t irdma_frag_quanta(uint32_t frag_cnt)
{
	return (frag_cnt >> 1) + 1;
}

/* (x + n) mod size for x < size, n <= size: no division. */
IRDMA_ALWAYS_INLINE uint32_t irdma_ring_add(uint32_t x, uint32_t n, uint32_t size)
{
	x += n;
	return x >= size ? x - size : x;
}

IRDMA_ALWAYS_INLINE uint32_t irdma_ring_used(const struct irdma_ring *r)
{
	return r->head >= r->tail ? r->head - r->tail : r->head + r->size - r->tail;
}

/* GEN_2/3 fragment: address, then STag | length | valid. */
IRDMA_ALWAYS_INLINE void irdma_frag_gen_2(uint64_t *wqe, uint32_t offset, const struct irdma_sge *sge,
				    uint8_t valid)
{
	if (likely(sge != NULL)) {
		set_64bit_val(wqe, offset, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, sge->addr));
		set_64bit_val(wqe, offset + 8,
			      IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_LEN, sge->length) |
			      IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_STAG, sge->lkey) |
			      IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_VALID, valid));
	} else {
		set_64bit_val(wqe, offset, 0);
		set_64bit_val(wqe, offset + 8, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_VALID, valid));
	}
}

/* GEN_1 fragment: address, then length | STag; no valid bit. */
IRDMA_ALWAYS_INLINE void irdma_frag_gen_1(uint64_t *wqe, uint32_t offset, const struct irdma_sge *sge)
{
	if (likely(sge != NULL)) {
		set_64bit_val(wqe, offset, IRDMA_FIELD_PREP(IRDMAQPSQ_FRAG_TO, sge->addr));
		set_64bit_val(wqe, offset + 8,
			      IRDMA_FIELD_PREP(IRDMAQPSQ_GEN1_FRAG_LEN, sge->length) |
			      IRDMA_FIELD_PREP(IRDMAQPSQ_GEN1_FRAG_STAG, sge->lkey));
	} else {
		set_64bit_val(wqe, offset, 0);
		set_64bit_val(wqe, offset + 8, 0);
	}
}

IRDMA_ALWAYS_INLINE void irdma_frag(bool gen_1, uint64_t *wqe, uint32_t offset, const struct irdma_sge *sge,
			      uint8_t valid)
{
	if (unlikely(gen_1))
		irdma_frag_gen_1(wqe, offset, sge);
	else
		irdma_frag_gen_2(wqe, offset, sge, valid);
}

/*
 * Writes fragments 1..n-1 of sg_list after the header quantum (fragment 0 or the immediate is the caller's),
 * plus the GEN_2/3 null fragment that carries the valid bit when frag_cnt is even. Returns the additional
 * fragment count for the header.
 */
IRDMA_ALWAYS_INLINE uint32_t irdma_write_tail_frags(bool gen_1, uint8_t hw_rev, uint64_t *wqe,
					      const struct irdma_sge *sg_list, uint32_t first,
					      uint32_t num_sges, uint32_t frag_cnt, uint8_t valid)
{
	uint32_t addl = frag_cnt > 1 ? frag_cnt - 1 : 0;
	uint32_t off = 32;
	uint32_t i;

	for (i = first; i < num_sges; i++, off += IRDMA_FRAG_BYTES)
		irdma_frag(gen_1, wqe, off, &sg_list[i], valid);

	/* An even count leaves the second half of the last quantum empty: give it a valid bit. */
	if (!gen_1 && frag_cnt && !(frag_cnt & 1)) {
		irdma_frag_gen_2(wqe, off, NULL, valid);
		if (hw_rev == IRDMA_GEN_2)
			addl++;
	}
	return addl;
}

/*
 * The SQ slot allocation of irdma_qp_get_next_send_wqe: room check, NOP padding across a chunk boundary,
 * polarity flip at index 0, the GEN_1 odd-slot header, and the tracking entry.
 */
IRDMA_ALWAYS_INLINE uint64_t *irdma_sq_alloc(struct irdma_qp_uk *qp, uint32_t *wqe_idx, uint16_t quanta,
				       uint32_t total_size, uint64_t wr_id, bool signaled)
{
	struct irdma_sq_uk_wr_trk_info *trk;
	uint32_t size = qp->sq_ring.size;
	uint32_t head = qp->sq_ring.head;
	uint32_t avail = qp->max_hw_sq_chunk - (head & (qp->max_hw_sq_chunk - 1u));
	uint32_t free_quanta = size - irdma_ring_used(&qp->sq_ring) - IRDMA_SQ_RING_RESERVE;
	uint32_t new_head;

	if (likely(quanta <= avail)) {
		if (unlikely(quanta > free_quanta))
			return NULL;
	} else {
		if (quanta + avail > free_quanta)
			return NULL;
		irdma_sq_pad_nops(qp, avail);
		head = qp->sq_ring.head;
	}

	*wqe_idx = head;
	if (unlikely(head == 0))
		qp->swqe_polarity ^= 1;
	new_head = irdma_ring_add(head, quanta, size);
	qp->sq_ring.head = new_head;

	/* GEN_1 fetches WQEs in 64-byte pairs: hide the unused odd half from the device. */
	if (unlikely(qp->hw_rev == IRDMA_GEN_1) && quanta == 1 && (new_head & 1))
		set_64bit_val_release(IRDMA_QUANTA_PTR(qp->sq_base, new_head), IRDMA_WQE_HDR_BYTE,
				      IRDMA_FIELD_PREP(IRDMAQPSQ_VALID, !qp->swqe_polarity));

	trk = &qp->sq_wrtrk_array[head];
	trk->wrid = wr_id;
	trk->wr_len = total_size;
	trk->quanta = quanta;
	trk->signaled = signaled;

	return IRDMA_QUANTA_PTR(qp->sq_base, head);
}

/* irdma_qp_get_next_recv_wqe / irdma_srq_get_next_recv_wqe: take the head entry of an RQ-style ring of
 * (1 << shift)-quanta entries; full when the next head would meet the tail. Returns false when full. */
IRDMA_ALWAYS_INLINE bool irdma_rq_take(struct irdma_ring *ring, uint8_t *polarity, uint32_t *wqe_idx)
{
	uint32_t head = ring->head;
	uint32_t next = head + 1 == ring->size ? 0 : head + 1;

	if (unlikely(next == ring->tail))
		return false;
	*wqe_idx = head;
	if (unlikely(head == 0))
		*polarity ^= 1;
	ring->head = next;
	return true;
}

/* irdma_clr_wqes: only every 128th index does anything. */
IRDMA_ALWAYS_INLINE void irdma_clr_wqes_inl(struct irdma_qp_uk *qp, uint32_t wqe_idx)
{
	if (unlikely(!(wqe_idx & (IRDMA_SQ_CLR_BLOCK - 1))))
		irdma_clr_wqes_block(qp, wqe_idx);
}

IRDMA_ALWAYS_INLINE void irdma_sq_doorbell(struct irdma_qp_uk *qp)
{
	irdma_uk_db_write(qp->wqe_alloc_db, qp->qp_id);
}

/* CQE slot idx: 32-byte stride, or 64 bytes with avoid_mem_cflct. */
IRDMA_ALWAYS_INLINE uint64_t *irdma_cqe_at(const struct irdma_cq_uk *cq, uint32_t idx)
{
	return (uint64_t *)cq->cq_base + ((size_t)idx << (2 + cq->avoid_mem_cflct));
}

/* Sum of SGE lengths (u32, wraps like the kernel's). */
IRDMA_ALWAYS_INLINE uint32_t irdma_sge_total(const struct irdma_sge *sg_list, uint32_t num_sges)
{
	uint32_t total = 0;
	uint32_t i;

	if (likely(num_sges == 1))
		return sg_list[0].length;
	for (i = 0; i < num_sges; i++)
		total += sg_list[i].length;
	return total;
}

/* The inline payload size, summed in 64 bits and saturated to UINT32_MAX: 32-bit SGE lengths that wrap
 * a 32-bit sum must not pass the max_inline_data check (the kernel sums in 32 bits; see README.md). */
IRDMA_ALWAYS_INLINE uint32_t irdma_sge_total_sat(const struct irdma_sge *sg_list, uint32_t num_sges)
{
	uint64_t total = 0;
	uint32_t i;

	if (likely(num_sges == 1))
		return sg_list[0].length;
	for (i = 0; i < num_sges; i++)
		total += sg_list[i].length;
	return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

#endif /* UK_INTERNAL_H */
