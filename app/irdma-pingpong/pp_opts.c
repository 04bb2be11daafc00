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
	       "ibv_%s_pingpong.\n\n"
	       "  --devargs <string>     the device, e.g. soft,port=net_memif0,ip=198.18.0.2 (needed)\n"
	       "  --ud | --rc            transport (default from the program name, else RC)\n"
	       "  -p, --port <port>      TCP port of the exchange (18515)\n"
	       "  -s, --size <bytes>     message size (RC 4096, UD 2048)\n"
	       "  -m, --mtu <bytes>      path MTU 256..4096 (1024)\n"
	       "  -r, --rx-depth <n>     receives kept posted (500)\n"
	       "  -n, --iters <n>        exchanges (1000)\n"
	       "  -g, --gid-idx <n>      local GID index (0)\n"
	       "  -e, --events           sleep on CQ events instead of busy polling\n"
	       "  -d, --ib-dev <name>    accepted and ignored;  -i, --ib-port <1>;  -l, --sl <n>\n"
	       "  --timeout <s>          bound on every exchange step and on the run (30)\n",
	       prog, ud ? "UD" : "RC", ud ? "ud" : "rc");
}

/* Long-only options get ids above the character range. */
enum { O_DEVARGS = 256, O_UD, O_RC, O_TIMEOUT };

static const struct cli_opt defs[] = {
	{ 'p', "port", true, 'p' },      { 's', "size", true, 's' },
	{ 'm', "mtu", true, 'm' },       { 'r', "rx-depth", true, 'r' },
	{ 'n', "iters", true, 'n' },     { 'g', "gid-idx", true, 'g' },
	{ 'e', "events", false, 'e' },   { 'd', "ib-dev", true, 'd' },
	{ 'i', "ib-port", true, 'i' },   { 'l', "sl", true, 'l' },
	{ 'h', "help", false, 'h' },     { 0, "devargs", true, O_DEVARGS },
	{ 0, "ud", false, O_UD },        { 0, "rc", false, O_RC },
	{ 0, "timeout", true, O_TIMEOUT },
};

int pp_opts_parse(struct pp_opts *o, const char *prog, int argc, char **argv, char *err,
		  size_t errlen)
{
	const char *base = strrchr(prog, '/');
	uint64_t v;
	int i;

	base = base ? base + 1 : prog;
	memset(o, 0, sizeof(*o));
	o->ud = strstr(base, "ud_pingpong") || strstr(base, "ud-pingpong");
	o->tcp_port = 18515;
	o->mtu = 1024;
	o->rx_depth = 500;
	o->iters = 1000;
	o->timeout_s = 30;
	err[0] = '\0';

	for (i = 1; i < argc; i++) {
		struct cli_arg arg;
		const char *name, *val;
		int rc;

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
		name = arg.name;
		val = arg.val;
		switch (arg.opt->id) {
		case 'p':
			if (cli_parse_u64(val, 1, 65535, &v))
				return cli_errf(err, errlen, "%s: TCP port '%s' is not 1..65535", name, val);
			o->tcp_port = (uint16_t)v;
			break;
		case 's':
			if (cli_parse_u64(val, 1, 1u << 30, &v))
				return cli_errf(err, errlen, "%s: size '%s' is not a number of bytes 1..2^30",
					    name, val);
			o->size = (uint32_t)v;
			o->size_set = true;
			break;
		case 'm':
			if (cli_parse_u64(val, 256, 4096, &v) || (v & (v - 1)))
				return cli_errf(err, errlen, "%s: MTU '%s' is not one of 256 512 1024 2048 4096",
					    name, val);
			o->mtu = (uint32_t)v;
			break;
		case 'r':
			if (cli_parse_u64(val, 1, 32768, &v))
				return cli_errf(err, errlen, "%s: rx depth '%s' is not 1..32768", name, val);
			o->rx_depth = (uint32_t)v;
			break;
		case 'n':
			if (cli_parse_u64(val, 1, 1u << 31, &v))
				return cli_errf(err, errlen, "%s: iterations '%s' is not 1..2^31", name, val);
			o->iters = (uint32_t)v;
			break;
		case 'g':
			if (cli_parse_u64(val, 0, 255, &v))
				return cli_errf(err, errlen, "%s: GID index '%s' is not 0..255", name, val);
			o->gid_index = (int)v;
			break;
		case 'e':
			o->use_events = true;
			break;
		case 'd':
			break;
		case 'i':
			if (cli_parse_u64(val, 1, 1, &v))
				return cli_errf(err, errlen, "%s: the device has one port (1), not '%s'",
					    name, val);
			break;
		case 'l':
			if (cli_parse_u64(val, 0, 15, &v))
				return cli_errf(err, errlen, "%s: service level '%s' is not 0..15", name, val);
			break;
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
			if (cli_parse_u64(val, 1, 3600, &v))
				return cli_errf(err, errlen, "%s: timeout '%s' is not 1..3600 seconds", name,
					    val);
			o->timeout_s = (unsigned int)v;
			break;
		}
	}
	if (!o->size_set)
		o->size = o->ud ? 2048 : 4096;
	if (!o->devargs)
		return cli_errf(err, errlen, "--devargs soft,port=<ethdev>,ip=<address> is needed "
				     "(the device to ping-pong on)");
	return 0;
}
