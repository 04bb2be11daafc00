/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the ethdev back-end asks of a port (soft/soft_port_eth_cfg.h) and how it finds it
 * (irdma_ethdev_find.h), without a NIC: the port MTU a path MTU needs and the error that
 * names the NIC's limit, the checksum offloads taken from the capabilities, the IPv4
 * checksum handed to the NIC (the frame stays ICRC-valid and a NIC's checksum makes it
 * whole again), lookups by name and PCI address, and a device on net_ring at path MTU
 * 4096 configuring the port's MTU. The same on a real NIC: tests/vfio.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include <rte_pmd_irdma.h>

#include "irdma_ethdev_find.h"
#include "roce_addr.h"
#include "roce_hdr.h"
#include "roce_pkt.h"
#include "roce_reason.h"
#include "soft_port_eth_cfg.h"

#include "wire_harness.h"

static struct rte_eth_dev_info nic(uint16_t min_mtu, uint16_t max_mtu)
{
	struct rte_eth_dev_info i;

	memset(&i, 0, sizeof(i));
	i.min_mtu = min_mtu;
	i.max_mtu = max_mtu;
	i.driver_name = "net_test";
	return i;
}

T_CASE(port_mtu_from_path_mtu)
{
	struct rte_eth_dev_info i = nic(68, 1500);
	uint16_t mtu = 1;
	uint32_t fit = 1;

	/* 1024 + 96 fits 1500: the port keeps its default */
	T_EQ(soft_eth_port_mtu(1024, &i, &mtu, &fit), 0);
	T_EQ(mtu, 0);
	/* 2048 does not fit a 1500-byte NIC: the largest path MTU that does is 1024 */
	T_EQ(soft_eth_port_mtu(2048, &i, &mtu, &fit), -EINVAL);
	T_EQ(fit, 1024);
	T_EQ(soft_eth_port_mtu(4096, &i, &mtu, &fit), -EINVAL);
	T_EQ(fit, 1024);
	/* a jumbo NIC: path MTU + headers, never the NIC's maximum */
	i = nic(68, 9728);
	T_EQ(soft_eth_port_mtu(4096, &i, &mtu, &fit), 0);
	T_EQ(mtu, 4096 + SOFT_ETH_HDR_ROOM);
	T_EQ(soft_eth_port_mtu(2048, &i, &mtu, &fit), 0);
	T_EQ(mtu, 2048 + SOFT_ETH_HDR_ROOM);
	T_EQ(soft_eth_port_mtu(256, &i, &mtu, &fit), 0);
	T_EQ(mtu, 0);
	/* a NIC just short of 4096 + 96 */
	i = nic(68, 4096 + SOFT_ETH_HDR_ROOM - 1);
	T_EQ(soft_eth_port_mtu(4096, &i, &mtu, &fit), -EINVAL);
	T_EQ(fit, 2048);
	/* nothing fits */
	i = nic(68, 300);
	T_EQ(soft_eth_port_mtu(256, &i, &mtu, &fit), -EINVAL);
	T_EQ(fit, 0);
	/* a NIC whose minimum is above what a jumbo path MTU needs */
	i = nic(5000, 9000);
	T_EQ(soft_eth_port_mtu(4096, &i, &mtu, &fit), -EINVAL);
}

T_CASE(offloads_from_capabilities)
{
	struct rte_eth_dev_info i = nic(68, 1500);

	T_EQ(soft_eth_tx_offloads(&i), 0);
	T_EQ(soft_eth_rx_offloads(&i), 0);
	i.tx_offload_capa = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			    RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	i.rx_offload_capa = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM;
	/* the IPv4 header checksum only: RoCEv2's UDP checksum is 0 */
	T_EQ(soft_eth_tx_offloads(&i), RTE_ETH_TX_OFFLOAD_IPV4_CKSUM);
	T_EQ(soft_eth_rx_offloads(&i), RTE_ETH_RX_OFFLOAD_IPV4_CKSUM);
	/* virtio-net: L4 checksums only, so nothing */
	i.tx_offload_capa = RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	i.rx_offload_capa = RTE_ETH_RX_OFFLOAD_UDP_CKSUM;
	T_EQ(soft_eth_tx_offloads(&i), 0);
	T_EQ(soft_eth_rx_offloads(&i), 0);
}

