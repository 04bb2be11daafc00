/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the ethdev back-end asks of a port (soft_port_eth.c): the port MTU a path MTU needs,
 * and the checksum offloads it uses. Decisions from rte_eth_dev_info alone, so they are
 * tested without a NIC (tests/wire/test_wire_port.c).
 *
 * Checksums (lib/roce/roce_icrc.c, the masked prefix): the ICRC covers the IP header with TOS, TTL and
 * the header checksum masked to all ones, and the UDP header with its checksum masked.
 * So the IPv4 header checksum can be left to the NIC after the ICRC was computed over the
 * frame; nothing else can. The UDP checksum of RoCEv2 is 0 (the ICRC protects the
 * payload), so UDP checksum offload is never requested: a NIC filling it in would only
 * add work at the receiver.
 */
#ifndef SOFT_PORT_ETH_CFG_H
#define SOFT_PORT_ETH_CFG_H

#include <errno.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "roce_hdr.h"

/* IP + UDP + BTH + the largest extension headers + ICRC above the path MTU. */
#define SOFT_ETH_HDR_ROOM 96u
/* The largest port MTU the device asks for (jumbo frames). */
#define SOFT_ETH_MTU_MAX  9000u

/*
 * The port MTU for a path MTU: 0 keeps the port's default (a path MTU whose frames fit
 * 1500 bytes of IP), else path MTU + SOFT_ETH_HDR_ROOM. -EINVAL when the NIC cannot take
 * it; *fit is then the largest path MTU it can (0: not even 256).
 */
static inline int
soft_eth_port_mtu(uint32_t path_mtu, const struct rte_eth_dev_info *info, uint16_t *mtu,
		  uint32_t *fit)
{
	uint32_t need = path_mtu + SOFT_ETH_HDR_ROOM, p;

	*mtu = 0;
	*fit = 0;
	if (need <= RTE_ETHER_MTU && info->max_mtu >= need)
		return 0;
	if (need <= SOFT_ETH_MTU_MAX && info->max_mtu >= need && info->min_mtu <= need) {
		*mtu = (uint16_t)need;
		return 0;
	}
	for (p = 4096; p >= 256; p /= 2)
		if (p + SOFT_ETH_HDR_ROOM <= info->max_mtu) {
			*fit = p;
			break;
		}
	return -EINVAL;
}

/* Offloads the device uses when the NIC has them: IPv4 header checksum, both ways. */
static inline uint64_t
soft_eth_tx_offloads(const struct rte_eth_dev_info *info)
{
	return info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
}

static inline uint64_t
soft_eth_rx_offloads(const struct rte_eth_dev_info *info)
{
	return info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
}

/* Hands an IPv4 frame's header checksum to the NIC (a frame of another type is left as it
 * is): the field is zeroed, as the offload wants, which the ICRC does not see. */
static inline void
soft_eth_tx_ip4_cksum(struct rte_mbuf *m)
{
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t l3 = ROCE_ETH_HLEN;
	uint16_t type = roce_get_be16(f + 12);

	if (type == ROCE_ETHERTYPE_VLAN) {
		type = roce_get_be16(f + 16);
		l3 += ROCE_VLAN_HLEN;
	}
	if (type != ROCE_ETHERTYPE_IPV4)
		return;
	m->l2_len = l3;
	m->l3_len = (f[l3] & 0x0fu) * 4u;
	m->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	f[l3 + 10] = 0;
	f[l3 + 11] = 0;
}

/* True when the NIC checked the frame's IPv4 header checksum and found it wrong. */
static inline bool
soft_eth_rx_ip4_cksum_bad(const struct rte_mbuf *m)
{
	return (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_BAD;
}

#endif /* SOFT_PORT_ETH_CFG_H */
