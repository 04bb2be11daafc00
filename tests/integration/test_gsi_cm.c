/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP 1 on the software device and RDMA-CM over it: two devices on port=loop exchange CM
 * MADs through rte_pmd_irdma_gsi_send()/gsi_recv(), lib/cm's RDMA-CM connects their RC
 * QPs (the QP transitions it asks for are applied with rte_pmd_irdma_qp_modify()), a
 * SEND crosses the connection, and a DREQ/DREP closes it.
 */
#include <rte_cycles.h>

#include "itest_pair.h"
#include "cm_gsi.h"
#include "cm_msg.h"
#include "cm_rcm.h"
#include "tool_cm.h"

struct cm_ep {
	struct endpoint e;
	struct irdma_rcm rcm;
	int id;
	int established, disconnected, requests, rejected;
};

static struct cm_ep A, B;

static uint64_t now_ns(void)
{
	return (uint64_t)((double)rte_get_timer_cycles() * 1e9 / (double)rte_get_timer_hz());
}

static int ep_send(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len)
{
	struct cm_ep *c = ctx;
	union rte_pmd_irdma_gid g;

	memcpy(g.raw, to->gid, 16);
	return rte_pmd_irdma_gsi_send(c->e.dev, &g, mad, len);
}

/* lib/cm's QP transitions as PMD verbs (the tools' mapping); GID 1 is the IPv4-mapped one. */
static int ep_qp_modify(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *c)
{
	struct cm_ep *ep = ctx;

	(void)id;
	(void)user;
	return tool_cm_qp_modify(ep->e.qp, 1, c);
}

static void ep_event(void *ctx, const struct irdma_rcm_event *ev)
{
	struct cm_ep *c = ctx;

	printf("# %s: %s (%d)\n", c == &A ? "A" : "B", irdma_rcm_event_name(ev->type), ev->status);
	switch (ev->type) {
	case IRDMA_RCM_EVENT_CONNECT_REQUEST: {
		struct irdma_cm_accept_param ap = { .qpn = c->e.qp->qp_num,
			.responder_resources = 4, .initiator_depth = 4, .rnr_retry_count = 7,
			.min_rnr_timer = 1, .private_data = "accepted", .private_data_len = 9 };

		c->requests++;
		c->id = ev->id;
		T_EQ(ev->private_data_len, IRDMA_CM_REQ_USER_PD_LEN);
		T_CHECK(!memcmp(ev->private_data, "hello", 6));
		T_EQ(ev->info->remote_qpn, A.e.qp->qp_num);
		T_EQ(irdma_rcm_accept(&c->rcm, ev->id, &ap, now_ns()), 0);
		break;
	}
	case IRDMA_RCM_EVENT_ESTABLISHED:
		c->established++;
		if (c == &A)
			T_CHECK(!memcmp(ev->private_data, "accepted", 9));
		break;
	case IRDMA_RCM_EVENT_DISCONNECTED:
		c->disconnected++;
		irdma_rcm_disconnect(&c->rcm, ev->id, now_ns());
		break;
	case IRDMA_RCM_EVENT_REJECTED:
	case IRDMA_RCM_EVENT_UNREACHABLE:
	case IRDMA_RCM_EVENT_CONNECT_ERROR:
		c->rejected++;
		break;
	default:
		break;
	}
}

static const struct irdma_rcm_ops ep_ops = { ep_send, ep_qp_modify, ep_event };

static void pump_one(struct cm_ep *c)
{
	struct rte_pmd_irdma_mad mads[8];
	int n;

	rte_pmd_irdma_progress(c->e.dev, 64);
	n = rte_pmd_irdma_gsi_recv(c->e.dev, mads, RTE_DIM(mads));
	for (int i = 0; i < n; i++) {
		struct irdma_cm_addr from;

		memcpy(from.gid, mads[i].sgid.raw, 16);
		irdma_rcm_rx(&c->rcm, &from, mads[i].data, sizeof(mads[i].data), now_ns());
	}
	irdma_rcm_timer(&c->rcm, now_ns());
}

/* Steps both sides until cond holds or ~5 s of wall time passed (a hang is a failure). */
#define PUMP_UNTIL(cond)                                                                   \
	do {                                                                               \
		uint64_t end_ = rte_get_timer_cycles() + 5 * rte_get_timer_hz();           \
		while (!(cond) && rte_get_timer_cycles() < end_) {                         \
			pump_one(&A);                                                      \
			pump_one(&B);                                                      \
		}                                                                          \
	} while (0)

