/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IB CM messages in MADs: the 24-byte MAD header and the CM messages REQ, MRA, REJ, REP,
 * RTU, DREQ and DREP, as C structures, with one parser and one builder. LAP/APR and SIDR
 * are recognised and refused (RoCE has no alternate paths; RC needs no SIDR). Layouts:
 * doc/spec/rdma-cm.md §2-§3.
 */
#ifndef CM_MSG_H
#define CM_MSG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IRDMA_CM_MAD_LEN 256u     /* every GSI MAD, padded with zeros */
#define IRDMA_CM_MAD_HDR_LEN 24u  /* common MAD header */
#define IRDMA_CM_PAYLOAD_LEN 232u /* the CM message after it */

#define IRDMA_CM_BASE_VERSION 1u
#define IRDMA_CM_MGMT_CLASS 0x07u   /* Communication Management */
#define IRDMA_CM_CLASS_VERSION 2u
#define IRDMA_CM_METHOD_SEND 0x03u  /* every CM message is a Send */
#define IRDMA_CM_GSI_QPN 1u
#define IRDMA_CM_GSI_QKEY 0x80010000u
#define IRDMA_CM_PKEY_DEFAULT 0xFFFFu

/* MAD AttributeID: the CM message type. */
enum irdma_cm_attr {
	IRDMA_CM_ATTR_REQ = 0x0010,
	IRDMA_CM_ATTR_MRA = 0x0011,
	IRDMA_CM_ATTR_REJ = 0x0012,
	IRDMA_CM_ATTR_REP = 0x0013,
	IRDMA_CM_ATTR_RTU = 0x0014,
	IRDMA_CM_ATTR_DREQ = 0x0015,
	IRDMA_CM_ATTR_DREP = 0x0016,
	IRDMA_CM_ATTR_SIDR_REQ = 0x0017,
	IRDMA_CM_ATTR_SIDR_REP = 0x0018,
	IRDMA_CM_ATTR_LAP = 0x0019,
	IRDMA_CM_ATTR_APR = 0x001A,
};

/* Private-data capacity of each message (the real length is never transmitted). */
#define IRDMA_CM_REQ_PD_LEN 92u
#define IRDMA_CM_MRA_PD_LEN 222u
#define IRDMA_CM_REJ_PD_LEN 148u
#define IRDMA_CM_REJ_ARI_LEN 72u
#define IRDMA_CM_REP_PD_LEN 196u
#define IRDMA_CM_RTU_PD_LEN 224u
#define IRDMA_CM_DREQ_PD_LEN 220u
#define IRDMA_CM_DREP_PD_LEN 224u

/* Transport service type of a REQ. */
enum irdma_cm_transport {
	IRDMA_CM_TRANSPORT_RC = 0,
	IRDMA_CM_TRANSPORT_UC = 1,
	IRDMA_CM_TRANSPORT_RD = 2,
	IRDMA_CM_TRANSPORT_EXT = 3,
};

/* Message MRAed / rejected. */
enum irdma_cm_msg_ref {
	IRDMA_CM_MSG_REF_REQ = 0,
	IRDMA_CM_MSG_REF_REP = 1,
	IRDMA_CM_MSG_REF_OTHER = 2,
};

/* REJ reason codes that this library sends or acts on (all 16-bit codes parse). */
enum irdma_cm_rej_reason {
	IRDMA_CM_REJ_NO_QP = 1,
	IRDMA_CM_REJ_NO_RESOURCES = 3,
	IRDMA_CM_REJ_TIMEOUT = 4,
	IRDMA_CM_REJ_UNSUPPORTED = 5,
	IRDMA_CM_REJ_INVALID_COMM_ID = 6,
	IRDMA_CM_REJ_INVALID_SERVICE_ID = 8,
	IRDMA_CM_REJ_INVALID_TRANSPORT = 9,
	IRDMA_CM_REJ_STALE_CONN = 10,
	IRDMA_CM_REJ_INVALID_GID = 12,
	IRDMA_CM_REJ_INVALID_MTU = 26,
	IRDMA_CM_REJ_CONSUMER = 28,
	IRDMA_CM_REJ_INVALID_RNR_RETRY = 29,
	IRDMA_CM_REJ_INVALID_CLASS_VERSION = 31,
};

struct irdma_cm_mad_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method;
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;  /* enum irdma_cm_attr */
	uint32_t attr_mod; /* 0 unless ECE is used */
};

/* One path of a REQ (primary or alternate; RoCE never sends an alternate). */
struct irdma_cm_path {
	uint16_t local_lid;  /* 0xFFFF (permissive) on RoCE */
	uint16_t remote_lid;
	uint8_t local_gid[16];  /* the sender's IP as a GID */
	uint8_t remote_gid[16];
	uint32_t flow_label; /* 20 bits */
	uint8_t packet_rate; /* 6 bits, 0 = port current */
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint8_t sl;           /* 4 bits */
	uint8_t subnet_local; /* 1 bit */
	uint8_t local_ack_timeout; /* 5 bits, 4.096 us x 2^T */
};

