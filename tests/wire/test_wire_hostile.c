/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A hostile peer on a real port: the test plays the remote end of an RC connection through
 * a net_ring ethdev and writes crafted RoCEv2 frames with valid ICRCs (lib/roce builds
 * them), so every frame passes the parse and ICRC checks and reaches the QP's key, range,
 * length, opcode-sequence and PSN checks. For each case: the reply the device sends
 * (parsed, ICRC checked, AETH syndrome read from the frame's bytes) or silence, the counter
 * that moved, the QP's state, and every byte of the registered regions and of the canaries
 * around them compared with a model of what may have changed.
 *
 * Expected answers (IBTA vol. 1, ch. 9.7 / 9.9; doc/spec/ in the repository):
 *  - bad R_Key, access right or range (crossing a region's end or wrapping 2^64): NAK
 *    Remote Access Error (0x62), QP to error;
 *  - RETH length over 2^31, a multi-packet WRITE that does not add up to its RETH length,
 *    an opcode out of sequence, a misaligned atomic: NAK Invalid Request (0x61), QP to error;
 *  - PSN ahead: one NAK PSN Sequence Error (0x60) naming the expected PSN, then silence
 *    until the gap closes; PSN behind (duplicate SEND/WRITE): ACK again, never re-execute;
 *  - a duplicate READ must name the rest of the original range: otherwise silently dropped;
 *  - a spoofed source or a request of the wrong transport: silently dropped;
 *  - at a requester: ACKs and NAKs outside the window, unsolicited responses: dropped; a
 *    lying MSN or credit field does not complete more than the PSN acknowledges.
 */
#include <stdlib.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include "roce_pkt.h"
#include "tool_qp.h"
#include "wire_harness.h"
#include "wire_peer.h"

#define MAC_US   0x02, 0x00, 0x00, 0x00, 0x00, 0x01
#define MAC_PEER 0x02, 0x00, 0x00, 0x00, 0x00, 0x09
#define PEER_QPN 0x99u
#define EPSN     0x100u     /* the victim's receive PSN at connect */
#define SQPSN    0x500u     /* the victim's send PSN at connect */
#define MTU      1024u

/* One buffer: regions with canary bytes between and around them. */
#define BUF_SIZE (64u << 10)
#define RW_OFF   8192u      /* remote read/write/atomic */
#define RW_LEN   8192u
#define RO_OFF   24576u     /* remote read only */
#define RO_LEN   4096u
#define TMP_OFF  40960u     /* registered and deregistered by the stale-key cases */
#define TMP_LEN  4096u
#define LOC_OFF  53248u     /* the victim's own send source / read landing area */
#define LOC_LEN  4096u

static struct wh_link lk;
static struct rte_pmd_irdma_dev *dev;
static struct rte_pmd_irdma_pd *pd;
static struct rte_pmd_irdma_cq *cq;
static struct rte_pmd_irdma_mr *rw_mr, *ro_mr, *loc_mr;
static struct rte_pmd_irdma_qp *qp;
static struct rte_mempool *pool;
static uint8_t *buf;
static uint8_t model[BUF_SIZE];
static uint32_t stale_rkey;

static const uint8_t mac_us[6] = { MAC_US };
static const uint8_t mac_peer[6] = { MAC_PEER };
static const uint8_t gid_us[16] = { [10] = 0xff, [11] = 0xff, 198, 18, 0, 1 };
static const uint8_t gid_peer[16] = { [10] = 0xff, [11] = 0xff, 198, 18, 0, 9 };

static uint64_t va(uint32_t off)
{
	return (uintptr_t)(buf + off);
}

static void step(unsigned int n)
{
	while (n--)
		rte_pmd_irdma_progress(dev, 64);
}

/* ---- the victim QP ---- */

static int victim_open(uint8_t retry_cnt)
{
	struct rte_pmd_irdma_qp_cap cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
					    .max_recv_sge = 1 };
	struct tool_qp_conn c;

	qp = tool_qp_create(pd, cq, NULL, RTE_PMD_IRDMA_QPT_RC, &cap);
	if (qp == NULL)
		return -1;
	tool_qp_conn_init(&c);
	c.access = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
		   RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	c.rq_psn = EPSN;
	c.dest_qpn = PEER_QPN;
	c.max_dest_rd_atomic = 4;
	c.min_rnr_timer = 1;
	c.sgid_index = 1;
	memcpy(c.dgid, gid_peer, 16);
	c.sq_psn = SQPSN;
	c.timeout = 20;   /* ~4 s: no ACK timeout fires while a case runs */
	c.retry_cnt = retry_cnt;
	c.rnr_retry = 0;
	c.max_rd_atomic = 4;
	return tool_qp_connect(qp, &c, NULL, 0);
}

static int victim_state(void)
{
	struct rte_pmd_irdma_qp_attr a;

	if (rte_pmd_irdma_qp_query(qp, &a, RTE_PMD_IRDMA_QP_STATE, NULL) != 0)
		return -1;
	return (int)a.qp_state;
}

static void drain_wire(void)
{
	struct rte_mbuf *m;

	while (rte_ring_dequeue(lk.out[0], (void **)&m) == 0)
		rte_pktmbuf_free(m);
}

static void victim_close(void)
{
	struct rte_pmd_irdma_wc wc[16];

	T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
	qp = NULL;
	while (rte_pmd_irdma_poll_cq(cq, wc, RTE_DIM(wc)) > 0)
		;
	drain_wire();
}

/* ---- the peer's frames ---- */

static void peer_pkt(struct roce_pkt *p, uint8_t op, uint32_t psn)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->dmac, mac_us, 6);
	memcpy(p->smac, mac_peer, 6);
	memcpy(p->sgid, gid_peer, 16);
	memcpy(p->dgid, gid_us, 16);
	p->hop_limit = 64;
	p->ip_frag = 0x4000;
	p->sport = 0xc000;
	p->opcode = op;
	p->pkey = 0xffff;
	p->dqpn = qp->qp_num;
	p->psn = psn & ROCE_PSN_MASK;
}

