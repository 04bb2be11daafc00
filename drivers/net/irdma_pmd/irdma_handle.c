/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Retired handles: a destroyed object's memory is poisoned and parked in a FIFO of the last
 * IRDMA_RETIRED_MAX destroyed objects (all devices, all types) before it is freed, so the
 * poisoned magic stays readable and the address is not handed to a new object while a stale
 * handle to it is likely still around. Control path only.
 */
#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "irdma_pmd.h"

static rte_spinlock_t retired_lock = RTE_SPINLOCK_INITIALIZER;
static void *retired[IRDMA_RETIRED_MAX];
static unsigned int retired_next;

void
irdma_handle_retire(void *obj, uint32_t *magic)
{
	void *oldest;

	*magic = IRDMA_MAGIC_DEAD;
	rte_spinlock_lock(&retired_lock);
	oldest = retired[retired_next];
	retired[retired_next] = obj;
	retired_next = (retired_next + 1) % IRDMA_RETIRED_MAX;
	rte_spinlock_unlock(&retired_lock);
	rte_free(oldest);
}
