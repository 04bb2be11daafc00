/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RC state machines with injected time: segmentation, AckReq, loss / duplication /
 * reordering at every position of a multi-packet message, ACK loss, retry and RNR retry
 * exhaustion, NAKs, READ and atomic replay, ACK coalescing, ORD and fence, PSN wrap.
 * Every frame crosses the packet layer (build, parse, ICRC).
 */
#include "irdma_test.h"
#include "roce_ep.h"

static struct ep A, B;
static uint64_t now;
static uint32_t next_id;

static void pair(const struct ep_conf *c)
{
	ep_free(&A);
	ep_free(&B);
	ep_setup(&A, 0x11, 0x12, 1, c);
	ep_setup(&B, 0x12, 0x11, 0, c);
	now = 1000000;
	next_id = 0;
}

static void pair_default(void)
{
	struct ep_conf c = ep_default_conf();

	pair(&c);
}

static void fill(uint8_t *b, uint32_t n, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

static uint64_t min_deadline(void)
{
	uint64_t a = roce_qp_next_deadline(&A.qp), b = roce_qp_next_deadline(&B.qp);

	return a < b ? a : b;
}

/* Runs both endpoints on a perfect wire until nothing is sent and no timer is armed. */
static void settle(void)
{
	int i;

	for (i = 0; i < 100000; i++) {
		uint32_t na, nb;
		uint64_t dl;

		ep_pump(&A, now);
		ep_pump(&B, now);
		na = A.ntx;
		nb = B.ntx;

		ep_flush_to(&A, &B, now);
		ep_flush_to(&B, &A, now);
		if (na || nb)
			continue;
		dl = min_deadline();
		if (dl == ROCE_TIME_NEVER)
			return;
		if (dl > now)
			now = dl;
		roce_qp_timer(&A.qp, now);
		roce_qp_timer(&B.qp, now);
	}
	T_CHECK_MSG(0, "settle did not converge");
}

static uint32_t post_send_op(struct ep *e, uint8_t op, uint32_t len, uint32_t seed)
{
	struct roce_send_wr wr = { .id = next_id++, .op = op, .len = len };
	uint8_t *src = malloc(len ? len : 1);

	fill(src, len, seed);
	wr.imm = 0xC0DE0000u + seed;
	T_EQ(ep_post(e, &wr, src), 0);
	free(src);
	return (uint32_t)wr.id;
}

/* WRITE/READ against offset `off` of the peer's memory region. */
static uint32_t post_rdma(struct ep *e, struct ep *peer, uint8_t op, uint32_t off, uint32_t len,
			  uint32_t seed)
{
	struct roce_send_wr wr = {
		.id = next_id++,
		.op = op,
		.len = len,
		.raddr = peer->mem_va + off,
		.rkey = peer->rkey,
		.imm = 0xBEEF0000u + seed,
	};
	uint8_t *src = malloc(len ? len : 1);

	fill(src, len, seed);
	T_EQ(ep_post(e, &wr, op == ROCE_WR_READ ? NULL : src), 0);
	free(src);
	return (uint32_t)wr.id;
}

static void check_sent_data(struct ep *e, uint32_t rdone_idx, uint32_t len, uint32_t seed)
{
	uint8_t *exp = malloc(len ? len : 1);

	fill(exp, len, seed);
	T_EQ(e->rdone[rdone_idx].d.status, ROCE_WC_SUCCESS);
	T_EQ(e->rdone[rdone_idx].d.byte_len, len);
	T_MEMEQ(ep_recv_buf(e, e->rdone[rdone_idx].cookie), exp, len);
	free(exp);
}

T_CASE(send_3000_at_mtu_1024)
{
	uint32_t i;

	pair_default();
	ep_post_recv(&B, 4096);
	post_send_op(&A, ROCE_WR_SEND, 3000, 1);
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(fr_op(&A.tx[0]), ROCE_OP_RC_SEND_FIRST);
	T_EQ(fr_op(&A.tx[1]), ROCE_OP_RC_SEND_MIDDLE);
	T_EQ(fr_op(&A.tx[2]), ROCE_OP_RC_SEND_LAST);
	for (i = 0; i < 3; i++) {
		T_EQ(fr_psn(&A.tx[i]), 0x100 + i);
		T_EQ(fr_ackreq(&A.tx[i]), i == 2);
	}
	T_EQ(A.tx[0].len, 14 + 20 + 8 + 12 + 1024 + 4);
	T_EQ(A.tx[2].len, 14 + 20 + 8 + 12 + 952 + 4);
	/* The ACK timer runs from the first packet: 4.096 us << 14. */
	T_EQ(roce_qp_next_deadline(&A.qp), now + (4096ull << 14));
	ep_flush_to(&A, &B, now);
	T_EQ(B.nrdone, 1);
	check_sent_data(&B, 0, 3000, 1);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_ACK);
	T_EQ(fr_psn(&B.tx[0]), 0x102);
	T_EQ(fr_syndrome(&B.tx[0]), 0x1F);
	T_EQ(fr_msn(&B.tx[0]), 1);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[0].byte_len, 3000);
	T_EQ(roce_qp_next_deadline(&A.qp), ROCE_TIME_NEVER);
	T_EQ(roce_qp_sq_outstanding(&A.qp), 0);
}

