/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "cm_gsi.h"
#include "cm_msg.h"
#include "cm_reason.h"

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

int irdma_cm_gsi_check(const struct roce_pkt *p)
{
	if (p->dqpn != IRDMA_CM_GSI_QPN)
		return -IRDMA_CM_R_GSI_QPN;
	if (p->opcode != ROCE_OP_UD_SEND_ONLY)
		return -IRDMA_CM_R_GSI_OPCODE;
	/* rxe drops QP 1 packets with any other Q_Key; so do we. */
	if (p->deth.qkey != IRDMA_CM_GSI_QKEY)
		return -IRDMA_CM_R_GSI_QKEY;
	if (p->paylen != IRDMA_CM_MAD_LEN || !p->payload)
		return -IRDMA_CM_R_LENGTH;
	if (p->payload[0] != IRDMA_CM_BASE_VERSION)
		return -IRDMA_CM_R_BASE_VERSION;
	if (p->payload[1] != IRDMA_CM_MGMT_CLASS)
		return -IRDMA_CM_R_MGMT_CLASS;
	return 0;
}

void irdma_cm_gsi_pkt_init(struct roce_pkt *p, const struct irdma_cm_gsi_path *path,
			   uint32_t psn, uint16_t ip_id, const uint8_t *mad)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->dmac, path->dmac, 6);
	memcpy(p->smac, path->smac, 6);
	memcpy(p->sgid, path->sgid, 16);
	memcpy(p->dgid, path->dgid, 16);
	p->ipv6 = memcmp(path->dgid, v4_prefix, sizeof(v4_prefix)) != 0;
	p->tclass = path->traffic_class;
	p->hop_limit = path->hop_limit;
	p->flow_label = p->ipv6 ? path->flow_label & 0xFFFFFu : 0;
	p->ip_id = ip_id;
	p->ip_frag = 0x4000; /* DF */
	p->sport = path->sport ? path->sport : IRDMA_CM_GSI_UDP_SPORT;
	p->opcode = ROCE_OP_UD_SEND_ONLY;
	p->ackreq = 1; /* meaningless on UD; rxe sets it, and so its frames are ours byte for byte */
	p->pkey = IRDMA_CM_PKEY_DEFAULT;
	p->dqpn = IRDMA_CM_GSI_QPN;
	p->psn = psn & ROCE_PSN_MASK;
	p->deth.qkey = IRDMA_CM_GSI_QKEY;
	p->deth.sqpn = IRDMA_CM_GSI_QPN;
	p->payload = mad;
	p->paylen = IRDMA_CM_MAD_LEN;
}

void irdma_cm_gsi_reply_path(const struct roce_pkt *rx, struct irdma_cm_gsi_path *path)
{
	memset(path, 0, sizeof(*path));
	memcpy(path->dmac, rx->smac, 6);
	memcpy(path->smac, rx->dmac, 6);
	memcpy(path->sgid, rx->dgid, 16);
	memcpy(path->dgid, rx->sgid, 16);
	path->traffic_class = rx->tclass;
	path->hop_limit = 64;
	path->flow_label = rx->flow_label;
}

enum irdma_cm_gsi_class irdma_cm_gsi_class_of(const uint8_t *mad)
{
	uint8_t c = mad[1];

	switch (c) {
	case 0x07:
		return IRDMA_CM_GSI_CLASS_CM;
	case 0x03:
		return IRDMA_CM_GSI_CLASS_SA;
	case 0x04:
		return IRDMA_CM_GSI_CLASS_PERF;
	case 0x05:
		return IRDMA_CM_GSI_CLASS_BM;
	case 0x06:
		return IRDMA_CM_GSI_CLASS_DEV_MGT;
	case 0x08:
		return IRDMA_CM_GSI_CLASS_SNMP;
	default:
		if ((c >= 0x09 && c <= 0x0F) || (c >= 0x30 && c <= 0x4F))
			return IRDMA_CM_GSI_CLASS_VENDOR;
		return IRDMA_CM_GSI_CLASS_OTHER;
	}
}

const char *irdma_cm_gsi_class_name(enum irdma_cm_gsi_class c)
{
	static const char *const names[IRDMA_CM_GSI_CLASS_NUM] = {
		"cm", "sa", "perf", "bm", "dev_mgt", "snmp", "vendor", "other",
	};

	return (unsigned int)c < IRDMA_CM_GSI_CLASS_NUM ? names[c] : "unknown";
}

int irdma_cm_gsi_unsupported_reply(const uint8_t *mad, uint8_t *out)
{
	if (mad[0] != IRDMA_CM_BASE_VERSION || (mad[3] != 0x01 && mad[3] != 0x02))
		return 0;
	memcpy(out, mad, IRDMA_CM_MAD_LEN);
	out[3] = 0x81; /* GetResp */
	out[4] = (uint8_t)(IRDMA_CM_MAD_STATUS_UNSUPPORTED >> 8);
	out[5] = (uint8_t)IRDMA_CM_MAD_STATUS_UNSUPPORTED;
	return 1;
}
