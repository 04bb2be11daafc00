/* SPDX-License-Identifier: BSD-3-Clause */
/* perftest's result tables: statistics and the exact printed layout. */
#include "perf_report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define LAT_TAIL 2 /* largest samples dropped, as perftest */
#define PEAK_WINDOW 4096

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int perf_lat_compute(const uint64_t *tposted, uint64_t iters, uint64_t tsc_hz,
		     unsigned int rtt_factor, double *s, struct perf_lat_stats *st)
{
	double cycles_per_us = (double)tsc_hz / 1e6 * rtt_factor, sum = 0, var = 0;
	uint64_t n, m, i;

	if (iters < 4 || !tsc_hz || !rtt_factor)
		return -EINVAL;
	n = iters - 1;
	for (i = 0; i < n; i++)
		s[i] = (double)(tposted[i + 1] - tposted[i]) / cycles_per_us;
	qsort(s, n, sizeof(*s), cmp_double);
	m = n - LAT_TAIL;
	for (i = 0; i < m; i++)
		sum += s[i];
	st->iters = iters;
	st->t_avg = sum / (double)m;
	for (i = 0; i < m; i++)
		var += (s[i] - st->t_avg) * (s[i] - st->t_avg);
	st->t_stdev = sqrt(var / (double)m);
	st->t_min = s[0];
	st->t_max = s[m];
	st->t_typical = m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
	st->p99 = s[(uint64_t)ceil(0.99 * (double)m)];
	st->p999 = s[(uint64_t)ceil(0.999 * (double)m)];
	return 0;
}

void perf_bw_compute(const uint64_t *tposted, const uint64_t *tcompleted, uint64_t iters,
		     uint64_t size, unsigned int cq_mod, uint64_t tsc_hz, bool gbits,
		     struct perf_bw_stats *st)
{
	double unit = gbits ? 125000000.0 : (double)0x100000;
	double elapsed, best = 0;
	uint64_t i, j;

	st->size = size;
	st->iters = iters;
	elapsed = (double)(tcompleted[iters - 1] - tposted[0]) / (double)tsc_hz;
	/* Peak: the best time per message over any run of messages i..j, from the post of i
	 * to the completion of j (as perftest; j only where a completion was signaled, and
	 * runs capped at PEAK_WINDOW messages to stay linear in iters). */
	for (j = 0; j < iters; j++) {
		if (!(j % cq_mod == cq_mod - 1 || j == iters - 1))
			continue;
		for (i = j >= PEAK_WINDOW ? j - PEAK_WINDOW + 1 : 0; i <= j; i++) {
			double per_msg;

			if (tcompleted[j] <= tposted[i])
				continue;
			per_msg = (double)(tcompleted[j] - tposted[i]) / (double)(j - i + 1);
			if (best == 0 || per_msg < best)
				best = per_msg;
		}
	}
	st->bw_avg = elapsed > 0 ? (double)size * (double)iters / elapsed / unit : 0;
	st->bw_peak = best > 0 ? (double)size * (double)tsc_hz / best / unit : 0;
	st->msg_rate = elapsed > 0 ? (double)iters / elapsed / 1e6 : 0;
}

void perf_print_lat_head(FILE *f)
{
	fprintf(f, " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    "
		   "t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec] \n");
}

void perf_print_lat_dur_head(FILE *f)
{
	fprintf(f, " #bytes        #iterations       t_avg[usec]    tps average\n");
}

void perf_print_lat_dur_row(FILE *f, uint64_t size, uint64_t iters, double t_avg, double tps)
{
	fprintf(f, " %-7" PRIu64 "       %" PRIu64 "            %-7.2f        %-7.2f\n", size, iters,
		t_avg, tps);
}

void perf_print_lat_row(FILE *f, uint64_t size, const struct perf_lat_stats *st)
{
	fprintf(f, " %-7" PRIu64 " %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  \t"
		   "       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
		size, st->iters, st->t_min, st->t_max, st->t_typical, st->t_avg, st->t_stdev,
		st->p99, st->p999);
}

void perf_print_bw_head(FILE *f, bool gbits)
{
	const char *u = gbits ? "Gb/sec" : "MB/sec";

	fprintf(f, " #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n",
		u, u);
}

void perf_print_bw_row(FILE *f, const struct perf_bw_stats *st)
{
	fprintf(f, " %-7" PRIu64 "    %-10" PRIu64 "       %-7.2f            %-7.2f\t\t   %-7.6f\n",
		st->size, st->iters, st->bw_peak, st->bw_avg, st->msg_rate);
}

void perf_print_addr(FILE *f, const char *which, const struct perf_addr *a,
		     enum perf_addr_style style)
{
	int i;

	fprintf(f, " %s address: LID %04x QPN %#06x PSN %#06x", which, a->lid, a->qpn, a->psn);
	if (style == PERF_ADDR_OUT_RKEY)
		fprintf(f, " OUT %#04x", a->out_reads);
	if (style != PERF_ADDR_PLAIN)
		fprintf(f, " RKey %#08x VAddr %#016" PRIx64, a->rkey, a->vaddr);
	fprintf(f, "\n GID: ");
	for (i = 0; i < 16; i++)
		fprintf(f, "%02d%s", a->gid[i], i < 15 ? ":" : "\n");
}

void perf_print_header(FILE *f, const struct perf_header *h)
{
	fprintf(f, "%s\n", PERF_RESULT_LINE);
	fprintf(f, "                    %s\n", h->title);
	fprintf(f, " Dual-port       : OFF\t\tDevice         : %s\n", h->device);
	fprintf(f, " Number of qps   : %u\t\tTransport type : IB\n", h->num_qps ? h->num_qps : 1);
	fprintf(f, " Connection type : %s\t\tUsing SRQ      : %s\n", h->ud ? "UD" : "RC",
		h->srq ? "ON" : "OFF");
	fprintf(f, " PCIe relax order: OFF\n");
	fprintf(f, " ibv_wr* API     : OFF\n");
	if (h->show_tx_depth)
		fprintf(f, " TX depth        : %u\n", h->tx_depth);
	if (h->post_list > 1)
		fprintf(f, " Post List       : %u\n", h->post_list);
	if (h->show_rx_depth)
		fprintf(f, " RX depth        : %u\n", h->rx_depth);
	if (h->bw)
		fprintf(f, " CQ Moderation   : %u\n", h->cq_mod);
	fprintf(f, " Mtu             : %u[B]\n", h->mtu);
	fprintf(f, " Link type       : Ethernet\n");
	fprintf(f, " GID index       : %d\n", h->gid_index);
	if (h->reads)
		fprintf(f, " Outstand reads  : %u\n", h->out_reads);
	else
		fprintf(f, " Max inline data : %u[B]\n", h->max_inline);
	fprintf(f, " rdma_cm QPs\t : OFF\n");
	fprintf(f, " Data ex. method : %s\n", h->method);
	fprintf(f, "%s\n", PERF_RESULT_LINE);
}

const char *perf_title(int mode, int atomic)
{
	static const char *const titles[] = {
		"RDMA_Write Latency Test", "RDMA_Read Latency Test", "Send Latency Test",
		NULL, "RDMA_Write BW Test", "RDMA_Read BW Test", "Send BW Test",
	};

	if (mode == 3)
		return atomic ? "Atomic CMP_AND_SWAP Latency Test" :
				"Atomic FETCH_AND_ADD Latency Test";
	if (mode == 7)
		return atomic ? "Atomic CMP_AND_SWAP BW Test" : "Atomic FETCH_AND_ADD BW Test";
	return mode >= 0 && mode < 7 ? titles[mode] : "?";
}
