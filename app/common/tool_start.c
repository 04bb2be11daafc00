/* SPDX-License-Identifier: BSD-3-Clause */
/* The start of a tool's main() up to EAL running (see tool_start.h). */
#include "tool_start.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "tool_eal.h"

int tool_start(const struct tool_cli *t, void *opts, int argc, char **argv)
{
	const struct cli_opt *d;
	char err[256];
	int i, sep, rc;

	sep = tool_eal_separator(argc, argv);
	if (sep < 0)
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
				t->usage(argv[0], NULL);
				return EXIT_SUCCESS;
			}
	/* --devargs (or any tool option) before "--" is named as such, not reported missing. */
	for (i = 1; i < (sep < 0 ? argc : sep); i++) {
		d = cli_find_long(t->defs, t->n_defs, argv[i]);
		if (d && strcmp(d->longname, "help") != 0) {
			fprintf(stderr, "%s: '%s' is an %s option: tool options go after \"--\" "
				"(%s [EAL options] -- [options])\n", t->prog, argv[i], t->prog,
				t->prog);
			return EXIT_FAILURE;
		}
	}
	/* argv[sep] stands in for the program name of the tool's own vector. */
	rc = t->parse(opts, argv[0], sep < 0 ? 1 : argc - sep, sep < 0 ? argv : argv + sep, err,
		      sizeof(err));
	if (rc == 1) {
		t->usage(argv[0], opts);
		return EXIT_SUCCESS;
	}
	/* No "--" at all: what EAL leaves over is the real mistake, say that first. */
	if (rc < 0 && sep < 0 && argc > 1) {
		if (tool_eal_init(t->prog, argc, argv, sep, t->defs, t->n_defs) < 0)
			return EXIT_FAILURE;
		rte_eal_cleanup();
	}
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", t->prog, err);
		return EXIT_FAILURE;
	}
	/* The EAL arguments are the user's: pass --no-pci (or an allow-list) where the machine's
	 * own NIC must not be probed; the project's tests always do. */
	if (tool_eal_init(t->prog, argc, argv, sep, t->defs, t->n_defs) < 0)
		return EXIT_FAILURE;
	return TOOL_START_RUN;
}