T_CASE(segmentation_every_mtu)
{
	static const uint32_t mtus[] = { 256, 512, 1024, 2048, 4096 };
	unsigned int m, l;

	for (m = 0; m < 5; m++) {
		uint32_t mtu = mtus[m];
		uint32_t lens[] = { 0, 1, 3, mtu - 1, mtu, mtu + 1, 2 * mtu, 3 * mtu + 5 };
		struct ep_conf c = ep_default_conf();

		c.mtu = mtu;
		pair(&c);
		for (l = 0; l < 8; l++) {
			uint32_t len = lens[l], pk = len ? (len + mtu - 1) / mtu : 1, rd0 = B.nrdone;
			uint32_t s0 = A.nsdone, i;
			uint8_t *exp = malloc(len + 1);
			uint32_t rid;

			/* SEND: packet count and sizes, never an empty LAST */
			ep_post_recv(&B, len);
			post_send_op(&A, ROCE_WR_SEND, len, l);
			T_EQ(ep_pump(&A, now), pk);
			for (i = 0; i < A.ntx; i++) {
				uint32_t pl = A.tx[i].len - (14 + 20 + 8 + 12 + 4);
				uint32_t want = i + 1 < pk ? mtu : len - (pk - 1) * mtu;

				T_EQ(pl, (want + 3) & ~3u);
			}
			settle();
			T_EQ(B.nrdone, rd0 + 1);
			check_sent_data(&B, rd0, len, l);
			/* WRITE then READ it back */
			post_rdma(&A, &B, ROCE_WR_WRITE, 4096, len, 100 + l);
			rid = post_rdma(&A, &B, ROCE_WR_READ, 4096, len, 0);
			settle();
			T_EQ(A.nsdone, s0 + 3);
			for (i = s0; i < A.nsdone; i++)
				T_EQ(A.sdone[i].status, ROCE_WC_SUCCESS);
			fill(exp, len, 100 + l);
			T_MEMEQ(B.mem + 4096, exp, len);
			T_MEMEQ(A.wr_buf[rid], exp, len);
			free(exp);
		}
	}
}

/* Posts a 5-packet message of `op`, pumps it into A.tx. */
static void five_packets(uint8_t op)
{
	if (op == ROCE_WR_SEND) {
		ep_post_recv(&B, 8192);
		post_send_op(&A, ROCE_WR_SEND, 4 * 1024 + 100, 7);
	} else {
		post_rdma(&A, &B, ROCE_WR_WRITE, 512, 4 * 1024 + 100, 7);
	}
	T_EQ(ep_pump(&A, now), 5);
}

static void check_five_done(uint8_t op)
{
	uint8_t exp[4 * 1024 + 100];

	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	fill(exp, sizeof(exp), 7);
	if (op == ROCE_WR_SEND) {
		T_EQ(B.nrdone, 1);
		check_sent_data(&B, 0, sizeof(exp), 7);
	} else {
		T_MEMEQ(B.mem + 512, exp, sizeof(exp));
	}
	T_EQ(A.qp.state, ROCE_QPS_RTS);
	T_EQ(B.qp.state, ROCE_QPS_RTS);
}

T_CASE(loss_at_every_position)
{
	static const uint8_t ops[] = { ROCE_WR_SEND, ROCE_WR_WRITE };
	unsigned int o, k, i;

	for (o = 0; o < 2; o++) {
		for (k = 0; k < 5; k++) {
			pair_default();
			five_packets(ops[o]);
			for (i = 0; i < 5; i++)
				if (i != k)
					ep_deliver(&B, A.tx[i].b, A.tx[i].len, now);
			A.ntx = 0;
			if (k < 4) {
				/* One sequence NAK for the gap, naming the lost PSN. */
				T_EQ(ep_pump(&B, now), 1);
				T_EQ(fr_syndrome(&B.tx[0]), ROCE_SYN_NAK_PSN_SEQ);
				T_EQ(fr_psn(&B.tx[0]), 0x100 + k);
				T_EQ(B.qp.stats.drops[ROCE_R_PSN_AHEAD], 4 - k);
				ep_flush_to(&B, &A, now);
				/* Go-back-N resends from the lost packet. */
				T_EQ(ep_pump(&A, now), 5 - k);
				T_EQ(fr_psn(&A.tx[0]), 0x100 + k);
				T_EQ(A.qp.stats.retransmits, 5 - k);
			}
			settle();
			check_five_done(ops[o]);
			T_EQ(A.qp.stats.timeouts, k == 4 ? 1 : 0);
		}
	}
}

T_CASE(duplicate_at_every_position)
{
	static const uint8_t ops[] = { ROCE_WR_SEND, ROCE_WR_WRITE };
	unsigned int o, k, i;

	for (o = 0; o < 2; o++) {
		for (k = 0; k < 5; k++) {
			pair_default();
			five_packets(ops[o]);
			for (i = 0; i < 5; i++) {
				ep_deliver(&B, A.tx[i].b, A.tx[i].len, now);
				if (i == k)
					T_EQ(ep_deliver(&B, A.tx[i].b, A.tx[i].len, now),
					     ROCE_R_DUPLICATE);
			}
			A.ntx = 0;
			T_EQ(B.qp.stats.dup_requests, 1);
			settle();
			check_five_done(ops[o]);
			T_EQ(A.qp.stats.retransmits, 0);
		}
	}
}

T_CASE(reorder_at_every_position)
{
	static const uint8_t ops[] = { ROCE_WR_SEND, ROCE_WR_WRITE };
	unsigned int o, k, i;

	for (o = 0; o < 2; o++) {
		for (k = 0; k < 4; k++) {
			pair_default();
			five_packets(ops[o]);
			for (i = 0; i < 5; i++) {
				unsigned int j = i == k ? k + 1 : i == k + 1 ? k : i;

				ep_deliver(&B, A.tx[j].b, A.tx[j].len, now);
			}
			A.ntx = 0;
			settle();
			check_five_done(ops[o]);
		}
	}
}

T_CASE(ack_loss_retransmits_on_timeout)
{
	pair_default();
	five_packets(ROCE_WR_SEND);
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 1);
	B.ntx = 0; /* the ACK is lost */
	T_EQ(ep_pump(&A, now), 0);
	now = roce_qp_next_deadline(&A.qp) - 1;
	roce_qp_timer(&A.qp, now);
	T_EQ(ep_pump(&A, now), 0);
	now++;
	roce_qp_timer(&A.qp, now);
	T_EQ(A.qp.stats.timeouts, 1);
	T_EQ(ep_pump(&A, now), 5);
	T_EQ(fr_psn(&A.tx[0]), 0x100);
	ep_flush_to(&A, &B, now);
	T_EQ(B.qp.stats.dup_requests, 5);
	T_EQ(ep_pump(&B, now), 1); /* five re-ACKs coalesced into one */
	T_EQ(fr_psn(&B.tx[0]), 0x104);
	ep_flush_to(&B, &A, now);
	check_five_done(ROCE_WR_SEND);
}

