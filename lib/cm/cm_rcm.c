/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM over the IB CM: the IP header in the REQ, listeners by address and port
 * (doc/spec/rdma-cm.md §8). Every REQ that the IB CM hands up is either matched
 * to a listener and reported as CONNECT_REQUEST, or refused with REJ 28 as Linux does.
 */
#include <errno.h>
#include <string.h>

#include "cm_rcm.h"

static const uint8_t zero_gid[16];

static struct irdma_rcm_conn *rconn(struct irdma_rcm *r, int id)
{
	unsigned int slot = IRDMA_CM_ID_SLOT(id);

	if (id < 0 || slot >= IRDMA_CM_MAX_CONNS || r->conns[slot].id != id)
		return NULL;
	return &r->conns[slot];
}

static int is_local(const struct irdma_rcm *r, const uint8_t *gid)
{
	for (unsigned int i = 0; i < r->cfg.n_local_gids; i++)
		if (!memcmp(r->cfg.local_gids[i], gid, 16))
			return 1;
	return 0;
}

static int ip_version_of(const uint8_t *gid)
{
	static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

	return memcmp(gid, v4_prefix, 12) ? 6 : 4;
}

/* ------------------------------------------------------------------ IB CM callbacks */

static int cm_send(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len)
{
	struct irdma_rcm *r = ctx;

	return r->ops->send(r->ctx, to, mad, len);
}

static int cm_qp_modify(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *a)
{
	struct irdma_rcm *r = ctx;

	return r->ops->qp_modify(r->ctx, id, user, a);
}

static const struct irdma_rcm_listener *match_listener(const struct irdma_rcm *r,
						       enum irdma_cm_ps ps,
						       const struct irdma_rcm_addr *dst)
{
	const struct irdma_rcm_listener *wild = NULL;

	for (unsigned int i = 0; i < IRDMA_RCM_MAX_LISTENERS; i++) {
		const struct irdma_rcm_listener *l = &r->listeners[i];

		if (!l->used || l->ps != ps || l->addr.port != dst->port)
			continue;
		if (!memcmp(l->addr.gid, zero_gid, 16)) {
			/* A v6 wildcard takes both families (Linux's default, afonly off). */
			if ((l->addr.ip_version == dst->ip_version || l->addr.ip_version == 6) &&
			    (!wild || wild->addr.ip_version != dst->ip_version))
				wild = l;
		} else if (l->addr.ip_version == dst->ip_version &&
			   !memcmp(l->addr.gid, dst->gid, 16)) {
			return l; /* a bound address beats the wildcard */
		}
	}
	return wild;
}

static void refuse(struct irdma_rcm *r, int id)
{
	r->rejected_requests++;
	irdma_cm_reject(&r->cm, id, IRDMA_CM_REJ_CONSUMER, NULL, 0, 0);
}

static void on_req(struct irdma_rcm *r, const struct irdma_cm_event *ev)
{
	const struct irdma_cm_req *req = &ev->msg->req;
	const struct irdma_rcm_listener *l;
	struct irdma_rcm_conn_info info;
	struct irdma_cm_ip_hdr ip;
	struct irdma_rcm_event out;
	struct irdma_rcm_conn *rc;
	enum irdma_cm_ps ps;
	uint16_t port;

	if (irdma_cm_service_id_parse(req->service_id, &ps, &port) ||
	    irdma_cm_ip_hdr_parse(req->private_data, IRDMA_CM_REQ_PD_LEN, &ip) ||
	    !is_local(r, ip.dst_gid)) {
		refuse(r, ev->id);
		return;
	}
	memset(&info, 0, sizeof(info));
	info.src = (struct irdma_rcm_addr){ .ip_version = ip.ip_version, .port = ip.src_port };
	memcpy(info.src.gid, ip.src_gid, 16);
	info.dst = (struct irdma_rcm_addr){ .ip_version = ip.ip_version, .port = port };
	memcpy(info.dst.gid, ip.dst_gid, 16);
	l = match_listener(r, ps, &info.dst);
	if (!l) {
		refuse(r, ev->id);
		return;
	}
	info.ps = ps;
	info.remote_qpn = req->local_qpn;
	info.responder_resources = req->initiator_depth;
	info.initiator_depth = req->responder_resources;
	info.retry_count = req->retry_count;
	info.rnr_retry_count = req->rnr_retry_count;
	info.srq = req->srq;
	rc = &r->conns[IRDMA_CM_ID_SLOT(ev->id)];
	rc->id = ev->id;
	rc->src = info.dst;
	rc->dst = info.src;
	out = (struct irdma_rcm_event){ .type = IRDMA_RCM_EVENT_CONNECT_REQUEST, .id = ev->id,
		.user = ev->user, .listen_ctx = l->ctx, .info = &info,
		.private_data = req->private_data + IRDMA_CM_IP_HDR_LEN,
		.private_data_len = IRDMA_CM_REQ_USER_PD_LEN };
	r->ops->event(r->ctx, &out);
}

