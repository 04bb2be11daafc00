/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf: perftest-style latency and bandwidth between two QPs of two irdma devices of
 * this process on port=loop, each side on its own lcore (side A on the main lcore, side B on
 * the next one; with --engine service the device engines run on a third lcore).
 *
 *   irdma-perf -l 0-1 --no-pci --no-huge -m 512 --no-shconf -- -s 8 -n 10000
 *   irdma-perf -l 0-1 ... -- -T read_lat -a
 *   irdma-perf -l 0-2 ... -- -T write_bw -s 4096 --engine service
 *
 * Options after "--" (perftest's names where perftest has them):
 *   -T/--test write_lat|send_lat|read_lat|atomic_lat|write_bw   (default write_lat)
 *   -s/--size <bytes>   (latency 2, bandwidth 65536; up to 1 MiB; atomics 8)
 *   -a/--all            sizes 2 .. 64 KiB, doubling
 *   -n/--iters <n>      (latency 1000, bandwidth 5000)
 *   -I/--inline_size <bytes>  (default: the device maximum)
 *   -t/--tx-depth <n>   bandwidth: WRs in flight (128)
 *   -Q/--cq-mod <n>     bandwidth: one signaled WR every n (100)
 *   --report_gbits      bandwidth in Gb/s instead of MiB/s
 *   -g/--gen 1|2|3      irdma generation of the devices (2)
 *   --engine inline|service
 *   --devargs <key=value,...>  more devargs for both devices (e.g. mtu=4096)
 *   --xstats            print both QPs' non-zero counters at the end
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "perf.h"
#include "perf_stats.h"

static const char *const test_names[] = {
	[PERF_WRITE_LAT] = "write_lat", [PERF_SEND_LAT] = "send_lat",
	[PERF_READ_LAT] = "read_lat", [PERF_ATOMIC_LAT] = "atomic_lat",
	[PERF_WRITE_BW] = "write_bw",
};

static const char *const test_titles[] = {
	[PERF_WRITE_LAT] = "RDMA_Write Latency Test", [PERF_SEND_LAT] = "Send Latency Test",
	[PERF_READ_LAT] = "RDMA_Read Latency Test",
	[PERF_ATOMIC_LAT] = "Atomic FETCH_AND_ADD Latency Test",
	[PERF_WRITE_BW] = "RDMA_Write BW Test",
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: irdma-perf [EAL options] -- [-T write_lat|send_lat|read_lat|atomic_lat|"
		"write_bw]\n"
		"       [-s size] [-a] [-n iters] [-I inline_size] [-t tx_depth] [-Q cq_mod]\n"
		"       [--report_gbits] [-g 1|2|3] [--engine inline|service] [--devargs k=v,...]\n");
}

static long
num(const char *opt, const char *v, long min, long max)
{
	char *end;
	long x = strtol(v, &end, 0);

	if (*v == '\0' || *end != '\0' || x < min || x > max)
		perf_die("%s %s: expected an integer %ld..%ld", opt, v, min, max);
	return x;
}

static void
parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "test", required_argument, NULL, 'T' },
		{ "size", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "iters", required_argument, NULL, 'n' },
		{ "inline_size", required_argument, NULL, 'I' },
		{ "tx-depth", required_argument, NULL, 't' },
		{ "cq-mod", required_argument, NULL, 'Q' },
		{ "report_gbits", no_argument, NULL, 'G' },
		{ "gen", required_argument, NULL, 'g' },
		{ "engine", required_argument, NULL, 'e' },
		{ "devargs", required_argument, NULL, 'd' },
		{ "xstats", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long size = -1, iters = -1;
	unsigned int i;
	int c;

	*o = (struct opts){ .inline_size = -1, .tx_depth = 128, .cq_mod = 100, .gen = 2 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "T:s:an:I:t:Q:g:h", lo, NULL)) != -1) {
		switch (c) {
		case 'T':
			for (i = 0; i < RTE_DIM(test_names); i++)
				if (strcmp(optarg, test_names[i]) == 0)
					break;
			if (i == RTE_DIM(test_names))
				perf_die("-T %s: valid tests are write_lat, send_lat, read_lat, "
					 "atomic_lat, write_bw", optarg);
			o->test = (enum perf_test)i;
			break;
		case 's': size = num("-s", optarg, 1, MAX_SIZE); break;
		case 'a': o->all = true; break;
		case 'n': iters = num("-n", optarg, 5, 100000000); break;
		case 'I': o->inline_size = (int)num("-I", optarg, 0, 256); break;
		case 't': o->tx_depth = (uint32_t)num("-t", optarg, 1, 1024); break;
		case 'Q': o->cq_mod = (uint32_t)num("-Q", optarg, 1, 1024); break;
		case 'G': o->report_gbits = true; break;
		case 'g': o->gen = (unsigned int)num("-g", optarg, 1, 3); break;
		case 'e':
			if (strcmp(optarg, "service") == 0)
				o->service = true;
			else if (strcmp(optarg, "inline") != 0)
				perf_die("--engine %s: valid engines are inline, service", optarg);
			break;
		case 'd': o->extra = optarg; break;
		case 'X': o->xstats = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(1);
		}
	}
	if (optind < argc)
		perf_die("unexpected argument \"%s\"", argv[optind]);
	if (o->test == PERF_ATOMIC_LAT) {
		if (size > 0 && size != 8)
			perf_die("-s %ld: atomics move 8 bytes", size);
		size = 8;
		o->all = false;
	}
	o->size = size > 0 ? (uint32_t)size : o->test == PERF_WRITE_BW ? 65536 : 2;
	o->iters = iters > 0 ? (uint64_t)iters : o->test == PERF_WRITE_BW ? 5000 : 1000;
	if (o->test == PERF_WRITE_BW && o->cq_mod > o->tx_depth)
		o->cq_mod = o->tx_depth;
}

