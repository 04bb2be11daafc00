/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port=<ethdev>: the device on any DPDK port (net_memif, net_af_packet, net_tap, net_ring,
 * a NIC that EAL probed, named by its ethdev name or its PCI address). The device takes
 * the port over: one rx and one tx queue, its own rx mempool on the device's socket (the
 * NIC's NUMA node unless socket= says otherwise), the port MTU its path MTU needs, the
 * IPv4 checksum offloads the NIC has; started here (a NIC's link awaited) and stopped and
 * closed with the device. Every frame the NIC touches is a copy in an mbuf of a mempool,
 * so DMA uses mempool IOVAs only, correct with --iova-mode=pa and va alike.
 *
 * On that link the device is a host: it owns its MAC (the port's unless mac= is given), its
 * IPv4 (ip=) and IPv6 (ip6=, and fe80::EUI-64) addresses, answers ARP requests and
 * neighbour solicitations for them, and resolves its peers by ARP/NS (or static neigh=
 * entries) before a RoCEv2 frame leaves: the AV's destination MAC is never trusted, the
 * neighbour table fills it in. Receive keeps only RoCEv2 frames for us; everything else
 * is consumed (ARP/ND) or dropped and counted by reason.
 *
 * With rxq=/txq= the port is the application's (soft_port_shared.c): nothing here
 * configures, starts, stops or closes it; frames go through soft_port_io.h either way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "irdma_ethdev_find.h"
#include "roce_addr.h"
#include "roce_hdr.h"

#include "soft_arp.h"
#include "soft_intr_sync.h"
#include "soft_tx_zcopy.h"
#include "soft_neigh.h"
#include "soft_port.h"
#include "soft_port_eth_cfg.h"
#include "soft_port_io.h"
#include "soft_priv.h"

#define ETH_RX_DESC   1024u
#define ETH_TX_DESC   1024u
#define ETH_RX_MBUFS  4095u
#define ETH_MBUF_DATA (4096u + 256u + RTE_PKTMBUF_HEADROOM)
#define ETH_TX_TRIES  8u    /* tx_burst attempts for control frames and released frames */
#define ETH_LINK_WAIT_MS 10000u /* a NIC's link after start: autonegotiation takes seconds */

struct soft_eth_port {
	struct soft_eth_io io;     /* the port, and the queues or hand-off rings frames go through */
	struct soft_dev *dev;
	struct rte_mempool *rx_pool;
	struct soft_wire_stats *st; /* &counters (ep->st->x reads as before) */
	struct soft_wire_stats counters; /* the port's own, reported by eth_stats() */
	const uint8_t *mac;        /* dev->mac: final once the device is open */
	const uint8_t *ll6;        /* dev->gid[0]: fe80::EUI-64 of our MAC */
	bool has_ip4, has_ip6;
	bool tx_ip4_cksum;         /* the NIC fills in IPv4 header checksums */
	uint8_t ip4[4];
	uint8_t ip4_gid[16];       /* ::ffff:ip4 */
	uint8_t ip6[16];
	struct soft_neigh_table neigh;
};

static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 0x01 };

static bool is_our_ip6(const struct soft_eth_port *ep, const uint8_t ip[16])
{
	return memcmp(ip, ep->ll6, 16) == 0 || (ep->has_ip6 && memcmp(ip, ep->ip6, 16) == 0);
}

/* Sends one control frame (ARP, NS, NA) in an mbuf of the device's pool. */
static void send_ctrl(struct soft_eth_port *ep, const uint8_t *frame, unsigned int len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(ep->dev->pool);
	unsigned int t;

	if (m == NULL) {
		ep->st->tx_port_errors++;
		return;
	}
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), frame, len);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	for (t = 0; t < ETH_TX_TRIES; t++)
		if (soft_eth_io_tx(&ep->io, &m, 1) == 1)
			return;
	rte_pktmbuf_free(m);
	ep->st->tx_port_errors++;
}

