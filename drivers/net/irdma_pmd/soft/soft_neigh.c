/* SPDX-License-Identifier: BSD-3-Clause */
/* The neighbour table (see soft_neigh.h). Control-rate code: linear scans of 64 entries. */
#include <errno.h>
#include <string.h>

#include <rte_branch_prediction.h>

#include "soft_neigh.h"

void soft_neigh_init(struct soft_neigh_table *t, uint64_t tsc_hz)
{
	memset(t, 0, sizeof(*t));
	t->retry_tsc = tsc_hz / 1000 * SOFT_NEIGH_RETRY_MS;
	t->hold_tsc = tsc_hz / 1000 * SOFT_NEIGH_HOLD_MS;
}

struct soft_neigh *soft_neigh_lookup(struct soft_neigh_table *t, const uint8_t ip[16])
{
	struct soft_neigh *e = &t->e[t->mru];
	uint32_t i;

	if (likely(e->state != SOFT_NEIGH_FREE && memcmp(e->ip, ip, 16) == 0))
		return e;
	for (i = 0; i < SOFT_NEIGH_MAX; i++) {
		e = &t->e[i];
		if (e->state != SOFT_NEIGH_FREE && memcmp(e->ip, ip, 16) == 0) {
			t->mru = i;
			return e;
		}
	}
	return NULL;
}

unsigned int soft_neigh_drop_pending(struct soft_neigh *e)
{
	unsigned int n = e->n_pending;

	rte_pktmbuf_free_bulk(e->pending, n);
	e->n_pending = 0;
	return n;
}

static void set_state(struct soft_neigh_table *t, struct soft_neigh *e,
		      enum soft_neigh_state s)
{
	bool was = e->state == SOFT_NEIGH_INCOMPLETE || e->state == SOFT_NEIGH_FAILED;
	bool is = s == SOFT_NEIGH_INCOMPLETE || s == SOFT_NEIGH_FAILED;

	t->n_timed += (uint32_t)is - (uint32_t)was;
	e->state = s;
}

struct soft_neigh *soft_neigh_create(struct soft_neigh_table *t, const uint8_t ip[16],
				     uint64_t now)
{
	struct soft_neigh *victim = NULL;
	uint32_t i;

	for (i = 0; i < SOFT_NEIGH_MAX; i++) {
		struct soft_neigh *e = &t->e[i];

		if (e->state == SOFT_NEIGH_FREE) {
			victim = e;
			break;
		}
		/* learnt or failed: the one created or asked for longest ago goes */
		if ((e->state == SOFT_NEIGH_REACHABLE || e->state == SOFT_NEIGH_FAILED) &&
		    (victim == NULL || e->last_used < victim->last_used))
			victim = e;
	}
	if (victim == NULL)
		return NULL;
	soft_neigh_drop_pending(victim);
	set_state(t, victim, SOFT_NEIGH_FREE);
	memset(victim, 0, sizeof(*victim));
	memcpy(victim->ip, ip, 16);
	set_state(t, victim, SOFT_NEIGH_INCOMPLETE);
	victim->deadline = now;
	victim->last_used = now;
	return victim;
}

int soft_neigh_add_static(struct soft_neigh_table *t, const uint8_t ip[16],
			  const uint8_t mac[6])
{
	uint32_t i;

	for (i = 0; i < SOFT_NEIGH_MAX; i++) {
		if (t->e[i].state == SOFT_NEIGH_FREE) {
			memcpy(t->e[i].ip, ip, 16);
			memcpy(t->e[i].mac, mac, 6);
			t->e[i].state = SOFT_NEIGH_STATIC;
			return 0;
		}
	}
	return -ENOSPC;
}

bool soft_neigh_set_mac(struct soft_neigh_table *t, struct soft_neigh *e, const uint8_t mac[6])
{
	bool waiting = e->state == SOFT_NEIGH_INCOMPLETE;

	if (e->state == SOFT_NEIGH_STATIC)
		return false;
	memcpy(e->mac, mac, 6);
	set_state(t, e, SOFT_NEIGH_REACHABLE);
	e->tries = 0;
	return waiting;
}

void soft_neigh_fail(struct soft_neigh_table *t, struct soft_neigh *e, uint64_t now)
{
	set_state(t, e, SOFT_NEIGH_FAILED);
	e->deadline = now + t->hold_tsc;
}

void soft_neigh_flush_all(struct soft_neigh_table *t)
{
	uint32_t i;

	for (i = 0; i < SOFT_NEIGH_MAX; i++)
		soft_neigh_drop_pending(&t->e[i]);
}

void soft_neigh_forget(struct soft_neigh_table *t, struct soft_neigh *e)
{
	soft_neigh_drop_pending(e);
	set_state(t, e, SOFT_NEIGH_FREE);
}
