/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Large transfers over port=loop, the bandwidth path (soft_tx_payload.c's fused copy +
 * ICRC out, soft_rx_fuse.c's fused copy + ICRC check in): RDMA WRITEs of 64 KiB and
 * 1 MiB, and of lengths that leave 1-3 bytes of pad on a last frame long enough to be
 * fused, at path MTU 1024
 * and 4096, land byte for byte and nothing past them; SENDs of the same kind into a
 * receive WQE. No frame is dropped for its ICRC (a wrong register on either side, e.g. a
 * pad or extension header folded or skipped where it should not be, would drop every
 * frame it touches and the WRITE would never complete), none is malformed, and the
 * devices' mbufs in use stay within what their stashes keep.
 */
#include <rte_mempool.h>

#include "soft_test.h"

#include "soft_port.h"
#include "soft_priv.h"
#include "soft_wire.h"

#define BIG (1u << 20)
#define GUARD 64u

/* The device dropped no frame as damaged (ICRC) or malformed. */
static void no_wire_drops(struct t_dev *d)
{
	struct soft_wire_stats st;
	uint64_t icrc, not_roce, malformed;

	soft_wire_stats_read(soft_dev_from_hw(d->dev), &st);
	soft_wire_stats_sums(&st, &icrc, &not_roce, &malformed);
	T_EQ(icrc, 0);
	T_EQ(malformed, 0);
}

static unsigned int pool_in_use(struct t_dev *d)
{
	return rte_mempool_in_use_count(soft_dev_from_hw(d->dev)->pool);
}

/* One WRITE of len bytes from src + soff to dst + doff; 0 when it completed and landed
 * exactly (and the guard bytes after it are untouched). */
static int write_exact(struct t_pair *p, uint8_t *src, uint32_t ls, uint8_t *dst, uint32_t ld,
		       uint32_t soff, uint32_t doff, uint32_t len, uint64_t id)
{
	struct irdma_cq_poll_info info;
	struct irdma_sge s = { (uintptr_t)src + soff, len, ls };
	uint32_t i;

	memset(dst, 0, BIG + GUARD);
	if (t_write(&p->qa, id, &s, 1, (uintptr_t)dst + doff, ld, false) != 0 ||
	    t_poll(&p->ca, &info) != 0 || info.comp_status != IRDMA_COMPL_STATUS_SUCCESS ||
	    info.wr_id != id)
		return -1;
	if (memcmp(dst + doff, src + soff, len) != 0)
		return -2;
	for (i = 0; i < doff; i++)
		if (dst[i] != 0)
			return -3;
	for (i = doff + len; i < BIG + GUARD; i++)
		if (dst[i] != 0)
			return -3;
	return 0;
}

static void writes_at(uint16_t mtu)
{
	/* last frames of 301-303 bytes: pad 3, 2, 1, and long enough to be fused
	 * (SOFT_RX_FUSE_MIN) */
	static const uint32_t lens[] = { 65536, 65536 + 301, 65536 + 302, 65536 + 303,
					 4096 * 3 + 1001, BIG - 8 };
	uint8_t *src = t_zalloc(BIG + GUARD), *dst = t_zalloc(BIG + GUARD);
	unsigned int i, use0 = 0, use1;
	struct t_pair p;
	uint32_t ls, ld;

	T_EQ(t_pair_open(&p, 2, mtu, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, BIG + GUARD, mtu);
	ls = t_mr(&p.da, src, BIG + GUARD, 0);
	ld = t_mr(&p.db, dst, BIG + GUARD, T_ACC_ALL);
	for (i = 0; i < RTE_DIM(lens); i++) {
		T_EQ(write_exact(&p, src, ls, dst, ld, i, 2 * i, lens[i], 100 + i), 0);
		/* 1 MiB exactly, twice: the second must not hold more mbufs than the first */
		T_EQ(write_exact(&p, src, ls, dst, ld, 0, 0, BIG, 200 + i), 0);
		if (i == 0)
			use0 = pool_in_use(&p.da) + pool_in_use(&p.db);
	}
	use1 = pool_in_use(&p.da) + pool_in_use(&p.db);
	printf("# mbufs in use after the first 1 MiB: %u, at the end: %u\n", use0, use1);
	/* what the two devices keep (their stashes, the frames just recycled): bounded, not
	 * growing with the frames moved (1 MiB is 256-1024 frames; one left behind per
	 * frame, or per WRITE, would pass the bound) */
	T_CHECK(use0 <= 4 * SOFT_WIRE_STASH);
	T_CHECK(use1 <= 4 * SOFT_WIRE_STASH);
	no_wire_drops(&p.da);
	no_wire_drops(&p.db);
	t_pair_close(&p);
	free(src);
	free(dst);
}

T_CASE(loop_write_64k_1m_mtu_1024_exact)
{
	writes_at(1024);
}

T_CASE(loop_write_64k_1m_mtu_4096_exact)
{
	writes_at(4096);
}

/* SENDs of 16 KiB + 300..303 bytes (SEND MIDDLE/LAST: the fused scatter into the receive
 * WQE, the last frame with 0-3 bytes of pad) at path MTU 1024, byte for byte. */
T_CASE(loop_send_16k_pad_exact)
{
	uint8_t *src = t_zalloc(20000), *dst = t_zalloc(20000);
	struct irdma_cq_poll_info info;
	struct t_pair p;
	uint32_t ls, ld, k;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_fill(src, 20000, 5);
	ls = t_mr(&p.da, src, 20000, 0);
	ld = t_mr(&p.db, dst, 20000, T_ACC_ALL);
	for (k = 0; k < 4; k++) {
		struct irdma_sge r = { (uintptr_t)dst, 20000, ld };
		struct irdma_sge s = { (uintptr_t)src + k, 16384 + 300 + k, ls };

		memset(dst, 0, 20000);
		T_EQ(t_post_recv(&p.qb, 10 + k, &r, 1), 0);
		T_EQ(t_send(&p.qa, 20 + k, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		T_EQ(info.bytes_xfered, 16384 + 300 + k);
		T_MEMEQ(dst, src + k, 16384 + 300 + k);
		T_EQ(dst[16384 + 300 + k], 0);
	}
	no_wire_drops(&p.db);
	t_pair_close(&p);
	free(src);
	free(dst);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("soft_bw_loop");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
