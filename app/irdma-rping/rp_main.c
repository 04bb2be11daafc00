/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-rping: rping (librdmacm's example) on the irdma PMD, over RDMA-CM.
 *
 *   irdma-rping [EAL options] -- --devargs soft,port=...,ip=... -s|-c [rping options]
 *
 * Options are parsed before EAL starts: a bad one costs nothing and is named in one line
 * (tool_start.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>

#include "rp_opts.h"
#include "rp_session.h"
#include "tool_start.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int parse(void *o, const char *prog, int argc, char **argv, char *err, size_t errlen)
{
	(void)prog;
	return rp_opts_parse(o, argc, argv, err, errlen);
}

static void usage(const char *prog, const void *o)
{
	(void)o;
	rp_opts_usage(prog);
}

int main(int argc, char **argv)
{
	struct tool_cli cli = { .prog = "irdma-rping", .parse = parse, .usage = usage };
	struct rp_session s;
	struct rp_opts o;
	int status;

	cli.defs = rp_opts_table(&cli.n_defs);
	status = tool_start(&cli, &o, argc, argv);
	if (status != TOOL_START_RUN)
		return status;
	status = EXIT_FAILURE;
	/* rping's lines arrive in order with its stderr ones even into a file */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (rp_session_init(&s, &o) == 0) {
		while (!stop && rp_session_step(&s) < RP_DONE)
			;
		if (s.state == RP_DONE || (stop && s.state != RP_FAILED))
			status = EXIT_SUCCESS;
		if (s.state == RP_FAILED)
			fprintf(stderr, "rping %s failed: %d\n", o.server ? "server" : "client",
				s.status);
	}
	rp_session_fini(&s);
	rte_eal_cleanup();
	return status;
}
