/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/cm state machines: active and passive side back to back, through loss,
 * duplicates, timeouts, MRA, rejects and disconnects, with injected time. Expected
 * values come from doc/spec/rdma-cm.md §5 (timers), §6 (states) and §7 (QP attributes).
 */
#include "irdma_test.h"
#include "cm_link.h"

#define MS 1000000ull
#define GUID_A 0x505400fffe000012ull
#define GUID_B 0x505400fffe000011ull
#define SID 0x0000000001064853ull
#define QPN_A 0x1d
#define QPN_B 0x1e
#define REQ_INTERVAL (2 * 1024 * MS + 4096 * MS) /* 2 x ms(PLT 18) + ms(20) */
#define REP_INTERVAL (4096 * MS)                 /* ms(REQ local CM response timeout 20) */
#define TIMEWAIT (2048 * MS)                     /* ms(ACK timeout 19) */

static uint64_t now;
static struct ep A, B;
static const uint8_t pd_hello[] = "hello";
static const uint8_t pd_world[] = "world";

static void setup(void)
{
	now = 1000 * MS;
	ep_init(&A, &B, "active", GUID_A, 12, 1, &now);
	ep_init(&B, &A, "passive", GUID_B, 11, 2, &now);
	B.auto_accept = 1;
	B.auto_disconnect = 1;
	A.auto_disconnect = 1;
	B.ap = (struct irdma_cm_accept_param){ .qpn = QPN_B, .responder_resources = 3,
		.initiator_depth = 1, .rnr_retry_count = 5, .private_data = pd_world,
		.private_data_len = sizeof(pd_world) };
	T_EQ(irdma_cm_listen(&B.cm, SID, &B), 0);
}

static int connect_a(void)
{
	struct irdma_cm_connect_param p = {
		.service_id = SID, .qpn = QPN_A, .responder_resources = 4, .initiator_depth = 2,
		.retry_count = 7, .rnr_retry_count = 6, .path_mtu = 3, .flow_label = 0xccbfa,
		.hop_limit = 64, .private_data = pd_hello, .private_data_len = sizeof(pd_hello),
	};

	memcpy(p.sgid, A.addr.gid, 16);
	memcpy(p.dgid, B.addr.gid, 16);
	return irdma_cm_connect(&A.cm, &p, now);
}

/* Runs timers until both sides are quiet or `limit` of simulated time passed. */
static void run_until_quiet(uint64_t limit)
{
	uint64_t until = now + limit;

	link_pump(&A, &B);
	while (link_step(&A, &B, until))
		;
}

