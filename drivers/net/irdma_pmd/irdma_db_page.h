/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbell pages: how a doorbell write becomes an event the device finds without a scan.
 *
 * Hardware has one WQE-allocate register and one CQ-arm register that take the object id; a
 * write is an event that is never lost. The software device has no write trap, so it gives
 * each kind of doorbell (SQ, CQ arm) a page: an array of 32-bit words, one per object id,
 * preceded by a three-level summary bitmap. lib/uk rings a doorbell with
 * irdma_uk_db_write(db, id), db being &word[id]; the DPDK flavour of that call
 * (irdma_uk_osdep_dpdk.h) stores the id into the word, as hardware's writel() does, and marks
 * bit id in the summary found at (db - id) - header: leaf bit id, then, when the leaf word
 * was empty, bit id/64 of the mid level, then bit id/4096 of the top word. The device takes
 * the top word, each marked mid word, each marked leaf word with an atomic exchange, so an
 * idle device reads one word per page and a busy one pays per id that rang, whatever the
 * number of objects.
 *
 * No write is lost: a producer's WQE stores precede its leaf fetch-or (a full barrier), and
 * the producer that made a level's word non-zero goes on to mark the level above, so a bit
 * the device exchanged away before the producer's mark is found at the next step. Several
 * writes between two steps merge into one, as on hardware (the device then fetches every
 * valid WQE). Ids are below 2^18 (64^3).
 */
#ifndef IRDMA_DB_PAGE_H
#define IRDMA_DB_PAGE_H

#include <stdint.h>

#define IRDMA_DB_PAGE_MAX_IDS (1u << 18)

/* Lies just before word[0]. The levels are separate allocations (the device's). */
struct irdma_db_page_hdr {
	uint64_t *leaf;          /* bit i: id i rang */
	uint64_t *mid;           /* bit i: leaf[i] may be non-zero */
	uint64_t *top;           /* bit i: mid[i] may be non-zero */
	uint64_t pad[5];         /* word[] starts on its own cache line */
};

static inline const struct irdma_db_page_hdr *
irdma_db_page_of(const uint32_t *db, uint32_t id)
{
	return (const struct irdma_db_page_hdr *)(const void *)(db - id) - 1;
}

/* The summary part of a doorbell write (the word store is the caller's). */
static inline void
irdma_db_page_mark(const uint32_t *db, uint32_t id)
{
	const struct irdma_db_page_hdr *h = irdma_db_page_of(db, id);

	if (__atomic_fetch_or(&h->leaf[id >> 6], 1ull << (id & 63), __ATOMIC_SEQ_CST) != 0)
		return;
	if (__atomic_fetch_or(&h->mid[id >> 12], 1ull << ((id >> 6) & 63), __ATOMIC_SEQ_CST) != 0)
		return;
	__atomic_fetch_or(h->top, 1ull << ((id >> 12) & 63), __ATOMIC_SEQ_CST);
}

#endif /* IRDMA_DB_PAGE_H */
