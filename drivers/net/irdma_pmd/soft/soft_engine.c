/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine: one progress function with a budget. Each step receives a burst from the
 * wire, consumes CQ-arm doorbells, then visits every live QP (SQ doorbell, responder
 * work, requester work, timers) and pushes what was built to the wire. It runs inline
 * (any lcore that polls calls it; a try-lock makes a second caller return at once) or as
 * an rte_service mapped by the application to a service lcore (engine=service).
 */
#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "soft_priv.h"

#define SOFT_SERVICE_BUDGET 64u

void soft_engine_activate(struct soft_dev *dev, struct soft_qp *qp)
{
	uint32_t i;

	for (i = 0; i < dev->n_active; i++)
		if (dev->active[i] == qp->id)
			return;
	dev->active[dev->n_active++] = qp->id;
}

void soft_engine_deactivate(struct soft_dev *dev, struct soft_qp *qp)
{
	uint32_t i;

	for (i = 0; i < dev->n_active; i++) {
		if (dev->active[i] == qp->id) {
			dev->active[i] = dev->active[--dev->n_active];
			return;
		}
	}
}

static unsigned int engine_step(struct soft_dev *dev, unsigned int budget)
{
	unsigned int work = 0, i, qbudget;
	uint64_t now = soft_now_ns(dev);

	/* Arms first: a CQ armed before this step sees the completions it produces. */
	work += soft_db_scan(dev);
	work += soft_wire_rx(dev, budget);
	qbudget = budget / (dev->n_active ? dev->n_active : 1);
	if (qbudget < 4)
		qbudget = 4;
	for (i = 0; i < dev->n_active; i++) {
		struct soft_qp *qp = &dev->qp[dev->active[i]];

		if (soft_db_take(&qp->db))
			qp->sq_kick = true;
		work += soft_req_run(qp, qbudget);
		soft_xport_timers(qp, now);
		work += soft_xport_tx(qp, qbudget, now);
		soft_xport_settle(qp);
	}
	work += soft_wire_flush(dev);
	return work;
}

int soft_engine_progress(struct soft_dev *dev, unsigned int budget)
{
	int work;

	if (!rte_spinlock_trylock(&dev->engine_lock))
		return 0;
	dev->st.polls++;
	work = (int)engine_step(dev, budget ? budget : SOFT_SERVICE_BUDGET);
	rte_spinlock_unlock(&dev->engine_lock);
	return work;
}

static int32_t soft_service_cb(void *arg)
{
	struct soft_dev *dev = arg;

	return soft_engine_progress(dev, SOFT_SERVICE_BUDGET) > 0 ? 0 : -EAGAIN;
}

int soft_engine_start(struct soft_dev *dev)
{
	struct rte_service_spec spec;
	int rc;

	if (dev->cfg.engine != IRDMA_HW_ENGINE_SERVICE)
		return 0;
	memset(&spec, 0, sizeof(spec));
	/* service names are short: keep the tail of the device name */
	snprintf(spec.name, sizeof(spec.name), "irdma_%.*s", (int)sizeof(spec.name) - 7,
		 dev->name);
	spec.callback = soft_service_cb;
	spec.callback_userdata = dev;
	spec.socket_id = dev->cfg.socket_id;
	spec.capabilities = 0; /* MT-unsafe: EAL runs it on one lcore at a time */
	rc = rte_service_component_register(&spec, &dev->service_id);
	if (rc) {
		SOFT_LOG(ERR, "%s: rte_service_component_register: %d", dev->name, rc);
		return rc;
	}
	dev->service_registered = true;
	rc = rte_service_component_runstate_set(dev->service_id, 1);
	if (rc) {
		soft_engine_stop(dev);
		return rc;
	}
	return 0;
}

void soft_engine_stop(struct soft_dev *dev)
{
	if (!dev->service_registered)
		return;
	rte_service_component_runstate_set(dev->service_id, 0);
	rte_service_runstate_set(dev->service_id, 0);
	/* Wait until no service lcore is inside the callback. */
	while (rte_service_may_be_active(dev->service_id) == 1)
		rte_pause();
	rte_service_component_unregister(dev->service_id);
	dev->service_registered = false;
	dev->service_id = UINT32_MAX;
}