/* One ARP request or NS for @p e. */
static void neigh_probe(struct soft_eth_port *ep, struct soft_neigh *e, uint64_t now)
{
	uint8_t f[SOFT_ARP_FRAME_MAX];
	unsigned int len;

	if (roce_gid_is_ipv4(e->ip)) {
		len = soft_arp_build(f, SOFT_ARP_REQUEST, ep->mac, ep->ip4, NULL, e->ip + 12);
		ep->st->tx_arp_requests++;
	} else {
		/* our global source for a global target, the link-local one otherwise */
		const uint8_t *src = (ep->has_ip6 && !(e->ip[0] == 0xfe && (e->ip[1] & 0xc0) == 0x80)) ?
				     ep->ip6 : ep->ll6;

		len = soft_nd_build_ns(f, ep->mac, src, e->ip);
		ep->st->tx_nd_solicits++;
	}
	send_ctrl(ep, f, len);
	e->tries++;
	e->deadline = now + ep->neigh.retry_tsc;
}

/* Transmits @p n frames; returns how many the port took (the rest stay with the caller). */
static unsigned int xmit(struct soft_eth_port *ep, struct rte_mbuf **pkts, unsigned int n)
{
	unsigned int i;

	if (ep->tx_ip4_cksum)
		for (i = 0; i < n; i++)
			soft_eth_tx_ip4_cksum(pkts[i]);
	return soft_eth_io_tx(&ep->io, pkts, (uint16_t)n);
}

/* The peer answered: its waiting frames leave now, in order. */
static void neigh_release(struct soft_eth_port *ep, struct soft_neigh *e)
{
	unsigned int i, sent = 0, t;

	for (i = 0; i < e->n_pending; i++)
		memcpy(rte_pktmbuf_mtod(e->pending[i], uint8_t *), e->mac, 6);
	for (t = 0; t < ETH_TX_TRIES && sent < e->n_pending; t++)
		sent += xmit(ep, e->pending + sent, e->n_pending - sent);
	if (sent < e->n_pending) {
		ep->st->tx_port_errors += e->n_pending - sent;
		rte_pktmbuf_free_bulk(e->pending + sent, e->n_pending - sent);
	}
	e->n_pending = 0;
}

static void neigh_learn(struct soft_eth_port *ep, const uint8_t ip[16], const uint8_t mac[6],
			bool create)
{
	struct soft_neigh *e = soft_neigh_lookup(&ep->neigh, ip);

	if (e == NULL) {
		if (!create)
			return;
		e = soft_neigh_create(&ep->neigh, ip, rte_get_timer_cycles());
		if (e == NULL)
			return;
	}
	if (e->state == SOFT_NEIGH_STATIC)
		return;
	if (e->state != SOFT_NEIGH_REACHABLE || memcmp(e->mac, mac, 6) != 0)
		ep->st->neigh_resolved++;
	if (soft_neigh_set_mac(&ep->neigh, e, mac))
		neigh_release(ep, e);
}

/* Retries and failures of resolutions in progress; ends holds of failed peers. */
static void neigh_tick(struct soft_eth_port *ep, uint64_t now)
{
	char ip[64];
	uint32_t i;

	for (i = 0; i < SOFT_NEIGH_MAX; i++) {
		struct soft_neigh *e = &ep->neigh.e[i];

		if ((e->state != SOFT_NEIGH_INCOMPLETE && e->state != SOFT_NEIGH_FAILED) ||
		    now < e->deadline)
			continue;
		if (e->state == SOFT_NEIGH_FAILED) {
			/* hold over: the next frame to this peer asks again */
			soft_neigh_forget(&ep->neigh, e);
			continue;
		}
		if (e->tries < SOFT_NEIGH_TRIES) {
			neigh_probe(ep, e, now);
			continue;
		}
		ep->st->neigh_failed++;
		ep->st->tx_drop_neigh_failed += soft_neigh_drop_pending(e);
		soft_neigh_fail(&ep->neigh, e, now);
		SOFT_LOG(WARNING, "%s: %s did not answer %u %s requests; frames to it are dropped for %u ms",
			 ep->dev->name, roce_gid_format(e->ip, ip, sizeof(ip)), SOFT_NEIGH_TRIES,
			 roce_gid_is_ipv4(e->ip) ? "ARP" : "neighbour solicitation",
			 SOFT_NEIGH_HOLD_MS);
	}
}

