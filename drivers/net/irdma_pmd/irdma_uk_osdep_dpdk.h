/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DPDK flavour of lib/uk's seam (lib/uk/include/uk_osdep.h): the PMD compiles lib/uk's
 * sources with -DIRDMA_UK_OSDEP_HEADER='"irdma_uk_osdep_dpdk.h"', so the queue layer uses
 * DPDK's I/O barriers, byte-order helpers, MMIO doorbell write and spinlock.
 *
 * Ordering: WQE bodies are plain stores, the header qword (valid bit) a release store; the
 * device's CQE valid bit is read with acquire. rte_io_* barriers order host memory against a
 * device, which covers both silicon (DMA) and the software device (another lcore).
 */
#ifndef IRDMA_UK_OSDEP_DPDK_H
#define IRDMA_UK_OSDEP_DPDK_H

#include <stdint.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_io.h>
#include <rte_spinlock.h>

#include "irdma_db_page.h"

#define irdma_wmb() rte_io_wmb()
#define irdma_rmb() rte_io_rmb()
#define irdma_mb() rte_io_mb()

#define irdma_cpu_to_le64(x) rte_cpu_to_le_64(x)
#define irdma_le64_to_cpu(x) rte_le_to_cpu_64(x)
#define irdma_cpu_to_le32(x) rte_cpu_to_le_32(x)

static inline void
set_64bit_val(uint64_t *wqe_words, uint32_t byte_off, uint64_t val)
{
	wqe_words[byte_off >> 3] = rte_cpu_to_le_64(val);
}

static inline void
get_64bit_val(const uint64_t *wqe_words, uint32_t byte_off, uint64_t *val)
{
	*val = rte_le_to_cpu_64(wqe_words[byte_off >> 3]);
}

static inline void
set_64bit_val_release(uint64_t *wqe_words, uint32_t byte_off, uint64_t val)
{
	__atomic_store_n(&wqe_words[byte_off >> 3], rte_cpu_to_le_64(val), __ATOMIC_RELEASE);
}

static inline void
get_64bit_val_acquire(const uint64_t *wqe_words, uint32_t byte_off, uint64_t *val)
{
	*val = rte_le_to_cpu_64(__atomic_load_n(&wqe_words[byte_off >> 3], __ATOMIC_ACQUIRE));
}

/* writel(): every earlier store to queue memory is visible before the doorbell. The word
 * lies in a doorbell page (irdma_db_page.h) and val is the object's id: the write also marks
 * the page's summary bitmap, which is what the device consumes. */
static inline void
irdma_uk_db_write(uint32_t *db, uint32_t val)
{
	rte_io_wmb();
	__atomic_store_n(db, rte_cpu_to_le_32(val), __ATOMIC_RELEASE);
	irdma_db_page_mark(db, val);
}

typedef rte_spinlock_t irdma_uk_spinlock_t;
#define IRDMA_UK_SPINLOCK_INITIALIZER RTE_SPINLOCK_INITIALIZER

static inline void
irdma_uk_spin_lock(irdma_uk_spinlock_t *lock)
{
	rte_spinlock_lock(lock);
}

static inline void
irdma_uk_spin_unlock(irdma_uk_spinlock_t *lock)
{
	rte_spinlock_unlock(lock);
}

#endif /* IRDMA_UK_OSDEP_DPDK_H */
