/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CQE writer against the CQE images of tests/data/irdma-golden-vectors.json (kind
 * "cqe_decode": what rdma-core's uk layer decodes into the listed completion fields). The
 * device, given those fields, must write exactly those qwords, in 32-byte slots with the
 * extension in the next slot (GEN_2) and in 64-byte slots (GEN_3). (End-to-end decoding by
 * lib/uk is what the other soft tests do.) Also the overflow rule: the CQE that does not
 * fit is not written.
 */
#include <errno.h>

#include "soft_priv.h"
#include "irdma_test.h"

#define QP_CTX 0x00007f00deadbe00ull

struct cqe_case {
	const char *name; /* vector name */
	uint8_t gen;
	bool cqe64;
	uint32_t head_before;
	struct soft_cqe c;
	unsigned int nq;
	uint64_t q[8];
};

static const struct cqe_case cases[] = {
	{ "gen2_cqe_sq_send_success", 2, false, 0,
	  { .sq = true, .op = 3, .wqe_idx = 0, .ctx = QP_CTX, .qp_id = 0x1234, .stat = 0x1234 },
	  4, { 0x0000123400000000ull, QP_CTX, 0x0000123400000000ull, 0xc300000000000000ull } },
	{ "gen2_cqe_sq_write_success", 2, false, 1,
	  { .sq = true, .op = 0, .wqe_idx = 2, .ctx = QP_CTX, .qp_id = 0x1234 },
	  4, { 0, QP_CTX, 0x0000123400000000ull, 0xc000000200000000ull } },
	{ "gen2_cqe_rq_recv_inv", 2, false, 2,
	  { .op = 4, .bytes = 0x100, .ctx = QP_CTX, .qp_id = 0x1234, .inv_or_ipv4 = true,
	    .inv_stag_or_src_qpn = 0xdead00, .solicited = true },
	  4, { 0x100, QP_CTX, 0x0000123400dead00ull, 0x8460000000000000ull } },
	{ "gen2_cqe_rq_imm_ext32", 2, false, 3,
	  { .op = 0x0b, .wqe_idx = 4, .bytes = 64, .ctx = QP_CTX, .qp_id = 0x1234,
	    .imm_valid = true, .imm = 0xa1b2c3d4, .smac_valid = true,
	    .smac = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 }, .vlan_valid = true, .vlan = 0x6005 },
	  8, { 0x40, QP_CTX, 0x0000123400000000ull, 0x8b04000400000000ull, 0xa1b2c3d4ull, 0,
	       0x6005001122334455ull, 0xf000000000000000ull } },
	{ "gen2_cqe_sq_flush", 2, false, 5,
	  /* the image carries no opcode: lib/uk takes it from the WQE at its SQ tail */
	  { .sq = true, .error = true, .major = 1, .minor = 2, .op = 0, .wqe_idx = 0,
	    .ctx = QP_CTX, .qp_id = 0x1234 },
	  4, { 0, QP_CTX, 0x0000123400000000ull, 0xc080000000010002ull } },
	{ "gen3_cqe_sq_send_success", 3, true, 0,
	  { .sq = true, .op = 3, .ctx = QP_CTX, .qp_id = 0x1234, .stat = 0x1234 },
	  8, { 0x0000123400000000ull, QP_CTX, 0x0000123400000000ull, 0xc300000000000000ull } },
	{ "gen3_cqe_rq_recv_inv", 3, true, 2,
	  { .op = 4, .bytes = 0x100, .ctx = QP_CTX, .qp_id = 0x1234, .inv_or_ipv4 = true,
	    .inv_stag_or_src_qpn = 0xdead00, .solicited = true },
	  8, { 0x100, QP_CTX, 0x0000123400dead00ull, 0x8460000000000000ull } },
	{ "gen3_cqe_rq_imm_ext64", 3, true, 3,
	  { .op = 0, .wqe_idx = 4, .bytes = 64, .ctx = QP_CTX, .qp_id = 0x1234,
	    .imm_valid = true, .imm = 0xa1b2c3d4, .smac_valid = true,
	    .smac = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 }, .vlan_valid = true, .vlan = 0x6005 },
	  8, { 0x40, QP_CTX, 0x0000123400000000ull, 0x8004000400000000ull, 0xa1b2c3d4ull, 0,
	       0x6005001122334455ull, 0xf000000000000000ull } },
	{ "gen3_cqe_sq_flush", 3, true, 4,
	  { .sq = true, .error = true, .major = 1, .minor = 2, .op = 0, .ctx = QP_CTX,
	    .qp_id = 0x1234 },
	  8, { 0, QP_CTX, 0x0000123400000000ull, 0xc080000000010002ull } },
};

