/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A port the application owns (devargs rxq=/txq=): the application configures and starts
 * two net_ring ports with two queue pairs each, cabled queue to queue (A's tx ring q is B's
 * rx ring q). The devices use queue 1 and never touch the port's configuration; the
 * application's own frames on queue 0 cross untouched while every RDMA operation runs on
 * queue 1. net_ring has no rte_flow: the device says so and carries on. Also the hand-off
 * rules (which frames rte_pmd_irdma_frame_is_mine takes, -ENOTSUP where there is no
 * hand-off, who frees what) and the errors of rxq=/txq=.
 */
#include <stdlib.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include "wire_harness.h"
#include "wire_peer.h"
#include "../integration/itest_log.h"

#define APP_FRAMES 200u
#define APP_LEN    100u

static struct rte_mempool *app_pool;
static uint16_t port_a, port_b;
static struct rte_ring *cable[2][2]; /* [direction a->b, b->a][queue] */
static unsigned int n_ports;
static struct wp srv, cli;
static const uint8_t other[6] = { 0x02, 0, 0, 0, 0, 0x99 }; /* a host on the link */

static void pump(void *arg)
{
	(void)arg;
	wp_server_step(&srv);
}

/* Two ports of two queue pairs, cabled, configured and started as an application does. */
static int app_ports(void)
{
	struct rte_ring *rx[2], *tx[2];
	struct rte_eth_conf conf;
	char name[32];
	uint16_t *port[2] = { &port_a, &port_b };
	int d, q, p;

	for (d = 0; d < 2; d++)
		for (q = 0; q < 2; q++) {
			snprintf(name, sizeof(name), "shc%u_%d%d", n_ports, d, q);
			cable[d][q] = rte_ring_create(name, 4096, SOCKET_ID_ANY, 0);
			if (cable[d][q] == NULL)
				return -1;
		}
	for (d = 0; d < 2; d++) {
		for (q = 0; q < 2; q++) {
			tx[q] = cable[d][q];
			rx[q] = cable[!d][q];
		}
		snprintf(name, sizeof(name), "sh%u%c", n_ports, d ? 'b' : 'a');
		p = rte_eth_from_rings(name, rx, 2, tx, 2, SOCKET_ID_ANY);
		if (p < 0)
			return -1;
		*port[d] = (uint16_t)p;
		memset(&conf, 0, sizeof(conf));
		if (rte_eth_dev_configure((uint16_t)p, 2, 2, &conf) != 0)
			return -1;
		for (q = 0; q < 2; q++)
			if (rte_eth_rx_queue_setup((uint16_t)p, (uint16_t)q, 256, SOCKET_ID_ANY, NULL,
						   app_pool) != 0 ||
			    rte_eth_tx_queue_setup((uint16_t)p, (uint16_t)q, 256, SOCKET_ID_ANY,
						   NULL) != 0)
				return -1;
		if (rte_eth_dev_start((uint16_t)p) != 0)
			return -1;
	}
	n_ports++;
	return 0;
}

static void app_ports_close(void)
{
	int d, q;

	rte_eth_dev_stop(port_a);
	rte_eth_dev_close(port_a);
	rte_eth_dev_stop(port_b);
	rte_eth_dev_close(port_b);
	for (d = 0; d < 2; d++)
		for (q = 0; q < 2; q++) {
			void *m;

			while (rte_ring_dequeue(cable[d][q], &m) == 0)
				rte_pktmbuf_free(m);
			rte_ring_free(cable[d][q]);
		}
}

static void app_frame(uint8_t *f, uint32_t seq)
{
	unsigned int i;

	memset(f, 0, APP_LEN);
	memcpy(f, "\x02\xaa\x00\x00\x00\x02\x02\xaa\x00\x00\x00\x01\x08\x00", 14);
	f[14] = 0x45;
	f[14 + 9] = IPPROTO_UDP;
	f[14 + 20 + 3] = 9; /* UDP dst port 9 */
	memcpy(f + 14 + 28, &seq, sizeof(seq));
	for (i = 14 + 28 + 4; i < APP_LEN; i++)
		f[i] = (uint8_t)(seq + i);
}