T_CASE(handshake_qp_attributes_and_disconnect)
{
	struct irdma_cm_msg req, rep, rtu, dreq, drep;
	const struct irdma_cm_qp_attr *a_rtr, *a_rts, *b_rtr, *b_rts, *a_init, *b_init;
	int id;

	setup();
	id = connect_a();
	T_CHECK(id >= 0);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_REQ_SENT);
	T_EQ(irdma_cm_next_deadline(&A.cm), now + REQ_INTERVAL);
	link_pump(&A, &B);

	/* One REQ, one REP, one RTU; nothing retransmitted. */
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_REQ), 1);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_REP), 1);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_RTU), 1);
	T_EQ(ep_sent_msg(&A, IRDMA_CM_ATTR_REQ, 0, &req), 0);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_REP, 0, &rep), 0);
	T_EQ(ep_sent_msg(&A, IRDMA_CM_ATTR_RTU, 0, &rtu), 0);

	/* REQ as Linux fills it for RoCEv2 (§4). */
	T_EQ(req.hdr.tid >> 32, 2);
	T_EQ((uint32_t)req.hdr.tid, req.req.local_comm_id);
	T_CHECK(req.req.local_comm_id != 0);
	T_EQ(req.req.service_id, SID);
	T_EQ(req.req.local_ca_guid, GUID_A);
	T_EQ(req.req.local_qpn, QPN_A);
	T_EQ(req.req.responder_resources, 4);
	T_EQ(req.req.initiator_depth, 2);
	T_EQ(req.req.remote_cm_response_timeout, 20);
	T_EQ(req.req.local_cm_response_timeout, 20);
	T_EQ(req.req.transport_type, IRDMA_CM_TRANSPORT_RC);
	T_EQ(req.req.retry_count, 7);
	T_EQ(req.req.rnr_retry_count, 6);
	T_EQ(req.req.max_cm_retries, 15);
	T_EQ(req.req.pkey, 0xFFFF);
	T_EQ(req.req.path_mtu, 3);
	T_EQ(req.req.primary.local_lid, 0xFFFF);
	T_EQ(req.req.primary.remote_lid, 0xFFFF);
	T_MEMEQ(req.req.primary.local_gid, A.addr.gid, 16);
	T_MEMEQ(req.req.primary.remote_gid, B.addr.gid, 16);
	T_EQ(req.req.primary.flow_label, 0xccbfa);
	T_EQ(req.req.primary.hop_limit, 64);
	T_EQ(req.req.primary.subnet_local, 0);
	T_EQ(req.req.primary.local_ack_timeout, 19);
	T_MEMEQ(req.req.private_data, pd_hello, sizeof(pd_hello));

	/* REP and RTU answer with the REQ's TID and echo the comm IDs. */
	T_EQ(rep.hdr.tid, req.hdr.tid);
	T_EQ(rtu.hdr.tid, req.hdr.tid);
	T_EQ(rep.rep.remote_comm_id, req.req.local_comm_id);
	T_CHECK(rep.rep.local_comm_id != 0);
	T_EQ(rtu.rtu.local_comm_id, req.req.local_comm_id);
	T_EQ(rtu.rtu.remote_comm_id, rep.rep.local_comm_id);
	T_EQ(rep.rep.local_qpn, QPN_B);
	T_EQ(rep.rep.responder_resources, 2); /* min(mine 3, REQ initiator depth 2) */
	T_EQ(rep.rep.initiator_depth, 1);     /* min(mine 1, REQ responder resources 4) */
	T_EQ(rep.rep.target_ack_delay, 15);
	T_EQ(rep.rep.rnr_retry_count, 5);
	T_EQ(rep.rep.local_ca_guid, GUID_B);
	T_MEMEQ(rep.rep.private_data, pd_world, sizeof(pd_world));

	/* Passive: INIT, RTR, RTS before the REP; active: INIT before the REQ, RTR and RTS
	 * before the RTU. */
	T_EQ(A.nqa, 3);
	T_EQ(B.nqa, 3);
	a_init = ep_qa(&A, IRDMA_CM_QPS_INIT);
	b_init = ep_qa(&B, IRDMA_CM_QPS_INIT);
	a_rtr = ep_qa(&A, IRDMA_CM_QPS_RTR);
	a_rts = ep_qa(&A, IRDMA_CM_QPS_RTS);
	b_rtr = ep_qa(&B, IRDMA_CM_QPS_RTR);
	b_rts = ep_qa(&B, IRDMA_CM_QPS_RTS);
	T_CHECK(a_init && b_init && a_rtr && a_rts && b_rtr && b_rts);
	if (!(a_init && b_init && a_rtr && a_rts && b_rtr && b_rts))
		return;
	T_EQ(a_init->pkey, 0xFFFF);
	T_EQ(a_init->access, IRDMA_CM_ACCESS_REMOTE_WRITE | IRDMA_CM_ACCESS_REMOTE_READ |
				     IRDMA_CM_ACCESS_REMOTE_ATOMIC);
	T_EQ(b_init->access, IRDMA_CM_ACCESS_REMOTE_WRITE | IRDMA_CM_ACCESS_REMOTE_READ |
				     IRDMA_CM_ACCESS_REMOTE_ATOMIC);
	/* PSNs (§7): each side receives from the PSN it announced. */
	T_EQ(a_rtr->rq_psn, req.req.starting_psn);
	T_EQ(b_rts->sq_psn, req.req.starting_psn);
	T_EQ(b_rtr->rq_psn, rep.rep.starting_psn);
	T_EQ(a_rts->sq_psn, rep.rep.starting_psn);
	T_EQ(a_rtr->qpn, QPN_A);
	T_EQ(a_rtr->dest_qpn, QPN_B);
	T_EQ(b_rtr->qpn, QPN_B);
	T_EQ(b_rtr->dest_qpn, QPN_A);
	T_EQ(a_rtr->path_mtu, 3);
	T_EQ(b_rtr->path_mtu, 3);
	/* Read/atomic depths swap across the wire (§7). */
	T_EQ(b_rtr->max_dest_rd_atomic, 2);
	T_EQ(b_rts->max_rd_atomic, 1);
	T_EQ(a_rtr->max_dest_rd_atomic, 1); /* REP initiator depth */
	T_EQ(a_rts->max_rd_atomic, 2);      /* min(REP responder resources 2, mine 2) */
	/* Retry counts: both use the REQ's; RNR retry comes from the other side's message. */
	T_EQ(a_rts->retry_cnt, 7);
	T_EQ(b_rts->retry_cnt, 7);
	T_EQ(a_rts->rnr_retry, 5);
	T_EQ(b_rts->rnr_retry, 6);
	T_EQ(a_rts->timeout, 19);
	T_EQ(b_rts->timeout, 19);
	T_MEMEQ(b_rtr->dgid, A.addr.gid, 16);
	T_MEMEQ(b_rtr->sgid, B.addr.gid, 16);
	T_MEMEQ(a_rtr->dgid, B.addr.gid, 16);
	T_EQ(b_rtr->flow_label, 0xccbfa);
	T_EQ(b_rtr->hop_limit, 64);

	/* Events with their private data. */
	T_EQ(B.nev, 2);
	T_EQ(B.ev[0].type, IRDMA_CM_EVENT_REQ_RECEIVED);
	T_EQ(B.ev[0].pd_len, IRDMA_CM_REQ_PD_LEN);
	T_MEMEQ(B.ev[0].pd, pd_hello, sizeof(pd_hello));
	T_EQ(B.ev[1].type, IRDMA_CM_EVENT_ESTABLISHED);
	T_EQ(A.nev, 1);
	T_EQ(A.ev[0].type, IRDMA_CM_EVENT_ESTABLISHED);
	T_EQ(A.ev[0].id, id);
	T_EQ(A.ev[0].pd_len, IRDMA_CM_REP_PD_LEN);
	T_MEMEQ(A.ev[0].pd, pd_world, sizeof(pd_world));
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_next_deadline(&A.cm), IRDMA_CM_TIME_NEVER);
	T_EQ(irdma_cm_next_deadline(&B.cm), IRDMA_CM_TIME_NEVER);

	/* Disconnect: DREQ names the peer's QP; DREP answers with the DREQ's TID. */
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	T_EQ(ep_qa(&A, IRDMA_CM_QPS_ERR) != NULL, 1);
	link_pump(&A, &B);
	T_EQ(ep_sent_msg(&A, IRDMA_CM_ATTR_DREQ, 0, &dreq), 0);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_DREP, 0, &drep), 0);
	T_EQ(dreq.dreq.remote_qpn, QPN_B);
	T_EQ(dreq.dreq.local_comm_id, req.req.local_comm_id);
	T_EQ(dreq.dreq.remote_comm_id, rep.rep.local_comm_id);
	T_EQ(drep.hdr.tid, dreq.hdr.tid);
	T_EQ(drep.drep.local_comm_id, rep.rep.local_comm_id);
	T_EQ(drep.drep.remote_comm_id, req.req.local_comm_id);
	T_EQ(ep_qa(&B, IRDMA_CM_QPS_ERR) != NULL, 1);
	T_EQ(ep_last_ev(&A)->type, IRDMA_CM_EVENT_DISCONNECTED);
	T_EQ(ep_last_ev(&B)->type, IRDMA_CM_EVENT_DISCONNECTED);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_next_deadline(&A.cm), now + TIMEWAIT);

	/* Timewait ends after ms(19); the ids are free and no longer name anything. */
	irdma_cm_timer(&A.cm, now + TIMEWAIT - 1);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_TIMEWAIT);
	now += TIMEWAIT;
	irdma_cm_timer(&A.cm, now);
	irdma_cm_timer(&B.cm, now);
	T_EQ(ep_last_ev(&A)->type, IRDMA_CM_EVENT_TIMEWAIT_EXIT);
	T_EQ(ep_last_ev(&B)->type, IRDMA_CM_EVENT_TIMEWAIT_EXIT);
	T_EQ(ep_live(&A), 0);
	T_EQ(ep_live(&B), 0);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), -EINVAL);
	T_EQ(A.cm.stats.tx[IRDMA_CM_ATTR_REQ - 0x10], 1);
	T_EQ(B.cm.stats.rx[IRDMA_CM_ATTR_REQ - 0x10], 1);
	T_EQ(A.cm.stats.retransmits + B.cm.stats.retransmits, 0);
}

