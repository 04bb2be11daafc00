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
	if (m == PERF_ATOMIC_LAT)
		o->size = 8;
	else if (!o->size_set)
		o->size = lat ? 2 : 65536;
	if (!o->iters_set)
		o->iters = m == PERF_WRITE_BW ? 5000 : 1000;
	if (!o->tx_depth_set)
		o->tx_depth = lat ? 1 : 128;
	if (!lat && o->tx_depth > o->iters)
		o->tx_depth = (uint32_t)o->iters; /* perftest refuses -n < -t; we just cap */
}

void perf_opts_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [options] [server host]\n"
	       "perftest-compatible RDMA benchmarks on the irdma PMD.\n\n"
	       "Test (or run the tool through a link named ib_write_lat, irdma_read_bw, ...):\n"
	       "  --test <mode>            write_lat read_lat send_lat atomic_lat write_bw read_bw send_bw\n"
	       "                           (default: write_lat)\n"
	       "  --all                    write_lat send_lat read_lat atomic_lat write_bw, back to back\n"
	       "                           in one process (--loop)\n"
	       "Where:\n"
	       "  --loop                   both endpoints in this process: two soft devices joined by\n"
	       "                           port=loop, one side per lcore (one loop with a single lcore);\n"
	       "                           the default without a server host and without --devargs\n"
	       "  [server host]            client mode (perftest's TCP exchange); none: server mode\n"
	       "  --devargs <string>       device, e.g. soft,port=net_memif0,ip=198.18.0.2 (twice with\n"
	       "                           --loop to give each side its own)\n"
	       "perftest options:\n"
	       "  -s, --size <bytes>       message size (latency 2, bandwidth 65536, atomics 8)\n"
	       "  -a, --all-sizes          sizes 2..8388608, doubling (perftest's -a/--all)\n"
	       "  -n, --iters <n>          iterations (1000; write_bw 5000)\n"
	       "  -m, --mtu <bytes>        path MTU 256..4096 (default: the device's)\n"
	       "  -p, --port <port>        TCP port of the exchange (18515)\n"
	       "  -x, --gid-index <n>      local GID index (0)\n"
	       "  -t, --tx-depth <n>       send queue depth (latency 1, bandwidth 128)\n"
	       "  -r, --rx-depth <n>       receive queue depth for send tests (512)\n"
	       "  -I, --inline_size <n>    inline data up to n bytes (0)\n"
	       "  -A, --atomic_type <t>    FETCH_AND_ADD (default) or CMP_AND_SWAP\n"
	       "  -F, --CPU-freq           accepted (the TSC is the clock)\n"
	       "  -d, --ib-dev <name>      accepted and ignored (the device comes from --devargs)\n"
	       "  -i, --ib-port <1>        -c, --connection <RC>   -q, --qp <1>\n"
	       "  --report_gbits           bandwidth in Gb/s\n"
	       "  --timeout <s>            give up when a side makes no progress for s seconds (30)\n"
	       "  -h, --help\n",
	       prog);
}

enum opt_id {
	O_SIZE, O_ITERS, O_ALLSIZES, O_MTU, O_PORT, O_GID, O_FREQ, O_TX, O_RX, O_INLINE, O_ATOMIC,
	O_DEV, O_IBPORT, O_CONN, O_QP, O_GBITS, O_DEVARGS, O_LOOP, O_ALL, O_TEST, O_TIMEOUT, O_HELP,
};

static const struct cli_opt defs[] = {
	{ 's', "size", true, O_SIZE },       { 'n', "iters", true, O_ITERS },
	{ 'a', "all-sizes", false, O_ALLSIZES },
	{ 'm', "mtu", true, O_MTU },         { 'p', "port", true, O_PORT },
	{ 'x', "gid-index", true, O_GID },   { 'F', "CPU-freq", false, O_FREQ },
	{ 't', "tx-depth", true, O_TX },     { 'r', "rx-depth", true, O_RX },
	{ 'I', "inline_size", true, O_INLINE },
	{ 'A', "atomic_type", true, O_ATOMIC },
	{ 'd', "ib-dev", true, O_DEV },      { 'i', "ib-port", true, O_IBPORT },
	{ 'c', "connection", true, O_CONN }, { 'q', "qp", true, O_QP },
	{ 0, "report_gbits", false, O_GBITS },
	{ 0, "devargs", true, O_DEVARGS },   { 0, "loop", false, O_LOOP },
	{ 0, "all", false, O_ALL },          { 0, "test", true, O_TEST },
	{ 0, "timeout", true, O_TIMEOUT },   { 'h', "help", false, O_HELP },
};

