/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wire. Frames are complete RoCEv2 frames (Ethernet/IP/UDP/BTH/.../ICRC) built and
 * checked by lib/roce, in rte_mbufs, whatever the port. Everything port-specific sits
 * behind struct soft_port_ops (soft_port.h), chosen at open: port=loop
 * (soft_port_loop.c) delivers to the devices of this process, one rx ring each, by
 * destination GID, and is called inline here (soft_port_loop.h); an ethdev port
 * (soft_port_eth.c) goes through the table. The wire owns the device's counters; a port
 * reports its own (soft_wire_stats_read()). Nothing received is trusted: frames that fail
 * a check are dropped and counted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "roce_addr.h"
#include "roce_icrc.h"
#include "roce_pkt_rc.h"

#include "soft_port.h" /* struct soft_port_ops lives there */
#include "soft_port_loop.h"
#include "soft_priv.h"
#include "soft_rx_fuse.h"
#include "soft_tx_zcopy.h"

/* Frames held by the delay fault (delay=, rx_delay=): a FIFO of fixed size, made at open.
 * One delay per direction, so the FIFO is in due order. */
#define SOFT_WIRE_HOLD 1024u
struct soft_wire_held {
	struct rte_mbuf *m;
	void *dst;             /* the port's route; loop: valid while gen is the loop's */
	uint64_t due_tsc;
	uint32_t gen;
};

struct soft_wire_hold {
	struct soft_wire_held *e; /* SOFT_WIRE_HOLD entries; NULL: no delay configured */
	uint32_t head, n;
	uint64_t delay_tsc;
};

struct soft_wire {
	const struct soft_port_ops *port;
	void *port_priv;                   /* the back-end's state */
	struct soft_port_loop *loop;       /* port=loop: port_priv, called inline */
	struct soft_dev *dev;
	struct soft_loop_q *rx_q;          /* loop: frames addressed to this device */
	/* the port marks what it hands over (soft_port_rx_mark()) and no fault injector
	 * copies frames behind it: parse from the marked IP header, addresses checked */
	bool rx_marked;
	/* lib/roce parse flags of every received frame: port=loop, ROCE_PARSE_NO_CSUM (see
	 * soft_wire_open()) */
	unsigned int rx_parse_flags;
	uint16_t ip_id;
	uint64_t rng;                      /* fault injection (xorshift64*) */
	unsigned int n_stash;              /* mbufs taken from the pool in bulk, not yet used */
	struct rte_mbuf *stash[SOFT_WIRE_STASH];
	/* The backlog: frames backlog[0..n_backlog), dst[i] the port's route of each (loop:
	 * device). A window into bl_mem/dst_mem, twice its most: a partial push (a port or a
	 * peer queue that takes a burst of a full backlog, many busy QPs) moves the window's
	 * start instead of the frames left (a memmove of ~500 entries per push cost ~24 Ir a
	 * WRITE at 1024 busy QPs), and moves them back (backlog_compact) once the start is
	 * past the first half: at most once per SOFT_WIRE_BACKLOG frames pushed. Only a push
	 * moves the start, and at most SOFT_WIRE_BACKLOG frames are ever queued (producers
	 * check the room: soft_wire_frame, soft_wire_tx_room), so the window stays inside. */
	unsigned int n_backlog;
	struct rte_mbuf **backlog;
	void **dst;
	struct rte_mbuf *bl_mem[2 * SOFT_WIRE_BACKLOG];
	void *dst_mem[2 * SOFT_WIRE_BACKLOG];
	struct soft_port_loop_cache loop_cache; /* loop: this sender's last route */
	/* the device's IPv4-mapped GIDs as an IPv4 header holds the address, last GID first
	 * (soft_wire_addrs_set()): an IPv4 frame's destination checked without a GID */
	unsigned int n_own_ip4;
	uint32_t own_ip4[IRDMA_HW_MAX_GIDS];
	struct soft_wire_hold tx_hold, rx_hold;
};


static int hold_open(struct soft_dev *dev, struct soft_wire_hold *h, uint32_t ppm, uint32_t us)
{
	if (ppm == 0)
		return 0;
	h->e = rte_zmalloc_socket("soft_wire_hold", SOFT_WIRE_HOLD * sizeof(h->e[0]), 0,
				  dev->cfg.socket_id);
	if (h->e == NULL) {
		SOFT_LOG(ERR, "%s: delay: no memory for %u held frames", dev->name, SOFT_WIRE_HOLD);
		return -ENOMEM;
	}
	h->delay_tsc = rte_get_tsc_hz() / 1000000u * us;
	return 0;
}

static void hold_close(struct soft_wire_hold *h)
{
	for (; h->n != 0; h->n--, h->head = (h->head + 1) % SOFT_WIRE_HOLD)
		rte_pktmbuf_free(h->e[h->head].m);
	rte_free(h->e);
	h->e = NULL;
}

/* Holds m until its time; false when the ring is full (the frame goes on undelayed). */
static bool hold_put(struct soft_wire_hold *h, struct rte_mbuf *m, void *dst)
{
	struct soft_wire_held *e;

	if (h->n == SOFT_WIRE_HOLD)
		return false;
	e = &h->e[(h->head + h->n++) % SOFT_WIRE_HOLD];
	e->m = m;
	e->dst = dst;
	e->gen = soft_port_loop_gen_now();
	e->due_tsc = rte_get_tsc_cycles() + h->delay_tsc;
	return true;
}

/* The oldest held frame if its time has come (then taken off), else NULL. */
static struct soft_wire_held *hold_due(struct soft_wire_hold *h, uint64_t tsc)
{
	struct soft_wire_held *e;

