/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xstats: {name, offset} tables over the PMD's counters, followed by the backend's counters.
 * Device totals sum the live QPs and CQs plus what destroyed ones left behind.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "irdma_pmd.h"

struct irdma_xstat_def {
	const char *name;
	size_t offset;
};

static const struct irdma_xstat_def qp_defs[] = {
	{ "tx_wrs", offsetof(struct irdma_qp_stats, tx_wrs) },
	{ "tx_doorbells", offsetof(struct irdma_qp_stats, tx_doorbells) },
	{ "tx_rejected_wrs", offsetof(struct irdma_qp_stats, tx_rejected_wrs) },
	{ "tx_sq_full_errors", offsetof(struct irdma_qp_stats, tx_sq_full) },
	{ "rx_wrs", offsetof(struct irdma_qp_stats, rx_wrs) },
	{ "rx_rejected_wrs", offsetof(struct irdma_qp_stats, rx_rejected_wrs) },
	{ "rx_rq_full_errors", offsetof(struct irdma_qp_stats, rx_rq_full) },
};

/* CQ overflows are the backend's counter (cq_overflows). */
static const struct irdma_xstat_def cq_defs[] = {
	{ "cq_completions", offsetof(struct irdma_cq_stats, completions) },
	{ "cq_error_completions", offsetof(struct irdma_cq_stats, error_completions) },
	{ "cq_flush_completions", offsetof(struct irdma_cq_stats, flush_completions) },
	{ "cq_events", offsetof(struct irdma_cq_stats, events) },
};

static const char *const dev_extra[] = { "async_events_lost" };

#define N_QP RTE_DIM(qp_defs)
#define N_CQ RTE_DIM(cq_defs)
#define N_DEV (N_QP + N_CQ + RTE_DIM(dev_extra))

static uint64_t
field(const void *base, size_t offset)
{
	return *(const uint64_t *)((const char *)base + offset);
}

/*
 * A table is the PMD's counters of its scope (the device when qp is NULL, else that QP) followed
 * by the backend's counters of the same scope. Returns the total count, or a negative errno.
 */
static int
table_size(const struct rte_pmd_irdma_dev *dev, const struct irdma_pmd_qp *qp, unsigned int *fixed,
	   unsigned int *nb)
{
	int b = 0;

	if (dev->ops->xstats_names != NULL)
		b = dev->ops->xstats_names(dev->hw, qp != NULL ? (int64_t)qp->pub.qp_num : -1, NULL, 0);
	if (b < 0)
		return b;
	*fixed = qp != NULL ? N_QP : N_DEV;
	*nb = (unsigned int)b;
	return (int)(*fixed + *nb);
}

static int
table_names(const struct rte_pmd_irdma_dev *dev, const struct irdma_pmd_qp *qp, const char **names,
	    unsigned int n)
{
	unsigned int i, fixed, nb;
	int total = table_size(dev, qp, &fixed, &nb);

	if (total < 0 || names == NULL || n < (unsigned int)total)
		return total;
	for (i = 0; i < N_QP; i++)
		names[i] = qp_defs[i].name;
	if (qp == NULL) {
		for (i = 0; i < N_CQ; i++)
			names[N_QP + i] = cq_defs[i].name;
		for (i = 0; i < RTE_DIM(dev_extra); i++)
			names[N_QP + N_CQ + i] = dev_extra[i];
	}
	if (nb > 0)
		dev->ops->xstats_names(dev->hw, qp != NULL ? (int64_t)qp->pub.qp_num : -1, names + fixed,
				       nb);
	return total;
}

/* Device totals: what destroyed objects left behind plus every live one. */
static void
dev_values(const struct rte_pmd_irdma_dev *dev, uint64_t *values)
{
	const struct irdma_pmd_qp *qp;
	const struct irdma_pmd_cq *cq;
	unsigned int i;

	for (i = 0; i < N_QP; i++) {
		values[i] = field(&dev->retired_qp, qp_defs[i].offset);
		TAILQ_FOREACH(qp, &dev->qps, next)
			values[i] += field(&qp->stats, qp_defs[i].offset);
	}
	for (i = 0; i < N_CQ; i++) {
		values[N_QP + i] = field(&dev->retired_cq, cq_defs[i].offset);
		TAILQ_FOREACH(cq, &dev->cqs, next)
			values[N_QP + i] += field(&cq->stats, cq_defs[i].offset);
	}
	values[N_QP + N_CQ] = dev->ev_lost;
}

static int
table_values(const struct rte_pmd_irdma_dev *dev, const struct irdma_pmd_qp *qp, uint64_t *values,
	     unsigned int n)
{
	unsigned int i, fixed, nb;
	int total = table_size(dev, qp, &fixed, &nb);

	if (total < 0 || values == NULL || n < (unsigned int)total)
		return total;
	if (qp == NULL) {
		dev_values(dev, values);
	} else {
		for (i = 0; i < N_QP; i++)
			values[i] = field(&qp->stats, qp_defs[i].offset);
	}
	if (nb > 0)
		dev->ops->xstats_get(dev->hw, qp != NULL ? (int64_t)qp->pub.qp_num : -1, values + fixed, nb);
	return total;
}