struct irdma_cm_req {
	uint32_t local_comm_id;
	uint32_t vendor_id; /* 24 bits, ECE; 0 */
	uint64_t service_id;
	uint64_t local_ca_guid;
	uint32_t local_qkey;
	uint32_t local_qpn; /* 24 bits */
	uint8_t responder_resources;
	uint32_t local_eecn; /* 24 bits */
	uint8_t initiator_depth;
	uint32_t remote_eecn; /* 24 bits */
	uint8_t remote_cm_response_timeout; /* 5 bits */
	uint8_t transport_type; /* enum irdma_cm_transport */
	uint8_t flow_control;
	uint32_t starting_psn; /* 24 bits: the first PSN the REQ sender receives */
	uint8_t local_cm_response_timeout; /* 5 bits */
	uint8_t retry_count; /* 3 bits */
	uint16_t pkey;
	uint8_t path_mtu; /* IB MTU code 1..5 */
	uint8_t rdc_exists;
	uint8_t rnr_retry_count; /* 3 bits, for the passive side's QP */
	uint8_t max_cm_retries;  /* 4 bits */
	uint8_t srq;
	uint8_t ext_transport_type; /* 3 bits */
	struct irdma_cm_path primary;
	struct irdma_cm_path alternate;
	uint8_t private_data[IRDMA_CM_REQ_PD_LEN];
};

struct irdma_cm_mra {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t msg_mraed;       /* enum irdma_cm_msg_ref */
	uint8_t service_timeout; /* 5 bits */
	uint8_t private_data[IRDMA_CM_MRA_PD_LEN];
};

struct irdma_cm_rej {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t msg_rejected; /* enum irdma_cm_msg_ref */
	uint8_t ari_len;      /* 7 bits, <= 72 */
	uint16_t reason;      /* enum irdma_cm_rej_reason */
	uint8_t ari[IRDMA_CM_REJ_ARI_LEN];
	uint8_t private_data[IRDMA_CM_REJ_PD_LEN];
};

struct irdma_cm_rep {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t local_qkey;
	uint32_t local_qpn;    /* 24 bits */
	uint32_t local_eecn;   /* 24 bits */
	uint32_t starting_psn; /* 24 bits: the first PSN the REP sender receives */
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t target_ack_delay;  /* 5 bits */
	uint8_t failover_accepted; /* 2 bits */
	uint8_t flow_control;
	uint8_t rnr_retry_count; /* 3 bits, for the active side's QP */
	uint8_t srq;
	uint64_t local_ca_guid;
	uint8_t private_data[IRDMA_CM_REP_PD_LEN];
};

/* RTU and DREP have the same layout. */
struct irdma_cm_rtu {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t private_data[IRDMA_CM_RTU_PD_LEN];
};

struct irdma_cm_dreq {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t remote_qpn; /* 24 bits: the receiver's QP */
	uint8_t private_data[IRDMA_CM_DREQ_PD_LEN];
};

struct irdma_cm_drep {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t private_data[IRDMA_CM_DREP_PD_LEN];
};

/* A parsed MAD: the header, and the message that hdr.attr_id names. */
struct irdma_cm_msg {
	struct irdma_cm_mad_hdr hdr;
	union {
		struct irdma_cm_req req;
		struct irdma_cm_mra mra;
		struct irdma_cm_rej rej;
		struct irdma_cm_rep rep;
		struct irdma_cm_rtu rtu;
		struct irdma_cm_dreq dreq;
		struct irdma_cm_drep drep;
	};
};

/* Parses one 256-byte CM MAD. Returns 0, or -IRDMA_CM_R_<reason> (cm_reason.h). */
int irdma_cm_msg_parse(const uint8_t *mad, size_t len, struct irdma_cm_msg *msg);

/* Builds the MAD of msg (header and the message hdr.attr_id names) into mad, zero-padded.
 * Returns IRDMA_CM_MAD_LEN, -ENOSPC if cap is too small, -EINVAL for another attribute. */
int irdma_cm_msg_build(const struct irdma_cm_msg *msg, uint8_t *mad, size_t cap);

/* Fills the header of a CM MAD: versions, class, method Send, status 0, tid, attr_id. */
void irdma_cm_mad_hdr_init(struct irdma_cm_mad_hdr *hdr, enum irdma_cm_attr attr, uint64_t tid);

/* Short name of a CM attribute ("REQ", "DREP", ...); "unknown" for others. */
const char *irdma_cm_attr_name(uint16_t attr_id);

#ifdef __cplusplus
}
#endif

#endif /* CM_MSG_H */
