/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device as a host on its link, frame by frame: the test plays every other host
 * through a net_ring ethdev (it writes the frames the device receives and reads the ones it
 * sends). GID table, ARP and neighbour-solicitation answers byte for byte, resolution of a
 * peer (and what happens when it never answers), static neighbours, and one drop counter
 * per kind of frame that is not for the device.
 */
#include <stdlib.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "roce_pkt.h"
#include "wire_harness.h"
#include "wire_peer.h"
#include "tool_qp.h"

#define MAC_US   0x02, 0x00, 0x00, 0x00, 0x00, 0x01
#define MAC_PEER 0x02, 0x00, 0x00, 0x00, 0x00, 0x09
#define IP_US    198, 18, 0, 1
#define IP_PEER  198, 18, 0, 9

static struct wh_link lk;
static struct rte_pmd_irdma_dev *dev;
static struct rte_mempool *pool;
static unsigned int n_dev;

static const uint8_t mac_us[6] = { MAC_US };
static const uint8_t mac_peer[6] = { MAC_PEER };

static int open_dev(const char *extra)
{
	char a[32], b[32], args[256];

	snprintf(a, sizeof(a), "warp%ua", n_dev);
	snprintf(b, sizeof(b), "warp%ub", n_dev++);
	if (wh_link_create(&lk, a, b) != 0)
		return -1;
	lk.hold = true;
	snprintf(args, sizeof(args),
		 "soft,port=net_ring_%s,ip=198.18.0.1,ip6=fd00::1,mac=02:00:00:00:00:01,name=arp%u,gen=2%s",
		 a, n_dev, extra ? extra : "");
	dev = rte_pmd_irdma_dev_create(args);
	return dev != NULL ? 0 : -1;
}

static void close_dev(void)
{
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	wh_link_close(&lk);
}

static void inject(const uint8_t *f, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	memcpy(rte_pktmbuf_append(m, len), f, len);
	T_EQ(rte_ring_enqueue(lk.in[0], m), 0);
}

static void step(unsigned int n)
{
	while (n--)
		rte_pmd_irdma_progress(dev, 64);
}

/* The next frame the device sent, copied into @p f; its length, or 0 when none. */
static uint32_t take(uint8_t *f, uint32_t cap)
{
	struct rte_mbuf *m;
	uint32_t len;

	if (rte_ring_dequeue(lk.out[0], (void **)&m) != 0)
		return 0;
	len = RTE_MIN(m->pkt_len, cap);
	memcpy(f, rte_pktmbuf_mtod(m, void *), len);
	rte_pktmbuf_free(m);
	return len;
}

/* Our own one's-complement checksum over the IPv6 pseudo-header and an ICMPv6 message. */
static uint16_t icmp6_sum(const uint8_t *ip6)
{
	uint32_t plen = (uint32_t)ip6[4] << 8 | ip6[5], sum = 58 + plen, i;

	for (i = 8; i < 40; i += 2)
		sum += (uint32_t)ip6[i] << 8 | ip6[i + 1];
	for (i = 0; i < plen; i += 2)
		sum += (uint32_t)ip6[40 + i] << 8 | (i + 1 < plen ? ip6[40 + i + 1] : 0);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static const uint8_t arp_request_for_us[60] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, MAC_PEER, 0x08, 0x06,
	0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01, MAC_PEER, IP_PEER,
	0, 0, 0, 0, 0, 0, IP_US,
};

T_CASE(gid_table_link_local_ipv4_mapped_ipv6)
{
	static const uint8_t g0[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
					0x00, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x01 };
	static const uint8_t g1[16] = { [10] = 0xff, [11] = 0xff, IP_US };
	static const uint8_t g2[16] = { 0xfd, 0x00, [15] = 0x01 };
	union rte_pmd_irdma_gid g;

	T_EQ(open_dev(NULL), 0);
	T_EQ(rte_pmd_irdma_query_gid(dev, 0, &g), 0);
	T_MEMEQ(&g, g0, 16);
	T_EQ(rte_pmd_irdma_query_gid(dev, 1, &g), 0);
	T_MEMEQ(&g, g1, 16);
	T_EQ(rte_pmd_irdma_query_gid(dev, 2, &g), 0);
	T_MEMEQ(&g, g2, 16);
	close_dev();
}

