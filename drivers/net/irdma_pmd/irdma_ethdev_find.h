/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port=<name>: the ethdev a device runs on, by its ethdev name (net_memif0, net_ring_x,
 * 0000:3b:00.0 for a port EAL probed on the PCI bus) or by the PCI address of its device
 * in any form rte_pci_addr_parse() takes (3b:00.0 and 0000:3b:00.0 are the same NIC).
 * One lookup for the PMD (which takes the port's NUMA socket from it) and for the soft
 * device's ethdev back-end (which takes the port over), so both agree on what a name means.
 */
#ifndef IRDMA_ETHDEV_FIND_H
#define IRDMA_ETHDEV_FIND_H

#include <errno.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_pci.h>

/* The PCI address of a port's device, if it sits on the PCI bus. */
static inline int
irdma_ethdev_pci_addr(uint16_t port_id, struct rte_pci_addr *addr)
{
	struct rte_eth_dev_info info;
	const struct rte_bus *bus;

	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.device == NULL)
		return -ENODEV;
	bus = rte_dev_bus(info.device);
	if (bus == NULL || strcmp(rte_bus_name(bus), "pci") != 0)
		return -ENODEV;
	return rte_pci_addr_parse(rte_dev_name(info.device), addr) == 0 ? 0 : -ENODEV;
}

/* 0 and *port_id, or -ENODEV. A PCI device with several ports (one per physical port on
 * some NICs) matches its first: name the port by its ethdev name to pick another. */
static inline int
irdma_ethdev_find(const char *name, uint16_t *port_id)
{
	struct rte_pci_addr want, have;
	uint16_t p;

	if (rte_eth_dev_get_port_by_name(name, port_id) == 0)
		return 0;
	if (rte_pci_addr_parse(name, &want) != 0)
		return -ENODEV;
	RTE_ETH_FOREACH_DEV(p) {
		if (irdma_ethdev_pci_addr(p, &have) == 0 && rte_pci_addr_cmp(&want, &have) == 0) {
			*port_id = p;
			return 0;
		}
	}
	return -ENODEV;
}

#endif /* IRDMA_ETHDEV_FIND_H */
