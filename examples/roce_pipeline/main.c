/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * roce_pipeline: an application that owns its ports forwards ordinary traffic and
 * terminates RoCE on the same port, in one loop.
 *
 * The application configures and starts its two ports, pipe0 and pipe1, and forwards
 * every frame that arrives on pipe0 out of pipe1. An RDMA device shares pipe0 with it
 * (devargs rxq=app,txq=app): the loop picks the device's frames out of its receive burst
 * with rte_pmd_irdma_frame_is_mine() and hands them over with rte_pmd_irdma_rx_burst(),
 * and sends what the device wants sent, drained with rte_pmd_irdma_tx_drain(), out of pipe0
 * with its own frames. The device never touches the port's configuration or queues.
 *
 * On the other end of pipe0's cable a peer host has an RDMA device of its own (owning its
 * port) and a traffic source. The peer RDMA WRITEs (with immediate) a buffer into the
 * pipeline's memory while the source sends ordinary UDP frames, some of them to port 4791
 * of another host (RoCE, but not ours: forwarded). The cables are rte_rings (net_ring ports,
 * all in this process); the far end of pipe1 is a sink that checks every forwarded frame
 * byte for byte. One lcore runs everything.
 *
 *   roce_pipeline <EAL args> -- [--size BYTES] [--frames N]
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
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_pmd_irdma.h>
#include <rte_ring.h>
#include <rte_udp.h>

#define IMM_VALUE  0x5eed1234u
#define TIMEOUT_S  5
#define MAX_SIZE   (16u << 20)
#define BURST      32
#define FRAME_LEN  128u           /* ordinary frames: Ethernet + IPv4 + UDP + payload */
#define OTHER_PORT 9u             /* UDP discard */

struct endpoint {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	struct rte_pmd_irdma_dev_info info;
	union rte_pmd_irdma_gid gid;
	uint32_t psn;
};

static struct endpoint pipe_ep, peer_ep; /* the pipeline's device, the peer's */
static struct rte_ring *cable_in, *cable_out, *sink, *pipe1_rx; /* pipe0 rx / tx, pipe1 tx / rx */
static uint16_t pipe0, pipe1, peer_port;
static struct rte_mempool *pool;         /* the application's mbufs */
static size_t size = 64 * 1024;
static unsigned int n_frames = 1000;
static char errmsg[256];
static int failed;

static struct {
	uint64_t generated, forwarded, forwarded_bytes, to_device, from_device, checked;
} st;

