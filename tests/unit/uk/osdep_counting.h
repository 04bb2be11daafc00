/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A second flavour of lib/uk's seam (selected with -DIRDMA_UK_OSDEP_HEADER='"osdep_counting.h"'), as the PMD
 * selects its DPDK flavour: it records every ordered access so test_uk_seam can check what lib/uk asks of
 * its environment, and proves that lib/uk's sources build against a seam other than the default.
 */
#ifndef OSDEP_COUNTING_H
#define OSDEP_COUNTING_H

#include <stdint.h>

struct seam_counts {
	unsigned long wmb, rmb, mb;
	unsigned long release_stores, acquire_loads;
	unsigned long doorbells;
	uint32_t last_doorbell;
	unsigned long locks, unlocks;
	unsigned long plain_stores_after_release; /* stores to the same WQE after its header was published */
	const uint64_t *last_published;
};

extern struct seam_counts seam;

#define irdma_wmb() (seam.wmb++, __atomic_thread_fence(__ATOMIC_RELEASE))
#define irdma_rmb() (seam.rmb++, __atomic_thread_fence(__ATOMIC_ACQUIRE))
#define irdma_mb() (seam.mb++, __atomic_thread_fence(__ATOMIC_SEQ_CST))

#define irdma_qword_at(words, byte_off) ((uint64_t *)((const uint8_t *)(words) + (byte_off)))

static inline void set_64bit_val(uint64_t *wqe_words, uint32_t byte_off, uint64_t val)
{
	if (seam.last_published && (const uint8_t *)wqe_words <= (const uint8_t *)seam.last_published &&
	    (const uint8_t *)seam.last_published < (const uint8_t *)wqe_words + 256 &&
	    irdma_qword_at(wqe_words, byte_off) < seam.last_published + 1 &&
	    irdma_qword_at(wqe_words, byte_off) >= seam.last_published - 3)
		seam.plain_stores_after_release++;
	*irdma_qword_at(wqe_words, byte_off) = val;
}

static inline void get_64bit_val(const uint64_t *wqe_words, uint32_t byte_off, uint64_t *val)
{
	*val = *irdma_qword_at(wqe_words, byte_off);
}

static inline void set_64bit_val_release(uint64_t *wqe_words, uint32_t byte_off, uint64_t val)
{
	seam.release_stores++;
	seam.last_published = irdma_qword_at(wqe_words, byte_off);
	__atomic_store_n(irdma_qword_at(wqe_words, byte_off), val, __ATOMIC_RELEASE);
}

static inline void get_64bit_val_acquire(const uint64_t *wqe_words, uint32_t byte_off, uint64_t *val)
{
	seam.acquire_loads++;
	*val = __atomic_load_n(irdma_qword_at(wqe_words, byte_off), __ATOMIC_ACQUIRE);
}

static inline void irdma_uk_db_write(uint32_t *db, uint32_t val)
{
	seam.doorbells++;
	seam.last_doorbell = val;
	__atomic_store_n(db, val, __ATOMIC_RELEASE);
}

typedef int irdma_uk_spinlock_t;
#define IRDMA_UK_SPINLOCK_INITIALIZER 0

static inline void irdma_uk_spin_lock(irdma_uk_spinlock_t *lock)
{
	seam.locks++;
	*lock = 1;
}

static inline void irdma_uk_spin_unlock(irdma_uk_spinlock_t *lock)
{
	seam.unlocks++;
	*lock = 0;
}

#endif /* OSDEP_COUNTING_H */
