/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pp_opts.h - irdma-pingpong's command line (after EAL's "--"): ibv_rc_pingpong's and
 * ibv_ud_pingpong's options, plus --devargs, --ud/--rc and --timeout. Plain C, unit-tested.
 */
#ifndef IRDMA_PP_OPTS_H
#define IRDMA_PP_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_opts {
	bool ud;                   /**< --ud, or a program named *ud_pingpong */
	uint16_t tcp_port;         /**< -p (18515) */
	uint32_t size;             /**< -s (RC 4096, UD 2048) */
	bool size_set;
	uint32_t mtu;              /**< -m bytes (1024) */
	bool mtu_set;              /**< -m given: the device's MTU ceiling follows it */
	uint32_t rx_depth;         /**< -r (500) */
	uint32_t iters;            /**< -n (1000) */
	int gid_index;             /**< -g; -1: the best RoCE v2 GID */
	bool check;                /**< -c: check the received payload */
	bool use_events;           /**< -e */
	unsigned int timeout_s;    /**< --timeout: every exchange step and the run (30) */
	const char *server_host;   /**< positional: client mode */
	const char *devargs;       /**< --devargs */
};

/**
 * @return 0; 1 after --help; -EINVAL with a one-line reason in @p err.
 */
int pp_opts_parse(struct pp_opts *o, const char *prog, int argc, char **argv, char *err,
		  size_t errlen);
void pp_opts_usage(const char *prog, bool ud);

/** A process of its own cannot ping-pong over port=loop (it reaches this process only).
 *  @return 0 or -EINVAL with @p err set. */
int pp_opts_check_port(const struct pp_opts *o, char *err, size_t errlen);

/** The option table (for the EAL-side check of tool options given before "--"). */
struct cli_opt;
const struct cli_opt *pp_opts_table(size_t *n);

#endif
