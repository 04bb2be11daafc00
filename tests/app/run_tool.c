/* SPDX-License-Identifier: BSD-3-Clause */
/* Run a tool as a child with the project's EAL rules, capture its output, bound its time. */
#include "run_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oob_sock.h"

extern char **environ;

int run_tool_pid;

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n;
	size_t got = 0;

	lseek(fd, 0, SEEK_SET);
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
}

static int run(const char *exe, const char *name, const char *lcores, const char *const *args,
	       bool sep, int limit_ms, struct tool_result *r)
{
	char prefix[96], prefix_arg[128], dir[160], lcores_arg[64];
	char out_tmpl[] = "/tmp/irdma_app_outXXXXXX", err_tmpl[] = "/tmp/irdma_app_errXXXXXX";
	const char *argv[64];
	posix_spawn_file_actions_t fa;
	struct timespec ts = { 0, 5 * 1000000L };
	int argc = 0, ofd, efd, st, rc;
	int64_t t0;
	pid_t pid, w;

	memset(r, 0, sizeof(*r));
	snprintf(prefix, sizeof(prefix), "irdma_app_%s_%d", name,
		 run_tool_pid ? run_tool_pid : (int)getpid());
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", prefix);
	argv[argc++] = exe;
	if (lcores) {
		argv[argc++] = "--no-pci";
		argv[argc++] = "--no-huge";
		argv[argc++] = "-m";
		argv[argc++] = "512";
		argv[argc++] = "--no-shconf";
		argv[argc++] = prefix_arg;
		if (!strncmp(lcores, "service:", 8)) { /* main lcore 0, service lcore 1 */
			argv[argc++] = "-l";
			argv[argc++] = "0,1";
			argv[argc++] = "-s";
			argv[argc++] = "0x2";
		} else if (strchr(lcores, '@')) { /* lcore@cpu mapping */
			snprintf(lcores_arg, sizeof(lcores_arg), "--lcores=%s", lcores);
			argv[argc++] = lcores_arg;
		} else {
			argv[argc++] = "-l";
			argv[argc++] = lcores;
		}
		argv[argc++] = "--log-level=lib.eal:notice";
		argv[argc++] = "--vdev=net_null0";
	}
	if (sep)
		argv[argc++] = "--";
	while (*args && argc < 63)
		argv[argc++] = *args++;
	argv[argc] = NULL;

	ofd = mkstemp(out_tmpl);
	efd = mkstemp(err_tmpl);
	if (ofd < 0 || efd < 0)
		return -1;
	unlink(out_tmpl);
	unlink(err_tmpl);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, ofd, 1);
	posix_spawn_file_actions_adddup2(&fa, efd, 2);
	t0 = oob_now_ms();
	rc = posix_spawn(&pid, exe, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		close(ofd);
		close(efd);
		return -1;
	}
	for (;;) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (oob_now_ms() - t0 > limit_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			r->timed_out = true;
			break;
		}
		nanosleep(&ts, NULL);
	}
	r->elapsed_ms = oob_now_ms() - t0;
	r->status = !r->timed_out && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	slurp(ofd, r->out, sizeof(r->out));
	slurp(efd, r->err, sizeof(r->err));
	snprintf(dir, sizeof(dir), "/var/run/dpdk/%s", prefix);
	nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}

int run_tool(const char *exe, const char *name, const char *lcores, const char *const *args,
	     int limit_ms, struct tool_result *r)
{
	return run(exe, name, lcores, args, true, limit_ms, r);
}

int run_tool_nosep(const char *exe, const char *name, const char *lcores,
		   const char *const *args, int limit_ms, struct tool_result *r)
{
	return run(exe, name, lcores, args, false, limit_ms, r);
}
