/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * service_engine: rdma_write_poll with the devices' engines on a DPDK service lcore.
 *
 * With engine=inline the lcore that polls a CQ also runs the device (receives frames, places
 * data, sends ACKs), so a receiver must keep polling until its peer is done. With
 * engine=service each device registers an rte_service; mapped to a service lcore it runs on
 * its own, and application lcores only post and read completions.
 *
 * Core budget: every lcore here spins, so each needs its own CPU. One service lcore runs
 * the services of both devices in turn (one spinning thread, not two). With two lcores
 * (-l 0-1) lcore 1 becomes the service lcore and the main lcore is both writer and receiver,
 * polling the two CQs from one loop; with a third lcore the receiver gets its own. EAL -s
 * picks the service lcore instead.
 *
 *   service_engine <EAL args> -- [--dev0 DEVARGS] [--dev1 DEVARGS] [--size BYTES]
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>
#include <rte_pmd_irdma.h>

#define IMM_VALUE 0x1d2c3b4au
#define TIMEOUT_S 5
#define MAX_SIZE (16u << 20)

struct endpoint {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	struct rte_pmd_irdma_dev_info info;
	union rte_pmd_irdma_gid gid;
	uint8_t gid_index;
	uint32_t psn;                   /* first PSN this side sends */
};

static struct endpoint ep[2];           /* 0: writer, 1: receiver */
static size_t size = 64 * 1024;
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

static int endpoint_open(struct endpoint *e, const char *devargs, uint32_t psn)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 16, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa = {
		.qp_type = RTE_PMD_IRDMA_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct rte_pmd_irdma_qp_attr a = {
		.qp_state = RTE_PMD_IRDMA_QPS_INIT, .pkey_index = 0, .port_num = 1,
		.qp_access_flags = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE,
	};
	int rc;

	e->dev = rte_pmd_irdma_dev_create(devargs);
	if (e->dev == NULL)
		return fail("device '%s': %s", devargs, rte_strerror(rte_errno));
	rte_pmd_irdma_dev_info(e->dev, &e->info);
	/* GID 0 is the MAC's link-local GID; with ip= GID 1 is the IPv4-mapped address. */
	e->gid_index = rte_pmd_irdma_query_gid(e->dev, 1, &e->gid) == 0 ? 1 : 0;
	if (e->gid_index == 0)
		rte_pmd_irdma_query_gid(e->dev, 0, &e->gid);
	e->psn = psn;
	/* rte_malloc memory: hugepage-backed when EAL has hugepages, as DMA-capable backends need. */
	e->buf = rte_zmalloc_socket("service_engine", size, 4096, e->info.socket_id);
	if (e->buf == NULL)
		return fail("%s: cannot allocate %zu bytes (raise EAL -m)", e->info.name, size);
	e->pd = rte_pmd_irdma_pd_alloc(e->dev);
	if (e->pd == NULL)
		return fail("%s: PD: %s", e->info.name, rte_strerror(rte_errno));
	/* Remote write requires local write as well. */
	e->mr = rte_pmd_irdma_reg_mr(e->pd, e->buf, size, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE |
				     RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	if (e->mr == NULL)
		return fail("%s: MR: %s", e->info.name, rte_strerror(rte_errno));
	e->cq = rte_pmd_irdma_cq_create(e->dev, &ca);
	if (e->cq == NULL)
		return fail("%s: CQ: %s", e->info.name, rte_strerror(rte_errno));
	qa.send_cq = e->cq;
	qa.recv_cq = e->cq;
	e->qp = rte_pmd_irdma_qp_create(e->pd, &qa);
	if (e->qp == NULL)
		return fail("%s: QP: %s", e->info.name, rte_strerror(rte_errno));
	rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_PKEY_INDEX |
				     RTE_PMD_IRDMA_QP_PORT | RTE_PMD_IRDMA_QP_ACCESS_FLAGS);
	return rc < 0 ? fail("%s: QP RESET->INIT: %s", e->info.name, strerror(-rc)) : 0;
}

/* RTR needs the peer's address (GID), QP number and first PSN; between processes these are
 * exchanged out of band (irdma-pingpong uses TCP). Here we just read them. */
