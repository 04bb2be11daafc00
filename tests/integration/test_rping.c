/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-rping's endpoints (app/irdma-rping/rp_session.c) in one process: a server and a
 * client on two port=loop devices, stepped in turn. RDMA-CM connects them, each ping is
 * rping's SEND / RDMA READ / SEND / RDMA WRITE / SEND cycle, and the client checks what
 * came back (-V). The -v lines are compared with rping's text, built here on its own.
 */
#include <rte_cycles.h>

#include "itest.h"
#include "rp_session.h"

#define SRV_DEV "soft,port=loop,ip=198.18.0.2,name=rpS"
#define CLI_DEV "soft,port=loop,ip=198.18.0.1,name=rpC"

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static void capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
}

static void capture_close(struct capture *c)
{
	fclose(c->f);
	free(c->buf);
}

static struct rp_opts opts(int server, uint32_t count, uint32_t size)
{
	struct rp_opts o = { .server = server, .port = 7174, .count = count, .size = size,
		.verbose = 1, .validate = 1, .timeout_s = 10 };

	o.devargs = server ? SRV_DEV : CLI_DEV;
	o.addr = server ? NULL : "198.18.0.2";
	return o;
}

/* rping's ping n as the -v line prints it: "rdma-ping-n: " and letters 'A'..'z' from
 * the n-th one on, size - 1 characters in all. */
static void expected_line(char *out, size_t outlen, const char *prefix, uint32_t n, uint32_t size)
{
	char text[70000];
	int cc = snprintf(text, sizeof(text), "rdma-ping-%u: ", n);

	for (uint32_t i = (uint32_t)cc; i < size - 1; i++)
		text[i] = (char)(65 + (n + i - (uint32_t)cc) % 58);
	text[size - 1] = 0;
	snprintf(out, outlen, "%s%s\n", prefix, text);
}

static void check_lines(const char *got, const char *prefix, uint32_t count, uint32_t size)
{
	static char want[1 << 20];
	size_t off = 0;

	for (uint32_t n = 0; n < count; n++) {
		expected_line(want + off, sizeof(want) - off, prefix, n, size);
		off += strlen(want + off);
	}
	T_EQ(strlen(got), off);
	T_CHECK(!strcmp(got, want));
}

/* Steps both until neither runs, or 20 s passed. */
static void run_pair(struct rp_session *srv, struct rp_session *cli)
{
	uint64_t end = rte_get_timer_cycles() + 20 * rte_get_timer_hz();

	while ((srv->state < RP_DONE || cli->state < RP_DONE) && rte_get_timer_cycles() < end) {
		rp_session_step(srv);
		rp_session_step(cli);
	}
}

