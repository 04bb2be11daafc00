/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools' wait for a completion event (see tool_event.h). */
#include "tool_event.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <unistd.h>

#include <rte_cycles.h>

#define TOOL_MAX_EVENT_FDS 64

int tool_wait_cq_events(struct rte_pmd_irdma_dev *dev, const int *evfd, unsigned int n,
			uint64_t deadline)
{
	struct rte_pmd_irdma_dev_info info;
	struct pollfd p[TOOL_MAX_EVENT_FDS];
	bool inline_engine;
	unsigned int i;
	uint64_t v;

	if (n == 0 || n > TOOL_MAX_EVENT_FDS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		p[i].fd = evfd[i];
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	inline_engine = rte_pmd_irdma_dev_info(dev, &info) < 0 ||
			info.engine == RTE_PMD_IRDMA_ENGINE_INLINE;
	/* A completion that landed before the arm is found by the caller's next poll anyway. */
	while (rte_rdtsc() < deadline) {
		if (poll(p, n, inline_engine ? 0 : 1) > 0) {
			for (i = 0; i < n; i++)
				if ((p[i].revents & POLLIN) && read(evfd[i], &v, sizeof(v)) < 0 &&
				    errno != EAGAIN)
					return -errno;
			return 0;
		}
		if (inline_engine && rte_pmd_irdma_progress(dev, 64) > 0)
			return 0;
	}
	return -ETIMEDOUT;
}
