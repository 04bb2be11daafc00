/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the ethdev back-end's frames come from and go to (soft_port_eth.c calls only these
 * two): the port's queue (its own port, or the queue rxq=/txq= names on a port the
 * application runs), or a ring the application fills and drains (rxq=app / txq=app, the
 * mbuf hand-off: rte_pmd_irdma_rx_burst and rte_pmd_irdma_tx_drain). Set up and torn down
 * by soft_port_shared.c.
 */
#ifndef SOFT_PORT_IO_H
#define SOFT_PORT_IO_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ring.h>

struct soft_dev;

struct soft_eth_io {
	uint16_t port_id;
	uint16_t rxq, txq;         /* queues of the port */
	bool rx_eth;               /* receive polls rxq (after the ring, if any) */
	bool shared;               /* the application owns the port: never configured,
				    * started, stopped or closed by the device */
	struct rte_ring *rx_ring;  /* frames the application handed over (MP/SC); with
				    * rxq=<n> only what RSS gave it (ARP, ND) */
	struct rte_ring *tx_ring;  /* txq=app: frames for the application to send (SP/MC) */
	struct rte_flow *flow[2];  /* rxq=<n>: UDP port 4791 over IPv4 and IPv6 to rxq */
};

/* The engine's receive burst (one consumer: the engine holds its lock). */
static inline uint16_t soft_eth_io_rx(struct soft_eth_io *io, struct rte_mbuf **pkts,
				      uint16_t n)
{
	uint16_t k = 0;

	if (io->rx_ring != NULL)
		k = (uint16_t)rte_ring_sc_dequeue_burst(io->rx_ring, (void **)pkts, n, NULL);
	if (io->rx_eth && k < n)
		k += rte_eth_rx_burst(io->port_id, io->rxq, pkts + k, (uint16_t)(n - k));
	return k;
}

/* The engine's transmit burst: how many frames were taken (the rest stay with the caller). */
static inline uint16_t soft_eth_io_tx(struct soft_eth_io *io, struct rte_mbuf **pkts,
				      uint16_t n)
{
	if (io->tx_ring != NULL)
		return (uint16_t)rte_ring_sp_enqueue_burst(io->tx_ring, (void **)pkts, n, NULL);
	return rte_eth_tx_burst(io->port_id, io->txq, pkts, n);
}

/*
 * soft_port_shared.c. With rxq=/txq= given: checks the port the application configured
 * (queues exist, its MTU fits the path MTU), creates the hand-off rings, installs the
 * steering rules; *tx_ip4_cksum says whether the NIC fills in IPv4 header checksums on
 * txq. 0 or a negative errno (logged). Without rxq=/txq=: io->shared stays false, 0.
 */
int soft_port_shared_open(struct soft_dev *dev, const char *name, struct soft_eth_io *io,
			  bool *tx_ip4_cksum);
/* Removes the rules and frees the rings (and the frames still in them). */
void soft_port_shared_close(struct soft_eth_io *io);

#endif /* SOFT_PORT_IO_H */
