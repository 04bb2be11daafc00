/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive queue of a port=loop device: bounded, multi-producer, single-consumer, of
 * mbuf pointers. rte_ring's MP/SC protocol (producers reserve with a compare-and-swap on
 * the head, write their slots, publish in reservation order through the tail; the consumer
 * takes what the tail published), written for this one case: elements of 8 bytes, the
 * sizes constants, no dispatch on the ring's kind or element size, no burst copy loop
 * unrolled for bursts a loop frame never has.
 *
 * Why multi-producer: frames are routed by destination GID (soft_port_loop_route()), so a
 * receiver may have several senders: any device on the loop, itself included (a QP
 * connected to a GID of its own device), and each sender's engine may run on its own
 * thread (engine=inline: whichever lcore polls that device, under its engine lock;
 * engine=service: its service lcore). A single-producer queue per receiver would be wrong
 * as soon as two devices send to one; a queue per pair would make the receiver poll, and
 * the idle check read, one queue per peer.
 *
 * Why single consumer: only the device's own engine dequeues (soft_wire_rx(), serialised
 * by its engine lock or its one service lcore), and soft_port_loop.c's close drains it
 * after that engine and every peer stopped using it.
 *
 * Ordering: a producer's slot writes are released by its tail store and acquired by the
 * consumer's tail load; the consumer's slot reads are released by its cons store and
 * acquired by a producer's cons load before it reuses those slots.
 */
#ifndef SOFT_LOOP_Q_H
#define SOFT_LOOP_Q_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#define SOFT_LOOP_Q_SIZE 4096u /* slots (a power of two); all of them usable */

struct soft_loop_q {
	uint32_t head __rte_cache_aligned; /* producers: next position to reserve (CAS) */
	uint32_t tail;                     /* producers: positions before it are published */
	uint32_t cons __rte_cache_aligned; /* the consumer's: next position to take */
	struct rte_mbuf *slot[SOFT_LOOP_Q_SIZE] __rte_cache_aligned;
};

/* NULL without memory. */
struct soft_loop_q *soft_loop_q_create(int socket_id);
/* Frees what is still queued, then the queue (no producer or consumer left). */
void soft_loop_q_free(struct soft_loop_q *q);

/* Enqueues pkts[0..n) in order, all or as many as fit; returns how many. */
static __rte_always_inline unsigned int
soft_loop_q_enqueue(struct soft_loop_q *q, struct rte_mbuf *const *pkts, unsigned int n)
{
	uint32_t pos = __atomic_load_n(&q->head, __ATOMIC_RELAXED), room, i;

	do {
		room = SOFT_LOOP_Q_SIZE - (pos - __atomic_load_n(&q->cons, __ATOMIC_ACQUIRE));
		if (unlikely(n > room)) {
			n = room;
			if (n == 0)
				return 0;
		}
	} while (unlikely(!__atomic_compare_exchange_n(&q->head, &pos, pos + n, true,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED)));
	for (i = 0; i < n; i++)
		q->slot[(pos + i) & (SOFT_LOOP_Q_SIZE - 1)] = pkts[i];
	/* publish in reservation order: wait for the producers that reserved before us */
	while (unlikely(__atomic_load_n(&q->tail, __ATOMIC_RELAXED) != pos))
		rte_pause();
	__atomic_store_n(&q->tail, pos + n, __ATOMIC_RELEASE);
	return n;
}

/* Free slots as a producer sees them now (a hint: other producers and the consumer move
 * it; an enqueue of this many may still take fewer, never more than it says). */
static __rte_always_inline unsigned int soft_loop_q_room(const struct soft_loop_q *q)
{
	return SOFT_LOOP_Q_SIZE - (__atomic_load_n(&q->head, __ATOMIC_RELAXED) -
				   __atomic_load_n(&q->cons, __ATOMIC_ACQUIRE));
}

/* Up to n frames, oldest first (the consumer only). */
static __rte_always_inline unsigned int
soft_loop_q_dequeue(struct soft_loop_q *q, struct rte_mbuf **pkts, unsigned int n)
{
	uint32_t pos = q->cons, k, avail;

	avail = __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE) - pos;
	if (n > avail)
		n = avail;
	if (likely(n == 1)) /* most bursts on the loop: no loop to set up */
		pkts[0] = q->slot[pos & (SOFT_LOOP_Q_SIZE - 1)];
	else
		for (k = 0; k < n; k++)
			pkts[k] = q->slot[(pos + k) & (SOFT_LOOP_Q_SIZE - 1)];
	__atomic_store_n(&q->cons, pos + n, __ATOMIC_RELEASE);
	return n;
}

/* Nothing to take (the consumer's view; a hint for anyone else). */
static __rte_always_inline bool soft_loop_q_empty(const struct soft_loop_q *q)
{
	return __atomic_load_n(&q->tail, __ATOMIC_RELAXED) ==
	       __atomic_load_n(&q->cons, __ATOMIC_RELAXED);
}

#endif /* SOFT_LOOP_Q_H */