T_CASE(lost_req_is_retransmitted_byte_exact)
{
	int id;

	setup();
	A.drop[IRDMA_CM_ATTR_REQ - 0x10] = 2;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(B.nev, 0);
	T_EQ(link_step(&A, &B, now + REQ_INTERVAL - 1), 0); /* not yet */
	T_EQ(link_step(&A, &B, now + REQ_INTERVAL), 1);
	T_EQ(link_step(&A, &B, now + REQ_INTERVAL), 1);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_REQ), 3);
	T_MEMEQ(A.sent[1], A.sent[0], IRDMA_CM_MAD_LEN);
	T_MEMEQ(A.sent[2], A.sent[0], IRDMA_CM_MAD_LEN);
	T_EQ(A.sent_at[1] - A.sent_at[0], REQ_INTERVAL);
	T_EQ(A.sent_at[2] - A.sent_at[1], REQ_INTERVAL);
	T_EQ(A.cm.stats.retransmits, 2);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_ESTABLISHED), 1);
}

T_CASE(req_never_answered_gives_up_after_max_retries)
{
	int id;

	setup();
	A.drop[IRDMA_CM_ATTR_REQ - 0x10] = -1;
	id = connect_a();
	run_until_quiet(1000000 * MS);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_REQ), 16); /* 1 + MaxCMRetries */
	T_EQ(A.nev, 1);
	T_EQ(A.ev[0].type, IRDMA_CM_EVENT_UNREACHABLE);
	T_EQ(A.ev[0].status, -ETIMEDOUT);
	T_EQ(A.ev[0].at - A.sent_at[0], 16 * REQ_INTERVAL);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_IDLE);
	T_EQ(ep_live(&A), 0);
	T_EQ(ep_qa(&A, IRDMA_CM_QPS_ERR) == NULL, 1); /* the QP never left INIT */
}

T_CASE(lost_rep_is_retransmitted_by_the_passive_side)
{
	int id;

	setup();
	B.drop[IRDMA_CM_ATTR_REP - 0x10] = 1;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_REP_SENT);
	T_EQ(irdma_cm_next_deadline(&B.cm), now + REP_INTERVAL);
	T_EQ(link_step(&A, &B, now + REP_INTERVAL), 1); /* REP again, before the REQ timer */
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_REP), 2);
	T_MEMEQ(B.sent[1], B.sent[0], IRDMA_CM_MAD_LEN);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_REQ), 1);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
}

T_CASE(lost_rtu_duplicate_rep_resends_rtu)
{
	int id;

	setup();
	A.drop[IRDMA_CM_ATTR_RTU - 0x10] = 1;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_REP_SENT);
	T_EQ(link_step(&A, &B, now + REP_INTERVAL), 1);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_RTU), 2);
	T_MEMEQ(A.sent[2], A.sent[1], IRDMA_CM_MAD_LEN); /* RTU re-sent as it was */
	T_EQ(A.cm.stats.drops[IRDMA_CM_R_DUPLICATE], 1);
	T_EQ(A.nqa, 3); /* the QP is not moved again */
	T_EQ(A.nev, 1);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
}

T_CASE(rtu_lost_for_good_passive_established_by_data)
{
	int id;

	setup();
	A.drop[IRDMA_CM_ATTR_RTU - 0x10] = -1;
	id = connect_a();
	link_pump(&A, &B);
	/* The first data packet on the QP stands for the RTU. */
	T_EQ(irdma_cm_established(&B.cm, B.last_req_id, now), 0);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_next_deadline(&B.cm), IRDMA_CM_TIME_NEVER);
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_ESTABLISHED), 1);
	T_EQ(irdma_cm_established(&B.cm, B.last_req_id, now), 0);
	T_EQ(irdma_cm_established(&A.cm, id, now), -EINVAL); /* passive only */
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_ESTABLISHED), 1);
}

T_CASE(rtu_lost_for_good_passive_gives_up)
{
	setup();
	A.drop[IRDMA_CM_ATTR_RTU - 0x10] = -1;
	connect_a();
	run_until_quiet(1000000 * MS);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_REP), 16);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_RTU), 16); /* one per duplicate REP */
	T_EQ(ep_last_ev(&B)->type, IRDMA_CM_EVENT_UNREACHABLE);
	T_EQ(ep_last_ev(&B)->status, -ETIMEDOUT);
	T_EQ(ep_qa(&B, IRDMA_CM_QPS_ERR) != NULL, 1);
	T_EQ(ep_live(&B), 0);
}

T_CASE(duplicate_req_while_deciding_sends_mra)
{
	struct irdma_cm_msg mra;
	int id;

	setup();
	B.auto_accept = 0;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_REQ_RCVD);
	T_EQ(link_step(&A, &B, now + REQ_INTERVAL), 1); /* REQ again */
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_DUPLICATE], 1);
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_REQ_RECEIVED), 1);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_MRA, 0, &mra), 0);
	T_EQ(mra.mra.msg_mraed, IRDMA_CM_MSG_REF_REQ);
	T_EQ(mra.mra.service_timeout, 24);
	T_EQ(mra.mra.remote_comm_id, A.cm.conns[IRDMA_CM_ID_SLOT(id)].local_id);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_MRA_REQ_SENT);
	/* The active side waits ms(24) + ms(19) more. */
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_MRA_REQ_RCVD);
	T_EQ(irdma_cm_next_deadline(&A.cm), now + 65536 * MS + 2048 * MS);
	/* Another duplicate REQ (the MRA was lost, say) gets the MRA again. */
	irdma_cm_rx(&B.cm, &A.addr, A.sent[0], IRDMA_CM_MAD_LEN, now);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_MRA), 2);
	B.qn = 0;
	T_EQ(irdma_cm_accept(&B.cm, B.last_req_id, &B.ap, now), 0);
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_mra(&B.cm, B.last_req_id, now), -EINVAL);
}

