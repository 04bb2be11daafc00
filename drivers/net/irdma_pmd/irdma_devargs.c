/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devargs parsing with rte_kvargs. rte_kvargs_parse() rejects an unknown key without saying
 * which, so the keys are checked here first: the user gets the name of the bad key and the
 * list of valid ones. Each key has one handler that validates its value.
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
#include "irdma_devargs_neigh.h" /* neigh= */
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
#define IRDMA_ARG_DROP    "drop"
#define IRDMA_ARG_DUP     "dup"
#define IRDMA_ARG_REORDER "reorder"
#define IRDMA_ARG_CORRUPT "corrupt"
#define IRDMA_ARG_RX_DROP    "rx_drop"
#define IRDMA_ARG_RX_DUP     "rx_dup"
#define IRDMA_ARG_RX_REORDER "rx_reorder"
#define IRDMA_ARG_RX_CORRUPT "rx_corrupt"
#define IRDMA_ARG_SEED    "seed"
#define IRDMA_ARG_NEIGH   "neigh"

static const char *const irdma_valid_args[] = {
	IRDMA_ARG_NAME, IRDMA_ARG_PORT, IRDMA_ARG_IP, IRDMA_ARG_IP6, IRDMA_ARG_MAC,
	IRDMA_ARG_GEN, IRDMA_ARG_ENGINE, IRDMA_ARG_SOCKET, IRDMA_ARG_MTU, IRDMA_ARG_MAX_QP,
	IRDMA_ARG_MAX_CQ, IRDMA_ARG_MAX_MR, IRDMA_ARG_MAX_SRQ, IRDMA_ARG_MAX_PD,
	IRDMA_ARG_MAX_AH, IRDMA_ARG_DROP, IRDMA_ARG_DUP, IRDMA_ARG_REORDER, IRDMA_ARG_CORRUPT,
	IRDMA_ARG_RX_DROP, IRDMA_ARG_RX_DUP, IRDMA_ARG_RX_REORDER, IRDMA_ARG_RX_CORRUPT,
	IRDMA_ARG_SEED, IRDMA_ARG_NEIGH, NULL,
};

static const char *const irdma_backends[] = { "soft", NULL };

const char *
irdma_devargs_valid_keys(void)
{
	static char list[256];
	size_t off = 0;
	unsigned int i;

	if (list[0] != '\0')
		return list;
	for (i = 0; irdma_valid_args[i] != NULL; i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s", i ? ", " : "",
				irdma_valid_args[i]);
	return list;
}

