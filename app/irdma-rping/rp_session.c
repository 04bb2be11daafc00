/* SPDX-License-Identifier: BSD-3-Clause */
/* irdma-rping's endpoint (see rp_session.h). */
#include "rp_session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include "tool_gid.h"

enum { WRID_RECV = 1, WRID_SEND, WRID_READ, WRID_WRITE };

static const char *wrid_name(uint64_t wr_id)
{
	static const char *const names[] = { "?", "receive", "send", "RDMA READ", "RDMA WRITE" };

	return wr_id < RTE_DIM(names) ? names[wr_id] : "?";
}

#define RP_MSG_FMT "rdma-ping-%u: "
#define DEBUG(s, ...) do { if ((s)->o->debug) fprintf((s)->out, __VA_ARGS__); } while (0)

static int fail(struct rp_session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct rp_session *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(s->err, fmt, ap);
	va_end(ap);
	fputc('\n', s->err);
	s->state = RP_FAILED;
	s->status = err;
	return -1;
}

static void set_state(struct rp_session *s, enum rp_state st)
{
	s->state = st;
	s->last_progress = tool_cm_now();
}

static int post_recv(struct rp_session *s)
{
	struct rte_pmd_irdma_sge sge = { .addr = (uint64_t)(uintptr_t)s->recv_buf,
		.length = sizeof(*s->recv_buf), .lkey = s->mr->lkey };
	struct rte_pmd_irdma_recv_wr wr = { .wr_id = WRID_RECV, .sg_list = &sge, .num_sge = 1 };
	int err = 0;

	if (rte_pmd_irdma_post_recv(s->qp, &wr, 1, &err) != 1)
		return fail(s, err ? err : -EIO, "post recv error: %s", strerror(err ? -err : EIO));
	return 0;
}

