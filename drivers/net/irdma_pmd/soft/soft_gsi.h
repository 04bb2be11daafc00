/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP 1 (GSI) of the software device: CM MADs received by the engine wait in a small
 * single-producer (the engine) / single-consumer (irdma_hw_ops.gsi_recv) queue; MADs of
 * other classes, other Q_Keys or opcodes are dropped and counted. The rules are lib/cm's
 * (cm_gsi.h); the CM protocol itself runs in the application over lib/cm.
 */
#ifndef SOFT_GSI_H
#define SOFT_GSI_H

#include <stdatomic.h>
#include <stdint.h>

#include "irdma_hw.h"

#define SOFT_GSI_QLEN 64u /* a power of two */

struct soft_gsi {
	_Atomic uint32_t head; /* written by the engine */
	_Atomic uint32_t tail; /* written by gsi_recv */
	struct irdma_hw_mad q[SOFT_GSI_QLEN];
	uint32_t psn;          /* BTH PSN of the MADs sent (any running counter) */
	struct irdma_hw_gsi_stats st;
};

struct soft_dev;
struct roce_pkt;

/* Engine side: a parsed packet addressed to QP 1. */
void soft_gsi_rx(struct soft_dev *dev, const struct roce_pkt *p);

int soft_gsi_send(struct irdma_hw_dev *hw, const uint8_t dgid[16], const uint8_t *mad);
int soft_gsi_recv(struct irdma_hw_dev *hw, struct irdma_hw_mad *mads, unsigned int n);
int soft_gsi_stats(struct irdma_hw_dev *hw, struct irdma_hw_gsi_stats *st);

#endif /* SOFT_GSI_H */