enum tx_verdict { TX_SEND, TX_TAKEN };

/* Looks up the frame's destination; TX_SEND with its MAC written, or TX_TAKEN when the
 * frame now waits for resolution or was dropped. With @p commit false nothing changes:
 * the caller first sends what is ahead of a frame it has to take. */
static enum tx_verdict tx_resolve(struct soft_eth_port *ep, struct rte_mbuf *m, bool commit)
{
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t l3 = ROCE_ETH_HLEN;
	uint16_t type = roce_get_be16(f + 12);
	uint8_t ip[16];
	struct soft_neigh *e;
	uint64_t now;

	if (type == ROCE_ETHERTYPE_VLAN) {
		type = roce_get_be16(f + 16);
		l3 += ROCE_VLAN_HLEN;
	}
	if (type == ROCE_ETHERTYPE_IPV4 && ep->has_ip4) {
		roce_gid_from_ipv4(ip, f + l3 + 16);
	} else if (type == ROCE_ETHERTYPE_IPV6 && f[l3 + 24] != 0xff) {
		memcpy(ip, f + l3 + 24, 16);
	} else {
		if (commit) {
			ep->st->tx_drop_no_route++;
			rte_pktmbuf_free(m);
		}
		return TX_TAKEN;
	}
	e = soft_neigh_lookup(&ep->neigh, ip);
	if (likely(e != NULL && (e->state == SOFT_NEIGH_REACHABLE ||
				 e->state == SOFT_NEIGH_STATIC))) {
		memcpy(f, e->mac, 6);
		return TX_SEND;
	}
	if (!commit)
		return TX_TAKEN;
	now = rte_get_timer_cycles();
	if (e == NULL) {
		e = soft_neigh_create(&ep->neigh, ip, now);
		if (e != NULL)
			neigh_probe(ep, e, now);
	}
	if (e == NULL || e->state != SOFT_NEIGH_INCOMPLETE || e->n_pending == SOFT_NEIGH_PENDING) {
		if (e != NULL && e->state == SOFT_NEIGH_FAILED)
			ep->st->tx_drop_neigh_failed++;
		else
			ep->st->tx_drop_neigh_full++;
		rte_pktmbuf_free(m);
		return TX_TAKEN;
	}
	e->pending[e->n_pending++] = m;
	e->last_used = now;
	return TX_TAKEN;
}

static unsigned int eth_tx(void *priv, struct rte_mbuf **pkts, void *const *dst,
			   unsigned int n)
{
	struct soft_eth_port *ep = priv;
	unsigned int i, start = 0, s;

	RTE_SET_USED(dst); /* no route op: the neighbour table resolves each frame here */
	for (i = 0; i < n; i++) {
		if (likely(tx_resolve(ep, pkts[i], false) == TX_SEND))
			continue;
		/* frames ahead of this one leave first, so order per peer holds */
		if (i > start) {
			s = xmit(ep, pkts + start, i - start);
			if (s < i - start)
				return start + s;
		}
		tx_resolve(ep, pkts[i], true);
		start = i + 1;
	}
	if (n > start)
		return start + xmit(ep, pkts + start, n - start);
	return n;
}

static void arp_input(struct soft_eth_port *ep, const uint8_t *p, uint32_t len)
{
	uint8_t f[SOFT_ARP_FRAME_MAX], ip[16];
	struct soft_arp a;

	if (soft_arp_parse(p, len, &a) < 0) {
		ep->st->rx_drop_arp++;
		return;
	}
	if (a.op == SOFT_ARP_REQUEST)
		ep->st->rx_arp_requests++;
	else
		ep->st->rx_arp_replies++;
	roce_gid_from_ipv4(ip, a.spa);
	if (!ep->has_ip4 || memcmp(a.tpa, ep->ip4, 4) != 0) {
		/* a gratuitous ARP updates a peer we know, nothing else is ours */
		if (memcmp(a.spa, a.tpa, 4) == 0)
			neigh_learn(ep, ip, a.sha, false);
		ep->st->rx_arp_other++;
		return;
	}
	/* A request to us tells us the asker's MAC (RFC 826): learn it, then answer. */
	neigh_learn(ep, ip, a.sha, a.op == SOFT_ARP_REQUEST);
	if (a.op == SOFT_ARP_REQUEST) {
		send_ctrl(ep, f, soft_arp_build(f, SOFT_ARP_REPLY, ep->mac, ep->ip4, a.sha, a.spa));
		ep->st->tx_arp_replies++;
	}
}

