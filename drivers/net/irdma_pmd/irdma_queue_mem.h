/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue memory: every SQ, RQ, SRQ and CQ ring is one rte_memzone on the device's socket,
 * 4 KiB aligned, exactly as long as lib/uk's sizing says (no rounding to pages). Shadow
 * areas (64 bytes each) come from a pool of 4 KiB memzone pages, 64 per page.
 *
 * IOVA: a ring is IOVA-contiguous when EAL can give that (always with IOVA as VA, and up to
 * the hugepage size with IOVA as PA); a larger ring in IOVA-as-PA mode falls back to a
 * non-contiguous memzone described by a list of 4 KiB page IOVAs, the way irdma hardware
 * takes page lists. `--iova-mode=va` avoids the page list.
 */
#ifndef IRDMA_QUEUE_MEM_H
#define IRDMA_QUEUE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_memzone.h>

#define IRDMA_QMEM_ALIGN 4096u
#define IRDMA_SHADOW_BYTES 64u
#define IRDMA_SHADOWS_PER_PAGE (IRDMA_QMEM_ALIGN / IRDMA_SHADOW_BYTES)
#define IRDMA_SHADOW_MAX_PAGES 256u

struct rte_pmd_irdma_dev;
struct rte_pmd_irdma_queue_mem;

struct irdma_qmem {
	const struct rte_memzone *mz;
	void *addr;
	uint64_t iova;           /* first byte; RTE_BAD_IOVA if unknown */
	size_t len;
	uint32_t entry_size;
	uint32_t depth;
	int socket_id;
	bool contig;
	uint32_t n_pages;        /* page list (only when !contig) */
	uint64_t *pages;
};

struct irdma_shadow {
	void *addr;              /* NULL: none */
	uint64_t iova;
	uint32_t page;
	uint32_t slot;
};

struct irdma_shadow_pool {
	const struct rte_memzone *pages[IRDMA_SHADOW_MAX_PAGES];
	uint64_t used[IRDMA_SHADOW_MAX_PAGES]; /* bit per slot */
	uint32_t n_pages;
};

/* Reserve @p len bytes (zeroed) for a queue of @p depth entries of @p entry_size bytes. */
int irdma_qmem_alloc(struct rte_pmd_irdma_dev *dev, struct irdma_qmem *m, const char *kind,
		     size_t len, uint32_t entry_size, uint32_t depth);
void irdma_qmem_free(struct irdma_qmem *m);
void irdma_qmem_describe(const struct irdma_qmem *m, struct rte_pmd_irdma_queue_mem *out);

/* A zeroed 64-byte shadow area from the device pool. */
int irdma_shadow_alloc(struct rte_pmd_irdma_dev *dev, struct irdma_shadow *s);
void irdma_shadow_free(struct rte_pmd_irdma_dev *dev, struct irdma_shadow *s);
void irdma_shadow_pool_release(struct rte_pmd_irdma_dev *dev);

#endif /* IRDMA_QUEUE_MEM_H */