static void setup(struct soft_dev *dev, struct soft_cq *cq, uint8_t *ring, uint64_t *shadow,
		  uint8_t gen, bool cqe64, uint32_t size)
{
	memset(dev, 0, sizeof(*dev));
	dev->gen = gen;
	snprintf(dev->name, sizeof(dev->name), "cqe_test");
	memset(cq, 0, sizeof(*cq));
	cq->base = ring;
	cq->size = size;
	cq->cqe64 = cqe64;
	cq->shadow = shadow;
	cq->polarity = 1;
	cq->eventfd = -1;
}

T_CASE(cqe_images_match_golden_vectors)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		const struct cqe_case *k = &cases[i];
		uint64_t ring[8 * 8], shadow[8];
		struct soft_dev dev;
		struct soft_cq cq;
		const uint64_t *slot;

		memset(ring, 0, sizeof(ring));
		memset(shadow, 0, sizeof(shadow));
		setup(&dev, &cq, (uint8_t *)ring, shadow, k->gen, k->cqe64, 8);
		/* software consumed everything before head_before */
		cq.head = k->head_before;
		shadow[0] = k->head_before;
		T_EQ(soft_cqe_write(&dev, &cq, &k->c), 0);
		slot = ring + k->head_before * (k->cqe64 ? 8 : 4);
		T_MEMEQ(slot, k->q, k->nq * 8);
		if (t_case_failures) {
			printf("# vector %s\n", k->name);
			break;
		}
		T_EQ(cq.head, k->head_before + (k->nq == 8 && !k->cqe64 ? 2 : 1));
	}
}

/* Slots in use come from the consumer index software publishes; the CQE that would fill
 * the last free slot is refused (and nothing is written). */
T_CASE(cqe_overflow_writes_nothing)
{
	struct soft_cqe c = { .sq = true, .op = 3, .ctx = QP_CTX, .qp_id = 7 };
	uint64_t ring[4 * 9], shadow[8];
	struct soft_dev dev;
	struct soft_cq cq;
	unsigned int i;

	memset(ring, 0, sizeof(ring));
	memset(shadow, 0, sizeof(shadow));
	ring[4 * 8] = 0x5a5a5a5a5a5a5a5aull; /* just past the ring */
	setup(&dev, &cq, (uint8_t *)ring, shadow, 2, false, 8);
	for (i = 0; i < 7; i++)
		T_EQ(soft_cqe_write(&dev, &cq, &c), 0);
	T_EQ(soft_cqe_write(&dev, &cq, &c), -ENOSPC);
	T_EQ(cq.overflowed, true);
	T_EQ(dev.st.cq_overflows, 1);
	T_EQ(ring[4 * 7 + 3], 0); /* the refused slot is untouched */
	T_EQ(ring[4 * 8], 0x5a5a5a5a5a5a5a5aull);
	/* an extended CQE needs two slots in 32-byte mode */
	setup(&dev, &cq, (uint8_t *)ring, shadow, 2, false, 8);
	memset(ring, 0, 8 * 32);
	shadow[0] = 0;
	for (i = 0; i < 6; i++)
		T_EQ(soft_cqe_write(&dev, &cq, &c), 0);
	c.imm_valid = true;
	T_EQ(soft_cqe_write(&dev, &cq, &c), -ENOSPC);
	/* once software consumed, it fits again (in the next pass, polarity 0) */
	setup(&dev, &cq, (uint8_t *)ring, shadow, 2, false, 8);
	cq.head = 7;
	shadow[0] = 7;
	T_EQ(soft_cqe_write(&dev, &cq, &c), 0); /* main slot 7, extension slot 0 (next pass) */
	T_EQ(ring[4 * 7 + 3] >> 63, 1);
	T_EQ(ring[3] >> 63, 0);
	T_EQ(cq.head, 1);
	T_EQ(cq.polarity, 0);
}

/* The send-success writer of the completion path: the same qwords as soft_cqe_write() for
 * every send vector without error, across a ring wrap; a CQE that does not fit is refused
 * without touching the ring or the CQ's state (soft_cqe_write reports the overflow). */
