/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The responder's fast paths for in-order RDMA WRITE ONLY/MIDDLE/LAST, SEND ONLY and READ: what
 * they accept they execute exactly as the general path (memory or receive, MSN, ACK; no
 * receive: RNR NAK; too long: NAK invalid request), and everything else falls back
 * to the general path with its own answer: a PSN ahead (one sequence NAK), a duplicate
 * (re-ACK, memory not written twice), an opcode out of sequence (NAK invalid request), a
 * bad R_Key (NAK remote access, nothing written), remote write not allowed, a zero-length
 * WRITE ONLY. And the completer's fast paths for the ACK and the READ RESPONSE ONLY.
 */
#include "irdma_test.h"
#include "roce_ep.h"

static struct ep A, B;
static uint64_t now = 1000000;

static void pair(uint32_t mtu)
{
	struct ep_conf c = ep_default_conf();

	ep_free(&A);
	ep_free(&B);
	c.mtu = mtu;
	ep_setup(&A, 0x11, 0x12, 1, &c);
	ep_setup(&B, 0x12, 0x11, 0, &c);
}

static void post_write(uint32_t id, uint32_t off, uint32_t len, uint32_t rkey, uint8_t seed)
{
	struct roce_send_wr wr = {
		.id = id, .op = ROCE_WR_WRITE, .len = len,
		.raddr = B.mem_va + off, .rkey = rkey,
	};
	uint8_t *src = malloc(len ? len : 1);
	uint32_t i;

	for (i = 0; i < len; i++)
		src[i] = (uint8_t)(seed + i * 3);
	T_EQ(ep_post(&A, &wr, src), 0);
	free(src);
}

static int written(uint32_t off, uint32_t len, uint8_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (B.mem[off + i] != (uint8_t)(seed + i * 3))
			return 0;
	return 1;
}

/* B's single queued response after A's frames went over: its opcode, syndrome, PSN. */
static void expect_response(uint8_t syn, uint32_t psn)
{
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_ACK);
	T_EQ(fr_syndrome(&B.tx[0]), syn);
	T_EQ(fr_psn(&B.tx[0]), psn);
	B.ntx = 0;
}

T_CASE(in_order_only_middle_last)
{
	pair(1024);
	post_write(0, 0, 8, B.rkey, 1);
	post_write(1, 4096, 3000, B.rkey, 2); /* FIRST, MIDDLE, LAST */
	T_EQ(ep_pump(&A, now), 4);
	ep_flush_to(&A, &B, now);
	T_CHECK(written(0, 8, 1));
	T_CHECK(written(4096, 3000, 2));
	T_EQ(B.qp.resp.msn, 2);
	T_EQ(B.qp.resp.epsn, 0x104);
	expect_response(ROCE_SYN_ACK, 0x103); /* one ACK for both (coalesced) */
	T_EQ(B.qp.stats.drops[ROCE_R_PSN_AHEAD] + B.qp.stats.drops[ROCE_R_DUPLICATE], 0);
}

T_CASE(psn_ahead_one_sequence_nak)
{
	pair(1024);
	post_write(0, 0, 8, B.rkey, 1);
	post_write(1, 64, 8, B.rkey, 2);
	post_write(2, 128, 8, B.rkey, 3);
	T_EQ(ep_pump(&A, now), 3);
	/* the first is lost: the other two are ahead of the expected PSN */
	ep_deliver(&B, A.tx[1].b, A.tx[1].len, now);
	ep_deliver(&B, A.tx[2].b, A.tx[2].len, now);
	A.ntx = 0;
	T_CHECK(!written(64, 8, 2) && !written(128, 8, 3));
	T_EQ(B.qp.stats.drops[ROCE_R_PSN_AHEAD], 2);
	T_EQ(B.qp.stats.seq_naks_tx, 1);
	expect_response(ROCE_SYN_NAK_PSN_SEQ, 0x100);
}

