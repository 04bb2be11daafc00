/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IB CM connection state machines (doc/spec/rdma-cm.md §6). Every handler first
 * updates the connection, then sends, and reports its event last, so that the event
 * callback may act on the connection (accept, reject, disconnect, destroy).
 */
#include <errno.h>
#include <string.h>

#include "cm_conn.h"
#include "cm_time.h"
#include "roce_hdr.h"

#define ID_SLOT_BITS 8 /* IRDMA_CM_ID_SLOT() */

/* ------------------------------------------------------------------ helpers */

static uint64_t rng_next(struct irdma_cm *cm)
{
	/* xorshift64*: deterministic for a given seed, which the tests rely on. */
	uint64_t x = cm->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	cm->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static int conn_id(const struct irdma_cm *cm, const struct irdma_cm_conn *c)
{
	return (int)((unsigned int)c->gen << ID_SLOT_BITS | (unsigned int)(c - cm->conns));
}

static struct irdma_cm_conn *conn_of(struct irdma_cm *cm, int id)
{
	struct irdma_cm_conn *c;
	unsigned int slot = IRDMA_CM_ID_SLOT(id);

	if (id < 0 || slot >= IRDMA_CM_MAX_CONNS)
		return NULL;
	c = &cm->conns[slot];
	if (c->state == IRDMA_CM_IDLE || (int)c->gen != id >> ID_SLOT_BITS)
		return NULL;
	return c;
}

static uint32_t new_comm_id(struct irdma_cm *cm)
{
	for (;;) {
		uint32_t v = (uint32_t)(rng_next(cm) >> 32);
		unsigned int i;

		if (!v)
			continue;
		for (i = 0; i < IRDMA_CM_MAX_CONNS; i++)
			if (cm->conns[i].state != IRDMA_CM_IDLE && cm->conns[i].local_id == v)
				break;
		if (i == IRDMA_CM_MAX_CONNS)
			return v;
	}
}

static struct irdma_cm_conn *conn_alloc(struct irdma_cm *cm)
{
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		struct irdma_cm_conn *c = &cm->conns[i];

		if (c->state == IRDMA_CM_IDLE) {
			uint16_t gen = (uint16_t)((c->gen + 1) & 0x3FFF);

			memset(c, 0, sizeof(*c));
			c->gen = gen;
			c->deadline = IRDMA_CM_TIME_NEVER;
			return c;
		}
	}
	return NULL;
}

static void conn_free(struct irdma_cm_conn *c)
{
	c->state = IRDMA_CM_IDLE;
	c->deadline = IRDMA_CM_TIME_NEVER;
}

static void send_mad(struct irdma_cm *cm, const struct irdma_cm_addr *to, const uint8_t *mad)
{
	uint16_t attr = roce_get_be16(mad + 16);

	if (cm->ops->send(cm->ctx, to, mad, IRDMA_CM_MAD_LEN) < 0)
		cm->stats.send_errors++;
	else if (attr >= IRDMA_CM_ATTR_REQ && attr <= IRDMA_CM_ATTR_APR)
		cm->stats.tx[attr - IRDMA_CM_ATTR_REQ]++;
}

/* Builds msg and sends it; keeps the bytes in c->mad when `keep`. */
static void send_msg(struct irdma_cm *cm, struct irdma_cm_conn *c, const struct irdma_cm_addr *to,
		     const struct irdma_cm_msg *msg, int keep)
{
	uint8_t mad[IRDMA_CM_MAD_LEN];

	irdma_cm_msg_build(msg, mad, sizeof(mad));
	if (keep && c)
		memcpy(c->mad, mad, sizeof(mad));
	send_mad(cm, to, mad);
}

static void copy_pd(uint8_t *dst, size_t cap, const void *src, size_t len)
{
	memset(dst, 0, cap);
	if (src && len)
		memcpy(dst, src, len < cap ? len : cap);
}

static void report(struct irdma_cm *cm, struct irdma_cm_conn *c, enum irdma_cm_event_type type,
		   int id, int status, const struct irdma_cm_msg *msg, const uint8_t *pd, size_t pd_len)
{
	struct irdma_cm_event ev = {
		.type = type, .id = id, .user = c->user, .status = status,
		.listen_ctx = c->listen_ctx, .msg = msg, .private_data = pd,
		.private_data_len = pd ? pd_len : 0,
	};

	cm->ops->event(cm->ctx, &ev);
}

static void qp_error(struct irdma_cm *cm, struct irdma_cm_conn *c)
{
	struct irdma_cm_qp_attr a = { .state = IRDMA_CM_QPS_ERR, .qpn = c->local_qpn };

	if (!c->qp_live)
		return;
	c->qp_live = 0;
	cm->ops->qp_modify(cm->ctx, conn_id(cm, c), c->user, &a);
}

static void arm(struct irdma_cm_conn *c, uint64_t now, uint64_t interval)
{
	c->deadline = now + interval;
}

static void enter_timewait(struct irdma_cm_conn *c, uint64_t now)
{
	c->state = IRDMA_CM_TIMEWAIT;
	arm(c, now, cm_time_ns(c->av_timeout));
}

/* REJ from this side; `local` is the comm ID to put in it (Linux puts 0 before a REP). */
static void send_rej(struct irdma_cm *cm, const struct irdma_cm_addr *to, uint64_t tid,
		     uint32_t local, uint32_t remote, uint8_t msg_ref, uint16_t reason,
		     const void *ari, size_t ari_len, const void *pd, size_t pd_len)
{
	struct irdma_cm_msg m;

	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REJ, tid);
	m.rej.local_comm_id = local;
	m.rej.remote_comm_id = remote;
	m.rej.msg_rejected = msg_ref;
	m.rej.reason = reason;
	if (ari_len > IRDMA_CM_REJ_ARI_LEN)
		ari_len = IRDMA_CM_REJ_ARI_LEN;
	m.rej.ari_len = (uint8_t)ari_len;
	copy_pd(m.rej.ari, sizeof(m.rej.ari), ari, ari_len);
	copy_pd(m.rej.private_data, sizeof(m.rej.private_data), pd, pd_len);
	send_msg(cm, NULL, to, &m, 0);
}

