/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/cm RDMA-CM layer. Against the rxe capture (doc/spec/rdma-cm.md §9): the REQ our
 * active side builds for the same parameters is Linux's REQ byte for byte once the
 * random fields (comm ID, TID, PSN) are copied over; fed Linux's REQ, RTU and DREQ, our
 * passive side answers with Linux's REP and DREP. Then two endpoints back to back through
 * a lossy link: listener matching, private data, rejects, IPv6.
 */
#include <errno.h>

#include "irdma_test.h"
#include "cm_capture.h"
#include "cm_rcm.h"

#define MS 1000000ull
#define GUID_C 0x505400fffe000012ull
#define GUID_S 0x505400fffe000011ull

struct rev {
	enum irdma_rcm_event_type type;
	int id;
	int status;
	void *listen_ctx;
	struct irdma_rcm_conn_info info;
	uint8_t pd[IRDMA_CM_REP_PD_LEN];
	size_t pd_len;
};

struct rep {
	struct irdma_rcm r;
	struct irdma_cm_addr addr;
	struct rep *peer;
	uint8_t q[64][IRDMA_CM_MAD_LEN];
	int qn;
	uint8_t sent[64][IRDMA_CM_MAD_LEN];
	int nsent;
	unsigned int loss_pct;
	uint64_t rng;
	struct rev ev[32];
	int nev;
	struct irdma_cm_qp_attr qa[16];
	int nqa;
	int auto_accept, auto_disconnect;
	struct irdma_cm_accept_param ap;
	int req_id;
};

static uint64_t now;
static struct rep C, S;

static int r_send(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len)
{
	struct rep *e = ctx;

	(void)to;
	if (e->nsent < 64)
		memcpy(e->sent[e->nsent++], mad, len);
	if (e->loss_pct) {
		e->rng = e->rng * 6364136223846793005ull + 1442695040888963407ull;
		if ((e->rng >> 33) % 100 < e->loss_pct)
			return 0;
	}
	if (e->qn < 64)
		memcpy(e->q[e->qn++], mad, len);
	return 0;
}

static int r_qp_modify(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *a)
{
	struct rep *e = ctx;

	(void)id;
	(void)user;
	if (e->nqa < 16)
		e->qa[e->nqa++] = *a;
	return 0;
}

static void r_event(void *ctx, const struct irdma_rcm_event *ev)
{
	struct rep *e = ctx;

	if (e->nev < 32) {
		struct rev *r = &e->ev[e->nev++];

		memset(r, 0, sizeof(*r));
		r->type = ev->type;
		r->id = ev->id;
		r->status = ev->status;
		r->listen_ctx = ev->listen_ctx;
		if (ev->info)
			r->info = *ev->info;
		r->pd_len = ev->private_data_len;
		if (ev->private_data)
			memcpy(r->pd, ev->private_data,
			       ev->private_data_len < sizeof(r->pd) ? ev->private_data_len : sizeof(r->pd));
	}
	if (ev->type == IRDMA_RCM_EVENT_CONNECT_REQUEST) {
		e->req_id = ev->id;
		if (e->auto_accept)
			irdma_rcm_accept(&e->r, ev->id, &e->ap, now);
	}
	if (ev->type == IRDMA_RCM_EVENT_DISCONNECTED && e->auto_disconnect)
		irdma_rcm_disconnect(&e->r, ev->id, now);
}

static const struct irdma_rcm_ops r_ops = { r_send, r_qp_modify, r_event };

static void gid4(uint8_t *g, uint8_t host)
{
	memset(g, 0, 16);
	g[10] = g[11] = 0xff;
	g[12] = 198;
	g[13] = 18;
	g[15] = host;
}

