/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef IRDMA_POST_H
#define IRDMA_POST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "rte_pmd_irdma.h"

struct irdma_pmd_qp;

/* Post a bind-MW WQE giving the window @p new_rkey (type 1 and type 2 share it). */
int irdma_post_bind(struct irdma_pmd_qp *qp, struct rte_pmd_irdma_mw *mw,
		    const struct rte_pmd_irdma_mw_bind_info *bind, uint32_t new_rkey, uint64_t wr_id,
		    bool signaled, bool read_fence, bool post_sq);

#endif /* IRDMA_POST_H */
