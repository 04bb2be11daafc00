/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exhaustion on the wire side, one device on a net_ring port whose frames the test holds:
 *  - the queue of frames waiting for ARP (256 per peer): the frames past it are dropped and
 *    counted (tx_drop_neigh_full), the 256 leave in order once the peer answers;
 *  - the device's mbuf pool (4095): frames the transport cannot build are counted
 *    (tx_drop_no_mbuf), nothing crashes, and once the port gives the mbufs back a QP's
 *    retransmission goes out whole; at the end every mbuf is back in the pool.
 */
#include <stdlib.h>

#include <rte_malloc.h>
#include <rte_mempool.h>

#include "roce_pkt.h"
#include "tool_qp.h"
#include "wire_harness.h"
#include "wire_peer.h"

#define NQP_MAX 48u
#define MSG     (64u << 10) /* 64 packets at MTU 1024 */

static struct rte_mempool *pool;
static struct rte_ring *in, *out;
static struct rte_pmd_irdma_dev *dev;
static struct rte_pmd_irdma_pd *pd;
static struct rte_pmd_irdma_cq *cq;
static struct rte_pmd_irdma_mr *mr;
static struct rte_pmd_irdma_qp *qps[NQP_MAX];
static uint8_t *buf;
static unsigned int n_dev;