static void rep_init(struct rep *e, struct rep *peer, uint64_t guid, uint8_t host, uint64_t seed)
{
	struct irdma_rcm_config cfg = {
		.cm = { .local_ca_guid = guid, .ca_ack_delay = 15, .packet_life_time = 18,
			.cm_response_timeout = 20, .max_cm_retries = 15, .mra_service_timeout = 24,
			.hi_tid = 2, .seed = seed },
		.n_local_gids = 2,
	};

	memset(e, 0, sizeof(*e));
	e->peer = peer;
	e->rng = seed;
	gid4(e->addr.gid, host);
	gid4(cfg.local_gids[0], host);
	/* and an IPv6 address fd00::<host> */
	cfg.local_gids[1][0] = 0xfd;
	cfg.local_gids[1][15] = host;
	T_EQ(irdma_rcm_init(&e->r, &cfg, &r_ops, e), 0);
	e->auto_disconnect = 1;
}

static int deliver(struct rep *e)
{
	static uint8_t q[64][IRDMA_CM_MAD_LEN];
	int n = e->qn;

	memcpy(q, e->q, sizeof(q[0]) * (size_t)n);
	e->qn = 0;
	for (int i = 0; i < n; i++)
		irdma_rcm_rx(&e->peer->r, &e->addr, q[i], IRDMA_CM_MAD_LEN, now);
	return n;
}

static void pump(void)
{
	while (deliver(&C) + deliver(&S))
		;
}

static void run(uint64_t limit)
{
	uint64_t until = now + limit;

	pump();
	for (;;) {
		uint64_t a = irdma_rcm_next_deadline(&C.r), b = irdma_rcm_next_deadline(&S.r);
		uint64_t d = a < b ? a : b;

		if (d == IRDMA_CM_TIME_NEVER || d > until)
			break;
		if (d > now)
			now = d;
		irdma_rcm_timer(&C.r, now);
		irdma_rcm_timer(&S.r, now);
		pump();
	}
}

static const struct rev *last_ev(const struct rep *e)
{
	return e->nev ? &e->ev[e->nev - 1] : NULL;
}

static const struct rev *last_of(const struct rep *e, enum irdma_rcm_event_type t)
{
	for (int i = e->nev - 1; i >= 0; i--)
		if (e->ev[i].type == t)
			return &e->ev[i];
	return NULL;
}

static int count_ev(const struct rep *e, enum irdma_rcm_event_type t)
{
	int n = 0;

	for (int i = 0; i < e->nev; i++)
		n += e->ev[i].type == t;
	return n;
}

static struct irdma_rcm_addr addr4(uint8_t host, uint16_t port)
{
	struct irdma_rcm_addr a = { .ip_version = 4, .port = port };

	if (host)
		gid4(a.gid, host);
	return a;
}

static struct irdma_rcm_addr addr6(uint8_t host, uint16_t port)
{
	struct irdma_rcm_addr a = { .ip_version = 6, .port = port };

	if (host) {
		a.gid[0] = 0xfd;
		a.gid[15] = host;
	}
	return a;
}

static struct irdma_rcm_connect_param perftest_param(void)
{
	/* ib_write_lat -R as in the capture: conn 1 from port 60281, QP 0x1d. */
	return (struct irdma_rcm_connect_param){ .ps = IRDMA_CM_PS_TCP, .src = addr4(12, 60281),
		.dst = addr4(11, 18515), .qpn = 0x1d, .retry_count = 7, .rnr_retry_count = 7,
		.path_mtu = 3, .hop_limit = 64 };
}

static void setup(void)
{
	now = 5000 * MS;
	rep_init(&C, &S, GUID_C, 12, 11);
	rep_init(&S, &C, GUID_S, 11, 22);
	S.auto_accept = 1;
	S.ap = (struct irdma_cm_accept_param){ .qpn = 0x1e, .rnr_retry_count = 7 };
}

/* Patches a 32-bit big-endian field at MAD offset off. */
static void put32(uint8_t *mad, unsigned int off, uint32_t v)
{
	roce_put_be32(mad + off, v);
}

