/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One endpoint of irdma-pingpong (ibv_rc_pingpong / ibv_ud_pingpong), compatible on the
 * wire and in the out-of-band exchange (the 52-byte record and "done"), so either side can
 * be a real rdma-core peer.
 *
 * Each side keeps rx_depth receives posted; the client sends first, and each side sends
 * again once its previous send and the peer's next message have both completed. UD
 * messages carry Q_Key 0x11111111 and land after a 40-byte GRH area. Every exchange step
 * and the run itself are bounded by --timeout: a bad option, an unreachable peer, a
 * malformed record or a silent peer ends the program with one line and exit status 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_pmd_irdma.h>
#include <rte_random.h>

#include "pingpong_exchange.h"
#include "pp_session.h"
#include "tool_gid.h"
#include "tool_event.h"
#include "tool_hints.h"
#include "tool_qp.h"

#define WRID_RECV 1
#define WRID_SEND 2
#define PROG "irdma-pingpong"

static int die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int mtu_enum(uint32_t bytes)
{
	int e = 1;

	while (e < 5 && (128u << e) < bytes)
		e++;
	return e;
}

static int post_recvs(struct pp_ctx *c, int n)
{
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)c->buf,
		.length = (uint32_t)c->buf_len,
		.lkey = c->mr->lkey,
	};
	struct rte_pmd_irdma_recv_wr wr = { .wr_id = WRID_RECV, .sg_list = &sge, .num_sge = 1 };
	int i, err = 0;

	for (i = 0; i < n; i++)
		if (rte_pmd_irdma_post_recv(c->qp, &wr, 1, &err) != 1)
			break;
	return i;
}

static int post_send(struct pp_ctx *c)
{
	const uint32_t grh = c->o->ud ? PINGPONG_GRH_LEN : 0;
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)(c->buf + grh),
		.length = c->o->size,
		.lkey = c->mr->lkey,
	};
	struct rte_pmd_irdma_send_wr wr;
	int err = 0;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WRID_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_SEND;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	if (c->o->size <= c->max_inline)
		wr.send_flags |= RTE_PMD_IRDMA_SEND_INLINE;
	if (c->o->ud) {
		wr.wr.ud.ah = c->ah;
		wr.wr.ud.remote_qpn = c->remote_qpn;
		wr.wr.ud.remote_qkey = PINGPONG_UD_QKEY;
	}
	return rte_pmd_irdma_post_send(c->qp, &wr, 1, &err) == 1 ? 0 : err;
}

/* -c, as ibv_*_pingpong checks: the first byte of every page of the message is 0 (what
 * both sides send: the buffer is zeroed and never written by the program). */
static void check_payload(struct pp_ctx *c, unsigned int msg)
{
	const uint32_t grh = c->o->ud ? PINGPONG_GRH_LEN : 0;
	uint32_t i;

	for (i = 0; i < c->o->size; i += 4096)
		if (c->buf[grh + i] != 0) {
			if (c->bad_pages++ == 0)
				fprintf(stderr, PROG ": -c: invalid data in page %u of message %u\n",
					i / 4096, msg);
		}
}

