/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the device's whole receive path (ethdev rx burst, classification,
 * parse, ICRC, QP lookup, responder and completer, the replies it sends) on frames whose
 * ICRC is valid, so they reach the key, range, length and PSN checks.
 *
 * The device sits on a net_ring port (static neighbour 198.18.0.9, no ARP); an RC QP and a
 * UD QP are connected to that peer and, at the start of every input, reset, connected
 * again (receive PSN 0x100, send PSN 0x500), given receive buffers and three requests of
 * their own (a WRITE, a READ, a FETCH_ADD) so that responses have something to match.
 * The input is a list of frames, each [ctl][len (2 bytes, big-endian)][bytes]. ctl says
 * what the harness fixes before it recomputes the IPv4 header checksum and the ICRC:
 *   bit 0  Ethernet and IP addresses: to the device from the peer
 *   bit 1  BTH DestQP: the RC QP (bit 2: the UD QP)
 *   bit 3  PSN: 0x100 (requests) or 0x500 (responses) plus the PSN's low byte
 *   bit 4  RETH/AtomicETH: the region's R_Key, the VA inside it (plus its low 16 bits)
 *   bit 5  IP and UDP lengths: to the frame's length
 *   bit 7  keep the frame's own ICRC (so bad ICRCs are fuzzed too)
 * Oracle: the canaries around the registered region never change; no crash, no sanitizer
 * report; every completion the device writes has a known wr_id.
 */
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "roce.h"
#include "fuzz_eal.h"
#include "fuzz_qp.h"
#include "rte_pmd_irdma.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CANARY   4096u
#define REGION   (16u << 10)
#define BUF      (CANARY + REGION + CANARY)
#define EPSN     0x100u
#define SQPSN    0x500u
#define PEER_QPN 0x99u
#define ACCESS (RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | \
		RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC)

