/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device registry (Debian's DPDK has no driver-SDK headers, so devices are created from
 * a devargs string through public APIs rather than probed by EAL), device create/close/info,
 * the engine entry points and asynchronous events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>

#include "irdma_ethdev_find.h"
#include "irdma_pmd.h"

#define IRDMA_MAX_DEVS 64

static TAILQ_HEAD(, rte_pmd_irdma_dev) irdma_devs = TAILQ_HEAD_INITIALIZER(irdma_devs);
static rte_spinlock_t irdma_registry = RTE_SPINLOCK_INITIALIZER;
static uint64_t irdma_dev_slots; /* bit per used registry index */

static const struct {
	const char *name;
	const struct irdma_hw_ops *ops;
} irdma_backend_table[] = {
	{ "soft", &irdma_soft_ops },
};

void irdma_registry_lock(void) { rte_spinlock_lock(&irdma_registry); }
void irdma_registry_unlock(void) { rte_spinlock_unlock(&irdma_registry); }
struct rte_pmd_irdma_dev *irdma_registry_first(void) { return TAILQ_FIRST(&irdma_devs); }
struct rte_pmd_irdma_dev *irdma_registry_next(struct rte_pmd_irdma_dev *d)
{
	return TAILQ_NEXT(d, next);
}

struct rte_pmd_irdma_dev *
irdma_registry_find(const char *name)
{
	struct rte_pmd_irdma_dev *dev;

	TAILQ_FOREACH(dev, &irdma_devs, next)
		if (strcmp(dev->name, name) == 0)
			return dev;
	return NULL;
}

/* Engine context (any lcore): queue the event; mark an overflowed CQ at once. */
static void
irdma_dev_async_cb(void *arg, const struct irdma_hw_event *ev)
{
	struct rte_pmd_irdma_dev *dev = arg;

	if (ev->type == IRDMA_HW_EVENT_CQ_ERR && ev->id < dev->n_cq_ids &&
	    dev->cq_by_id[ev->id] != NULL)
		__atomic_store_n(&dev->cq_by_id[ev->id]->in_error, 1, __ATOMIC_RELAXED);
	/* A QP the device moved to ERR: from now on its receive posts ask for a flush. */
	if ((ev->type == IRDMA_HW_EVENT_QP_FATAL || ev->type == IRDMA_HW_EVENT_QP_REQ_ERR ||
	     ev->type == IRDMA_HW_EVENT_QP_ACCESS_ERR) && ev->id < dev->n_qp_ids &&
	    dev->qp_by_id[ev->id] != NULL)
		irdma_qp_state_note_error(dev->qp_by_id[ev->id]);
	rte_spinlock_lock(&dev->ev_lock);
	if (dev->ev_head - dev->ev_tail < IRDMA_ASYNC_EVENTS)
		dev->ev[dev->ev_head++ & (IRDMA_ASYNC_EVENTS - 1)] = *ev;
	else
		dev->ev_lost++;
	rte_spinlock_unlock(&dev->ev_lock);
}

static int
resolve_port(struct irdma_devargs *da, int *socket)
{
	uint16_t port_id, p;
	char list[256] = "", pname[RTE_ETH_NAME_MAX_LEN];
	size_t off = 0;

	if (strcmp(da->port, "loop") == 0) {
		*socket = SOCKET_ID_ANY;
		return 0;
	}
	if (irdma_ethdev_find(da->port, &port_id) == 0) {
		*socket = rte_eth_dev_socket_id(port_id);
		return 0;
	}
	RTE_ETH_FOREACH_DEV(p) {
		if (rte_eth_dev_get_name_by_port(p, pname) == 0 && off < sizeof(list))
			off += snprintf(list + off, sizeof(list) - off, " %s", pname);
	}
	IRDMA_LOG(init, ERR, "devargs: port=%s: no such ethdev; valid values: loop%s, or the PCI "
		  "address of a port EAL probed (-a <address>, a NIC bound to vfio-pci)", da->port, list);
	return -ENODEV;
}

