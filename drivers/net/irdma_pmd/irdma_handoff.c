/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A port the application owns: the mbuf hand-off (rte_pmd_irdma_rx_burst, _tx_drain) and
 * the test the application's rx loop uses to pick the device's frames out of its own
 * (rte_pmd_irdma_frame_is_mine). The test reads the device's addresses from hw_info (its
 * MAC and GIDs: index 0 link-local, then the IPv4-mapped and IPv6 addresses), final once
 * the device is open, so it needs no lock and no call into the backend.
 */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "irdma_log.h"
#include "irdma_pmd.h"
#include "roce_hdr.h" /* the big-endian field readers */

#define ETH_HLEN   14u
#define VLAN_HLEN  4u
#define IP4_HLEN   20u
#define IP6_HLEN   40u
#define ARP_LEN    28u
#define ND_LEN     24u  /* ICMPv6 header + reserved/flags + target */
#define ROCE_PORT  4791u

static int is_v4_mapped(const uint8_t *g)
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return memcmp(g, prefix, sizeof(prefix)) == 0;
}

/* Is @p ip (4 bytes for IPv4, else 16) one of the device's addresses? */
static int our_ip(const struct rte_pmd_irdma_dev *dev, const uint8_t *ip, int v4)
{
	uint32_t i;

	for (i = 0; i < dev->hw_info.n_gids; i++) {
		const uint8_t *g = dev->hw_info.gid[i];

		if (v4 ? is_v4_mapped(g) && memcmp(g + 12, ip, 4) == 0 :
			 !is_v4_mapped(g) && memcmp(g, ip, 16) == 0)
			return 1;
	}
	return 0;
}

int
rte_pmd_irdma_frame_is_mine(const struct rte_pmd_irdma_dev *dev, const struct rte_mbuf *m)
{
	const uint8_t *f;
	uint32_t len, l3 = ETH_HLEN, l4;
	uint16_t type;

	if (dev == NULL || m == NULL)
		return 0;
	f = rte_pktmbuf_mtod(m, const uint8_t *);
	len = m->data_len;
	if (len < ETH_HLEN + VLAN_HLEN)
		return 0;
	type = roce_get_be16(f + 12);
	if (type == RTE_ETHER_TYPE_VLAN) {
		type = roce_get_be16(f + 16);
		l3 += VLAN_HLEN;
	}
	/* to our MAC, or broadcast (ARP) or IPv6 multicast (solicitations) */
	if (memcmp(f, dev->hw_info.mac, 6) != 0 && !(f[0] & 1))
		return 0;
	switch (type) {
	case RTE_ETHER_TYPE_ARP:
		return len >= l3 + ARP_LEN && our_ip(dev, f + l3 + 24, 1);
	case RTE_ETHER_TYPE_IPV4:
		if (len < l3 + IP4_HLEN || f[l3 + 9] != IPPROTO_UDP || (f[0] & 1))
			return 0;
		l4 = l3 + (f[l3] & 0x0fu) * 4u;
		return len >= l4 + 4 && roce_get_be16(f + l4 + 2) == ROCE_PORT && our_ip(dev, f + l3 + 16, 1);
	case RTE_ETHER_TYPE_IPV6:
		if (len < l3 + IP6_HLEN + 4)
			return 0;
		l4 = l3 + IP6_HLEN;
		if (f[l3 + 6] == IPPROTO_UDP)
			return !(f[0] & 1) && roce_get_be16(f + l4 + 2) == ROCE_PORT &&
			       our_ip(dev, f + l3 + 24, 0);
		/* neighbour solicitation (135) or advertisement (136) about our address */
		return f[l3 + 6] == IPPROTO_ICMPV6 && (f[l4] == 135 || f[l4] == 136) &&
		       len >= l4 + ND_LEN && our_ip(dev, f + l4 + 8, 0);
	default:
		return 0;
	}
}

int
rte_pmd_irdma_rx_burst(struct rte_pmd_irdma_dev *dev, struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(!irdma_dev_valid(dev) || (pkts == NULL && n != 0)))
		return -EINVAL;
	if (dev->ops->port_rx == NULL)
		return -ENOTSUP;
	return dev->ops->port_rx(dev->hw, pkts, n);
}

int
rte_pmd_irdma_tx_drain(struct rte_pmd_irdma_dev *dev, struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(!irdma_dev_valid(dev) || (pkts == NULL && n != 0)))
		return -EINVAL;
	if (dev->ops->port_drain == NULL)
		return -ENOTSUP;
	return dev->ops->port_drain(dev->hw, pkts, n);
}