T_CASE(active_req_equals_linux_req)
{
	struct cap_mad cap[CAP_MAX];
	struct irdma_rcm_connect_param p = perftest_param();
	struct irdma_cm_msg m;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int n, id;

	setup();
	n = cap_load("rdma_cm_rc.pcap", cap, CAP_MAX);
	T_CHECK(n >= 10);
	if (n < 10)
		return;
	id = irdma_rcm_connect(&C.r, &p, now);
	T_CHECK(id >= 0);
	T_EQ(C.nsent, 1);
	T_EQ(irdma_cm_msg_parse(C.sent[0], IRDMA_CM_MAD_LEN, &m), 0);
	/* The random parts. */
	m.hdr.tid = 0x0000000205f73242ull;
	m.req.local_comm_id = 0x4232f705u;
	m.req.starting_psn = 0xad1626;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_MEMEQ(mad, cap[0].mad, IRDMA_CM_MAD_LEN);
	/* Connection 2 differs in its source port (flow label, IP header) and QP. */
	p.src.port = 43297;
	p.qpn = 0x1e;
	id = irdma_rcm_connect(&C.r, &p, now);
	T_CHECK(id >= 0);
	T_EQ(irdma_cm_msg_parse(C.sent[1], IRDMA_CM_MAD_LEN, &m), 0);
	m.hdr.tid = 0x0000000205f73241ull;
	m.req.local_comm_id = 0x4132f705u;
	m.req.starting_psn = 0xc51c6e;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(cap[3].frame, 24);
	T_MEMEQ(mad, cap[3].mad, IRDMA_CM_MAD_LEN);
	/* The active side's RTR/RTS once Linux's REP arrives (its remote ID patched). */
	{
		struct irdma_rcm_addr l, r;

		T_EQ(irdma_rcm_get_addrs(&C.r, id, &l, &r), 0);
		T_EQ(l.port, 43297);
		T_EQ(r.port, 18515);
	}
}

