/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port=loop: the devices of this process on one software link, each with a receive ring
 * that its peers' engines enqueue to (multi-producer: each device's engine may run on its
 * own lcore) and only its own engine dequeues from (single consumer). A frame is routed
 * by its destination GID when the wire queues it (soft_port_loop_route(), the last answer
 * cached per sender) and enqueued when the wire flushes (soft_port_loop_send()): both
 * inline here, so the wire's hot path makes no indirect call on the loop; the ops table
 * (soft_port_loop_ops) is the same two calls for everything else.
 */
#ifndef SOFT_PORT_LOOP_H
#define SOFT_PORT_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "soft_port.h"

struct soft_dev;

struct soft_port_loop {
	struct rte_ring *rx_ring;          /* frames addressed to this device */
	struct soft_dev *dev;
	struct soft_port_loop *next;       /* the loop's registry */
};

/* A sender's last route, valid while soft_port_loop_gen is unchanged. Kept by the caller
 * (in the wire, next to what it reads for every frame: no pointer to chase). */
struct soft_port_loop_cache {
	uint8_t last_gid[16];
	struct soft_port_loop *last_dst;
	uint32_t last_gen;
};

extern const struct soft_port_ops soft_port_loop_ops;

/* The mbuf pool every device on the loop allocates from (n mbufs of data_room bytes,
 * made by the first device, freed with the last): a frame taken off the loop may be kept
 * for the next frame its receiver sends. NULL (logged) when it cannot be made. */
struct rte_mempool *soft_port_loop_pool_get(struct soft_dev *dev, unsigned int n,
					    unsigned int data_room);
void soft_port_loop_pool_put(struct rte_mempool *mp);

/* Bumped whenever a device joins or leaves the loop (open/close, under the registry's
 * lock): cached routes, and routes of frames the delay fault holds, are void from then on.
 * Starts at 1: a zeroed cache is void. */
/* hidden: one RIP-relative load, no GOT entry to go through */
extern uint32_t soft_port_loop_gen __attribute__((visibility("hidden")));

static inline uint32_t soft_port_loop_gen_now(void)
{
	return __atomic_load_n(&soft_port_loop_gen, __ATOMIC_ACQUIRE);
}

static inline bool soft_port_gid_eq(const uint8_t *a, const uint8_t *b)
{
	uint64_t a0, a1, b0, b1;

	memcpy(&a0, a, 8);
	memcpy(&a1, a + 8, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, b + 8, 8);
	return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

struct soft_port_loop *soft_port_loop_route_slow(struct soft_port_loop_cache *c,
						 const uint8_t gid[16], uint32_t gen);

/* The device on the loop that owns gid, or NULL (the frame is lost when it is sent). */
static __rte_always_inline struct soft_port_loop *
soft_port_loop_route(struct soft_port_loop_cache *c, const uint8_t gid[16])
{
	uint32_t gen = soft_port_loop_gen_now();

	if (likely(c->last_gen == gen && soft_port_gid_eq(c->last_gid, gid)))
		return c->last_dst;
	return soft_port_loop_route_slow(c, gid, gen);
}

/* Enqueues frames in order, dst[i] the route of pkts[i]: each run of frames to the same
 * device in one ring enqueue (one reservation for the run, not one per frame). A frame
 * without a route is freed (nobody owns that address). Returns frames taken; stops at a
 * full peer ring (order kept, the rest retried on the next flush). */
static __rte_always_inline unsigned int
soft_port_loop_send(struct rte_mbuf **pkts, void *const *dst, unsigned int n)
{
	unsigned int i = 0;

	/* a lone frame (most flushes): no run to find, the single enqueue; the ring is
	 * multi-producer by construction, so its own calls, not the dispatch on its kind */
	if (likely(n == 1) && likely(dst[0] != NULL))
		return rte_ring_mp_enqueue(((struct soft_port_loop *)dst[0])->rx_ring,
					   pkts[0]) == 0;
	while (i < n) {
		struct soft_port_loop *d = dst[i];
		unsigned int run = 1, k;

		if (d == NULL) {
			rte_pktmbuf_free(pkts[i++]);
			continue;
		}
		while (i + run < n && dst[i + run] == d)
			run++;
		k = run == 1 ? rte_ring_mp_enqueue(d->rx_ring, pkts[i]) == 0 :
			       rte_ring_mp_enqueue_burst(d->rx_ring, (void **)(pkts + i), run, NULL);
		i += k;
		if (k < run)
			break;
	}
	return i;
}

/* The frames that arrived for this device (ring: its soft_port_loop_ring()); only this
 * device's engine calls it (single consumer). */
static __rte_always_inline unsigned int
soft_port_loop_recv(struct rte_ring *ring, struct rte_mbuf **pkts, unsigned int n)
{
	return rte_ring_sc_dequeue_burst(ring, (void **)pkts, n, NULL);
}

/* The receive ring (for the engine's idle check without a call). */
static inline struct rte_ring *soft_port_loop_ring(const void *priv)
{
	return ((const struct soft_port_loop *)priv)->rx_ring;
}

#endif /* SOFT_PORT_LOOP_H */
