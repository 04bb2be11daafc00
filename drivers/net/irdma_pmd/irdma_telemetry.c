/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry (dpdk-telemetry.py): /irdma/list, /irdma/info,<dev>, /irdma/xstats,<dev>,
 * /irdma/qp,<dev>[,<qpn>]. Callbacks run on the telemetry thread: they hold the registry lock
 * (no device can close meanwhile) and the device's control lock while reading it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_telemetry.h>

#include "irdma_pmd.h"

#define TEL_XSTATS_MAX 256

/* Split "dev[,n]" (the params of a command). */
static int
parse_params(const char *params, char *dev, size_t dev_len, long *n)
{
	const char *comma;
	char *end;
	size_t len;

	if (params == NULL || *params == '\0')
		return -EINVAL;
	comma = strchr(params, ',');
	len = comma != NULL ? (size_t)(comma - params) : strlen(params);
	if (len == 0 || len >= dev_len)
		return -EINVAL;
	memcpy(dev, params, len);
	dev[len] = '\0';
	if (n != NULL) {
		*n = -1;
		if (comma != NULL) {
			*n = strtol(comma + 1, &end, 0);
			if (end == comma + 1 || *end != '\0' || *n < 0)
				return -EINVAL;
		}
	}
	return 0;
}

/* Parse "dev[,n]" and find the device. On success the registry lock is held: the caller
 * releases it with irdma_registry_unlock(). */
static struct rte_pmd_irdma_dev *
find_dev_locked(const char *params, long *n, int *err)
{
	char name[RTE_PMD_IRDMA_NAME_LEN];
	struct rte_pmd_irdma_dev *dev;

	if (parse_params(params, name, sizeof(name), n) < 0) {
		*err = -EINVAL;
		return NULL;
	}
	irdma_registry_lock();
	dev = irdma_registry_find(name);
	if (dev == NULL) {
		irdma_registry_unlock();
		*err = -ENODEV;
	}
	return dev;
}

static int
tel_list(const char *cmd __rte_unused, const char *params __rte_unused, struct rte_tel_data *d)
{
	struct rte_pmd_irdma_dev *dev;

	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	irdma_registry_lock();
	for (dev = irdma_registry_first(); dev != NULL; dev = irdma_registry_next(dev))
		rte_tel_data_add_array_string(d, dev->name);
	irdma_registry_unlock();
	return 0;
}

static void
gid_str(const uint8_t *g, char *buf, size_t len)
{
	snprintf(buf, len, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12],
		 g[13], g[14], g[15]);
}

