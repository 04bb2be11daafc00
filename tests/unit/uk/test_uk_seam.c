/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/uk built again with another seam (osdep_counting.h), the way the PMD builds it with its DPDK flavour.
 * Checks what lib/uk asks of the seam: one release-store per published header or shadow word, doorbells
 * exactly when asked (SQ: qp_id; CQ arm: cq_id; never for receives), acquire loads for CQE valid bits, no
 * store into a WQE's header quantum after its header was published, balanced SRQ locking.
 */
#include <errno.h>
#include <stdlib.h>

#include "irdma_test.h"
#include "irdma_user.h"

struct seam_counts seam;

static struct irdma_uk_attrs g3 = { .hw_rev = 3, .max_hw_wq_frags = 14, .max_hw_read_sges = 14, .max_hw_inline = 216,
				    .max_hw_rq_quanta = 32768, .max_hw_wq_quanta = 32768, .max_hw_sq_chunk = 8,
				    .min_hw_wq_size = 16, .max_hw_srq_quanta = 262144,
				    .feature_flags = IRDMA_FEATURE_SRQ | IRDMA_FEATURE_ATOMIC_OPS };

static struct irdma_qp_quanta sq[1024] __attribute__((aligned(4096)));
static struct irdma_qp_quanta rq[256] __attribute__((aligned(4096)));
static struct irdma_sq_uk_wr_trk_info trk[1024];
static uint64_t rq_wrid[256], qp_shadow[8];
static uint32_t sq_db, cq_db;

static void qp_make(struct irdma_qp_uk *qp)
{
	struct irdma_qp_uk_init_info ui = { .uk_attrs = &g3, .sq = sq, .rq = rq, .sq_wrtrk_array = trk,
					    .rq_wrid_array = rq_wrid, .shadow_area = qp_shadow,
					    .wqe_alloc_db = &sq_db, .qp_id = 0x42, .sq_size = 128, .sq_shift = 3,
					    .rq_size = 32, .rq_shift = 3, .max_sq_frag_cnt = 7,
					    .max_rq_frag_cnt = 7, .max_inline_data = 216,
					    .type = IRDMA_QP_TYPE_ROCE_RC };

	memset(sq, 0, sizeof(sq));
	T_EQ(irdma_uk_qp_init(qp, &ui), 0);
}

static void reset(void)
{
	memset(&seam, 0, sizeof(seam));
}

T_CASE(seam_sq_posts)
{
	static uint8_t payload[100];
	struct irdma_sge sge[3] = { { 0x1000, 8, 1 }, { 0x2000, 16, 2 }, { 0x3000, 32, 3 } };
	struct irdma_post_sq_info info = { .wr_id = 1, .signaled = true, .op_type = IRDMA_OP_TYPE_SEND };
	struct irdma_qp_uk qp;

	qp_make(&qp);
	info.op.send.sg_list = sge;
	info.op.send.num_sges = 3;
	reset();
	T_EQ(irdma_uk_send(&qp, &info, true), 0);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 1);
	T_EQ(seam.last_doorbell, 0x42);
	T_EQ(sq_db, 0x42);
	T_EQ(seam.plain_stores_after_release, 0);

	reset();
	T_EQ(irdma_uk_send(&qp, &info, false), 0);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 0);

	reset();
	sge[0] = (struct irdma_sge){ (uintptr_t)payload, sizeof(payload), 0 };
	info.op.send.num_sges = 1;
	info.imm_data_valid = true;
	T_EQ(irdma_uk_inline_send(&qp, &info, true), 0);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 1);
	T_EQ(seam.plain_stores_after_release, 0);

	reset();
	info.op.atomic_compare_swap.remote_stag = 9;
	T_EQ(irdma_uk_atomic_compare_swap(&qp, &info, true), 0);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 1);
	T_EQ(seam.plain_stores_after_release, 0);

	reset();
	T_EQ(irdma_nop(&qp, 5, true, false), 0);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 0);
	reset();
	irdma_uk_qp_post_wr(&qp);
	T_EQ(seam.doorbells, 1);
	T_EQ(seam.last_doorbell, 0x42);
}

T_CASE(seam_receives_never_ring)
{
	struct irdma_sge sge[2] = { { 0x1000, 8, 1 }, { 0x2000, 16, 2 } };
	struct irdma_post_rq_info ri = { .wr_id = 3, .sg_list = sge, .num_sges = 2 };
	static struct irdma_qp_quanta srq_ring[64] __attribute__((aligned(4096)));
	uint64_t srq_shadow[8] = { 0 };
	irdma_uk_spinlock_t lock = IRDMA_UK_SPINLOCK_INITIALIZER;
	struct irdma_srq_uk_init_info si = { .srq = srq_ring, .uk_attrs = &g3, .shadow_area = srq_shadow,
					     .srq_size = 16, .max_srq_frag_cnt = 2, .lock = &lock };
	struct irdma_srq_uk srq;
	struct irdma_qp_uk qp;

	qp_make(&qp);
	reset();
	T_EQ(irdma_uk_post_receive(&qp, &ri), 0);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 0);
	T_EQ(seam.plain_stores_after_release, 0);

	T_EQ(irdma_uk_srq_init(&srq, &si), 0);
	reset();
	T_EQ(irdma_uk_srq_post_receive(&srq, &ri), 0);
	T_EQ(seam.release_stores, 2); /* header, then the producer index */
	T_CHECK(seam.last_published == srq_shadow);
	T_EQ(seam.doorbells, 0);
	T_EQ(seam.locks, seam.unlocks);
	T_CHECK(seam.locks >= 1);
	T_EQ(lock, 0);
}

T_CASE(seam_cq)
{
	static struct irdma_cqe ring[8];
	uint64_t shadow[8] = { 0 };
	struct irdma_cq_uk_init_info ci = { .cq_base = ring, .cq_size = 8, .cq_id = 0x17, .shadow_area = shadow,
					    .cqe_alloc_db = &cq_db };
	struct irdma_post_sq_info info = { .wr_id = 0x99, .signaled = true };
	struct irdma_cq_poll_info pi;
	struct irdma_qp_uk qp;
	struct irdma_cq_uk cq;

	qp_make(&qp);
	irdma_uk_cq_init(&cq, &ci);
	reset();
	T_EQ(irdma_uk_cq_poll_cmpl(&cq, &pi), -ENOENT);
	T_EQ(seam.acquire_loads, 1);
	T_EQ(seam.release_stores, 0);

	T_EQ(irdma_nop(&qp, info.wr_id, true, false), 0);
	ring[0].buf[1] = (uintptr_t)&qp;
	ring[0].buf[3] = IRDMA_CQ_VALID | IRDMA_CQ_SQ;
	reset();
	T_EQ(irdma_uk_cq_poll_cmpl(&cq, &pi), 0);
	T_EQ(pi.wr_id, 0x99);
	T_EQ(seam.acquire_loads, 1);
	T_EQ(seam.release_stores, 1); /* the consumer index */
	T_EQ(shadow[0], 1);

	reset();
	irdma_uk_cq_request_notification(&cq, IRDMA_CQ_COMPL_SOLICITED);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 1);
	T_EQ(seam.last_doorbell, 0x17);
	reset();
	irdma_uk_cq_set_resized_cnt(&cq, 1);
	T_EQ(seam.release_stores, 1);
	T_EQ(seam.doorbells, 0);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
