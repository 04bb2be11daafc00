/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test endpoint around one lib/roce QP: plays the device (memory region, receive
 * queue, send buffers, completions) and moves real frames (roce_pkt_build/parse, ICRC
 * included) between two endpoints. Time is a plain counter the tests advance.
 */
#ifndef ROCE_EP_H
#define ROCE_EP_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "roce.h"

#define EP_MAX_WR    8192
#define EP_MAX_RECV  8192
#define EP_MAX_DONE  16384
#define EP_FRAME_MAX 4200
#define EP_MAX_TX    512

struct ep_recv {
	uint8_t *buf;
	uint32_t len;
};

struct ep_rdone {
	uint64_t cookie;
	struct roce_recv_done d;
	uint8_t grh[40];
};

struct ep_frame {
	uint8_t b[EP_FRAME_MAX];
	uint32_t len;
};

struct ep {
	struct roce_qp qp;
	void *qpmem;
	/* the one memory region remote peers may access */
	uint8_t *mem;
	uint64_t mem_va;
	uint32_t mem_len;
	uint32_t rkey;
	/* receive queue */
	struct ep_recv rq[EP_MAX_RECV];
	uint32_t rq_head, rq_tail;
	int fail_place; /* recv_place returns this when non-zero */
	/* send WR local buffers, by WR id */
	uint8_t *wr_buf[EP_MAX_WR];
	uint32_t wr_len[EP_MAX_WR];
	/* completions */
	struct roce_send_done sdone[EP_MAX_DONE];
	uint32_t nsdone;
	struct ep_rdone rdone[EP_MAX_DONE];
	uint32_t nrdone;
	int nerr;
	uint8_t err_status;
	/* frames sent, not yet taken by the wire */
	struct ep_frame *tx;
	uint32_t ntx;
	uint16_t ip_id;
	struct roce_av av;
};

static inline struct ep *ep_of(struct roce_qp *qp)
{
	return (struct ep *)qp->user;
}

static int ep_recv_begin(struct roce_qp *qp, uint32_t min_len, uint64_t *cookie)
{
	struct ep *e = ep_of(qp);

	if (e->rq_head == e->rq_tail)
		return -ENOBUFS;
	if (min_len > e->rq[e->rq_head % EP_MAX_RECV].len)
		return -EMSGSIZE;
	*cookie = e->rq_head++;
	return 0;
}

static int ep_recv_place(struct roce_qp *qp, uint64_t cookie, uint32_t off, const void *data,
			 uint32_t len)
{
	struct ep *e = ep_of(qp);
	struct ep_recv *r = &e->rq[cookie % EP_MAX_RECV];

	if (e->fail_place)
		return e->fail_place;
	if ((uint64_t)off + len > r->len)
		return -EMSGSIZE;
	memcpy(r->buf + off, data, len);
	return 0;
}

static void ep_recv_end(struct roce_qp *qp, uint64_t cookie, const struct roce_recv_done *d)
{
	struct ep *e = ep_of(qp);
	struct ep_rdone *rd = &e->rdone[e->nrdone++ % EP_MAX_DONE];

	rd->cookie = cookie;
	rd->d = *d;
	rd->d.pkt = NULL;
	if (d->status == ROCE_WC_SUCCESS && (d->flags & ROCE_RECV_F_GRH))
		memcpy(rd->grh, e->rq[cookie % EP_MAX_RECV].buf, 40);
}

static int ep_in_mr(struct ep *e, uint32_t rkey, uint64_t va, uint32_t len)
{
	return rkey == e->rkey && va >= e->mem_va && va + len <= e->mem_va + e->mem_len;
}

static int ep_mr_check(struct roce_qp *qp, uint32_t rkey, uint64_t va, uint32_t len,
		       unsigned int access)
{
	(void)access;
	return ep_in_mr(ep_of(qp), rkey, va, len) ? 0 : -EACCES;
}

static int ep_mem_write(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			uint32_t len)
{
	struct ep *e = ep_of(qp);

	if (!ep_in_mr(e, rkey, va, len))
		return -EACCES;
	memcpy(e->mem + (va - e->mem_va), data, len);
	return 0;
}

static int ep_atomic(struct roce_qp *qp, uint32_t rkey, uint64_t va, int cmp_swap,
		     uint64_t swap_add, uint64_t cmp, uint64_t *orig)
{
	struct ep *e = ep_of(qp);
	uint64_t v;

	if (!ep_in_mr(e, rkey, va, 8))
		return -EACCES;
	memcpy(&v, e->mem + (va - e->mem_va), 8);
	*orig = v;
	if (cmp_swap)
		v = v == cmp ? swap_add : v;
	else
		v += swap_add;
	memcpy(e->mem + (va - e->mem_va), &v, 8);
	return 0;
}

