/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The devargs machinery the PMD and every backend share (irdma_kvargs.c): key checks that
 * name the bad key, one handler per key run at most once, and the value parsers more than
 * one layer needs. Each layer passes its own log type, so a message comes from the layer
 * that owns the key; the wording is the same everywhere ("bad value \"v\" for key \"k\"").
 */
#ifndef IRDMA_KVARGS_H
#define IRDMA_KVARGS_H

#include <stddef.h>
#include <stdint.h>

#include <rte_kvargs.h>
#include <rte_log.h>

#define IRDMA_KV_BAD_VALUE(logtype, key, value, fmt, ...)                                  \
	rte_log(RTE_LOG_ERR, logtype, "%s(): devargs: bad value \"%s\" for key \"%s\": " fmt "\n", \
		__func__, value, key, ##__VA_ARGS__)

#define IRDMA_KV_MAX_KEYS 32  /* keys of one layer */
#define IRDMA_KV_LIST_LEN 512 /* "a, b, ...": every layer's keys */

/* A key and its handler (rte_kvargs signature); @p opaque is passed through. */
struct irdma_kv_key {
	const char *key;
	arg_handler_t fn;
	void *opaque;
};

/* Is @p key (of @p len characters) one of the NULL-terminated @p keys? */
int irdma_kv_key_known(const char *const *keys, const char *key, size_t len);

/* Joins NULL-terminated key lists into "a, b, c" (for "valid keys: ..."). */
void irdma_kv_key_list(char *buf, size_t size, const char *const *const *lists, unsigned int n);

/*
 * Checks every key of "k=v,k=v" @p args against the @p n NULL-terminated @p lists; the
 * first empty, unknown or valueless key is named, with @p full (the whole devargs) and
 * the valid keys. 0 or -EINVAL.
 */
int irdma_kv_check_keys(int logtype, const char *args, const char *full,
			const char *const *const *lists, unsigned int n);

/*
 * Runs the handler of each key of "k=v,k=v" @p args (keys already checked) at most once;
 * a key given twice is refused with a message naming it and @p full (the whole devargs);
 * @p valid_list is named in the message for a string rte_kvargs cannot parse.
 * Returns 0 or -EINVAL (logged by the handler or here).
 */
int irdma_kv_run(int logtype, const char *args, const char *full, const char *valid_list,
		 const struct irdma_kv_key *keys, unsigned int n);

/* An unsigned integer min..max (decimal, 0x hex or 0 octal); -EINVAL, nothing logged. */
int irdma_kv_u64(const char *value, uint64_t min, uint64_t max, uint64_t *out);

#endif /* IRDMA_KVARGS_H */
