/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-pingpong's command line, with ibv_*_pingpong's options and defaults. */
#include "pp_opts.h"

#include "cli_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pp_opts_usage(const char *prog, bool ud)
{
	printf("Usage: %s [EAL options] -- [options] [server host]\n"
	       "Ping-pong over %s QPs on the irdma PMD, exchange- and wire-compatible with "
	       "ibv_%s_pingpong (see irdma-pingpong(1)).\n"
	       "Tool options go after \"--\"; before it, EAL's (-l, --no-huge, --vdev, ...).\n"
	       "PCI devices are probed only when named (-a <PCI address>); else EAL gets --no-pci.\n\n"
	       "  --devargs <string>     the device, e.g. soft,port=net_memif0,ip=198.18.0.2 (needed)\n"
	       "  --ud | --rc            transport: UD (ibv_ud_pingpong; messages up to the path MTU,\n"
	       "                         -s 2048 by default, so use -m 2048 or a smaller -s) or RC\n"
	       "                         (default from the program name, else RC)\n"
	       "  [server host]          client mode: the kernel address of the server's TCP exchange\n"
	       "                         (127.0.0.1 on one machine); none: server mode\n"
	       "  -p, --port <port>      TCP port of the exchange (18515)\n"
	       "  -s, --size <bytes>     message size (RC 4096, UD 2048); both sides must agree\n"
	       "  -m, --mtu <bytes>      path MTU 256..4096 (1024)\n"
	       "  -r, --rx-depth <n>     receives kept posted (500)\n"
	       "  -n, --iters <n>        exchanges (1000)\n"
	       "  -g, --gid-idx <n>      local GID index (default: the best RoCE v2 GID, the\n"
	       "                         IPv4-mapped one when the device has ip=)\n"
	       "  -e, --events           sleep on CQ events instead of busy polling\n"
	       "  -c, --chk              check the received payload (the peer must use -c too)\n"
	       "  -l, --sl <n>           service level (checked, no effect on RoCE without VLAN)\n"
	       "  -d, --ib-dev <name>    accepted and ignored;  -i, --ib-port <1>\n"
	       "  --timeout <s>          bound on every exchange step and on the run (30)\n"
	       "Not supported: -o -O -P (ODP), -t (timestamps), -j (device memory), -N (new send).\n",
	       prog, ud ? "UD" : "RC", ud ? "ud" : "rc");
}

/* Long-only options get ids above the character range. */
enum { O_DEVARGS = 256, O_UD, O_RC, O_TIMEOUT, O_UNSUP };

#define NO(s, l, a, why) { s, l, a, O_UNSUP, why }

static const struct cli_opt defs[] = {
	{ 'p', "port", true, 'p', NULL },      { 's', "size", true, 's', NULL },
	{ 'm', "mtu", true, 'm', NULL },       { 'r', "rx-depth", true, 'r', NULL },
	{ 'n', "iters", true, 'n', NULL },     { 'g', "gid-idx", true, 'g', NULL },
	{ 'e', "events", false, 'e', NULL },   { 'd', "ib-dev", true, 'd', NULL },
	{ 'i', "ib-port", true, 'i', NULL },   { 'l', "sl", true, 'l', NULL },
	{ 'c', "chk", false, 'c', NULL },
	{ 'h', "help", false, 'h', NULL },     { 0, "devargs", true, O_DEVARGS, NULL },
	{ 0, "ud", false, O_UD, NULL },        { 0, "rc", false, O_RC, NULL },
	{ 0, "timeout", true, O_TIMEOUT, NULL },
	NO('o', "odp", false, "there is no on-demand paging: memory is registered up front"),
	NO('O', "iodp", false, "there is no on-demand paging: memory is registered up front"),
	NO('P', "prefetch", false, "there is no on-demand paging to prefetch for"),
	NO('t', "ts", false, "completions carry no timestamps"),
	NO('j', "dm", false, "there is no device memory"),
	NO('N', "new_send", false, "there is only one post API (rte_pmd_irdma_post_send)"),
};

const struct cli_opt *pp_opts_table(size_t *n)
{
	*n = sizeof(defs) / sizeof(defs[0]);
	return defs;
}

static int apply(void *ctx, const struct cli_opt *d, const char *name, const char *val,
		 char *err, size_t errlen)
{
	struct pp_opts *o = ctx;
	uint64_t v = 0;
	int rc = 0;

	if (!d)
		return cli_opt_server_host(&o->server_host, val, err, errlen);
	switch (d->id) {
	case 'p':
		return cli_opt_tcp_port(name, val, &o->tcp_port, err, errlen);
	case 's':
		rc = cli_opt_u64(name, val, 1, 1u << 30, "size", &v, err, errlen);
		o->size = (uint32_t)v;
		o->size_set = true;
		break;
	case 'm':
		rc = cli_opt_mtu(name, val, &o->mtu, err, errlen);
		o->mtu_set = true;
		break;
	case 'r':
		rc = cli_opt_u64(name, val, 1, 32768, "rx depth", &v, err, errlen);
		o->rx_depth = (uint32_t)v;
		break;
	case 'n':
		rc = cli_opt_u64(name, val, 1, 1u << 31, "iterations", &v, err, errlen);
		o->iters = (uint32_t)v;
		break;
	case 'g':
		return cli_opt_gid_index(name, val, &o->gid_index, err, errlen);
	case 'e':
		o->use_events = true;
		break;
	case 'c':
		o->check = true;
		break;
	case 'd':
		break;
	case 'i':
		return cli_opt_ib_port(name, val, err, errlen);
	case 'l':
		return cli_opt_u64(name, val, 0, 15, "service level", &v, err, errlen);
	case 'h':
		return 1;
	case O_UD:
		o->ud = true;
		break;
	case O_RC:
		o->ud = false;
		break;
	case O_DEVARGS:
		if (!*val)
			return cli_errf(err, errlen, "--devargs: empty device string");
		o->devargs = val;
		break;
	case O_TIMEOUT:
		return cli_opt_timeout(name, val, &o->timeout_s, err, errlen);
	}
	/* an error stops the parse, and the caller drops what was set */
	return rc;
}

int pp_opts_parse(struct pp_opts *o, const char *prog, int argc, char **argv, char *err,
		  size_t errlen)
{
	const char *base = strrchr(prog, '/');
	int rc;

	base = base ? base + 1 : prog;
	memset(o, 0, sizeof(*o));
	o->ud = strstr(base, "ud_pingpong") || strstr(base, "ud-pingpong");
	o->tcp_port = 18515;
	o->mtu = 1024;
	o->rx_depth = 500;
	o->iters = 1000;
	o->gid_index = -1;
	o->timeout_s = 30;
	err[0] = '\0';

	rc = cli_parse(defs, sizeof(defs) / sizeof(defs[0]), argc, argv, apply, o, err, errlen);
	if (rc)
		return rc;
	if (!o->size_set)
		o->size = o->ud ? 2048 : 4096;
	if (!o->devargs)
		return cli_errf(err, errlen, "--devargs soft,port=<ethdev>,ip=<address> is needed "
				     "after \"--\" (the device to ping-pong on)");
	return 0;
}

int pp_opts_check_port(const struct pp_opts *o, char *err, size_t errlen)
{
	if (cli_devargs_is_loop(o->devargs))
		return cli_errf(err, errlen, "--devargs %s: port=loop joins devices inside one process "
				"and cannot reach a peer in another; use port=<ethdev> (net_memif, "
				"net_af_packet, ...)", o->devargs);
	return 0;
}
