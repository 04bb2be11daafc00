/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perf_side.h - one endpoint of a benchmark as a non-blocking state machine: each call to
 * perf_side_step() polls the CQ once (which also runs an inline device engine), notices
 * what the peer did and posts what the test allows next. The same steps run on their own
 * lcore, interleaved with the peer's on one lcore, or against a remote perftest.
 *
 * What each test does (perftest's semantics):
 *   write_lat  ping-pong of RDMA WRITEs; each side spins on the last byte of its buffer,
 *              which carries the peer's iteration counter. Samples are round trips / 2.
 *   send_lat   ping-pong of SENDs into pre-posted receives. Round trips / 2.
 *   read_lat   the client posts one RDMA READ at a time and waits for its completion.
 *   atomic_lat the same with 8-byte FETCH_AND_ADD (or CMP_AND_SWAP).
 *   write_bw, read_bw, send_bw   the client keeps up to tx_depth WRs in flight, one
 *              signaled every cq_mod; send_bw's server keeps receives posted.
 * The passive side of read/atomic/write_bw/read_bw has nothing to post: it only keeps its
 * device running (perf_side_service) until the client is done. With -D each side posts
 * until its own time is up; with -q the runner steps one side per QP.
 */
#ifndef IRDMA_PERF_SIDE_H
#define IRDMA_PERF_SIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "perf_opts.h"
#include "perf_res.h"

struct perf_params {
	enum perf_mode mode;
	enum perf_atomic atomic;
	uint64_t size;
	uint64_t iters;
	uint32_t tx_depth;
	uint32_t rx_depth;
	uint32_t inline_size;
	uint32_t cq_mod;           /**< BW: one signaled WR every cq_mod */
	uint32_t post_list;        /**< WRs per post call (-l) */
	bool verify;               /**< check atomic results as they come (peer starts at 0) */
	uint64_t duration_tsc;     /**< -D: post for this long (0: iters WRs); no timestamps */
	bool progress;             /**< -D: a progress line per second on stderr */
	bool gbits;                /**< ... in Gb/s */
	bool duplex;               /**< -b: the passive side initiates too */
	bool open_end;             /**< send_bw with -D or UD: the server receives until its
				    *   runner says the client is done (a count may not arrive) */
};

struct perf_side {
	struct perf_res *res;
	const struct perf_params *p;
	bool client;               /**< the initiator (perftest's client) */
	uint64_t remote_addr;
	uint32_t rkey;
	uint64_t *tposted;         /**< iters entries */
	uint64_t *tcompleted;      /**< iters entries (BW) */
	uint64_t scnt;             /**< WRs posted */
	uint64_t ccnt;             /**< send WRs completed */
	uint64_t rcnt;             /**< messages received (recv completions or polled bytes) */
	uint64_t rposted;          /**< receives posted */
	uint64_t last_progress;    /**< TSC of the last thing that happened */
	uint64_t ts_cap;           /**< entries of tposted/tcompleted */
	uint64_t watch_tsc;        /**< while waiting for the peer: give up after this long
				    *   without device activity (0: the wait's own timeout) */
	uint64_t t_first, t_last;  /**< first post, last send completion */
	uint64_t t_rx_first, t_rx_last; /**< first and last receive completion */
	uint64_t limit;            /**< -D: WRs posted when the time was up (0: not yet) */
	uint64_t deadline;         /**< -D: TSC after which nothing more is posted */
	uint64_t next_tick, tick_ccnt; /**< -D: the progress line's clock and count */
	unsigned int ticks;
	bool done;
	int error;                 /**< negative errno once failed */
	char err[640];
};

/** Timestamp arrays and the test's starting state. @return 0 or -ENOMEM. */
int perf_side_init(struct perf_side *s, struct perf_res *res, const struct perf_params *p,
		   bool client, uint64_t remote_addr, uint32_t rkey);
void perf_side_fini(struct perf_side *s);

/** Fill the buffer halves with the side's pattern and post the first receives.
 *  @return 0 or a negative errno (s->err says why). */
int perf_side_prepare(struct perf_side *s, unsigned int seed);

/**
 * One step. @return 1 when this side's part is over, 0 to be called again, or a negative
 * errno (s->err says what failed: a WR the device refused or a completion in error).
 * Sets s->last_progress whenever something moved.
 */
int perf_side_step(struct perf_side *s);

/** Keep the device running once this side is over (the peer may still need it).
 *  @return completions or work found (0: idle). */
int perf_side_service(struct perf_side *s);

/** -D: once a second, one progress line on stderr for the @p n sides of one test together
 *  (their first side keeps the clock); nothing without -D or with --quiet. */
void perf_sides_progress(struct perf_side *s, unsigned int n);

/** Whether this side measures anything (prints a table). */
bool perf_side_measures(const struct perf_side *s);

/** The byte pattern of a buffer half (for the data check of --loop). */
uint8_t perf_pattern(unsigned int seed, uint64_t i);

#endif /* IRDMA_PERF_SIDE_H */
