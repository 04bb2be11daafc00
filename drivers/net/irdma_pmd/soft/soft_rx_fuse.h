/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive copy fused with the ICRC check (soft_rx_fuse.c): for a frame whose first
 * effect is the copy of its payload into registered memory (lib/roce's
 * roce_resp_fusable()), the ICRC is computed while the payload is copied, in one pass,
 * instead of in a pass of its own before. Every other frame is checked before it is
 * handled, as before.
 */
#ifndef SOFT_RX_FUSE_H
#define SOFT_RX_FUSE_H

#include <stdint.h>

#include <rte_branch_prediction.h>

#include "roce_icrc.h"
#include "roce_pkt.h"

struct soft_dev;
struct soft_qp;
struct soft_sge;

/* Frames with less payload are checked first: one pass over a few bytes costs less than
 * the QP lookup and the predicate. */
#define SOFT_RX_FUSE_MIN 256u
/* The shortest frame that can carry SOFT_RX_FUSE_MIN payload bytes (untagged IPv4, BTH
 * only): shorter ones take the one-pass parse with its ICRC check (soft_wire.c). */
#define SOFT_RX_FUSE_MIN_FRAME \
	(SOFT_RX_FUSE_MIN + ROCE_ETH_HLEN + ROCE_IPV4_HLEN + ROCE_UDP_HLEN + ROCE_BTH_LEN + \
	 ROCE_ICRC_LEN)

/* Arms the fused check for p when lib/roce allows it (1), else 0. */
int soft_rx_fuse_arm(struct soft_dev *dev, const struct roce_pkt *p);

/*
 * The ICRC of a frame parsed with ROCE_PARSE_NO_ICRC: checked now (ROCE_R_OK, or
 * ROCE_R_ICRC: drop it), or, for a frame the fused copy may check, left to soft_rx_fuse_copy() with
 * what it needs kept in the QP (0). soft_xport_rx() forgets it after the frame. Inline:
 * a small frame pays what the parser's own check cost.
 */
static inline enum roce_reason soft_rx_icrc(struct soft_dev *dev, const struct roce_pkt *p)
{
	const uint8_t *icrc = p->l3 - p->l3_off + p->wire_len - ROCE_ICRC_LEN;

	if (unlikely(p->paylen >= SOFT_RX_FUSE_MIN) && soft_rx_fuse_arm(dev, p))
		return ROCE_R_OK;
	if (unlikely(roce_icrc_compute(p->l3, (size_t)(icrc - p->l3), p->ipv6) !=
		     roce_icrc_get(icrc)))
		return ROCE_R_ICRC;
	return ROCE_R_OK;
}

/* mem_write's copy of len bytes from data to host: the fused copy when data is the payload
 * soft_rx_icrc() left to it, else memcpy. 0, or -EBADMSG when the ICRC failed (counted as
 * an ICRC drop of the wire; lib/roce drops the packet). */
int soft_rx_fuse_copy(struct soft_qp *qp, uint8_t *host, const void *data, uint32_t len);

/* recv_place's copy of len bytes from data to offset off of the receive WQE's SGEs (pd_id's
 * keys): fused with the ICRC check when data is the armed payload. 0, -EBADMSG, or the
 * key check's refusal as soft_mr_err_roce() (the ICRC settled first). */
int soft_rx_fuse_scatter(struct soft_qp *qp, uint32_t pd_id, const struct soft_sge *sge,
			 uint32_t n, uint32_t off, const void *data, uint32_t len);

/* mem_write found the key check failing for an armed frame: the ICRC first (a damaged
 * frame is dropped, not answered with a NAK). 0: the frame is intact, -EBADMSG: dropped. */
int soft_rx_fuse_settle(struct soft_qp *qp, const void *data, uint32_t len);

#endif /* SOFT_RX_FUSE_H */