static int endpoint_connect(struct endpoint *e, const struct endpoint *peer)
{
	uint32_t mtu = RTE_MIN(e->info.active_mtu, peer->info.active_mtu);
	struct rte_pmd_irdma_qp_attr a = {
		.qp_state = RTE_PMD_IRDMA_QPS_RTR,
		.path_mtu = (enum rte_pmd_irdma_mtu)(rte_log2_u32(mtu) - 7), /* 256 B is 1 */
		.dest_qp_num = peer->qp->qp_num, .rq_psn = peer->psn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 12, /* 0.64 ms before an RNR retry */
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = peer->gid, .sgid_index = e->gid_index, .hop_limit = 64 } },
	};
	int rc;

	rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_AV |
				     RTE_PMD_IRDMA_QP_PATH_MTU | RTE_PMD_IRDMA_QP_DEST_QPN |
				     RTE_PMD_IRDMA_QP_RQ_PSN | RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC |
				     RTE_PMD_IRDMA_QP_MIN_RNR_TIMER);
	if (rc < 0)
		return fail("%s: QP INIT->RTR: %s", e->info.name, strerror(-rc));
	/* timeout 14: 4.096 us << 14 = 67 ms before a retransmission; 7 RNR retries = forever. */
	a = (struct rte_pmd_irdma_qp_attr){ .qp_state = RTE_PMD_IRDMA_QPS_RTS, .sq_psn = e->psn,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7, .max_rd_atomic = 1 };
	rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN |
				     RTE_PMD_IRDMA_QP_TIMEOUT | RTE_PMD_IRDMA_QP_RETRY_CNT |
				     RTE_PMD_IRDMA_QP_RNR_RETRY | RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC);
	return rc < 0 ? fail("%s: QP RTR->RTS: %s", e->info.name, strerror(-rc)) : 0;
}

/* Map both devices' services to @p lcore and start it. A service lcore calls each service
 * mapped to it in turn, so one CPU carries both engines. */
static int engines_start(unsigned int lcore)
{
	int i, rc;

	for (i = 0; i < 2; i++) {
		if (ep[i].info.engine != RTE_PMD_IRDMA_ENGINE_SERVICE)
			return fail("%s: needs engine=service in its devargs", ep[i].info.name);
		rc = rte_service_map_lcore_set(ep[i].info.service_id, lcore, 1);
		if (rc == 0)
			rc = rte_service_runstate_set(ep[i].info.service_id, 1);
		if (rc < 0)
			return fail("%s: service %u on lcore %u: %s", ep[i].info.name,
				    ep[i].info.service_id, lcore, strerror(-rc));
	}
	rc = rte_service_lcore_start(lcore);
	return rc < 0 && rc != -EALREADY ? fail("service lcore %u: %s", lcore, strerror(-rc)) : 0;
}

/* Two spinning threads on one CPU hand over only at scheduler ticks: keep them apart. */
static int share_cpu(unsigned int a, unsigned int b)
{
	rte_cpuset_t ca = rte_lcore_cpuset(a), cb = rte_lcore_cpuset(b), both;

	CPU_AND(&both, &ca, &cb);
	return CPU_COUNT(&both) > 0;
}

/* Busy-poll until each CQ of @p e[0..n) gave one completion. The engines run on the service
 * lcore, so a poll only reads the CQ; with n == 2 one loop serves both sides. */
static int poll_each(struct endpoint *const *e, struct rte_pmd_irdma_wc *wc, unsigned int n)
{
	uint64_t deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	unsigned int i, todo = n;
	int got[2] = { 0, 0 }, k;

	while (todo > 0) {
		for (i = 0; i < n; i++) {
			if (got[i])
				continue;
			k = rte_pmd_irdma_poll_cq(e[i]->cq, &wc[i], 1);
			if (k < 0)
				return fail("%s: poll_cq: %s", e[i]->info.name, strerror(-k));
			if (k > 0 && wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS)
				return fail("%s: completion status %s", e[i]->info.name,
					    rte_pmd_irdma_wc_status_str(wc[i].status));
			got[i] = k;
			todo -= (unsigned int)k;
		}
		if (has_failed())
			return -1;
		if (rte_get_timer_cycles() > deadline)
			return fail("no completion within %d s: are the services running?",
				    TIMEOUT_S);
		rte_pmd_irdma_idle(e[0]->dev);
	}
	return 0;
}