static void inject(const struct roce_pkt *p)
{
	uint8_t f[2048];
	int n = roce_pkt_build(p, f, sizeof(f));
	struct rte_mbuf *m;

	T_CHECK_MSG(n > 0, "roce_pkt_build opcode 0x%02x: %d", p->opcode, n);
	if (n <= 0)
		return;
	m = rte_pktmbuf_alloc(pool);
	T_CHECK(m != NULL);
	if (m == NULL)
		return;
	memcpy(rte_pktmbuf_append(m, (uint16_t)n), f, (size_t)n);
	T_EQ(rte_ring_enqueue(lk.in[0], m), 0);
}

/* The next frame the device sent, parsed (ICRC checked); 0, or -1 when none. The AETH
 * syndrome is read again from the frame's own bytes into *syn. */
static int reply(struct roce_pkt *r, uint8_t *f, uint8_t *syn)
{
	struct rte_mbuf *m;
	uint32_t len;
	int rc;

	if (rte_ring_dequeue(lk.out[0], (void **)&m) != 0)
		return -1;
	len = RTE_MIN(m->pkt_len, 2048u);
	memcpy(f, rte_pktmbuf_mtod(m, void *), len);
	rte_pktmbuf_free(m);
	rc = roce_pkt_parse(f, len, 0, r);
	T_CHECK_MSG(rc == 0, "the device sent a frame lib/roce does not parse: %d", rc);
	if (rc != 0)
		return -1;
	if (syn != NULL && (r->oi->flags & ROCE_OPF_AETH))
		*syn = f[r->bth_off + ROCE_BTH_LEN];
	return 0;
}

/* One ACK/NAK answer at @p psn with syndrome @p syn, byte-exact, and nothing after it. */
static void expect_ack(uint8_t syn, uint32_t psn, const char *what)
{
	struct roce_pkt r;
	uint8_t f[2048], got = 0;

	step(8);
	if (reply(&r, f, &got) != 0) {
		T_CHECK_MSG(0, "%s: no answer, expected syndrome 0x%02x", what, syn);
		return;
	}
	T_CHECK_MSG(r.opcode == ROCE_OP_RC_ACK, "%s: answer opcode 0x%02x", what, r.opcode);
	T_CHECK_MSG(got == syn, "%s: syndrome 0x%02x, expected 0x%02x", what, got, syn);
	T_CHECK_MSG(r.psn == (psn & ROCE_PSN_MASK), "%s: answer PSN 0x%x, expected 0x%x", what,
		    r.psn, psn & ROCE_PSN_MASK);
	T_CHECK(r.dqpn == PEER_QPN && memcmp(r.dgid, gid_peer, 16) == 0);
	T_CHECK_MSG(reply(&r, f, NULL) != 0, "%s: a second answer (opcode 0x%02x)", what, r.opcode);
}

static void expect_silence(const char *what)
{
	struct roce_pkt r;
	uint8_t f[2048];

	step(8);
	T_CHECK_MSG(reply(&r, f, NULL) != 0, "%s: answered with opcode 0x%02x syndrome 0x%02x",
		    what, r.opcode, r.aeth.syndrome);
}

static void check_canaries(const char *what)
{
	uint32_t i;

	for (i = 0; i < BUF_SIZE; i++)
		if (buf[i] != model[i])
			break;
	T_CHECK_MSG(i == BUF_SIZE, "%s: byte +%u changed (0x%02x, expected 0x%02x)", what, i,
		    i < BUF_SIZE ? buf[i] : 0, i < BUF_SIZE ? model[i] : 0);
}

/* On a failure: the QP's counters that are not zero, to say where the frame went. */
static void dump_qp_counters(const char *what)
{
	struct rte_pmd_irdma_xstat_name names[128];
	struct rte_pmd_irdma_xstat vals[128];
	int n = rte_pmd_irdma_qp_xstats_get_names(qp, names, RTE_DIM(names)), i;

	if (n <= 0 || n > (int)RTE_DIM(names) || rte_pmd_irdma_qp_xstats_get(qp, vals, n) != n)
		return;
	for (i = 0; i < n; i++)
		if (vals[i].value != 0)
			printf("# %s: %s = %lu\n", what, names[vals[i].id].name,
			       (unsigned long)vals[i].value);
}

/* ---- single-frame requests ---- */

enum expect { NAK_ACC, NAK_INV, NAK_SEQ, ACK_DUP, SILENT };

