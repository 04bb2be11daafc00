/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-rping's command line: rping's options and defaults, plus the device (--devargs). */
#ifndef IRDMA_RPING_OPTS_H
#define IRDMA_RPING_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_opts.h"

/* rping's limits: the buffer holds "rdma-ping-<n>: " and a NUL; at most 64 KiB - 1. */
#define RP_MIN_SIZE 23u
#define RP_MAX_SIZE 65535u

struct rp_opts {
	int server;            /* 1 -s, 0 -c, -1 neither */
	const char *addr;      /* -a: server: bind address (NULL: any); client: the server */
	const char *src_addr;  /* -I: the client's source address (must be the device's) */
	uint16_t port;         /* -p (7174) */
	uint32_t count;        /* -C (0: until interrupted) */
	uint32_t size;         /* -S (64) */
	unsigned int verbose;  /* -v */
	unsigned int validate; /* -V */
	unsigned int debug;    /* -d */
	bool persistent;       /* -P: serve one connection after another */
	uint8_t tos;           /* -t */
	const char *devargs;   /* --devargs */
	unsigned int timeout_s; /* --timeout: a step without progress for this long fails */
	uint8_t cm_plt;        /* CM timers (tool_cm_init()); 0: Linux's. Tests only. */
};

const struct cli_opt *rp_opts_table(size_t *n);
void rp_opts_usage(const char *prog);

/* 0, 1 (-h: print the usage) or -EINVAL with err set. */
int rp_opts_parse(struct rp_opts *o, int argc, char **argv, char *err, size_t errlen);

#endif
