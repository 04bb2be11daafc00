/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef IRDMA_CQ_H
#define IRDMA_CQ_H

#include <stdint.h>

struct irdma_uk_attrs;

/* Ring slots for a CQ of @p cqe completions (the CQ sizing rule, see irdma_cq.c). */
uint32_t irdma_cq_slots(const struct irdma_uk_attrs *attrs, uint32_t cqe);
/* Bytes per CQE slot: 64 with the 64-byte CQE feature (GEN_3), else 32. */
uint32_t irdma_cqe_bytes(const struct irdma_uk_attrs *attrs);

#endif /* IRDMA_CQ_H */