static int apply(struct perf_opts *o, const struct cli_opt *d, const char *optname,
		 const char *val, char *err, size_t errlen)
{
	uint64_t v;

	switch (d->id) {
	case O_SIZE:
		if (cli_parse_u64(val, 0, PERF_MAX_SIZE, &v))
			return cli_errf(err, errlen, "%s: size '%s' is not a number of bytes 0..%u",
				    optname, val, PERF_MAX_SIZE);
		o->size = (uint32_t)v;
		o->size_set = true;
		break;
	case O_ITERS:
		if (cli_parse_u64(val, 1, UINT32_MAX, &v))
			return cli_errf(err, errlen, "%s: iterations '%s' is not a number 1..%u",
				    optname, val, UINT32_MAX);
		o->iters = v;
		o->iters_set = true;
		break;
	case O_ALLSIZES:
		o->all_sizes = true;
		break;
	case O_MTU:
		if (cli_parse_u64(val, 256, 4096, &v) || (v & (v - 1)))
			return cli_errf(err, errlen, "%s: MTU '%s' is not one of 256 512 1024 2048 4096",
				    optname, val);
		o->mtu = (uint32_t)v;
		break;
	case O_PORT:
		if (cli_parse_u64(val, 1, 65535, &v))
			return cli_errf(err, errlen, "%s: TCP port '%s' is not 1..65535", optname, val);
		o->tcp_port = (uint16_t)v;
		break;
	case O_GID:
		if (cli_parse_u64(val, 0, 255, &v))
			return cli_errf(err, errlen, "%s: GID index '%s' is not 0..255", optname, val);
		o->gid_index = (int)v;
		break;
	case O_FREQ:
		o->cpu_freq_ok = true;
		break;
	case O_TX:
		if (cli_parse_u64(val, 1, 32768, &v))
			return cli_errf(err, errlen, "%s: TX depth '%s' is not 1..32768", optname, val);
		o->tx_depth = (uint32_t)v;
		o->tx_depth_set = true;
		break;
	case O_RX:
		if (cli_parse_u64(val, 1, 32768, &v))
			return cli_errf(err, errlen, "%s: RX depth '%s' is not 1..32768", optname, val);
		o->rx_depth = (uint32_t)v;
		break;
	case O_INLINE:
		if (cli_parse_u64(val, 0, 4096, &v))
			return cli_errf(err, errlen, "%s: inline size '%s' is not 0..4096", optname, val);
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
		break; /* perftest's device name: ours comes from --devargs */
	case O_IBPORT:
		if (cli_parse_u64(val, 1, 1, &v))
			return cli_errf(err, errlen, "%s: the device has one port (1), not '%s'",
				    optname, val);
		o->ib_port = 1;
		break;
	case O_CONN:
		if (strcmp(val, "RC") != 0)
			return cli_errf(err, errlen, "%s: connection type '%s' is not supported (RC only)",
				    optname, val);
		break;
	case O_QP:
		if (cli_parse_u64(val, 1, 1, &v))
			return cli_errf(err, errlen, "%s: only one QP per test is supported, not '%s'",
				    optname, val);
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
	case O_ALL:
		o->all_tests = true;
		break;
	case O_TEST:
		o->mode = perf_mode_from_name(val);
		if (o->mode == PERF_MODE_NONE)
			return cli_errf(err, errlen,
				    "%s: unknown test '%s' (write_lat read_lat send_lat atomic_lat "
				    "write_bw read_bw send_bw)", optname, val);
		break;
	case O_TIMEOUT:
		if (cli_parse_u64(val, 1, 3600, &v))
			return cli_errf(err, errlen, "%s: timeout '%s' is not 1..3600 seconds", optname,
				    val);
		o->timeout_s = (unsigned int)v;
		break;
	case O_HELP:
		return 1;
	}
	return 0;
}

int perf_opts_parse(struct perf_opts *o, const char *prog, int argc, char **argv, char *err,
		    size_t errlen)
{
	int i, rc;

	memset(o, 0, sizeof(*o));
	o->mode = perf_mode_from_name(prog);
	o->tcp_port = 18515;
	o->ib_port = 1;
	o->rx_depth = 512;
	o->timeout_s = PERF_DEFAULT_TIMEOUT_S;
	err[0] = '\0';

	for (i = 1; i < argc; i++) {
		struct cli_arg arg;

		rc = cli_next(defs, sizeof(defs) / sizeof(defs[0]), argc, argv, &i, &arg, err, errlen);
		if (rc)
			return rc;
		if (!arg.opt) {
			if (o->server_host)
				return cli_errf(err, errlen, "unexpected argument '%s' (server host is '%s')",
						arg.val, o->server_host);
			o->server_host = arg.val;
			continue;
		}
		rc = apply(o, arg.opt, arg.name, arg.val, err, errlen);
		if (rc)
			return rc;
	}

	/* Cross-option rules. */
	if (o->all_tests && o->mode != PERF_MODE_NONE && perf_mode_from_name(prog) != o->mode)
		return cli_errf(err, errlen, "--all and --test %s are exclusive", perf_mode_name(o->mode));
	if (o->all_tests && o->server_host)
		return cli_errf(err, errlen, "--all runs in one process (--loop); it takes no server host");
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
	if (!o->loop && o->n_devargs > 1)
		return cli_errf(err, errlen, "--devargs twice only makes sense with --loop");
	if (!o->loop && o->n_devargs == 0)
		return cli_errf(err, errlen, "client/server mode needs --devargs "
				     "soft,port=<ethdev>,ip=<address> (or use --loop)");
	if (o->mode == PERF_ATOMIC_LAT && o->size_set && o->size != 8)
		return cli_errf(err, errlen, "-s: atomic operations are 8 bytes, not %u", o->size);
	if (o->size_set && o->all_sizes)
		return cli_errf(err, errlen, "-s and -a are exclusive");
	if (o->mode == PERF_WRITE_LAT && o->size_set && o->size == 0)
		return cli_errf(err, errlen, "-s: write_lat needs at least 1 byte (the peer polls the "
				     "last byte)");
	if (o->iters_set && o->iters < 5 && (o->all_tests || perf_mode_is_lat(o->mode)))
		return cli_errf(err, errlen, "-n: latency tests need at least 5 iterations "
				     "(the 2 largest samples are trimmed), not %" PRIu64, o->iters);
	return 0;
}