	if (h->n == 0 || h->e[h->head].due_tsc > tsc)
		return NULL;
	e = &h->e[h->head];
	h->head = (h->head + 1) % SOFT_WIRE_HOLD;
	h->n--;
	return e;
}

#define SOFT_POOL_MBUFS 4095u
/* port=loop: one pool for all its devices, as large as two devices' pools were */
#define SOFT_LOOP_POOL_MBUFS 8191u
#define SOFT_MBUF_DATA  (4096u + 256u + RTE_PKTMBUF_HEADROOM)

static void wire_pool_free(const struct soft_wire *w, struct rte_mempool *mp)
{
	if (w->port == &soft_port_loop_ops)
		soft_port_loop_pool_put(mp);
	else
		rte_mempool_free(mp);
}

int soft_wire_open(struct soft_dev *dev)
{
	const char *port = dev->cfg.port ? dev->cfg.port : "loop";
	char name[RTE_MEMPOOL_NAMESIZE];
	struct soft_wire *w;
	int rc;

	w = rte_zmalloc_socket("soft_wire", sizeof(*w), RTE_CACHE_LINE_SIZE,
			       dev->cfg.socket_id);
	if (w == NULL)
		return -ENOMEM;
	w->dev = dev;
	w->backlog = w->bl_mem;
	w->dst = w->dst_mem;
	w->rng = dev->args.seed ? dev->args.seed : 0x9E3779B97F4A7C15ull;
	if (hold_open(dev, &w->tx_hold, dev->args.delay_ppm, dev->args.delay_us) != 0 ||
	    hold_open(dev, &w->rx_hold, dev->args.rx_delay_ppm, dev->args.rx_delay_us) != 0) {
		rte_free(w->tx_hold.e);
		rte_free(w);
		return -ENOMEM;
	}
	w->port = strcmp(port, "loop") == 0 ? &soft_port_loop_ops : &soft_port_eth_ops;
	snprintf(name, sizeof(name), "irdma_mb_%p", (void *)w);
	dev->pool = w->port == &soft_port_loop_ops ?
		    soft_port_loop_pool_get(dev, SOFT_LOOP_POOL_MBUFS, SOFT_MBUF_DATA) :
		    rte_pktmbuf_pool_create(name, SOFT_POOL_MBUFS, 128, 0, SOFT_MBUF_DATA,
					    dev->cfg.socket_id);
	if (dev->pool == NULL) {
		SOFT_LOG(ERR, "%s: mbuf pool: %s", dev->name, rte_strerror(rte_errno));
		hold_close(&w->tx_hold);
		hold_close(&w->rx_hold);
		rte_free(w);
		return -ENOMEM;
	}
	rc = w->port->open(dev, &w->port_priv);
	if (rc) {
		wire_pool_free(w, dev->pool);
		dev->pool = NULL;
		hold_close(&w->tx_hold);
		hold_close(&w->rx_hold);
		rte_free(w);
		return rc;
	}
	if (w->port == &soft_port_loop_ops) {
		w->loop = w->port_priv;
		w->rx_q = soft_port_loop_queue(w->loop);
		/* The IPv4 header checksum of a loop frame is right by construction: the loop's
		 * rings are fed only by soft_port_loop_send() from the backlogs of this
		 * process's loop devices, whose frames' IP headers the wire's own writers
		 * made (roce_tmpl_write_hdrs()/roce_pkt_write_hdrs(), checksum included) and
		 * whose fault injectors change bytes after the UDP header only (tx and rx).
		 * The ICRC is still checked on every frame; everything else is too. */
		w->rx_parse_flags = ROCE_PARSE_NO_CSUM;
		/* nothing between the queue and the checks: the engine takes it itself */
		dev->loop_rx_direct = !dev->rx_faults;
		/* nor is any frame held (the delay faults hold them): the engine's flush is
		 * the backlog's (soft_wire_flush_loop()) */
		dev->loop_tx_direct = !dev->faults && !dev->rx_faults;
	}
	w->rx_marked = w->port->rx_marked && !dev->rx_faults;
	/* Unmarked frames, loop frames among them, have their destination checked
	 * (wire_owns_dst(): IPv4 as 32-bit compares). A loop sender routes by destination
	 * already, so the check is a defence in depth worth ~22 Ir per WRITE: kept, so that
	 * what reaches the QP lookup never rests on the sender alone. */
	dev->poll_port = w->loop == NULL; /* its frames are seen only by polling it */
	dev->wire = w;
	return 0;
}

void soft_wire_close(struct soft_dev *dev)
{
	struct soft_wire *w = dev->wire;

	if (w == NULL)
		return;
	rte_pktmbuf_free_bulk(w->backlog, w->n_backlog);
	rte_pktmbuf_free_bulk(w->stash, w->n_stash);
	hold_close(&w->tx_hold); /* frames the delay fault still held */
	hold_close(&w->rx_hold);
	w->port->close(w->port_priv); /* before the pool goes: it may hold our mbufs */
	wire_pool_free(w, dev->pool);
	dev->pool = NULL;
	rte_free(w);
	dev->wire = NULL;
}

static inline bool dev_owns_gid(const struct soft_dev *dev, const uint8_t gid[16])
{
	uint32_t i;

	/* Last first: the configured IP addresses follow the link-local GID, and RoCEv2
	 * traffic is addressed to them. */
	for (i = dev->n_gids; i-- > 0;)
		if (soft_port_gid_eq(dev->gid[i], gid))
			return true;
	return false;
}

