/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-perf: shared types of the tool (two sides, each a device + QP on its own lcore). */
#ifndef PERF_H
#define PERF_H

#include <stdbool.h>
#include <stdint.h>

#include "rte_pmd_irdma.h"

#define MAX_SIZE (1u << 20)
#define ALL_MAX_SIZE (64u << 10) /* -a: 2 .. 64 KiB (software device: every byte is copied) */
#define STALL_SECONDS 5

enum perf_test {
	PERF_WRITE_LAT,
	PERF_SEND_LAT,
	PERF_READ_LAT,
	PERF_ATOMIC_LAT,
	PERF_WRITE_BW,
};

struct opts {
	enum perf_test test;
	uint32_t size;
	bool all;
	uint64_t iters;
	int inline_size;      /* -1: the device maximum */
	uint32_t tx_depth;    /* bw: WRs in flight */
	uint32_t cq_mod;      /* bw: one signaled WR per cq_mod */
	unsigned int gen;
	bool service;
	bool report_gbits;
	bool xstats;
	const char *extra;
};

struct side {
	const char *name;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;          /* [0, MAX_SIZE): the peer writes here; [MAX_SIZE, 2x): our source */
	union rte_pmd_irdma_gid gid;
	uint32_t max_inline;
	struct side *peer;
	const struct opts *o;
	uint64_t *tposted;     /* A: TSC at each post */
	uint64_t *tcompleted;  /* A, bw: TSC at each signaled completion */
	uint32_t size;
	bool use_inline;
	bool inline_engine;
	volatile bool stop;    /* B, passive tests: set by A when done */
	int err;
};

/* perf_setup.c */
void perf_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void side_open(struct side *s, const struct opts *o, const char *ip);
void side_connect(struct side *s);
void side_close(struct side *s);
void services_start(struct side *a, struct side *b, unsigned int lcore);
void services_stop(struct side *a, struct side *b, unsigned int lcore);
/* Poll the side's CQ for one completion (stepping its device); -ETIMEDOUT after a stall. */
int side_wait_wc(struct side *s, struct rte_pmd_irdma_wc *wc);
/* A signaled NOP behind everything posted: returns once it completed. */
int side_drain(struct side *s);
/* B of the passive tests: step the device until A sets stop. */
int side_serve(void *arg);

/* perf_lat.c: side A runs on the main lcore, B (arg) on a worker; both return 0 or -1. */
int lat_prepare(struct side *s); /* send_lat: receives posted before anyone sends */
int lat_run_a(struct side *a);
int lat_run_b(void *arg);
bool lat_passive(enum perf_test t);
int lat_rtt_factor(enum perf_test t);

/* perf_bw.c */
int bw_run_a(struct side *a);
void bw_report(const struct side *a, uint64_t iters, bool gbits);

#endif /* PERF_H */
