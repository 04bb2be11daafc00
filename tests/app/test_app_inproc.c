/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Both endpoints of the tools in one EAL process, on two soft devices joined by port=loop:
 * a server on a worker lcore, a client on the main lcore, talking through the real
 * out-of-band TCP exchange on 127.0.0.1 and RoCEv2 frames on the loop.
 *   - irdma-pingpong RC (messages over the path MTU) and UD (Q_Key 0x11111111, the 40-byte
 *     GRH area in front of every receive, filled with the sender's IPv4 header);
 *   - irdma-perf client/server (perftest's exchange) for every test.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <ftw.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "irdma_test.h"
#include "test_capture.h"
#include "oob_sock.h"
#include "perf_run.h"
#include "pingpong_exchange.h"
#include "pp_session.h"
#include "tool_qp.h"

static unsigned int worker;

/* Wait until something listens on TCP @p port (the server is up). */
static bool wait_listening(uint16_t port, int ms)
{
	static const char *const files[] = { "/proc/net/tcp6", "/proc/net/tcp" };
	int64_t end = oob_now_ms() + ms;
	char line[256], want[16];
	unsigned int i;

	snprintf(want, sizeof(want), ":%04X", port);
	while (oob_now_ms() < end) {
		for (i = 0; i < 2; i++) {
			FILE *f = fopen(files[i], "r");

			if (!f)
				continue;
			while (fgets(line, sizeof(line), f)) {
				/* local_address is field 2, st (0A = LISTEN) field 4 */
				char local[64], remote[64], st[8];

				if (sscanf(line, "%*s %63s %63s %7s", local, remote, st) == 3 &&
				    strrchr(local, ':') && !strcmp(strrchr(local, ':'), want) &&
				    strcmp(st, "0A") == 0) {
					fclose(f);
					return true;
				}
			}
			fclose(f);
		}
		usleep(5000);
	}
	return false;
}

static uint16_t free_port(void)
{
	int fd = oob_listen(0), port = oob_bound_port(fd);

	close(fd);
	return (uint16_t)port;
}

/* Tool output (stdout and stderr) goes to a file while the sessions run, so TAP stays
 * clean. */
static struct t_capture output;

struct pp_arg {
	struct pp_ctx *c;
	int rc;
};

static int pp_server_main(void *arg)
{
	struct pp_arg *a = arg;

	a->rc = pp_session_run(a->c);
	return 0;
}

/* Set: the client's payload gets a non-zero byte where -c wants 0 (both sides check). */
static bool corrupt_client;

/* Both sides run with -c (rdma-core's payload check). */
static void pingpong(bool ud, bool events, uint32_t size, struct pp_ctx *srv, struct pp_ctx *cli,
		     struct pp_arg *sa, int *crc)
{
	static struct pp_opts so, co;
	char port[8];
	char *const sargv[] = { "--", "--devargs", "soft,port=loop,name=pp_srv,ip=198.18.0.1",
				"-g", "1", "-n", "50", "-s", NULL, "-p", port, "--timeout", "10",
				ud ? "--ud" : "--rc", events ? "-ec" : "-c", NULL };
	char *const cargv[] = { "--", "--devargs", "soft,port=loop,name=pp_cli,ip=198.18.0.2",
				"-g", "1", "-n", "50", "-s", NULL, "-p", port, "--timeout", "10",
				ud ? "--ud" : "--rc", events ? "-ec" : "-c", "127.0.0.1", NULL };
	char sz[12], err[256];
	char **sv = (char **)sargv, **cv = (char **)cargv;

	snprintf(port, sizeof(port), "%u", free_port());
	snprintf(sz, sizeof(sz), "%u", size);
	sv[8] = sz;
	cv[8] = sz;
	T_EQ(pp_opts_parse(&so, "irdma-pingpong", 15, sv, err, sizeof(err)), 0);
	T_EQ(pp_opts_parse(&co, "irdma-pingpong", 16, cv, err, sizeof(err)), 0);
	T_CHECK(co.server_host != NULL && so.server_host == NULL);
	*crc = -1;
	sa->c = srv;
	sa->rc = -1;
	t_capture_start(&output);
	if (pp_session_init(srv, &so) == 0 && pp_session_init(cli, &co) == 0 &&
	    (!corrupt_client || (cli->buf[ud ? PINGPONG_GRH_LEN : 0] = 0x5a)) &&
	    rte_eal_remote_launch(pp_server_main, sa, worker) == 0) {
		if (wait_listening(so.tcp_port, 5000))
			*crc = pp_session_run(cli);
		rte_eal_wait_lcore(worker);
	}
	t_capture_stop(&output);
}

T_CASE(pingpong_rc_over_the_path_mtu)
{
	struct pp_ctx srv, cli;
	struct pp_arg sa;
	int crc;

	pingpong(false, false, 3000, &srv, &cli, &sa, &crc);
	T_EQ(sa.rc, 0);
	T_EQ(crc, 0);
	/* ibv_rc_pingpong's report, from both sides */
	T_EQ(t_count(output.text, "300000 bytes in "), 2);
	T_EQ(t_count(output.text, "50 iters in "), 2);
	T_EQ(t_count(output.text, "GID ::ffff:198.18.0.2"), 2);
	/* rdma-core's layout, spaces included */
	T_EQ(t_count(output.text, "  local address:  LID 0x0000, QPN 0x"), 2);
	T_EQ(t_count(output.text, "  remote address: LID 0x0000, QPN 0x"), 2);
	pp_session_fini(&cli);
	pp_session_fini(&srv);
}

/* -e: both sides sleep on their CQ's eventfd (re-armed after each event). */
T_CASE(pingpong_rc_with_completion_events)
{
	struct pp_ctx srv, cli;
	struct pp_arg sa;
	int crc;

	pingpong(false, true, 64, &srv, &cli, &sa, &crc);
	T_EQ(sa.rc, 0);
	T_EQ(crc, 0);
	T_EQ(t_count(output.text, "6400 bytes in "), 2);
	pp_session_fini(&cli);
	pp_session_fini(&srv);
}

/* -c notices a payload that is not what rdma-core's -c sends, and the run fails. */
T_CASE(pingpong_check_catches_a_bad_payload)
{
	struct pp_ctx srv, cli;
	struct pp_arg sa;
	int crc;

	corrupt_client = true;
	pingpong(false, false, 5000, &srv, &cli, &sa, &crc);
	corrupt_client = false;
	T_EQ(sa.rc, -1);
	T_EQ(crc, -1);
	T_EQ(t_count(output.text, "irdma-pingpong: -c: invalid data in page 0 of message 0"), 2);
	T_EQ(t_count(output.text, "page(s) of the received messages held unexpected data"), 2);
	pp_session_fini(&cli);
	pp_session_fini(&srv);
}

T_CASE(pingpong_ud_with_grh_area)
{
	static const uint8_t zero[20];
	struct pp_ctx srv, cli;
	struct pp_arg sa;
	const uint8_t *g;
	int crc;

	pingpong(true, false, 512, &srv, &cli, &sa, &crc);
	T_EQ(sa.rc, 0);
	T_EQ(crc, 0);
	T_EQ(t_count(output.text, ": GID ::ffff:198.18.0."), 2); /* ud_pingpong's local line */
	T_EQ(t_count(output.text, "51200 bytes in "), 2);
	/* The client's last receive came from the server (198.18.0.1): RoCEv2/IPv4 leaves
	 * the first 20 bytes of the GRH area zero and puts the IPv4 header in the last 20. */
	g = cli.buf;
	if (g) {
		T_MEMEQ(g, zero, 20);
		T_EQ(g[20], 0x45);              /* IPv4, 20-byte header */
		T_EQ(g[29], 17);                /* UDP */
		T_EQ(g[32], 198);
		T_EQ(g[33], 18);
		T_EQ(g[34], 0);
		T_EQ(g[35], 1);                 /* source 198.18.0.1 */
		T_EQ(g[39], 2);                 /* destination 198.18.0.2 */
	}
	pp_session_fini(&cli);
	pp_session_fini(&srv);
}

struct perf_arg {
	struct perf_opts o;
	struct rte_pmd_irdma_dev *dev;
	int rc;
};

static int perf_server_main(void *arg)
{
	struct perf_arg *a = arg;

	a->rc = perf_run_remote(&a->o, a->dev);
	return 0;
}

/* @p all: perftest's -a (every size, 5 iterations each) on both sides; @p extra: one more
 * option for both sides (NULL: none). */
static void perf_client_server_opt(const char *mode, bool all, const char *extra)
{
	static struct perf_arg s, c;
	char port[8], err[256];
	char *iters = all ? "5" : "20", *sizes = all ? "-a" : "-F";
	char *x = (char *)(extra ? extra : "-F");
	char *sargv[] = { "--", "--devargs", "soft,port=loop", "--test", (char *)mode, "-n", iters,
			  "-p", port, "--timeout", "10", sizes, x, NULL };
	char *cargv[] = { "--", "--devargs", "soft,port=loop", "--test", (char *)mode, "-n", iters,
			  "-p", port, "--timeout", "10", sizes, x, "127.0.0.1", NULL };
	bool one_table = strstr(mode, "read_lat") || strstr(mode, "atomic_lat");
	/* -qN: perftest prints every QP's local lines, then every QP's remote lines */
	const char *qn = extra && extra[0] == '-' && extra[1] != '-' ? strchr(extra, 'q') : NULL;
	unsigned int nq = qn ? (unsigned int)atoi(qn + 1) : 1;

	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(perf_opts_parse(&s.o, "irdma-perf", 13, sargv, err, sizeof(err)), 0);
	T_EQ(perf_opts_parse(&c.o, "irdma-perf", 14, cargv, err, sizeof(err)), 0);
	s.dev = rte_pmd_irdma_dev_create("soft,port=loop,gen=3,name=pt_srv,ip=198.18.0.1");
	c.dev = rte_pmd_irdma_dev_create("soft,port=loop,gen=3,name=pt_cli,ip=198.18.0.2");
	T_CHECK(s.dev && c.dev);
	if (!s.dev || !c.dev)
		goto out;
	s.rc = c.rc = -1;
	t_capture_start(&output);
	if (rte_eal_remote_launch(perf_server_main, &s, worker) == 0) {
		if (wait_listening(s.o.tcp_port, 5000))
			c.rc = perf_run_remote(&c.o, c.dev);
		rte_eal_wait_lcore(worker);
	}
	t_capture_stop(&output);
	T_CHECK_MSG(s.rc == 0 && c.rc == 0, "%s: server %d, client %d; output:\n%s", mode, s.rc,
		    c.rc, s.rc || c.rc ? output.text : "");
	/* Both print the header and addresses; the tables: both sides of the ping-pongs, the
	 * client of read/atomic, and for bandwidth the client and the server (the client's
	 * results, received through the exchange). */
	T_EQ(t_count(output.text, " local address: LID 0000"), 2 * nq);
	T_EQ(t_count(output.text, "remote address: LID 0000"), 2 * nq);
	T_EQ(t_count(output.text, "#bytes"), one_table ? 1 : 2);
	if (nq > 1) {
		/* one row per side: the WRs of all QPs (-n, 20, on each), their bandwidth together */
		char row[32], head[64];

		snprintf(head, sizeof(head), " Number of qps   : %u\t\tTransport type : IB\n", nq);
		T_EQ(t_count(output.text, head), 2);
		snprintf(row, sizeof(row), "\n %-7u    %u ", strstr(mode, "atomic") ? 8 : 65536,
			 20 * nq);
		T_EQ(t_count(output.text, row), 2);
	}
	T_EQ(t_count(output.text, "Data ex. method : Ethernet"), 2);
	if (all) {
		/* every size from 2 B to 8 MiB on the measuring side(s); the server of the
		 * client-driven bandwidth tests prints the last size it was sent */
		unsigned long sz;
		char row[32];

		for (sz = 2; sz <= 8388608; sz *= 2) {
			bool both = !one_table && (strstr(mode, "send") || strstr(mode, "write_lat") ||
						   sz == 8388608);

			if (strstr(mode, "_bw"))
				snprintf(row, sizeof(row), "\n %-7lu    5 ", sz);
			else
				snprintf(row, sizeof(row), "\n %-7lu 5 ", sz);
			T_CHECK_MSG(t_count(output.text, row) == (both ? 2 : 1), "%s -a: size %lu printed %d "
				    "times", mode, sz, t_count(output.text, row));
		}
	}
	/* perftest prints the RX depth on the receiving side(s) of the send tests only */
	T_EQ(t_count(output.text, " RX depth        : "),
	     strstr(mode, "send") ? (extra && !strcmp(extra, "-b") ? 2 : 1) : 0);
	if (extra && !strncmp(extra, "-D", 2) && strstr(mode, "_lat"))
		T_EQ(t_count(output.text, " #bytes        #iterations       t_avg[usec]    tps average\n"),
		     one_table ? 1 : 2);
	if (extra && (!strcmp(extra, "-cUD") || !strcmp(extra, "--connection=UD")))
		T_EQ(t_count(output.text, " Connection type : UD"), 2);
	if (extra && !strcmp(extra, "--use-srq"))
		T_EQ(t_count(output.text, "Using SRQ      : ON\n"), 2);
out:
	if (c.dev)
		T_EQ(rte_pmd_irdma_dev_close(c.dev), 0);
	if (s.dev)
		T_EQ(rte_pmd_irdma_dev_close(s.dev), 0);
}

static void perf_client_server_sizes(const char *mode, bool all)
{
	perf_client_server_opt(mode, all, NULL);
}

static void perf_client_server(const char *mode)
{
	perf_client_server_sizes(mode, false);
}

T_CASE(perf_client_server_write_lat)  { perf_client_server("write_lat"); }
T_CASE(perf_client_server_send_lat)   { perf_client_server("send_lat"); }
T_CASE(perf_client_server_read_lat)   { perf_client_server("read_lat"); }
T_CASE(perf_client_server_atomic_lat) { perf_client_server("atomic_lat"); }
T_CASE(perf_client_server_write_bw)   { perf_client_server("write_bw"); }
T_CASE(perf_client_server_read_bw)    { perf_client_server("read_bw"); }
T_CASE(perf_client_server_send_bw)    { perf_client_server("send_bw"); }
T_CASE(perf_client_server_atomic_bw)  { perf_client_server("atomic_bw"); }
/* --use-srq: the send tests' receives come from a shared receive queue (gen=3) */
T_CASE(perf_send_lat_through_an_srq)  { perf_client_server_opt("send_lat", false, "--use-srq"); }
T_CASE(perf_send_bw_through_an_srq)   { perf_client_server_opt("send_bw", false, "--use-srq"); }
/* -e: both sides sleep on completion events when their CQ is empty */
T_CASE(perf_send_lat_with_events)     { perf_client_server_opt("send_lat", false, "-e"); }
T_CASE(perf_read_bw_with_events)      { perf_client_server_opt("read_bw", false, "-e"); }
/* -D: the client posts for a second, the server prints what the client reports */
T_CASE(perf_write_bw_for_a_duration)  { perf_client_server_opt("write_bw", false, "--duration=1"); }
/* -D in the latency tests: each side stops on its own clock, the table is the average */
T_CASE(perf_write_lat_for_a_duration) { perf_client_server_opt("write_lat", false, "-D1"); }
T_CASE(perf_send_lat_for_a_duration)  { perf_client_server_opt("send_lat", false, "-D1"); }
T_CASE(perf_read_lat_for_a_duration)  { perf_client_server_opt("read_lat", false, "-D1"); }
/* send_bw -D and -c UD: the server receives until the client's closing record, and reports
 * what it received (UD may lose messages that find no receive) */
T_CASE(perf_send_bw_for_a_duration)   { perf_client_server_opt("send_bw", false, "-D1"); }
T_CASE(perf_send_bw_over_ud)          { perf_client_server_opt("send_bw", false, "-cUD"); }
/* -c UD: send_lat between UD QPs through perftest's exchange */
T_CASE(perf_send_lat_over_ud)         { perf_client_server_opt("send_lat", false, "--connection=UD"); }
/* The passive server of a client-driven test waits for the whole run, longer than its
 * --timeout, as long as its device keeps working (the client writes for 3 s here). */
T_CASE(perf_server_waits_out_a_client_run_longer_than_its_timeout)
{
	static struct perf_arg s, c;
	char port[8], err[256];
	char *sargv[] = { "--", "--devargs", "soft,port=loop", "--test", "write_bw", "-p", port,
			  "--timeout", "1", "-D", "3", NULL };
	char *cargv[] = { "--", "--devargs", "soft,port=loop", "--test", "write_bw", "-p", port,
			  "--timeout", "10", "-D", "3", "--quiet", "127.0.0.1", NULL };

	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(perf_opts_parse(&s.o, "irdma-perf", 11, sargv, err, sizeof(err)), 0);
	T_EQ(perf_opts_parse(&c.o, "irdma-perf", 13, cargv, err, sizeof(err)), 0);
	s.dev = rte_pmd_irdma_dev_create("soft,port=loop,name=pl_srv,ip=198.18.0.1");
	c.dev = rte_pmd_irdma_dev_create("soft,port=loop,name=pl_cli,ip=198.18.0.2");
	T_CHECK(s.dev && c.dev);
	if (!s.dev || !c.dev)
		goto out;
	s.rc = c.rc = -1;
	t_capture_start(&output);
	if (rte_eal_remote_launch(perf_server_main, &s, worker) == 0) {
		if (wait_listening(s.o.tcp_port, 5000))
			c.rc = perf_run_remote(&c.o, c.dev);
		rte_eal_wait_lcore(worker);
	}
	t_capture_stop(&output);
	T_CHECK_MSG(s.rc == 0 && c.rc == 0, "server %d, client %d", s.rc, c.rc);
	T_EQ(t_count(output.text, "#bytes"), 2);
out:
	if (c.dev)
		T_EQ(rte_pmd_irdma_dev_close(c.dev), 0);
	if (s.dev)
		T_EQ(rte_pmd_irdma_dev_close(s.dev), 0);
}

/* -b: both sides initiate and print the sum of both directions */
T_CASE(perf_write_bw_both_ways)       { perf_client_server_opt("write_bw", false, "-b"); }
T_CASE(perf_read_bw_both_ways)        { perf_client_server_opt("read_bw", false, "-b"); }
T_CASE(perf_atomic_bw_both_ways)      { perf_client_server_opt("atomic_bw", false, "-b"); }
T_CASE(perf_send_bw_both_ways)        { perf_client_server_opt("send_bw", false, "-b"); }
/* -q: several QPs, perftest's record per QP in the exchange */
T_CASE(perf_write_bw_on_three_qps)    { perf_client_server_opt("write_bw", false, "-q3"); }
T_CASE(perf_read_bw_on_two_qps)       { perf_client_server_opt("read_bw", false, "-q2"); }
T_CASE(perf_send_bw_on_three_qps)     { perf_client_server_opt("send_bw", false, "-q3"); }
T_CASE(perf_atomic_bw_on_two_qps)     { perf_client_server_opt("atomic_bw", false, "-q2"); }
/* -e with -q: the wait watches every QP's CQ */
T_CASE(perf_send_bw_on_two_qps_with_events) { perf_client_server_opt("send_bw", false, "-eq2"); }
T_CASE(perf_all_sizes_write_lat)      { perf_client_server_sizes("write_lat", true); }
T_CASE(perf_all_sizes_send_lat)       { perf_client_server_sizes("send_lat", true); }
T_CASE(perf_all_sizes_read_lat)       { perf_client_server_sizes("read_lat", true); }
T_CASE(perf_all_sizes_write_bw)       { perf_client_server_sizes("write_bw", true); }
T_CASE(perf_all_sizes_send_bw)        { perf_client_server_sizes("send_bw", true); }

/* One device counter by name (UINT64_MAX when there is none). */
static uint64_t xstat(struct rte_pmd_irdma_dev *dev, const char *name)
{
	struct rte_pmd_irdma_xstat_name names[256];
	struct rte_pmd_irdma_xstat vals[256];
	int n = rte_pmd_irdma_xstats_get_names(dev, names, 256), i;

	if (n <= 0 || n > 256 || rte_pmd_irdma_xstats_get(dev, vals, (unsigned int)n) != n)
		return UINT64_MAX;
	for (i = 0; i < n; i++)
		if (strcmp(names[vals[i].id].name, name) == 0)
			return vals[i].value;
	return UINT64_MAX;
}

/* A server that waits for its client (TCP accept, then the exchange) keeps driving its
 * device: it answers ARP/ND and drains frames meanwhile. Nobody connects here: the device's
 * engine must still run, and the server gives up after --timeout. */
T_CASE(servers_waiting_for_a_client_keep_serving_their_device)
{
	static struct perf_arg s;
	static struct pp_opts so;
	static struct pp_ctx srv;
	static struct pp_arg sa;
	char port[8], err[256];
	char *pargv[] = { "--", "--devargs", "soft,port=loop", "--test", "send_lat", "-p", port,
			  "--timeout", "2", NULL };
	char *qargv[] = { "--", "--devargs", "soft,port=loop,name=pp_wait,ip=198.18.0.7", "-p",
			  port, "--timeout", "2", NULL };
	uint64_t a, b;

	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(perf_opts_parse(&s.o, "irdma-perf", 9, pargv, err, sizeof(err)), 0);
	s.dev = rte_pmd_irdma_dev_create("soft,port=loop,name=pt_wait,ip=198.18.0.1");
	T_CHECK(s.dev != NULL);
	if (!s.dev)
		return;
	t_capture_start(&output);
	if (rte_eal_remote_launch(perf_server_main, &s, worker) == 0) {
		wait_listening(s.o.tcp_port, 5000);
		a = xstat(s.dev, "progress_calls");
		usleep(300 * 1000);
		b = xstat(s.dev, "progress_calls");
		rte_eal_wait_lcore(worker);
		t_capture_stop(&output);
		T_CHECK_MSG(a != UINT64_MAX && b > a + 100, "irdma-perf: progress_calls %" PRIu64 " -> %" PRIu64
			    " while waiting in accept", a, b);
		T_EQ(s.rc, -ETIMEDOUT);
	} else {
		t_capture_stop(&output);
	}
	T_EQ(rte_pmd_irdma_dev_close(s.dev), 0);

	T_EQ(pp_opts_parse(&so, "irdma-pingpong", 7, qargv, err, sizeof(err)), 0);
	sa.c = &srv;
	t_capture_start(&output);
	if (pp_session_init(&srv, &so) == 0 &&
	    rte_eal_remote_launch(pp_server_main, &sa, worker) == 0) {
		wait_listening(so.tcp_port, 5000);
		a = xstat(srv.dev, "progress_calls");
		usleep(300 * 1000);
		b = xstat(srv.dev, "progress_calls");
		rte_eal_wait_lcore(worker);
		t_capture_stop(&output);
		T_CHECK_MSG(a != UINT64_MAX && b > a + 100, "irdma-pingpong: progress_calls %" PRIu64 " -> %"
			    PRIu64 " while waiting in accept", a, b);
		T_EQ(sa.rc, -1);
	} else {
		t_capture_stop(&output);
	}
	pp_session_fini(&srv);
}

/* app/common/tool_qp: the bring-up every tool, bench and test uses. Two port=loop devices,
 * an RC pair and a UD pair brought up with it; what the device holds afterwards is what
 * the conn asked for, and a SEND goes each way. */
struct qp_end {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	struct rte_pmd_irdma_ah *ah;
	uint8_t *buf;
	union rte_pmd_irdma_gid gid;
};

static int qp_end_open(struct qp_end *e, const char *devargs, enum rte_pmd_irdma_qp_type type)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 64, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_cap cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
					    .max_recv_sge = 1, .max_inline_data = 64 };

	memset(e, 0, sizeof(*e));
	e->dev = rte_pmd_irdma_dev_create(devargs);
	if (!e->dev)
		return -1;
	rte_pmd_irdma_query_gid(e->dev, 1, &e->gid);
	e->pd = rte_pmd_irdma_pd_alloc(e->dev);
	e->cq = rte_pmd_irdma_cq_create(e->dev, &ca);
	e->buf = rte_zmalloc(NULL, 4096, 4096);
	if (!e->pd || !e->cq || !e->buf)
		return -1;
	e->mr = rte_pmd_irdma_reg_mr(e->pd, e->buf, 4096, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	e->qp = tool_qp_create(e->pd, e->cq, NULL, type, &cap);
	/* what was granted comes back */
	T_CHECK(cap.max_inline_data >= 64 && cap.max_send_wr >= 8);
	return e->mr && e->qp ? 0 : -1;
}

static void qp_end_close(struct qp_end *e)
{
	if (e->qp)
		T_EQ(rte_pmd_irdma_qp_destroy(e->qp), 0);
	if (e->ah)
		T_EQ(rte_pmd_irdma_ah_destroy(e->ah), 0);
	if (e->mr)
		T_EQ(rte_pmd_irdma_dereg_mr(e->mr), 0);
	if (e->cq)
		T_EQ(rte_pmd_irdma_cq_destroy(e->cq), 0);
	if (e->pd)
		T_EQ(rte_pmd_irdma_pd_free(e->pd), 0);
	rte_free(e->buf);
	if (e->dev)
		T_EQ(rte_pmd_irdma_dev_close(e->dev), 0);
}

/* Two ends on two loop devices (198.18.0.1 and .2), their QPs in RESET. */
static int qp_pair_open(struct qp_end *a, struct qp_end *b, enum rte_pmd_irdma_qp_type type)
{
	int ra = qp_end_open(a, "soft,port=loop,name=tq_a,ip=198.18.0.1,engine=inline", type);
	int rb = qp_end_open(b, "soft,port=loop,name=tq_b,ip=198.18.0.2,engine=inline", type);

	T_EQ(ra, 0);
	T_EQ(rb, 0);
	return ra < 0 || rb < 0 ? -1 : 0;
}

static void qp_conn_of(struct tool_qp_conn *c, const struct qp_end *peer, uint32_t my_psn,
		       uint32_t peer_psn)
{
	tool_qp_conn_init(c);
	c->access = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE;
	c->dest_qpn = peer->qp->qp_num;
	c->rq_psn = peer_psn;
	c->sq_psn = my_psn;
	c->sgid_index = 1;
	c->max_dest_rd_atomic = 4;
	c->timeout = 10;
	memcpy(c->dgid, peer->gid.raw, 16);
}

/* One SEND from @p a to @p b (UD: through @p a's AH); @return the byte b received. */
static int qp_send_one(struct qp_end *a, struct qp_end *b, uint8_t v, bool ud)
{
	struct rte_pmd_irdma_sge rs = { (uintptr_t)b->buf, 64 + (ud ? 40 : 0), b->mr->lkey };
	struct rte_pmd_irdma_sge ss = { (uintptr_t)a->buf, 1, a->mr->lkey };
	struct rte_pmd_irdma_recv_wr rwr = { .wr_id = 1, .sg_list = &rs, .num_sge = 1 };
	struct rte_pmd_irdma_send_wr swr;
	struct rte_pmd_irdma_wc wc;
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() * 5;
	int err = 0, got = 0;

	memset(&swr, 0, sizeof(swr));
	swr.wr_id = 2;
	swr.sg_list = &ss;
	swr.num_sge = 1;
	swr.opcode = RTE_PMD_IRDMA_WR_SEND;
	swr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	if (ud) {
		swr.wr.ud.ah = a->ah;
		swr.wr.ud.remote_qpn = b->qp->qp_num;
		swr.wr.ud.remote_qkey = 0x11111111;
	}
	a->buf[0] = v;
	if (rte_pmd_irdma_post_recv(b->qp, &rwr, 1, &err) != 1 ||
	    rte_pmd_irdma_post_send(a->qp, &swr, 1, &err) != 1)
		return -1;
	while (got < 2 && rte_rdtsc() < end) {
		rte_pmd_irdma_progress(a->dev, 64);
		rte_pmd_irdma_progress(b->dev, 64);
		if (rte_pmd_irdma_poll_cq(a->cq, &wc, 1) == 1)
			got += wc.status == RTE_PMD_IRDMA_WC_SUCCESS;
		if (rte_pmd_irdma_poll_cq(b->cq, &wc, 1) == 1)
			got += wc.status == RTE_PMD_IRDMA_WC_SUCCESS;
	}
	return got == 2 ? b->buf[ud ? 40 : 0] : -1;
}

T_CASE(tool_qp_brings_an_rc_pair_up_with_the_attributes_given)
{
	struct rte_pmd_irdma_qp_attr qa;
	struct qp_end a, b;
	struct tool_qp_conn ca, cb;
	char err[160] = "";

	if (qp_pair_open(&a, &b, RTE_PMD_IRDMA_QPT_RC) < 0)
		goto out;
	/* RTR before INIT is refused, and the line names the transition */
	qp_conn_of(&ca, &b, 0x123456, 0xabcdef);
	T_CHECK(tool_qp_to_rts(a.qp, &ca, err, sizeof(err)) < 0);
	T_CHECK_MSG(strncmp(err, "QP INIT -> RTR (peer QPN 0x", 27) == 0 &&
		    strstr(err, ", MTU 1024): ") != NULL, "error '%s'", err);
	T_EQ(tool_qp_connect(a.qp, &ca, err, sizeof(err)), 0);
	qp_conn_of(&cb, &a, 0xabcdef, 0x123456);
	T_EQ(tool_qp_connect(b.qp, &cb, NULL, 0), 0);
	memset(&qa, 0, sizeof(qa));
	T_EQ(rte_pmd_irdma_qp_query(a.qp, &qa, 0, NULL), 0);
	T_EQ(qa.qp_state, RTE_PMD_IRDMA_QPS_RTS);
	T_EQ(qa.dest_qp_num, b.qp->qp_num);
	T_EQ(qa.sq_psn, 0x123456);
	T_EQ(qa.rq_psn, 0xabcdef);
	T_EQ(qa.path_mtu, RTE_PMD_IRDMA_MTU_1024);
	T_EQ(qa.timeout, 10);
	T_EQ(qa.retry_cnt, 7);
	T_EQ(qa.rnr_retry, 7);
	T_EQ(qa.min_rnr_timer, 12);
	T_EQ(qa.max_dest_rd_atomic, 4);
	T_EQ(qa.qp_access_flags, RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	T_EQ(qa.ah_attr.grh.hop_limit, 64);
	T_EQ(qa.ah_attr.grh.sgid_index, 1);
	T_MEMEQ(qa.ah_attr.grh.dgid.raw, b.gid.raw, 16);
	T_EQ(qp_send_one(&a, &b, 0x5a, false), 0x5a);
	T_EQ(qp_send_one(&b, &a, 0xa5, false), 0xa5);
out:
	qp_end_close(&a);
	qp_end_close(&b);
}

T_CASE(tool_qp_brings_a_ud_pair_up_and_builds_its_address_handle)
{
	struct rte_pmd_irdma_ah_attr ah;
	struct rte_pmd_irdma_qp_attr qa;
	struct qp_end a, b;
	struct tool_qp_conn ca, cb;

	if (qp_pair_open(&a, &b, RTE_PMD_IRDMA_QPT_UD) < 0)
		goto out;
	qp_conn_of(&ca, &b, 0x10, 0);
	ca.traffic_class = 0x20;
	qp_conn_of(&cb, &a, 0x20, 0);
	T_EQ(tool_qp_connect(a.qp, &ca, NULL, 0), 0);
	T_EQ(tool_qp_connect(b.qp, &cb, NULL, 0), 0);
	memset(&qa, 0, sizeof(qa));
	T_EQ(rte_pmd_irdma_qp_query(a.qp, &qa, 0, NULL), 0);
	T_EQ(qa.qp_state, RTE_PMD_IRDMA_QPS_RTS);
	T_EQ(qa.qkey, 0x11111111);
	T_EQ(qa.sq_psn, 0x10);
	tool_qp_ah_attr(&ca, &ah);
	T_EQ(ah.is_global, 1);
	T_EQ(ah.port_num, 1);
	T_EQ(ah.grh.traffic_class, 0x20);
	T_EQ(ah.grh.hop_limit, 64);
	T_MEMEQ(ah.grh.dgid.raw, b.gid.raw, 16);
	a.ah = rte_pmd_irdma_ah_create(a.pd, &ah);
	T_CHECK(a.ah != NULL);
	if (a.ah)
		T_EQ(qp_send_one(&a, &b, 0x3c, true), 0x3c);
out:
	qp_end_close(&a);
	qp_end_close(&b);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static char prefix[64];

static void remove_prefix_dir(void)
{
	char dir[96];

	snprintf(dir, sizeof(dir), "/var/run/dpdk/%s", prefix + strlen("--file-prefix="));
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

int main(int argc, char **argv)
{
	char *eal[] = { argv[0], "--no-pci", "--no-huge", "-m", "512", "--no-shconf", prefix,
			"-l", "0-1", "--log-level=lib.eal:warning",
			"--log-level=pmd.net.irdma.*:warning", NULL };
	int rc;

	snprintf(prefix, sizeof(prefix), "--file-prefix=irdma_app_inproc_%d", (int)getpid());
	if (rte_eal_init(11, eal) < 0) {
		remove_prefix_dir();
		t_skip_all("EAL cannot start with two lcores here");
	}
	worker = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		rte_eal_cleanup();
		remove_prefix_dir();
		t_skip_all("needs two lcores");
	}
	rc = t_main(argc, argv);
	rte_eal_cleanup();
	remove_prefix_dir();
	return rc;
}