static void
banner(const struct opts *o, const struct side *a, const struct side *b)
{
	perf_rule(stdout);
	printf("                    %s\n", test_titles[o->test]);
	printf(" Dual-port       : OFF\t\tDevice         : %s\n", a->name);
	printf(" Number of qps   : 1\t\tTransport type : IB\n");
	printf(" Connection type : RC\t\tUsing SRQ      : OFF\n");
	if (o->test == PERF_WRITE_BW)
		printf(" TX depth        : %u\n CQ Moderation   : %u\n", o->tx_depth, o->cq_mod);
	printf(" Mtu             : 1024[B]\n");
	printf(" Link type       : Ethernet (port=loop, GEN_%u, engine %s)\n", o->gen,
	       o->service ? "service" : "inline");
	printf(" Max inline data : %u[B]\n", a->max_inline);
	perf_rule(stdout);
	printf(" local address: LID 0000 QPN %#06x PSN %#06x RKey %#08x VAddr %#016" PRIx64 "\n",
	       a->qp->qp_num, 0, a->mr->rkey, (uint64_t)(uintptr_t)a->buf);
	printf(" remote address: LID 0000 QPN %#06x PSN %#06x RKey %#08x VAddr %#016" PRIx64 "\n",
	       b->qp->qp_num, 0, b->mr->rkey, (uint64_t)(uintptr_t)b->buf);
	perf_rule(stdout);
	if (o->test == PERF_WRITE_BW)
		printf(" #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n",
		       o->report_gbits ? "Gb/sec" : "MiB/sec", o->report_gbits ? "Gb/sec" : "MiB/sec");
	else
		perf_lat_header(stdout);
}

