/* SPDX-License-Identifier: BSD-3-Clause */
/* Queue memory from rte_memzones: see irdma_queue_mem.h for the rules. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>

#include "irdma_pmd.h"

static void
qmem_name(struct rte_pmd_irdma_dev *dev, const char *kind, char *name, size_t size)
{
	snprintf(name, size, "irdma%u_%s_%u", dev->index, kind, dev->mz_seq++);
}

/* Describe a non-contiguous zone by the IOVA of each 4 KiB page. */
static int
qmem_page_list(struct irdma_qmem *m)
{
	uint32_t i, n = (uint32_t)((m->len + IRDMA_QMEM_ALIGN - 1) / IRDMA_QMEM_ALIGN);

	m->pages = rte_malloc_socket("irdma_pbl", n * sizeof(*m->pages), 0, m->socket_id);
	if (m->pages == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		m->pages[i] = rte_mem_virt2iova((char *)m->addr + (size_t)i * IRDMA_QMEM_ALIGN);
	m->n_pages = n;
	return 0;
}

/* A ring of its own memzone (larger than IRDMA_QMEM_CARVE_MAX, or no zone to carve from). */
static int
qmem_alloc_zone(struct rte_pmd_irdma_dev *dev, struct irdma_qmem *m, const char *kind,
		size_t len, uint32_t entry_size, uint32_t depth)
{
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	bool contig = true;

	memset(m, 0, sizeof(*m));
	qmem_name(dev, kind, name, sizeof(name));
	mz = rte_memzone_reserve_aligned(name, len, dev->socket_id, RTE_MEMZONE_IOVA_CONTIG,
					 IRDMA_QMEM_ALIGN);
	if (mz == NULL && rte_errno == ENOMEM && rte_eal_iova_mode() == RTE_IOVA_PA) {
		/* Physically contiguous memory ends at a hugepage: take a page list. */
		mz = rte_memzone_reserve_aligned(name, len, dev->socket_id, 0, IRDMA_QMEM_ALIGN);
		contig = false;
		if (mz != NULL)
			IRDMA_LOG(mem, INFO, "%s: %s of %zu bytes is not IOVA-contiguous (IOVA as PA); "
				  "using a page list (--iova-mode=va avoids it)", dev->name, name, len);
	}
	if (mz == NULL) {
		IRDMA_LOG(mem, ERR, "%s: cannot reserve %zu bytes for %s on socket %d: %s",
			  dev->name, len, name, dev->socket_id, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	m->mz = mz;
	m->addr = mz->addr;
	m->len = len;
	m->entry_size = entry_size;
	m->depth = depth;
	m->socket_id = mz->socket_id;
	/* IOVA as VA: any zone is contiguous in IOVA space. */
	m->contig = contig || rte_eal_iova_mode() == RTE_IOVA_VA;
	m->iova = mz->iova;
	/* Hardware starts from a ring whose valid bits are all clear. */
	memset(m->addr, 0, len);
	if (!m->contig && qmem_page_list(m) < 0) {
		rte_memzone_free(mz);
		memset(m, 0, sizeof(*m));
		IRDMA_LOG(mem, ERR, "%s: no memory for the page list of %s", dev->name, name);
		return -ENOMEM;
	}
	IRDMA_LOG(mem, DEBUG, "%s: %s %zu bytes at %p iova 0x%" PRIx64 " socket %d%s", dev->name,
		  name, len, m->addr, m->iova, m->socket_id, m->contig ? "" : " (page list)");
	return 0;
}

/* ---- the pool ---- */

static uint32_t
pages_of(size_t len)
{
	return (uint32_t)((len + IRDMA_QMEM_ALIGN - 1) / IRDMA_QMEM_ALIGN);
}

static bool
page_used(const struct irdma_qmem_zone *z, uint32_t p)
{
	return (z->bits[p >> 6] >> (p & 63)) & 1;
}

static void
pages_set(struct irdma_qmem_zone *z, uint32_t first, uint32_t n, bool used)
{
	uint32_t p;

	for (p = first; p < first + n; p++) {
		if (used)
			z->bits[p >> 6] |= 1ull << (p & 63);
		else
			z->bits[p >> 6] &= ~(1ull << (p & 63));
	}
}

/* First fit: the first run of n free pages, or UINT32_MAX. Whole words in use are
 * skipped 64 pages at a time. */
static uint32_t
zone_find(const struct irdma_qmem_zone *z, uint32_t n)
{
	uint32_t p = z->first_free, run = 0, start = 0;

	if (z->n_pages - z->used < n)
		return UINT32_MAX;
	while (p < z->n_pages) {
		if ((p & 63) == 0 && run == 0 && z->bits[p >> 6] == UINT64_MAX) {
			p += 64;
			continue;
		}
		if (page_used(z, p)) {
			run = 0;
		} else {
			if (run++ == 0)
				start = p;
			if (run == n)
				return start;
		}
		p++;
	}
	return UINT32_MAX;
}

/* A new zone for a ring of at least @p need bytes: the next size in the series, halved
 * while EAL cannot give it IOVA-contiguous. NULL when not even @p need bytes can be had. */
static struct irdma_qmem_zone *
zone_add(struct rte_pmd_irdma_dev *dev, size_t need)
{
	struct irdma_qmem_pool *pool = &dev->qpool;
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz = NULL;
	struct irdma_qmem_zone *z;
	size_t len = (size_t)IRDMA_QMEM_ZONE_MIN << RTE_MIN(pool->n_grown, 4u);
	uint32_t n;

	if (len > IRDMA_QMEM_ZONE_MAX)
		len = IRDMA_QMEM_ZONE_MAX;
	if (pool->n_zones == pool->cap_zones) {
		uint32_t cap = pool->cap_zones ? 2 * pool->cap_zones : 8;
		void *zs = rte_realloc_socket(pool->zones, cap * sizeof(*pool->zones), 0,
					      dev->socket_id);

		if (zs == NULL)
			return NULL;
		pool->zones = zs;
		pool->cap_zones = cap;
	}
	snprintf(name, sizeof(name), "irdma%u_qmem_%u", dev->index, dev->mz_seq++);
	for (; len >= need; len /= 2) {
		mz = rte_memzone_reserve_aligned(name, len, dev->socket_id,
						 RTE_MEMZONE_IOVA_CONTIG, IRDMA_QMEM_ALIGN);
		if (mz != NULL || rte_errno != ENOMEM)
			break;
	}
	if (mz == NULL) {
		IRDMA_LOG(mem, DEBUG, "%s: no IOVA-contiguous zone of %zu bytes or more: %s",
			  dev->name, need, rte_strerror(rte_errno));
		return NULL;
	}
	n = (uint32_t)(mz->len / IRDMA_QMEM_ALIGN);
	z = rte_zmalloc_socket("irdma_qzone", sizeof(*z) + (n + 63) / 64 * sizeof(uint64_t), 0,
			       dev->socket_id);
	if (z == NULL) {
		rte_memzone_free(mz);
		return NULL;
	}
	z->mz = mz;
	z->pool = pool;
	z->n_pages = n;
	pool->zones[pool->n_zones++] = z;
	pool->n_grown++;
	pool->zone_bytes += mz->len;
	IRDMA_LOG(mem, DEBUG, "%s: queue-memory zone %s of %zu bytes (%u zones)", dev->name, name,
		  mz->len, pool->n_zones);
	return z;
}

static void
zone_remove(struct irdma_qmem_zone *z)
{
	struct irdma_qmem_pool *pool = z->pool;
	uint32_t i;

	for (i = 0; i < pool->n_zones; i++) {
		if (pool->zones[i] == z) {
			pool->zones[i] = pool->zones[--pool->n_zones];
			break;
		}
	}
	pool->zone_bytes -= z->mz->len;
	rte_memzone_free(z->mz);
	rte_free(z);
}

/* 0 with @p m carved from the pool, or -ENOMEM when no zone has or can get room. */
static int
qmem_carve(struct rte_pmd_irdma_dev *dev, struct irdma_qmem *m, size_t len, uint32_t entry_size,
	   uint32_t depth)
{
	struct irdma_qmem_pool *pool = &dev->qpool;
	struct irdma_qmem_zone *z = NULL;
	uint32_t n = pages_of(len), first = UINT32_MAX, i;

	for (i = 0; i < pool->n_zones && first == UINT32_MAX; i++) {
		z = pool->zones[i];
		first = zone_find(z, n);
	}
	if (first == UINT32_MAX) {
		z = zone_add(dev, (size_t)n * IRDMA_QMEM_ALIGN);
		if (z == NULL)
			return -ENOMEM;
		first = zone_find(z, n);
	}
	pages_set(z, first, n, true);
	z->used += n;
	if (first == z->first_free)
		z->first_free = first + n;
	pool->queue_bytes += len;
	memset(m, 0, sizeof(*m));
	m->zone = z;
	m->first_page = first;
	m->n_zpages = n;
	m->addr = (char *)z->mz->addr + (size_t)first * IRDMA_QMEM_ALIGN;
	m->iova = z->mz->iova == RTE_BAD_IOVA ? RTE_BAD_IOVA :
		  z->mz->iova + (uint64_t)first * IRDMA_QMEM_ALIGN;
	m->len = len;
	m->entry_size = entry_size;
	m->depth = depth;
	m->socket_id = z->mz->socket_id;
	m->contig = true;
	/* Hardware starts from a ring whose valid bits are all clear. */
	memset(m->addr, 0, len);
	return 0;
}

int
irdma_qmem_alloc(struct rte_pmd_irdma_dev *dev, struct irdma_qmem *m, const char *kind,
		 size_t len, uint32_t entry_size, uint32_t depth)
{
	if (len <= IRDMA_QMEM_CARVE_MAX && qmem_carve(dev, m, len, entry_size, depth) == 0) {
		IRDMA_LOG(mem, DEBUG, "%s: %s %zu bytes at %p iova 0x%" PRIx64 " (zone page %u)",
			  dev->name, kind, len, m->addr, m->iova, m->first_page);
		return 0;
	}
	return qmem_alloc_zone(dev, m, kind, len, entry_size, depth);
}

void
irdma_qmem_free(struct irdma_qmem *m)
{
	struct irdma_qmem_zone *z = m->zone;

	if (z != NULL) {
		pages_set(z, m->first_page, m->n_zpages, false);
		z->used -= m->n_zpages;
		z->pool->queue_bytes -= m->len;
		if (m->first_page < z->first_free)
			z->first_free = m->first_page;
		if (z->used == 0)
			zone_remove(z); /* its memzone back to EAL */
	}
	if (m->mz != NULL)
		rte_memzone_free(m->mz);
	rte_free(m->pages);
	memset(m, 0, sizeof(*m));
}

void
irdma_qmem_describe(const struct irdma_qmem *m, struct rte_pmd_irdma_queue_mem *out)
{
	memset(out, 0, sizeof(*out));
	if (m->addr == NULL)
		return;
	out->addr = m->addr;
	out->iova = m->iova;
	out->len = m->len;
	out->entry_size = m->entry_size;
	out->depth = m->depth;
	out->socket_id = m->socket_id;
	out->iova_contig = m->contig;
}

int
irdma_shadow_alloc(struct rte_pmd_irdma_dev *dev, struct irdma_shadow *s)
{
	struct irdma_shadow_pool *p = &dev->shadows;
	struct irdma_shadow_page *pg;
	uint32_t i;
	int ret;

	for (i = 0; i < p->n_pages; i++)
		if (p->pages[i].used != UINT64_MAX)
			break;
	if (i == p->n_pages) {
		void *pages = rte_realloc_socket(p->pages, (p->n_pages + 1) * sizeof(*p->pages), 0,
						 dev->socket_id);

		if (pages == NULL) {
			IRDMA_LOG(mem, ERR, "%s: no memory for shadow page %u", dev->name, i);
			return -ENOMEM;
		}
		p->pages = pages;
		pg = &p->pages[i];
		memset(pg, 0, sizeof(*pg));
		ret = irdma_qmem_alloc(dev, &pg->mem, "shadow", IRDMA_QMEM_ALIGN,
				       IRDMA_SHADOW_BYTES, IRDMA_SHADOWS_PER_PAGE);
		if (ret < 0)
			return ret;
		p->n_pages++;
	}
	pg = &p->pages[i];
	s->page = i;
	s->slot = (uint32_t)__builtin_ctzll(~pg->used);
	pg->used |= 1ull << s->slot;
	s->addr = (char *)pg->mem.addr + s->slot * IRDMA_SHADOW_BYTES;
	s->iova = pg->mem.iova == RTE_BAD_IOVA ? RTE_BAD_IOVA :
		  pg->mem.iova + s->slot * IRDMA_SHADOW_BYTES;
	memset(s->addr, 0, IRDMA_SHADOW_BYTES);
	return 0;
}

void
irdma_shadow_free(struct rte_pmd_irdma_dev *dev, struct irdma_shadow *s)
{
	struct irdma_shadow_pool *p = &dev->shadows;

	if (s->addr == NULL)
		return;
	p->pages[s->page].used &= ~(1ull << s->slot);
	/* The last page, once empty, goes back to the pool (so does its zone when that was
	 * the zone's last use); pages below it keep their index, which shadows name. */
	while (p->n_pages > 0 && p->pages[p->n_pages - 1].used == 0)
		irdma_qmem_free(&p->pages[--p->n_pages].mem);
	memset(s, 0, sizeof(*s));
}

void
irdma_shadow_pool_release(struct rte_pmd_irdma_dev *dev)
{
	struct irdma_shadow_pool *p = &dev->shadows;
	struct irdma_qmem_pool *q = &dev->qpool;
	uint32_t i;

	for (i = 0; i < p->n_pages; i++)
		irdma_qmem_free(&p->pages[i].mem);
	rte_free(p->pages);
	memset(p, 0, sizeof(*p));
	while (q->n_zones > 0) {
		IRDMA_LOG(mem, DEBUG, "%s: zone of %zu bytes still in use at close", dev->name,
			  q->zones[0]->mz->len);
		zone_remove(q->zones[0]);
	}
	rte_free(q->zones);
	memset(q, 0, sizeof(*q));
}
