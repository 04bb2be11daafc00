/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devargs parsing with rte_kvargs. rte_kvargs_parse() rejects an unknown key without saying
 * which, so the keys are checked here first: the user gets the name of the bad key and the
 * list of valid ones. The PMD parses the keys every device has (one handler per key that
 * validates its value); the backend named by the first token brings its own keys
 * (struct irdma_hw_devargs): they are handed to it as one "key=value,..." string, checked
 * by the backend now and parsed by it at dev_open (soft/soft_devargs.c for the soft device).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_kvargs.h>
#include <rte_memory.h>

#include "irdma_devargs.h"
#include "irdma_kvargs.h"
#include "irdma_log.h"

#define IRDMA_ARG_NAME    "name"
#define IRDMA_ARG_PORT    "port"
#define IRDMA_ARG_IP      "ip"
#define IRDMA_ARG_IP6     "ip6"
#define IRDMA_ARG_MAC     "mac"
#define IRDMA_ARG_GEN     "gen"
#define IRDMA_ARG_ENGINE  "engine"
#define IRDMA_ARG_SOCKET  "socket"
#define IRDMA_ARG_MTU     "mtu"
#define IRDMA_ARG_MAX_QP  "max_qp"
#define IRDMA_ARG_MAX_CQ  "max_cq"
#define IRDMA_ARG_MAX_MR  "max_mr"
#define IRDMA_ARG_MAX_SRQ "max_srq"
#define IRDMA_ARG_MAX_PD  "max_pd"
#define IRDMA_ARG_MAX_AH  "max_ah"

static const char *const irdma_valid_args[] = {
	IRDMA_ARG_NAME, IRDMA_ARG_PORT, IRDMA_ARG_IP, IRDMA_ARG_IP6, IRDMA_ARG_MAC,
	IRDMA_ARG_GEN, IRDMA_ARG_ENGINE, IRDMA_ARG_SOCKET, IRDMA_ARG_MTU, IRDMA_ARG_MAX_QP,
	IRDMA_ARG_MAX_CQ, IRDMA_ARG_MAX_MR, IRDMA_ARG_MAX_SRQ, IRDMA_ARG_MAX_PD,
	IRDMA_ARG_MAX_AH, NULL,
};

/* The backends and their own keys (a new backend adds one line here, never a key). */
static const struct irdma_hw_devargs *const irdma_backends[] = { &irdma_soft_devargs };

/* The PMD's keys, then @p b's (the first backend's when NULL): "valid keys: ...". */
static const char *
valid_keys(const struct irdma_hw_devargs *b)
{
	static char list[IRDMA_KV_LIST_LEN];
	const char *const *const lists[] = { irdma_valid_args,
		(b != NULL ? b : irdma_backends[0])->keys };

	irdma_kv_key_list(list, sizeof(list), lists, RTE_DIM(lists));
	return list;
}

const char *
irdma_devargs_valid_keys(void)
{
	return valid_keys(NULL);
}