static void send_mra(struct irdma_cm *cm, struct irdma_cm_conn *c, uint8_t msg_ref)
{
	struct irdma_cm_msg m;

	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_MRA, c->tid);
	m.mra.local_comm_id = c->local_id;
	m.mra.remote_comm_id = c->remote_id;
	m.mra.msg_mraed = msg_ref;
	m.mra.service_timeout = cm->cfg.mra_service_timeout;
	send_msg(cm, c, &c->peer, &m, 0);
}

static void send_dreq(struct irdma_cm *cm, struct irdma_cm_conn *c)
{
	struct irdma_cm_msg m;

	memset(&m, 0, sizeof(m));
	c->tid = (uint64_t)cm->cfg.hi_tid << 32 | c->local_id;
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_DREQ, c->tid);
	m.dreq.local_comm_id = c->local_id;
	m.dreq.remote_comm_id = c->remote_id;
	m.dreq.remote_qpn = c->remote_qpn;
	send_msg(cm, c, &c->peer, &m, 1);
}

/* DREP answering a DREQ: IDs swapped, its TID. */
static void send_drep_for(struct irdma_cm *cm, const struct irdma_cm_addr *to, uint64_t tid,
			  uint32_t local, uint32_t remote)
{
	struct irdma_cm_msg m;

	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_DREP, tid);
	m.drep.local_comm_id = local;
	m.drep.remote_comm_id = remote;
	send_msg(cm, NULL, to, &m, 0);
}

/* Connection whose local ID is `local` and, if `remote` is not 0, whose remote ID is it. */
static struct irdma_cm_conn *find(struct irdma_cm *cm, uint32_t local, uint32_t remote)
{
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		struct irdma_cm_conn *c = &cm->conns[i];

		if (c->state != IRDMA_CM_IDLE && c->local_id == local &&
		    (!remote || c->remote_id == remote))
			return c;
	}
	return NULL;
}

/* ------------------------------------------------------------------ setup */

int irdma_cm_init(struct irdma_cm *cm, const struct irdma_cm_config *cfg,
		  const struct irdma_cm_ops *ops, void *ctx)
{
	if (!cm || !cfg || !ops || !ops->send || !ops->qp_modify || !ops->event)
		return -EINVAL;
	if (cfg->ca_ack_delay > 31 || cfg->packet_life_time > 30 ||
	    cfg->cm_response_timeout > 31 || cfg->max_cm_retries > 15 ||
	    cfg->mra_service_timeout > 31)
		return -EINVAL;
	memset(cm, 0, sizeof(*cm));
	cm->cfg = *cfg;
	cm->ops = ops;
	cm->ctx = ctx;
	cm->rng = cfg->seed ? cfg->seed : 0x9E3779B97F4A7C15ull;
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++)
		cm->conns[i].deadline = IRDMA_CM_TIME_NEVER;
	return 0;
}

int irdma_cm_listen(struct irdma_cm *cm, uint64_t service_id, void *listen_ctx)
{
	struct irdma_cm_listener *free_l = NULL;

	for (unsigned int i = 0; i < IRDMA_CM_MAX_LISTENERS; i++) {
		struct irdma_cm_listener *l = &cm->listeners[i];

		if (l->used && l->service_id == service_id)
			return -EADDRINUSE;
		if (!l->used && !free_l)
			free_l = l;
	}
	if (!free_l)
		return -ENOSPC;
	*free_l = (struct irdma_cm_listener){ service_id, listen_ctx, 1 };
	return 0;
}

int irdma_cm_unlisten(struct irdma_cm *cm, uint64_t service_id)
{
	for (unsigned int i = 0; i < IRDMA_CM_MAX_LISTENERS; i++) {
		if (cm->listeners[i].used && cm->listeners[i].service_id == service_id) {
			cm->listeners[i].used = 0;
			return 0;
		}
	}
	return -ENOENT;
}

/* ------------------------------------------------------------------ active side */