static int fail(const char *fmt, ...)
{
	va_list ap;

	if (!failed) {
		failed = 1;
		va_start(ap, fmt);
		vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* ---- ports: the application's (pipe0, pipe1) and the peer's, joined by rings ---- */

static struct rte_ring *ring(const char *name)
{
	struct rte_ring *r = rte_ring_create(name, 4096, rte_socket_id(), 0);

	if (r == NULL)
		fail("ring %s: %s", name, rte_strerror(rte_errno));
	return r;
}

static int port_from_rings(const char *name, struct rte_ring *rx, struct rte_ring *tx,
			   uint16_t *port)
{
	int p = rte_eth_from_rings(name, &rx, 1, &tx, 1, rte_socket_id());

	if (p < 0)
		return fail("port %s: %s", name, rte_strerror(rte_errno));
	*port = (uint16_t)p;
	return 0;
}

/* What any application does with its ports; the RDMA device adds nothing to it. */
static int app_port_start(uint16_t port)
{
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, 512, rte_socket_id(), NULL, pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, 512, rte_socket_id(), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	return rc < 0 ? fail("port %u: %s", port, strerror(-rc)) : 0;
}

static int ports_open(void)
{
	if ((cable_in = ring("cable_in")) == NULL || (cable_out = ring("cable_out")) == NULL ||
	    (sink = ring("sink")) == NULL || (pipe1_rx = ring("pipe1_rx")) == NULL)
		return -1;
	pool = rte_pktmbuf_pool_create("pipeline", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	if (pool == NULL)
		return fail("mbuf pool: %s (raise EAL -m)", rte_strerror(rte_errno));
	/* rte_eth_from_rings() names its ports net_ring_<name> */
	if (port_from_rings("pipe0", cable_in, cable_out, &pipe0) < 0 ||
	    port_from_rings("pipe1", pipe1_rx, sink, &pipe1) < 0 ||
	    port_from_rings("peer", cable_out, cable_in, &peer_port) < 0)
		return -1;
	return app_port_start(pipe0) < 0 || app_port_start(pipe1) < 0 ? -1 : 0;
}

/* ---- RDMA: one RC QP each side ---- */

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
	rte_pmd_irdma_query_gid(e->dev, 1, &e->gid); /* GID 1: the IPv4-mapped ip= */
	e->psn = psn;
	e->buf = rte_zmalloc_socket("roce_pipeline", size, 4096, e->info.socket_id);
	if (e->buf == NULL)
		return fail("%s: cannot allocate %zu bytes (raise EAL -m)", e->info.name, size);
	e->pd = rte_pmd_irdma_pd_alloc(e->dev);
	if (e->pd == NULL)
		return fail("%s: PD: %s", e->info.name, rte_strerror(rte_errno));
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

static int endpoint_connect(struct endpoint *e, const struct endpoint *peer)
{
	uint32_t mtu = RTE_MIN(e->info.active_mtu, peer->info.active_mtu);
	struct rte_pmd_irdma_qp_attr a = {
		.qp_state = RTE_PMD_IRDMA_QPS_RTR,
		.path_mtu = (enum rte_pmd_irdma_mtu)(rte_log2_u32(mtu) - 7),
		.dest_qp_num = peer->qp->qp_num, .rq_psn = peer->psn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = peer->gid, .sgid_index = 1, .hop_limit = 64 } },
	};
	int rc;

	rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_AV |
				     RTE_PMD_IRDMA_QP_PATH_MTU | RTE_PMD_IRDMA_QP_DEST_QPN |
				     RTE_PMD_IRDMA_QP_RQ_PSN | RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC |
				     RTE_PMD_IRDMA_QP_MIN_RNR_TIMER);
	if (rc < 0)
		return fail("%s: QP INIT->RTR: %s", e->info.name, strerror(-rc));
	a = (struct rte_pmd_irdma_qp_attr){ .qp_state = RTE_PMD_IRDMA_QPS_RTS, .sq_psn = e->psn,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7, .max_rd_atomic = 1 };
	rc = rte_pmd_irdma_qp_modify(e->qp, &a, RTE_PMD_IRDMA_QP_STATE | RTE_PMD_IRDMA_QP_SQ_PSN |
				     RTE_PMD_IRDMA_QP_TIMEOUT | RTE_PMD_IRDMA_QP_RETRY_CNT |
				     RTE_PMD_IRDMA_QP_RNR_RETRY | RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC);
	return rc < 0 ? fail("%s: QP RTR->RTS: %s", e->info.name, strerror(-rc)) : 0;
}

static void endpoint_close(struct endpoint *e)
{
	if ((e->qp && rte_pmd_irdma_qp_destroy(e->qp) < 0) ||
	    (e->cq && rte_pmd_irdma_cq_destroy(e->cq) < 0) ||
	    (e->mr && rte_pmd_irdma_dereg_mr(e->mr) < 0) ||
	    (e->pd && rte_pmd_irdma_pd_free(e->pd) < 0) ||
	    (e->dev && rte_pmd_irdma_dev_close(e->dev) < 0))
		fail("%s: teardown failed", e->info.name);
	rte_free(e->buf);
}

/* ---- the peer's traffic source and pipe1's sink ---- */

/* Ordinary frame @p seq from the peer to the pipeline host's MAC: every 8th to UDP port
 * 4791 of 198.18.0.50 (RoCE to another host: forwarded, not the device's). */
static void frame_fill(uint8_t *f, uint64_t seq)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t *pl = (uint8_t *)(udp + 1);
	unsigned int i;

	memcpy(eth->dst_addr.addr_bytes, pipe_ep.info.mac, 6);
	memcpy(eth->src_addr.addr_bytes, peer_ep.info.mac, 6);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(FRAME_LEN - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(198, 18, 0, 2));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(198, 18, 0, 50));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(40000);
	udp->dst_port = rte_cpu_to_be_16(seq % 8 == 7 ? 4791 : OTHER_PORT);
	udp->dgram_len = rte_cpu_to_be_16(FRAME_LEN - sizeof(*eth) - sizeof(*ip));
	udp->dgram_cksum = 0;
	memcpy(pl, &seq, sizeof(seq));
	for (i = sizeof(seq); i < FRAME_LEN - (unsigned int)(pl - f); i++)
		pl[i] = (uint8_t)(seq * 131 + i);
}

