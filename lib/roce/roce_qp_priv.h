/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal interfaces between the transport files (roce_qp/req/comp/resp/ud.c). */
#ifndef ROCE_QP_PRIV_H
#define ROCE_QP_PRIV_H

#include <stddef.h>
#include <string.h>

#include "roce_qp.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* AckReq at least every this many packets of a long message (as rxe). */
#define ROCE_MAX_PKT_PER_ACK 64
/* Default requester window of unacknowledged PSNs (rxe: 128). */
#define ROCE_DEFAULT_MAX_UNACKED 128

static inline int roce_psn_le(uint32_t a, uint32_t b)
{
	return roce_psn_diff(a, b) <= 0;
}

static inline int roce_psn_lt(uint32_t a, uint32_t b)
{
	return roce_psn_diff(a, b) < 0;
}

static inline struct roce_swqe *roce_swqe_at(struct roce_qp *qp, uint32_t i)
{
	return &qp->req.ring[i & qp->req.mask];
}

static inline int roce_wr_is_rd_atomic(uint8_t op)
{
	return op == ROCE_WR_READ || op == ROCE_WR_CMP_SWAP || op == ROCE_WR_FETCH_ADD;
}

/* Packets a WR occupies in PSN space: max(1, ceil(len / pmtu)); atomics 1. */
static inline uint32_t roce_wr_npkts(const struct roce_qp *qp, const struct roce_send_wr *wr)
{
	if (wr->op == ROCE_WR_CMP_SWAP || wr->op == ROCE_WR_FETCH_ADD || !wr->len)
		return 1;
	return (wr->len + qp->pmtu - 1) / qp->pmtu;
}

static inline enum roce_reason roce_drop(struct roce_qp *qp, enum roce_reason reason)
{
	qp->stats.drops[reason]++;
	return reason;
}

/* RC/UC: the frame is from the connected peer to our own address. IPv4 (the parse's
 * ip4_src and ip4_dst against av's, one 64-bit compare, no GID built per frame); IPv6: the
 * GIDs, as the frame's header holds them. */
static inline int roce_qp_from_peer(const struct roce_qp *qp, const struct roce_pkt *pkt)
{
	if (likely(!pkt->ipv6)) {
		uint64_t a, b;

		memcpy(&a, (const uint8_t *)pkt + offsetof(struct roce_pkt, ip4_src), 8);
		memcpy(&b, qp->rx_ip4, 8);
		return qp->rx_ip4_ok && a == b;
	}
	return memcmp(pkt->sgid, qp->av.dgid, 16) == 0 && memcmp(pkt->dgid, qp->av.sgid, 16) == 0;
}

/* roce_qp.c */
void roce_tx_init(const struct roce_qp *qp, struct roce_tx *tx, const struct roce_av *av,
		  uint8_t opcode, uint32_t dqpn, uint32_t psn);

/* The send_done callback for w (in line: one per WR on the completion path). */
static inline void roce_send_complete(struct roce_qp *qp, struct roce_swqe *w, uint8_t status)
{
	struct roce_send_done d = {
		.id = w->wr.id,
		.status = status,
		.op = w->wr.op,
		.byte_len = w->wr.len,
		.atomic_orig = w->orig,
	};

	qp->ops->send_done(qp, &d);
}

/* roce_req.c: requester (RC/UC transmit, go-back-N) */
int roce_req_tx(struct roce_qp *qp, uint64_t now, struct roce_tx *tx);
void roce_req_rewind(struct roce_qp *qp, uint32_t psn);
void roce_req_complete_sent(struct roce_qp *qp);
void roce_req_timer(struct roce_qp *qp, uint64_t now);
void roce_req_fail(struct roce_qp *qp, uint8_t status);
void roce_req_reset(struct roce_qp *qp);

/* roce_comp.c: completer (responses to our requests) */
enum roce_reason roce_comp_rx(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now);

/* roce_resp.c: responder (requests from the peer) */
enum roce_reason roce_resp_rx(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now);
int roce_resp_tx(struct roce_qp *qp, struct roce_tx *tx);
void roce_resp_reset(struct roce_qp *qp);
void roce_resp_abort(struct roce_qp *qp, uint8_t status);

/* roce_ud.c */
enum roce_reason roce_ud_rx(struct roce_qp *qp, const struct roce_pkt *pkt);
int roce_ud_tx(struct roce_qp *qp, struct roce_tx *tx);

#endif /* ROCE_QP_PRIV_H */
