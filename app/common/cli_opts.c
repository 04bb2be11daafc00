/* SPDX-License-Identifier: BSD-3-Clause */
/* The command-line parser of irdma-perf and irdma-pingpong (see cli_opts.h). */
#include "cli_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI_MAX_OPTS 128
#define LONG_BASE 256 /* getopt_long's value for defs[k] is LONG_BASE + k */

int cli_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

int cli_opt_u64(const char *name, const char *val, uint64_t min, uint64_t max, const char *what,
		uint64_t *v, char *err, size_t errlen)
{
	if (cli_parse_u64(val, min, max, v))
		return cli_errf(err, errlen, "%s: %s '%s' is not %llu..%llu", name, what, val,
				(unsigned long long)min, (unsigned long long)max);
	return 0;
}

int cli_opt_tcp_port(const char *name, const char *val, uint16_t *port, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_opt_u64(name, val, 1, 65535, "TCP port", &v, err, errlen);

	if (rc == 0)
		*port = (uint16_t)v;
	return rc;
}

int cli_opt_mtu(const char *name, const char *val, uint32_t *mtu, char *err, size_t errlen)
{
	uint64_t v;

	if (cli_parse_u64(val, 256, 4096, &v) || (v & (v - 1)))
		return cli_errf(err, errlen, "%s: MTU '%s' is not one of 256 512 1024 2048 4096",
				name, val);
	*mtu = (uint32_t)v;
	return 0;
}

int cli_opt_gid_index(const char *name, const char *val, int *index, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_opt_u64(name, val, 0, 255, "GID index", &v, err, errlen);

	if (rc == 0)
		*index = (int)v;
	return rc;
}

int cli_opt_ib_port(const char *name, const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (cli_parse_u64(val, 1, 1, &v))
		return cli_errf(err, errlen, "%s: the device has one port (1), not '%s'", name, val);
	return 0;
}

int cli_opt_timeout(const char *name, const char *val, unsigned int *s, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_opt_u64(name, val, 1, 3600, "timeout", &v, err, errlen);

	if (rc == 0)
		*s = (unsigned int)v;
	return rc;
}

int cli_opt_server_host(const char **host, const char *val, char *err, size_t errlen)
{
	if (*host)
		return cli_errf(err, errlen, "unexpected argument '%s' (server host is '%s')", val,
				*host);
	*host = val;
	return 0;
}

bool cli_devargs_is_loop(const char *d)
{
	const char *p = strstr(d, "port=");

	/* the key, not a value that ends in "port=" */
	while (p && p != d && p[-1] != ',')
		p = strstr(p + 1, "port=");
	if (!p)
		return true;
	p += 5;
	return strncmp(p, "loop", 4) == 0 && (p[4] == '\0' || p[4] == ',');
}

const struct cli_opt *cli_find_long(const struct cli_opt *defs, size_t n_defs, const char *arg)
{
	size_t k, len;

	if (strncmp(arg, "--", 2) != 0 || !arg[2])
		return NULL;
	arg += 2;
	len = strcspn(arg, "=");
	for (k = 0; k < n_defs; k++)
		if (defs[k].longname && strlen(defs[k].longname) == len &&
		    strncmp(defs[k].longname, arg, len) == 0)
			return &defs[k];
	return NULL;
}

static void opt_name(const struct cli_opt *d, char *buf, size_t len)
{
	if (d->longname)
		snprintf(buf, len, "--%s", d->longname);
	else
		snprintf(buf, len, "-%c", d->shortname);
}

/* getopt_long says '?' for an unknown and for an ambiguous long option alike: tell them apart. */
static int long_error(const struct cli_opt *defs, size_t n_defs, const char *arg, char *err,
		      size_t errlen)
{
	char cands[160] = "";
	size_t k, len = strcspn(arg + 2, "="), n = 0, used = 0;

	for (k = 0; k < n_defs; k++)
		if (defs[k].longname && strncmp(defs[k].longname, arg + 2, len) == 0) {
			used += (size_t)snprintf(cands + used, used < sizeof(cands) ?
						 sizeof(cands) - used : 0, "%s--%s",
						 n ? ", " : "", defs[k].longname);
			n++;
		}
	if (n > 1)
		return cli_errf(err, errlen, "ambiguous option '%.*s' (%s)", (int)len + 2, arg, cands);
	return cli_errf(err, errlen, "unknown option '%.*s' (see --help)", (int)len + 2, arg);
}

int cli_parse(const struct cli_opt *defs, size_t n_defs, int argc, char **argv,
	      cli_apply_fn apply, void *ctx, char *err, size_t errlen)
{
	struct option lopts[CLI_MAX_OPTS + 1];
	char sopts[2 * CLI_MAX_OPTS + 2], name[48];
	const struct cli_opt *d;
	size_t k, ns = 0, nl = 0;
	int c, rc = 0, i;

	if (n_defs > CLI_MAX_OPTS)
		return cli_errf(err, errlen, "internal: too many options");
	sopts[ns++] = ':'; /* ':' for a missing value, '?' for the rest */
	for (k = 0; k < n_defs; k++) {
		if (defs[k].shortname) {
			sopts[ns++] = defs[k].shortname;
			if (defs[k].has_arg)
				sopts[ns++] = ':';
		}
		if (defs[k].longname) {
			lopts[nl].name = defs[k].longname;
			lopts[nl].has_arg = defs[k].has_arg ? required_argument : no_argument;
			lopts[nl].flag = NULL;
			lopts[nl].val = LONG_BASE + (int)k;
			nl++;
		}
	}
	sopts[ns] = '\0';
	memset(&lopts[nl], 0, sizeof(lopts[nl]));

	opterr = 0;
	optind = 0; /* glibc: a full re-initialisation */
	while (rc == 0 && (c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		const char *arg = argv[optind - 1];

		d = NULL;
		if (c == '?' || c == ':') {
			if (optopt >= LONG_BASE) {
				opt_name(&defs[optopt - LONG_BASE], name, sizeof(name));
				rc = c == ':' ? cli_errf(err, errlen, "%s needs a value", name) :
						cli_errf(err, errlen, "%s takes no value", name);
			} else if (optopt) {
				rc = c == ':' ? cli_errf(err, errlen, "-%c needs a value", optopt) :
						cli_errf(err, errlen, "unknown option '-%c' (see --help)",
							 optopt);
			} else {
				rc = long_error(defs, n_defs, arg, err, errlen);
			}
			break;
		}
		if (c >= LONG_BASE) {
			d = &defs[c - LONG_BASE];
			opt_name(d, name, sizeof(name));
		} else {
			for (k = 0; k < n_defs && !d; k++)
				if (defs[k].shortname == c)
					d = &defs[k];
			snprintf(name, sizeof(name), "-%c", c);
		}
		if (!d) {
			rc = cli_errf(err, errlen, "unknown option '-%c' (see --help)", c);
			break;
		}
		if (d->unsupported) {
			if (d->shortname && d->longname)
				rc = cli_errf(err, errlen, "-%c/--%s is not supported: %s", d->shortname,
					      d->longname, d->unsupported);
			else
				rc = cli_errf(err, errlen, "%s is not supported: %s", name,
					      d->unsupported);
			break;
		}
		rc = apply(ctx, d, name, d->has_arg ? optarg : NULL, err, errlen);
	}
	for (i = optind; rc == 0 && i < argc; i++)
		rc = apply(ctx, NULL, NULL, argv[i], err, errlen);
	optind = 0; /* EAL scans its own arguments afterwards */
	return rc;
}
