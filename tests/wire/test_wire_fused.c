/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive copy fused with the ICRC check (soft_rx_fuse.c) on a wire that corrupts 3%
 * of the frames each device sends (one byte from the BTH on, after the ICRC was computed):
 * 300 RDMA WRITEs of 16 KiB at path MTU 1024 (16 frames each, so mostly WRITE MIDDLE/LAST,
 * the frames whose ICRC is checked while the payload is copied into registered memory),
 * each read back and compared with what was written. Every byte must arrive as sent, the
 * QPs must stay up, and the damaged frames must have been dropped: by the fused check
 * (the responder QP's rx_drop_icrc, a counter only that path moves: a frame checked before
 * delivery never reaches a QP) and counted as ICRC errors of the device like any other.
 */
#include "wire_harness.h"
#include "wire_peer.h"

#define FAULTS ",corrupt=0.03"

static struct wh_link lk;
static struct wp srv, cli;

static void pump(void *arg)
{
	(void)arg;
	wh_link_pump(&lk);
	wp_server_step(&srv);
}

T_CASE(write_16k_on_a_corrupting_wire_fused_icrc)
{
	uint64_t qp_icrc, dev_icrc;
	unsigned int i, fails = 0;

	T_EQ(wh_link_create(&lk, "wfusea", "wfuseb"), 0);
	T_EQ(wp_open(&srv, "server", "soft,port=net_ring_wfusea,ip=198.18.0.1,name=fsrv,gen=2"
		     FAULTS ",seed=11", 2), 0);
	T_EQ(wp_open(&cli, "client", "soft,port=net_ring_wfuseb,ip=198.18.0.2,name=fcli,gen=2"
		     FAULTS ",seed=12", 2), 0);
	srv.peer = cli.me;
	cli.peer = srv.me;
	T_EQ(wp_connect(&srv, 8, 7), 0); /* ACK timeout ~1 ms, 7 retries */
	T_EQ(wp_connect(&cli, 8, 7), 0);
	cli.pump = pump;
	cli.timeout_s = 30;
	for (i = 0; i < 300; i++)
		fails += wp_write_read(&cli, 16384, (i % 7) * 4096 + (i % 3)) != 0;
	T_EQ(fails, 0);
	T_EQ(srv.st.errors, 0);
	T_CHECK(wp_xstat(cli.dev, "tx_fault_corrupts") > 0);
	qp_icrc = wp_qp_xstat(srv.rc, "rx_drop_icrc");
	dev_icrc = wp_xstat(srv.dev, "rx_icrc_errors");
	T_CHECK(qp_icrc != UINT64_MAX && qp_icrc > 0);
	T_CHECK(dev_icrc >= qp_icrc);
	T_CHECK(wp_qp_xstat(cli.rc, "retransmits") > 0);
	printf("# client corrupted %lu frames; server: %lu ICRC drops, %lu of them by the fused "
	       "check\n", (unsigned long)wp_xstat(cli.dev, "tx_fault_corrupts"),
	       (unsigned long)dev_icrc, (unsigned long)qp_icrc);
	wp_close(&cli);
	wp_close(&srv);
	wh_link_close(&lk);
}

int main(int argc, char **argv)
{
	wh_eal_init("fused", "0", NULL);
	return t_main(argc, argv);
}
