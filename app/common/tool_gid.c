/* SPDX-License-Identifier: BSD-3-Clause */
/* The default GID index of the tools (see tool_gid.h). */
#include "tool_gid.h"

#include <stdbool.h>
#include <string.h>

static bool ipv4_mapped(const uint8_t *g)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(g, prefix, sizeof(prefix)) == 0;
}

static bool link_local(const uint8_t *g)
{
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

int tool_best_gid_index(const struct rte_pmd_irdma_dev *dev)
{
	union rte_pmd_irdma_gid gid;
	int i, global = -1;

	for (i = 0; i < 256 && rte_pmd_irdma_query_gid(dev, (unsigned int)i, &gid) == 0; i++) {
		if (ipv4_mapped(gid.raw))
			return i;
		if (global < 0 && !link_local(gid.raw))
			global = i;
	}
	return global >= 0 ? global : 0;
}
