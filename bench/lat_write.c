/* SPDX-License-Identifier: BSD-3-Clause */
#include "lat_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "bench_time.h"

#define SEND_OFF 64

static inline uint64_t seen_word(const struct lat_write *l)
{
	return __atomic_load_n((const uint64_t *)l->ep->buf, __ATOMIC_ACQUIRE);
}

static int fail(struct lat_write *l, int rc, const char *what)
{
	if (!l->error) {
		l->error = rc;
		snprintf(l->err, sizeof(l->err), "%s %s (sent %" PRIu64 ", seen %" PRIu64
			 ", completed %" PRIu64 " of %" PRIu64 ")", l->rtt ? "initiator" :
			 "responder", what, l->sent, l->seen, l->completed, l->total);
	}
	__atomic_store_n(l->abort, 1, __ATOMIC_RELEASE);
	return rc;
}

void lat_write_init(struct lat_write *l, struct bench_ep *ep, const struct bench_ep_addr *peer,
		    uint64_t iters, uint64_t warmup, uint64_t *rtt, uint64_t stall_ticks,
		    int *abort)
{
	memset(l, 0, sizeof(*l));
	l->ep = ep;
	l->remote_addr = peer->addr;
	l->rkey = peer->rkey;
	l->total = iters + warmup;
	l->warmup = warmup;
	l->rtt = rtt;
	l->stall_ticks = stall_ticks;
	l->abort = abort;
	memset(ep->buf, 0, 2 * SEND_OFF);
	l->last_progress = rte_rdtsc();
}

static int post_write(struct lat_write *l, uint64_t seq)
{
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)(l->ep->buf + SEND_OFF),
		.length = 8,
		.lkey = l->ep->mr->lkey,
	};
	struct rte_pmd_irdma_send_wr wr;
	int err = 0;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = seq;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED | RTE_PMD_IRDMA_SEND_INLINE;
	wr.wr.rdma.remote_addr = l->remote_addr;
	wr.wr.rdma.rkey = l->rkey;
	memcpy(l->ep->buf + SEND_OFF, &seq, 8);
	if (unlikely(rte_pmd_irdma_post_send(l->ep->qp, &wr, 1, &err) != 1))
		return fail(l, err ? err : -EIO, "post_send failed");
	l->sent = seq;
	return 0;
}

/* Polls the CQ (with engine=inline this steps the device); 1 if anything moved. */
static int poll(struct lat_write *l)
{
	struct rte_pmd_irdma_wc wc[4];
	int n, i;

	n = rte_pmd_irdma_poll_cq(l->ep->cq, wc, 4);
	if (unlikely(n < 0))
		return fail(l, n, "poll_cq failed");
	for (i = 0; i < n; i++) {
		if (unlikely(wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)) {
			char what[80];

			snprintf(what, sizeof(what), "completion of write %" PRIu64 ": %s",
				 wc[i].wr_id, rte_pmd_irdma_wc_status_str(wc[i].status));
			return fail(l, -EIO, what);
		}
		l->completed++;
	}
	return n > 0;
}

/* Reads the clock only every 1024 idle calls: the check must not slow the spin. */
static int check_stall(struct lat_write *l, bool moved)
{
	uint64_t now;

	if (moved) {
		l->idle = 0;
		return 0;
	}
	if ((++l->idle & 1023) != 0)
		return 0;
	if (__atomic_load_n(l->abort, __ATOMIC_ACQUIRE))
		return fail(l, -ECANCELED, "cancelled (the other side failed)");
	now = rte_rdtsc();
	if (l->idle == 1024)
		l->last_progress = now;
	else if (now - l->last_progress > l->stall_ticks)
		return fail(l, -ETIMEDOUT, "stalled");
	return 0;
}

int lat_write_initiator(struct lat_write *l)
{
	uint64_t seq, t0;
	int rc;

	for (seq = 1; seq <= l->total; seq++) {
		t0 = bench_ticks();
		if (post_write(l, seq) < 0)
			return l->error;
		while (seen_word(l) != seq) {
			rc = poll(l);
			if (unlikely(rc < 0))
				return rc;
			if (unlikely(check_stall(l, rc > 0) < 0))
				return l->error;
		}
		if (seq > l->warmup)
			l->rtt[seq - l->warmup - 1] = bench_ticks() - t0;
		l->seen = seq;
		l->idle = 0;
	}
	/* The last completions: the QPs are destroyed idle. */
	while (l->completed < l->total) {
		rc = poll(l);
		if (rc < 0 || check_stall(l, rc > 0) < 0)
			return l->error;
	}
	return 0;
}

int lat_write_responder_step(struct lat_write *l)
{
	bool moved = false;
	int rc;

	if (l->error)
		return l->error;
	rc = poll(l);
	if (unlikely(rc < 0))
		return rc;
	moved = rc > 0;
	if (l->seen < l->total && seen_word(l) == l->seen + 1) {
		l->seen++;
		if (post_write(l, l->seen) < 0)
			return l->error;
		moved = true;
	}
	if (l->seen == l->total && l->completed == l->total) {
		__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
		return 1;
	}
	if (check_stall(l, moved) < 0)
		return l->error;
	return 0;
}

int lat_write_responder(struct lat_write *l)
{
	int rc;

	while ((rc = lat_write_responder_step(l)) == 0)
		;
	return rc < 0 ? rc : 0;
}
