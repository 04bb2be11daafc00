/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-perf latency tests, perftest's way:
 * - write_lat: A writes with the iteration count in the last byte; B spins on that byte and
 *   writes back; one delta between A's posts is a round trip (factor 2);
 * - send_lat: the same ping-pong with SEND/RECV (factor 2);
 * - read_lat, atomic_lat: A posts one READ (or FETCH_ADD) and waits for its completion; B's
 *   device only answers (factor 1).
 */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>

#include "perf.h"

#define SIGNAL_EVERY 32u

bool
lat_passive(enum perf_test t)
{
	return t == PERF_READ_LAT || t == PERF_ATOMIC_LAT || t == PERF_WRITE_BW;
}

int
lat_rtt_factor(enum perf_test t)
{
	return (t == PERF_WRITE_LAT || t == PERF_SEND_LAT) ? 2 : 1;
}

/* Retire signaled completions of the ping-pong tests; receives are counted in *recvs. */
static int
reap(struct side *s, uint32_t *recvs)
{
	struct rte_pmd_irdma_wc wc[8];
	int n, i;

	n = rte_pmd_irdma_poll_cq(s->cq, wc, 8);
	for (i = 0; i < n; i++) {
		if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
			return -EIO;
		if (wc[i].opcode == RTE_PMD_IRDMA_WC_RECV) {
			struct rte_pmd_irdma_sge sge = { (uintptr_t)s->buf, MAX_SIZE, s->mr->lkey };
			struct rte_pmd_irdma_recv_wr r = { 0, &sge, 1 };

			(*recvs)++;
			if (rte_pmd_irdma_post_recv(s->qp, &r, 1, NULL) != 1)
				return -ENOMEM;
		}
	}
	return n < 0 ? n : 0;
}

static int
post_one(struct side *s, uint64_t n, uint8_t count)
{
	uint8_t *src = s->buf + MAX_SIZE;
	struct rte_pmd_irdma_sge sge = { (uintptr_t)src, s->size, s->mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = n, .sg_list = &sge, .num_sge = 1,
		.opcode = s->o->test == PERF_SEND_LAT ? RTE_PMD_IRDMA_WR_SEND :
							RTE_PMD_IRDMA_WR_RDMA_WRITE,
	};
	int err;

	src[s->size - 1] = count;
	if (s->use_inline)
		wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	if (n % SIGNAL_EVERY == SIGNAL_EVERY - 1)
		wr.send_flags |= RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)s->peer->buf;
	wr.wr.rdma.rkey = s->peer->mr->rkey;
	while (rte_pmd_irdma_post_send(s->qp, &wr, 1, &err) != 1) {
		if (err != -ENOMEM)
			return err;
		rte_pmd_irdma_progress(s->dev, 64);
	}
	return 0;
}

/* Wait for the peer's message number @p count: a last byte (write) or a receive (send). */
static int
wait_peer(struct side *s, uint8_t count, uint32_t *recvs, uint32_t want)
{
	volatile uint8_t *last = s->buf + s->size - 1;
	uint64_t stall = rte_get_tsc_cycles() + STALL_SECONDS * rte_get_tsc_hz();
	bool send = s->o->test == PERF_SEND_LAT;
	unsigned int spins = 0;
	int ret;

	while (send ? *recvs < want : *last != count) {
		if (send) {
			ret = reap(s, recvs); /* the poll also steps an inline engine */
			if (ret < 0)
				return ret;
		} else if (s->inline_engine) {
			rte_pmd_irdma_progress(s->dev, 32);
		}
		if ((++spins & 63) == 0) {
			ret = reap(s, recvs);
			if (ret < 0)
				return ret;
			if (rte_get_tsc_cycles() > stall)
				return -ETIMEDOUT;
		}
	}
	return send ? 0 : reap(s, recvs);
}

static int
prepost_recvs(struct side *s)
{
	struct rte_pmd_irdma_sge sge = { (uintptr_t)s->buf, MAX_SIZE, s->mr->lkey };
	struct rte_pmd_irdma_recv_wr r = { 0, &sge, 1 };
	int i;

	if (s->o->test != PERF_SEND_LAT)
		return 0;
	for (i = 0; i < 64; i++)
		if (rte_pmd_irdma_post_recv(s->qp, &r, 1, NULL) != 1)
			return -ENOMEM;
	return 0;
}

int
lat_run_b(void *arg)
{
	struct side *s = arg;
	uint32_t recvs = 0;
	uint64_t i;

	if (lat_passive(s->o->test))
		return side_serve(s);
	for (i = 0; i < s->o->iters; i++) {
		s->err = wait_peer(s, (uint8_t)(i + 1), &recvs, (uint32_t)i + 1);
		if (s->err == 0)
			s->err = post_one(s, i, (uint8_t)(i + 1));
		if (s->err)
			return -1;
	}
	s->err = side_drain(s);
	return s->err ? -1 : 0;
}

/* read_lat / atomic_lat: one request at a time, each waited for. */
static int
run_a_passive(struct side *s)
{
	struct rte_pmd_irdma_sge sge = { (uintptr_t)(s->buf + MAX_SIZE), s->size, s->mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
	};
	struct rte_pmd_irdma_wc wc;
	uint64_t i;
	int err;

	if (s->o->test == PERF_ATOMIC_LAT) {
		wr.opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
		wr.wr.atomic.remote_addr = (uintptr_t)s->peer->buf;
		wr.wr.atomic.rkey = s->peer->mr->rkey;
		wr.wr.atomic.compare_add = 1;
	} else {
		wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
		wr.wr.rdma.remote_addr = (uintptr_t)s->peer->buf;
		wr.wr.rdma.rkey = s->peer->mr->rkey;
	}
	for (i = 0; i < s->o->iters; i++) {
		wr.wr_id = i;
		s->tposted[i] = rte_rdtsc();
		if (rte_pmd_irdma_post_send(s->qp, &wr, 1, &err) != 1)
			return err;
		err = side_wait_wc(s, &wc);
		if (err)
			return err;
	}
	return 0;
}

int
lat_run_a(struct side *s)
{
	uint32_t recvs = 0;
	uint64_t i;

	if (lat_passive(s->o->test)) {
		s->err = run_a_passive(s);
		s->peer->stop = true;
		return s->err ? -1 : 0;
	}
	for (i = 0; i < s->o->iters; i++) {
		if (i > 0) {
			s->err = wait_peer(s, (uint8_t)i, &recvs, (uint32_t)i);
			if (s->err)
				return -1;
		}
		s->tposted[i] = rte_rdtsc();
		s->err = post_one(s, i, (uint8_t)(i + 1));
		if (s->err)
			return -1;
	}
	s->err = wait_peer(s, (uint8_t)i, &recvs, (uint32_t)i);
	if (s->err == 0)
		s->err = side_drain(s);
	return s->err ? -1 : 0;
}

int
lat_prepare(struct side *s)
{
	return prepost_recvs(s);
}
