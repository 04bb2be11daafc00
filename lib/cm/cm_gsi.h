/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The GSI (QP 1) rules for CM MADs on RoCEv2, on lib/roce's struct roce_pkt: which
 * received packets are CM MADs for us, and the packet that carries one of ours. A device
 * hooks these into its receive demultiplexer and its transmit path; everything else
 * (queues, MAC resolution) stays in the device. Facts: doc/spec/rdma-cm.md §1.
 */
#ifndef CM_GSI_H
#define CM_GSI_H

#include <stdint.h>

#include "roce_pkt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IRDMA_CM_GSI_UDP_SPORT 55410u /* what rxe uses for QP 1; receivers ignore it */

/* Where a MAD goes: Ethernet and IP addresses (GIDs; IPv4-mapped means IPv4). */
struct irdma_cm_gsi_path {
	uint8_t dmac[6];
	uint8_t smac[6];
	uint8_t sgid[16];
	uint8_t dgid[16];
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint32_t flow_label; /* IPv6 only */
	uint16_t sport;      /* UDP source port; 0 means IRDMA_CM_GSI_UDP_SPORT */
};

/* Is this parsed packet a CM MAD for QP 1? Returns 0, or -IRDMA_CM_R_GSI_QPN (not for
 * QP 1: not ours to judge), -IRDMA_CM_R_GSI_OPCODE, -IRDMA_CM_R_GSI_QKEY,
 * -IRDMA_CM_R_LENGTH, -IRDMA_CM_R_BASE_VERSION or -IRDMA_CM_R_MGMT_CLASS (a MAD of
 * another class: dropped and counted, as there is no other GSI agent). */
int irdma_cm_gsi_check(const struct roce_pkt *pkt);

/* Fills pkt to carry the 256-byte mad to QP 1 along path: UD SEND Only, P_Key 0xFFFF,
 * destination and source QP 1, Q_Key 0x80010000. */
void irdma_cm_gsi_pkt_init(struct roce_pkt *pkt, const struct irdma_cm_gsi_path *path,
			   uint32_t psn, uint16_t ip_id, const uint8_t *mad);

/* Management classes a GSI counts MADs by (the MAD header's byte 1). */
enum irdma_cm_gsi_class {
	IRDMA_CM_GSI_CLASS_CM = 0,   /* 0x07: the one with an agent here */
	IRDMA_CM_GSI_CLASS_SA,       /* 0x03 subnet administration */
	IRDMA_CM_GSI_CLASS_PERF,     /* 0x04 performance management */
	IRDMA_CM_GSI_CLASS_BM,       /* 0x05 baseboard management */
	IRDMA_CM_GSI_CLASS_DEV_MGT,  /* 0x06 device management */
	IRDMA_CM_GSI_CLASS_SNMP,     /* 0x08 SNMP tunnelling */
	IRDMA_CM_GSI_CLASS_VENDOR,   /* 0x09..0x0F and 0x30..0x4F vendor specific */
	IRDMA_CM_GSI_CLASS_OTHER,    /* anything else (SMPs do not travel on QP 1) */
	IRDMA_CM_GSI_CLASS_NUM
};

/* The class of a MAD (mad points at least at its 24-byte header). */
enum irdma_cm_gsi_class irdma_cm_gsi_class_of(const uint8_t *mad);

/* Short stable name of a class ("cm", "sa", "perf", ...), for counter names. */
const char *irdma_cm_gsi_class_name(enum irdma_cm_gsi_class c);

#define IRDMA_CM_MAD_STATUS_UNSUPPORTED 0x000Cu /* unsupported method/attribute */

/* Linux's answer to a MAD no agent takes (ib_mad's unmatched response): a Get or Set
 * request (base version 1, method 0x01 or 0x02) comes back as a GetResp (0x81) with
 * status 0x000C and everything else unchanged; any other MAD (a response, a Send, a Trap)
 * gets no answer. Writes the 256-byte answer into out and returns 1, or returns 0. */
int irdma_cm_gsi_unsupported_reply(const uint8_t *mad, uint8_t *out);

/* The path back to the sender of a received packet (addresses swapped). */
void irdma_cm_gsi_reply_path(const struct roce_pkt *rx, struct irdma_cm_gsi_path *path);

#ifdef __cplusplus
}
#endif

#endif /* CM_GSI_H */