/* Never delivers anything; expires the timer until the QP fails. */
static unsigned int expire_until_error(unsigned int max)
{
	unsigned int n;

	for (n = 0; n < max && A.qp.state != ROCE_QPS_ERR; n++) {
		uint64_t dl;

		ep_pump(&A, now);
		A.ntx = 0;
		dl = roce_qp_next_deadline(&A.qp);
		if (dl == ROCE_TIME_NEVER)
			break;
		T_EQ(dl, now + roce_ack_timeout_ns(A.qp.timeout));
		now = dl;
		roce_qp_timer(&A.qp, now);
	}
	return n;
}

T_CASE(retry_exhaustion)
{
	struct ep_conf c = ep_default_conf();

	c.retry_cnt = 2;
	c.timeout = 8; /* 1.048576 ms */
	pair(&c);
	T_EQ(roce_ack_timeout_ns(8), 1048576);
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	post_send_op(&A, ROCE_WR_SEND, 10, 2);
	/* Two retries, then the third expiry fails the QP. */
	T_EQ(expire_until_error(100), 3);
	T_EQ(A.qp.stats.timeouts, 3);
	T_EQ(A.qp.stats.retransmits, 4);
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[0].status, ROCE_WC_RETRY_EXC_ERR);
	T_EQ(A.sdone[0].id, 0);
	T_EQ(A.sdone[1].status, ROCE_WC_WR_FLUSH_ERR);
	T_EQ(A.nerr, 1);
	T_EQ(A.err_status, ROCE_WC_RETRY_EXC_ERR);
	T_EQ(A.qp.state, ROCE_QPS_ERR);
	T_EQ(roce_qp_next_deadline(&A.qp), ROCE_TIME_NEVER);
	/* Posting to a QP in error completes at once with a flush. */
	post_send_op(&A, ROCE_WR_SEND, 10, 3);
	T_EQ(A.nsdone, 3);
	T_EQ(A.sdone[2].status, ROCE_WC_WR_FLUSH_ERR);
	T_EQ(ep_pump(&A, now), 0);

	/* IBTA: retry_cnt 7 means 7 retries. */
	c.retry_cnt = 7;
	pair(&c);
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	T_EQ(expire_until_error(100), 8);
	T_EQ(A.sdone[0].status, ROCE_WC_RETRY_EXC_ERR);

	/* rxe compatibility: 7 is infinite. */
	pair(&c);
	{
		struct roce_qp_attr a = { .flags = ROCE_QP_F_RETRY7_INFINITE };

		roce_qp_modify(&A.qp, &a, ROCE_QP_FLAGS);
	}
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	T_EQ(expire_until_error(50), 50);
	T_EQ(A.qp.state, ROCE_QPS_RTS);
	T_EQ(A.nsdone, 0);
	/* ...and the message still gets through once the wire works. */
	ep_post_recv(&B, 10);
	settle();
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
}

T_CASE(rnr_nak_wait_and_retry)
{
	uint64_t t0, wait = roce_rnr_timer_ns(12);

	T_EQ(wait, 640000);
	pair_default();
	post_send_op(&A, ROCE_WR_SEND, 100, 5);
	ep_pump(&A, now);
	ep_flush_to(&A, &B, now);
	T_EQ(B.qp.stats.drops[ROCE_R_RNR], 1);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_ACK);
	T_EQ(fr_syndrome(&B.tx[0]), 0x20 | 12);
	T_EQ(fr_psn(&B.tx[0]), 0x100);
	ep_flush_to(&B, &A, now);
	t0 = now;
	T_EQ(roce_qp_next_deadline(&A.qp), t0 + wait);
	T_EQ(ep_pump(&A, now), 0);
	now = t0 + wait - 1;
	roce_qp_timer(&A.qp, now);
	T_EQ(ep_pump(&A, now), 0);
	ep_post_recv(&B, 100);
	now = t0 + wait;
	roce_qp_timer(&A.qp, now);
	T_EQ(ep_pump(&A, now), 1);
	settle();
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	check_sent_data(&B, 0, 100, 5);
	T_EQ(A.qp.stats.rnr_naks_rx, 1);
}

T_CASE(rnr_retry_exhaustion_and_infinite)
{
	struct ep_conf c = ep_default_conf();
	int i;

	c.rnr_retry = 2;
	pair(&c);
	post_send_op(&A, ROCE_WR_SEND, 100, 5);
	post_send_op(&A, ROCE_WR_WRITE, 0, 6);
	settle();
	T_EQ(A.qp.stats.rnr_naks_rx, 3);
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[0].status, ROCE_WC_RNR_RETRY_EXC_ERR);
	T_EQ(A.sdone[1].status, ROCE_WC_WR_FLUSH_ERR);
	T_EQ(A.qp.state, ROCE_QPS_ERR);
	T_EQ(B.qp.state, ROCE_QPS_RTS); /* RNR is not an error at the responder */

	c.rnr_retry = 7;
	pair(&c);
	post_send_op(&A, ROCE_WR_SEND, 100, 5);
	for (i = 0; i < 40; i++) {
		ep_pump(&A, now);
		ep_flush_to(&A, &B, now);
		ep_pump(&B, now);
		ep_flush_to(&B, &A, now);
		now = roce_qp_next_deadline(&A.qp);
		roce_qp_timer(&A.qp, now);
	}
	T_EQ(A.qp.stats.rnr_naks_rx, 40);
	T_EQ(A.nsdone, 0);
	T_EQ(A.qp.state, ROCE_QPS_RTS);
	ep_post_recv(&B, 100);
	settle();
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
}

/*
 * rnr_retry = 7 against a peer that keeps its RQ empty (issue 12, defect 8): each round the
 * responder RNR-NAKs the first packet and NAKs the rest of the window out of sequence (as rxe
 * does). When that sequence NAK arrives after the RNR wait is over (the resend already left),
 * it was charged to the transport retry budget, which never refills without progress: the QP
 * failed with RETRY_EXC_ERR after retry_cnt + 1 rounds. Those NAKs are the RNR episode's own.
 */
