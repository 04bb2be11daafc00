/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the soft device's WQE fetch and decode (soft/soft_sq.c) on SQ memory an
 * application filled with arbitrary bytes. Byte 0 picks the generation, the QP type and the
 * starting polarity; the rest is the ring of FUZZ_SQ_DEPTH quanta, allocated exactly (ASan
 * flags any read past it). The device takes WQEs while their valid bit matches, copies the
 * inline payload of each, and consumes every WQE, executable or not, as it does on the wire.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "soft_priv.h"

#define FUZZ_SQ_DEPTH 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t max_inline[4] = { 0, 48, 101, 216 };
	static const uint32_t max_frags[4] = { 0, 3, 13, 14 };
	static struct soft_dev dev;
	static struct soft_qp qp;
	static uint64_t shadow[8];
	uint8_t payload[256];
	struct soft_wqe w;
	unsigned int gen, i;
	uint8_t *ring;
	size_t n;
	int rc;

	if (size < 1)
		return 0;
	gen = 1 + data[0] % 3;
	memset(&dev, 0, sizeof(dev));
	memset(&qp, 0, sizeof(qp));
	dev.gen = (uint8_t)gen;
	dev.uk_attrs.hw_rev = (uint8_t)gen;
	dev.uk_attrs.max_hw_read_sges = gen == 1 ? 1 : max_frags[gen];
	if (gen == 3)
		dev.uk_attrs.feature_flags = IRDMA_FEATURE_ATOMIC_OPS;
	ring = calloc(FUZZ_SQ_DEPTH, IRDMA_QP_WQE_MIN_SIZE);
	if (ring == NULL)
		return 0;
	n = size - 1 < FUZZ_SQ_DEPTH * IRDMA_QP_WQE_MIN_SIZE ? size - 1 :
							       FUZZ_SQ_DEPTH * IRDMA_QP_WQE_MIN_SIZE;
	memcpy(ring, data + 1, n);
	qp.dev = &dev;
	qp.type = (data[0] & 0x10) ? IRDMA_HW_QP_UD : IRDMA_HW_QP_RC;
	qp.sq_base = ring;
	qp.sq_depth = FUZZ_SQ_DEPTH;
	qp.sq_polarity = (data[0] >> 5) & 1;
	qp.max_inline = max_inline[gen];
	qp.max_sq_frags = max_frags[gen];
	qp.shadow = shadow;
	for (i = 0; i < 2 * FUZZ_SQ_DEPTH; i++) {
		rc = soft_sq_fetch(&qp, &w);
		if (rc == 0)
			break;
		if (rc == 1 && w.inline_data)
			soft_sq_inline_copy(&qp, w.wqe, 0, payload, w.inline_len);
		if (w.quanta == 0 || w.quanta > FUZZ_SQ_DEPTH)
			abort();
		soft_sq_consumed(&qp, w.quanta);
	}
	free(ring);
	return 0;
}