static int check_receive(const struct rte_pmd_irdma_wc *wc)
{
	size_t i;

	if (wc->opcode != RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM ||
	    rte_be_to_cpu_32(wc->imm_data) != IMM_VALUE || wc->byte_len != size)
		return fail("receiver: opcode %#x, immediate %#x, %u bytes; expected write with "
			    "immediate %#x of %zu bytes", wc->opcode, rte_be_to_cpu_32(wc->imm_data),
			    wc->byte_len, IMM_VALUE, size);
	for (i = 0; i < size; i++)
		if (ep[1].buf[i] != ep[0].buf[i])
			return fail("receiver: byte %zu is %#x, expected %#x", i, ep[1].buf[i],
				    ep[0].buf[i]);
	return 0;
}

static int receiver_lcore(void *arg __rte_unused)
{
	struct endpoint *b = &ep[1];
	struct rte_pmd_irdma_wc wc;

	/* No need to keep polling afterwards: the service sends the ACK. */
	return poll_each(&b, &wc, 1) < 0 || check_receive(&wc) < 0 ? -1 : 0;
}

/* Post the write; then wait for its completion and, with no receiver lcore, the receive. */
static void writer(int receiver_here)
{
	struct endpoint *both[2] = { &ep[0], &ep[1] };
	struct rte_pmd_irdma_sge sge = { (uintptr_t)ep[0].buf, (uint32_t)size, ep[0].mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
		.imm_data = rte_cpu_to_be_32(IMM_VALUE),
		.wr.rdma = { .remote_addr = (uintptr_t)ep[1].buf, .rkey = ep[1].mr->rkey },
	};
	struct rte_pmd_irdma_wc wc[2];
	int err;

	if (rte_pmd_irdma_post_send(ep[0].qp, &wr, 1, &err) != 1)
		fail("writer: post_send: %s", strerror(-err));
	else if (poll_each(both, wc, receiver_here ? 2 : 1) == 0 &&
		 wc[0].opcode != RTE_PMD_IRDMA_WC_RDMA_WRITE)
		fail("writer: completion opcode %#x, expected RDMA_WRITE", wc[0].opcode);
	else if (receiver_here && !has_failed())
		check_receive(&wc[1]);
}

static void endpoint_close(struct endpoint *e)
{
	/* Reverse order of creation; closing the device unregisters its service. */
	if ((e->qp && rte_pmd_irdma_qp_destroy(e->qp) < 0) ||
	    (e->cq && rte_pmd_irdma_cq_destroy(e->cq) < 0) ||
	    (e->mr && rte_pmd_irdma_dereg_mr(e->mr) < 0) ||
	    (e->pd && rte_pmd_irdma_pd_free(e->pd) < 0) ||
	    (e->dev && rte_pmd_irdma_dev_close(e->dev) < 0))
		fail("%s: teardown failed", e->info.name);
	rte_free(e->buf);
}

static int parse_args(int argc, char **argv, const char **dev0, const char **dev1)
{
	static const struct option opts[] = {
		{ "dev0", required_argument, NULL, '0' }, { "dev1", required_argument, NULL, '1' },
		{ "size", required_argument, NULL, 's' }, { NULL, 0, NULL, 0 } };
	unsigned long long v;
	char *end;
	int c;

	optind = 1;
	opterr = 0; /* our own one-line message instead of getopt's */
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == '0' || c == '1') {
			*(c == '0' ? dev0 : dev1) = optarg;
		} else if (c == 's') {
			errno = 0;
			v = strtoull(optarg, &end, 0);
			if (errno || *end || v == 0 || v > MAX_SIZE)
				return fail("--size: expected 1..%u bytes, got '%s'", MAX_SIZE, optarg);
			size = (size_t)v;
		} else {
			return fail("bad option '%s'; usage: %s <EAL args> -- [--dev0 DEVARGS] "
				    "[--dev1 DEVARGS] [--size BYTES]", argv[optind - 1], "service_engine");
		}
	}
	return optind < argc ? fail("unexpected argument '%s'", argv[optind]) : 0;
}

