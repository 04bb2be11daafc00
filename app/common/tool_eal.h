/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool_eal.h - how both tools start EAL: "prog [EAL options] -- [tool options]".
 *   - A tool option given before "--" is refused by name before EAL sees it (EAL would
 *     take -n/-s/-m as its own or abbreviate --all to --allow).
 *   - Whatever EAL leaves unconsumed before "--" (rte_eal_init's return value) is refused
 *     by name: "tool options go after --".
 *   - An EAL failure says rte_errno's reason and, for hugepages, what to do.
 *   - Two warnings: another irdma process with the same --file-prefix and --no-shconf,
 *     and another irdma process busy-polling one of our lcores' CPUs (both read /proc).
 */
#ifndef IRDMA_APP_TOOL_EAL_H
#define IRDMA_APP_TOOL_EAL_H

#include <stddef.h>

#include "cli_opts.h"

/** Index of the first "--" in argv, or -1. */
int tool_eal_separator(int argc, char **argv);

/**
 * Check the EAL part of the command line, start EAL with it and check what it left over.
 * @p sep is tool_eal_separator()'s answer, @p defs the tool's option table.
 * @return 0 with EAL running, or -1 after one line on stderr (EAL not running).
 */
int tool_eal_init(const char *tool, int argc, char **argv, int sep, const struct cli_opt *defs,
		  size_t n_defs);

#endif
