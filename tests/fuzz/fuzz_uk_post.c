/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/uk's post functions with arbitrary work requests: opcode, SGE count,
 * SGE lengths drawn near 2^31 and 2^32 (and small), inline, immediate, fences. Inline SGEs
 * point at a buffer of max_inline_data bytes, so a payload check that lets more through is a
 * read past it (ASan). Every post either succeeds or is refused; the SQ head never passes
 * the tail, and WQE writes stay inside the SQ (ASan: the SQ is the end of its object).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_uk_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t lengths[16] = {
	0, 1, 8, 16, 63, 64, 100, 216, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffff0u,
	0xffffffffu, 0x7ffffff8u, 0x40000000u, 4096,
};

static uint32_t take(const uint8_t **p, size_t *n)
{
	uint32_t v = 0;

	if (*n > 0) {
		v = **p;
		(*p)++;
		(*n)--;
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_uk u;
	struct irdma_sge sg[16];
	uint8_t *src;
	unsigned int gen, w, i;
	const uint8_t *p = data;
	size_t n = size;

	gen = 1 + take(&p, &n) % 3;
	if (fuzz_uk_init(&u, gen, fuzz_attrs[gen].max_hw_wq_frags, fuzz_attrs[gen].max_hw_inline) != 0)
		return 0;
	/* exactly max_inline_data bytes, so ASan sees a read past the limit */
	src = malloc(fuzz_attrs[gen].max_hw_inline);
	memset(src, 0x5a, fuzz_attrs[gen].max_hw_inline);
	for (w = 0; w < 64 && n > 0; w++) {
		struct irdma_post_sq_info info;
		uint32_t op = take(&p, &n), flags = take(&p, &n), nsge = take(&p, &n) % 17;

		memset(&info, 0, sizeof(info));
		info.wr_id = w;
		info.signaled = flags & 1;
		info.read_fence = (flags >> 1) & 1;
		info.local_fence = (flags >> 2) & 1;
		info.imm_data_valid = (flags >> 3) & 1;
		info.imm_data = 0x1234;
		for (i = 0; i < nsge && i < 16; i++) {
			uint32_t b = take(&p, &n);

			sg[i].addr = (uintptr_t)src;
			sg[i].length = (b & 0x80) ? b & 0x7f : lengths[b & 15];
			sg[i].lkey = 0x100 + i;
		}
		if (nsge > 16)
			nsge = 16;
		switch (op % 8) {
		case 0:
			info.op_type = IRDMA_OP_TYPE_SEND;
			info.op.send.sg_list = sg;
			info.op.send.num_sges = nsge;
			(void)irdma_uk_send(&u.qp, &info, flags & 0x80);
			break;
		case 1:
			info.op_type = IRDMA_OP_TYPE_SEND;
			info.op.send.sg_list = sg;
			info.op.send.num_sges = nsge;
			(void)irdma_uk_inline_send(&u.qp, &info, flags & 0x80);
			break;
		case 2:
			info.op_type = IRDMA_OP_TYPE_RDMA_WRITE;
			info.op.rdma_write.lo_sg_list = sg;
			info.op.rdma_write.num_lo_sges = nsge;
			info.op.rdma_write.rem_addr.addr = 0x10000;
			info.op.rdma_write.rem_addr.lkey = 0x77;
			(void)irdma_uk_rdma_write(&u.qp, &info, flags & 0x80);
			break;
		case 3:
			info.op_type = IRDMA_OP_TYPE_RDMA_WRITE;
			info.op.rdma_write.lo_sg_list = sg;
			info.op.rdma_write.num_lo_sges = nsge;
			(void)irdma_uk_inline_rdma_write(&u.qp, &info, flags & 0x80);
			break;
		case 4:
			info.op_type = IRDMA_OP_TYPE_RDMA_READ;
			info.imm_data_valid = false;
			info.op.rdma_read.lo_sg_list = sg;
			info.op.rdma_read.num_lo_sges = nsge;
			(void)irdma_uk_rdma_read(&u.qp, &info, false, flags & 0x80);
			break;
		case 5: {
			struct irdma_post_rq_info ri = { .wr_id = w, .sg_list = sg, .num_sges = nsge };

			(void)irdma_uk_post_receive(&u.qp, &ri);
			break;
		}
		case 6:
			info.op_type = IRDMA_OP_TYPE_INV_STAG;
			info.op.inv_local_stag.target_stag = 0x1234;
			(void)irdma_uk_stag_local_invalidate(&u.qp, &info, flags & 0x80);
			break;
		default:
			/* the device consumes everything: the SQ empties */
			u.qp.sq_ring.tail = u.qp.sq_ring.head;
			u.qp.rq_ring.tail = u.qp.rq_ring.head;
			break;
		}
		if (u.qp.sq_ring.head >= u.qp.sq_ring.size)
			abort();
	}
	free(src);
	return 0;
}
