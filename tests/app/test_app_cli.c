/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tools' option parsers and irdma-perf's report, without EAL: every error names what
 * is wrong; the latency statistics follow perftest's trimming and percentile rules; the
 * printed rows, heads and address lines are byte for byte those of perftest 4.5 in the rxe
 * captures (the .txt files of tests/data/rxe-pcaps).
 */
#include <errno.h>
#include <math.h>

#include "cli_opts.h"
#include "irdma_test.h"
#include "perf_opts.h"
#include "perf_report.h"
#include "pp_opts.h"

static char err[256];

static int perf_parse(struct perf_opts *o, const char *prog, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"--";
	while (*args)
		argv[argc++] = (char *)*args++;
	return perf_opts_parse(o, prog, argc, argv, err, sizeof(err));
}

#define PERF_ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void expect_perf_error(const char *prog, const char *const *args, const char *needle)
{
	struct perf_opts o;

	T_EQ(perf_parse(&o, prog, args), -EINVAL);
	T_CHECK_MSG(strstr(err, needle) != NULL, "error '%s' does not mention '%s'", err, needle);
	T_CHECK_MSG(strchr(err, '\n') == NULL, "error '%s' is not one line", err);
}

T_CASE(perf_options_defaults_and_aliases)
{
	struct perf_opts o;

	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop", "--test", "write_lat")), 0);
	T_EQ(o.mode, PERF_WRITE_LAT);
	T_CHECK(o.loop);
	T_EQ(o.tcp_port, 18515);
	perf_opts_apply_defaults(&o, o.mode);
	T_EQ(o.size, 2);
	T_EQ(o.iters, 1000);
	T_EQ(o.tx_depth, 1);

	T_EQ(perf_parse(&o, "/usr/bin/ib_write_bw", PERF_ARGS("--devargs", "soft,port=p0",
							   "10.0.0.1")), 0);
	T_EQ(o.mode, PERF_WRITE_BW);
	T_CHECK(o.server_host && strcmp(o.server_host, "10.0.0.1") == 0);
	perf_opts_apply_defaults(&o, o.mode);
	T_EQ(o.size, 65536);
	T_EQ(o.iters, 5000);
	T_EQ(o.tx_depth, 128);

	T_EQ(perf_parse(&o, "irdma_atomic_lat", PERF_ARGS("--loop", "-A", "CMP_AND_SWAP", "-n10",
							 "-x", "1", "-F", "--size=8")), 0);
	T_EQ(o.mode, PERF_ATOMIC_LAT);
	T_EQ(o.atomic, PERF_CMP_AND_SWAP);
	T_EQ(o.iters, 10);
	T_EQ(o.gid_index, 1);
	T_EQ(perf_mode_from_name("irdma-read-bw"), PERF_READ_BW);
	T_EQ(perf_mode_from_name("ib_send_lat"), PERF_SEND_LAT);
	T_EQ(perf_mode_from_name("irdma-perf"), PERF_MODE_NONE);

	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--demo")), 0);
	T_CHECK(o.all_tests && o.loop && !o.all_sizes);
	/* perftest's -a/--all: every size, in client/server mode too */
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--all", "--devargs", "soft,port=p0", "h")), 0);
	T_CHECK(o.all_sizes && !o.all_tests && !o.loop);
	/* perftest's defaults: the best GID (-1 until the device is known), inline in the
	 * write and send latency tests (101 B for E810-class irdma, 48 B for X722) */
	T_EQ(o.gid_index, -1);
	T_EQ(perf_default_inline(PERF_WRITE_LAT, 2), 101);
	T_EQ(perf_default_inline(PERF_SEND_LAT, 3), 101);
	T_EQ(perf_default_inline(PERF_SEND_LAT, 1), 48);
	T_EQ(perf_default_inline(PERF_READ_LAT, 2), 0);
	T_EQ(perf_default_inline(PERF_WRITE_BW, 2), 0);
	/* getopt_long as perftest: grouped flags, abbreviated long names, K/M sizes */
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop", "-aFN", "--iter", "7", "--te",
						    "send_bw", "-Q", "10", "-l4", "--output=bandwidth")),
	     0);
	T_CHECK(o.all_sizes && o.cpu_freq_ok && o.no_peak);
	T_EQ(o.iters, 7);
	T_EQ(o.mode, PERF_SEND_BW);
	T_EQ(o.cq_mod, 10);
	T_EQ(o.post_list, 4);
	T_EQ(o.output, PERF_OUT_BANDWIDTH);
	T_EQ(perf_parse(&o, "irdma_atomic_bw", PERF_ARGS("--loop", "-s", "8", "-o", "4", "-u", "16",
							"-S", "2", "-T", "32", "-L", "9")), 0);
	T_EQ(o.mode, PERF_ATOMIC_BW);
	T_EQ(o.out_reads, 4);
	T_CHECK(o.qp_timeout == 16 && o.sl == 2 && o.tos == 32 && o.hop_limit == 9);
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop", "-s", "64K", "-HU")), 0);
	T_EQ(o.size, 65536);
	T_CHECK(o.histogram && o.unsorted);
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("-V")), 2);
	/* no test: write_lat; no host and no device: both sides here */
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("-s", "8", "-n", "200")), 0);
	T_EQ(o.mode, PERF_WRITE_LAT);
	T_CHECK(o.loop);
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--devargs", "soft,port=p0")), 0);
	T_CHECK(!o.loop && o.server_host == NULL); /* a server */
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop", "--test", "read_bw", "-a", "-t", "4",
						    "-n", "3")), 0);
	perf_opts_apply_defaults(&o, o.mode);
	T_EQ(o.tx_depth, 3); /* capped at -n */
	T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--help")), 1);
}