struct rte_pmd_irdma_dev *
rte_pmd_irdma_dev_create(const char *devargs)
{
	const struct irdma_hw_ops *ops = NULL;
	struct rte_pmd_irdma_dev *dev;
	struct irdma_devargs da;
	int ret, port_socket;
	unsigned int i, slot;

	ret = irdma_devargs_parse(devargs, &da);
	if (ret < 0)
		goto fail;
	for (i = 0; i < RTE_DIM(irdma_backend_table); i++)
		if (strcmp(da.backend, irdma_backend_table[i].name) == 0)
			ops = irdma_backend_table[i].ops;
	if (ops == NULL) {
		ret = -EINVAL;
		goto fail;
	}
	ret = resolve_port(&da, &port_socket);
	if (ret < 0)
		goto fail;
	if (!da.socket_set)
		da.cfg.socket_id = port_socket != SOCKET_ID_ANY ? port_socket : (int)rte_socket_id();

	rte_spinlock_lock(&irdma_registry);
	if (da.name[0] != '\0' && irdma_registry_find(da.name) != NULL) {
		rte_spinlock_unlock(&irdma_registry);
		IRDMA_LOG(init, ERR, "devargs: name=%s: a device of that name exists", da.name);
		ret = -EEXIST;
		goto fail;
	}
	if (irdma_dev_slots == UINT64_MAX) {
		rte_spinlock_unlock(&irdma_registry);
		IRDMA_LOG(init, ERR, "all %d device slots are in use", IRDMA_MAX_DEVS);
		ret = -ENOSPC;
		goto fail;
	}
	slot = (unsigned int)__builtin_ctzll(~irdma_dev_slots);
	if (da.name[0] == '\0') {
		snprintf(da.name, sizeof(da.name), "irdma%u", slot);
		if (irdma_registry_find(da.name) != NULL) /* taken by an explicit name= */
			snprintf(da.name, sizeof(da.name), "irdma%u_%u", slot, slot);
	}
	irdma_dev_slots |= 1ull << slot;
	rte_spinlock_unlock(&irdma_registry);

	dev = rte_zmalloc_socket("irdma_dev", sizeof(*dev), RTE_CACHE_LINE_SIZE,
				 da.cfg.socket_id);
	if (dev == NULL) {
		ret = -ENOMEM;
		goto release_slot;
	}
	dev->index = slot;
	dev->da = da;
	dev->da.cfg.port = dev->da.port;
	dev->da.cfg.backend_args = dev->da.backend_args;
	rte_strscpy(dev->name, da.name, sizeof(dev->name));
	dev->da.cfg.name = dev->name;
	dev->da.cfg.async_cb = irdma_dev_async_cb;
	dev->da.cfg.async_arg = dev;
	dev->socket_id = da.cfg.socket_id;
	dev->ops = ops;
	rte_spinlock_init(&dev->lock);
	rte_spinlock_init(&dev->ev_lock);
	TAILQ_INIT(&dev->qps);
	TAILQ_INIT(&dev->cqs);
	TAILQ_INIT(&dev->srqs);

	ret = ops->dev_open(&dev->da.cfg, &dev->hw, &dev->hw_info);
	if (ret < 0) {
		IRDMA_LOG(init, ERR, "%s: backend %s failed to open (port=%s): %s", dev->name,
			  ops->name, da.port, strerror(-ret));
		goto free_dev;
	}
	dev->uk_attrs = *dev->hw_info.uk_attrs;
	dev->attrs = &dev->uk_attrs;
	dev->n_keys = dev->hw_info.max_mr + dev->hw_info.max_mw + 1;
	dev->keys = rte_zmalloc_socket("irdma_keys", dev->n_keys * sizeof(*dev->keys), 0,
				       dev->socket_id);
	dev->n_cq_ids = dev->hw_info.max_cq + 1;
	dev->cq_by_id = rte_zmalloc_socket("irdma_cqids", dev->n_cq_ids * sizeof(*dev->cq_by_id),
					   0, dev->socket_id);
	/* Backends number QPs from a small base (IB reserves QPN 0 and 1): leave room for it. */
	dev->n_qp_ids = dev->hw_info.max_qp + 64;
	dev->qp_by_id = rte_zmalloc_socket("irdma_qpids", dev->n_qp_ids * sizeof(*dev->qp_by_id),
					   0, dev->socket_id);
	if (dev->keys == NULL || dev->cq_by_id == NULL || dev->qp_by_id == NULL) {
		ret = -ENOMEM;
		goto close_hw;
	}

	dev->magic = IRDMA_MAGIC_DEV;
	rte_spinlock_lock(&irdma_registry);
	TAILQ_INSERT_TAIL(&irdma_devs, dev, next);
	rte_spinlock_unlock(&irdma_registry);

	IRDMA_LOG(init, INFO, "%s: %s device, %s, port=%s, engine=%s, socket %d", dev->name,
		  ops->name, irdma_gen_str((uint8_t)da.cfg.gen), da.port,
		  da.cfg.engine == IRDMA_HW_ENGINE_SERVICE ? "service" : "inline", dev->socket_id);
	irdma_lcore_check_sharing(dev);
	return dev;

close_hw:
	ops->dev_close(dev->hw);
free_dev:
	rte_free(dev->keys);
	rte_free(dev->cq_by_id);
	rte_free(dev->qp_by_id);
	rte_free(dev);
release_slot:
	rte_spinlock_lock(&irdma_registry);
	irdma_dev_slots &= ~(1ull << slot);
	rte_spinlock_unlock(&irdma_registry);
fail:
	rte_errno = -ret;
	return NULL;
}

