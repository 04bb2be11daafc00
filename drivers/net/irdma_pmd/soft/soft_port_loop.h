/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port=loop: the devices of this process on one software link, each with a receive queue
 * (soft_loop_q.h) that its peers' engines enqueue to (multi-producer: a receiver may have
 * several senders, each device's engine on its own lcore) and only its own engine dequeues
 * from (single consumer). A frame is routed
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
#include "soft_loop_q.h"
#include "soft_port.h"

struct soft_dev;

struct soft_port_loop {
	struct soft_loop_q *rx_q;          /* frames addressed to this device */
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

/* The cached route is gid's (then c->last_dst is the answer, NULL included). */
static __rte_always_inline bool
soft_port_loop_route_cached(const struct soft_port_loop_cache *c, const uint8_t gid[16])
{
	return c->last_gen == soft_port_loop_gen_now() && soft_port_gid_eq(c->last_gid, gid);
}

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
 * device in one enqueue (one reservation for the run, not one per frame). A frame
 * without a route is freed (nobody owns that address). Returns frames taken; stops at a
 * full peer queue (order kept, the rest retried on the next flush). The run search stops
 * at the peer queue's room: a backlog of hundreds of frames behind a queue with room for
 * a burst (many busy QPs, a receiver behind) is not walked for frames it cannot take. */
static __rte_always_inline unsigned int
soft_port_loop_send(struct rte_mbuf **pkts, void *const *dst, unsigned int n)
{
	unsigned int i = 0;

	/* a lone frame (most flushes): no run to find */
	if (likely(n == 1) && likely(dst[0] != NULL))
		return soft_loop_q_enqueue(((struct soft_port_loop *)dst[0])->rx_q, pkts, 1);
	while (i < n) {
		struct soft_port_loop *d = dst[i];
		unsigned int run = 1, k, lim;

		if (d == NULL) {
			rte_pktmbuf_free(pkts[i++]);
			continue;
		}
		lim = soft_loop_q_room(d->rx_q);
		if (unlikely(lim == 0))
			break;
		lim = RTE_MIN(lim, n - i);
		while (run < lim && dst[i + run] == d)
			run++;
		k = soft_loop_q_enqueue(d->rx_q, pkts + i, run);
		i += k;
		if (k < run)
			break;
	}
	return i;
}

/* The frames that arrived for this device (q: its soft_port_loop_queue()); only this
 * device's engine calls it (single consumer). */
static __rte_always_inline unsigned int
soft_port_loop_recv(struct soft_loop_q *q, struct rte_mbuf **pkts, unsigned int n)
{
	return soft_loop_q_dequeue(q, pkts, n);
}

/* The receive queue (for the engine's idle check without a call). */
static inline struct soft_loop_q *soft_port_loop_queue(const void *priv)
{
	return ((const struct soft_port_loop *)priv)->rx_q;
}

#endif /* SOFT_PORT_LOOP_H */