T_CASE(rnr_forever_with_seq_naks_after_the_wait)
{
	struct ep_conf c = ep_default_conf();
	uint32_t round, i, seq_naks = 0;
	struct ep_frame seq;

	c.rnr_retry = 7;
	c.retry_cnt = 3;
	pair(&c);
	post_send_op(&A, ROCE_WR_SEND, 100, 5);
	post_send_op(&A, ROCE_WR_SEND, 100, 6);
	post_send_op(&A, ROCE_WR_SEND, 100, 7);
	for (round = 0; round < 40; round++) {
		ep_pump(&A, now);
		ep_flush_to(&A, &B, now);
		ep_pump(&B, now);
		T_CHECK(B.ntx >= 1);
		if (B.ntx == 0)
			break;
		T_EQ(fr_syndrome(&B.tx[0]) & 0xE0, 0x20); /* RNR NAK first */
		/* rxe answers the rest of the window with a sequence NAK naming the same PSN
		 * (lib/roce's responder stays silent): the same frame, syndrome NAK-sequence. */
		seq = B.tx[0];
		seq.b[54] = ROCE_SYN_NAK_PSN_SEQ;
		roce_icrc_put(seq.b + seq.len - 4, roce_icrc_compute(seq.b + 14, seq.len - 18, 0));
		ep_deliver(&A, B.tx[0].b, B.tx[0].len, now);
		/* The RNR timer runs out before the rest of the responder's answers arrive. */
		now = roce_qp_next_deadline(&A.qp);
		roce_qp_timer(&A.qp, now);
		for (i = 1; i < B.ntx; i++)
			ep_deliver(&A, B.tx[i].b, B.tx[i].len, now);
		T_EQ(ep_deliver(&A, seq.b, seq.len, now), 0);
		seq_naks++;
		B.ntx = 0;
		if (A.qp.state != ROCE_QPS_RTS)
			break;
	}
	T_EQ(seq_naks, 40);
	T_EQ(A.qp.stats.seq_naks_rx, 40);
	T_EQ(A.qp.state, ROCE_QPS_RTS);
	T_EQ(A.nsdone, 0);
	T_CHECK(A.qp.stats.rnr_naks_rx >= 40);
	/* Progress at last: all three complete, in order. */
	ep_post_recv(&B, 100);
	ep_post_recv(&B, 100);
	ep_post_recv(&B, 100);
	settle();
	T_EQ(A.nsdone, 3);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[2].status, ROCE_WC_SUCCESS);
	check_sent_data(&B, 0, 100, 5);
	check_sent_data(&B, 2, 100, 7);
}

T_CASE(error_naks)
{
	struct roce_send_wr wr;
	struct roce_qp_attr a;

	/* Remote access: bad R_Key on a WRITE. */
	pair_default();
	memset(&wr, 0, sizeof(wr));
	wr.id = next_id++;
	wr.op = ROCE_WR_WRITE;
	wr.len = 64;
	wr.raddr = B.mem_va;
	wr.rkey = B.rkey + 1;
	ep_post(&A, &wr, NULL);
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	ep_post_recv(&B, 10);
	settle();
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[0].status, ROCE_WC_REM_ACCESS_ERR);
	T_EQ(A.sdone[1].status, ROCE_WC_WR_FLUSH_ERR);
	T_EQ(A.qp.stats.err_naks_rx, 1);
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	T_EQ(B.nerr, 1);
	T_EQ(B.qp.stats.drops[ROCE_R_REMOTE_ACCESS], 1);

	/* Out of bounds is a remote access error too. */
	pair_default();
	post_rdma(&A, &B, ROCE_WR_READ, B.mem_len - 8, 16, 0);
	settle();
	T_EQ(A.sdone[0].status, ROCE_WC_REM_ACCESS_ERR);

	/* Invalid request: READ without remote read access. */
	pair_default();
	a.access = ROCE_ACCESS_REMOTE_WRITE;
	roce_qp_modify(&B.qp, &a, ROCE_QP_ACCESS);
	post_rdma(&A, &B, ROCE_WR_READ, 0, 16, 0);
	settle();
	T_EQ(A.sdone[0].status, ROCE_WC_REM_INV_REQ_ERR);
	T_EQ(B.qp.stats.drops[ROCE_R_INVALID_REQ], 1);

	/* SEND longer than the receive buffer: invalid request, LOC_LEN_ERR there. */
	pair_default();
	ep_post_recv(&B, 100);
	ep_post_recv(&B, 100);
	post_send_op(&A, ROCE_WR_SEND, 2000, 1);
	settle();
	T_EQ(A.sdone[0].status, ROCE_WC_REM_INV_REQ_ERR);
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.status, ROCE_WC_LOC_LEN_ERR);
	T_EQ(B.err_status, ROCE_WC_LOC_LEN_ERR);

	/* Local protection failure while placing: remote operational error. */
	pair_default();
	ep_post_recv(&B, 100);
	B.fail_place = -EACCES;
	post_send_op(&A, ROCE_WR_SEND, 50, 1);
	settle();
	T_EQ(A.sdone[0].status, ROCE_WC_REM_OP_ERR);
	T_EQ(B.rdone[0].d.status, ROCE_WC_LOC_PROT_ERR);

	/* Misaligned atomic: invalid request. */
	pair_default();
	memset(&wr, 0, sizeof(wr));
	wr.id = next_id++;
	wr.op = ROCE_WR_FETCH_ADD;
	wr.len = 8;
	wr.raddr = B.mem_va + 4;
	T_EQ(ep_post(&A, &wr, NULL), -EINVAL); /* caught at post */
	/* IRD 0: READ is an invalid request. */
	a.max_dest_rd_atomic = 0;
	roce_qp_modify(&B.qp, &a, ROCE_QP_MAX_DEST_RD_ATOMIC);
	post_rdma(&A, &B, ROCE_WR_READ, 0, 16, 0);
	settle();
	T_EQ(A.sdone[0].status, ROCE_WC_REM_INV_REQ_ERR);
}