T_CASE(passive_answers_linux_req_rtu_dreq_like_linux)
{
	struct cap_mad cap[CAP_MAX];
	struct irdma_rcm_addr any = addr4(0, 18515);
	struct irdma_cm_msg rep, drep;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	const struct irdma_cm_qp_attr *rtr, *rts;
	uint32_t my_id;
	int n;

	setup();
	n = cap_load("rdma_cm_rc.pcap", cap, CAP_MAX);
	T_CHECK(n >= 10);
	if (n < 10)
		return;
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &any, &S), 0);
	T_EQ(irdma_rcm_rx(&S.r, &C.addr, cap[0].mad, IRDMA_CM_MAD_LEN, now), 0);
	T_EQ(S.nev, 1);
	T_EQ(S.ev[0].type, IRDMA_RCM_EVENT_CONNECT_REQUEST);
	T_CHECK(S.ev[0].listen_ctx == &S);
	T_EQ(S.ev[0].info.src.port, 60281);
	T_MEMEQ(S.ev[0].info.src.gid, C.addr.gid, 16);
	T_EQ(S.ev[0].info.dst.port, 18515);
	T_MEMEQ(S.ev[0].info.dst.gid, S.addr.gid, 16);
	T_EQ(S.ev[0].info.ps, IRDMA_CM_PS_TCP);
	T_EQ(S.ev[0].info.remote_qpn, 0x1d);
	T_EQ(S.ev[0].info.retry_count, 7);
	T_EQ(S.ev[0].info.rnr_retry_count, 7);
	T_EQ(S.ev[0].pd_len, IRDMA_CM_REQ_USER_PD_LEN);

	/* Our REP is Linux's once our comm ID and PSN are replaced by its own. */
	T_EQ(S.nsent, 1);
	T_EQ(irdma_cm_msg_parse(S.sent[0], IRDMA_CM_MAD_LEN, &rep), 0);
	my_id = rep.rep.local_comm_id;
	rtr = &S.qa[1];
	rts = &S.qa[2];
	T_EQ(S.nqa, 3);
	T_EQ(rtr->rq_psn, rep.rep.starting_psn);
	rep.rep.local_comm_id = 0xc3367f51u;
	rep.rep.starting_psn = 0x5a1d1e;
	T_EQ(irdma_cm_msg_build(&rep, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_MEMEQ(mad, cap[1].mad, IRDMA_CM_MAD_LEN);
	/* The passive QP, from the REQ: it sends from the REQ's PSN (§7). */
	T_EQ(rtr->state, IRDMA_CM_QPS_RTR);
	T_EQ(rtr->dest_qpn, 0x1d);
	T_EQ(rtr->path_mtu, 3);
	T_EQ(rtr->flow_label, 0xccbfa);
	T_EQ(rtr->hop_limit, 64);
	T_MEMEQ(rtr->dgid, C.addr.gid, 16);
	T_EQ(rts->state, IRDMA_CM_QPS_RTS);
	T_EQ(rts->sq_psn, 0xad1626);
	T_EQ(rts->retry_cnt, 7);
	T_EQ(rts->rnr_retry, 7);
	T_EQ(rts->timeout, 19);
	T_EQ(rts->max_rd_atomic, 0);
	T_EQ(rtr->max_dest_rd_atomic, 0);

	/* Linux's RTU (naming our comm ID) establishes the connection. */
	memcpy(mad, cap[2].mad, sizeof(mad));
	put32(mad, 28, my_id);
	T_EQ(irdma_rcm_rx(&S.r, &C.addr, mad, sizeof(mad), now), 0);
	T_EQ(last_ev(&S)->type, IRDMA_RCM_EVENT_ESTABLISHED);

	/* Linux's DREQ for connection 1: DISCONNECTED, and our DREP is Linux's. */
	T_EQ(cap[8].frame, 69);
	memcpy(mad, cap[8].mad, sizeof(mad));
	put32(mad, 28, my_id);
	T_EQ(irdma_rcm_rx(&S.r, &C.addr, mad, sizeof(mad), now), 0);
	T_EQ(last_ev(&S)->type, IRDMA_RCM_EVENT_DISCONNECTED);
	T_EQ(S.nsent, 2);
	T_EQ(irdma_cm_msg_parse(S.sent[1], IRDMA_CM_MAD_LEN, &drep), 0);
	T_EQ(drep.hdr.attr_id, IRDMA_CM_ATTR_DREP);
	drep.drep.local_comm_id = 0xc3367f51u;
	T_EQ(irdma_cm_msg_build(&drep, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_MEMEQ(mad, cap[9].mad, IRDMA_CM_MAD_LEN);
	T_EQ(S.qa[S.nqa - 1].state, IRDMA_CM_QPS_ERR);
}

T_CASE(active_takes_linux_rep_and_sends_linux_rtu)
{
	struct cap_mad cap[CAP_MAX];
	struct irdma_rcm_connect_param p = perftest_param();
	struct irdma_cm_msg rtu, req;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int n, id;

	setup();
	n = cap_load("rdma_cm_rc.pcap", cap, CAP_MAX);
	T_CHECK(n >= 10);
	if (n < 10)
		return;
	id = irdma_rcm_connect(&C.r, &p, now);
	T_EQ(irdma_cm_msg_parse(C.sent[0], IRDMA_CM_MAD_LEN, &req), 0);
	memcpy(mad, cap[1].mad, sizeof(mad));
	put32(mad, 28, req.req.local_comm_id); /* REP remote comm ID */
	T_EQ(irdma_rcm_rx(&C.r, &S.addr, mad, sizeof(mad), now), 0);
	T_EQ(last_ev(&C)->type, IRDMA_RCM_EVENT_ESTABLISHED);
	T_EQ(last_ev(&C)->pd_len, IRDMA_CM_REP_PD_LEN);
	T_EQ(C.nqa, 3);
	T_EQ(C.qa[1].state, IRDMA_CM_QPS_RTR);
	T_EQ(C.qa[1].dest_qpn, 0x1e);
	T_EQ(C.qa[1].rq_psn, req.req.starting_psn);
	T_EQ(C.qa[2].sq_psn, 0x5a1d1e); /* REP PSN, as frame 4 shows on the wire */
	T_EQ(C.qa[2].rnr_retry, 7);
	T_EQ(C.qa[2].timeout, 19);
	T_EQ(irdma_cm_msg_parse(C.sent[1], IRDMA_CM_MAD_LEN, &rtu), 0);
	rtu.hdr.tid = 0x0000000205f73242ull;
	rtu.rtu.local_comm_id = 0x4232f705u;
	T_EQ(irdma_cm_msg_build(&rtu, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_MEMEQ(mad, cap[2].mad, IRDMA_CM_MAD_LEN);
	(void)id;
}

T_CASE(back_to_back_with_private_data_v4_and_v6)
{
	static const uint8_t hello[IRDMA_CM_REQ_USER_PD_LEN] = "client private data, 56 bytes max";
	static const uint8_t world[] = "server private data";
	for (int v6 = 0; v6 < 2; v6++) {
		struct irdma_rcm_connect_param p = perftest_param();
		struct irdma_rcm_addr any = v6 ? addr6(0, 7174) : addr4(0, 7174);
		struct irdma_rcm_addr l, r;
		int id;

		setup();
		S.ap.private_data = world;
		S.ap.private_data_len = sizeof(world);
		S.ap.qpn = 0x20;
		S.ap.responder_resources = S.ap.initiator_depth = 1;
		T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &any, NULL), 0);
		p.src = v6 ? addr6(12, 49763) : addr4(12, 49763);
		p.dst = v6 ? addr6(11, 7174) : addr4(11, 7174);
		p.responder_resources = p.initiator_depth = 1;
		p.private_data = hello;
		p.private_data_len = sizeof(hello);
		id = irdma_rcm_connect(&C.r, &p, now);
		T_CHECK(id >= 0);
		run(1000 * MS);
		T_EQ(S.ev[0].type, IRDMA_RCM_EVENT_CONNECT_REQUEST);
		T_MEMEQ(S.ev[0].pd, hello, sizeof(hello));
		T_EQ(S.ev[0].info.src.ip_version, v6 ? 6 : 4);
		T_MEMEQ(S.ev[0].info.src.gid, p.src.gid, 16);
		T_EQ(S.ev[0].info.responder_resources, 1);
		T_EQ(C.ev[0].type, IRDMA_RCM_EVENT_ESTABLISHED);
		T_MEMEQ(C.ev[0].pd, world, sizeof(world));
		T_EQ(count_ev(&S, IRDMA_RCM_EVENT_ESTABLISHED), 1);
		T_EQ(irdma_rcm_get_addrs(&S.r, S.req_id, &l, &r), 0);
		T_MEMEQ(l.gid, p.dst.gid, 16);
		T_EQ(l.port, 7174);
		T_MEMEQ(r.gid, p.src.gid, 16);
		T_EQ(r.port, 49763);
		T_EQ(irdma_rcm_disconnect(&C.r, id, now), 0);
		run(100000 * MS);
		T_EQ(count_ev(&C, IRDMA_RCM_EVENT_TIMEWAIT_EXIT), 1);
		T_EQ(count_ev(&S, IRDMA_RCM_EVENT_TIMEWAIT_EXIT), 1);
		T_EQ(irdma_rcm_get_addrs(&C.r, id, &l, &r), -EINVAL);
		T_EQ(irdma_rcm_disconnect(&C.r, id, now), -EINVAL);
	}
}

T_CASE(listener_matching_by_address_and_port)
{
	struct irdma_rcm_connect_param p = perftest_param();
	struct irdma_rcm_addr bound = addr4(11, 18515), any4 = addr4(0, 18515);
	struct irdma_rcm_addr v6 = addr6(11, 18515), other = addr4(99, 18515);
	int tag_bound, tag_any, tag_v6;

	setup();
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &bound, &tag_bound), 0);
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &any4, &tag_any), 0);
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &v6, &tag_v6), 0);
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &bound, NULL), -EADDRINUSE);
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &other, NULL), -EINVAL); /* not ours */
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_UDP, &any4, NULL), -EINVAL);
	bound.ip_version = 6; /* an IPv4-mapped GID as IPv6 */
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &bound, NULL), -EINVAL);
	bound.ip_version = 4;

	/* To the bound address: the bound listener, not the wildcard. */
	irdma_rcm_connect(&C.r, &p, now);
	pump();
	T_CHECK(S.ev[0].listen_ctx == &tag_bound);
	/* IPv6 to fd00::11. */
	p.src = addr6(12, 1000);
	p.dst = v6;
	p.qpn = 0x2d; /* the same QP again would be a stale connection (REJ 10) */
	irdma_rcm_connect(&C.r, &p, now);
	pump();
	T_CHECK(last_of(&S, IRDMA_RCM_EVENT_CONNECT_REQUEST)->listen_ctx == &tag_v6);
	T_EQ(count_ev(&C, IRDMA_RCM_EVENT_ESTABLISHED), 2);

	/* A port nobody listens on: REJ 8 from the IB CM. */
	p = perftest_param();
	p.dst.port = 1;
	p.qpn = 0x3d;
	irdma_rcm_connect(&C.r, &p, now);
	pump();
	T_EQ(last_ev(&C)->type, IRDMA_RCM_EVENT_REJECTED);
	T_EQ(last_ev(&C)->status, IRDMA_CM_REJ_INVALID_SERVICE_ID);
	/* A destination address that is not the server's: REJ 28, counted. */
	p = perftest_param();
	p.dst = other;
	p.qpn = 0x4d;
	irdma_rcm_connect(&C.r, &p, now);
	pump();
	T_EQ(last_ev(&C)->type, IRDMA_RCM_EVENT_REJECTED);
	T_EQ(last_ev(&C)->status, IRDMA_CM_REJ_CONSUMER);
	T_EQ(S.r.rejected_requests, 1);
}