T_CASE(perf_option_errors_name_the_problem)
{
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "--bogus"),
			  "unknown option '--bogus'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-Z"),
			  "unknown option '-Z'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "nope_lat"),
			  "unknown test 'nope_lat'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-s", "abc"),
			  "-s: size 'abc'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-s", "9999999999"),
			  "-s: size");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-m", "1000"),
			  "MTU '1000'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-n"),
			  "-n needs a value");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-n", "3"),
			  "at least 5 iterations");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "atomic_lat", "-A", "XOR"),
			  "atomic type 'XOR'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "atomic_lat", "-s", "16"),
			  "8 bytes");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-c", "UD"),
			  "-c UD: UD carries SENDs only");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "send_lat", "-c", "XX"),
			  "connection type 'XX' is not RC or UD");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-p", "0"),
			  "TCP port '0'");
	expect_perf_error("irdma-perf", PERF_ARGS("--test", "write_lat", "host"),
			  "needs --devargs");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "host"),
			  "takes no server host");
	expect_perf_error("irdma-perf", PERF_ARGS("--demo", "--test", "read_lat"), "exclusive");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--t", "x"), "ambiguous option '--t'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "send_bw", "-D", "5", "-b"),
			  "-b in send_bw: not supported yet with -D");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "send_bw", "-cUD", "-b"),
			  "-c UD with -b: not supported yet");
	expect_perf_error("irdma-perf", PERF_ARGS("--demo", "-D", "5"),
			  "-D: a duration is not for --demo");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_bw", "-a", "-D", "5"),
			  "-D: a duration is for one size, not with -a");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "-D", "5", "-U"),
			  "-U: with -D there are no samples");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_bw", "-D", "0"),
			  "duration '0'");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--use-srq"),
			  "--use-srq: only the send tests receive, not write_lat");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "send_lat", "-e"),
			  "-e: completion events need client/server mode");
	expect_perf_error("irdma-perf", PERF_ARGS("--devargs", "soft,port=p0", "-e"),
			  "-e: write_lat watches memory");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--run_infinitely"),
			  "--run_infinitely is not supported: ");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "-aR"),
			  "-R connects one RC QP to a peer through RDMA-CM: not with --loop");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "-z"), "-z/--comm_rdma_cm is not supported");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "-q", "2"),
			  "-q: several QPs are for the bandwidth tests, not write_lat");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_bw", "-q", "17"),
			  "-q: QPs '17' is not 1..16");
	{
		struct perf_opts o;

		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop", "--test", "send_bw", "-q4")), 0);
		T_EQ(o.num_qps, 4);
		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop")), 0);
		T_EQ(o.num_qps, 1);
		/* each QP has its own MR anyway */
		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop", "--test", "write_bw", "-q2",
							 "--mr_per_qp")), 0);
	}
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--output", "x"), "'x' is not bandwidth");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "read_lat", "-I", "8"),
			  "-I: inline data is for WRITE and SEND");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_bw", "-H"),
			  "latency tests only");
	{
		struct perf_opts o;

		/* a process of its own on port=loop cannot reach its peer */
		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--devargs", "soft,port=loop", "h")), 0);
		T_EQ(perf_opts_check_port(&o, err, sizeof(err)), -EINVAL);
		T_CHECK(strstr(err, "port=loop joins devices inside one process") != NULL);
		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--devargs", "soft,ip=198.18.0.1")), 0);
		T_EQ(perf_opts_check_port(&o, err, sizeof(err)), -EINVAL);
		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--devargs", "soft,port=net_memif0")), 0);
		T_EQ(perf_opts_check_port(&o, err, sizeof(err)), 0);
		T_EQ(perf_parse(&o, "irdma-perf", PERF_ARGS("--loop")), 0);
		T_EQ(perf_opts_check_port(&o, err, sizeof(err)), 0);
	}
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-s", "0"),
			  "at least 1 byte");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "--CPU-freq=1"),
			  "--CPU-freq takes no value");
	expect_perf_error("irdma-perf", PERF_ARGS("--loop", "--test", "write_lat", "-i", "2"),
			  "one port");
}

