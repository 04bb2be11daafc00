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

int
irdma_qmem_alloc(struct rte_pmd_irdma_dev *dev, struct irdma_qmem *m, const char *kind,
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

void
irdma_qmem_free(struct irdma_qmem *m)
{
	if (m->mz != NULL)
		rte_memzone_free(m->mz);
	rte_free(m->pages);
	memset(m, 0, sizeof(*m));
}

void
irdma_qmem_describe(const struct irdma_qmem *m, struct rte_pmd_irdma_queue_mem *out)
{
	memset(out, 0, sizeof(*out));
	if (m->mz == NULL)
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
	const struct rte_memzone *mz;
	char name[RTE_MEMZONE_NAMESIZE];
	uint32_t i;

	for (i = 0; i < p->n_pages; i++)
		if (p->used[i] != UINT64_MAX)
			break;
	if (i == p->n_pages) {
		if (p->n_pages == IRDMA_SHADOW_MAX_PAGES) {
			IRDMA_LOG(mem, ERR, "%s: all %u shadow areas in use", dev->name,
				  IRDMA_SHADOW_MAX_PAGES * IRDMA_SHADOWS_PER_PAGE);
			return -ENOSPC;
		}
		snprintf(name, sizeof(name), "irdma%u_shadow_%u", dev->index, i);
		mz = rte_memzone_reserve_aligned(name, IRDMA_QMEM_ALIGN, dev->socket_id,
						 RTE_MEMZONE_IOVA_CONTIG, IRDMA_QMEM_ALIGN);
		if (mz == NULL) {
			IRDMA_LOG(mem, ERR, "%s: cannot reserve shadow page %s: %s", dev->name, name,
				  rte_strerror(rte_errno));
			return -ENOMEM;
		}
		memset(mz->addr, 0, IRDMA_QMEM_ALIGN);
		p->pages[i] = mz;
		p->used[i] = 0;
		p->n_pages++;
	}
	s->page = i;
	s->slot = (uint32_t)__builtin_ctzll(~p->used[i]);
	p->used[i] |= 1ull << s->slot;
	s->addr = (char *)p->pages[i]->addr + s->slot * IRDMA_SHADOW_BYTES;
	s->iova = p->pages[i]->iova + s->slot * IRDMA_SHADOW_BYTES;
	memset(s->addr, 0, IRDMA_SHADOW_BYTES);
	return 0;
}

void
irdma_shadow_free(struct rte_pmd_irdma_dev *dev, struct irdma_shadow *s)
{
	if (s->addr == NULL)
		return;
	dev->shadows.used[s->page] &= ~(1ull << s->slot);
	memset(s, 0, sizeof(*s));
}

void
irdma_shadow_pool_release(struct rte_pmd_irdma_dev *dev)
{
	struct irdma_shadow_pool *p = &dev->shadows;
	uint32_t i;

	for (i = 0; i < p->n_pages; i++)
		rte_memzone_free(p->pages[i]);
	memset(p, 0, sizeof(*p));
}
