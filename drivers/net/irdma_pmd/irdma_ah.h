/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef IRDMA_AH_H
#define IRDMA_AH_H

#include "irdma_hw.h"
#include "rte_pmd_irdma.h"

/* Validate a verbs address vector and convert it for the backend (logs why on -EINVAL). */
int irdma_av_from_attr(const struct rte_pmd_irdma_dev *dev, const struct rte_pmd_irdma_ah_attr *attr,
		       struct irdma_hw_av *av);

#endif /* IRDMA_AH_H */