T_CASE(arp_request_gets_exact_reply_and_teaches_the_asker)
{
	static const uint8_t reply[60] = {
		MAC_PEER, MAC_US, 0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x02, MAC_US, IP_US, MAC_PEER, IP_PEER,
	};
	uint8_t f[2048], other[60];

	T_EQ(open_dev(NULL), 0);
	inject(arp_request_for_us, sizeof(arp_request_for_us));
	step(4);
	T_EQ(take(f, sizeof(f)), 60);
	T_MEMEQ(f, reply, 60);
	T_EQ(take(f, sizeof(f)), 0);
	T_EQ(wp_xstat(dev, "rx_arp_requests"), 1);
	T_EQ(wp_xstat(dev, "tx_arp_replies"), 1);
	T_EQ(wp_xstat(dev, "neigh_resolved"), 1);
	/* a request for someone else's address: no answer */
	memcpy(other, arp_request_for_us, 60);
	other[41] = 7;
	inject(other, 60);
	step(4);
	T_EQ(take(f, sizeof(f)), 0);
	T_EQ(wp_xstat(dev, "rx_arp_other"), 1);
	T_EQ(wp_xstat(dev, "tx_arp_replies"), 1);
	/* the port keeps these counters and reports them; a reset of the device's xstats
	 * reaches the port's too, and counting goes on from zero */
	T_EQ(rte_pmd_irdma_xstats_reset(dev), 0);
	T_EQ(wp_xstat(dev, "rx_arp_requests"), 0);
	T_EQ(wp_xstat(dev, "rx_arp_other"), 0);
	T_EQ(wp_xstat(dev, "tx_arp_replies"), 0);
	inject(arp_request_for_us, sizeof(arp_request_for_us));
	step(4);
	T_EQ(take(f, sizeof(f)), 60);
	T_EQ(wp_xstat(dev, "rx_arp_requests"), 1);
	T_EQ(wp_xstat(dev, "tx_arp_replies"), 1);
	close_dev();
}

static uint32_t build_ns(uint8_t *f, const uint8_t target[16], uint8_t hop_limit)
{
	static const uint8_t src[16] = { 0xfe, 0x80, [15] = 0x09 };
	uint8_t *ip = f + 14, *m = ip + 40;
	uint16_t c;

	memset(f, 0, 14 + 40 + 32);
	memcpy(f, (const uint8_t[6]){ 0x33, 0x33, 0xff, target[13], target[14], target[15] }, 6);
	memcpy(f + 6, mac_peer, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	ip[0] = 0x60;
	ip[5] = 32;
	ip[6] = 58;
	ip[7] = hop_limit;
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, (const uint8_t[16]){ 0xff, 0x02, [11] = 1, 0xff, target[13], target[14],
					     target[15] }, 16);
	m[0] = 135;
	memcpy(m + 8, target, 16);
	m[24] = 1;
	m[25] = 1;
	memcpy(m + 26, mac_peer, 6);
	c = icmp6_sum(ip);
	m[2] = (uint8_t)(c >> 8);
	m[3] = (uint8_t)c;
	return 14 + 40 + 32;
}

static void check_na(const uint8_t *f, uint32_t len, const uint8_t target[16])
{
	static const uint8_t dst[16] = { 0xfe, 0x80, [15] = 0x09 };
	const uint8_t *ip = f + 14, *m = ip + 40;

	T_EQ(len, 86);
	T_MEMEQ(f, mac_peer, 6);
	T_MEMEQ(f + 6, mac_us, 6);
	T_CHECK(f[12] == 0x86 && f[13] == 0xdd);
	T_CHECK(ip[0] == 0x60 && ip[4] == 0 && ip[5] == 32 && ip[6] == 58 && ip[7] == 255);
	T_MEMEQ(ip + 8, target, 16);
	T_MEMEQ(ip + 24, dst, 16);
	T_CHECK(m[0] == 136 && m[1] == 0);
	T_EQ(m[4], 0x60); /* solicited + override, not a router */
	T_MEMEQ(m + 8, target, 16);
	T_CHECK(m[24] == 2 && m[25] == 1);
	T_MEMEQ(m + 26, mac_us, 6);
	T_EQ(icmp6_sum(ip), 0);
}

