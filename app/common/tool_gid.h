/* SPDX-License-Identifier: BSD-3-Clause */
/* tool_gid.h - the GID index the tools use when none is given (perftest's rule). */
#ifndef IRDMA_APP_TOOL_GID_H
#define IRDMA_APP_TOOL_GID_H

#include <rte_pmd_irdma.h>

/**
 * perftest's choice without -x: the best RoCE v2 GID. Every GID of the device is RoCE v2;
 * the IPv4-mapped one (the device has ip=) is preferred, then a global IPv6 one, then the
 * link-local GID 0.
 */
int tool_best_gid_index(const struct rte_pmd_irdma_dev *dev);

#endif
