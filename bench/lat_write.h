/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ib_write_lat-style ping-pong: RDMA WRITE of 8 bytes (inline, signaled), each side
 * answering once it sees the peer's write land in its buffer. The initiator time-stamps
 * each post and the arrival of the answer: one sample = one round trip; half-RTT = RTT / 2,
 * perftest's convention.
 *
 * Buffer layout of each endpoint: bytes 0..7 are where the peer writes the sequence number,
 * bytes 64..71 the source of this side's write.
 */
#ifndef BENCH_LAT_WRITE_H
#define BENCH_LAT_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench_ep.h"

struct lat_write {
	struct bench_ep *ep;
	uint64_t remote_addr;          /* the peer's receive word */
	uint32_t rkey;
	uint64_t total;                /* warmup + iters round trips */
	uint64_t warmup;
	uint64_t *rtt;                 /* initiator: iters samples in ticks (NULL: responder) */
	uint64_t seen;                 /* writes of the peer seen */
	uint64_t sent;                 /* writes posted */
	uint64_t completed;            /* send completions */
	uint64_t stall_ticks;          /* give up after this long without progress */
	uint64_t last_progress;        /* start of the current idle stretch */
	uint64_t idle;                 /* calls without progress */
	int done;                      /* responder: everything answered and completed */
	int *abort;                    /* shared by both sides (__atomic): set on any failure */
	int error;
	char err[160];
};

/* @p rtt is NULL for the responder. */
void lat_write_init(struct lat_write *l, struct bench_ep *ep, const struct bench_ep_addr *peer,
		    uint64_t iters, uint64_t warmup, uint64_t *rtt, uint64_t stall_ticks,
		    int *abort);

/* Initiator: runs every round trip. @return 0 or a negative errno (l->err says why). */
int lat_write_initiator(struct lat_write *l);

/* Responder, non-blocking: one poll and at most one answer.
 * @return 1 when every round trip is answered and completed, 0 to be called again,
 * a negative errno on failure. */
int lat_write_responder_step(struct lat_write *l);

/* Responder as a loop for a dedicated lcore. */
int lat_write_responder(struct lat_write *l);

#endif /* BENCH_LAT_WRITE_H */
