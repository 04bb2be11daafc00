/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every operation between two devices of one process, each on its own ethdev (net_ring),
 * with the test as the cable between them: the devices find each other by ARP (no static
 * neighbours), and every frame crosses a real rte_eth_tx_burst/rx_burst. With WIRE_PCAP set,
 * every frame is also written to that pcap file (the tshark test reads it).
 */
#include <stdlib.h>

#include "wire_harness.h"
#include "wire_peer.h"

static struct wh_link link_;
static FILE *pcap_all; /* WIRE_PCAP: every frame of every case */
static struct wp srv, cli;
static unsigned int n_link;

static void pump(void *arg)
{
	(void)arg;
	wh_link_pump(&link_);
	wp_server_step(&srv);
}

static int open_pair(unsigned int gen, bool v6)
{
	char a[64], b[64], da[256], db[256];

	snprintf(a, sizeof(a), "wring%ua", n_link);
	snprintf(b, sizeof(b), "wring%ub", n_link++);
	if (wh_link_create(&link_, a, b) != 0)
		return -1;
	link_.pcap = pcap_all;
	/* rte_eth_from_rings() names its ports net_ring_<name>; GID 1 is the address given */
	snprintf(da, sizeof(da), "soft,port=net_ring_%s,%s,name=srv%u,gen=%u", a,
		 v6 ? "ip6=fd00:198:18::1" : "ip=198.18.0.1", n_link, gen);
	snprintf(db, sizeof(db), "soft,port=net_ring_%s,%s,name=cli%u,gen=%u", b,
		 v6 ? "ip6=fd00:198:18::2" : "ip=198.18.0.2", n_link, gen);
	if (wp_open(&srv, "server", da, gen) || wp_open(&cli, "client", db, gen))
		return -1;
	srv.peer = cli.me;
	cli.peer = srv.me;
	if (wp_connect(&srv, 10, 7) || wp_connect(&cli, 10, 7))
		return -1;
	cli.pump = pump;
	return 0;
}

static void close_pair(void)
{
	wp_close(&cli);
	wp_close(&srv);
	link_.pcap = NULL;
	wh_link_close(&link_);
}

static void check_clean_wire(struct wp *w)
{
	static const char *const zero[] = {
		"rx_drop_dst_mac", "rx_drop_ethertype", "rx_drop_dst_ip", "rx_drop_not_roce",
		"rx_drop_short", "rx_drop_arp", "rx_drop_nd", "rx_icrc_errors",
		"rx_malformed", "tx_drop_neigh_failed", "tx_drop_neigh_full", "tx_port_errors",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(zero); i++)
		T_CHECK_MSG(wp_xstat(w->dev, zero[i]) == 0, "%s: %s = %lu", w->role, zero[i],
			    (unsigned long)wp_xstat(w->dev, zero[i]));
}

static void all_ops(unsigned int gen, bool v6)
{
	const char *ask = v6 ? "tx_nd_solicits" : "tx_arp_requests";
	const char *answer = v6 ? "tx_nd_adverts" : "tx_arp_replies";

	T_EQ(open_pair(gen, v6), 0);
	T_EQ(wp_all_ops(&cli), 0);
	T_EQ(srv.st.errors, 0);
	/* every echo the client saw was checked there; the server saw every message */
	T_CHECK(srv.st.recvs >= 17 && srv.st.ud_recvs == 4 && srv.st.write_imms == 6);
	/* they found each other by ARP or ND: one side asked, the other answered */
	T_CHECK(wp_xstat(cli.dev, ask) + wp_xstat(srv.dev, ask) >= 1);
	T_CHECK(wp_xstat(cli.dev, answer) + wp_xstat(srv.dev, answer) >= 1);
	T_CHECK(wp_xstat(cli.dev, "neigh_resolved") >= 1 && wp_xstat(srv.dev, "neigh_resolved") >= 1);
	T_CHECK(link_.frames[0] > 100 && link_.frames[1] > 100);
	check_clean_wire(&cli);
	check_clean_wire(&srv);
	close_pair();
}

T_CASE(gen2_every_operation_over_net_ring_with_arp)
{
	all_ops(2, false);
}

T_CASE(gen3_every_operation_and_atomics_over_net_ring)
{
	all_ops(3, false);
}

T_CASE(gen3_every_operation_over_ipv6_with_neighbour_discovery)
{
	all_ops(3, true);
}

int main(int argc, char **argv)
{
	int rc;

	wh_eal_init("ring", "0", NULL);
	if (getenv("WIRE_PCAP") != NULL) {
		struct wh_link tmp;

		if (wh_pcap_open(&tmp, getenv("WIRE_PCAP")) != 0)
			t_skip_all("cannot write WIRE_PCAP");
		pcap_all = tmp.pcap;
	}
	rc = t_main(argc, argv);
	if (pcap_all != NULL)
		fclose(pcap_all);
	return rc;
}
