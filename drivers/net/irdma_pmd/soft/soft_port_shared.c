/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port=<ethdev>,rxq=,txq=: a port the application owns. The application configures and
 * starts it, runs its own queues and lcores; the device uses only what it is given:
 *
 * - rxq=<n>: the device polls rx queue n, and steers UDP port 4791 (RoCEv2, over IPv4 and
 *   IPv6) to it with rte_flow where the NIC can (validated first; a NIC that cannot is
 *   named in a warning: RoCE frames then land wherever RSS puts them, so the application
 *   should use rxq=app). ARP and neighbour discovery for the device's addresses still reach
 *   the application's queues: it hands them over with rte_pmd_irdma_rx_burst (a ring the
 *   engine drains before the queue), or the device is given static neigh= entries.
 * - rxq=app: the device polls no queue; the application's rx loop hands it frames.
 * - txq=<n>: the device transmits on tx queue n (the application must not use it).
 * - txq=app: the device's frames wait in a ring the application drains
 *   (rte_pmd_irdma_tx_drain) and sends with its own frames.
 *
 * The device never configures, starts, stops or closes such a port, never changes its MTU
 * or promiscuous mode; it checks that what it needs is there and says what is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "roce_hdr.h"

#include "soft_port_eth_cfg.h"
#include "soft_port_io.h"
#include "soft_priv.h"

#define SHARED_RING_SIZE 4096u

/* The rule steering UDP 4791 over @p v6 ? IPv6 : IPv4 to io->rxq; validated, then made. */
static struct rte_flow *steer(struct soft_eth_io *io, bool v6, struct rte_flow_error *err)
{
	const struct rte_flow_attr attr = { .ingress = 1 };
	const struct rte_flow_item_udp udp_spec = { .hdr.dst_port = RTE_BE16(ROCE_UDP_PORT) };
	const struct rte_flow_item_udp udp_mask = { .hdr.dst_port = RTE_BE16(0xffff) };
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = v6 ? RTE_FLOW_ITEM_TYPE_IPV6 : RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp_spec, .mask = &udp_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action_queue queue = { .index = io->rxq };
	const struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	memset(err, 0, sizeof(*err));
	if (rte_flow_validate(io->port_id, &attr, pattern, actions, err) != 0)
		return NULL;
	return rte_flow_create(io->port_id, &attr, pattern, actions, err);
}

static void steer_all(struct soft_dev *dev, const char *name, struct soft_eth_io *io)
{
	struct rte_flow_error err;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		io->flow[i] = steer(io, i == 1, &err);
		if (io->flow[i] != NULL)
			continue;
		SOFT_LOG(WARNING, "%s: port=%s: the NIC cannot steer UDP port %u over %s to rx queue %u (rte_flow: %s): RoCE frames arrive where its RSS puts them, and those on the application's queues are lost to the device; use rxq=app and hand them over with rte_pmd_irdma_rx_burst",
			 dev->name, name, ROCE_UDP_PORT, i ? "IPv6" : "IPv4", io->rxq,
			 err.message ? err.message : rte_strerror(rte_errno));
		return;
	}
	SOFT_LOG(INFO, "%s: port=%s: UDP port %u (IPv4, IPv6) steered to rx queue %u", dev->name,
		 name, ROCE_UDP_PORT, io->rxq);
}