struct hostile {
	const char *name;
	uint8_t op;
	int psn_delta;      /* from EPSN */
	uint64_t va;        /* 0: at the start of the read/write region */
	int rkey;           /* 0 rw, 1 ro, 2 forged, 3 stale */
	uint32_t len;       /* RETH length (and payload of WRITE ONLY), or atomic add */
	uint32_t paylen;    /* payload of FIRST/MIDDLE/LAST/SEND */
	int spoof;          /* 1: source IP not the peer's; 2: UD opcode on the RC QP */
	enum expect expect;
	const char *counter;
	bool to_error;
};

#define VA_RW(o)  (0x1000000000000000ull | (o)) /* marker: rw region + offset (may be <0) */

static uint64_t case_va(const struct hostile *h)
{
	if (h->va == 0)
		return va(RW_OFF);
	if ((h->va & 0xF000000000000000ull) == 0x1000000000000000ull)
		return va(RW_OFF) + (uint64_t)(int64_t)(int32_t)(uint32_t)h->va;
	return h->va;
}

static const struct hostile cases[] = {
	{ "WRITE with a forged rkey", ROCE_OP_RC_WRITE_ONLY, 0, 0, 2, 64, 0, 0, NAK_ACC,
	  "rx_drop_remote_access", true },
	{ "READ with a forged rkey", ROCE_OP_RC_READ_REQ, 0, 0, 2, 64, 0, 0, NAK_ACC,
	  "rx_drop_remote_access", true },
	{ "FETCH_ADD with a forged rkey", ROCE_OP_RC_FETCH_ADD, 0, 0, 2, 1, 0, 0, NAK_ACC,
	  "rx_drop_remote_access", true },
	{ "WRITE with a stale rkey (after dereg)", ROCE_OP_RC_WRITE_ONLY, 0, 0, 3, 64, 0, 0,
	  NAK_ACC, "rx_drop_remote_access", true },
	{ "READ with a stale rkey (after dereg)", ROCE_OP_RC_READ_REQ, 0, 0, 3, 64, 0, 0,
	  NAK_ACC, "rx_drop_remote_access", true },
	{ "WRITE with a read-only rkey", ROCE_OP_RC_WRITE_ONLY, 0, 0, 1, 64, 0, 0, NAK_ACC,
	  "rx_drop_remote_access", true },
	{ "CMP_SWAP with a read-only rkey", ROCE_OP_RC_CMP_SWAP, 0, 0, 1, 1, 0, 0, NAK_ACC,
	  "rx_drop_remote_access", true },
	{ "WRITE crossing the region's end", ROCE_OP_RC_WRITE_ONLY, 0, VA_RW(RW_LEN - 32), 0, 64,
	  0, 0, NAK_ACC, "rx_drop_remote_access", true },
	{ "WRITE crossing the region's start", ROCE_OP_RC_WRITE_ONLY, 0, VA_RW((uint32_t)-32), 0,
	  64, 0, 0, NAK_ACC, "rx_drop_remote_access", true },
	{ "READ crossing the region's end", ROCE_OP_RC_READ_REQ, 0, VA_RW(16), 0, RW_LEN, 0, 0,
	  NAK_ACC, "rx_drop_remote_access", true },
	{ "WRITE wrapping 2^64", ROCE_OP_RC_WRITE_ONLY, 0, 0xFFFFFFFFFFFFFFE0ull, 0, 64, 0, 0,
	  NAK_ACC, "rx_drop_remote_access", true },
	{ "READ wrapping 2^64", ROCE_OP_RC_READ_REQ, 0, 0xFFFFFFFFFFFFFFF0ull, 0, 4096, 0, 0,
	  NAK_ACC, "rx_drop_remote_access", true },
	{ "READ of exactly 2^31 bytes (past the region)", ROCE_OP_RC_READ_REQ, 0, 0, 0,
	  0x80000000u, 0, 0, NAK_ACC, "rx_drop_remote_access", true },
	{ "READ with a RETH length over 2^31", ROCE_OP_RC_READ_REQ, 0, 0, 0, 0x80000001u, 0, 0,
	  NAK_INV, "rx_drop_length", true },
	{ "WRITE FIRST with a RETH length of 2^32-1", ROCE_OP_RC_WRITE_FIRST, 0, 0, 0,
	  0xFFFFFFFFu, MTU, 0, NAK_INV, "rx_drop_length", true },
	{ "WRITE ONLY whose payload is not its RETH length", ROCE_OP_RC_WRITE_ONLY, 0, 0, 0, 64,
	  128, 0, NAK_INV, "rx_drop_length", true },
	{ "FETCH_ADD misaligned", ROCE_OP_RC_FETCH_ADD, 0, VA_RW(4), 0, 1, 0, 0, NAK_INV,
	  "rx_drop_invalid_request", true },
	{ "CMP_SWAP misaligned across the region's end", ROCE_OP_RC_CMP_SWAP, 0,
	  VA_RW(RW_LEN - 4), 0, 1, 0, 0, NAK_INV, "rx_drop_invalid_request", true },
	{ "FETCH_ADD just past the region", ROCE_OP_RC_FETCH_ADD, 0, VA_RW(RW_LEN), 0, 1, 0, 0,
	  NAK_ACC, "rx_drop_remote_access", true },
	{ "WRITE MIDDLE with no message in progress", ROCE_OP_RC_WRITE_MIDDLE, 0, 0, 0, 0, MTU,
	  0, NAK_INV, "rx_drop_opcode_sequence", true },
	{ "WRITE LAST with no message in progress", ROCE_OP_RC_WRITE_LAST, 0, 0, 0, 0, 64, 0,
	  NAK_INV, "rx_drop_opcode_sequence", true },
	{ "SEND LAST with no message in progress", ROCE_OP_RC_SEND_LAST, 0, 0, 0, 0, 64, 0,
	  NAK_INV, "rx_drop_opcode_sequence", true },
	{ "WRITE far ahead of the expected PSN", ROCE_OP_RC_WRITE_ONLY, 0x3FFFFF, 0, 0, 64, 0, 0,
	  NAK_SEQ, "rx_drop_psn_ahead", false },
	{ "WRITE far behind the expected PSN (duplicate)", ROCE_OP_RC_WRITE_ONLY, -0x400000, 0,
	  0, 64, 0, 0, ACK_DUP, "rx_drop_duplicate", false },
	{ "READ one behind with nothing read (no resource)", ROCE_OP_RC_READ_REQ, -1, 0, 0, 64,
	  0, 0, SILENT, "rx_drop_duplicate_no_resource", false },
	{ "FETCH_ADD behind with nothing executed", ROCE_OP_RC_FETCH_ADD, -5, 0, 0, 1, 0, 0,
	  SILENT, "rx_drop_duplicate_no_resource", false },
	{ "WRITE from a spoofed source address", ROCE_OP_RC_WRITE_ONLY, 0, 0, 0, 64, 0, 1, SILENT,
	  "rx_drop_address", false },
	{ "UD SEND to the RC QP", ROCE_OP_UD_SEND_ONLY, 0, 0, 0, 0, 64, 2, SILENT,
	  "rx_drop_transport", false },
	{ "READ response with nothing outstanding", ROCE_OP_RC_READ_RESP_ONLY, 0, 0, 0, 0, 64,
	  0, SILENT, "rx_drop_response_psn", false },
	{ "ATOMIC ACK with nothing outstanding", ROCE_OP_RC_ATOMIC_ACK, 0, 0, 0, 0, 0, 0,
	  SILENT, "rx_drop_response_psn", false },
};