void soft_wire_addrs_set(struct soft_dev *dev)
{
	struct soft_wire *w = dev->wire;
	uint32_t i;

	w->n_own_ip4 = 0;
	for (i = dev->n_gids; i-- > 0;) /* the order of dev_owns_gid() */
		if (roce_gid_is_ipv4(dev->gid[i]))
			memcpy(&w->own_ip4[w->n_own_ip4++], dev->gid[i] + 12, 4);
}

/* The frame is addressed to one of the device's GIDs: dev_owns_gid() of its destination,
 * for an IPv4 frame without building the GID (the IPv4-mapped ones' addresses, 32 bits
 * each). */
static inline bool wire_owns_dst(const struct soft_dev *dev, const struct soft_wire *w,
				 const struct roce_pkt *p)
{
	unsigned int i;

	if (likely(!p->ipv6)) {
		for (i = 0; i < w->n_own_ip4; i++)
			if (w->own_ip4[i] == p->ip4_dst)
				return true;
		return false;
	}
	return dev_owns_gid(dev, p->dgid);
}

bool soft_wire_tx_room(struct soft_dev *dev, unsigned int n)
{
	return dev->wire->n_backlog + n <= SOFT_WIRE_BACKLOG;
}

/* One mbuf from the device's stash, refilled one burst at a time when it runs dry:
 * the mempool get is paid once per SOFT_WIRE_STASH frames instead of once per frame. When
 * the pool cannot give a whole burst, single mbufs until it can. */
static __rte_noinline struct rte_mbuf *wire_stash_refill(struct soft_dev *dev,
							  struct soft_wire *w);

static inline struct rte_mbuf *wire_mbuf_get(struct soft_dev *dev, struct soft_wire *w)
{
	if (likely(w->n_stash != 0))
		return w->stash[--w->n_stash];
	return wire_stash_refill(dev, w);
}

/* Out of line: the pop above stays a leaf without register saves. */
static __rte_noinline struct rte_mbuf *wire_stash_refill(struct soft_dev *dev,
							  struct soft_wire *w)
{
	struct rte_mbuf *m;

	if (rte_pktmbuf_alloc_bulk(dev->pool, w->stash, SOFT_WIRE_STASH) == 0) {
		w->n_stash = SOFT_WIRE_STASH - 1;
		return w->stash[SOFT_WIRE_STASH - 1];
	}
	m = rte_pktmbuf_alloc(dev->pool);
	/* lost like on a wire (RC resends it), but counted: found by tests/wire exhaust, an
	 * empty mempool lost frames without a trace */
	if (unlikely(m == NULL))
		dev->st.tx_drop_no_mbuf++;
	return m;
}

struct rte_mbuf *soft_wire_frame(struct soft_dev *dev, uint16_t **ip_id)
{
	struct soft_wire *w = dev->wire;

	if (unlikely(w->n_backlog + 2 > SOFT_WIRE_BACKLOG)) {
		dev->wire_full = true; /* the engine's work run ends (soft_engine.c) */
		return NULL;
	}
	*ip_id = &w->ip_id;
	return wire_mbuf_get(dev, w);
}

void soft_wire_mbuf_unget(struct soft_dev *dev, struct rte_mbuf *m)
{
	struct soft_wire *w = dev->wire;

	if (w->n_stash < SOFT_WIRE_STASH)
		w->stash[w->n_stash++] = m; /* untouched: still as the pool reset it */
	else
		rte_pktmbuf_free(m);
}

int soft_wire_hdrs(struct soft_dev *dev, struct rte_mbuf *m, struct roce_pkt *p,
		   const struct roce_tmpl *tmpl, uint8_t **payload)
{
	uint8_t *buf = rte_pktmbuf_mtod(m, uint8_t *);
	int hl;

	p->ip_id = dev->wire->ip_id++; /* in place: a copy of the whole roce_pkt cost more */
	hl = tmpl != NULL ? roce_tmpl_write_hdrs(tmpl, p, buf, rte_pktmbuf_tailroom(m)) :
			    roce_pkt_write_hdrs(p, buf, rte_pktmbuf_tailroom(m));
	if (unlikely(hl < 0 ||
		     (uint32_t)hl + p->paylen + 3 + ROCE_ICRC_LEN > rte_pktmbuf_tailroom(m))) {
		SOFT_LOG(ERR, "%s: cannot build opcode 0x%02x (%d)", dev->name, p->opcode, hl);
		return -EINVAL;
	}
	m->data_len = (uint16_t)hl;
	*payload = buf + hl;
	return 0;
}

struct rte_mbuf *soft_wire_alloc(struct soft_dev *dev, struct roce_pkt *p,
				 const struct roce_tmpl *tmpl, uint8_t **payload)
{
	struct rte_mbuf *m = wire_mbuf_get(dev, dev->wire);

	if (unlikely(m == NULL))
		return NULL;
	if (unlikely(soft_wire_hdrs(dev, m, p, tmpl, payload) != 0)) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	return m;
}

static uint32_t wire_rand_ppm(struct soft_wire *w)
{
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (uint32_t)((w->rng * 0x2545F4914F6CDD1Dull) >> 32) % 1000000u;
}

/* The window back to the start of its arrays (see struct soft_wire). */
static __rte_noinline void backlog_compact(struct soft_wire *w)
{
	memmove(w->bl_mem, w->backlog, w->n_backlog * sizeof(w->backlog[0]));
	memmove(w->dst_mem, w->dst, w->n_backlog * sizeof(w->dst[0]));
	w->backlog = w->bl_mem;
	w->dst = w->dst_mem;
}

