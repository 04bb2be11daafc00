/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Integration-test helpers: one EAL process per test binary, started with the project's
 * flags (--no-pci, a unique --file-prefix, --no-huge -m 512 --no-shconf unless the test
 * needs hugepages) and cleaned up at exit (rte_eal_cleanup, then the runtime directory).
 * Plus small builders for the objects every test needs.
 */
#ifndef ITEST_H
#define ITEST_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_memzone.h>

#include "irdma_test.h"
#include "rte_pmd_irdma.h"

static char itest_prefix[64];
static char itest_runtime_dir[PATH_MAX];

static int
itest_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
itest_cleanup(void)
{
	rte_eal_cleanup();
	if (itest_runtime_dir[0] != '\0')
		nftw(itest_runtime_dir, itest_rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* ITEST_NO_HUGE_LARGE: --no-huge with 1280 MB, for the tests of many objects. */
enum itest_mem { ITEST_NO_HUGE, ITEST_HUGE, ITEST_NO_HUGE_LARGE };

/*
 * Start EAL for test @p name on @p lcores ("0", "0-1", ...). Returns 0, or skips the whole
 * binary (t_skip_all) when EAL cannot start for a reason outside the test.
 */
static inline int
itest_eal_init(const char *name, const char *lcores, enum itest_mem mem)
{
	char prefix_arg[96], lcores_arg[96];
	char *argv[16];
	int argc = 0, ret;

	snprintf(itest_prefix, sizeof(itest_prefix), "irdma_%s_%d", name, (int)getpid());
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", itest_prefix);
	argv[argc++] = (char *)name;
	argv[argc++] = (char *)"--no-pci";
	if (strchr(lcores, '@') != NULL) { /* an lcore-to-CPU map: --lcores */
		snprintf(lcores_arg, sizeof(lcores_arg), "--lcores=%s", lcores);
		argv[argc++] = lcores_arg;
	} else {
		argv[argc++] = (char *)"-l";
		argv[argc++] = (char *)lcores;
	}
	argv[argc++] = prefix_arg;
	argv[argc++] = (char *)"--log-level=lib.eal:error";
	if (getenv("ITEST_DEBUG") != NULL)
		argv[argc++] = (char *)"--log-level=pmd.net.irdma.*:debug";
	if (mem == ITEST_NO_HUGE || mem == ITEST_NO_HUGE_LARGE) {
		argv[argc++] = (char *)"--no-huge";
		argv[argc++] = (char *)"-m";
		argv[argc++] = (char *)(mem == ITEST_NO_HUGE ? "512" : "1280");
		argv[argc++] = (char *)"--no-shconf";
	} else {
		argv[argc++] = (char *)"-m";
		argv[argc++] = (char *)"64";
		argv[argc++] = (char *)"--in-memory";
	}
	argv[argc] = NULL;
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		char msg[160];

		snprintf(msg, sizeof(msg), "EAL could not start: %s", rte_strerror(rte_errno));
		t_skip_all(msg);
	}
	snprintf(itest_runtime_dir, sizeof(itest_runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(itest_cleanup);
	return 0;
}

static void
itest_mz_count(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

/* Memzones in the process now (a leak check: the same count before and after). */
static inline unsigned int
itest_memzones(void)
{
	unsigned int n = 0;

	rte_memzone_walk(itest_mz_count, &n);
	return n;
}

/* The value called name among n xstats read (names by id), or UINT64_MAX. */
static inline uint64_t
itest_xstat_pick(const struct rte_pmd_irdma_xstat_name *names, const struct rte_pmd_irdma_xstat *xs,
		 int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[xs[i].id].name, name) == 0)
			return xs[i].value;
	return UINT64_MAX;
}

/* The value of the device xstat name, or UINT64_MAX when there is none. */
static inline uint64_t
itest_dev_xstat(const struct rte_pmd_irdma_dev *dev, const char *name)
{
	struct rte_pmd_irdma_xstat_name names[512];
	struct rte_pmd_irdma_xstat xs[512];
	int n = rte_pmd_irdma_xstats_get_names(dev, names, RTE_DIM(names));

	if (n <= 0 || n > (int)RTE_DIM(names) || rte_pmd_irdma_xstats_get(dev, xs, n) != n)
		return UINT64_MAX;
	return itest_xstat_pick(names, xs, n, name);
}

/* A device with devargs "soft,port=loop,<extra>" (extra may be NULL). */
static inline struct rte_pmd_irdma_dev *
itest_dev(const char *extra)
{
	char args[256];

	snprintf(args, sizeof(args), "soft,port=loop%s%s", extra ? "," : "", extra ? extra : "");
	return rte_pmd_irdma_dev_create(args);
}

static inline struct rte_pmd_irdma_cq *
itest_cq(struct rte_pmd_irdma_dev *dev, uint32_t cqe)
{
	struct rte_pmd_irdma_cq_init_attr a = { .cqe = cqe, .comp_fd = -1 };

	return rte_pmd_irdma_cq_create(dev, &a);
}

static inline struct rte_pmd_irdma_qp *
itest_qp(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *scq, struct rte_pmd_irdma_cq *rcq,
	 enum rte_pmd_irdma_qp_type type, uint32_t wr, uint32_t sge, uint32_t inl)
{
	struct rte_pmd_irdma_qp_init_attr a;

	memset(&a, 0, sizeof(a));
	a.send_cq = scq;
	a.recv_cq = rcq;
	a.qp_type = type;
	a.cap.max_send_wr = wr;
	a.cap.max_recv_wr = wr;
	a.cap.max_send_sge = sge;
	a.cap.max_recv_sge = sge;
	a.cap.max_inline_data = inl;
	return rte_pmd_irdma_qp_create(pd, &a);
}

#endif /* ITEST_H */
