/* SPDX-License-Identifier: BSD-3-Clause */
/* perftest-style latency statistics and report table. */
#ifndef PERF_STATS_H
#define PERF_STATS_H

#include <stdint.h>
#include <stdio.h>

struct perf_lat {
	double t_min, t_max, t_typical, t_avg, t_stdev, p99, p999; /* microseconds */
	uint64_t iters;
};

/*
 * From the TSC value at each post (@p tposted, @p iters entries): the deltas between
 * consecutive posts, divided by @p rtt_factor (2 for a ping-pong: one delta is a round trip),
 * sorted, the two largest dropped (perftest's tail rule). Returns -1 with fewer than 4 posts.
 * Unlike perftest, the standard deviation is computed in floating point (perftest truncates
 * each difference to an integer, so sub-microsecond spreads print 0.00).
 */
int perf_lat_compute(const uint64_t *tposted, uint64_t iters, double tsc_hz, int rtt_factor,
		     struct perf_lat *out);

void perf_lat_header(FILE *f);
void perf_lat_row(FILE *f, uint64_t bytes, const struct perf_lat *l);
void perf_rule(FILE *f);

#endif /* PERF_STATS_H */
