/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-perf's command line: perftest's options where they apply, with clear errors. */
#include "perf_opts.h"

#include "cli_opts.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[PERF_MODE_COUNT] = {
	"write_lat", "read_lat", "send_lat", "atomic_lat", "write_bw", "read_bw", "send_bw",
	"atomic_bw",
};

const char *perf_mode_name(enum perf_mode m)
{
	return m >= 0 && m < PERF_MODE_COUNT ? mode_names[m] : NULL;
}

enum perf_mode perf_mode_from_name(const char *name)
{
	static const char *const prefixes[] = { "ib_", "irdma_", "irdma-", "" };
	char buf[32];
	const char *base = strrchr(name, '/');
	unsigned int p, i;

	base = base ? base + 1 : name;
	for (p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
		size_t pl = strlen(prefixes[p]);

		if (strncmp(base, prefixes[p], pl) != 0 || strlen(base + pl) >= sizeof(buf))
			continue;
		strcpy(buf, base + pl);
		for (i = 0; buf[i]; i++)
			if (buf[i] == '-')
				buf[i] = '_';
		for (i = 0; i < PERF_MODE_COUNT; i++)
			if (strcmp(buf, mode_names[i]) == 0)
				return (enum perf_mode)i;
	}
	return PERF_MODE_NONE;
}

bool perf_mode_is_lat(enum perf_mode m)
{
	return m == PERF_WRITE_LAT || m == PERF_READ_LAT || m == PERF_SEND_LAT ||
	       m == PERF_ATOMIC_LAT;
}

void perf_opts_apply_defaults(struct perf_opts *o, enum perf_mode m)
{
	bool lat = perf_mode_is_lat(m);

	/* perftest: latency 2 bytes, bandwidth 64 KiB, atomics always 8. */
	if (m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW)
		o->size = 8;
	else if (!o->size_set)
		o->size = lat ? 2 : 65536;
	if (!o->iters_set)
		o->iters = m == PERF_WRITE_BW ? 5000 : 1000;
	if (!o->tx_depth_set)
		o->tx_depth = lat ? 1 : 128;
	if (!lat && o->tx_depth > o->iters)
		o->tx_depth = (uint32_t)o->iters; /* as perftest: -t is capped to -n */
	if (!o->inline_set)
		o->inline_size = perf_default_inline(m, 2);
}

uint32_t perf_default_inline(enum perf_mode m, unsigned int gen)
{
	/* perftest inlines by default in the write and send latency tests only; for irdma
	 * devices it uses 48 bytes on X722 (gen 1) and 101 on E810 (gen 2 and later). The
	 * device's own limit still applies (perf_res caps it). */
	if (m != PERF_WRITE_LAT && m != PERF_SEND_LAT)
		return 0;
	return gen == 1 ? 48 : 101;
}

