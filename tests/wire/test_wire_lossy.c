/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reliability: 10,000 mixed operations (SEND, WRITE, READ, FETCH_ADD on GEN_3) over a wire
 * that drops 5%, duplicates 1%, reorders 1% and corrupts 0.5% of the RoCEv2 frames each
 * device sends (the device's own fault injection, on net_ring ethdevs). Every operation
 * must complete exactly once with the right data: SENDs arrive once each and in order,
 * READs return what the last WRITE put there, and the FETCH_ADDs return 0, 1, 2, ... in
 * order (an atomic executed twice would show). The counters must show what happened:
 * faults injected, retransmissions, duplicates answered, corrupted frames dropped.
 */
#include <stdlib.h>

#include "wire_harness.h"
#include "wire_peer.h"

#define FAULTS ",drop=0.05,dup=0.01,reorder=0.01,corrupt=0.005"

static struct wh_link lk;
static struct wp srv, cli;

static void pump(void *arg)
{
	(void)arg;
	wh_link_pump(&lk);
	wp_server_step(&srv);
}

static uint64_t sum_drops(struct rte_pmd_irdma_dev *dev)
{
	static const char *const c[] = {
		"rx_icrc_errors", "rx_drop_not_roce", "rx_drop_dst_ip", "rx_drop_dst_mac",
		"rx_drop_ethertype", "rx_drop_udp_length", "rx_drop_ip_length", "rx_drop_ip_checksum",
		"rx_drop_ip_version", "rx_drop_ip_header", "rx_drop_short", "rx_drop_opcode",
		"rx_drop_header_length", "rx_drop_pad", "rx_drop_pkey", "rx_drop_bth_tver",
		"rx_drop_payload", "rx_drop_qpn", "rx_unknown_qp", "rx_malformed",
	};
	uint64_t s = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(c); i++)
		if (wp_xstat(dev, c[i]) != UINT64_MAX && strcmp(c[i], "rx_malformed") != 0)
			s += wp_xstat(dev, c[i]);
	return s;
}

static void lossy(unsigned int gen, unsigned int n, uint64_t seed)
{
	char da[256], db[256];
	uint64_t retrans, drops_a, drops_b;
	int fails;

	T_EQ(wh_link_create(&lk, gen == 3 ? "wlossy3a" : "wlossy2a",
			    gen == 3 ? "wlossy3b" : "wlossy2b"), 0);
	snprintf(da, sizeof(da), "soft,port=net_ring_wlossy%ua,ip=198.18.0.1,name=lsrv%u,gen=%u"
		 FAULTS ",seed=%lu", gen, gen, gen, (unsigned long)seed);
	snprintf(db, sizeof(db), "soft,port=net_ring_wlossy%ub,ip=198.18.0.2,name=lcli%u,gen=%u"
		 FAULTS ",seed=%lu", gen, gen, gen, (unsigned long)seed + 1);
	T_EQ(wp_open(&srv, "server", da, gen), 0);
	T_EQ(wp_open(&cli, "client", db, gen), 0);
	srv.peer = cli.me;
	cli.peer = srv.me;
	/* local ACK timeout 4.096 us << 8 = 1 ms, 7 retries: a lost frame costs ~1 ms */
	T_EQ(wp_connect(&srv, 8, 7), 0);
	T_EQ(wp_connect(&cli, 8, 7), 0);
	cli.pump = pump;
	cli.timeout_s = 30;

	fails = wp_mixed(&cli, n, 16);
	T_EQ(fails, 0);
	T_EQ(srv.st.errors, 0);
	T_EQ(srv.st.sink_seq, cli.st.sink_sent);
	T_CHECK(cli.st.sink_sent > n / 5);
	printf("# GEN_%u: %u operations, %lu SENDs, frames %lu/%lu\n", gen, n,
	       (unsigned long)cli.st.sink_sent, (unsigned long)lk.frames[0],
	       (unsigned long)lk.frames[1]);

	/* the faults happened, on both sides */
	T_CHECK(wp_xstat(cli.dev, "tx_fault_drops") > 0 && wp_xstat(srv.dev, "tx_fault_drops") > 0);
	T_CHECK(wp_xstat(cli.dev, "tx_fault_dups") > 0 && wp_xstat(srv.dev, "tx_fault_dups") > 0);
	T_CHECK(wp_xstat(cli.dev, "tx_fault_reorders") > 0);
	T_CHECK(wp_xstat(cli.dev, "tx_fault_corrupts") > 0);
	/* and were survived: retransmissions, duplicates answered, corrupted frames dropped */
	retrans = wp_qp_xstat(cli.rc, "retransmits");
	T_CHECK(retrans > 0 && retrans != UINT64_MAX);
	T_CHECK(wp_qp_xstat(srv.rc, "rx_duplicate_requests") > 0);
	drops_a = sum_drops(srv.dev);
	drops_b = sum_drops(cli.dev);
	T_CHECK(drops_a + drops_b > 0);
	printf("# retransmits %lu, ack timeouts %lu, seq NAKs rx %lu, duplicates at the responder %lu, "
	       "frames dropped by checks %lu/%lu (ICRC %lu/%lu)\n",
	       (unsigned long)retrans, (unsigned long)wp_qp_xstat(cli.rc, "ack_timeouts"),
	       (unsigned long)wp_qp_xstat(cli.rc, "rx_seq_naks"),
	       (unsigned long)wp_qp_xstat(srv.rc, "rx_duplicate_requests"),
	       (unsigned long)drops_a, (unsigned long)drops_b,
	       (unsigned long)wp_xstat(srv.dev, "rx_icrc_errors"),
	       (unsigned long)wp_xstat(cli.dev, "rx_icrc_errors"));
	wp_close(&cli);
	wp_close(&srv);
	wh_link_close(&lk);
}

