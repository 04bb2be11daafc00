/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/roce's transmit fast paths against the general path, run side by side on two
 * identical connections: roce_qp_post_send_fast() gives the frame roce_qp_post_send() +
 * roce_qp_tx() + roce_pkt_build() give, byte for byte (ICRC included), and leaves the
 * requester in the same state (ring entry, PSNs, window, ACK timer, counters);
 * roce_qp_tx_ack_fast() likewise for the responder's ACK, roce_qp_tx_read_fast() for a
 * one-packet READ response. Every case the fast path must
 * leave to the general one returns 0 and changes nothing: a message over one MTU, atomics,
 * a WR already queued, an ACK waiting, the ORD limit, a fence, a full window, an RNR
 * wait, SQD, UD, a short buffer.
 */
#include <errno.h>

#include "irdma_test.h"
#include "roce_ep.h"

static struct ep GA, GB, FA, FB; /* general pair, fast pair */
static uint64_t now = 1000000;

static void pairs(const struct ep_conf *c)
{
	ep_free(&GA);
	ep_free(&GB);
	ep_free(&FA);
	ep_free(&FB);
	ep_setup(&GA, 0x11, 0x12, 1, c);
	ep_setup(&GB, 0x12, 0x11, 0, c);
	ep_setup(&FA, 0x11, 0x12, 1, c);
	ep_setup(&FB, 0x12, 0x11, 0, c);
}

/* The requester's state of the two QPs is the same (the ring entries of [head, tail)). */
static void same_requester(const struct roce_qp *g, const struct roce_qp *f)
{
	uint32_t i;

	T_EQ(f->req.head, g->req.head);
	T_EQ(f->req.next, g->req.next);
	T_EQ(f->req.tail, g->req.tail);
	T_EQ(f->req.psn, g->req.psn);
	T_EQ(f->req.off, g->req.off);
	T_EQ(f->req.una, g->req.una);
	T_EQ(f->req.hi_psn, g->req.hi_psn);
	T_EQ(f->req.rd_atomic, g->req.rd_atomic);
	T_EQ(f->req.pkts_no_ackreq, g->req.pkts_no_ackreq);
	T_EQ(f->req.ack_deadline, g->req.ack_deadline);
	T_EQ(f->resp.jhead, g->resp.jhead);
	T_EQ(f->resp.jtail, g->resp.jtail);
	T_MEMEQ(&f->stats, &g->stats, sizeof(g->stats));
	for (i = g->req.head; i != g->req.tail; i++) {
		const struct roce_swqe *a = &g->req.ring[i & g->req.mask];
		const struct roce_swqe *b = &f->req.ring[i & f->req.mask];

		T_MEMEQ(&b->wr, &a->wr, sizeof(a->wr));
		T_EQ(b->first_psn, a->first_psn);
		T_EQ(b->last_psn, a->last_psn);
		T_EQ(b->done, a->done);
		T_EQ(b->started, a->started);
	}
}

/* Pad and ICRC after len bytes of headers + payload; the frame length. */
static uint32_t finish(const struct roce_tmpl *t, uint8_t *b, uint32_t len, uint32_t paylen)
{
	uint32_t pad = roce_pad_len(paylen);

	memset(b + len, 0, pad);
	len += pad;
	roce_icrc_put(b + len, roce_icrc_compute(b + t->l3_off, len - t->l3_off, t->ipv6));
	return len + ROCE_ICRC_LEN;
}

/* One WR through both pairs: the general path must send exactly one frame, the fast path
 * the same one. Returns the frame (in f, length in *len). */
static void both_send(struct roce_send_wr *wr, const uint8_t *src, struct ep_frame *f)
{
	int hl;

	T_EQ(ep_post(&GA, wr, src), 0);
	T_EQ(ep_pump(&GA, now), 1);
	/* the fast pair's payload source, as ep_post keeps it */
	free(FA.wr_buf[wr->id]);
	FA.wr_buf[wr->id] = calloc(1, wr->len ? wr->len : 1);
	FA.wr_len[wr->id] = wr->len;
	if (src)
		memcpy(FA.wr_buf[wr->id], src, wr->len);
	memset(f->b, 0xEE, sizeof(f->b));
	hl = roce_qp_post_send_fast(&FA.qp, wr, now, &FA.ip_id, f->b, sizeof(f->b));
	T_CHECK(hl > 0);
	if (hl <= 0)
		return;
	if (wr->op != ROCE_WR_READ && wr->len)
		memcpy(f->b + hl, src, wr->len);
	f->len = finish(&FA.qp.tmpl, f->b, (uint32_t)hl + (wr->op == ROCE_WR_READ ? 0 : wr->len),
			wr->op == ROCE_WR_READ ? 0 : wr->len);
	T_EQ(f->len, GA.tx[0].len);
	T_MEMEQ(f->b, GA.tx[0].b, GA.tx[0].len);
	T_EQ(FA.ip_id, GA.ip_id);
	same_requester(&GA.qp, &FA.qp);
}