static struct rte_mempool *pool;

/* An RC SEND Only from 198.18.0.2 to 198.18.0.11 in an mbuf, VLAN-tagged or not. */
static struct rte_mbuf *roce_frame(bool vlan, bool ipv6)
{
	static const uint8_t a[4] = { 198, 18, 0, 2 }, b[4] = { 198, 18, 0, 11 };
	static const uint8_t payload[100] = { 1, 2, 3, 4, 5 };
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct roce_pkt p;
	int len;

	if (m == NULL)
		return NULL;
	memset(&p, 0, sizeof(p));
	p.smac[0] = 0x02;
	p.dmac[0] = 0x52;
	p.has_vlan = vlan;
	p.vlan_tci = 0x6005;
	p.ipv6 = ipv6;
	p.hop_limit = 64;
	p.tclass = 0x68;
	p.ip_frag = 0x4000;
	p.ip_id = 0x1234;
	if (ipv6) {
		p.sgid[0] = 0xfd;
		p.dgid[0] = 0xfd;
		p.dgid[15] = 1;
	} else {
		roce_gid_from_ipv4(p.sgid, a);
		roce_gid_from_ipv4(p.dgid, b);
	}
	p.sport = 0xc000;
	p.opcode = ROCE_OP_RC_SEND_ONLY;
	p.pkey = 0xffff;
	p.dqpn = 0x11;
	p.psn = 7;
	p.payload = payload;
	p.paylen = sizeof(payload);
	len = roce_pkt_build(&p, rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_tailroom(m));
	if (len < 0) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	return m;
}

static void tx_ip4_cksum(bool vlan)
{
	struct rte_mbuf *m = roce_frame(vlan, false);
	uint32_t l3 = vlan ? 18 : 14;
	struct roce_pkt parsed;
	uint8_t *f, orig[2];
	struct rte_ipv4_hdr *ip;

	T_CHECK(m != NULL);
	if (m == NULL)
		return;
	f = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(orig, f + l3 + 10, 2);
	T_CHECK(orig[0] != 0 || orig[1] != 0);
	soft_eth_tx_ip4_cksum(m);
	T_EQ(m->l2_len, l3);
	T_EQ(m->l3_len, 20);
	T_EQ(m->ol_flags & (RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM),
	     RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM);
	T_EQ(f[l3 + 10], 0);
	T_EQ(f[l3 + 11], 0);
	/* the ICRC does not see the checksum: still valid, only the checksum is wrong */
	T_EQ(roce_pkt_parse(f, m->data_len, 0, &parsed), ROCE_R_IP_CSUM);
	T_EQ(roce_pkt_parse(f, m->data_len, ROCE_PARSE_NO_CSUM, &parsed), 0);
	/* what the NIC does: the frame is whole again, byte for byte what was built */
	ip = (struct rte_ipv4_hdr *)(f + l3);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	T_MEMEQ(f + l3 + 10, orig, 2);
	T_EQ(roce_pkt_parse(f, m->data_len, 0, &parsed), 0);
	T_EQ(parsed.psn, 7);
	rte_pktmbuf_free(m);
}

T_CASE(tx_ip4_cksum_left_to_the_nic)
{
	tx_ip4_cksum(false);
	tx_ip4_cksum(true);
}

