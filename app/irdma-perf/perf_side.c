/* SPDX-License-Identifier: BSD-3-Clause */
/* One endpoint of a benchmark as a non-blocking state machine (see perf_side.h). */
#include "perf_side.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "tool_hints.h"

#define POLL_BURST 32
#define POST_BURST 32

uint8_t perf_pattern(unsigned int seed, uint64_t i)
{
	return (uint8_t)(i * 131u + seed * 29u + (i >> 8));
}

static inline uint8_t *recv_half(const struct perf_side *s)
{
	return s->res->buf;
}

static inline uint8_t *send_half(const struct perf_side *s)
{
	return s->res->buf + s->res->slot;
}

static int fail(struct perf_side *s, int rc, const char *what, const char *detail)
{
	if (!s->error) {
		s->error = rc < 0 ? rc : -EIO;
		snprintf(s->err, sizeof(s->err), "%s %s: %s (posted %" PRIu64 ", completed %"
			 PRIu64 ", received %" PRIu64 ")", s->client ? "client" : "server", what,
			 detail, s->scnt, s->ccnt, s->rcnt);
	}
	return s->error;
}

bool perf_side_measures(const struct perf_side *s)
{
	switch (s->p->mode) {
	case PERF_WRITE_LAT:
	case PERF_SEND_LAT:
	case PERF_SEND_BW:
		return true;
	default:
		return s->client || s->p->duplex;
	}
}

int perf_side_init(struct perf_side *s, struct perf_res *res, const struct perf_params *p,
		   bool client, uint64_t remote_addr, uint32_t rkey)
{
	memset(s, 0, sizeof(*s));
	s->res = res;
	s->p = p;
	s->client = client;
	s->remote_addr = remote_addr;
	s->rkey = rkey;
	/* -D runs an unknown number of WRs: no per-WR timestamps then (perftest reports no
	 * peak in that mode either) */
	s->ts_cap = p->duration_tsc ? 1 : p->iters;
	s->tposted = rte_zmalloc("irdma_perf_tposted", s->ts_cap * sizeof(uint64_t), 64);
	s->tcompleted = rte_zmalloc("irdma_perf_tcompl", s->ts_cap * sizeof(uint64_t), 64);
	if (!s->tposted || !s->tcompleted) {
		perf_side_fini(s);
		return -ENOMEM;
	}
	return 0;
}

void perf_side_fini(struct perf_side *s)
{
	rte_free(s->tposted);
	rte_free(s->tcompleted);
	s->tposted = NULL;
	s->tcompleted = NULL;
}

static bool uses_recv(const struct perf_side *s)
{
	/* -b: both sides of send_bw send and receive */
	return s->p->mode == PERF_SEND_LAT ||
	       (s->p->mode == PERF_SEND_BW && (!s->client || s->p->duplex));
}

static int post_recvs(struct perf_side *s, uint64_t n)
{
	struct rte_pmd_irdma_recv_wr wr[POST_BURST];
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)recv_half(s),
		.length = (uint32_t)s->p->size + (s->res->ud ? PERF_UD_GRH : 0),
		.lkey = s->res->mr->lkey,
	};
	uint16_t i, k, taken;
	int err = 0;

	while (n) {
		k = (uint16_t)RTE_MIN(n, (uint64_t)POST_BURST);
		for (i = 0; i < k; i++) {
			wr[i].wr_id = s->rposted + i;
			wr[i].sg_list = &sge;
			wr[i].num_sge = 1;
		}
		taken = s->res->srq ? rte_pmd_irdma_srq_post_recv(s->res->srq, wr, k, &err) :
				      rte_pmd_irdma_post_recv(s->res->qp, wr, k, &err);
		s->rposted += taken;
		n -= taken;
		if (taken < k)
			return fail(s, err, "post_recv", strerror(-err));
	}
	return 0;
}

