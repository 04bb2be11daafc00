/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-rping: rping (librdmacm's example) on the irdma PMD, over RDMA-CM.
 *
 *   irdma-rping [EAL options] -- --devargs soft,port=...,ip=... -s|-c [rping options]
 *
 * Options are parsed before EAL starts: a bad one costs nothing and is named in one line.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "rp_opts.h"
#include "rp_session.h"
#include "tool_eal.h"

#define PROG "irdma-rping"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	const struct cli_opt *defs;
	struct rp_session s;
	struct rp_opts o;
	char err[256];
	size_t n_defs;
	int i, sep, rc, status = EXIT_FAILURE;

	sep = tool_eal_separator(argc, argv);
	if (sep < 0)
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
				rp_opts_usage(argv[0]);
				return EXIT_SUCCESS;
			}
	defs = rp_opts_table(&n_defs);
	for (i = 1; i < (sep < 0 ? argc : sep); i++)
		if (!strncmp(argv[i], "--devargs", 9) || !strncmp(argv[i], "--timeout", 9)) {
			fprintf(stderr, PROG ": '%s' is an " PROG " option: tool options go "
				"after \"--\" (" PROG " [EAL options] -- [options])\n", argv[i]);
			return EXIT_FAILURE;
		}
	rc = rp_opts_parse(&o, sep < 0 ? 1 : argc - sep, sep < 0 ? argv : argv + sep, err,
			   sizeof(err));
	if (rc == 1) {
		rp_opts_usage(argv[0]);
		return EXIT_SUCCESS;
	}
	if (rc < 0 && sep < 0 && argc > 1) {
		if (tool_eal_init(PROG, argc, argv, sep, defs, n_defs) < 0)
			return EXIT_FAILURE;
		rte_eal_cleanup();
	}
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_FAILURE;
	}
	if (tool_eal_init(PROG, argc, argv, sep, defs, n_defs) < 0)
		return EXIT_FAILURE;
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
