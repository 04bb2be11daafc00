/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf: an ib_write_lat-style latency test between two QPs of two irdma devices of
 * this process on port=loop, each side on its own lcore. Side A posts an RDMA WRITE whose
 * last byte carries the iteration count; side B spins on that byte, then writes back; A
 * spins in turn. The TSC at each post of A gives the samples; one delta is a round trip,
 * half of it is reported (perftest's write_lat math and table).
 *
 *   irdma-perf -l 0-1 --no-pci --no-huge -m 512 -- -s 8 -n 10000
 *   irdma-perf -l 0-2 ... -- -s 8 --engine service     (engines on lcore 2)
 *
 * Options (after --): -s/--size <bytes> (default 8, up to 1 MiB), -a/--all (2..64 KiB),
 * -n/--iters <n> (default 1000), -I/--inline_size <bytes> (default: the device maximum),
 * -g/--gen <1|2|3> (default 2), --engine inline|service, --devargs <extra devargs>.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_service.h>

#include "perf_stats.h"
#include "rte_pmd_irdma.h"

#define MAX_SIZE (1u << 20)
#define ALL_MAX_SIZE (64u << 10) /* -a: 2 .. 64 KiB (software device: every byte is copied) */
#define SIGNAL_EVERY 32u
#define STALL_SECONDS 5

struct opts {
	uint32_t size;
	bool all;
	uint64_t iters;
	int inline_size;           /* -1: device maximum */
	unsigned int gen;
	bool service;
	const char *extra;
};

struct side {
	const char *name;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;                  /* [0, MAX_SIZE): written by the peer; then our source */
	union rte_pmd_irdma_gid gid;
	uint32_t max_inline;
	struct side *peer;
	uint64_t *tposted;             /* A only */
	uint32_t size;
	uint64_t iters;
	bool use_inline;
	bool inline_engine;
	int err;
};

static void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "irdma-perf: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void
usage(void)
{
	fprintf(stderr,
		"usage: irdma-perf [EAL options] -- [-s size] [-a] [-n iters] [-I inline_size]\n"
		"                  [-g 1|2|3] [--engine inline|service] [--devargs key=value,...]\n");
}

static void
parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "size", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "iters", required_argument, NULL, 'n' },
		{ "inline_size", required_argument, NULL, 'I' },
		{ "gen", required_argument, NULL, 'g' },
		{ "engine", required_argument, NULL, 'e' },
		{ "devargs", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long v;
	int c;

	*o = (struct opts){ .size = 8, .iters = 1000, .inline_size = -1, .gen = 2 };
	while ((c = getopt_long(argc, argv, "s:an:I:g:h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			v = strtol(optarg, &end, 0);
			if (*end != '\0' || v < 1 || v > (long)MAX_SIZE)
				die("-s %s: the size must be 1..%u bytes", optarg, MAX_SIZE);
			o->size = (uint32_t)v;
			break;
		case 'a':
			o->all = true;
			break;
		case 'n':
			v = strtol(optarg, &end, 0);
			if (*end != '\0' || v < 5 || v > 100000000)
				die("-n %s: the iteration count must be 5..100000000", optarg);
			o->iters = (uint64_t)v;
			break;
		case 'I':
			v = strtol(optarg, &end, 0);
			if (*end != '\0' || v < 0 || v > 256)
				die("-I %s: the inline size must be 0..256", optarg);
			o->inline_size = (int)v;
			break;
		case 'g':
			if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "3"))
				die("-g %s: valid generations are 1, 2, 3", optarg);
			o->gen = (unsigned int)atoi(optarg);
			break;
		case 'e':
			if (strcmp(optarg, "service") == 0)
				o->service = true;
			else if (strcmp(optarg, "inline") != 0)
				die("--engine %s: valid engines are inline, service", optarg);
			break;
		case 'd':
			o->extra = optarg;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			usage();
			exit(1);
		}
	}
	if (optind < argc)
		die("unexpected argument \"%s\"", argv[optind]);
}