T_CASE(duplicate_re_acked_not_rewritten)
{
	pair(1024);
	post_write(0, 0, 8, B.rkey, 1);
	T_EQ(ep_pump(&A, now), 1);
	ep_deliver(&B, A.tx[0].b, A.tx[0].len, now);
	expect_response(ROCE_SYN_ACK, 0x100);
	memset(B.mem, 0x77, 8); /* the application reuses the buffer */
	ep_deliver(&B, A.tx[0].b, A.tx[0].len, now);
	A.ntx = 0;
	T_EQ(B.mem[0], 0x77);
	T_EQ(B.qp.stats.drops[ROCE_R_DUPLICATE], 1);
	T_EQ(B.qp.resp.msn, 1);
	expect_response(ROCE_SYN_ACK, 0x100);
}

T_CASE(middle_without_first_is_invalid)
{
	pair(1024);
	post_write(0, 0, 3000, B.rkey, 1);
	T_EQ(ep_pump(&A, now), 3);
	/* FIRST lost and MIDDLE re-numbered to the expected PSN: out of sequence */
	A.tx[1].b[53] = 0x00; /* PSN 0x101 -> 0x100 */
	roce_icrc_put(A.tx[1].b + A.tx[1].len - 4,
		      roce_icrc_compute(A.tx[1].b + 14, A.tx[1].len - 14 - 4, 0));
	T_EQ(fr_psn(&A.tx[1]), 0x100);
	T_EQ(ep_deliver(&B, A.tx[1].b, A.tx[1].len, now), ROCE_R_OPSEQ);
	A.ntx = 0;
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	expect_response(ROCE_SYN_NAK_INV_REQ, 0x100);
}

T_CASE(bad_rkey_nothing_written)
{
	pair(1024);
	post_write(0, 0, 8, B.rkey ^ 1, 1);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_REMOTE_ACCESS);
	A.ntx = 0;
	T_CHECK(!written(0, 8, 1));
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	expect_response(ROCE_SYN_NAK_REM_ACC, 0x100);
}

T_CASE(bounds_of_the_whole_message_checked_first)
{
	pair(1024);
	/* the first packet fits, the message does not: nothing may be written */
	post_write(0, B.mem_len - 2048, 3000, B.rkey, 1);
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_REMOTE_ACCESS);
	A.ntx = 0;
	T_CHECK(!written(B.mem_len - 2048, 1024, 1));
	expect_response(ROCE_SYN_NAK_REM_ACC, 0x100);
}

T_CASE(remote_write_not_allowed)
{
	struct roce_qp_attr a = { .access = ROCE_ACCESS_REMOTE_READ };

	pair(1024);
	T_EQ(roce_qp_modify(&B.qp, &a, ROCE_QP_ACCESS), 0);
	post_write(0, 0, 8, B.rkey, 1);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_INVALID_REQ);
	A.ntx = 0;
	T_CHECK(!written(0, 8, 1));
	expect_response(ROCE_SYN_NAK_INV_REQ, 0x100);
}

/* A device that gives mem_write_checked: a WRITE ONLY takes it (one call, no mr_check or
 * mem_write) with the same outcome, and a refused key writes nothing and NAKs. */
static struct roce_qp_ops once_ops;
static unsigned int n_once, n_check, n_write;

static int once_write_checked(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			      uint32_t len)
{
	n_once++;
	if (ep_ops.mr_check(qp, rkey, va, len, ROCE_ACCESS_REMOTE_WRITE))
		return -EACCES;
	return ep_ops.mem_write(qp, rkey, va, data, len);
}

static int once_mr_check(struct roce_qp *qp, uint32_t rkey, uint64_t va, uint32_t len,
			 unsigned int access)
{
	n_check++;
	return ep_ops.mr_check(qp, rkey, va, len, access);
}

static int once_mem_write(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			  uint32_t len)
{
	n_write++;
	return ep_ops.mem_write(qp, rkey, va, data, len);
}

