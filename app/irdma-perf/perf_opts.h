/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perf_opts.h - irdma-perf's command line (the part after EAL's "--"): perftest's options
 * with perftest's meanings and defaults, plus --devargs, --loop, --demo and --test. Every
 * perftest option is in the table: what is not implemented fails with the reason (see
 * doc/guides/perftest-options.md). Plain C so the parser is unit-tested without EAL.
 */
#ifndef IRDMA_PERF_OPTS_H
#define IRDMA_PERF_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum perf_mode {
	PERF_WRITE_LAT,
	PERF_READ_LAT,
	PERF_SEND_LAT,
	PERF_ATOMIC_LAT,
	PERF_WRITE_BW,
	PERF_READ_BW,
	PERF_SEND_BW,
	PERF_ATOMIC_BW,
	PERF_MODE_COUNT,
	PERF_MODE_NONE = -1,
};

enum perf_atomic { PERF_FETCH_AND_ADD, PERF_CMP_AND_SWAP };

#define PERF_MAX_DEVARGS 2
#define PERF_MAX_SIZE (1u << 23)       /* -a goes up to 8 MiB, as perftest */
#define PERF_MAX_QPS 16                /* -q: QPs per test (each has its own buffer) */
#define PERF_DEFAULT_TIMEOUT_S 30
#define PERF_VERSION "6.06"            /* perftest's internal version we speak (the exchange) */

/** --output: print only this figure (perftest's "output verbosity"). */
enum perf_output { PERF_OUT_FULL, PERF_OUT_BANDWIDTH, PERF_OUT_MSG_RATE, PERF_OUT_LATENCY };

struct perf_opts {
	enum perf_mode mode;           /**< --test/alias; NONE with --demo */
	bool all_tests;                /**< --demo: the demo's sequence, in loop mode */
	bool loop;                     /**< --loop: both sides in this process */
	bool all_sizes;                /**< -a/--all: 2 B .. 8 MiB */
	bool size_set, iters_set, tx_depth_set;
	uint32_t size;                 /**< -s */
	uint64_t iters;                /**< -n */
	uint32_t mtu;                  /**< -m, bytes (0: the device's) */
	uint16_t tcp_port;             /**< -p */
	uint8_t ib_port;               /**< -i (accepted, must be 1) */
	int gid_index;                 /**< -x; -1: the best RoCE v2 GID (as perftest) */
	bool cpu_freq_ok;              /**< -F */
	uint32_t tx_depth;             /**< -t */
	uint32_t rx_depth;             /**< -r */
	uint32_t inline_size;          /**< -I */
	bool inline_set;
	enum perf_atomic atomic;       /**< -A */
	bool report_gbits;             /**< --report_gbits */
	uint32_t cq_mod;               /**< -Q (0: perftest's 100, at most tx_depth) */
	uint32_t post_list;            /**< -l: WRs per post call (1) */
	unsigned int num_qps;          /**< -q: QPs of the bandwidth tests (1), -n WRs each */
	uint32_t out_reads;            /**< -o (0: the device's maximum) */
	uint8_t qp_timeout;            /**< -u (14) */
	uint8_t sl;                    /**< -S (0) */
	uint8_t tos;                   /**< -T (0): traffic class of the GRH */
	uint8_t hop_limit;             /**< -L (64) */
	bool no_peak;                  /**< -N */
	bool histogram;                /**< -H */
	bool unsorted;                 /**< -U */
	bool report_both;              /**< --report-both (only with -b in perftest: no effect) */
	bool version;                  /**< -V: print the version and exit */
	bool quiet;                    /**< --quiet */
	bool use_srq;                  /**< --use-srq: the send tests receive through an SRQ */
	bool ud;                       /**< -c UD (send_lat) */
	bool duplex;                   /**< -b: both sides initiate (write/read/atomic_bw) */
	unsigned int duration_s;       /**< -D: post for this many seconds (write/read/atomic_bw) */
	double limit_bw;               /**< -w: fail below this average (the report's unit; 0: off) */
	double limit_msgrate;          /**< -y: fail below this message rate (Mpps; 0: off) */
	bool use_events;               /**< -e: sleep on CQ events (client/server mode) */
	bool rdma_cm;                  /**< -R: RDMA-CM instead of the TCP exchange */
	enum perf_output output;       /**< --output */
	unsigned int timeout_s;        /**< --timeout: watchdog for every wait */
	const char *server_host;       /**< positional: client mode when set */
	const char *devargs[PERF_MAX_DEVARGS];
	unsigned int n_devargs;
};

/** Human name of a mode ("write_lat"); NULL for an invalid one. */
const char *perf_mode_name(enum perf_mode m);
/** Mode from a name ("write_lat", "ib_write_lat", "irdma_write_lat", "write-lat"). */
enum perf_mode perf_mode_from_name(const char *name);
bool perf_mode_is_lat(enum perf_mode m);

/** perftest's default inline size for test @p m on a device of generation @p gen (0: none). */
uint32_t perf_default_inline(enum perf_mode m, unsigned int gen);

/** Fill the per-mode defaults that options left unset (size, iters, depths). */
void perf_opts_apply_defaults(struct perf_opts *o, enum perf_mode m);

/**
 * Parse @p argc/@p argv (tool options only; argv[0] is the program name, used for
 * argv[0]-style aliases such as a link named ib_write_lat).
 * @return 0; 1 for --help, 2 for -V (print and exit 0); -EINVAL with a one-line reason
 *   written into @p err.
 */
int perf_opts_parse(struct perf_opts *o, const char *prog, int argc, char **argv, char *err,
		    size_t errlen);

void perf_opts_usage(const char *prog);

/** What only a process of its own can get wrong: client/server mode on port=loop (which
 *  reaches devices of this process only). @return 0 or -EINVAL with @p err set. */
int perf_opts_check_port(const struct perf_opts *o, char *err, size_t errlen);

/** The option table (for the EAL-side check of tool options given before "--"). */
struct cli_opt;
const struct cli_opt *perf_opts_table(size_t *n);

#endif /* IRDMA_PERF_OPTS_H */