int irdma_cm_connect(struct irdma_cm *cm, const struct irdma_cm_connect_param *p, uint64_t now)
{
	struct irdma_cm_qp_attr a;
	struct irdma_cm_conn *c;
	struct irdma_cm_msg m;
	struct irdma_cm_req *r = &m.req;
	int rc;

	if (!p || p->qpn > 0xFFFFFF || !p->qpn || p->retry_count > 7 || p->rnr_retry_count > 7 ||
	    p->path_mtu < 1 || p->path_mtu > 5 || p->flow_label > 0xFFFFF || p->sl > 15 ||
	    p->private_data_len > IRDMA_CM_REQ_PD_LEN || (p->private_data_len && !p->private_data))
		return -EINVAL;
	c = conn_alloc(cm);
	if (!c)
		return -ENOSPC;
	c->active = 1;
	c->user = p->user;
	c->local_id = new_comm_id(cm);
	c->local_qpn = p->qpn;
	memcpy(c->peer.gid, p->dgid, 16);
	c->tid = (uint64_t)cm->cfg.hi_tid << 32 | c->local_id;

	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REQ, c->tid);
	r->local_comm_id = c->local_id;
	r->service_id = p->service_id;
	r->local_ca_guid = cm->cfg.local_ca_guid;
	r->local_qpn = p->qpn;
	r->responder_resources = p->responder_resources;
	r->initiator_depth = p->initiator_depth;
	r->remote_cm_response_timeout = cm->cfg.cm_response_timeout;
	r->transport_type = IRDMA_CM_TRANSPORT_RC;
	r->starting_psn = (uint32_t)rng_next(cm) & 0xFFFFFF;
	r->local_cm_response_timeout = cm->cfg.cm_response_timeout;
	r->retry_count = p->retry_count;
	r->pkey = IRDMA_CM_PKEY_DEFAULT;
	r->path_mtu = p->path_mtu;
	r->rnr_retry_count = p->rnr_retry_count;
	r->max_cm_retries = cm->cfg.max_cm_retries;
	r->srq = p->srq ? 1 : 0;
	r->primary.local_lid = 0xFFFF;
	r->primary.remote_lid = 0xFFFF;
	memcpy(r->primary.local_gid, p->sgid, 16);
	memcpy(r->primary.remote_gid, p->dgid, 16);
	r->primary.flow_label = p->flow_label;
	r->primary.traffic_class = p->traffic_class;
	r->primary.hop_limit = p->hop_limit;
	r->primary.sl = p->sl;
	r->primary.subnet_local = p->hop_limit <= 1;
	r->primary.local_ack_timeout = cm_ack_timeout(cm->cfg.ca_ack_delay, cm->cfg.packet_life_time);
	copy_pd(r->private_data, sizeof(r->private_data), p->private_data, p->private_data_len);
	c->req = *r;
	c->av_timeout = r->primary.local_ack_timeout;
	c->interval = 2 * cm_time_ns(cm->cfg.packet_life_time) +
		      cm_time_ns(r->remote_cm_response_timeout);
	c->retries = r->max_cm_retries;

	/* librdmacm moves the QP to INIT before the REQ leaves. */
	a = (struct irdma_cm_qp_attr){ .state = IRDMA_CM_QPS_INIT, .qpn = p->qpn,
		.pkey = IRDMA_CM_PKEY_DEFAULT, .access = IRDMA_CM_ACCESS_REMOTE_WRITE };
	if (p->responder_resources)
		a.access |= IRDMA_CM_ACCESS_REMOTE_READ | IRDMA_CM_ACCESS_REMOTE_ATOMIC;
	c->state = IRDMA_CM_REQ_SENT;
	rc = cm->ops->qp_modify(cm->ctx, conn_id(cm, c), c->user, &a);
	if (rc < 0) {
		conn_free(c);
		return rc;
	}
	send_msg(cm, c, &c->peer, &m, 1);
	arm(c, now, c->interval);
	return conn_id(cm, c);
}

static int rx_rep(struct irdma_cm *cm, const struct irdma_cm_msg *m, uint64_t now)
{
	const struct irdma_cm_rep *rep = &m->rep;
	struct irdma_cm_conn *c = find(cm, rep->remote_comm_id, 0);
	struct irdma_cm_qp_attr a;
	struct irdma_cm_msg rtu;
	int id, rc;

	if (!c || !c->active)
		return -IRDMA_CM_R_NO_CONN;
	if (c->remote_id) {
		if (c->remote_id != rep->local_comm_id)
			return -IRDMA_CM_R_NO_CONN;
		/* Our RTU was lost: say it again. */
		if (c->state == IRDMA_CM_ESTABLISHED) {
			send_mad(cm, &c->peer, c->mad);
			return -IRDMA_CM_R_DUPLICATE;
		}
		return -IRDMA_CM_R_DUPLICATE;
	}
	if (c->state != IRDMA_CM_REQ_SENT && c->state != IRDMA_CM_MRA_REQ_RCVD)
		return -IRDMA_CM_R_STATE;

	id = conn_id(cm, c);
	c->deadline = IRDMA_CM_TIME_NEVER;
	c->remote_id = rep->local_comm_id;
	c->remote_qpn = rep->local_qpn;
	c->remote_guid = rep->local_ca_guid;
	c->state = IRDMA_CM_REP_RCVD;
	c->av_timeout = cm_ack_timeout(rep->target_ack_delay, cm->cfg.packet_life_time);

	/* RTR: the peer sends from our REQ PSN; RTS: we send from its REP PSN (§7). */
	a = (struct irdma_cm_qp_attr){ .state = IRDMA_CM_QPS_RTR, .qpn = c->local_qpn,
		.pkey = IRDMA_CM_PKEY_DEFAULT, .dest_qpn = rep->local_qpn,
		.rq_psn = c->req.starting_psn, .path_mtu = c->req.path_mtu,
		.max_dest_rd_atomic = rep->initiator_depth < c->req.responder_resources ?
				      rep->initiator_depth : c->req.responder_resources,
		.flow_label = c->req.primary.flow_label,
		.traffic_class = c->req.primary.traffic_class,
		.hop_limit = c->req.primary.hop_limit, .sl = c->req.primary.sl };
	memcpy(a.sgid, c->req.primary.local_gid, 16);
	memcpy(a.dgid, c->req.primary.remote_gid, 16);
	c->qp_live = 1;
	rc = cm->ops->qp_modify(cm->ctx, id, c->user, &a);
	if (rc >= 0) {
		a.state = IRDMA_CM_QPS_RTS;
		a.sq_psn = rep->starting_psn;
		a.retry_cnt = c->req.retry_count;
		a.rnr_retry = rep->rnr_retry_count;
		a.timeout = c->av_timeout;
		a.max_rd_atomic = rep->responder_resources < c->req.initiator_depth ?
				  rep->responder_resources : c->req.initiator_depth;
		rc = cm->ops->qp_modify(cm->ctx, id, c->user, &a);
	}
	if (rc < 0) {
		send_rej(cm, &c->peer, c->tid, c->local_id, c->remote_id, IRDMA_CM_MSG_REF_REP,
			 IRDMA_CM_REJ_CONSUMER, NULL, 0, NULL, 0);
		qp_error(cm, c);
		conn_free(c);
		report(cm, c, IRDMA_CM_EVENT_CONNECT_ERROR, id, rc, m, rep->private_data,
		       IRDMA_CM_REP_PD_LEN);
		return 0;
	}
	memset(&rtu, 0, sizeof(rtu));
	irdma_cm_mad_hdr_init(&rtu.hdr, IRDMA_CM_ATTR_RTU, c->tid);
	rtu.rtu.local_comm_id = c->local_id;
	rtu.rtu.remote_comm_id = c->remote_id;
	c->state = IRDMA_CM_ESTABLISHED;
	send_msg(cm, c, &c->peer, &rtu, 1);
	report(cm, c, IRDMA_CM_EVENT_ESTABLISHED, id, 0, m, rep->private_data, IRDMA_CM_REP_PD_LEN);
	(void)now;
	return 0;
}

