/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-rping's command line (see rp_opts.h and irdma-rping(1)). */
#include "rp_opts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void rp_opts_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- --devargs <device> -s [-vVdP] [-S size] [-C count] "
	       "[-a addr] [-p port]\n"
	       "       %s [EAL options] -- --devargs <device> -c [-vVd] [-S size] [-C count] "
	       "[-I addr] -a addr [-p port]\n"
	       "rping over RDMA-CM on the irdma PMD (see irdma-rping(1)).\n"
	       "Tool options go after \"--\"; before it, EAL's (-l, --no-huge, --vdev, ...).\n"
	       "PCI devices are probed only when named (-a <PCI address>); else EAL gets --no-pci.\n\n"
	       "  --devargs <string>  the device, e.g. soft,port=net_af_packet0,ip=198.18.0.2 (needed)\n"
	       "  -c                  client side\n"
	       "  -s                  server side\n"
	       "  -a addr             client: the server's address; server: the address to bind\n"
	       "                      (one of the device's; default any)\n"
	       "  -I addr             client: source address (must be the device's)\n"
	       "  -p port             port (7174)\n"
	       "  -S size             ping data size, %u..%u (64)\n"
	       "  -C count            ping count (default: until interrupted)\n"
	       "  -v                  display ping data to stdout\n"
	       "  -V                  validate ping data\n"
	       "  -d                  debug lines\n"
	       "  -P                  persistent server: one connection after another\n"
	       "  -q                  accepted (the QP is always the tool's own)\n"
	       "  -t tos              type of service (IP traffic class of the connection)\n"
	       "  --timeout <s>       a step with no progress for this long fails (30)\n",
	       prog, prog, RP_MIN_SIZE, RP_MAX_SIZE);
}

enum { O_DEVARGS = 256, O_TIMEOUT };

static const struct cli_opt defs[] = {
	{ 's', NULL, false, 's', NULL }, { 'c', NULL, false, 'c', NULL },
	{ 'a', NULL, true, 'a', NULL },  { 'I', NULL, true, 'I', NULL },
	{ 'p', NULL, true, 'p', NULL },  { 'C', NULL, true, 'C', NULL },
	{ 'S', NULL, true, 'S', NULL },  { 'v', NULL, false, 'v', NULL },
	{ 'V', NULL, false, 'V', NULL }, { 'd', NULL, false, 'd', NULL },
	{ 'P', NULL, false, 'P', NULL }, { 'q', NULL, false, 'q', NULL },
	{ 't', NULL, true, 't', NULL },  { 'h', "help", false, 'h', NULL },
	{ 0, "devargs", true, O_DEVARGS, NULL }, { 0, "timeout", true, O_TIMEOUT, NULL },
};

const struct cli_opt *rp_opts_table(size_t *n)
{
	*n = sizeof(defs) / sizeof(defs[0]);
	return defs;
}

static int apply(void *ctx, const struct cli_opt *d, const char *name, const char *val,
		 char *err, size_t errlen)
{
	struct rp_opts *o = ctx;
	uint64_t v;

	if (!d)
		return cli_errf(err, errlen, "unexpected argument '%s' (rping takes the address "
				"with -a)", val);
	switch (d->id) {
	case 's':
	case 'c':
		o->server = d->id == 's';
		break;
	case 'a':
		o->addr = val;
		break;
	case 'I':
		o->src_addr = val;
		break;
	case 'p':
		if (cli_opt_u64(name, val, 1, 65535, "port", &v, err, errlen))
			return -EINVAL;
		o->port = (uint16_t)v;
		break;
	case 'C':
		if (cli_parse_u64(val, 0, 0x7fffffff, &v))
			return cli_errf(err, errlen, "Invalid count %s", val);
		o->count = (uint32_t)v;
		break;
	case 'S':
		if (cli_parse_u64(val, RP_MIN_SIZE, RP_MAX_SIZE, &v))
			return cli_errf(err, errlen, "Invalid size %s (valid range is %u to %u)", val,
					RP_MIN_SIZE, RP_MAX_SIZE);
		o->size = (uint32_t)v;
		break;
	case 'v':
		o->verbose++;
		break;
	case 'V':
		o->validate++;
		break;
	case 'd':
		o->debug++;
		break;
	case 'P':
		o->persistent = true;
		break;
	case 'q':
		break;
	case 't':
		if (cli_opt_u64(name, val, 0, 255, "type of service", &v, err, errlen))
			return -EINVAL;
		o->tos = (uint8_t)v;
		break;
	case 'h':
		return 1;
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
	return 0;
}

int rp_opts_parse(struct rp_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->server = -1;
	o->port = 7174;
	o->size = 64;
	o->timeout_s = 30;
	err[0] = '\0';
	rc = cli_parse(defs, sizeof(defs) / sizeof(defs[0]), argc, argv, apply, o, err, errlen);
	if (rc)
		return rc;
	if (o->server < 0)
		return cli_errf(err, errlen, "-s (server) or -c (client) is needed");
	if (!o->server && !o->addr)
		return cli_errf(err, errlen, "-c: the server's address is needed (-a addr)");
	if (o->persistent && !o->server)
		return cli_errf(err, errlen, "-P is a server option (-s)");
	if (!o->devargs)
		return cli_errf(err, errlen, "--devargs soft,port=<ethdev>,ip=<address> is needed "
				"after \"--\" (the device to ping on)");
	return 0;
}
