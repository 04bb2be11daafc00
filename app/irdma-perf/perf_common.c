/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the loop and the client/server runners. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include "perf_run.h"

void perf_params_of(const struct perf_opts *o, enum perf_mode m, uint64_t size,
		    struct perf_params *p)
{
	struct perf_opts d = *o;

	perf_opts_apply_defaults(&d, m);
	memset(p, 0, sizeof(*p));
	p->mode = m;
	p->atomic = o->atomic;
	p->size = m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW ? 8 : size;
	p->iters = d.iters;
	p->tx_depth = d.tx_depth;
	p->rx_depth = RTE_MIN((uint64_t)d.rx_depth, d.iters);
	p->inline_size = d.inline_size;
	p->post_list = o->post_list;
	p->duplex = o->duplex;
	p->open_end = m == PERF_SEND_BW && !o->duplex && (o->duration_s || o->ud);
	if (o->duration_s) {
		p->duration_tsc = (uint64_t)o->duration_s * rte_get_tsc_hz();
		p->iters = UINT64_MAX >> 1; /* until the time is up */
		p->progress = !o->quiet;
		p->gbits = o->report_gbits;
	}
	/* perftest signals one WR in 100 (-Q), never more than the queue holds. */
	p->cq_mod = RTE_MIN(o->cq_mod ? o->cq_mod : 100u, p->tx_depth);
	if (!p->cq_mod)
		p->cq_mod = 1;
}

int perf_ud_sizes(const struct perf_opts *o, uint32_t mtu, uint64_t *first, uint64_t *last,
		  char *err, size_t errlen)
{
	if (!o->ud || *last <= mtu)
		return 0;
	if (o->all_sizes) {
		*last = mtu; /* -a with UD: up to the MTU, as perftest */
		return 0;
	}
	if (o->size_set) {
		snprintf(err, errlen, "-s %" PRIu64 ": a UD message must fit the path MTU (%u bytes)",
			 *last, mtu);
		return -EINVAL;
	}
	*first = *last = mtu; /* the test's default size, lowered to the MTU as perftest does */
	return 0;
}

void perf_res_cfg_of(const struct perf_opts *o, enum perf_mode m, const struct perf_params *p,
		     uint64_t max_size, struct perf_res_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->max_size = max_size;
	cfg->tx_depth = p->tx_depth;
	cfg->rx_depth = p->rx_depth;
	cfg->inline_size = p->inline_size;
	cfg->inline_auto = !o->inline_set;
	cfg->mode = m;
	cfg->gid_index = o->gid_index;
	cfg->out_reads = o->out_reads;
	cfg->qp_timeout = o->qp_timeout;
	cfg->sl = o->sl;
	cfg->tos = o->tos;
	cfg->hop_limit = o->hop_limit;
	cfg->use_srq = o->use_srq;
	cfg->ud = o->ud;
	cfg->events = o->use_events;
	cfg->atomics = m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW;
	cfg->reads = m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW || m == PERF_READ_LAT ||
		     m == PERF_READ_BW;
}

void perf_addr_of(const struct perftest_dest *d, struct perf_addr *a)
{
	a->lid = d->lid;
	a->qpn = d->qpn;
	a->psn = d->psn;
	a->rkey = d->rkey;
	a->out_reads = d->out_reads;
	a->vaddr = d->vaddr;
	memcpy(a->gid, d->gid, 16);
}

enum perf_addr_style perf_addr_style_of(enum perf_mode m)
{
	switch (m) {
	case PERF_READ_LAT:
	case PERF_READ_BW:
		return PERF_ADDR_OUT_RKEY;
	case PERF_WRITE_LAT:
	case PERF_WRITE_BW:
		return PERF_ADDR_RKEY;
	default:
		return PERF_ADDR_PLAIN;
	}
}

void perf_header_of(const struct perf_opts *o, const struct perf_params *p,
		    const struct perf_res *r, bool client, uint32_t mtu, const char *method,
		    struct perf_header *h)
{
	bool bw = !perf_mode_is_lat(p->mode);

