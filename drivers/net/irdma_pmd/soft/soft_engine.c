/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine: one progress function with a budget. Each step consumes CQ-arm doorbells,
 * receives a burst from the wire, then visits every live QP (SQ doorbell, requester
 * work, timers, responder and requester frames, completions) and pushes what was built
 * to the wire. QPs with nothing pending are passed over after a few loads, and the time
 * is read once, only when some QP needs it: an idle step is what every empty inline
 * poll_cq pays. It runs inline
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

/*
 * Nothing for this QP in this step: no doorbell written, no WQE fetched and not yet
 * handed to lib/roce, none waiting to complete, no timer armed, nothing lib/roce wants
 * to send. An inline engine runs on every poll_cq, mostly idle, so this is checked
 * before anything else and costs a handful of loads. With no timer armed, the RNR wait
 * inside roce_qp_wants_tx() cannot apply, so it needs no time.
 */
static inline bool qp_quiet(struct soft_qp *qp)
{
	return atomic_load_explicit(&qp->db, memory_order_relaxed) == IRDMA_HW_DB_IDLE &&
	       !qp->sq_kick && qp->swq_send == qp->swq_head && qp->swq_done == qp->swq_head &&
	       !qp->wire_err && roce_qp_next_deadline(&qp->rq) == ROCE_TIME_NEVER &&
	       !roce_qp_wants_tx(&qp->rq, 0);
}

/* One QP's share of a step; kept out of line so the idle loop around it stays lean. */
static __rte_noinline unsigned int qp_step(struct soft_qp *qp, unsigned int qbudget,
					   uint64_t now)
{
	unsigned int work = 0;

	if (soft_db_take(&qp->db))
		qp->sq_kick = true;
	if (qp->sq_kick || qp->swq_send != qp->swq_head)
		work += soft_req_run(qp, qbudget);
	soft_xport_timers(qp, now);
	if (roce_qp_wants_tx(&qp->rq, now))
		work += soft_xport_tx(qp, qbudget, now);
	if (qp->wire_err || qp->swq_done != qp->swq_head)
		soft_xport_settle(qp);
	return work;
}

static unsigned int engine_step(struct soft_dev *dev, unsigned int budget)
{
	unsigned int work = 0, i, qbudget = 0;
	uint64_t now = 0;

	/* Arms first: a CQ armed before this step sees the completions it produces. */
	work += soft_db_scan(dev);
	work += soft_wire_rx(dev, budget);
	for (i = 0; i < dev->n_active; i++) {
		struct soft_qp *qp = &dev->qp[dev->active[i]];

		if (qp_quiet(qp))
			continue;
		if (qbudget == 0) { /* first busy QP: one TSC read per step, the QPs' share */
			now = soft_now_ns(dev);
			qbudget = RTE_MAX(budget / dev->n_active, 4u);
		}
		work += qp_step(qp, qbudget, now);
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