static const uint8_t mac_us[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t mac_peer[6] = { 0x02, 0, 0, 0, 0, 0x09 };
static const uint8_t ip_us[4] = { 198, 18, 0, 1 };
static const uint8_t ip_peer[4] = { 198, 18, 0, 9 };

static struct rte_ring *rx_ring, *tx_ring;
static struct rte_mempool *pool;
static struct rte_pmd_irdma_dev *dev;
static struct rte_pmd_irdma_pd *pd;
static struct rte_pmd_irdma_cq *cq;
static struct rte_pmd_irdma_qp *rc, *ud;
static struct rte_pmd_irdma_mr *mr;
static uint8_t *buf;

static int
to_rts(struct rte_pmd_irdma_qp *qp)
{
	union rte_pmd_irdma_gid peer = { .raw = { [10] = 0xff, [11] = 0xff } };

	memcpy(&peer.raw[12], ip_peer, 4);
	return fuzz_qp_to_rts(qp, &peer, PEER_QPN, EPSN, SQPSN, 4, 20);
}

static struct rte_pmd_irdma_qp *
qp_new(enum rte_pmd_irdma_qp_type t)
{
	struct rte_pmd_irdma_qp_init_attr qa;

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = t;
	qa.cap = (struct rte_pmd_irdma_qp_cap){ 16, 16, 2, 2, 64 };
	return rte_pmd_irdma_qp_create(pd, &qa);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 1024, .comp_fd = -1 };

	(void)argc;
	(void)argv;
	fuzz_eal_init("fuzz_pmd_rx");
	rx_ring = rte_ring_create("fzrx_in", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	tx_ring = rte_ring_create("fzrx_out", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	pool = rte_pktmbuf_pool_create("fzrx", 1023, 0, 0, 4096 + RTE_PKTMBUF_HEADROOM,
				       SOCKET_ID_ANY);
	if (rx_ring == NULL || tx_ring == NULL || pool == NULL ||
	    rte_eth_from_rings("fzrx", &rx_ring, 1, &tx_ring, 1, SOCKET_ID_ANY) < 0)
		abort();
	dev = rte_pmd_irdma_dev_create("soft,port=net_ring_fzrx,ip=198.18.0.1,"
				       "mac=02:00:00:00:00:01,neigh=198.18.0.9@02:00:00:00:00:09,"
				       "name=fzrx,gen=3");
	if (dev == NULL)
		abort();
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = rte_pmd_irdma_cq_create(dev, &ca);
	buf = rte_zmalloc(NULL, BUF, 4096);
	if (pd == NULL || cq == NULL || buf == NULL)
		abort();
	memset(buf, 0xA5, BUF);
	mr = rte_pmd_irdma_reg_mr(pd, buf + CANARY, REGION, ACCESS);
	rc = qp_new(RTE_PMD_IRDMA_QPT_RC);
	ud = qp_new(RTE_PMD_IRDMA_QPT_UD);
	if (mr == NULL || rc == NULL || ud == NULL)
		abort();
	return 0;
}

static uint64_t
region_va(uint32_t off)
{
	return (uintptr_t)buf + CANARY + off;
}

/* Receives on both QPs and three requests of the RC QP's own. */
static void
arm(void)
{
	struct rte_pmd_irdma_sge s[4] = {
		{ region_va(0), 4096, mr->lkey }, { region_va(4096), 4096, mr->lkey },
		{ region_va(8192), 64, mr->lkey }, { region_va(8192 + 64), 8, mr->lkey },
	};
	struct rte_pmd_irdma_recv_wr r[2] = { { 1, &s[0], 1 }, { 2, &s[1], 1 } };
	struct rte_pmd_irdma_send_wr w[3];
	int err, i;

	if (to_rts(rc) < 0 || to_rts(ud) < 0)
		abort();
	(void)rte_pmd_irdma_post_recv(rc, r, 2, &err);
	(void)rte_pmd_irdma_post_recv(ud, r, 2, &err);
	memset(w, 0, sizeof(w));
	for (i = 0; i < 3; i++) {
		w[i].wr_id = 10 + (uint64_t)i;
		w[i].num_sge = 1;
		w[i].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
		w[i].wr.rdma.remote_addr = 0x7000000000ull + 0x1000u * (uint64_t)i;
		w[i].wr.rdma.rkey = 0x1234;
	}
	w[0].opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
	w[0].sg_list = &s[2];
	w[1].opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
	w[1].sg_list = &s[2];
	w[2].opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
	w[2].sg_list = &s[3];
	w[2].wr.atomic.remote_addr = 0x7000002000ull;
	w[2].wr.atomic.rkey = 0x1234;
	w[2].wr.atomic.compare_add = 1;
	(void)rte_pmd_irdma_post_send(rc, w, 3, &err);
}

static void
ip4_csum(uint8_t *ip)
{
	uint32_t sum = 0, i;

	ip[10] = ip[11] = 0;
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	roce_put_be16(ip + 10, (uint16_t)~sum);
}

/* Applies ctl's fixes to frame f of n bytes and recomputes its checksums. */
static void
fix(uint8_t ctl, uint8_t *f, uint32_t n)
{
	uint32_t l3 = 14, l4, bth, iplen, end, psn;
	const struct roce_opcode_info *oi;
	int v6;

	if (n >= 18 && roce_get_be16(f + 12) == ROCE_ETHERTYPE_VLAN)
		l3 = 18;
	if (n < l3 + 1)
		return;
	v6 = (f[l3] >> 4) == 6;
	l4 = l3 + (v6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN);
	bth = l4 + ROCE_UDP_HLEN;
	if (n < bth + ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return;
	if (ctl & 1) {
		memcpy(f, mac_us, 6);
		memcpy(f + 6, mac_peer, 6);
		if (!v6) {
			memcpy(f + l3 + 12, ip_peer, 4);
			memcpy(f + l3 + 16, ip_us, 4);
		}
	}
	if (ctl & 0x20) {
		if (v6)
			roce_put_be16(f + l3 + 4, (uint16_t)(n - l4));
		else
			roce_put_be16(f + l3 + 2, (uint16_t)(n - l3));
		roce_put_be16(f + l4 + 4, (uint16_t)(n - l4));
	}
	if (ctl & 2)
		roce_put_be24(f + bth + 5, (ctl & 4) ? ud->qp_num : rc->qp_num);
	oi = roce_opcode_get(f[bth]);
	if ((ctl & 8) && oi != NULL) {
		psn = ((oi->flags & ROCE_OPF_RESP) ? SQPSN : EPSN) + f[bth + 11];
		roce_put_be24(f + bth + 9, psn);
	}
	if ((ctl & 0x10) && oi != NULL) {
		uint32_t x = bth + ROCE_BTH_LEN;
		uint8_t off = oi->off_reth != ROCE_HDR_ABSENT ? oi->off_reth : oi->off_atmeth;

		if (off != ROCE_HDR_ABSENT && n >= x + off + 12 + ROCE_ICRC_LEN) {
			uint64_t va = region_va(roce_get_be16(f + x + off + 6));

			roce_put_be32(f + x + off, (uint32_t)(va >> 32));
			roce_put_be32(f + x + off + 4, (uint32_t)va);
			roce_put_be32(f + x + off + 8, mr->rkey);
		}
	}
	if (!v6)
		ip4_csum(f + l3);
	if (ctl & 0x80)
		return;
	/* The ICRC covers the IP header through the pad; it ends where the IP length says. */
	iplen = v6 ? ROCE_IPV6_HLEN + roce_get_be16(f + l3 + 4) : roce_get_be16(f + l3 + 2);
	end = l3 + iplen;
	if (iplen < bth - l3 + ROCE_BTH_LEN + ROCE_ICRC_LEN || end > n)
		return;
	roce_icrc_put(f + end - ROCE_ICRC_LEN,
		      roce_icrc_compute(f + l3, end - ROCE_ICRC_LEN - l3, v6));
}

static void
run(unsigned int rounds)
{
	struct rte_pmd_irdma_wc wc[64];
	struct rte_mbuf *m[64];
	int i, n;

	while (rounds--) {
		rte_pmd_irdma_progress(dev, 64);
		while ((n = rte_pmd_irdma_poll_cq(cq, wc, RTE_DIM(wc))) > 0)
			for (i = 0; i < n; i++)
				if (wc[i].wr_id != 1 && wc[i].wr_id != 2 &&
				    (wc[i].wr_id < 10 || wc[i].wr_id > 12))
					abort(); /* a completion for a WR never posted */
		while ((n = (int)rte_ring_dequeue_burst(tx_ring, (void **)m, RTE_DIM(m), NULL)) > 0)
			rte_pktmbuf_free_bulk(m, (unsigned int)n);
	}
}

static void
check_canaries(void)
{
	uint32_t i;

	for (i = 0; i < CANARY; i++)
		if (buf[i] != 0xA5 || buf[CANARY + REGION + i] != 0xA5)
			abort(); /* a byte outside the registered region changed */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pos = 0;

	arm();
	run(2);
	while (pos + 3 <= size) {
		uint8_t ctl = data[pos];
		uint32_t len = roce_get_be16(data + pos + 1);
		struct rte_mbuf *m;

		pos += 3;
		if (len > size - pos)
			len = (uint32_t)(size - pos);
		if (len > 4000)
			len = 4000;
		m = rte_pktmbuf_alloc(pool);
		if (m == NULL)
			abort(); /* mbufs leak somewhere: the pool is far larger than one input */
		memcpy(rte_pktmbuf_append(m, (uint16_t)len), data + pos, len);
		fix(ctl, rte_pktmbuf_mtod(m, uint8_t *), len);
		pos += len;
		if (rte_ring_enqueue(rx_ring, m) != 0)
			rte_pktmbuf_free(m);
		run(1);
	}
	run(4);
	check_canaries();
	return 0;
}