T_CASE(write_only_checked_and_written_in_one_call)
{
	once_ops = ep_ops;
	once_ops.mem_write_checked = once_write_checked;
	once_ops.mr_check = once_mr_check;
	once_ops.mem_write = once_mem_write;
	pair(1024);
	B.qp.ops = &once_ops;
	n_once = n_check = n_write = 0;
	post_write(0, 0, 8, B.rkey, 1);
	post_write(1, 4096, 1024, B.rkey, 2);
	post_write(2, 8192, 3000, B.rkey, 3); /* FIRST, MIDDLE, LAST: the general calls */
	T_EQ(ep_pump(&A, now), 5);
	ep_flush_to(&A, &B, now);
	T_CHECK(written(0, 8, 1) && written(4096, 1024, 2) && written(8192, 3000, 3));
	T_EQ(n_once, 2);
	T_EQ(n_check, 1);
	T_EQ(n_write, 3);
	T_EQ(B.qp.resp.msn, 3);
	T_EQ(B.qp.resp.epsn, 0x105);
	T_EQ(B.qp.resp.wr_len, 3000);
	T_EQ(B.qp.resp.wr_left, 0);
	expect_response(ROCE_SYN_ACK, 0x104);
	/* refused: nothing written, NAK remote access, QP in error */
	pair(1024);
	B.qp.ops = &once_ops;
	n_once = 0;
	post_write(0, B.mem_len - 4, 8, B.rkey, 4);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_REMOTE_ACCESS);
	A.ntx = 0;
	T_EQ(n_once, 1);
	T_CHECK(!written(B.mem_len - 4, 4, 4));
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	expect_response(ROCE_SYN_NAK_REM_ACC, 0x100);
}

static void post_send(uint32_t id, uint32_t len, uint8_t seed)
{
	struct roce_send_wr wr = { .id = id, .op = ROCE_WR_SEND, .len = len };
	uint8_t src[64];
	uint32_t i;

	for (i = 0; i < len && i < sizeof(src); i++)
		src[i] = (uint8_t)(seed + i * 3);
	T_EQ(ep_post(&A, &wr, src), 0);
}

/* SEND ONLY into a posted receive: placed, completed with its length, MSN, one ACK for
 * the burst; the next takes the next receive. */
T_CASE(send_only_into_posted_receive)
{
	uint32_t i;

	pair(1024);
	ep_post_recv(&B, 64);
	ep_post_recv(&B, 64);
	post_send(0, 8, 1);
	post_send(1, 60, 2);
	T_EQ(ep_pump(&A, now), 2);
	ep_flush_to(&A, &B, now);
	T_EQ(B.nrdone, 2);
	T_EQ(B.rdone[0].d.status, ROCE_WC_SUCCESS);
	T_EQ(B.rdone[0].d.byte_len, 8);
	T_EQ(B.rdone[1].d.byte_len, 60);
	for (i = 0; i < 60; i++)
		T_EQ(ep_recv_buf(&B, B.rdone[1].cookie)[i], (uint8_t)(2 + i * 3));
	T_EQ(ep_recv_buf(&B, B.rdone[0].cookie)[7], (uint8_t)(1 + 7 * 3));
	T_EQ(B.qp.resp.msn, 2);
	T_EQ(B.qp.resp.have_wqe, 0);
	expect_response(ROCE_SYN_ACK, 0x101);
}

/* No receive posted: RNR NAK naming the PSN, nothing completed; once a receive is posted
 * the resent SEND lands. */
T_CASE(send_only_without_receive_rnr)
{
	pair(1024);
	post_send(0, 8, 1);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_RNR);
	T_EQ(B.nrdone, 0);
	T_EQ(B.qp.stats.rnr_naks_tx, 1);
	T_EQ(B.qp.resp.epsn, 0x100);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_ACK);
	T_EQ(fr_syndrome(&B.tx[0]) & ROCE_AETH_TYPE_MASK, ROCE_AETH_RNR_NAK);
	T_EQ(fr_psn(&B.tx[0]), 0x100);
	B.ntx = 0;
	ep_post_recv(&B, 64);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), 0);
	A.ntx = 0;
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.byte_len, 8);
	expect_response(ROCE_SYN_ACK, 0x100);
}