static void open_pair_args(const char *extra)
{
	static const struct rte_pmd_irdma_qp_cap cap = { .max_send_wr = 16, .max_recv_wr = 16,
		.max_send_sge = 1, .max_recv_sge = 1 };

	char args[160];

	memset(&A, 0, sizeof(A));
	memset(&B, 0, sizeof(B));
	snprintf(args, sizeof(args), "soft,port=loop,ip=198.18.0.1,name=gsiA%s", extra);
	T_EQ(endpoint_open(&A.e, args, RTE_PMD_IRDMA_QPT_RC, &cap, NULL), 0);
	snprintf(args, sizeof(args), "soft,port=loop,ip=198.18.0.2,name=gsiB%s", extra);
	T_EQ(endpoint_open(&B.e, args, RTE_PMD_IRDMA_QPT_RC, &cap, NULL), 0);
}

static void open_pair(void)
{
	open_pair_args("");
}

static void init_rcm_timers(struct cm_ep *c, uint64_t guid, uint8_t plt, uint8_t resp)
{
	struct irdma_rcm_config cfg = {
		.cm = { .local_ca_guid = guid, .ca_ack_delay = 15, .packet_life_time = plt,
			.cm_response_timeout = resp, .max_cm_retries = 15, .mra_service_timeout = 24,
			.hi_tid = 2, .seed = guid },
		.n_local_gids = 1,
	};

	memcpy(cfg.local_gids[0], c->e.gid.raw, 16);
	T_EQ(irdma_rcm_init(&c->rcm, &cfg, &ep_ops, c), 0);
}

/* Linux's timer values: packet life time 18, CM response timeout 20. */
static void init_rcm(struct cm_ep *c, uint64_t guid)
{
	init_rcm_timers(c, guid, 18, 20);
}

T_CASE(gsi_mads_between_two_devices)
{
	struct irdma_cm_msg m = { 0 };
	uint8_t mad[IRDMA_CM_MAD_LEN];
	struct rte_pmd_irdma_mad got[4];
	struct rte_pmd_irdma_gsi_stats sa, sb;
	int n = 0;

	open_pair();
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_DREQ, 0x1234);
	m.dreq.local_comm_id = 7;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, 255), -EINVAL);
	mad[1] = 0x03; /* subnet administration: no agent on the device */
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	mad[1] = 0x07;
	for (int i = 0; i < 100 && n == 0; i++) {
		rte_pmd_irdma_progress(A.e.dev, 64);
		rte_pmd_irdma_progress(B.e.dev, 64);
		n = rte_pmd_irdma_gsi_recv(B.e.dev, got, RTE_DIM(got));
	}
	T_EQ(n, 1);
	T_MEMEQ(got[0].sgid.raw, A.e.gid.raw, 16);
	T_MEMEQ(got[0].data, mad, sizeof(mad));
	T_EQ(rte_pmd_irdma_gsi_recv(B.e.dev, got, RTE_DIM(got)), 0);
	T_EQ(rte_pmd_irdma_gsi_stats(A.e.dev, &sa), 0);
	T_EQ(rte_pmd_irdma_gsi_stats(B.e.dev, &sb), 0);
	T_EQ(sa.tx_mads, 2);
	T_EQ(sb.rx_mads, 1);
	T_EQ(sb.rx_other_class, 1);
	T_EQ(sb.rx_bad_qkey + sb.rx_bad_opcode + sb.rx_bad_length + sb.rx_overflow, 0);
	T_EQ(rte_pmd_irdma_gsi_stats(NULL, &sa), -EINVAL);
	endpoint_close(&A.e);
	endpoint_close(&B.e);
}

/* A device xstat that must exist. */
static uint64_t xstat_of(struct rte_pmd_irdma_dev *dev, const char *name)
{
	uint64_t v = itest_dev_xstat(dev, name);

	T_CHECK_MSG(v != UINT64_MAX, "no xstat %s", name);
	return v;
}

static void pump_devices(int rounds)
{
	for (int i = 0; i < rounds; i++) {
		rte_pmd_irdma_progress(A.e.dev, 64);
		rte_pmd_irdma_progress(B.e.dev, 64);
	}
}

