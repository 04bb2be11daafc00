/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perf_report.h - perftest's result tables from TSC timestamps: the latency statistics
 * (perftest's trimming and percentile rules) and the bandwidth figures, printed in the
 * exact layout of perftest 4.5 so scripts that parse ib_*_lat / ib_*_bw output parse ours.
 * Plain C: unit-tested without EAL.
 */
#ifndef IRDMA_PERF_REPORT_H
#define IRDMA_PERF_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PERF_RESULT_LINE \
	"---------------------------------------------------------------------------------------"

struct perf_lat_stats {
	uint64_t iters;
	double t_min, t_max, t_typical, t_avg, t_stdev, p99, p999; /* microseconds */
};

/**
 * Latency from the post timestamps of one side: samples are tposted[i+1] - tposted[i]
 * (iters - 1 of them), divided by @p rtt_factor (2 for ping-pong tests: a sample is a round
 * trip). As perftest: sort, drop the 2 largest (m = iters - 3 left), t_min = s[0],
 * t_max = s[m], t_typical = median of the m, t_avg = their mean, 99% = s[ceil(.99 m)],
 * 99.9% = s[ceil(.999 m)]. Unlike perftest (which squares an integer-truncated difference)
 * the standard deviation is computed in floating point.
 * @p scratch holds iters - 1 values. @return 0, or -EINVAL with fewer than 4 timestamps.
 */
int perf_lat_compute(const uint64_t *tposted, uint64_t iters, uint64_t tsc_hz,
		     unsigned int rtt_factor, double *scratch, struct perf_lat_stats *st);

struct perf_bw_stats {
	uint64_t size, iters;
	double bw_peak, bw_avg;  /* MiB/s (perftest's "MB/sec"), or Gb/s with report_gbits */
	double msg_rate;         /* Mpps */
};

/**
 * Bandwidth from post and completion timestamps: average = size x iters over
 * (tcompleted[iters-1] - tposted[0]); peak = size over the best time per message of any
 * run i..j (post of i to completion of j, j signaled, runs of at most 4096 messages).
 * tcompleted[j] is only read for signaled indices (j % cq_mod == cq_mod - 1, and the last).
 */
void perf_bw_compute(const uint64_t *tposted, const uint64_t *tcompleted, uint64_t iters,
		     uint64_t size, unsigned int cq_mod, uint64_t tsc_hz, bool gbits,
		     struct perf_bw_stats *st);

/** Table heads and rows, perftest 4.5 layout (rows end without a newline in perftest's
 *  source; here they end with one). */
void perf_print_lat_head(FILE *f);
void perf_print_lat_row(FILE *f, uint64_t size, const struct perf_lat_stats *st);
/** -D in the latency tests: perftest's table of the iterations done, their average
 *  latency and the transactions per second. */
void perf_print_lat_dur_head(FILE *f);
void perf_print_lat_dur_row(FILE *f, uint64_t size, uint64_t iters, double t_avg, double tps);
void perf_print_bw_head(FILE *f, bool gbits);
void perf_print_bw_row(FILE *f, const struct perf_bw_stats *st);

/** One side's connection line pair (perftest's " local address: ..." and " GID: ..."). */
struct perf_addr {
	uint16_t lid;
	uint32_t qpn, psn, rkey, out_reads;
	uint64_t vaddr;
	uint8_t gid[16];
};
enum perf_addr_style { PERF_ADDR_PLAIN, PERF_ADDR_RKEY, PERF_ADDR_OUT_RKEY };
void perf_print_addr(FILE *f, const char *which, const struct perf_addr *a,
		     enum perf_addr_style style);

#endif /* IRDMA_PERF_REPORT_H */

/** perftest's header block, from the dashes before the title to the line before the
 *  addresses. */
struct perf_header {
	const char *title;         /**< "RDMA_Write Latency Test" */
	const char *device;
	unsigned int num_qps;      /**< -q (0: 1) */
	bool show_tx_depth;        /**< the client's block */
	uint32_t tx_depth;
	uint32_t post_list;        /**< printed when above 1 */
	bool srq;                  /**< "Using SRQ : ON" */
	bool ud;                   /**< "Connection type : UD" */
	bool show_rx_depth;        /**< the receiving side of the send tests */
	uint32_t rx_depth;
	bool bw;                   /**< adds "CQ Moderation" */
	uint32_t cq_mod;
	uint32_t mtu;
	int gid_index;
	bool reads;                /**< "Outstand reads" instead of "Max inline data" */
	uint32_t out_reads;
	uint32_t max_inline;
	const char *method;        /**< "Ethernet" (TCP exchange) or "In-process loop" */
};
void perf_print_header(FILE *f, const struct perf_header *h);
/** Title of a test ("RDMA_Write Latency Test", "Atomic FETCH_AND_ADD Latency Test"). */
const char *perf_title(int mode, int atomic);