/* Longer than the receive: NAK invalid request, the receive fails LOC_LEN_ERR, QP to ERR. */
T_CASE(send_only_longer_than_receive)
{
	pair(1024);
	ep_post_recv(&B, 16);
	post_send(0, 40, 1);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_LENGTH);
	A.ntx = 0;
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.status, ROCE_WC_LOC_LEN_ERR);
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	expect_response(ROCE_SYN_NAK_INV_REQ, 0x100);
}

static void post_read(uint32_t id, uint32_t off, uint32_t len, uint32_t rkey)
{
	struct roce_send_wr wr = { .id = id, .op = ROCE_WR_READ, .len = len,
				   .raddr = B.mem_va + off, .rkey = rkey };

	T_EQ(ep_post(&A, &wr, NULL), 0);
}

/* An in-order READ request: the whole range's bytes come back, in MTU responses, and the
 * READ completes; a bad R_Key NAKs remote access, a QP without remote read NAKs invalid
 * request, and nothing is sent from memory in either case. */
T_CASE(read_request_served_or_refused)
{
	uint32_t i;

	pair(1024);
	for (i = 0; i < 3000; i++)
		B.mem[512 + i] = (uint8_t)(i * 7);
	post_read(0, 512, 3000, B.rkey);
	T_EQ(ep_pump(&A, now), 1);
	ep_flush_to(&A, &B, now);
	T_EQ(B.qp.resp.msn, 1);
	T_EQ(B.qp.resp.epsn, 0x103); /* a READ takes ceil(3000 / 1024) PSNs */
	T_EQ(ep_pump(&B, now), 3);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_READ_RESP_FIRST);
	T_EQ(fr_op(&B.tx[2]), ROCE_OP_RC_READ_RESP_LAST);
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	for (i = 0; i < 3000; i++)
		T_EQ(A.wr_buf[0][i], (uint8_t)(i * 7));

	pair(1024);
	post_read(0, 0, 8, B.rkey ^ 1);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_REMOTE_ACCESS);
	A.ntx = 0;
	T_EQ(B.qp.state, ROCE_QPS_ERR);
	expect_response(ROCE_SYN_NAK_REM_ACC, 0x100);

	pair(1024);
	{
		struct roce_qp_attr a = { .access = ROCE_ACCESS_REMOTE_WRITE };

		T_EQ(roce_qp_modify(&B.qp, &a, ROCE_QP_ACCESS), 0);
	}
	post_read(0, 0, 8, B.rkey);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_INVALID_REQ);
	A.ntx = 0;
	expect_response(ROCE_SYN_NAK_INV_REQ, 0x100);
}

T_CASE(zero_length_write_general_path)
{
	pair(1024);
	post_write(0, 0, 0, 0xDEAD, 1); /* no key check for zero bytes (C9-88) */
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), 0);
	A.ntx = 0;
	T_EQ(B.qp.resp.msn, 1);
	expect_response(ROCE_SYN_ACK, 0x100);
}

/* Delivers B's frames to A one at a time at time t: the ACKs and READ responses. */
static void acks_to_a(uint64_t t)
{
	T_CHECK(ep_pump(&B, t) >= 1);
	ep_flush_to(&B, &A, t);
}

/*
 * The completer's fast paths (roce_comp.c: ack_fast, read_resp_fast) leave the requester as
 * the general completer would: the WR retired and completed in SQ order, una past it, the
 * retry budgets refilled, the ACK timer stopped when nothing is outstanding and restarted
 * from the ACK's time when something is; a stale ACK dropped with no second completion; an
 * ACK covering two WRs (the general path) completes both in order.
 */