int perf_side_prepare(struct perf_side *s, unsigned int seed)
{
	uint64_t i, n;

	for (i = 0; i < s->res->slot; i++) {
		recv_half(s)[i] = perf_pattern(seed * 2, i);
		send_half(s)[i] = perf_pattern(seed * 2 + 1, i);
	}
	/* The peer polls the last byte (write_lat) and adds to the first 8 (atomics). */
	if (s->p->mode == PERF_WRITE_LAT)
		recv_half(s)[s->p->size - 1] = 0;
	if (s->p->mode == PERF_ATOMIC_LAT || s->p->mode == PERF_ATOMIC_BW)
		memset(recv_half(s), 0, 8);
	rte_smp_wmb();
	s->last_progress = rte_rdtsc();
	if (uses_recv(s)) {
		n = RTE_MIN((uint64_t)s->p->rx_depth, s->p->iters);
		return post_recvs(s, n);
	}
	return 0;
}

/* -D in the latency tests: each side stops posting once its own time is up (it started at
 * its first post), as perftest's sides each stop on their own alarm; a side that has not
 * posted yet has not started. */
static bool time_is_up(const struct perf_side *s)
{
	return s->p->duration_tsc && s->scnt && rte_rdtsc() >= s->deadline;
}

/* The latency tests' end: -n iterations, or (-D) the time is up and our last WR completed
 * (the peer's message that crossed it is not waited for). */
static bool lat_finished(const struct perf_side *s, bool pingpong)
{
	const struct perf_params *p = s->p;

	if (p->duration_tsc)
		return time_is_up(s) && s->ccnt == s->scnt;
	if (pingpong)
		return s->scnt == p->iters && s->rcnt == p->iters && s->ccnt == p->iters;
	return s->ccnt == p->iters;
}

/* Ping-pong latency tests: the starting side sends first, then each side sends once it saw
 * the peer's message, within the send queue's depth. */
static bool pingpong_turn(const struct perf_side *s, bool client_starts)
{
	const struct perf_params *p = s->p;
	bool starts = s->client == client_starts;

	return s->scnt < p->iters && (starts ? s->scnt == s->rcnt : s->scnt < s->rcnt) &&
	       s->scnt - s->ccnt < p->tx_depth && !time_is_up(s);
}

static int post_one(struct perf_side *s, bool signaled)
{
	const struct perf_params *p = s->p;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_sge sge;
	uint64_t now;
	int err = 0;

	memset(&wr, 0, sizeof(wr));
	sge.lkey = s->res->mr->lkey;
	sge.length = (uint32_t)p->size;
	sge.addr = (uint64_t)(uintptr_t)send_half(s);
	wr.wr_id = s->scnt;
	wr.sg_list = &sge;
	wr.num_sge = p->size ? 1 : 0;
	wr.send_flags = signaled ? RTE_PMD_IRDMA_SEND_SIGNALED : 0;
	switch (p->mode) {
	case PERF_WRITE_LAT:
	case PERF_WRITE_BW:
		wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = s->remote_addr;
		wr.wr.rdma.rkey = s->rkey;
		break;
	case PERF_SEND_LAT:
	case PERF_SEND_BW:
		wr.opcode = RTE_PMD_IRDMA_WR_SEND;
		if (s->res->ud) {
			wr.wr.ud.ah = s->res->ah;
			wr.wr.ud.remote_qpn = s->res->remote_qpn;
			wr.wr.ud.remote_qkey = PERF_UD_QKEY;
		}
		break;
	case PERF_READ_LAT:
	case PERF_READ_BW:
		wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
		sge.addr = (uint64_t)(uintptr_t)recv_half(s);
		wr.wr.rdma.remote_addr = s->remote_addr;
		wr.wr.rdma.rkey = s->rkey;
		break;
	case PERF_ATOMIC_LAT:
		sge.addr = (uint64_t)(uintptr_t)recv_half(s);
		sge.length = 8;
		wr.num_sge = 1;
		wr.wr.atomic.remote_addr = s->remote_addr;
		wr.wr.atomic.rkey = s->rkey;
		if (p->atomic == PERF_CMP_AND_SWAP) {
			wr.opcode = RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP;
			wr.wr.atomic.compare_add = s->scnt;
			wr.wr.atomic.swap = s->scnt + 1;
		} else {
			wr.opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
			wr.wr.atomic.compare_add = 1;
		}
		break;
	default:
		return fail(s, -EINVAL, "post", "no such test");
	}
	if (p->size && p->size <= s->res->max_inline && p->size <= p->inline_size &&
	    (wr.opcode == RTE_PMD_IRDMA_WR_RDMA_WRITE || wr.opcode == RTE_PMD_IRDMA_WR_SEND))
		wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	now = rte_rdtsc();
	if (s->scnt < s->ts_cap)
		s->tposted[s->scnt] = now;
	if (!s->scnt) {
		s->t_first = now;
		s->deadline = now + p->duration_tsc;
		s->next_tick = now + rte_get_tsc_hz();
	}
	if (unlikely(rte_pmd_irdma_post_send(s->res->qp, &wr, 1, &err) != 1))
		return fail(s, err, "post_send", strerror(-err));
	s->scnt++;
	return 0;
}