/* Every frame enters the backlog here: the engine flushes only when wire_dirty is set. */
static inline void backlog_add(struct soft_dev *dev, struct soft_wire *w, struct rte_mbuf *m,
			       void *dst)
{
	w->dst[w->n_backlog] = dst;
	w->backlog[w->n_backlog++] = m;
	dev->wire_dirty = true;
}

/*
 * Wire faults (devargs drop/dup/reorder/corrupt, in parts per million): applied to frames
 * as they leave, after the ICRC was computed, so the receiver sees exactly what a faulty
 * link would deliver.
 */
static __rte_noinline bool wire_faults(struct soft_dev *dev, struct soft_wire *w,
				       struct rte_mbuf *m, void *dst)
{
	const struct soft_devargs *c = &dev->args;

	if (c->drop_ppm && wire_rand_ppm(w) < c->drop_ppm) {
		dev->st.tx_fault_drops++;
		rte_pktmbuf_free(m);
		return true;
	}
	if (c->corrupt_ppm && wire_rand_ppm(w) < c->corrupt_ppm) {
		uint8_t *b = rte_pktmbuf_mtod(m, uint8_t *);
		uint32_t from = ROCE_ETH_HLEN + ROCE_IPV4_HLEN + ROCE_UDP_HLEN;

		if (m->data_len > from) {
			b[from + wire_rand_ppm(w) % (m->data_len - from)] ^= 0x20;
			dev->st.tx_fault_corrupts++;
		}
	}
	if (c->dup_ppm && wire_rand_ppm(w) < c->dup_ppm &&
	    w->n_backlog + 2 <= SOFT_WIRE_BACKLOG) {
		struct rte_mbuf *d = rte_pktmbuf_copy(m, dev->pool, 0, UINT32_MAX);

		if (d != NULL) {
			backlog_add(dev, w, d, dst);
			dev->st.tx_fault_dups++;
		}
	}
	if (c->reorder_ppm && w->n_backlog && wire_rand_ppm(w) < c->reorder_ppm) {
		/* goes out before the frame queued ahead of it */
		backlog_add(dev, w, w->backlog[w->n_backlog - 1], w->dst[w->n_backlog - 1]);
		w->backlog[w->n_backlog - 2] = m;
		w->dst[w->n_backlog - 2] = dst;
		dev->st.tx_fault_reorders++;
		return true;
	}
	if (c->delay_ppm && wire_rand_ppm(w) < c->delay_ppm) {
		if (hold_put(&w->tx_hold, m, dst)) {
			dev->st.tx_fault_delayed++;
			dev->wire_dirty = true; /* the engine steps until it went out */
			return true;
		}
		dev->st.tx_fault_delay_full++;
	}
	return false;
}

/* Delayed frames whose time has come into the backlog (room for two kept, as for the
 * transport), oldest first. A frame for the loop whose device list changed meanwhile is
 * lost like on a wire: its destination may be gone. */
static inline void wire_tx_release(struct soft_dev *dev, struct soft_wire *w)
{
	uint64_t tsc = rte_get_tsc_cycles();
	struct soft_wire_held *e;

	while (w->n_backlog + 2 < SOFT_WIRE_BACKLOG && (e = hold_due(&w->tx_hold, tsc)) != NULL) {
		if (w->loop != NULL && e->gen != soft_port_loop_gen_now()) {
			rte_pktmbuf_free(e->m);
			dev->st.tx_fault_drops++;
		} else {
			backlog_add(dev, w, e->m, e->dst);
		}
	}
}

/* A finished frame (pkt_len and segment lengths final) into the backlog. */
static __rte_always_inline void wire_queue(struct soft_dev *dev, struct soft_wire *w,
					   struct rte_mbuf *m, const uint8_t *dgid)
{
	void *dst;

	dev->st.tx_packets++;
	dev->st.tx_bytes += m->pkt_len;
	/* the loop's route inline; a port without a route op gets NULL */
	dst = w->loop != NULL ? soft_port_loop_route(&w->loop_cache, dgid) :
	      w->port->route != NULL ? w->port->route(w->port_priv, dgid) : NULL;
	if (unlikely(dev->faults) && wire_faults(dev, w, m, dst))
		return;
	backlog_add(dev, w, m, dst);
}

/* Pad, ICRC, counters, faults and the backlog for a frame whose headers and payload
 * (len bytes from the frame start) are in m. */
static inline void wire_finish(struct soft_dev *dev, struct rte_mbuf *m, uint32_t len,
			       uint32_t paylen, uint32_t l3, bool ipv6, const uint8_t *dgid)
{
	uint8_t *buf = rte_pktmbuf_mtod(m, uint8_t *);

	/* 0-3 pad bytes as one 4-byte store (no memset call): the header writer left room
	 * for pad and ICRC, and the ICRC written next covers whatever lies past the pad. */
	memset(buf + len, 0, 4);
	len += roce_pad_len(paylen);
	roce_icrc_put(buf + len, roce_icrc_compute(buf + l3, len - l3, ipv6));
	len += ROCE_ICRC_LEN;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	wire_queue(dev, dev->wire, m, dgid);
}

void soft_wire_send_reg(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p,
			uint32_t reg)
{
	uint8_t *end = rte_pktmbuf_mtod(m, uint8_t *) + m->data_len + p->paylen;
	uint32_t pad = roce_pad_len(p->paylen);

	if (pad != 0) { /* a payload of a multiple of 4 (every MIDDLE frame) has none */
		memset(end, 0, 4);
		reg = roce_crc32_update(reg, end, pad);
	}
	roce_icrc_put(end + pad, roce_icrc_final(reg));
	m->data_len = (uint16_t)(m->data_len + p->paylen + pad + ROCE_ICRC_LEN);
	m->pkt_len = m->data_len;
	wire_queue(dev, dev->wire, m, p->dgid);
}