static int ep_read_place(struct roce_qp *qp, uint64_t wr_id, uint32_t off, const void *data,
			 uint32_t len)
{
	struct ep *e = ep_of(qp);

	if ((uint64_t)off + len > e->wr_len[wr_id])
		return -EFAULT;
	memcpy(e->wr_buf[wr_id] + off, data, len);
	return 0;
}

static void ep_send_done(struct roce_qp *qp, const struct roce_send_done *d)
{
	struct ep *e = ep_of(qp);

	e->sdone[e->nsdone++ % EP_MAX_DONE] = *d;
}

static void ep_qp_error(struct roce_qp *qp, uint8_t status)
{
	struct ep *e = ep_of(qp);

	e->nerr++;
	e->err_status = status;
}

static const struct roce_qp_ops ep_ops = {
	.recv_begin = ep_recv_begin,
	.recv_place = ep_recv_place,
	.recv_end = ep_recv_end,
	.mr_check = ep_mr_check,
	.mem_write = ep_mem_write,
	.atomic = ep_atomic,
	.read_place = ep_read_place,
	.send_done = ep_send_done,
	.qp_error = ep_qp_error,
};

struct ep_conf {
	uint8_t type;
	uint32_t mtu;
	uint32_t sq_psn_a, sq_psn_b;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t ird;
	uint32_t mem_len;
};

static inline struct ep_conf ep_default_conf(void)
{
	struct ep_conf c = {
		.type = ROCE_QPT_RC,
		.mtu = 1024,
		.sq_psn_a = 0x100,
		.sq_psn_b = 0x900000,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.min_rnr_timer = 12,
		.max_rd_atomic = 4,
		.ird = 4,
		.mem_len = 1 << 20,
	};

	return c;
}

static void ep_setup(struct ep *e, uint32_t qpn, uint32_t peer_qpn, int is_a,
		     const struct ep_conf *c)
{
	static const uint8_t ip_a[4] = { 192, 168, 1, 10 }, ip_b[4] = { 192, 168, 1, 11 };
	struct roce_qp_init_attr ia = {
		.type = c->type,
		.qpn = qpn,
		.sq_depth = EP_MAX_WR,
		.max_rd_res = 16,
		.ops = &ep_ops,
		.user = e,
	};
	struct roce_qp_attr a;
	uint32_t i;

	memset(e, 0, sizeof(*e));
	e->qpmem = calloc(1, roce_qp_mem_size(&ia));
	e->mem_len = c->mem_len;
	e->mem = calloc(1, c->mem_len);
	e->mem_va = is_a ? 0x7f0000000000ull : 0x7f8000000000ull;
	e->rkey = is_a ? 0xA1A1 : 0xB2B2;
	e->tx = calloc(EP_MAX_TX, sizeof(struct ep_frame));
	for (i = 0; i < c->mem_len; i++)
		e->mem[i] = (uint8_t)(i * 13 + (is_a ? 1 : 7));
	roce_qp_init(&e->qp, &ia, e->qpmem);

	memset(&a, 0, sizeof(a));
	e->av.dmac[0] = e->av.smac[0] = 0x02;
	e->av.dmac[5] = is_a ? 0x0b : 0x0a;
	e->av.smac[5] = is_a ? 0x0a : 0x0b;
	roce_gid_from_ipv4(e->av.sgid, is_a ? ip_a : ip_b);
	roce_gid_from_ipv4(e->av.dgid, is_a ? ip_b : ip_a);
	e->av.hop_limit = 64;
	a.av = e->av;
	a.state = ROCE_QPS_INIT;
	a.access = ROCE_ACCESS_REMOTE_WRITE | ROCE_ACCESS_REMOTE_READ | ROCE_ACCESS_REMOTE_ATOMIC;
	a.qkey = 0x11111111;
	roce_qp_modify(&e->qp, &a, ROCE_QP_STATE | ROCE_QP_ACCESS | ROCE_QP_QKEY);
	a.state = ROCE_QPS_RTR;
	a.path_mtu = c->mtu;
	a.dest_qpn = peer_qpn;
	a.rq_psn = is_a ? c->sq_psn_b : c->sq_psn_a;
	a.max_dest_rd_atomic = c->ird;
	a.min_rnr_timer = c->min_rnr_timer;
	roce_qp_modify(&e->qp, &a,
		       ROCE_QP_STATE | ROCE_QP_PATH_MTU | ROCE_QP_DEST_QPN | ROCE_QP_AV |
			       ROCE_QP_RQ_PSN | ROCE_QP_MAX_DEST_RD_ATOMIC | ROCE_QP_MIN_RNR_TIMER);
	a.state = ROCE_QPS_RTS;
	a.sq_psn = is_a ? c->sq_psn_a : c->sq_psn_b;
	a.timeout = c->timeout;
	a.retry_cnt = c->retry_cnt;
	a.rnr_retry = c->rnr_retry;
	a.max_rd_atomic = c->max_rd_atomic;
	roce_qp_modify(&e->qp, &a,
		       ROCE_QP_STATE | ROCE_QP_SQ_PSN | ROCE_QP_TIMEOUT | ROCE_QP_RETRY_CNT |
			       ROCE_QP_RNR_RETRY | ROCE_QP_MAX_RD_ATOMIC);
}

