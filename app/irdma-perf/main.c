/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf: perftest-compatible RDMA benchmarks on the irdma PMD.
 *
 *   irdma-perf [EAL options] -- --test write_lat [-s 64 -n 1000 ...] [server]
 *   irdma-perf [EAL options] -- --loop --test read_bw
 *   irdma-perf [EAL options] -- --demo           (every latency test and write_bw, --loop)
 *
 * The tool's options are parsed before EAL starts, so a bad option costs nothing and says
 * what is wrong in one line; tool_eal.c refuses what EAL leaves over before "--".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "cli_opts.h"
#include "perf_opts.h"
#include "perf_run.h"
#include "tool_eal.h"

#define LOOP_DEVARGS "soft,port=loop,gen=3,engine=inline"

static int make_loop_devargs(const struct perf_opts *o, unsigned int i, char *buf, size_t len)
{
	static const char *const ip[2] = { "198.18.0.1", "198.18.0.2" };
	const char *base = o->n_devargs ? o->devargs[0] : LOOP_DEVARGS;

	if (o->n_devargs == 2) {
		snprintf(buf, len, "%s", o->devargs[i]);
		return 0;
	}
	if (strstr(base, "name=") || strstr(base, "ip=")) {
		fprintf(stderr, "irdma-perf: --loop with one --devargs sets name= and ip= of each "
			"side itself; give --devargs twice to choose them\n");
		return -EINVAL;
	}
	snprintf(buf, len, "%s,name=perf_%s,ip=%s", base, i ? "server" : "client", ip[i]);
	/* -m: the loop has no frame limit, so the devices' MTU ceiling follows what -m asks. */
	if (o->mtu && !strstr(base, "mtu="))
		snprintf(buf + strlen(buf), len - strlen(buf), ",mtu=%u", o->mtu);
	return 0;
}

int main(int argc, char **argv)
{
	const char *prog = argv[0];
	struct rte_pmd_irdma_dev *dev[2] = { NULL, NULL };
	const struct cli_opt *defs;
	struct perf_opts o;
	char err[256], devargs[512];
	size_t n_defs;
	int i, sep, rc, ndev, status = EXIT_FAILURE;

	sep = tool_eal_separator(argc, argv);
	if (sep < 0) {
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
				perf_opts_usage(prog);
				return EXIT_SUCCESS;
			}
	}
	/* argv[sep] stands in for the program name of the tool's own argument vector. */
	rc = perf_opts_parse(&o, prog, sep < 0 ? 1 : argc - sep, sep < 0 ? argv : argv + sep,
			     err, sizeof(err));
	if (rc == 1) {
		perf_opts_usage(prog);
		return EXIT_SUCCESS;
	}
	if (rc == 2) {
		printf("Version: %s (irdma-perf)\n", PERF_VERSION);
		return EXIT_SUCCESS;
	}
	if (rc == 0)
		rc = perf_opts_check_port(&o, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "irdma-perf: %s\n", err);
		return EXIT_FAILURE;
	}

	/* The EAL arguments are the user's: pass --no-pci (or an allow-list) where the machine's own
	 * NIC must not be probed; the project's tests always do. */
	defs = perf_opts_table(&n_defs);
	if (tool_eal_init("irdma-perf", argc, argv, sep, defs, n_defs) < 0)
		return EXIT_FAILURE;

	ndev = o.loop ? 2 : 1;
	for (i = 0; i < ndev; i++) {
		if (o.loop) {
			if (make_loop_devargs(&o, (unsigned int)i, devargs, sizeof(devargs)) < 0)
				goto out;
		} else if (o.mtu && !strstr(o.devargs[0], "mtu=")) {
			/* -m: the device's MTU ceiling follows it (the port refuses what it
			 * cannot carry, in one line) */
			snprintf(devargs, sizeof(devargs), "%s,mtu=%u", o.devargs[0], o.mtu);
		} else {
			snprintf(devargs, sizeof(devargs), "%s", o.devargs[0]);
		}
		dev[i] = rte_pmd_irdma_dev_create(devargs);
		if (!dev[i]) {
			fprintf(stderr, "irdma-perf: cannot create the device '%s': %s\n", devargs,
				rte_strerror(rte_errno));
			goto out;
		}
		if (perf_engine_start(dev[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "irdma-perf: %s\n", err);
			goto out;
		}
	}

	rc = o.loop ? perf_run_loop(&o, dev[0], dev[1]) : perf_run_remote(&o, dev[0]);
	if (rc == 0)
		status = EXIT_SUCCESS;
out:
	for (i = 1; i >= 0; i--)
		if (dev[i] && rte_pmd_irdma_dev_close(dev[i]) < 0)
			fprintf(stderr, "irdma-perf: closing %s left objects behind\n",
				i ? "the server device" : "the device");
	rte_eal_cleanup();
	return status;
}
