/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-perf's two ways to run: both sides in this process, or one side against a peer. */
#ifndef IRDMA_PERF_RUN_H
#define IRDMA_PERF_RUN_H

#include <stdio.h>

#include <rte_pmd_irdma.h>

#include "perf_opts.h"
#include "perf_report.h"
#include "perf_res.h"
#include "perf_side.h"

/** --loop: run the selected test(s) between @p a (client) and @p b (server).
 *  @return 0 when every test ran and its data checked out, else a negative errno. */
int perf_run_loop(const struct perf_opts *o, struct rte_pmd_irdma_dev *a,
		  struct rte_pmd_irdma_dev *b);

/** Client (o->server_host set) or server, perftest's TCP exchange. */
int perf_run_remote(const struct perf_opts *o, struct rte_pmd_irdma_dev *dev);

/* Shared helpers (perf_common.c). */
void perf_params_of(const struct perf_opts *o, enum perf_mode m, uint64_t size,
		    struct perf_params *p);
/** The resources test @p m with parameters @p p needs, for messages up to @p max_size. */
void perf_res_cfg_of(const struct perf_opts *o, enum perf_mode m, const struct perf_params *p,
		     uint64_t max_size, struct perf_res_cfg *cfg);
/** -c UD: the sizes from @p first to @p last must fit the path MTU @p mtu: -a stops at it,
 *  the default size is lowered to it, an -s above it fails. @return 0 or -EINVAL. */
int perf_ud_sizes(const struct perf_opts *o, uint32_t mtu, uint64_t *first, uint64_t *last,
		  char *err, size_t errlen);
void perf_addr_of(const struct perftest_dest *d, struct perf_addr *a);
enum perf_addr_style perf_addr_style_of(enum perf_mode m);
void perf_header_of(const struct perf_opts *o, const struct perf_params *p,
		    const struct perf_res *r, bool client, uint32_t mtu, const char *method,
		    struct perf_header *h);
/** The bandwidth figures of the @p nq finished sides (QPs) of one endpoint (perftest's rules
 *  for each case; with several QPs their WRs count as one stream). */
void perf_bw_of(const struct perf_side *s, unsigned int nq, const struct perf_opts *o,
		struct perf_bw_stats *st);
/** -b: the row of both directions added up (and each with --report-both); limits apply to
 *  the sum. @return 0 or -ERANGE. */
int perf_print_duplex(FILE *f, const struct perf_bw_stats *mine, const struct perf_bw_stats *theirs,
		      const struct perf_opts *o, bool head);
/** -w/-y: one line and -ERANGE when @p st is below a limit, else 0. */
int perf_check_limits(const struct perf_opts *o, const struct perf_bw_stats *st);
/** Latency/BW table rows of the @p nq finished sides of one endpoint; @return 0, -ENOMEM,
 *  or -ERANGE (below -w/-y). */
int perf_print_results(FILE *f, const struct perf_side *s, unsigned int nq,
		       const struct perf_opts *o, bool head);
/** Start the device's rte_service on a service lcore when engine=service. */
int perf_engine_start(struct rte_pmd_irdma_dev *dev, char *err, size_t errlen);

#endif
