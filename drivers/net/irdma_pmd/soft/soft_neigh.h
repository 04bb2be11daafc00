/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table of an ethdev port: peer IP (16-byte GID form, IPv4-mapped for IPv4)
 * to MAC. Entries are static (neigh=), learnt (ARP/NA, or an ARP request/NS addressed to
 * us), being resolved (frames wait in a small bounded queue while requests are retried),
 * or failed (the peer did not answer; frames to it are dropped until the hold time ends,
 * and the transport's own retries then report the error). Time is the caller's (TSC).
 */
#ifndef SOFT_NEIGH_H
#define SOFT_NEIGH_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#define SOFT_NEIGH_MAX     64u  /* entries per port */
/* Frames waiting per unresolved peer: two requester windows (lib/roce's default of 128 PSNs), so
 * the first window after a connect waits whole instead of costing an ACK timeout. */
#define SOFT_NEIGH_PENDING 256u
#define SOFT_NEIGH_TRIES   5u   /* requests before giving up */
#define SOFT_NEIGH_RETRY_MS 100u
#define SOFT_NEIGH_HOLD_MS 1000u /* a failed peer is not asked again for this long */

enum soft_neigh_state {
	SOFT_NEIGH_FREE,
	SOFT_NEIGH_INCOMPLETE,
	SOFT_NEIGH_REACHABLE,
	SOFT_NEIGH_FAILED,
	SOFT_NEIGH_STATIC,
};

struct soft_neigh {
	enum soft_neigh_state state;
	uint8_t ip[16];
	uint8_t mac[6];
	uint8_t tries;             /* requests sent in this resolution */
	uint64_t deadline;         /* INCOMPLETE: next request; FAILED: end of hold */
	uint64_t last_used;
	uint16_t n_pending;
	struct rte_mbuf *pending[SOFT_NEIGH_PENDING];
};

struct soft_neigh_table {
	struct soft_neigh e[SOFT_NEIGH_MAX];
	uint32_t mru;              /* last hit: most traffic goes to one peer */
	uint32_t n_timed;          /* INCOMPLETE + FAILED entries (the tick has work) */
	uint64_t retry_tsc, hold_tsc;
};

void soft_neigh_init(struct soft_neigh_table *t, uint64_t tsc_hz);
struct soft_neigh *soft_neigh_lookup(struct soft_neigh_table *t, const uint8_t ip[16]);
/* A new INCOMPLETE entry (evicting the oldest learnt or failed one if full); NULL when
 * every entry is static or waiting. */
struct soft_neigh *soft_neigh_create(struct soft_neigh_table *t, const uint8_t ip[16],
				     uint64_t now);
int soft_neigh_add_static(struct soft_neigh_table *t, const uint8_t ip[16],
			  const uint8_t mac[6]);
/* Records @p mac for @p e (not for static entries); returns true when e was waiting. */
bool soft_neigh_set_mac(struct soft_neigh_table *t, struct soft_neigh *e, const uint8_t mac[6]);
void soft_neigh_fail(struct soft_neigh_table *t, struct soft_neigh *e, uint64_t now);
/* Frees the pending frames of @p e; returns how many. */
unsigned int soft_neigh_drop_pending(struct soft_neigh *e);
/* Frees the entry (and its pending frames). */
void soft_neigh_forget(struct soft_neigh_table *t, struct soft_neigh *e);
void soft_neigh_flush_all(struct soft_neigh_table *t);

#endif /* SOFT_NEIGH_H */