T_CASE(read_response_loss_every_position_replays)
{
	unsigned int k, i;
	const uint32_t len = 4 * 1024 + 100;

	for (k = 0; k < 5; k++) {
		struct roce_pkt q;
		uint32_t rid;

		pair_default();
		rid = post_rdma(&A, &B, ROCE_WR_READ, 2048, len, 0);
		T_EQ(ep_pump(&A, now), 1);
		T_EQ(fr_op(&A.tx[0]), ROCE_OP_RC_READ_REQ);
		T_CHECK(fr_ackreq(&A.tx[0]));
		ep_flush_to(&A, &B, now);
		T_EQ(ep_pump(&B, now), 5);
		T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_READ_RESP_FIRST);
		T_EQ(fr_op(&B.tx[4]), ROCE_OP_RC_READ_RESP_LAST);
		for (i = 0; i < 5; i++) {
			T_EQ(fr_psn(&B.tx[i]), 0x100 + i);
			if (i != k)
				ep_deliver(&A, B.tx[i].b, B.tx[i].len, now);
		}
		B.ntx = 0;
		T_EQ(A.nsdone, 0);
		/* The timer re-issues the READ for the missing part only. */
		now = roce_qp_next_deadline(&A.qp);
		roce_qp_timer(&A.qp, now);
		T_EQ(ep_pump(&A, now), 1);
		T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
		T_EQ(q.opcode, ROCE_OP_RC_READ_REQ);
		T_EQ(q.psn, 0x100 + k);
		T_EQ(q.reth.va, B.mem_va + 2048 + k * 1024);
		T_EQ(q.reth.len, len - k * 1024);
		settle();
		T_EQ(B.qp.stats.read_replays, 1);
		T_EQ(A.nsdone, 1);
		T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
		T_MEMEQ(A.wr_buf[rid], B.mem + 2048, len);
		/* The next request uses the PSN after the READ's five. */
		post_send_op(&A, ROCE_WR_SEND, 4, 1);
		ep_post_recv(&B, 4);
		T_EQ(ep_pump(&A, now), 1);
		T_EQ(fr_psn(&A.tx[0]), 0x105);
		settle();
	}
}

T_CASE(read_request_loss_and_zero_length)
{
	uint32_t rid;

	pair_default();
	rid = post_rdma(&A, &B, ROCE_WR_READ, 0, 300, 0);
	ep_pump(&A, now);
	A.ntx = 0; /* request lost */
	settle();
	T_EQ(A.nsdone, 1);
	T_EQ(B.qp.stats.read_replays, 0);
	T_MEMEQ(A.wr_buf[rid], B.mem, 300);
	/* Zero-length READ: one response, no key check. */
	{
		struct roce_send_wr wr = { .id = 50, .op = ROCE_WR_READ, .len = 0, .rkey = 0xDEAD };

		ep_post(&A, &wr, NULL);
	}
	T_EQ(ep_pump(&A, now), 1);
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_READ_RESP_ONLY);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[1].status, ROCE_WC_SUCCESS);
}

T_CASE(atomics_and_replay)
{
	struct roce_send_wr wr;
	uint64_t v = 40, got;

	pair_default();
	memcpy(B.mem + 64, &v, 8);
	memset(&wr, 0, sizeof(wr));
	wr.id = 0;
	wr.op = ROCE_WR_FETCH_ADD;
	wr.len = 8;
	wr.raddr = B.mem_va + 64;
	wr.rkey = B.rkey;
	wr.swap_add = 2;
	ep_post(&A, &wr, NULL);
	ep_pump(&A, now);
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_ATOMIC_ACK);
	B.ntx = 0; /* ATOMIC ACK lost */
	settle();
	T_EQ(B.qp.stats.atomic_replays, 1);
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[0].atomic_orig, 40);
	memcpy(&got, B.mem + 64, 8);
	T_EQ(got, 42); /* executed once */

	/* CMP_SWAP: a miss and a hit */
	wr.id = 1;
	wr.op = ROCE_WR_CMP_SWAP;
	wr.cmp = 7;
	wr.swap_add = 99;
	ep_post(&A, &wr, NULL);
	wr.id = 2;
	wr.cmp = 42;
	ep_post(&A, &wr, NULL);
	settle();
	T_EQ(A.nsdone, 3);
	T_EQ(A.sdone[1].atomic_orig, 42);
	T_EQ(A.sdone[2].atomic_orig, 42);
	memcpy(&got, B.mem + 64, 8);
	T_EQ(got, 99);
	T_EQ(B.qp.resp.msn, 3);
}

T_CASE(ack_coalescing_and_response_order)
{
	uint32_t i;

	pair_default();
	for (i = 0; i < 4; i++) {
		ep_post_recv(&B, 16);
		post_send_op(&A, ROCE_WR_SEND, 16, i);
	}
	T_EQ(ep_pump(&A, now), 4);
	for (i = 0; i < 4; i++)
		T_CHECK(fr_ackreq(&A.tx[i]));
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_psn(&B.tx[0]), 0x103);
	T_EQ(fr_msn(&B.tx[0]), 4);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 4);

	/* SEND, READ (2 packets), SEND: ACK, READ responses, ACK, in PSN order. */
	ep_post_recv(&B, 16);
	ep_post_recv(&B, 16);
	post_send_op(&A, ROCE_WR_SEND, 16, 9);
	post_rdma(&A, &B, ROCE_WR_READ, 0, 1500, 0);
	post_send_op(&A, ROCE_WR_SEND, 16, 10);
	T_EQ(ep_pump(&A, now), 3);
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 4);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_ACK);
	T_EQ(fr_psn(&B.tx[0]), 0x104);
	T_EQ(fr_op(&B.tx[1]), ROCE_OP_RC_READ_RESP_FIRST);
	T_EQ(fr_psn(&B.tx[1]), 0x105);
	T_EQ(fr_op(&B.tx[2]), ROCE_OP_RC_READ_RESP_LAST);
	T_EQ(fr_op(&B.tx[3]), ROCE_OP_RC_ACK);
	T_EQ(fr_psn(&B.tx[3]), 0x107);
	T_EQ(fr_msn(&B.tx[3]), 7);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 7);
	T_EQ(A.qp.stats.implicit_naks, 0);
}

T_CASE(implicit_nak_when_read_response_lost_before_ack)
{
	uint32_t rid;

	pair_default();
	ep_post_recv(&B, 16);
	rid = post_rdma(&A, &B, ROCE_WR_READ, 0, 100, 0);
	post_send_op(&A, ROCE_WR_SEND, 16, 1);
	ep_pump(&A, now);
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 2);
	/* Only the ACK of the SEND arrives: the READ response must have been lost. */
	ep_deliver(&A, B.tx[1].b, B.tx[1].len, now);
	B.ntx = 0;
	T_EQ(A.qp.stats.implicit_naks, 1);
	T_EQ(A.nsdone, 0);
	settle();
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[1].status, ROCE_WC_SUCCESS);
	T_MEMEQ(A.wr_buf[rid], B.mem, 100);
	T_EQ(B.nrdone, 1);
}