/* Tests only: called inside dev_close between the device leaving the registry and its
 * teardown, so a test can widen the window a concurrent telemetry request could hit. */
void (*irdma_dev_close_hook)(const struct rte_pmd_irdma_dev *dev);

int
rte_pmd_irdma_dev_close(struct rte_pmd_irdma_dev *dev)
{
	int ret;

	if (!irdma_dev_valid(dev)) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	/*
	 * Leave the registry first, then tear down: a telemetry request holds the registry lock
	 * while it reads a device, so once the device is out of the registry no request can
	 * reach its backend (order: registry lock, then the device lock, as telemetry takes them).
	 */
	rte_spinlock_lock(&irdma_registry);
	rte_spinlock_lock(&dev->lock);
	if (dev->n_qp || dev->n_cq || dev->n_srq || dev->n_mr || dev->n_mw || dev->n_ah ||
	    dev->n_pd) {
		IRDMA_LOG(init, ERR, "%s: cannot close, objects remain: %u QP, %u CQ, %u SRQ, "
			  "%u MR, %u MW, %u AH, %u PD", dev->name, dev->n_qp, dev->n_cq,
			  dev->n_srq, dev->n_mr, dev->n_mw, dev->n_ah, dev->n_pd);
		rte_spinlock_unlock(&dev->lock);
		rte_spinlock_unlock(&irdma_registry);
		return -EBUSY;
	}
	TAILQ_REMOVE(&irdma_devs, dev, next);
	rte_spinlock_unlock(&dev->lock);
	rte_spinlock_unlock(&irdma_registry);
	if (irdma_dev_close_hook != NULL)
		irdma_dev_close_hook(dev);

	rte_spinlock_lock(&dev->lock);
	ret = dev->ops->dev_close(dev->hw);
	if (ret < 0) {
		rte_spinlock_unlock(&dev->lock);
		IRDMA_LOG(init, ERR, "%s: backend refused to close: %s", dev->name, strerror(-ret));
		rte_spinlock_lock(&irdma_registry); /* still open: back in the registry */
		TAILQ_INSERT_TAIL(&irdma_devs, dev, next);
		rte_spinlock_unlock(&irdma_registry);
		return ret;
	}
	dev->hw = NULL;
	rte_spinlock_unlock(&dev->lock);

	rte_spinlock_lock(&irdma_registry);
	irdma_dev_slots &= ~(1ull << dev->index); /* the index names memzones: free it last */
	rte_spinlock_unlock(&irdma_registry);

	irdma_shadow_pool_release(dev);
	IRDMA_LOG(init, INFO, "%s: closed", dev->name);
	rte_free(dev->keys);
	rte_free(dev->cq_by_id);
	rte_free(dev->qp_by_id);
	irdma_handle_retire(dev, &dev->magic);
	return 0;
}

static uint32_t
cap_flags(const struct rte_pmd_irdma_dev *dev)
{
	uint64_t ff = dev->attrs->feature_flags;
	uint32_t caps = RTE_PMD_IRDMA_CAP_MW_TYPE1 | RTE_PMD_IRDMA_CAP_UD;

	if (dev->attrs->hw_rev >= IRDMA_GEN_2)
		caps |= RTE_PMD_IRDMA_CAP_IMM | RTE_PMD_IRDMA_CAP_MW_TYPE2;
	if (ff & IRDMA_FEATURE_SRQ)
		caps |= RTE_PMD_IRDMA_CAP_SRQ;
	if (ff & IRDMA_FEATURE_ATOMIC_OPS)
		caps |= RTE_PMD_IRDMA_CAP_ATOMICS;
	if (ff & IRDMA_FEATURE_CQ_RESIZE)
		caps |= RTE_PMD_IRDMA_CAP_CQ_RESIZE;
	if (ff & IRDMA_FEATURE_64_BYTE_CQE)
		caps |= RTE_PMD_IRDMA_CAP_CQE_64B;
	return caps;
}