T_CASE(wildcard_v6_takes_v4_and_bad_ip_header_refused)
{
	struct irdma_rcm_connect_param p = perftest_param();
	struct irdma_rcm_addr any6 = addr6(0, 18515);
	struct irdma_cm_msg m;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int tag;

	setup();
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &any6, &tag), 0);
	irdma_rcm_connect(&C.r, &p, now);
	pump();
	T_CHECK(S.ev[0].listen_ctx == &tag);
	T_EQ(count_ev(&C, IRDMA_RCM_EVENT_ESTABLISHED), 1);

	/* A REQ whose IP header has version 1: refused with REJ 28. */
	T_EQ(irdma_cm_msg_parse(C.sent[0], IRDMA_CM_MAD_LEN, &m), 0);
	m.req.local_comm_id ^= 1;
	m.req.local_qpn ^= 1;
	m.req.private_data[0] = 1;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_rcm_rx(&S.r, &C.addr, mad, sizeof(mad), now), 0);
	T_EQ(S.r.rejected_requests, 1);
	{
		struct irdma_cm_msg rej;

		T_EQ(irdma_cm_msg_parse(S.sent[S.nsent - 1], IRDMA_CM_MAD_LEN, &rej), 0);
		T_EQ(rej.hdr.attr_id, IRDMA_CM_ATTR_REJ);
		T_EQ(rej.rej.reason, IRDMA_CM_REJ_CONSUMER);
		T_EQ(rej.rej.remote_comm_id, m.req.local_comm_id);
	}
	T_EQ(count_ev(&S, IRDMA_RCM_EVENT_CONNECT_REQUEST), 1);
}

