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

#include "pp_session.h"

#define PROG "irdma-pingpong"

int main(int argc, char **argv)
{
	struct pp_opts o;
	struct pp_ctx c;
	char err[256], **eal_argv;
	int i, sep = -1, rc, status = EXIT_FAILURE;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	rc = pp_opts_parse(&o, argv[0], sep < 0 ? 1 : argc - sep, sep < 0 ? argv : argv + sep,
			   err, sizeof(err));
	if (sep < 0)
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
				rc = 1;
	if (rc == 1) {
		pp_opts_usage(argv[0], o.ud);
		return EXIT_SUCCESS;
	}
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_FAILURE;
	}
	eal_argv = calloc((size_t)argc + 1, sizeof(*eal_argv));
	if (!eal_argv)
		return EXIT_FAILURE;
	for (i = 0; i < (sep < 0 ? argc : sep); i++)
		eal_argv[i] = argv[i];
	/* The EAL arguments are the user's: pass --no-pci (or an allow-list) where the machine's own
	 * NIC must not be probed; the project's tests always do. */
	if (rte_eal_init(i, eal_argv) < 0) {
		fprintf(stderr, PROG ": EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		free(eal_argv);
		return EXIT_FAILURE;
	}
	if (pp_session_init(&c, &o) == 0 && pp_session_run(&c) == 0)
		status = EXIT_SUCCESS;
	pp_session_fini(&c);
	rte_eal_cleanup();
	free(eal_argv);
	return status;
}