/* The responders answer (general: ep_pump; fast: roce_qp_tx_ack_fast for an ACK,
 * roce_qp_tx_read_fast for a one-packet READ response, refused over its max_pl). */
static void both_answer(const struct ep_frame *req)
{
	struct ep_frame f;
	int hl;

	T_EQ(ep_deliver(&GB, req->b, req->len, now), 0);
	T_EQ(ep_deliver(&FB, req->b, req->len, now), 0);
	GB.ntx = 0;
	T_EQ(ep_pump(&GB, now), 1);
	if (GB.tx[0].b[42] == ROCE_OP_RC_ACK) {
		hl = roce_qp_tx_ack_fast(&FB.qp, &FB.ip_id, f.b, sizeof(f.b));
		T_CHECK(hl > 0);
		f.len = finish(&FB.qp.tmpl, f.b, (uint32_t)hl, 0);
	} else { /* READ response */
		const struct roce_job *j = &FB.qp.resp.jobs[FB.qp.resp.jhead & FB.qp.resp.jmask];
		uint32_t left = j->left, rkey = j->rkey;
		uint64_t va = j->va;
		struct roce_tx_read rd;

		T_EQ(roce_qp_tx_ack_fast(&FB.qp, &FB.ip_id, f.b, sizeof(f.b)), 0);
		if (left) /* over max_pl: left to the general path, nothing changed */
			T_EQ(roce_qp_tx_read_fast(&FB.qp, &FB.ip_id, f.b, sizeof(f.b), left - 1,
						  &rd), 0);
		if (left <= FB.qp.pmtu) { /* READ RESPONSE ONLY: the fast path */
			/* headers (AETH), payload, pad room, ICRC: one byte short */
			T_EQ(roce_qp_tx_read_fast(&FB.qp, &FB.ip_id, f.b,
						  FB.qp.tmpl.bth_off + ROCE_BTH_LEN + ROCE_AETH_LEN +
						  left + 3 + ROCE_ICRC_LEN - 1, left, &rd), 0);
			memset(f.b, 0xEE, sizeof(f.b));
			hl = roce_qp_tx_read_fast(&FB.qp, &FB.ip_id, f.b, sizeof(f.b), left, &rd);
			T_CHECK(hl > 0);
			T_EQ(rd.len, left);
			T_EQ(rd.rkey, rkey);
			T_EQ(rd.va, va);
			if (hl <= 0)
				return;
			memcpy(f.b + hl, FB.mem + (rd.va - FB.mem_va), rd.len);
			f.len = finish(&FB.qp.tmpl, f.b, (uint32_t)hl + rd.len, rd.len);
		} else { /* several packets: the general path on both */
			T_EQ(roce_qp_tx_read_fast(&FB.qp, &FB.ip_id, f.b, sizeof(f.b), ~0u, &rd), 0);
			FB.ntx = 0;
			T_EQ(ep_pump(&FB, now), 1);
			f = FB.tx[0];
		}
	}
	T_EQ(f.len, GB.tx[0].len);
	T_MEMEQ(f.b, GB.tx[0].b, GB.tx[0].len);
	T_EQ(FB.ip_id, GB.ip_id);
	T_EQ(FB.qp.resp.jhead, GB.qp.resp.jhead);
	T_MEMEQ(&FB.qp.stats, &GB.qp.stats, sizeof(GB.qp.stats));
	/* the answer completes the WR on both requesters alike */
	T_EQ(ep_deliver(&GA, GB.tx[0].b, GB.tx[0].len, now), 0);
	T_EQ(ep_deliver(&FA, f.b, f.len, now), 0);
	GA.ntx = GB.ntx = FB.ntx = 0;
	T_EQ(FA.nsdone, GA.nsdone);
	if (GA.nsdone) {
		const struct roce_send_done *g = &GA.sdone[GA.nsdone - 1];
		const struct roce_send_done *d = &FA.sdone[FA.nsdone - 1];

		T_EQ(d->id, g->id);
		T_EQ(d->status, g->status);
		T_EQ(d->op, g->op);
		T_EQ(d->byte_len, g->byte_len);
	}
	same_requester(&GA.qp, &FA.qp);
}

