/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf and irdma-pingpong as programs: a bad option, an unreachable peer, a malformed
 * or silent peer each end the program with one clear line and exit status 1 in bounded time;
 * irdma-perf --loop runs every test on two soft devices joined by port=loop, prints a
 * table that parses, and reports its data checked.
 * Usage: test_app_tools <irdma-perf> <irdma-pingpong> [case filter]
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "irdma_test.h"
#include "test_capture.h"
#include "oob_sock.h"
#include "run_tool.h"
#include "scripted_peer.h"

static const char *perf_exe, *pp_exe;
static struct tool_result r;

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* Client/server runs against scripted peers: a port that goes nowhere (port=loop is refused
 * there, it cannot reach another process). */
#define LOOPDEV "soft,port=net_null0,ip=198.18.0.9,engine=inline"

/* Exactly one line on stderr starting with @p prog, containing @p needle. */
static void check_one_line_error(const char *prog, const char *needle)
{
	const char *nl = strchr(r.err, '\n');
	const char *line = r.err;

	/* EAL and the PMD may log before the tool's own line: take the last line. */
	while (nl && nl[1]) {
		line = nl + 1;
		nl = strchr(line, '\n');
	}
	T_EQ(r.status, 1);
	T_CHECK(!r.timed_out);
	T_CHECK_MSG(strncmp(line, prog, strlen(prog)) == 0 && strstr(line, needle),
		    "last stderr line '%s' lacks '%s: ...%s...'", line, prog, needle);
}

/* The run lasted at least @p ms (a lower bound only: timings are noisy). */
static bool elapsed_at_least(int64_t ms)
{
	return r.elapsed_ms >= ms;
}

static uint16_t free_port(void)
{
	int fd = oob_listen(0), port = oob_bound_port(fd);

	close(fd);
	return (uint16_t)port;
}