/* MADs of other classes (and requests the CM agent does not take) as Linux handles them:
 * a Get or Set is answered with GetResp, status 0x000C; anything else is dropped; every
 * one is counted by class, in rte_pmd_irdma_gsi_stats() and in the xstats. */
T_CASE(gsi_other_classes_answered_or_dropped_and_counted)
{
	struct irdma_cm_msg m = { 0 };
	uint8_t mad[IRDMA_CM_MAD_LEN];
	struct rte_pmd_irdma_mad got[4];
	struct rte_pmd_irdma_gsi_stats sa, sb;

	open_pair();
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_DREQ, 0x77);
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	mad[1] = 0x03;
	mad[3] = 0x01; /* SA Get: answered */
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	mad[1] = 0x04;
	mad[3] = 0x02; /* PerfMgt Set: answered */
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	mad[1] = 0x0A;
	mad[3] = 0x06; /* vendor Report: dropped */
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	mad[1] = 0x07;
	mad[3] = 0x01; /* a Get of the CM class: the CM takes Send only, so answered */
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	mad[0] = 2;
	mad[3] = 0x03; /* base version 2: dropped */
	T_EQ(rte_pmd_irdma_gsi_send(A.e.dev, &B.e.gid, mad, sizeof(mad)), 0);
	pump_devices(200);
	/* no answer reaches the applications: B's CM sees nothing, and A's answers (GetResp
	 * of SA, PerfMgt and CM) are responses, which are never answered back */
	T_EQ(rte_pmd_irdma_gsi_recv(B.e.dev, got, RTE_DIM(got)), 0);
	T_EQ(rte_pmd_irdma_gsi_stats(A.e.dev, &sa), 0);
	T_EQ(rte_pmd_irdma_gsi_stats(B.e.dev, &sb), 0);
	T_EQ(sb.tx_unsupported_replies, 3);
	T_EQ(sb.tx_mads, 3);
	T_EQ(sb.rx_class[IRDMA_CM_GSI_CLASS_SA], 1);
	T_EQ(sb.rx_class[IRDMA_CM_GSI_CLASS_PERF], 1);
	T_EQ(sb.rx_class[IRDMA_CM_GSI_CLASS_VENDOR], 1);
	T_EQ(sb.rx_class[IRDMA_CM_GSI_CLASS_CM], 1);
	T_EQ(sb.rx_other_class, 3);
	T_EQ(sb.rx_bad_base_version, 1);
	T_EQ(sb.rx_mads, 0);
	T_EQ(sb.tx_class[IRDMA_CM_GSI_CLASS_SA], 1);
	T_EQ(sb.tx_class[IRDMA_CM_GSI_CLASS_PERF], 1);
	T_EQ(sb.tx_class[IRDMA_CM_GSI_CLASS_CM], 1);
	T_EQ(sa.tx_mads, 5);
	T_EQ(sa.tx_class[IRDMA_CM_GSI_CLASS_CM], 2);
	T_EQ(sa.rx_class[IRDMA_CM_GSI_CLASS_SA], 1); /* the answers, dropped */
	T_EQ(sa.rx_class[IRDMA_CM_GSI_CLASS_PERF], 1);
	T_EQ(sa.rx_class[IRDMA_CM_GSI_CLASS_CM], 1);
	T_EQ(sa.tx_unsupported_replies, 0);
	T_EQ(rte_pmd_irdma_gsi_recv(A.e.dev, got, RTE_DIM(got)), 1); /* the CM GetResp */
	T_EQ(got[0].data[3], 0x81);
	T_EQ(got[0].data[4], 0x00);
	T_EQ(got[0].data[5], 0x0C);
	/* the same numbers in the xstats */
	T_EQ(xstat_of(B.e.dev, "gsi_tx_unsupported_replies"), 3);
	T_EQ(xstat_of(B.e.dev, "gsi_rx_class_sa"), 1);
	T_EQ(xstat_of(B.e.dev, "gsi_rx_class_vendor"), 1);
	T_EQ(xstat_of(B.e.dev, "gsi_rx_drop_base_version"), 1);
	T_EQ(xstat_of(B.e.dev, "gsi_tx_class_perf"), 1);
	T_EQ(xstat_of(A.e.dev, "gsi_tx_mads"), 5);
	T_EQ(xstat_of(A.e.dev, "gsi_rx_mads"), 1);
	T_EQ(rte_pmd_irdma_xstats_reset(B.e.dev), 0);
	T_EQ(xstat_of(B.e.dev, "gsi_rx_class_sa"), 0);
	endpoint_close(&A.e);
	endpoint_close(&B.e);
}