void perf_opts_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [options] [server host]\n"
	       "perftest-compatible RDMA benchmarks on the irdma PMD (see irdma-perf(1)).\n"
	       "Tool options go after \"--\"; before it, EAL's (-l, --no-huge, --vdev, ...).\n"
	       "PCI devices are probed only when named (-a <PCI address>); else EAL gets --no-pci.\n\n"
	       "Test (or run the tool through a link named irdma_write_lat, irdma_read_bw, ...):\n"
	       "  --test <mode>            write_lat read_lat send_lat atomic_lat write_bw read_bw\n"
	       "                           send_bw atomic_bw (default: write_lat)\n"
	       "  --demo                   write_lat send_lat read_lat atomic_lat write_bw, back to\n"
	       "                           back in one process (--loop)\n"
	       "Where:\n"
	       "  --loop                   both endpoints in this process: two soft devices joined by\n"
	       "                           port=loop, one side per lcore (one loop with a single lcore);\n"
	       "                           the default without a server host and without --devargs\n"
	       "  [server host]            client mode: the kernel address of the server's TCP\n"
	       "                           exchange (127.0.0.1 on one machine); none: server mode\n"
	       "  --devargs <string>       device, e.g. soft,port=net_memif0,ip=198.18.0.2 (twice with\n"
	       "                           --loop to give each side its own)\n"
	       "perftest options:\n"
	       "  -s, --size <bytes>       message size, K and M suffixes (latency 2, bandwidth 65536,\n"
	       "                           atomics 8)\n"
	       "  -a, --all                every size 2..8388608, doubling\n"
	       "  -n, --iters <n>          iterations (1000; write_bw 5000)\n"
	       "  -m, --mtu <bytes>        path MTU 256..4096 (default: the device's; --loop raises\n"
	       "                           the loop devices' MTU to it)\n"
	       "  -p, --port <port>        TCP port of the exchange (18515)\n"
	       "  -x, --gid-index <n>      local GID index (default: the best RoCE v2 GID, the\n"
	       "                           IPv4-mapped one when the device has ip=)\n"
	       "  -t, --tx-depth <n>       send queue depth (latency 1, bandwidth 128)\n"
	       "  -r, --rx-depth <n>       receive queue depth for send tests (512)\n"
	       "  -I, --inline_size <n>    inline data up to n bytes (write/send latency 101, gen=1 48;\n"
	       "                           others 0)\n"
	       "  -Q, --cq-mod <n>         one signaled completion every n WRs (bandwidth, 100)\n"
	       "  -l, --post_list <n>      WRs per post call (1)\n"
	       "  -q, --qp <n>             bandwidth tests: n QPs (1..16), -n WRs on each (the row:\n"
	       "                           all of them)\n"
	       "  -o, --outs <n>           outstanding reads/atomics (device maximum)\n"
	       "  -u, --qp-timeout <n>     QP timeout exponent (14)\n"
	       "  -S, --sl <n>             service level (0)\n"
	       "  -T, --tos <n>            traffic class of the GRH (0)\n"
	       "  -L, --hop_limit <n>      hop limit of the GRH (64)\n"
	       "  -A, --atomic_type <t>    FETCH_AND_ADD (default) or CMP_AND_SWAP\n"
	       "  -b, --bidirectional      bandwidth tests: both sides initiate; the figures are\n"
	       "                           the sum of both directions (--report-both: each as well)\n"
	       "  -D, --duration <s>       run for s seconds instead of -n iterations,\n"
	       "                           a progress line per second on stderr\n"
	       "  -e, --events             sleep on CQ events instead of busy polling (client/server)\n"
	       "  -R, --rdma_cm            connect the QP with RDMA-CM, exchange over RDMA-CM too\n"
	       "                           (the server host is then the server's RoCE address)\n"
	       "  --use-srq                send tests receive through a shared receive queue (gen=3)\n"
	       "  -N, --noPeak             no peak bandwidth (reported as 0)\n"
	       "  -H, --report-histogrm    latency histogram after the table\n"
	       "  -U, --report-unsorted    every latency sample, unsorted, after the table\n"
	       "  -w, --limit_bw <bw>      fail (exit 1) when the average is below bw (the report's unit)\n"
	       "  -y, --limit_msgrate <r>  fail when the message rate is below r Mpps\n"
	       "  --output <what>          bandwidth, message_rate or latency: print only that figure\n"
	       "  --report_gbits           bandwidth in Gb/s\n"
	       "  --report-both            with -b: each direction's figures too\n"
	       "  -F, --CPU-freq           accepted (the TSC is the clock)\n"
	       "  -d, --ib-dev <name>      accepted and ignored (the device comes from --devargs)\n"
	       "  -c, --connection <RC|UD> transport (RC; UD for send_lat and send_bw, messages up\n"
	       "                           to the MTU)\n"
	       "  -i, --ib-port <1>\n"
	       "  -V, --version            print the version and exit\n"
	       "irdma-perf options:\n"
	       "  --timeout <s>            give up when a side makes no progress for s seconds (30)\n"
	       "  --quiet                  no progress lines\n"
	       "  -h, --help\n"
	       "Not supported yet (refused with the reason): see irdma-perf(1) and\n"
	       "doc/guides/perftest-options.md.\n",
	       prog);
}

enum opt_id {
	O_SIZE, O_ITERS, O_ALLSIZES, O_MTU, O_PORT, O_GID, O_FREQ, O_TX, O_RX, O_INLINE, O_ATOMIC,
	O_DEV, O_IBPORT, O_CONN, O_QP, O_GBITS, O_DEVARGS, O_LOOP, O_DEMO, O_TEST, O_TIMEOUT, O_HELP,
	O_CQMOD, O_POSTLIST, O_OUTS, O_QPTIMEOUT, O_SL, O_TOS, O_HOPLIMIT, O_NOPEAK, O_HIST,
	O_UNSORTED, O_OUTPUT, O_BOTH, O_VERSION, O_QUIET, O_SRQ, O_EVENTS, O_DURATION, O_LIMIT_BW,
	O_LIMIT_RATE, O_DUPLEX, O_UNSUP,
};

