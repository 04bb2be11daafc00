/* SPDX-License-Identifier: BSD-3-Clause */
/* UD (Q_Key, DETH, GRH area, size limits) and UC (no ACKs, resynchronisation). */
#include "irdma_test.h"
#include "roce_ep.h"

static struct ep A, B;
static uint64_t now = 1000;

static void pair_type(uint8_t type, uint32_t qpn_b)
{
	struct ep_conf c = ep_default_conf();

	c.type = type;
	ep_free(&A);
	ep_free(&B);
	ep_setup(&A, 0x11, qpn_b, 1, &c);
	ep_setup(&B, qpn_b, 0x11, 0, &c);
}

static uint32_t ud_send(uint32_t id, uint32_t dqpn, uint32_t qkey, const char *msg, uint32_t len,
			int imm)
{
	struct roce_send_wr wr = {
		.id = id,
		.op = imm ? ROCE_WR_SEND_IMM : ROCE_WR_SEND,
		.len = len,
		.imm = 0x12345678,
		.dqpn = dqpn,
		.qkey = qkey,
		.av = &A.av,
	};

	T_EQ(ep_post(&A, &wr, msg), 0);
	return id;
}

T_CASE(ud_send_with_grh_area)
{
	struct roce_pkt q;
	char msg[100];
	uint8_t grh[40];

	memset(msg, 'u', sizeof(msg));
	pair_type(ROCE_QPT_UD, 0x12);
	ep_post_recv(&B, 140);
	ud_send(0, 0x12, 0x11111111, msg, 100, 1);
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(A.nsdone, 1); /* completes once its payload was taken */
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	T_EQ(q.opcode, ROCE_OP_UD_SEND_ONLY_IMM);
	T_EQ(q.deth.qkey, 0x11111111);
	T_EQ(q.deth.sqpn, 0x11);
	T_EQ(q.dqpn, 0x12);
	T_EQ(q.sport, roce_udp_sport(0x11, 0x12, 0));
	T_EQ(q.ackreq, 0);
	ep_flush_to(&A, &B, now);
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.status, ROCE_WC_SUCCESS);
	T_EQ(B.rdone[0].d.byte_len, 140);
	T_EQ(B.rdone[0].d.src_qp, 0x11);
	T_EQ(B.rdone[0].d.flags, ROCE_RECV_F_GRH | ROCE_RECV_F_IMM);
	T_EQ(B.rdone[0].d.imm, 0x12345678);
	memset(grh, 0, 20);
	memcpy(grh + 20, q.l3, 20);
	T_MEMEQ(B.rdone[0].grh, grh, 40);
	T_MEMEQ(ep_recv_buf(&B, 0) + 40, msg, 100);
	T_EQ(ep_pump(&B, now), 0); /* no ACKs on UD */
}

/* IBTA C10-93.1.1: a UD message over the path MTU is not sent yet completes; it is counted. */
T_CASE(ud_over_mtu_completes_unsent_and_counted)
{
	static char msg[4097];
	uint32_t mtu;

	pair_type(ROCE_QPT_UD, 0x12);
	mtu = A.qp.pmtu;
	T_CHECK(mtu + 1 <= sizeof(msg));
	ud_send(0, 0x12, 0x11111111, msg, mtu + 1, 0);
	T_EQ(ep_pump(&A, now), 0);
	T_EQ(roce_qp_wants_tx(&A.qp, now), 1); /* its completion is due on the next step */
	T_EQ(ep_pump(&A, now), 0);
	T_EQ(A.nsdone, 1);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.qp.stats.ud_oversize, 1);
	ud_send(1, 0x12, 0x11111111, msg, mtu, 0); /* exactly the MTU still goes out */
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(A.qp.stats.ud_oversize, 1);
}