T_CASE(neighbour_solicitation_gets_advertisement_for_global_and_link_local)
{
	static const uint8_t global[16] = { 0xfd, 0x00, [15] = 0x01 };
	static const uint8_t ll[16] = { 0xfe, 0x80, [11] = 0xff, 0xfe, 0x00, 0x00, 0x01 };
	static const uint8_t notours[16] = { 0xfd, 0x00, [15] = 0x02 };
	uint8_t ns[128], f[2048];

	T_EQ(open_dev(NULL), 0);
	inject(ns, build_ns(ns, global, 255));
	step(4);
	check_na(f, take(f, sizeof(f)), global);
	inject(ns, build_ns(ns, ll, 255));
	step(4);
	check_na(f, take(f, sizeof(f)), ll);
	inject(ns, build_ns(ns, notours, 255));
	step(4);
	T_EQ(take(f, sizeof(f)), 0);
	T_EQ(wp_xstat(dev, "rx_nd_solicits"), 3);
	T_EQ(wp_xstat(dev, "tx_nd_adverts"), 2);
	T_EQ(wp_xstat(dev, "rx_nd_other"), 0);
	close_dev();
}

/* A PD, CQ and RC QP in RTS towards 198.18.0.<host> (nobody answers for it but the test). */
struct rc_to {
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
};

static int rc_open(struct rc_to *r, uint8_t host, uint8_t timeout, uint8_t retry)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 64, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_cap cap = { .max_send_wr = 16, .max_recv_wr = 16,
					    .max_send_sge = 1, .max_recv_sge = 1 };
	struct tool_qp_conn c;
	uint8_t gid[16] = { [10] = 0xff, [11] = 0xff, 198, 18, 0, host };

	memset(r, 0, sizeof(*r));
	r->pd = rte_pmd_irdma_pd_alloc(dev);
	r->cq = rte_pmd_irdma_cq_create(dev, &ca);
	r->buf = rte_zmalloc(NULL, 4096, 4096);
	r->mr = rte_pmd_irdma_reg_mr(r->pd, r->buf, 4096, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	r->qp = tool_qp_create(r->pd, r->cq, NULL, RTE_PMD_IRDMA_QPT_RC, &cap);
	if (r->qp == NULL || r->mr == NULL)
		return -1;
	/* the tools' bring-up; no access, PSNs 0, no RNR retries: a peer nobody answers for */
	tool_qp_conn_init(&c);
	c.dest_qpn = 0x77;
	c.max_dest_rd_atomic = 0;
	c.min_rnr_timer = 0;
	c.sgid_index = 1;
	memcpy(c.dgid, gid, 16);
	c.timeout = timeout;
	c.retry_cnt = retry;
	c.rnr_retry = 0;
	return tool_qp_connect(r->qp, &c, NULL, 0);
}

static int rc_send(struct rc_to *r, uint32_t len)
{
	struct rte_pmd_irdma_sge s = { (uintptr_t)r->buf, len, r->mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = 42, .sg_list = &s, .num_sge = 1, .opcode = RTE_PMD_IRDMA_WR_SEND,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
	};
	int err;

	rte_pmd_irdma_post_send(r->qp, &wr, 1, &err);
	return err;
}

static void rc_close(struct rc_to *r)
{
	T_EQ(rte_pmd_irdma_qp_destroy(r->qp), 0);
	T_EQ(rte_pmd_irdma_dereg_mr(r->mr), 0);
	T_EQ(rte_pmd_irdma_cq_destroy(r->cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(r->pd), 0);
	rte_free(r->buf);
}

static void expect_arp_request(const uint8_t *f, uint32_t len, uint8_t host)
{
	const uint8_t req[60] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, MAC_US, 0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01, MAC_US, IP_US,
		0, 0, 0, 0, 0, 0, 198, 18, 0, host,
	};

	T_EQ(len, 60);
	T_MEMEQ(f, req, 60);
}

