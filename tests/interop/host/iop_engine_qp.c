/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "qp" engine: lib/roce's transport state machines (roce_qp_init/modify/post_send/
 * rx/tx/timer) drive the QP; this file plays the device around them. It keeps posted
 * receives like ibv_*_pingpong does (always some), places received bytes, reports
 * completions to the ping-pong driver and turns tx descriptors into frames. Any drop
 * roce_qp_rx reports that is not a normal flow event fails the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iop_peer.h"
#include "roce_opcode.h"
#include "roce_qp.h"

#define RX_SLOTS 4

struct qp_engine {
	struct roce_qp qp;
	void *mem;
	struct roce_av av;
	uint8_t *bufs[RX_SLOTS];
	uint32_t buflen;
	uint32_t next_slot;
	uint64_t flow_drops;
};

static struct qp_engine *E(struct iop_peer *pr)
{
	return pr->eng_priv;
}

static struct iop_peer *peer_of(struct roce_qp *qp)
{
	return qp->user;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- the device side of lib/roce's callbacks --- */

static int cb_recv_begin(struct roce_qp *qp, uint32_t min_len, uint64_t *cookie)
{
	struct qp_engine *e = E(peer_of(qp));

	if (min_len > e->buflen)
		return -EMSGSIZE;
	/* receives are re-posted as they complete, as the pingpong tools do */
	*cookie = e->next_slot++ % RX_SLOTS;
	return 0;
}

static int cb_recv_place(struct roce_qp *qp, uint64_t cookie, uint32_t off, const void *data,
			 uint32_t len)
{
	struct qp_engine *e = E(peer_of(qp));

	if (cookie >= RX_SLOTS || off > e->buflen || len > e->buflen - off)
		return -EMSGSIZE;
	memcpy(e->bufs[cookie] + off, data, len);
	return 0;
}

static void cb_recv_end(struct roce_qp *qp, uint64_t cookie, const struct roce_recv_done *d)
{
	struct iop_peer *pr = peer_of(qp);

	if (d->status != ROCE_WC_SUCCESS) {
		iop_fail(pr, "receive completed with status %u", d->status);
		return;
	}
	if (pr->o.transport == T_UD) {
		if (!(d->flags & ROCE_RECV_F_GRH) || d->src_qp != pr->theirs.qpn) {
			iop_fail(pr, "UD receive: flags 0x%x (GRH expected), source QP 0x%06x (expected 0x%06x)",
				 d->flags, d->src_qp, pr->theirs.qpn);
			return;
		}
	}
	iop_message_done(pr, E(pr)->bufs[cookie], d->byte_len);
}

/* The offset of [va, va+len) in the run's MR, or -1 if it is not inside or the key is wrong. */
static int64_t mr_offset(struct iop_peer *pr, uint32_t rkey, uint64_t va, uint32_t len)
{
	const struct iop_mr *mr = &pr->mr;

	if (mr->buf == NULL || rkey != mr->rkey || va < mr->va || len > mr->len ||
	    va - mr->va > mr->len - len)
		return -1;
	return (int64_t)(va - mr->va);
}

static int cb_mr_check(struct roce_qp *qp, uint32_t rkey, uint64_t va, uint32_t len,
		       unsigned int access)
{
	struct iop_peer *pr = peer_of(qp);

	if (mr_offset(pr, rkey, va, len) < 0 || (access & ~pr->mr.access)) {
		iop_fail(pr, "remote access to [0x%llx, +%u) with R_Key 0x%x (access 0x%x) refused",
			 (unsigned long long)va, len, rkey, access);
		return -EACCES;
	}
	if (access & ROCE_ACCESS_REMOTE_READ)
		pr->mr.reads++;
	return 0;
}

static int cb_mem_write(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			uint32_t len)
{
	struct iop_peer *pr = peer_of(qp);
	int64_t off = mr_offset(pr, rkey, va, len);

	if (off < 0) {
		iop_fail(pr, "RDMA WRITE outside the region (lib/roce should have checked it)");
		return -EACCES;
	}
	memcpy(pr->mr.buf + off, data, len);
	pr->mr.writes++;
	return 0;
}

static int cb_atomic(struct roce_qp *qp, uint32_t rkey, uint64_t va, int cmp_swap,
		     uint64_t swap_add, uint64_t cmp, uint64_t *orig)
{
	struct iop_peer *pr = peer_of(qp);
	int64_t off = mr_offset(pr, rkey, va, 8);
	uint64_t v;

	if (off < 0) {
		iop_fail(pr, "atomic outside the region (lib/roce should have checked it)");
		return -EACCES;
	}
	/* memory holds host-order values, as verbs memory does */
	memcpy(&v, pr->mr.buf + off, 8);
	*orig = v;
	if (cmp_swap)
		v = v == cmp ? swap_add : v;
	else
		v += swap_add;
	memcpy(pr->mr.buf + off, &v, 8);
	pr->mr.atomics++;
	return 0;
}

static int cb_read_place(struct roce_qp *qp, uint64_t wr_id, uint32_t off, const void *data,
			 uint32_t len)
{
	struct iop_peer *pr = peer_of(qp);

	(void)wr_id;
	if (pr->rdbuf == NULL || off > pr->o.size || len > pr->o.size - off) {
		iop_fail(pr, "READ response bytes %u..%u past the %u-byte request", off, off + len,
			 pr->o.size);
		return -EACCES;
	}
	memcpy(pr->rdbuf + off, data, len);
	return 0;
}

static void cb_send_done(struct roce_qp *qp, const struct roce_send_done *d)
{
	struct iop_peer *pr = peer_of(qp);

	if (d->status != ROCE_WC_SUCCESS) {
		iop_fail(pr, "send %llu completed with status %u", (unsigned long long)d->id, d->status);
		return;
	}
	pr->last_orig = d->atomic_orig;
	pr->send_pending = false;
}

static void cb_qp_error(struct roce_qp *qp, uint8_t status)
{
	iop_fail(peer_of(qp), "the QP went to the error state (status %u)", status);
}

static const struct roce_qp_ops qp_ops = {
	.recv_begin = cb_recv_begin,
	.recv_place = cb_recv_place,
	.recv_end = cb_recv_end,
	.mr_check = cb_mr_check,
	.mem_write = cb_mem_write,
	.atomic = cb_atomic,
	.read_place = cb_read_place,
	.send_done = cb_send_done,
	.qp_error = cb_qp_error,
};

/* --- engine --- */

static void qp_stop(struct iop_peer *pr)
{
	struct qp_engine *e = E(pr);
	unsigned int i;

	if (e == NULL)
		return;
	for (i = 0; i < RX_SLOTS; i++)
		free(e->bufs[i]);
	free(e->mem);
	free(e);
	pr->eng_priv = NULL;
}

static int modify(struct iop_peer *pr, struct roce_qp_attr *a, uint32_t mask)
{
	int rc = roce_qp_modify(&E(pr)->qp, a, mask);

	if (rc < 0)
		iop_fail(pr, "roce_qp_modify to %s: %s", roce_qp_state_name(a->state), strerror(-rc));
	return rc;
}

static int qp_start(struct iop_peer *pr)
{
	bool rc_qp = pr->o.transport != T_UD;
	struct roce_qp_init_attr ia = {
		.type = rc_qp ? ROCE_QPT_RC : ROCE_QPT_UD,
		.qpn = pr->mine.qpn,
		.sq_depth = 4,
		.max_rd_res = pr->ird ? pr->ird : 1,
		.ops = &qp_ops,
		.user = pr,
	};
	struct roce_qp_attr a;
	struct qp_engine *e;
	unsigned int i;
	int rc;

	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	pr->eng_priv = e;
	e->buflen = (rc_qp ? 0 : ROCE_GRH_LEN) + pr->o.size;
	for (i = 0; i < RX_SLOTS; i++)
		if ((e->bufs[i] = calloc(1, e->buflen)) == NULL)
			return -ENOMEM;
	e->mem = calloc(1, roce_qp_mem_size(&ia));
	if (e->mem == NULL)
		return -ENOMEM;
	rc = roce_qp_init(&e->qp, &ia, e->mem);
	if (rc < 0) {
		iop_fail(pr, "roce_qp_init: %s", strerror(-rc));
		return rc;
	}
	memcpy(e->av.dmac, pr->peer_mac, 6);
	memcpy(e->av.smac, pr->port.mac, 6);
	memcpy(e->av.sgid, pr->mine.gid, 16);
	memcpy(e->av.dgid, pr->theirs.gid, 16);
	e->av.hop_limit = 64;

	/* the transitions and attributes ibv_*_pingpong applies, on our side */
	memset(&a, 0, sizeof(a));
	a.state = ROCE_QPS_INIT;
	a.qkey = PP_QKEY;
	a.access = pr->qp_access;
	if (modify(pr, &a, ROCE_QP_STATE | ROCE_QP_ACCESS | (rc_qp ? 0 : ROCE_QP_QKEY)))
		return -EINVAL;
	a.state = ROCE_QPS_RTR;
	a.av = e->av;
	a.path_mtu = pr->o.mtu;
	a.dest_qpn = pr->theirs.qpn;
	a.rq_psn = pr->theirs.psn;
	a.max_dest_rd_atomic = pr->ird ? pr->ird : 1;
	a.min_rnr_timer = 12;
	/* UD has no path MTU attribute in verbs, but lib/roce needs the port's MTU to size
	 * (and refuse) UD messages */
	if (modify(pr, &a, ROCE_QP_STATE | ROCE_QP_PATH_MTU |
				   (rc_qp ? ROCE_QP_AV | ROCE_QP_DEST_QPN | ROCE_QP_RQ_PSN |
					    ROCE_QP_MAX_DEST_RD_ATOMIC | ROCE_QP_MIN_RNR_TIMER : 0)))
		return -EINVAL;
	a.state = ROCE_QPS_RTS;
	a.sq_psn = pr->mine.psn;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = pr->ord ? pr->ord : 1;
	if (modify(pr, &a, ROCE_QP_STATE | ROCE_QP_SQ_PSN |
				   (rc_qp ? ROCE_QP_TIMEOUT | ROCE_QP_RETRY_CNT | ROCE_QP_RNR_RETRY |
					    ROCE_QP_MAX_RD_ATOMIC : 0)))
		return -EINVAL;
	return 0;
}

/* Sends what the state machines have to send now. */
static int pump_tx(struct iop_peer *pr)
{
	struct qp_engine *e = E(pr);
	struct roce_tx tx;

	while (!pr->failed && roce_qp_tx(&e->qp, now_ns(), &tx) == 1) {
		uint8_t frame[IOP_FRAME_MAX];
		uint32_t hl = roce_pkt_hdr_len(&tx.pkt);

		if (hl + tx.pkt.paylen + ROCE_ICRC_LEN + 3 > sizeof(frame)) {
			iop_fail(pr, "tx descriptor of %u payload bytes does not fit a frame", tx.pkt.paylen);
			return -1;
		}
		if (tx.pl_src == ROCE_PL_SQ) {
			/* one message in flight: a resend is still the message in txbuf */
			if (tx.offset > pr->o.size || tx.pkt.paylen > pr->o.size - tx.offset) {
				iop_fail(pr, "tx descriptor asks for bytes %u..%u of a %u-byte message",
					 tx.offset, tx.offset + tx.pkt.paylen, pr->o.size);
				return -1;
			}
			memcpy(frame + hl, pr->txbuf + tx.offset, tx.pkt.paylen);
		} else if (tx.pl_src == ROCE_PL_MEM) {
			/* a READ response: from the region, checked when the request came */
			int64_t off = mr_offset(pr, tx.rkey, tx.va, tx.pkt.paylen);

			if (off < 0) {
				iop_fail(pr, "READ response from outside the region");
				return -1;
			}
			memcpy(frame + hl, pr->mr.buf + off, tx.pkt.paylen);
		}
		tx.pkt.ip_id = pr->ip_id++;
		tx.pkt.payload = NULL;
		if (iop_pkt_send(pr, &tx.pkt, frame) < 0)
			return -1;
	}
	return 0;
}

int iop_qp_post_wr(struct iop_peer *pr, const struct roce_send_wr *wr)
{
	int rc;

	pr->send_pending = true;
	rc = roce_qp_post_send(&E(pr)->qp, wr);
	if (rc < 0) {
		iop_fail(pr, "roce_qp_post_send: %s", strerror(-rc));
		return rc;
	}
	return pump_tx(pr);
}

static int qp_post(struct iop_peer *pr)
{
	struct qp_engine *e = E(pr);
	struct roce_send_wr wr = {
		.id = pr->rx_msgs,
		.op = ROCE_WR_SEND,
		.len = pr->o.size,
	};
	int rc;

	if (pr->o.transport == T_UD) {
		wr.dqpn = pr->theirs.qpn;
		wr.qkey = PP_QKEY;
		wr.av = &e->av;
	}
	pr->send_pending = true;
	rc = roce_qp_post_send(&e->qp, &wr);
	if (rc < 0) {
		iop_fail(pr, "roce_qp_post_send: %s", strerror(-rc));
		return rc;
	}
	return pump_tx(pr);
}

static bool flow_reason(enum roce_reason reason)
{
	return reason == ROCE_R_PSN_AHEAD || reason == ROCE_R_DUPLICATE || reason == ROCE_R_RNR ||
	       reason == ROCE_R_RESP_PSN;
}

static int qp_step(struct iop_peer *pr, int64_t until_ms)
{
	struct qp_engine *e = E(pr);
	uint64_t next = roce_qp_next_deadline(&e->qp);
	uint8_t frame[IOP_FRAME_MAX];
	struct roce_pkt p;
	int len;

	if (next != ROCE_TIME_NEVER) {
		int64_t t = (int64_t)(next / 1000000u) + 1;

		if (t < until_ms)
			until_ms = t;
	}
	len = iop_port_recv(&pr->port, frame, sizeof(frame), until_ms);
	if (len < 0 && len != -ETIMEDOUT) {
		iop_fail(pr, "receive on %s: %s", pr->o.ifname, strerror(-len));
		return -1;
	}
	if (len > 0 && iop_pkt_accept(pr, frame, len, &p) > 0) {
		enum roce_reason r = roce_qp_rx(&e->qp, &p, now_ns());

		if (r != ROCE_R_OK && flow_reason(r))
			e->flow_drops++;
		else if (r != ROCE_R_OK)
			iop_fail(pr, "roce_qp_rx refused %s PSN 0x%06x: %s", roce_opcode_name(p.opcode),
				 p.psn, roce_reason_name(r));
	}
	if (now_ns() >= roce_qp_next_deadline(&e->qp))
		roce_qp_timer(&e->qp, now_ns());
	return pump_tx(pr);
}

static void qp_report(struct iop_peer *pr, char *buf, size_t len)
{
	const struct roce_qp_stats *s = &E(pr)->qp.stats;

	snprintf(buf, len,
		 "roce_qp: state %s, pkts tx %llu rx %llu, ACKs tx %llu rx %llu, retransmits %llu, "
		 "timeouts %llu, NAKs rx %llu/%llu/%llu (seq/rnr/err), duplicates %llu, flow drops %llu",
		 roce_qp_state_name(E(pr)->qp.state), (unsigned long long)s->tx_pkts,
		 (unsigned long long)s->rx_pkts, (unsigned long long)s->acks_tx,
		 (unsigned long long)s->acks_rx, (unsigned long long)s->retransmits,
		 (unsigned long long)s->timeouts, (unsigned long long)s->seq_naks_rx,
		 (unsigned long long)s->rnr_naks_rx, (unsigned long long)s->err_naks_rx,
		 (unsigned long long)s->dup_requests, (unsigned long long)E(pr)->flow_drops);
}

const struct iop_engine iop_engine_qp = {
	.name = "qp",
	.start = qp_start,
	.post = qp_post,
	.step = qp_step,
	.report = qp_report,
	.stop = qp_stop,
};
