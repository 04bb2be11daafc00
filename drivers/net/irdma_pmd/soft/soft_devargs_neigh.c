/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * neigh=<ip>@<mac>[;<ip>@<mac>...]: static neighbour entries. Each IP is IPv4 or IPv6 and is
 * stored in the 16-byte GID form the wire looks peers up by (IPv4-mapped for IPv4); the
 * MAC must be unicast. The same IP twice is an error (which one would win is not obvious).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_log.h>

#include "soft_devargs.h"

static int
neigh_entry(const char *s, size_t len, struct soft_neigh_arg *n)
{
	char buf[INET6_ADDRSTRLEN + 32];
	struct rte_ether_addr ea;
	uint8_t v4[4];
	char *at;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	at = strchr(buf, '@');
	if (at == NULL)
		return -1;
	*at = '\0';
	memset(n, 0, sizeof(*n));
	if (inet_pton(AF_INET, buf, v4) == 1) {
		n->ip[10] = 0xff;
		n->ip[11] = 0xff;
		memcpy(n->ip + 12, v4, 4);
	} else if (inet_pton(AF_INET6, buf, n->ip) != 1) {
		return -1;
	}
	if (rte_ether_unformat_addr(at + 1, &ea) != 0 || rte_is_multicast_ether_addr(&ea) ||
	    rte_is_zero_ether_addr(&ea))
		return -1;
	memcpy(n->mac, ea.addr_bytes, 6);
	return 0;
}

int
soft_devargs_neigh(const char *key, const char *value, void *opaque)
{
	struct soft_devargs *cfg = opaque;
	const char *p = value;
	uint32_t i;

	cfg->n_neigh = 0;
	if (value == NULL || *value == '\0')
		goto bad;
	while (*p != '\0') {
		size_t len = strcspn(p, ";");

		if (cfg->n_neigh == SOFT_MAX_NEIGH) {
			rte_log(RTE_LOG_ERR, soft_devargs_logtype, "%s(): devargs: bad value \"%s\" for key \"%s\": at most %u entries\n",
				__func__, value, key, SOFT_MAX_NEIGH);
			return -EINVAL;
		}
		if (neigh_entry(p, len, &cfg->neigh[cfg->n_neigh]) < 0) {
			rte_log(RTE_LOG_ERR, soft_devargs_logtype, "%s(): devargs: bad value \"%s\" for key \"%s\": entry \"%.*s\" is not <ip>@<unicast mac>\n",
				__func__, value, key, (int)len, p);
			return -EINVAL;
		}
		for (i = 0; i < cfg->n_neigh; i++)
			if (memcmp(cfg->neigh[i].ip, cfg->neigh[cfg->n_neigh].ip, 16) == 0) {
				rte_log(RTE_LOG_ERR, soft_devargs_logtype, "%s(): devargs: bad value \"%s\" for key \"%s\": entry \"%.*s\" repeats an address\n",
					__func__, value, key, (int)len, p);
				return -EINVAL;
			}
		cfg->n_neigh++;
		p += len;
		if (*p == ';')
			p++;
	}
	return 0;
bad:
	rte_log(RTE_LOG_ERR, soft_devargs_logtype, "%s(): devargs: bad value \"%s\" for key \"%s\": expected <ip>@<mac>[;<ip>@<mac>...] such as 198.18.0.2@02:00:00:00:00:02\n",
		__func__, value ? value : "", key);
	return -EINVAL;
}