T_CASE(peer_resolved_by_arp_then_waiting_frames_leave_to_its_mac)
{
	static const uint8_t mac10[6] = { 0x02, 0, 0, 0, 0, 0x0a };
	uint8_t f[2048], rep[60] = {
		MAC_US, 0x02, 0, 0, 0, 0, 0x0a, 0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x02, 0x02, 0, 0, 0, 0, 0x0a, 198, 18, 0, 10,
		MAC_US, IP_US,
	};
	struct rc_to r;
	uint32_t len;

	T_EQ(open_dev(NULL), 0);
	T_EQ(rc_open(&r, 10, 14, 7), 0);
	T_EQ(rc_send(&r, 100), 0);
	step(8);
	expect_arp_request(f, take(f, sizeof(f)), 10);
	T_EQ(take(f, sizeof(f)), 0); /* the SEND waits for the answer */
	inject(rep, sizeof(rep));
	step(8);
	len = take(f, sizeof(f));
	T_CHECK(len >= 14 + 20 + 8 + 12 + 100 + 4);
	T_MEMEQ(f, mac10, 6);
	T_MEMEQ(f + 6, mac_us, 6);
	T_CHECK(f[12] == 0x08 && f[13] == 0x00);
	T_MEMEQ(f + 14 + 16, ((const uint8_t[4]){ 198, 18, 0, 10 }), 4);
	T_CHECK(f[14 + 20 + 2] == 0x12 && f[14 + 20 + 3] == 0xb7); /* UDP 4791 */
	T_EQ(wp_xstat(dev, "neigh_resolved"), 1);
	T_EQ(wp_xstat(dev, "tx_drop_neigh_failed"), 0);
	rc_close(&r);
	close_dev();
}

T_CASE(unresolved_peer_bounded_arp_retries_then_retry_exceeded)
{
	struct rte_pmd_irdma_wc wc;
	uint64_t end = rte_get_timer_cycles() + 3 * rte_get_timer_hz();
	unsigned int requests = 0, others = 0, wcs = 0;
	uint8_t f[2048];
	struct rc_to r;
	uint32_t len;

	T_EQ(open_dev(NULL), 0);
	/* 4.096 us << 12 = 16.8 ms local ACK timeout, 2 retries */
	T_EQ(rc_open(&r, 11, 12, 2), 0);
	T_EQ(rc_send(&r, 64), 0);
	while (rte_get_timer_cycles() < end) {
		int n = rte_pmd_irdma_poll_cq(r.cq, &wc, 1);

		if (n == 1) {
			wcs++;
			T_EQ(wc.status, RTE_PMD_IRDMA_WC_RETRY_EXC_ERR);
			T_EQ(wc.wr_id, 42);
		}
		while ((len = take(f, sizeof(f))) != 0) {
			if (f[12] == 0x08 && f[13] == 0x06) {
				expect_arp_request(f, len, 11);
				requests++;
			} else {
				others++;
			}
		}
	}
	T_EQ(wcs, 1);
	/* 5 requests 100 ms apart, then the peer is held as failed: nothing else went out */
	T_EQ(requests, 5);
	T_EQ(others, 0);
	T_EQ(wp_xstat(dev, "tx_arp_requests"), 5);
	T_EQ(wp_xstat(dev, "neigh_failed"), 1);
	/* the SEND and its 2 retransmissions waited, then were dropped */
	T_EQ(wp_xstat(dev, "tx_drop_neigh_failed"), 3);
	rc_close(&r);
	close_dev();
}

