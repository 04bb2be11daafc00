/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The mbuf hand-off of a port the application owns (soft_port_shared.c): its rx loop gives
 * the device frames (rte_pmd_irdma_rx_burst -> port_rx), and takes the frames the device
 * wants sent (rte_pmd_irdma_tx_drain -> port_drain) when txq=app. Only ring operations: the
 * engine parses what was handed over on its next step, through the same receive path as a
 * queue's frames (soft_port_eth.c), and its transmit path fills the drain ring.
 */
#include <errno.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "soft_port.h"
#include "soft_port_io.h"
#include "soft_priv.h"

static struct soft_eth_io *handoff_io(struct irdma_hw_dev *hw)
{
	struct soft_dev *dev = (struct soft_dev *)hw;
	struct soft_eth_io *io = soft_wire_port_ops(dev) == &soft_port_eth_ops ?
				 soft_port_eth_io(soft_wire_port_priv(dev)) : NULL;

	return io != NULL && io->shared ? io : NULL;
}

int soft_port_rx(struct irdma_hw_dev *hw, struct rte_mbuf **pkts, unsigned int n)
{
	struct soft_eth_io *io = handoff_io(hw);

	if (io == NULL || io->rx_ring == NULL)
		return -ENOTSUP;
	/* multi-producer: any lcore of the application may hand frames over */
	return (int)rte_ring_mp_enqueue_burst(io->rx_ring, (void **)pkts, n, NULL);
}

int soft_port_drain(struct irdma_hw_dev *hw, struct rte_mbuf **pkts, unsigned int n)
{
	struct soft_eth_io *io = handoff_io(hw);

	if (io == NULL || io->tx_ring == NULL)
		return -ENOTSUP;
	return (int)rte_ring_mc_dequeue_burst(io->tx_ring, (void **)pkts, n, NULL);
}
