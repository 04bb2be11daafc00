/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Payload out (soft_tx_payload.c): the copy from the WQE's buffers or registered memory
 * into the frame fused with the ICRC, so a large frame's payload is read once (the
 * register through the headers, then roce_crc32_copy over each piece, then
 * soft_wire_send_reg for pad and ICRC).
 */
#ifndef SOFT_TX_PAYLOAD_H
#define SOFT_TX_PAYLOAD_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "roce_pkt.h"

struct soft_dev;
struct soft_sge;

/* Frames with less payload are checked over the whole frame as they leave. */
#define SOFT_TX_FUSE_MIN 256u

/* The ICRC register through the headers soft_wire_alloc() wrote into m (IP, UDP, BTH
 * masked, then the extension headers), for the payload to be folded in next. */
uint32_t soft_tx_hdr_reg(const struct rte_mbuf *m, const struct roce_pkt *p);

/* soft_sge.c: soft_sges_copy() towards buf (the frame) with the bytes folded into *reg as
 * they are copied; every piece checked against the key table right before its bytes move. */
int soft_sges_gather_crc(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
			 uint32_t n, uint64_t off, uint8_t *buf, uint32_t len, uint32_t *reg);

/* soft_sge.c: the same towards the SGEs (the receive copy fused with the ICRC). */
int soft_sges_scatter_crc(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
			  uint32_t n, uint64_t off, const uint8_t *buf, uint32_t len, uint32_t *reg);

/* Zero-copy: *host for [off, off + len) of the SGE list when it lies in one SGE and its key
 * check passes (0); -1 otherwise (the copy then checks and reports). */
int soft_sge_piece(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge, uint32_t n,
		   uint64_t off, uint32_t len, const uint8_t **host);

#endif /* SOFT_TX_PAYLOAD_H */