static int pp_parse(struct pp_opts *o, const char *prog, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"--";
	while (*args)
		argv[argc++] = (char *)*args++;
	return pp_opts_parse(o, prog, argc, argv, err, sizeof(err));
}

T_CASE(pingpong_options)
{
	struct pp_opts o;

	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "soft,port=x")), 0);
	T_CHECK(!o.ud);
	T_EQ(o.size, 4096);
	T_EQ(o.mtu, 1024);
	T_EQ(o.rx_depth, 500);
	T_EQ(o.iters, 1000);
	T_EQ(o.tcp_port, 18515);
	T_CHECK(o.server_host == NULL);
	T_EQ(pp_parse(&o, "/x/ibv_ud_pingpong", PERF_ARGS("--devargs", "soft,port=x", "-g", "1",
							  "-d", "rxe0", "-i", "1", "-e",
							  "-p12345", "peer")), 0);
	T_CHECK(o.ud);
	T_EQ(o.size, 2048);
	T_EQ(o.gid_index, 1);
	T_CHECK(o.use_events);
	T_EQ(o.tcp_port, 12345);
	T_CHECK(o.server_host && strcmp(o.server_host, "peer") == 0);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--ud", "--devargs=soft,port=p0", "-s", "64",
						      "--timeout", "2")), 0);
	T_CHECK(o.ud);
	T_EQ(o.size, 64);
	T_EQ(o.timeout_s, 2);
	T_EQ(o.gid_index, -1); /* the best GID, chosen on the device */
	T_CHECK(!o.check);
	/* getopt_long: grouped flags and abbreviations, as rdma-core's */
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "soft,port=p0", "-ecg1",
						      "--iter", "9")), 0);
	T_CHECK(o.use_events && o.check);
	T_EQ(o.gid_index, 1);
	T_EQ(o.iters, 9);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "soft,port=loop", "h")), 0);
	T_EQ(pp_opts_check_port(&o, err, sizeof(err)), -EINVAL);
	T_CHECK(strstr(err, "port=loop joins devices inside one process") != NULL);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "soft,port=p0", "-o")), -EINVAL);
	T_CHECK(strstr(err, "-o/--odp is not supported") != NULL);

	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("-s", "64")), -EINVAL);
	T_CHECK(strstr(err, "--devargs") != NULL);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "x", "-q")), -EINVAL);
	T_CHECK(strstr(err, "unknown option '-q'") != NULL);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "x", "-n", "0")), -EINVAL);
	T_CHECK(strstr(err, "iterations '0'") != NULL);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "x", "-m", "3000")), -EINVAL);
	T_CHECK(strstr(err, "MTU '3000'") != NULL);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "x", "a", "b")), -EINVAL);
	T_CHECK(strstr(err, "unexpected argument 'b'") != NULL);
	T_EQ(pp_parse(&o, "irdma-pingpong", PERF_ARGS("--devargs", "x", "-p")), -EINVAL);
	T_CHECK(strstr(err, "-p needs a value") != NULL);
}

/* perftest's rules on 5 samples: 4 deltas, the 2 largest trimmed, m = 2. */
/* The options both tools share are parsed by one piece of code: the same value gives the
 * same line from each, word for word (only the program differs). */