T_CASE(first_window_waits_whole_and_is_released_in_order)
{
	uint8_t f[2048], rep[60] = {
		MAC_US, 0x02, 0, 0, 0, 0, 0x0c, 0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x02, 0x02, 0, 0, 0, 0, 0x0c, 198, 18, 0, 12,
		MAC_US, IP_US,
	};
	struct rc_to r;
	uint64_t built;
	uint32_t len, psn, first = 0;
	unsigned int i, out = 0, in_order = 1;

	T_EQ(open_dev(NULL), 0);
	T_EQ(rc_open(&r, 12, 14, 7), 0);
	for (i = 0; i < 15; i++)
		T_EQ(rc_send(&r, 3000), 0); /* 3 frames each at path MTU 1024: 45 frames */
	step(64);
	expect_arp_request(f, take(f, sizeof(f)), 12);
	T_EQ(take(f, sizeof(f)), 0);
	built = wp_xstat(dev, "tx_packets");
	T_EQ(built, 45);
	/* the whole first window waits: nothing dropped (the queue holds two windows) */
	T_EQ(wp_xstat(dev, "tx_drop_neigh_full"), 0);
	inject(rep, sizeof(rep));
	step(1);
	while ((len = take(f, sizeof(f))) != 0) {
		psn = (uint32_t)f[14 + 20 + 8 + 9] << 16 | f[14 + 20 + 8 + 10] << 8 |
		      f[14 + 20 + 8 + 11];
		if (out == 0)
			first = psn;
		else if (psn != ((first + out) & 0xffffff))
			in_order = 0;
		out++;
	}
	/* the 45 waiting frames leave first, in PSN order */
	T_CHECK(out >= 45);
	T_CHECK(in_order);
	rc_close(&r);
	close_dev();
}

T_CASE(failed_peer_is_asked_again_after_the_hold)
{
	uint64_t end;
	uint8_t f[2048];
	struct rc_to r;
	unsigned int requests = 0;
	uint32_t len;

	T_EQ(open_dev(NULL), 0);
	T_EQ(rc_open(&r, 13, 20, 0), 0);
	T_EQ(rc_send(&r, 8), 0);
	/* 5 requests 100 ms apart, failed at ~500 ms, held until ~1.5 s */
	end = rte_get_timer_cycles() + rte_get_timer_hz() * 13 / 10;
	while (rte_get_timer_cycles() < end) {
		step(1);
		while ((len = take(f, sizeof(f))) != 0)
			requests += f[12] == 0x08 && f[13] == 0x06;
	}
	T_EQ(requests, 5);
	T_EQ(wp_xstat(dev, "neigh_failed"), 1);
	rc_close(&r);
	/* while held, a new frame to it is dropped at once without asking */
	T_EQ(rc_open(&r, 13, 20, 0), 0);
	T_EQ(rc_send(&r, 8), 0);
	step(8);
	T_EQ(take(f, sizeof(f)), 0);
	T_EQ(wp_xstat(dev, "tx_drop_neigh_failed"), 2);
	/* after the hold the next frame asks again */
	end = rte_get_timer_cycles() + rte_get_timer_hz() * 5 / 10;
	while (rte_get_timer_cycles() < end)
		step(1);
	rc_close(&r);
	T_EQ(rc_open(&r, 13, 20, 0), 0);
	T_EQ(rc_send(&r, 8), 0);
	step(8);
	expect_arp_request(f, take(f, sizeof(f)), 13);
	T_EQ(wp_xstat(dev, "tx_arp_requests"), 6);
	rc_close(&r);
	close_dev();
}

T_CASE(static_neighbour_needs_no_arp)
{
	static const uint8_t mac20[6] = { 0x02, 0, 0, 0, 0, 0x20 };
	uint8_t f[2048];
	struct rc_to r;

	T_EQ(open_dev(",neigh=198.18.0.20@02:00:00:00:00:20;fd00::20@02:00:00:00:00:21"), 0);
	T_EQ(rc_open(&r, 20, 14, 7), 0);
	T_EQ(rc_send(&r, 32), 0);
	step(8);
	T_CHECK(take(f, sizeof(f)) > 60);
	T_MEMEQ(f, mac20, 6);
	T_EQ(wp_xstat(dev, "tx_arp_requests"), 0);
	rc_close(&r);
	close_dev();
}

