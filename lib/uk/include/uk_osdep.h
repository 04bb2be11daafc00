/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one seam between lib/uk and its environment: memory ordering, little-endian 64-bit access to queue
 * memory, the doorbell write and the SRQ lock.
 *
 * Default flavour: C11 atomics and plain memory, so lib/uk and its tests build with nothing but libc (the
 * doorbell is then an ordinary 32-bit word, as the software device model sees it).
 *
 * Other flavours: define IRDMA_UK_OSDEP_HEADER to a quoted header name, e.g.
 *     -DIRDMA_UK_OSDEP_HEADER='"irdma_uk_osdep_dpdk.h"'
 * and that header is included instead of the defaults below. It must provide every name defined in the
 * default section: irdma_wmb, irdma_rmb, irdma_mb, set_64bit_val, get_64bit_val, set_64bit_val_release,
 * get_64bit_val_acquire, irdma_uk_db_write, irdma_uk_spinlock_t, irdma_uk_spin_lock and irdma_uk_spin_unlock.
 *
 * Ordering contract used by lib/uk:
 *   - a WQE's body is written with set_64bit_val, then its header (valid bit) with set_64bit_val_release;
 *   - a CQE's qword 3 (valid bit) is read with get_64bit_val_acquire, the rest with get_64bit_val;
 *   - shadow-area words that the device reads are written with set_64bit_val_release;
 *   - irdma_uk_db_write orders all earlier stores before the doorbell store.
 */
#ifndef UK_OSDEP_H
#define UK_OSDEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef IRDMA_UK_OSDEP_HEADER
#include IRDMA_UK_OSDEP_HEADER
#else /* default flavour: C11 */

#include <stdatomic.h>

/* Store-store / load-load / full barriers for host memory shared with the device. */
#define irdma_wmb() atomic_thread_fence(memory_order_release)
#define irdma_rmb() atomic_thread_fence(memory_order_acquire)
#define irdma_mb() atomic_thread_fence(memory_order_seq_cst)

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define irdma_cpu_to_le64(x) __builtin_bswap64(x)
#define irdma_le64_to_cpu(x) __builtin_bswap64(x)
#define irdma_cpu_to_le32(x) __builtin_bswap32(x)
#else
#define irdma_cpu_to_le64(x) ((uint64_t)(x))
#define irdma_le64_to_cpu(x) ((uint64_t)(x))
#define irdma_cpu_to_le32(x) ((uint32_t)(x))
#endif

/* Queue memory is an array of little-endian qwords; byte_off is a multiple of 8. */
#define irdma_qword_at(words, byte_off) ((uint64_t *)((const uint8_t *)(words) + (byte_off)))

static inline void set_64bit_val(uint64_t *wqe_words, uint32_t byte_off, uint64_t val)
{
	*irdma_qword_at(wqe_words, byte_off) = irdma_cpu_to_le64(val);
}

static inline void get_64bit_val(const uint64_t *wqe_words, uint32_t byte_off, uint64_t *val)
{
	*val = irdma_le64_to_cpu(*irdma_qword_at(wqe_words, byte_off));
}

/* Publishes a qword the device polls (WQE header, shadow words): every earlier store is visible first. */
static inline void set_64bit_val_release(uint64_t *wqe_words, uint32_t byte_off, uint64_t val)
{
	atomic_store_explicit((_Atomic uint64_t *)irdma_qword_at(wqe_words, byte_off), irdma_cpu_to_le64(val),
			      memory_order_release);
}

/* Reads a qword the device publishes (CQE qword 3): later reads see what was written before it. */
static inline void get_64bit_val_acquire(const uint64_t *wqe_words, uint32_t byte_off, uint64_t *val)
{
	*val = irdma_le64_to_cpu(atomic_load_explicit((const _Atomic uint64_t *)irdma_qword_at(wqe_words, byte_off),
						      memory_order_acquire));
}

/* The doorbell (writel of the kernel): ordered after every earlier store to queue memory. */
static inline void irdma_uk_db_write(uint32_t *db, uint32_t val)
{
	atomic_store_explicit((_Atomic uint32_t *)db, irdma_cpu_to_le32(val), memory_order_release);
}

/* The SRQ tail lock (kernel >= 6.19 takes one when the poll path moves the SRQ tail). */
typedef atomic_flag irdma_uk_spinlock_t;
#define IRDMA_UK_SPINLOCK_INITIALIZER ATOMIC_FLAG_INIT

static inline void irdma_uk_spin_lock(irdma_uk_spinlock_t *lock)
{
	while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
		;
}

static inline void irdma_uk_spin_unlock(irdma_uk_spinlock_t *lock)
{
	atomic_flag_clear_explicit(lock, memory_order_release);
}

#endif /* IRDMA_UK_OSDEP_HEADER */

#endif /* UK_OSDEP_H */
