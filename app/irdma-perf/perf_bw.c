/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf write_bw: A keeps tx_depth RDMA WRITEs in flight, one signaled per cq_mod; B's
 * device only receives. Average = bytes / (last completion - first post); peak = the best
 * cq_mod window (bytes of the window / time between two signaled completions); message rate
 * = iterations / elapsed. perftest's table (MiB/s, or Gb/s with --report_gbits).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_cycles.h>

#include "perf.h"
#include "perf_stats.h"

int
bw_run_a(struct side *s)
{
	const struct opts *o = s->o;
	struct rte_pmd_irdma_sge sge = { (uintptr_t)(s->buf + MAX_SIZE), s->size, s->mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE,
	};
	uint64_t stall = rte_get_tsc_cycles() + STALL_SECONDS * rte_get_tsc_hz();
	uint64_t posted = 0, completed = 0, n_signaled = 0;
	struct rte_pmd_irdma_wc wc[16];
	int n, i, err = 0;

	wr.wr.rdma.remote_addr = (uintptr_t)s->peer->buf;
	wr.wr.rdma.rkey = s->peer->mr->rkey;
	while (completed < o->iters) {
		while (posted < o->iters && posted - completed < o->tx_depth) {
			wr.wr_id = posted;
			wr.send_flags = (s->use_inline ? RTE_PMD_IRDMA_SEND_INLINE : 0) |
				((posted % o->cq_mod == o->cq_mod - 1 || posted == o->iters - 1) ?
					 RTE_PMD_IRDMA_SEND_SIGNALED : 0);
			s->tposted[posted] = rte_rdtsc();
			if (rte_pmd_irdma_post_send(s->qp, &wr, 1, &err) != 1)
				break;
			posted++;
		}
		if (err != 0 && err != -ENOMEM)
			goto out;
		err = 0;
		n = rte_pmd_irdma_poll_cq(s->cq, wc, 16);
		if (n < 0) {
			err = n;
			goto out;
		}
		for (i = 0; i < n; i++) {
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
				err = -EIO;
				goto out;
			}
			/* A signaled completion retires everything up to its WR. */
			completed = wc[i].wr_id + 1;
			s->tcompleted[n_signaled++] = rte_rdtsc();
			stall = rte_get_tsc_cycles() + STALL_SECONDS * rte_get_tsc_hz();
		}
		if (n == 0 && rte_get_tsc_cycles() > stall) {
			err = -ETIMEDOUT;
			break;
		}
	}
out:
	s->peer->stop = true;
	s->err = err;
	return err ? -1 : 0;
}

void
bw_report(const struct side *s, uint64_t iters, bool gbits)
{
	const struct opts *o = s->o;
	uint64_t n_sig = (iters + o->cq_mod - 1) / o->cq_mod, k, best = UINT64_MAX;
	double hz = (double)rte_get_tsc_hz(), unit = gbits ? 125000000.0 : 1048576.0;
	double elapsed = (double)(s->tcompleted[n_sig - 1] - s->tposted[0]) / hz;
	double avg = (double)s->size * (double)iters / elapsed / unit;
	double peak;

	/* Windows of cq_mod messages between consecutive signaled completions. */
	for (k = 1; k < n_sig; k++)
		if (s->tcompleted[k] - s->tcompleted[k - 1] < best)
			best = s->tcompleted[k] - s->tcompleted[k - 1];
	if (best == UINT64_MAX || best == 0)
		peak = avg;
	else
		peak = (double)s->size * o->cq_mod / ((double)best / hz) / unit;
	printf(" %-7" PRIu32 "    %-10" PRIu64 "       %-7.2lf            %-7.2lf\t\t     %-7.6lf\n",
	       s->size, iters, peak, avg, (double)iters / elapsed / 1e6);
}