void soft_wire_queue(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p)
{
	wire_queue(dev, dev->wire, m, p->dgid);
}

void soft_wire_send(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_pkt *p)
{
	wire_finish(dev, m, m->data_len + p->paylen, p->paylen,
		    ROCE_ETH_HLEN + (p->has_vlan ? ROCE_VLAN_HLEN : 0), p->ipv6, p->dgid);
}

/* soft_wire_send_tmpl()'s rare cases: a port other than the loop, a route not cached,
 * transmit faults (applied after the ICRC, so it is written first). */
static __rte_noinline void wire_send_tmpl_slow(struct soft_dev *dev, struct rte_mbuf *m,
					       const struct roce_tmpl *t, uint32_t len,
					       uint32_t paylen)
{
	wire_finish(dev, m, len, paylen, t->l3_off, t->ipv6, t->proto.dgid);
}

/*
 * The fast paths' frames: on the loop with the route cached and no fault, the frame joins
 * the backlog first and the ICRC is written last, as a tail call (nothing reads the frame
 * before the flush), so this saves no registers.
 */
void soft_wire_send_tmpl(struct soft_dev *dev, struct rte_mbuf *m, const struct roce_tmpl *t,
			 uint32_t len, uint32_t paylen)
{
	struct soft_wire *w = dev->wire;
	uint8_t *buf = rte_pktmbuf_mtod(m, uint8_t *);

	if (unlikely(w->loop == NULL || dev->faults ||
		     !soft_port_loop_route_cached(&w->loop_cache, t->proto.dgid))) {
		wire_send_tmpl_slow(dev, m, t, len, paylen);
		return;
	}
	memset(buf + len, 0, 4); /* 0-3 pad bytes in one store, as wire_finish() */
	len += roce_pad_len(paylen);
	m->data_len = (uint16_t)(len + ROCE_ICRC_LEN);
	m->pkt_len = len + ROCE_ICRC_LEN;
	dev->st.tx_packets++;
	dev->st.tx_bytes += len + ROCE_ICRC_LEN;
	backlog_add(dev, w, m, w->loop_cache.last_dst);
	roce_icrc_write(buf + t->l3_off, len - t->l3_off, t->ipv6);
}

/* Out of line: an engine step with nothing to send returns from soft_wire_flush() without
 * paying this function's register saves. */
static __rte_noinline unsigned int wire_flush_backlog(struct soft_dev *dev, struct soft_wire *w)
{
	unsigned int done;

	done = w->loop != NULL ? soft_port_loop_send(w->backlog, w->dst, w->n_backlog) :
				 w->port->tx(w->port_priv, w->backlog, w->dst, w->n_backlog);
	w->n_backlog -= done;
	if (w->n_backlog == 0) { /* empty: the window starts over */
		w->backlog = w->bl_mem;
		w->dst = w->dst_mem;
	} else {
		w->backlog += done; /* what is left stays where it is (struct soft_wire) */
		w->dst += done;
		/* the window starts in the first half: room for a whole backlog behind it */
		if (w->backlog - w->bl_mem > SOFT_WIRE_BACKLOG)
			backlog_compact(w);
	}
	/* full for the transport, which keeps room for two frames (soft_xport_tx): at exactly
	 * SOFT_WIRE_BACKLOG it never counted (found by wire_peer_killed: a backlog jammed by a
	 * dead peer showed 0) */
	if (w->n_backlog + 2 > SOFT_WIRE_BACKLOG)
		dev->st.tx_backlog_full++;
	dev->wire_dirty = w->n_backlog != 0;
	return done;
}

/* port=loop with one frame in the backlog (most flushes): wire_flush_backlog() without
 * its run search, moves and register saves. */
static __rte_always_inline unsigned int wire_send_loop1(struct soft_dev *dev,
							 struct soft_wire *w)
{
	struct soft_port_loop *d = w->dst[0];

	if (unlikely(d == NULL)) { /* nobody owns that address: the frame is lost */
		rte_pktmbuf_free(w->backlog[0]);
	} else if (unlikely(soft_loop_q_enqueue(d->rx_q, w->backlog, 1) == 0)) {
		dev->wire_dirty = true; /* peer queue full: retried on the next step */
		return 0;
	}
	w->n_backlog = 0;
	dev->wire_dirty = false;
	return 1;
}

static __rte_noinline unsigned int wire_flush_loop1(struct soft_dev *dev, struct soft_wire *w)
{
	return wire_send_loop1(dev, w);
}

/* Frames held by the delay fault: the due ones go out, and the engine keeps stepping (not
 * idle: wire_dirty) until none is held in either direction. */
static __rte_noinline unsigned int wire_flush_held(struct soft_dev *dev, struct soft_wire *w)
{
	unsigned int done = 0;

	if (w->tx_hold.n != 0)
		wire_tx_release(dev, w);
	if (w->n_backlog != 0)
		done = wire_flush_backlog(dev, w);
	dev->wire_dirty = w->n_backlog != 0 || w->tx_hold.n != 0 || w->rx_hold.n != 0;
	return done;
}

/* port=loop without faults (dev->loop_tx_direct): no frame is ever held, so the engine's
 * flush is the backlog alone, a lone frame (most flushes) enqueued without a further call. */