/* Bandwidth: fill the send queue up to tx_depth with one burst. */
static int post_bw_burst(struct perf_side *s)
{
	const struct perf_params *p = s->p;
	struct rte_pmd_irdma_send_wr wr[POST_BURST];
	struct rte_pmd_irdma_sge sge;
	uint64_t room = p->tx_depth - (s->scnt - s->ccnt), left = p->iters - s->scnt, now;
	uint16_t k, i, taken;
	bool last = false;
	int err = 0;

	if (p->duration_tsc) {
		if (s->limit)
			return 0; /* the time is up: only completions are awaited */
		now = rte_rdtsc();
		if (s->scnt && now >= s->deadline)
			last = true;
	}

	k = (uint16_t)RTE_MIN(RTE_MIN(room, left), (uint64_t)POST_BURST);
	/* -l: exactly that many WRs per call, and only once that many fit */
	if (p->post_list) {
		if (k < p->post_list && left >= p->post_list)
			return 0;
		k = (uint16_t)RTE_MIN((uint64_t)k, (uint64_t)p->post_list);
	}
	if (!k)
		return 0;
	sge.lkey = s->res->mr->lkey;
	sge.length = (uint32_t)p->size;
	/* READ data and atomic results land in the receive half; with -b the peer reads that
	 * very half at the same time, so they land in the send half instead. */
	sge.addr = (uint64_t)(uintptr_t)((p->mode == PERF_READ_BW || p->mode == PERF_ATOMIC_BW) &&
					 !p->duplex ? recv_half(s) : send_half(s));
	memset(wr, 0, sizeof(wr[0]) * k);
	for (i = 0; i < k; i++) {
		uint64_t idx = s->scnt + i;

		wr[i].wr_id = idx;
		wr[i].sg_list = &sge;
		wr[i].num_sge = p->size ? 1 : 0;
		if (idx % p->cq_mod == p->cq_mod - 1 || idx == p->iters - 1 || (last && i == k - 1))
			wr[i].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
		if (p->mode == PERF_SEND_BW) {
			wr[i].opcode = RTE_PMD_IRDMA_WR_SEND;
			if (s->res->ud) {
				wr[i].wr.ud.ah = s->res->ah;
				wr[i].wr.ud.remote_qpn = s->res->remote_qpn;
				wr[i].wr.ud.remote_qkey = PERF_UD_QKEY;
			}
		} else if (p->mode == PERF_ATOMIC_BW) {
			wr[i].num_sge = 1;
			wr[i].wr.atomic.remote_addr = s->remote_addr;
			wr[i].wr.atomic.rkey = s->rkey;
			if (p->atomic == PERF_CMP_AND_SWAP) {
				/* compare 0, swap 0: the target keeps its value */
				wr[i].opcode = RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP;
			} else {
				wr[i].opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
				wr[i].wr.atomic.compare_add = 1;
			}
		} else {
			wr[i].opcode = p->mode == PERF_READ_BW ? RTE_PMD_IRDMA_WR_RDMA_READ :
								 RTE_PMD_IRDMA_WR_RDMA_WRITE;
			wr[i].wr.rdma.remote_addr = s->remote_addr;
			wr[i].wr.rdma.rkey = s->rkey;
		}
		if (p->size && p->size <= s->res->max_inline && p->size <= p->inline_size &&
		    p->mode != PERF_READ_BW && p->mode != PERF_ATOMIC_BW)
			wr[i].send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	}
	now = rte_rdtsc();
	taken = rte_pmd_irdma_post_send(s->res->qp, wr, k, &err);
	if (taken && !s->scnt) {
		s->t_first = now;
		s->deadline = now + p->duration_tsc;
		s->next_tick = now + rte_get_tsc_hz();
	}
	for (i = 0; i < taken && s->scnt + i < s->ts_cap; i++)
		s->tposted[s->scnt + i] = now;
	s->scnt += taken;
	if (last && taken == k)
		s->limit = s->scnt;
	/* A full SQ (its completions are not polled yet) is not an error: retry later. */
	if (taken < k && err != -ENOMEM)
		return fail(s, err, "post_send", strerror(-err));
	return taken;
}