T_CASE(application_reject_and_arguments)
{
	static const uint8_t why[] = "no thanks";
	struct irdma_rcm_connect_param p = perftest_param();
	struct irdma_rcm_addr any = addr4(0, 18515);
	uint8_t big[IRDMA_CM_REQ_USER_PD_LEN + 1] = { 0 };

	setup();
	S.auto_accept = 0;
	T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &any, NULL), 0);
	irdma_rcm_connect(&C.r, &p, now);
	pump();
	T_EQ(irdma_rcm_reject(&S.r, S.req_id, why, sizeof(why), now), 0);
	pump();
	T_EQ(last_ev(&C)->type, IRDMA_RCM_EVENT_REJECTED);
	T_EQ(last_ev(&C)->status, 28);
	T_EQ(last_ev(&C)->pd_len, IRDMA_CM_REJ_PD_LEN);
	T_MEMEQ(last_ev(&C)->pd, why, sizeof(why));
	T_EQ(irdma_rcm_reject(&S.r, S.req_id, NULL, 0, now), -EINVAL);
	T_EQ(irdma_rcm_accept(&S.r, S.req_id, &S.ap, now), -EINVAL);

	p.private_data = big;
	p.private_data_len = sizeof(big);
	T_EQ(irdma_rcm_connect(&C.r, &p, now), -EINVAL);
	p.private_data_len = 0;
	p.ps = IRDMA_CM_PS_UDP;
	T_EQ(irdma_rcm_connect(&C.r, &p, now), -EINVAL);
	p.ps = IRDMA_CM_PS_TCP;
	p.dst = addr6(11, 18515); /* families differ */
	T_EQ(irdma_rcm_connect(&C.r, &p, now), -EINVAL);
	T_EQ(irdma_rcm_destroy(&C.r, 999, now), -EINVAL);
	T_CHECK(!strcmp(irdma_rcm_event_name(IRDMA_RCM_EVENT_CONNECT_REQUEST), "CONNECT_REQUEST"));
	T_CHECK(!strcmp(irdma_rcm_event_name(IRDMA_RCM_EVENT_NUM), "unknown"));
	T_EQ(irdma_rcm_init(&C.r, NULL, &r_ops, NULL), -EINVAL);
}