/* ------------------------------------------------------------------ passive side */

static struct irdma_cm_listener *listener_of(struct irdma_cm *cm, uint64_t service_id)
{
	for (unsigned int i = 0; i < IRDMA_CM_MAX_LISTENERS; i++)
		if (cm->listeners[i].used && cm->listeners[i].service_id == service_id)
			return &cm->listeners[i];
	return NULL;
}

static int rx_req(struct irdma_cm *cm, const struct irdma_cm_addr *from,
		  const struct irdma_cm_msg *m, uint64_t now)
{
	const struct irdma_cm_req *req = &m->req;
	struct irdma_cm_listener *l;
	struct irdma_cm_conn *c;
	unsigned int i;

	/* Duplicate: the same peer connection (its comm ID and CA GUID) is known. */
	for (i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		c = &cm->conns[i];
		if (c->state == IRDMA_CM_IDLE || c->active || c->remote_id != req->local_comm_id ||
		    c->remote_guid != req->local_ca_guid)
			continue;
		switch (c->state) {
		case IRDMA_CM_REQ_RCVD: /* the application is still deciding: hold the peer */
			c->state = IRDMA_CM_MRA_REQ_SENT;
			send_mra(cm, c, IRDMA_CM_MSG_REF_REQ);
			break;
		case IRDMA_CM_MRA_REQ_SENT:
			send_mra(cm, c, IRDMA_CM_MSG_REF_REQ);
			break;
		case IRDMA_CM_REP_SENT:
		case IRDMA_CM_MRA_REP_RCVD:
			send_mad(cm, &c->peer, c->mad);
			break;
		case IRDMA_CM_TIMEWAIT:
			send_rej(cm, from, m->hdr.tid, c->local_id, req->local_comm_id,
				 IRDMA_CM_MSG_REF_REQ, IRDMA_CM_REJ_STALE_CONN, NULL, 0, NULL, 0);
			break;
		default:
			break;
		}
		return -IRDMA_CM_R_DUPLICATE;
	}
	/* Stale: a new comm ID for a QP that is still connected to us. */
	for (i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		c = &cm->conns[i];
		if (c->state == IRDMA_CM_IDLE || c->state == IRDMA_CM_TIMEWAIT ||
		    c->remote_qpn != req->local_qpn || c->remote_guid != req->local_ca_guid)
			continue;
		send_rej(cm, from, m->hdr.tid, 0, req->local_comm_id, IRDMA_CM_MSG_REF_REQ,
			 IRDMA_CM_REJ_STALE_CONN, NULL, 0, NULL, 0);
		if (c->state == IRDMA_CM_ESTABLISHED) {
			qp_error(cm, c);
			c->state = IRDMA_CM_DREQ_SENT;
			c->retries = cm->cfg.max_cm_retries;
			send_dreq(cm, c);
			arm(c, now, c->interval);
		}
		return -IRDMA_CM_R_STALE;
	}
	if (req->transport_type != IRDMA_CM_TRANSPORT_RC) {
		send_rej(cm, from, m->hdr.tid, 0, req->local_comm_id, IRDMA_CM_MSG_REF_REQ,
			 IRDMA_CM_REJ_INVALID_TRANSPORT, NULL, 0, NULL, 0);
		return -IRDMA_CM_R_TRANSPORT;
	}
	l = listener_of(cm, req->service_id);
	if (!l) {
		send_rej(cm, from, m->hdr.tid, 0, req->local_comm_id, IRDMA_CM_MSG_REF_REQ,
			 IRDMA_CM_REJ_INVALID_SERVICE_ID, NULL, 0, NULL, 0);
		return -IRDMA_CM_R_NO_LISTENER;
	}
	c = conn_alloc(cm);
	if (!c) {
		send_rej(cm, from, m->hdr.tid, 0, req->local_comm_id, IRDMA_CM_MSG_REF_REQ,
			 IRDMA_CM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
		return -IRDMA_CM_R_NO_RESOURCES;
	}
	c->active = 0;
	c->state = IRDMA_CM_REQ_RCVD;
	c->local_id = new_comm_id(cm);
	c->remote_id = req->local_comm_id;
	c->remote_qpn = req->local_qpn;
	c->remote_guid = req->local_ca_guid;
	c->tid = m->hdr.tid;
	c->peer = *from;
	c->listen_ctx = l->ctx;
	c->req = *req;
	c->av_timeout = req->primary.local_ack_timeout;
	c->interval = cm_time_ns(req->local_cm_response_timeout);
	report(cm, c, IRDMA_CM_EVENT_REQ_RECEIVED, conn_id(cm, c), 0, m, req->private_data,
	       IRDMA_CM_REQ_PD_LEN);
	return 0;
}

int irdma_cm_accept(struct irdma_cm *cm, int id, const struct irdma_cm_accept_param *p,
		    uint64_t now)
{
	struct irdma_cm_conn *c = conn_of(cm, id);
	const struct irdma_cm_req *req;
	struct irdma_cm_qp_attr a;
	struct irdma_cm_msg m;
	uint32_t psn;
	int rc;

	if (!c || !p || c->active ||
	    (c->state != IRDMA_CM_REQ_RCVD && c->state != IRDMA_CM_MRA_REQ_SENT))
		return -EINVAL;
	if (!p->qpn || p->qpn > 0xFFFFFF || p->rnr_retry_count > 7 || p->min_rnr_timer > 31 ||
	    p->private_data_len > IRDMA_CM_REP_PD_LEN || (p->private_data_len && !p->private_data))
		return -EINVAL;
	req = &c->req;
	if (p->user)
		c->user = p->user;
	c->local_qpn = p->qpn;
	psn = (uint32_t)rng_next(cm) & 0xFFFFFF;

	a = (struct irdma_cm_qp_attr){ .state = IRDMA_CM_QPS_INIT, .qpn = p->qpn,
		.pkey = req->pkey, .access = IRDMA_CM_ACCESS_REMOTE_WRITE };
	if (req->initiator_depth && p->responder_resources)
		a.access |= IRDMA_CM_ACCESS_REMOTE_READ | IRDMA_CM_ACCESS_REMOTE_ATOMIC;
	rc = cm->ops->qp_modify(cm->ctx, id, c->user, &a);
	if (rc < 0)
		return rc;
	/* RTR: the peer sends from our REP PSN; RTS: we send from its REQ PSN (§7). */
	a.state = IRDMA_CM_QPS_RTR;
	a.dest_qpn = req->local_qpn;
	a.rq_psn = psn;
	a.path_mtu = req->path_mtu;
	a.max_dest_rd_atomic = p->responder_resources < req->initiator_depth ?
			       p->responder_resources : req->initiator_depth;
	a.min_rnr_timer = p->min_rnr_timer;
	memcpy(a.sgid, req->primary.remote_gid, 16);
	memcpy(a.dgid, req->primary.local_gid, 16);
	a.flow_label = req->primary.flow_label;
	a.traffic_class = req->primary.traffic_class;
	a.hop_limit = req->primary.hop_limit;
	a.sl = req->primary.sl;
	c->qp_live = 1;
	rc = cm->ops->qp_modify(cm->ctx, id, c->user, &a);
	if (rc >= 0) {
		a.state = IRDMA_CM_QPS_RTS;
		a.sq_psn = req->starting_psn;
		a.retry_cnt = req->retry_count;
		a.rnr_retry = req->rnr_retry_count;
		a.timeout = req->primary.local_ack_timeout;
		a.max_rd_atomic = p->initiator_depth < req->responder_resources ?
				  p->initiator_depth : req->responder_resources;
		rc = cm->ops->qp_modify(cm->ctx, id, c->user, &a);
	}
	if (rc < 0) {
		qp_error(cm, c);
		return rc;
	}
	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REP, c->tid);
	m.rep.local_comm_id = c->local_id;
	m.rep.remote_comm_id = c->remote_id;
	m.rep.local_qpn = p->qpn;
	m.rep.starting_psn = psn;
	m.rep.responder_resources = a.max_dest_rd_atomic;
	m.rep.initiator_depth = a.max_rd_atomic;
	m.rep.target_ack_delay = cm->cfg.ca_ack_delay;
	m.rep.flow_control = req->flow_control;
	m.rep.rnr_retry_count = p->rnr_retry_count;
	m.rep.srq = p->srq ? 1 : 0;
	m.rep.local_ca_guid = cm->cfg.local_ca_guid;
	copy_pd(m.rep.private_data, sizeof(m.rep.private_data), p->private_data,
		p->private_data_len);
	c->state = IRDMA_CM_REP_SENT;
	c->retries = req->max_cm_retries;
	send_msg(cm, c, &c->peer, &m, 1);
	arm(c, now, c->interval);
	return 0;
}

