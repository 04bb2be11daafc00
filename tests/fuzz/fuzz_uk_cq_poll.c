/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/uk's CQE decode (irdma_uk_cq_poll_cmpl) on CQ memory the "device"
 * filled with arbitrary bytes. Byte 0 picks the generation (GEN_3: 64-byte CQEs) and
 * whether a few WRs are posted first (so the SQ tracking is live); the rest is the CQ ring.
 * The QP context qwords are what a device copies from the QP it was given, not data: they are
 * set to the QP (or 0) so the decode of everything else is what is exercised. The poll must
 * end (every CQE is consumed or refused) and never read or write outside the queues.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_uk_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_uk u;
	struct irdma_cq_poll_info info;
	unsigned int gen, i, stride, n;
	uint64_t ctx;

	if (size < 1)
		return 0;
	gen = 1 + data[0] % 3;
	if (fuzz_uk_init(&u, gen, 2, 0) != 0)
		return 0;
	if (data[0] & 0x10) { /* a few sends and receives outstanding */
		struct irdma_sge sge = { 0x1000, 64, 1 };
		struct irdma_post_sq_info si = { .wr_id = 0x51, .signaled = true,
						 .op_type = IRDMA_OP_TYPE_SEND };
		struct irdma_post_rq_info ri = { .wr_id = 0x52, .sg_list = &sge, .num_sges = 1 };

		si.op.send.sg_list = &sge;
		si.op.send.num_sges = 1;
		for (i = 0; i < 4; i++) {
			(void)irdma_uk_send(&u.qp, &si, false);
			(void)irdma_uk_post_receive(&u.qp, &ri);
		}
	}
	stride = gen == 3 ? 64 : 32;
	n = (unsigned int)((size - 1 < sizeof(u.cqe)) ? size - 1 : sizeof(u.cqe));
	memcpy(u.cqe, data + 1, n);
	for (i = 0; i < FUZZ_CQ_SIZE; i++) {
		ctx = (data[0] & 0x20) && (i & 7) == 7 ? 0 : (uint64_t)(uintptr_t)&u.qp;
		memcpy(u.cqe + i * stride + 8, &ctx, 8);
		if (stride == 64)
			memcpy(u.cqe + i * stride + 40, &ctx, 8); /* SRQ CQEs: the QP in qword 5 */
	}
	for (i = 0; i < 4 * FUZZ_CQ_SIZE; i++)
		if (irdma_uk_cq_poll_cmpl(&u.cq, &info) == -ENOENT)
			break;
	return 0;
}