static int
to_rts(struct side *s)
{
	struct rte_pmd_irdma_qp_attr a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = RTE_PMD_IRDMA_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE;
	ret = rte_pmd_irdma_qp_modify(s->qp, &a, RTE_PMD_IRDMA_QP_STATE |
				      RTE_PMD_IRDMA_QP_PKEY_INDEX | RTE_PMD_IRDMA_QP_PORT |
				      RTE_PMD_IRDMA_QP_ACCESS_FLAGS);
	if (ret < 0)
		return ret;
	a.qp_state = RTE_PMD_IRDMA_QPS_RTR;
	a.path_mtu = RTE_PMD_IRDMA_MTU_1024;
	a.dest_qp_num = s->peer->qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.dgid = s->peer->gid;
	ret = rte_pmd_irdma_qp_modify(s->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_AV |
				      RTE_PMD_IRDMA_QP_PATH_MTU | RTE_PMD_IRDMA_QP_DEST_QPN |
				      RTE_PMD_IRDMA_QP_RQ_PSN | RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC |
				      RTE_PMD_IRDMA_QP_MIN_RNR_TIMER);
	if (ret < 0)
		return ret;
	a.qp_state = RTE_PMD_IRDMA_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return rte_pmd_irdma_qp_modify(s->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN |
				       RTE_PMD_IRDMA_QP_TIMEOUT | RTE_PMD_IRDMA_QP_RETRY_CNT |
				       RTE_PMD_IRDMA_QP_RNR_RETRY | RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC);
}

static void
side_open(struct side *s, const struct opts *o, const char *ip)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 256, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_dev_info info;
	char args[512];

	snprintf(args, sizeof(args), "soft,name=%s,port=loop,gen=%u,ip=%s,engine=%s%s%s", s->name,
		 o->gen, ip, o->service ? "service" : "inline", o->extra ? "," : "",
		 o->extra ? o->extra : "");
	s->dev = rte_pmd_irdma_dev_create(args);
	if (s->dev == NULL)
		die("cannot create device \"%s\": %s", args, rte_strerror(rte_errno));
	rte_pmd_irdma_dev_info(s->dev, &info);
	if (rte_pmd_irdma_query_gid(s->dev, 1, &s->gid) < 0)
		die("%s: no IPv4 GID", s->name);
	s->pd = rte_pmd_irdma_pd_alloc(s->dev);
	s->cq = rte_pmd_irdma_cq_create(s->dev, &ca);
	s->buf = rte_zmalloc_socket("perf_buf", 2 * MAX_SIZE, 4096, info.socket_id);
	if (s->pd == NULL || s->cq == NULL || s->buf == NULL)
		die("%s: cannot allocate PD, CQ or buffer", s->name);
	s->mr = rte_pmd_irdma_reg_mr(s->pd, s->buf, 2 * MAX_SIZE,
				     RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE |
					     RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	s->max_inline = o->inline_size < 0 ? info.max_inline_data :
					     RTE_MIN((uint32_t)o->inline_size, info.max_inline_data);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = s->cq;
	qa.recv_cq = s->cq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap.max_send_wr = 128;
	qa.cap.max_recv_wr = 1;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = s->max_inline;
	s->qp = rte_pmd_irdma_qp_create(s->pd, &qa);
	if (s->mr == NULL || s->qp == NULL)
		die("%s: cannot register the buffer or create the QP: %s", s->name,
		    rte_strerror(rte_errno));
	s->inline_engine = !o->service;
}

static void
side_close(struct side *s)
{
	rte_pmd_irdma_qp_destroy(s->qp);
	rte_pmd_irdma_dereg_mr(s->mr);
	rte_pmd_irdma_cq_destroy(s->cq);
	rte_pmd_irdma_pd_free(s->pd);
	rte_free(s->buf);
	rte_pmd_irdma_dev_close(s->dev);
}

