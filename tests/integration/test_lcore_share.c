/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two lcores mapped to one CPU (--lcores=0@0,1@0): the PMD warns when a device is created,
 * naming the lcores and the CPU, and rte_pmd_irdma_idle() on such an lcore yields.
 */
#include <rte_launch.h>

#include "itest.h"
#include "itest_log.h"

static int
idle_many(void *arg)
{
	struct rte_pmd_irdma_dev *dev = arg;
	int i;

	for (i = 0; i < 1000; i++)
		rte_pmd_irdma_idle(dev);
	return 0;
}

T_CASE(sharing_is_detected_and_named)
{
	struct rte_pmd_irdma_dev *dev;

	itest_log_begin();
	dev = itest_dev(NULL);
	itest_log_end();
	T_CHECK(dev != NULL);
	T_LOGGED("lcores 0 and 1 share CPU 0: two busy-pollers there hand off only at scheduler "
		 "ticks");
	/* Both lcores idling on one CPU finish: each yields to the other. */
	T_EQ(rte_eal_remote_launch(idle_many, dev, 1), 0);
	itest_log_begin();
	idle_many(dev);
	T_EQ(rte_eal_wait_lcore(1), 0);
	itest_log_end();
	T_LOGGED("shares its CPU: idle polls yield it");
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("lcore_share", "0@0,1@0", ITEST_NO_HUGE);
	rte_log_set_level_pattern("pmd.net.irdma.init", RTE_LOG_INFO);
	return t_main(argc, argv);
}