/* The application's traffic on queue 0, sent by A while @p busy, checked at B. */
static unsigned int app_traffic(unsigned int n)
{
	uint8_t want[APP_LEN];
	struct rte_mbuf *m;
	unsigned int i, got = 0, bad = 0;

	for (i = 0; i < n; i++) {
		m = rte_pktmbuf_alloc(app_pool);
		if (m == NULL)
			return 0;
		app_frame(rte_pktmbuf_mtod(m, uint8_t *), i);
		m->data_len = m->pkt_len = APP_LEN;
		if (rte_eth_tx_burst(port_a, 0, &m, 1) != 1)
			rte_pktmbuf_free(m);
	}
	while (rte_eth_rx_burst(port_b, 0, &m, 1) == 1) {
		app_frame(want, got);
		if (m->pkt_len != APP_LEN || memcmp(rte_pktmbuf_mtod(m, uint8_t *), want, APP_LEN))
			bad++;
		got++;
		rte_pktmbuf_free(m);
	}
	return bad ? 0 : got;
}

T_CASE(devices_on_queue_1_every_operation_app_traffic_on_queue_0)
{
	char da[256], db[256];

	T_EQ(app_ports(), 0);
	snprintf(da, sizeof(da), "soft,port=net_ring_sh%ua,ip=198.18.0.1,name=shsrv,rxq=1,txq=1",
		 n_ports - 1);
	snprintf(db, sizeof(db), "soft,port=net_ring_sh%ub,ip=198.18.0.2,name=shcli,rxq=1,txq=1",
		 n_ports - 1);
	itest_log_begin();
	T_EQ(wp_open(&srv, "server", da, 2), 0);
	itest_log_end();
	/* net_ring has no flow API: said, with the way out */
	T_LOGGED("cannot steer UDP port 4791 over IPv4 to rx queue 1");
	T_LOGGED("use rxq=app");
	T_EQ(wp_open(&cli, "client", db, 2), 0);
	srv.peer = cli.me;
	cli.peer = srv.me;
	T_EQ(wp_connect(&srv, 10, 7), 0);
	T_EQ(wp_connect(&cli, 10, 7), 0);
	cli.pump = pump;
	T_EQ(app_traffic(APP_FRAMES / 2), APP_FRAMES / 2);
	T_EQ(wp_all_ops(&cli), 0);
	T_EQ(srv.st.errors, 0);
	T_CHECK(srv.st.recvs >= 17 && srv.st.write_imms == 6);
	/* the application's frames never reached the devices: nothing dropped there */
	T_EQ(app_traffic(APP_FRAMES / 2), APP_FRAMES / 2);
	T_EQ(wp_xstat(srv.dev, "rx_drop_dst_mac") + wp_xstat(srv.dev, "rx_drop_dst_ip") +
	     wp_xstat(srv.dev, "rx_drop_not_roce"), 0);
	T_CHECK(wp_xstat(srv.dev, "tx_arp_replies") >= 1);
	/* no hand-off to drain with txq=<n>; frames handed over are still taken (ARP/ND
	 * that RSS gave the application) */
	{
		struct rte_mbuf *m = NULL;

		T_EQ(rte_pmd_irdma_tx_drain(srv.dev, &m, 1), -ENOTSUP);
	}
	wp_close(&cli);
	wp_close(&srv);
	/* the ports are still the application's, started: queue 0 still carries frames */
	T_EQ(app_traffic(10), 10);
	app_ports_close();
}

