/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue memory: every SQ, RQ, SRQ and CQ ring is 4 KiB aligned and exactly as long as lib/uk's
 * sizing says (no rounding: the rest of its last page is nobody's). A ring of up to
 * IRDMA_QMEM_CARVE_MAX bytes is carved from the device's queue-memory pool: a few large
 * IOVA-contiguous memzones ("irdma<dev>_qmem_<n>", 4 MiB, then twice as large each time
 * up to 64 MiB) divided into 4 KiB pages, first fit; a zone goes back to EAL when its last
 * ring is freed. So a device holds tens of thousands of QPs without nearing EAL's memzone
 * limit (2560 in DPDK 22.11). Shadow areas (64 bytes each) come 64 to a 4 KiB page of the
 * same pool.
 *
 * A larger ring is a memzone of its own, IOVA-contiguous when EAL can give that (always with
 * IOVA as VA, and up to the hugepage size with IOVA as PA); with IOVA as PA it falls back to
 * a non-contiguous memzone described by a list of 4 KiB page IOVAs, the way irdma hardware
 * takes page lists. `--iova-mode=va` avoids the page list. A zone that cannot be had
 * IOVA-contiguous at the size asked is tried at half the size, down to what the ring needs,
 * and then the ring gets a memzone of its own too.
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
#define IRDMA_QMEM_CARVE_MAX (2u << 20)   /* larger rings: a memzone each */
#define IRDMA_QMEM_ZONE_MIN  (4u << 20)
#define IRDMA_QMEM_ZONE_MAX  (64u << 20)

struct rte_pmd_irdma_dev;
struct rte_pmd_irdma_queue_mem;

struct irdma_qmem_zone;

struct irdma_qmem {
	const struct rte_memzone *mz;  /* a memzone of its own; NULL when carved (zone) */
	struct irdma_qmem_zone *zone;  /* the pool zone it was carved from */
	uint32_t first_page, n_zpages; /* its pages in the zone */
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

/* One IOVA-contiguous memzone of the pool, 4 KiB pages, a bit per page in use. */
struct irdma_qmem_zone {
	const struct rte_memzone *mz;
	struct irdma_qmem_pool *pool;
	uint32_t n_pages, used, first_free; /* first_free: no free page below it */
	uint64_t bits[];
};

struct irdma_qmem_pool {
	struct irdma_qmem_zone **zones;
	uint32_t n_zones, cap_zones;
	uint32_t n_grown;                 /* zones reserved so far (the next one's size) */
	uint64_t zone_bytes;              /* bytes of the zones held now */
	uint64_t queue_bytes;             /* bytes of the rings carved, as asked */
};

struct irdma_shadow_page {
	struct irdma_qmem mem;
	uint64_t used;                    /* bit per slot */
};

struct irdma_shadow_pool {
	struct irdma_shadow_page *pages;  /* n_pages entries (grown by rte_realloc) */
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
/* At device close: the shadow pages, then every zone of the queue-memory pool. */
void irdma_shadow_pool_release(struct rte_pmd_irdma_dev *dev);

#endif /* IRDMA_QUEUE_MEM_H */