T_CASE(explicit_mra_then_timeout_after_extension)
{
	int id;

	setup();
	B.auto_accept = 0;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_mra(&B.cm, B.last_req_id, now), 0);
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_MRA_REQ_RCVD);
	/* A duplicate MRA is dropped and does not extend again. */
	irdma_cm_rx(&A.cm, &B.addr, B.sent[0], IRDMA_CM_MAD_LEN, now + 5 * MS);
	T_EQ(A.cm.stats.drops[IRDMA_CM_R_DUPLICATE], 1);
	T_EQ(irdma_cm_next_deadline(&A.cm), now + 67584 * MS);
	/* The application never answers: REQs resume after the extension; the passive
	 * side answers each with an MRA; the active side finally gives up. */
	run_until_quiet(10000000 * MS);
	T_EQ(ep_last_ev(&A)->type, IRDMA_CM_EVENT_UNREACHABLE);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_IDLE);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_REQ), 16);
	/* The passive side still holds the REQ: destroying it sends REJ 28. */
	T_EQ(irdma_cm_destroy(&B.cm, B.last_req_id, now), 0);
	T_EQ(ep_live(&B), 0);
}

T_CASE(duplicated_req_and_rep_on_the_link)
{
	int id;

	setup();
	A.dup[IRDMA_CM_ATTR_REQ - 0x10] = 1;
	B.dup[IRDMA_CM_ATTR_REP - 0x10] = 1;
	id = connect_a();
	link_pump(&A, &B);
	/* Second REQ after the REP: the REP is sent again. */
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_REQ_RECEIVED), 1);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_REP), 2);
	T_EQ(B.nqa, 3);
	/* Duplicate REPs at the active side: RTU again, no second QP transition. */
	T_EQ(A.nqa, 3);
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_ESTABLISHED), 1);
	T_CHECK(ep_count_sent(&A, IRDMA_CM_ATTR_RTU) >= 2);
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_ESTABLISHED), 1);
	T_CHECK(B.cm.stats.drops[IRDMA_CM_R_DUPLICATE] >= 2); /* REQ, RTU */
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
}

T_CASE(application_rejects_with_private_data)
{
	static const uint8_t why[] = "busy";
	struct irdma_cm_msg rej, req;
	int id;

	setup();
	B.auto_accept = 0;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_reject(&B.cm, B.last_req_id, IRDMA_CM_REJ_CONSUMER, why, sizeof(why), now), 0);
	link_pump(&A, &B);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
	T_EQ(ep_sent_msg(&A, IRDMA_CM_ATTR_REQ, 0, &req), 0);
	T_EQ(rej.hdr.tid, req.hdr.tid);
	T_EQ(rej.rej.local_comm_id, 0); /* as Linux, before a REP */
	T_EQ(rej.rej.remote_comm_id, req.req.local_comm_id);
	T_EQ(rej.rej.msg_rejected, IRDMA_CM_MSG_REF_REQ);
	T_EQ(rej.rej.reason, 28);
	T_EQ(A.nev, 1);
	T_EQ(A.ev[0].type, IRDMA_CM_EVENT_REJECTED);
	T_EQ(A.ev[0].status, 28);
	T_EQ(A.ev[0].pd_len, IRDMA_CM_REJ_PD_LEN);
	T_MEMEQ(A.ev[0].pd, why, sizeof(why));
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_IDLE);
	T_EQ(ep_live(&A), 0);
	T_EQ(ep_live(&B), 0);
	T_EQ(irdma_cm_reject(&B.cm, B.last_req_id, 28, NULL, 0, now), -EINVAL);
	/* Bad arguments. */
	T_EQ(irdma_cm_reject(&B.cm, 12345, 28, NULL, 0, now), -EINVAL);
}

T_CASE(req_for_unknown_service_rej_8)
{
	struct irdma_cm_msg rej;
	int id;

	setup();
	T_EQ(irdma_cm_unlisten(&B.cm, SID), 0);
	T_EQ(irdma_cm_unlisten(&B.cm, SID), -ENOENT);
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_NO_LISTENER], 1);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
	T_EQ(rej.rej.reason, IRDMA_CM_REJ_INVALID_SERVICE_ID);
	T_EQ(A.ev[0].type, IRDMA_CM_EVENT_REJECTED);
	T_EQ(A.ev[0].status, 8);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_IDLE);
	T_EQ(ep_live(&B), 0);
	/* Listener table rules. */
	T_EQ(irdma_cm_listen(&B.cm, SID, NULL), 0);
	T_EQ(irdma_cm_listen(&B.cm, SID, NULL), -EADDRINUSE);
	for (unsigned int i = 1; i < IRDMA_CM_MAX_LISTENERS; i++)
		T_EQ(irdma_cm_listen(&B.cm, SID + i, NULL), 0);
	T_EQ(irdma_cm_listen(&B.cm, SID + 100, NULL), -ENOSPC);
}

T_CASE(active_qp_refuses_rep_sends_rej)
{
	struct irdma_cm_msg rej;
	int id;

	setup();
	A.qp_fail = IRDMA_CM_QPS_RTS;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(ep_sent_msg(&A, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
	T_EQ(rej.rej.msg_rejected, IRDMA_CM_MSG_REF_REP);
	T_EQ(rej.rej.reason, IRDMA_CM_REJ_CONSUMER);
	T_CHECK(rej.rej.local_comm_id != 0 && rej.rej.remote_comm_id != 0);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_RTU), 0);
	T_EQ(A.ev[0].type, IRDMA_CM_EVENT_CONNECT_ERROR);
	T_EQ(A.ev[0].status, -EIO);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_IDLE);
	T_EQ(ep_qa(&A, IRDMA_CM_QPS_ERR) != NULL, 1);
	/* The passive side (REP_SENT) learns it: REJECTED, its QP to ERR, freed. */
	T_EQ(ep_last_ev(&B)->type, IRDMA_CM_EVENT_REJECTED);
	T_EQ(ep_last_ev(&B)->status, 28);
	T_EQ(ep_qa(&B, IRDMA_CM_QPS_ERR) != NULL, 1);
	T_EQ(ep_live(&B), 0);
}

T_CASE(passive_qp_failure_keeps_req_for_reject)
{
	setup();
	B.auto_accept = 0;
	B.qp_fail = IRDMA_CM_QPS_RTR;
	connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_accept(&B.cm, B.last_req_id, &B.ap, now), -EIO);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_REQ_RCVD);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_REP), 0);
	T_EQ(irdma_cm_reject(&B.cm, B.last_req_id, IRDMA_CM_REJ_NO_QP, NULL, 0, now), 0);
	link_pump(&A, &B);
	T_EQ(A.ev[0].type, IRDMA_CM_EVENT_REJECTED);
	T_EQ(A.ev[0].status, IRDMA_CM_REJ_NO_QP);
}