/* The peer's source: a few frames per turn into the cable, between its RoCE frames. */
static void source_step(void)
{
	struct rte_mbuf *m[4];
	unsigned int i, n = RTE_MIN(4u, (unsigned int)(n_frames - st.generated)), k;

	if (n == 0 || rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
		return;
	for (i = 0; i < n; i++) {
		frame_fill(rte_pktmbuf_mtod(m[i], uint8_t *), st.generated + i);
		m[i]->data_len = m[i]->pkt_len = FRAME_LEN;
	}
	k = rte_ring_enqueue_burst(cable_in, (void **)m, n, NULL);
	rte_pktmbuf_free_bulk(m + k, n - k);
	st.generated += k;
}

/* pipe1's far end: every forwarded frame, in order, exactly as the source sent it. */
static void sink_step(void)
{
	uint8_t want[FRAME_LEN];
	struct rte_mbuf *m[BURST];
	unsigned int i, n = rte_ring_dequeue_burst(sink, (void **)m, BURST, NULL);

	for (i = 0; i < n; i++) {
		frame_fill(want, st.checked);
		if (rte_pktmbuf_pkt_len(m[i]) != FRAME_LEN ||
		    memcmp(rte_pktmbuf_mtod(m[i], uint8_t *), want, FRAME_LEN) != 0)
			fail("sink: frame %lu is not what the source sent (%u bytes, sequence %lu)",
			     (unsigned long)st.checked, rte_pktmbuf_pkt_len(m[i]),
			     (unsigned long)*rte_pktmbuf_mtod_offset(m[i], uint64_t *, 42));
		st.checked++;
	}
	rte_pktmbuf_free_bulk(m, n);
}

/* ---- the application's loop: forward pipe0 -> pipe1, RoCE to and from the device ---- */

static void send_all(uint16_t port, struct rte_mbuf **m, unsigned int n)
{
	unsigned int k = rte_eth_tx_burst(port, 0, m, (uint16_t)n);

	rte_pktmbuf_free_bulk(m + k, n - k); /* the caller's: a full queue drops them */
}

static void pipeline_step(void)
{
	struct rte_mbuf *rx[BURST], *fwd[BURST], *mine[BURST], *out[BURST];
	unsigned int i, n, nf = 0, nm = 0;
	int k;

	n = rte_eth_rx_burst(pipe0, 0, rx, BURST);
	for (i = 0; i < n; i++) {
		if (rte_pmd_irdma_frame_is_mine(pipe_ep.dev, rx[i]))
			mine[nm++] = rx[i];
		else
			fwd[nf++] = rx[i];
	}
	for (i = 0; i < nf; i++)
		st.forwarded_bytes += rte_pktmbuf_pkt_len(fwd[i]);
	st.forwarded += nf;
	send_all(pipe1, fwd, nf);
	if (nm != 0) {
		/* frames taken are the device's; any it could not take stay ours */
		k = rte_pmd_irdma_rx_burst(pipe_ep.dev, mine, (uint16_t)nm);
		if (k < 0) {
			fail("rte_pmd_irdma_rx_burst: %s", strerror(-k));
			k = 0;
		}
		st.to_device += (unsigned int)k;
		rte_pktmbuf_free_bulk(mine + k, nm - (unsigned int)k);
	}
	/* what the device sends leaves with our own frames on pipe0 */
	k = rte_pmd_irdma_tx_drain(pipe_ep.dev, out, BURST);
	if (k > 0) {
		st.from_device += (unsigned int)k;
		send_all(pipe0, out, (unsigned int)k);
	} else if (k < 0) {
		fail("rte_pmd_irdma_tx_drain: %s", strerror(-k));
	}
}

/* One completion of @p e, if there is one; polling also runs the device (engine=inline). */
static int poll_done(struct endpoint *e, enum rte_pmd_irdma_wc_opcode want, int *done)
{
	struct rte_pmd_irdma_wc wc;
	int n = rte_pmd_irdma_poll_cq(e->cq, &wc, 1);

	if (n < 0)
		return fail("%s: poll_cq: %s", e->info.name, strerror(-n));
	if (n == 0)
		return 0;
	if (wc.status != RTE_PMD_IRDMA_WC_SUCCESS)
		return fail("%s: completion status %s", e->info.name,
			    rte_pmd_irdma_wc_status_str(wc.status));
	if (wc.opcode != want || (want == RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM &&
				  (rte_be_to_cpu_32(wc.imm_data) != IMM_VALUE || wc.byte_len != size)))
		return fail("%s: completion opcode %#x, %u bytes, immediate %#x; expected %#x",
			    e->info.name, wc.opcode, wc.byte_len, rte_be_to_cpu_32(wc.imm_data), want);
	*done = 1;
	return 0;
}

static int run(void)
{
	struct rte_pmd_irdma_sge sge = { (uintptr_t)peer_ep.buf, (uint32_t)size, peer_ep.mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
		.imm_data = rte_cpu_to_be_32(IMM_VALUE),
		.wr.rdma = { .remote_addr = (uintptr_t)pipe_ep.buf, .rkey = pipe_ep.mr->rkey },
	};
	struct rte_pmd_irdma_recv_wr rwr = { .wr_id = 2, .sg_list = NULL, .num_sge = 0 };
	uint64_t deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	int err, written = 0, received = 0;
	size_t i;

	for (i = 0; i < size; i++)
		peer_ep.buf[i] = (uint8_t)(i * 31 + 7);
	if (rte_pmd_irdma_post_recv(pipe_ep.qp, &rwr, 1, &err) != 1)
		return fail("pipeline: post_recv: %s", strerror(-err));
	if (rte_pmd_irdma_post_send(peer_ep.qp, &wr, 1, &err) != 1)
		return fail("peer: post_send: %s", strerror(-err));
	while (!failed && (!written || !received || st.checked < n_frames)) {
		if (rte_get_timer_cycles() > deadline)
			return fail("not done within %d s: write %s, receive %s, %lu of %u frames forwarded",
				    TIMEOUT_S, written ? "completed" : "pending",
				    received ? "completed" : "pending", (unsigned long)st.checked,
				    n_frames);
		source_step();
		pipeline_step();
		sink_step();
		if (!written)
			poll_done(&peer_ep, RTE_PMD_IRDMA_WC_RDMA_WRITE, &written);
		else
			rte_pmd_irdma_progress(peer_ep.dev, 32); /* it still answers ARP, ACKs */
		if (!received)
			poll_done(&pipe_ep, RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM, &received);
		else
			rte_pmd_irdma_progress(pipe_ep.dev, 32);
	}
	if (failed)
		return -1;
	if (memcmp(pipe_ep.buf, peer_ep.buf, size) != 0)
		return fail("pipeline: the written buffer differs from the peer's");
	if (st.forwarded != n_frames)
		return fail("forwarded %lu frames, the source sent %u (RoCE frames leaked to pipe1?)",
			    (unsigned long)st.forwarded, n_frames);
	return 0;
}

static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' }, { "frames", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 } };
	unsigned long long v;
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 's' && c != 'f')
			return fail("bad option '%s'; usage: roce_pipeline <EAL args> -- "
				    "[--size BYTES] [--frames N]", argv[optind - 1]);
		errno = 0;
		v = strtoull(optarg, &end, 0);
		if (c == 's' && (errno || *end || v == 0 || v > MAX_SIZE))
			return fail("--size: expected 1..%u bytes, got '%s'", MAX_SIZE, optarg);
		if (c == 'f' && (errno || *end || v > 1000000))
			return fail("--frames: expected 0..1000000, got '%s'", optarg);
		if (c == 's')
			size = (size_t)v;
		else
			n_frames = (unsigned int)v;
	}
	return optind < argc ? fail("unexpected argument '%s'", argv[optind]) : 0;
}