static uint32_t case_rkey(int which)
{
	switch (which) {
	case 0:
		return rw_mr->rkey;
	case 1:
		return ro_mr->rkey;
	case 2:
		return rw_mr->rkey ^ 0x5a5a00u; /* same index byte, other key: forged */
	default:
		return stale_rkey;
	}
}

static void run_case(const struct hostile *h)
{
	static uint8_t pay[MTU * 2];
	uint64_t before = 0, after;
	struct roce_pkt p;

	if (victim_open(7) != 0) {
		T_CHECK_MSG(0, "%s: victim QP did not reach RTS", h->name);
		return;
	}
	before = wp_qp_xstat(qp, h->counter);
	T_CHECK_MSG(before != UINT64_MAX, "%s: no QP xstat %s", h->name, h->counter);
	memset(pay, 0xC3, sizeof(pay));
	peer_pkt(&p, h->op, EPSN + h->psn_delta);
	p.reth.va = case_va(h);
	p.reth.rkey = case_rkey(h->rkey);
	p.reth.len = h->len;
	p.atmeth.va = case_va(h);
	p.atmeth.rkey = case_rkey(h->rkey);
	p.atmeth.swap_add = h->len;
	p.atmeth.cmp = 0;
	p.payload = pay;
	p.paylen = h->paylen ? h->paylen : (h->op == ROCE_OP_RC_WRITE_ONLY ? h->len : 0);
	p.ackreq = 1;
	if (h->spoof == 1)
		p.sgid[15] = 66;
	if (h->spoof == 2) {
		p.deth.qkey = 0x11111111u;
		p.deth.sqpn = PEER_QPN;
	}
	if (h->op == ROCE_OP_RC_ATOMIC_ACK || h->op == ROCE_OP_RC_READ_RESP_ONLY)
		p.aeth.syndrome = ROCE_SYN_ACK;
	inject(&p);
	switch (h->expect) {
	case NAK_ACC:
		expect_ack(ROCE_SYN_NAK_REM_ACC, EPSN, h->name);
		break;
	case NAK_INV:
		expect_ack(ROCE_SYN_NAK_INV_REQ, EPSN, h->name);
		break;
	case NAK_SEQ:
		expect_ack(ROCE_SYN_NAK_PSN_SEQ, EPSN, h->name);
		/* the same gap again: no second NAK */
		p.psn = (p.psn + 1) & ROCE_PSN_MASK;
		inject(&p);
		expect_silence(h->name);
		break;
	case ACK_DUP:
		/* acknowledged again with the last PSN executed (none yet: EPSN - 1) */
		expect_ack(ROCE_SYN_ACK, EPSN - 1, h->name);
		break;
	case SILENT:
		expect_silence(h->name);
		break;
	}
	after = wp_qp_xstat(qp, h->counter);
	T_CHECK_MSG(after >= before + 1, "%s: %s did not move (%lu)", h->name, h->counter,
		    (unsigned long)after);
	if (after < before + 1)
		dump_qp_counters(h->name);
	T_CHECK_MSG((victim_state() == RTE_PMD_IRDMA_QPS_ERR) == h->to_error,
		    "%s: QP state %d after the case", h->name, victim_state());
	check_canaries(h->name);
	victim_close();
}

