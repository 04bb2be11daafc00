/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ud_send_recv: unreliable datagrams between two soft devices on port=loop.
 *
 * The sender (main lcore) addresses each SEND with an address handle, the peer's QP number and
 * its Q_Key. The receiver (a worker lcore) busy-polls its CQ. Every UD receive buffer starts
 * with a 40-byte GRH area the device fills: the IPv6 header, or for IPv4 the IPv4 header in
 * its last 20 bytes, which is how a UD receiver learns where a datagram came from. With --srq
 * the receive buffers come from a shared receive queue instead of the QP's own.
 *
 *   ud_send_recv <EAL args> -- [--dev0 DEVARGS] [--dev1 DEVARGS] [--srq]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pmd_irdma.h>

#define NB_MSG 8
#define GRH_LEN 40                      /* in front of every UD receive */
#define QKEY 0x11111111u                /* the receiver accepts only datagrams with its Q_Key */
#define TIMEOUT_S 5

struct endpoint {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_srq *srq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	struct rte_pmd_irdma_dev_info info;
	union rte_pmd_irdma_gid gid;
	uint8_t gid_index;
};

static struct endpoint ep[2];           /* 0: sender, 1: receiver */
static struct rte_pmd_irdma_ah *ah;     /* the sender's route to the receiver */
static uint32_t slot;                   /* bytes per message slot: GRH area + path MTU */
static char src_ip[INET6_ADDRSTRLEN];   /* from the GRH area of the first datagram */
static int failed;                      /* first failure wins the error line */
static char errmsg[256];

static int fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_exchange_n(&failed, 1, __ATOMIC_ACQ_REL) == 0) {
		va_start(ap, fmt);
		vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int has_failed(void)
{
	return __atomic_load_n(&failed, __ATOMIC_ACQUIRE);
}

/* A UD message fits one packet: at most the path MTU. Message m: m + 1 eighths of it. */
static uint32_t msg_len(unsigned int m)
{
	return (slot - GRH_LEN) / NB_MSG * (m + 1);
}

static uint8_t msg_byte(unsigned int m, uint32_t i)
{
	return i == 0 ? (uint8_t)m : (uint8_t)(i * 13 + m); /* byte 0 names the message */
}

static int endpoint_open(struct endpoint *e, const char *devargs, int with_srq)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 2 * NB_MSG, .comp_fd = -1 };
	struct rte_pmd_irdma_srq_init_attr sa = { .attr = { .max_wr = NB_MSG, .max_sge = 1 } };
	struct rte_pmd_irdma_qp_init_attr qa = {
		.qp_type = RTE_PMD_IRDMA_QPT_UD,
		.cap = { .max_send_wr = NB_MSG, .max_recv_wr = NB_MSG, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct rte_pmd_irdma_qp_attr a = { .qp_state = RTE_PMD_IRDMA_QPS_INIT, .port_num = 1,
					   .qkey = QKEY };
	size_t len;
	int rc;

	e->dev = rte_pmd_irdma_dev_create(devargs);
	if (e->dev == NULL)
		return fail("device '%s': %s", devargs, rte_strerror(rte_errno));
	rte_pmd_irdma_dev_info(e->dev, &e->info);
	/* GID 0 is the MAC's link-local GID; with ip= GID 1 is the IPv4-mapped address. */
	e->gid_index = rte_pmd_irdma_query_gid(e->dev, 1, &e->gid) == 0 ? 1 : 0;
	if (e->gid_index == 0)
		rte_pmd_irdma_query_gid(e->dev, 0, &e->gid);
	len = (size_t)NB_MSG * (GRH_LEN + e->info.active_mtu);
	e->buf = rte_zmalloc_socket("ud_send_recv", len, 64, e->info.socket_id);
	e->pd = rte_pmd_irdma_pd_alloc(e->dev);
	if (e->buf == NULL || e->pd == NULL)
		return fail("%s: buffer or PD: %s", e->info.name, rte_strerror(rte_errno));
	e->mr = rte_pmd_irdma_reg_mr(e->pd, e->buf, len, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	if (e->mr == NULL)
		return fail("%s: MR: %s", e->info.name, rte_strerror(rte_errno));
	e->cq = rte_pmd_irdma_cq_create(e->dev, &ca);
	if (e->cq == NULL)
		return fail("%s: CQ: %s", e->info.name, rte_strerror(rte_errno));
	if (with_srq) {
		if (!(e->info.cap_flags & RTE_PMD_IRDMA_CAP_SRQ))
			return fail("--srq: %s (gen=%u) has no SRQs; use gen=3", e->info.name,
				    e->info.gen);
		e->srq = rte_pmd_irdma_srq_create(e->pd, &sa);
		if (e->srq == NULL)
			return fail("%s: SRQ: %s", e->info.name, rte_strerror(rte_errno));
	}
	qa.send_cq = e->cq;
	qa.recv_cq = e->cq;
	qa.srq = e->srq;
	e->qp = rte_pmd_irdma_qp_create(e->pd, &qa);
	if (e->qp == NULL)
		return fail("%s: QP: %s", e->info.name, rte_strerror(rte_errno));
	/* UD needs no peer at RTR: every SEND names its destination. */
	rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_PKEY_INDEX |
				     RTE_PMD_IRDMA_QP_PORT | RTE_PMD_IRDMA_QP_QKEY);
	a.qp_state = RTE_PMD_IRDMA_QPS_RTR;
	if (rc == 0)
		rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE);
	a.qp_state = RTE_PMD_IRDMA_QPS_RTS;
	a.sq_psn = 0;
	if (rc == 0)
		rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN);
	return rc < 0 ? fail("%s: QP to RTS: %s", e->info.name, strerror(-rc)) : 0;
}