T_CASE(shared_options_fail_alike_in_both_tools)
{
	static const char *const bad[][3] = {
		{ "-p", "0", "-p: TCP port '0' is not 1..65535" },
		{ "--port", "70000", "--port: TCP port '70000' is not 1..65535" },
		{ "-m", "300", "-m: MTU '300' is not one of 256 512 1024 2048 4096" },
		{ "-i", "2", "-i: the device has one port (1), not '2'" },
		{ "--timeout", "0", "--timeout: timeout '0' is not 1..3600" },
	};
	struct perf_opts po;
	struct pp_opts qo;
	char perr[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ(perf_parse(&po, "irdma-perf", PERF_ARGS("--loop", bad[i][0], bad[i][1])),
		     -EINVAL);
		snprintf(perr, sizeof(perr), "%s", err);
		T_EQ(pp_parse(&qo, "irdma-pingpong", PERF_ARGS("--devargs", "x", bad[i][0],
							       bad[i][1])), -EINVAL);
		T_CHECK_MSG(strcmp(perr, bad[i][2]) == 0 && strcmp(err, bad[i][2]) == 0,
			    "'%s' / '%s', expected '%s'", perr, err, bad[i][2]);
	}
	/* the GID option is -x in perftest and -g in rdma-core */
	T_EQ(perf_parse(&po, "irdma-perf", PERF_ARGS("--loop", "-x", "256")), -EINVAL);
	T_CHECK(strcmp(err, "-x: GID index '256' is not 0..255") == 0);
	T_EQ(pp_parse(&qo, "irdma-pingpong", PERF_ARGS("--devargs", "x", "-g", "256")), -EINVAL);
	T_CHECK(strcmp(err, "-g: GID index '256' is not 0..255") == 0);
	/* a second server host */
	T_EQ(perf_parse(&po, "irdma-perf", PERF_ARGS("--devargs", "soft,port=p0", "h1", "h2")),
	     -EINVAL);
	T_CHECK(strcmp(err, "unexpected argument 'h2' (server host is 'h1')") == 0);
	T_EQ(pp_parse(&qo, "irdma-pingpong", PERF_ARGS("--devargs", "x", "h1", "h2")), -EINVAL);
	T_CHECK(strcmp(err, "unexpected argument 'h2' (server host is 'h1')") == 0);
	/* port=loop: the key, not a value ending in "port=" */
	T_CHECK(cli_devargs_is_loop("soft,port=loop"));
	T_CHECK(cli_devargs_is_loop("soft,ip=1.2.3.4"));
	T_CHECK(cli_devargs_is_loop("soft,port=loop,gen=3"));
	T_CHECK(!cli_devargs_is_loop("soft,port=loop0"));
	T_CHECK(!cli_devargs_is_loop("soft,port=net_memif0"));
	T_CHECK(!cli_devargs_is_loop("soft,xport=loop,port=p0"));
}

T_CASE(latency_statistics_follow_perftest)
{
	/* 1 MHz TSC: a tick is a microsecond. Deltas 10, 40, 20, 1000 (rtt 1). */
	const uint64_t t[5] = { 0, 10, 50, 70, 1070 };
	/* deltas 1..100 (rtt 2): samples 0.5 .. 50 */
	uint64_t u[101];
	double scratch[100];
	struct perf_lat_stats st;
	unsigned int i;

	T_EQ(perf_lat_compute(t, 5, 1000000, 1, scratch, &st), 0);
	T_CHECK(st.t_min == 10.0);
	T_CHECK(st.t_max == 40.0);          /* sorted 10 20 40 1000: s[m] = s[2] */
	T_CHECK(st.t_typical == 15.0);      /* median of {10, 20} */
	T_CHECK(st.t_avg == 15.0);
	T_CHECK(fabs(st.t_stdev - 5.0) < 1e-9);
	T_CHECK(st.p99 == 40.0 && st.p999 == 40.0);
	T_EQ(st.iters, 5);

	u[0] = 0;
	for (i = 1; i <= 100; i++)
		u[i] = u[i - 1] + i;
	T_EQ(perf_lat_compute(u, 101, 1000000, 2, scratch, &st), 0);
	/* 100 samples 0.5..50, trimmed to m = 98: 0.5 .. 49 */
	T_CHECK(st.t_min == 0.5);
	T_CHECK(st.t_max == 49.5);          /* s[98] */
	T_CHECK(st.t_typical == 24.75);     /* (s[48] + s[49]) / 2 = (24.5 + 25) / 2 */
	T_CHECK(fabs(st.t_avg - 24.75) < 1e-9);
	T_CHECK(st.p99 == 49.5);            /* s[ceil(97.02)] = s[98] */
	T_CHECK(st.p999 == 49.5);
	T_EQ(perf_lat_compute(u, 3, 1000000, 1, scratch, &st), -EINVAL);
}