/* Post one RDMA WRITE of s->size bytes whose last byte is @p count. */
static int
post_write(struct side *s, uint64_t n, uint8_t count)
{
	uint8_t *src = s->buf + MAX_SIZE;
	struct rte_pmd_irdma_sge sge = { (uintptr_t)src, s->size, s->mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = n, .sg_list = &sge, .num_sge = 1, .opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE,
	};
	int err;

	src[s->size - 1] = count;
	if (s->use_inline)
		wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	if (n % SIGNAL_EVERY == SIGNAL_EVERY - 1)
		wr.send_flags |= RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)s->peer->buf;
	wr.wr.rdma.rkey = s->peer->mr->rkey;
	while (rte_pmd_irdma_post_send(s->qp, &wr, 1, &err) != 1) {
		if (err != -ENOMEM)
			return err;
		rte_pmd_irdma_progress(s->dev, 64);
	}
	return 0;
}

/* Wait for the peer's write number @p count, keeping our device and SQ moving. */
static int
wait_for(struct side *s, uint8_t count)
{
	volatile uint8_t *last = s->buf + s->size - 1;
	uint64_t stall = rte_get_tsc_cycles() + STALL_SECONDS * rte_get_tsc_hz();
	struct rte_pmd_irdma_wc wc[4];
	unsigned int spins = 0;
	int n, i;

	while (*last != count) {
		if (s->inline_engine)
			rte_pmd_irdma_progress(s->dev, 32);
		if ((++spins & 63) == 0) {
			n = rte_pmd_irdma_poll_cq(s->cq, wc, 4);
			for (i = 0; i < n; i++)
				if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
					return -EIO;
			if (n < 0)
				return n;
			if (rte_get_tsc_cycles() > stall)
				return -ETIMEDOUT;
		}
	}
	/* Retire signaled writes so the SQ never fills. */
	n = rte_pmd_irdma_poll_cq(s->cq, wc, 4);
	for (i = 0; i < n; i++)
		if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
			return -EIO;
	return 0;
}

/* With engine=inline nothing moves a device but its own lcore: before leaving, wait for a
 * signaled NOP behind the last write, so that write has left. */
static int
drain(struct side *s)
{
	struct rte_pmd_irdma_send_wr nop = {
		.wr_id = UINT64_MAX, .opcode = RTE_PMD_IRDMA_WR_NOP,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
	};
	uint64_t stall = rte_get_tsc_cycles() + STALL_SECONDS * rte_get_tsc_hz();
	struct rte_pmd_irdma_wc wc[4];
	int n, i, err;

	if (rte_pmd_irdma_post_send(s->qp, &nop, 1, &err) != 1)
		return err;
	for (;;) {
		n = rte_pmd_irdma_poll_cq(s->cq, wc, 4);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
				return -EIO;
			if (wc[i].wr_id == UINT64_MAX)
				return 0;
		}
		if (rte_get_tsc_cycles() > stall)
			return -ETIMEDOUT;
	}
}

static int
run_b(void *arg)
{
	struct side *s = arg;
	uint64_t i;

	for (i = 0; i < s->iters; i++) {
		s->err = wait_for(s, (uint8_t)(i + 1));
		if (s->err == 0)
			s->err = post_write(s, i, (uint8_t)(i + 1));
		if (s->err)
			return -1;
	}
	s->err = drain(s);
	return s->err ? -1 : 0;
}

static int
run_a(struct side *s)
{
	uint64_t i;

	for (i = 0; i < s->iters; i++) {
		if (i > 0) {
			s->err = wait_for(s, (uint8_t)i);
			if (s->err)
				return -1;
		}
		s->tposted[i] = rte_rdtsc();
		s->err = post_write(s, i, (uint8_t)(i + 1));
		if (s->err)
			return -1;
	}
	s->err = wait_for(s, (uint8_t)i);
	if (s->err == 0)
		s->err = drain(s);
	return s->err ? -1 : 0;
}

static void
start_services(struct side *a, struct side *b, unsigned int lcore)
{
	struct rte_pmd_irdma_dev_info ia, ib;

	rte_pmd_irdma_dev_info(a->dev, &ia);
	rte_pmd_irdma_dev_info(b->dev, &ib);
	if (rte_service_lcore_add(lcore) < 0 ||
	    rte_service_map_lcore_set(ia.service_id, lcore, 1) < 0 ||
	    rte_service_map_lcore_set(ib.service_id, lcore, 1) < 0 ||
	    rte_service_runstate_set(ia.service_id, 1) < 0 ||
	    rte_service_runstate_set(ib.service_id, 1) < 0 || rte_service_lcore_start(lcore) < 0)
		die("cannot run the device engines on service lcore %u", lcore);
}