/* The application's port has what the device needs: queues, an MTU for the path MTU. */
static int check_port(struct soft_dev *dev, const char *name, struct soft_eth_io *io,
		      bool *tx_ip4_cksum)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint32_t need = dev->mtu + SOFT_ETH_HDR_ROOM;
	uint16_t mtu = RTE_ETHER_MTU;
	int rc;

	rc = rte_eth_dev_info_get(io->port_id, &info);
	if (rc != 0) {
		SOFT_LOG(ERR, "%s: port=%s: cannot get device info (%d)", dev->name, name, rc);
		return rc;
	}
	if (dev->args.rxq >= 0 && dev->args.rxq >= info.nb_rx_queues) {
		SOFT_LOG(ERR, "%s: port=%s: rxq=%d but the application configured %u rx queues: configure one more for the device",
			 dev->name, name, dev->args.rxq, info.nb_rx_queues);
		return -EINVAL;
	}
	if (dev->args.txq >= 0 && dev->args.txq >= info.nb_tx_queues) {
		SOFT_LOG(ERR, "%s: port=%s: txq=%d but the application configured %u tx queues: configure one more for the device",
			 dev->name, name, dev->args.txq, info.nb_tx_queues);
		return -EINVAL;
	}
	if (rte_eth_dev_get_mtu(io->port_id, &mtu) == 0 && mtu < need && need > RTE_ETHER_MTU) {
		SOFT_LOG(ERR, "%s: port=%s: path MTU %u needs a port MTU of %u and the port has %u: the application sets it (rte_eth_dev_set_mtu) or the device gets a smaller mtu=",
			 dev->name, name, dev->mtu, need, mtu);
		return -EINVAL;
	}
	*tx_ip4_cksum = false;
	if (dev->args.txq >= 0 && rte_eth_dev_conf_get(io->port_id, &conf) == 0)
		*tx_ip4_cksum = (conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) != 0;
	return 0;
}

int soft_port_shared_open(struct soft_dev *dev, const char *name, struct soft_eth_io *io,
			  bool *tx_ip4_cksum)
{
	char rn[RTE_RING_NAMESIZE];
	int rc;

	if (dev->args.rxq == SOFT_QUEUE_OWN)
		return 0;
	io->shared = true;
	io->rx_eth = false; /* the application's queues are its own unless rxq=<n> */
	rc = check_port(dev, name, io, tx_ip4_cksum);
	if (rc != 0)
		return rc;
	/* rxq=app: everything comes through the ring; rxq=<n>: ARP/ND the application
	 * saw come through it, RoCE through the queue */
	snprintf(rn, sizeof(rn), "irdma_hrx_%p", (void *)io);
	io->rx_ring = rte_ring_create(rn, SHARED_RING_SIZE, dev->cfg.socket_id, RING_F_SC_DEQ);
	if (io->rx_ring == NULL)
		goto nomem;
	if (dev->args.txq == SOFT_QUEUE_APP) {
		snprintf(rn, sizeof(rn), "irdma_htx_%p", (void *)io);
		io->tx_ring = rte_ring_create(rn, SHARED_RING_SIZE, dev->cfg.socket_id,
					      RING_F_SP_ENQ);
		if (io->tx_ring == NULL)
			goto nomem;
	} else {
		io->txq = (uint16_t)dev->args.txq;
	}
	if (dev->args.rxq >= 0) {
		io->rxq = (uint16_t)dev->args.rxq;
		io->rx_eth = true;
		steer_all(dev, name, io);
	}
	SOFT_LOG(INFO, "%s: port=%s is the application's: receive %s, transmit %s", dev->name,
		 name, io->rx_eth ? "from its rx queue (and rte_pmd_irdma_rx_burst)" :
		 "from rte_pmd_irdma_rx_burst", io->tx_ring ? "to rte_pmd_irdma_tx_drain" :
		 "on its tx queue");
	return 0;
nomem:
	SOFT_LOG(ERR, "%s: port=%s: hand-off ring: %s", dev->name, name, rte_strerror(rte_errno));
	soft_port_shared_close(io);
	return -ENOMEM;
}

static void ring_free(struct rte_ring *r)
{
	void *m;

	if (r == NULL)
		return;
	while (rte_ring_dequeue(r, &m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(r);
}

void soft_port_shared_close(struct soft_eth_io *io)
{
	struct rte_flow_error err;
	unsigned int i;

	for (i = 0; i < RTE_DIM(io->flow); i++)
		if (io->flow[i] != NULL) {
			rte_flow_destroy(io->port_id, io->flow[i], &err);
			io->flow[i] = NULL;
		}
	ring_free(io->rx_ring);
	ring_free(io->tx_ring);
	io->rx_ring = io->tx_ring = NULL;
}
