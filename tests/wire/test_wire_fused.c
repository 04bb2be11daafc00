/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive copy fused with the ICRC check (soft_rx_fuse.c) with 3% of the frames the
 * server receives corrupted (one byte from the BTH on, before any check):
 * 300 RDMA WRITEs of 16 KiB at path MTU 1024 (16 frames each, so mostly WRITE MIDDLE/LAST,
 * the frames whose ICRC is checked while the payload is copied into registered memory),
 * each read back and compared with what was written, and 100 SENDs of about 16 KiB (SEND
 * MIDDLE/LAST, fused the same way into the receive WQE), echoed and compared. Every byte must arrive as sent, the
 * QPs must stay up, and the damaged frames must have been dropped: by the fused check
 * (the responder QP's rx_drop_icrc, a counter only that path moves: a frame checked before
 * delivery never reaches a QP) and counted as ICRC errors of the device like any other.
 */
#include "wire_harness.h"
#include "wire_peer.h"

/* On receive: a frame the client sends by reference (zero-copy, net_ring takes chains)
 * is corrupted by the sender's own injection only in its header segment, never in the
 * registered memory it points to; the server's receive injection reaches the payload. */
#define FAULTS ",rx_corrupt=0.03"

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
	T_EQ(wp_open(&cli, "client", "soft,port=net_ring_wfuseb,ip=198.18.0.2,name=fcli,gen=2",
		     2), 0);
	srv.peer = cli.me;
	cli.peer = srv.me;
	T_EQ(wp_connect(&srv, 8, 7), 0); /* ACK timeout ~1 ms, 7 retries */
	T_EQ(wp_connect(&cli, 8, 7), 0);
	cli.pump = pump;
	cli.timeout_s = 30;
	for (i = 0; i < 300; i++) {
		fails += wp_write_read(&cli, 16384, (i % 7) * 4096 + (i % 3)) != 0;
		if (i % 3 == 0) /* SEND MIDDLE/LAST into the receive WQE: fused as well */
			fails += wp_send(&cli, RTE_PMD_IRDMA_WR_SEND, 16384 - (i % 5)) != 0;
	}
	T_EQ(fails, 0);
	T_EQ(srv.st.errors, 0);
	T_CHECK(wp_xstat(srv.dev, "rx_fault_corrupts") > 0);
	qp_icrc = wp_qp_xstat(srv.rc, "rx_drop_icrc");
	dev_icrc = wp_xstat(srv.dev, "rx_icrc_errors");
	T_CHECK(qp_icrc != UINT64_MAX && qp_icrc > 0);
	T_CHECK(dev_icrc >= qp_icrc);
	T_CHECK(wp_qp_xstat(cli.rc, "retransmits") > 0);
	printf("# server corrupted %lu frames it received: %lu ICRC drops, %lu of them by the "
	       "fused check\n", (unsigned long)wp_xstat(srv.dev, "rx_fault_corrupts"),
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
