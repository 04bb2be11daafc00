/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine and the wire: CQ arming and completion events (eventfd and callback,
 * solicited-only arming), the rte_service engine, xstats, and reliability over a faulty
 * wire (drop, duplicate, reorder, corrupt: every operation completes exactly once with the
 * right data), retry and RNR retry exhaustion with their statuses.
 */
#include <sys/eventfd.h>

#include <rte_service.h>

#include "soft_test.h"

#include "soft_loop_q.h"
#include "soft_priv.h" /* the engine lock, held by the kick test */

static bool has_cq_err(struct t_dev *d)
{
	unsigned int i;

	for (i = 0; i < d->events.n && i < 64; i++)
		if (d->events.ev[i].type == IRDMA_HW_EVENT_CQ_ERR)
			return true;
	return false;
}

static uint64_t efd_read(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

static void one_send(struct t_pair *p, uint32_t ls, uint32_t ld, uint8_t *src, uint8_t *dst,
		     uint64_t wr, bool solicited)
{
	struct irdma_sge s = { (uintptr_t)src, 32, ls }, r = { (uintptr_t)dst, 64, ld };
	struct irdma_cq_poll_info info;

	T_EQ(t_post_recv(&p->qb, wr, &r, 1), 0);
	T_EQ(t_send(&p->qa, wr, solicited ? IRDMA_OP_TYPE_SEND_SOL : IRDMA_OP_TYPE_SEND, &s, 1,
		    false), 0);
	T_EQ(t_poll(&p->ca, &info), 0);
	T_EQ(t_poll(&p->cb, &info), 0);
	T_EQ(info.wr_id, wr);
	T_EQ(info.solicited_event, solicited);
}

static void arm_events(uint8_t gen)
{
	uint8_t *src = t_zalloc(64), *dst = t_zalloc(64);
	int efd = eventfd(0, EFD_NONBLOCK);
	struct t_pair p;
	uint32_t ls, ld;

	T_CHECK(efd >= 0);
	T_EQ(t_pair_open(&p, gen, 1024, &t_default_caps, T_ACC_ALL), 0);
	ls = t_mr(&p.da, src, 64, 0);
	ld = t_mr(&p.db, dst, 64, IRDMA_HW_ACCESS_LOCAL_WRITE);
	T_EQ(hw->cq_set_event(p.db.dev, p.cb.id, efd, t_cq_event_cb, &p.cb), 0);

	/* not armed: no event */
	one_send(&p, ls, ld, src, dst, 1, false);
	T_EQ(efd_read(efd), 0);
	T_EQ(p.cb.events, 0);
	/* armed for any completion: one event, then disarmed */
	irdma_uk_cq_request_notification(&p.cb.uk, IRDMA_CQ_COMPL_EVENT);
	one_send(&p, ls, ld, src, dst, 2, false);
	T_EQ(efd_read(efd), 1);
	T_EQ(p.cb.events, 1);
	one_send(&p, ls, ld, src, dst, 3, false);
	T_EQ(efd_read(efd), 0);
	T_EQ(p.cb.events, 1);
	/* armed for solicited: an unsolicited completion does not fire, a solicited one does */
	irdma_uk_cq_request_notification(&p.cb.uk, IRDMA_CQ_COMPL_SOLICITED);
	one_send(&p, ls, ld, src, dst, 4, false);
	T_EQ(efd_read(efd), 0);
	one_send(&p, ls, ld, src, dst, 5, true);
	T_EQ(efd_read(efd), 1);
	T_EQ(p.cb.events, 2);
	t_pair_close(&p);
	close(efd);
	free(src);
	free(dst);
}

T_CASE(cq_arm_eventfd)
{
	arm_events(1);
	arm_events(2);
	arm_events(3);
}

/* engine=service: the device registers an rte_service; here it is run on the test lcore. */
T_CASE(service_engine)
{
	struct irdma_hw_dev_config cfg;
	struct irdma_cq_poll_info info;
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp qa, qb;
	uint8_t *src = t_zalloc(8192), *dst = t_zalloc(8192);
	struct irdma_sge s, r;
	unsigned int i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.name = "svc_a";
	cfg.gen = IRDMA_HW_GEN_2;
	cfg.engine = IRDMA_HW_ENGINE_SERVICE;
	cfg.socket_id = -1;
	cfg.port = "loop";
	cfg.has_ipv4 = true;
	cfg.ipv4[0] = 10;
	cfg.ipv4[3] = 41;
	T_EQ(t_dev_open_cfg(&da, &cfg), 0);
	cfg.name = "svc_b";
	cfg.ipv4[3] = 42;
	T_EQ(t_dev_open_cfg(&db, &cfg), 0);
	T_CHECK(da.info.service_id != UINT32_MAX);
	T_CHECK(db.info.service_id != da.info.service_id);
	T_EQ(rte_service_set_runstate_mapped_check(da.info.service_id, 0), 0);
	T_EQ(rte_service_set_runstate_mapped_check(db.info.service_id, 0), 0);
	T_EQ(rte_service_runstate_set(da.info.service_id, 1), 0);
	T_EQ(rte_service_runstate_set(db.info.service_id, 1), 0);
	T_EQ(t_cq_create(&da, &ca, 64), 0);
	T_EQ(t_cq_create(&db, &cb, 64), 0);
	T_EQ(t_qp_create(&da, &qa, IRDMA_HW_QP_RC, &ca, &ca, &t_default_caps), 0);
	T_EQ(t_qp_create(&db, &qb, IRDMA_HW_QP_RC, &cb, &cb, &t_default_caps), 0);
	T_EQ(t_qp_connect(&qa, &qb, 1024, T_ACC_ALL), 0);
	t_fill(src, 8192, 8);
	s = (struct irdma_sge){ (uintptr_t)src, 8192, t_mr(&da, src, 8192, 0) };
	r = (struct irdma_sge){ (uintptr_t)dst, 8192, t_mr(&db, dst, 8192, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&qb, 1, &r, 1), 0);
	T_EQ(t_send(&qa, 2, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	/* no progress() call at all: only the service iterations move the work */
	for (i = 0; i < 100000; i++) {
		rte_service_run_iter_on_app_lcore(da.info.service_id, 1);
		rte_service_run_iter_on_app_lcore(db.info.service_id, 1);
		if (!irdma_uk_cq_empty(&cb.uk))
			break;
	}
	T_EQ(irdma_uk_cq_poll_cmpl(&cb.uk, &info), 0);
	T_EQ(info.wr_id, 1);
	T_EQ(info.bytes_xfered, 8192);
	T_MEMEQ(dst, src, 8192);
	for (i = 0; i < 1000 && irdma_uk_cq_empty(&ca.uk); i++) {
		rte_service_run_iter_on_app_lcore(da.info.service_id, 1);
		rte_service_run_iter_on_app_lcore(db.info.service_id, 1);
	}
	T_EQ(irdma_uk_cq_poll_cmpl(&ca.uk, &info), 0);
	T_EQ(info.wr_id, 2);
	t_qp_destroy(&qa);
	t_qp_destroy(&qb);
	t_cq_destroy(&ca);
	t_cq_destroy(&cb);
	t_dev_close(&da);
	t_dev_close(&db);
	free(src);
	free(dst);
}

/*
 * sq_kick (engine=inline's post taking its own doorbell): with the engine free, the WQEs
 * written without a doorbell leave at once (the frame is on the peer's loop queue before
 * any step), no doorbell bit is set; with the engine held by another caller, the kick
 * refuses and sends nothing, and the doorbell then rung is taken by the next step.
 */
T_CASE(sq_kick_takes_the_doorbell_or_refuses)
{
	struct t_qp_caps caps = t_default_caps;
	static uint64_t src[2] = { 0x1111111111111111ull, 0x2222222222222222ull };
	static uint64_t dst[2];
	struct irdma_cq_poll_info info;
	struct irdma_post_sq_info si;
	struct irdma_sge s;
	struct soft_dev *a;
	struct t_pair p;
	uint32_t rk;
	int k;

	caps.max_inline = 64;
	T_EQ(t_pair_open(&p, 2, 1024, &caps, T_ACC_ALL), 0);
	a = soft_dev_from_hw(p.da.dev);
	rk = t_mr(&p.db, dst, sizeof(dst), T_ACC_ALL);
	T_EQ(hw->xstats_reset(p.da.dev, -1), 0);
	for (k = 0; k < 2; k++) {
		s = (struct irdma_sge){ (uintptr_t)&src[k], 8, 0 };
		t_sq_info(&si, 10 + k, IRDMA_OP_TYPE_RDMA_WRITE);
		si.op.rdma_write.lo_sg_list = &s;
		si.op.rdma_write.num_lo_sges = 1;
		si.op.rdma_write.rem_addr.addr = (uintptr_t)&dst[k];
		si.op.rdma_write.rem_addr.lkey = rk;
		T_EQ(irdma_uk_inline_rdma_write(&p.qa.uk, &si, false), 0); /* no doorbell */
		if (k == 0) {
			T_EQ(hw->sq_kick(p.da.dev, p.qa.id, 64), 1);
			T_EQ(t_xstat(p.da.dev, -1, "sq_kicks"), 1);
			T_EQ(t_xstat(p.da.dev, -1, "tx_packets"), 1); /* sent inside the kick */
			T_CHECK(!soft_db_pending(a));
			T_CHECK(!soft_loop_q_empty(soft_dev_from_hw(p.db.dev)->loop_rx));
		} else {
			rte_spinlock_lock(&a->engine_lock); /* another lcore is in the engine */
			T_EQ(hw->sq_kick(p.da.dev, p.qa.id, 64), 0);
			rte_spinlock_unlock(&a->engine_lock);
			T_EQ(t_xstat(p.da.dev, -1, "sq_kicks"), 1);
			T_EQ(t_xstat(p.da.dev, -1, "tx_packets"), 1); /* nothing sent */
			irdma_uk_qp_post_wr(&p.qa.uk); /* what the PMD does then */
			T_CHECK(soft_db_pending(a));
		}
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(info.wr_id, 10 + k);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		T_EQ(dst[k], src[k]);
	}
	T_EQ(t_xstat(p.da.dev, -1, "tx_packets"), 2);
	t_pair_close(&p);
}

/* Counters follow the traffic: 3000 bytes at MTU 1024 = 3 request packets + 1 ACK. */
T_CASE(xstats)
{
	uint8_t *src = t_zalloc(4096), *dst = t_zalloc(4096);
	struct irdma_cq_poll_info info;
	struct irdma_sge s, r;
	struct t_pair p;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	T_EQ(hw->xstats_reset(p.da.dev, -1), 0);
	T_EQ(hw->xstats_reset(p.db.dev, -1), 0);
	s = (struct irdma_sge){ (uintptr_t)src, 3000, t_mr(&p.da, src, 4096, 0) };
	r = (struct irdma_sge){ (uintptr_t)dst, 4096, t_mr(&p.db, dst, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	T_EQ(t_post_recv(&p.qb, 1, &r, 1), 0);
	T_EQ(t_send(&p.qa, 2, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(t_poll(&p.cb, &info), 0);
	T_EQ(t_xstat(p.da.dev, -1, "tx_packets"), 3);
	T_EQ(t_xstat(p.db.dev, -1, "rx_packets"), 3);
	T_EQ(t_xstat(p.db.dev, -1, "tx_packets"), 1);
	T_EQ(t_xstat(p.da.dev, -1, "rx_packets"), 1);
	T_EQ(t_xstat(p.da.dev, -1, "rx_icrc_errors"), 0);
	T_EQ(t_xstat(p.da.dev, p.qa.id, "rx_acks"), 1);
	T_EQ(t_xstat(p.db.dev, p.qb.id, "tx_acks"), 1);
	T_EQ(t_xstat(p.db.dev, p.qb.id, "rx_bytes"), 3000);
	T_EQ(hw->xstats_names(p.da.dev, 99999, NULL, 0), -EINVAL);
	t_pair_close(&p);
	free(src);
	free(dst);
}

/* Once a WRITE completed and the wire drained, a step is idle: it returns before the lock
 * (polls, counted under it, stays; progress_calls counts every call). Fails when the busy
 * word keeps a field set for good (poll_port on the loop: 100 more polls each). */
T_CASE(idle_steps_skip_the_lock)
{
	uint8_t *src = t_zalloc(4096), *dst = t_zalloc(4096);
	struct irdma_cq_poll_info info;
	uint64_t polls[2], calls;
	struct irdma_sge s;
	struct t_pair p;
	int i;

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	s = (struct irdma_sge){ (uintptr_t)src, 8, t_mr(&p.da, src, 4096, 0) };
	memcpy(src, "idle-chk", 8);
	T_EQ(t_write(&p.qa, 1, &s, 1, (uintptr_t)dst,
		     t_mr(&p.db, dst, 4096, IRDMA_HW_ACCESS_LOCAL_WRITE | IRDMA_HW_ACCESS_REMOTE_WRITE),
		     false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(memcmp(dst, "idle-chk", 8), 0);
	for (i = 0; i < 4; i++)
		t_progress(); /* nothing left in flight */
	polls[0] = t_xstat(p.da.dev, -1, "polls");
	polls[1] = t_xstat(p.db.dev, -1, "polls");
	calls = t_xstat(p.da.dev, -1, "progress_calls");
	for (i = 0; i < 100; i++)
		t_progress();
	T_EQ(t_xstat(p.da.dev, -1, "polls"), polls[0]);
	T_EQ(t_xstat(p.db.dev, -1, "polls"), polls[1]);
	T_EQ(t_xstat(p.da.dev, -1, "progress_calls"), calls + 100);
	t_pair_close(&p);
	free(src);
	free(dst);
}

/* extra: more devargs of the soft device, appended (NULL: none) */
static int open_lossy(struct t_pair *p, uint8_t gen, uint32_t drop, uint32_t dup, uint32_t reorder,
		      uint32_t corrupt, const char *extra)
{
	struct irdma_hw_dev_config cfg;
	char args[2][256];
	int rc, i;

	memset(p, 0, sizeof(*p));
	memset(&cfg, 0, sizeof(cfg));
	/* the soft device's own devargs (rates as fractions: ppm / 10^6, exact) */
	for (i = 0; i < 2; i++)
		snprintf(args[i], sizeof(args[i]),
			 "drop=%u.%06u,dup=%u.%06u,reorder=%u.%06u,corrupt=%u.%06u,seed=%u%s%s",
			 drop / 1000000, drop % 1000000, dup / 1000000, dup % 1000000,
			 reorder / 1000000, reorder % 1000000, corrupt / 1000000, corrupt % 1000000,
			 i == 0 ? 12345u : 67890u, extra ? "," : "", extra ? extra : "");
	cfg.gen = (enum irdma_hw_gen)gen;
	cfg.socket_id = -1;
	cfg.port = "loop";
	cfg.has_ipv4 = true;
	cfg.ipv4[0] = 10;
	cfg.mtu = 1024;
	cfg.name = "lossy_a";
	cfg.ipv4[3] = 51;
	cfg.backend_args = args[0];
	rc = t_dev_open_cfg(&p->da, &cfg);
	cfg.name = "lossy_b";
	cfg.ipv4[3] = 52;
	cfg.backend_args = args[1];
	if (!rc)
		rc = t_dev_open_cfg(&p->db, &cfg);
	t_devs[0] = &p->da;
	t_devs[1] = &p->db;
	return rc ? rc : t_pair_link(p, 1024, &t_default_caps, T_ACC_ALL);
}

/* 2000 mixed SEND / WRITE / READ over 5% drop, 1% duplicate, 1% reorder, 0.5% corrupt:
 * each completes exactly once, in order, with the right bytes. */
T_CASE(lossy_wire_exactly_once)
{
	size_t len = 64 * 1024;
	uint8_t *src = t_zalloc(len), *dst = t_zalloc(len), *rem = t_zalloc(len);
	struct irdma_cq_poll_info info;
	uint32_t ls, ld, rk, i;
	struct t_pair p;

	t_timeout = 6; /* 262 us */
	T_EQ(open_lossy(&p, 2, 50000, 10000, 10000, 5000, NULL), 0);
	t_timeout = 14;
	ls = t_mr(&p.da, src, len, IRDMA_HW_ACCESS_LOCAL_WRITE);
	ld = t_mr(&p.db, dst, len, IRDMA_HW_ACCESS_LOCAL_WRITE);
	rk = t_mr(&p.db, rem, len, T_ACC_ALL);
	for (i = 0; i < 2000 && !t_case_failures; i++) {
		uint32_t n = 1 + (i * 2654435761u) % 6000, k = i % 3;
		struct irdma_sge s = { (uintptr_t)src, n, ls };

		t_fill(src, n, i);
		if (k == 0) {
			struct irdma_sge r = { (uintptr_t)dst, (uint32_t)len, ld };

			T_EQ(t_post_recv(&p.qb, i, &r, 1), 0);
			T_EQ(t_send(&p.qa, i, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
			T_EQ(t_poll(&p.cb, &info), 0);
			T_EQ(info.wr_id, i);
			T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
			T_EQ(info.bytes_xfered, n);
			T_MEMEQ(dst, src, n);
		} else if (k == 1) {
			T_EQ(t_write(&p.qa, i, &s, 1, (uintptr_t)rem, rk, false), 0);
		} else {
			uint8_t *expect = t_zalloc(n);

			memcpy(expect, rem, n);
			T_EQ(t_read(&p.qa, i, &s, 1, (uintptr_t)rem, rk), 0);
			T_EQ(t_poll(&p.ca, &info), 0);
			T_EQ(info.wr_id, i);
			T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
			T_MEMEQ(src, expect, n);
			free(expect);
			continue;
		}
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(info.wr_id, i);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		if (k == 1)
			T_MEMEQ(rem, src, n);
	}
	T_CHECK(t_cq_quiet(&p.ca));
	T_CHECK(t_cq_quiet(&p.cb));
	T_CHECK(t_xstat(p.da.dev, p.qa.id, "retransmits") > 0);
	T_CHECK(t_xstat(p.da.dev, -1, "tx_fault_drops") > 0);
	T_CHECK(t_xstat(p.da.dev, -1, "rx_icrc_errors") + t_xstat(p.db.dev, -1, "rx_icrc_errors") > 0);
	printf("# retransmits %" PRIu64 ", drops %" PRIu64 "+%" PRIu64 ", icrc %" PRIu64 "+%" PRIu64 "\n",
	       t_xstat(p.da.dev, p.qa.id, "retransmits"), t_xstat(p.da.dev, -1, "tx_fault_drops"),
	       t_xstat(p.db.dev, -1, "tx_fault_drops"), t_xstat(p.da.dev, -1, "rx_icrc_errors"),
	       t_xstat(p.db.dev, -1, "rx_icrc_errors"));
	t_pair_close(&p);
	free(src);
	free(dst);
	free(rem);
}

/* t_poll() with room for ACK timeouts: a delayed frame seen out of sequence may cost one */
static int poll_long(struct t_cq *cq, struct irdma_cq_poll_info *info)
{
	unsigned int i;
	int rc = -ETIMEDOUT;

	for (i = 0; i < 100 && rc == -ETIMEDOUT; i++)
		rc = t_poll(cq, info);
	return rc;
}

/* port=loop, 20% of the frames delayed 2 ms on transmit and 20% on receive at both ends:
 * 600 mixed SEND / WRITE / READ complete exactly once with the right bytes, and once nothing
 * is held every frame sent was received exactly once. Then frames are left held at close. */
T_CASE(delayed_frames_arrive_once)
{
	size_t len = 16 * 1024;
	uint8_t *src = t_zalloc(len), *dst = t_zalloc(len), *rem = t_zalloc(len);
	struct irdma_cq_poll_info info;
	uint32_t ls, ld, rk, i;
	struct t_pair p;

	t_timeout = 10; /* 4 ms: the delays rarely cost a retransmission */
	T_EQ(open_lossy(&p, 3, 0, 0, 0, 0,
			"delay=0.2,delay_us=2000,rx_delay=20%,rx_delay_us=2000"), 0);
	ls = t_mr(&p.da, src, len, IRDMA_HW_ACCESS_LOCAL_WRITE);
	ld = t_mr(&p.db, dst, len, IRDMA_HW_ACCESS_LOCAL_WRITE);
	rk = t_mr(&p.db, rem, len, T_ACC_ALL);
	for (i = 0; i < 600 && !t_case_failures; i++) {
		uint32_t n = 1 + (i * 2654435761u) % 5000, k = i % 3;
		struct irdma_sge s = { (uintptr_t)src, n, ls };

		t_fill(src, n, i);
		if (k == 0) {
			struct irdma_sge r = { (uintptr_t)dst, (uint32_t)len, ld };

			T_EQ(t_post_recv(&p.qb, i, &r, 1), 0);
			T_EQ(t_send(&p.qa, i, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
			T_EQ(poll_long(&p.cb, &info), 0);
			T_EQ(info.wr_id, i);
			T_EQ(info.bytes_xfered, n);
			T_MEMEQ(dst, src, n);
		} else if (k == 1) {
			T_EQ(t_write(&p.qa, i, &s, 1, (uintptr_t)rem, rk, false), 0);
		} else {
			T_EQ(t_read(&p.qa, i, &s, 1, (uintptr_t)rem, rk), 0);
		}
		T_EQ(poll_long(&p.ca, &info), 0);
		T_EQ(info.wr_id, i);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		if (k != 0) /* a WRITE put it there, a READ brought it back */
			T_MEMEQ(rem, src, n);
	}
	/* drain what is still held (bounded by steps, not by time) */
	for (i = 0; i < 50000000u && (t_xstat(p.db.dev, -1, "rx_packets") !=
				      t_xstat(p.da.dev, -1, "tx_packets") ||
				      t_xstat(p.da.dev, -1, "rx_packets") !=
				      t_xstat(p.db.dev, -1, "tx_packets")); i++)
		t_progress();
	T_CHECK(t_cq_quiet(&p.ca));
	T_CHECK(t_cq_quiet(&p.cb));
	T_CHECK(t_xstat(p.da.dev, -1, "tx_fault_delayed") > 0 &&
		t_xstat(p.db.dev, -1, "tx_fault_delayed") > 0);
	T_CHECK(t_xstat(p.da.dev, -1, "rx_fault_delayed") > 0 &&
		t_xstat(p.db.dev, -1, "rx_fault_delayed") > 0);
	T_EQ(t_xstat(p.db.dev, -1, "rx_packets"), t_xstat(p.da.dev, -1, "tx_packets"));
	T_EQ(t_xstat(p.da.dev, -1, "rx_packets"), t_xstat(p.db.dev, -1, "tx_packets"));
	printf("# frames %" PRIu64 "/%" PRIu64 ", delayed tx %" PRIu64 "/%" PRIu64 " rx %" PRIu64
	       "/%" PRIu64 ", retransmits %" PRIu64 "\n",
	       t_xstat(p.da.dev, -1, "tx_packets"), t_xstat(p.db.dev, -1, "tx_packets"),
	       t_xstat(p.da.dev, -1, "tx_fault_delayed"), t_xstat(p.db.dev, -1, "tx_fault_delayed"),
	       t_xstat(p.da.dev, -1, "rx_fault_delayed"), t_xstat(p.db.dev, -1, "rx_fault_delayed"),
	       t_xstat(p.da.dev, p.qa.id, "retransmits"));
	/* frames posted and not waited for: whatever is held at close is freed there */
	for (i = 0; i < 16; i++) {
		struct irdma_sge s = { (uintptr_t)src, 4000, ls };

		T_EQ(t_write(&p.qa, 1000 + i, &s, 1, (uintptr_t)rem, rk, false), 0);
	}
	t_progress();
	t_pair_close(&p);
	free(src);
	free(dst);
	free(rem);
}

/* Every frame corrupted: the ICRC check drops them all, the requester retries retry_cnt
 * times and completes with RETRY_EXC. */
T_CASE(retry_exhausted)
{
	uint8_t *src = t_zalloc(64);
	struct irdma_cq_poll_info info;
	struct irdma_sge s;
	struct t_pair p;

	t_timeout = 1;
	t_retry_cnt = 2;
	T_EQ(open_lossy(&p, 3, 0, 0, 0, 1000000, NULL), 0);
	t_timeout = 14;
	t_retry_cnt = 7;
	s = (struct irdma_sge){ (uintptr_t)src, 64, t_mr(&p.da, src, 64, 0) };
	T_EQ(t_write(&p.qa, 1, &s, 1, 0, 0, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.wr_id, 1);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
	T_EQ(info.minor_err, FLUSH_RETRY_EXC_ERR);
	T_EQ(t_xstat(p.db.dev, -1, "rx_icrc_errors"), 3);
	T_EQ(t_xstat(p.da.dev, p.qa.id, "retransmits"), 2);
	t_pair_close(&p);
	free(src);
}

/* No receive ever posted, rnr_retry 1: RNR_RETRY_EXC after one retry. */
T_CASE(rnr_retry_exhausted)
{
	uint8_t *src = t_zalloc(64);
	struct irdma_cq_poll_info info;
	struct irdma_sge s;
	struct t_pair p;

	t_rnr_retry = 1;
	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	t_rnr_retry = 7;
	s = (struct irdma_sge){ (uintptr_t)src, 64, t_mr(&p.da, src, 64, 0) };
	T_EQ(t_send(&p.qa, 1, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
	T_EQ(t_poll(&p.ca, &info), 0);
	T_EQ(info.wr_id, 1);
	T_EQ(info.comp_status, IRDMA_COMPL_STATUS_FLUSHED);
	T_EQ(info.minor_err, FLUSH_RNR_RETRY_EXC_ERR);
	T_EQ(t_xstat(p.da.dev, p.qa.id, "rx_rnr_naks"), 2);
	t_pair_close(&p);
	free(src);
}

/* More WRs posted at once than the transport takes (1024): the rest wait in the SQ and go
 * out as earlier ones complete, in order. */
T_CASE(many_in_flight)
{
	struct t_qp_caps caps = t_default_caps;
	uint8_t *src = t_zalloc(2048 * 8), *dst = t_zalloc(2048 * 8);
	struct irdma_cq_poll_info info;
	struct t_dev da, db;
	struct t_cq ca, cb;
	struct t_qp qa, qb;
	uint32_t ls, rk, i;

	caps.max_send_wr = 2000;
	T_EQ(t_devs_open(&da, &db, 2, 61, 1024), 0);
	T_EQ(t_cq_create(&da, &ca, 2048), 0);
	T_EQ(t_cq_create(&db, &cb, 16), 0);
	T_EQ(t_qp_create(&da, &qa, IRDMA_HW_QP_RC, &ca, &ca, &caps), 0);
	T_EQ(t_qp_create(&db, &qb, IRDMA_HW_QP_RC, &cb, &cb, &t_default_caps), 0);
	T_EQ(t_qp_connect(&qa, &qb, 1024, T_ACC_ALL), 0);
	t_fill(src, 2048 * 8, 99);
	ls = t_mr(&da, src, 2048 * 8, 0);
	rk = t_mr(&db, dst, 2048 * 8, T_ACC_ALL);
	for (i = 0; i < 2000; i++) {
		struct irdma_sge s = { (uintptr_t)src + 8 * i, 8, ls };

		T_EQ(t_write(&qa, i, &s, 1, (uintptr_t)dst + 8 * i, rk, false), 0);
	}
	for (i = 0; i < 2000; i++) {
		T_EQ(t_poll(&ca, &info), 0);
		T_EQ(info.wr_id, i);
		T_EQ(info.comp_status, IRDMA_COMPL_STATUS_SUCCESS);
		if (t_case_failures)
			break;
	}
	T_MEMEQ(dst, src, 2000 * 8);
	t_qp_destroy(&qa);
	t_qp_destroy(&qb);
	t_devs_close(&da, &ca, &db, &cb);
	free(src);
	free(dst);
}

/* CQ resize: new CQEs go to the new ring (head 0, polarity 1) once software drained the
 * old one; the overflow check follows the new ring's consumer index. */
T_CASE(cq_resize)
{
	uint8_t *src = t_zalloc(64), *dst = t_zalloc(64);
	struct irdma_cq_poll_info info;
	struct irdma_sge s, r;
	struct t_pair p;
	uint32_t n2 = 256, i;
	uint8_t *ring2 = t_zalloc((size_t)n2 * 32);

	T_EQ(t_pair_open(&p, 2, 1024, &t_default_caps, T_ACC_ALL), 0);
	s = (struct irdma_sge){ (uintptr_t)src, 16, t_mr(&p.da, src, 64, 0) };
	r = (struct irdma_sge){ (uintptr_t)dst, 64, t_mr(&p.db, dst, 64, IRDMA_HW_ACCESS_LOCAL_WRITE) };
	for (i = 0; i < 5; i++) {
		T_EQ(t_post_recv(&p.qb, i, &r, 1), 0);
		T_EQ(t_send(&p.qa, i, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, i);
	}
	T_EQ(hw->cq_resize(p.db.dev, p.cb.id, ring2, (uintptr_t)ring2, n2), 0);
	irdma_uk_cq_resize(&p.cb.uk, ring2, (int)n2);
	for (i = 5; i < 5 + 3 * n2 / 4; i++) {
		t_fill(src, 16, i);
		T_EQ(t_post_recv(&p.qb, i, &r, 1), 0);
		T_EQ(t_send(&p.qa, i, IRDMA_OP_TYPE_SEND, &s, 1, false), 0);
		T_EQ(t_poll(&p.ca, &info), 0);
		T_EQ(t_poll(&p.cb, &info), 0);
		T_EQ(info.wr_id, i);
		T_MEMEQ(dst, src, 16);
		if (t_case_failures)
			break;
	}
	T_CHECK(!has_cq_err(&p.db));
	T_EQ(t_xstat(p.db.dev, -1, "cq_overflows"), 0);
	t_pair_close(&p);
	free(ring2);
	free(src);
	free(dst);
}

int main(int argc, char **argv)
{
	int rc;

	t_eal_init("engine");
	rc = t_main(argc, argv);
	t_eal_fini();
	return rc;
}
