/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port=loop (soft_port_loop.h): the registry of the devices on the loop, their receive
 * rings, the route lookup's slow path and the ops table.
 *
 * Threads: open and close run on the control path; a device's engine (its own lcore, or
 * whichever thread runs its inline progress under the engine lock) routes and enqueues
 * its frames to its peers' queues and is the only one to dequeue its own (soft_loop_q.h:
 * why multi-producer, single consumer). A device leaves
 * the registry only after its engine and its peers stopped using it (close requires every
 * QP destroyed, and a frame in flight to it is dropped at the route lookup).
 */
#include <errno.h>
#include <stdio.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "soft_port_loop.h"
#include "soft_priv.h"

uint32_t soft_port_loop_gen __attribute__((visibility("hidden"))) = 1;
static struct soft_port_loop *loop_head;
static rte_spinlock_t loop_lock = RTE_SPINLOCK_INITIALIZER;
/* The mbufs of every device on the loop (soft_port_loop_pool_get()): a receiver keeps the
 * frames it handled for the frames it sends, which is only sound when they come from the
 * pool it allocates from, and when that pool outlives every device that may hold them. */
static struct rte_mempool *loop_pool;
static unsigned int loop_pool_users;
static rte_spinlock_t loop_pool_lock = RTE_SPINLOCK_INITIALIZER;

struct rte_mempool *soft_port_loop_pool_get(struct soft_dev *dev, unsigned int n,
					    unsigned int data_room)
{
	struct rte_mempool *mp;

	rte_spinlock_lock(&loop_pool_lock);
	if (loop_pool == NULL) {
		loop_pool = rte_pktmbuf_pool_create("irdma_loop_mb", n, 128, 0, data_room,
						    dev->cfg.socket_id);
		if (loop_pool == NULL)
			SOFT_LOG(ERR, "%s: loop mbuf pool: %s", dev->name, rte_strerror(rte_errno));
	}
	mp = loop_pool;
	if (mp != NULL)
		loop_pool_users++;
	rte_spinlock_unlock(&loop_pool_lock);
	return mp;
}

void soft_port_loop_pool_put(struct rte_mempool *mp)
{
	rte_spinlock_lock(&loop_pool_lock);
	if (mp == loop_pool && --loop_pool_users == 0) {
		rte_mempool_free(loop_pool);
		loop_pool = NULL;
	}
	rte_spinlock_unlock(&loop_pool_lock);
}

struct soft_loop_q *soft_loop_q_create(int socket_id)
{
	return rte_zmalloc_socket("soft_loop_q", sizeof(struct soft_loop_q), RTE_CACHE_LINE_SIZE,
				  socket_id);
}

void soft_loop_q_free(struct soft_loop_q *q)
{
	struct rte_mbuf *m;

	if (q == NULL)
		return;
	while (soft_loop_q_dequeue(q, &m, 1) == 1)
		rte_pktmbuf_free(m);
	rte_free(q);
}

static bool dev_owns_gid(const struct soft_dev *dev, const uint8_t gid[16])
{
	uint32_t i;

	for (i = dev->n_gids; i-- > 0;)
		if (soft_port_gid_eq(dev->gid[i], gid))
			return true;
	return false;
}

struct soft_port_loop *soft_port_loop_route_slow(struct soft_port_loop_cache *c,
						 const uint8_t gid[16], uint32_t gen)
{
	struct soft_port_loop *l;

	for (l = loop_head; l; l = l->next)
		if (dev_owns_gid(l->dev, gid))
			break;
	memcpy(c->last_gid, gid, 16);
	c->last_dst = l;
	c->last_gen = gen;
	return l;
}

/* The route is the wire's to take (soft_port_loop_route() with its own cache): no route
 * op; tx and rx are for completeness (the wire calls soft_port_loop_send() and
 * soft_port_loop_recv() inline). */
static int loop_open(struct soft_dev *dev, void **priv)
{
	struct soft_port_loop *l;

	l = rte_zmalloc_socket("soft_port_loop", sizeof(*l), RTE_CACHE_LINE_SIZE,
			       dev->cfg.socket_id);
	if (l == NULL)
		return -ENOMEM;
	/* multi-producer (every peer's engine), single consumer (this device's engine) */
	l->rx_q = soft_loop_q_create(dev->cfg.socket_id);
	if (l->rx_q == NULL) {
		rte_free(l);
		return -ENOMEM;
	}
	l->dev = dev;
	rte_spinlock_lock(&loop_lock);
	l->next = loop_head;
	loop_head = l;
	__atomic_store_n(&soft_port_loop_gen, soft_port_loop_gen + 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&loop_lock);
	*priv = l;
	return 0;
}

static void loop_close(void *priv)
{
	struct soft_port_loop *l = priv, **pp;

	rte_spinlock_lock(&loop_lock);
	for (pp = &loop_head; *pp; pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	}
	__atomic_store_n(&soft_port_loop_gen, soft_port_loop_gen + 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&loop_lock);
	soft_loop_q_free(l->rx_q);
	rte_free(l);
}

static unsigned int loop_tx(void *priv, struct rte_mbuf **pkts, void *const *dst,
			    unsigned int n)
{
	RTE_SET_USED(priv);
	return soft_port_loop_send(pkts, dst, n);
}

static unsigned int loop_rx(void *priv, struct rte_mbuf **pkts, unsigned int n)
{
	return soft_port_loop_recv(soft_port_loop_queue(priv), pkts, n);
}

const struct soft_port_ops soft_port_loop_ops = {
	.name = "loop",
	.open = loop_open,
	.close = loop_close,
	.tx = loop_tx,
	.rx = loop_rx,
	.rx_marked = false, /* the wire checks the destination address itself */
};
