/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Busy-poll hygiene. Two lcores spinning on one CPU hand the CPU to each other only when the
 * scheduler preempts, a measured 8 ms per hand-off on the CI machine: an RDMA ping-pong
 * between them crawls. The PMD detects lcores whose CPU sets overlap, warns once, and makes
 * rte_pmd_irdma_idle() yield on such lcores instead of spinning.
 */
#include <sched.h>
#include <stdio.h>

#include <rte_lcore.h>
#include <rte_per_lcore.h>
#include <rte_pause.h>

#include "irdma_pmd.h"

enum { SHARING_UNKNOWN, SHARING_NO, SHARING_YES };

static RTE_DEFINE_PER_LCORE(int, irdma_sharing);

static int
first_shared_cpu(unsigned int a, unsigned int b)
{
	rte_cpuset_t ca = rte_lcore_cpuset(a), cb = rte_lcore_cpuset(b);
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &ca) && CPU_ISSET(cpu, &cb))
			return cpu;
	return -1;
}

/* Does lcore @p self share a CPU with another enabled lcore? */
static bool
lcore_shares_cpu(unsigned int self)
{
	unsigned int other;

	RTE_LCORE_FOREACH(other) {
		if (other != self && first_shared_cpu(self, other) >= 0)
			return true;
	}
	return false;
}

void
irdma_lcore_check_sharing(const struct rte_pmd_irdma_dev *dev)
{
	unsigned int a, b;
	int cpu;

	RTE_LCORE_FOREACH(a) {
		RTE_LCORE_FOREACH(b) {
			if (b <= a)
				continue;
			cpu = first_shared_cpu(a, b);
			if (cpu < 0)
				continue;
			IRDMA_LOG(init, WARNING,
				  "%s: lcores %u and %u share CPU %d: two busy-pollers there hand off "
				  "only at scheduler ticks (~8 ms each); give every polling lcore its "
				  "own CPU (-l/--lcores), or call rte_pmd_irdma_idle() when a poll finds "
				  "nothing so it yields", dev->name, a, b, cpu);
		}
	}
}

void
rte_pmd_irdma_idle(struct rte_pmd_irdma_dev *dev)
{
	unsigned int self = rte_lcore_id();
	int *state = &RTE_PER_LCORE(irdma_sharing);

	RTE_SET_USED(dev);
	rte_pause();
	if (unlikely(*state == SHARING_UNKNOWN)) {
		/* Non-EAL threads cannot be checked: assume the worst and yield. */
		*state = (self == LCORE_ID_ANY || lcore_shares_cpu(self)) ? SHARING_YES : SHARING_NO;
		if (*state == SHARING_YES && self != LCORE_ID_ANY)
			IRDMA_LOG(init, NOTICE, "lcore %u shares its CPU: idle polls yield it", self);
	}
	if (*state == SHARING_YES)
		sched_yield();
}
