/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL for the fuzz targets that run the PMD: core 0, --no-pci --no-huge -m 256 --no-shconf,
 * a file prefix of the target's name and PID, logs silenced; the runtime directory goes with
 * the process (the machine's rule). Aborts when EAL cannot start.
 */
#ifndef FUZZ_EAL_H
#define FUZZ_EAL_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_eal.h>

static char fuzz_runtime_dir[PATH_MAX];

static int
fuzz_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
fuzz_eal_cleanup(void)
{
	rte_eal_cleanup();
	if (fuzz_runtime_dir[0] != '\0')
		nftw(fuzz_runtime_dir, fuzz_rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static inline void
fuzz_eal_init(const char *name)
{
	char prefix[96];
	char *eal[] = { (char *)name, "--no-pci", "--no-huge", "-m", "256", "--no-shconf",
			"-l", "0", prefix, "--log-level=*:emerg", NULL };

	snprintf(prefix, sizeof(prefix), "--file-prefix=%s_%d", name, (int)getpid());
	if (rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])) - 1, eal) < 0)
		abort();
	snprintf(fuzz_runtime_dir, sizeof(fuzz_runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(fuzz_eal_cleanup);
}

#endif /* FUZZ_EAL_H */
