/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: both devargs parsers (rte_kvargs underneath) on arbitrary strings: the
 * PMD's (generic keys, the backend's handed over and checked by it) and the soft device's
 * own, as dev_open runs it on backend_args. Either a parser accepts the string, or it
 * refuses it with -EINVAL; what it accepted is within the documented ranges (checked here
 * for the keys with ranges), and what the PMD hands the backend, the backend accepts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "irdma_devargs.h"
#include "soft_devargs.h"

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
	struct soft_devargs sa;
	unsigned int i;
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
	/* the backend's share of an accepted string is accepted by the backend's parser */
	if (ret == 0 && soft_devargs_parse(da.cfg.backend_args, s, &sa) != 0)
		abort();
	/* and the soft parser alone, as dev_open runs it on any backend_args string */
	ret = soft_devargs_parse(s, s, &sa);
	if (ret != 0 && ret != -EINVAL)
		abort();
	if (ret == 0) {
		if (sa.n_neigh > SOFT_MAX_NEIGH || sa.drop_ppm > 1000000 || sa.dup_ppm > 1000000 ||
		    sa.reorder_ppm > 1000000 || sa.corrupt_ppm > 1000000 ||
		    sa.rx_drop_ppm > 1000000 || sa.rx_dup_ppm > 1000000 ||
		    sa.rx_reorder_ppm > 1000000 || sa.rx_corrupt_ppm > 1000000 ||
		    sa.delay_ppm > 1000000 || sa.rx_delay_ppm > 1000000 ||
		    sa.delay_us < 1 || sa.delay_us > SOFT_DELAY_US_MAX ||
		    sa.rx_delay_us < 1 || sa.rx_delay_us > SOFT_DELAY_US_MAX ||
		    sa.rxq > SOFT_QUEUE_MAX || sa.txq > SOFT_QUEUE_MAX ||
		    sa.rxq < SOFT_QUEUE_APP || sa.txq < SOFT_QUEUE_APP)
			abort();
		for (i = 0; i < sa.n_neigh; i++)
			if (sa.neigh[i].mac[0] & 1)
				abort();
	}
	free(s);
	return 0;
}