T_CASE(tx_ip4_cksum_leaves_other_frames_alone)
{
	struct rte_mbuf *m = roce_frame(false, true);
	uint8_t before[128];

	T_CHECK(m != NULL);
	if (m == NULL)
		return;
	memcpy(before, rte_pktmbuf_mtod(m, uint8_t *), sizeof(before));
	soft_eth_tx_ip4_cksum(m);
	T_EQ(m->ol_flags, 0);
	T_MEMEQ(rte_pktmbuf_mtod(m, uint8_t *), before, sizeof(before));
	/* an ARP frame */
	memset(rte_pktmbuf_mtod(m, uint8_t *), 0, 60);
	rte_pktmbuf_mtod(m, uint8_t *)[12] = 0x08;
	rte_pktmbuf_mtod(m, uint8_t *)[13] = 0x06;
	soft_eth_tx_ip4_cksum(m);
	T_EQ(m->ol_flags, 0);
	rte_pktmbuf_free(m);
}

T_CASE(rx_ip4_cksum_bad_is_the_nics_verdict)
{
	struct rte_mbuf *m = roce_frame(false, false);

	T_CHECK(m != NULL);
	if (m == NULL)
		return;
	T_CHECK(!soft_eth_rx_ip4_cksum_bad(m));           /* no verdict */
	m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	T_CHECK(!soft_eth_rx_ip4_cksum_bad(m));
	m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_NONE;
	T_CHECK(!soft_eth_rx_ip4_cksum_bad(m));
	m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_BAD;
	T_CHECK(soft_eth_rx_ip4_cksum_bad(m));
	rte_pktmbuf_free(m);
}

static struct wh_link link_;

T_CASE(find_by_name_and_pci_address)
{
	uint16_t pid = UINT16_MAX;
	struct rte_pci_addr a;

	T_EQ(irdma_ethdev_find("net_ring_wport0a", &pid), 0);
	T_EQ(pid, link_.port[0]);
	T_EQ(irdma_ethdev_find("net_ring_wport0b", &pid), 0);
	T_EQ(pid, link_.port[1]);
	/* a vdev has no PCI address; no PCI device was probed (--no-pci) */
	T_EQ(irdma_ethdev_pci_addr(link_.port[0], &a), -ENODEV);
	T_EQ(irdma_ethdev_find("0000:3b:00.0", &pid), -ENODEV);
	T_EQ(irdma_ethdev_find("3b:00.0", &pid), -ENODEV);
	T_EQ(irdma_ethdev_find("net_nothing0", &pid), -ENODEV);
	T_EQ(irdma_ethdev_find("", &pid), -ENODEV);
}

T_CASE(device_sets_the_port_mtu)
{
	struct rte_pmd_irdma_dev *d;
	uint16_t mtu = 0;

	/* path MTU 1024: the port's default MTU */
	d = rte_pmd_irdma_dev_create("soft,port=net_ring_wport0a,ip=198.18.0.1,mtu=1024,name=mtu1k");
	T_CHECK(d != NULL);
	if (d == NULL)
		return;
	T_EQ(rte_eth_dev_get_mtu(link_.port[0], &mtu), 0);
	T_EQ(mtu, RTE_ETHER_MTU);
	T_EQ(rte_pmd_irdma_dev_close(d), 0);
	/* path MTU 4096: jumbo frames (net_ring takes any MTU) */
	d = rte_pmd_irdma_dev_create("soft,port=net_ring_wport0b,ip=198.18.0.2,mtu=4096,name=mtu4k");
	T_CHECK(d != NULL);
	if (d == NULL)
		return;
	T_EQ(rte_eth_dev_get_mtu(link_.port[1], &mtu), 0);
	T_EQ(mtu, 4096 + SOFT_ETH_HDR_ROOM);
	T_EQ(rte_pmd_irdma_dev_close(d), 0);
}

int main(int argc, char **argv)
{
	wh_eal_init("wport", "0", NULL);
	pool = rte_pktmbuf_pool_create("wport_pool", 64, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	if (pool == NULL || wh_link_create(&link_, "wport0a", "wport0b") != 0)
		t_skip_all("no mempool or net_ring ports");
	return t_main(argc, argv);
}
