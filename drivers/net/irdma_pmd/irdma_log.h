/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Dynamic log types of the PMD: pmd.net.irdma.{init,ctrl,qp,cq,mem,tx,rx,telemetry}.
 * Select with --log-level='pmd.net.irdma.*:debug'. Every line names the function, so a
 * failure reads "irdma_qp_modify(): irdma0 qp 5: INIT->RTS is not a legal transition".
 */
#ifndef IRDMA_LOG_H
#define IRDMA_LOG_H

#include <rte_log.h>

extern int irdma_logtype_init;
extern int irdma_logtype_ctrl;
extern int irdma_logtype_qp;
extern int irdma_logtype_cq;
extern int irdma_logtype_mem;
extern int irdma_logtype_tx;
extern int irdma_logtype_rx;
extern int irdma_logtype_telemetry;

#define IRDMA_LOG(type, level, fmt, ...)                                                   \
	rte_log(RTE_LOG_##level, irdma_logtype_##type, "%s(): " fmt "\n", __func__,         \
		##__VA_ARGS__)

/* Data-path logging: checked before formatting so a disabled level costs one load. */
#define IRDMA_DP_LOG(type, level, fmt, ...)                                                \
	do {                                                                               \
		if (unlikely(rte_log_can_log(irdma_logtype_##type, RTE_LOG_##level)))     \
			IRDMA_LOG(type, level, fmt, ##__VA_ARGS__);                        \
	} while (0)

#endif /* IRDMA_LOG_H */