static int poll_completions(struct perf_side *s)
{
	struct rte_pmd_irdma_wc wc[POLL_BURST];
	uint64_t now;
	int n, i;

	n = rte_pmd_irdma_poll_cq(s->res->cq, wc, POLL_BURST);
	if (unlikely(n < 0))
		return fail(s, n, "poll_cq", n == -EIO ? "CQ overflow" : strerror(-n));
	if (!n)
		return 0;
	now = rte_rdtsc();
	for (i = 0; i < n; i++) {
		const struct rte_pmd_irdma_wc *w = &wc[i];

		if (unlikely(w->status != RTE_PMD_IRDMA_WC_SUCCESS)) {
			char d[448];
			bool first = w->status == RTE_PMD_IRDMA_WC_RETRY_EXC_ERR && s->ccnt == 0 &&
				     s->rcnt == 0;

			snprintf(d, sizeof(d), "%s completion of WR %" PRIu64 " (vendor_err %#x)%s%s",
				 rte_pmd_irdma_wc_status_str(w->status), w->wr_id, w->vendor_err,
				 first ? "; " : "", first ? TOOL_HINT_RETRY_EXC : "");
			return fail(s, -EIO, "completion", d);
		}
		if (w->opcode & RTE_PMD_IRDMA_WC_RECV) {
			/* send_bw's server measures its receives, as perftest's does */
			if (s->rcnt < s->ts_cap)
				s->tcompleted[s->rcnt] = now;
			if (!s->rcnt)
				s->t_rx_first = now;
			s->t_rx_last = now;
			s->rcnt++;
			if (s->rposted < s->p->iters && post_recvs(s, 1) < 0)
				return s->error;
			continue;
		}
		/* A send-side completion also retires the unsignaled WRs before it. */
		s->ccnt = w->wr_id + 1;
		s->t_last = now;
		if (w->wr_id < s->ts_cap)
			s->tcompleted[w->wr_id] = now;
		if (s->p->mode == PERF_ATOMIC_LAT && s->p->verify) {
			uint64_t old;

			memcpy(&old, recv_half(s), 8);
			if (old != w->wr_id) {
				char d[96];

				snprintf(d, sizeof(d), "atomic %" PRIu64 " returned %" PRIu64
					 ", expected %" PRIu64, w->wr_id, old, w->wr_id);
				return fail(s, -EIO, "atomic result", d);
			}
		}
	}
	return n;
}

