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

static int
backend_count(const struct rte_pmd_irdma_dev *dev, int64_t qp_id)
{
	if (dev->ops->xstats_names == NULL)
		return 0;
	return dev->ops->xstats_names(dev->hw, qp_id, NULL, 0);
}

int
irdma_xstats_dev_names(const struct rte_pmd_irdma_dev *dev, const char **names, unsigned int n)
{
	int nb = backend_count(dev, -1);
	unsigned int i, total;

	if (nb < 0)
		return nb;
	total = N_DEV + (unsigned int)nb;
	if (names == NULL || n < total)
		return (int)total;
	for (i = 0; i < N_QP; i++)
		names[i] = qp_defs[i].name;
	for (i = 0; i < N_CQ; i++)
		names[N_QP + i] = cq_defs[i].name;
	for (i = 0; i < RTE_DIM(dev_extra); i++)
		names[N_QP + N_CQ + i] = dev_extra[i];
	if (nb > 0)
		dev->ops->xstats_names(dev->hw, -1, names + N_DEV, (unsigned int)nb);
	return (int)total;
}

int
irdma_xstats_dev_values(const struct rte_pmd_irdma_dev *dev, uint64_t *values, unsigned int n)
{
	const struct irdma_pmd_qp *qp;
	const struct irdma_pmd_cq *cq;
	int nb = backend_count(dev, -1);
	unsigned int i, total;

	if (nb < 0)
		return nb;
	total = N_DEV + (unsigned int)nb;
	if (values == NULL || n < total)
		return (int)total;
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
	if (nb > 0)
		dev->ops->xstats_get(dev->hw, -1, values + N_DEV, (unsigned int)nb);
	return (int)total;
}

int
irdma_xstats_qp_names(const struct irdma_pmd_qp *qp, const char **names, unsigned int n)
{
	const struct rte_pmd_irdma_dev *dev = qp->pub.dev;
	int nb = backend_count(dev, qp->pub.qp_num);
	unsigned int i, total;

	if (nb < 0)
		return nb;
	total = N_QP + (unsigned int)nb;
	if (names == NULL || n < total)
		return (int)total;
	for (i = 0; i < N_QP; i++)
		names[i] = qp_defs[i].name;
	if (nb > 0)
		dev->ops->xstats_names(dev->hw, qp->pub.qp_num, names + N_QP, (unsigned int)nb);
	return (int)total;
}

int
irdma_xstats_qp_values(const struct irdma_pmd_qp *qp, uint64_t *values, unsigned int n)
{
	const struct rte_pmd_irdma_dev *dev = qp->pub.dev;
	int nb = backend_count(dev, qp->pub.qp_num);
	unsigned int i, total;

	if (nb < 0)
		return nb;
	total = N_QP + (unsigned int)nb;
	if (values == NULL || n < total)
		return (int)total;
	for (i = 0; i < N_QP; i++)
		values[i] = field(&qp->stats, qp_defs[i].offset);
	if (nb > 0)
		dev->ops->xstats_get(dev->hw, qp->pub.qp_num, values + N_QP, (unsigned int)nb);
	return (int)total;
}

/* ---- public API ---------------------------------------------------------------------- */

static int
copy_names(const char **src, int cnt, struct rte_pmd_irdma_xstat_name *names, unsigned int n)
{
	int i;

	if (cnt < 0 || names == NULL || n < (unsigned int)cnt)
		return cnt;
	for (i = 0; i < cnt; i++)
		rte_strscpy(names[i].name, src[i], sizeof(names[i].name));
	return cnt;
}

#define XSTATS_MAX 512

int
rte_pmd_irdma_xstats_get_names(const struct rte_pmd_irdma_dev *dev,
			       struct rte_pmd_irdma_xstat_name *names, unsigned int n)
{
	const char *tmp[XSTATS_MAX];
	int cnt;

	if (!irdma_dev_valid(dev))
		return -EINVAL;
	cnt = irdma_xstats_dev_names(dev, NULL, 0);
	if (cnt < 0 || names == NULL || n < (unsigned int)cnt)
		return cnt;
	if (cnt > XSTATS_MAX)
		return -E2BIG;
	irdma_xstats_dev_names(dev, tmp, XSTATS_MAX);
	return copy_names(tmp, cnt, names, n);
}

int
rte_pmd_irdma_xstats_get(const struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_xstat *xs,
			 unsigned int n)
{
	uint64_t tmp[XSTATS_MAX];
	int cnt, i;

	if (!irdma_dev_valid(dev))
		return -EINVAL;
	cnt = irdma_xstats_dev_values(dev, NULL, 0);
	if (cnt < 0 || xs == NULL || n < (unsigned int)cnt)
		return cnt;
	if (cnt > XSTATS_MAX)
		return -E2BIG;
	rte_spinlock_lock((rte_spinlock_t *)&dev->lock);
	irdma_xstats_dev_values(dev, tmp, XSTATS_MAX);
	rte_spinlock_unlock((rte_spinlock_t *)&dev->lock);
	for (i = 0; i < cnt; i++) {
		xs[i].id = (uint64_t)i;
		xs[i].value = tmp[i];
	}
	return cnt;
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
	const char *tmp[XSTATS_MAX];
	int cnt;

	if (qp == NULL)
		return -EINVAL;
	cnt = irdma_xstats_qp_names(qp, NULL, 0);
	if (cnt < 0 || names == NULL || n < (unsigned int)cnt)
		return cnt;
	if (cnt > XSTATS_MAX)
		return -E2BIG;
	irdma_xstats_qp_names(qp, tmp, XSTATS_MAX);
	return copy_names(tmp, cnt, names, n);
}

int
rte_pmd_irdma_qp_xstats_get(const struct rte_pmd_irdma_qp *pub, struct rte_pmd_irdma_xstat *xs,
			    unsigned int n)
{
	const struct irdma_pmd_qp *qp = (const struct irdma_pmd_qp *)pub;
	uint64_t tmp[XSTATS_MAX];
	int cnt, i;

	if (qp == NULL)
		return -EINVAL;
	cnt = irdma_xstats_qp_values(qp, NULL, 0);
	if (cnt < 0 || xs == NULL || n < (unsigned int)cnt)
		return cnt;
	if (cnt > XSTATS_MAX)
		return -E2BIG;
	irdma_xstats_qp_values(qp, tmp, XSTATS_MAX);
	for (i = 0; i < cnt; i++) {
		xs[i].id = (uint64_t)i;
		xs[i].value = tmp[i];
	}
	return cnt;
}