static void wr_of(struct roce_send_wr *wr, uint32_t id, uint8_t op, uint32_t len,
		  uint8_t flags)
{
	memset(wr, 0, sizeof(*wr));
	wr->id = id;
	wr->op = op;
	wr->len = len;
	wr->flags = flags;
	wr->raddr = GB.mem_va + 8 * id;
	wr->rkey = GB.rkey;
	wr->imm = 0xC0DE0000u | id;
}

T_CASE(one_packet_requests_and_acks_as_the_general_path)
{
	static const uint8_t ops[] = { ROCE_WR_WRITE, ROCE_WR_WRITE_IMM, ROCE_WR_SEND,
				       ROCE_WR_SEND_IMM, ROCE_WR_SEND_INV, ROCE_WR_READ };
	static const uint32_t lens[] = { 0, 1, 3, 8, 61, 1023, 1024 };
	struct ep_conf c = ep_default_conf();
	struct roce_send_wr wr;
	struct ep_frame f;
	uint8_t src[1024];
	uint32_t i, k, id = 1, n = 0;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	c.sq_psn_a = 0xFFFFF0; /* across the PSN wrap */
	pairs(&c);
	for (i = 0; i < sizeof(ops); i++) {
		for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++, id++) {
			bool needs_recv = ops[i] <= ROCE_WR_SEND_INV || ops[i] == ROCE_WR_WRITE_IMM;

			if (needs_recv) {
				ep_post_recv(&GB, 1024);
				ep_post_recv(&FB, 1024);
			}
			wr_of(&wr, id, ops[i], lens[k], (id & 1) ? ROCE_WR_F_SOLICITED : 0);
			both_send(&wr, ops[i] == ROCE_WR_READ ? NULL : src, &f);
			both_answer(&f);
			n++;
		}
	}
	T_EQ(GA.nsdone, n);
	T_EQ(FA.nerr + GA.nerr + FB.nerr + GB.nerr, 0);
}

/* IPv6 with a VLAN tag (and IPv4 with one): the frames only, no peer needed. */
T_CASE(ipv6_and_vlan_frames)
{
	struct ep_conf c = ep_default_conf();
	struct roce_send_wr wr;
	struct roce_qp_attr a;
	struct ep_frame f;
	uint8_t src[300];
	uint32_t v, id;

	for (id = 0; id < sizeof(src); id++)
		src[id] = (uint8_t)id;
	for (v = 0; v < 2; v++) {
		pairs(&c);
		memset(&a, 0, sizeof(a));
		a.av = GA.av;
		a.av.has_vlan = 1;
		a.av.vlan_tci = 0x0234;
		a.av.tclass = 0x48;
		if (v) {
			roce_gid_parse("fd00::1:10", a.av.sgid);
			roce_gid_parse("fd00::1:11", a.av.dgid);
			a.av.flow_label = 0x12345;
		}
		T_EQ(roce_qp_modify(&GA.qp, &a, ROCE_QP_AV), 0);
		T_EQ(roce_qp_modify(&FA.qp, &a, ROCE_QP_AV), 0);
		for (id = 1; id < 40; id++) {
			wr_of(&wr, id, id % 3 ? ROCE_WR_WRITE_IMM : ROCE_WR_SEND_INV, id * 7,
			      ROCE_WR_F_SOLICITED);
			GA.ntx = 0;
			both_send(&wr, src, &f);
		}
	}
}

/* roce_qp_post_send_fast() returns 0 and leaves the QP and the IP id as they were. */
static void refused(struct ep *e, const struct roce_send_wr *wr, size_t cap)
{
	static struct roce_qp before;
	uint16_t id = e->ip_id;
	uint8_t b[EP_FRAME_MAX];

	before = e->qp;
	T_EQ(roce_qp_post_send_fast(&e->qp, wr, now, &e->ip_id, b, cap), 0);
	T_MEMEQ(&e->qp, &before, sizeof(before));
	T_EQ(e->ip_id, id);
}

