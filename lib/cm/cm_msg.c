/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CM message codec. Each message is a table of (wire field, structure member) pairs that
 * both the parser and the builder walk, so the two directions cannot disagree. Reserved
 * bits are ignored on parse and zero on build (Linux does the same).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cm_msg.h"
#include "cm_reason.h"
#include "cm_wire.h"

struct cm_member {
	struct cm_field f;
	uint16_t off;  /* offset of the member in its structure */
	uint16_t size; /* sizeof the member: 1, 2, 4, 8, or the byte-string length */
};

#define M(field, type, member)                                                           \
	{ field, offsetof(type, member), sizeof(((type *)0)->member) }

#define PATH(type, p, b)                                                                 \
	M(CM_PATH_LOCAL_LID(b), type, p.local_lid),                                      \
	M(CM_PATH_REMOTE_LID(b), type, p.remote_lid),                                    \
	M(CM_PATH_LOCAL_GID(b), type, p.local_gid),                                      \
	M(CM_PATH_REMOTE_GID(b), type, p.remote_gid),                                    \
	M(CM_PATH_FLOW_LABEL(b), type, p.flow_label),                                    \
	M(CM_PATH_PACKET_RATE(b), type, p.packet_rate),                                  \
	M(CM_PATH_TRAFFIC_CLASS(b), type, p.traffic_class),                              \
	M(CM_PATH_HOP_LIMIT(b), type, p.hop_limit),                                      \
	M(CM_PATH_SL(b), type, p.sl),                                                    \
	M(CM_PATH_SUBNET_LOCAL(b), type, p.subnet_local),                                \
	M(CM_PATH_ACK_TIMEOUT(b), type, p.local_ack_timeout)

static const struct cm_member req_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_req, local_comm_id),
	M(CM_REQ_VENDOR_ID, struct irdma_cm_req, vendor_id),
	M(CM_REQ_SERVICE_ID, struct irdma_cm_req, service_id),
	M(CM_REQ_LOCAL_CA_GUID, struct irdma_cm_req, local_ca_guid),
	M(CM_REQ_LOCAL_QKEY, struct irdma_cm_req, local_qkey),
	M(CM_REQ_LOCAL_QPN, struct irdma_cm_req, local_qpn),
	M(CM_REQ_RESPONDER_RES, struct irdma_cm_req, responder_resources),
	M(CM_REQ_LOCAL_EECN, struct irdma_cm_req, local_eecn),
	M(CM_REQ_INITIATOR_DEPTH, struct irdma_cm_req, initiator_depth),
	M(CM_REQ_REMOTE_EECN, struct irdma_cm_req, remote_eecn),
	M(CM_REQ_REMOTE_CM_TIMEOUT, struct irdma_cm_req, remote_cm_response_timeout),
	M(CM_REQ_TRANSPORT, struct irdma_cm_req, transport_type),
	M(CM_REQ_FLOW_CONTROL, struct irdma_cm_req, flow_control),
	M(CM_REQ_STARTING_PSN, struct irdma_cm_req, starting_psn),
	M(CM_REQ_LOCAL_CM_TIMEOUT, struct irdma_cm_req, local_cm_response_timeout),
	M(CM_REQ_RETRY_COUNT, struct irdma_cm_req, retry_count),
	M(CM_REQ_PKEY, struct irdma_cm_req, pkey),
	M(CM_REQ_PATH_MTU, struct irdma_cm_req, path_mtu),
	M(CM_REQ_RDC_EXISTS, struct irdma_cm_req, rdc_exists),
	M(CM_REQ_RNR_RETRY, struct irdma_cm_req, rnr_retry_count),
	M(CM_REQ_MAX_CM_RETRIES, struct irdma_cm_req, max_cm_retries),
	M(CM_REQ_SRQ, struct irdma_cm_req, srq),
	M(CM_REQ_EXT_TRANSPORT, struct irdma_cm_req, ext_transport_type),
	PATH(struct irdma_cm_req, primary, CM_REQ_PRIMARY),
	PATH(struct irdma_cm_req, alternate, CM_REQ_ALTERNATE),
	M(CM_REQ_PRIVATE_DATA, struct irdma_cm_req, private_data),
};