#define NOT_YET(s, l, a, why) { s, l, a, O_UNSUP, why }
#define NO_CM "not supported: use -R (RDMA-CM for both the exchange and the test QP)"

static const struct cli_opt defs[] = {
	{ 's', "size", true, O_SIZE, NULL },       { 'n', "iters", true, O_ITERS, NULL },
	{ 'a', "all", false, O_ALLSIZES, NULL },
	{ 'm', "mtu", true, O_MTU, NULL },         { 'p', "port", true, O_PORT, NULL },
	{ 'x', "gid-index", true, O_GID, NULL },   { 'F', "CPU-freq", false, O_FREQ, NULL },
	{ 't', "tx-depth", true, O_TX, NULL },     { 'r', "rx-depth", true, O_RX, NULL },
	{ 'I', "inline_size", true, O_INLINE, NULL },
	{ 'A', "atomic_type", true, O_ATOMIC, NULL },
	{ 'd', "ib-dev", true, O_DEV, NULL },      { 'i', "ib-port", true, O_IBPORT, NULL },
	{ 'c', "connection", true, O_CONN, NULL }, { 'q', "qp", true, O_QP, NULL },
	{ 'Q', "cq-mod", true, O_CQMOD, NULL },    { 'l', "post_list", true, O_POSTLIST, NULL },
	{ 'o', "outs", true, O_OUTS, NULL },       { 'u', "qp-timeout", true, O_QPTIMEOUT, NULL },
	{ 'S', "sl", true, O_SL, NULL },           { 'T', "tos", true, O_TOS, NULL },
	{ 'L', "hop_limit", true, O_HOPLIMIT, NULL },
	{ 'N', "noPeak", false, O_NOPEAK, NULL },
	{ 'H', "report-histogrm", false, O_HIST, NULL },
	{ 'U', "report-unsorted", false, O_UNSORTED, NULL },
	{ 'V', "version", false, O_VERSION, NULL },
	{ 0, "output", true, O_OUTPUT, NULL },     { 0, "report-both", false, O_BOTH, NULL },
	{ 0, "report_gbits", false, O_GBITS, NULL },
	{ 0, "devargs", true, O_DEVARGS, NULL },   { 0, "loop", false, O_LOOP, NULL },
	{ 0, "demo", false, O_DEMO, NULL },        { 0, "test", true, O_TEST, NULL },
	{ 0, "timeout", true, O_TIMEOUT, NULL },   { 0, "quiet", false, O_QUIET, NULL },
	{ 'h', "help", false, O_HELP, NULL },
	/* perftest's options that are not implemented: each says why. */
	{ 'D', "duration", true, O_DURATION, NULL },
	NOT_YET('f', "margin", true, "not yet: -D measures its whole duration"),
	{ 'b', "bidirectional", false, O_DUPLEX, NULL },
	{ 'e', "events", false, O_EVENTS, NULL },
	NOT_YET('C', "report-cycles", false, "the clock is the TSC, reported in microseconds"),
	{ 'R', "rdma_cm", false, 'R', NULL },    NOT_YET('z', "comm_rdma_cm", false, NO_CM),
	NOT_YET('O', "dualport", false, "the device has one port"),
	NOT_YET('g', "mcg", false, "there is no multicast"),
	NOT_YET('M', "MGID", true, "there is no multicast"),
	NOT_YET('X', "vector", true, "there are no interrupt vectors (completion events are "
				      "an eventfd)"),
	{ 'w', "limit_bw", true, O_LIMIT_BW, NULL },
	{ 'y', "limit_msgrate", true, O_LIMIT_RATE, NULL },
	NOT_YET('W', "report-counters", true, "read the device's counters with telemetry "
					      "(/irdma/xstats)"),
	NOT_YET(0, "run_infinitely", false, "not yet: the tests run a fixed number of iterations"),
	{ 0, "use-srq", false, O_SRQ, NULL },
	NOT_YET(0, "reversed", false, "not yet: the client always initiates"),
	NOT_YET(0, "cpu_util", false, "not yet: the tools busy-poll, CPU use is 100%"),
	NOT_YET(0, "use_old_post_send", false, "there is only one post API "
						"(rte_pmd_irdma_post_send)"),
	NOT_YET(0, "ipv6", false, "not yet: the TCP exchange runs over IPv4"),
	NOT_YET(0, "report-per-port", false, "the device has one port"),
	NOT_YET(0, "odp", false, "there is no on-demand paging: memory is registered up front"),
	NOT_YET(0, "use_hugepages", false, "the buffers come from DPDK's memory (rte_malloc): "
					   "hugepages unless EAL runs with --no-huge"),
	NOT_YET(0, "use_cuda", false, "there is no GPU memory support"),
	NOT_YET(0, "mmap", true, "not yet: the buffers come from rte_malloc"),
	{ 0, "mr_per_qp", false, O_DEV, NULL }, /* accepted: each QP of -q has its own MR */
	NOT_YET(0, "dont_xchg_versions", false, "not yet: the versions are always exchanged"),
	NOT_YET(0, "perform_warm_up", false, "not yet: no warm-up phase"),
	NOT_YET(0, "pkey_index", true, "RoCE uses the default P_Key only"),
	NOT_YET(0, "inline_recv", true, "not yet: receives are never inlined"),
	NOT_YET(0, "latency_gap", true, "not yet: latency samples are back to back"),
	NOT_YET(0, "flow_label", true, "not yet: the flow label is 0"),
	NOT_YET(0, "retry_count", true, "not yet: the retry count is 7, as perftest's default"),
	NOT_YET(0, "tclass", true, "use -T/--tos"),
	NOT_YET(0, "wait_destroy", true, "not yet"),
	NOT_YET(0, "out_json", false, "not yet: use --output to print one figure"),
	NOT_YET(0, "out_json_file", true, "not yet: use --output to print one figure"),
	NOT_YET(0, "source_ip", true, "the device's address is its ip= devarg"),
	NOT_YET(0, "dlid", true, "RoCE has no LIDs"),
};