static void
print_xstats(const struct side *s)
{
	struct rte_pmd_irdma_xstat_name names[128];
	struct rte_pmd_irdma_xstat xs[128];
	int n = rte_pmd_irdma_qp_xstats_get_names(s->qp, names, RTE_DIM(names)), i;

	if (n <= 0 || n > (int)RTE_DIM(names) || rte_pmd_irdma_qp_xstats_get(s->qp, xs, n) != n)
		return;
	printf(" %s QP %u:", s->name, s->qp->qp_num);
	for (i = 0; i < n; i++)
		if (xs[i].value != 0)
			printf(" %s=%" PRIu64, names[i].name, xs[i].value);
	printf("\n");
}

/* One size: launch B, run A, wait for B, report. */
static void
run_size(struct side *a, struct side *b, unsigned int lcore_b, uint32_t size)
{
	const struct opts *o = a->o;
	struct perf_lat lat;
	int ret;

	a->size = b->size = size;
	a->use_inline = size <= a->max_inline;
	b->use_inline = size <= b->max_inline;
	a->err = b->err = 0;
	b->stop = false;
	memset(a->buf, 0, MAX_SIZE);
	memset(b->buf, 0, MAX_SIZE);
	if (lat_prepare(a) < 0 || lat_prepare(b) < 0)
		perf_die("cannot post the receives");
	if (rte_eal_remote_launch(lat_run_b, b, lcore_b) != 0)
		perf_die("cannot launch side B on lcore %u", lcore_b);
	ret = o->test == PERF_WRITE_BW ? bw_run_a(a) : lat_run_a(a);
	if (ret < 0)
		b->stop = true;
	rte_eal_wait_lcore(lcore_b);
	if (ret < 0 || a->err || b->err)
		perf_die("%u bytes: the test stopped (A: %s, B: %s)", size,
			 a->err ? strerror(-a->err) : "ok", b->err ? strerror(-b->err) : "ok");
	if (o->test == PERF_WRITE_BW)
		bw_report(a, o->iters, o->report_gbits);
	else if (perf_lat_compute(a->tposted, o->iters, (double)rte_get_tsc_hz(),
				  lat_rtt_factor(o->test), &lat) == 0)
		perf_lat_row(stdout, size, &lat);
}

int
main(int argc, char **argv)
{
	struct side a = { .name = "perfA" }, b = { .name = "perfB" };
	unsigned int lcore_b, lcore_svc = RTE_MAX_LCORE;
	struct opts o;
	uint32_t size;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		perf_die("EAL: %s", rte_strerror(rte_errno));
	parse(argc - ret, argv + ret, &o);
	lcore_b = rte_get_next_lcore(-1, 1, 0);
	if (lcore_b >= RTE_MAX_LCORE)
		perf_die("needs two lcores (e.g. -l 0-1), one per side");
	if (o.service) {
		lcore_svc = rte_get_next_lcore(lcore_b, 1, 0);
		if (lcore_svc >= RTE_MAX_LCORE)
			perf_die("--engine service needs a third lcore for the engines (e.g. -l 0-2)");
	}
	a.peer = &b;
	b.peer = &a;
	side_open(&a, &o, "198.18.0.1");
	side_open(&b, &o, "198.18.0.2");
	side_connect(&a);
	side_connect(&b);
	if (o.service)
		services_start(&a, &b, lcore_svc);
	a.tposted = calloc(o.iters, sizeof(*a.tposted));
	a.tcompleted = calloc(o.iters / o.cq_mod + 2, sizeof(*a.tcompleted));
	if (a.tposted == NULL || a.tcompleted == NULL)
		perf_die("no memory for %" PRIu64 " samples", o.iters);

	banner(&o, &a, &b);
	for (size = o.all ? 2 : o.size; size <= (o.all ? ALL_MAX_SIZE : o.size); size *= 2)
		run_size(&a, &b, lcore_b, size);
	perf_rule(stdout);
	if (o.xstats) {
		print_xstats(&a);
		print_xstats(&b);
	}
	if (o.service)
		services_stop(&a, &b, lcore_svc);
	free(a.tposted);
	free(a.tcompleted);
	side_close(&a);
	side_close(&b);
	rte_eal_cleanup();
	return 0;
}