T_CASE(destroy_while_req_outstanding_sends_rej_timeout)
{
	struct irdma_cm_msg rej;
	int id;

	setup();
	B.auto_accept = 0;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_destroy(&A.cm, id, now), 0);
	link_pump(&A, &B);
	T_EQ(ep_sent_msg(&A, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
	T_EQ(rej.rej.reason, IRDMA_CM_REJ_TIMEOUT);
	T_EQ(rej.rej.remote_comm_id, 0);
	T_EQ(rej.rej.ari_len, 8);
	T_EQ(roce_get_be64(rej.rej.ari), GUID_A);
	/* The passive side finds its half by (peer comm ID, GUID) and drops it. */
	T_EQ(ep_last_ev(&B)->type, IRDMA_CM_EVENT_REJECTED);
	T_EQ(ep_last_ev(&B)->status, IRDMA_CM_REJ_TIMEOUT);
	T_EQ(ep_live(&A), 0);
	T_EQ(ep_live(&B), 0);
	T_EQ(A.nev, 0); /* destroy reports nothing */
}

T_CASE(dreq_lost_peer_never_answers)
{
	int id;

	setup();
	id = connect_a();
	link_pump(&A, &B);
	A.drop[IRDMA_CM_ATTR_DREQ - 0x10] = -1;
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0); /* already under way */
	T_EQ(irdma_cm_next_deadline(&A.cm), now + REQ_INTERVAL);
	run_until_quiet(1000000 * MS);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_DREQ), 16);
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_DISCONNECTED), 1);
	T_EQ(A.ev[1].type, IRDMA_CM_EVENT_DISCONNECTED);
	T_EQ(A.ev[1].status, -ETIMEDOUT);
	T_EQ(ep_last_ev(&A)->type, IRDMA_CM_EVENT_TIMEWAIT_EXIT);
	T_EQ(ep_live(&A), 0);
	/* The passive side never heard: still established (its peer is gone). */
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
}

T_CASE(drep_lost_dreq_again_answered_from_timewait_or_after)
{
	int id;

	setup();
	id = connect_a();
	link_pump(&A, &B);
	B.drop[IRDMA_CM_ATTR_DREP - 0x10] = 1;
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_DREQ_SENT);
	/* The passive timewait (2 s) ends before the DREQ is retransmitted (6 s): the
	 * DREQ for a forgotten connection is still answered. */
	run_until_quiet(1000000 * MS);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_DREQ), 2);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_DREP), 2);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_NO_CONN], 1);
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_DISCONNECTED), 1);
	T_EQ(A.ev[1].status, 0);
	T_EQ(ep_live(&A), 0);
	T_EQ(ep_live(&B), 0);
}

T_CASE(duplicate_dreq_in_timewait_gets_drep)
{
	int id;

	setup();
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_TIMEWAIT);
	irdma_cm_rx(&B.cm, &A.addr, A.sent[A.nsent - 1], IRDMA_CM_MAD_LEN, now);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_DREP), 2);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_DUPLICATE], 1);
	T_MEMEQ(B.sent[B.nsent - 1], B.sent[B.nsent - 2], IRDMA_CM_MAD_LEN);
	/* And the REQ replayed into timewait is refused as stale. */
	irdma_cm_rx(&B.cm, &A.addr, A.sent[0], IRDMA_CM_MAD_LEN, now);
	{
		struct irdma_cm_msg rej;

		T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
		T_EQ(rej.rej.reason, IRDMA_CM_REJ_STALE_CONN);
	}
}

T_CASE(crossing_dreqs)
{
	int id;

	setup();
	A.auto_disconnect = B.auto_disconnect = 0;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	T_EQ(irdma_cm_disconnect(&B.cm, B.last_req_id, now), 0);
	link_pump(&A, &B);
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_DISCONNECTED), 1);
	T_EQ(ep_count_ev(&B, IRDMA_CM_EVENT_DISCONNECTED), 1);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_DREP), 1);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_DREP), 1);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_TIMEWAIT);
	run_until_quiet(1000000 * MS);
	T_EQ(ep_live(&A) + ep_live(&B), 0);
}

T_CASE(passive_disconnects_app_answers_later)
{
	int id;

	setup();
	A.auto_disconnect = 0;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_disconnect(&B.cm, B.last_req_id, now), 0);
	link_pump(&A, &B);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_DREQ_RCVD);
	T_EQ(ep_last_ev(&A)->type, IRDMA_CM_EVENT_DISCONNECTED);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_DREP), 0);
	/* A duplicate DREQ while the application thinks is ignored. */
	irdma_cm_rx(&A.cm, &B.addr, B.sent[B.nsent - 1], IRDMA_CM_MAD_LEN, now);
	T_EQ(A.cm.stats.drops[IRDMA_CM_R_DUPLICATE], 1);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	T_EQ(ep_qa(&A, IRDMA_CM_QPS_ERR) != NULL, 1);
	link_pump(&A, &B);
	T_EQ(ep_count_sent(&A, IRDMA_CM_ATTR_DREP), 1);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_TIMEWAIT);
	T_EQ(ep_last_ev(&B)->type, IRDMA_CM_EVENT_DISCONNECTED);
}

T_CASE(dreq_checks_qpn_and_unknown_connection)
{
	struct irdma_cm_msg m, drep;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int id;

	setup();
	id = connect_a();
	link_pump(&A, &B);
	/* A DREQ naming another QP is dropped. */
	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_DREQ, 0x77);
	m.dreq.local_comm_id = A.cm.conns[IRDMA_CM_ID_SLOT(id)].local_id;
	m.dreq.remote_comm_id = A.cm.conns[IRDMA_CM_ID_SLOT(id)].remote_id;
	m.dreq.remote_qpn = QPN_B + 1;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_DREQ_QPN);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_ESTABLISHED);
	/* A DREQ for no connection gets a DREP built from it. */
	m.dreq.local_comm_id = 0x11111111;
	m.dreq.remote_comm_id = 0x22222222;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_NO_CONN);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_DREP, 0, &drep), 0);
	T_EQ(drep.hdr.tid, 0x77);
	T_EQ(drep.drep.local_comm_id, 0x22222222);
	T_EQ(drep.drep.remote_comm_id, 0x11111111);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_DREQ_QPN], 1);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_NO_CONN], 1);
}

