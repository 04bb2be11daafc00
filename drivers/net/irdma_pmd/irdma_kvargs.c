/* SPDX-License-Identifier: BSD-3-Clause */
/* Devargs helpers shared by the PMD's parser and the backends' (irdma_kvargs.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "irdma_kvargs.h"

int
irdma_kv_key_known(const char *const *keys, const char *key, size_t len)
{
	unsigned int i;

	for (i = 0; keys[i] != NULL; i++)
		if (strlen(keys[i]) == len && strncmp(key, keys[i], len) == 0)
			return 1;
	return 0;
}

void
irdma_kv_key_list(char *buf, size_t size, const char *const *const *lists, unsigned int n)
{
	size_t off = 0;
	unsigned int l, i;

	buf[0] = '\0';
	for (l = 0; l < n; l++)
		for (i = 0; lists[l][i] != NULL && off < size; i++)
			off += snprintf(buf + off, size - off, "%s%s", off ? ", " : "", lists[l][i]);
}

int
irdma_kv_check_keys(int logtype, const char *args, const char *full,
		    const char *const *const *lists, unsigned int n)
{
	char valid[IRDMA_KV_LIST_LEN];
	const char *p = args;
	unsigned int l;

	while (*p != '\0') {
		size_t klen = strcspn(p, "=,");

		if (klen == 0 || klen >= 64) {
			irdma_kv_key_list(valid, sizeof(valid), lists, n);
			rte_log(RTE_LOG_ERR, logtype, "%s(): devargs \"%s\": empty or overlong key at \"%s\"; valid keys: %s\n",
				__func__, full, p, valid);
			return -EINVAL;
		}
		for (l = 0; l < n; l++)
			if (irdma_kv_key_known(lists[l], p, klen))
				break;
		if (l == n) {
			irdma_kv_key_list(valid, sizeof(valid), lists, n);
			rte_log(RTE_LOG_ERR, logtype, "%s(): devargs \"%s\": unknown key \"%.*s\"; valid keys: %s\n",
				__func__, full, (int)klen, p, valid);
			return -EINVAL;
		}
		if (p[klen] != '=') {
			rte_log(RTE_LOG_ERR, logtype, "%s(): devargs \"%s\": key \"%.*s\" needs a value (%.*s=...)\n",
				__func__, full, (int)klen, p, (int)klen, p);
			return -EINVAL;
		}
		p += klen + 1;
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

int
irdma_kv_run(int logtype, const char *args, const char *full, const char *valid_list,
	     const struct irdma_kv_key *keys, unsigned int n)
{
	const char *valid[IRDMA_KV_MAX_KEYS + 1];
	struct rte_kvargs *kv;
	unsigned int i, cnt;
	int ret = 0;

	if (args == NULL || *args == '\0')
		return 0;
	if (n > IRDMA_KV_MAX_KEYS)
		return -E2BIG;
	for (i = 0; i < n; i++)
		valid[i] = keys[i].key;
	valid[n] = NULL;
	kv = rte_kvargs_parse(args, valid);
	if (kv == NULL) {
		rte_log(RTE_LOG_ERR, logtype, "%s(): devargs \"%s\": malformed; expected key=value pairs with keys: %s\n",
			__func__, full, valid_list);
		return -EINVAL;
	}
	for (i = 0; i < n && ret == 0; i++) {
		cnt = rte_kvargs_count(kv, keys[i].key);
		if (cnt > 1) {
			rte_log(RTE_LOG_ERR, logtype, "%s(): devargs \"%s\": key \"%s\" given %u times\n",
				__func__, full, keys[i].key, cnt);
			ret = -EINVAL;
		} else if (cnt == 1 &&
			   rte_kvargs_process(kv, keys[i].key, keys[i].fn, keys[i].opaque) < 0) {
			ret = -EINVAL;
		}
	}
	rte_kvargs_free(kv);
	return ret;
}

int
irdma_kv_u64(const char *value, uint64_t min, uint64_t max, uint64_t *out)
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