T_CASE(completer_ack_fast)
{
	static struct ep_frame ack0;
	uint64_t t1 = now + 5000, t2 = now + 9000;

	pair(1024);
	post_write(0, 0, 8, B.rkey, 1);
	post_write(1, 64, 8, B.rkey, 2);
	T_EQ(ep_pump(&A, now), 2);
	T_CHECK(A.qp.req.ack_deadline != ROCE_TIME_NEVER);
	A.qp.req.retry_left = 2; /* as after two timeouts: progress refills it */
	ep_deliver(&B, A.tx[0].b, A.tx[0].len, now);
	acks_to_a(t1);
	ack0 = B.tx[0];
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].id, 0);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[0].op, ROCE_WR_WRITE);
	T_EQ(A.sdone[0].byte_len, 8);
	T_EQ(A.qp.req.una, 0x101);
	T_EQ(A.qp.req.head + 1, A.qp.req.tail);
	T_EQ(A.qp.req.retry_left, A.qp.retry_cnt);
	T_EQ(A.qp.req.ack_deadline, t1 + A.qp.req.ack_timeout_ns); /* WR 1 still out */
	T_EQ(A.qp.stats.acks_rx, 1);
	ep_deliver(&B, A.tx[1].b, A.tx[1].len, now);
	A.ntx = 0;
	acks_to_a(t2);
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[1].id, 1);
	T_EQ(A.qp.req.una, 0x102);
	T_EQ(A.qp.req.head, A.qp.req.tail);
	T_EQ(A.qp.req.ack_deadline, ROCE_TIME_NEVER);
	T_EQ(A.qp.stats.acks_rx, 2);
	/* the last ACK again: taken (acknowledges nothing new), no completion; the first
	 * one again: stale, dropped */
	T_EQ(ep_deliver(&A, B.tx[0].b, B.tx[0].len, t2), 0);
	T_EQ(ep_deliver(&A, ack0.b, ack0.len, t2), ROCE_R_RESP_PSN);
	T_EQ(A.nsdone, 2);
	T_EQ(A.qp.req.una, 0x102);
	T_EQ(A.qp.stats.acks_rx, 3);

	/* one coalesced ACK for two WRs: both complete, in order */
	pair(1024);
	post_write(0, 0, 8, B.rkey, 1);
	post_write(1, 64, 8, B.rkey, 2);
	T_EQ(ep_pump(&A, now), 2);
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_psn(&B.tx[0]), 0x101);
	ep_flush_to(&B, &A, t1);
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[0].id, 0);
	T_EQ(A.sdone[1].id, 1);
	T_EQ(A.qp.req.una, 0x102);
	T_EQ(A.qp.req.ack_deadline, ROCE_TIME_NEVER);
}

T_CASE(completer_read_response_fast)
{
	uint64_t t1 = now + 7000;
	uint32_t i;

	pair(1024);
	for (i = 0; i < 8; i++)
		B.mem[256 + i] = (uint8_t)(0xA0 + i);
	post_read(0, 256, 8, B.rkey);
	post_write(1, 0, 8, B.rkey, 1);
	T_EQ(ep_pump(&A, now), 2);
	T_EQ(A.qp.req.rd_atomic, 1);
	ep_deliver(&B, A.tx[0].b, A.tx[0].len, now);
	T_EQ(ep_pump(&B, now), 1);
	T_EQ(fr_op(&B.tx[0]), ROCE_OP_RC_READ_RESP_ONLY);
	ep_flush_to(&B, &A, t1);
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].id, 0);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[0].op, ROCE_WR_READ);
	T_EQ(A.sdone[0].byte_len, 8);
	for (i = 0; i < 8; i++)
		T_EQ(A.wr_buf[0][i], (uint8_t)(0xA0 + i));
	T_EQ(A.qp.req.rd_atomic, 0);
	T_EQ(A.qp.req.una, 0x101);
	T_EQ(A.qp.req.ack_deadline, t1 + A.qp.req.ack_timeout_ns); /* the WRITE is out */
	/* the response again: a duplicate, dropped */
	T_EQ(ep_deliver(&A, B.tx[0].b, B.tx[0].len, t1), ROCE_R_RESP_PSN);
	T_EQ(A.nsdone, 1);
	B.ntx = 0;

	/* the requester's buffer refuses the data: the READ fails, the QP enters ERR */
	pair(1024);
	post_read(0, 256, 8, B.rkey);
	T_EQ(ep_pump(&A, now), 1);
	A.wr_len[0] = 4;
	ep_flush_to(&A, &B, now);
	acks_to_a(t1);
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_LOC_ACCESS_ERR);
	T_EQ(A.qp.state, ROCE_QPS_ERR);
	ep_free(&A);
	ep_free(&B);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