int
rte_pmd_irdma_dev_info(const struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_dev_info *info)
{
	const struct irdma_uk_attrs *a;
	const struct irdma_hw_dev_info *h;

	if (!irdma_dev_valid(dev) || info == NULL) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	a = dev->attrs;
	h = &dev->hw_info;
	memset(info, 0, sizeof(*info));
	rte_strscpy(info->name, dev->name, sizeof(info->name));
	rte_strscpy(info->backend, dev->ops->name, sizeof(info->backend));
	rte_strscpy(info->port, dev->da.port, sizeof(info->port));
	info->gen = a->hw_rev;
	info->socket_id = dev->socket_id;
	info->engine = dev->da.cfg.engine == IRDMA_HW_ENGINE_SERVICE ?
		RTE_PMD_IRDMA_ENGINE_SERVICE : RTE_PMD_IRDMA_ENGINE_INLINE;
	info->service_id = h->service_id;
	info->cap_flags = cap_flags(dev);
	memcpy(info->mac, h->mac, sizeof(info->mac));
	info->active_mtu = h->mtu;
	if (h->n_gids > 0)
		memcpy(info->gid.raw, h->gid[0], sizeof(info->gid.raw));
	info->max_qp = h->max_qp;
	/* IRDMA_MAX_QP_WRS: every WR may take a whole chunk of quanta (doc/spec/irdma-uk.md §2.1). */
	info->max_qp_wr = (a->max_hw_wq_quanta - IRDMA_SQ_RSVD) / a->max_hw_sq_chunk;
	info->max_sge = a->max_hw_wq_frags;
	info->max_sge_rd = a->max_hw_read_sges;
	info->max_inline_data = a->max_hw_inline;
	info->max_cq = h->max_cq;
	info->max_cqe = a->max_hw_cq_size - 1;
	info->max_mr = h->max_mr;
	info->max_mr_size = h->max_mr_size;
	info->max_pd = h->max_pd;
	info->max_ah = h->max_ah;
	info->max_mw = h->max_mw;
	if (a->feature_flags & IRDMA_FEATURE_SRQ) {
		info->max_srq = h->max_srq;
		info->max_srq_wr = irdma_dev_max_srq_wr(dev);
		info->max_srq_sge = a->max_hw_wq_frags;
	}
	info->max_qp_rd_atom = h->max_qp_rd_atom;
	info->max_qp_init_rd_atom = h->max_qp_init_rd_atom;
	info->max_msg_sz = h->max_msg_size;
	return 0;
}

/* SRQ WRs of the largest SRQ: the quanta less the reserve, at the 8-quanta WQE of max_sge. */
uint32_t
irdma_dev_max_srq_wr(const struct rte_pmd_irdma_dev *dev)
{
	const struct irdma_uk_attrs *a = dev->attrs;

	if (!(a->feature_flags & IRDMA_FEATURE_SRQ))
		return 0;
	return (a->max_hw_srq_quanta - IRDMA_RQ_RSVD) >> 3;
}

struct rte_pmd_irdma_dev *
rte_pmd_irdma_dev_get_by_name(const char *name)
{
	struct rte_pmd_irdma_dev *dev;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	rte_spinlock_lock(&irdma_registry);
	dev = irdma_registry_find(name);
	rte_spinlock_unlock(&irdma_registry);
	if (dev == NULL)
		rte_errno = ENODEV;
	return dev;
}

unsigned int
rte_pmd_irdma_dev_count(void)
{
	return (unsigned int)__builtin_popcountll(irdma_dev_slots);
}

int
rte_pmd_irdma_query_gid(const struct rte_pmd_irdma_dev *dev, unsigned int index,
			union rte_pmd_irdma_gid *gid)
{
	if (!irdma_dev_valid(dev) || gid == NULL) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	if (index >= dev->hw_info.n_gids) {
		IRDMA_LOG(ctrl, ERR, "%s: GID index %u out of range (the table has %u entries)",
			  dev->name, index, dev->hw_info.n_gids);
		return -EINVAL;
	}
	memcpy(gid->raw, dev->hw_info.gid[index], sizeof(gid->raw));
	return 0;
}

int
rte_pmd_irdma_progress(struct rte_pmd_irdma_dev *dev, unsigned int budget)
{
	if (unlikely(!irdma_dev_valid(dev)))
		return -EINVAL;
	return dev->ops->progress(dev->hw, budget);
}

