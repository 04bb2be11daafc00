/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool_event.h - the tools' wait for a completion event (-e): the CQ's eventfd, read with
 * poll(2). An inline engine runs only when someone calls it, so there the wait drives the
 * device instead of sleeping; a service engine runs on its own lcore and the wait sleeps.
 */
#ifndef IRDMA_APP_TOOL_EVENT_H
#define IRDMA_APP_TOOL_EVENT_H

#include <stdint.h>

#include <rte_pmd_irdma.h>

/**
 * Wait for an event on any of the @p n eventfds @p evfd (of CQs the caller armed, all on
 * device @p dev), until @p deadline (TSC). @return 0 on an event (each one that fired is
 * consumed) or, with an inline engine, as soon as the engine did some work; -ETIMEDOUT at
 * the deadline; -errno when a read fails.
 */
int tool_wait_cq_events(struct rte_pmd_irdma_dev *dev, const int *evfd, unsigned int n,
			uint64_t deadline);

/** The same for one CQ. */
static inline int tool_wait_cq_event(struct rte_pmd_irdma_dev *dev, int evfd, uint64_t deadline)
{
	return tool_wait_cq_events(dev, &evfd, 1, deadline);
}

#endif /* IRDMA_APP_TOOL_EVENT_H */
