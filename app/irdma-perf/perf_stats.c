/* SPDX-License-Identifier: BSD-3-Clause */
/* perftest-style latency statistics (the math and the table layout of ib_write_lat). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "perf_stats.h"

#define LAT_MEASURE_TAIL 2

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int
perf_lat_compute(const uint64_t *tposted, uint64_t iters, double tsc_hz, int rtt_factor,
		 struct perf_lat *out)
{
	double per_us = tsc_hz / 1e6 * rtt_factor, sum = 0, sq = 0;
	uint64_t *d, i, m, n = iters - 1;

	if (iters < 4)
		return -1;
	d = malloc(n * sizeof(*d));
	if (d == NULL)
		return -1;
	for (i = 0; i < n; i++)
		d[i] = tposted[i + 1] - tposted[i];
	qsort(d, n, sizeof(*d), cmp_u64);
	m = n - LAT_MEASURE_TAIL; /* = iters - 3, the last index kept */
	for (i = 0; i < m; i++)
		sum += (double)d[i];
	out->iters = iters;
	out->t_min = (double)d[0] / per_us;
	out->t_max = (double)d[m] / per_us;
	out->t_typical = (double)d[m / 2] / per_us;
	out->t_avg = sum / (double)m / per_us;
	for (i = 0; i < m; i++) {
		double x = (double)d[i] / per_us - out->t_avg;

		sq += x * x;
	}
	out->t_stdev = sqrt(sq / (double)m);
	out->p99 = (double)d[(uint64_t)ceil(0.99 * (double)m)] / per_us;
	out->p999 = (double)d[(uint64_t)ceil(0.999 * (double)m)] / per_us;
	free(d);
	return 0;
}

void
perf_rule(FILE *f)
{
	fprintf(f, "---------------------------------------------------------------------------------------\n");
}

void
perf_lat_header(FILE *f)
{
	fprintf(f, " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
		"t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec] \n");
}

void
perf_lat_row(FILE *f, uint64_t bytes, const struct perf_lat *l)
{
	fprintf(f, " %-7" PRIu64 " %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  \t       "
		"%-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n", bytes, l->iters, l->t_min, l->t_max,
		l->t_typical, l->t_avg, l->t_stdev, l->p99, l->p999);
}