T_CASE(hostile_single_frames_nak_or_drop_per_ibta_with_canaries_intact)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++)
		run_case(&cases[i]);
	/* every frame was valid up to its ICRC: the QP checks, not the parser, refused them */
	T_EQ(wp_xstat(dev, "rx_icrc_errors"), 0);
	T_EQ(wp_xstat(dev, "rx_malformed"), 0);
}

/* ---- multi-frame requests ---- */

static void write_pkt(uint8_t op, uint32_t psn, uint64_t a, uint32_t rlen, const uint8_t *pay,
		      uint32_t paylen)
{
	struct roce_pkt p;

	peer_pkt(&p, op, psn);
	p.reth.va = a;
	p.reth.rkey = rw_mr->rkey;
	p.reth.len = rlen;
	p.payload = pay;
	p.paylen = paylen;
	inject(&p);
}

T_CASE(multi_packet_writes_overrunning_their_range_land_nothing_past_it)
{
	static uint8_t pay[MTU];
	uint64_t a = va(RW_OFF + RW_LEN - 2048);

	memset(pay, 0x3C, sizeof(pay));
	/* 2048 announced at the region's last 2 KiB, then three full packets */
	T_EQ(victim_open(7), 0);
	write_pkt(ROCE_OP_RC_WRITE_FIRST, EPSN, a, 2048, pay, MTU);
	write_pkt(ROCE_OP_RC_WRITE_MIDDLE, EPSN + 1, 0, 0, pay, MTU);
	write_pkt(ROCE_OP_RC_WRITE_LAST, EPSN + 2, 0, 0, pay, MTU);
	memset(model + RW_OFF + RW_LEN - 2048, 0x3C, MTU); /* the first packet is in range */
	expect_ack(ROCE_SYN_NAK_INV_REQ, EPSN + 1, "WRITE MIDDLE past the RETH length");
	T_CHECK(wp_qp_xstat(qp, "rx_drop_length") >= 1);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_ERR);
	check_canaries("MIDDLE past the RETH length");
	victim_close();

	/* 1536 announced, a LAST of a full MTU where 512 bytes were left */
	T_EQ(victim_open(7), 0);
	a = va(RW_OFF + RW_LEN - 1536);
	memset(pay, 0x4B, sizeof(pay));
	write_pkt(ROCE_OP_RC_WRITE_FIRST, EPSN, a, 1536, pay, MTU);
	write_pkt(ROCE_OP_RC_WRITE_LAST, EPSN + 1, 0, 0, pay, MTU);
	memset(model + RW_OFF + RW_LEN - 1536, 0x4B, MTU);
	expect_ack(ROCE_SYN_NAK_INV_REQ, EPSN + 1, "WRITE LAST longer than what was left");
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_ERR);
	check_canaries("LAST longer than what was left");
	victim_close();

	/* a FIRST, then a SEND ONLY in the middle of the WRITE */
	T_EQ(victim_open(7), 0);
	a = va(RW_OFF);
	write_pkt(ROCE_OP_RC_WRITE_FIRST, EPSN, a, 4096, pay, MTU);
	write_pkt(ROCE_OP_RC_SEND_ONLY, EPSN + 1, 0, 0, pay, 64);
	memset(model + RW_OFF, 0x4B, MTU);
	expect_ack(ROCE_SYN_NAK_INV_REQ, EPSN + 1, "SEND ONLY inside a WRITE");
	T_CHECK(wp_qp_xstat(qp, "rx_drop_opcode_sequence") >= 1);
	check_canaries("SEND ONLY inside a WRITE");
	victim_close();

	/* after the QP went to error, valid requests are dropped, not executed */
	T_EQ(victim_open(7), 0);
	write_pkt(ROCE_OP_RC_WRITE_ONLY, EPSN, va(RW_OFF), 64, pay, 65); /* length: to error */
	expect_ack(ROCE_SYN_NAK_INV_REQ, EPSN, "WRITE ONLY of 65 bytes for 64");
	memset(pay, 0x77, sizeof(pay));
	write_pkt(ROCE_OP_RC_WRITE_ONLY, EPSN, va(RW_OFF), 64, pay, 64);
	write_pkt(ROCE_OP_RC_WRITE_ONLY, EPSN + 1, va(RW_OFF), 64, pay, 64);
	expect_silence("WRITEs to a QP in error");
	T_CHECK(wp_qp_xstat(qp, "rx_drop_qp_state") >= 2);
	check_canaries("WRITEs to a QP in error");
	victim_close();
}

static void read_req(uint32_t psn, uint64_t a, uint32_t rkey, uint32_t len)
{
	struct roce_pkt p;

	peer_pkt(&p, ROCE_OP_RC_READ_REQ, psn);
	p.reth.va = a;
	p.reth.rkey = rkey;
	p.reth.len = len;
	inject(&p);
}

/* One READ RESPONSE ONLY at @p psn carrying @p len bytes equal to @p exp. */
static void expect_read_resp(uint32_t psn, const uint8_t *exp, uint32_t len, const char *what)
{
	struct roce_pkt r;
	uint8_t f[2048];

	step(8);
	if (reply(&r, f, NULL) != 0) {
		T_CHECK_MSG(0, "%s: no READ response", what);
		return;
	}
	T_CHECK_MSG(r.opcode == ROCE_OP_RC_READ_RESP_ONLY && r.psn == psn && r.paylen == len,
		    "%s: opcode 0x%02x PSN 0x%x, %u bytes", what, r.opcode, r.psn, r.paylen);
	if (r.paylen == len)
		T_MEMEQ(r.payload, exp, len);
	T_CHECK_MSG(reply(&r, f, NULL) != 0, "%s: a second frame", what);
}

