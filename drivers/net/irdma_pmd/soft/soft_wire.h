/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device's wire: RoCEv2 frames (built and parsed by lib/roce, ICRC included) in
 * rte_mbufs, over a port back-end chosen at open (soft_port.h): port=loop
 * (soft_port_loop.c) delivers frames to the devices of this process through one rx ring
 * per device; port=<ethdev name> uses queue 0 of that port (soft_port_eth.c adds ARP/ND
 * and peer resolution).
 * The rest of the device only sees these calls: alloc, send, flush, rx.
 */
#ifndef SOFT_WIRE_H
#define SOFT_WIRE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "irdma_hw.h"
#include "roce_pkt.h"

struct soft_dev;
struct soft_qp;
struct soft_wire_stats;

#define SOFT_WIRE_BACKLOG 512u   /* frames built but not yet accepted by the port */
#define SOFT_WIRE_RX_BURST 32u
#define SOFT_WIRE_STASH    32u   /* mbufs allocated in bulk for the frames a device builds */

int soft_wire_open(struct soft_dev *dev);
void soft_wire_close(struct soft_dev *dev);

/* Room for n more frames in the transmit backlog. */
bool soft_wire_tx_room(struct soft_dev *dev, unsigned int n);

/* Allocates an mbuf and writes p's headers into it (from the QP's frame template tmpl when
 * not NULL), p->ip_id set to the device's next IP id; *payload points where p->paylen
 * bytes of payload go. NULL when no mbuf is available. */
struct rte_mbuf *soft_wire_alloc(struct soft_dev *dev, struct roce_pkt *p,
				 const struct roce_tmpl *tmpl, uint8_t **payload);

/* Pads, computes the ICRC and queues the frame for transmission. */
void soft_wire_send(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p);

/* The same for a frame whose ICRC register through its payload the caller has (the
 * payload copied and folded in one pass, soft_tx_payload.c): pad and ICRC only. */
void soft_wire_send_reg(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p,
			uint32_t reg);

/* Queues a frame that is complete (ICRC written, pkt_len and segments final). */
void soft_wire_queue(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p);

/* The pieces of soft_wire_alloc() for the fast paths, which write their headers from a
 * template themselves: an mbuf from the device's stash with *ip_id set to the device's
 * IPv4 id counter (NULL: no mbuf, or no room in the backlog for this frame and a
 * duplicate), one given back unused, and the headers of p into m (0 or -EINVAL). */
struct rte_mbuf *soft_wire_frame(struct soft_dev *dev, uint16_t **ip_id);
void soft_wire_mbuf_unget(struct soft_dev *dev, struct rte_mbuf *m);
int soft_wire_hdrs(struct soft_dev *dev, struct rte_mbuf *m, struct roce_pkt *p,
		   const struct roce_tmpl *tmpl, uint8_t **payload);

/* soft_wire_send() for a frame to template t's peer: len bytes (headers and paylen bytes
 * of payload) written from the start of m. */
void soft_wire_send_tmpl(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_tmpl *t,
			 uint32_t len, uint32_t paylen);

/* Pushes the backlog to the port; returns frames sent. Every frame added to the backlog
 * sets dev->wire_dirty (the engine calls this only then); this clears it unless frames are
 * left (the port took fewer) or a delay fault holds some. */
unsigned int soft_wire_flush(struct soft_dev *dev);
/* The same for port=loop without faults (dev->loop_tx_direct). */
unsigned int soft_wire_flush_loop(struct soft_dev *dev);

/* port=loop: the ring frames for this device arrive on, so the engine can see an idle
 * wire without a call; other ports: a queue that stays empty (dev->poll_port keeps the
 * engine stepping). */
struct soft_loop_q;
const struct soft_loop_q *soft_wire_loop_queue(struct soft_dev *dev);

/* The device's GIDs are set or changed: the wire's receive address check follows them. */
void soft_wire_addrs_set(struct soft_dev *dev);

/* Receives up to budget frames, checks them and hands them to the QPs. */
unsigned int soft_wire_rx(struct soft_dev *dev, unsigned int budget);
/* The same for port=loop without receive faults (dev->loop_rx_direct), called by the
 * engine when the loop queue is not empty. */
unsigned int soft_wire_rx_burst(struct soft_dev *dev, unsigned int budget);

/* The wire's counters with the port's report added (xstats), and both reset. */
void soft_wire_stats_read(const struct soft_dev *dev, struct soft_wire_stats *st);
void soft_wire_stats_reset(struct soft_dev *dev);

#endif /* SOFT_WIRE_H */
