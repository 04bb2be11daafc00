/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine: one progress function with a budget. Each step consumes the doorbells rung
 * since the last one (soft_doorbell.c: CQ arms, then SQ doorbells, which queue their QPs),
 * receives a burst from the wire (each frame's QP is queued), queues the QPs whose
 * lib/roce deadline has passed, then serves the work list round-robin and pushes what was
 * built to the wire. A QP with nothing pending is on no list and costs a step nothing, so
 * an idle step (what every empty inline poll_cq pays) is a handful of loads however many
 * QPs the device holds, and the time is read only when a QP needs it.
 *
 * Fairness: each QP gets the same share per visit (SOFT_QP_SHARE WQEs fetched, frames
 * built), whatever the number of busy QPs, and the step ends once its budget is spent;
 * the next step goes on from the next QP on the list. It runs inline (any lcore that polls
 * calls it; a try-lock makes a second caller return at once) or as an rte_service mapped
 * by the application to a service lcore (engine=service).
 */
#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "soft_loop_q.h"
#include "soft_priv.h"
#include "soft_xport_fast.h"

#define SOFT_SERVICE_BUDGET 64u
/* A QP's share of a visit: a doorbell's worth of WQEs (32 per doorbell is the
 * message-rate pattern; the front end counts a fetch and a hand-over per WQE) and as many
 * frames, the same however many QPs are busy, so the requester sends a doorbell's WRITEs
 * in one burst and the responder's ACK coalescing does not depend on N. */
#define SOFT_QP_SHARE 64u

int soft_engine_init(struct soft_dev *dev)
{
	uint32_t slots = rte_align32pow2(dev->max_qp);

	dev->qp_sched = rte_zmalloc_socket("soft_sched", dev->max_qp, 0, dev->cfg.socket_id);
	dev->work = rte_zmalloc_socket("soft_work", slots * sizeof(uint32_t), RTE_CACHE_LINE_SIZE,
				       dev->cfg.socket_id);
	dev->timers = rte_zmalloc_socket("soft_timers", dev->max_qp * sizeof(uint32_t),
					 RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
	dev->timer_pos = rte_zmalloc_socket("soft_tpos", dev->max_qp * sizeof(uint32_t), 0,
					    dev->cfg.socket_id);
	if (!dev->qp_sched || !dev->work || !dev->timers || !dev->timer_pos)
		return -ENOMEM;
	dev->work_mask = slots - 1;
	dev->tsc_per_ns_q32 = (uint64_t)(((unsigned __int128)dev->tsc_hz << 32) / 1000000000u);
	dev->ns_per_tsc_q32 = (uint64_t)(((unsigned __int128)1000000000u << 32) / dev->tsc_hz);
	soft_clock_rebase(dev, rte_get_tsc_cycles());
	dev->step_ns = 0;
	dev->timer_tsc = UINT64_MAX;
	dev->timer_ns = ROCE_TIME_NEVER;
	return 0;
}

void soft_engine_fini(struct soft_dev *dev)
{
	rte_free(dev->qp_sched);
	rte_free(dev->work);
	rte_free(dev->timers);
	rte_free(dev->timer_pos);
	dev->qp_sched = NULL;
	dev->work = dev->timers = dev->timer_pos = NULL;
}

static void timer_remove(struct soft_dev *dev, uint32_t id)
{
	uint32_t pos = dev->timer_pos[id], last = dev->timers[--dev->n_timers];

	dev->timers[pos] = last;
	dev->timer_pos[last] = pos;
	dev->qp_sched[id] &= (uint8_t)~SOFT_SCHED_TIMER;
	if (dev->n_timers == 0) {
		dev->timers_armed = false;
		dev->timer_tsc = UINT64_MAX;
		dev->timer_ns = ROCE_TIME_NEVER;
	}
}

/* An armed deadline joins the timer list, or becomes its earliest (a disarmed one is left
 * for the expiry walk). */
void soft_engine_timer_note(struct soft_dev *dev, const struct soft_qp *qp, uint64_t d)
{
	uint8_t *f = &dev->qp_sched[qp->id];

	if (d == ROCE_TIME_NEVER)
		return;
	if (!(*f & SOFT_SCHED_TIMER)) {
		*f |= SOFT_SCHED_TIMER;
		dev->timer_pos[qp->id] = dev->n_timers;
		dev->timers[dev->n_timers++] = qp->id;
		dev->timers_armed = true;
	}
	if (d < dev->timer_ns) { /* usually not: a new deadline is later than the earliest */
		dev->timer_ns = d;
		dev->timer_tsc = soft_ns_to_tsc(dev, d);
	}
}

void soft_engine_forget(struct soft_dev *dev, struct soft_qp *qp)
{
	if (dev->qp_sched[qp->id] & SOFT_SCHED_TIMER)
		timer_remove(dev, qp->id);
}

/* The earliest deadline has passed: queue every QP whose deadline has, drop those whose
 * timer is off (lazily: an ACK that stops the timer leaves the QP listed), and find the
 * next one. A deadline that moves earlier is noted as it moves (soft_engine_timer_follow);
 * one that moves later (an ACK restarts the timer) is not, so the cached earliest one is
 * at worst early, and this walk runs about once per timeout. */
static __rte_noinline void timers_expire(struct soft_dev *dev, uint64_t now)
{
	uint64_t next = ROCE_TIME_NEVER;
	uint32_t i = 0;

	while (i < dev->n_timers) {
		uint32_t id = dev->timers[i];
		struct soft_qp *qp = dev->qp[id];
		uint64_t d = qp != NULL ? roce_qp_next_deadline(&qp->xport) : ROCE_TIME_NEVER;

		if (d == ROCE_TIME_NEVER) {
			timer_remove(dev, id); /* moves the last one to i */
			continue;
		}
		if (d <= now)
			soft_engine_mark(dev, qp); /* its step runs the timer and notes the next */
		else if (d < next)
			next = d;
		i++;
	}
	dev->timer_ns = next;
	dev->timer_tsc = next == ROCE_TIME_NEVER ? UINT64_MAX : soft_ns_to_tsc(dev, next);
}


/* One QP's share of a step. Returns the work done; *again: the QP has more that this
 * step's end cannot wait for (see work_run). */
static __rte_always_inline unsigned int qp_step(struct soft_qp *qp, unsigned int share,
						uint64_t now, bool *again)
{
	unsigned int work = 0;
	bool tx;

	if (qp->sq_kick || qp->swq_send != qp->swq_head)
		work += soft_req_run(qp, share, now);
	if (unlikely(now >= roce_qp_next_deadline(&qp->xport)))
		soft_xport_timers(qp, now);
	tx = roce_qp_wants_tx(&qp->xport, now);
	if (tx)
		work += soft_xport_tx(qp, share, now, &tx);
	/* settle only when there is something to apply or retire (a WQE in flight is not);
	 * without a settle, the error and the completions to retire are known to be none,
	 * and what lib/roce wants to send is tx, read after the last call into it */
	if (unlikely(qp->wire_err || (qp->swq_done != qp->swq_head &&
				      qp->swq[qp->swq_done].state == SOFT_SWQE_DONE))) {
		soft_xport_settle(qp);
		*again = soft_engine_qp_pending(qp, now);
	} else {
		*again = tx;
	}
	/* Send work left: again next turn if this one moved anything; a visit that moved
	 * nothing means it waits for the wire (an ACK makes room, ends a fence), which queues
	 * it again (soft_engine_rx_done). */
	if (!*again && work != 0)
		*again = soft_engine_sq_waiting(qp);
	return work;
}

/* Serves the work list from its head: each QP its share, until the budget is spent or
 * every QP queued at the start had its turn; a QP with more to do goes to the back. */
static __rte_always_inline unsigned int work_run(struct soft_dev *dev, unsigned int budget)
{
	unsigned int work = 0, spent = 0, n = dev->n_work;
	uint64_t now = soft_now_ns(dev);

	while (n-- && spent < budget) {
		uint32_t id = dev->work[dev->work_head++ & dev->work_mask];
		struct soft_qp *qp = dev->qp[id];
		unsigned int w;
		bool again;

		dev->n_work--;
		dev->qp_sched[id] &= (uint8_t)~SOFT_SCHED_WORK;
		if (unlikely(qp == NULL || qp->state == IRDMA_HW_QPS_RESET))
			continue;
		w = qp_step(qp, SOFT_QP_SHARE, now, &again);
		work += w;
		spent += w + 1; /* a visit costs budget even when it finds nothing */
		/* The wire's backlog is full: whatever this QP has left waits for the step's
		 * push (REQ_WAIT_WIRE keeps its WQEs in the SQ), and so would every QP after it.
		 * It goes to the back, so that with a backlog jammed for longer (a dead peer)
		 * each QP still gets its visit in turn (timers, completions, the error). */
		if (again || unlikely(dev->wire_full))
			soft_engine_mark(dev, qp);
		soft_engine_timer_follow(dev, qp);
		if (unlikely(dev->wire_full))
			break;
	}
	return work;
}

/* The busy word holds nothing but armed timers: idle while the earliest is not due (the
 * TSC is read only here; a listed timer is usually off or later than timer_tsc). */
static inline bool engine_timers_not_due(const struct soft_dev *dev)
{
	return !dev->poll_port && /* first: an ethdev port's every step comes here */
	       __atomic_load_n(&dev->n_work, __ATOMIC_RELAXED) == 0 &&
	       !__atomic_load_n(&dev->wire_dirty, __ATOMIC_RELAXED) &&
	       rte_get_tsc_cycles() < __atomic_load_n(&dev->timer_tsc, __ATOMIC_RELAXED);
}

/* Nothing for a step to do: no doorbell, no frame on the loop's receive queue
 * (soft_loop_q.h), and the busy word clear (no QP queued, no backlog, no timer, port=loop)
 * or only timers not due yet. Read without the lock, as a
 * hint: what the lists hold changes under it, and a change this misses is seen by the next
 * step. */
static inline bool engine_idle(const struct soft_dev *dev)
{
	if (soft_db_pending(dev) || !soft_loop_q_empty(dev->loop_rx))
		return false;
	if (likely(__atomic_load_n(&dev->busy, __ATOMIC_RELAXED) == 0))
		return true;
	return engine_timers_not_due(dev);
}

/* Received frames: port=loop without receive faults takes its queue itself (a call only
 * when it holds frames); other ports and fault injection through soft_wire_rx(). */
static __rte_always_inline unsigned int engine_rx(struct soft_dev *dev, unsigned int budget)
{
	if (likely(dev->loop_rx_direct))
		return soft_loop_q_empty(dev->loop_rx) ? 0 : soft_wire_rx_burst(dev, budget);
	return soft_wire_rx(dev, budget);
}

/* The backlog to the wire: port=loop without faults by its own flush (no held frames to
 * look for), other ports and fault injection through soft_wire_flush(). */
static __rte_always_inline unsigned int engine_flush(struct soft_dev *dev)
{
	if (likely(dev->loop_tx_direct))
		return soft_wire_flush_loop(dev);
	return soft_wire_flush(dev);
}

/*
 * One step; an idle one (engine_idle) returns before the lock. The wire's backlog is pushed
 * only when wire_dirty says it holds frames (queued in this step, left by an earlier push,
 * a MAD QP 1 queued between steps) or a fault holds some, so a step that only took an ACK
 * or wrote a CQE does not call the wire.
 */
static __rte_always_inline unsigned int engine_step_locked(struct soft_dev *dev,
							   unsigned int budget)
{
	unsigned int work = 0;

	dev->st.polls++;
	dev->wire_full = false; /* the last step's push made room, or the first frame says */
	if (budget == 0)
		budget = SOFT_SERVICE_BUDGET;
	if (unlikely(soft_db_pending(dev)))
		work += soft_db_take(dev);
	work += engine_rx(dev, budget);
	if (unlikely(dev->n_timers != 0)) {
		uint64_t tsc = rte_get_tsc_cycles();

		if (tsc >= dev->timer_tsc) {
			if (dev->step_ns == 0)
				dev->step_ns = soft_clock_ns(dev, tsc);
			timers_expire(dev, dev->step_ns);
		}
	}
	if (dev->n_work != 0)
		work += work_run(dev, budget);
	if (dev->wire_dirty)
		work += engine_flush(dev);
	dev->step_ns = 0; /* the next step reads the TSC again */
	return work;
}

static __rte_noinline int engine_step(struct soft_dev *dev, unsigned int budget)
{
	unsigned int work;

	if (!rte_spinlock_trylock(&dev->engine_lock))
		return 0;
	work = engine_step_locked(dev, budget);
	rte_spinlock_unlock(&dev->engine_lock);
	return (int)work;
}

/*
 * engine=inline: the post's doorbell taken by the posting lcore (irdma_hw_ops.sq_kick). The
 * QP is queued as its doorbell bit would have queued it (soft_doorbell.c qp_rang) and one
 * step runs, so the frame is on the wire when post_send returns and no summary bit is set
 * or taken for it. Another lcore in the engine: 0, and the caller rings the doorbell.
 */
int soft_engine_sq_kick(struct irdma_hw_dev *hw, uint32_t qp_id, unsigned int budget)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp;

	if (!rte_spinlock_trylock(&dev->engine_lock))
		return 0;
	qp = soft_qp_get(dev, qp_id);
	if (unlikely(qp == NULL)) {
		rte_spinlock_unlock(&dev->engine_lock);
		return 0;
	}
	qp->sq_kick = true;
	soft_engine_mark(dev, qp);
	dev->st.sq_kicks++;
	engine_step_locked(dev, budget);
	rte_spinlock_unlock(&dev->engine_lock);
	return 1;
}

/* The idle check inline, the step out of line: an idle call saves no registers. The
 * operations table's progress itself (irdma_soft_ops): no call in between. */
int soft_engine_progress(struct irdma_hw_dev *hw, unsigned int budget)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	/* Not atomic: a lost count between two callers racing here does not matter. */
	dev->st.progress_calls++;
	if (engine_idle(dev))
		return 0;
	return engine_step(dev, budget);
}

static int32_t soft_service_cb(void *arg)
{
	struct irdma_hw_dev *hw = arg; /* the device (soft_dev_open hands it out as one) */

	return soft_engine_progress(hw, SOFT_SERVICE_BUDGET) > 0 ? 0 : -EAGAIN;
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