#define BAD_VALUE(key, value, fmt, ...) \
	IRDMA_KV_BAD_VALUE(irdma_logtype_init, key, value, fmt, ##__VA_ARGS__)

static int
arg_string(const char *key, const char *value, void *opaque, size_t size)
{
	if (value == NULL || *value == '\0' || strlen(value) >= size) {
		BAD_VALUE(key, value ? value : "", "expected a non-empty string under %zu characters",
			  size);
		return -EINVAL;
	}
	strcpy(opaque, value);
	return 0;
}

static int
arg_name(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;
	const char *p;

	if (arg_string(key, value, da->name, sizeof(da->name)) < 0)
		return -EINVAL;
	/* The name appears in memzone, service and telemetry names: keep it to [A-Za-z0-9_]. */
	for (p = value; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_')) {
			BAD_VALUE(key, value, "only letters, digits and '_' are allowed");
			return -EINVAL;
		}
	if (strlen(value) > 12) {
		BAD_VALUE(key, value, "at most 12 characters (memzone names derive from it)");
		return -EINVAL;
	}
	return 0;
}

static int
arg_port(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;

	return arg_string(key, value, da->port, sizeof(da->port));
}

static int
arg_ip(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;

	if (value == NULL || inet_pton(AF_INET, value, da->cfg.ipv4) != 1) {
		BAD_VALUE(key, value ? value : "", "expected an IPv4 address such as 198.18.0.1");
		return -EINVAL;
	}
	da->cfg.has_ipv4 = true;
	return 0;
}

static int
arg_ip6(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;

	if (value == NULL || inet_pton(AF_INET6, value, da->cfg.ipv6) != 1) {
		BAD_VALUE(key, value ? value : "", "expected an IPv6 address such as fd00::1");
		return -EINVAL;
	}
	da->cfg.has_ipv6 = true;
	return 0;
}

static int
arg_mac(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;
	struct rte_ether_addr ea;

	if (value == NULL || rte_ether_unformat_addr(value, &ea) != 0 ||
	    rte_is_multicast_ether_addr(&ea) || rte_is_zero_ether_addr(&ea)) {
		BAD_VALUE(key, value ? value : "",
			  "expected a unicast MAC address such as 02:00:00:00:00:01");
		return -EINVAL;
	}
	memcpy(da->cfg.mac, ea.addr_bytes, sizeof(da->cfg.mac));
	return 0;
}

static int
arg_gen(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;
	uint64_t v;

	if (irdma_kv_u64(value, 1, 3, &v) < 0) {
		BAD_VALUE(key, value ? value : "", "valid values: 1 (X722), 2 (E810), 3 (IPU)");
		return -EINVAL;
	}
	da->cfg.gen = (enum irdma_hw_gen)v;
	return 0;
}

static int
arg_engine(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;

	if (value != NULL && strcmp(value, "inline") == 0) {
		da->cfg.engine = IRDMA_HW_ENGINE_INLINE;
	} else if (value != NULL && strcmp(value, "service") == 0) {
		da->cfg.engine = IRDMA_HW_ENGINE_SERVICE;
	} else {
		BAD_VALUE(key, value ? value : "", "valid values: inline, service");
		return -EINVAL;
	}
	return 0;
}

static int
arg_socket(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;
	uint64_t v;

	if (irdma_kv_u64(value, 0, RTE_MAX_NUMA_NODES - 1, &v) < 0) {
		BAD_VALUE(key, value ? value : "", "expected a NUMA socket id 0..%d",
			  RTE_MAX_NUMA_NODES - 1);
		return -EINVAL;
	}
	da->cfg.socket_id = (int)v;
	da->socket_set = true;
	return 0;
}

static int
arg_mtu(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;
	uint64_t v;

	if (irdma_kv_u64(value, 256, 4096, &v) < 0 || !rte_is_power_of_2((uint32_t)v)) {
		BAD_VALUE(key, value ? value : "", "valid values: 256, 512, 1024, 2048, 4096");
		return -EINVAL;
	}
	da->cfg.mtu = (uint16_t)v;
	return 0;
}

static int
arg_limit(const char *key, const char *value, void *opaque)
{
	uint32_t *limit = opaque;
	uint64_t v;

	if (irdma_kv_u64(value, 1, UINT32_MAX, &v) < 0) {
		BAD_VALUE(key, value ? value : "", "expected an integer 1..%u", UINT32_MAX);
		return -EINVAL;
	}
	*limit = (uint32_t)v;
	return 0;
}

/*
 * Splits "k=v,k=v" @p rest into the PMD's pairs (@p own) and the backend's (@p theirs), in
 * the order given. Keys were checked: each is one of the two sets.
 */
static int
split_args(const char *rest, const char *full, char *own, size_t own_size, char *theirs,
	   size_t theirs_size)
{
	size_t no = 0, nt = 0;
	const char *p = rest;

	own[0] = theirs[0] = '\0';
	while (*p != '\0') {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=,");
		bool mine = irdma_kv_key_known(irdma_valid_args, p, klen);
		char *dst = mine ? own : theirs;
		size_t *n = mine ? &no : &nt, size = mine ? own_size : theirs_size;

		if (*n + len + 2 > size) {
			IRDMA_LOG(init, ERR, "devargs \"%s\": longer than %zu characters", full, size - 2);
			return -EINVAL;
		}
		if (*n != 0)
			dst[(*n)++] = ',';
		memcpy(dst + *n, p, len);
		*n += len;
		dst[*n] = '\0';
		p += len + (p[len] == ',');
	}
	return 0;
}

static void
set_defaults(struct irdma_devargs *da)
{
	memset(da, 0, sizeof(*da));
	strcpy(da->port, "loop");
	da->cfg.gen = IRDMA_HW_GEN_2;
	da->cfg.engine = IRDMA_HW_ENGINE_INLINE;
	da->cfg.socket_id = SOCKET_ID_ANY;
	da->cfg.mtu = 1024;
}

int
irdma_devargs_parse(const char *devargs, struct irdma_devargs *da)
{
	const struct irdma_kv_key handlers[] = {
		{ IRDMA_ARG_NAME, arg_name, da },
		{ IRDMA_ARG_PORT, arg_port, da },
		{ IRDMA_ARG_IP, arg_ip, da },
		{ IRDMA_ARG_IP6, arg_ip6, da },
		{ IRDMA_ARG_MAC, arg_mac, da },
		{ IRDMA_ARG_GEN, arg_gen, da },
		{ IRDMA_ARG_ENGINE, arg_engine, da },
		{ IRDMA_ARG_SOCKET, arg_socket, da },
		{ IRDMA_ARG_MTU, arg_mtu, da },
		{ IRDMA_ARG_MAX_QP, arg_limit, &da->cfg.max_qp },
		{ IRDMA_ARG_MAX_CQ, arg_limit, &da->cfg.max_cq },
		{ IRDMA_ARG_MAX_MR, arg_limit, &da->cfg.max_mr },
		{ IRDMA_ARG_MAX_SRQ, arg_limit, &da->cfg.max_srq },
		{ IRDMA_ARG_MAX_PD, arg_limit, &da->cfg.max_pd },
		{ IRDMA_ARG_MAX_AH, arg_limit, &da->cfg.max_ah },
	};
	const struct irdma_hw_devargs *b = NULL;
	char own[IRDMA_DEVARGS_LEN];
	const char *rest;
	size_t blen;
	unsigned int i;
	int ret;

	RTE_BUILD_BUG_ON(RTE_DIM(handlers) + 1 != RTE_DIM(irdma_valid_args));
	set_defaults(da);
	if (devargs == NULL || *devargs == '\0') {
		IRDMA_LOG(init, ERR, "devargs: empty; expected \"soft[,key=value...]\" with keys: %s",
			  irdma_devargs_valid_keys());
		return -EINVAL;
	}

	/* Backend token. */
	blen = strcspn(devargs, ",");
	for (i = 0; i < RTE_DIM(irdma_backends); i++)
		if (strlen(irdma_backends[i]->backend) == blen &&
		    strncmp(devargs, irdma_backends[i]->backend, blen) == 0)
			b = irdma_backends[i];
	if (b == NULL || blen >= sizeof(da->backend)) {
		IRDMA_LOG(init, ERR, "devargs \"%s\": unknown backend \"%.*s\"; valid backends: soft",
			  devargs, (int)blen, devargs);
		return -EINVAL;
	}
	memcpy(da->backend, devargs, blen);
	rest = devargs + blen + (devargs[blen] == ',');

	if (*rest != '\0') {
		const char *const *const lists[] = { irdma_valid_args, b->keys };

		ret = irdma_kv_check_keys(irdma_logtype_init, rest, devargs, lists, RTE_DIM(lists));
		if (ret == 0)
			ret = split_args(rest, devargs, own, sizeof(own), da->backend_args,
					 sizeof(da->backend_args));
		if (ret == 0)
			ret = irdma_kv_run(irdma_logtype_init, own, devargs, valid_keys(b), handlers,
					   RTE_DIM(handlers));
		if (ret == 0)
			ret = b->check(da->backend_args, devargs);
		if (ret < 0)
			return ret;
	}
	da->cfg.port = da->port;
	da->cfg.backend_args = da->backend_args;
	return 0;
}