static const uint8_t mac_us[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t mac_peer[6] = { 0x02, 0, 0, 0, 0, 0x09 };

/* A device on its own net_ring pair with rings of @p ring_size (the test holds what it
 * sends). */
static int open_dev(unsigned int ring_size, const char *extra)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 4096, .comp_fd = -1 };
	char n[64], args[256];
	int port;

	snprintf(n, sizeof(n), "wex%u_in", n_dev);
	in = rte_ring_create(n, ring_size, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(n, sizeof(n), "wex%u_out", n_dev);
	out = rte_ring_create(n, ring_size, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(n, sizeof(n), "wex%u", n_dev);
	if (in == NULL || out == NULL)
		return -1;
	port = rte_eth_from_rings(n, &in, 1, &out, 1, SOCKET_ID_ANY);
	if (port < 0)
		return -1;
	snprintf(args, sizeof(args), "soft,port=net_ring_%s,ip=198.18.0.1,mac=02:00:00:00:00:01,"
		 "name=wex%u,gen=2%s", n, n_dev, extra);
	n_dev++;
	dev = rte_pmd_irdma_dev_create(args);
	if (dev == NULL)
		return -1;
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = rte_pmd_irdma_cq_create(dev, &ca);
	buf = rte_zmalloc(NULL, MSG, 4096);
	if (pd == NULL || cq == NULL || buf == NULL)
		return -1;
	mr = rte_pmd_irdma_reg_mr(pd, buf, MSG, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	return mr != NULL ? 0 : -1;
}

static int qp_open(unsigned int i, uint8_t timeout)
{
	static const uint8_t peer[16] = { [10] = 0xff, [11] = 0xff, 198, 18, 0, 9 };
	struct rte_pmd_irdma_qp_cap cap = { 8, 8, 1, 1, 0 };
	struct tool_qp_conn c;

	qps[i] = tool_qp_create(pd, cq, NULL, RTE_PMD_IRDMA_QPT_RC, &cap);
	if (qps[i] == NULL)
		return -1;
	/* No remote access, PSNs 0, no reads, RNR retry 0: only the window of WRITEs matters. */
	tool_qp_conn_init(&c);
	c.dest_qpn = 0x100 + i;
	c.max_dest_rd_atomic = 0;
	c.min_rnr_timer = 0;
	c.sgid_index = 1;
	memcpy(c.dgid, peer, 16);
	c.timeout = timeout;
	c.rnr_retry = 0;
	c.max_rd_atomic = 0;
	return tool_qp_connect(qps[i], &c, NULL, 0);
}

/* Two WRITEs of 64 KiB: 128 packets, the requester's whole window. */
static int post_window(unsigned int i)
{
	struct rte_pmd_irdma_sge s = { (uintptr_t)buf, MSG, mr->lkey };
	struct rte_pmd_irdma_send_wr wr[2];
	int err = 0, k;

	memset(wr, 0, sizeof(wr));
	for (k = 0; k < 2; k++) {
		wr[k].wr_id = i * 2 + (unsigned int)k;
		wr[k].sg_list = &s;
		wr[k].num_sge = 1;
		wr[k].opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr[k].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
		wr[k].wr.rdma.remote_addr = 0x7000000000ull;
		wr[k].wr.rdma.rkey = 0x1234;
	}
	return rte_pmd_irdma_post_send(qps[i], wr, 2, &err) == 2 ? 0 : err;
}

static void step(unsigned int n)
{
	while (n--)
		rte_pmd_irdma_progress(dev, 64);
}

/* Frees what the device sent; counts the RoCE frames and (via *arps) ARP requests. */
static unsigned int drain(unsigned int *arps)
{
	struct rte_mbuf *m;
	unsigned int roce = 0;

	while (rte_ring_dequeue(out, (void **)&m) == 0) {
		const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);

		if (f[12] == 0x08 && f[13] == 0x06) {
			if (arps)
				(*arps)++;
		} else {
			roce++;
		}
		rte_pktmbuf_free(m);
	}
	return roce;
}

static void close_dev(unsigned int nqp)
{
	struct rte_pmd_irdma_wc wc[64];
	unsigned int i;

	for (i = 0; i < nqp; i++)
		if (qps[i] != NULL)
			T_EQ(rte_pmd_irdma_qp_destroy(qps[i]), 0);
	while (rte_pmd_irdma_poll_cq(cq, wc, 64) > 0)
		;
	T_EQ(rte_pmd_irdma_dereg_mr(mr), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	drain(NULL);
	rte_free(buf);
}

static void inject_arp_reply(void)
{
	uint8_t f[60] = { 0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x09, 0x08, 0x06,
			  0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x02 };
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	memcpy(f + 22, mac_peer, 6);
	memcpy(f + 28, (const uint8_t[4]){ 198, 18, 0, 9 }, 4);
	memcpy(f + 32, mac_us, 6);
	memcpy(f + 38, (const uint8_t[4]){ 198, 18, 0, 1 }, 4);
	memcpy(rte_pktmbuf_append(m, sizeof(f)), f, sizeof(f));
	T_EQ(rte_ring_enqueue(in, m), 0);
}

T_CASE(arp_wait_queue_full_drops_and_counts_the_rest_then_releases_256_in_order)
{
	unsigned int i, arps = 0, roce;

	T_EQ(open_dev(4096, ""), 0);
	for (i = 0; i < 3; i++) {
		T_EQ(qp_open(i, 20), 0);
		T_EQ(post_window(i), 0);
	}
	step(64);
	/* 3 windows of 128 frames for one unresolved peer: 256 wait, 128 are dropped */
	T_EQ(wp_xstat(dev, "tx_drop_neigh_full"), 128);
	roce = drain(&arps);
	T_EQ(roce, 0);
	T_CHECK(arps >= 1);
	inject_arp_reply();
	step(64);
	T_EQ(wp_xstat(dev, "neigh_resolved"), 1);
	T_EQ(drain(NULL), 256);
	T_EQ(wp_xstat(dev, "tx_drop_neigh_full"), 128);
	close_dev(3);
}

static struct rte_mempool *dev_pool;

static void find_pool(struct rte_mempool *mp, void *arg)
{
	(void)arg;
	if (strncmp(mp->name, "irdma_mb_", 9) == 0)
		dev_pool = mp;
}

T_CASE(empty_mbuf_pool_is_counted_and_a_retransmission_goes_out_whole_after)
{
	const unsigned int nqp = 40; /* 40 windows of 128 frames: more than the pool's 4095 */
	unsigned int i, sent;
	uint64_t lost, before, t0;

	T_EQ(open_dev(16384, ",neigh=198.18.0.9@02:00:00:00:00:09"), 0);
	dev_pool = NULL;
	rte_mempool_walk(find_pool, NULL);
	T_CHECK(dev_pool != NULL);
	for (i = 0; i < nqp; i++) {
		T_EQ(qp_open(i, i == 0 ? 12 : 20), 0); /* QP 0: ACK timeout ~16 ms */
		T_EQ(post_window(i), 0);
	}
	step(400);
	lost = wp_xstat(dev, "tx_drop_no_mbuf");
	T_CHECK_MSG(lost >= 1 && lost != UINT64_MAX, "tx_drop_no_mbuf %lu", (unsigned long)lost);
	/* the pool is spent (a frame is one mbuf, or a chain with zero-copy transmit) and
	 * not every frame found one */
	T_CHECK(rte_mempool_in_use_count(dev_pool) >= 3800 && rte_ring_count(out) < nqp * 128);
	printf("# %u frames (%u mbufs) held by the port, %lu times no mbuf\n",
	       rte_ring_count(out), rte_mempool_in_use_count(dev_pool), (unsigned long)lost);
	/* the port gives everything back; all QPs but QP 0 go away */
	drain(NULL);
	for (i = 1; i < nqp; i++) {
		T_EQ(rte_pmd_irdma_qp_destroy(qps[i]), 0);
		qps[i] = NULL;
	}
	/* QP 0 times out and sends its window again, whole: let a resend already under way
	 * finish, forget it, then count the next one (from its first frame) */
	step(400);
	drain(NULL);
	before = wp_qp_xstat(qps[0], "retransmits");
	t0 = wp_qp_xstat(qps[0], "ack_timeouts");
	{
		uint64_t deadline = rte_get_timer_cycles() + 3 * rte_get_timer_hz();

		while (wp_qp_xstat(qps[0], "ack_timeouts") == t0 &&
		       rte_get_timer_cycles() < deadline)
			rte_pmd_irdma_progress(dev, 1);
		step(64);
		sent = drain(NULL);
	}
	T_CHECK_MSG(wp_qp_xstat(qps[0], "ack_timeouts") > t0, "no ACK timeout in 3 s");
	T_EQ(sent, 128);
	T_CHECK(wp_qp_xstat(qps[0], "retransmits") > before);
	T_EQ(wp_xstat(dev, "tx_drop_no_mbuf"), lost);
	T_EQ(rte_pmd_irdma_qp_destroy(qps[0]), 0);
	qps[0] = NULL;
	drain(NULL);
	/* every mbuf is back but those the device keeps for its next frames */
	T_CHECK_MSG(rte_mempool_in_use_count(dev_pool) <= 32, "%u mbufs still in use",
		    rte_mempool_in_use_count(dev_pool));
	close_dev(nqp);
}

int main(int argc, char **argv)
{
	wh_eal_init("exhaust", "0", NULL);
	pool = rte_pktmbuf_pool_create("wex_test", 255, 0, 0, 2048 + RTE_PKTMBUF_HEADROOM,
				       SOCKET_ID_ANY);
	if (pool == NULL)
		t_skip_all("no mbuf pool");
	return t_main(argc, argv);
}
