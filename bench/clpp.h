/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cache-line ping-pong: the physical limit of any shared-memory hand-off between two
 * cores. The initiator stores a sequence number into one line; the responder spins until
 * it sees it and stores it into a second line; the initiator spins on the second line.
 * One round trip moves two cache lines, so one-way = RTT / 2. The two sides run on
 * whatever threads the caller pins (pthreads, or EAL lcores in the RDMA benchmarks, so the
 * limit is measured on exactly the threads and CPUs the driver runs on).
 */
#ifndef BENCH_CLPP_H
#define BENCH_CLPP_H

#include <stdatomic.h>
#include <stdint.h>

/* 128-byte spacing: the adjacent-line prefetcher must not couple the two lines. */
struct clpp_line {
	_Alignas(128) _Atomic uint64_t v;
	char pad[128 - sizeof(uint64_t)];
};

struct clpp {
	struct clpp_line ping;     /* written by the initiator */
	struct clpp_line pong;     /* written by the responder */
	uint64_t iters;            /* timed round trips */
	uint64_t warmup;           /* untimed round trips first */
	uint64_t *rtt;             /* iters samples, in ticks */
};

/* Allocates the context and its samples. NULL when out of memory. */
struct clpp *clpp_new(uint64_t iters, uint64_t warmup);
void clpp_free(struct clpp *c);

/* Run concurrently, one on each CPU; both return after warmup + iters round trips. */
void clpp_initiator(struct clpp *c);
void clpp_responder(struct clpp *c);

#endif /* BENCH_CLPP_H */