int pp_session_init(struct pp_ctx *c, const struct pp_opts *o)
{
	char devargs[600];
	struct rte_pmd_irdma_cq_init_attr cqa = { .cqe = o->rx_depth + 1, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_cap cap = { 0 };
	struct tool_qp_conn conn;
	char err[160];

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->evfd = -1;
	/* -m: the device's MTU ceiling follows it (the port refuses what it cannot carry) */
	if (o->mtu_set && !strstr(o->devargs, "mtu="))
		snprintf(devargs, sizeof(devargs), "%s,mtu=%u", o->devargs, o->mtu);
	else
		snprintf(devargs, sizeof(devargs), "%s", o->devargs);
	c->dev = rte_pmd_irdma_dev_create(devargs);
	if (!c->dev)
		return die("cannot create the device '%s': %s", devargs, rte_strerror(rte_errno));
	rte_pmd_irdma_dev_info(c->dev, &c->info);
	c->gid_index = o->gid_index < 0 ? tool_best_gid_index(c->dev) : o->gid_index;
	if (o->ud && o->size > c->info.active_mtu)
		return die("-s %u: a UD message must fit the port MTU (%u bytes)", o->size,
			   c->info.active_mtu);
	c->buf_len = o->size + (o->ud ? PINGPONG_GRH_LEN : 0);
	c->buf = rte_zmalloc_socket("irdma_pp_buf", c->buf_len, 4096, c->info.socket_id);
	if (!c->buf)
		return die("cannot allocate a %zu-byte buffer", c->buf_len);
	c->pd = rte_pmd_irdma_pd_alloc(c->dev);
	if (!c->pd)
		return die("PD: %s", rte_strerror(rte_errno));
	c->mr = rte_pmd_irdma_reg_mr(c->pd, c->buf, c->buf_len, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	if (!c->mr)
		return die("MR: %s", rte_strerror(rte_errno));
	if (o->use_events) {
		c->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (c->evfd < 0)
			return die("eventfd: %s", strerror(errno));
		cqa.comp_fd = c->evfd;
	}
	c->cq = rte_pmd_irdma_cq_create(c->dev, &cqa);
	if (!c->cq)
		return die("CQ of %u entries: %s", cqa.cqe, rte_strerror(rte_errno));
	cap.max_send_wr = 1;
	cap.max_recv_wr = o->rx_depth;
	cap.max_send_sge = 1;
	cap.max_recv_sge = 1;
	c->qp = tool_qp_create(c->pd, c->cq, NULL,
			       o->ud ? RTE_PMD_IRDMA_QPT_UD : RTE_PMD_IRDMA_QPT_RC, &cap);
	if (!c->qp)
		return die("%s QP: %s", o->ud ? "UD" : "RC", rte_strerror(rte_errno));
	c->max_inline = cap.max_inline_data;

	tool_qp_conn_init(&conn);
	conn.qkey = PINGPONG_UD_QKEY;
	if (tool_qp_to_init(c->qp, &conn, err, sizeof(err)) < 0)
		return die("%s", err);
	c->routs = post_recvs(c, (int)o->rx_depth);
	if (c->routs < (int)o->rx_depth)
		return die("could only post %d of %u receives", c->routs, o->rx_depth);
	return 0;
}

void pp_session_fini(struct pp_ctx *c)
{
	if (c->qp)
		rte_pmd_irdma_qp_destroy(c->qp);
	if (c->ah)
		rte_pmd_irdma_ah_destroy(c->ah);
	if (c->cq)
		rte_pmd_irdma_cq_destroy(c->cq);
	if (c->mr)
		rte_pmd_irdma_dereg_mr(c->mr);
	if (c->pd)
		rte_pmd_irdma_pd_free(c->pd);
	if (c->dev)
		rte_pmd_irdma_dev_close(c->dev);
	if (c->evfd >= 0)
		close(c->evfd);
	rte_free(c->buf);
	memset(c, 0, sizeof(*c));
	c->evfd = -1;
}

/* RTR and RTS towards @p rem (ibv_rc_pingpong's parameters), or the UD AH. */
static int ctx_connect(struct pp_ctx *c, const struct pingpong_dest *rem, uint32_t my_psn)
{
	struct rte_pmd_irdma_ah_attr ah;
	struct tool_qp_conn conn;
	char err[160];

	tool_qp_conn_init(&conn);
	/* ibv_rc_pingpong asks for hop limit 1, but for RoCEv2 the kernel puts the route's hop
	 * limit in the AV (rxe sends TTL 64); the PMD sends what the AV says, so ask for that
	 * (tool_qp_conn_init's 64). */
	conn.path_mtu = (enum rte_pmd_irdma_mtu)mtu_enum(c->o->mtu);
	conn.dest_qpn = rem->qpn;
	conn.rq_psn = rem->psn;
	conn.sq_psn = my_psn;
	conn.sgid_index = (uint8_t)c->gid_index;
	memcpy(conn.dgid, rem->gid, 16);
	c->remote_qpn = rem->qpn;
	if (tool_qp_to_rts(c->qp, &conn, err, sizeof(err)) < 0)
		return die("%s", err);
	if (c->o->ud) {
		tool_qp_ah_attr(&conn, &ah);
		c->ah = rte_pmd_irdma_ah_create(c->pd, &ah);
		if (!c->ah)
			return die("address handle to the peer: %s", rte_strerror(rte_errno));
	}
	return 0;
}

static void print_addr(const char *which, const struct pingpong_dest *d, bool ud_local)
{
	char gid[INET6_ADDRSTRLEN];
	bool local = which[0] == 'l';

	inet_ntop(AF_INET6, d->gid, gid, sizeof(gid));
	/* rdma-core's layout: "local address:  LID" (two spaces) but "remote address: LID";
	 * ud_pingpong prints a colon after its local PSN. Kept for scripts that parse them. */
	printf("  %s address: %sLID 0x%04x, QPN 0x%06x, PSN 0x%06x%s GID %s\n", which,
	       local ? " " : "", d->lid, d->qpn, d->psn, ud_local ? ":" : ",", gid);
}

static int run(struct pp_ctx *c, bool client)
{
	const struct pp_opts *o = c->o;
	const uint64_t hz = rte_get_tsc_hz(), tmo = hz * o->timeout_s;
	struct rte_pmd_irdma_wc wc[16];
	unsigned int pending = WRID_RECV, scnt = 0, rcnt = 0;
	uint64_t last = rte_rdtsc();
	struct timeval start, end;
	double usec;
	int n, i, rc;

	if (client) {
		rc = post_send(c);
		if (rc)
			return die("post_send: %s", strerror(-rc));
		pending |= WRID_SEND;
	}
	if (o->use_events && rte_pmd_irdma_cq_req_notify(c->cq, 0) < 0)
		return die("cannot arm the CQ");
	gettimeofday(&start, NULL);
	while (rcnt < o->iters || scnt < o->iters) {
		n = rte_pmd_irdma_poll_cq(c->cq, wc, RTE_DIM(wc));
		if (n < 0)
			return die("poll_cq: %s", n == -EIO ? "CQ overflow" : strerror(-n));
		if (n == 0) {
			/* The CQ stays armed from the last event on: a completion after the arm
			 * always writes the eventfd, so none is lost between poll and wait. */
			if (o->use_events) {
				rc = tool_wait_cq_event(c->dev, c->evfd, last + tmo);
				if (rc == 0 && rte_pmd_irdma_cq_req_notify(c->cq, 0) < 0)
					return die("cannot re-arm the CQ");
			} else {
				rc = rte_rdtsc() - last > tmo ? -ETIMEDOUT : 0;
				rte_pmd_irdma_idle(c->dev);
			}
			if (rc == -ETIMEDOUT)
				return die("no completion for %u s (sent %u, received %u of %u): "
					   "the peer is gone or unreachable", o->timeout_s, scnt,
					   rcnt, o->iters);
			if (rc < 0)
				return die("waiting for a completion event: %s", strerror(-rc));
			continue;
		}
		last = rte_rdtsc();
		for (i = 0; i < n; i++) {
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
				bool first = wc[i].status == RTE_PMD_IRDMA_WC_RETRY_EXC_ERR &&
					     scnt == 0 && rcnt == 0;

				return die("%s completion with status %s (vendor_err %#x)%s%s",
					   wc[i].wr_id == WRID_SEND ? "send" : "receive",
					   rte_pmd_irdma_wc_status_str(wc[i].status),
					   wc[i].vendor_err, first ? "; " : "",
					   first ? TOOL_HINT_RETRY_EXC : "");
			}
			if (wc[i].wr_id == WRID_SEND) {
				scnt++;
			} else if (wc[i].wr_id == WRID_RECV) {
				if (o->check)
					check_payload(c, rcnt);
				if (--c->routs <= 1) {
					c->routs += post_recvs(c, (int)o->rx_depth - c->routs);
					if (c->routs < (int)o->rx_depth)
						return die("could not re-post receives (%d posted)",
							   c->routs);
				}
				rcnt++;
			} else {
				return die("completion for unknown wr_id %" PRIu64, wc[i].wr_id);
			}
			pending &= ~(unsigned int)wc[i].wr_id;
			if (scnt < o->iters && !pending) {
				rc = post_send(c);
				if (rc)
					return die("post_send: %s", strerror(-rc));
				pending = WRID_RECV | WRID_SEND;
			}
		}
	}
	gettimeofday(&end, NULL);
	usec = (double)(end.tv_sec - start.tv_sec) * 1e6 + (double)(end.tv_usec - start.tv_usec);
	printf("%" PRIu64 " bytes in %.2f seconds = %.2f Mbit/sec\n",
	       (uint64_t)o->size * o->iters * 2, usec / 1e6,
	       (double)o->size * o->iters * 2 * 8 / usec);
	printf("%u iters in %.2f seconds = %.2f usec/iter\n", o->iters, usec / 1e6,
	       usec / o->iters);
	if (c->bad_pages)
		return die("-c: %u page(s) of the received messages held unexpected data",
			   c->bad_pages);
	return 0;
}

/* Serve for a short while after the last message so our final ACKs leave. */
static void linger(struct pp_ctx *c)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 10;

	while (rte_rdtsc() < end)
		if (rte_pmd_irdma_progress(c->dev, 64) <= 0)
			rte_pmd_irdma_idle(c->dev);
}

