/* SPDX-License-Identifier: BSD-3-Clause */
/* The command-line scanner of irdma-perf and irdma-pingpong (see cli_opts.h). */
#include "cli_opts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const struct cli_opt *find_short(const struct cli_opt *defs, size_t n, char c)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (defs[k].shortname != 0 && defs[k].shortname == c)
			return &defs[k];
	return NULL;
}

static const struct cli_opt *find_long(const struct cli_opt *defs, size_t n, const char *name,
				       size_t len)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (strlen(defs[k].longname) == len && strncmp(defs[k].longname, name, len) == 0)
			return &defs[k];
	return NULL;
}

int cli_next(const struct cli_opt *defs, size_t n_defs, int argc, char **argv, int *i,
	     struct cli_arg *out, char *err, size_t errlen)
{
	const char *a = argv[*i];

	out->opt = NULL;
	out->val = NULL;
	out->name[0] = '\0';
	if (a[0] != '-' || a[1] == '\0') {
		out->val = a;
		return 0;
	}
	if (a[1] == '-') {
		const char *eq = strchr(a + 2, '=');
		size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

		out->opt = find_long(defs, n_defs, a + 2, len);
		snprintf(out->name, sizeof(out->name), "--%.*s", (int)len, a + 2);
		if (!out->opt)
			return cli_errf(err, errlen, "unknown option '%s' (see --help)", out->name);
		if (eq && !out->opt->has_arg)
			return cli_errf(err, errlen, "%s takes no value", out->name);
		out->val = eq ? eq + 1 : NULL;
	} else {
		out->opt = find_short(defs, n_defs, a[1]);
		snprintf(out->name, sizeof(out->name), "-%c", a[1]);
		if (!out->opt)
			return cli_errf(err, errlen, "unknown option '%s' (see --help)", out->name);
		if (a[2] && !out->opt->has_arg)
			return cli_errf(err, errlen, "%s takes no value (got '%s')", out->name, a);
		out->val = a[2] ? a + 2 : NULL;
	}
	if (out->opt->has_arg && !out->val) {
		if (*i + 1 >= argc)
			return cli_errf(err, errlen, "%s needs a value", out->name);
		out->val = argv[++*i];
	}
	return 0;
}
