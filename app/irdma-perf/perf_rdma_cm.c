/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-perf -R: perftest's rdma_cm mode (see perf_rdma_cm.h). */
#include "perf_rdma_cm.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include "roce_hdr.h" /* the big-endian field readers and writers */
#include "tool_gid.h"

#define CM_BUF_HALF 256u
#define CM_TRIES 10          /* perftest's retry_rdma_connect: 10 REQs, 100 ms apart */
#define CM_RETRY_NS 100000000ull
enum { WR_SEND = 1, WR_RECV };

static int cm_fail(struct perf_cm *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int cm_fail(struct perf_cm *c, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	fprintf(stderr, "irdma-perf: rdma_cm: %s\n", c->err);
	return rc;
}

/* lid, out_reads, qpn, psn, rkey at 0..19, 4 bytes of padding, vaddr at 24, the GID at
 * 32, srqn at 48, gid_index at 52 (not read by the peer). */
void perf_cm_dest_encode(const struct perftest_dest *d, uint8_t out[PERF_CM_DEST_LEN])
{
	memset(out, 0, PERF_CM_DEST_LEN);
	roce_put_be32(out + 0, d->lid);
	roce_put_be32(out + 4, d->out_reads);
	roce_put_be32(out + 8, d->qpn);
	roce_put_be32(out + 12, d->psn);
	roce_put_be32(out + 16, d->rkey);
	roce_put_be32(out + 24, (uint32_t)(d->vaddr >> 32));
	roce_put_be32(out + 28, (uint32_t)d->vaddr);
	memcpy(out + 32, d->gid, 16);
	roce_put_be32(out + 48, d->srqn);
}

int perf_cm_dest_decode(const uint8_t *in, size_t len, struct perftest_dest *d)
{
	if (len < PERF_CM_DEST_LEN)
		return -EPROTO;
	memset(d, 0, sizeof(*d));
	d->lid = (uint16_t)roce_get_be32(in);
	d->out_reads = (uint16_t)roce_get_be32(in + 4);
	d->qpn = roce_get_be32(in + 8) & 0xffffff;
	d->psn = roce_get_be32(in + 12) & 0xffffff;
	d->rkey = roce_get_be32(in + 16);
	d->vaddr = (uint64_t)roce_get_be32(in + 24) << 32 | roce_get_be32(in + 28);
	memcpy(d->gid, in + 32, 16);
	d->srqn = roce_get_be32(in + 48);
	return 0;
}

static int post_recv(struct perf_cm *c)
{
	struct rte_pmd_irdma_sge sge = { .addr = (uint64_t)(uintptr_t)(c->buf + CM_BUF_HALF),
		.length = CM_BUF_HALF, .lkey = c->mr->lkey };
	struct rte_pmd_irdma_recv_wr wr = { .wr_id = WR_RECV, .sg_list = &sge, .num_sge = 1 };
	int err = 0;

	c->recv_done = false;
	if (rte_pmd_irdma_post_recv(c->qp, &wr, 1, &err) != 1)
		return cm_fail(c, err ? err : -EIO, "cannot post the exchange's receive");
	return 0;
}

/* What the CM reported since the last look, kept per connection. */
struct cm_seen {
	int req_id;                    /* a CONNECT_REQUEST not yet taken */
	int established[2];            /* ids that reached ESTABLISHED */
	int failed_id, fail_status;
	enum irdma_rcm_event_type fail_type;
};

static struct cm_seen nothing_seen(void)
{
	return (struct cm_seen){ .req_id = -1, .established = { -1, -1 }, .failed_id = -1 };
}

static bool established(const struct cm_seen *w, int id)
{
	return w->established[0] == id || w->established[1] == id;
}

static void take_events(struct perf_cm *c, struct cm_seen *w)
{
	struct tool_cm_event ev;

	while (tool_cm_next_event(&c->cm, &ev)) {
		switch (ev.type) {
		case IRDMA_RCM_EVENT_CONNECT_REQUEST:
			if (w->req_id < 0)
				w->req_id = ev.id;
			else /* one connection at a time */
				irdma_rcm_reject(&c->cm.rcm, ev.id, NULL, 0, tool_cm_now());
			break;
		case IRDMA_RCM_EVENT_ESTABLISHED:
			w->established[w->established[0] < 0 ? 0 : 1] = ev.id;
			if (ev.id == c->test_id)
				c->test_established = true;
			break;
		case IRDMA_RCM_EVENT_REJECTED:
		case IRDMA_RCM_EVENT_UNREACHABLE:
		case IRDMA_RCM_EVENT_CONNECT_ERROR:
			w->failed_id = ev.id;
			w->fail_type = ev.type;
			w->fail_status = ev.status;
			break;
		case IRDMA_RCM_EVENT_DISCONNECTED:
			if (ev.id == c->comm_id)
				c->comm_id = -1;
			if (ev.id == c->test_id)
				c->test_id = -1;
			break;
		default:
			break;
		}
	}
}

/* One round: the CM, the comm QP's CQ, and the caller's idle step (the test side). */
static int pump(struct perf_cm *c, struct cm_seen *w)
{
	struct rte_pmd_irdma_wc wc[4];
	int n, i;

	tool_cm_step(&c->cm);
	take_events(c, w);
	n = c->qp ? rte_pmd_irdma_poll_cq(c->cq, wc, RTE_DIM(wc)) : 0;
	for (i = 0; i < n; i++) {
		if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
			if (wc[i].status == RTE_PMD_IRDMA_WC_WR_FLUSH_ERR)
				continue;
			return cm_fail(c, -EIO, "exchange %s completed with %s",
				       wc[i].wr_id == WR_SEND ? "SEND" : "receive",
				       rte_pmd_irdma_wc_status_str(wc[i].status));
		}
		if (wc[i].wr_id == WR_RECV) {
			c->recv_done = true;
			c->recv_len = wc[i].byte_len;
		}
	}
	if (c->idle)
		c->idle(c->idle_arg);
	return 0;
}