static int post(struct rp_session *s, uint64_t wr_id, enum rte_pmd_irdma_wr_opcode op,
		void *local, uint32_t len)
{
	struct rte_pmd_irdma_sge sge = { .addr = (uint64_t)(uintptr_t)local, .length = len,
		.lkey = s->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	int err = 0;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = op;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	if (op != RTE_PMD_IRDMA_WR_SEND) {
		wr.wr.rdma.remote_addr = s->remote_addr;
		wr.wr.rdma.rkey = s->remote_rkey;
	}
	if (rte_pmd_irdma_post_send(s->qp, &wr, 1, &err) != 1)
		return fail(s, err ? err : -EIO, "post send error: %s", strerror(err ? -err : EIO));
	return 0;
}

/* The advertisement of buf (the client's source or sink), sent. */
static int send_adv(struct rp_session *s, char *buf)
{
	s->send_buf->buf = rte_cpu_to_be_64((uint64_t)(uintptr_t)buf);
	s->send_buf->rkey = rte_cpu_to_be_32(s->mr->rkey);
	s->send_buf->size = rte_cpu_to_be_32(s->o->size);
	DEBUG(s, "RDMA addr %" PRIx64 " rkey %x len %u\n", (uint64_t)(uintptr_t)buf, s->mr->rkey,
	      s->o->size);
	return post(s, WRID_SEND, RTE_PMD_IRDMA_WR_SEND, s->send_buf, sizeof(*s->send_buf));
}

/* rping's ping text: "rdma-ping-<n>: " then letters from 'A' to 'z' cycling, a start
 * letter one further each ping, and a NUL in the last byte. */
static void format_ping(struct rp_session *s)
{
	uint32_t i, size = s->o->size;
	unsigned char c = s->start;
	int cc = snprintf(s->start_buf, size, RP_MSG_FMT, s->ping);

	for (i = (uint32_t)cc; i < size; i++) {
		s->start_buf[i] = (char)c;
		if (++c > 122)
			c = 65;
	}
	if (++s->start > 122)
		s->start = 65;
	s->start_buf[size - 1] = 0;
}

static int client_next_ping(struct rp_session *s)
{
	format_ping(s);
	set_state(s, RP_WAIT_WRITE_ADV);
	return send_adv(s, s->start_buf);
}

static int qp_create(struct rp_session *s)
{
	s->qp = tool_cm_rc_qp(s->pd, s->cq, 16, 2); /* rping's depths */
	if (!s->qp)
		return fail(s, -rte_errno, "cannot create the RC QP: %s", rte_strerror(rte_errno));
	return 0;
}

/* The connection is over: its id and QP go (a persistent server takes the next one). */
static void conn_release(struct rp_session *s)
{
	struct rte_pmd_irdma_wc wc[16];

	if (s->id >= 0)
		irdma_rcm_destroy(&s->cm.rcm, s->id, tool_cm_now());
	s->id = -1;
	if (s->qp) {
		/* what the flush left on the CQ belongs to this QP */
		for (int i = 0; i < 100; i++)
			tool_cm_step(&s->cm);
		while (rte_pmd_irdma_poll_cq(s->cq, wc, RTE_DIM(wc)) > 0)
			;
		rte_pmd_irdma_qp_destroy(s->qp);
		s->qp = NULL;
	}
}

static int find_gid_index(struct rp_session *s, const uint8_t gid[16])
{
	union rte_pmd_irdma_gid g;

	for (unsigned int i = 0; i < 256 && rte_pmd_irdma_query_gid(s->dev, i, &g) == 0; i++)
		if (!memcmp(g.raw, gid, 16))
			return (int)i;
	return -1;
}

static int client_connect(struct rp_session *s)
{
	struct irdma_rcm_connect_param p;
	int id;

	memset(&p, 0, sizeof(p));
	if (tool_cm_parse_ip(s->o->addr, p.dst.gid, &p.dst.ip_version) < 0)
		return fail(s, -EINVAL, "getaddrinfo failed - invalid hostname or IP address: %s",
			    s->o->addr);
	if (qp_create(s) < 0)
		return -1;
	p.ps = IRDMA_CM_PS_TCP;
	p.dst.port = s->o->port;
	p.src.ip_version = p.dst.ip_version;
	p.src.port = (uint16_t)(32768 + rte_rand() % 28232); /* Linux's ephemeral range */
	p.responder_resources = 1;
	p.initiator_depth = 1;
	p.retry_count = 7;
	p.rnr_retry_count = 7;
	p.traffic_class = s->o->tos;
	id = tool_cm_connect(&s->cm, s->qp, &p);
	if (id < 0)
		return fail(s, id, "rdma_connect: %s", strerror(-id));
	s->id = id;
	set_state(s, RP_CONNECTING);
	DEBUG(s, "REQ sent to %s port %u from port %u, QP %#x\n", s->o->addr, s->o->port,
	      p.src.port, s->qp->qp_num);
	return post_recv(s); /* connect moved the QP to INIT */
}

static int server_listen(struct rp_session *s)
{
	struct irdma_rcm_addr a = { .ip_version = 4, .port = s->o->port };
	static const uint8_t any4[16] = { [10] = 0xff, [11] = 0xff };
	int rc;

	if (s->o->addr) {
		if (tool_cm_parse_ip(s->o->addr, a.gid, &a.ip_version) < 0)
			return fail(s, -EINVAL, "getaddrinfo failed - invalid hostname or IP "
				    "address: %s", s->o->addr);
		/* 0.0.0.0 and :: are the wildcard, as for rdma_bind_addr */
		if (!memcmp(a.gid, any4, 16))
			memset(a.gid, 0, 16);
	}
	rc = irdma_rcm_listen(&s->cm.rcm, IRDMA_CM_PS_TCP, &a, s);
	if (rc < 0)
		return fail(s, rc, "rdma_bind_addr: %s port %u: %s", s->o->addr ? s->o->addr : "any",
			    s->o->port, rc == -EINVAL ? "not an address of the device" :
			    strerror(-rc));
	set_state(s, RP_LISTENING);
	DEBUG(s, "listening on %s port %u\n", s->o->addr ? s->o->addr : "any", s->o->port);
	return 0;
}

int rp_session_init(struct rp_session *s, const struct rp_opts *o)
{
	struct rte_pmd_irdma_cq_init_attr cqa = { .cqe = 64, .comp_fd = -1 };
	const char *local = o->server ? o->addr : o->src_addr;
	size_t len = 2 * sizeof(struct rp_rdma_info) + 2 * (size_t)o->size;
	int gid_index = -1;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->out = stdout;
	s->err = stderr;
	s->id = -1;
	s->start = 65;
	s->dev = rte_pmd_irdma_dev_create(o->devargs);
	if (!s->dev)
		return fail(s, -rte_errno, "cannot create the device '%s': %s", o->devargs,
			    rte_strerror(rte_errno));
	if (local) {
		uint8_t gid[16], v;

		if (tool_cm_parse_ip(local, gid, &v) < 0)
			return fail(s, -EINVAL, "getaddrinfo failed - invalid hostname or IP "
				    "address: %s", local);
		gid_index = find_gid_index(s, gid);
	}
	if (gid_index < 0)
		gid_index = tool_best_gid_index(s->dev);
	if (!o->server && o->src_addr && gid_index < 0)
		return fail(s, -EINVAL, "-I %s: not an address of the device", o->src_addr);
	if (tool_cm_init(&s->cm, s->dev, (unsigned int)gid_index, o->cm_plt) < 0)
		return fail(s, -EINVAL, "cannot start RDMA-CM on the device");
	s->cm.debug = o->debug > 0;
	s->pd = rte_pmd_irdma_pd_alloc(s->dev);
	if (!s->pd)
		return fail(s, -rte_errno, "ibv_alloc_pd failed: %s", rte_strerror(rte_errno));
	s->mem = rte_zmalloc("irdma_rping", len, 64);
	if (!s->mem)
		return fail(s, -ENOMEM, "cannot allocate %zu bytes of buffers", len);
	s->recv_buf = (struct rp_rdma_info *)s->mem;
	s->send_buf = s->recv_buf + 1;
	s->rdma_buf = (char *)(s->send_buf + 1);
	s->start_buf = s->rdma_buf + o->size;
	s->mr = rte_pmd_irdma_reg_mr(s->pd, s->mem, len, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE |
				     RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
				     RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	if (!s->mr)
		return fail(s, -rte_errno, "ibv_reg_mr failed: %s", rte_strerror(rte_errno));
	s->cq = rte_pmd_irdma_cq_create(s->dev, &cqa);
	if (!s->cq)
		return fail(s, -rte_errno, "ibv_create_cq failed: %s", rte_strerror(rte_errno));
	return o->server ? server_listen(s) : client_connect(s);
}

static int on_connect_request(struct rp_session *s, const struct tool_cm_event *ev)
{
	struct irdma_cm_accept_param ap;
	int rc;

	if (s->state != RP_LISTENING) {
		/* one connection at a time, as rping without -P waits in rdma_accept */
		irdma_rcm_reject(&s->cm.rcm, ev->id, NULL, 0, tool_cm_now());
		DEBUG(s, "connection request while busy: rejected\n");
		return 0;
	}
	if (qp_create(s) < 0)
		return -1;
	memset(&ap, 0, sizeof(ap));
	ap.responder_resources = RTE_MIN(ev->info.responder_resources, 1);
	ap.initiator_depth = RTE_MIN(ev->info.initiator_depth, 1);
	ap.rnr_retry_count = 7;
	ap.min_rnr_timer = 12;
	s->id = ev->id;
	rc = tool_cm_accept(&s->cm, s->qp, ev->id, &ap);
	if (rc < 0) {
		irdma_rcm_reject(&s->cm.rcm, ev->id, NULL, 0, tool_cm_now());
		s->id = -1;
		return fail(s, rc, "rdma_accept: %s", strerror(-rc));
	}
	DEBUG(s, "accepting client connection request (peer QP %#x)\n", ev->info.remote_qpn);
	set_state(s, RP_CONNECTING);
	return post_recv(s);
}

/* The connection ended by the peer's DREQ (or our DREQ's DREP). */
static void on_disconnected(struct rp_session *s)
{
	fprintf(s->err, "%s DISCONNECT EVENT...\n", s->o->server ? "server" : "client");
	if (s->o->server && s->o->persistent) {
		conn_release(s);
		s->connections++;
		set_state(s, RP_LISTENING);
		return;
	}
	if (s->o->server)
		s->connections++;
	set_state(s, RP_DONE);
}

static int handle_cm_events(struct rp_session *s)
{
	struct tool_cm_event ev;

	while (tool_cm_next_event(&s->cm, &ev)) {
		if (ev.type != IRDMA_RCM_EVENT_CONNECT_REQUEST && ev.id != s->id)
			continue; /* a connection already released (rejected, timewait) */
		switch (ev.type) {
		case IRDMA_RCM_EVENT_CONNECT_REQUEST:
			if (on_connect_request(s, &ev) < 0)
				return -1;
			break;
		case IRDMA_RCM_EVENT_ESTABLISHED:
			DEBUG(s, "ESTABLISHED\n");
			if (s->state != RP_CONNECTING)
				break; /* the server saw data first */
			if (s->o->server)
				set_state(s, RP_WAIT_READ_ADV);
			else if (client_next_ping(s) < 0)
				return -1;
			break;
		case IRDMA_RCM_EVENT_REJECTED:
		case IRDMA_RCM_EVENT_UNREACHABLE:
		case IRDMA_RCM_EVENT_CONNECT_ERROR:
			fprintf(s->err, "cma event RDMA_CM_EVENT_%s, error %d\n",
				irdma_rcm_event_name(ev.type), ev.status);
			if (s->o->server && s->o->persistent) {
				conn_release(s);
				set_state(s, RP_LISTENING);
				break;
			}
			return fail(s, ev.type == IRDMA_RCM_EVENT_REJECTED ? -ECONNREFUSED :
				    -ETIMEDOUT, "connect error %d", ev.status);
		case IRDMA_RCM_EVENT_DISCONNECTED:
			on_disconnected(s);
			break;
		default:
			break;
		}
	}
	return 0;
}

static int parse_adv(struct rp_session *s)
{
	s->remote_rkey = rte_be_to_cpu_32(s->recv_buf->rkey);
	s->remote_addr = rte_be_to_cpu_64(s->recv_buf->buf);
	s->remote_len = rte_be_to_cpu_32(s->recv_buf->size);
	DEBUG(s, "Received rkey %x addr %" PRIx64 " len %u from peer\n", s->remote_rkey,
	      s->remote_addr, s->remote_len);
	if (s->remote_len > s->o->size)
		return fail(s, -EMSGSIZE, "the client's buffer (%u bytes) is larger than -S %u: "
			    "use the same -S on both sides", s->remote_len, s->o->size);
	return 0;
}

static int on_recv(struct rp_session *s, uint32_t byte_len)
{
	if (byte_len != sizeof(*s->recv_buf))
		return fail(s, -EPROTO, "Received bogus data, size %u", byte_len);
	if (post_recv(s) < 0)
		return -1;
	if (s->o->server) {
		if (s->state == RP_CONNECTING) {
			/* data before the RTU: the connection is established (the RTU was lost) */
			irdma_cm_established(&s->cm.rcm.cm, s->id, tool_cm_now());
			set_state(s, RP_WAIT_READ_ADV);
		}
		if (s->state == RP_WAIT_READ_ADV) {
			if (parse_adv(s) < 0)
				return -1;
			set_state(s, RP_READING);
			return post(s, WRID_READ, RTE_PMD_IRDMA_WR_RDMA_READ, s->rdma_buf,
				    s->remote_len);
		}
		if (s->state == RP_WAIT_WRITE_ADV) {
			if (parse_adv(s) < 0)
				return -1;
			set_state(s, RP_WRITING);
			return post(s, WRID_WRITE, RTE_PMD_IRDMA_WR_RDMA_WRITE, s->rdma_buf,
				    (uint32_t)strnlen(s->rdma_buf, s->o->size - 1) + 1);
		}
		return fail(s, -EPROTO, "advertisement in state %d", s->state);
	}
	if (s->state == RP_WAIT_WRITE_ADV) {
		set_state(s, RP_WAIT_WRITE_DONE);
		return send_adv(s, s->rdma_buf);
	}
	if (s->state != RP_WAIT_WRITE_DONE)
		return fail(s, -EPROTO, "go-ahead in state %d", s->state);
	if (s->o->validate && memcmp(s->start_buf, s->rdma_buf, s->o->size))
		return fail(s, -EBADMSG, "data mismatch!");
	if (s->o->verbose)
		fprintf(s->out, "ping data: %s\n", s->rdma_buf);
	s->ping++;
	if (s->o->count && s->ping >= s->o->count) {
		set_state(s, RP_DISCONNECTING);
		irdma_rcm_disconnect(&s->cm.rcm, s->id, tool_cm_now());
		return 0;
	}
	return client_next_ping(s);
}

static int handle_completions(struct rp_session *s)
{
	struct rte_pmd_irdma_wc wc[16];
	int n, i;

	if (!s->qp)
		return 0;
	n = rte_pmd_irdma_poll_cq(s->cq, wc, RTE_DIM(wc));
	if (n < 0)
		return fail(s, n, "poll error %d", n);
	for (i = 0; i < n && s->state < RP_DONE; i++) {
		if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
			if (wc[i].status == RTE_PMD_IRDMA_WC_WR_FLUSH_ERR)
				continue; /* the QP went to ERR on a disconnect */
			return fail(s, -EIO, "cq completion failed status %d (%s, %s)",
				    wc[i].status, rte_pmd_irdma_wc_status_str(wc[i].status),
				    wrid_name(wc[i].wr_id));
		}
		s->last_progress = tool_cm_now();
		switch (wc[i].wr_id) {
		case WRID_SEND:
			DEBUG(s, "send completion\n");
			break;
		case WRID_RECV:
			DEBUG(s, "recv completion\n");
			if (on_recv(s, wc[i].byte_len) < 0)
				return -1;
			break;
		case WRID_READ:
			DEBUG(s, "rdma read completion\n");
			if (s->o->verbose)
				fprintf(s->out, "server ping data: %s\n", s->rdma_buf);
			set_state(s, RP_WAIT_WRITE_ADV);
			if (post(s, WRID_SEND, RTE_PMD_IRDMA_WR_SEND, s->send_buf,
				 sizeof(*s->send_buf)) < 0)
				return -1;
			break;
		case WRID_WRITE:
			DEBUG(s, "rdma write completion\n");
			s->ping++;
			set_state(s, RP_WAIT_READ_ADV);
			if (post(s, WRID_SEND, RTE_PMD_IRDMA_WR_SEND, s->send_buf,
				 sizeof(*s->send_buf)) < 0)
				return -1;
			break;
		default:
			return fail(s, -EPROTO, "completion of unknown work request %" PRIu64,
				    wc[i].wr_id);
		}
	}
	return 0;
}

enum rp_state rp_session_step(struct rp_session *s)
{
	uint64_t now;

	if (s->state >= RP_DONE)
		return s->state;
	tool_cm_step(&s->cm);
	if (handle_cm_events(s) < 0 || handle_completions(s) < 0) {
		/* a persistent server outlives a connection that failed (its line is out) */
		if (s->o->server && s->o->persistent && s->dev && s->cm.dev) {
			conn_release(s);
			s->status = 0;
			set_state(s, RP_LISTENING);
		}
		return s->state;
	}
	if (s->state >= RP_DONE)
		return s->state;
	now = tool_cm_now();
	if (s->state == RP_LISTENING && s->o->persistent)
		return s->state; /* a persistent server waits as long as it is left running */
	if (now - s->last_progress > (uint64_t)s->o->timeout_s * 1000000000ull) {
		if (s->state == RP_DISCONNECTING) {
			/* the data went through; the peer just never answered the DREQ */
			fprintf(s->err, "no DREP from the peer within %u s: closing\n",
				s->o->timeout_s);
			set_state(s, RP_DONE);
			return s->state;
		}
		fail(s, -ETIMEDOUT, "nothing happened for %u s (state %d, ping %u): the peer is "
		     "gone or unreachable", s->o->timeout_s, s->state, s->ping);
	}
	return s->state;
}

void rp_session_fini(struct rp_session *s)
{
	if (s->dev) {
		/* a DREP or the last ACKs may still have to leave */
		uint64_t end = tool_cm_now() + 50000000ull;

		if (s->id >= 0 && s->state < RP_DONE && s->state > RP_CONNECTING)
			irdma_rcm_disconnect(&s->cm.rcm, s->id, tool_cm_now());
		while (tool_cm_now() < end)
			tool_cm_step(&s->cm);
		conn_release(s);
	}
	if (s->cq)
		rte_pmd_irdma_cq_destroy(s->cq);
	if (s->mr)
		rte_pmd_irdma_dereg_mr(s->mr);
	if (s->pd)
		rte_pmd_irdma_pd_free(s->pd);
	if (s->dev)
		rte_pmd_irdma_dev_close(s->dev);
	rte_free(s->mem);
	s->dev = NULL;
	s->cq = NULL;
	s->mr = NULL;
	s->pd = NULL;
	s->mem = NULL;
}
