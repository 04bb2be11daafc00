/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft device's control commands and xstats, as irdma_soft_ops (soft_dev.c) lists them.
 * soft_ctrl_obj.c: PD, CQ, SRQ, MR/MW, AH; soft_ctrl_qp.c: QP; soft_xstats.c: counters.
 */
#ifndef SOFT_CTRL_H
#define SOFT_CTRL_H

#include <stdint.h>

#include "irdma_hw.h"

int soft_pd_alloc(struct irdma_hw_dev *hw, uint32_t *pd_id);

int soft_pd_dealloc(struct irdma_hw_dev *hw, uint32_t pd_id);

int soft_cq_create(struct irdma_hw_dev *hw, const struct irdma_hw_cq_ctx *ctx,
		   uint32_t *cq_id, uint32_t **db);

int soft_cq_destroy(struct irdma_hw_dev *hw, uint32_t cq_id);

int soft_cq_resize(struct irdma_hw_dev *hw, uint32_t cq_id, void *base, uint64_t iova,
		   uint32_t size);

int soft_cq_set_event(struct irdma_hw_dev *hw, uint32_t cq_id, int eventfd,
		      void (*cb)(void *arg, uint32_t cq_id), void *arg);

int soft_srq_create(struct irdma_hw_dev *hw, const struct irdma_hw_srq_ctx *ctx,
		    uint32_t *srq_id);

int soft_srq_destroy(struct irdma_hw_dev *hw, uint32_t srq_id);

int soft_srq_arm(struct irdma_hw_dev *hw, uint32_t srq_id, uint32_t limit);

int soft_mr_reg_op(struct irdma_hw_dev *hw, const struct irdma_hw_mr_ctx *ctx,
		   uint32_t *stag);

int soft_mr_dereg_op(struct irdma_hw_dev *hw, uint32_t stag);

int soft_mw_alloc_op(struct irdma_hw_dev *hw, uint32_t pd_id, enum irdma_hw_mw_type type,
		     uint32_t *stag);

int soft_mw_dealloc_op(struct irdma_hw_dev *hw, uint32_t stag);

int soft_ah_create(struct irdma_hw_dev *hw, uint32_t pd_id, const struct irdma_hw_av *av,
		   uint32_t *ah_id);

int soft_ah_destroy(struct irdma_hw_dev *hw, uint32_t ah_id);

int soft_qp_create(struct irdma_hw_dev *hw, const struct irdma_hw_qp_ctx *ctx,
		   uint32_t *qp_id, uint32_t **db);

int soft_qp_modify(struct irdma_hw_dev *hw, uint32_t qp_id,
		   const struct irdma_hw_qp_attr *attr, uint32_t mask);

int soft_qp_query(struct irdma_hw_dev *hw, uint32_t qp_id, struct irdma_hw_qp_attr *attr);

int soft_qp_destroy(struct irdma_hw_dev *hw, uint32_t qp_id);

int soft_xstats_names(struct irdma_hw_dev *hw, int64_t qp_id, const char **names,
		      unsigned int n);

int soft_xstats_get(struct irdma_hw_dev *hw, int64_t qp_id, uint64_t *values,
		    unsigned int n);

int soft_xstats_reset(struct irdma_hw_dev *hw, int64_t qp_id);

#endif /* SOFT_CTRL_H */