T_CASE(bad_options_fail_before_eal_with_one_line)
{
	T_EQ(run_tool(perf_exe, "opt", NULL, ARGS("--loop", "--test", "write_lat", "--bogus"),
		      5000, &r), 0);
	check_one_line_error("irdma-perf: ", "unknown option '--bogus'");
	T_CHECK(strchr(r.err, '\n') == strrchr(r.err, '\n')); /* nothing else: EAL never ran */
	T_CHECK(r.elapsed_ms < 2000);

	T_EQ(run_tool(perf_exe, "opt", NULL, ARGS("--test", "read_bw", "-s", "lots"), 5000, &r), 0);
	check_one_line_error("irdma-perf: ", "-s: size 'lots'");

	T_EQ(run_tool(pp_exe, "opt", NULL, ARGS("--devargs", LOOPDEV, "-n", "x"), 5000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "-n: iterations 'x'");
	T_EQ(run_tool(pp_exe, "opt", NULL, ARGS("-s", "64"), 5000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "--devargs");

	T_EQ(run_tool(perf_exe, "opt", NULL, ARGS("--help"), 5000, &r), 0);
	T_EQ(r.status, 0);
	T_CHECK(strstr(r.out, "Usage:") != NULL);
}

static void check_table(const char *head, unsigned int nfields, unsigned long size,
			unsigned long iters);

/* The traps of issue 9: each wrong command line ends in one line naming what is wrong. */
T_CASE(tool_options_before_the_separator_are_named)
{
	/* without "--": EAL takes -n 4 (memory channels) and leaves the host over */
	T_EQ(run_tool_nosep(perf_exe, "trap", "0", ARGS("-n", "4", "127.0.0.1"), 20000, &r), 0);
	check_one_line_error("irdma-perf: ", "'127.0.0.1' is not an EAL option and comes before "
			     "\"--\": tool options go after \"--\"");
	/* a long tool option before "--" is named before EAL sees it (--all would be --allow) */
	T_EQ(run_tool_nosep(perf_exe, "trap", "0", ARGS("--all", "--test", "write_bw"), 20000, &r),
	     0);
	check_one_line_error("irdma-perf: ", "'--all' is an irdma-perf option: tool options go "
			     "after \"--\"");
	T_CHECK(strstr(r.err, "EAL:") == NULL); /* EAL never ran */
	T_EQ(run_tool_nosep(pp_exe, "trap", "0", ARGS("--devargs", LOOPDEV, "127.0.0.1"), 20000,
			    &r), 0);
	check_one_line_error("irdma-pingpong: ", "'--devargs' is an irdma-pingpong option: tool "
			     "options go after \"--\"");
	T_EQ(run_tool_nosep(pp_exe, "trap", "0", ARGS("-n", "4", "127.0.0.1"), 20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "'127.0.0.1' is not an EAL option");
	/* an option EAL rejects: the reason, and where tool options go */
	T_EQ(run_tool_nosep(pp_exe, "trap", "0", ARGS("-Z"), 20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "EAL initialisation failed: Invalid argument "
			     "(EAL rejected an option: tool options go after \"--\")");
}

/* EAL cannot get its hugepages: rte_errno's reason, and the two ways out. */
T_CASE(hugepage_failures_say_what_to_do)
{
	char prefix[64];

	/* run_tool removes /var/run/dpdk/irdma_app_<name>_<pid> afterwards */
	snprintf(prefix, sizeof(prefix), "--file-prefix=irdma_app_huge_%d", (int)getpid());
	T_EQ(run_tool_nosep(perf_exe, "huge", NULL, ARGS("--no-pci", prefix, "-l", "0",
							  "--huge-dir=/nonexistent", "--", "--loop"),
			    20000, &r), 0);
	check_one_line_error("irdma-perf: ", "EAL initialisation failed: ");
	T_CHECK_MSG(strstr(r.err, "Success") == NULL, "stderr: %s", r.err);
	T_CHECK_MSG(strstr(r.err, "no usable hugepages: reserve 2 MiB hugepages as README.md says "
			    "(/proc/sys/vm/nr_hugepages) or run without them (--no-huge -m 512)"),
		    "stderr: %s", r.err);
}

T_CASE(port_loop_cannot_reach_another_process)
{
	T_EQ(run_tool(perf_exe, "loopsrv", "0", ARGS("--devargs", "soft,port=loop", "127.0.0.1"),
		      20000, &r), 0);
	check_one_line_error("irdma-perf: ", "port=loop joins devices inside one process");
	T_CHECK(strchr(r.err, '\n') == strrchr(r.err, '\n'));
	T_EQ(run_tool(pp_exe, "loopsrv", "0", ARGS("--devargs", "soft,port=loop,ip=198.18.0.9"),
		      20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "port=loop joins devices inside one process");
}

T_CASE(unsupported_perftest_options_say_why)
{
	T_EQ(run_tool(perf_exe, "unsup", NULL, ARGS("--loop", "--test", "send_bw", "-b", "-a"), 5000,
		      &r), 0);
	check_one_line_error("irdma-perf: ", "-b in send_bw: not supported yet with -a");
	T_EQ(run_tool(perf_exe, "unsup", NULL, ARGS("--loop", "--test", "send_lat", "-b"), 5000, &r),
	     0);
	check_one_line_error("irdma-perf: ", "-b: both directions are for the bandwidth tests, not "
			     "send_lat");
	T_EQ(run_tool(perf_exe, "unsup", NULL, ARGS("--loop", "-q", "2"), 5000, &r), 0);
	check_one_line_error("irdma-perf: ", "-q: several QPs are for the bandwidth tests, not "
			     "write_lat");
	T_EQ(run_tool(perf_exe, "unsup", "0", ARGS("--loop", "--test", "send_bw", "-c", "UD", "-s",
						   "4096"), 30000, &r), 0);
	check_one_line_error("irdma-perf: ", "-s 4096: a UD message must fit the path MTU (1024 "
			     "bytes)");
	T_EQ(run_tool(perf_exe, "unsup", NULL, ARGS("--loop", "-c", "XRC"), 5000, &r), 0);
	check_one_line_error("irdma-perf: ", "connection type 'XRC' is not applicable");
	T_EQ(run_tool(pp_exe, "unsup", NULL, ARGS("--devargs", LOOPDEV, "-t"), 5000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "-t/--ts is not supported: ");
	T_EQ(run_tool(perf_exe, "ver", NULL, ARGS("-V"), 5000, &r), 0);
	T_EQ(r.status, 0);
	T_CHECK(strstr(r.out, "Version: 6.06") != NULL);
}

/* --loop -m 4096: the loop devices' MTU follows -m; grouped flags as perftest (-aF would
 * be all sizes; -NF keeps it short). */
T_CASE(loop_mtu_follows_m_and_flags_group)
{
	T_EQ(run_tool(perf_exe, "mtu", "0-1", ARGS("--loop", "--test", "write_bw", "-m", "4096",
						   "-n", "20", "-NF", "--output=bandwidth"),
		      60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	/* --output: only the figure */
	T_CHECK_MSG(strchr(r.out, '\n') == strrchr(r.out, '\n') && atof(r.out) > 0,
		    "output:\n%s", r.out);
	T_EQ(run_tool(perf_exe, "mtu", "0-1", ARGS("--loop", "--test", "send_lat", "-m", "4096",
						   "-s", "4000", "-n", "20"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, " Mtu             : 4096[B]\n") != NULL);
	/* perftest's defaults: the IPv4-mapped GID, 101 bytes inline for send_lat */
	T_CHECK(strstr(r.out, " GID index       : 1\n") != NULL);
	T_CHECK(strstr(r.out, " Max inline data : 101[B]\n") != NULL);
	check_table(" #bytes #iterations", 9, 4000, 20);
}

/* The installed irdma_<mode> links select the mode as perftest's ib_<mode> binaries. */
T_CASE(a_link_named_after_a_mode_runs_that_mode)
{
	char dir[] = "/tmp/irdma_app_linkXXXXXX", link[64], abs[4096];

	T_CHECK(mkdtemp(dir) != NULL);
	T_CHECK(realpath(perf_exe, abs) != NULL);
	snprintf(link, sizeof(link), "%s/irdma_send_bw", dir);
	T_EQ(symlink(abs, link), 0);
	T_EQ(run_tool(link, "link", "0", ARGS("-n", "20", "-s", "512"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, "Send BW Test") != NULL);
	T_CHECK(strstr(r.out, "1 test passed (send_bw)") != NULL);
	unlink(link);
	rmdir(dir);
}

/* Two irdma processes on one CPU, with one --file-prefix and --no-shconf: the second one
 * warns about both (it reads /proc), and still runs. */
T_CASE(a_second_process_on_the_same_cpu_and_prefix_is_warned)
{
	struct tool_result srv;
	char port[8];
	pid_t pid;
	int st;

	snprintf(port, sizeof(port), "%u", free_port());
	run_tool_pid = (int)getpid();
	pid = fork();
	if (pid == 0) {
		/* a server that busy-polls CPU 0 while it waits for a client */
		run_tool(pp_exe, "twin", "0", ARGS("--devargs", LOOPDEV, "-p", port, "--timeout", "3"),
			 10000, &srv);
		_exit(0);
	}
	T_CHECK(pid > 0);
	usleep(1500 * 1000);
	T_EQ(run_tool(perf_exe, "twin", "0", ARGS("--loop", "--test", "send_lat", "-n", "20"),
		      30000, &r), 0);
	T_EQ(r.status, 0);
	T_CHECK_MSG(strstr(r.err, "irdma-perf: warning: CPU 0 is also busy-polled by process ") &&
		    strstr(r.err, "give each process its own CPUs (EAL -l)"), "stderr: %s", r.err);
	T_CHECK_MSG(strstr(r.err, "irdma-perf: warning: process ") &&
		    strstr(r.err, "--no-shconf: nothing stops the two from sharing runtime files"),
		    "stderr: %s", r.err);
	if (pid > 0)
		waitpid(pid, &st, 0);
	run_tool_pid = 0;
}

/* -D: post for a duration; a progress line per second on stderr unless --quiet; the row
 * counts what was done, with no peak (as perftest). */
T_CASE(duration_runs_for_its_seconds_with_progress_lines)
{
	unsigned long b = 0, it = 0;
	double peak = -1, avg = 0;
	const char *h;

	T_EQ(run_tool(perf_exe, "dur", "0-1", ARGS("--loop", "--test", "write_bw", "-D", "2",
						   "-s", "1024"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK_MSG(strstr(r.err, "irdma-perf: 1 s: ") && strstr(r.err, " MB/sec, "),
		    "stderr: %s", r.err);
	T_CHECK(elapsed_at_least(2000));
	h = strstr(r.out, " #bytes     #iterations");
	T_CHECK(h != NULL);
	if (h)
		T_EQ(sscanf(strchr(h, '\n') + 1, " %lu %lu %lf %lf", &b, &it, &peak, &avg), 4);
	T_EQ(b, 1024);
	T_CHECK(it > 0 && peak == 0 && avg > 0);
	T_CHECK(strstr(r.out, "1 test passed (write_bw), data verified") != NULL);
	T_EQ(run_tool(perf_exe, "dur", "0-1", ARGS("--loop", "--test", "read_bw", "-D", "1",
						   "--quiet"), 60000, &r), 0);
	T_EQ(r.status, 0);
	T_CHECK_MSG(strstr(r.err, " s: ") == NULL, "stderr: %s", r.err);
	T_EQ(run_tool(perf_exe, "dur", NULL, ARGS("--loop", "--test", "write_lat", "-D", "1", "-H"),
		      5000, &r), 0);
	check_one_line_error("irdma-perf: ", "-H: with -D there are no samples");
}

/* -D in the latency tests: perftest's duration table (iterations done, their average, the
 * transactions per second) and a progress line per second; the loop still checks the data
 * (write_lat's counters are the iterations each side did). */
static void lat_duration(const char *mode, const char *lcores)
{
	unsigned long b = 0, it = 0;
	double avg = 0, tps = 0;
	const char *h;

	T_EQ(run_tool(perf_exe, "ldur", lcores, ARGS("--loop", "--test", mode, "-D", "2"), 60000,
		      &r), 0);
	T_CHECK_MSG(r.status == 0, "%s: exit %d, stderr:\n%s", mode, r.status, r.err);
	T_CHECK(elapsed_at_least(2000));
	T_EQ(t_count(r.err, "irdma-perf: 1 s: "), 1);
	T_EQ(t_count(r.err, " iterations so far\n"), t_count(r.err, " s: "));
	h = strstr(r.out, " #bytes        #iterations       t_avg[usec]    tps average\n");
	T_CHECK_MSG(h != NULL, "%s", r.out);
	if (h)
		T_EQ(sscanf(strchr(h, '\n') + 1, " %lu %lu %lf %lf", &b, &it, &avg, &tps), 4);
	T_EQ(b, strstr(mode, "atomic") ? 8 : 2);
	/* the average is the time of the run over its iterations: tps x t_avg is 10^6 usec,
	 * half that for the ping-pongs (their latency is half a round trip) */
	T_CHECK_MSG(it > 0 && avg > 0 && tps > 0 &&
		    tps * avg > (strstr(mode, "write") || strstr(mode, "send") ? 0.49e6 : 0.98e6) &&
		    tps * avg < (strstr(mode, "write") || strstr(mode, "send") ? 0.51e6 : 1.02e6),
		    "%s: %lu iterations, %f usec, %f tps", mode, it, avg, tps);
	T_CHECK(strstr(r.out, "1 test passed") && strstr(r.out, "data verified"));
}

T_CASE(latency_tests_run_for_a_duration)
{
	lat_duration("write_lat", "0-1");
	lat_duration("send_lat", "0");
	lat_duration("read_lat", "0-1");
	lat_duration("atomic_lat", "0");
}

/* -m raises the device's MTU ceiling too (here a port without a frame limit): UD messages
 * of the default 2048 bytes fit with -m 2048, and are refused in one line without it. */
T_CASE(pingpong_m_raises_the_device_mtu)
{
	T_EQ(run_tool(pp_exe, "udmtu", "0", ARGS("--devargs", LOOPDEV, "--ud", "--timeout", "1"),
		      20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "-s 2048: a UD message must fit the port MTU "
			     "(1024 bytes)");
	T_EQ(run_tool(pp_exe, "udmtu", "0", ARGS("--devargs", LOOPDEV, "--ud", "-m", "2048",
						  "--timeout", "1"), 20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "no client connected");
}

/* -w/-y: perftest's pass/fail limits (the report's own unit): far above any result fails
 * with perftest's line and status 1, far below passes. */
T_CASE(bandwidth_limits_pass_or_fail_the_run)
{
	T_EQ(run_tool(perf_exe, "lim", "0-1", ARGS("--loop", "--test", "write_bw", "-n", "50",
						   "-w", "1e12"), 60000, &r), 0);
	check_one_line_error("irdma-perf: ", "the result is below the limit of -w/-y");
	T_CHECK_MSG(strstr(r.err, "irdma-perf: Error: BW result is below bw limit"), "stderr: %s",
		    r.err);
	T_EQ(run_tool(perf_exe, "lim", "0-1", ARGS("--loop", "--test", "read_bw", "-n", "50",
						   "-y", "1e9"), 60000, &r), 0);
	T_CHECK_MSG(strstr(r.err, "irdma-perf: Error: Msg rate is below msg_rate limit"),
		    "stderr: %s", r.err);
	T_EQ(r.status, 1);
	T_EQ(run_tool(perf_exe, "lim", "0-1", ARGS("--loop", "--test", "write_bw", "-n", "50",
						   "-w", "1e-9", "-y", "1e-12"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
}

T_CASE(unreachable_peer_fails_fast)
{
	char port[8];

	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(run_tool(pp_exe, "unreach", "0", ARGS("--devargs", LOOPDEV, "-p", port, "127.0.0.1"),
		      20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "cannot connect to 127.0.0.1");
	T_CHECK(strstr(r.err, "refused") != NULL);

	T_EQ(run_tool(perf_exe, "unreach", "0", ARGS("--devargs", LOOPDEV, "--test", "send_lat",
						     "-p", port, "127.0.0.1"), 20000, &r), 0);
	check_one_line_error("irdma-perf: ", "cannot connect to 127.0.0.1");
}

T_CASE(malformed_records_fail_with_a_clear_line)
{
	static const char garbage[52] = "0000:zzzzzz:000001:00000000000000000000ffffc612000b";
	static const char bad_dest[108] = "0000:0001:000018:e139ce:00000a29:0000556ce0f4f000:00:00"
					  ":00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0b:0000000!:";
	static const char ver[16] = "6.06";
	static const uint8_t sys[4] = { 0, 0, 0x10, 0 }, cl[4] = { 0, 0, 0, 0x40 };
	static const char mtu[2] = "3";
	const struct sp_step pp_srv[] = { { SP_READ, NULL, 52 }, { SP_WRITE, garbage, 52 } };
	const struct sp_step pt_srv[] = {
		{ SP_READ, NULL, 16 }, { SP_WRITE, ver, 16 }, { SP_READ, NULL, 4 },
		{ SP_WRITE, sys, 4 },  { SP_READ, NULL, 4 },  { SP_WRITE, cl, 4 },
		{ SP_READ, NULL, 2 },  { SP_WRITE, mtu, 2 },  { SP_READ, NULL, 108 },
		{ SP_WRITE, bad_dest, 108 },
	};
	const struct sp_step pp_cli[] = { { SP_WRITE, garbage, 52 }, { SP_SLEEP_MS, NULL, 500 } };
	struct scripted_peer p;
	char port[8];

	T_EQ(sp_start_server(&p, pp_srv, 2), 0);
	snprintf(port, sizeof(port), "%u", p.port);
	T_EQ(run_tool(pp_exe, "malformed", "0", ARGS("--devargs", LOOPDEV, "-p", port, "--timeout",
						      "5", "127.0.0.1"), 20000, &r), 0);
	sp_join(&p);
	check_one_line_error("irdma-pingpong: ", "malformed record");
	T_CHECK(p.failed_step < 0);

	T_EQ(sp_start_server(&p, pt_srv, sizeof(pt_srv) / sizeof(pt_srv[0])), 0);
	snprintf(port, sizeof(port), "%u", p.port);
	T_EQ(run_tool(perf_exe, "malformed", "0", ARGS("--devargs", LOOPDEV, "--test", "write_lat",
							"-p", port, "--timeout", "5", "127.0.0.1"),
		      20000, &r), 0);
	sp_join(&p);
	check_one_line_error("irdma-perf: ", "at the dest step: malformed message");
	T_CHECK(p.failed_step < 0);

	/* Our pingpong as the server, a client that sends garbage. */
	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(sp_start_client(&p, (uint16_t)atoi(port), pp_cli, 2), 0);
	T_EQ(run_tool(pp_exe, "malformed", "0", ARGS("--devargs", LOOPDEV, "-p", port, "--timeout",
						      "5"), 20000, &r), 0);
	sp_join(&p);
	check_one_line_error("irdma-pingpong: ", "malformed record");
}

T_CASE(silent_peers_time_out)
{
	const struct sp_step silent[] = { { SP_READ, NULL, 52 }, { SP_SLEEP_MS, NULL, 4000 } };
	struct scripted_peer p;
	char port[8];

	T_EQ(sp_start_server(&p, silent, 2), 0);
	snprintf(port, sizeof(port), "%u", p.port);
	T_EQ(run_tool(pp_exe, "silent", "0", ARGS("--devargs", LOOPDEV, "-p", port, "--timeout",
						   "1", "127.0.0.1"), 20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "timed out");
	sp_join(&p);

	/* A peer that exchanges records and then never answers on the wire (its GID is nobody
	 * on the loop): RC gives up (retries exhausted) or the run's watchdog fires. */
	{
		static const char rec[52] = "0000:000011:64f031:00000000000000000000ffffc612004d";
		static const char done[5] = "done";
		const struct sp_step gone[] = { { SP_READ, NULL, 52 }, { SP_WRITE, rec, 52 },
						{ SP_EXPECT, done, 5 } };

		T_EQ(sp_start_server(&p, gone, 3), 0);
		snprintf(port, sizeof(port), "%u", p.port);
		T_EQ(run_tool(pp_exe, "silent", "0", ARGS("--devargs", LOOPDEV, "-g", "1", "-p",
							   port, "--timeout", "2", "127.0.0.1"),
			      30000, &r), 0);
		sp_join(&p);
		T_CHECK(p.failed_step < 0);
		T_EQ(r.status, 1);
		T_CHECK_MSG(strstr(r.err, "irdma-pingpong: send completion with status") ||
			    strstr(r.err, "irdma-pingpong: no completion for 2 s"),
			    "stderr: %s", r.err);
		/* the first WR gave up: the line names what to check */
		if (strstr(r.err, "RETRY_EXC"))
			T_CHECK_MSG(strstr(r.err, "check that both sides use a GID of the same kind"),
				    "stderr: %s", r.err);
		T_CHECK(r.elapsed_ms < 15000);
	}

	/* A server nobody connects to gives up after --timeout too. */
	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(run_tool(pp_exe, "silent", "0", ARGS("--devargs", LOOPDEV, "-p", port, "--timeout",
						   "1"), 20000, &r), 0);
	check_one_line_error("irdma-pingpong: ", "no client connected");
}

/* Our server, passive in these tests, against the client side of a real perftest run
 * replayed byte for byte (tests/data/rxe-pcaps/rdma_read.pcap and rdma_write_bw.pcap):
 * the sequence must line up step for step, and for write_bw the server prints the
 * client's results exactly as the real ib_write_bw server did. */
static const char VER[16] = "6.06";
static const uint8_t CYC[4] = { 0, 0, 0x10, 0 }, CLN[4] = { 0, 0, 0, 0x40 };
static const char MTU3[2] = "3", DONE[5] = "done";

/*
 * Run irdma-perf as a --test @p test server (GID index 1) against a scripted perftest client
 * that plays @p cli; both must finish cleanly. The tool's output is left in r.
 */
/* @p extra: one more option for the tool ("-F": none) */
static void perf_server_vs_script_opt(const char *tag, const char *test, const char *extra,
				      const struct sp_step *cli, unsigned int n_steps)
{
	struct scripted_peer p;
	char port[8];

	snprintf(port, sizeof(port), "%u", free_port());
	T_EQ(sp_start_client(&p, (uint16_t)atoi(port), cli, n_steps), 0);
	T_EQ(run_tool(perf_exe, tag, "0", ARGS("--devargs", LOOPDEV, "--test", test, "-x", "1",
					       "-p", port, "--timeout", "5", extra),
		      30000, &r), 0);
	sp_join(&p);
	T_CHECK_MSG(p.failed_step < 0, "scripted client failed at step %d (errno %d, byte %zu)",
		    p.failed_step, p.error, p.mismatch_at);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
}

static void perf_server_vs_script(const char *tag, const char *test, const struct sp_step *cli,
				  unsigned int n_steps)
{
	perf_server_vs_script_opt(tag, test, "-F", cli, n_steps);
}

T_CASE(server_read_lat_follows_a_real_perftest_client)
{
	static const char c_dest[108] = "0000:0080:000019:c7dd2e:00000c94:000055d55b117000:00:00:"
					"00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
	const struct sp_step cli[] = {
		{ SP_WRITE, VER, 16 },  { SP_EXPECT, VER, 16 },  { SP_WRITE, CYC, 4 },
		{ SP_EXPECT, CYC, 4 },  { SP_WRITE, CLN, 4 },    { SP_EXPECT, CLN, 4 },
		{ SP_WRITE, MTU3, 2 },  { SP_EXPECT, MTU3, 2 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		/* (the client's reads would run here) */
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, DONE, 5 },  { SP_EXPECT, DONE, 5 },
	};
	perf_server_vs_script("srv_rl", "read_lat", cli, sizeof(cli) / sizeof(cli[0]));
	T_CHECK(strstr(r.out, " remote address: LID 0000 QPN 0x0019 PSN 0xc7dd2e OUT 0x80 RKey "
			      "0x000c94 VAddr 0x0055d55b117000\n GID: 00:00:00:00:00:00:00:00:00:00:"
			      "255:255:198:18:00:12\n") != NULL);
	T_CHECK(strstr(r.out, "Outstand reads  : ") != NULL);
	T_CHECK(strstr(r.out, " local address: LID 0000 QPN ") != NULL);
	T_CHECK(strstr(r.out, "GID: 00:00:00:00:00:00:00:00:00:00:255:255:198:18:00:09") != NULL);
}

/* ib_write_bw 4.5's client after its run (rdma_write_bw.txt): the barrier record, the five
 * results (3000 bytes, 5 iterations, peak, average and rate as doubles), the closing record
 * and "done". */
static const uint8_t wb_size[8] = { 0, 0, 0, 0, 0, 0, 0x0b, 0xb8 };
static const uint8_t wb_iters[8] = { 0, 0, 0, 0, 0, 0, 0, 5 };
static const uint8_t wb_peak[8] = { 0x40, 0x11, 0x8c, 0x64, 0x64, 0x12, 0x40, 0x06 };
static const uint8_t wb_avg[8] = { 0x40, 0x00, 0x76, 0x80, 0x77, 0x05, 0xd5, 0x45 };
static const uint8_t wb_rate[8] = { 0x3f, 0x47, 0x91, 0xb7, 0x40, 0x2e, 0x98, 0x3a };
#define WRITE_BW_CLIENT_END(dest)                                                          \
	{ SP_WRITE, dest, 108 }, { SP_READ, NULL, 108 },                                   \
	{ SP_WRITE, wb_size, 8 }, { SP_READ, NULL, 8 }, { SP_WRITE, wb_iters, 8 },         \
	{ SP_READ, NULL, 8 }, { SP_WRITE, wb_peak, 8 }, { SP_READ, NULL, 8 },              \
	{ SP_WRITE, wb_avg, 8 }, { SP_READ, NULL, 8 }, { SP_WRITE, wb_rate, 8 },           \
	{ SP_READ, NULL, 8 }, { SP_WRITE, dest, 108 }, { SP_READ, NULL, 108 },             \
	{ SP_WRITE, DONE, 5 }, { SP_EXPECT, DONE, 5 }
/* ib_write_bw's server printed exactly this row for those results */
#define WRITE_BW_SERVER_ROW "\n 3000       5                4.39               2.06   \t\t   0.000719\n"

T_CASE(server_write_bw_prints_the_clients_results_like_perftest)
{
	static const char c_dest[108] = "0000:0001:000018:a2917f:00000b37:000055e801552000:00:00:"
					"00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
	const struct sp_step cli[] = {
		{ SP_WRITE, VER, 16 },  { SP_EXPECT, VER, 16 },  { SP_WRITE, CYC, 4 },
		{ SP_EXPECT, CYC, 4 },  { SP_WRITE, CLN, 4 },    { SP_EXPECT, CLN, 4 },
		{ SP_WRITE, MTU3, 2 },  { SP_EXPECT, MTU3, 2 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, c_dest, 108 }, { SP_READ, NULL, 108 },
		/* (the client's writes would run here) */
		WRITE_BW_CLIENT_END(c_dest),
	};
	perf_server_vs_script("srv_wb", "write_bw", cli, sizeof(cli) / sizeof(cli[0]));
	/* ib_write_bw's server printed exactly these two lines (rdma_write_bw.txt) */
	T_CHECK_MSG(strstr(r.out, " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]"
				  "   MsgRate[Mpps]" WRITE_BW_SERVER_ROW) != NULL, "output:\n%s", r.out);
}

/* -q 2: perftest 4.5's ib_write_bw client (as against rxe) sends a record per QP, then each
 * QP's again (the one it prints the peer from), then QP 0's (after the QPs are connected);
 * the barriers and the report are QP 0's. Both of the peer's QPs are printed, and two local
 * ones. */
T_CASE(server_write_bw_on_two_qps_swaps_a_record_per_qp_like_perftest)
{
	static const char d0[108] = "0000:0001:000018:a2917f:00000b37:000055e801552000:00:00:"
				    "00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
	static const char d1[108] = "0000:0001:000019:0c4a21:00000b38:000055e801562000:00:00:"
				    "00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
	const struct sp_step cli[] = {
		{ SP_WRITE, VER, 16 },  { SP_EXPECT, VER, 16 },  { SP_WRITE, CYC, 4 },
		{ SP_EXPECT, CYC, 4 },  { SP_WRITE, CLN, 4 },    { SP_EXPECT, CLN, 4 },
		{ SP_WRITE, MTU3, 2 },  { SP_EXPECT, MTU3, 2 },
		{ SP_WRITE, d0, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, d1, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, d0, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, d1, 108 }, { SP_READ, NULL, 108 },
		{ SP_WRITE, d0, 108 }, { SP_READ, NULL, 108 },
		/* (the client's writes on both QPs would run here) */
		WRITE_BW_CLIENT_END(d0),
	};
	const char *l0, *r0, *r1;

	perf_server_vs_script_opt("srv_wbq", "write_bw", "-q2", cli, sizeof(cli) / sizeof(cli[0]));
	T_EQ(t_count(r.out, " local address: LID 0000 QPN "), 2);
	l0 = strstr(r.out, " local address: LID 0000 QPN ");
	r0 = strstr(r.out, " remote address: LID 0000 QPN 0x0018 PSN 0xa2917f RKey 0x000b37 "
			   "VAddr 0x0055e801552000\n");
	r1 = strstr(r.out, " remote address: LID 0000 QPN 0x0019 PSN 0xc4a21 RKey 0x000b38 "
			   "VAddr 0x0055e801562000\n");
	/* every local line before the remote ones, in QP order */
	T_CHECK_MSG(l0 && r0 && r1 && l0 < r0 && r0 < r1 &&
		    !strstr(r0, " local address:"), "output:\n%s", r.out);
	T_CHECK(strstr(r.out, WRITE_BW_SERVER_ROW) != NULL);
}

/* A peer that goes through perftest's whole exchange but whose device never answers (our
 * port goes nowhere): the first READ ends in RETRY_EXC_ERR, and the line says what to
 * check. -u 8 keeps the retries short (7 x 1 ms). */
T_CASE(a_silent_peer_device_names_the_likely_causes)
{
	static const char s_dest[108] = "0000:0080:000019:c7dd2e:00000c94:000055d55b117000:00:00:"
					"00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
	const struct sp_step srv[] = {
		{ SP_READ, NULL, 16 }, { SP_WRITE, VER, 16 },  { SP_READ, NULL, 4 },
		{ SP_WRITE, CYC, 4 },  { SP_READ, NULL, 4 },   { SP_WRITE, CLN, 4 },
		{ SP_READ, NULL, 2 },  { SP_WRITE, MTU3, 2 },
		{ SP_READ, NULL, 108 }, { SP_WRITE, s_dest, 108 },
		{ SP_READ, NULL, 108 }, { SP_WRITE, s_dest, 108 },
		{ SP_READ, NULL, 108 }, { SP_WRITE, s_dest, 108 },
		{ SP_READ, NULL, 108 }, { SP_WRITE, s_dest, 108 },
		{ SP_SLEEP_MS, NULL, 3000 },
	};
	struct scripted_peer p;
	char port[8];

	T_EQ(sp_start_server(&p, srv, sizeof(srv) / sizeof(srv[0])), 0);
	snprintf(port, sizeof(port), "%u", p.port);
	T_EQ(run_tool(perf_exe, "retry", "0", ARGS("--devargs", LOOPDEV ",neigh=198.18.0.12@02:00:00:00:00:0c",
						   "--test", "read_lat", "-u", "8", "-p", port,
						   "--timeout", "10", "127.0.0.1"), 30000, &r), 0);
	sp_join(&p);
	check_one_line_error("irdma-perf: ", "RETRY_EXC_ERR completion of WR 0");
	T_CHECK_MSG(strstr(r.err, "nothing came back from the peer: check that both sides use a GID "
			   "of the same kind (-x/-g; the IPv4-mapped one by default), the same path "
			   "MTU (-m), that the peer's MAC resolves"), "stderr: %s", r.err);
}

/* The table under the last head line: @p nfields numbers, the iterations in field 2. */
static void check_table(const char *head, unsigned int nfields, unsigned long size,
			unsigned long iters)
{
	const char *h = NULL, *p = r.out;
	double v[9];
	unsigned long b = 0, it = 0;
	int n;

	while ((p = strstr(p, head)) != NULL)
		h = p++;
	T_CHECK_MSG(h != NULL, "no table head '%s' in:\n%s", head, r.out);
	if (!h)
		return;
	h = strchr(h, '\n') + 1;
	if (nfields == 9)
		n = sscanf(h, " %lu %lu %lf %lf %lf %lf %lf %lf %lf", &b, &it, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6]);
	else
		n = sscanf(h, " %lu %lu %lf %lf %lf", &b, &it, &v[0], &v[1], &v[2]);
	T_EQ(n, (int)nfields);
	T_EQ(b, size);
	T_EQ(it, iters);
	if (nfields == 9) {
		/* t_min <= t_typical <= t_max, t_min <= t_avg, percentiles at most t_max */
		T_CHECK(v[0] > 0 && v[0] <= v[2] && v[2] <= v[1] && v[0] <= v[3]);
		T_CHECK(v[5] <= v[1] && v[6] <= v[1] && v[5] <= v[6]);
	} else {
		T_CHECK(v[0] > 0 && v[1] > 0 && v[2] > 0);
	}
}

static void loop_run(const char *mode, const char *lcores, unsigned long size, const char *extra)
{
	char passed[64];
	bool lat = strstr(mode, "_lat") != NULL;

	T_EQ(run_tool(perf_exe, mode, lcores, ARGS("--loop", "--test", mode, "-n", "20",
						   "--timeout", "10", extra ? extra : "-F"),
		      60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "%s: exit %d, stderr:\n%s", mode, r.status, r.err);
	check_table(lat ? " #bytes #iterations    t_min[usec]" : " #bytes     #iterations",
		    lat ? 9 : 5, size, 20);
	snprintf(passed, sizeof(passed), "irdma-perf: 1 test passed (%s), data verified", mode);
	T_CHECK_MSG(strstr(r.out, passed) != NULL, "no '%s' in:\n%s", passed, r.out);
}

T_CASE(loop_write_lat)  { loop_run("write_lat", "0-1", 2, NULL); }
T_CASE(loop_read_lat)   { loop_run("read_lat", "0-1", 2, NULL); }
T_CASE(loop_send_lat)   { loop_run("send_lat", "0-1", 2, NULL); }
T_CASE(loop_atomic_lat) { loop_run("atomic_lat", "0-1", 8, NULL); }
T_CASE(loop_atomic_cmp_and_swap_one_lcore)
{
	T_EQ(run_tool(perf_exe, "cas", "0", ARGS("--loop", "--test", "atomic_lat", "-n", "20",
						 "-A", "CMP_AND_SWAP"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, "Atomic CMP_AND_SWAP Latency Test") != NULL);
	check_table(" #bytes #iterations", 9, 8, 20);
}
T_CASE(loop_write_bw)   { loop_run("write_bw", "0-1", 65536, NULL); }
T_CASE(loop_read_bw)    { loop_run("read_bw", "0-1", 4096, "-s4096"); }
T_CASE(loop_send_bw)    { loop_run("send_bw", "0", 1024, "--size=1024"); }
/* -b: both directions at once, their sum in the row, each with --report-both; the data
 * each side received is checked */
T_CASE(loop_write_bw_bidirectional)
{
	loop_run("write_bw", "0-1", 65536, "-b");
	T_EQ(run_tool(perf_exe, "bidi", "0", ARGS("--loop", "--test", "read_bw", "-b", "-n", "20",
						  "--report-both"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, "\n Local results: \n") && strstr(r.out, "\n Remote results: \n"));
	T_CHECK(strstr(r.out, "1 test passed (read_bw), data verified") != NULL);
}

/* -q: several QPs, each pair's data checked; the row shows the WRs of all QPs (-n, 20, on
 * each, as perftest 4.5) and the address lines come once per QP and side, on one lcore as
 * on two */
static void loop_qps(const char *mode, const char *lcores, const char *q, unsigned long size)
{
	unsigned int nq = (unsigned int)atoi(q + 2);
	char passed[64];

	T_EQ(run_tool(perf_exe, mode, lcores, ARGS("--loop", "--test", mode, "-n", "20",
						   "--timeout", "10", q), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "%s: exit %d, stderr:\n%s", mode, r.status, r.err);
	check_table(" #bytes     #iterations", 5, size, 20 * nq);
	T_EQ(t_count(r.out, " local address: LID 0000"), nq);
	T_EQ(t_count(r.out, "remote address: LID 0000"), nq);
	snprintf(passed, sizeof(passed), "1 test passed (%s), data verified", mode);
	T_CHECK(strstr(r.out, passed) != NULL);
}
T_CASE(loop_write_bw_on_four_qps)  { loop_qps("write_bw", "0-1", "-q4", 65536); }
T_CASE(loop_read_bw_on_two_qps)    { loop_qps("read_bw", "0", "-q2", 65536); }
T_CASE(loop_send_bw_on_three_qps)  { loop_qps("send_bw", "0-1", "-q3", 65536); }
/* atomics: 2000 on each QP, 4000 in the row (20 8-byte ones print as 0.00 MB/sec); each
 * QP's target word
 * must have counted its own QP's atomics */
T_CASE(loop_atomic_bw_on_two_qps)
{
	T_EQ(run_tool(perf_exe, "qatom", "0-1", ARGS("--loop", "--test", "atomic_bw", "-q", "2",
						     "-n", "2000"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	check_table(" #bytes     #iterations", 5, 8, 4000);
	T_EQ(t_count(r.out, " local address: LID 0000"), 2);
	T_CHECK(strstr(r.out, "1 test passed (atomic_bw), data verified") != NULL);
}
/* -q with -D: one progress line per second for all QPs together */
T_CASE(loop_duration_on_three_qps_has_one_progress_line_a_second)
{
	T_EQ(run_tool(perf_exe, "qdur", "0-1", ARGS("--loop", "--test", "write_bw", "-q", "3", "-D",
						    "2", "-s", "1024"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_EQ(t_count(r.err, "irdma-perf: 1 s: "), 1);
	T_EQ(t_count(r.err, " s: "), t_count(r.err, " messages so far\n"));
	T_CHECK(strstr(r.out, "1 test passed (write_bw), data verified") != NULL);
}

/* send_bw -c UD: the default size is lowered to the path MTU (as perftest), -a stops there;
 * the server's receive buffer (after the GRH area) is checked. -D: the server receives
 * until the client is done. */
T_CASE(loop_send_bw_over_ud_and_for_a_duration)
{
	loop_run("send_bw", "0-1", 1024, "-cUD");
	T_CHECK(strstr(r.out, " Connection type : UD") != NULL);
	T_EQ(run_tool(perf_exe, "sud", "0", ARGS("--loop", "--test", "send_bw", "-c", "UD", "-a",
						 "-n", "20"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, "\n 1024       20 ") != NULL && !strstr(r.out, "\n 2048 "));
	T_CHECK(strstr(r.out, "1 test passed (send_bw), data verified") != NULL);
	T_EQ(run_tool(perf_exe, "sdur", "0-1", ARGS("--loop", "--test", "send_bw", "-D", "2", "-s",
						    "4096"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(elapsed_at_least(2000));
	T_EQ(t_count(r.err, "irdma-perf: 1 s: "), 1);
	T_CHECK(strstr(r.out, "1 test passed (send_bw), data verified") != NULL);
}

/* send_bw -b: both sides send and receive; both receive buffers are checked, and both
 * rows add up the two directions (equal on both sides) */
T_CASE(loop_send_bw_bidirectional)
{
	loop_run("send_bw", "0-1", 1024, "-bs1024");
	T_CHECK(strstr(r.out, " RX depth        : 20\n") != NULL);
	T_EQ(run_tool(perf_exe, "sbidi", "0", ARGS("--loop", "--test", "send_bw", "-b", "-q", "2",
						   "-n", "20", "--report-both"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, "\n Local results: \n") && strstr(r.out, "\n Remote results: \n"));
	T_CHECK(strstr(r.out, "1 test passed (send_bw), data verified") != NULL);
}

/* -c UD: send_lat over UD QPs (the data check skips the 40-byte GRH area) */
T_CASE(loop_send_lat_ud)
{
	loop_run("send_lat", "0-1", 2, "--connection=UD");
	T_CHECK(strstr(r.out, " Connection type : UD\t\tUsing SRQ      : OFF\n") != NULL);
}

/* Two lcores on one CPU: no two spinning pollers there, both sides from one loop. */
T_CASE(loop_lcores_sharing_a_cpu_run_one_loop)
{
	T_EQ(run_tool(perf_exe, "shared", "0@0,1@0", ARGS("--test", "send_lat", "-n", "50"),
		      60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.err, "irdma-perf: lcores 0 and 1 share a CPU: both sides run from one "
			      "loop on lcore 0") != NULL);
	check_table(" #bytes #iterations", 9, 2, 50);
}

/* engine=service: the devices' engines run as an rte_service on a service lcore. */
T_CASE(loop_with_the_service_engine)
{
	T_EQ(run_tool(perf_exe, "svc", "service:", ARGS("--loop", "--test", "send_lat", "-n", "50",
							"--devargs", "soft,port=loop,engine=service"),
		      60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	check_table(" #bytes #iterations", 9, 2, 50);
	/* without a service lcore it says what is missing */
	T_EQ(run_tool(perf_exe, "svc", "0", ARGS("--test", "send_lat", "--loop", "--devargs",
						 "soft,port=loop,engine=service"), 60000, &r), 0);
	check_one_line_error("irdma-perf: ", "engine=service needs a service lcore");
}

/* -a: every size from 2 bytes to 8 MiB, doubling, one row each, data checked per size. */
T_CASE(loop_all_sizes)
{
	unsigned long size = 2, b, it;
	const char *p;
	unsigned int rows = 0;

	T_EQ(run_tool(perf_exe, "sizes", "0-1", ARGS("--test", "send_lat", "-a", "-n", "5"),
		      120000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	p = strstr(r.out, " #bytes #iterations");
	for (p = p ? strchr(p, '\n') : NULL; p && sscanf(p + 1, " %lu %lu", &b, &it) == 2;
	     p = strchr(p + 1, '\n')) {
		T_EQ(b, size);
		T_EQ(it, 5);
		size *= 2;
		rows++;
	}
	T_EQ(rows, 23);
}

T_CASE(loop_all_on_one_lcore)
{
	static const char *const heads[] = { "RDMA_Write Latency Test", "Send Latency Test",
					     "RDMA_Read Latency Test",
					     "Atomic FETCH_AND_ADD Latency Test",
					     "RDMA_Write BW Test" };
	unsigned int i;

	T_EQ(run_tool(perf_exe, "all", "0", ARGS("--demo", "-n", "20", "-s", "64"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	for (i = 0; i < 5; i++)
		T_CHECK_MSG(strstr(r.out, heads[i]) != NULL, "no '%s'", heads[i]);
	T_CHECK(strstr(r.out, "irdma-perf: 5 tests passed (write_lat send_lat read_lat "
			      "atomic_lat write_bw), data verified") != NULL);
}

T_CASE(gen2_has_no_atomics_and_says_so)
{
	T_EQ(run_tool(perf_exe, "gen2", "0", ARGS("--loop", "--test", "atomic_lat", "--devargs",
						  "soft,port=loop,gen=2"), 30000, &r), 0);
	check_one_line_error("irdma-perf: ", "atomics need gen=3");
	T_EQ(run_tool(perf_exe, "gen2", "0", ARGS("--demo", "-n", "10", "--devargs",
						  "soft,port=loop,gen=2"), 60000, &r), 0);
	T_CHECK_MSG(r.status == 0, "exit %d, stderr:\n%s", r.status, r.err);
	T_CHECK(strstr(r.out, "4 tests passed (write_lat send_lat read_lat write_bw), data "
			      "verified, atomic_lat skipped (gen=2)") != NULL);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s <irdma-perf> <irdma-pingpong> [filter]\n", argv[0]);
		return 2;
	}
	perf_exe = argv[1];
	pp_exe = argv[2];
	argv[2] = argv[0];
	return t_main(argc - 2, argv + 2);
}
