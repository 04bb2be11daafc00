/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perf_res.h - one side's RDMA resources for a benchmark: device, PD, a buffer of two
 * halves (what the peer writes/reads/sends into, and what this side sends from) under one
 * MR, one CQ for both directions and an RC QP, plus the QP connection (INIT -> RTR -> RTS).
 */
#ifndef IRDMA_PERF_RES_H
#define IRDMA_PERF_RES_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_pmd_irdma.h>

#include "perftest_exchange.h"

struct perf_res {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	struct rte_pmd_irdma_srq *srq; /**< --use-srq: the QP's receives come from here */
	struct rte_pmd_irdma_ah *ah;   /**< UD: the way to the peer */
	uint32_t remote_qpn;       /**< UD: the peer's QP */
	bool ud;
	int evfd;                  /**< -e: the CQ's completion eventfd (-1: none) */
	uint8_t *buf;
	uint64_t slot;             /**< bytes per half; buf + slot is the send half */
	uint32_t max_inline;       /**< granted */
	uint32_t psn;              /**< our initial send PSN (random, 24 bits) */
	uint32_t out_reads;        /**< reads/atomics we accept in flight (responder side) */
	int gid_index;             /**< the one in use */
	uint8_t qp_timeout, sl, tos, hop_limit;
	union rte_pmd_irdma_gid gid;
};

struct perf_res_cfg {
	uint64_t max_size;         /**< largest message */
	uint32_t tx_depth, rx_depth, inline_size;
	bool inline_auto;          /**< -I not given: perftest's default for the device */
	int mode;                  /**< enum perf_mode (the inline default depends on it) */
	int gid_index;             /**< -1: the best RoCE v2 GID */
	uint32_t out_reads;        /**< -o (0: the device's maximum) */
	uint8_t qp_timeout, sl, tos, hop_limit;
	bool use_srq;              /**< receive through an SRQ */
	bool ud;                   /**< a UD QP (perftest's -c UD) */
	bool events;               /**< give the CQ an eventfd */
	bool atomics;              /**< grant remote atomic access */
	bool reads;                /**< a read or atomic test: offer the device's read depth
				    *   (perftest says 1 outstanding read for the others) */
};

/** Create everything but the connection. @return 0 or -errno with @p err filled. */
int perf_res_create(struct perf_res *r, struct rte_pmd_irdma_dev *dev,
		    const struct perf_res_cfg *cfg, char *err, size_t errlen);

/** This side's record for the exchange (perftest's dest). */
void perf_res_local_dest(const struct perf_res *r, struct perftest_dest *d);

/**
 * Connect the QP to @p remote: RTR with the path MTU @p mtu_enum, then RTS.
 * @return 0 or -errno with @p err filled (naming the transition).
 */
int perf_res_connect(struct perf_res *r, const struct perftest_dest *remote, int mtu_enum,
		     char *err, size_t errlen);

/** Arm the CQs of the @p n resources @p r (-q: one per QP, all on one device) and wait for
 *  an event on any, driving an inline engine meanwhile, until @p deadline (TSC).
 *  @return 0 (an event or a timeout: poll again), or -errno. */
int perf_res_wait_events(struct perf_res *const *r, unsigned int n, uint64_t deadline);

/** Destroy in reverse order; tolerates a partly created @p r. */
void perf_res_destroy(struct perf_res *r);

/** perftest's Q_Key for UD, and the GRH area in front of every UD receive. */
#define PERF_UD_QKEY 0x11111111u
#define PERF_UD_GRH 40u

/** Bytes of a path MTU <-> ibv_mtu enum (0 when not a valid MTU). */
int perf_mtu_enum(uint32_t bytes);
uint32_t perf_mtu_bytes(int mtu_enum);

#endif /* IRDMA_PERF_RES_H */