T_CASE(stale_req_for_connected_qp_rej_10_and_dreq)
{
	struct irdma_cm_msg m, rej;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int id;

	setup();
	id = connect_a();
	link_pump(&A, &B);
	/* The peer reboots and asks again for the same QP with a new comm ID. */
	T_EQ(irdma_cm_msg_parse(A.sent[0], IRDMA_CM_MAD_LEN, &m), 0);
	m.req.local_comm_id ^= 0x5a5a5a5a;
	m.hdr.tid ^= 0x5a5a5a5a;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_STALE);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
	T_EQ(rej.rej.reason, IRDMA_CM_REJ_STALE_CONN);
	T_EQ(rej.rej.remote_comm_id, m.req.local_comm_id);
	T_EQ(ep_count_sent(&B, IRDMA_CM_ATTR_DREQ), 1);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_DREQ_SENT);
	(void)id;
}

T_CASE(req_for_uc_transport_rej_9)
{
	struct irdma_cm_msg m, rej;
	uint8_t mad[IRDMA_CM_MAD_LEN];

	setup();
	connect_a();
	T_EQ(irdma_cm_msg_parse(A.q[0], IRDMA_CM_MAD_LEN, &m), 0);
	A.qn = 0;
	m.req.transport_type = IRDMA_CM_TRANSPORT_UC;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_TRANSPORT);
	T_EQ(ep_sent_msg(&B, IRDMA_CM_ATTR_REJ, 0, &rej), 0);
	T_EQ(rej.rej.reason, IRDMA_CM_REJ_INVALID_TRANSPORT);
	T_EQ(ep_live(&B), 0);
}

T_CASE(mra_of_rep_extends_the_passive_timer)
{
	struct irdma_cm_msg m;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	struct irdma_cm_conn *b;

	setup();
	A.drop[IRDMA_CM_ATTR_RTU - 0x10] = -1;
	connect_a();
	link_pump(&A, &B);
	b = &B.cm.conns[IRDMA_CM_ID_SLOT(B.last_req_id)];
	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_MRA, b->tid);
	m.mra.local_comm_id = b->remote_id;
	m.mra.remote_comm_id = b->local_id;
	m.mra.msg_mraed = IRDMA_CM_MSG_REF_REP;
	m.mra.service_timeout = 22;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), 0);
	T_EQ(irdma_cm_get_state(&B.cm, B.last_req_id), IRDMA_CM_MRA_REP_RCVD);
	T_EQ(irdma_cm_next_deadline(&B.cm), now + 16384 * MS + 2048 * MS);
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_DUPLICATE);
	/* An MRA of the REQ in this state is out of place. */
	m.mra.msg_mraed = IRDMA_CM_MSG_REF_REQ;
	m.mra.local_comm_id = 0;
	irdma_cm_msg_build(&m, mad, sizeof(mad));
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_STATE);
}

T_CASE(malformed_and_unexpected_mads_are_counted)
{
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int id;

	setup();
	id = connect_a();
	memcpy(mad, A.q[0], sizeof(mad));
	mad[2] = 1; /* class version */
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_CLASS_VERSION);
	mad[2] = 2;
	mad[17] = 0x19; /* LAP */
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, sizeof(mad), now), -IRDMA_CM_R_LAP_APR);
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, mad, 100, now), -IRDMA_CM_R_LENGTH);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_CLASS_VERSION], 1);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_LAP_APR], 1);
	T_EQ(B.cm.stats.drops[IRDMA_CM_R_LENGTH], 1);
	T_EQ(ep_live(&B), 0);
	T_EQ(B.nsent, 0); /* nothing answered */
	/* An RTU or DREP that names nothing, in the wrong state. */
	link_pump(&A, &B);
	T_EQ(irdma_cm_rx(&A.cm, &B.addr, A.sent[1], IRDMA_CM_MAD_LEN, now), -IRDMA_CM_R_NO_CONN);
	T_EQ(irdma_cm_rx(&B.cm, &A.addr, A.sent[1], IRDMA_CM_MAD_LEN, now), -IRDMA_CM_R_DUPLICATE);
	(void)id;
}

T_CASE(argument_checks_and_ids)
{
	struct irdma_cm_connect_param p = { .qpn = 1, .path_mtu = 3 };
	struct irdma_cm_config cfg = { .packet_life_time = 18 };
	struct irdma_cm cm;
	int ids[IRDMA_CM_MAX_CONNS], id;

	setup();
	T_EQ(irdma_cm_init(&cm, &cfg, NULL, NULL), -EINVAL);
	cfg.cm_response_timeout = 32;
	T_EQ(irdma_cm_init(&cm, &cfg, &ep_ops, NULL), -EINVAL);
	memcpy(p.dgid, B.addr.gid, 16);
	p.qpn = 0;
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -EINVAL);
	p.qpn = 0x1000000;
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -EINVAL);
	p.qpn = 1;
	p.path_mtu = 6;
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -EINVAL);
	p.path_mtu = 3;
	p.retry_count = 8;
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -EINVAL);
	p.retry_count = 7;
	p.private_data_len = IRDMA_CM_REQ_PD_LEN + 1;
	p.private_data = A.q;
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -EINVAL);
	p.private_data_len = 0;
	A.qp_fail = IRDMA_CM_QPS_INIT;
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -EIO);
	T_EQ(ep_live(&A), 0);
	A.qp_fail = 0;
	/* The table fills; comm IDs are distinct and never 0. */
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		ids[i] = irdma_cm_connect(&A.cm, &p, now);
		T_CHECK(ids[i] >= 0);
	}
	T_EQ(irdma_cm_connect(&A.cm, &p, now), -ENOSPC);
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		T_CHECK(A.cm.conns[i].local_id != 0);
		for (unsigned int j = 0; j < i; j++)
			T_CHECK(A.cm.conns[i].local_id != A.cm.conns[j].local_id);
	}
	/* A freed id does not name the connection that reuses its slot. */
	T_EQ(irdma_cm_destroy(&A.cm, ids[5], now), 0);
	id = irdma_cm_connect(&A.cm, &p, now);
	T_CHECK(id >= 0 && id != ids[5]);
	T_EQ(IRDMA_CM_ID_SLOT(id), IRDMA_CM_ID_SLOT(ids[5]));
	T_EQ(irdma_cm_get_state(&A.cm, ids[5]), IRDMA_CM_IDLE);
	T_EQ(irdma_cm_destroy(&A.cm, ids[5], now), -EINVAL);
	T_EQ(irdma_cm_set_user(&A.cm, ids[5], NULL), -EINVAL);
	T_EQ(irdma_cm_set_user(&A.cm, id, &A), 0);
	T_EQ(irdma_cm_accept(&A.cm, id, &B.ap, now), -EINVAL); /* active side */
	T_EQ(irdma_cm_get_state(&A.cm, -1), IRDMA_CM_IDLE);
	T_CHECK(!strcmp(irdma_cm_state_name(IRDMA_CM_MRA_REQ_RCVD), "MRA_REQ_RCVD"));
	T_CHECK(!strcmp(irdma_cm_state_name(IRDMA_CM_STATE_NUM), "unknown"));
	T_CHECK(!strcmp(irdma_cm_event_name(IRDMA_CM_EVENT_TIMEWAIT_EXIT), "TIMEWAIT_EXIT"));
	T_CHECK(!strcmp(irdma_cm_event_name(IRDMA_CM_EVENT_NUM), "unknown"));
	for (int s = 0; s < IRDMA_CM_STATE_NUM; s++)
		T_CHECK(strcmp(irdma_cm_state_name((enum irdma_cm_state)s), "unknown"));
	for (int e = 0; e < IRDMA_CM_EVENT_NUM; e++)
		T_CHECK(strcmp(irdma_cm_event_name((enum irdma_cm_event_type)e), "unknown"));
}