int irdma_cm_reject(struct irdma_cm *cm, int id, uint16_t reason, const void *pd, size_t len,
		    uint64_t now)
{
	struct irdma_cm_conn *c = conn_of(cm, id);

	(void)now;
	if (!c || c->active || len > IRDMA_CM_REJ_PD_LEN || (len && !pd) ||
	    (c->state != IRDMA_CM_REQ_RCVD && c->state != IRDMA_CM_MRA_REQ_SENT))
		return -EINVAL;
	send_rej(cm, &c->peer, c->tid, c->state == IRDMA_CM_REQ_RCVD ? 0 : c->local_id,
		 c->remote_id, IRDMA_CM_MSG_REF_REQ, reason, NULL, 0, pd, len);
	conn_free(c);
	return 0;
}

int irdma_cm_mra(struct irdma_cm *cm, int id, uint64_t now)
{
	struct irdma_cm_conn *c = conn_of(cm, id);

	(void)now;
	if (!c || c->active ||
	    (c->state != IRDMA_CM_REQ_RCVD && c->state != IRDMA_CM_MRA_REQ_SENT))
		return -EINVAL;
	c->state = IRDMA_CM_MRA_REQ_SENT;
	send_mra(cm, c, IRDMA_CM_MSG_REF_REQ);
	return 0;
}

static void passive_established(struct irdma_cm *cm, struct irdma_cm_conn *c,
				const struct irdma_cm_msg *m)
{
	c->state = IRDMA_CM_ESTABLISHED;
	c->deadline = IRDMA_CM_TIME_NEVER;
	report(cm, c, IRDMA_CM_EVENT_ESTABLISHED, conn_id(cm, c), 0, m,
	       m ? m->rtu.private_data : NULL, IRDMA_CM_RTU_PD_LEN);
}