unsigned int soft_wire_flush_loop(struct soft_dev *dev)
{
	struct soft_wire *w = dev->wire;

	if (likely(w->n_backlog == 1))
		return wire_send_loop1(dev, w);
	if (w->n_backlog == 0) {
		dev->wire_dirty = false;
		return 0;
	}
	return wire_flush_backlog(dev, w);
}

unsigned int soft_wire_flush(struct soft_dev *dev)
{
	struct soft_wire *w = dev->wire;

	if (unlikely((w->tx_hold.n | w->rx_hold.n) != 0))
		return wire_flush_held(dev, w);
	if (w->n_backlog == 0) {
		dev->wire_dirty = false;
		return 0;
	}
	if (w->n_backlog == 1 && w->loop != NULL)
		return wire_flush_loop1(dev, w);
	return wire_flush_backlog(dev, w);
}

/* Hands a parsed frame to its QP's transport, which checks it against the QP (state,
 * transport class, addresses, Q_Key, PSN, opcode sequence) before anything happens.
 * Inline into both receive paths (wire_rx_burst(), soft_wire_rx_burst()): called per frame. */
static __rte_always_inline void wire_deliver(struct soft_dev *dev, const struct roce_pkt *p, uint64_t now)
{
	struct soft_qp *qp;

	if (unlikely(p->dqpn == 1)) { /* QP 1: CM MADs (soft_gsi.c) */
		soft_gsi_rx(dev, p);
		return;
	}
	qp = soft_qp_get(dev, p->dqpn);
	if (unlikely(qp == NULL || qp->state == IRDMA_HW_QPS_RESET)) {
		dev->st.rx_unknown_qp++;
		return;
	}
	soft_xport_rx(qp, p, now);
	/* completions were written as the response was taken: settle only what is left */
	if (unlikely(qp->wire_err) ||
	    (qp->swq_done != qp->swq_head && qp->swq[qp->swq_done].state == SOFT_SWQE_DONE))
		soft_xport_settle(qp);
	soft_engine_rx_done(dev, qp, now); /* an ACK or a response to send, a timer moved */
}

/*
 * Receive faults (devargs rx_drop/rx_dup/rx_reorder/rx_corrupt): applied to the burst the port
 * delivered, before any check, so the peer's own retransmission, duplicate detection and
 * replay are exercised even when the peer (a Linux rxe guest) has no fault injection of its
 * own. pkts has room for cap frames; returns the new count.
 */
static __rte_noinline unsigned int wire_rx_faults(struct soft_dev *dev, struct soft_wire *w,
						  struct rte_mbuf **pkts, unsigned int n,
						  unsigned int cap)
{
	const struct soft_devargs *c = &dev->args;
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (c->rx_drop_ppm && wire_rand_ppm(w) < c->rx_drop_ppm) {
			dev->st.rx_fault_drops++;
			rte_pktmbuf_free(m);
			continue;
		}
		if (c->rx_corrupt_ppm && wire_rand_ppm(w) < c->rx_corrupt_ppm) {
			uint8_t *b = rte_pktmbuf_mtod(m, uint8_t *);
			uint32_t from = ROCE_ETH_HLEN + ROCE_IPV4_HLEN + ROCE_UDP_HLEN;

			if (m->data_len > from) {
				b[from + wire_rand_ppm(w) % (m->data_len - from)] ^= 0x20;
				dev->st.rx_fault_corrupts++;
			}
		}
		if (c->rx_delay_ppm && wire_rand_ppm(w) < c->rx_delay_ppm) {
			if (hold_put(&w->rx_hold, m, NULL)) {
				dev->st.rx_fault_delayed++;
				dev->wire_dirty = true; /* the engine steps until it was handled */
				continue;
			}
			dev->st.rx_fault_delay_full++;
		}
		pkts[k++] = m;
		if (c->rx_reorder_ppm && k >= 2 && wire_rand_ppm(w) < c->rx_reorder_ppm) {
			pkts[k - 1] = pkts[k - 2]; /* handled after the frame that came before it */
			pkts[k - 2] = m;
			dev->st.rx_fault_reorders++;
		}
	}
	n = k;
	for (i = 0; i < k && n < cap; i++) {
		struct rte_mbuf *d;

		if (!c->rx_dup_ppm || wire_rand_ppm(w) >= c->rx_dup_ppm)
			continue;
		d = rte_pktmbuf_copy(pkts[i], dev->pool, 0, UINT32_MAX);
		if (d != NULL) {
			pkts[n++] = d; /* delivered again at the end of the burst */
			dev->st.rx_fault_dups++;
		}
	}
	return n;
}

/*
 * Frees a received burst. An mbuf that is direct, unshared and in one segment (what a port
 * hands the wire, as a rule) and of the pool the device allocates from (port=loop: every
 * device's, soft_port_loop_pool_get()) goes back into the device's stash, reset, for the
 * next frame it builds: neither a put here nor a get there. Others of that kind go back
 * to their pool in one put per run of mbufs of the same pool, without rte_pktmbuf_free()'s
 * walk of each; any other through rte_pktmbuf_free().
 */
/* The mbuf's 8 bytes a driver rewrites on rearm: data_off, refcnt, nb_segs, port. */
static inline uint64_t wire_mbuf_rearm(const struct rte_mbuf *m)
{
	return __atomic_load_n((const uint64_t *)&m->rearm_data, __ATOMIC_RELAXED);
}

#define WIRE_REARM_REF1_SEG1 (UINT64_C(1) << 16 | UINT64_C(1) << 32)
#define WIRE_REARM_REF_SEG   (UINT64_C(0xFFFFFFFF) << 16)

