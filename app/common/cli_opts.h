/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command-line scanner the tools share: short (-n 5, -n5) and long (--iters 5,
 * --iters=5) options from a table, positional arguments, and one-line errors that name the
 * option and what is wrong with it. Plain C, no DPDK.
 */
#ifndef APP_CLI_OPTS_H
#define APP_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cli_opt {
	char shortname;       /* 0: long only */
	const char *longname;
	bool has_arg;
	int id;               /* the tool's own identifier */
};

/* One scanned argument: an option of the table (opt != NULL) or a positional one. */
struct cli_arg {
	const struct cli_opt *opt;
	const char *val;      /* the option's value (NULL when it takes none), or the positional */
	char name[40];        /* "-n" or "--iters", for messages */
};

/* Format err and return -EINVAL. */
int cli_errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Parse an unsigned number (any base strtoull takes) within [min, max]: 0, or -1. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/*
 * Scan argv[*i] (and its value, which may be argv[*i + 1]: *i then moves past it) against the
 * n_defs options of defs. Returns 0 with *out filled, or -EINVAL with err set (unknown option,
 * a value where none is taken, a missing value).
 */
int cli_next(const struct cli_opt *defs, size_t n_defs, int argc, char **argv, int *i,
	     struct cli_arg *out, char *err, size_t errlen);

#endif /* APP_CLI_OPTS_H */