static void nd_input(struct soft_eth_port *ep, const uint8_t *ip6, uint32_t len)
{
	static const uint8_t unspec[16];
	uint8_t f[SOFT_ARP_FRAME_MAX];
	struct soft_nd n;
	int rc = soft_nd_parse(ip6, len, &n);

	if (rc != 0) {
		if (rc < 0)
			ep->st->rx_drop_nd++;
		else
			ep->st->rx_nd_other++;
		return;
	}
	if (n.type == SOFT_ND_NA) {
		ep->st->rx_nd_adverts++;
		if (n.has_lladdr)
			neigh_learn(ep, n.target, n.lladdr, false);
		return;
	}
	ep->st->rx_nd_solicits++;
	if (!is_our_ip6(ep, n.target))
		return;
	if (memcmp(n.src, unspec, 16) == 0) {
		/* duplicate address detection by someone else: tell all nodes */
		send_ctrl(ep, f, soft_nd_build_na(f, ep->mac, n.target, (const uint8_t[6]){
				0x33, 0x33, 0, 0, 0, 1 }, all_nodes, false));
		ep->st->tx_nd_adverts++;
		return;
	}
	if (!n.has_lladdr) {
		/* without the source link-layer option we would have to trust the frame's
		 * source MAC: no answer (the asker retries with the option, as hosts do) */
		return;
	}
	neigh_learn(ep, n.src, n.lladdr, true);
	send_ctrl(ep, f, soft_nd_build_na(f, ep->mac, n.target, n.lladdr, n.src, true));
	ep->st->tx_nd_adverts++;
}

/* true: a RoCEv2 frame to our MAC and IP address, left in the mbuf for the wire to parse
 * from its IP header on (soft_port_rx_mark()). Every other frame is used by ARP/ND or
 * counted here, once, by reason (the device derives rx_not_roce from these counters). */
