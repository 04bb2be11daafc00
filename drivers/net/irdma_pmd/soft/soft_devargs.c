/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software device's devargs (soft_devargs.h): wire fault injection and its seed, static
 * neighbours, and which queues of the port the device uses. The PMD checks the keys' names
 * (it knows soft_devarg_keys from irdma_soft_devargs) and calls the check below while it
 * parses, so a bad value fails rte_pmd_irdma_dev_create() before anything is opened, with
 * the same one-line message the PMD gives for its own keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "irdma_hw.h"
#include "irdma_kvargs.h"
#include "soft_devargs.h"

RTE_LOG_REGISTER(soft_devargs_logtype, pmd.net.irdma.soft.devargs, NOTICE);

#define BAD_VALUE(key, value, fmt, ...)                                                    \
	IRDMA_KV_BAD_VALUE(soft_devargs_logtype, key, value ? value : "", fmt, ##__VA_ARGS__)

const char *const soft_devarg_keys[] = {
	"drop", "dup", "reorder", "corrupt", "rx_drop", "rx_dup", "rx_reorder", "rx_corrupt",
	"delay", "delay_us", "rx_delay", "rx_delay_us", "seed", "neigh", "rxq", "txq", NULL,
};

/* A rate as a fraction 0..1 (e.g. 0.05), or a percentage (e.g. 5%); stored in ppm. */
static int
arg_rate(const char *key, const char *value, void *opaque)
{
	uint32_t *ppm = opaque;
	double v;
	char *end;

	if (value == NULL || *value == '\0')
		goto bad;
	errno = 0;
	v = strtod(value, &end);
	if (errno != 0 || end == value)
		goto bad;
	if (*end == '%' && end[1] == '\0')
		v /= 100.0;
	else if (*end != '\0')
		goto bad;
	if (!(v >= 0.0 && v <= 1.0))
		goto bad;
	*ppm = (uint32_t)(v * 1e6 + 0.5);
	return 0;
bad:
	BAD_VALUE(key, value, "expected a rate 0..1 (e.g. 0.05) or a percentage (5%%)");
	return -EINVAL;
}

static int
arg_seed(const char *key, const char *value, void *opaque)
{
	uint64_t *seed = opaque;

	if (irdma_kv_u64(value, 0, UINT64_MAX, seed) < 0) {
		BAD_VALUE(key, value, "expected an unsigned 64-bit integer");
		return -EINVAL;
	}
	return 0;
}

/* delay_us=/rx_delay_us=: how long a delayed frame is held, 1 us .. 1 s. */
static int
arg_delay_us(const char *key, const char *value, void *opaque)
{
	uint32_t *us = opaque;
	uint64_t v;

	if (irdma_kv_u64(value, 1, SOFT_DELAY_US_MAX, &v) < 0) {
		BAD_VALUE(key, value, "expected microseconds 1..%u", SOFT_DELAY_US_MAX);
		return -EINVAL;
	}
	*us = (uint32_t)v;
	return 0;
}

/* rxq=/txq=: a queue id of a port the application configured, or "app" (the hand-off). */
static int
arg_queue(const char *key, const char *value, void *opaque)
{
	int32_t *q = opaque;
	uint64_t v;

	if (value != NULL && strcmp(value, "app") == 0) {
		*q = SOFT_QUEUE_APP;
		return 0;
	}
	if (irdma_kv_u64(value, 0, SOFT_QUEUE_MAX, &v) < 0) {
		BAD_VALUE(key, value, "expected a queue id 0..%d of the port, or app (the application's loop hands frames over)",
			  SOFT_QUEUE_MAX);
		return -EINVAL;
	}
	*q = (int32_t)v;
	return 0;
}

int
soft_devargs_parse(const char *args, const char *full, struct soft_devargs *a)
{
	const struct irdma_kv_key keys[] = {
		{ "drop", arg_rate, &a->drop_ppm },
		{ "dup", arg_rate, &a->dup_ppm },
		{ "reorder", arg_rate, &a->reorder_ppm },
		{ "corrupt", arg_rate, &a->corrupt_ppm },
		{ "rx_drop", arg_rate, &a->rx_drop_ppm },
		{ "rx_dup", arg_rate, &a->rx_dup_ppm },
		{ "rx_reorder", arg_rate, &a->rx_reorder_ppm },
		{ "rx_corrupt", arg_rate, &a->rx_corrupt_ppm },
		{ "delay", arg_rate, &a->delay_ppm },
		{ "delay_us", arg_delay_us, &a->delay_us },
		{ "rx_delay", arg_rate, &a->rx_delay_ppm },
		{ "rx_delay_us", arg_delay_us, &a->rx_delay_us },
		{ "seed", arg_seed, &a->seed },
		{ "neigh", soft_devargs_neigh, a },
		{ "rxq", arg_queue, &a->rxq },
		{ "txq", arg_queue, &a->txq },
	};
	const char *const *const lists[] = { soft_devarg_keys };
	char valid[IRDMA_KV_LIST_LEN];
	int ret;

	RTE_BUILD_BUG_ON(RTE_DIM(keys) + 1 != RTE_DIM(soft_devarg_keys));
	memset(a, 0, sizeof(*a));
	a->rxq = SOFT_QUEUE_OWN;
	a->txq = SOFT_QUEUE_OWN;
	a->delay_us = SOFT_DELAY_US_DEF;
	a->rx_delay_us = SOFT_DELAY_US_DEF;
	if (args == NULL || *args == '\0')
		return 0;
	/* the PMD checked the names; a caller of dev_open with its own string may not have */
	ret = irdma_kv_check_keys(soft_devargs_logtype, args, full, lists, 1);
	if (ret < 0)
		return ret;
	irdma_kv_key_list(valid, sizeof(valid), lists, 1);
	ret = irdma_kv_run(soft_devargs_logtype, args, full, valid, keys, RTE_DIM(keys));
	if (ret < 0)
		return ret;
	if ((a->rxq == SOFT_QUEUE_OWN) != (a->txq == SOFT_QUEUE_OWN)) {
		rte_log(RTE_LOG_ERR, soft_devargs_logtype,
			"%s(): devargs \"%s\": rxq= and txq= go together (a queue id or app each)\n",
			__func__, full);
		return -EINVAL;
	}
	return 0;
}

static int
soft_devargs_check(const char *args, const char *full)
{
	struct soft_devargs a;

	return soft_devargs_parse(args, full, &a);
}

const struct irdma_hw_devargs irdma_soft_devargs = {
	.backend = "soft",
	.keys = soft_devarg_keys,
	.check = soft_devargs_check,
};