int irdma_cm_established(struct irdma_cm *cm, int id, uint64_t now)
{
	struct irdma_cm_conn *c = conn_of(cm, id);

	(void)now;
	if (!c || c->active)
		return -EINVAL;
	if (c->state == IRDMA_CM_ESTABLISHED)
		return 0;
	if (c->state != IRDMA_CM_REP_SENT && c->state != IRDMA_CM_MRA_REP_RCVD)
		return -EINVAL;
	passive_established(cm, c, NULL);
	return 0;
}

static int rx_rtu(struct irdma_cm *cm, const struct irdma_cm_msg *m)
{
	struct irdma_cm_conn *c = find(cm, m->rtu.remote_comm_id, m->rtu.local_comm_id);

	if (!c || c->active)
		return -IRDMA_CM_R_NO_CONN;
	if (c->state != IRDMA_CM_REP_SENT && c->state != IRDMA_CM_MRA_REP_RCVD)
		return c->state == IRDMA_CM_ESTABLISHED ? -IRDMA_CM_R_DUPLICATE : -IRDMA_CM_R_STATE;
	passive_established(cm, c, m);
	return 0;
}

/* ------------------------------------------------------------------ both sides */

static int rx_mra(struct irdma_cm *cm, const struct irdma_cm_msg *m, uint64_t now)
{
	const struct irdma_cm_mra *mra = &m->mra;
	struct irdma_cm_conn *c;
	uint64_t wait;

	if (mra->msg_mraed == IRDMA_CM_MSG_REF_REQ)
		c = find(cm, mra->remote_comm_id, 0);
	else
		c = find(cm, mra->remote_comm_id, mra->local_comm_id);
	if (!c)
		return -IRDMA_CM_R_NO_CONN;
	wait = cm_time_ns(mra->service_timeout) + cm_time_ns(c->av_timeout);
	if (mra->msg_mraed == IRDMA_CM_MSG_REF_REQ && c->state == IRDMA_CM_REQ_SENT) {
		c->state = IRDMA_CM_MRA_REQ_RCVD;
	} else if (mra->msg_mraed == IRDMA_CM_MSG_REF_REP && c->state == IRDMA_CM_REP_SENT &&
		   c->remote_id == mra->local_comm_id) {
		c->state = IRDMA_CM_MRA_REP_RCVD;
	} else if ((c->state == IRDMA_CM_MRA_REQ_RCVD &&
		    mra->msg_mraed == IRDMA_CM_MSG_REF_REQ) ||
		   (c->state == IRDMA_CM_MRA_REP_RCVD && mra->msg_mraed == IRDMA_CM_MSG_REF_REP)) {
		return -IRDMA_CM_R_DUPLICATE;
	} else {
		return -IRDMA_CM_R_STATE;
	}
	arm(c, now, wait);
	return 0;
}

static int rx_rej(struct irdma_cm *cm, const struct irdma_cm_msg *m, uint64_t now)
{
	const struct irdma_cm_rej *rej = &m->rej;
	struct irdma_cm_conn *c = find(cm, rej->remote_comm_id, 0);
	enum irdma_cm_event_type ev = IRDMA_CM_EVENT_REJECTED;
	int id;

	/* An active side that gives up on its REQ does not know our ID yet: it names
	 * itself (and its CA GUID in the ARI). */
	if (!c && rej->reason == IRDMA_CM_REJ_TIMEOUT) {
		for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS && !c; i++) {
			struct irdma_cm_conn *p = &cm->conns[i];

			if (p->state != IRDMA_CM_IDLE && !p->active &&
			    p->remote_id == rej->local_comm_id &&
			    (rej->ari_len < 8 || roce_get_be64(rej->ari) == p->remote_guid))
				c = p;
		}
	}
	/* A REJ of our REQ comes before we know the peer's ID; later ones name both. */
	if (!c || (c->remote_id && rej->local_comm_id && c->remote_id != rej->local_comm_id))
		return -IRDMA_CM_R_NO_CONN;
	id = conn_id(cm, c);
	switch (c->state) {
	case IRDMA_CM_REQ_SENT:
	case IRDMA_CM_MRA_REQ_RCVD:
	case IRDMA_CM_REQ_RCVD:
	case IRDMA_CM_MRA_REQ_SENT:
	case IRDMA_CM_REP_SENT:
	case IRDMA_CM_MRA_REP_RCVD:
		break;
	case IRDMA_CM_ESTABLISHED:
		ev = IRDMA_CM_EVENT_DISCONNECTED;
		break;
	default:
		return -IRDMA_CM_R_STATE;
	}
	qp_error(cm, c);
	if (rej->reason == IRDMA_CM_REJ_STALE_CONN || c->state == IRDMA_CM_ESTABLISHED)
		enter_timewait(c, now);
	else
		conn_free(c);
	report(cm, c, ev, id, ev == IRDMA_CM_EVENT_REJECTED ? rej->reason : 0, m,
	       rej->private_data, IRDMA_CM_REJ_PD_LEN);
	return 0;
}