T_CASE(rdma_cm_connect_send_disconnect)
{
	struct irdma_rcm_connect_param p = { .ps = IRDMA_CM_PS_TCP, .responder_resources = 4,
		.initiator_depth = 4, .retry_count = 7, .rnr_retry_count = 7, .path_mtu = 3,
		.hop_limit = 64, .private_data = "hello", .private_data_len = 6 };
	struct irdma_rcm_addr any = { .ip_version = 4, .port = 7174 };
	struct rte_pmd_irdma_sge ss, rs;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_recv_wr rwr;
	struct rte_pmd_irdma_wc wc;
	struct rte_pmd_irdma_qp_attr qa;
	struct rte_pmd_irdma_qp_init_attr qia;
	int err;

	open_pair();
	init_rcm(&A, 0x505400fffe000001ull);
	init_rcm(&B, 0x505400fffe000002ull);
	T_EQ(irdma_rcm_listen(&B.rcm, IRDMA_CM_PS_TCP, &any, &B), 0);
	p.src = (struct irdma_rcm_addr){ .ip_version = 4, .port = 40000 };
	memcpy(p.src.gid, A.e.gid.raw, 16);
	p.dst = (struct irdma_rcm_addr){ .ip_version = 4, .port = 7174 };
	memcpy(p.dst.gid, B.e.gid.raw, 16);
	p.qpn = A.e.qp->qp_num;
	A.id = irdma_rcm_connect(&A.rcm, &p, now_ns());
	T_CHECK(A.id >= 0);
	PUMP_UNTIL(A.established && B.established);
	T_EQ(B.requests, 1);
	T_EQ(A.established, 1);
	T_EQ(B.established, 1);
	T_EQ(A.rejected + B.rejected, 0);
	T_EQ(rte_pmd_irdma_qp_query(A.e.qp, &qa, 0, &qia), 0);
	T_EQ(qa.qp_state, RTE_PMD_IRDMA_QPS_RTS);
	T_EQ(qa.dest_qp_num, B.e.qp->qp_num);

	/* A SEND over the connection the CM made. */
	fill_pattern(A.e.buf, 64, 42);
	rs = sge_of(&B.e, 0, 64);
	rwr = (struct rte_pmd_irdma_recv_wr){ .wr_id = 2, .sg_list = &rs, .num_sge = 1 };
	T_EQ(rte_pmd_irdma_post_recv(B.e.qp, &rwr, 1, &err), 1);
	ss = sge_of(&A.e, 0, 64);
	wr = signaled_wr(RTE_PMD_IRDMA_WR_SEND, 1, &ss, 1);
	T_EQ(rte_pmd_irdma_post_send(A.e.qp, &wr, 1, &err), 1);
	{
		struct pair pr = { .a = A.e, .b = B.e };

		T_EQ(itest_poll(&pr, B.e.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
		T_EQ(wc.wr_id, 2);
		T_EQ(itest_poll(&pr, A.e.cq, &wc, 1), 1);
		T_EQ(wc.status, RTE_PMD_IRDMA_WC_SUCCESS);
	}
	T_MEMEQ(B.e.buf, A.e.buf, 64);

	/* DREQ/DREP: both sides disconnected, QPs in ERR, both in timewait. */
	T_EQ(irdma_rcm_disconnect(&A.rcm, A.id, now_ns()), 0);
	PUMP_UNTIL(A.disconnected && B.disconnected);
	T_EQ(A.disconnected, 1);
	T_EQ(B.disconnected, 1);
	T_EQ(irdma_cm_get_state(&A.rcm.cm, A.id), IRDMA_CM_TIMEWAIT);
	T_EQ(irdma_cm_get_state(&B.rcm.cm, B.id), IRDMA_CM_TIMEWAIT);
	T_EQ(rte_pmd_irdma_qp_query(B.e.qp, &qa, 0, &qia), 0);
	T_EQ(qa.qp_state, RTE_PMD_IRDMA_QPS_ERR);
	T_EQ(irdma_rcm_destroy(&A.rcm, A.id, now_ns()), 0);
	T_EQ(irdma_rcm_destroy(&B.rcm, B.id, now_ns()), 0);
	{
		struct pair pr = { .a = A.e, .b = B.e };

		itest_settle(&pr, 100); /* flush CQEs */
		while (rte_pmd_irdma_poll_cq(A.e.cq, &wc, 1) > 0 || rte_pmd_irdma_poll_cq(B.e.cq, &wc, 1) > 0)
			;
	}
	endpoint_close(&A.e);
	endpoint_close(&B.e);
}

/* The same handshake and disconnect on a wire that drops 30 % of the frames and
 * duplicates 5 % (the devices' fault injection), with CM timers of milliseconds. */
T_CASE(rdma_cm_over_a_lossy_wire)
{
	struct irdma_rcm_connect_param p = { .ps = IRDMA_CM_PS_TCP, .responder_resources = 4,
		.initiator_depth = 4, .retry_count = 7, .rnr_retry_count = 7, .path_mtu = 3,
		.hop_limit = 64, .private_data = "hello", .private_data_len = 6 };
	struct irdma_rcm_addr any = { .ip_version = 4, .port = 7174 };
	struct rte_pmd_irdma_gsi_stats sa, sb;

	open_pair_args(",drop=0.3,dup=0.05,seed=1");
	init_rcm_timers(&A, 0x505400fffe000001ull, 8, 10); /* 2 x 1 ms + 4 ms per REQ */
	init_rcm_timers(&B, 0x505400fffe000002ull, 8, 10);
	T_EQ(irdma_rcm_listen(&B.rcm, IRDMA_CM_PS_TCP, &any, &B), 0);
	p.src = (struct irdma_rcm_addr){ .ip_version = 4, .port = 40001 };
	memcpy(p.src.gid, A.e.gid.raw, 16);
	p.dst = (struct irdma_rcm_addr){ .ip_version = 4, .port = 7174 };
	memcpy(p.dst.gid, B.e.gid.raw, 16);
	p.qpn = A.e.qp->qp_num;
	A.id = irdma_rcm_connect(&A.rcm, &p, now_ns());
	T_CHECK(A.id >= 0);
	PUMP_UNTIL(A.established && B.established);
	T_EQ(A.established, 1);
	T_EQ(B.established, 1);
	T_EQ(B.requests, 1);
	T_EQ(irdma_rcm_disconnect(&A.rcm, A.id, now_ns()), 0);
	PUMP_UNTIL(A.disconnected && B.disconnected);
	T_EQ(A.disconnected, 1);
	T_EQ(B.disconnected, 1);
	T_EQ(rte_pmd_irdma_gsi_stats(A.e.dev, &sa), 0);
	T_EQ(rte_pmd_irdma_gsi_stats(B.e.dev, &sb), 0);
	printf("# lossy wire: A sent %" PRIu64 " MADs, B %" PRIu64 "; CM retransmissions %" PRIu64
	       " + %" PRIu64 ", duplicates dropped %" PRIu64 " + %" PRIu64 "\n",
	       sa.tx_mads, sb.tx_mads, A.rcm.cm.stats.retransmits, B.rcm.cm.stats.retransmits,
	       A.rcm.cm.stats.drops[IRDMA_CM_R_DUPLICATE], B.rcm.cm.stats.drops[IRDMA_CM_R_DUPLICATE]);
	/* With this seed the wire drops the first REQ: the loss path ran. */
	T_CHECK(A.rcm.cm.stats.retransmits >= 1);
	irdma_rcm_destroy(&A.rcm, A.id, now_ns());
	irdma_rcm_destroy(&B.rcm, B.id, now_ns());
	{
		struct pair pr = { .a = A.e, .b = B.e };
		struct rte_pmd_irdma_wc wc;

		itest_settle(&pr, 100);
		while (rte_pmd_irdma_poll_cq(A.e.cq, &wc, 1) > 0 || rte_pmd_irdma_poll_cq(B.e.cq, &wc, 1) > 0)
			;
	}
	endpoint_close(&A.e);
	endpoint_close(&B.e);
}

int main(int argc, char **argv)
{
	itest_eal_init("gsi_cm", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