/*
 * The delay fault: 20% of the frames each device sends held 2 ms, and 20% of those it
 * receives held 2 ms as well. Delayed frames come late (after frames sent after them, so
 * RC sees them out of order and may retransmit) but every frame still arrives exactly once:
 * what a device sent is what the other received, frame for frame, once nothing is held.
 */
#define DELAYS ",delay=20%%,delay_us=2000,rx_delay=0.2,rx_delay_us=2000"

static uint64_t xs(struct wp *w, const char *name)
{
	return wp_xstat(w->dev, name);
}

static void delayed(unsigned int n)
{
	char da[256], db[256];
	unsigned int i;
	int fails;

	T_EQ(wh_link_create(&lk, "wdelaya", "wdelayb"), 0);
	snprintf(da, sizeof(da), "soft,port=net_ring_wdelaya,ip=198.18.1.1,name=dsrv,gen=3"
		 DELAYS ",seed=11");
	snprintf(db, sizeof(db), "soft,port=net_ring_wdelayb,ip=198.18.1.2,name=dcli,gen=3"
		 DELAYS ",seed=12");
	T_EQ(wp_open(&srv, "server", da, 3), 0);
	T_EQ(wp_open(&cli, "client", db, 3), 0);
	srv.peer = cli.me;
	cli.peer = srv.me;
	/* ACK timeout 4.096 us << 12 = 16 ms: a delay alone rarely costs a retransmission */
	T_EQ(wp_connect(&srv, 12, 7), 0);
	T_EQ(wp_connect(&cli, 12, 7), 0);
	cli.pump = pump;
	cli.timeout_s = 30;

	fails = wp_mixed(&cli, n, 16);
	T_EQ(fails, 0);
	T_EQ(srv.st.errors, 0);
	T_EQ(srv.st.sink_seq, cli.st.sink_sent);
	T_CHECK(cli.st.sink_sent > n / 5);
	/* let whatever is still held go out (bounded by steps, not time) */
	for (i = 0; i < 20000000u && (xs(&srv, "rx_packets") - xs(&srv, "rx_not_roce") !=
				      xs(&cli, "tx_packets") ||
				      xs(&cli, "rx_packets") - xs(&cli, "rx_not_roce") !=
				      xs(&srv, "tx_packets")); i++) {
		pump(NULL);
		rte_pmd_irdma_progress(cli.dev, 0);
	}
	printf("# %u operations: tx %lu/%lu, rx %lu/%lu (not RoCE %lu/%lu), delayed tx %lu/%lu rx %lu/%lu, "
	       "ring full %lu/%lu/%lu/%lu, retransmits %lu, out of sequence %lu\n", n,
	       (unsigned long)xs(&cli, "tx_packets"), (unsigned long)xs(&srv, "tx_packets"),
	       (unsigned long)xs(&srv, "rx_packets"), (unsigned long)xs(&cli, "rx_packets"),
	       (unsigned long)xs(&srv, "rx_not_roce"), (unsigned long)xs(&cli, "rx_not_roce"),
	       (unsigned long)xs(&cli, "tx_fault_delayed"), (unsigned long)xs(&srv, "tx_fault_delayed"),
	       (unsigned long)xs(&srv, "rx_fault_delayed"), (unsigned long)xs(&cli, "rx_fault_delayed"),
	       (unsigned long)xs(&cli, "tx_fault_delay_full"), (unsigned long)xs(&srv, "tx_fault_delay_full"),
	       (unsigned long)xs(&srv, "rx_fault_delay_full"), (unsigned long)xs(&cli, "rx_fault_delay_full"),
	       (unsigned long)wp_qp_xstat(cli.rc, "retransmits"),
	       (unsigned long)wp_qp_xstat(srv.rc, "rx_seq_naks"));
	/* delays happened in both directions, on both sides */
	T_CHECK(xs(&cli, "tx_fault_delayed") > 0 && xs(&srv, "tx_fault_delayed") > 0);
	T_CHECK(xs(&cli, "rx_fault_delayed") > 0 && xs(&srv, "rx_fault_delayed") > 0);
	/* every RoCE frame sent arrived, exactly once: no other fault, so nothing lost or doubled */
	T_EQ(xs(&srv, "rx_packets") - xs(&srv, "rx_not_roce"), xs(&cli, "tx_packets"));
	T_EQ(xs(&cli, "rx_packets") - xs(&cli, "rx_not_roce"), xs(&srv, "tx_packets"));
	T_EQ(xs(&srv, "rx_icrc_errors") + xs(&cli, "rx_icrc_errors"), 0);
	wp_close(&cli);
	wp_close(&srv);
	wh_link_close(&lk);
}

T_CASE(gen3_2000_mixed_operations_with_20pct_of_frames_delayed_2ms)
{
	delayed(2000);
}

T_CASE(gen3_10000_mixed_operations_on_a_lossy_wire)
{
	lossy(3, 10000, 0x5eed);
}

T_CASE(gen2_2000_mixed_operations_on_a_lossy_wire)
{
	lossy(2, 2000, 77);
}

int main(int argc, char **argv)
{
	wh_eal_init("lossy", "0", NULL);
	return t_main(argc, argv);
}