static void ping(uint32_t count, uint32_t size)
{
	struct rp_opts so = opts(1, 0, size), co = opts(0, count, size);
	struct rp_session srv, cli;
	struct capture sout, cout, serr, cerr;

	T_EQ(rp_session_init(&srv, &so), 0);
	T_EQ(rp_session_init(&cli, &co), 0);
	capture_open(&sout);
	capture_open(&cout);
	capture_open(&serr);
	capture_open(&cerr);
	srv.out = sout.f;
	srv.err = serr.f;
	cli.out = cout.f;
	cli.err = cerr.f;
	run_pair(&srv, &cli);
	T_EQ(cli.state, RP_DONE);
	T_EQ(srv.state, RP_DONE);
	T_EQ(cli.ping, count);
	T_EQ(srv.ping, count);
	T_EQ(srv.connections, 1);
	fflush(sout.f);
	fflush(cout.f);
	fflush(serr.f);
	fflush(cerr.f);
	check_lines(cout.buf, "ping data: ", count, size);
	check_lines(sout.buf, "server ping data: ", count, size);
	T_CHECK(!strcmp(cerr.buf, "client DISCONNECT EVENT...\n"));
	T_CHECK(!strcmp(serr.buf, "server DISCONNECT EVENT...\n"));
	/* both connections closed by DREQ/DREP: in timewait, nothing retransmitting */
	T_EQ(irdma_cm_get_state(&cli.cm.rcm.cm, cli.id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_get_state(&srv.cm.rcm.cm, srv.id), IRDMA_CM_TIMEWAIT);
	T_EQ(cli.cm.rcm.cm.stats.retransmits + srv.cm.rcm.cm.stats.retransmits, 0);
	T_EQ(cli.cm.lost_events + srv.cm.lost_events, 0);
	rp_session_fini(&cli);
	rp_session_fini(&srv);
	capture_close(&sout);
	capture_close(&cout);
	capture_close(&serr);
	capture_close(&cerr);
}

T_CASE(rping_10_pings_of_64_bytes)
{
	ping(10, 64);
}

/* The smallest size rping takes, and the largest: READ and WRITE of 64 packets. */
T_CASE(rping_min_and_max_sizes)
{
	ping(3, RP_MIN_SIZE);
	ping(2, RP_MAX_SIZE);
}

/* Nobody listens on the port: the passive side's CM rejects the REQ (invalid service
 * ID) and the client fails with rping's line. */
T_CASE(rping_client_rejected_without_listener)
{
	struct rp_opts so = opts(1, 0, 64), co = opts(0, 1, 64);
	struct rp_session srv, cli;
	struct capture cerr;

	co.port = 7175;
	T_EQ(rp_session_init(&srv, &so), 0);
	T_EQ(rp_session_init(&cli, &co), 0);
	capture_open(&cerr);
	cli.err = cerr.f;
	while (cli.state < RP_DONE) {
		rp_session_step(&srv);
		rp_session_step(&cli);
	}
	fflush(cerr.f);
	T_EQ(cli.state, RP_FAILED);
	T_EQ(cli.status, -ECONNREFUSED);
	T_CHECK(strstr(cerr.buf, "cma event RDMA_CM_EVENT_REJECTED, error ") == cerr.buf);
	T_EQ(srv.state, RP_LISTENING);
	T_EQ(srv.connections, 0);
	rp_session_fini(&cli);
	rp_session_fini(&srv);
	capture_close(&cerr);
}

/* Steps the server until it listens again with no QP (the connection released). */
static void until_listening(struct rp_session *srv)
{
	uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	while ((srv->state != RP_LISTENING || srv->qp) && rte_get_timer_cycles() < end)
		rp_session_step(srv);
	T_EQ(srv->state, RP_LISTENING);
	T_CHECK(srv->qp == NULL); /* its QP is destroyed, not leaked */
}

/* A persistent server (-P) outlives clients that vanish: one goes silent right after
 * the server's REP (no RTU, no REJ: the REP's retries run out), one right after its
 * first advertisement (the server's RDMA READ exhausts its retries); then two clients
 * ping one after the other. Short CM timers (packet life time 2^8 x 4.096 us) so the
 * retries take well under a second. */
T_CASE(rping_persistent_server_survives_vanished_clients)
{
	struct rp_opts so = opts(1, 0, 64), co = opts(0, 4, 64);
	struct rp_session srv, cli, gone1, gone2;
	FILE *null = fopen("/dev/null", "w");
	uint64_t end;

	so.persistent = true;
	so.verbose = 0;
	so.cm_plt = 8;
	co.verbose = 0;
	co.cm_plt = 8;
	T_EQ(rp_session_init(&srv, &so), 0);
	srv.err = null;

	co.devargs = "soft,port=loop,ip=198.18.0.3,name=rpG1";
	T_EQ(rp_session_init(&gone1, &co), 0);
	end = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	while (srv.state != RP_CONNECTING && rte_get_timer_cycles() < end) {
		rp_session_step(&gone1);
		rp_session_step(&srv);
	}
	T_EQ(srv.state, RP_CONNECTING); /* REP sent; gone1 is never stepped again */
	until_listening(&srv);
	T_EQ(srv.cm.rcm.cm.stats.tx[IRDMA_CM_ATTR_REP - 0x10], 16); /* REP + 15 retries */
	T_EQ(srv.cm.rcm.cm.stats.retransmits, 15);

	co.devargs = "soft,port=loop,ip=198.18.0.4,name=rpG2";
	T_EQ(rp_session_init(&gone2, &co), 0);
	end = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	while (gone2.state != RP_WAIT_WRITE_ADV && rte_get_timer_cycles() < end) {
		rp_session_step(&srv);
		rp_session_step(&gone2);
	}
	T_EQ(gone2.state, RP_WAIT_WRITE_ADV); /* advertised; never stepped again */
	until_listening(&srv);
	T_EQ(srv.connections, 0);

	co.devargs = CLI_DEV;
	for (int i = 0; i < 2; i++) {
		T_EQ(rp_session_init(&cli, &co), 0);
		cli.err = null;
		end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
		while (cli.state < RP_DONE && rte_get_timer_cycles() < end) {
			rp_session_step(&srv);
			rp_session_step(&cli);
		}
		T_EQ(cli.state, RP_DONE);
		T_EQ(cli.ping, 4);
		rp_session_fini(&cli);
		until_listening(&srv);
		T_EQ(srv.connections, (uint32_t)i + 1);
	}
	gone1.err = null;
	gone2.err = null;
	rp_session_fini(&gone1);
	rp_session_fini(&gone2);
	rp_session_fini(&srv);
	fclose(null);
}

/* A wire that drops 20 % of the frames both ways (and duplicates 5 %): REQ, REP, RTU,
 * DREQ and DREP are lost now and then (data before a lost RTU establishes the server's
 * side), the RC transport retransmits the pings; every ping still comes back intact.
 * Short CM timers, as in the vanished-client case. */
T_CASE(rping_over_a_lossy_wire)
{
	struct rp_opts so = opts(1, 0, 1000), co = opts(0, 20, 1000);
	struct rp_session srv, cli;
	FILE *null = fopen("/dev/null", "w");
	uint64_t end;

	so.devargs = SRV_DEV ",drop=0.2,dup=0.05,seed=3";
	co.devargs = CLI_DEV ",drop=0.2,dup=0.05,seed=4";
	so.cm_plt = co.cm_plt = 8;
	so.verbose = co.verbose = 0;
	T_EQ(rp_session_init(&srv, &so), 0);
	T_EQ(rp_session_init(&cli, &co), 0);
	srv.err = cli.err = null;
	end = rte_get_timer_cycles() + 30 * rte_get_timer_hz();
	while ((srv.state < RP_DONE || cli.state < RP_DONE) && rte_get_timer_cycles() < end) {
		rp_session_step(&srv);
		rp_session_step(&cli);
	}
	T_EQ(cli.state, RP_DONE);
	T_EQ(srv.state, RP_DONE);
	T_EQ(cli.ping, 20); /* -V compared every one */
	T_EQ(srv.ping, 20);
	printf("# lossy wire: CM retransmissions client %" PRIu64 ", server %" PRIu64
	       "; duplicates dropped %" PRIu64 " + %" PRIu64 "\n",
	       cli.cm.rcm.cm.stats.retransmits, srv.cm.rcm.cm.stats.retransmits,
	       cli.cm.rcm.cm.stats.drops[IRDMA_CM_R_DUPLICATE],
	       srv.cm.rcm.cm.stats.drops[IRDMA_CM_R_DUPLICATE]);
	rp_session_fini(&cli);
	rp_session_fini(&srv);
	fclose(null);
}

/* The server goes silent after the last ping: the client's DREQ is never answered. The
 * CM retries it (15 times) and then reports the disconnect itself; the client ends
 * cleanly with rping's line, and its QP went to ERR. */
T_CASE(rping_client_without_drep)
{
	struct rp_opts so = opts(1, 0, 64), co = opts(0, 2, 64);
	struct rp_session srv, cli;
	struct capture cerr;
	FILE *null = fopen("/dev/null", "w");
	struct rte_pmd_irdma_qp_attr qa;
	struct rte_pmd_irdma_qp_init_attr qia;
	uint64_t end;

	so.cm_plt = co.cm_plt = 8;
	so.verbose = co.verbose = 0;
	T_EQ(rp_session_init(&srv, &so), 0);
	T_EQ(rp_session_init(&cli, &co), 0);
	srv.err = null;
	capture_open(&cerr);
	cli.err = cerr.f;
	end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (cli.state != RP_DISCONNECTING && rte_get_timer_cycles() < end) {
		rp_session_step(&srv);
		rp_session_step(&cli);
	}
	T_EQ(cli.state, RP_DISCONNECTING); /* DREQ sent; the server is never stepped again */
	while (cli.state < RP_DONE && rte_get_timer_cycles() < end)
		rp_session_step(&cli);
	fflush(cerr.f);
	T_EQ(cli.state, RP_DONE);
	T_EQ(cli.ping, 2);
	T_CHECK(!strcmp(cerr.buf, "client DISCONNECT EVENT...\n"));
	T_EQ(cli.cm.rcm.cm.stats.tx[IRDMA_CM_ATTR_DREQ - 0x10], 16); /* DREQ + 15 retries */
	T_EQ(cli.cm.rcm.cm.stats.rx[IRDMA_CM_ATTR_DREP - 0x10], 0);
	T_EQ(irdma_cm_get_state(&cli.cm.rcm.cm, cli.id), IRDMA_CM_TIMEWAIT);
	T_EQ(rte_pmd_irdma_qp_query(cli.qp, &qa, 0, &qia), 0);
	T_EQ(qa.qp_state, RTE_PMD_IRDMA_QPS_ERR);
	rp_session_fini(&cli);
	rp_session_fini(&srv);
	capture_close(&cerr);
	fclose(null);
}

int main(int argc, char **argv)
{
	itest_eal_init("rping", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