static int rx_dreq(struct irdma_cm *cm, const struct irdma_cm_addr *from,
		   const struct irdma_cm_msg *m, uint64_t now)
{
	const struct irdma_cm_dreq *dreq = &m->dreq;
	struct irdma_cm_conn *c = find(cm, dreq->remote_comm_id, dreq->local_comm_id);
	int id;

	if (!c) {
		/* Answer anyway: the peer may have lost our DREP after we forgot it. */
		send_drep_for(cm, from, m->hdr.tid, dreq->remote_comm_id, dreq->local_comm_id);
		return -IRDMA_CM_R_NO_CONN;
	}
	if (dreq->remote_qpn != c->local_qpn)
		return -IRDMA_CM_R_DREQ_QPN;
	id = conn_id(cm, c);
	switch (c->state) {
	case IRDMA_CM_ESTABLISHED:
	case IRDMA_CM_REP_SENT:     /* our REP's RTU was lost, the peer is done already */
	case IRDMA_CM_MRA_REP_RCVD:
		c->tid = m->hdr.tid;
		c->state = IRDMA_CM_DREQ_RCVD;
		c->deadline = IRDMA_CM_TIME_NEVER;
		report(cm, c, IRDMA_CM_EVENT_DISCONNECTED, id, 0, m, dreq->private_data,
		       IRDMA_CM_DREQ_PD_LEN);
		return 0;
	case IRDMA_CM_DREQ_SENT:
		/* Crossing DREQs: both sides asked, nobody needs to decide anything. */
		send_drep_for(cm, &c->peer, m->hdr.tid, c->local_id, c->remote_id);
		enter_timewait(c, now);
		report(cm, c, IRDMA_CM_EVENT_DISCONNECTED, id, 0, m, dreq->private_data,
		       IRDMA_CM_DREQ_PD_LEN);
		return 0;
	case IRDMA_CM_TIMEWAIT:
		send_drep_for(cm, &c->peer, m->hdr.tid, c->local_id, c->remote_id);
		return -IRDMA_CM_R_DUPLICATE;
	case IRDMA_CM_DREQ_RCVD:
		return -IRDMA_CM_R_DUPLICATE;
	default:
		return -IRDMA_CM_R_STATE;
	}
}

static int rx_drep(struct irdma_cm *cm, const struct irdma_cm_msg *m, uint64_t now)
{
	struct irdma_cm_conn *c = find(cm, m->drep.remote_comm_id, m->drep.local_comm_id);

	if (!c)
		return -IRDMA_CM_R_NO_CONN;
	if (c->state != IRDMA_CM_DREQ_SENT)
		return c->state == IRDMA_CM_TIMEWAIT ? -IRDMA_CM_R_DUPLICATE : -IRDMA_CM_R_STATE;
	enter_timewait(c, now);
	report(cm, c, IRDMA_CM_EVENT_DISCONNECTED, conn_id(cm, c), 0, m, m->drep.private_data,
	       IRDMA_CM_DREP_PD_LEN);
	return 0;
}

int irdma_cm_disconnect(struct irdma_cm *cm, int id, uint64_t now)
{
	struct irdma_cm_conn *c = conn_of(cm, id);

	if (!c)
		return -EINVAL;
	switch (c->state) {
	case IRDMA_CM_ESTABLISHED:
	case IRDMA_CM_REP_SENT:
	case IRDMA_CM_MRA_REP_RCVD:
		qp_error(cm, c);
		c->state = IRDMA_CM_DREQ_SENT;
		c->retries = cm->cfg.max_cm_retries;
		send_dreq(cm, c);
		arm(c, now, c->interval);
		return 0;
	case IRDMA_CM_DREQ_RCVD:
		qp_error(cm, c);
		send_drep_for(cm, &c->peer, c->tid, c->local_id, c->remote_id);
		enter_timewait(c, now);
		return 0;
	case IRDMA_CM_DREQ_SENT:
	case IRDMA_CM_TIMEWAIT:
		return 0;
	default:
		return -EINVAL;
	}
}

int irdma_cm_destroy(struct irdma_cm *cm, int id, uint64_t now)
{
	struct irdma_cm_conn *c = conn_of(cm, id);
	uint8_t guid[8];

	(void)now;
	if (!c)
		return -EINVAL;
	switch (c->state) {
	case IRDMA_CM_REQ_SENT:
	case IRDMA_CM_MRA_REQ_RCVD:
		/* Linux's REJ for a REQ given up: reason timeout, our CA GUID as ARI. */
		roce_put_be64(guid, cm->cfg.local_ca_guid);
		send_rej(cm, &c->peer, c->tid, c->local_id, 0, IRDMA_CM_MSG_REF_REQ,
			 IRDMA_CM_REJ_TIMEOUT, guid, sizeof(guid), NULL, 0);
		break;
	case IRDMA_CM_REQ_RCVD:
	case IRDMA_CM_MRA_REQ_SENT:
	case IRDMA_CM_REP_SENT:
	case IRDMA_CM_MRA_REP_RCVD:
		send_rej(cm, &c->peer, c->tid, c->local_id, c->remote_id,
			 c->state == IRDMA_CM_REP_SENT || c->state == IRDMA_CM_MRA_REP_RCVD ?
				 IRDMA_CM_MSG_REF_REP : IRDMA_CM_MSG_REF_REQ,
			 IRDMA_CM_REJ_CONSUMER, NULL, 0, NULL, 0);
		break;
	case IRDMA_CM_ESTABLISHED:
		send_dreq(cm, c);
		break;
	case IRDMA_CM_DREQ_RCVD:
		send_drep_for(cm, &c->peer, c->tid, c->local_id, c->remote_id);
		break;
	default:
		break;
	}
	qp_error(cm, c);
	conn_free(c);
	return 0;
}