static const struct cm_member mra_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_mra, local_comm_id),
	M(CM_REMOTE_COMM_ID, struct irdma_cm_mra, remote_comm_id),
	M(CM_MRA_MSG_MRAED, struct irdma_cm_mra, msg_mraed),
	M(CM_MRA_SERVICE_TIMEOUT, struct irdma_cm_mra, service_timeout),
	M(CM_MRA_PRIVATE_DATA, struct irdma_cm_mra, private_data),
};

static const struct cm_member rej_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_rej, local_comm_id),
	M(CM_REMOTE_COMM_ID, struct irdma_cm_rej, remote_comm_id),
	M(CM_REJ_MSG_REJECTED, struct irdma_cm_rej, msg_rejected),
	M(CM_REJ_ARI_LEN, struct irdma_cm_rej, ari_len),
	M(CM_REJ_REASON, struct irdma_cm_rej, reason),
	M(CM_REJ_ARI, struct irdma_cm_rej, ari),
	M(CM_REJ_PRIVATE_DATA, struct irdma_cm_rej, private_data),
};

static const struct cm_member rep_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_rep, local_comm_id),
	M(CM_REMOTE_COMM_ID, struct irdma_cm_rep, remote_comm_id),
	M(CM_REP_LOCAL_QKEY, struct irdma_cm_rep, local_qkey),
	M(CM_REP_LOCAL_QPN, struct irdma_cm_rep, local_qpn),
	M(CM_REP_LOCAL_EECN, struct irdma_cm_rep, local_eecn),
	M(CM_REP_STARTING_PSN, struct irdma_cm_rep, starting_psn),
	M(CM_REP_RESPONDER_RES, struct irdma_cm_rep, responder_resources),
	M(CM_REP_INITIATOR_DEPTH, struct irdma_cm_rep, initiator_depth),
	M(CM_REP_TARGET_ACK_DELAY, struct irdma_cm_rep, target_ack_delay),
	M(CM_REP_FAILOVER, struct irdma_cm_rep, failover_accepted),
	M(CM_REP_FLOW_CONTROL, struct irdma_cm_rep, flow_control),
	M(CM_REP_RNR_RETRY, struct irdma_cm_rep, rnr_retry_count),
	M(CM_REP_SRQ, struct irdma_cm_rep, srq),
	M(CM_REP_LOCAL_CA_GUID, struct irdma_cm_rep, local_ca_guid),
	M(CM_REP_PRIVATE_DATA, struct irdma_cm_rep, private_data),
};

static const struct cm_member rtu_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_rtu, local_comm_id),
	M(CM_REMOTE_COMM_ID, struct irdma_cm_rtu, remote_comm_id),
	M(CM_RTU_PRIVATE_DATA, struct irdma_cm_rtu, private_data),
};

static const struct cm_member dreq_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_dreq, local_comm_id),
	M(CM_REMOTE_COMM_ID, struct irdma_cm_dreq, remote_comm_id),
	M(CM_DREQ_REMOTE_QPN, struct irdma_cm_dreq, remote_qpn),
	M(CM_DREQ_PRIVATE_DATA, struct irdma_cm_dreq, private_data),
};

static const struct cm_member drep_members[] = {
	M(CM_LOCAL_COMM_ID, struct irdma_cm_drep, local_comm_id),
	M(CM_REMOTE_COMM_ID, struct irdma_cm_drep, remote_comm_id),
	M(CM_DREP_PRIVATE_DATA, struct irdma_cm_drep, private_data),
};

