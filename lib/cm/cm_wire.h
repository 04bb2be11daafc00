/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Field positions of the MAD header and of every CM message (private to lib/cm), in the
 * idiom of cm_field.h. Offsets are those of doc/spec/rdma-cm.md §2 (MAD header, relative
 * to the MAD) and §3 (CM messages, relative to the CM payload at MAD offset 24).
 */
#ifndef CM_WIRE_H
#define CM_WIRE_H

#include "cm_field.h"

/* MAD header (offsets from the start of the MAD). */
#define CM_MAD_BASE_VERSION CM_INT(0, 1)
#define CM_MAD_MGMT_CLASS CM_INT(1, 1)
#define CM_MAD_CLASS_VERSION CM_INT(2, 1)
#define CM_MAD_METHOD CM_INT(3, 1)
#define CM_MAD_STATUS CM_INT(4, 2)
#define CM_MAD_CLASS_SPECIFIC CM_INT(6, 2)
#define CM_MAD_TID CM_INT(8, 8)
#define CM_MAD_ATTR_ID CM_INT(16, 2)
#define CM_MAD_ATTR_MOD CM_INT(20, 4)

/* Fields shared by every message but REQ: the two communication IDs. */
#define CM_LOCAL_COMM_ID CM_INT(0, 4)
#define CM_REMOTE_COMM_ID CM_INT(4, 4)

/* REQ */
#define CM_REQ_VENDOR_ID CM_FIELD(4, 4, 23, 0)
#define CM_REQ_SERVICE_ID CM_INT(8, 8)
#define CM_REQ_LOCAL_CA_GUID CM_INT(16, 8)
#define CM_REQ_LOCAL_QKEY CM_INT(28, 4)
#define CM_REQ_LOCAL_QPN CM_FIELD(32, 4, 31, 8)
#define CM_REQ_RESPONDER_RES CM_FIELD(32, 4, 7, 0)
#define CM_REQ_LOCAL_EECN CM_FIELD(36, 4, 31, 8)
#define CM_REQ_INITIATOR_DEPTH CM_FIELD(36, 4, 7, 0)
#define CM_REQ_REMOTE_EECN CM_FIELD(40, 4, 31, 8)
#define CM_REQ_REMOTE_CM_TIMEOUT CM_FIELD(40, 4, 7, 3)
#define CM_REQ_TRANSPORT CM_FIELD(40, 4, 2, 1)
#define CM_REQ_FLOW_CONTROL CM_FIELD(40, 4, 0, 0)
#define CM_REQ_STARTING_PSN CM_FIELD(44, 4, 31, 8)
#define CM_REQ_LOCAL_CM_TIMEOUT CM_FIELD(44, 4, 7, 3)
#define CM_REQ_RETRY_COUNT CM_FIELD(44, 4, 2, 0)
#define CM_REQ_PKEY CM_INT(48, 2)
#define CM_REQ_PATH_MTU CM_FIELD(50, 1, 7, 4)
#define CM_REQ_RDC_EXISTS CM_FIELD(50, 1, 3, 3)
#define CM_REQ_RNR_RETRY CM_FIELD(50, 1, 2, 0)
#define CM_REQ_MAX_CM_RETRIES CM_FIELD(51, 1, 7, 4)
#define CM_REQ_SRQ CM_FIELD(51, 1, 3, 3)
#define CM_REQ_EXT_TRANSPORT CM_FIELD(51, 1, 2, 0)
#define CM_REQ_PRIMARY 52u   /* start of the primary path (44 bytes) */
#define CM_REQ_ALTERNATE 96u /* start of the alternate path */
#define CM_REQ_PRIVATE_DATA CM_BYTES(140, 92)

/* A path, relative to its start b. */
#define CM_PATH_LOCAL_LID(b) CM_INT((b) + 0, 2)
#define CM_PATH_REMOTE_LID(b) CM_INT((b) + 2, 2)
#define CM_PATH_LOCAL_GID(b) CM_BYTES((b) + 4, 16)
#define CM_PATH_REMOTE_GID(b) CM_BYTES((b) + 20, 16)
#define CM_PATH_FLOW_LABEL(b) CM_FIELD((b) + 36, 4, 31, 12)
#define CM_PATH_PACKET_RATE(b) CM_FIELD((b) + 36, 4, 5, 0)
#define CM_PATH_TRAFFIC_CLASS(b) CM_INT((b) + 40, 1)
#define CM_PATH_HOP_LIMIT(b) CM_INT((b) + 41, 1)
#define CM_PATH_SL(b) CM_FIELD((b) + 42, 1, 7, 4)
#define CM_PATH_SUBNET_LOCAL(b) CM_FIELD((b) + 42, 1, 3, 3)
#define CM_PATH_ACK_TIMEOUT(b) CM_FIELD((b) + 43, 1, 7, 3)

/* MRA */
#define CM_MRA_MSG_MRAED CM_FIELD(8, 1, 7, 6)
#define CM_MRA_SERVICE_TIMEOUT CM_FIELD(9, 1, 7, 3)
#define CM_MRA_PRIVATE_DATA CM_BYTES(10, 222)

/* REJ */
#define CM_REJ_MSG_REJECTED CM_FIELD(8, 1, 7, 6)
#define CM_REJ_ARI_LEN CM_FIELD(9, 1, 7, 1)
#define CM_REJ_REASON CM_INT(10, 2)
#define CM_REJ_ARI CM_BYTES(12, 72)
#define CM_REJ_PRIVATE_DATA CM_BYTES(84, 148)

/* REP */
#define CM_REP_LOCAL_QKEY CM_INT(8, 4)
#define CM_REP_LOCAL_QPN CM_FIELD(12, 4, 31, 8)
#define CM_REP_LOCAL_EECN CM_FIELD(16, 4, 31, 8)
#define CM_REP_STARTING_PSN CM_FIELD(20, 4, 31, 8)
#define CM_REP_RESPONDER_RES CM_INT(24, 1)
#define CM_REP_INITIATOR_DEPTH CM_INT(25, 1)
#define CM_REP_TARGET_ACK_DELAY CM_FIELD(26, 1, 7, 3)
#define CM_REP_FAILOVER CM_FIELD(26, 1, 2, 1)
#define CM_REP_FLOW_CONTROL CM_FIELD(26, 1, 0, 0)
#define CM_REP_RNR_RETRY CM_FIELD(27, 1, 7, 5)
#define CM_REP_SRQ CM_FIELD(27, 1, 4, 4)
#define CM_REP_LOCAL_CA_GUID CM_INT(28, 8)
#define CM_REP_PRIVATE_DATA CM_BYTES(36, 196)

/* RTU, DREP */
#define CM_RTU_PRIVATE_DATA CM_BYTES(8, 224)
#define CM_DREP_PRIVATE_DATA CM_BYTES(8, 224)

/* DREQ */
#define CM_DREQ_REMOTE_QPN CM_FIELD(8, 4, 31, 8)
#define CM_DREQ_PRIVATE_DATA CM_BYTES(12, 220)

#endif /* CM_WIRE_H */