static int
tel_info(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev;
	struct rte_ether_addr ea;
	char buf[64];
	int err;

	dev = find_dev_locked(params, NULL, &err);
	if (dev == NULL)
		return err;
	if (rte_pmd_irdma_dev_info(dev, &info) < 0) {
		irdma_registry_unlock();
		return -ENODEV;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", info.name);
	rte_tel_data_add_dict_string(d, "backend", info.backend);
	rte_tel_data_add_dict_string(d, "port", info.port);
	rte_tel_data_add_dict_int(d, "gen", info.gen);
	rte_tel_data_add_dict_int(d, "socket_id", info.socket_id);
	rte_tel_data_add_dict_string(d, "engine", info.engine == RTE_PMD_IRDMA_ENGINE_SERVICE ?
				     "service" : "inline");
	memcpy(ea.addr_bytes, info.mac, sizeof(info.mac));
	rte_ether_format_addr(buf, sizeof(buf), &ea);
	rte_tel_data_add_dict_string(d, "mac", buf);
	gid_str(info.gid.raw, buf, sizeof(buf));
	rte_tel_data_add_dict_string(d, "gid0", buf);
	rte_tel_data_add_dict_int(d, "active_mtu", info.active_mtu);
	rte_tel_data_add_dict_u64(d, "cap_flags", info.cap_flags);
	rte_tel_data_add_dict_u64(d, "max_qp", info.max_qp);
	rte_tel_data_add_dict_u64(d, "max_qp_wr", info.max_qp_wr);
	rte_tel_data_add_dict_u64(d, "max_sge", info.max_sge);
	rte_tel_data_add_dict_u64(d, "max_inline_data", info.max_inline_data);
	rte_tel_data_add_dict_u64(d, "max_cq", info.max_cq);
	rte_tel_data_add_dict_u64(d, "max_cqe", info.max_cqe);
	rte_tel_data_add_dict_u64(d, "max_mr", info.max_mr);
	rte_tel_data_add_dict_u64(d, "max_srq", info.max_srq);
	rte_spinlock_lock(&dev->lock);
	rte_tel_data_add_dict_u64(d, "pd", dev->n_pd);
	rte_tel_data_add_dict_u64(d, "mr", dev->n_mr);
	rte_tel_data_add_dict_u64(d, "mw", dev->n_mw);
	rte_tel_data_add_dict_u64(d, "cq", dev->n_cq);
	rte_tel_data_add_dict_u64(d, "qp", dev->n_qp);
	rte_tel_data_add_dict_u64(d, "srq", dev->n_srq);
	rte_tel_data_add_dict_u64(d, "ah", dev->n_ah);
	rte_spinlock_unlock(&dev->lock);
	irdma_registry_unlock();
	return 0;
}

/* Add the xstats table of the device, or of one QP, to the dict d: at most `room` entries.
 * Called under the device lock. */
static int
add_xstats(struct rte_tel_data *d, const struct rte_pmd_irdma_dev *dev,
	   const struct irdma_pmd_qp *qp, int room)
{
	const char *names[TEL_XSTATS_MAX];
	uint64_t values[TEL_XSTATS_MAX];
	int i, n;

	n = qp != NULL ? irdma_xstats_qp_names(qp, names, TEL_XSTATS_MAX) :
			 irdma_xstats_dev_names(dev, names, TEL_XSTATS_MAX);
	if (n < 0 || n > room)
		return n < 0 ? n : -E2BIG;
	if (qp != NULL)
		irdma_xstats_qp_values(qp, values, TEL_XSTATS_MAX);
	else
		irdma_xstats_dev_values(dev, values, TEL_XSTATS_MAX);
	for (i = 0; i < n && i < RTE_TEL_MAX_DICT_ENTRIES; i++)
		rte_tel_data_add_dict_u64(d, names[i], values[i]);
	return 0;
}

static int
tel_xstats(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	struct rte_pmd_irdma_dev *dev;
	int err;

	dev = find_dev_locked(params, NULL, &err);
	if (dev == NULL)
		return err;
	rte_tel_data_start_dict(d);
	rte_spinlock_lock(&dev->lock);
	err = add_xstats(d, dev, NULL, TEL_XSTATS_MAX);
	rte_spinlock_unlock(&dev->lock);
	irdma_registry_unlock();
	return err;
}

static const char *
qpt_str(enum rte_pmd_irdma_qp_type t)
{
	return t == RTE_PMD_IRDMA_QPT_RC ? "RC" : "UD";
}

static int
tel_qp(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	struct rte_pmd_irdma_dev *dev;
	struct irdma_pmd_qp *qp;
	long qpn;
	int err;

	dev = find_dev_locked(params, &qpn, &err);
	if (dev == NULL)
		return err;
	rte_spinlock_lock(&dev->lock);
	if (qpn < 0) {
		rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
		TAILQ_FOREACH(qp, &dev->qps, next)
			rte_tel_data_add_array_int(d, (int)qp->pub.qp_num);
		goto out;
	}
	qp = irdma_qp_by_num(dev, (uint32_t)qpn);
	if (qp == NULL) {
		rte_spinlock_unlock(&dev->lock);
		irdma_registry_unlock();
		return -ENOENT;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "qp_num", qp->pub.qp_num);
	rte_tel_data_add_dict_string(d, "type", qpt_str(qp->pub.qp_type));
	rte_tel_data_add_dict_string(d, "state", rte_pmd_irdma_qp_state_str(irdma_qp_state(qp)));
	rte_tel_data_add_dict_u64(d, "pd", qp->pd_id);
	rte_tel_data_add_dict_u64(d, "send_cq", qp->pub.send_cq->handle);
	rte_tel_data_add_dict_u64(d, "recv_cq", qp->pub.recv_cq->handle);
	if (qp->pub.srq != NULL)
		rte_tel_data_add_dict_u64(d, "srq", qp->pub.srq->handle);
	rte_tel_data_add_dict_u64(d, "dest_qp_num", qp->attr.dest_qp_num);
	rte_tel_data_add_dict_u64(d, "max_send_wr", qp->cap.max_send_wr);
	rte_tel_data_add_dict_u64(d, "max_recv_wr", qp->cap.max_recv_wr);
	rte_tel_data_add_dict_u64(d, "max_send_sge", qp->cap.max_send_sge);
	rte_tel_data_add_dict_u64(d, "max_recv_sge", qp->cap.max_recv_sge);
	rte_tel_data_add_dict_u64(d, "max_inline_data", qp->cap.max_inline_data);
	rte_tel_data_add_dict_u64(d, "sq_depth", qp->uk_info.sq_depth);
	rte_tel_data_add_dict_u64(d, "sq_shift", qp->uk_info.sq_shift);
	rte_tel_data_add_dict_u64(d, "sq_bytes", qp->sq.len);
	rte_tel_data_add_dict_u64(d, "rq_depth", qp->uk_info.rq_depth);
	rte_tel_data_add_dict_u64(d, "rq_shift", qp->uk_info.rq_shift);
	rte_tel_data_add_dict_u64(d, "rq_bytes", qp->rq.len);
	/* memory per QP beyond its rings: the device's state, the PMD's (lib/uk tracking) */
	rte_tel_data_add_dict_u64(d, "device_state_bytes", dev->ops->qp_state_bytes != NULL ?
				  dev->ops->qp_state_bytes(dev->hw, qp->pub.qp_num) : 0);
	rte_tel_data_add_dict_u64(d, "pmd_state_bytes", sizeof(*qp) +
				  (size_t)qp->uk_info.sq_depth * sizeof(*qp->sq_wrtrk) +
				  (size_t)RTE_MAX(qp->uk_info.rq_depth, 1u) * sizeof(*qp->rq_wrid));
	rte_tel_data_add_dict_u64(d, "sq_head", qp->uk.sq_ring.head);
	rte_tel_data_add_dict_u64(d, "sq_tail", qp->uk.sq_ring.tail);
	rte_tel_data_add_dict_u64(d, "rq_head", qp->uk.rq_ring.head);
	rte_tel_data_add_dict_u64(d, "rq_tail", qp->uk.rq_ring.tail);
	/* the QP's own fields above take up to 32 entries of the dict; counters that do not fit
	 * are left out (the QP's xstats call has them all) */
	(void)add_xstats(d, dev, qp, TEL_XSTATS_MAX - 32);
out:
	rte_spinlock_unlock(&dev->lock);
	irdma_registry_unlock();
	return 0;
}

RTE_INIT(irdma_telemetry_init)
{
	rte_telemetry_register_cmd("/irdma/list", tel_list, "Returns the irdma devices.");
	rte_telemetry_register_cmd("/irdma/info", tel_info,
				   "Returns a device's attributes and objects. Parameters: device name");
	rte_telemetry_register_cmd("/irdma/xstats", tel_xstats,
				   "Returns a device's extended statistics. Parameters: device name");
	rte_telemetry_register_cmd("/irdma/qp", tel_qp,
				   "Returns a device's QP numbers, or one QP. Parameters: device[,qpn]");
}