static uint64_t deadline_of(int timeout_ms)
{
	return timeout_ms < 0 ? UINT64_MAX : tool_cm_now() + (uint64_t)timeout_ms * 1000000ull;
}

static int qp_create(struct perf_cm *c)
{
	struct rte_pmd_irdma_cq_init_attr cqa = { .cqe = 16, .comp_fd = -1 };

	c->pd = rte_pmd_irdma_pd_alloc(c->dev);
	c->buf = rte_zmalloc("irdma_perf_cm", 2 * CM_BUF_HALF, 64);
	if (!c->pd || !c->buf)
		return cm_fail(c, -ENOMEM, "no memory for the exchange's QP");
	c->mr = rte_pmd_irdma_reg_mr(c->pd, c->buf, 2 * CM_BUF_HALF,
				     RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	c->cq = rte_pmd_irdma_cq_create(c->dev, &cqa);
	if (!c->mr || !c->cq)
		return cm_fail(c, -rte_errno, "exchange MR/CQ: %s", rte_strerror(rte_errno));
	c->qp = tool_cm_rc_qp(c->pd, c->cq, 4, 4);
	if (!c->qp)
		return cm_fail(c, -rte_errno, "exchange QP: %s", rte_strerror(rte_errno));
	return 0;
}

/* Client: REQ to the server's port until it is accepted (a REJ means the server does not
 * listen yet: again 100 ms later). Returns the connection id or a negative errno. */
static int connect_to(struct perf_cm *c, struct rte_pmd_irdma_qp *qp, uint8_t reads,
		      const char *what)
{
	const int tmo = (int)c->o->timeout_s * 1000;
	struct cm_seen w = nothing_seen();
	int id = -1, rc;

	const uint64_t give_up = deadline_of(tmo);
	int tries;

	/* perftest's client gives up after 10 refused REQs; a server under emulation can
	 * take longer than that to listen again, so refused REQs go on until --timeout */
	for (tries = 1; tries <= CM_TRIES || tool_cm_now() < give_up; tries++) {
		struct irdma_rcm_connect_param p;
		uint64_t end = deadline_of(tmo);

		memset(&p, 0, sizeof(p));
		if (tool_cm_parse_ip(c->o->server_host, p.dst.gid, &p.dst.ip_version) < 0)
			return cm_fail(c, -EINVAL, "'%s' is not an IP address (with -R the server "
				       "host is its RoCE address)", c->o->server_host);
		p.ps = IRDMA_CM_PS_TCP;
		p.dst.port = c->o->tcp_port;
		p.src.ip_version = p.dst.ip_version;
		p.src.port = (uint16_t)(32768 + rte_rand() % 28232);
		p.responder_resources = reads;
		p.initiator_depth = reads;
		p.retry_count = 7;
		p.rnr_retry_count = 7;
		p.traffic_class = c->o->tos;
		id = tool_cm_connect(&c->cm, qp, &p);
		if (id < 0)
			return cm_fail(c, id, "%s: connect: %s", what, strerror(-id));
		w = nothing_seen();
		while (!established(&w, id) && w.failed_id != id && tool_cm_now() < end) {
			rc = pump(c, &w);
			if (rc < 0)
				return rc;
		}
		if (established(&w, id))
			return id;
		if (w.failed_id != id)
			return cm_fail(c, -ETIMEDOUT, "%s: no answer from %s port %u within %u s",
				       what, c->o->server_host, c->o->tcp_port, c->o->timeout_s);
		if (w.fail_type != IRDMA_RCM_EVENT_REJECTED)
			return cm_fail(c, -ECONNREFUSED, "%s: %s (%d)", what,
				       irdma_rcm_event_name(w.fail_type), w.fail_status);
		/* refused: the server is not listening (yet) */
		end = tool_cm_now() + CM_RETRY_NS;
		while (tool_cm_now() < end)
			if ((rc = pump(c, &w)) < 0)
				return rc;
	}
	return cm_fail(c, -ECONNREFUSED, "%s: %s port %u refused %d connection requests "
		       "(REJ reason %d)", what, c->o->server_host, c->o->tcp_port, tries - 1,
		       w.fail_status);
}

/* Server: the next CONNECT_REQUEST, accepted on qp (posting the exchange's receive when
 * qp is the comm QP). Returns the connection id or a negative errno. */
static int accept_next(struct perf_cm *c, struct rte_pmd_irdma_qp *qp, uint8_t reads,
		       const char *what, int timeout_ms)
{
	struct cm_seen w = nothing_seen();
	struct irdma_cm_accept_param ap;
	uint64_t end = deadline_of(timeout_ms);
	int rc;

	while (w.req_id < 0 && tool_cm_now() < end)
		if ((rc = pump(c, &w)) < 0)
			return rc;
	if (w.req_id < 0)
		return cm_fail(c, -ETIMEDOUT, "%s: no connection request on port %u within %u s",
			       what, c->o->tcp_port, c->o->timeout_s);
	memset(&ap, 0, sizeof(ap));
	ap.responder_resources = reads;
	ap.initiator_depth = reads;
	ap.rnr_retry_count = 7;
	ap.min_rnr_timer = 12;
	rc = tool_cm_accept(&c->cm, qp, w.req_id, &ap);
	if (rc < 0) {
		irdma_rcm_reject(&c->cm.rcm, w.req_id, NULL, 0, tool_cm_now());
		return cm_fail(c, rc, "%s: accept: %s", what, strerror(-rc));
	}
	return w.req_id;
}

/* Waits for the comm receive (data before the RTU also establishes the connection). */
static int wait_recv(struct perf_cm *c, int timeout_ms)
{
	struct cm_seen w = nothing_seen();
	uint64_t end = deadline_of(timeout_ms);
	int rc;

	while (!c->recv_done) {
		if (c->comm_id < 0)
			return cm_fail(c, -ECONNRESET, "the peer disconnected the exchange");
		if (tool_cm_now() > end)
			return cm_fail(c, -ETIMEDOUT, "no exchange message within %d ms", timeout_ms);
		if ((rc = pump(c, &w)) < 0)
			return rc;
	}
	if (irdma_cm_get_state(&c->cm.rcm.cm, c->comm_id) == IRDMA_CM_REP_SENT)
		irdma_cm_established(&c->cm.rcm.cm, c->comm_id, tool_cm_now());
	return 0;
}

static int send_msg(struct perf_cm *c, const void *data, size_t len)
{
	struct rte_pmd_irdma_sge sge = { .addr = (uint64_t)(uintptr_t)c->buf,
		.length = (uint32_t)len, .lkey = c->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	int err = 0;

	memcpy(c->buf, data, len);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_SEND;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	if (rte_pmd_irdma_post_send(c->qp, &wr, 1, &err) != 1)
		return cm_fail(c, err ? err : -EIO, "cannot post the exchange's SEND");
	return 0;
}

static int take_msg(struct perf_cm *c, void *out, size_t len)
{
	if (c->recv_len != len)
		return cm_fail(c, -EPROTO, "exchange message of %u bytes where perftest sends %zu",
			       c->recv_len, len);
	memcpy(out, c->buf + CM_BUF_HALF, len);
	return post_recv(c);
}

/* One message each way, the client's first. */
static int cm_swap_raw(struct perf_cm *c, const void *tx, void *rx, size_t n, int timeout_ms)
{
	int rc;

	if (c->client) {
		rc = send_msg(c, tx, n);
		if (rc == 0)
			rc = wait_recv(c, timeout_ms);
	} else {
		rc = wait_recv(c, timeout_ms);
		if (rc == 0)
			rc = send_msg(c, tx, n);
	}
	return rc == 0 ? take_msg(c, rx, n) : rc;
}

/* struct perftest_conn's transport: one SEND each way (client first). Records go as
 * perftest's binary struct. */
static int cm_swap(void *arg, enum oob_role role, const void *mine, void *theirs, size_t len,
		   int timeout_ms)
{
	struct perf_cm *c = arg;
	uint8_t out[PERF_CM_DEST_LEN], in[PERF_CM_DEST_LEN];
	const void *tx = mine;
	void *rx = theirs;
	size_t n = len;
	int rc;

	if (len == PERFTEST_DEST_LEN) {
		struct perftest_dest d;

		if (perftest_dest_decode(mine, len, &d) < 0)
			return -EPROTO;
		perf_cm_dest_encode(&d, out);
		tx = out;
		rx = in;
		n = PERF_CM_DEST_LEN;
	}
	(void)role; /* the same as c->client */
	rc = cm_swap_raw(c, tx, rx, n, timeout_ms);
	if (rc == 0 && len == PERFTEST_DEST_LEN) {
		struct perftest_dest d;

		if (perf_cm_dest_decode(in, n, &d) < 0 || perftest_dest_encode(&d, theirs) < 0)
			return -EPROTO;
	}
	return rc;
}

int perf_cm_start(struct perf_cm *c, const struct perf_opts *o, struct rte_pmd_irdma_dev *dev,
		  struct perftest_conn *conn, int mtu_enum, int (*idle)(void *), void *idle_arg)
{
	struct irdma_rcm_addr any = { .ip_version = 4, .port = o->tcp_port };
	int rc, id;

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->dev = dev;
	c->client = o->server_host != NULL;
	c->comm_id = c->test_id = c->comm_conn = c->test_conn = -1;
	c->idle = idle;
	c->idle_arg = idle_arg;
	rc = tool_cm_init(&c->cm, dev, (unsigned int)tool_best_gid_index(dev), 0);
	if (rc < 0)
		return rc;
	rc = qp_create(c);
	if (rc < 0)
		return rc;
	if (c->client) {
		id = connect_to(c, c->qp, 0, "exchange connection");
		if (id < 0)
			return id;
		c->comm_id = c->comm_conn = id;
		/* the QP went to RTS before the RTU left: the receive is in time for the
		 * server's first answer */
		rc = post_recv(c);
	} else {
		rc = irdma_rcm_listen(&c->cm.rcm, IRDMA_CM_PS_TCP, &any, c);
		if (rc < 0)
			return cm_fail(c, rc, "cannot listen on port %u: %s", o->tcp_port,
				       strerror(-rc));
		if (o->output == PERF_OUT_FULL) {
			printf("\n************************************\n"
			       "* Waiting for client to connect... *\n"
			       "************************************\n");
			fflush(stdout);
		}
		id = accept_next(c, c->qp, 0, "exchange connection", (int)o->timeout_s * 1000);
		if (id < 0)
			return id;
		c->comm_id = c->comm_conn = id;
		rc = post_recv(c);
	}
	if (rc < 0)
		return rc;
	rc = perftest_conn_start_swap(conn, c->client ? OOB_CLIENT : OOB_SERVER,
				      (int)o->timeout_s * 1000, mtu_enum, cm_swap, c, idle, idle_arg);
	if (rc < 0)
		fprintf(stderr, "irdma-perf: rdma_cm: exchange failed at the %s step%s%s\n",
			conn->failed_step ? conn->failed_step : "?", c->err[0] ? ": " : "", c->err);
	return rc;
}

int perf_cm_connect_test(struct perf_cm *c, struct perf_res *r)
{
	const enum perf_mode m = c->o->mode;
	/* perftest asks for responder resources and initiator depth only for READ and atomics */
	uint8_t reads = m == PERF_READ_LAT || m == PERF_READ_BW || m == PERF_ATOMIC_LAT ||
				m == PERF_ATOMIC_BW ? (uint8_t)RTE_MIN(r->out_reads, 255u) : 0;
	uint8_t zero[PERF_CM_DEST_LEN] = { 0 }, got[PERF_CM_DEST_LEN];
	int id, rc;

	/* perftest syncs with one record each way first (its records are not filled in yet:
	 * zeros); the server listens before it answers, so the client's REQ finds it */
	rc = cm_swap_raw(c, zero, got, sizeof(zero), (int)c->o->timeout_s * 1000);
	if (rc < 0)
		return cm_fail(c, rc, "the sync before the test connection failed");
	if (c->client)
		id = connect_to(c, r->qp, reads, "test connection");
	else
		id = accept_next(c, r->qp, reads, "test connection", (int)c->o->timeout_s * 1000);
	if (id < 0)
		return id;
	c->test_id = c->test_conn = id;
	/* and once more after it (zeros again: the records come later) */
	rc = cm_swap_raw(c, zero, got, sizeof(zero), (int)c->o->timeout_s * 1000);
	if (rc < 0)
		return cm_fail(c, rc, "the sync after the test connection failed");
	return 0;
}

void perf_cm_close(struct perf_cm *c)
{
	struct cm_seen w = nothing_seen();
	uint64_t end;

	if (!c->dev)
		return;
	if (c->test_id >= 0)
		irdma_rcm_disconnect(&c->cm.rcm, c->test_id, tool_cm_now());
	if (c->comm_id >= 0)
		irdma_rcm_disconnect(&c->cm.rcm, c->comm_id, tool_cm_now());
	/* the DREPs (or the peer's DREQs), half a second at most */
	end = tool_cm_now() + 500000000ull;
	c->idle = NULL;
	while ((c->test_id >= 0 || c->comm_id >= 0) && tool_cm_now() < end)
		if (pump(c, &w) < 0)
			break;
	/* timewait or a peer that never answered: free both now */
	if (c->test_conn >= 0)
		irdma_rcm_destroy(&c->cm.rcm, c->test_conn, tool_cm_now());
	if (c->comm_conn >= 0)
		irdma_rcm_destroy(&c->cm.rcm, c->comm_conn, tool_cm_now());
	end = tool_cm_now() + 20000000ull;
	while (tool_cm_now() < end)
		tool_cm_step(&c->cm);
	if (c->qp)
		rte_pmd_irdma_qp_destroy(c->qp);
	if (c->cq)
		rte_pmd_irdma_cq_destroy(c->cq);
	if (c->mr)
		rte_pmd_irdma_dereg_mr(c->mr);
	if (c->pd)
		rte_pmd_irdma_pd_free(c->pd);
	rte_free(c->buf);
	memset(c, 0, sizeof(*c));
}