static bool rx_classify(struct soft_eth_port *ep, struct rte_mbuf *m)
{
	const uint8_t *f;
	uint32_t len, l3 = ROCE_ETH_HLEN, l4;
	uint16_t type;
	bool ucast, mcast6;

	if (unlikely(m->nb_segs > 1) && rte_pktmbuf_linearize(m) != 0) {
		ep->st->rx_drop_segmented++;
		return false;
	}
	f = rte_pktmbuf_mtod(m, const uint8_t *);
	len = m->data_len;
	if (unlikely(len < ROCE_ETH_HLEN + 4)) {
		ep->st->rx_drop_short++;
		return false;
	}
	ucast = memcmp(f, ep->mac, 6) == 0;
	mcast6 = f[0] == 0x33 && f[1] == 0x33;
	type = roce_get_be16(f + 12);
	if (!ucast && !(memcmp(f, bcast_mac, 6) == 0 && type == SOFT_ETHERTYPE_ARP) &&
	    !(mcast6 && type == ROCE_ETHERTYPE_IPV6)) {
		ep->st->rx_drop_dst_mac++;
		return false;
	}
	if (type == SOFT_ETHERTYPE_ARP) {
		arp_input(ep, f + l3, len - l3);
		return false;
	}
	if (type == ROCE_ETHERTYPE_VLAN && ucast) {
		type = roce_get_be16(f + 16);
		l3 += ROCE_VLAN_HLEN;
	}
	if (type == ROCE_ETHERTYPE_IPV6) {
		if (len < l3 + ROCE_IPV6_HLEN + ROCE_UDP_HLEN) {
			ep->st->rx_drop_short++;
			return false;
		}
		if (f[l3 + 6] == 58 && l3 == ROCE_ETH_HLEN) { /* ICMPv6: neighbour discovery */
			nd_input(ep, f + l3, len - l3);
			return false;
		}
		if (!ucast) {
			ep->st->rx_drop_dst_mac++;
			return false;
		}
		if (!is_our_ip6(ep, f + l3 + 24)) {
			ep->st->rx_drop_dst_ip++;
			return false;
		}
		l4 = l3 + ROCE_IPV6_HLEN;
		if (f[l3 + 6] != ROCE_IPPROTO_UDP || roce_get_be16(f + l4 + 2) != ROCE_UDP_PORT) {
			ep->st->rx_drop_not_roce++;
			return false;
		}
		soft_port_rx_mark(m, l3, true);
		return true;
	}
	if (type == ROCE_ETHERTYPE_IPV4) {
		if (len < l3 + ROCE_IPV4_HLEN) {
			ep->st->rx_drop_short++;
			return false;
		}
		if (!ep->has_ip4 || memcmp(f + l3 + 16, ep->ip4, 4) != 0) {
			ep->st->rx_drop_dst_ip++;
			return false;
		}
		l4 = l3 + (f[l3] & 0x0f) * 4u;
		if (f[l3 + 9] != ROCE_IPPROTO_UDP) {
			ep->st->rx_drop_not_roce++;
			return false;
		}
		if (len < l4 + ROCE_UDP_HLEN) {
			ep->st->rx_drop_short++;
			return false;
		}
		if (roce_get_be16(f + l4 + 2) != ROCE_UDP_PORT) {
			ep->st->rx_drop_not_roce++;
			return false;
		}
		if (unlikely(soft_eth_rx_ip4_cksum_bad(m))) { /* the NIC checked it */
			ep->st->rx_drop_reason[ROCE_R_IP_CSUM]++;
			return false;
		}
		/* IP header fields, checksums and ICRC: lib/roce's parser, from l3 on */
		soft_port_rx_mark(m, l3, false);
		return true;
	}
	ep->st->rx_drop_ethertype++;
	return false;
}

static unsigned int eth_rx(void *priv, struct rte_mbuf **pkts, unsigned int n)
{
	struct soft_eth_port *ep = priv;
	unsigned int i, k = 0;
	uint16_t nb;

	if (unlikely(ep->neigh.n_timed != 0))
		neigh_tick(ep, rte_get_timer_cycles());
	nb = soft_eth_io_rx(&ep->io, pkts, (uint16_t)n);
	for (i = 0; i < nb; i++) {
		if (likely(rx_classify(ep, pkts[i])))
			pkts[k++] = pkts[i];
		else
			rte_pktmbuf_free(pkts[i]);
	}
	return k;
}

/* The MTU the path MTU needs, or a clear error naming the NIC's limit. */
static int port_mtu(struct soft_eth_port *ep, const char *name, const struct rte_eth_dev_info *info,
		    uint16_t *mtu)
{
	struct soft_dev *dev = ep->dev;
	uint32_t fit;

	if (soft_eth_port_mtu(dev->mtu, info, mtu, &fit) == 0)
		return 0;
	if (fit != 0)
		SOFT_LOG(ERR, "%s: port=%s: path MTU %u needs a port MTU of %u; the NIC (%s) takes at most %u: give mtu=%u or less",
			 dev->name, name, dev->mtu, dev->mtu + SOFT_ETH_HDR_ROOM, info->driver_name,
			 info->max_mtu, fit);
	else
		SOFT_LOG(ERR, "%s: port=%s: path MTU %u needs a port MTU of %u; the NIC (%s) takes %u to %u",
			 dev->name, name, dev->mtu, dev->mtu + SOFT_ETH_HDR_ROOM, info->driver_name,
			 info->min_mtu, info->max_mtu);
	return -EINVAL;
}

/*
 * A NIC's link comes up seconds after start (autonegotiation); frames sent before are lost
 * and the peer's ARP goes unanswered, so the device waits for it, bounded. A virtual port
 * (net_memif waiting for its peer, net_ring, net_af_packet) is not waited for: its link
 * follows the other side, which may start later.
 */