/* A datagram for which no receive is posted is dropped: post them all before any send. */
static int post_receives(struct endpoint *e)
{
	struct rte_pmd_irdma_recv_wr wr[NB_MSG];
	struct rte_pmd_irdma_sge sge[NB_MSG];
	unsigned int i;
	int err;

	for (i = 0; i < NB_MSG; i++) {
		sge[i] = (struct rte_pmd_irdma_sge){ (uintptr_t)e->buf + (uint64_t)i * slot, slot,
						     e->mr->lkey };
		wr[i] = (struct rte_pmd_irdma_recv_wr){ i, &sge[i], 1 };
	}
	if ((e->srq ? rte_pmd_irdma_srq_post_recv(e->srq, wr, NB_MSG, &err) :
		      rte_pmd_irdma_post_recv(e->qp, wr, NB_MSG, &err)) != NB_MSG)
		return fail("%s: post_recv: %s", e->info.name, strerror(-err));
	return 0;
}

/* Busy-poll @p n completions; with engine=inline each poll also runs the device's engine. */
static int poll_n(struct endpoint *e, struct rte_pmd_irdma_wc *wc, unsigned int n)
{
	uint64_t deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	unsigned int got = 0, i;
	int k;

	while (got < n) {
		k = rte_pmd_irdma_poll_cq(e->cq, wc + got, (uint16_t)(n - got));
		if (k < 0)
			return fail("%s: poll_cq: %s", e->info.name, strerror(-k));
		for (i = got; i < got + (unsigned int)k; i++)
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
				return fail("%s: completion %" PRIu64 ": %s", e->info.name,
					    wc[i].wr_id, rte_pmd_irdma_wc_status_str(wc[i].status));
		got += (unsigned int)k;
		if (k == 0) {
			if (has_failed())
				return -1;
			if (rte_get_timer_cycles() > deadline)
				return fail("%s: %u of %u completions within %d s", e->info.name,
					    got, n, TIMEOUT_S);
			rte_pmd_irdma_idle(e->dev);
		}
	}
	return 0;
}

static int check_datagram(const struct rte_pmd_irdma_wc *wc)
{
	const uint8_t *p = ep[1].buf + wc->wr_id * slot, *ip4 = p + GRH_LEN - 20;
	unsigned int m = p[GRH_LEN];
	uint32_t i;

	if (wc->opcode != RTE_PMD_IRDMA_WC_RECV || !(wc->wc_flags & RTE_PMD_IRDMA_WC_GRH) ||
	    wc->src_qp != ep[0].qp->qp_num || m >= NB_MSG || wc->byte_len != GRH_LEN + msg_len(m))
		return fail("receiver: opcode %#x, flags %#x, from QP %u, %u bytes: not one of the "
			    "datagrams sent", wc->opcode, wc->wc_flags, wc->src_qp, wc->byte_len);
	for (i = 0; i < msg_len(m); i++)
		if (p[GRH_LEN + i] != msg_byte(m, i))
			return fail("receiver: datagram %u byte %u is %#x, expected %#x", m, i,
				    p[GRH_LEN + i], msg_byte(m, i));
	/* An IPv6 header fills the area (source address at 8); an IPv4 one its last 20 bytes
	 * (source address at 12). */
	if (!src_ip[0] && (p[0] >> 4) == 6)
		inet_ntop(AF_INET6, p + 8, src_ip, sizeof(src_ip));
	else if (!src_ip[0] && (ip4[0] >> 4) == 4)
		inet_ntop(AF_INET, ip4 + 12, src_ip, sizeof(src_ip));
	return 0;
}

static int receiver_lcore(void *arg __rte_unused)
{
	struct rte_pmd_irdma_wc wc[NB_MSG];
	unsigned int i;

	if (poll_n(&ep[1], wc, NB_MSG) < 0)
		return -1;
	for (i = 0; i < NB_MSG; i++)
		if (check_datagram(&wc[i]) < 0)
			return -1;
	return 0;
}