T_CASE(duplicate_reads_naming_other_ranges_are_dropped_and_exact_ones_replayed)
{
	uint64_t a = va(RW_OFF + 256);
	uint64_t replays;

	T_EQ(victim_open(7), 0);
	read_req(EPSN, a, rw_mr->rkey, 64);
	expect_read_resp(EPSN, buf + RW_OFF + 256, 64, "READ");
	replays = wp_qp_xstat(qp, "read_replays");
	/* the same PSN naming the read-only region, another offset, a longer range, a
	 * forged key: none of them is the READ that was executed */
	read_req(EPSN, va(RO_OFF), ro_mr->rkey, 64);
	read_req(EPSN, a + 64, rw_mr->rkey, 64);
	read_req(EPSN, a, rw_mr->rkey, 4096);
	read_req(EPSN, a, rw_mr->rkey ^ 0x5a5a00u, 64);
	read_req(EPSN, va(TMP_OFF), stale_rkey, 64);
	expect_silence("duplicate READs naming other ranges");
	T_CHECK(wp_qp_xstat(qp, "rx_drop_duplicate_no_resource") >= 5);
	T_EQ(wp_qp_xstat(qp, "read_replays"), replays);
	/* the exact duplicate: the same bytes again */
	read_req(EPSN, a, rw_mr->rkey, 64);
	expect_read_resp(EPSN, buf + RW_OFF + 256, 64, "exact duplicate READ");
	T_EQ(wp_qp_xstat(qp, "read_replays"), replays + 1);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_RTS);
	check_canaries("duplicate READs");
	victim_close();
}

T_CASE(read_replayed_after_its_region_was_deregistered_sends_no_byte_of_it)
{
	const uint32_t all = RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ;
	struct rte_pmd_irdma_mr *tmp = rte_pmd_irdma_reg_mr(pd, buf + TMP_OFF, TMP_LEN, all);
	T_CHECK(tmp != NULL);
	if (tmp == NULL)
		return;
	T_EQ(victim_open(7), 0);
	read_req(EPSN, va(TMP_OFF), tmp->rkey, 64);
	expect_read_resp(EPSN, buf + TMP_OFF, 64, "READ of the region");
	T_EQ(rte_pmd_irdma_dereg_mr(tmp), 0);
	/* the exact duplicate of a READ that was answered: the region is gone, the key is
	 * checked again: NAK Remote Access, no byte of the region */
	read_req(EPSN, va(TMP_OFF), tmp->rkey, 64);
	expect_ack(ROCE_SYN_NAK_REM_ACC, EPSN, "READ replay after dereg");
	T_EQ(wp_qp_xstat(qp, "rx_drop_remote_access"), 1);
	T_EQ(wp_qp_xstat(qp, "read_replays"), 0);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_ERR);
	check_canaries("READ replay after dereg");
	victim_close();
}

T_CASE(duplicate_atomic_is_answered_from_its_resource_never_executed_twice)
{
	struct roce_pkt p, r;
	uint8_t f[2048];
	uint64_t v0, v;
	int i;

	T_EQ(victim_open(7), 0);
	memcpy(&v0, buf + RW_OFF + 64, 8);
	for (i = 0; i < 3; i++) {
		peer_pkt(&p, ROCE_OP_RC_FETCH_ADD, EPSN);
		p.atmeth.va = va(RW_OFF + 64);
		p.atmeth.rkey = rw_mr->rkey;
		p.atmeth.swap_add = 0x10;
		inject(&p);
		step(8);
		T_EQ(reply(&r, f, NULL), 0);
		T_EQ(r.opcode, ROCE_OP_RC_ATOMIC_ACK);
		T_EQ(r.psn, EPSN);
		T_EQ(r.atmack, v0); /* the original value, every time */
	}
	memcpy(&v, buf + RW_OFF + 64, 8);
	T_EQ(v, v0 + 0x10);
	v = v0 + 0x10;
	memcpy(model + RW_OFF + 64, &v, 8);
	T_EQ(wp_qp_xstat(qp, "atomic_replays"), 2);
	check_canaries("duplicate FETCH_ADD");
	victim_close();
}

/* ---- the victim as requester: ACK and NAK storms ---- */

static int post_write(uint64_t wr_id, uint32_t len)
{
	struct rte_pmd_irdma_sge s = { va(LOC_OFF), len, loc_mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = wr_id, .sg_list = &s, .num_sge = 1,
		.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE, .send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
	};
	int err = 0;

	wr.wr.rdma.remote_addr = 0x7000000000ull;
	wr.wr.rdma.rkey = 0x1234;
	rte_pmd_irdma_post_send(qp, &wr, 1, &err);
	return err;
}

static int poll_all(struct rte_pmd_irdma_wc *wc, int cap)
{
	int n, got = 0;

	step(8);
	while (got < cap && (n = rte_pmd_irdma_poll_cq(cq, wc + got, cap - got)) > 0)
		got += n;
	return got;
}