T_CASE(ord_limit_and_fence)
{
	struct ep_conf c = ep_default_conf();
	struct roce_send_wr wr;
	uint32_t i;

	c.max_rd_atomic = 2;
	pair(&c);
	for (i = 0; i < 4; i++)
		post_rdma(&A, &B, ROCE_WR_READ, i * 64, 64, 0);
	T_EQ(ep_pump(&A, now), 2);
	ep_flush_to(&A, &B, now);
	ep_pump(&B, now);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 2);
	T_EQ(ep_pump(&A, now), 2);
	settle();
	T_EQ(A.nsdone, 4);

	/* A fenced SEND waits for the READ before it. */
	post_rdma(&A, &B, ROCE_WR_READ, 0, 64, 0);
	memset(&wr, 0, sizeof(wr));
	wr.id = next_id++;
	wr.op = ROCE_WR_SEND;
	wr.len = 8;
	wr.flags = ROCE_WR_F_FENCE;
	ep_post(&A, &wr, "fenced!!");
	ep_post_recv(&B, 8);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(fr_op(&A.tx[0]), ROCE_OP_RC_READ_REQ);
	ep_flush_to(&A, &B, now);
	ep_pump(&B, now);
	ep_flush_to(&B, &A, now);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(fr_op(&A.tx[0]), ROCE_OP_RC_SEND_ONLY);
	settle();
	T_EQ(A.nsdone, 6);
}

T_CASE(psn_wraparound)
{
	struct ep_conf c = ep_default_conf();
	unsigned int i;

	c.sq_psn_a = 0xFFFFFE;
	pair(&c);
	ep_post_recv(&B, 8192);
	post_send_op(&A, ROCE_WR_SEND, 4 * 1024 + 100, 7);
	T_EQ(ep_pump(&A, now), 5);
	T_EQ(fr_psn(&A.tx[0]), 0xFFFFFE);
	T_EQ(fr_psn(&A.tx[2]), 0);
	for (i = 0; i < 5; i++)
		if (i != 2)
			ep_deliver(&B, A.tx[i].b, A.tx[i].len, now);
	A.ntx = 0;
	settle();
	check_five_done(ROCE_WR_SEND);
	T_EQ(A.qp.req.una, 3);
}

T_CASE(opcode_sequence_and_length_violations)
{
	struct roce_pkt q;

	/* A MIDDLE where a message must start: invalid request NAK. */
	pair_default();
	ep_post_recv(&B, 4096);
	post_send_op(&A, ROCE_WR_SEND, 3000, 1);
	ep_pump(&A, now);
	T_EQ(roce_pkt_parse(A.tx[1].b, A.tx[1].len, 0, &q), 0);
	q.psn = 0x100;
	T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_OPSEQ);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_syndrome(&B.tx[0]), ROCE_SYN_NAK_INV_REQ);
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	/* Nothing else is accepted afterwards. */
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_QP_STATE);

	/* A FIRST shorter than the path MTU. */
	pair_default();
	ep_post_recv(&B, 4096);
	post_send_op(&A, ROCE_WR_SEND, 3000, 1);
	ep_pump(&A, now);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	q.paylen = 1020;
	T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_LENGTH);
	T_EQ(B.qp.state, ROCE_QPS_ERR);

	/* A WRITE whose packets do not add up to the RETH length. */
	pair_default();
	post_rdma(&A, &B, ROCE_WR_WRITE, 0, 100, 1);
	ep_pump(&A, now);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	q.reth.len = 104;
	T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_LENGTH);

	/* Wrong peer address, wrong QPN, response before RTS. */
	pair_default();
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	ep_pump(&A, now);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	q.sgid[15] ^= 1; /* the frame's source, as the parse gives it both ways */
	((uint8_t *)&q.ip4_src)[3] ^= 1;
	T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_ADDR);
	q.sgid[15] ^= 1;
	((uint8_t *)&q.ip4_src)[3] ^= 1;
	q.dqpn = 0x99;
	T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_QPN);
	T_EQ(B.qp.stats.drops[ROCE_R_ADDR], 1);
}

/* The RC address check of an IPv4 frame compares the header's addresses (ip4_src, ip4_dst)
 * with the connection's IPv4-mapped GIDs, 32 bits each, and takes no IPv4 frame for a
 * connection over IPv6; an IPv6 frame's GIDs are compared whole. */
T_CASE(rx_address_check_ipv4_ipv6)
{
	struct roce_qp_attr a;
	struct roce_pkt q;
	uint32_t i;

	pair_default();
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	ep_pump(&A, now);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	T_EQ(q.ipv6, 0);
	T_CHECK(memcmp(&q.ip4_src, q.sgid + 12, 4) == 0 && memcmp(&q.ip4_dst, q.dgid + 12, 4) == 0);
	T_CHECK(memcmp(&q.ip4_src, B.qp.av.dgid + 12, 4) == 0);
	/* each byte of either address counts */
	for (i = 0; i < 8; i++) {
		uint8_t *b = (i < 4 ? (uint8_t *)&q.ip4_src : (uint8_t *)&q.ip4_dst) + i % 4;

		*b ^= 0x80;
		T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_ADDR);
		*b ^= 0x80;
	}
	T_EQ(B.qp.stats.drops[ROCE_R_ADDR], 8);
	/* source and destination swapped: not the peer's frame */
	{
		uint32_t t = q.ip4_src;

		q.ip4_src = q.ip4_dst;
		q.ip4_dst = t;
		T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_ADDR);
		q.ip4_dst = q.ip4_src;
		q.ip4_src = t;
	}
	/* B's connection moved to IPv6 GIDs ending in the same 32 bits: the IPv4 frame is
	 * not the peer's, however its addresses end */
	memset(&a, 0, sizeof(a));
	a.av = B.av;
	roce_gid_parse("fd00::", a.av.sgid);
	roce_gid_parse("fd00::", a.av.dgid);
	memcpy(a.av.sgid + 12, &q.ip4_dst, 4);
	memcpy(a.av.dgid + 12, &q.ip4_src, 4);
	T_EQ(roce_qp_modify(&B.qp, &a, ROCE_QP_AV), 0);
	T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_ADDR);
	/* an IPv6 frame with those GIDs is */
	memcpy(q.sgid, a.av.dgid, 16);
	memcpy(q.dgid, a.av.sgid, 16);
	q.ipv6 = 1;
	T_CHECK(roce_qp_rx(&B.qp, &q, now) != ROCE_R_ADDR);
	T_EQ(B.qp.stats.drops[ROCE_R_ADDR], 10);
}