/* A frame of @p len bytes: Ethernet to @p dst, then @p l3 (EtherType @p type). */
static struct rte_mbuf *frame(const uint8_t dst[6], uint16_t type, const uint8_t *l3,
			      unsigned int len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(app_pool);
	uint8_t *f;

	if (m == NULL)
		return NULL;
	f = rte_pktmbuf_mtod(m, uint8_t *);
	memset(f, 0, 14 + len);
	memcpy(f, dst, 6);
	memcpy(f + 6, other, 6);
	f[12] = (uint8_t)(type >> 8);
	f[13] = (uint8_t)type;
	memcpy(f + 14, l3, len);
	m->data_len = m->pkt_len = 14 + len;
	return m;
}

static int is_mine(struct rte_pmd_irdma_dev *dev, const uint8_t dst[6], uint16_t type,
		   const uint8_t *l3, unsigned int len)
{
	struct rte_mbuf *m = frame(dst, type, l3, len);
	int r = rte_pmd_irdma_frame_is_mine(dev, m);

	rte_pktmbuf_free(m);
	return r;
}

T_CASE(frame_is_mine_and_the_hand_off)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t snm[6] = { 0x33, 0x33, 0xff, 0, 0, 1 };
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev;
	struct rte_mbuf *m[4], *out[4];
	uint8_t v4[64] = { 0x45, [9] = IPPROTO_UDP, [16] = 198, 18, 0, 1, [22] = 0x12, 0xb7 };
	uint8_t v6[96] = { 0x60, [6] = IPPROTO_UDP, [24] = 0xfd, [39] = 1, [42] = 0x12, 0xb7 };
	uint8_t arp[28] = { 0, 1, 8, 0, 6, 4, 0, 1, [24] = 198, 18, 0, 1 };
	uint8_t ns[72] = { 0x60, [6] = 58, [7] = 255, [40] = 135, [48] = 0xfd, [63] = 1 };
	uint8_t vlan[68] = { 0, 5, 0x08, 0 };
	int i, got = 0, k;

	T_EQ(app_ports(), 0);
	{
		char d[160];

		snprintf(d, sizeof(d), "soft,port=net_ring_sh%ua,ip=198.18.0.1,ip6=fd00::1,"
			 "name=hoff,rxq=app,txq=app", n_ports - 1);
		dev = rte_pmd_irdma_dev_create(d);
	}
	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	memcpy(vlan + 4, v4, 64);
	T_EQ(is_mine(dev, info.mac, 0x0800, v4, 64), 1);          /* RoCE v4 to us */
	T_EQ(is_mine(dev, info.mac, 0x86dd, v6, 96), 1);          /* RoCE v6 to us */
	T_EQ(is_mine(dev, info.mac, 0x8100, vlan, 68), 1);        /* one 802.1Q tag */
	T_EQ(is_mine(dev, bcast, 0x0806, arp, 28), 1);            /* ARP for our IPv4 */
	T_EQ(is_mine(dev, snm, 0x86dd, ns, 72), 1);               /* NS for our IPv6 */
	T_EQ(is_mine(dev, other, 0x0800, v4, 64), 0);             /* another host's MAC */
	T_EQ(is_mine(dev, info.mac, 0x0800, v4, 22), 0);          /* too short for UDP */
	v4[19] = 50;
	T_EQ(is_mine(dev, info.mac, 0x0800, v4, 64), 0);          /* RoCE to another IP */
	v4[19] = 1;
	v4[23] = 0xb8;
	T_EQ(is_mine(dev, info.mac, 0x0800, v4, 64), 0);          /* UDP 4792 */
	arp[27] = 9;
	T_EQ(is_mine(dev, bcast, 0x0806, arp, 28), 0);            /* ARP for someone else */
	ns[63] = 2;
	T_EQ(is_mine(dev, snm, 0x86dd, ns, 72), 0);               /* NS for another target */
	T_EQ(is_mine(dev, info.mac, 0x88cc, v4, 64), 0);          /* LLDP */
	T_EQ(rte_pmd_irdma_frame_is_mine(NULL, NULL), 0);

	/* The hand-off takes frames (and frees them: the pool gets them back); an ARP
	 * request handed over is answered through the drain. */
	arp[27] = 1;
	memcpy(arp + 8, other, 6);
	arp[14] = 198, arp[15] = 18, arp[16] = 0, arp[17] = 2;
	for (i = 0; i < 4; i++)
		m[i] = frame(bcast, 0x0806, arp, 28);
	T_EQ(rte_pmd_irdma_rx_burst(dev, m, 4), 4);
	for (i = 0; i < 100 && got < 4; i++) {
		rte_pmd_irdma_progress(dev, 32);
		k = rte_pmd_irdma_tx_drain(dev, out + got, (uint16_t)(4 - got));
		if (k > 0)
			got += k;
	}
	T_EQ(got, 4);
	if (got != 4)
		return;
	for (i = 0; i < 4; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *);

		T_CHECK(memcmp(f, other, 6) == 0 && f[12] == 0x08 && f[13] == 0x06 &&
			f[14 + 7] == 2 /* reply */ && memcmp(f + 14 + 8, info.mac, 6) == 0);
	}
	rte_pktmbuf_free_bulk(out, 4); /* drained frames are the caller's */
	T_EQ(wp_xstat(dev, "rx_arp_requests"), 4);
	T_EQ(wp_xstat(dev, "tx_arp_replies"), 4);
	T_EQ(rte_pmd_irdma_rx_burst(dev, NULL, 1), -EINVAL);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	/* the application's port: still configured and started, its queues unused by us */
	T_EQ(app_traffic(5), 5);
	app_ports_close();

	/* no hand-off on a device that owns its wire */
	dev = rte_pmd_irdma_dev_create("soft,port=loop,name=noho");
	T_CHECK(dev != NULL);
	T_EQ(rte_pmd_irdma_rx_burst(dev, m, 0), -ENOTSUP);
	T_EQ(rte_pmd_irdma_tx_drain(dev, out, 1), -ENOTSUP);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

