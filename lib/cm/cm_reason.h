/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Why a MAD was not used. irdma_cm_msg_parse() and irdma_cm_rx() return the negated
 * value, so the GSI layer can keep one counter per reason and name it with
 * irdma_cm_reason_name(). Reasons marked "(flow)" are normal protocol events on a lossy
 * wire (the MAD was handled, e.g. by re-sending an answer) rather than bad input.
 */
#ifndef CM_REASON_H
#define CM_REASON_H

#ifdef __cplusplus
extern "C" {
#endif

enum irdma_cm_reason {
	IRDMA_CM_R_OK = 0,
	/* irdma_cm_msg_parse(): the MAD itself */
	IRDMA_CM_R_LENGTH,        /* not exactly 256 bytes */
	IRDMA_CM_R_BASE_VERSION,  /* MAD base version is not 1 */
	IRDMA_CM_R_MGMT_CLASS,    /* not the CM class (0x07) */
	IRDMA_CM_R_CLASS_VERSION, /* CM class version is not 2 */
	IRDMA_CM_R_METHOD,        /* method is not Send (0x03) */
	IRDMA_CM_R_ATTR,          /* attribute ID is not a CM message */
	IRDMA_CM_R_LAP_APR,       /* LAP/APR: alternate paths do not exist on RoCE */
	IRDMA_CM_R_SIDR,          /* SIDR_REQ/SIDR_REP: UD service resolution unsupported */
	IRDMA_CM_R_COMM_ID,       /* REQ or REP with local communication ID 0 */
	IRDMA_CM_R_FIELD,         /* a reserved code point (message referenced 3, ARI > 72) */
	/* irdma_cm_rx(): the MAD against the connections */
	IRDMA_CM_R_NO_CONN,       /* names no connection (answered where the spec says so) */
	IRDMA_CM_R_STATE,         /* not expected in the connection's state */
	IRDMA_CM_R_DUPLICATE,     /* (flow) duplicate REQ/REP/DREQ: answer re-sent or dropped */
	IRDMA_CM_R_STALE,         /* new REQ for a QP that is still connected: REJ 10 */
	IRDMA_CM_R_NO_LISTENER,   /* REQ for a service nobody listens on: REJ 8 */
	IRDMA_CM_R_NO_RESOURCES,  /* connection table full: REJ 3 */
	IRDMA_CM_R_DREQ_QPN,      /* DREQ whose remote QPN is not the connection's QP */
	IRDMA_CM_R_TRANSPORT,     /* REQ for a transport other than RC: REJ 9 */
	/* irdma_cm_gsi_check(): the packet that carried the MAD */
	IRDMA_CM_R_GSI_QPN,       /* not addressed to QP 1 */
	IRDMA_CM_R_GSI_OPCODE,    /* to QP 1 but not a UD SEND Only */
	IRDMA_CM_R_GSI_QKEY,      /* to QP 1 with a Q_Key other than 0x80010000 */
	IRDMA_CM_R_NUM
};

/* Short stable name, usable as a counter suffix ("class_version", "duplicate", ...). */
const char *irdma_cm_reason_name(int reason);

#ifdef __cplusplus
}
#endif

#endif /* CM_REASON_H */
