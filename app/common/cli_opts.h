/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command-line parser the tools share, on getopt_long as perftest and rdma-core use it:
 * grouped short flags (-aF), -n5 / -n 5, --iters 5 / --iters=5, unambiguous prefixes of long
 * names (--iter), positional arguments anywhere. Options come from one table per tool; an
 * option the tool knows but does not implement carries the reason, so it fails with a line
 * that says why instead of being ignored. Every error is one line naming the option.
 * Plain C, no DPDK.
 */
#ifndef APP_CLI_OPTS_H
#define APP_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cli_opt {
	char shortname;          /* 0: long only */
	const char *longname;    /* NULL: short only */
	bool has_arg;
	int id;                  /* the tool's own identifier */
	const char *unsupported; /* non-NULL: refused with this reason */
};

/*
 * Called once per option (opt set, val its value or NULL) and once per positional argument
 * (opt NULL, val the argument), in command-line order for options. @p name is "-n" or
 * "--iters" for messages. Return 0 to go on, anything else to stop (returned as is).
 */
typedef int (*cli_apply_fn)(void *ctx, const struct cli_opt *opt, const char *name,
			    const char *val, char *err, size_t errlen);

/* Format err and return -EINVAL. */
int cli_errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Parse an unsigned number (any base strtoull takes) within [min, max]: 0, or -1. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/*
 * Parse argv[1..argc-1] (argv[0] is the program name; getopt may reorder the rest) against
 * the n_defs options of defs. @return 0, what @p apply returned, or -EINVAL with err set
 * (unknown or ambiguous option, a value where none is taken, a missing value, an option
 * that is not supported). Leaves getopt ready for a fresh scan (EAL's).
 */
int cli_parse(const struct cli_opt *defs, size_t n_defs, int argc, char **argv,
	      cli_apply_fn apply, void *ctx, char *err, size_t errlen);

/*
 * A number option in [min, max], in an apply callback: 0 with *v set, or -EINVAL with
 * "<name>: <what> '<val>' is not <min>..<max>" in err.
 */
int cli_opt_u64(const char *name, const char *val, uint64_t min, uint64_t max, const char *what,
		uint64_t *v, char *err, size_t errlen);

/* The options perftest and rdma-core's pingpongs share, parsed alike by both tools. Each
 * returns 0 or -EINVAL with a one-line error naming @p name. */
int cli_opt_tcp_port(const char *name, const char *val, uint16_t *port, char *err,
		     size_t errlen);                    /* -p: 1..65535 */
int cli_opt_mtu(const char *name, const char *val, uint32_t *mtu, char *err,
		size_t errlen);                         /* -m: 256, 512 .. 4096 */
int cli_opt_gid_index(const char *name, const char *val, int *index, char *err,
		      size_t errlen);                   /* -x / -g: 0..255 */
int cli_opt_ib_port(const char *name, const char *val, char *err,
		    size_t errlen);                     /* -i: the device has port 1 only */
int cli_opt_timeout(const char *name, const char *val, unsigned int *s, char *err,
		    size_t errlen);                     /* --timeout: 1..3600 seconds */
/* The positional server host: the first is taken, a second is an error naming both. */
int cli_opt_server_host(const char **host, const char *val, char *err, size_t errlen);

/* Whether the devargs string @p d names the in-process loop port (port=loop, or no port:
 * the device's default). */
bool cli_devargs_is_loop(const char *d);

/* The option of defs whose long name is exactly @p arg's ("--name" or "--name=v"), or NULL. */
const struct cli_opt *cli_find_long(const struct cli_opt *defs, size_t n_defs, const char *arg);

#endif /* APP_CLI_OPTS_H */