T_CASE(stray_and_duplicate_responses)
{
	struct roce_pkt q;

	pair_default();
	ep_post_recv(&B, 16);
	post_send_op(&A, ROCE_WR_SEND, 16, 1);
	settle();
	T_EQ(A.nsdone, 1);
	/* Replay the ACK: stale, ignored. Then an ACK for a PSN never sent. */
	ep_post_recv(&B, 16);
	post_send_op(&A, ROCE_WR_SEND, 16, 2);
	ep_pump(&A, now);
	ep_flush_to(&A, &B, now);
	ep_pump(&B, now);
	T_EQ(roce_pkt_parse(B.tx[0].b, B.tx[0].len, 0, &q), 0);
	q.psn = 0x150;
	T_EQ(roce_qp_rx(&A.qp, &q, now), ROCE_R_RESP_PSN);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 2);
	T_EQ(roce_qp_rx(&A.qp, &q, now), ROCE_R_RESP_PSN);
	q.psn = 0x101;
	T_EQ(roce_qp_rx(&A.qp, &q, now), 0); /* duplicate ACK, harmless */
	T_EQ(A.nsdone, 2);
	/* An ATOMIC ACK for a SEND: bad response, QP to error. */
	ep_post_recv(&B, 16);
	post_send_op(&A, ROCE_WR_SEND, 16, 3);
	ep_pump(&A, now);
	q.opcode = ROCE_OP_RC_ATOMIC_ACK;
	q.oi = roce_opcode_get(q.opcode);
	q.psn = 0x102;
	T_EQ(roce_qp_rx(&A.qp, &q, now), ROCE_R_RESP_UNEXPECTED);
	T_EQ(A.sdone[2].status, ROCE_WC_BAD_RESP_ERR);
	T_EQ(A.qp.state, ROCE_QPS_ERR);
}

T_CASE(reset_and_modify_checks)
{
	struct roce_qp_attr a;

	pair_default();
	memset(&a, 0, sizeof(a));
	a.path_mtu = 1000;
	T_EQ(roce_qp_modify(&A.qp, &a, ROCE_QP_PATH_MTU), -EINVAL);
	a.retry_cnt = 8;
	T_EQ(roce_qp_modify(&A.qp, &a, ROCE_QP_RETRY_CNT), -EINVAL);
	a.max_dest_rd_atomic = 17;
	T_EQ(roce_qp_modify(&A.qp, &a, ROCE_QP_MAX_DEST_RD_ATOMIC), -EINVAL);
	post_send_op(&A, ROCE_WR_SEND, 10, 1);
	a.state = ROCE_QPS_RESET;
	T_EQ(roce_qp_modify(&A.qp, &a, ROCE_QP_STATE), 0);
	T_EQ(roce_qp_sq_outstanding(&A.qp), 0);
	T_EQ(ep_pump(&A, now), 0);
	{
		struct roce_send_wr wr = { .op = ROCE_WR_SEND, .len = 1 };

		T_EQ(roce_qp_post_send(&A.qp, &wr), -EINVAL); /* not in RTS */
	}
	T_CHECK(strcmp(roce_qp_state_name(ROCE_QPS_RTS), "RTS") == 0);
}

T_CASE(read_response_dup_and_reorder_every_position)
{
	const uint32_t len = 4 * 1024 + 100;
	unsigned int k, i, mode;

	for (mode = 0; mode < 2; mode++) {
		for (k = 0; k < 5; k++) {
			uint32_t rid;

			if (mode == 1 && k == 4)
				continue;
			pair_default();
			rid = post_rdma(&A, &B, ROCE_WR_READ, 100, len, 0);
			ep_pump(&A, now);
			ep_flush_to(&A, &B, now);
			T_EQ(ep_pump(&B, now), 5);
			for (i = 0; i < 5; i++) {
				unsigned int j = i;

				if (mode == 1)
					j = i == k ? k + 1 : i == k + 1 ? k : i;
				ep_deliver(&A, B.tx[j].b, B.tx[j].len, now);
				if (mode == 0 && i == k)
					T_EQ(ep_deliver(&A, B.tx[j].b, B.tx[j].len, now),
					     ROCE_R_RESP_PSN);
			}
			B.ntx = 0;
			settle();
			T_EQ(A.nsdone, 1);
			T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
			T_MEMEQ(A.wr_buf[rid], B.mem + 100, len);
			/* A duplicate costs nothing; a swap is a gap the timer recovers. */
			T_EQ(A.qp.stats.timeouts, mode == 1 ? 1 : 0);
		}
	}
}

T_CASE(write_imm_rnr_at_last_packet)
{
	uint8_t exp[2500];
	uint32_t i;

	pair_default();
	post_rdma(&A, &B, ROCE_WR_WRITE_IMM, 256, 2500, 3);
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(fr_op(&A.tx[0]), ROCE_OP_RC_WRITE_FIRST);
	T_EQ(fr_op(&A.tx[2]), ROCE_OP_RC_WRITE_LAST_IMM);
	ep_flush_to(&A, &B, now);
	/* FIRST and MIDDLE are placed; LAST needs a receive WQE: RNR NAK at its PSN. */
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_syndrome(&B.tx[0]) & 0x60, 0x20);
	T_EQ(fr_psn(&B.tx[0]), 0x102);
	ep_flush_to(&B, &A, now);
	ep_post_recv(&B, 0);
	now = roce_qp_next_deadline(&A.qp);
	roce_qp_timer(&A.qp, now);
	T_EQ(ep_pump(&A, now), 1); /* only the LAST again */
	T_EQ(fr_psn(&A.tx[0]), 0x102);
	settle();
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.opcode, ROCE_RECV_WRITE_IMM);
	T_EQ(B.rdone[0].d.byte_len, 2500);
	T_EQ(B.rdone[0].d.flags & ROCE_RECV_F_IMM, ROCE_RECV_F_IMM);
	T_EQ(B.rdone[0].d.imm, 0xBEEF0003u);
	fill(exp, sizeof(exp), 3);
	T_MEMEQ(B.mem + 256, exp, sizeof(exp));
	for (i = 0; i < 1; i++)
		T_EQ(B.qp.resp.msn, 1);
}