int
rte_pmd_irdma_async_event_get(struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_async_event *ev)
{
	struct irdma_hw_event hw;
	struct irdma_pmd_qp *qp;
	int ret = -EAGAIN;

	if (!irdma_dev_valid(dev) || ev == NULL) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	rte_spinlock_lock(&dev->lock);
	for (;;) {
		rte_spinlock_lock(&dev->ev_lock);
		if (dev->ev_head == dev->ev_tail) {
			rte_spinlock_unlock(&dev->ev_lock);
			break;
		}
		hw = dev->ev[dev->ev_tail++ & (IRDMA_ASYNC_EVENTS - 1)];
		rte_spinlock_unlock(&dev->ev_lock);

		memset(ev, 0, sizeof(*ev));
		switch (hw.type) {
		case IRDMA_HW_EVENT_CQ_ERR:
			if (hw.id >= dev->n_cq_ids || dev->cq_by_id[hw.id] == NULL)
				continue; /* destroyed since */
			ev->event_type = RTE_PMD_IRDMA_EVENT_CQ_ERR;
			ev->element.cq = &dev->cq_by_id[hw.id]->pub;
			ret = 0;
			break;
		case IRDMA_HW_EVENT_QP_FATAL:
		case IRDMA_HW_EVENT_QP_REQ_ERR:
		case IRDMA_HW_EVENT_QP_ACCESS_ERR:
		case IRDMA_HW_EVENT_QP_LAST_WQE:
			qp = irdma_qp_by_num(dev, hw.id);
			if (qp == NULL)
				continue;
			ev->element.qp = &qp->pub;
			ev->event_type =
				hw.type == IRDMA_HW_EVENT_QP_FATAL ? RTE_PMD_IRDMA_EVENT_QP_FATAL :
				hw.type == IRDMA_HW_EVENT_QP_REQ_ERR ? RTE_PMD_IRDMA_EVENT_QP_REQ_ERR :
				hw.type == IRDMA_HW_EVENT_QP_ACCESS_ERR ?
					RTE_PMD_IRDMA_EVENT_QP_ACCESS_ERR :
					RTE_PMD_IRDMA_EVENT_QP_LAST_WQE_REACHED;
			if (hw.type != IRDMA_HW_EVENT_QP_LAST_WQE)
				irdma_qp_state_note_error(qp);
			ret = 0;
			break;
		case IRDMA_HW_EVENT_SRQ_LIMIT: {
			struct irdma_pmd_srq *srq;

			TAILQ_FOREACH(srq, &dev->srqs, next)
				if (srq->pub.handle == hw.id)
					break;
			if (srq == NULL)
				continue;
			ev->event_type = RTE_PMD_IRDMA_EVENT_SRQ_LIMIT_REACHED;
			ev->element.srq = &srq->pub;
			/* The limit fires once: it must be armed again (srq_modify). */
			srq->attr.srq_limit = 0;
			ret = 0;
			break;
		}
		case IRDMA_HW_EVENT_PORT_ERR:
			ev->event_type = RTE_PMD_IRDMA_EVENT_PORT_ERR;
			ret = 0;
			break;
		default:
			continue;
		}
		break;
	}
	rte_spinlock_unlock(&dev->lock);
	return ret;
}

const char *
irdma_gen_str(uint8_t gen)
{
	switch (gen) {
	case 1: return "GEN_1 (X722)";
	case 2: return "GEN_2 (E810)";
	case 3: return "GEN_3 (IPU)";
	default: return "unknown generation";
	}
}

const char *
rte_pmd_irdma_wc_status_str(enum rte_pmd_irdma_wc_status status)
{
	static const char *const names[] = {
		"SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_EEC_OP_ERR", "LOC_PROT_ERR",
		"WR_FLUSH_ERR", "MW_BIND_ERR", "BAD_RESP_ERR", "LOC_ACCESS_ERR", "REM_INV_REQ_ERR",
		"REM_ACCESS_ERR", "REM_OP_ERR", "RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR",
		"LOC_RDD_VIOL_ERR", "REM_INV_RD_REQ_ERR", "REM_ABORT_ERR", "INV_EECN_ERR",
		"INV_EEC_STATE_ERR", "FATAL_ERR", "RESP_TIMEOUT_ERR", "GENERAL_ERR",
	};

	if ((unsigned int)status < RTE_DIM(names))
		return names[status];
	return "UNKNOWN";
}

const char *
rte_pmd_irdma_qp_state_str(enum rte_pmd_irdma_qp_state state)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };

	if ((unsigned int)state < RTE_DIM(names))
		return names[state];
	return "UNKNOWN";
}

void *
irdma_zmalloc_at(const char *func, const struct rte_pmd_irdma_dev *dev, const char *type,
		 size_t size, unsigned int align)
{
	void *p = rte_zmalloc_socket(type, size, align, dev->socket_id);

	if (p == NULL)
		rte_log(RTE_LOG_ERR, irdma_logtype_mem, "%s(): %s: no memory for %s (%zu bytes on "
			"socket %d)\n", func, dev->name, type, size, dev->socket_id);
	return p;
}