T_CASE(lossy_link_both_directions)
{
	int both = 0;

	for (uint64_t seed = 1; seed <= 100; seed++) {
		struct irdma_rcm_connect_param p = perftest_param();
		struct irdma_rcm_addr any = addr4(0, 18515);
		int id;

		setup();
		C.rng = seed;
		S.rng = seed + 1000;
		C.loss_pct = S.loss_pct = 30;
		T_EQ(irdma_rcm_listen(&S.r, IRDMA_CM_PS_TCP, &any, NULL), 0);
		id = irdma_rcm_connect(&C.r, &p, now);
		run(10000000 * MS);
		if (count_ev(&C, IRDMA_RCM_EVENT_ESTABLISHED) && count_ev(&S, IRDMA_RCM_EVENT_ESTABLISHED))
			both++;
		if (count_ev(&C, IRDMA_RCM_EVENT_ESTABLISHED))
			T_EQ(irdma_rcm_disconnect(&C.r, id, now), 0);
		run(10000000 * MS);
		for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++)
			if (S.r.conns[i].id >= 0)
				irdma_rcm_destroy(&S.r, S.r.conns[i].id, now);
		T_CHECK_MSG(irdma_rcm_next_deadline(&C.r) == IRDMA_CM_TIME_NEVER, "seed %llu",
			    (unsigned long long)seed);
		for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
			T_EQ(C.r.cm.conns[i].state, IRDMA_CM_IDLE);
			T_EQ(S.r.cm.conns[i].state, IRDMA_CM_IDLE);
			T_EQ(C.r.conns[i].id, -1);
		}
	}
	printf("# 30%% loss both ways: %d of 100 connected on both sides\n", both);
	T_CHECK(both > 90);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