static int port_link(struct soft_eth_port *ep, const char *name, bool is_pci)
{
	struct rte_eth_link link;
	char txt[RTE_ETH_LINK_MAX_STR_LEN];
	unsigned int waited = 0;
	int rc;

	for (;;) {
		memset(&link, 0, sizeof(link));
		rc = rte_eth_link_get_nowait(ep->io.port_id, &link);
		if (rc != 0 && rc != -ENOTSUP) {
			SOFT_LOG(ERR, "%s: port=%s: cannot read the link: %s", ep->dev->name, name,
				 rte_strerror(-rc));
			return rc;
		}
		if (rc == -ENOTSUP || link.link_status == RTE_ETH_LINK_UP || !is_pci)
			break;
		if (waited >= ETH_LINK_WAIT_MS) {
			SOFT_LOG(ERR, "%s: port=%s: link still down %u s after start; check the cable or module, the switch port and that both ends agree on speed and FEC",
				 ep->dev->name, name, ETH_LINK_WAIT_MS / 1000);
			return -ENETDOWN;
		}
		rte_delay_ms(100);
		waited += 100;
	}
	if (rc == 0) {
		rte_eth_link_to_str(txt, sizeof(txt), &link);
		SOFT_LOG(INFO, "%s: port=%s: %s%s", ep->dev->name, name, txt,
			 link.link_status == RTE_ETH_LINK_UP ? "" : " (frames flow once it is up)");
	}
	return 0;
}

