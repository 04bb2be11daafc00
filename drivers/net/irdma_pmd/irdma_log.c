/* SPDX-License-Identifier: BSD-3-Clause */
/* Registration of the PMD's dynamic log types (constructors: the library is linked whole). */
#include "irdma_log.h"

RTE_LOG_REGISTER_SUFFIX(irdma_logtype_init, init, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_ctrl, ctrl, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_qp, qp, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_cq, cq, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_mem, mem, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_tx, tx, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_rx, rx, NOTICE);
RTE_LOG_REGISTER_SUFFIX(irdma_logtype_telemetry, telemetry, NOTICE);