T_CASE(timer_codes_and_ack_timeout)
{
	T_EQ(cm_time_ns(20), 4096 * MS);
	T_EQ(cm_time_ns(18), 1024 * MS);
	T_EQ(cm_time_ns(8), 1 * MS);
	T_EQ(cm_time_ns(0), 1 * MS);
	T_EQ(cm_time_ns(24), 65536 * MS);
	T_EQ(cm_ack_timeout(15, 18), 19);
	T_EQ(cm_ack_timeout(0, 18), 19);
	T_EQ(cm_ack_timeout(19, 18), 20);
	T_EQ(cm_ack_timeout(25, 18), 25);
	T_EQ(cm_ack_timeout(20, 18), 21);
	T_EQ(cm_ack_timeout(31, 31), 31);
}

/* Many seeds of a lossy, duplicating link: every connection attempt ends, nothing
 * leaks, and whenever both sides got ESTABLISHED their QPs agree on PSNs and QPNs. */
T_CASE(lossy_link_property)
{
	int established = 0, unreachable = 0;

	for (uint64_t seed = 1; seed <= 300; seed++) {
		const struct irdma_cm_qp_attr *a_rtr, *a_rts, *b_rtr, *b_rts;
		int id;

		setup();
		A.rng = seed;
		B.rng = seed * 77;
		A.loss_pct = B.loss_pct = (unsigned int)(seed % 5) * 10 + 10; /* 10..50 % */
		A.dup_pct = B.dup_pct = 10;
		id = connect_a();
		T_CHECK(id >= 0);
		run_until_quiet(10000000 * MS);
		if (ep_count_ev(&A, IRDMA_CM_EVENT_ESTABLISHED)) {
			T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
			run_until_quiet(10000000 * MS);
		}
		/* A (Linux-like) passive half whose peer vanished mid-handshake stays until
		 * the application disconnects or destroys it. */
		for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++)
			if (B.cm.conns[i].state == IRDMA_CM_ESTABLISHED)
				irdma_cm_disconnect(&B.cm, conn_id_of(&B, i), now);
		run_until_quiet(10000000 * MS);
		T_CHECK_MSG(ep_live(&A) == 0 && ep_live(&B) == 0, "seed %llu: %d/%d live",
			    (unsigned long long)seed, ep_live(&A), ep_live(&B));
		T_CHECK_MSG(ep_count_ev(&A, IRDMA_CM_EVENT_ESTABLISHED) +
					    ep_count_ev(&A, IRDMA_CM_EVENT_UNREACHABLE) +
					    ep_count_ev(&A, IRDMA_CM_EVENT_REJECTED) == 1,
			    "seed %llu: active outcome", (unsigned long long)seed);
		T_CHECK(ep_count_ev(&B, IRDMA_CM_EVENT_REQ_RECEIVED) <= 1);
		T_CHECK(ep_count_ev(&B, IRDMA_CM_EVENT_ESTABLISHED) <= 1);
		if (ep_count_ev(&A, IRDMA_CM_EVENT_UNREACHABLE))
			unreachable++;
		if (!ep_count_ev(&A, IRDMA_CM_EVENT_ESTABLISHED) ||
		    !ep_count_ev(&B, IRDMA_CM_EVENT_ESTABLISHED)) {
			printf("# seed %llu, not established on both sides:", (unsigned long long)seed);
			for (int i = 0; i < A.nev; i++)
				printf(" A:%s(%d)", irdma_cm_event_name(A.ev[i].type), A.ev[i].status);
			for (int i = 0; i < B.nev; i++)
				printf(" B:%s(%d)", irdma_cm_event_name(B.ev[i].type), B.ev[i].status);
			printf("\n");
			continue;
		}
		established++;
		a_rtr = ep_qa(&A, IRDMA_CM_QPS_RTR);
		a_rts = ep_qa(&A, IRDMA_CM_QPS_RTS);
		b_rtr = ep_qa(&B, IRDMA_CM_QPS_RTR);
		b_rts = ep_qa(&B, IRDMA_CM_QPS_RTS);
		T_CHECK(a_rtr && a_rts && b_rtr && b_rts);
		if (!(a_rtr && a_rts && b_rtr && b_rts))
			continue;
		T_EQ(a_rts->sq_psn, b_rtr->rq_psn);
		T_EQ(b_rts->sq_psn, a_rtr->rq_psn);
		T_EQ(a_rtr->dest_qpn, QPN_B);
		T_EQ(b_rtr->dest_qpn, QPN_A);
		T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_DISCONNECTED), 1);
		T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_TIMEWAIT_EXIT), 1);
	}
	printf("# lossy link: %d of 300 established on both sides, %d unreachable\n",
	       established, unreachable);
	T_CHECK(established > 250);
}

