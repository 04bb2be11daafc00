/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two CM endpoints wired back to back through a fake link that can drop or duplicate
 * MADs by type, plus recorders for events and QP transitions. Time is a variable the
 * test advances.
 */
#ifndef CM_LINK_H
#define CM_LINK_H

#include <errno.h>

#include "cm_conn.h"
#include "cm_time.h"
#include "roce_hdr.h"

#define EP_QLEN 64
#define EP_LOG 256

struct ev_rec {
	enum irdma_cm_event_type type;
	int id;
	int status;
	uint8_t pd[8]; /* first bytes of the private data */
	size_t pd_len;
	uint64_t at;
};

struct ep {
	struct irdma_cm cm;
	struct irdma_cm_addr addr;
	struct ep *peer;
	const char *name;
	/* outgoing MADs not yet delivered */
	uint8_t q[EP_QLEN][IRDMA_CM_MAD_LEN];
	int qn;
	/* every MAD sent, in order */
	uint8_t sent[EP_LOG][IRDMA_CM_MAD_LEN];
	uint64_t sent_at[EP_LOG];
	int nsent;
	/* link faults: drop the next n MADs of an attribute (-1: all), duplicate the next n */
	int drop[16];
	int dup[16];
	unsigned int loss_pct; /* random loss, with rng */
	unsigned int dup_pct;
	uint64_t rng;
	/* recorders */
	struct ev_rec ev[EP_LOG];
	int nev;
	struct irdma_cm_qp_attr qa[EP_LOG];
	int nqa;
	/* behaviour */
	enum irdma_cm_qp_state qp_fail; /* qp_modify refuses this target state */
	int auto_accept;
	int auto_disconnect; /* answer DISCONNECTED with irdma_cm_disconnect() */
	struct irdma_cm_accept_param ap;
	int last_req_id;
	uint64_t *now;
};

static inline unsigned int ep_rand(struct ep *e, unsigned int n)
{
	e->rng = e->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned int)(e->rng >> 33) % n;
}

static inline int ep_send(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len)
{
	struct ep *e = ctx;
	unsigned int a = (unsigned int)(mad[16] << 8 | mad[17]) - IRDMA_CM_ATTR_REQ;
	int copies = 1;

	if (len != IRDMA_CM_MAD_LEN || memcmp(to->gid, e->peer->addr.gid, 16))
		return -EINVAL; /* always addressed to the other endpoint */
	if (e->nsent < EP_LOG) {
		memcpy(e->sent[e->nsent], mad, len);
		e->sent_at[e->nsent++] = *e->now;
	}
	if (a < 16 && e->drop[a]) {
		if (e->drop[a] > 0)
			e->drop[a]--;
		return 0;
	}
	if (e->loss_pct && ep_rand(e, 100) < e->loss_pct)
		return 0;
	if (a < 16 && e->dup[a] > 0) {
		e->dup[a]--;
		copies = 2;
	} else if (e->dup_pct && ep_rand(e, 100) < e->dup_pct) {
		copies = 2;
	}
	while (copies-- && e->qn < EP_QLEN)
		memcpy(e->q[e->qn++], mad, len);
	return 0;
}

static inline int ep_qp_modify(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *a)
{
	struct ep *e = ctx;

	(void)id;
	(void)user;
	if (a->state == e->qp_fail)
		return -EIO;
	if (e->nqa < EP_LOG)
		e->qa[e->nqa++] = *a;
	return 0;
}

static inline void ep_event(void *ctx, const struct irdma_cm_event *ev)
{
	struct ep *e = ctx;
	struct ev_rec *r;

	if (e->nev < EP_LOG) {
		r = &e->ev[e->nev++];
		memset(r, 0, sizeof(*r));
		r->type = ev->type;
		r->id = ev->id;
		r->status = ev->status;
		r->pd_len = ev->private_data_len;
		r->at = *e->now;
		if (ev->private_data)
			memcpy(r->pd, ev->private_data, sizeof(r->pd));
	}
	if (ev->type == IRDMA_CM_EVENT_REQ_RECEIVED) {
		e->last_req_id = ev->id;
		if (e->auto_accept)
			irdma_cm_accept(&e->cm, ev->id, &e->ap, *e->now);
	}
	if (ev->type == IRDMA_CM_EVENT_DISCONNECTED && e->auto_disconnect)
		irdma_cm_disconnect(&e->cm, ev->id, *e->now);
}