T_CASE(ud_ipv6_grh_is_the_ipv6_header)
{
	struct roce_av av6;
	struct roce_pkt q;
	struct roce_send_wr wr = { .id = 0, .op = ROCE_WR_SEND, .len = 4, .dqpn = 0x12,
				   .qkey = 0x11111111 };

	pair_type(ROCE_QPT_UD, 0x12);
	av6 = A.av;
	roce_gid_parse("fd00::a", av6.sgid);
	roce_gid_parse("fd00::b", av6.dgid);
	wr.av = &av6;
	ep_post_recv(&B, 44);
	ep_post(&A, &wr, "ping");
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(roce_pkt_parse(A.tx[0].b, A.tx[0].len, 0, &q), 0);
	T_EQ(q.ipv6, 1);
	ep_flush_to(&A, &B, now);
	T_EQ(B.nrdone, 1);
	T_MEMEQ(B.rdone[0].grh, q.l3, 40);
}

T_CASE(ud_drops)
{
	char msg[100];

	memset(msg, 'x', sizeof(msg));
	pair_type(ROCE_QPT_UD, 0x12);
	/* No receive WQE */
	ud_send(0, 0x12, 0x11111111, msg, 100, 0);
	ep_pump(&A, now);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_UD_NO_RECV);
	/* Receive buffer too small for GRH + payload: dropped, WQE not consumed */
	ep_post_recv(&B, 139);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_UD_TOO_LONG);
	T_EQ(B.rq_head, 0);
	A.ntx = 0;
	/* Wrong Q_Key */
	ep_post_recv(&B, 200);
	ud_send(1, 0x12, 0x22222222, msg, 100, 0);
	ep_pump(&A, now);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_QKEY);
	A.ntx = 0;
	T_EQ(B.nrdone, 0);
	T_EQ(B.qp.stats.drops[ROCE_R_QKEY], 1);
	/* Multicast QPN reaches a UD QP the device attached */
	ud_send(2, ROCE_QPN_MULTICAST, 0x11111111, msg, 10, 0);
	ep_pump(&A, now);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), 0);
	A.ntx = 0;
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.byte_len, 50);
}

T_CASE(ud_message_over_mtu_completes_unsent)
{
	static char big[2000];

	pair_type(ROCE_QPT_UD, 0x12);
	ud_send(0, 0x12, 0x11111111, big, 2000, 0);
	ud_send(1, 0x12, 0x11111111, big, 1024, 0);
	T_EQ(ep_pump(&A, now), 1); /* only the one that fits the 1024 MTU */
	T_EQ(A.nsdone, 2);
	T_EQ(A.sdone[0].status, ROCE_WC_SUCCESS);
	T_EQ(A.sdone[0].id, 0);
	T_EQ(A.sdone[1].id, 1);
	/* UD accepts only SEND */
	{
		struct roce_send_wr wr = { .id = 2, .op = ROCE_WR_WRITE, .len = 8, .av = &A.av };

		T_EQ(roce_qp_post_send(&A.qp, &wr), -EINVAL);
		wr.op = ROCE_WR_SEND;
		wr.av = NULL;
		T_EQ(roce_qp_post_send(&A.qp, &wr), -EINVAL);
	}
}

T_CASE(ud_gsi_qkey_and_transport_check)
{
	char msg[8] = "mad-mad";

	pair_type(ROCE_QPT_UD, 1);
	ep_post_recv(&B, 100);
	ud_send(0, 1, 0x11111111, msg, 8, 0);
	ud_send(1, 1, ROCE_QKEY_GSI, msg, 8, 0);
	T_EQ(ep_pump(&A, now), 2);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), ROCE_R_QKEY);
	T_EQ(ep_deliver(&B, A.tx[1].b, A.tx[1].len, now), 0);
	A.ntx = 0;
	/* An RC packet to a UD QP */
	{
		struct roce_pkt q;

		T_EQ(roce_pkt_parse(A.tx[1].b, A.tx[1].len, 0, &q), 0);
		q.opcode = ROCE_OP_RC_SEND_ONLY;
		q.oi = roce_opcode_get(q.opcode);
		T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_TRANSPORT);
		q.opcode = ROCE_OP_CNP;
		q.oi = roce_opcode_get(q.opcode);
		T_EQ(roce_qp_rx(&B.qp, &q, now), ROCE_R_CNP);
	}
}