static void ep_free(struct ep *e)
{
	uint32_t i;

	for (i = 0; i < EP_MAX_WR; i++)
		free(e->wr_buf[i]);
	for (i = 0; i < EP_MAX_RECV; i++)
		free(e->rq[i].buf);
	free(e->qpmem);
	free(e->mem);
	free(e->tx);
}

static inline void ep_post_recv(struct ep *e, uint32_t len)
{
	struct ep_recv *r = &e->rq[e->rq_tail % EP_MAX_RECV];

	free(r->buf);
	r->buf = calloc(1, len ? len : 1);
	r->len = len;
	e->rq_tail++;
}

static inline uint8_t *ep_recv_buf(struct ep *e, uint64_t cookie)
{
	return e->rq[cookie % EP_MAX_RECV].buf;
}

/* Posts a WR whose local buffer (send source / READ destination) has len bytes. */
static inline int ep_post(struct ep *e, struct roce_send_wr *wr, const void *src)
{
	uint32_t id = (uint32_t)wr->id;

	free(e->wr_buf[id]);
	e->wr_buf[id] = calloc(1, wr->len ? wr->len : 1);
	e->wr_len[id] = wr->len;
	if (src)
		memcpy(e->wr_buf[id], src, wr->len);
	return roce_qp_post_send(&e->qp, wr);
}

/* Frames whose headers were also written from the QP's template (and compared). */
static unsigned long ep_tmpl_frames;

/* Collects every packet the QP wants to send now into e->tx, as complete frames. Frames to
 * the connected peer are also written from the QP's frame template, which must give the
 * same header bytes as the general builder. */
static inline uint32_t ep_pump(struct ep *e, uint64_t now)
{
	struct roce_tx tx;
	uint32_t n = 0;
	uint8_t th[ROCE_TMPL_HDR_MAX + 64];

	while (e->ntx < EP_MAX_TX && roce_qp_tx(&e->qp, now, &tx) == 1) {
		struct ep_frame *f = &e->tx[e->ntx++];
		uint32_t hl = roce_pkt_hdr_len(&tx.pkt);
		int len;

		if (tx.pl_src == ROCE_PL_SQ)
			memcpy(f->b + hl, e->wr_buf[tx.wr_id] + tx.offset, tx.pkt.paylen);
		else if (tx.pl_src == ROCE_PL_MEM)
			memcpy(f->b + hl, e->mem + (tx.va - e->mem_va), tx.pkt.paylen);
		tx.pkt.ip_id = e->ip_id++;
		len = roce_pkt_build(&tx.pkt, f->b, sizeof(f->b));
		f->len = len > 0 ? (uint32_t)len : 0;
		if (tx.tmpl != NULL && len > 0) {
			T_EQ(roce_tmpl_write_hdrs(tx.tmpl, &tx.pkt, th, sizeof(th)), (int)hl);
			T_MEMEQ(th, f->b, hl);
			ep_tmpl_frames++;
		}
		n++;
	}
	/* The final call (returning 0) also completed UD/UC sends whose payload was taken. */
	return n;
}

/* Parses a frame and hands it to the QP: ROCE_R_OK or the reason it was dropped. */
static inline enum roce_reason ep_deliver(struct ep *to, const uint8_t *b, uint32_t len,
					  uint64_t now)
{
	struct roce_pkt p;
	enum roce_reason rc = roce_pkt_parse(b, len, 0, &p);

	if (rc)
		return rc;
	return roce_qp_rx(&to->qp, &p, now);
}

/* BTH fields of a sent frame (IPv4, no VLAN). */
static inline uint8_t fr_op(const struct ep_frame *f)
{
	return f->b[42];
}

static inline uint32_t fr_psn(const struct ep_frame *f)
{
	return roce_get_be24(f->b + 51);
}

static inline int fr_ackreq(const struct ep_frame *f)
{
	return !!(f->b[50] & 0x80);
}

static inline uint8_t fr_syndrome(const struct ep_frame *f)
{
	return f->b[54];
}

static inline uint32_t fr_msn(const struct ep_frame *f)
{
	return roce_get_be24(f->b + 55);
}

/* Delivers every pending frame of `from` to `to` and clears the list. */
static inline void ep_flush_to(struct ep *from, struct ep *to, uint64_t now)
{
	uint32_t i;

	for (i = 0; i < from->ntx; i++)
		ep_deliver(to, from->tx[i].b, from->tx[i].len, now);
	from->ntx = 0;
}

#endif /* ROCE_EP_H */
