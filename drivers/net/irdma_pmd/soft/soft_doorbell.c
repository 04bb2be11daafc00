/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbells. Hardware has one WQE-allocate register and one CQ-arm register that take the
 * object id; a write is an event that cannot be lost. Software has no write trap, so each
 * QP and CQ gets its own doorbell word: lib/uk stores the id into it (a plain 32-bit store
 * through uk_osdep.h), and the device consumes it by swapping the word back to
 * IRDMA_HW_DB_IDLE. A write that lands after the swap stays in the word for the next scan,
 * so no write is ever lost; several writes before a scan merge into one, which is what
 * hardware does too (the device then fetches every valid WQE, not one per write).
 */
#include "soft_priv.h"

void soft_db_init(_Atomic uint32_t *db)
{
	atomic_store_explicit(db, IRDMA_HW_DB_IDLE, memory_order_relaxed);
}

/* True when the word was written since the last take. Acquire: the WQE stores that
 * preceded the doorbell write are visible once the write is. */
bool soft_db_take(_Atomic uint32_t *db)
{
	if (atomic_load_explicit(db, memory_order_relaxed) == IRDMA_HW_DB_IDLE)
		return false;
	return atomic_exchange_explicit(db, IRDMA_HW_DB_IDLE, memory_order_acquire) !=
	       IRDMA_HW_DB_IDLE;
}

/* The arming part of the scan, from the first written word on: out of line, so the
 * common scan that finds nothing saves no registers. */
static __rte_noinline unsigned int db_scan_arm(struct soft_dev *dev, uint32_t i)
{
	unsigned int n = 0;

	for (; i < dev->n_cq_list; i++) {
		struct soft_cq *cq = &dev->cq[dev->cq_list[i]];

		if (!soft_db_take(&cq->db))
			continue;
		soft_cq_arm_doorbell(dev, cq);
		n++;
	}
	dev->st.doorbells += n;
	return n;
}

/* Visits the doorbell words of every CQ (arm requests). QP doorbells are taken by the
 * engine when it visits the QP. Returns the number of doorbells consumed. */
unsigned int soft_db_scan(struct soft_dev *dev)
{
	uint32_t i;

	for (i = 0; i < dev->n_cq_list; i++)
		if (atomic_load_explicit(&dev->cq[dev->cq_list[i]].db, memory_order_relaxed) !=
		    IRDMA_HW_DB_IDLE)
			return db_scan_arm(dev, i);
	return 0;
}