int main(int argc, char **argv)
{
	/* EAL arguments come from the command line: run with --no-pci unless a real NIC is meant
	 * to be probed (-a <PCI address>; tests/examples passes --no-pci and net_ring vdevs). */
	int ret = rte_eal_init(argc, argv);

	if (ret < 0) {
		fprintf(stderr, "roce_pipeline: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv) < 0 || ports_open() < 0)
		goto out;
	/* The pipeline's device shares pipe0 (rxq=app,txq=app: the hand-off); the peer's device
	 * owns its port. */
	if (endpoint_open(&pipe_ep, "soft,name=pipe,port=net_ring_pipe0,ip=198.18.0.1,"
			  "rxq=app,txq=app", 0x100) < 0 ||
	    endpoint_open(&peer_ep, "soft,name=peer,port=net_ring_peer,ip=198.18.0.2", 0x200) < 0 ||
	    endpoint_connect(&pipe_ep, &peer_ep) < 0 || endpoint_connect(&peer_ep, &pipe_ep) < 0)
		goto out;
	if (run() == 0)
		printf("roce_pipeline: forwarded %lu frames (%lu bytes) pipe0 -> pipe1, each as sent; "
		       "peer QP %u wrote %zu bytes with immediate %#x to pipe QP %u through the "
		       "hand-off (%lu frames in, %lu out): data verified\n",
		       (unsigned long)st.forwarded, (unsigned long)st.forwarded_bytes,
		       peer_ep.qp->qp_num, size, IMM_VALUE, pipe_ep.qp->qp_num,
		       (unsigned long)st.to_device, (unsigned long)st.from_device);
out:
	/* the device first: it stops using pipe0; then the application's ports */
	endpoint_close(&pipe_ep);
	endpoint_close(&peer_ep);
	if (pool != NULL) {
		rte_eth_dev_stop(pipe0);
		rte_eth_dev_close(pipe0);
		rte_eth_dev_stop(pipe1);
		rte_eth_dev_close(pipe1);
	}
	rte_eal_cleanup();
	if (failed) {
		fprintf(stderr, "roce_pipeline: %s\n", errmsg);
		return 1;
	}
	return 0;
}