static int port_setup(struct soft_eth_port *ep, const char *name)
{
	struct soft_dev *dev = ep->dev;
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	struct rte_pci_addr pci;
	uint16_t nb_rxd = ETH_RX_DESC, nb_txd = ETH_TX_DESC, mtu;
	int socket = dev->cfg.socket_id, rc;
	bool is_pci = irdma_ethdev_pci_addr(ep->io.port_id, &pci) == 0;
	char pname[RTE_MEMPOOL_NAMESIZE];

	rc = rte_eth_dev_info_get(ep->io.port_id, &info);
	if (rc != 0) {
		SOFT_LOG(ERR, "%s: port=%s: cannot get device info (%d)", dev->name, name, rc);
		return rc;
	}
	memset(&conf, 0, sizeof(conf));
	rc = port_mtu(ep, name, &info, &mtu);
	if (rc != 0)
		return rc;
	conf.rxmode.mtu = mtu;
	/* chains: the payload by reference from registered memory (soft_tx_zcopy.c) */
	conf.txmode.offloads = soft_eth_tx_offloads(&info) |
			       (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	conf.rxmode.offloads = soft_eth_rx_offloads(&info);
	ep->tx_ip4_cksum = (conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) != 0;
	rc = rte_eth_dev_configure(ep->io.port_id, 1, 1, &conf);
	if (rc != 0) {
		SOFT_LOG(ERR, "%s: port=%s: configure (1 rx, 1 tx queue, MTU %u): %s", dev->name,
			 name, mtu ? mtu : RTE_ETHER_MTU, rte_strerror(-rc));
		return rc;
	}
	rc = soft_tx_zc_open(dev, (conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) != 0);
	if (rc != 0)
		return rc;
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(ep->io.port_id, &nb_rxd, &nb_txd);
	if (rc != 0)
		return rc;
	if (socket == SOCKET_ID_ANY)
		socket = rte_eth_dev_socket_id(ep->io.port_id);
	snprintf(pname, sizeof(pname), "irdma_rx_%u", ep->io.port_id);
	ep->rx_pool = rte_pktmbuf_pool_create(pname, ETH_RX_MBUFS, 128, 0, ETH_MBUF_DATA,
					      socket < 0 ? SOCKET_ID_ANY : socket);
	if (ep->rx_pool == NULL) {
		SOFT_LOG(ERR, "%s: port=%s: rx mempool: %s", dev->name, name,
			 rte_strerror(rte_errno));
		return -ENOMEM;
	}
	rc = rte_eth_rx_queue_setup(ep->io.port_id, 0, nb_rxd, socket < 0 ? SOCKET_ID_ANY : socket,
				    NULL, ep->rx_pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(ep->io.port_id, 0, nb_txd,
					    socket < 0 ? SOCKET_ID_ANY : socket, NULL);
	if (rc != 0) {
		SOFT_LOG(ERR, "%s: port=%s: queue setup: %s", dev->name, name, rte_strerror(-rc));
		return rc;
	}
	rc = rte_eth_dev_start(ep->io.port_id);
	if (rc != 0) {
		SOFT_LOG(ERR, "%s: port=%s: start: %s", dev->name, name, rte_strerror(-rc));
		return rc;
	}
	SOFT_LOG(INFO, "%s: port=%s: %s, socket %d, MTU %u, IPv4 checksum offload tx %s rx %s, IOVA as %s",
		 dev->name, name, info.driver_name, socket, mtu ? mtu : RTE_ETHER_MTU,
		 ep->tx_ip4_cksum ? "on" : "off", conf.rxmode.offloads ? "on" : "off",
		 rte_eal_iova_mode() == RTE_IOVA_PA ? "PA" : "VA");
	rc = port_link(ep, name, is_pci);
	if (rc != 0)
		rte_eth_dev_stop(ep->io.port_id);
	return rc;
}

static void list_ports(char *buf, size_t len)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	size_t off = 0;
	uint16_t pid;

	buf[0] = '\0';
	RTE_ETH_FOREACH_DEV(pid) {
		if (rte_eth_dev_get_name_by_port(pid, name) == 0 && off < len)
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", name);
	}
	if (off == 0)
		snprintf(buf, len, "none (create one with --vdev, e.g. net_memif0,..., or probe a NIC with -a <PCI address>)");
}

static int eth_open(struct soft_dev *dev, void **priv)
{
	const char *name = dev->cfg.port;
	struct rte_ether_addr pmac = { { 0 } };
	struct soft_eth_port *ep;
	char known[256];
	uint16_t pid;
	uint32_t i;
	int rc;

	if (irdma_ethdev_find(name, &pid) != 0) {
		list_ports(known, sizeof(known));
		SOFT_LOG(ERR, "%s: port=%s: no such ethdev or PCI address; ports: %s", dev->name,
			 name, known);
		return -ENODEV;
	}
	if (!dev->cfg.has_ipv4 && !dev->cfg.has_ipv6)
		SOFT_LOG(WARNING, "%s: port=%s without ip= or ip6=: only the link-local GID works",
			 dev->name, name);
	ep = rte_zmalloc_socket("soft_eth_port", sizeof(*ep), RTE_CACHE_LINE_SIZE,
				dev->cfg.socket_id);
	if (ep == NULL)
		return -ENOMEM;
	ep->io.port_id = pid;
	ep->dev = dev;
	ep->st = &ep->counters;
	soft_neigh_init(&ep->neigh, rte_get_timer_hz());

	/* Our MAC: mac= if given, else the port's; when the port has none, soft_dev_open()
	 * derives one after this call (and builds the GIDs from it): keep pointers. */
	if (rte_eth_macaddr_get(pid, &pmac) == 0 && rte_is_unicast_ether_addr(&pmac) &&
	    !rte_is_zero_ether_addr(&pmac) && rte_is_zero_ether_addr(
			(const struct rte_ether_addr *)dev->cfg.mac))
		memcpy(dev->mac, pmac.addr_bytes, 6);
	ep->mac = dev->mac;
	ep->ll6 = dev->gid[0];
	ep->has_ip4 = dev->cfg.has_ipv4;
	memcpy(ep->ip4, dev->cfg.ipv4, 4);
	roce_gid_from_ipv4(ep->ip4_gid, ep->ip4);
	ep->has_ip6 = dev->cfg.has_ipv6;
	memcpy(ep->ip6, dev->cfg.ipv6, 16);
	for (i = 0; i < dev->args.n_neigh; i++)
		soft_neigh_add_static(&ep->neigh, dev->args.neigh[i].ip, dev->args.neigh[i].mac);

	ep->io.rx_eth = true; /* queue 0 of its own port, unless rxq= says otherwise */
	rc = soft_port_shared_open(dev, name, &ep->io, &ep->tx_ip4_cksum);
	if (rc == 0 && !ep->io.shared)
		rc = port_setup(ep, name);
	if (rc != 0) {
		rte_mempool_free(ep->rx_pool);
		rte_free(ep);
		return rc;
	}
	/* frames to our MAC must reach us even when it is not the port's own; on the
	 * application's port that is the application's call */
	if ((memcmp(dev->mac, pmac.addr_bytes, 6) != 0 || rte_is_zero_ether_addr(&pmac)) &&
	    !ep->io.shared)
		rte_eth_promiscuous_enable(pid);
	else if (memcmp(dev->mac, pmac.addr_bytes, 6) != 0 && ep->io.shared)
		SOFT_LOG(WARNING, "%s: port=%s: mac= is not the port's MAC: the application's port must be promiscuous for frames to it to arrive",
			 dev->name, name);
	SOFT_LOG(INFO, "%s: port=%s (port %u), %s MAC, %u static neighbours", dev->name, name,
		 pid, !rte_is_zero_ether_addr((const struct rte_ether_addr *)dev->cfg.mac) ?
		 "given" : memcmp(dev->mac, pmac.addr_bytes, 6) == 0 ? "the port's" : "a derived",
		 dev->args.n_neigh);
	*priv = ep;
	return 0;
}

/*
 * DPDK 22.11's net_memif is not safe against its peer disconnecting while the port is being
 * closed: the peer's disconnect is handled on the interrupt thread, and a close on the main
 * thread at that moment frees what the handler uses (seen as a crash at exit in either
 * process). So the two ends leave in turn: the client closes at once, the server first lets
 * the client go, up to two seconds, then closes. The handler sets the link down first and
 * only then unregisters the channel and unmaps and frees the regions, which the close frees
 * too: seeing the link down is not enough (a fixed pause after it lost the race about 1 run
 * in 60 on a loaded machine, a double free in the heap), so the server then waits for the
 * interrupt thread to finish that handler. Any other port closes at once.
 */
static void memif_leave_in_turn(uint16_t port_id)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	struct rte_eth_link link;
	int i;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.driver_name == NULL ||
	    strcmp(info.driver_name, "net_memif") != 0 || info.device == NULL)
		return;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL || strstr(da->args, "role=server") == NULL)
		return;
	for (i = 0; i < 200; i++) {
		if (rte_eth_link_get_nowait(port_id, &link) != 0 ||
		    link.link_status == RTE_ETH_LINK_DOWN)
			break;
		rte_delay_us_sleep(10 * 1000);
	}
	if (soft_intr_thread_sync(1000) != 0)
		SOFT_LOG(WARNING, "port %u: interrupt thread busy past 1 s; closing anyway",
			 port_id);
}