T_CASE(bandwidth_figures)
{
	/* 4 messages of 1 MiB, 1 GHz TSC, one signaled every 2: posted at 0, 0, 1e6, 1e6 ns,
	 * completions of #1 at 2e6 and #3 at 4e6. */
	const uint64_t tp[4] = { 0, 0, 1000000, 1000000 };
	const uint64_t tc[4] = { 0, 2000000, 0, 4000000 };
	struct perf_bw_stats st;

	perf_bw_compute(tp, tc, 4, 1u << 20, 2, 1000000000ull, false, &st);
	T_CHECK(fabs(st.bw_avg - 1000.0) < 1e-6);      /* 4 MiB in 4 ms */
	T_CHECK(fabs(st.msg_rate - 0.001) < 1e-12);    /* 1000 msg/s */
	/* best run: messages 2..3, 3 ms for 2 (1.5 ms each), or 0..1 in 2 ms (1 ms each) */
	T_CHECK(fabs(st.bw_peak - 1000.0) < 1e-6);
	perf_bw_compute(tp, tc, 4, 125000000, 2, 1000000000ull, true, &st);
	T_CHECK(fabs(st.bw_avg - 1000.0) < 1e-6);      /* Gb/s: 4 x 1 Gb in 4 ms */
}

static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	memset(buf, 0, sizeof(buf));
	fn(f, arg);
	fclose(f);
	return buf;
}

static void lat_row(FILE *f, const void *arg)
{
	perf_print_lat_row(f, 64, arg);
}

static void lat_head(FILE *f, const void *arg)
{
	(void)arg;
	perf_print_lat_head(f);
}

static void bw_row(FILE *f, const void *arg)
{
	perf_print_bw_row(f, arg);
}

static void bw_head(FILE *f, const void *arg)
{
	(void)arg;
	perf_print_bw_head(f, false);
}

static void addr_rkey(FILE *f, const void *arg)
{
	perf_print_addr(f, "local", arg, PERF_ADDR_RKEY);
}

static void addr_out(FILE *f, const void *arg)
{
	perf_print_addr(f, "remote", arg, PERF_ADDR_OUT_RKEY);
}

/* Lines copied from the perftest 4.5 outputs in tests/data/rxe-pcaps. */
T_CASE(tables_match_perftest_byte_for_byte)
{
	const struct perf_lat_stats lat = { 5, 193.41, 645.08, 214.38, 214.38, 20.0, 645.08, 645.08 };
	const struct perf_bw_stats bw = { 3000, 5, 4.39, 2.06, 0.000719 };
	const struct perf_addr a = { 0, 0x18, 0xe139ce, 0xa29, 1, 0x556ce0f4f000ull,
				     { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 198, 18, 0, 11 } };
	const struct perf_addr b = { 0, 0x19, 0xc7dd2e, 0xc94, 0x80, 0x55d55b117000ull,
				     { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 198, 18, 0, 12 } };
	const char *s;

	s = capture(lat_head, NULL);
	T_CHECK_MSG(!strcmp(s, " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
			       "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% "
			       "percentile[usec] \n"), "head: '%s'", s);
	s = capture(lat_row, &lat);
	T_CHECK_MSG(!strcmp(s, " 64      5          193.41         645.08       214.38   \t"
			       "       214.38      \t20.00  \t\t645.08  \t\t645.08 \n"), "row: '%s'", s);
	s = capture(bw_head, NULL);
	T_CHECK_MSG(!strcmp(s, " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]"
			       "   MsgRate[Mpps]\n"), "bw head: '%s'", s);
	s = capture(bw_row, &bw);
	T_CHECK_MSG(!strcmp(s, " 3000       5                4.39               2.06   \t\t"
			       "   0.000719\n"), "bw row: '%s'", s);
	s = capture(addr_rkey, &a);
	T_CHECK_MSG(!strcmp(s, " local address: LID 0000 QPN 0x0018 PSN 0xe139ce RKey 0x000a29 "
			       "VAddr 0x00556ce0f4f000\n GID: 00:00:00:00:00:00:00:00:00:00:255:255:"
			       "198:18:00:11\n"), "addr: '%s'", s);
	s = capture(addr_out, &b);
	T_CHECK_MSG(!strcmp(s, " remote address: LID 0000 QPN 0x0019 PSN 0xc7dd2e OUT 0x80 RKey "
			       "0x000c94 VAddr 0x0055d55b117000\n GID: 00:00:00:00:00:00:00:00:00:00:"
			       "255:255:198:18:00:12\n"), "addr: '%s'", s);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
