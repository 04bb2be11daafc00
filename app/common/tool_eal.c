/* SPDX-License-Identifier: BSD-3-Clause */
/* How the tools start EAL, with errors that say what to do (see tool_eal.h). */
#include "tool_eal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

int tool_eal_separator(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return -1;
}

static bool has_arg(int n, char **argv, const char *name)
{
	int i;

	for (i = 1; i < n; i++)
		if (strcmp(argv[i], name) == 0)
			return true;
	return false;
}

/* Did the user say which PCI devices EAL may probe (-a/--allow, -b/--block, --no-pci)? */
static bool pci_named(int n, char **argv)
{
	static const char *const opts[] = { "-a", "-b", "--allow", "--block", "--no-pci" };
	size_t k, l;
	int i;

	for (i = 1; i < n; i++)
		for (k = 0; k < RTE_DIM(opts); k++) {
			l = strlen(opts[k]);
			/* "-a", "-a0000:3b:00.0", "--allow", "--allow=0000:3b:00.0" */
			if (strncmp(argv[i], opts[k], l) == 0 &&
			    (argv[i][l] == '\0' || opts[k][1] != '-' || argv[i][l] == '='))
				return true;
		}
	return false;
}

/* --file-prefix=X or --file-prefix X; "rte" (EAL's default) when absent. */
static const char *file_prefix(int n, char **argv)
{
	size_t l = strlen("--file-prefix");
	int i;

	for (i = 1; i < n; i++)
		if (strncmp(argv[i], "--file-prefix", l) == 0) {
			if (argv[i][l] == '=')
				return argv[i] + l + 1;
			if (argv[i][l] == '\0' && i + 1 < n)
				return argv[i + 1];
		}
	return "rte";
}

static bool hugepages_reserved(void)
{
	DIR *d = opendir("/sys/kernel/mm/hugepages");
	struct dirent *e;
	bool any = false;

	if (!d)
		return false;
	while (!any && (e = readdir(d)) != NULL) {
		char path[320];
		FILE *f;
		long n = 0;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/free_hugepages", e->d_name);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%ld", &n) == 1 && n > 0)
				any = true;
			fclose(f);
		}
	}
	closedir(d);
	return any;
}

/* Other irdma tools and examples, by the name the kernel keeps (15 characters). */
static bool is_irdma_process(const char *pid)
{
	char path[300], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strncmp(comm, "irdma", 5) == 0;
}

/* Read /proc/<pid>/cmdline into argv form: @return argc (0 on failure). */
static int read_cmdline(const char *pid, char *buf, size_t len, char **av, int max)
{
	char path[300];
	FILE *f;
	size_t n, i;
	int ac = 0;

	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (i = 0; i < n && ac < max; i += strlen(buf + i) + 1)
		av[ac++] = buf + i;
	return ac;
}

/* The single CPU a thread is pinned to, or -1 (not pinned to exactly one). */
static int pinned_cpu(const char *status_path)
{
	char line[512];
	FILE *f = fopen(status_path, "r");
	int cpu = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
			char *p = line + 18, *end;
			long v;

			while (*p == ' ' || *p == '\t')
				p++;
			v = strtol(p, &end, 10);
			if (end != p && (*end == '\n' || *end == '\0'))
				cpu = (int)v;
			break;
		}
	fclose(f);
	return cpu;
}

