/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Zero-copy transmit (soft_tx_zcopy.c) on two net_ring ethdevs wired crosswise. A chained
 * frame (headers, the payload by reference into registered memory, pad + ICRC) has the
 * bytes the copy path builds; RDMA WRITEs from DPDK memory leave by reference and arrive
 * byte for byte, and every descriptor comes back once the peer freed the frames; WRITEs
 * from memory DPDK does not know (posix_memalign), or from two SGEs, are copied; on
 * port=loop (which refuses chains) nothing is chained.
 */
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "soft_test.h"

#include "soft_priv.h"
#include "soft_tx_payload.h"
#include "soft_tx_zcopy.h"

static int open_on(struct t_dev *d, const char *port, uint8_t host)
{
	return t_dev_open_eth(d, port, 7, host, 4096);
}

static struct soft_tx_zc_stats zc_stats(struct t_dev *d)
{
	struct soft_tx_zc_stats st;

	soft_tx_zc_stats_get(soft_dev_from_hw(d->dev), &st);
	return st;
}

/* The frame of p with payload src, chained, against roce_pkt_build()'s copy. */
static void chain_matches_copy(struct soft_dev *dev, const uint8_t *src, uint32_t len)
{
	static uint8_t want[8192], got[8192];
	struct roce_pkt p;
	struct rte_mbuf *m;
	uint8_t *pay;
	uint32_t busy;
	int n;

	memset(&p, 0, sizeof(p));
	p.opcode = ROCE_OP_RC_WRITE_MIDDLE;
	p.dqpn = 0x123;
	p.psn = 0x45678;
	p.pkey = 0xFFFF;
	p.hop_limit = 64;
	p.ip_frag = 0x4000;
	p.sport = 0xC000;
	memcpy(p.dmac, "\x02\x00\x00\x00\x00\x02", 6);
	memcpy(p.smac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(p.sgid, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x07\x00\x01", 16);
	memcpy(p.dgid, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x07\x00\x02", 16);
	p.paylen = len;
	m = soft_wire_alloc(dev, &p, NULL, &pay);
	T_CHECK(m != NULL);
	if (m == NULL)
		return;
	T_CHECK(soft_tx_zc_chain(dev, m, &p, src, soft_tx_hdr_reg(m, &p)) == m);
	T_EQ(m->nb_segs, 3);
	T_CHECK(RTE_MBUF_HAS_EXTBUF(m->next));
	T_CHECK(rte_pktmbuf_mtod(m->next, const uint8_t *) == src); /* by reference */
	p.payload = src;
	n = roce_pkt_build(&p, want, sizeof(want));
	T_EQ((int)m->pkt_len, n);
	T_CHECK(rte_pktmbuf_read(m, 0, m->pkt_len, got) == got); /* gathered from 3 segments */
	T_MEMEQ(got, want, (size_t)n);
	{
		struct soft_tx_zc_stats st;

		soft_tx_zc_stats_get(dev, &st);
		busy = st.busy;
		rte_pktmbuf_free(m);
		soft_tx_zc_stats_get(dev, &st);
		T_EQ(st.busy + 1, busy); /* the descriptor is back */
	}
}

T_CASE(zero_copy_over_ring_ethdevs)
{
	struct rte_ring *ab = rte_ring_create("soft_zc_ab", 4096, SOCKET_ID_ANY, 0);
	struct rte_ring *ba = rte_ring_create("soft_zc_ba", 4096, SOCKET_ID_ANY, 0);
	uint8_t *src = rte_zmalloc("zc_src", 65536, 4096), *dst = t_zalloc(65536);
	uint8_t *usr = t_zalloc(65536), *copy = t_zalloc(65536);
	struct irdma_cq_poll_info info;
	struct soft_tx_zc_stats st0, st1;
	struct irdma_sge s[2];
	uint32_t ls, lu, ld, i;
	struct t_pair p;
	int pa, pb;

	T_CHECK(ab != NULL && ba != NULL && src != NULL);
	pa = rte_eth_from_rings("soft_zc_a", &ba, 1, &ab, 1, SOCKET_ID_ANY);
	pb = rte_eth_from_rings("soft_zc_b", &ab, 1, &ba, 1, SOCKET_ID_ANY);
	T_CHECK(pa >= 0 && pb >= 0);
	memset(&p, 0, sizeof(p));
	T_EQ(open_on(&p.da, "net_ring_soft_zc_a", 1), 0);
	T_EQ(open_on(&p.db, "net_ring_soft_zc_b", 2), 0);
	t_devs[0] = &p.da;
	t_devs[1] = &p.db;
	if (soft_dev_from_hw(p.da.dev)->zc == NULL) {
		t_case_skip = "net_ring takes no multi-segment mbufs here, or IOVA is PA";
		goto out;
	}
	/* originals of 1024 bytes and more by reference, retransmissions never */
	T_CHECK(soft_tx_zc_wanted(soft_dev_from_hw(p.da.dev)->zc, SOFT_TX_ZC_MIN, false));
	T_CHECK(!soft_tx_zc_wanted(soft_dev_from_hw(p.da.dev)->zc, SOFT_TX_ZC_MIN - 1, false));
	T_CHECK(!soft_tx_zc_wanted(soft_dev_from_hw(p.da.dev)->zc, 4096, true));
	T_EQ(t_cq_create(&p.da, &p.ca, 64), 0);
	T_EQ(t_cq_create(&p.db, &p.cb, 64), 0);
	T_EQ(t_qp_create(&p.da, &p.qa, IRDMA_HW_QP_RC, &p.ca, &p.ca, &t_default_caps), 0);
	T_EQ(t_qp_create(&p.db, &p.qb, IRDMA_HW_QP_RC, &p.cb, &p.cb, &t_default_caps), 0);
	T_EQ(t_qp_connect(&p.qa, &p.qb, 4096, T_ACC_ALL), 0);
	t_fill(src, 65536, 7);
	t_fill(usr, 65536, 9);
	memcpy(copy, src, 65536);
	ls = t_mr(&p.da, src, 65536, 0);
	lu = t_mr(&p.da, usr, 65536, 0);
	ld = t_mr(&p.db, dst, 65536, T_ACC_ALL);

	/* the chain has the copy's bytes, and gives its descriptor back when freed */
	chain_matches_copy(soft_dev_from_hw(p.da.dev), src + 5, 3001);

	/* 40000 bytes from DPDK memory: 10 frames, all 10 by reference */
	st0 = zc_stats(&p.da);
	s[0] = (struct irdma_sge){ (uintptr_t)src + 3, 40000, ls };
	T_EQ(t_write(&p.qa, 1, s, 1, (uintptr_t)dst + 1, ld, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_MEMEQ(dst + 1, src + 3, 40000);
	T_MEMEQ(src, copy, 65536); /* only read */
	st1 = zc_stats(&p.da);
	T_EQ(st1.frames - st0.frames, 10);
	T_EQ(st1.fallbacks, st0.fallbacks);
	for (i = 0; i < 100 && zc_stats(&p.da).busy; i++)
		t_progress();
	T_EQ(zc_stats(&p.da).busy, 0); /* the peer freed every chain */

	/* from memory DPDK does not know: copied (the fallback), same bytes */
	memset(dst, 0, 65536);
	st0 = zc_stats(&p.da);
	s[0] = (struct irdma_sge){ (uintptr_t)usr, 20000, lu };
	T_EQ(t_write(&p.qa, 2, s, 1, (uintptr_t)dst, ld, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_MEMEQ(dst, usr, 20000);
	st1 = zc_stats(&p.da);
	T_EQ(st1.frames, st0.frames);
	T_EQ(st1.fallbacks - st0.fallbacks, 5);

	/* a frame's payload across two SGEs: copied, not chained */
	memset(dst, 0, 65536);
	st0 = zc_stats(&p.da);
	s[0] = (struct irdma_sge){ (uintptr_t)src, 2000, ls };
	s[1] = (struct irdma_sge){ (uintptr_t)src + 30000, 3000, ls };
	T_EQ(t_write(&p.qa, 3, s, 2, (uintptr_t)dst, ld, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_MEMEQ(dst, src, 2000);
	T_MEMEQ(dst + 2000, src + 30000, 3000);
	T_EQ(zc_stats(&p.da).frames - st0.frames, 0); /* the second frame is 904 bytes */
	t_qp_destroy(&p.qa);
	t_qp_destroy(&p.qb);
	t_cq_destroy(&p.ca);
	t_cq_destroy(&p.cb);
out:
	t_devs_close(&p.da, NULL, &p.db, NULL);
	rte_free(src);
	free(dst);
	free(usr);
	free(copy);
	rte_ring_free(ab);
	rte_ring_free(ba);
}

T_CASE(loop_refuses_chains)
{
	struct t_dev d;
	uint8_t *src = rte_zmalloc("zc_loop", 4096, 64);

	T_EQ(t_dev_open(&d, 2, 9, 4096), 0);
	T_CHECK(soft_dev_from_hw(d.dev)->zc == NULL);
	T_CHECK(!soft_tx_zc_wanted(soft_dev_from_hw(d.dev)->zc, 4096, false));
	T_EQ(soft_tx_zc_region_ok(soft_dev_from_hw(d.dev), src, 4096), 0);
	t_dev_close(&d);
	rte_free(src);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("soft_zcopy");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