static void cm_event(void *ctx, const struct irdma_cm_event *ev)
{
	static const enum irdma_rcm_event_type map[IRDMA_CM_EVENT_NUM] = {
		[IRDMA_CM_EVENT_REQ_RECEIVED] = IRDMA_RCM_EVENT_CONNECT_REQUEST,
		[IRDMA_CM_EVENT_ESTABLISHED] = IRDMA_RCM_EVENT_ESTABLISHED,
		[IRDMA_CM_EVENT_REJECTED] = IRDMA_RCM_EVENT_REJECTED,
		[IRDMA_CM_EVENT_UNREACHABLE] = IRDMA_RCM_EVENT_UNREACHABLE,
		[IRDMA_CM_EVENT_CONNECT_ERROR] = IRDMA_RCM_EVENT_CONNECT_ERROR,
		[IRDMA_CM_EVENT_DISCONNECTED] = IRDMA_RCM_EVENT_DISCONNECTED,
		[IRDMA_CM_EVENT_TIMEWAIT_EXIT] = IRDMA_RCM_EVENT_TIMEWAIT_EXIT,
	};
	struct irdma_rcm *r = ctx;
	struct irdma_rcm_conn *rc = rconn(r, ev->id);
	struct irdma_rcm_event out;

	if (ev->type == IRDMA_CM_EVENT_REQ_RECEIVED) {
		on_req(r, ev);
		return;
	}
	if (!rc || (unsigned int)ev->type >= IRDMA_CM_EVENT_NUM)
		return; /* a REQ we refused, seen again on its way out */
	/* The IB CM freed the connection with these events. */
	if (ev->type == IRDMA_CM_EVENT_REJECTED || ev->type == IRDMA_CM_EVENT_UNREACHABLE ||
	    ev->type == IRDMA_CM_EVENT_CONNECT_ERROR || ev->type == IRDMA_CM_EVENT_TIMEWAIT_EXIT) {
		if (irdma_cm_get_state(&r->cm, ev->id) == IRDMA_CM_IDLE)
			rc->id = -1;
	}
	out = (struct irdma_rcm_event){ .type = map[ev->type], .id = ev->id, .status = ev->status,
		.user = ev->user, .private_data = ev->private_data,
		.private_data_len = ev->private_data_len };
	r->ops->event(r->ctx, &out);
}

static const struct irdma_cm_ops rcm_cm_ops = { cm_send, cm_qp_modify, cm_event };

/* ------------------------------------------------------------------ API */

int irdma_rcm_init(struct irdma_rcm *r, const struct irdma_rcm_config *cfg,
		   const struct irdma_rcm_ops *ops, void *ctx)
{
	int rc;

	if (!r || !cfg || !ops || !ops->send || !ops->qp_modify || !ops->event ||
	    cfg->n_local_gids > IRDMA_RCM_MAX_ADDRS)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	rc = irdma_cm_init(&r->cm, &cfg->cm, &rcm_cm_ops, r);
	if (rc)
		return rc;
	r->cfg = *cfg;
	r->ops = ops;
	r->ctx = ctx;
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++)
		r->conns[i].id = -1;
	return 0;
}

int irdma_rcm_listen(struct irdma_rcm *r, enum irdma_cm_ps ps, const struct irdma_rcm_addr *addr,
		     void *listen_ctx)
{
	struct irdma_rcm_listener *free_l = NULL;
	uint64_t sid;
	int shared = 0, rc;

	/* RC only: UDP needs SIDR, IB port space carries no IP header. */
	if (!addr || ps != IRDMA_CM_PS_TCP || (addr->ip_version != 4 && addr->ip_version != 6))
		return -EINVAL;
	if (memcmp(addr->gid, zero_gid, 16) &&
	    (!is_local(r, addr->gid) || ip_version_of(addr->gid) != addr->ip_version))
		return -EINVAL;
	for (unsigned int i = 0; i < IRDMA_RCM_MAX_LISTENERS; i++) {
		struct irdma_rcm_listener *l = &r->listeners[i];

		if (!l->used) {
			if (!free_l)
				free_l = l;
			continue;
		}
		if (l->ps != ps || l->addr.port != addr->port)
			continue;
		shared = 1;
		if (l->addr.ip_version == addr->ip_version && !memcmp(l->addr.gid, addr->gid, 16))
			return -EADDRINUSE;
	}
	if (!free_l)
		return -ENOSPC;
	sid = irdma_cm_service_id(ps, addr->port);
	if (!shared) {
		rc = irdma_cm_listen(&r->cm, sid, NULL);
		if (rc)
			return rc;
	}
	*free_l = (struct irdma_rcm_listener){ .ps = ps, .addr = *addr, .ctx = listen_ctx, .used = 1 };
	return 0;
}