T_CASE(bad_neigh_devargs_are_refused)
{
	static const char *const bad[] = {
		"soft,port=loop,neigh=198.18.0.2",
		"soft,port=loop,neigh=198.18.0.2@01:00:00:00:00:01",
		"soft,port=loop,neigh=198.18.0.300@02:00:00:00:00:01",
		"soft,port=loop,neigh=198.18.0.2@02:00:00:00:00:01;198.18.0.2@02:00:00:00:00:02",
		"soft,port=loop,neigh=;",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		T_CHECK_MSG(rte_pmd_irdma_dev_create(bad[i]) == NULL, "%s accepted", bad[i]);
		T_EQ(rte_errno, EINVAL);
	}
}

/* ---- frames that are not for us ---- */

static uint32_t roce_frame(uint8_t *f, uint32_t dqpn)
{
	struct roce_pkt p;
	static const uint8_t pay[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(&p, 0, sizeof(p));
	memcpy(p.dmac, mac_us, 6);
	memcpy(p.smac, mac_peer, 6);
	memcpy(p.sgid, ((const uint8_t[16]){ [10] = 0xff, [11] = 0xff, IP_PEER }), 16);
	memcpy(p.dgid, ((const uint8_t[16]){ [10] = 0xff, [11] = 0xff, IP_US }), 16);
	p.hop_limit = 64;
	p.ip_frag = 0x4000;
	p.sport = 0xc000;
	p.opcode = 0x04; /* RC SEND_ONLY */
	p.pkey = 0xffff;
	p.dqpn = dqpn;
	p.payload = pay;
	p.paylen = sizeof(pay);
	return (uint32_t)roce_pkt_build(&p, f, 256);
}

struct bad_frame {
	const char *name;
	const char *counter;
	uint32_t len;
	uint8_t f[256];
};

static void mk(struct bad_frame *b, const char *name, const char *counter, const uint8_t *f,
	       uint32_t len)
{
	b->name = name;
	b->counter = counter;
	memcpy(b->f, f, len);
	b->len = len;
}

T_CASE(frames_not_for_us_are_dropped_and_counted_by_reason)
{
	static struct bad_frame b[16];
	struct rte_pmd_irdma_xstat_name names[256];
	struct rte_pmd_irdma_xstat before[256], after[256];
	uint8_t f[256], ns[128], good[256];
	unsigned int nb = 0, i;
	uint32_t glen;
	int n, k;

	T_EQ(open_dev(NULL), 0);
	glen = roce_frame(good, 0x99);
	T_CHECK(glen > 60);

	memcpy(f, arp_request_for_us, 60);
	memcpy(f, (const uint8_t[6]){ 0x02, 0, 0, 0, 0, 0x77 }, 6);
	mk(&b[nb++], "unicast to another MAC", "rx_drop_dst_mac", f, 60);
	memcpy(f, good, glen);
	memset(f, 0xff, 6);
	mk(&b[nb++], "broadcast RoCE", "rx_drop_dst_mac", f, glen);
	memcpy(f, good, glen);
	f[12] = 0x88;
	f[13] = 0xcc;
	mk(&b[nb++], "LLDP", "rx_drop_ethertype", f, glen);
	memcpy(f, good, glen);
	f[14 + 19] = 99;
	mk(&b[nb++], "IPv4 to 198.18.0.99", "rx_drop_dst_ip", f, glen);
	memcpy(f, good, glen);
	f[14 + 20 + 2] = 0;
	f[14 + 20 + 3] = 53;
	mk(&b[nb++], "UDP to port 53", "rx_drop_not_roce", f, glen);
	memcpy(f, good, glen);
	f[14 + 9] = 6;
	mk(&b[nb++], "TCP", "rx_drop_not_roce", f, glen);
	mk(&b[nb++], "10-byte frame", "rx_drop_short", good, 10);
	memcpy(f, arp_request_for_us, 60);
	f[18] = 8;
	mk(&b[nb++], "ARP with hardware length 8", "rx_drop_arp", f, 60);
	memcpy(f, arp_request_for_us, 60);
	f[22] = 0x01;
	mk(&b[nb++], "ARP from a multicast MAC", "rx_drop_arp", f, 60);
	build_ns(ns, (const uint8_t[16]){ 0xfd, 0x00, [15] = 0x01 }, 64);
	mk(&b[nb++], "NS with hop limit 64", "rx_drop_nd", ns, 86);
	build_ns(ns, (const uint8_t[16]){ 0xfd, 0x00, [15] = 0x01 }, 255);
	ns[14 + 40 + 2] ^= 0x40;
	mk(&b[nb++], "NS with a bad checksum", "rx_drop_nd", ns, 86);
	memcpy(f, good, glen);
	f[glen - 1] ^= 0x01;
	mk(&b[nb++], "bad ICRC", "rx_drop_icrc", f, glen);
	memcpy(f, good, glen);
	f[14 + 10] ^= 0x01;
	mk(&b[nb++], "bad IPv4 header checksum", "rx_drop_ip_checksum", f, glen);
	mk(&b[nb++], "valid frame to an unknown QP", "rx_unknown_qp", good, glen);

	n = rte_pmd_irdma_xstats_get_names(dev, names, RTE_DIM(names));
	T_CHECK(n > 0 && n <= (int)RTE_DIM(names));
	for (i = 0; i < nb; i++) {
		T_EQ(rte_pmd_irdma_xstats_get(dev, before, n), n);
		inject(b[i].f, b[i].len);
		step(4);
		T_EQ(take(f, sizeof(f)), 0);
		T_EQ(rte_pmd_irdma_xstats_get(dev, after, n), n);
		for (k = 0; k < n; k++) {
			const char *nm = names[after[k].id].name;
			uint64_t d = after[k].value - before[k].value;

			uint64_t want = strcmp(nm, b[i].counter) == 0;

			if (strcmp(nm, "polls") == 0 || strcmp(nm, "progress_calls") == 0 ||
			    strcmp(nm, "rx_packets") == 0 || strcmp(nm, "rx_bytes") == 0)
				continue;
			/* the summaries are sums of the one count each drop has */
			if (strcmp(nm, "rx_icrc_errors") == 0)
				want = strcmp(b[i].counter, "rx_drop_icrc") == 0;
			else if (strcmp(nm, "rx_malformed") == 0)
				want = strcmp(b[i].counter, "rx_drop_ip_checksum") == 0;
			else if (strcmp(nm, "rx_not_roce") == 0)
				want = strcmp(b[i].counter, "rx_drop_ethertype") == 0 ||
				       strcmp(b[i].counter, "rx_drop_not_roce") == 0 ||
				       strcmp(b[i].counter, "rx_drop_arp") == 0 ||
				       strcmp(b[i].counter, "rx_drop_nd") == 0;
			T_CHECK_MSG(d == want, "%s: %s moved by %lu", b[i].name, nm,
				    (unsigned long)d);
		}
		T_CHECK_MSG(wp_xstat(dev, b[i].counter) != UINT64_MAX, "no counter %s", b[i].counter);
	}
	T_EQ(wp_xstat(dev, "rx_icrc_errors"), 1);
	close_dev();
}

/*
 * Nothing from the wire is trusted: 20,000 frames made from valid ones (RoCEv2 to us, ARP
 * request, NS, NA) with random bytes changed, random lengths and random destination MACs.
 * Nothing breaks (the ASan build runs this too), the device answers only with ARP replies
 * and NAs, and every frame is accounted for in exactly one counter.
 */
T_CASE(mutated_frames_each_end_in_exactly_one_counter)
{
	static const char *const once[] = {
		"rx_packets", "rx_arp_requests", "rx_arp_replies", "rx_nd_solicits",
		"rx_nd_adverts", "rx_nd_other", "rx_drop_dst_mac", "rx_drop_ethertype",
		"rx_drop_dst_ip", "rx_drop_not_roce", "rx_drop_short", "rx_drop_segmented",
		"rx_drop_arp", "rx_drop_nd",
	};
	uint8_t tpl[4][256], f[256], out[2048];
	uint32_t tlen[4], rng = 0xC0FFEE, len;
	uint64_t sum = 0;
	unsigned int i, k, n = 20000, answers = 0, others = 0;

	T_EQ(open_dev(NULL), 0);
	tlen[0] = roce_frame(tpl[0], 0x99);
	memcpy(tpl[1], arp_request_for_us, 60);
	tlen[1] = 60;
	tlen[2] = build_ns(tpl[2], (const uint8_t[16]){ 0xfd, 0x00, [15] = 0x01 }, 255);
	tlen[3] = build_ns(tpl[3], (const uint8_t[16]){ 0xfd, 0x00, [15] = 0x01 }, 255);
	tpl[3][14 + 40] = 136; /* an NA (checksum now wrong unless a mutation fixes it) */
	for (i = 0; i < n; i++) {
		unsigned int t, flips;

		rng = rng * 1103515245u + 12345u;
		t = (rng >> 16) & 3;
		memcpy(f, tpl[t], tlen[t]);
		len = tlen[t];
		flips = (rng >> 20) % 5;
		for (k = 0; k < flips; k++) {
			rng = rng * 1103515245u + 12345u;
			f[(rng >> 8) % len] ^= (uint8_t)(1u << ((rng >> 4) & 7));
		}
		rng = rng * 1103515245u + 12345u;
		if (((rng >> 16) & 7) == 0)
			len = (rng >> 4) % (len + 1);
		else if (((rng >> 16) & 7) == 1)
			memset(f, 0xff, 6);
		inject(f, len);
		if ((i & 31) == 31 || i == n - 1) {
			step(2);
			while ((len = take(out, sizeof(out))) != 0) {
				if ((out[12] == 0x08 && out[13] == 0x06 && out[21] == 2) ||
				    (out[12] == 0x86 && out[13] == 0xdd && out[14 + 40] == 136))
					answers++;
				else
					others++;
			}
		}
	}
	for (i = 0; i < RTE_DIM(once); i++)
		sum += wp_xstat(dev, once[i]);
	T_EQ(sum, n);
	/* not RoCE: decided and counted once, by the port's classification; the parser,
	 * which starts at the IP header the port found, never sees such a frame */
	T_EQ(wp_xstat(dev, "rx_drop_not_ip") + wp_xstat(dev, "rx_drop_not_udp") +
	     wp_xstat(dev, "rx_drop_udp_port"), 0);
	T_EQ(wp_xstat(dev, "rx_not_roce"),
	     wp_xstat(dev, "rx_drop_ethertype") + wp_xstat(dev, "rx_drop_not_roce") +
	     wp_xstat(dev, "rx_drop_arp") + wp_xstat(dev, "rx_drop_nd") +
	     wp_xstat(dev, "rx_arp_other") + wp_xstat(dev, "rx_nd_other"));
	T_EQ(others, 0);
	T_EQ(answers, wp_xstat(dev, "tx_arp_replies") + wp_xstat(dev, "tx_nd_adverts"));
	printf("# %u frames: %lu to RoCEv2 parsing (%lu ICRC errors), %u answers, %lu ARP and %lu ND "
	       "drops, %lu to other MACs\n", n, (unsigned long)wp_xstat(dev, "rx_packets"),
	       (unsigned long)wp_xstat(dev, "rx_icrc_errors"), answers,
	       (unsigned long)wp_xstat(dev, "rx_drop_arp"), (unsigned long)wp_xstat(dev, "rx_drop_nd"),
	       (unsigned long)wp_xstat(dev, "rx_drop_dst_mac"));
	close_dev();
}

int main(int argc, char **argv)
{
	wh_eal_init("arp", "0", NULL);
	pool = rte_pktmbuf_pool_create("arp_test", 1023, 0, 0, 2048 + RTE_PKTMBUF_HEADROOM,
				       SOCKET_ID_ANY);
	if (pool == NULL)
		t_skip_all("no mbuf pool");
	return t_main(argc, argv);
}
