/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Integration tests: two devices' engines (engine=service) run as rte_services on one
 * service lcore, started and stopped the same way by every test that needs it.
 */
#ifndef ITEST_SERVICE_H
#define ITEST_SERVICE_H

#include <stdint.h>

#include <rte_pause.h>
#include <rte_service.h>

/* Services s0 and s1 mapped to slcore and running. 0, or the first failing call's error. */
static inline int
itest_services_run(unsigned int slcore, uint32_t s0, uint32_t s1)
{
	int rc = rte_service_lcore_add(slcore);

	if (rc == 0)
		rc = rte_service_map_lcore_set(s0, slcore, 1);
	if (rc == 0)
		rc = rte_service_map_lcore_set(s1, slcore, 1);
	if (rc == 0)
		rc = rte_service_runstate_set(s0, 1);
	if (rc == 0)
		rc = rte_service_runstate_set(s1, 1);
	if (rc == 0)
		rc = rte_service_lcore_start(slcore);
	return rc;
}

/* Services first (a service lcore refuses to stop while it is the only one running an
 * enabled service), then the lcore, unmapped and removed. 0, or the first error. */
static inline int
itest_services_end(unsigned int slcore, uint32_t s0, uint32_t s1)
{
	int rc = rte_service_runstate_set(s0, 0);

	if (rc == 0)
		rc = rte_service_runstate_set(s1, 0);
	if (rc == 0)
		rc = rte_service_lcore_stop(slcore);
	if (rc != 0)
		return rc;
	while (rte_service_lcore_may_be_active(slcore) == 1)
		rte_pause();
	rte_service_map_lcore_set(s0, slcore, 0);
	rte_service_map_lcore_set(s1, slcore, 0);
	return rte_service_lcore_del(slcore);
}

#endif /* ITEST_SERVICE_H */