/* One manager connecting to itself (a device talking to its own GID): both halves live in
 * the same table and every lookup must still find the right one. */
T_CASE(connect_to_self)
{
	struct irdma_cm_connect_param p = { .service_id = SID, .qpn = QPN_A, .retry_count = 7,
		.rnr_retry_count = 7, .path_mtu = 5, .hop_limit = 64 };
	int id;

	setup();
	ep_init(&A, &A, "self", GUID_A, 12, 5, &now);
	A.auto_accept = A.auto_disconnect = 1;
	A.ap = (struct irdma_cm_accept_param){ .qpn = QPN_B, .rnr_retry_count = 7 };
	T_EQ(irdma_cm_listen(&A.cm, SID, NULL), 0);
	memcpy(p.sgid, A.addr.gid, 16);
	memcpy(p.dgid, A.addr.gid, 16);
	id = irdma_cm_connect(&A.cm, &p, now);
	while (ep_deliver(&A))
		;
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_ESTABLISHED);
	T_EQ(irdma_cm_get_state(&A.cm, A.last_req_id), IRDMA_CM_ESTABLISHED);
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_ESTABLISHED), 2);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	while (ep_deliver(&A))
		;
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_DISCONNECTED), 2);
	T_EQ(irdma_cm_get_state(&A.cm, id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_get_state(&A.cm, A.last_req_id), IRDMA_CM_TIMEWAIT);
	now += TIMEWAIT;
	irdma_cm_timer(&A.cm, now);
	T_EQ(ep_count_ev(&A, IRDMA_CM_EVENT_TIMEWAIT_EXIT), 2);
	T_EQ(ep_live(&A), 0);
	T_EQ(A.cm.stats.drops[IRDMA_CM_R_NO_CONN] + A.cm.stats.drops[IRDMA_CM_R_STATE], 0);
}

/* Mutated MADs from a real handshake, thrown at both sides at random times: nothing
 * crashes (the ASan build runs this too), every MAD is either used or counted, and the
 * tables never overflow. */
T_CASE(fuzzed_mads_are_used_or_counted)
{
	uint8_t pool[EP_LOG][IRDMA_CM_MAD_LEN];
	uint64_t r = 0x1234567;
	int npool = 0, used = 0, dropped = 0;
	uint64_t before_a = 0, before_b = 0;
	int id;

	setup();
	A.drop[IRDMA_CM_ATTR_RTU - 0x10] = 1;
	id = connect_a();
	link_pump(&A, &B);
	T_EQ(irdma_cm_disconnect(&A.cm, id, now), 0);
	run_until_quiet(1000000 * MS);
	for (int i = 0; i < A.nsent && npool < EP_LOG; i++)
		memcpy(pool[npool++], A.sent[i], IRDMA_CM_MAD_LEN);
	for (int i = 0; i < B.nsent && npool < EP_LOG; i++)
		memcpy(pool[npool++], B.sent[i], IRDMA_CM_MAD_LEN);
	{
		/* and the two messages a clean handshake does not show */
		struct irdma_cm_msg m = { 0 }, req;

		T_EQ(irdma_cm_msg_parse(pool[0], IRDMA_CM_MAD_LEN, &req), 0);
		irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_MRA, req.hdr.tid);
		m.mra.remote_comm_id = req.req.local_comm_id;
		m.mra.service_timeout = 20;
		irdma_cm_msg_build(&m, pool[npool++], IRDMA_CM_MAD_LEN);
		memset(&m, 0, sizeof(m));
		irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REJ, req.hdr.tid);
		m.rej.remote_comm_id = req.req.local_comm_id;
		m.rej.reason = IRDMA_CM_REJ_CONSUMER;
		irdma_cm_msg_build(&m, pool[npool++], IRDMA_CM_MAD_LEN);
	}
	T_CHECK_MSG(npool == 7, "pool %d", npool);
	for (int k = 0; k < IRDMA_CM_R_NUM; k++) {
		before_a += A.cm.stats.drops[k];
		before_b += B.cm.stats.drops[k];
	}
	for (int it = 0; it < 20000; it++) {
		uint8_t mad[IRDMA_CM_MAD_LEN];
		struct ep *to;
		int flips, rc;

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		memcpy(mad, pool[(r >> 33) % (uint64_t)npool], sizeof(mad));
		flips = (int)((r >> 20) % 4);
		for (int f = 0; f < flips; f++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			/* mostly the fields that matter: header and the first 40 CM bytes */
			mad[(r >> 33) % ((r >> 60) ? 64 : IRDMA_CM_MAD_LEN)] ^= (uint8_t)(1u << ((r >> 40) % 8));
		}
		to = (r >> 50) & 1 ? &A : &B;
		rc = irdma_cm_rx(&to->cm, (r >> 51) & 1 ? &A.addr : &B.addr, mad, sizeof(mad), now);
		T_CHECK(rc <= 0 && -rc < IRDMA_CM_R_NUM);
		if (rc)
			dropped++;
		else
			used++;
		if ((r >> 52) % 16 == 0) {
			now += (r >> 56) * 100 * MS;
			irdma_cm_timer(&A.cm, now);
			irdma_cm_timer(&B.cm, now);
		}
		A.qn = B.qn = 0;
		A.nsent = B.nsent = 0;
		A.nev = B.nev = A.nqa = B.nqa = 0;
	}
	{
		uint64_t after = 0;

		for (int k = 0; k < IRDMA_CM_R_NUM; k++)
			after += A.cm.stats.drops[k] + B.cm.stats.drops[k];
		T_EQ(after - before_a - before_b, dropped);
	}
	printf("# fuzz: %d used, %d dropped\n", used, dropped);
	T_CHECK(used > 0 && dropped > 0);
	/* Whatever it left behind ends. */
	for (unsigned int i = 0; i < IRDMA_CM_MAX_CONNS; i++) {
		if (A.cm.conns[i].state != IRDMA_CM_IDLE)
			irdma_cm_destroy(&A.cm, conn_id_of(&A, i), now);
		if (B.cm.conns[i].state != IRDMA_CM_IDLE)
			irdma_cm_destroy(&B.cm, conn_id_of(&B, i), now);
	}
	T_EQ(ep_live(&A) + ep_live(&B), 0);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