const struct cli_opt *perf_opts_table(size_t *n)
{
	*n = sizeof(defs) / sizeof(defs[0]);
	return defs;
}

/* -s with perftest's K and M suffixes. */
static int parse_size(const char *val, uint64_t *v)
{
	char buf[32];
	size_t n = strlen(val);
	uint64_t mul = 1;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, val, n + 1);
	if (buf[n - 1] == 'K' || buf[n - 1] == 'M') {
		mul = buf[n - 1] == 'K' ? 1024 : 1024 * 1024;
		buf[n - 1] = '\0';
	}
	if (cli_parse_u64(buf, 0, PERF_MAX_SIZE, v) || *v * mul > PERF_MAX_SIZE)
		return -1;
	*v *= mul;
	return 0;
}

static int apply(void *ctx, const struct cli_opt *d, const char *optname, const char *val,
		 char *err, size_t errlen)
{
	struct perf_opts *o = ctx;
	uint64_t v = 0;
	int rc = 0;

	if (!d)
		return cli_opt_server_host(&o->server_host, val, err, errlen);
	switch (d->id) {
	case O_SIZE:
		if (parse_size(val, &v))
			return cli_errf(err, errlen, "%s: size '%s' is not a number of bytes 0..%u",
				    optname, val, PERF_MAX_SIZE);
		o->size = (uint32_t)v;
		o->size_set = true;
		break;
	case O_ITERS:
		rc = cli_opt_u64(optname, val, 1, UINT32_MAX, "iterations", &v, err, errlen);
		o->iters = v;
		o->iters_set = true;
		break;
	case O_ALLSIZES:
		o->all_sizes = true;
		break;
	case O_MTU:
		return cli_opt_mtu(optname, val, &o->mtu, err, errlen);
	case O_PORT:
		return cli_opt_tcp_port(optname, val, &o->tcp_port, err, errlen);
	case O_GID:
		return cli_opt_gid_index(optname, val, &o->gid_index, err, errlen);
	case O_FREQ:
		o->cpu_freq_ok = true;
		break;
	case O_TX:
		rc = cli_opt_u64(optname, val, 1, 32768, "TX depth", &v, err, errlen);
		o->tx_depth = (uint32_t)v;
		o->tx_depth_set = true;
		break;
	case O_RX:
		rc = cli_opt_u64(optname, val, 1, 32768, "RX depth", &v, err, errlen);
		o->rx_depth = (uint32_t)v;
		break;
	case O_INLINE:
		rc = cli_opt_u64(optname, val, 0, 4096, "inline size", &v, err, errlen);
		o->inline_size = (uint32_t)v;
		o->inline_set = true;
		break;
	case O_ATOMIC:
		if (strcmp(val, "FETCH_AND_ADD") == 0)
			o->atomic = PERF_FETCH_AND_ADD;
		else if (strcmp(val, "CMP_AND_SWAP") == 0)
			o->atomic = PERF_CMP_AND_SWAP;
		else
			return cli_errf(err, errlen,
				    "%s: atomic type '%s' is not FETCH_AND_ADD or CMP_AND_SWAP",
				    optname, val);
		break;
	case O_DEV:
		break; /* perftest's device name (ours comes from --devargs), --mr_per_qp */
	case O_IBPORT:
		return cli_opt_ib_port(optname, val, err, errlen);
	case O_CONN:
		if (strcmp(val, "UD") == 0) {
			o->ud = true;
		} else if (strcmp(val, "RC") == 0) {
			o->ud = false;
		} else if (!strcmp(val, "UC") || !strcmp(val, "XRC") || !strcmp(val, "DC") ||
			   !strcmp(val, "SRD")) {
			return cli_errf(err, errlen, "%s: connection type '%s' is not applicable: the "
				    "device has RC and UD QPs", optname, val);
		} else {
			return cli_errf(err, errlen, "%s: connection type '%s' is not RC or UD",
				    optname, val);
		}
		break;
	case O_QP:
		rc = cli_opt_u64(optname, val, 1, PERF_MAX_QPS, "QPs", &v, err, errlen);
		o->num_qps = (unsigned int)v;
		break;
	case O_CQMOD:
		rc = cli_opt_u64(optname, val, 1, 1024, "CQ moderation", &v, err, errlen);
		o->cq_mod = (uint32_t)v;
		break;
	case O_POSTLIST:
		rc = cli_opt_u64(optname, val, 1, 32, "post list", &v, err, errlen);
		o->post_list = (uint32_t)v;
		break;
	case O_OUTS:
		rc = cli_opt_u64(optname, val, 1, 255, "outstanding reads", &v, err, errlen);
		o->out_reads = (uint32_t)v;
		break;
	case O_QPTIMEOUT:
		rc = cli_opt_u64(optname, val, 0, 31, "QP timeout", &v, err, errlen);
		o->qp_timeout = (uint8_t)v;
		break;
	case O_SL:
		rc = cli_opt_u64(optname, val, 0, 15, "service level", &v, err, errlen);
		o->sl = (uint8_t)v;
		break;
	case O_TOS:
		rc = cli_opt_u64(optname, val, 0, 255, "type of service", &v, err, errlen);
		o->tos = (uint8_t)v;
		break;
	case O_HOPLIMIT:
		rc = cli_opt_u64(optname, val, 0, 255, "hop limit", &v, err, errlen);
		o->hop_limit = (uint8_t)v;
		break;
	case O_NOPEAK:
		o->no_peak = true;
		break;
	case O_HIST:
		o->histogram = true;
		break;
	case O_UNSORTED:
		o->unsorted = true;
		break;
	case O_OUTPUT:
		if (strcmp(val, "bandwidth") == 0)
			o->output = PERF_OUT_BANDWIDTH;
		else if (strcmp(val, "message_rate") == 0)
			o->output = PERF_OUT_MSG_RATE;
		else if (strcmp(val, "latency") == 0)
			o->output = PERF_OUT_LATENCY;
		else
			return cli_errf(err, errlen, "%s: '%s' is not bandwidth, message_rate or latency",
				    optname, val);
		break;
	case O_BOTH:
		o->report_both = true;
		break;
	case O_VERSION:
		o->version = true;
		break;
	case O_QUIET:
		o->quiet = true;
		break;
	case O_LIMIT_BW:
	case O_LIMIT_RATE: {
		char *end;
		double x;

		errno = 0;
		x = strtod(val, &end);
		if (errno || end == val || *end || !(x > 0))
			return cli_errf(err, errlen, "%s: limit '%s' is not a positive number", optname,
				    val);
		if (d->id == O_LIMIT_BW)
			o->limit_bw = x;
		else
			o->limit_msgrate = x;
		break;
	}
	case O_DUPLEX:
		o->duplex = true;
		break;
	case O_DURATION:
		rc = cli_opt_u64(optname, val, 1, 3600, "duration", &v, err, errlen);
		o->duration_s = (unsigned int)v;
		break;
	case O_SRQ:
		o->use_srq = true;
		break;
	case O_EVENTS:
		o->use_events = true;
		break;
	case 'R':
		o->rdma_cm = true; /* perf_rdma_cm.c */
		break;
	case O_GBITS:
		o->report_gbits = true;
		break;
	case O_DEVARGS:
		if (o->n_devargs == PERF_MAX_DEVARGS)
			return cli_errf(err, errlen, "%s: given more than %d times", optname,
				    PERF_MAX_DEVARGS);
		if (!*val)
			return cli_errf(err, errlen, "%s: empty device string", optname);
		o->devargs[o->n_devargs++] = val;
		break;
	case O_LOOP:
		o->loop = true;
		break;
	case O_DEMO:
		o->all_tests = true;
		break;
	case O_TEST:
		o->mode = perf_mode_from_name(val);
		if (o->mode == PERF_MODE_NONE)
			return cli_errf(err, errlen,
				    "%s: unknown test '%s' (write_lat read_lat send_lat atomic_lat "
				    "write_bw read_bw send_bw atomic_bw)", optname, val);
		break;
	case O_TIMEOUT:
		return cli_opt_timeout(optname, val, &o->timeout_s, err, errlen);
	case O_HELP:
		return 1;
	}
	/* an error stops the parse, and the caller drops what was set */
	return rc;
}