static const struct cm_member hdr_members[] = {
	M(CM_MAD_BASE_VERSION, struct irdma_cm_mad_hdr, base_version),
	M(CM_MAD_MGMT_CLASS, struct irdma_cm_mad_hdr, mgmt_class),
	M(CM_MAD_CLASS_VERSION, struct irdma_cm_mad_hdr, class_version),
	M(CM_MAD_METHOD, struct irdma_cm_mad_hdr, method),
	M(CM_MAD_STATUS, struct irdma_cm_mad_hdr, status),
	M(CM_MAD_CLASS_SPECIFIC, struct irdma_cm_mad_hdr, class_specific),
	M(CM_MAD_TID, struct irdma_cm_mad_hdr, tid),
	M(CM_MAD_ATTR_ID, struct irdma_cm_mad_hdr, attr_id),
	M(CM_MAD_ATTR_MOD, struct irdma_cm_mad_hdr, attr_mod),
};

#undef M
#undef PATH

struct cm_layout {
	const char *name;
	const struct cm_member *members;
	unsigned int n;
};

#define LAYOUT(nm, tbl) { nm, tbl, sizeof(tbl) / sizeof(tbl[0]) }

/* Indexed by attribute ID - IRDMA_CM_ATTR_REQ. */
static const struct cm_layout layouts[] = {
	LAYOUT("REQ", req_members),  LAYOUT("MRA", mra_members),   LAYOUT("REJ", rej_members),
	LAYOUT("REP", rep_members),  LAYOUT("RTU", rtu_members),   LAYOUT("DREQ", dreq_members),
	LAYOUT("DREP", drep_members),
};

static const struct cm_layout *layout_of(uint16_t attr_id)
{
	unsigned int i = (unsigned int)attr_id - IRDMA_CM_ATTR_REQ;

	return attr_id >= IRDMA_CM_ATTR_REQ && i < sizeof(layouts) / sizeof(layouts[0]) ?
		       &layouts[i] : NULL;
}

static void unpack(const uint8_t *wire, const struct cm_member *m, unsigned int n, void *obj)
{
	uint8_t *o = obj;

	for (unsigned int i = 0; i < n; i++, m++) {
		uint64_t v;

		if (m->f.len > 8) {
			memcpy(o + m->off, wire + m->f.off, m->size);
			continue;
		}
		v = cm_fget(wire, m->f);
		switch (m->size) {
		case 1: o[m->off] = (uint8_t)v; break;
		case 2: { uint16_t x = (uint16_t)v; memcpy(o + m->off, &x, 2); break; }
		case 4: { uint32_t x = (uint32_t)v; memcpy(o + m->off, &x, 4); break; }
		default: memcpy(o + m->off, &v, 8); break;
		}
	}
}

static void pack(uint8_t *wire, const struct cm_member *m, unsigned int n, const void *obj)
{
	const uint8_t *o = obj;

	for (unsigned int i = 0; i < n; i++, m++) {
		uint64_t v;

		if (m->f.len > 8) {
			memcpy(wire + m->f.off, o + m->off, m->size);
			continue;
		}
		switch (m->size) {
		case 1: v = o[m->off]; break;
		case 2: { uint16_t x; memcpy(&x, o + m->off, 2); v = x; break; }
		case 4: { uint32_t x; memcpy(&x, o + m->off, 4); v = x; break; }
		default: memcpy(&v, o + m->off, 8); break;
		}
		cm_fput(wire, m->f, v);
	}
}

const char *irdma_cm_attr_name(uint16_t attr_id)
{
	const struct cm_layout *l = layout_of(attr_id);

	if (l)
		return l->name;
	switch (attr_id) {
	case IRDMA_CM_ATTR_SIDR_REQ: return "SIDR_REQ";
	case IRDMA_CM_ATTR_SIDR_REP: return "SIDR_REP";
	case IRDMA_CM_ATTR_LAP: return "LAP";
	case IRDMA_CM_ATTR_APR: return "APR";
	default: return "unknown";
	}
}