static void eth_close(void *priv)
{
	struct soft_eth_port *ep = priv;
	struct soft_dev *dev;

	if (ep == NULL)
		return;
	dev = ep->dev;
	soft_neigh_flush_all(&ep->neigh);
	if (ep->io.shared) {
		/* the application's port: it stops and closes it, after the device */
		soft_port_shared_close(&ep->io);
	} else {
		memif_leave_in_turn(ep->io.port_id);
		rte_eth_dev_stop(ep->io.port_id);
		/* the queues hold mbufs of our pool: the port goes with the device */
		rte_eth_dev_close(ep->io.port_id);
		rte_mempool_free(ep->rx_pool);
	}
	rte_free(ep);
	soft_tx_zc_close(dev); /* the port released every chain it held */
}

static void eth_stats(const void *priv, struct soft_wire_stats *sum)
{
	soft_wire_stats_add(sum, &((const struct soft_eth_port *)priv)->counters);
}

static void eth_stats_reset(void *priv)
{
	memset(&((struct soft_eth_port *)priv)->counters, 0,
	       sizeof(((struct soft_eth_port *)priv)->counters));
}

const struct soft_port_ops soft_port_eth_ops = {
	.name = "ethdev",
	.open = eth_open,
	.close = eth_close,
	.tx = eth_tx,
	.rx = eth_rx,
	.stats = eth_stats,
	.stats_reset = eth_stats_reset,
	.rx_marked = true,
};

struct soft_eth_io *soft_port_eth_io(void *priv)
{
	return priv != NULL ? &((struct soft_eth_port *)priv)->io : NULL;
}