int
irdma_xstats_dev_names(const struct rte_pmd_irdma_dev *dev, const char **names, unsigned int n)
{
	return table_names(dev, NULL, names, n);
}

int
irdma_xstats_dev_values(const struct rte_pmd_irdma_dev *dev, uint64_t *values, unsigned int n)
{
	return table_values(dev, NULL, values, n);
}

int
irdma_xstats_qp_names(const struct irdma_pmd_qp *qp, const char **names, unsigned int n)
{
	return table_names(qp->pub.dev, qp, names, n);
}

int
irdma_xstats_qp_values(const struct irdma_pmd_qp *qp, uint64_t *values, unsigned int n)
{
	return table_values(qp->pub.dev, qp, values, n);
}

/* ---- public API ---------------------------------------------------------------------- */

/* The public calls count first (a short buffer costs nothing), then fill through a bounded array. */
#define XSTATS_MAX 512

static int
public_names(const struct rte_pmd_irdma_dev *dev, const struct irdma_pmd_qp *qp,
	     struct rte_pmd_irdma_xstat_name *names, unsigned int n)
{
	const char *tmp[XSTATS_MAX];
	int cnt, i;

	cnt = table_names(dev, qp, NULL, 0);
	if (cnt < 0 || names == NULL || n < (unsigned int)cnt)
		return cnt;
	if (cnt > XSTATS_MAX)
		return -E2BIG;
	table_names(dev, qp, tmp, XSTATS_MAX);
	for (i = 0; i < cnt; i++)
		rte_strscpy(names[i].name, tmp[i], sizeof(names[i].name));
	return cnt;
}

/* Device totals walk the object lists, so they are read under the device lock. */
static int
public_values(const struct rte_pmd_irdma_dev *dev, const struct irdma_pmd_qp *qp,
	      struct rte_pmd_irdma_xstat *xs, unsigned int n)
{
	rte_spinlock_t *lock = qp == NULL ? (rte_spinlock_t *)(uintptr_t)&dev->lock : NULL;
	uint64_t tmp[XSTATS_MAX];
	int cnt, i;

	cnt = table_values(dev, qp, NULL, 0);
	if (cnt < 0 || xs == NULL || n < (unsigned int)cnt)
		return cnt;
	if (cnt > XSTATS_MAX)
		return -E2BIG;
	if (lock != NULL)
		rte_spinlock_lock(lock);
	table_values(dev, qp, tmp, XSTATS_MAX);
	if (lock != NULL)
		rte_spinlock_unlock(lock);
	for (i = 0; i < cnt; i++) {
		xs[i].id = (uint64_t)i;
		xs[i].value = tmp[i];
	}
	return cnt;
}

int
rte_pmd_irdma_xstats_get_names(const struct rte_pmd_irdma_dev *dev,
			       struct rte_pmd_irdma_xstat_name *names, unsigned int n)
{
	if (!irdma_dev_valid(dev))
		return -EINVAL;
	return public_names(dev, NULL, names, n);
}

int
rte_pmd_irdma_xstats_get(const struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_xstat *xs,
			 unsigned int n)
{
	if (!irdma_dev_valid(dev))
		return -EINVAL;
	return public_values(dev, NULL, xs, n);
}

int
rte_pmd_irdma_xstats_reset(struct rte_pmd_irdma_dev *dev)
{
	struct irdma_pmd_qp *qp;
	struct irdma_pmd_cq *cq;

	if (!irdma_dev_valid(dev))
		return -EINVAL;
	rte_spinlock_lock(&dev->lock);
	memset(&dev->retired_qp, 0, sizeof(dev->retired_qp));
	memset(&dev->retired_cq, 0, sizeof(dev->retired_cq));
	dev->ev_lost = 0;
	TAILQ_FOREACH(qp, &dev->qps, next) {
		memset(&qp->stats, 0, sizeof(qp->stats));
		if (dev->ops->xstats_reset != NULL)
			dev->ops->xstats_reset(dev->hw, qp->pub.qp_num);
	}
	TAILQ_FOREACH(cq, &dev->cqs, next)
		memset(&cq->stats, 0, sizeof(cq->stats));
	if (dev->ops->xstats_reset != NULL)
		dev->ops->xstats_reset(dev->hw, -1);
	rte_spinlock_unlock(&dev->lock);
	return 0;
}

int
rte_pmd_irdma_qp_xstats_get_names(const struct rte_pmd_irdma_qp *pub,
				  struct rte_pmd_irdma_xstat_name *names, unsigned int n)
{
	const struct irdma_pmd_qp *qp = (const struct irdma_pmd_qp *)pub;

	if (!irdma_qp_live(pub))
		return -EINVAL;
	return public_names(qp->pub.dev, qp, names, n);
}

int
rte_pmd_irdma_qp_xstats_get(const struct rte_pmd_irdma_qp *pub, struct rte_pmd_irdma_xstat *xs,
			    unsigned int n)
{
	const struct irdma_pmd_qp *qp = (const struct irdma_pmd_qp *)pub;

	if (!irdma_qp_live(pub))
		return -EINVAL;
	return public_values(qp->pub.dev, qp, xs, n);
}