static void uc_send(uint32_t id, uint32_t len, uint8_t seed)
{
	struct roce_send_wr wr = { .id = id, .op = ROCE_WR_SEND, .len = len };
	uint8_t *b = malloc(len);

	memset(b, seed, len);
	T_EQ(ep_post(&A, &wr, b), 0);
	free(b);
}

T_CASE(uc_send_without_acks)
{
	uint32_t i;
	uint8_t exp[3000];

	pair_type(ROCE_QPT_UC, 0x12);
	ep_post_recv(&B, 3000);
	uc_send(0, 3000, 0x5A);
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(fr_op(&A.tx[0]), 0x20);
	T_EQ(fr_op(&A.tx[2]), 0x22);
	for (i = 0; i < 3; i++)
		T_EQ(fr_ackreq(&A.tx[i]), 0);
	T_EQ(A.nsdone, 1);
	T_EQ(roce_qp_next_deadline(&A.qp), ROCE_TIME_NEVER);
	ep_flush_to(&A, &B, now);
	T_EQ(B.nrdone, 1);
	memset(exp, 0x5A, sizeof(exp));
	T_MEMEQ(ep_recv_buf(&B, 0), exp, 3000);
	T_EQ(ep_pump(&B, now), 0);
}

T_CASE(uc_loss_drops_message_and_resyncs)
{
	uint8_t exp[3000];

	pair_type(ROCE_QPT_UC, 0x12);
	ep_post_recv(&B, 3000);
	uc_send(0, 3000, 1);
	uc_send(1, 3000, 2);
	T_EQ(ep_pump(&A, now), 6);
	T_EQ(ep_deliver(&B, A.tx[0].b, A.tx[0].len, now), 0);
	/* tx[1] lost */
	T_EQ(ep_deliver(&B, A.tx[2].b, A.tx[2].len, now), ROCE_R_UC_DROP);
	T_EQ(ep_deliver(&B, A.tx[3].b, A.tx[3].len, now), 0);
	T_EQ(ep_deliver(&B, A.tx[4].b, A.tx[4].len, now), 0);
	T_EQ(ep_deliver(&B, A.tx[5].b, A.tx[5].len, now), 0);
	A.ntx = 0;
	/* The second message landed in the WQE the first one had taken. */
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].cookie, 0);
	T_EQ(B.rdone[0].d.byte_len, 3000);
	memset(exp, 2, sizeof(exp));
	T_MEMEQ(ep_recv_buf(&B, 0), exp, 3000);
	/* UC has no READ or atomics */
	{
		struct roce_send_wr wr = { .op = ROCE_WR_READ, .len = 8 };

		T_EQ(roce_qp_post_send(&A.qp, &wr), -EINVAL);
	}
}

T_CASE(uc_write_and_bad_rkey_is_silent)
{
	struct roce_send_wr wr = { .id = 0, .op = ROCE_WR_WRITE, .len = 1500, .rkey = 0 };
	uint8_t data[1500];

	pair_type(ROCE_QPT_UC, 0x12);
	memset(data, 0x77, sizeof(data));
	wr.raddr = B.mem_va + 100;
	wr.rkey = B.rkey;
	ep_post(&A, &wr, data);
	wr.id = 1;
	wr.rkey = B.rkey ^ 1;
	ep_post(&A, &wr, data);
	T_EQ(ep_pump(&A, now), 4);
	ep_flush_to(&A, &B, now);
	T_MEMEQ(B.mem + 100, data, sizeof(data));
	T_EQ(B.qp.stats.drops[ROCE_R_REMOTE_ACCESS], 1);
	T_EQ(B.qp.state, ROCE_QPS_RTS);
	T_EQ(ep_pump(&B, now), 0);
}

int main(int argc, char **argv)
{
	int rc = t_main(argc, argv);

	ep_free(&A);
	ep_free(&B);
	return rc;
}