static void peer_ack(uint8_t syn, uint32_t psn, uint32_t msn, int spoof)
{
	struct roce_pkt p;

	peer_pkt(&p, ROCE_OP_RC_ACK, psn);
	p.aeth.syndrome = syn;
	p.aeth.msn = msn;
	if (spoof)
		p.sgid[15] = 66;
	inject(&p);
}

static void peer_resp(uint8_t op, uint32_t psn)
{
	static const uint8_t junk[64] = { [0 ... 63] = 0x41 };
	struct roce_pkt p;

	peer_pkt(&p, op, psn);
	p.aeth.syndrome = ROCE_SYN_ACK;
	if (op != ROCE_OP_RC_ATOMIC_ACK) {
		p.payload = junk;
		p.paylen = sizeof(junk);
	}
	p.atmack = 0x4141414141414141ull;
	inject(&p);
}

/* The WRITE the victim sent for @p wr_id: its PSN. */
static void expect_write_out(uint32_t psn)
{
	struct roce_pkt r;
	uint8_t f[2048];

	step(4);
	T_EQ(reply(&r, f, NULL), 0);
	T_EQ(r.opcode, ROCE_OP_RC_WRITE_ONLY);
	T_EQ(r.psn, psn);
}

T_CASE(ack_storm_with_lying_psns_msns_and_credits_completes_each_wr_once)
{
	struct rte_pmd_irdma_wc wc[16];
	uint64_t drops;
	int i;

	T_EQ(victim_open(7), 0);
	T_EQ(post_write(1, 64), 0);
	expect_write_out(SQPSN);
	/* ACKs for PSNs never sent and from behind, with every credit value and lying MSNs;
	 * one from a spoofed source; fatal NAKs outside the window; responses past hi_psn */
	for (i = 0; i < 64; i++) {
		peer_ack((uint8_t)(i & 0x1f), SQPSN + 1 + (uint32_t)i * 0x1111, 0xffffff - i, 0);
		peer_ack((uint8_t)(i & 0x1f), SQPSN - 1 - (uint32_t)i, (uint32_t)i, 0);
	}
	peer_ack(ROCE_SYN_ACK, SQPSN, 1, 1);
	peer_ack(ROCE_SYN_NAK_REM_ACC, SQPSN + 7, 0, 0);
	peer_ack(ROCE_SYN_NAK_INV_REQ, SQPSN - 7, 0, 0);
	peer_resp(ROCE_OP_RC_READ_RESP_ONLY, SQPSN + 3);
	peer_resp(ROCE_OP_RC_ATOMIC_ACK, SQPSN + 3);
	T_EQ(poll_all(wc, 16), 0);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_RTS);
	/* all of them but the ACK of SQPSN - 1, which acknowledges nothing new and is a
	 * peer's normal duplicate ACK */
	drops = wp_qp_xstat(qp, "rx_drop_response_psn");
	T_CHECK_MSG(drops == 127 + 2 + 2, "rx_drop_response_psn %lu", (unsigned long)drops);
	T_EQ(wp_qp_xstat(qp, "rx_acks"), 1);
	T_EQ(wp_qp_xstat(qp, "rx_drop_address"), 1);
	/* the real ACK, with a lying MSN and credit count, then 32 copies of it */
	peer_ack(0x1e, SQPSN, 0xabcdef, 0);
	for (i = 0; i < 32; i++)
		peer_ack(ROCE_SYN_ACK, SQPSN, 0x123456, 0);
	T_EQ(poll_all(wc, 16), 1);
	T_EQ(wc[0].wr_id, 1);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(poll_all(wc, 16), 0);
	/* the QP still works: a second WRITE, acknowledged, completes once */
	drain_wire();
	T_EQ(post_write(2, 64), 0);
	expect_write_out(SQPSN + 1);
	peer_ack(ROCE_SYN_ACK, SQPSN + 1, 2, 0);
	T_EQ(poll_all(wc, 16), 1);
	T_EQ(wc[0].wr_id, 2);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_RTS);
	check_canaries("ACK storm");
	victim_close();
}

T_CASE(response_of_the_wrong_kind_fails_the_wr_and_writes_nothing)
{
	static const uint8_t ops[2] = { ROCE_OP_RC_READ_RESP_ONLY, ROCE_OP_RC_ATOMIC_ACK };
	struct rte_pmd_irdma_wc wc[16];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		T_EQ(victim_open(7), 0);
		T_EQ(post_write(3, 64), 0);
		T_EQ(post_write(4, 64), 0);
		step(4);
		drain_wire();
		/* a READ response / atomic ACK naming the outstanding WRITE's PSN: a bad
		 * response; the soft device reports it as irdma hardware does (FATAL_ERR) */
		peer_resp(ops[k], SQPSN);
		T_EQ(poll_all(wc, 16), 2);
		T_EQ(wc[0].wr_id, 3);
		T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_FATAL_ERR);
		T_EQ(wc[1].wr_id, 4);
		T_EQ(wc[1].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
		T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_ERR);
		T_EQ(wp_qp_xstat(qp, "rx_drop_response_unexpected"), 1);
		check_canaries("response of the wrong kind");
		victim_close();
	}
}