static const struct irdma_cm_ops ep_ops = { ep_send, ep_qp_modify, ep_event };

static inline void ep_init(struct ep *e, struct ep *peer, const char *name, uint64_t guid,
			   uint8_t host, uint64_t seed, uint64_t *now)
{
	struct irdma_cm_config cfg = {
		.local_ca_guid = guid, .ca_ack_delay = 15, .packet_life_time = 18,
		.cm_response_timeout = 20, .max_cm_retries = 15, .mra_service_timeout = 24,
		.hi_tid = 2, .seed = seed,
	};

	memset(e, 0, sizeof(*e));
	e->peer = peer;
	e->name = name;
	e->now = now;
	e->rng = seed * 31 + 7;
	e->qp_fail = 0;
	e->addr.gid[10] = e->addr.gid[11] = 0xff;
	e->addr.gid[12] = 198;
	e->addr.gid[13] = 18;
	e->addr.gid[15] = host;
	irdma_cm_init(&e->cm, &cfg, &ep_ops, e);
}

/* Delivers what e queued to its peer; returns how many. */
static inline int ep_deliver(struct ep *e)
{
	uint8_t q[EP_QLEN][IRDMA_CM_MAD_LEN];
	int n = e->qn;

	memcpy(q, e->q, sizeof(q[0]) * (size_t)n);
	e->qn = 0;
	for (int i = 0; i < n; i++)
		irdma_cm_rx(&e->peer->cm, &e->addr, q[i], IRDMA_CM_MAD_LEN, *e->now);
	return n;
}

/* Delivers in both directions until the link is quiet. */
static inline void link_pump(struct ep *a, struct ep *b)
{
	while (ep_deliver(a) + ep_deliver(b))
		;
}

/* Advances time to the next deadline of either side (if any before `until`), runs the
 * timers and pumps. Returns 0 when nothing was due before until. */
static inline int link_step(struct ep *a, struct ep *b, uint64_t until)
{
	uint64_t da = irdma_cm_next_deadline(&a->cm), db = irdma_cm_next_deadline(&b->cm);
	uint64_t d = da < db ? da : db;

	if (d == IRDMA_CM_TIME_NEVER || d > until)
		return 0;
	if (d > *a->now)
		*a->now = d;
	irdma_cm_timer(&a->cm, *a->now);
	irdma_cm_timer(&b->cm, *a->now);
	link_pump(a, b);
	return 1;
}

static inline int ep_count_sent(const struct ep *e, uint16_t attr)
{
	int n = 0;

	for (int i = 0; i < e->nsent; i++)
		n += (e->sent[i][16] << 8 | e->sent[i][17]) == attr;
	return n;
}

/* The k-th (0-based) MAD of attr that e sent, parsed; NULL if none. */
static inline int ep_sent_msg(const struct ep *e, uint16_t attr, int k, struct irdma_cm_msg *m)
{
	for (int i = 0; i < e->nsent; i++)
		if ((e->sent[i][16] << 8 | e->sent[i][17]) == attr && k-- == 0)
			return irdma_cm_msg_parse(e->sent[i], IRDMA_CM_MAD_LEN, m);
	return -1;
}

static inline int ep_count_ev(const struct ep *e, enum irdma_cm_event_type t)
{
	int n = 0;

	for (int i = 0; i < e->nev; i++)
		n += e->ev[i].type == t;
	return n;
}

static inline const struct ev_rec *ep_last_ev(const struct ep *e)
{
	return e->nev ? &e->ev[e->nev - 1] : NULL;
}

static inline const struct irdma_cm_qp_attr *ep_qa(const struct ep *e, enum irdma_cm_qp_state s)
{
	for (int i = e->nqa - 1; i >= 0; i--)
		if (e->qa[i].state == s)
			return &e->qa[i];
	return NULL;
}

static inline int ep_live(const struct ep *e)
{
	int n = 0;

	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++)
		n += e->cm.conns[i].state != IRDMA_CM_IDLE;
	return n;
}

/* The id of the connection in slot i (the layout irdma_cm ids have: generation, slot). */
static inline int conn_id_of(const struct ep *e, unsigned int i)
{
	return (int)((unsigned int)e->cm.conns[i].gen << 8 | i); /* IRDMA_CM_ID_SLOT() inverted */
}

#endif /* CM_LINK_H */