T_CASE(send_with_invalidate_and_solicited)
{
	struct roce_send_wr wr;

	pair_default();
	ep_post_recv(&B, 2000);
	ep_post_recv(&B, 16);
	memset(&wr, 0, sizeof(wr));
	wr.id = next_id++;
	wr.op = ROCE_WR_SEND_INV;
	wr.len = 1500;
	wr.imm = 0x4242;
	wr.flags = ROCE_WR_F_SOLICITED;
	ep_post(&A, &wr, NULL);
	post_send_op(&A, ROCE_WR_SEND_IMM, 16, 4);
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(fr_op(&A.tx[0]), ROCE_OP_RC_SEND_FIRST);
	T_EQ(A.tx[0].b[43] & 0x80, 0); /* SE only on the last packet */
	T_EQ(fr_op(&A.tx[1]), ROCE_OP_RC_SEND_LAST_INV);
	T_EQ(A.tx[1].b[43] & 0x80, 0x80);
	T_EQ(fr_op(&A.tx[2]), ROCE_OP_RC_SEND_ONLY_IMM);
	T_EQ(A.tx[2].b[43] & 0x80, 0);
	settle();
	T_EQ(B.nrdone, 2);
	T_EQ(B.rdone[0].d.flags, ROCE_RECV_F_INV | ROCE_RECV_F_SOLICITED);
	T_EQ(B.rdone[0].d.imm, 0x4242);
	T_EQ(B.rdone[0].d.byte_len, 1500);
	T_EQ(B.rdone[1].d.flags, ROCE_RECV_F_IMM);
	T_EQ(B.rdone[1].d.imm, 0xC0DE0004u);
}

T_CASE(ipv6_and_vlan_connection)
{
	struct roce_qp_attr a;
	struct roce_pkt q;

	pair_default();
	memset(&a, 0, sizeof(a));
	a.av = A.av;
	roce_gid_parse("fd00::a", a.av.sgid);
	roce_gid_parse("fd00::b", a.av.dgid);
	a.av.has_vlan = 1;
	a.av.vlan_tci = 7;
	a.av.flow_label = 0x12345;
	a.av.sport = 0;
	roce_qp_modify(&A.qp, &a, ROCE_QP_AV);
	a.av = B.av;
	roce_gid_parse("fd00::b", a.av.sgid);
	roce_gid_parse("fd00::a", a.av.dgid);
	a.av.has_vlan = 1;
	a.av.vlan_tci = 7;
	a.av.flow_label = 0x12345;
	a.av.sport = 0;
	roce_qp_modify(&B.qp, &a, ROCE_QP_AV);
	ep_post_recv(&B, 3000);
	post_send_op(&A, ROCE_WR_SEND, 3000, 8);
	ep_pump(&A, now);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	T_EQ(q.ipv6, 1);
	T_EQ(q.has_vlan, 1);
	T_EQ(q.flow_label, 0x12345);
	T_EQ(q.sport, roce_udp_sport(0, 0, 0x12345));
	/* Delivery through the VLAN/IPv6 parse path (fr_* helpers assume IPv4). */
	{
		uint32_t i;

		for (i = 0; i < A.ntx; i++)
			T_EQ(ep_deliver(&B, A.tx[i].b, A.tx[i].len, now), 0);
		A.ntx = 0;
	}
	settle();
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	check_sent_data(&B, 0, 3000, 8);
}

T_CASE(wants_tx_and_init_checks)
{
	struct roce_qp_init_attr ia = { .type = ROCE_QPT_RC, .qpn = 5, .sq_depth = 3,
					.max_rd_res = 2, .ops = &ep_ops };
	struct roce_qp q;
	void *mem;

	pair_default();
	T_EQ(roce_qp_wants_tx(&A.qp, now), 0);
	post_send_op(&A, ROCE_WR_SEND, 8, 1);
	T_EQ(roce_qp_wants_tx(&A.qp, now), 1);
	ep_pump(&A, now);
	T_EQ(roce_qp_wants_tx(&A.qp, now), 0);
	ep_flush_to(&A, &B, now);
	T_EQ(roce_qp_wants_tx(&B.qp, now), 1); /* the RNR NAK */
	ep_pump(&B, now);
	ep_flush_to(&B, &A, now);
	T_EQ(roce_qp_wants_tx(&A.qp, now), 0); /* waiting out the RNR timer */
	T_EQ(roce_qp_wants_tx(&A.qp, roce_qp_next_deadline(&A.qp)), 1);
	ep_post_recv(&B, 8);
	settle();
	T_EQ(A.nsdone, 1);

	/* sq_depth rounds up to a power of two; memory is exactly what was asked for */
	T_EQ(roce_qp_mem_size(&ia), 4 * sizeof(struct roce_swqe) + 2 * sizeof(struct roce_rd_res) +
					    16 * sizeof(struct roce_job));
	mem = malloc(roce_qp_mem_size(&ia));
	T_EQ(roce_qp_init(&q, &ia, mem), 0);
	T_EQ(q.req.mask, 3);
	T_EQ(q.max_unacked_psn, 128);
	ia.qpn = 0;
	T_EQ(roce_qp_init(&q, &ia, mem), -EINVAL);
	ia.qpn = 1u << 24;
	T_EQ(roce_qp_init(&q, &ia, mem), -EINVAL);
	ia.qpn = 5;
	ia.ops = NULL;
	T_EQ(roce_qp_init(&q, &ia, mem), -EINVAL);
	free(mem);
}

int main(int argc, char **argv)
{
	int rc = t_main(argc, argv);

	ep_free(&A);
	ep_free(&B);
	return rc;
}