int main(int argc, char **argv)
{
	const char *dev0 = "soft,name=se_a,port=loop,ip=198.18.0.1,engine=service";
	const char *dev1 = "soft,name=se_b,port=loop,ip=198.18.0.2,engine=service";
	unsigned int slcore = RTE_MAX_LCORE, rlcore = RTE_MAX_LCORE, lcore;
	struct rte_pmd_irdma_recv_wr rwr = { .wr_id = 2, .sg_list = NULL, .num_sge = 0 };
	uint32_t list[RTE_MAX_LCORE];
	int ret;
	size_t i;

	/* EAL arguments come from the command line: run with --no-pci unless a real NIC is meant to be
	 * probed (tests/examples does). */
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "service_engine: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv, &dev0, &dev1) < 0)
		goto out;
	/* The service lcore: the first of EAL -s, else the last worker lcore turned into one. */
	if (rte_service_lcore_list(list, RTE_MAX_LCORE) > 0)
		slcore = list[0];
	else
		RTE_LCORE_FOREACH_WORKER(lcore)
			slcore = lcore;
	if (slcore == RTE_MAX_LCORE) {
		fail("needs a second lcore for the service (EAL -l 0-1)");
		goto out;
	}
	ret = rte_service_lcore_add(slcore);
	if (ret < 0 && ret != -EALREADY) {
		fail("cannot make lcore %u a service lcore: %s", slcore, strerror(-ret));
		goto out;
	}
	if (share_cpu(slcore, rte_get_main_lcore())) {
		fail("service lcore %u shares a CPU with main lcore %u: give each its own "
		     "(EAL -l/--lcores)", slcore, rte_get_main_lcore());
		goto stop;
	}
	/* A worker lcore left over on a CPU of its own (-l 0-2) gets the receiver; otherwise
	 * the main lcore is both writer and receiver. */
	RTE_LCORE_FOREACH_WORKER(lcore)
		if (rlcore == RTE_MAX_LCORE && lcore != slcore && !share_cpu(lcore, slcore) &&
		    !share_cpu(lcore, rte_get_main_lcore()))
			rlcore = lcore;
	if (endpoint_open(&ep[0], dev0, 0x100) < 0 || endpoint_open(&ep[1], dev1, 0x200) < 0 ||
	    endpoint_connect(&ep[0], &ep[1]) < 0 || endpoint_connect(&ep[1], &ep[0]) < 0 ||
	    engines_start(slcore) < 0)
		goto stop;
	for (i = 0; i < size; i++)
		ep[0].buf[i] = (uint8_t)(i * 31 + 7);
	/* The immediate consumes a receive WQE: post it before the write can arrive. */
	if (rte_pmd_irdma_post_recv(ep[1].qp, &rwr, 1, &ret) != 1) {
		fail("receiver: post_recv: %s", strerror(-ret));
		goto stop;
	}
	if (rlcore < RTE_MAX_LCORE && rte_eal_remote_launch(receiver_lcore, NULL, rlcore) < 0) {
		fail("cannot launch the receiver on lcore %u", rlcore);
		goto stop;
	}
	writer(rlcore == RTE_MAX_LCORE);
	if (rlcore < RTE_MAX_LCORE)
		rte_eal_wait_lcore(rlcore);
	if (!has_failed())
		printf("service_engine: %s and %s engines on service lcore %u; lcore %u wrote %zu "
		       "bytes with immediate %#x, lcore %u received it: data verified\n",
		       ep[0].info.name, ep[1].info.name, slcore, rte_lcore_id(), size, IMM_VALUE,
		       rlcore < RTE_MAX_LCORE ? rlcore : rte_lcore_id());
stop:
	/* Stop the services, then the service lcore, before tearing the devices down. */
	for (i = 0; i < 2; i++)
		if (ep[i].dev != NULL && ep[i].info.engine == RTE_PMD_IRDMA_ENGINE_SERVICE)
			rte_service_runstate_set(ep[i].info.service_id, 0);
	if (slcore < RTE_MAX_LCORE && rte_service_lcore_stop(slcore) == 0)
		rte_eal_wait_lcore(slcore);
out:
	endpoint_close(&ep[1]);
	endpoint_close(&ep[0]);
	rte_eal_cleanup();
	if (has_failed()) {
		fprintf(stderr, "service_engine: %s\n", errmsg);
		return 1;
	}
	return 0;
}