void perf_sides_progress(struct perf_side *s, unsigned int n)
{
	const struct perf_params *p = s[0].p;
	uint64_t now, hz = rte_get_tsc_hz(), ccnt = 0;
	double unit = p->gbits ? 125000000.0 : (double)0x100000, el;
	unsigned int i;

	/* the group's clock is its first side's: started by that side's first post */
	if (!p->duration_tsc || !p->progress || !s[0].next_tick)
		return;
	now = rte_rdtsc();
	if (now < s[0].next_tick)
		return;
	for (i = 0; i < n; i++)
		ccnt += s[i].ccnt;
	el = (double)(now - s[0].next_tick + hz) / (double)hz;
	s[0].ticks++;
	if (perf_mode_is_lat(p->mode))
		/* the last second's average, halved for the ping-pongs (as their table) */
		fprintf(stderr, "irdma-perf: %u s: %.2f usec, %" PRIu64 " iterations so far\n",
			s[0].ticks, ccnt > s[0].tick_ccnt ? el * 1e6 / (double)(ccnt - s[0].tick_ccnt) /
			(p->mode == PERF_WRITE_LAT || p->mode == PERF_SEND_LAT ? 2 : 1) : 0, ccnt);
	else
		fprintf(stderr, "irdma-perf: %u s: %.2f %s, %" PRIu64 " messages so far\n",
			s[0].ticks, (double)(ccnt - s[0].tick_ccnt) * (double)p->size / el / unit,
			p->gbits ? "Gb/sec" : "MB/sec", ccnt);
	s[0].tick_ccnt = ccnt;
	s[0].next_tick = now + hz;
}

int perf_side_step(struct perf_side *s)
{
	const struct perf_params *p = s->p;
	bool moved = false;
	int n;

	if (s->error)
		return s->error;
	if (s->done)
		return 1;
	n = poll_completions(s);
	if (n < 0)
		return n;
	moved = n > 0;

	switch (p->mode) {
	case PERF_WRITE_LAT: {
		/* The peer's RDMA WRITE lands here from the device's lcore: the last byte
		 * is read with acquire, so the bytes before it are seen too. */
		const uint8_t *flag = recv_half(s) + p->size - 1;

		if (s->rcnt < p->iters &&
		    __atomic_load_n(flag, __ATOMIC_ACQUIRE) == (uint8_t)(s->rcnt + 1)) {
			s->rcnt++;
			moved = true;
		}
		/* perftest's server writes first (rxe captures); each side answers once it saw
		 * the peer's write. */
		if (pingpong_turn(s, false)) {
			send_half(s)[p->size - 1] = (uint8_t)(s->scnt + 1);
			if (post_one(s, true) < 0)
				return s->error;
			moved = true;
		}
		if (lat_finished(s, true))
			s->done = true;
		break;
	}
	case PERF_SEND_LAT:
		if (pingpong_turn(s, true)) {
			if (post_one(s, true) < 0)
				return s->error;
			moved = true;
		}
		if (lat_finished(s, true))
			s->done = true;
		break;
	case PERF_READ_LAT:
	case PERF_ATOMIC_LAT:
		if (!s->client) {
			s->done = true;
			break;
		}
		if (s->scnt < p->iters && s->scnt == s->ccnt && !time_is_up(s)) {
			if (post_one(s, true) < 0)
				return s->error;
			moved = true;
		}
		if (lat_finished(s, false))
			s->done = true;
		break;
	case PERF_WRITE_BW:
	case PERF_READ_BW:
	case PERF_SEND_BW:
	case PERF_ATOMIC_BW:
		if (!s->client && !p->duplex) {
			if (p->mode != PERF_SEND_BW || s->rcnt == p->iters)
				s->done = true;
			break;
		}
		n = post_bw_burst(s);
		if (n < 0)
			return n;
		moved = moved || n > 0;
		if (s->ccnt == (s->limit ? s->limit : p->iters) &&
		    (!uses_recv(s) || s->rcnt == p->iters))
			s->done = true;
		break;
	default:
		return fail(s, -EINVAL, "step", "no such test");
	}
	if (moved)
		s->last_progress = rte_rdtsc();
	return s->done ? 1 : 0;
}

int perf_side_service(struct perf_side *s)
{
	struct rte_pmd_irdma_wc wc[POLL_BURST];
	int n;

	/* Late completions (a receive nobody waits for) are drained, not judged. */
	n = rte_pmd_irdma_poll_cq(s->res->cq, wc, POLL_BURST);
	if (n <= 0)
		n = rte_pmd_irdma_progress(s->res->dev, 64);
	return n > 0 ? n : 0;
}
