/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-pingpong: ibv_rc_pingpong / ibv_ud_pingpong on the irdma PMD (see pp_session.c).
 *
 *   irdma-pingpong [EAL options] -- --devargs soft,port=...,ip=... [-s N -n N ...] [server]
 *
 * Options are parsed before EAL starts: a bad one costs nothing and is named in one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "cli_opts.h"
#include "pp_session.h"
#include "tool_eal.h"

#define PROG "irdma-pingpong"

int main(int argc, char **argv)
{
	const struct cli_opt *defs;
	struct pp_opts o;
	struct pp_ctx c;
	char err[256];
	size_t n_defs;
	int i, sep, rc, status = EXIT_FAILURE;

	sep = tool_eal_separator(argc, argv);
	if (sep < 0)
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
				pp_opts_usage(argv[0], strstr(argv[0], "ud_pingpong") != NULL);
				return EXIT_SUCCESS;
			}
	defs = pp_opts_table(&n_defs);
	/* --devargs (or any tool option) before "--" is named as such, not reported missing. */
	for (i = 1; i < (sep < 0 ? argc : sep); i++)
		if (cli_find_long(defs, n_defs, argv[i]) &&
		    strcmp(cli_find_long(defs, n_defs, argv[i])->longname, "help") != 0) {
			fprintf(stderr, PROG ": '%s' is an " PROG " option: tool options go "
				"after \"--\" (" PROG " [EAL options] -- [options])\n", argv[i]);
			return EXIT_FAILURE;
		}
	rc = pp_opts_parse(&o, argv[0], sep < 0 ? 1 : argc - sep, sep < 0 ? argv : argv + sep,
			   err, sizeof(err));
	if (rc == 1) {
		pp_opts_usage(argv[0], o.ud);
		return EXIT_SUCCESS;
	}
	if (rc == 0)
		rc = pp_opts_check_port(&o, err, sizeof(err));
	/* No "--" at all: what EAL leaves over is the real mistake, say that first. */
	if (rc < 0 && sep < 0 && argc > 1) {
		if (tool_eal_init(PROG, argc, argv, sep, defs, n_defs) < 0)
			return EXIT_FAILURE;
		rte_eal_cleanup();
	}
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_FAILURE;
	}
	/* The EAL arguments are the user's: pass --no-pci (or an allow-list) where the machine's own
	 * NIC must not be probed; the project's tests always do. */
	if (tool_eal_init(PROG, argc, argv, sep, defs, n_defs) < 0)
		return EXIT_FAILURE;
	if (pp_session_init(&c, &o) == 0 && pp_session_run(&c) == 0)
		status = EXIT_SUCCESS;
	pp_session_fini(&c);
	rte_eal_cleanup();
	return status;
}
