/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A retransmission still queued when its WRITE completes (soft_tx_zcopy.c): over net_ring
 * (which takes chains, so WRITEs of 1024 bytes and more leave by reference) the link holds
 * the client's frames; the client's ACK timer fires and it sends the WRITE again, queued
 * behind the original. The original alone reaches the server, the server's ACK reaches
 * the client, the WRITE completes, and the client rewrites its source buffer, as it may
 * once it owns it. Then the held retransmission reaches the server: it must be a clean
 * duplicate (re-ACKed, no ICRC error, the written bytes those of the first WRITE). With the
 * retransmission pointing into the registered memory, its payload would no longer match
 * the ICRC computed when it was built: the server would count an ICRC error (the
 * rx_icrc_errors = 32 seen once under load in wire_tshark). The second case holds a READ
 * response instead (rx_icrc_errors = 4 at the client, seen under load in wire_ring).
 */
#include "wire_harness.h"
#include "wire_peer.h"

#define LEN 4096u

static struct wh_link lk;
static struct wp srv, cli;

static void pump(void *arg)
{
	(void)arg;
	wh_link_pump(&lk);
	wp_server_step(&srv);
}

/* Moves up to n frames port i sent to the other port (the link held them). */
static unsigned int forward(unsigned int i, unsigned int n)
{
	struct rte_mbuf *m[64];
	unsigned int done = 0, k, got;

	while (done < n) {
		got = rte_ring_dequeue_burst(lk.out[i], (void **)m, RTE_MIN(n - done, 64u), NULL);
		if (got == 0)
			break;
		k = rte_ring_enqueue_burst(lk.in[i ^ 1], (void **)m, got, NULL);
		if (k < got)
			rte_pktmbuf_free_bulk(m + k, got - k);
		done += got;
	}
	return done;
}

static void spin_us(struct rte_pmd_irdma_dev *dev, unsigned int us)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000000u * us;

	while (rte_get_timer_cycles() < end)
		rte_pmd_irdma_progress(dev, 64);
}

/* A pair on a new link (names a, b), connected with the server's ACK timeout srv_to, the
 * client's ~17 ms, used once (neighbours resolved, the QPs in use). */
static void open_pair(const char *a, const char *b, const char *sname, const char *cname,
		      uint8_t srv_to)
{
	char da[128], db[128];

	snprintf(da, sizeof(da), "soft,port=net_ring_%s,ip=198.18.0.1,name=%s,gen=2", a, sname);
	snprintf(db, sizeof(db), "soft,port=net_ring_%s,ip=198.18.0.2,name=%s,gen=2", b, cname);
	T_EQ(wh_link_create(&lk, a, b), 0);
	T_EQ(wp_open(&srv, "server", da, 2), 0);
	T_EQ(wp_open(&cli, "client", db, 2), 0);
	srv.peer = cli.me;
	cli.peer = srv.me;
	T_EQ(wp_connect(&srv, srv_to, 7), 0);
	T_EQ(wp_connect(&cli, 12, 7), 0);
	cli.pump = pump;
	cli.timeout_s = 10;
	T_EQ(wp_write_read(&cli, LEN, 0), 0);
}

/* One signaled RDMA op of LEN bytes: local at cli.buf + loff, remote at the server's
 * WP_WRITE_OFF. */