T_CASE(nak_storm_costs_one_retry_and_a_fatal_nak_ends_only_its_wr)
{
	struct rte_pmd_irdma_wc wc[16];
	struct roce_pkt r;
	uint8_t f[2048];
	unsigned int i, resent = 0;

	T_EQ(victim_open(1), 0);
	T_EQ(post_write(10, 64), 0);
	T_EQ(post_write(11, 64), 0);
	step(4);
	drain_wire();
	/* 200 sequence NAKs naming the first PSN, no progress: one go-back (both WRITEs
	 * once more), not 200; the retry budget of 1 is not exhausted */
	for (i = 0; i < 200; i++) {
		peer_ack(ROCE_SYN_NAK_PSN_SEQ, SQPSN, (uint32_t)i, 0);
		step(2);
		while (reply(&r, f, NULL) == 0)
			resent++;
	}
	T_EQ(resent, 2);
	T_EQ(wp_qp_xstat(qp, "rx_seq_naks"), 200);
	T_EQ(poll_all(wc, 16), 0);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_RTS);
	/* progress, then the same storm at the next PSN: one go-back again */
	peer_ack(ROCE_SYN_ACK, SQPSN, 1, 0);
	T_EQ(poll_all(wc, 16), 1);
	T_EQ(wc[0].wr_id, 10);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	for (i = 0, resent = 0; i < 100; i++) {
		peer_ack(ROCE_SYN_NAK_PSN_SEQ, SQPSN + 1, 0, 0);
		step(2);
		while (reply(&r, f, NULL) == 0)
			resent++;
	}
	T_EQ(resent, 1);
	peer_ack(ROCE_SYN_ACK, SQPSN + 1, 2, 0);
	T_EQ(poll_all(wc, 16), 1);
	T_EQ(wc[0].wr_id, 11);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_SUCCESS);
	/* a Remote Access NAK for the next WRITE fails it; the one behind it is flushed;
	 * NAKs after that complete nothing more */
	T_EQ(post_write(12, 64), 0);
	T_EQ(post_write(13, 64), 0);
	step(4);
	drain_wire();
	peer_ack(ROCE_SYN_NAK_REM_ACC, SQPSN + 2, 3, 0);
	for (i = 0; i < 50; i++)
		peer_ack((uint8_t)(ROCE_AETH_NAK | (i % 5)), SQPSN + 2 + i % 3, 3, 0);
	T_EQ(poll_all(wc, 16), 2);
	T_EQ(wc[0].wr_id, 12);
	T_EQ(wc[0].status, RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);
	T_EQ(wc[1].wr_id, 13);
	T_EQ(wc[1].status, RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
	T_EQ(poll_all(wc, 16), 0);
	T_EQ(victim_state(), RTE_PMD_IRDMA_QPS_ERR);
	check_canaries("NAK storm");
	victim_close();
}

/* ---- setup ---- */

static int open_dev(void)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 256, .comp_fd = -1 };
	const uint32_t ro = RTE_PMD_IRDMA_ACCESS_REMOTE_READ;
	const uint32_t all = RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |
			     RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	struct rte_pmd_irdma_mr *tmp;
	uint32_t i;

	if (wh_link_create(&lk, "whost_a", "whost_b") != 0)
		return -1;
	lk.hold = true;
	dev = rte_pmd_irdma_dev_create("soft,port=net_ring_whost_a,ip=198.18.0.1,"
				       "mac=02:00:00:00:00:01,neigh=198.18.0.9@02:00:00:00:00:09,"
				       "name=hostile,gen=3");
	if (dev == NULL)
		return -1;
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = rte_pmd_irdma_cq_create(dev, &ca);
	buf = rte_malloc(NULL, BUF_SIZE, 4096);
	if (pd == NULL || cq == NULL || buf == NULL)
		return -1;
	for (i = 0; i < BUF_SIZE; i++)
		buf[i] = (uint8_t)(i * 7 + (i >> 8));
	rw_mr = rte_pmd_irdma_reg_mr(pd, buf + RW_OFF, RW_LEN, all);
	ro_mr = rte_pmd_irdma_reg_mr(pd, buf + RO_OFF, RO_LEN, ro);
	loc_mr = rte_pmd_irdma_reg_mr(pd, buf + LOC_OFF, LOC_LEN, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE);
	tmp = rte_pmd_irdma_reg_mr(pd, buf + TMP_OFF, TMP_LEN, all);
	if (rw_mr == NULL || ro_mr == NULL || loc_mr == NULL || tmp == NULL)
		return -1;
	stale_rkey = tmp->rkey;
	if (rte_pmd_irdma_dereg_mr(tmp) != 0)
		return -1;
	memcpy(model, buf, BUF_SIZE);
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	wh_eal_init("hostile", "0", NULL);
	pool = rte_pktmbuf_pool_create("hostile", 1023, 0, 0, 2048 + RTE_PKTMBUF_HEADROOM,
				       SOCKET_ID_ANY);
	if (pool == NULL || open_dev() != 0)
		t_skip_all("no device on net_ring");
	rc = t_main(argc, argv);
	rte_pmd_irdma_dereg_mr(rw_mr);
	rte_pmd_irdma_dereg_mr(ro_mr);
	rte_pmd_irdma_dereg_mr(loc_mr);
	rte_pmd_irdma_cq_destroy(cq);
	rte_pmd_irdma_pd_free(pd);
	rte_pmd_irdma_dev_close(dev);
	wh_link_close(&lk);
	rte_free(buf);
	return rc;
}
