/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device on a DPDK ethdev instead of port=loop: two net_ring ports wired crosswise
 * (what one transmits the other receives) carry the RoCEv2 frames between two devices.
 * RC SEND/WRITE/READ and UD SEND are checked byte for byte, and traffic that is not RoCE
 * (an ARP frame) is counted, not delivered.
 */
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "soft_test.h"

static int open_on(struct t_dev *d, const char *port, uint8_t host)
{
	return t_dev_open_eth(d, port, 9, host, 1024);
}

T_CASE(rc_and_ud_over_ring_ethdevs)
{
	struct rte_ring *ab = rte_ring_create("soft_t_ab", 4096, SOCKET_ID_ANY, 0);
	struct rte_ring *ba = rte_ring_create("soft_t_ba", 4096, SOCKET_ID_ANY, 0);
	uint8_t *src = t_zalloc(8192), *dst = t_zalloc(8192), *back = t_zalloc(8192);
	struct irdma_cq_poll_info info;
	struct irdma_sge s, r;
	uint32_t ls, ld, lb;
	int pa, pb;
	struct t_pair p;

	T_CHECK(ab != NULL && ba != NULL);
	pa = rte_eth_from_rings("soft_ring_a", &ba, 1, &ab, 1, SOCKET_ID_ANY);
	pb = rte_eth_from_rings("soft_ring_b", &ab, 1, &ba, 1, SOCKET_ID_ANY);
	T_CHECK(pa >= 0 && pb >= 0);
	memset(&p, 0, sizeof(p));
	/* net_ring names its ports net_ring_<name> */
	/* an unknown port is refused with a clear error */
	T_EQ(open_on(&p.da, "no_such_port", 1), -ENODEV);
	T_EQ(open_on(&p.da, "net_ring_soft_ring_a", 1), 0);
	T_EQ(open_on(&p.db, "net_ring_soft_ring_b", 2), 0);
	t_devs[0] = &p.da;
	t_devs[1] = &p.db;
	T_EQ(t_pair_link(&p, 1024, &t_default_caps, T_ACC_ALL), 0);

	t_fill(src, 8192, 31);
	ls = t_mr(&p.da, src, 8192, 0);
	ld = t_mr(&p.db, dst, 8192, T_ACC_ALL);
	lb = t_mr(&p.da, back, 8192, IRDMA_HW_ACCESS_LOCAL_WRITE);
	/* SEND */
	r = (struct irdma_sge){ (uintptr_t)dst, 8192, ld };
	s = (struct irdma_sge){ (uintptr_t)src, 5000, ls };
	T_EQ(t_post_recv(&p.qb, 1, &r, 1), 0);
	T_EQ(t_send(&p.qa, 2, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(info.bytes_xfered, 5000);
	T_MEMEQ(dst, src, 5000);
	/* WRITE then READ back */
	memset(dst, 0, 8192);
	s = (struct irdma_sge){ (uintptr_t)src + 100, 7000, ls };
	T_EQ(t_write(&p.qa, 3, &s, 1, (uintptr_t)dst + 1, ld, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_MEMEQ(dst + 1, src + 100, 7000);
	s = (struct irdma_sge){ (uintptr_t)back, 7000, lb };
	T_EQ(t_read(&p.qa, 4, &s, 1, (uintptr_t)dst + 1, ld), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
	T_MEMEQ(back, src + 100, 7000);
	/* 5000 bytes = 5 frames + 7 + 1 READ request = 13 request frames from A */
	T_EQ(t_xstat(p.da.dev, -1, "tx_packets"), 13 + 0);
	T_EQ(t_xstat(p.db.dev, -1, "rx_packets"), 13);
	T_EQ(t_xstat(p.db.dev, -1, "rx_icrc_errors"), 0);

	/* UD: 300 bytes behind the 40-byte GRH area */
	{
		struct irdma_post_sq_info si;
		struct irdma_hw_av av;
		struct t_qp ua, ub;
		uint32_t ah;

		T_EQ(t_qp_create(&p.da, &ua, IRDMA_HW_QP_UD, &p.ca, &p.ca, &t_default_caps), 0);
		T_EQ(t_qp_create(&p.db, &ub, IRDMA_HW_QP_UD, &p.cb, &p.cb, &t_default_caps), 0);
		T_EQ(t_qp_connect_one(&ua, NULL, 1024, 0, 1, 0), 0);
		T_EQ(t_qp_connect_one(&ub, NULL, 1024, 0, 1, 0), 0);
		memset(&av, 0, sizeof(av));
		t_gid_of(&p.db, av.dgid);
		av.sgid_index = 1;
		av.vlan_id = 0xFFFF;
		memcpy(av.dmac, p.db.info.mac, 6);
		T_EQ(hw->ah_create(p.da.dev, p.da.pd, &av, &ah), 0);
		memset(dst, 0, 8192);
		T_EQ(t_post_recv(&ub, 5, &r, 1), 0);
		s = (struct irdma_sge){ (uintptr_t)src, 300, ls };
		t_sq_info(&si, 6, IRDMA_OP_TYPE_SEND);
		si.op.send.sg_list = &s;
		si.op.send.num_sges = 1;
		si.op.send.qkey = 0x11111111;
		si.op.send.dest_qp = ub.id;
		si.op.send.ah_id = ah;
		T_EQ(irdma_uk_send(&ua.uk, &si, true), 0);
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(info.wr_id, 6);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, 5);
		T_EQ(info.bytes_xfered, 340);
		T_EQ(info.ud_src_qpn, ua.id);
		T_MEMEQ(info.ud_smac, p.da.info.mac, 6);
		T_MEMEQ(dst + 40, src, 300);
		T_EQ(hw->ah_destroy(p.da.dev, ah), 0);
		t_qp_destroy(&ua);
		t_qp_destroy(&ub);
	}

	/* A frame that is not RoCE (ARP) reaching B is counted and ignored. */
	{
		struct rte_mempool *mp = rte_pktmbuf_pool_create("soft_t_mp", 63, 0, 0, 2048,
								 SOCKET_ID_ANY);
		struct rte_mbuf *m = mp ? rte_pktmbuf_alloc(mp) : NULL;
		uint8_t frame[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
		char *f = m ? rte_pktmbuf_append(m, sizeof(frame)) : NULL;

		frame[12] = 0x08;
		frame[13] = 0x06; /* ARP */
		T_CHECK(f != NULL);
		if (f) {
			memcpy(f, frame, sizeof(frame));
			T_EQ(rte_eth_tx_burst((uint16_t)pa, 0, &m, 1), 1);
			t_progress();
			T_EQ(t_xstat(p.db.dev, -1, "rx_not_roce"), 1);
		}
		rte_mempool_free(mp);
	}
	t_pair_close(&p);
	rte_eth_dev_close((uint16_t)pa);
	rte_eth_dev_close((uint16_t)pb);
	rte_ring_free(ab);
	rte_ring_free(ba);
	free(src);
	free(dst);
	free(back);
}

/*
 * port=loop: the devices allocate from one mempool, made by the first and freed by the last
 * (a device's received frames go back into its own stash for the frames it sends). Twice as
 * many frames as the pool holds cross the loop, each WRITE's bytes arrive intact, and no
 * mbuf is left behind: what the pool lacks is at most what the stashes and backlogs hold.
 */
T_CASE(loop_devices_share_one_pool_and_recycle_frames)
{
	uint8_t *src = t_zalloc(4096), *dst = t_zalloc(4096);
	struct irdma_cq_poll_info info;
	struct rte_mempool *mp;
	uint32_t ls, ld, i;
	struct t_pair p;

	T_CHECK(rte_mempool_lookup("irdma_loop_mb") == NULL);
	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	mp = rte_mempool_lookup("irdma_loop_mb");
	T_CHECK(mp != NULL);
	ls = t_mr(&p.da, src, 4096, 0);
	ld = t_mr(&p.db, dst, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE);
	/* 8192 WRITEs of one frame each (payloads of 8 to 1024 bytes), and as many ACKs */
	for (i = 0; i < 8192; i++) {
		uint32_t len = 8 + (i * 8) % 1017, off = (i * 64) % 2048;
		struct irdma_sge s = { (uintptr_t)src + off, len, ls };

		t_fill(src + off, len, i);
		T_EQ(t_write(&p.qa, i, &s, 1, (uintptr_t)dst + off, ld, false), 0);
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(info.wr_id, i);
		T_EQ(info.error, 0);
		if (memcmp(dst + off, src + off, len) != 0) {
			T_CHECK_MSG(0, "WRITE %u: bytes differ", i);
			break;
		}
	}
	for (i = 0; i < 64; i++)
		t_progress();
	/* stashes (32 each) and the per-lcore cache of the pool are all that is not back */
	T_CHECK_MSG(rte_mempool_in_use_count(mp) <= 2 * 32 + 1, "in use %u",
		    rte_mempool_in_use_count(mp));
	T_CHECK(rte_mempool_in_use_count(mp) + rte_mempool_avail_count(mp) == mp->size);
	t_qp_destroy(&p.qa);
	t_qp_destroy(&p.qb);
	t_cq_destroy(&p.ca);
	t_cq_destroy(&p.cb);
	t_dev_close(&p.da);
	T_CHECK(rte_mempool_lookup("irdma_loop_mb") == mp); /* B still uses it */
	t_dev_close(&p.db);
	T_CHECK(rte_mempool_lookup("irdma_loop_mb") == NULL);
	free(src);
	free(dst);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("wire");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