static void sender(void)
{
	struct endpoint *a = &ep[0];
	struct rte_pmd_irdma_send_wr wr[NB_MSG];
	struct rte_pmd_irdma_sge sge[NB_MSG];
	struct rte_pmd_irdma_wc wc[NB_MSG];
	unsigned int m;
	uint32_t i;
	int err;

	for (m = 0; m < NB_MSG; m++) {
		uint8_t *p = a->buf + (uint64_t)m * slot;

		for (i = 0; i < msg_len(m); i++)
			p[i] = msg_byte(m, i);
		sge[m] = (struct rte_pmd_irdma_sge){ (uintptr_t)p, msg_len(m), a->mr->lkey };
		wr[m] = (struct rte_pmd_irdma_send_wr){
			.wr_id = m, .sg_list = &sge[m], .num_sge = 1,
			.opcode = RTE_PMD_IRDMA_WR_SEND, .send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
			.wr.ud = { .ah = ah, .remote_qpn = ep[1].qp->qp_num, .remote_qkey = QKEY },
		};
	}
	/* One burst, one doorbell. A UD send completes once the frame is on the wire. */
	if (rte_pmd_irdma_post_send(a->qp, wr, NB_MSG, &err) != NB_MSG)
		fail("sender: post_send: %s", strerror(-err));
	else
		poll_n(a, wc, NB_MSG);
}

static void endpoint_close(struct endpoint *e)
{
	/* Reverse order of creation; the device refuses to close while anything is left. */
	if ((e->qp && rte_pmd_irdma_qp_destroy(e->qp) < 0) ||
	    (e->srq && rte_pmd_irdma_srq_destroy(e->srq) < 0) ||
	    (e->cq && rte_pmd_irdma_cq_destroy(e->cq) < 0) ||
	    (e->mr && rte_pmd_irdma_dereg_mr(e->mr) < 0) ||
	    (e == &ep[0] && ah && rte_pmd_irdma_ah_destroy(ah) < 0) ||
	    (e->pd && rte_pmd_irdma_pd_free(e->pd) < 0) ||
	    (e->dev && rte_pmd_irdma_dev_close(e->dev) < 0))
		fail("%s: teardown failed", e->info.name);
	rte_free(e->buf);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev0", required_argument, NULL, '0' }, { "dev1", required_argument, NULL, '1' },
		{ "srq", no_argument, NULL, 's' }, { NULL, 0, NULL, 0 } };
	/* gen=3 so that --srq works with the defaults (SRQs are a GEN_3 feature). */
	const char *dev[2] = { "soft,name=ud_a,port=loop,ip=198.18.0.1,gen=3",
			       "soft,name=ud_b,port=loop,ip=198.18.0.2,gen=3" };
	struct rte_pmd_irdma_ah_attr aa = { .is_global = 1, .port_num = 1 };
	unsigned int worker;
	int ret, c, srq = 0;

	/* EAL arguments come from the command line: run with --no-pci unless a real NIC is meant to be
	 * probed (tests/examples does). */
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "ud_send_recv: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	optind = 1;
	opterr = 0; /* our own one-line message instead of getopt's */
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == '0' || c == '1')
			dev[c - '0'] = optarg;
		else if (c == 's')
			srq = 1;
		else
			fail("bad option '%s'; usage: ud_send_recv <EAL args> -- [--dev0 DEVARGS] "
			     "[--dev1 DEVARGS] [--srq]", argv[optind - 1]);
	}
	if (optind < argc)
		fail("unexpected argument '%s'", argv[optind]);
	worker = rte_get_next_lcore(-1, 1, 0);
	if (has_failed() || (worker >= RTE_MAX_LCORE &&
			     fail("needs two lcores, the main one and a worker (EAL -l 0-1)")))
		goto out;
	if (endpoint_open(&ep[0], dev[0], 0) < 0 || endpoint_open(&ep[1], dev[1], srq) < 0)
		goto out;
	/* The route to the receiver: its GID, from our GID of the same kind. */
	aa.grh.dgid = ep[1].gid;
	aa.grh.sgid_index = ep[0].gid_index;
	aa.grh.hop_limit = 64;
	ah = rte_pmd_irdma_ah_create(ep[0].pd, &aa);
	if (ah == NULL) {
		fail("AH: %s", rte_strerror(rte_errno));
		goto out;
	}
	slot = GRH_LEN + RTE_MIN(ep[0].info.active_mtu, ep[1].info.active_mtu);
	if (post_receives(&ep[1]) < 0)
		goto out;
	ret = rte_eal_remote_launch(receiver_lcore, NULL, worker);
	if (ret < 0) {
		fail("cannot launch the receiver on lcore %u: %s", worker, strerror(-ret));
		goto out;
	}
	sender();
	rte_eal_wait_lcore(worker);
	if (!has_failed())
		printf("ud_send_recv: %d datagrams of %u..%u bytes from %s QP %u (GRH source %s) "
		       "to %s QP %u%s: data verified\n", NB_MSG, msg_len(0), msg_len(NB_MSG - 1),
		       ep[0].info.name, ep[0].qp->qp_num, src_ip[0] ? src_ip : "none",
		       ep[1].info.name, ep[1].qp->qp_num, srq ? " through an SRQ" : "");
out:
	endpoint_close(&ep[1]);
	endpoint_close(&ep[0]);
	rte_eal_cleanup();
	if (has_failed()) {
		fprintf(stderr, "ud_send_recv: %s\n", errmsg);
		return 1;
	}
	return 0;
}
