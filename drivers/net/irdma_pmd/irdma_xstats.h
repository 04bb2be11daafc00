/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters kept by the PMD itself (the backend keeps the wire counters). Per QP and per CQ,
 * written only by the lcore that owns the object (no atomics), summed on read.
 */
#ifndef IRDMA_XSTATS_H
#define IRDMA_XSTATS_H

#include <stdint.h>

struct irdma_qp_stats {
	uint64_t tx_wrs;            /* send WRs taken */
	uint64_t tx_doorbells;
	uint64_t tx_rejected_wrs;   /* refused: invalid, wrong state, other PD, unsupported */
	uint64_t tx_sq_full;        /* refused: SQ full */
	uint64_t rx_wrs;            /* receive WRs taken */
	uint64_t rx_rejected_wrs;
	uint64_t rx_rq_full;
};

struct irdma_cq_stats {
	uint64_t completions;
	uint64_t error_completions; /* status other than success and flush */
	uint64_t flush_completions;
	uint64_t events;            /* completion events delivered after an arm */
};

struct rte_pmd_irdma_dev;
struct irdma_pmd_qp;

/* Device xstats: PMD totals then the backend's device counters. */
int irdma_xstats_dev_names(const struct rte_pmd_irdma_dev *dev, const char **names,
			   unsigned int n);
int irdma_xstats_dev_values(const struct rte_pmd_irdma_dev *dev, uint64_t *values,
			    unsigned int n);
/* QP xstats: PMD per-QP counters then the backend's counters of that QP. */
int irdma_xstats_qp_names(const struct irdma_pmd_qp *qp, const char **names, unsigned int n);
int irdma_xstats_qp_values(const struct irdma_pmd_qp *qp, uint64_t *values, unsigned int n);

#endif /* IRDMA_XSTATS_H */