static void
stop_services(struct side *a, struct side *b, unsigned int lcore)
{
	struct rte_pmd_irdma_dev_info ia, ib;

	rte_pmd_irdma_dev_info(a->dev, &ia);
	rte_pmd_irdma_dev_info(b->dev, &ib);
	rte_service_runstate_set(ia.service_id, 0);
	rte_service_runstate_set(ib.service_id, 0);
	rte_service_lcore_stop(lcore);
	while (rte_service_lcore_may_be_active(lcore) == 1)
		rte_pause();
	rte_service_lcore_del(lcore);
}

static void
banner(const struct opts *o, const struct side *a, const struct side *b)
{
	perf_rule(stdout);
	printf("                    RDMA_Write Latency Test\n");
	printf(" Dual-port       : OFF\t\tDevice         : %s\n", a->name);
	printf(" Number of qps   : 1\t\tTransport type : IB\n");
	printf(" Connection type : RC\t\tUsing SRQ      : OFF\n");
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
	perf_lat_header(stdout);
}

int
main(int argc, char **argv)
{
	struct side a = { .name = "perfA" }, b = { .name = "perfB" };
	unsigned int lcore_b, lcore_svc = RTE_MAX_LCORE;
	struct perf_lat lat;
	struct opts o;
	uint32_t size;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		die("EAL: %s", rte_strerror(rte_errno));
	parse(argc - ret, argv + ret, &o);
	lcore_b = rte_get_next_lcore(-1, 1, 0);
	if (lcore_b >= RTE_MAX_LCORE)
		die("needs two lcores (e.g. -l 0-1), one per side");
	if (o.service) {
		lcore_svc = rte_get_next_lcore(lcore_b, 1, 0);
		if (lcore_svc >= RTE_MAX_LCORE)
			die("--engine service needs a third lcore for the engines (e.g. -l 0-2)");
	}
	a.peer = &b;
	b.peer = &a;
	side_open(&a, &o, "198.18.0.1");
	side_open(&b, &o, "198.18.0.2");
	if (to_rts(&a) < 0 || to_rts(&b) < 0)
		die("cannot connect the QPs");
	if (o.service)
		start_services(&a, &b, lcore_svc);
	a.tposted = calloc(o.iters, sizeof(*a.tposted));
	if (a.tposted == NULL)
		die("no memory for %" PRIu64 " samples", o.iters);

	banner(&o, &a, &b);
	for (size = o.all ? 2 : o.size; size <= (o.all ? ALL_MAX_SIZE : o.size); size *= 2) {
		a.size = b.size = size;
		a.iters = b.iters = o.iters;
		a.use_inline = size <= a.max_inline;
		b.use_inline = size <= b.max_inline;
		memset(a.buf, 0, MAX_SIZE);
		memset(b.buf, 0, MAX_SIZE);
		if (rte_eal_remote_launch(run_b, &b, lcore_b) != 0)
			die("cannot launch side B on lcore %u", lcore_b);
		ret = run_a(&a);
		rte_eal_wait_lcore(lcore_b);
		if (ret < 0 || a.err || b.err)
			die("size %u: the ping-pong stopped (A: %s, B: %s)", size,
			    a.err ? strerror(-a.err) : "ok", b.err ? strerror(-b.err) : "ok");
		if (perf_lat_compute(a.tposted, o.iters, (double)rte_get_tsc_hz(), 2, &lat) == 0)
			perf_lat_row(stdout, size, &lat);
		if (!o.all)
			break;
	}
	perf_rule(stdout);
	if (o.service)
		stop_services(&a, &b, lcore_svc);
	free(a.tposted);
	side_close(&a);
	side_close(&b);
	rte_eal_cleanup();
	return 0;
}
