/* SPDX-License-Identifier: BSD-3-Clause */
#include "cm_reason.h"

static const char *const reason_names[IRDMA_CM_R_NUM] = {
	[IRDMA_CM_R_OK] = "ok",
	[IRDMA_CM_R_LENGTH] = "length",
	[IRDMA_CM_R_BASE_VERSION] = "base_version",
	[IRDMA_CM_R_MGMT_CLASS] = "mgmt_class",
	[IRDMA_CM_R_CLASS_VERSION] = "class_version",
	[IRDMA_CM_R_METHOD] = "method",
	[IRDMA_CM_R_ATTR] = "attribute",
	[IRDMA_CM_R_LAP_APR] = "lap_apr",
	[IRDMA_CM_R_SIDR] = "sidr",
	[IRDMA_CM_R_COMM_ID] = "comm_id_zero",
	[IRDMA_CM_R_FIELD] = "reserved_value",
	[IRDMA_CM_R_NO_CONN] = "no_connection",
	[IRDMA_CM_R_STATE] = "state",
	[IRDMA_CM_R_DUPLICATE] = "duplicate",
	[IRDMA_CM_R_STALE] = "stale",
	[IRDMA_CM_R_NO_LISTENER] = "no_listener",
	[IRDMA_CM_R_NO_RESOURCES] = "no_resources",
	[IRDMA_CM_R_DREQ_QPN] = "dreq_qpn",
	[IRDMA_CM_R_TRANSPORT] = "transport",
	[IRDMA_CM_R_GSI_QPN] = "gsi_qpn",
	[IRDMA_CM_R_GSI_OPCODE] = "gsi_opcode",
	[IRDMA_CM_R_GSI_QKEY] = "gsi_qkey",
};

const char *irdma_cm_reason_name(int reason)
{
	if (reason < 0)
		reason = -reason;
	if (reason >= IRDMA_CM_R_NUM || !reason_names[reason])
		return "unknown";
	return reason_names[reason];
}