static void expect_fail(const char *devargs, const char *text)
{
	struct rte_pmd_irdma_dev *dev;

	itest_log_begin();
	dev = rte_pmd_irdma_dev_create(devargs);
	itest_log_end();
	T_CHECK_MSG(dev == NULL, "\"%s\" was accepted", devargs);
	T_LOGGED(text);
	if (dev != NULL)
		rte_pmd_irdma_dev_close(dev);
}

T_CASE(rxq_txq_errors_name_what_is_missing)
{
	char d[160];

	T_EQ(app_ports(), 0);
	snprintf(d, sizeof(d), "soft,port=net_ring_sh%ua,rxq=2,txq=1", n_ports - 1);
	expect_fail(d, "rxq=2 but the application configured 2 rx queues");
	snprintf(d, sizeof(d), "soft,port=net_ring_sh%ua,rxq=1,txq=7", n_ports - 1);
	expect_fail(d, "txq=7 but the application configured 2 tx queues");
	expect_fail("soft,port=loop,rxq=1,txq=1", "rxq= and txq= name queues of an ethdev");
	expect_fail("soft,rxq=1", "rxq= and txq= go together");
	expect_fail("soft,rxq=one,txq=1", "bad value \"one\" for key \"rxq\": expected a queue id");
	expect_fail("soft,rxq=1,txq=1024", "bad value \"1024\" for key \"txq\"");
	expect_fail("soft,txq=1,txq=app", "key \"txq\" given 2 times");
	app_ports_close();
}

int main(int argc, char **argv)
{
	wh_eal_init("shared", "0", NULL);
	app_pool = rte_pktmbuf_pool_create("app_pool", 4095, 128, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					   SOCKET_ID_ANY);
	if (app_pool == NULL)
		t_skip_all("no mbuf pool");
	return t_main(argc, argv);
}
