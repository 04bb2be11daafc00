/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Runs one of the tools as a child process with the project's EAL rules (--no-pci,
 * --no-huge -m 512 --no-shconf, a unique --file-prefix removed afterwards, and a
 * net_null0 port for client/server runs that need no real peer), captures its
 * stdout and stderr, and kills it if it outlives its time limit.
 */
#ifndef IRDMA_TEST_RUN_TOOL_H
#define IRDMA_TEST_RUN_TOOL_H

#include <stdbool.h>
#include <stdint.h>

struct tool_result {
	int status;            /* exit status, or -1 when killed at the time limit */
	bool timed_out;
	int64_t elapsed_ms;
	char out[65536];
	char err[8192];
};

/** The pid in the --file-prefix (0: the caller's): a forked child sets its parent's to share
 *  a prefix with it on purpose. */
extern int run_tool_pid;

/**
 * Run @p exe with EAL arguments (@p lcores: "0-1" for -l, "0@0,1@0" for --lcores,
 * "service:" for lcore 0 plus service lcore 1) for test @p name, then "--" and the
 * NULL-terminated @p args. @p lcores NULL: no EAL arguments at all (option errors).
 * @return 0 when the child ran (see r->status), -1 when it could not be started.
 */
int run_tool(const char *exe, const char *name, const char *lcores, const char *const *args,
	     int limit_ms, struct tool_result *r);

/** run_tool() without the "--": @p args follow the EAL arguments directly (the mistake
 *  the tools must name). */
int run_tool_nosep(const char *exe, const char *name, const char *lcores,
		   const char *const *args, int limit_ms, struct tool_result *r);

#endif