/* 16 bytes of an mbuf in one store (a vector type: no intrinsics, any architecture). */
typedef uint64_t wire_u64x2 __attribute__((vector_size(16), aligned(16), may_alias));

/* rte_pktmbuf_reset() for a direct mbuf of the device's pool in one segment, refcnt 1
 * (next already NULL): as the pool's get would have left it, without the bound of the
 * headroom by the buffer (the pool's data room holds it). The fields it resets are two
 * aligned 16-byte runs (rearm word and ol_flags; packet_type, pkt_len, data_len,
 * vlan_tci and the RSS hash, which nothing reads on a frame we build) and two more
 * stores: two vector stores instead of one per field. */
static inline void wire_mbuf_recycle(struct rte_mbuf *m)
{
	const uint64_t rearm = RTE_PKTMBUF_HEADROOM | WIRE_REARM_REF1_SEG1 |
			       (uint64_t)RTE_MBUF_PORT_INVALID << 48;
	uint8_t *b = (uint8_t *)&m->rearm_data;

	RTE_BUILD_BUG_ON(SOFT_MBUF_DATA < RTE_PKTMBUF_HEADROOM);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, refcnt) !=
			 offsetof(struct rte_mbuf, rearm_data) + 2 ||
			 offsetof(struct rte_mbuf, nb_segs) !=
			 offsetof(struct rte_mbuf, rearm_data) + 4 ||
			 offsetof(struct rte_mbuf, port) != offsetof(struct rte_mbuf, rearm_data) + 6);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, rearm_data) % 16 != 0 ||
			 offsetof(struct rte_mbuf, ol_flags) !=
			 offsetof(struct rte_mbuf, rearm_data) + 8);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, packet_type) !=
			 offsetof(struct rte_mbuf, rearm_data) + 16 ||
			 offsetof(struct rte_mbuf, pkt_len) !=
			 offsetof(struct rte_mbuf, rearm_data) + 20 ||
			 offsetof(struct rte_mbuf, data_len) !=
			 offsetof(struct rte_mbuf, rearm_data) + 24 ||
			 offsetof(struct rte_mbuf, vlan_tci) !=
			 offsetof(struct rte_mbuf, rearm_data) + 26 ||
			 offsetof(struct rte_mbuf, hash) != offsetof(struct rte_mbuf, rearm_data) + 28);
	*(wire_u64x2 *)b = (wire_u64x2){ rearm, 0 }; /* ol_flags 0: direct, not external */
	*(wire_u64x2 *)(b + 16) = (wire_u64x2){ 0, 0 };
	m->vlan_tci_outer = 0;
	m->tx_offload = 0;
}

/* refcnt and nb_segs both 1 (in one compare of the rearm word), direct, one segment */
static inline bool wire_mbuf_plain(const struct rte_mbuf *m)
{
	return (wire_mbuf_rearm(m) & WIRE_REARM_REF_SEG) == WIRE_REARM_REF1_SEG1 &&
	       RTE_MBUF_DIRECT(m) && m->next == NULL;
}

static __rte_always_inline void wire_free_burst(struct soft_dev *dev, struct soft_wire *w,
				   struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_mempool *pool = NULL, *own = dev->pool;
	unsigned int i, k = 0, from = 0;

	/* one frame of our pool with room in the stash (most bursts on the loop): without the
	 * run bookkeeping below */
	if (likely(n == 1 && wire_mbuf_plain(pkts[0]) && pkts[0]->pool == own &&
		   w->n_stash < SOFT_WIRE_STASH)) {
		wire_mbuf_recycle(pkts[0]);
		w->stash[w->n_stash++] = pkts[0];
		return;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (unlikely(!wire_mbuf_plain(m))) {
			rte_pktmbuf_free(m);
			continue;
		}
		if (m->pool == own && w->n_stash < SOFT_WIRE_STASH) {
			wire_mbuf_recycle(m);
			w->stash[w->n_stash++] = m;
			continue;
		}
		if (m->pool != pool) {
			if (k != 0)
				rte_mempool_put_bulk(pool, (void **)&pkts[from], k);
			pool = m->pool;
			from = i;
			k = 0;
		} else if (from + k != i) { /* a slow one in between: keep the run contiguous */
			if (k != 0)
				rte_mempool_put_bulk(pool, (void **)&pkts[from], k);
			from = i;
			k = 0;
		}
		k++;
	}
	if (k != 0)
		rte_mempool_put_bulk(pool, (void **)&pkts[from], k);
}

/* Checks and delivers a burst of received frames, then frees it. */
static __rte_always_inline void wire_rx_handle(struct soft_dev *dev, struct rte_mbuf **pkts,
					       unsigned int n)
{
	const struct soft_wire *w = dev->wire;
	unsigned int i, flags;
	uint64_t now;
	bool marked;

	now = soft_now_ns(dev);
	marked = w->rx_marked;
	flags = w->rx_parse_flags;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
		/* frames too short for a payload worth fusing: ICRC included in the parse; the
		 * others: the ICRC apart, checked next or while the payload is copied
		 * (soft_rx_fuse.c) */
		unsigned int fl = flags | (m->data_len >= SOFT_RX_FUSE_MIN_FRAME ?
					   ROCE_PARSE_NO_ICRC : 0);
		struct roce_pkt p;
		enum roce_reason rc;

		dev->st.rx_packets++;
		dev->st.rx_bytes += m->pkt_len;
		/* One pass, inline (from the IP header the port found, when it marked the
		 * frame; else from 14, where the pass checks the EtherType itself). */
		rc = roce_pkt_parse_rc_inline(f, m->data_len,
					      marked ? soft_port_rx_l3_off(m) : ROCE_ETH_HLEN,
					      marked && soft_port_rx_ipv6(m), fl, &p);
		if (unlikely(fl & ROCE_PARSE_NO_ICRC) && likely(rc == ROCE_R_OK))
			rc = soft_rx_icrc(dev, &p);
		if (unlikely(rc != ROCE_R_OK))
			soft_wire_stats_parse_drop(&dev->st.wire, rc); /* the only count */
		else if (unlikely(!marked && !wire_owns_dst(dev, w, &p)))
			dev->st.wire.rx_drop_dst_ip++;
		else if (p.opcode != ROCE_OP_CNP)
			wire_deliver(dev, &p, now);
	}
	/* The transport copied what it keeps: the burst back in one put */
	wire_free_burst(dev, dev->wire, pkts, n);
}