	memset(h, 0, sizeof(*h));
	h->title = perf_title(p->mode, p->atomic == PERF_CMP_AND_SWAP);
	h->device = r->info.name;
	h->num_qps = o->num_qps;
	h->show_tx_depth = client || o->duplex;
	h->tx_depth = p->tx_depth;
	h->post_list = p->post_list;
	h->srq = r->srq != NULL;
	h->ud = r->ud;
	h->bw = bw;
	h->cq_mod = p->cq_mod;
	h->mtu = mtu;
	h->gid_index = r->gid_index;
	h->reads = p->mode == PERF_READ_LAT || p->mode == PERF_READ_BW ||
		   p->mode == PERF_ATOMIC_LAT || p->mode == PERF_ATOMIC_BW;
	h->out_reads = r->out_reads;
	h->max_inline = r->max_inline;
	/* perftest prints the RX depth on the receiving side of the send tests */
	h->show_rx_depth = (!client || o->duplex) &&
			   (p->mode == PERF_SEND_LAT || p->mode == PERF_SEND_BW);
	h->rx_depth = p->rx_depth;
	h->method = method;
}

static void bw_of_one(const struct perf_side *s, const struct perf_opts *o,
		      struct perf_bw_stats *st)
{
	const struct perf_params *p = s->p;
	uint64_t hz = rte_get_tsc_hz(), t0 = 0, t1 = 0, n = p->iters;
	double unit = o->report_gbits ? 125000000.0 : (double)0x100000, el;

	if (p->mode == PERF_SEND_BW && !s->client && !p->duplex) {
		/* perftest's send_bw server: its receives, first to last, no peak (with -D or
		 * UD: those that came) */
		t0 = s->t_rx_first;
		t1 = s->t_rx_last;
		n = s->rcnt;
	} else if (p->duration_tsc) {
		/* -D: what was posted until the time was up, no peak (as perftest) */
		t0 = s->t_first;
		t1 = s->t_last;
		n = s->limit;
	} else {
		perf_bw_compute(s->tposted, s->tcompleted, p->iters, p->size, p->cq_mod, hz,
				o->report_gbits, st);
		if (o->no_peak)
			st->bw_peak = 0;
		return;
	}
	memset(st, 0, sizeof(*st));
	el = (double)(t1 - t0) / (double)hz;
	st->size = p->size;
	st->iters = n;
	st->bw_avg = el > 0 ? (double)p->size * (double)n / el / unit : 0;
	st->msg_rate = el > 0 ? (double)n / el / 1e6 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* -q: the QPs' WRs as one stream, as perftest counts them: the k-th post and the k-th
 * completion of all QPs together (an unsignaled WR completes with the next signaled one). */
static int bw_of_many(const struct perf_side *s, unsigned int nq, const struct perf_opts *o,
		      struct perf_bw_stats *st)
{
	const struct perf_params *p = s[0].p;
	uint64_t iters = p->iters, total = iters * nq, k = 0, i, t;
	uint64_t *posted = malloc(total * sizeof(uint64_t));
	uint64_t *completed = malloc(total * sizeof(uint64_t));
	unsigned int q;

	if (!posted || !completed) {
		free(posted);
		free(completed);
		return -ENOMEM;
	}
	for (q = 0; q < nq; q++) {
		t = s[q].tcompleted[iters - 1];
		for (i = iters; i-- > 0; k++) {
			if (i % p->cq_mod == p->cq_mod - 1 || i == iters - 1)
				t = s[q].tcompleted[i];
			posted[k] = s[q].tposted[i];
			completed[k] = t;
		}
	}
	qsort(posted, total, sizeof(uint64_t), cmp_u64);
	qsort(completed, total, sizeof(uint64_t), cmp_u64);
	/* the row shows the WRs of all QPs, as perftest 4.5's (-n on each) */
	perf_bw_compute(posted, completed, total, p->size, p->cq_mod, rte_get_tsc_hz(),
			o->report_gbits, st);
	if (o->no_peak)
		st->bw_peak = 0;
	free(posted);
	free(completed);
	return 0;
}

void perf_bw_of(const struct perf_side *s, unsigned int nq, const struct perf_opts *o,
		struct perf_bw_stats *st)
{
	const struct perf_params *p = s[0].p;
	uint64_t t0 = UINT64_MAX, t1 = 0, n = 0;
	double unit = o->report_gbits ? 125000000.0 : (double)0x100000, el;
	unsigned int q;
	bool server = p->mode == PERF_SEND_BW && !s[0].client && !p->duplex;

