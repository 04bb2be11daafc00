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

/* The path back to the sender of a received packet (addresses swapped). */
void irdma_cm_gsi_reply_path(const struct roce_pkt *rx, struct irdma_cm_gsi_path *path);

#ifdef __cplusplus
}
#endif

#endif /* CM_GSI_H */