static void warn_other_processes(const char *tool, const char *prefix, bool no_shconf)
{
	char self[16], buf[4096], *av[128];
	rte_cpuset_t mine;
	unsigned int lcore;
	struct dirent *e;
	DIR *d;

	CPU_ZERO(&mine);
	RTE_LCORE_FOREACH(lcore) {
		rte_cpuset_t s = rte_lcore_cpuset(lcore);

		if (CPU_COUNT(&s) == 1)
			CPU_OR(&mine, &mine, &s);
	}
	snprintf(self, sizeof(self), "%d", (int)getpid());
	d = opendir("/proc");
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char tdir[300];
		struct dirent *t;
		DIR *td;
		int ac;

		if (!isdigit((unsigned char)e->d_name[0]) || strcmp(e->d_name, self) == 0 ||
		    !is_irdma_process(e->d_name))
			continue;
		ac = read_cmdline(e->d_name, buf, sizeof(buf), av, 128);
		if (no_shconf && ac > 0 && has_arg(ac, av, "--no-shconf") &&
		    strcmp(file_prefix(ac, av), prefix) == 0)
			fprintf(stderr, "%s: warning: process %s also runs with --file-prefix %s and "
				"--no-shconf: nothing stops the two from sharing runtime files; give "
				"each process its own --file-prefix\n", tool, e->d_name, prefix);
		snprintf(tdir, sizeof(tdir), "/proc/%s/task", e->d_name);
		td = opendir(tdir);
		if (!td)
			continue;
		while ((t = readdir(td)) != NULL) {
			char st[600];
			int cpu;

			if (!isdigit((unsigned char)t->d_name[0]))
				continue;
			snprintf(st, sizeof(st), "%s/%s/status", tdir, t->d_name);
			cpu = pinned_cpu(st);
			if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &mine)) {
				fprintf(stderr, "%s: warning: CPU %d is also busy-polled by process %s "
					"(%s): two pollers on one CPU run many times slower; give each "
					"process its own CPUs (EAL -l)\n", tool, cpu, e->d_name,
					ac > 0 ? av[0] : "irdma");
				CPU_CLR(cpu, &mine);
			}
		}
		closedir(td);
	}
	closedir(d);
}

int tool_eal_init(const char *tool, int argc, char **argv, int sep, const struct cli_opt *defs,
		  size_t n_defs)
{
	int n = sep < 0 ? argc : sep, i, rc, err, ac;
	static char no_pci[] = "--no-pci";
	bool no_huge = has_arg(n, argv, "--no-huge") || has_arg(n, argv, "--in-memory");
	char **eal_argv;

	/* A tool option before "--": EAL would refuse it, or worse, take it for one of its own
	 * (--all abbreviates --allow). */
	for (i = 1; i < n; i++) {
		const struct cli_opt *o = cli_find_long(defs, n_defs, argv[i]);

		if (o && strcmp(o->longname, "help") != 0) {
			fprintf(stderr, "%s: '%s' is an %s option: tool options go after \"--\" "
				"(%s [EAL options] -- [options])\n", tool, argv[i], tool, tool);
			return -1;
		}
	}

	/* EAL permutes its vector: give it a copy, so argv stays what the user typed. A tool
	 * probes PCI devices only when told which (-a <NIC> for port=<PCI address>): without an
	 * allow- or block-list EAL would take over every NIC bound to a DPDK driver, so the copy
	 * gets --no-pci then (vdevs such as net_memif need no PCI). */
	eal_argv = calloc((size_t)n + 2, sizeof(*eal_argv));
	if (!eal_argv)
		return -1;
	memcpy(eal_argv, argv, (size_t)n * sizeof(*eal_argv));
	ac = n;
	if (!pci_named(n, argv))
		eal_argv[ac++] = no_pci;
	rte_errno = 0;
	rc = rte_eal_init(ac, eal_argv);
	if (rc < 0) {
		err = rte_errno;
		if (err == EINVAL)
			fprintf(stderr, "%s: EAL initialisation failed: %s (EAL rejected an option%s: "
				"tool options go after \"--\")\n", tool, rte_strerror(err),
				sep < 0 ? "" : " before \"--\"");
		else if (!no_huge && (err == ENOMEM || err == EACCES || !hugepages_reserved()))
			fprintf(stderr, "%s: EAL initialisation failed: %s; no usable hugepages: "
				"reserve 2 MiB hugepages as README.md says (/proc/sys/vm/nr_hugepages) "
				"or run without them (--no-huge -m 512)\n", tool,
				err ? rte_strerror(err) : "see EAL's messages above");
		else
			fprintf(stderr, "%s: EAL initialisation failed: %s\n", tool,
				err ? rte_strerror(err) : "see EAL's messages above");
		free(eal_argv);
		return -1;
	}
	/* rc arguments were EAL's; what is left of eal_argv[rc + 1 ..] nobody took. */
	if (rc + 1 < ac) {
		fprintf(stderr, "%s: '%s' is not an EAL option and comes before \"--\": tool options "
			"go after \"--\" (%s [EAL options] -- [options] [server host])\n", tool,
			eal_argv[rc + 1], tool);
		free(eal_argv);
		rte_eal_cleanup();
		return -1;
	}
	free(eal_argv);
	warn_other_processes(tool, file_prefix(n, argv), has_arg(n, argv, "--no-shconf"));
	return 0;
}