T_CASE(cqe_sq_ok_writer_matches_soft_cqe_write)
{
	uint64_t ring[8 * 8], ref[8 * 8], shadow[8], shadow_ref[8];
	unsigned int i, k;

	for (i = 0; i < RTE_DIM(cases); i++) {
		const struct cqe_case *v = &cases[i];
		struct soft_dev dev, dref;
		struct soft_cq cq, cref;
		struct soft_cqe c = v->c;

		if (!v->c.sq || v->c.error)
			continue;
		c.stat = 0; /* the device never reports a PSN in a send CQE */
		memset(ring, 0, sizeof(ring));
		memset(ref, 0, sizeof(ref));
		memset(shadow, 0, sizeof(shadow));
		memset(shadow_ref, 0, sizeof(shadow_ref));
		setup(&dev, &cq, (uint8_t *)ring, shadow, v->gen, v->cqe64, 8);
		setup(&dref, &cref, (uint8_t *)ref, shadow_ref, v->gen, v->cqe64, 8);
		/* 7 slots usable: write 20 CQEs, software consuming as it goes (wraps twice) */
		for (k = 0; k < 20; k++) {
			c.wqe_idx = k * 3;
			T_EQ(soft_cqe_write(&dref, &cref, &c), 0);
			T_EQ(soft_cqe_write_sq_ok(&dev, &cq, c.qp_id, c.ctx, c.op, c.wqe_idx), 0);
			shadow[0] = shadow_ref[0] = cq.head;
		}
		T_MEMEQ(ring, ref, sizeof(ring));
		T_EQ(cq.head, cref.head);
		T_EQ(cq.polarity, cref.polarity);
		T_EQ(cq.n_cqes, 20);
		/* full: refused, nothing written, no error state */
		shadow[0] = cq.head;
		for (k = 0; k < 7; k++)
			T_EQ(soft_cqe_write_sq_ok(&dev, &cq, 7, QP_CTX, 0, k), 0);
		memcpy(ref, ring, sizeof(ring));
		T_EQ(soft_cqe_write_sq_ok(&dev, &cq, 7, QP_CTX, 0, 9), -ENOSPC);
		T_MEMEQ(ring, ref, sizeof(ring));
		T_EQ(cq.overflowed, false);
		T_EQ(dev.st.cq_overflows, 0);
		if (t_case_failures) {
			printf("# vector %s\n", v->name);
			break;
		}
	}
}

/* The writers count the room from the consumer index only when the slots counted free at
 * the last look are used up: a consumer that moved on meanwhile is seen then, never a slot
 * too many is taken, and a CQ in its error state takes no CQE however much room is left. */
T_CASE(cqe_room_counted_once_never_overcommits)
{
	uint64_t ring[8 * 8], shadow[8];
	struct soft_cqe ext = cases[3].c; /* GEN_2, 32-byte: two slots */
	struct soft_dev dev;
	struct soft_cq cq;
	unsigned int k, n = 0;

	memset(ring, 0, sizeof(ring));
	memset(shadow, 0, sizeof(shadow));
	setup(&dev, &cq, (uint8_t *)ring, shadow, 2, false, 8);
	for (k = 0; k < 3; k++)
		T_EQ(soft_cqe_write_sq_ok(&dev, &cq, 7, QP_CTX, 0, k), 0);
	shadow[0] = 3; /* software consumed those three */
	while (soft_cqe_write_sq_ok(&dev, &cq, 7, QP_CTX, 0, n) == 0 && n < 16)
		n++;
	T_EQ(n, 7); /* 7 usable slots, all free again after the consumer moved */
	T_EQ(cq.head, 2);
	T_EQ(cq.overflowed, false);
	shadow[0] = 5; /* two slots free */
	T_EQ(soft_cqe_write_sq_ok(&dev, &cq, 7, QP_CTX, 0, 1), 0);
	/* one free slot: the two-slot CQE does not fit and the CQ enters its error state */
	T_EQ(soft_cqe_write(&dev, &cq, &ext), -ENOSPC);
	T_EQ(cq.overflowed, true);
	T_EQ(dev.st.cq_overflows, 1);
	T_EQ(cq.head, 3);
	T_EQ(soft_cqe_write_sq_ok(&dev, &cq, 7, QP_CTX, 0, 2), -ENOSPC);
	T_EQ(soft_cqe_write(&dev, &cq, &cases[1].c), -ENOSPC);
	T_EQ(dev.st.cq_overflows, 1);
	T_EQ(cq.head, 3);
	T_EQ(cq.n_cqes, 11);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