#define BAD_VALUE(key, value, fmt, ...)                                                    \
	IRDMA_LOG(init, ERR, "devargs: bad value \"%s\" for key \"%s\": " fmt, value, key,  \
		  ##__VA_ARGS__)

static int
parse_u64(const char *value, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (value == NULL || *value == '\0' || *value == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(value, &end, 0);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

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

	if (parse_u64(value, 1, 3, &v) < 0) {
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

	if (parse_u64(value, 0, RTE_MAX_NUMA_NODES - 1, &v) < 0) {
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

	if (parse_u64(value, 256, 4096, &v) < 0 || !rte_is_power_of_2((uint32_t)v)) {
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

	if (parse_u64(value, 1, UINT32_MAX, &v) < 0) {
		BAD_VALUE(key, value ? value : "", "expected an integer 1..%u", UINT32_MAX);
		return -EINVAL;
	}
	*limit = (uint32_t)v;
	return 0;
}

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
	BAD_VALUE(key, value ? value : "", "expected a rate 0..1 (e.g. 0.05) or a percentage (5%%)");
	return -EINVAL;
}

static int
arg_seed(const char *key, const char *value, void *opaque)
{
	struct irdma_devargs *da = opaque;
	uint64_t v;

	if (parse_u64(value, 0, UINT64_MAX, &v) < 0) {
		BAD_VALUE(key, value ? value : "", "expected an unsigned 64-bit integer");
		return -EINVAL;
	}
	da->cfg.seed = v;
	return 0;
}

/* Checks every key of "k=v,k=v" against the valid list; names the first bad one. */
static int
check_keys(const char *args, const char *full)
{
	char key[64];
	const char *p = args;

	while (*p != '\0') {
		size_t klen = strcspn(p, "=,");
		unsigned int i;

		if (klen == 0 || klen >= sizeof(key)) {
			IRDMA_LOG(init, ERR, "devargs \"%s\": empty or overlong key at \"%s\"; valid keys: %s",
				  full, p, irdma_devargs_valid_keys());
			return -EINVAL;
		}
		memcpy(key, p, klen);
		key[klen] = '\0';
		for (i = 0; irdma_valid_args[i] != NULL; i++)
			if (strcmp(key, irdma_valid_args[i]) == 0)
				break;
		if (irdma_valid_args[i] == NULL) {
			IRDMA_LOG(init, ERR, "devargs \"%s\": unknown key \"%s\"; valid keys: %s",
				  full, key, irdma_devargs_valid_keys());
			return -EINVAL;
		}
		if (p[klen] != '=') {
			IRDMA_LOG(init, ERR, "devargs \"%s\": key \"%s\" needs a value (%s=...)",
				  full, key, key);
			return -EINVAL;
		}
		p += klen + 1;
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
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
	static const struct {
		const char *key;
		arg_handler_t fn;
		size_t offset; /* of the opaque argument in struct irdma_devargs; SIZE_MAX: da */
	} handlers[] = {
		{ IRDMA_ARG_NAME, arg_name, SIZE_MAX },
		{ IRDMA_ARG_PORT, arg_port, SIZE_MAX },
		{ IRDMA_ARG_IP, arg_ip, SIZE_MAX },
		{ IRDMA_ARG_IP6, arg_ip6, SIZE_MAX },
		{ IRDMA_ARG_MAC, arg_mac, SIZE_MAX },
		{ IRDMA_ARG_GEN, arg_gen, SIZE_MAX },
		{ IRDMA_ARG_ENGINE, arg_engine, SIZE_MAX },
		{ IRDMA_ARG_SOCKET, arg_socket, SIZE_MAX },
		{ IRDMA_ARG_MTU, arg_mtu, SIZE_MAX },
		{ IRDMA_ARG_MAX_QP, arg_limit, offsetof(struct irdma_devargs, cfg.max_qp) },
		{ IRDMA_ARG_MAX_CQ, arg_limit, offsetof(struct irdma_devargs, cfg.max_cq) },
		{ IRDMA_ARG_MAX_MR, arg_limit, offsetof(struct irdma_devargs, cfg.max_mr) },
		{ IRDMA_ARG_MAX_SRQ, arg_limit, offsetof(struct irdma_devargs, cfg.max_srq) },
		{ IRDMA_ARG_MAX_PD, arg_limit, offsetof(struct irdma_devargs, cfg.max_pd) },
		{ IRDMA_ARG_MAX_AH, arg_limit, offsetof(struct irdma_devargs, cfg.max_ah) },
		{ IRDMA_ARG_DROP, arg_rate, offsetof(struct irdma_devargs, cfg.drop_ppm) },
		{ IRDMA_ARG_DUP, arg_rate, offsetof(struct irdma_devargs, cfg.dup_ppm) },
		{ IRDMA_ARG_REORDER, arg_rate, offsetof(struct irdma_devargs, cfg.reorder_ppm) },
		{ IRDMA_ARG_CORRUPT, arg_rate, offsetof(struct irdma_devargs, cfg.corrupt_ppm) },
		{ IRDMA_ARG_RX_DROP, arg_rate, offsetof(struct irdma_devargs, cfg.rx_drop_ppm) },
		{ IRDMA_ARG_RX_DUP, arg_rate, offsetof(struct irdma_devargs, cfg.rx_dup_ppm) },
		{ IRDMA_ARG_RX_REORDER, arg_rate, offsetof(struct irdma_devargs, cfg.rx_reorder_ppm) },
		{ IRDMA_ARG_RX_CORRUPT, arg_rate, offsetof(struct irdma_devargs, cfg.rx_corrupt_ppm) },
		{ IRDMA_ARG_SEED, arg_seed, SIZE_MAX },
		{ IRDMA_ARG_NEIGH, irdma_devargs_neigh, offsetof(struct irdma_devargs, cfg) },
	};
	struct rte_kvargs *kv = NULL;
	const char *rest;
	size_t blen;
	unsigned int i;
	int ret = 0;

	set_defaults(da);
	if (devargs == NULL || *devargs == '\0') {
		IRDMA_LOG(init, ERR, "devargs: empty; expected \"soft[,key=value...]\" with keys: %s",
			  irdma_devargs_valid_keys());
		return -EINVAL;
	}

	/* Backend token. */
	blen = strcspn(devargs, ",");
	for (i = 0; irdma_backends[i] != NULL; i++)
		if (strlen(irdma_backends[i]) == blen &&
		    strncmp(devargs, irdma_backends[i], blen) == 0)
			break;
	if (irdma_backends[i] == NULL) {
		IRDMA_LOG(init, ERR, "devargs \"%s\": unknown backend \"%.*s\"; valid backends: soft",
			  devargs, (int)blen, devargs);
		return -EINVAL;
	}
	memcpy(da->backend, devargs, blen);
	rest = devargs + blen + (devargs[blen] == ',');

	if (*rest == '\0')
		goto done;
	ret = check_keys(rest, devargs);
	if (ret < 0)
		return ret;
	kv = rte_kvargs_parse(rest, irdma_valid_args);
	if (kv == NULL) {
		IRDMA_LOG(init, ERR, "devargs \"%s\": malformed; expected key=value pairs with keys: %s",
			  devargs, irdma_devargs_valid_keys());
		return -EINVAL;
	}
	for (i = 0; i < RTE_DIM(handlers); i++) {
		void *opaque = handlers[i].offset == SIZE_MAX ?
			(void *)da : (void *)((char *)da + handlers[i].offset);
		unsigned int n = rte_kvargs_count(kv, handlers[i].key);

		if (n > 1) {
			IRDMA_LOG(init, ERR, "devargs \"%s\": key \"%s\" given %u times",
				  devargs, handlers[i].key, n);
			ret = -EINVAL;
			break;
		}
		if (n == 1 && rte_kvargs_process(kv, handlers[i].key, handlers[i].fn, opaque) < 0) {
			ret = -EINVAL;
			break;
		}
	}
	rte_kvargs_free(kv);
	if (ret < 0)
		return ret;
done:
	da->cfg.port = da->port;
	return 0;
}