/* Received frames the delay fault held whose time has come, oldest first (past the receive
 * faults already). */
static unsigned int wire_rx_held(struct soft_wire *w, struct rte_mbuf **pkts, unsigned int n)
{
	uint64_t tsc = rte_get_tsc_cycles();
	struct soft_wire_held *e;
	unsigned int k = 0;

	while (k < n && (e = hold_due(&w->rx_hold, tsc)) != NULL)
		pkts[k++] = e->m;
	return k;
}

/* Out of line, like wire_flush_backlog(): the idle check in soft_wire_rx() stays cheap.
 * held: the burst is frames the delay fault held, not the port's. */
static __rte_noinline unsigned int wire_rx_burst(struct soft_dev *dev, struct soft_wire *w,
						 unsigned int budget, bool held)
{
	struct rte_mbuf *pkts[SOFT_WIRE_RX_BURST];
	unsigned int n;

	if (budget > SOFT_WIRE_RX_BURST)
		budget = SOFT_WIRE_RX_BURST;
	if (unlikely(held)) {
		n = wire_rx_held(w, pkts, budget);
	} else {
		/* loop: its single-consumer ring, inline (soft_port_loop.h) */
		n = w->loop != NULL ? soft_port_loop_recv(w->rx_q, pkts, budget) :
				      w->port->rx(w->port_priv, pkts, budget);
		if (unlikely(dev->rx_faults) && n != 0)
			n = wire_rx_faults(dev, w, pkts, n, SOFT_WIRE_RX_BURST);
	}
	if (n == 0)
		return 0;
	wire_rx_handle(dev, pkts, n);
	return n;
}

/* The due frames the delay fault held, then the port's: out of line, so that the step
 * without held frames tail-calls the burst as before. */
static __rte_noinline unsigned int wire_rx_with_held(struct soft_dev *dev, struct soft_wire *w,
						     unsigned int budget)
{
	unsigned int n = wire_rx_burst(dev, w, budget, true);

	if (w->rx_q != NULL && soft_loop_q_empty(w->rx_q))
		return n;
	return n + wire_rx_burst(dev, w, budget, false);
}

unsigned int soft_wire_rx(struct soft_dev *dev, unsigned int budget)
{
	struct soft_wire *w = dev->wire;

	/* port=loop: an empty ring (every idle step) costs two loads, not a burst call, and
	 * no registers saved (the burst is out of line) */
	if (unlikely(w->rx_hold.n != 0))
		return wire_rx_with_held(dev, w, budget);
	if (w->rx_q != NULL && soft_loop_q_empty(w->rx_q))
		return 0;
	return wire_rx_burst(dev, w, budget, false);
}

/* port=loop without receive faults (dev->loop_rx_direct): the engine's call when the
 * queue holds frames, without soft_wire_rx()'s tests for held frames and the port's kind
 * (none can be held: holding is a receive fault). */
unsigned int soft_wire_rx_burst(struct soft_dev *dev, unsigned int budget)
{
	struct soft_wire *w = dev->wire;
	struct rte_mbuf *pkts[SOFT_WIRE_RX_BURST];
	unsigned int n;

	n = soft_port_loop_recv(w->rx_q, pkts, RTE_MIN(budget, SOFT_WIRE_RX_BURST));
	wire_rx_handle(dev, pkts, n);
	return n;
}

/* For a port other than the loop: a queue that stays empty (zeroed, in bss: only its
 * first lines are ever read), so that the idle check needs no test for a missing queue;
 * such a port is kept polled by dev->poll_port in the busy word. */
static struct soft_loop_q wire_no_loop_q;

const struct soft_loop_q *soft_wire_loop_queue(struct soft_dev *dev)
{
	return dev->wire->rx_q != NULL ? dev->wire->rx_q : &wire_no_loop_q;
}

/* accessors for ports (soft_port.h) */
const struct soft_port_ops *soft_wire_port_ops(const struct soft_dev *dev)
{
	return dev->wire != NULL ? dev->wire->port : NULL;
}

void *soft_wire_port_priv(const struct soft_dev *dev)
{
	return dev->wire != NULL ? dev->wire->port_priv : NULL;
}

void soft_wire_stats_read(const struct soft_dev *dev, struct soft_wire_stats *st)
{
	const struct soft_wire *w = dev->wire;

	*st = dev->st.wire;
	if (w != NULL && w->port->stats != NULL)
		w->port->stats(w->port_priv, st);
}

void soft_wire_stats_reset(struct soft_dev *dev)
{
	struct soft_wire *w = dev->wire;

	memset(&dev->st.wire, 0, sizeof(dev->st.wire));
	if (w != NULL && w->port->stats_reset != NULL)
		w->port->stats_reset(w->port_priv);
}