/* Idle step of the exchange: the peer's RTR may wait for our ARP/ND answer, and only the
 * application drives an inline engine. */
static int serve(void *arg)
{
	struct pp_ctx *c = arg;

	if (rte_pmd_irdma_progress(c->dev, 64) <= 0)
		rte_pmd_irdma_idle(c->dev);
	return 0;
}

int pp_session_run(struct pp_ctx *c)
{
	const struct pp_opts *o = c->o;
	const int tmo = (int)o->timeout_s * 1000;
	const bool client = o->server_host != NULL;
	struct pingpong_dest my, rem;
	union rte_pmd_irdma_gid gid;
	const char *step = NULL;
	int fd, lfd, rc;

	if (rte_pmd_irdma_query_gid(c->dev, (unsigned int)c->gid_index, &gid) < 0)
		return die("-g %d: the device has no GID at that index", c->gid_index);
	memset(&my, 0, sizeof(my));
	my.qpn = c->qp->qp_num;
	my.psn = (uint32_t)rte_rand() & 0xffffff;
	memcpy(my.gid, gid.raw, 16);
	print_addr("local", &my, o->ud);

	if (client) {
		fd = oob_connect(o->server_host, o->tcp_port, tmo);
		if (fd < 0)
			return die("cannot connect to %s:%u: %s", o->server_host, o->tcp_port,
				   strerror(-fd));
		rc = pingpong_client_exchange_idle(fd, &my, &rem, tmo, &step, serve, c);
		close(fd);
		if (rc < 0)
			return die("exchange with %s:%u failed %s: %s", o->server_host, o->tcp_port,
				   step ? step : "", rc == -EPROTO ? "malformed record" : strerror(-rc));
		if (ctx_connect(c, &rem, my.psn) < 0)
			return -1;
	} else {
		lfd = oob_listen(o->tcp_port);
		if (lfd < 0)
			return die("cannot listen on TCP port %u: %s", o->tcp_port, strerror(-lfd));
		/* the device keeps being served while nobody is there yet */
		fd = oob_accept_idle(lfd, tmo, serve, c);
		close(lfd);
		if (fd < 0)
			return die("no client connected to port %u within %u s", o->tcp_port,
				   o->timeout_s);
		rc = pingpong_server_receive_idle(fd, &rem, tmo, &step, serve, c);
		if (rc == 0 && ctx_connect(c, &rem, my.psn) < 0) {
			close(fd);
			return -1;
		}
		if (rc == 0)
			rc = pingpong_server_reply_idle(fd, &my, tmo, &step, serve, c);
		close(fd);
		if (rc < 0)
			return die("exchange with the client failed %s: %s", step ? step : "",
				   rc == -EPROTO ? "malformed record" : strerror(-rc));
	}
	print_addr("remote", &rem, false);
	fflush(stdout);
	rc = run(c, client);
	if (rc == 0)
		linger(c);
	return rc;
}