int perf_opts_check_port(const struct perf_opts *o, char *err, size_t errlen)
{
	if (!o->loop && cli_devargs_is_loop(o->devargs[0]))
		return cli_errf(err, errlen, "--devargs %s: port=loop joins devices inside one "
				"process and cannot reach %s; use port=<ethdev> (net_memif, "
				"net_af_packet, ...) or --loop", o->devargs[0],
				o->server_host ? "a server in another process" :
						 "a client in another process");
	return 0;
}

static bool is_atomic(enum perf_mode m)
{
	return m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW;
}

int perf_opts_parse(struct perf_opts *o, const char *prog, int argc, char **argv, char *err,
		    size_t errlen)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->mode = perf_mode_from_name(prog);
	o->tcp_port = 18515;
	o->ib_port = 1;
	o->rx_depth = 512;
	o->gid_index = -1;
	o->post_list = 1;
	o->num_qps = 1;
	o->qp_timeout = 14;
	o->hop_limit = 64;
	o->timeout_s = PERF_DEFAULT_TIMEOUT_S;
	err[0] = '\0';

	rc = cli_parse(defs, sizeof(defs) / sizeof(defs[0]), argc, argv, apply, o, err, errlen);
	if (rc)
		return rc;
	if (o->version)
		return 2;

	/* Cross-option rules. */
	if (o->all_tests && o->mode != PERF_MODE_NONE && perf_mode_from_name(prog) != o->mode)
		return cli_errf(err, errlen, "--demo and --test %s are exclusive",
				perf_mode_name(o->mode));
	if (o->all_tests && o->server_host)
		return cli_errf(err, errlen, "--demo runs in one process (--loop); it takes no server "
				"host");
	if (o->all_tests) {
		o->mode = PERF_MODE_NONE;
		o->loop = true;
	}
	/* Like running ib_write_lat: the default test. With neither a server host nor a
	 * device, both sides run here (--loop). */
	if (!o->all_tests && o->mode == PERF_MODE_NONE)
		o->mode = PERF_WRITE_LAT;
	if (!o->server_host && o->n_devargs == 0)
		o->loop = true;
	if (o->loop && o->server_host)
		return cli_errf(err, errlen, "--loop runs both sides here; it takes no server host ('%s')",
			    o->server_host);
	if (o->rdma_cm && (o->loop || o->ud))
		return cli_errf(err, errlen, "-R connects one RC QP to a peer through RDMA-CM: not "
				"with %s", o->loop ? "--loop" : "-c UD");
	if (!o->loop && o->n_devargs > 1)
		return cli_errf(err, errlen, "--devargs twice only makes sense with --loop");
	if (!o->loop && o->n_devargs == 0)
		return cli_errf(err, errlen, "client/server mode needs --devargs "
				     "soft,port=<ethdev>,ip=<address> (or use --loop)");
	if (!o->all_tests && is_atomic(o->mode) && o->size_set && o->size != 8)
		return cli_errf(err, errlen, "-s: atomic operations are 8 bytes, not %u", o->size);
	if (o->size_set && o->all_sizes)
		return cli_errf(err, errlen, "-s and -a are exclusive");
	if (o->mode == PERF_WRITE_LAT && o->size_set && o->size == 0)
		return cli_errf(err, errlen, "-s: write_lat needs at least 1 byte (the peer polls the "
				     "last byte)");
	if (o->iters_set && o->iters < 5 && (o->all_tests || perf_mode_is_lat(o->mode)))
		return cli_errf(err, errlen, "-n: latency tests need at least 5 iterations "
				     "(the 2 largest samples are trimmed), not %" PRIu64, o->iters);
	if (!o->all_tests && o->inline_set && o->inline_size &&
	    (o->mode == PERF_READ_LAT || o->mode == PERF_READ_BW || is_atomic(o->mode)))
		return cli_errf(err, errlen, "-I: inline data is for WRITE and SEND tests, not %s",
				perf_mode_name(o->mode));
	if (!o->all_tests && o->out_reads && o->mode != PERF_READ_LAT && o->mode != PERF_READ_BW &&
	    !is_atomic(o->mode))
		return cli_errf(err, errlen, "-o: outstanding reads are for READ and atomic tests, "
				"not %s", perf_mode_name(o->mode));
	if (!o->all_tests && o->atomic == PERF_CMP_AND_SWAP && !is_atomic(o->mode))
		return cli_errf(err, errlen, "-A: the atomic type is for atomic_lat and atomic_bw, "
				"not %s", perf_mode_name(o->mode));
	if (o->duration_s && (o->all_tests || o->all_sizes))
		return cli_errf(err, errlen, "-D: a duration is %s",
				o->all_tests ? "not for --demo" : "for one size, not with -a");
	if (o->duration_s && (o->histogram || o->unsorted))
		return cli_errf(err, errlen, "-%c: with -D there are no samples (the table is the "
				"average, as perftest)", o->histogram ? 'H' : 'U');
	if (o->ud && (o->all_tests || (o->mode != PERF_SEND_LAT && o->mode != PERF_SEND_BW)))
		return cli_errf(err, errlen, "-c UD: UD carries SENDs only: use it with send_lat or "
				"send_bw");
	if (o->ud && o->duplex)
		return cli_errf(err, errlen, "-c UD with -b: not supported yet");
	if ((o->limit_bw > 0 || o->limit_msgrate > 0) && !o->all_tests &&
	    perf_mode_is_lat(o->mode))
		return cli_errf(err, errlen, "-%c: limits are for the bandwidth tests, not %s",
				o->limit_bw > 0 ? 'w' : 'y', perf_mode_name(o->mode));
	if (o->duplex && (o->all_tests || perf_mode_is_lat(o->mode)))
		return cli_errf(err, errlen, "-b: both directions are for the bandwidth tests, not %s",
				o->all_tests ? "--demo" : perf_mode_name(o->mode));
	if (o->duplex && o->mode == PERF_SEND_BW && (o->all_sizes || o->duration_s))
		return cli_errf(err, errlen, "-b in send_bw: not supported yet with %s",
				o->all_sizes ? "-a" : "-D");
	/* perftest takes -q in its bandwidth tests only */
	if (o->num_qps > 1 && (o->all_tests || perf_mode_is_lat(o->mode)))
		return cli_errf(err, errlen, "-q: several QPs are for the bandwidth tests, not %s",
				o->all_tests ? "--demo" : perf_mode_name(o->mode));
	if (o->use_srq && !o->all_tests && o->mode != PERF_SEND_LAT && o->mode != PERF_SEND_BW)
		return cli_errf(err, errlen, "--use-srq: only the send tests receive, not %s",
				perf_mode_name(o->mode));
	if (o->use_events && (o->loop || o->mode == PERF_WRITE_LAT))
		return cli_errf(err, errlen, "-e: %s", o->loop ?
				"completion events need client/server mode (--loop steps both "
				"sides from the same lcores)" :
				"write_lat watches memory, not a CQ: events do not apply");
	if ((o->histogram || o->unsorted) && !o->all_tests && !perf_mode_is_lat(o->mode))
		return cli_errf(err, errlen, "-%c: latency samples exist in latency tests only, not %s",
				o->histogram ? 'H' : 'U', perf_mode_name(o->mode));
	return 0;
}
