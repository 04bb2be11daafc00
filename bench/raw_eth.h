/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The raw DPDK side of the wire benchmarks: plain frames over an ethdev (net_ring,
 * net_memif), no RDMA. A ping-pong that allocates one mbuf per ping (as the RDMA device
 * allocates one per frame), an echo, a burst flood, and small control frames that the two
 * ends of a benchmark use to step through its phases and exchange RDMA addresses.
 *
 * Frames: a control frame is exactly RAW_CTL_LEN bytes (destination and source MAC,
 * EtherType 0x88b5 (local experimental), payload); every other frame is data, and its bytes
 * are never read: the receiver classifies by length alone, so the raw figures measure the
 * transport, not cache misses on payload the benchmark itself put there.
 */
#ifndef BENCH_RAW_ETH_H
#define BENCH_RAW_ETH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_mempool.h>

#define RAW_CTL_LEN 79u

#define RAW_BURST 32

/* Configures one rx and one tx queue on @p port, starts it and waits up to 10 s for the
 * link. @return 0 or a negative errno (message in @p err). */
int raw_port_start(uint16_t port, struct rte_mempool *mp, char *err, size_t errlen);
void raw_port_stop(uint16_t port);
/* Waits up to @p ms for the link of @p port. @return 0 or -ETIMEDOUT. */
int raw_wait_link(uint16_t port, unsigned int ms);

/* Client: @p iters timed round trips (after @p warmup untimed) of @p size-byte data frames;
 * rtt[i] in ticks. @return 0, -ETIMEDOUT (an answer did not come within 1 s). */
int raw_ping(uint16_t port, struct rte_mempool *mp, uint16_t size, uint64_t iters,
	     uint64_t warmup, uint64_t *rtt);

/* Client: bursts of RAW_BURST data frames for @p seconds; @return frames the port accepted
 * per second, in millions (a full ring refuses frames, so this is the rate the far end
 * drains), or a negative value when no mbuf could be had for a whole second. */
double raw_flood(uint16_t port, struct rte_mempool *mp, uint16_t size, double seconds);

/* Sends a control frame carrying @p len bytes. @return 0 or -EAGAIN. */
int raw_send_ctl(uint16_t port, struct rte_mempool *mp, const void *payload, size_t len);

/* Serves data frames (echoes them when @p echo, else drops them) until a control frame
 * arrives or @p timeout_ms passes (0: no limit); copies up to @p len bytes of its payload.
 * @return bytes copied, or -ETIMEDOUT. */
int raw_serve(uint16_t port, bool echo, void *payload, size_t len, unsigned int timeout_ms);

/* One receive burst, no waiting (data frames as for raw_serve); a control frame's payload
 * is copied. @return bytes copied, or -EAGAIN when no control frame came. */
int raw_poll_ctl(uint16_t port, bool echo, void *payload, size_t len);

#endif /* BENCH_RAW_ETH_H */