void irdma_cm_mad_hdr_init(struct irdma_cm_mad_hdr *hdr, enum irdma_cm_attr attr, uint64_t tid)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->base_version = IRDMA_CM_BASE_VERSION;
	hdr->mgmt_class = IRDMA_CM_MGMT_CLASS;
	hdr->class_version = IRDMA_CM_CLASS_VERSION;
	hdr->method = IRDMA_CM_METHOD_SEND;
	hdr->tid = tid;
	hdr->attr_id = (uint16_t)attr;
}

int irdma_cm_msg_parse(const uint8_t *mad, size_t len, struct irdma_cm_msg *msg)
{
	const struct cm_layout *l;
	const uint8_t *cm = mad + IRDMA_CM_MAD_HDR_LEN;

	memset(msg, 0, sizeof(*msg));
	if (len != IRDMA_CM_MAD_LEN)
		return -IRDMA_CM_R_LENGTH;
	unpack(mad, hdr_members, sizeof(hdr_members) / sizeof(hdr_members[0]), &msg->hdr);
	if (msg->hdr.base_version != IRDMA_CM_BASE_VERSION)
		return -IRDMA_CM_R_BASE_VERSION;
	if (msg->hdr.mgmt_class != IRDMA_CM_MGMT_CLASS)
		return -IRDMA_CM_R_MGMT_CLASS;
	if (msg->hdr.class_version != IRDMA_CM_CLASS_VERSION)
		return -IRDMA_CM_R_CLASS_VERSION;
	if (msg->hdr.method != IRDMA_CM_METHOD_SEND)
		return -IRDMA_CM_R_METHOD;
	l = layout_of(msg->hdr.attr_id);
	if (!l) {
		switch (msg->hdr.attr_id) {
		case IRDMA_CM_ATTR_LAP:
		case IRDMA_CM_ATTR_APR:
			return -IRDMA_CM_R_LAP_APR;
		case IRDMA_CM_ATTR_SIDR_REQ:
		case IRDMA_CM_ATTR_SIDR_REP:
			return -IRDMA_CM_R_SIDR;
		default:
			return -IRDMA_CM_R_ATTR;
		}
	}
	/* The union members all start at the same address. */
	unpack(cm, l->members, l->n, &msg->req);
	switch (msg->hdr.attr_id) {
	case IRDMA_CM_ATTR_REQ:
		/* 0 means "not yet known" to every CM: a REQ/REP cannot carry it. */
		if (!msg->req.local_comm_id)
			return -IRDMA_CM_R_COMM_ID;
		break;
	case IRDMA_CM_ATTR_REP:
		if (!msg->rep.local_comm_id)
			return -IRDMA_CM_R_COMM_ID;
		break;
	case IRDMA_CM_ATTR_MRA:
		if (msg->mra.msg_mraed > IRDMA_CM_MSG_REF_OTHER)
			return -IRDMA_CM_R_FIELD;
		break;
	case IRDMA_CM_ATTR_REJ:
		if (msg->rej.msg_rejected > IRDMA_CM_MSG_REF_OTHER ||
		    msg->rej.ari_len > IRDMA_CM_REJ_ARI_LEN)
			return -IRDMA_CM_R_FIELD;
		break;
	default:
		break;
	}
	return 0;
}

int irdma_cm_msg_build(const struct irdma_cm_msg *msg, uint8_t *mad, size_t cap)
{
	const struct cm_layout *l = layout_of(msg->hdr.attr_id);

	if (!l)
		return -EINVAL;
	if (cap < IRDMA_CM_MAD_LEN)
		return -ENOSPC;
	memset(mad, 0, IRDMA_CM_MAD_LEN);
	pack(mad, hdr_members, sizeof(hdr_members) / sizeof(hdr_members[0]), &msg->hdr);
	pack(mad + IRDMA_CM_MAD_HDR_LEN, l->members, l->n, &msg->req);
	return (int)IRDMA_CM_MAD_LEN;
}
