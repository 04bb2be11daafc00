/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool_start.h - the start of a tool's main(), "prog [EAL options] -- [tool options]", up to
 * EAL running, in the order irdma-pingpong and irdma-rping answer in:
 *   1. -h/--help anywhere when there is no "--": the usage, exit 0;
 *   2. a tool option before "--": refused by name (EAL would take it for one of its own);
 *   3. the tool's options (after "--"; all of argv when there is none) are parsed before
 *      EAL starts, so a bad one costs nothing: --help prints the usage, exit 0; an error is
 *      one line "prog: <what>", exit 1, except that with no "--" at all what EAL leaves over
 *      is the real mistake and is said first;
 *   4. EAL starts (tool_eal_init).
 * Each tool keeps its own option table, parser and usage text.
 */
#ifndef IRDMA_APP_TOOL_START_H
#define IRDMA_APP_TOOL_START_H

#include <stddef.h>

#include "cli_opts.h"

struct tool_cli {
	const char *prog;            /* "irdma-rping": every message starts with it */
	const struct cli_opt *defs;  /* the tool's option table */
	size_t n_defs;
	/* The tool's parser on its own vector (argv[0] stands for the program name; @p prog is
	 * the real argv[0]): 0, 1 for --help, or a negative errno with one line in err. */
	int (*parse)(void *opts, const char *prog, int argc, char **argv, char *err,
		     size_t errlen);
	/* The usage on stdout; @p opts is NULL for a --help seen before anything was parsed. */
	void (*usage)(const char *prog, const void *opts);
};

/* What tool_start returns when EAL is running and the tool goes on. */
#define TOOL_START_RUN (-1)

/*
 * Steps 1 to 4 above with the tool's @p opts: TOOL_START_RUN with the options parsed and
 * EAL running, or the exit status (EXIT_SUCCESS after the usage, EXIT_FAILURE after one
 * line on stderr; EAL not running).
 */
int tool_start(const struct tool_cli *t, void *opts, int argc, char **argv);

#endif