int irdma_rcm_connect(struct irdma_rcm *r, const struct irdma_rcm_connect_param *p, uint64_t now)
{
	struct irdma_cm_connect_param cp;
	uint8_t pd[IRDMA_CM_REQ_PD_LEN] = { 0 };
	struct irdma_cm_ip_hdr ip;
	int id;

	if (!p || p->ps != IRDMA_CM_PS_TCP || p->src.ip_version != p->dst.ip_version ||
	    (p->src.ip_version != 4 && p->src.ip_version != 6) ||
	    p->private_data_len > IRDMA_CM_REQ_USER_PD_LEN ||
	    (p->private_data_len && !p->private_data))
		return -EINVAL;
	ip = (struct irdma_cm_ip_hdr){ .version = IRDMA_CM_IP_HDR_VERSION,
		.ip_version = p->src.ip_version, .src_port = p->src.port };
	memcpy(ip.src_gid, p->src.gid, 16);
	memcpy(ip.dst_gid, p->dst.gid, 16);
	if (irdma_cm_ip_hdr_build(&ip, pd, sizeof(pd)) < 0)
		return -EINVAL;
	if (p->private_data_len)
		memcpy(pd + IRDMA_CM_IP_HDR_LEN, p->private_data, p->private_data_len);
	cp = (struct irdma_cm_connect_param){
		.service_id = irdma_cm_service_id(p->ps, p->dst.port), .qpn = p->qpn,
		.responder_resources = p->responder_resources,
		.initiator_depth = p->initiator_depth, .retry_count = p->retry_count,
		.rnr_retry_count = p->rnr_retry_count, .path_mtu = p->path_mtu, .srq = p->srq,
		.flow_label = irdma_cm_flow_label(p->src.port, p->dst.port),
		.traffic_class = p->traffic_class, .hop_limit = p->hop_limit ? p->hop_limit : 64,
		.private_data = pd, .private_data_len = sizeof(pd), .user = p->user,
	};
	memcpy(cp.sgid, p->src.gid, 16);
	memcpy(cp.dgid, p->dst.gid, 16);
	id = irdma_cm_connect(&r->cm, &cp, now);
	if (id >= 0)
		r->conns[IRDMA_CM_ID_SLOT(id)] =
			(struct irdma_rcm_conn){ .id = id, .src = p->src, .dst = p->dst };
	return id;
}

int irdma_rcm_accept(struct irdma_rcm *r, int id, const struct irdma_cm_accept_param *param,
		     uint64_t now)
{
	return rconn(r, id) ? irdma_cm_accept(&r->cm, id, param, now) : -EINVAL;
}

int irdma_rcm_reject(struct irdma_rcm *r, int id, const void *private_data, size_t len,
		     uint64_t now)
{
	struct irdma_rcm_conn *rc = rconn(r, id);
	int ret;

	if (!rc)
		return -EINVAL;
	ret = irdma_cm_reject(&r->cm, id, IRDMA_CM_REJ_CONSUMER, private_data, len, now);
	if (!ret)
		rc->id = -1;
	return ret;
}

int irdma_rcm_disconnect(struct irdma_rcm *r, int id, uint64_t now)
{
	return rconn(r, id) ? irdma_cm_disconnect(&r->cm, id, now) : -EINVAL;
}

int irdma_rcm_destroy(struct irdma_rcm *r, int id, uint64_t now)
{
	struct irdma_rcm_conn *rc = rconn(r, id);
	int ret;

	if (!rc)
		return -EINVAL;
	ret = irdma_cm_destroy(&r->cm, id, now);
	rc->id = -1;
	return ret;
}

int irdma_rcm_rx(struct irdma_rcm *r, const struct irdma_cm_addr *from, const uint8_t *mad,
		 size_t len, uint64_t now)
{
	return irdma_cm_rx(&r->cm, from, mad, len, now);
}

void irdma_rcm_timer(struct irdma_rcm *r, uint64_t now)
{
	irdma_cm_timer(&r->cm, now);
}

uint64_t irdma_rcm_next_deadline(const struct irdma_rcm *r)
{
	return irdma_cm_next_deadline(&r->cm);
}

int irdma_rcm_get_addrs(const struct irdma_rcm *r, int id, struct irdma_rcm_addr *local,
			struct irdma_rcm_addr *remote)
{
	const struct irdma_rcm_conn *rc = rconn((struct irdma_rcm *)r, id);

	if (!rc)
		return -EINVAL;
	if (local)
		*local = rc->src;
	if (remote)
		*remote = rc->dst;
	return 0;
}

const char *irdma_rcm_event_name(enum irdma_rcm_event_type type)
{
	static const char *const names[IRDMA_RCM_EVENT_NUM] = {
		[IRDMA_RCM_EVENT_CONNECT_REQUEST] = "CONNECT_REQUEST",
		[IRDMA_RCM_EVENT_ESTABLISHED] = "ESTABLISHED",
		[IRDMA_RCM_EVENT_REJECTED] = "REJECTED",
		[IRDMA_RCM_EVENT_UNREACHABLE] = "UNREACHABLE",
		[IRDMA_RCM_EVENT_CONNECT_ERROR] = "CONNECT_ERROR",
		[IRDMA_RCM_EVENT_DISCONNECTED] = "DISCONNECTED",
		[IRDMA_RCM_EVENT_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
	};

	return (unsigned int)type < IRDMA_RCM_EVENT_NUM ? names[type] : "unknown";
}
