/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools' wait for a completion event (see tool_event.h). */
#include "tool_event.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <unistd.h>

#include <rte_cycles.h>

int tool_wait_cq_event(struct rte_pmd_irdma_dev *dev, int evfd, uint64_t deadline)
{
	struct rte_pmd_irdma_dev_info info;
	struct pollfd p = { .fd = evfd, .events = POLLIN };
	bool inline_engine;
	uint64_t v;

	inline_engine = rte_pmd_irdma_dev_info(dev, &info) < 0 ||
			info.engine == RTE_PMD_IRDMA_ENGINE_INLINE;
	/* A completion that landed before the arm is found by the caller's next poll anyway. */
	while (rte_rdtsc() < deadline) {
		if (poll(&p, 1, inline_engine ? 0 : 1) > 0) {
			if (read(evfd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				return -errno;
			return 0;
		}
		if (inline_engine && rte_pmd_irdma_progress(dev, 64) > 0)
			return 0;
	}
	return -ETIMEDOUT;
}
