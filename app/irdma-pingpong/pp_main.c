/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-pingpong: ibv_rc_pingpong / ibv_ud_pingpong on the irdma PMD (see pp_session.c).
 *
 *   irdma-pingpong [EAL options] -- --devargs soft,port=...,ip=... [-s N -n N ...] [server]
 *
 * Options are parsed before EAL starts: a bad one costs nothing and is named in one line
 * (tool_start.h).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "pp_session.h"
#include "tool_start.h"

/* The parse, then the port check (a loop port cannot reach a peer in another process). */
static int parse(void *o, const char *prog, int argc, char **argv, char *err, size_t errlen)
{
	int rc = pp_opts_parse(o, prog, argc, argv, err, errlen);

	return rc == 0 ? pp_opts_check_port(o, err, errlen) : rc;
}

/* UD or RC: as parsed, else from the program name (ibv_ud_pingpong's usage). */
static void usage(const char *prog, const void *o)
{
	const struct pp_opts *p = o;

	pp_opts_usage(prog, p ? p->ud : strstr(prog, "ud_pingpong") != NULL);
}

int main(int argc, char **argv)
{
	struct tool_cli cli = { .prog = "irdma-pingpong", .parse = parse, .usage = usage };
	struct pp_opts o;
	struct pp_ctx c;
	int status;

	cli.defs = pp_opts_table(&cli.n_defs);
	status = tool_start(&cli, &o, argc, argv);
	if (status != TOOL_START_RUN)
		return status;
	status = EXIT_FAILURE;
	if (pp_session_init(&c, &o) == 0 && pp_session_run(&c) == 0)
		status = EXIT_SUCCESS;
	pp_session_fini(&c);
	rte_eal_cleanup();
	return status;
}
