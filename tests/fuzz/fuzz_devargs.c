/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the devargs parser (rte_kvargs underneath) on arbitrary strings. Either
 * it accepts the string, or it refuses it with -EINVAL; what it accepted is within the
 * documented ranges (checked here for the keys with ranges).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "irdma_devargs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	rte_log_set_global_level(RTE_LOG_EMERG); /* one refusal line per input otherwise */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irdma_devargs da;
	char *s;
	int ret;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	ret = irdma_devargs_parse(s, &da);
	if (ret != 0 && ret != -EINVAL)
		abort();
	if (ret == 0 && (da.cfg.gen < 1 || da.cfg.gen > 3 || strnlen(da.port, sizeof(da.port)) ==
			 sizeof(da.port) || strnlen(da.name, sizeof(da.name)) == sizeof(da.name)))
		abort();
	free(s);
	return 0;
}
