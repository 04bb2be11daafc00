/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf -R (perftest's rdma_cm mode, app/irdma-perf/perf_rdma_cm.c) in one process:
 * a server on the worker lcore, a client on the main lcore, two port=loop devices. Both
 * connections (the exchange's and the test's) are made by RDMA-CM over QP 1; nothing
 * goes over TCP. Every test runs and both sides print perftest's header with
 * "Data ex. method : rdma_cm" and their tables.
 */
#include <errno.h>
#include <ftw.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "irdma_test.h"
#include "test_capture.h"
#include "perf_run.h"

static unsigned int worker;
static char prefix[64];
static struct t_capture output;

struct side {
	struct perf_opts o;
	struct rte_pmd_irdma_dev *dev;
	int rc;
};

static int server_main(void *arg)
{
	struct side *s = arg;

	s->rc = perf_run_remote(&s->o, s->dev);
	return 0;
}

static void run(const char *mode, unsigned int tables)
{
	static struct side s, c;
	char err[256];
	char *sargv[] = { "--", "--devargs", "soft,port=loop", "--test", (char *)mode, "-n", "20",
			  "-R", "--timeout", "10", NULL };
	char *cargv[] = { "--", "--devargs", "soft,port=loop", "--test", (char *)mode, "-n", "20",
			  "-R", "--timeout", "10", "198.18.0.1", NULL };

	T_EQ(perf_opts_parse(&s.o, "irdma-perf", 10, sargv, err, sizeof(err)), 0);
	T_EQ(perf_opts_parse(&c.o, "irdma-perf", 11, cargv, err, sizeof(err)), 0);
	T_CHECK(s.o.rdma_cm && c.o.rdma_cm);
	s.dev = rte_pmd_irdma_dev_create("soft,port=loop,gen=3,name=cm_srv,ip=198.18.0.1");
	c.dev = rte_pmd_irdma_dev_create("soft,port=loop,gen=3,name=cm_cli,ip=198.18.0.2");
	T_CHECK(s.dev && c.dev);
	if (!s.dev || !c.dev)
		goto out;
	s.rc = c.rc = -1;
	t_capture_start(&output);
	/* no wait for the server: the client's refused REQs are retried every 100 ms */
	if (rte_eal_remote_launch(server_main, &s, worker) == 0) {
		c.rc = perf_run_remote(&c.o, c.dev);
		rte_eal_wait_lcore(worker);
	}
	t_capture_stop(&output);
	T_CHECK_MSG(s.rc == 0 && c.rc == 0, "%s: server %d, client %d", mode, s.rc, c.rc);
	if (s.rc || c.rc)
		printf("# %s\n", output.text);
	T_EQ(t_count(output.text, "Data ex. method : rdma_cm"), 2);
	T_EQ(t_count(output.text, " local address: LID 0000"), 2);
	T_EQ(t_count(output.text, " remote address: LID 0000"), 2);
	T_EQ(t_count(output.text, "#bytes"), tables);
	T_EQ(t_count(output.text, "irdma-perf:"), 0); /* no error or warning line */
out:
	if (c.dev)
		T_EQ(rte_pmd_irdma_dev_close(c.dev), 0);
	if (s.dev)
		T_EQ(rte_pmd_irdma_dev_close(s.dev), 0);
}

/* tables: both sides of the ping-pongs and bandwidth tests (the server prints the
 * client's figures), the client alone of read/atomic latency */
T_CASE(rdma_cm_write_lat) { run("write_lat", 2); }
T_CASE(rdma_cm_send_lat) { run("send_lat", 2); }
T_CASE(rdma_cm_read_lat) { run("read_lat", 1); }
T_CASE(rdma_cm_atomic_lat) { run("atomic_lat", 1); }
T_CASE(rdma_cm_write_bw) { run("write_bw", 2); }
T_CASE(rdma_cm_read_bw) { run("read_bw", 2); }
T_CASE(rdma_cm_send_bw) { run("send_bw", 2); }

/* The peer's device runs no CM at all (nothing answers its QP 1): the client's REQ gets
 * no answer within --timeout, then one line. */
T_CASE(rdma_cm_client_without_server)
{
	struct perf_opts o;
	struct rte_pmd_irdma_dev *d, *peer;
	char err[256];
	char *argv[] = { "--", "--devargs", "soft,port=loop", "-R", "--timeout", "1",
			 "198.18.0.1", NULL };
	int rc;

	T_EQ(perf_opts_parse(&o, "irdma-perf", 7, argv, err, sizeof(err)), 0);
	peer = rte_pmd_irdma_dev_create("soft,port=loop,name=cm_none,ip=198.18.0.1");
	d = rte_pmd_irdma_dev_create("soft,port=loop,name=cm_lone,ip=198.18.0.2");
	T_CHECK(d && peer);
	if (!d || !peer)
		return;
	t_capture_start(&output);
	rc = perf_run_remote(&o, d);
	t_capture_stop(&output);
	T_EQ(rc, -ETIMEDOUT);
	T_CHECK(strstr(output.text, "irdma-perf: rdma_cm: exchange connection: no answer from "
			"198.18.0.1 port 18515 within 1 s\n") != NULL);
	T_EQ(rte_pmd_irdma_dev_close(d), 0);
	T_EQ(rte_pmd_irdma_dev_close(peer), 0);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

int main(int argc, char **argv)
{
	char *eal[] = { argv[0], "--no-pci", "--no-huge", "-m", "512", "--no-shconf", prefix,
			"-l", "0-1", "--log-level=lib.eal:warning",
			"--log-level=pmd.net.irdma.*:warning", NULL };
	char dir[128];
	int rc;

	snprintf(prefix, sizeof(prefix), "--file-prefix=irdma_perf_cm_%d", (int)getpid());
	snprintf(dir, sizeof(dir), "/var/run/dpdk/%s", prefix + strlen("--file-prefix="));
	if (rte_eal_init(11, eal) < 0) {
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
		t_skip_all("EAL cannot start with two lcores here");
	}
	worker = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		rte_eal_cleanup();
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
		t_skip_all("needs two lcores");
	}
	rc = t_main(argc, argv);
	rte_eal_cleanup();
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return rc;
}
