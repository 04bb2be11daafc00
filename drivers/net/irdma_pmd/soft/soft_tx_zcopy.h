/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Zero-copy transmit (soft_tx_zcopy.c): on an ethdev port that takes multi-segment mbufs,
 * a large frame leaves as three segments: the headers (the frame's own mbuf), the payload
 * as an mbuf with an external buffer pointing into registered memory (never copied), and
 * pad + ICRC. The ICRC is still computed over the same bytes. port=loop, ports without
 * RTE_ETH_TX_OFFLOAD_MULTI_SEGS, IOVA as PA, memory DPDK does not know (no memseg list: a
 * NIC could not reach it), and a payload spread over several SGEs take the copy.
 */
#ifndef SOFT_TX_ZCOPY_H
#define SOFT_TX_ZCOPY_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "roce_pkt.h"

struct soft_dev;
struct soft_tx_zc;

#define SOFT_TX_ZC_MIN   1024u /* smaller payloads are copied: a chain of three costs more */
#define SOFT_TX_ZC_SLOTS 1024u /* external-buffer descriptors per device (frames in flight) */

/* Counters of the device's zero-copy transmit (tests and benchmarks). */
struct soft_tx_zc_stats {
	uint64_t frames;    /* left as header + external payload + tail */
	uint64_t fallbacks; /* wanted but copied: region, no free descriptor, no mbuf */
	uint32_t busy;      /* descriptors the port has not released yet */
};

/* At device open, after the port: enables zero-copy when the port takes chains
 * (chains: it was configured with RTE_ETH_TX_OFFLOAD_MULTI_SEGS) and IOVA is VA.
 * 0 or -ENOMEM; soft_tx_zc_close() after the port is closed. */
int soft_tx_zc_open(struct soft_dev *dev, bool chains);
void soft_tx_zc_close(struct soft_dev *dev);

/*
 * Whether a requester's payload of len bytes should go by reference on a device whose
 * dev->zc is zc. Never a READ response (the caller copies those): the responder's memory
 * has no completion that would tell its owner when the frame was read, so a later WRITE
 * to it (the requester may post one behind its READ), or a store by the application,
 * could change the bytes after the ICRC was computed over them. Never a retransmission: it is queued behind a frame the peer may acknowledge before the
 * retransmission has left (or, on a net_ring peer, been read), the WQE then completes and
 * the application owns and rewrites the buffer, and the frame, read later, no longer
 * matches its ICRC (computed when it was built): the peer would count an ICRC error, and a
 * device must not read a buffer after its completion. An original cannot outlive its WQE:
 * per peer every path is FIFO, so it is ahead of the retransmission (a copy) whose ACK
 * completes the WQE; the delay fault, which holds some frames and lets others pass, turns
 * zero-copy off (soft_tx_zc_open()).
 */
static inline bool soft_tx_zc_wanted(const struct soft_tx_zc *zc, uint32_t len,
				     bool retransmit)
{
	return zc != NULL && len >= SOFT_TX_ZC_MIN && !retransmit;
}

/* 1 when [va, va + len) lies in one memseg list of DPDK's memory (IOVA = VA there). */
int soft_tx_zc_region_ok(struct soft_dev *dev, const void *va, uint32_t len);

/*
 * The frame m (headers written by soft_wire_alloc, reg the ICRC register through them)
 * with p->paylen bytes of payload at src: chained by reference and queued, or, when that
 * cannot be done, copied (fused with the ICRC) and queued as usual. src was key-checked.
 */
void soft_tx_zc_send(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p,
		     const uint8_t *src, uint32_t reg);

/* The chain alone, not queued (tests): m becomes header + payload + tail, or NULL with m
 * untouched when it cannot be built. */
struct rte_mbuf *soft_tx_zc_chain(struct soft_dev *dev, struct rte_mbuf *m,
				  const struct roce_pkt *p, const uint8_t *src, uint32_t reg);

void soft_tx_zc_stats_get(const struct soft_dev *dev, struct soft_tx_zc_stats *st);

#endif /* SOFT_TX_ZCOPY_H */
