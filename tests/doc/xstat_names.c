/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Prints every xstat name the PMD exports, one per line: "dev <name>" for a device's table and
 * "qp <name>" for a QP's, each over the soft backend (one GEN_3 device on port=loop, a PD, a CQ
 * and an RC QP). check_xstats.py compares the guides with this list, so the list comes from the
 * running code rather than from its source text.
 *   xstat_names <EAL arguments>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "rte_pmd_irdma.h"

#define MAX_NAMES 512

static struct rte_pmd_irdma_xstat_name names[MAX_NAMES];

static int fail(const char *what)
{
	fprintf(stderr, "xstat_names: %s: %s\n", what, rte_strerror(rte_errno));
	return EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 16, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	int i, n;

	char *eal[64];
	int k, ea = 0;

	/* --no-pci always, whatever the caller passes: this lister must never probe the
	 * machine's own NIC (check_xstats.py passes it too). */
	eal[ea++] = argv[0];
	eal[ea++] = (char *)"--no-pci";
	for (k = 1; k < argc && ea < (int)(sizeof(eal) / sizeof(eal[0])) - 1; k++)
		if (strcmp(argv[k], "--no-pci") != 0)
			eal[ea++] = argv[k];
	eal[ea] = NULL;
	if (rte_eal_init(ea, eal) < 0)
		return fail("EAL initialisation failed");
	dev = rte_pmd_irdma_dev_create("soft,name=xs0,port=loop,ip=198.18.0.1,gen=3");
	if (dev == NULL)
		return fail("device");
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = rte_pmd_irdma_cq_create(dev, &ca);
	if (pd == NULL || cq == NULL)
		return fail("PD or CQ");
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = qa.recv_cq = cq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap.max_send_wr = qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	qp = rte_pmd_irdma_qp_create(pd, &qa);
	if (qp == NULL)
		return fail("QP");

	n = rte_pmd_irdma_xstats_get_names(dev, names, MAX_NAMES);
	if (n < 0 || n > MAX_NAMES) {
		fprintf(stderr, "xstat_names: device names: %d\n", n);
		return EXIT_FAILURE;
	}
	for (i = 0; i < n; i++)
		printf("dev %s\n", names[i].name);
	n = rte_pmd_irdma_qp_xstats_get_names(qp, names, MAX_NAMES);
	if (n < 0 || n > MAX_NAMES) {
		fprintf(stderr, "xstat_names: QP names: %d\n", n);
		return EXIT_FAILURE;
	}
	for (i = 0; i < n; i++)
		printf("qp %s\n", names[i].name);

	if (rte_pmd_irdma_qp_destroy(qp) || rte_pmd_irdma_cq_destroy(cq) || rte_pmd_irdma_pd_free(pd) ||
	    rte_pmd_irdma_dev_close(dev)) {
		fprintf(stderr, "xstat_names: teardown failed\n");
		return EXIT_FAILURE;
	}
	rte_eal_cleanup();
	return EXIT_SUCCESS;
}
