/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devargs of an irdma device: "soft,port=loop,ip=198.18.0.1,gen=2,engine=inline,...". The PMD
 * parses its generic keys into cfg; the backend's own keys (struct irdma_hw_devargs) stay a
 * string, backend_args, which the backend parses at dev_open.
 */
#ifndef IRDMA_DEVARGS_H
#define IRDMA_DEVARGS_H

#include <stdbool.h>

#include "irdma_hw.h"
#include "rte_pmd_irdma.h"

#define IRDMA_DEVARGS_LEN 1024 /* each layer's share of the devargs string */

struct irdma_devargs {
	char backend[16];                       /* first token: "soft" */
	char name[RTE_PMD_IRDMA_NAME_LEN];      /* name= (empty: the registry picks one) */
	char port[64];                          /* port= */
	bool socket_set;                        /* socket= was given */
	char backend_args[IRDMA_DEVARGS_LEN];  /* the backend's keys, "k=v,..." */
	struct irdma_hw_dev_config cfg;         /* what the backend receives (strings point above) */
};

/*
 * Parse @p devargs into @p da (defaults filled in). On failure, returns -EINVAL and logs one
 * line that names the offending key and value and lists the valid keys or values (the
 * backend's keys are checked by its irdma_hw_devargs.check, with the same wording).
 */
int irdma_devargs_parse(const char *devargs, struct irdma_devargs *da);

/* The comma-separated list of valid keys (the PMD's, then the soft device's). */
const char *irdma_devargs_valid_keys(void);

#endif /* IRDMA_DEVARGS_H */
