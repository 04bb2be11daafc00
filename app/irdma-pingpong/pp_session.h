/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pp_session.h - one irdma-pingpong endpoint: its resources, the out-of-band exchange and
 * the ping-pong itself, callable from the tool's main() or from a test that runs both
 * endpoints in one process (each on its own lcore).
 */
#ifndef IRDMA_PP_SESSION_H
#define IRDMA_PP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_pmd_irdma.h>

#include "pp_opts.h"

struct pp_ctx {
	/* what the test may look at after a run */
	const struct pp_opts *o;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_mr *mr;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_ah *ah;
	uint8_t *buf;
	size_t buf_len;
	int evfd;
	uint32_t max_inline;
	uint32_t remote_qpn;
	int routs;                 /* receives posted */
	int gid_index;             /* -g, or the best RoCE v2 GID */
	unsigned int bad_pages;    /* -c: pages that failed the payload check */
};

/** Create the device from o->devargs and the QP, and post the receives.
 *  @return 0, or -1 after printing one line saying why. */
int pp_session_init(struct pp_ctx *c, const struct pp_opts *o);
/** Exchange with the peer (client when o->server_host is set) and ping-pong.
 *  @return 0, or -1 after printing one line saying why. */
int pp_session_run(struct pp_ctx *c);
void pp_session_fini(struct pp_ctx *c);

#endif
