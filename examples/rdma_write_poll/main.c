/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rdma_write_poll: the smallest complete irdma-pmd program.
 *
 * Two soft devices joined by port=loop (real RoCEv2 frames, inside this process), one RC QP
 * each. The main lcore writes a buffer into the peer's memory with RDMA WRITE WITH IMMEDIATE;
 * a worker lcore busy-polls the peer's CQ. The immediate consumes a receive WQE, so the
 * receiver learns from a completion, not by watching memory, that the data has landed.
 *
 *   rdma_write_poll <EAL args> -- [--dev0 DEVARGS] [--dev1 DEVARGS] [--size BYTES]
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
static int writer_done;                 /* the receiver's device may stop serving */
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
	e->buf = rte_zmalloc_socket("rdma_write_poll", size, 4096, e->info.socket_id);
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

/* Busy-poll one completion. With engine=inline every poll also runs the device's engine, so
 * this loop is what moves the packets. idle() pauses, and yields if the lcore shares a CPU. */
static int poll_one(struct endpoint *e, struct rte_pmd_irdma_wc *wc)
{
	uint64_t deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	int n;

	while ((n = rte_pmd_irdma_poll_cq(e->cq, wc, 1)) == 0) {
		if (has_failed())
			return -1;
		if (rte_get_timer_cycles() > deadline)
			return fail("%s: no completion within %d s", e->info.name, TIMEOUT_S);
		rte_pmd_irdma_idle(e->dev);
	}
	if (n < 0)
		return fail("%s: poll_cq: %s", e->info.name, strerror(-n));
	if (wc->status != RTE_PMD_IRDMA_WC_SUCCESS)
		return fail("%s: completion status %s", e->info.name,
			    rte_pmd_irdma_wc_status_str(wc->status));
	return 0;
}

static int receiver_lcore(void *arg __rte_unused)
{
	struct endpoint *b = &ep[1];
	struct rte_pmd_irdma_wc wc;
	size_t i;

	if (poll_one(b, &wc) == 0) {
		if (wc.opcode != RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM ||
		    !(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_IMM) ||
		    rte_be_to_cpu_32(wc.imm_data) != IMM_VALUE || wc.byte_len != size)
			fail("receiver: opcode %#x, immediate %#x, %u bytes; expected write with "
			     "immediate %#x of %zu bytes", wc.opcode, rte_be_to_cpu_32(wc.imm_data),
			     wc.byte_len, IMM_VALUE, size);
		for (i = 0; i < size && !has_failed(); i++)
			if (b->buf[i] != ep[0].buf[i])
				fail("receiver: byte %zu is %#x, expected %#x", i, b->buf[i],
				     ep[0].buf[i]);
	}
	/* The writer's completion needs our ACK: keep this device's engine running until then. */
	while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE))
		if (rte_pmd_irdma_progress(b->dev, 32) <= 0)
			rte_pmd_irdma_idle(b->dev);
	return has_failed() ? -1 : 0;
}

static void writer(void)
{
	struct endpoint *a = &ep[0];
	struct rte_pmd_irdma_sge sge = { (uintptr_t)a->buf, (uint32_t)size, a->mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
		.imm_data = rte_cpu_to_be_32(IMM_VALUE),
		.wr.rdma = { .remote_addr = (uintptr_t)ep[1].buf, .rkey = ep[1].mr->rkey },
	};
	struct rte_pmd_irdma_wc wc;
	int err;

	if (rte_pmd_irdma_post_send(a->qp, &wr, 1, &err) != 1)
		fail("writer: post_send: %s", strerror(-err));
	else if (poll_one(a, &wc) == 0 && wc.opcode != RTE_PMD_IRDMA_WC_RDMA_WRITE)
		fail("writer: completion opcode %#x, expected RDMA_WRITE", wc.opcode);
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
}

static void endpoint_close(struct endpoint *e)
{
	/* Reverse order of creation; the device refuses to close while anything is left. */
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
				    "[--dev1 DEVARGS] [--size BYTES]", argv[optind - 1], "rdma_write_poll");
		}
	}
	return optind < argc ? fail("unexpected argument '%s'", argv[optind]) : 0;
}

int main(int argc, char **argv)
{
	const char *dev0 = "soft,name=wp_a,port=loop,ip=198.18.0.1";
	const char *dev1 = "soft,name=wp_b,port=loop,ip=198.18.0.2";
	struct rte_pmd_irdma_recv_wr rwr = { .wr_id = 2, .sg_list = NULL, .num_sge = 0 };
	unsigned int worker;
	size_t i;
	int ret;

	/* EAL arguments come from the command line: run with --no-pci unless a real NIC is meant to be
	 * probed (tests/examples does). */
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rdma_write_poll: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv, &dev0, &dev1) < 0)
		goto out;
	/* Two spinning pollers need two lcores, each on its own CPU. */
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		fail("needs two lcores, the main one and a worker (EAL -l 0-1)");
		goto out;
	}
	if (endpoint_open(&ep[0], dev0, 0x100) < 0 || endpoint_open(&ep[1], dev1, 0x200) < 0 ||
	    endpoint_connect(&ep[0], &ep[1]) < 0 || endpoint_connect(&ep[1], &ep[0]) < 0)
		goto out;
	for (i = 0; i < size; i++)
		ep[0].buf[i] = (uint8_t)(i * 31 + 7);
	/* The immediate consumes a receive WQE (no data goes there, so no SGE): post it before
	 * the write can arrive. */
	if (rte_pmd_irdma_post_recv(ep[1].qp, &rwr, 1, &ret) != 1) {
		fail("receiver: post_recv: %s", strerror(-ret));
		goto out;
	}
	ret = rte_eal_remote_launch(receiver_lcore, NULL, worker);
	if (ret < 0) {
		fail("cannot launch the receiver on lcore %u: %s", worker, strerror(-ret));
		goto out;
	}
	writer();
	rte_eal_wait_lcore(worker);
	if (!has_failed())
		printf("rdma_write_poll: %s QP %u wrote %zu bytes with immediate %#x to %s QP %u "
		       "(lcore %u -> lcore %u): data verified\n", ep[0].info.name, ep[0].qp->qp_num,
		       size, IMM_VALUE, ep[1].info.name, ep[1].qp->qp_num, rte_lcore_id(), worker);
out:
	endpoint_close(&ep[1]);
	endpoint_close(&ep[0]);
	rte_eal_cleanup();
	if (has_failed()) {
		fprintf(stderr, "rdma_write_poll: %s\n", errmsg);
		return 1;
	}
	return 0;
}