	if (nq == 1) {
		bw_of_one(s, o, st);
		return;
	}
	if (!server && !p->duration_tsc && bw_of_many(s, nq, o, st) == 0)
		return;
	/* several QPs without per-WR times (the send_bw server's receives, -D), or no memory
	 * for them: from the first to the last event of any QP, no peak */
	for (q = 0; q < nq; q++) {
		uint64_t a = server ? s[q].t_rx_first : s[q].t_first;
		uint64_t b = server ? s[q].t_rx_last : s[q].t_last;

		if (server && !s[q].rcnt)
			continue;
		t0 = RTE_MIN(t0, a);
		t1 = RTE_MAX(t1, b);
		n += server ? s[q].rcnt : p->duration_tsc ? s[q].limit : p->iters;
	}
	if (t0 > t1)
		t0 = t1 = 0;
	memset(st, 0, sizeof(*st));
	el = (double)(t1 - t0) / (double)rte_get_tsc_hz();
	st->size = p->size;
	st->iters = n; /* all QPs' */
	st->bw_avg = el > 0 ? (double)p->size * (double)n / el / unit : 0;
	st->msg_rate = el > 0 ? (double)n / el / 1e6 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* -U (in order) and -H (sorted): perftest's "#, usec" lists of the samples. */
static void print_samples(FILE *f, const struct perf_side *s, unsigned int rtt, uint64_t hz,
			  bool sorted, double *scratch)
{
	uint64_t i, n = s->p->iters - 1;

	for (i = 0; i < n; i++)
		scratch[i] = (double)(s->tposted[i + 1] - s->tposted[i]) * 1e6 / (double)hz / rtt;
	if (sorted)
		qsort(scratch, n, sizeof(double), cmp_double);
	fprintf(f, "#, usec\n");
	for (i = 0; i < n; i++)
		fprintf(f, "%" PRIu64 ", %g\n", i + 1, scratch[i]);
}

int perf_check_limits(const struct perf_opts *o, const struct perf_bw_stats *st)
{
	/* perftest's wording, on stderr */
	if (o->limit_bw > 0 && st->bw_avg < o->limit_bw) {
		fprintf(stderr, "irdma-perf: Error: BW result is below bw limit (%.2f < %.2f %s)\n",
			st->bw_avg, o->limit_bw, o->report_gbits ? "Gb/sec" : "MB/sec");
		return -ERANGE;
	}
	if (o->limit_msgrate > 0 && st->msg_rate < o->limit_msgrate) {
		fprintf(stderr, "irdma-perf: Error: Msg rate is below msg_rate limit (%.6f < %.6f "
			"Mpps)\n", st->msg_rate, o->limit_msgrate);
		return -ERANGE;
	}
	return 0;
}

int perf_print_duplex(FILE *f, const struct perf_bw_stats *mine, const struct perf_bw_stats *theirs,
		      const struct perf_opts *o, bool head)
{
	struct perf_bw_stats sum = *mine;

	/* perftest's -b: one row, the two directions added up */
	sum.bw_peak += theirs->bw_peak;
	sum.bw_avg += theirs->bw_avg;
	sum.msg_rate += theirs->msg_rate;
	if (o->output == PERF_OUT_BANDWIDTH) {
		fprintf(f, "%lf\n", sum.bw_avg);
	} else if (o->output == PERF_OUT_MSG_RATE) {
		fprintf(f, "%lf\n", sum.msg_rate);
	} else {
		if (head)
			perf_print_bw_head(f, o->report_gbits);
		perf_print_bw_row(f, &sum);
		if (o->report_both) {
			fprintf(f, "%s\n\n Local results: \n%s\n", PERF_RESULT_LINE, PERF_RESULT_LINE);
			perf_print_bw_head(f, o->report_gbits);
			perf_print_bw_row(f, mine);
			fprintf(f, "%s\n\n Remote results: \n%s\n", PERF_RESULT_LINE, PERF_RESULT_LINE);
			perf_print_bw_head(f, o->report_gbits);
			perf_print_bw_row(f, theirs);
		}
	}
	fflush(f);
	return perf_check_limits(o, &sum);
}

int perf_print_results(FILE *f, const struct perf_side *s, unsigned int nq,
		       const struct perf_opts *o, bool head)
{
	const struct perf_params *p = s->p;
	int rc = 0;
	uint64_t hz = rte_get_tsc_hz();
	bool full = o->output == PERF_OUT_FULL;

	if (perf_mode_is_lat(p->mode) && p->duration_tsc) {
		/* -D: perftest's duration table, the average over the iterations done */
		unsigned int rtt = p->mode == PERF_WRITE_LAT || p->mode == PERF_SEND_LAT ? 2 : 1;
		double el = (double)(s->t_last - s->t_first) / (double)hz;
		double t_avg = s->ccnt && el > 0 ? el * 1e6 / (double)s->ccnt / rtt : 0;

		if (o->output == PERF_OUT_LATENCY) {
			fprintf(f, "%lf\n", t_avg);
		} else if (full) {
			if (head)
				perf_print_lat_dur_head(f);
			perf_print_lat_dur_row(f, p->size, s->ccnt, t_avg,
					       el > 0 ? (double)s->ccnt / el : 0);
		}
	} else if (perf_mode_is_lat(p->mode)) {
		struct perf_lat_stats st;
		double *scratch = malloc(p->iters * sizeof(double));
		unsigned int rtt = p->mode == PERF_WRITE_LAT || p->mode == PERF_SEND_LAT ? 2 : 1;

		if (!scratch)
			return -ENOMEM;
		if (full && o->unsorted && p->iters > 1)
			print_samples(f, s, rtt, hz, false, scratch);
		if (full && o->histogram && p->iters > 1)
			print_samples(f, s, rtt, hz, true, scratch);
		if (perf_lat_compute(s->tposted, p->iters, hz, rtt, scratch, &st) == 0) {
			if (o->output == PERF_OUT_LATENCY) {
				fprintf(f, "%lf\n", st.t_avg);
			} else if (full) {
				if (head)
					perf_print_lat_head(f);
				perf_print_lat_row(f, p->size, &st);
			}
		}
		free(scratch);
	} else {
		struct perf_bw_stats st;

		perf_bw_of(s, nq, o, &st);
		rc = perf_check_limits(o, &st);
		if (o->output == PERF_OUT_BANDWIDTH) {
			fprintf(f, "%lf\n", st.bw_avg);
		} else if (o->output == PERF_OUT_MSG_RATE) {
			fprintf(f, "%lf\n", st.msg_rate);
		} else if (full) {
			if (head)
				perf_print_bw_head(f, o->report_gbits);
			perf_print_bw_row(f, &st);
		}
	}
	fflush(f);
	return rc;
}

int perf_engine_start(struct rte_pmd_irdma_dev *dev, char *err, size_t errlen)
{
	struct rte_pmd_irdma_dev_info info;
	uint32_t lcores[RTE_MAX_LCORE];
	int n, rc;

	if (rte_pmd_irdma_dev_info(dev, &info) < 0 || info.engine != RTE_PMD_IRDMA_ENGINE_SERVICE)
		return 0;
	n = rte_service_lcore_list(lcores, RTE_MAX_LCORE);
	if (n <= 0) {
		snprintf(err, errlen, "%s: engine=service needs a service lcore (EAL -s <mask>), "
			 "or use engine=inline", info.name);
		return -EINVAL;
	}
	rc = rte_service_map_lcore_set(info.service_id, lcores[0], 1);
	if (rc == 0)
		rc = rte_service_runstate_set(info.service_id, 1);
	if (rc == 0) {
		rc = rte_service_lcore_start(lcores[0]);
		if (rc == -EALREADY)
			rc = 0;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: cannot run its service on lcore %u: %s", info.name,
			 lcores[0], strerror(-rc));
		return rc;
	}
	return 0;
}
