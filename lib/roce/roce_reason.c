/* SPDX-License-Identifier: BSD-3-Clause */
#include "roce_reason.h"

static const char *const reason_names[ROCE_R_NUM] = {
	[ROCE_R_OK] = "ok",
	[ROCE_R_TRUNC] = "truncated",
	[ROCE_R_ETHERTYPE] = "not_ip",
	[ROCE_R_IP_VERSION] = "ip_version",
	[ROCE_R_IP_HDR] = "ip_header",
	[ROCE_R_IP_CSUM] = "ip_checksum",
	[ROCE_R_IP_LEN] = "ip_length",
	[ROCE_R_NOT_UDP] = "not_udp",
	[ROCE_R_UDP_PORT] = "udp_port",
	[ROCE_R_UDP_LEN] = "udp_length",
	[ROCE_R_UDP_CSUM] = "udp_checksum",
	[ROCE_R_BTH_TVER] = "bth_tver",
	[ROCE_R_OPCODE] = "opcode",
	[ROCE_R_HDR_LEN] = "header_length",
	[ROCE_R_PAYLOAD] = "payload",
	[ROCE_R_PAD] = "pad",
	[ROCE_R_PKEY] = "pkey",
	[ROCE_R_QPN] = "qpn",
	[ROCE_R_ICRC] = "icrc",
	[ROCE_R_QP_STATE] = "qp_state",
	[ROCE_R_TRANSPORT] = "transport",
	[ROCE_R_ADDR] = "address",
	[ROCE_R_QKEY] = "qkey",
	[ROCE_R_PSN_AHEAD] = "psn_ahead",
	[ROCE_R_DUPLICATE] = "duplicate",
	[ROCE_R_DUP_NO_RES] = "duplicate_no_resource",
	[ROCE_R_OPSEQ] = "opcode_sequence",
	[ROCE_R_LENGTH] = "length",
	[ROCE_R_INVALID_REQ] = "invalid_request",
	[ROCE_R_REMOTE_ACCESS] = "remote_access",
	[ROCE_R_REMOTE_OP] = "remote_operational",
	[ROCE_R_RNR] = "rnr",
	[ROCE_R_RESP_PSN] = "response_psn",
	[ROCE_R_RESP_UNEXPECTED] = "response_unexpected",
	[ROCE_R_UD_NO_RECV] = "ud_no_receive",
	[ROCE_R_UD_TOO_LONG] = "ud_too_long",
	[ROCE_R_UC_DROP] = "uc_drop",
	[ROCE_R_CNP] = "cnp",
};

const char *roce_reason_name(enum roce_reason reason)
{
	if ((unsigned int)reason >= ROCE_R_NUM)
		return "unknown";
	return reason_names[reason];
}