static void post_rdma(int opcode, uint64_t wr_id, uint32_t loff)
{
	struct rte_pmd_irdma_sge s = { (uintptr_t)(cli.buf + loff), LEN, cli.mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	int err = 0;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.opcode = opcode;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = cli.peer.addr + WP_WRITE_OFF;
	wr.wr.rdma.rkey = cli.peer.rkey;
	T_EQ(rte_pmd_irdma_post_send(cli.rc, &wr, 1, &err), 1);
}

T_CASE(retransmission_queued_past_completion_is_a_clean_duplicate)
{
	struct rte_pmd_irdma_wc wc;
	unsigned int orig, n, i;
	uint64_t dups0, icrc0, rt0, end;
	int got = 0;

	/* the server's ACK timeout ~1 ms; the client's ~17 ms: the original leaves well before */
	open_pair("wzcsa", "wzcsb", "zsrv", "zcli", 8);
	dups0 = wp_qp_xstat(srv.rc, "rx_duplicate_requests");
	icrc0 = wp_xstat(srv.dev, "rx_icrc_errors");
	rt0 = wp_qp_xstat(cli.rc, "retransmits");

	lk.hold = true;
	memset(cli.buf + WP_SRC_OFF, 0xA5, LEN);
	memset(srv.buf + WP_WRITE_OFF, 0, LEN);
	post_rdma(RTE_PMD_IRDMA_WR_RDMA_WRITE, 77, WP_SRC_OFF);
	for (i = 0; i < 64; i++) /* the original leaves */
		rte_pmd_irdma_progress(cli.dev, 64);
	orig = rte_ring_count(lk.out[1]);
	T_CHECK(orig >= 1);
	T_EQ(wp_qp_xstat(cli.rc, "retransmits"), rt0); /* else orig counted a retransmission */
	/* the ACK timer fires: the WRITE again, behind the original */
	end = rte_get_timer_cycles() + rte_get_timer_hz();
	while (rte_ring_count(lk.out[1]) < 2 * orig && rte_get_timer_cycles() < end)
		spin_us(cli.dev, 100);
	n = rte_ring_count(lk.out[1]);
	T_CHECK(n >= 2 * orig);
	T_CHECK(wp_qp_xstat(cli.rc, "retransmits") > rt0);

	/* the original alone; the server's ACK back; the WRITE completes */
	T_EQ(forward(1, orig), orig);
	end = rte_get_timer_cycles() + rte_get_timer_hz();
	while (got == 0 && rte_get_timer_cycles() < end) {
		for (i = 0; i < 4; i++)
			rte_pmd_irdma_progress(srv.dev, 64);
		forward(0, 64);
		got = rte_pmd_irdma_poll_cq(cli.scq, &wc, 1);
	}
	T_EQ(got, 1);
	T_EQ(wc.wr_id, 77);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	/* the buffer is the application's again */
	memset(cli.buf + WP_SRC_OFF, 0x3C, LEN);

	/* now the held retransmission(s) */
	T_CHECK(forward(1, n - orig) >= orig);
	for (i = 0; i < 64; i++) {
		rte_pmd_irdma_progress(srv.dev, 64);
		forward(0, 64);
		rte_pmd_irdma_progress(cli.dev, 64);
	}
	printf("# %u frames of the original, %u held behind it; server: %lu ICRC errors, "
	       "%lu duplicates\n", orig, n - orig,
	       (unsigned long)(wp_xstat(srv.dev, "rx_icrc_errors") - icrc0),
	       (unsigned long)(wp_qp_xstat(srv.rc, "rx_duplicate_requests") - dups0));
	T_EQ(wp_xstat(srv.dev, "rx_icrc_errors"), icrc0);
	T_CHECK(wp_qp_xstat(srv.rc, "rx_duplicate_requests") > dups0);
	for (i = 0; i < LEN; i++)
		if (srv.buf[WP_WRITE_OFF + i] != 0xA5)
			break;
	T_EQ(i, LEN);

	/* the QP still works */
	lk.hold = false;
	T_EQ(wp_write_read(&cli, LEN, 4096), 0);
	T_EQ(srv.st.errors, 0);
	wp_close(&cli);
	wp_close(&srv);
	wh_link_close(&lk);
}

/*
 * A READ response held on the link while the responder's memory changes: the requester may
 * post a WRITE to the same bytes behind its READ (or the server's application may store to
 * them). The response must carry the bytes it was built from, with an ICRC that matches
 * them: READ responses are copied, never sent by reference into the responder's memory.
 */
T_CASE(read_response_held_while_the_responder_memory_changes)
{
	struct rte_pmd_irdma_wc wc;
	unsigned int held, i;
	uint64_t icrc0, end;
	int got = 0;

	open_pair("wzcra", "wzcrb", "zrsrv", "zrcli", 12); /* ~17 ms: no retry while we hold */
	icrc0 = wp_xstat(cli.dev, "rx_icrc_errors");

	lk.hold = true;
	memset(srv.buf + WP_WRITE_OFF, 0xA5, LEN);
	memset(cli.buf + WP_DST_OFF, 0, LEN);
	post_rdma(RTE_PMD_IRDMA_WR_RDMA_READ, 78, WP_DST_OFF);
	for (i = 0; i < 64; i++)
		rte_pmd_irdma_progress(cli.dev, 64);
	T_CHECK(forward(1, 64) >= 1); /* the READ request reaches the server */
	for (i = 0; i < 64; i++)
		rte_pmd_irdma_progress(srv.dev, 64);
	held = rte_ring_count(lk.out[0]);
	T_CHECK(held >= 1); /* the response, on the link */
	/* what a WRITE behind the READ, or the server's own store, does to the bytes */
	memset(srv.buf + WP_WRITE_OFF, 0x3C, LEN);

	end = rte_get_timer_cycles() + rte_get_timer_hz();
	while (got == 0 && rte_get_timer_cycles() < end) {
		forward(0, 64);
		rte_pmd_irdma_progress(cli.dev, 64);
		got = rte_pmd_irdma_poll_cq(cli.scq, &wc, 1);
	}
	T_EQ(got, 1);
	T_EQ(wc.wr_id, 78);
	T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	printf("# %u response frames held; client: %lu ICRC errors\n", held,
	       (unsigned long)(wp_xstat(cli.dev, "rx_icrc_errors") - icrc0));
	T_EQ(wp_xstat(cli.dev, "rx_icrc_errors"), icrc0);
	for (i = 0; i < LEN; i++)
		if (cli.buf[WP_DST_OFF + i] != 0xA5)
			break;
	T_EQ(i, LEN); /* the bytes of the moment the response was built */

	lk.hold = false;
	T_EQ(wp_write_read(&cli, LEN, 4096), 0);
	T_EQ(srv.st.errors, 0);
	wp_close(&cli);
	wp_close(&srv);
	wh_link_close(&lk);
}

int main(int argc, char **argv)
{
	wh_eal_init("zcstale", "0", NULL);
	return t_main(argc, argv);
}