int irdma_cm_rx(struct irdma_cm *cm, const struct irdma_cm_addr *from, const uint8_t *mad,
		size_t len, uint64_t now)
{
	struct irdma_cm_msg m;
	int rc = irdma_cm_msg_parse(mad, len, &m);

	if (rc == 0) {
		cm->stats.rx[m.hdr.attr_id - IRDMA_CM_ATTR_REQ]++;
		switch (m.hdr.attr_id) {
		case IRDMA_CM_ATTR_REQ: rc = rx_req(cm, from, &m, now); break;
		case IRDMA_CM_ATTR_MRA: rc = rx_mra(cm, &m, now); break;
		case IRDMA_CM_ATTR_REJ: rc = rx_rej(cm, &m, now); break;
		case IRDMA_CM_ATTR_REP: rc = rx_rep(cm, &m, now); break;
		case IRDMA_CM_ATTR_RTU: rc = rx_rtu(cm, &m); break;
		case IRDMA_CM_ATTR_DREQ: rc = rx_dreq(cm, from, &m, now); break;
		case IRDMA_CM_ATTR_DREP: rc = rx_drep(cm, &m, now); break;
		default: rc = -IRDMA_CM_R_ATTR; break;
		}
	}
	if (rc < 0 && -rc < IRDMA_CM_R_NUM)
		cm->stats.drops[-rc]++;
	return rc;
}

/* ------------------------------------------------------------------ timers */

uint64_t irdma_cm_next_deadline(const struct irdma_cm *cm)
{
	uint64_t d = IRDMA_CM_TIME_NEVER;

	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++)
		if (cm->conns[i].state != IRDMA_CM_IDLE && cm->conns[i].deadline < d)
			d = cm->conns[i].deadline;
	return d;
}

/* A MAD whose answer is late goes again while retries are left: 1 when it went. */
static int retransmit(struct irdma_cm *cm, struct irdma_cm_conn *c, uint64_t now)
{
	if (c->retries == 0)
		return 0;
	c->retries--;
	cm->stats.retransmits++;
	send_mad(cm, &c->peer, c->mad);
	arm(c, now, c->interval);
	return 1;
}

static void expire(struct irdma_cm *cm, struct irdma_cm_conn *c, uint64_t now)
{
	int id = conn_id(cm, c);

	c->deadline = IRDMA_CM_TIME_NEVER;
	switch (c->state) {
	case IRDMA_CM_REQ_SENT:
	case IRDMA_CM_MRA_REQ_RCVD:
	case IRDMA_CM_REP_SENT:
	case IRDMA_CM_MRA_REP_RCVD:
		if (retransmit(cm, c, now))
			return;
		qp_error(cm, c);
		conn_free(c);
		report(cm, c, IRDMA_CM_EVENT_UNREACHABLE, id, -ETIMEDOUT, NULL, NULL, 0);
		return;
	case IRDMA_CM_DREQ_SENT:
		if (retransmit(cm, c, now))
			return;
		enter_timewait(c, now);
		report(cm, c, IRDMA_CM_EVENT_DISCONNECTED, id, -ETIMEDOUT, NULL, NULL, 0);
		return;
	case IRDMA_CM_TIMEWAIT:
		conn_free(c);
		report(cm, c, IRDMA_CM_EVENT_TIMEWAIT_EXIT, id, 0, NULL, NULL, 0);
		return;
	default:
		return;
	}
}

void irdma_cm_timer(struct irdma_cm *cm, uint64_t now)
{
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		struct irdma_cm_conn *c = &cm->conns[i];

		if (c->state != IRDMA_CM_IDLE && c->deadline <= now)
			expire(cm, c, now);
	}
}

/* ------------------------------------------------------------------ queries */

enum irdma_cm_state irdma_cm_get_state(const struct irdma_cm *cm, int id)
{
	const struct irdma_cm_conn *c = conn_of((struct irdma_cm *)cm, id);

	return c ? c->state : IRDMA_CM_IDLE;
}

int irdma_cm_set_user(struct irdma_cm *cm, int id, void *user)
{
	struct irdma_cm_conn *c = conn_of(cm, id);

	if (!c)
		return -EINVAL;
	c->user = user;
	return 0;
}

const char *irdma_cm_state_name(enum irdma_cm_state state)
{
	static const char *const names[IRDMA_CM_STATE_NUM] = {
		[IRDMA_CM_IDLE] = "IDLE", [IRDMA_CM_REQ_SENT] = "REQ_SENT",
		[IRDMA_CM_REQ_RCVD] = "REQ_RCVD", [IRDMA_CM_MRA_REQ_SENT] = "MRA_REQ_SENT",
		[IRDMA_CM_MRA_REQ_RCVD] = "MRA_REQ_RCVD", [IRDMA_CM_REP_SENT] = "REP_SENT",
		[IRDMA_CM_REP_RCVD] = "REP_RCVD", [IRDMA_CM_MRA_REP_SENT] = "MRA_REP_SENT",
		[IRDMA_CM_MRA_REP_RCVD] = "MRA_REP_RCVD", [IRDMA_CM_ESTABLISHED] = "ESTABLISHED",
		[IRDMA_CM_DREQ_SENT] = "DREQ_SENT", [IRDMA_CM_DREQ_RCVD] = "DREQ_RCVD",
		[IRDMA_CM_TIMEWAIT] = "TIMEWAIT",
	};

	return (unsigned int)state < IRDMA_CM_STATE_NUM ? names[state] : "unknown";
}

const char *irdma_cm_event_name(enum irdma_cm_event_type type)
{
	static const char *const names[IRDMA_CM_EVENT_NUM] = {
		[IRDMA_CM_EVENT_REQ_RECEIVED] = "REQ_RECEIVED",
		[IRDMA_CM_EVENT_ESTABLISHED] = "ESTABLISHED",
		[IRDMA_CM_EVENT_REJECTED] = "REJECTED",
		[IRDMA_CM_EVENT_UNREACHABLE] = "UNREACHABLE",
		[IRDMA_CM_EVENT_CONNECT_ERROR] = "CONNECT_ERROR",
		[IRDMA_CM_EVENT_DISCONNECTED] = "DISCONNECTED",
		[IRDMA_CM_EVENT_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
	};

	return (unsigned int)type < IRDMA_CM_EVENT_NUM ? names[type] : "unknown";
}