T_CASE(uncommon_cases_left_to_the_general_path)
{
	struct ep_conf c = ep_default_conf();
	struct roce_send_wr wr;
	struct roce_qp_attr a;
	struct ep_frame f;
	uint8_t src[2048] = { 0 };
	uint32_t i;

	c.max_rd_atomic = 1;
	pairs(&c);
	wr_of(&wr, 1, ROCE_WR_WRITE, 1025, 0); /* two packets */
	refused(&FA, &wr, EP_FRAME_MAX);
	wr_of(&wr, 1, ROCE_WR_FETCH_ADD, 8, 0);
	refused(&FA, &wr, EP_FRAME_MAX);
	wr_of(&wr, 1, ROCE_WR_WRITE, 64, 0);
	refused(&FA, &wr, 64); /* no room for the frame */
	/* headers (RETH), payload, pad room, ICRC: one byte short */
	refused(&FA, &wr, FA.qp.tmpl.bth_off + ROCE_BTH_LEN + ROCE_RETH_LEN + 64 + 3 + ROCE_ICRC_LEN - 1);

	/* a WR queued ahead (not sent yet) */
	T_EQ(ep_post(&FA, &wr, src), 0);
	wr.id = 2;
	refused(&FA, &wr, EP_FRAME_MAX);
	T_EQ(ep_pump(&FA, now), 1);
	FA.ntx = 0;

	/* an ACK waiting on the responder side goes first */
	wr_of(&wr, 3, ROCE_WR_WRITE, 8, 0);
	T_EQ(ep_post(&GA, &wr, src), 0);
	T_EQ(ep_pump(&GA, now), 1);
	T_EQ(ep_deliver(&GB, GA.tx[0].b, GA.tx[0].len, now), 0);
	GA.ntx = 0;
	wr_of(&wr, 4, ROCE_WR_WRITE, 8, 0);
	wr.raddr = GA.mem_va;
	wr.rkey = GA.rkey;
	refused(&GB, &wr, EP_FRAME_MAX);
	T_CHECK(roce_qp_tx_ack_fast(&GB.qp, &GB.ip_id, f.b, sizeof(f.b)) > 0);
	T_EQ(roce_qp_tx_ack_fast(&GB.qp, &GB.ip_id, f.b, sizeof(f.b)), 0); /* none left */

	/* ORD 1: a second READ while one is outstanding; a fenced WRITE behind it */
	pairs(&c);
	wr_of(&wr, 1, ROCE_WR_READ, 8, 0);
	T_CHECK(roce_qp_post_send_fast(&FA.qp, &wr, now, &FA.ip_id, f.b, sizeof(f.b)) > 0);
	wr.id = 2;
	refused(&FA, &wr, EP_FRAME_MAX);
	wr_of(&wr, 3, ROCE_WR_WRITE, 8, ROCE_WR_F_FENCE);
	refused(&FA, &wr, EP_FRAME_MAX);
	wr.flags = 0; /* unfenced, it may pass */
	T_CHECK(roce_qp_post_send_fast(&FA.qp, &wr, now, &FA.ip_id, f.b, sizeof(f.b)) > 0);

	/* the window: 128 PSNs unacknowledged, then no more */
	pairs(&c);
	for (i = 0; i < 128; i++) {
		wr_of(&wr, i, ROCE_WR_WRITE, 8, 0);
		T_CHECK(roce_qp_post_send_fast(&FA.qp, &wr, now, &FA.ip_id, f.b, sizeof(f.b)) > 0);
	}
	wr.id = 200;
	refused(&FA, &wr, EP_FRAME_MAX);

	/* an RNR wait; SQD; a UD QP */
	pairs(&c);
	wr_of(&wr, 1, ROCE_WR_WRITE, 8, 0);
	FA.qp.req.rnr_wait = 1;
	FA.qp.req.rnr_deadline = now + 1000;
	refused(&FA, &wr, EP_FRAME_MAX);
	FA.qp.req.rnr_wait = 0;
	memset(&a, 0, sizeof(a));
	a.state = ROCE_QPS_SQD;
	T_EQ(roce_qp_modify(&FA.qp, &a, ROCE_QP_STATE), 0);
	refused(&FA, &wr, EP_FRAME_MAX);
	c.type = ROCE_QPT_UD;
	pairs(&c);
	wr_of(&wr, 1, ROCE_WR_SEND, 8, 0);
	refused(&FA, &wr, EP_FRAME_MAX);
	T_EQ(roce_qp_tx_ack_fast(&FA.qp, &FA.ip_id, f.b, sizeof(f.b)), 0);
}

int main(int argc, char **argv)
{
	int rc = t_main(argc, argv);

	ep_free(&GA);
	ep_free(&GB);
	ep_free(&FA);
	ep_free(&FB);
	return rc;
}
