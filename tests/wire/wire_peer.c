/* SPDX-License-Identifier: BSD-3-Clause */
/* The peer of the wire tests (see wire_peer.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "wire_peer.h"
#include "tool_qp.h"

#define WP_MAGIC_ECHO 0x4543484fu /* "ECHO": verify and send back */
#define WP_MAGIC_SINK 0x53494e4bu /* "SINK": verify, count, in order */
#define KIND_RC  0x10000u
#define KIND_UD  0x20000u
#define SEED(seq) ((seq) * 0x9E3779B1u + 1u)
#define IMM_OF(seq) ((seq) ^ 0x5a5a0000u)

struct wp_hdr {
	uint32_t magic, seq, len, seed;
};

#define FAIL(w, ...)                                                                       \
	do {                                                                               \
		printf("# %s: ", (w)->role);                                               \
		printf(__VA_ARGS__);                                                       \
		printf("\n");                                                              \
		fflush(stdout);                                                            \
	} while (0)

#define ACCESS_ALL                                                                         \
	(RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |            \
	 RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC)

void wp_fill(uint8_t *b, uint32_t len, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (uint8_t)(seed >> 16);
	}
}

static bool pattern_ok(const uint8_t *b, uint32_t len, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		if (b[i] != (uint8_t)(seed >> 16))
			return false;
	}
	return true;
}

static uint64_t lkey_addr(const struct wp *w, uint32_t off)
{
	return (uintptr_t)(w->buf + off);
}

static int post_send1(struct wp *w, struct rte_pmd_irdma_qp *qp,
		      struct rte_pmd_irdma_send_wr *wr)
{
	int err = 0;

	if (rte_pmd_irdma_post_send(qp, wr, 1, &err) != 1) {
		FAIL(w, "post_send opcode %d: %d", wr->opcode, err);
		return -1;
	}
	return 0;
}

static int post_recv_slot(struct wp *w, bool ud, uint32_t slot)
{
	struct rte_pmd_irdma_sge s;
	struct rte_pmd_irdma_recv_wr r;
	int err = 0;

	s.addr = lkey_addr(w, ud ? WP_UD_OFF + slot * WP_UD_SLOT : WP_RECV_OFF + slot * WP_RECV_SLOT);
	s.length = ud ? WP_UD_SLOT : WP_RECV_SLOT;
	s.lkey = w->mr->lkey;
	r.wr_id = (ud ? KIND_UD : KIND_RC) | slot;
	r.sg_list = &s;
	r.num_sge = 1;
	if (rte_pmd_irdma_post_recv(ud ? w->ud : w->rc, &r, 1, &err) != 1) {
		FAIL(w, "post_recv: %d", err);
		return -1;
	}
	return 0;
}

int wp_open(struct wp *w, const char *role, const char *devargs, unsigned int gen)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 2048, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa;
	union rte_pmd_irdma_gid gid;

	memset(w, 0, sizeof(*w));
	w->role = role;
	w->gen = gen;
	w->timeout_s = 20;
	w->dev = rte_pmd_irdma_dev_create(devargs);
	if (w->dev == NULL) {
		FAIL(w, "dev_create(%s): %s", devargs, rte_strerror(rte_errno));
		return -1;
	}
	w->pd = rte_pmd_irdma_pd_alloc(w->dev);
	w->scq = rte_pmd_irdma_cq_create(w->dev, &ca);
	w->rcq = rte_pmd_irdma_cq_create(w->dev, &ca);
	w->buf = rte_zmalloc(NULL, WP_BUF_SIZE, 4096);
	w->inv_buf = rte_zmalloc(NULL, WP_INV_SIZE, 4096);
	if (w->pd == NULL || w->scq == NULL || w->rcq == NULL || w->buf == NULL ||
	    w->inv_buf == NULL) {
		FAIL(w, "objects: %s", rte_strerror(rte_errno));
		return -1;
	}
	w->mr = rte_pmd_irdma_reg_mr(w->pd, w->buf, WP_BUF_SIZE, ACCESS_ALL);
	w->inv_mr = rte_pmd_irdma_reg_mr(w->pd, w->inv_buf, WP_INV_SIZE, ACCESS_ALL);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = w->scq;
	qa.recv_cq = w->rcq;
	qa.cap.max_send_wr = 128;
	qa.cap.max_recv_wr = 64;
	qa.cap.max_send_sge = 2;
	qa.cap.max_recv_sge = 2;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	w->rc = rte_pmd_irdma_qp_create(w->pd, &qa);
	qa.qp_type = RTE_PMD_IRDMA_QPT_UD;
	w->ud = rte_pmd_irdma_qp_create(w->pd, &qa);
	if (w->mr == NULL || w->inv_mr == NULL || w->rc == NULL || w->ud == NULL) {
		FAIL(w, "MR/QP: %s", rte_strerror(rte_errno));
		return -1;
	}
	if (rte_pmd_irdma_query_gid(w->dev, 1, &gid) != 0) {
		FAIL(w, "no GID 1 (ip= missing?)");
		return -1;
	}
	w->me.rc_qpn = w->rc->qp_num;
	w->me.ud_qpn = w->ud->qp_num;
	w->me.addr = (uintptr_t)w->buf;
	w->me.rkey = w->mr->rkey;
	w->me.inv_rkey = w->inv_mr->rkey;
	memcpy(w->me.gid, &gid, 16);
	return 0;
}

/* The tools' bring-up (app/common/tool_qp.h); the PSNs wrap during the test. */
static int to_rts(struct wp *w, struct rte_pmd_irdma_qp *qp, uint8_t timeout, uint8_t retry)
{
	struct tool_qp_conn c;
	char err[160];

	tool_qp_conn_init(&c);
	c.access = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_READ |
		   RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC;
	c.qkey = WP_UD_QKEY;
	c.dest_qpn = w->peer.rc_qpn;
	c.rq_psn = 0xfffff0;
	c.sq_psn = 0xfffff0;
	c.max_dest_rd_atomic = 8;
	c.max_rd_atomic = 8;
	c.min_rnr_timer = 1;
	c.sgid_index = 1;
	memcpy(c.dgid, w->peer.gid, 16);
	c.timeout = timeout;
	c.retry_cnt = retry;
	if (tool_qp_connect(qp, &c, err, sizeof(err)) == 0)
		return 0;
	FAIL(w, "%s", err);
	return -1;
}

int wp_connect(struct wp *w, uint8_t timeout, uint8_t retry_cnt)
{
	struct rte_pmd_irdma_ah_attr ah;
	uint32_t i;

	if (to_rts(w, w->rc, timeout, retry_cnt) || to_rts(w, w->ud, timeout, retry_cnt))
		return -1;
	memset(&ah, 0, sizeof(ah));
	ah.is_global = 1;
	ah.port_num = 1;
	ah.grh.sgid_index = 1;
	ah.grh.hop_limit = 64;
	memcpy(&ah.grh.dgid, w->peer.gid, 16);
	w->ah = rte_pmd_irdma_ah_create(w->pd, &ah);
	if (w->ah == NULL) {
		FAIL(w, "ah_create: %s", rte_strerror(rte_errno));
		return -1;
	}
	for (i = 0; i < WP_RECV_N; i++)
		if (post_recv_slot(w, false, i))
			return -1;
	for (i = 0; i < WP_UD_N; i++)
		if (post_recv_slot(w, true, i))
			return -1;
	return 0;
}

void wp_close(struct wp *w)
{
	if (w->ah)
		rte_pmd_irdma_ah_destroy(w->ah);
	if (w->rc)
		rte_pmd_irdma_qp_destroy(w->rc);
	if (w->ud)
		rte_pmd_irdma_qp_destroy(w->ud);
	if (w->mr)
		rte_pmd_irdma_dereg_mr(w->mr);
	if (w->inv_mr)
		rte_pmd_irdma_dereg_mr(w->inv_mr);
	if (w->scq)
		rte_pmd_irdma_cq_destroy(w->scq);
	if (w->rcq)
		rte_pmd_irdma_cq_destroy(w->rcq);
	if (w->pd)
		rte_pmd_irdma_pd_free(w->pd);
	if (w->dev && rte_pmd_irdma_dev_close(w->dev) != 0)
		FAIL(w, "dev_close failed");
	rte_free(w->buf);
	rte_free(w->inv_buf);
	memset(w, 0, sizeof(*w));
}

/* ---- server ---- */

static void server_echo(struct wp *w, bool ud, const uint8_t *data, uint32_t len,
			uint32_t slot, uint32_t seq)
{
	/* the server never uses the client's source and landing areas: echoes live there */
	uint32_t off = ud ? WP_DST_OFF + slot * WP_UD_SLOT : WP_SRC_OFF + slot * WP_RECV_SLOT;
	struct rte_pmd_irdma_sge s = { lkey_addr(w, off), len, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;

	memcpy(w->buf + off, data, len);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 0xEC000000u | seq;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.imm_data = rte_cpu_to_be_32(seq);
	if (ud) {
		wr.opcode = RTE_PMD_IRDMA_WR_SEND_WITH_IMM;
		wr.wr.ud.ah = w->ah;
		wr.wr.ud.remote_qpn = w->peer.ud_qpn;
		wr.wr.ud.remote_qkey = WP_UD_QKEY;
	} else {
		wr.opcode = RTE_PMD_IRDMA_WR_SEND_WITH_IMM;
	}
	if (post_send1(w, ud ? w->ud : w->rc, &wr) == 0)
		w->st.echoes++;
	else
		w->st.errors++;
}

static bool check_msg(struct wp *w, const uint8_t *p, uint32_t byte_len, struct wp_hdr *h)
{
	if (byte_len < sizeof(*h)) {
		FAIL(w, "message of %u bytes, shorter than its header", byte_len);
		return false;
	}
	memcpy(h, p, sizeof(*h));
	if ((h->magic != WP_MAGIC_ECHO && h->magic != WP_MAGIC_SINK) || h->len != byte_len ||
	    !pattern_ok(p + sizeof(*h), byte_len - sizeof(*h), h->seed)) {
		FAIL(w, "message seq %u: %u bytes, header len %u, payload %s", h->seq, byte_len,
		     h->len, "does not match its pattern");
		return false;
	}
	return true;
}

static void server_rc_recv(struct wp *w, const struct rte_pmd_irdma_wc *wc, uint32_t slot)
{
	const uint8_t *p = w->buf + WP_RECV_OFF + slot * WP_RECV_SLOT;
	struct wp_hdr h;

	if (wc->opcode == RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM) {
		uint32_t seq = rte_be_to_cpu_32(wc->imm_data);
		struct wp_hdr e = { WP_MAGIC_ECHO, seq, sizeof(e), 0 };

		w->st.write_imms++;
		if (!pattern_ok(w->buf + WP_WRITE_OFF, wc->byte_len, SEED(seq))) {
			FAIL(w, "WRITE_WITH_IMM seq %u: %u bytes do not match", seq, wc->byte_len);
			w->st.errors++;
		} else {
			server_echo(w, false, (const uint8_t *)&e, sizeof(e), slot, seq);
		}
		return;
	}
	w->st.recvs++;
	if (!check_msg(w, p, wc->byte_len, &h)) {
		w->st.errors++;
		return;
	}
	if ((wc->wc_flags & RTE_PMD_IRDMA_WC_WITH_IMM) &&
	    rte_be_to_cpu_32(wc->imm_data) != IMM_OF(h.seq)) {
		FAIL(w, "seq %u: immediate 0x%08x", h.seq, rte_be_to_cpu_32(wc->imm_data));
		w->st.errors++;
		return;
	}
	if ((wc->wc_flags & RTE_PMD_IRDMA_WC_WITH_INV) && wc->invalidated_rkey != w->me.inv_rkey) {
		FAIL(w, "seq %u: invalidated rkey 0x%x, expected 0x%x", h.seq,
		     wc->invalidated_rkey, w->me.inv_rkey);
		w->st.errors++;
		return;
	}
	if (h.magic == WP_MAGIC_SINK) {
		if (h.seq != w->st.sink_seq) {
			FAIL(w, "SEND seq %u arrived, expected %lu (lost or duplicated)", h.seq,
			     (unsigned long)w->st.sink_seq);
			w->st.errors++;
		}
		w->st.sink_seq = h.seq + 1;
		return;
	}
	server_echo(w, false, p, wc->byte_len, slot, h.seq);
}

static void server_ud_recv(struct wp *w, const struct rte_pmd_irdma_wc *wc, uint32_t slot)
{
	const uint8_t *g = w->buf + WP_UD_OFF + slot * WP_UD_SLOT;
	struct wp_hdr h;

	w->st.ud_recvs++;
	if (wc->src_qp != w->peer.ud_qpn || !(wc->wc_flags & RTE_PMD_IRDMA_WC_GRH) ||
	    wc->byte_len < 40) {
		FAIL(w, "UD: src_qp %u (expected %u), flags 0x%x, %u bytes", wc->src_qp,
		     w->peer.ud_qpn, wc->wc_flags, wc->byte_len);
		w->st.errors++;
		return;
	}
	/* GRH area: IPv4 (mapped GIDs): the IPv4 header in its last 20 bytes; IPv6: the
	 * IPv6 header itself */
	if (w->peer.gid[10] == 0xff && w->peer.gid[11] == 0xff ?
	    memcmp(g + 20 + 12, w->peer.gid + 12, 4) != 0 || memcmp(g + 20 + 16, w->me.gid + 12, 4) :
	    memcmp(g + 8, w->peer.gid, 16) != 0 || memcmp(g + 24, w->me.gid, 16) != 0) {
		FAIL(w, "UD: GRH area does not carry the peer's and our addresses");
		w->st.errors++;
		return;
	}
	if (!check_msg(w, g + 40, wc->byte_len - 40, &h)) {
		w->st.errors++;
		return;
	}
	server_echo(w, true, g + 40, wc->byte_len - 40, slot, h.seq);
}

int wp_server_step(struct wp *w)
{
	struct rte_pmd_irdma_wc wc[16];
	int n, i, work = 0;

	n = rte_pmd_irdma_poll_cq(w->rcq, wc, RTE_DIM(wc));
	for (i = 0; i < n; i++) {
		uint32_t slot = wc[i].wr_id & 0xffff;
		bool ud = (wc[i].wr_id & KIND_UD) != 0;

		if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
			FAIL(w, "receive completion %s", rte_pmd_irdma_wc_status_str(wc[i].status));
			w->st.errors++;
			continue;
		}
		if (ud)
			server_ud_recv(w, &wc[i], slot);
		else
			server_rc_recv(w, &wc[i], slot);
		post_recv_slot(w, ud, slot);
	}
	work += n > 0 ? n : 0;
	n = rte_pmd_irdma_poll_cq(w->scq, wc, RTE_DIM(wc));
	for (i = 0; i < n; i++)
		if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
			FAIL(w, "echo completion %s", rte_pmd_irdma_wc_status_str(wc[i].status));
			w->st.errors++;
		}
	work += n > 0 ? n : 0;
	if (n < 0)
		w->st.errors++;
	return work;
}

/* ---- client ---- */

static int wait_wc(struct wp *w, struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc,
		   const char *what)
{
	uint64_t deadline = rte_get_timer_cycles() + w->timeout_s * rte_get_timer_hz();
	int n;

	for (;;) {
		n = rte_pmd_irdma_poll_cq(cq, wc, 1);
		if (n == 1)
			break;
		if (n < 0) {
			FAIL(w, "%s: poll_cq %d", what, n);
			return -1;
		}
		if (w->pump)
			w->pump(w->pump_arg);
		if (rte_get_timer_cycles() > deadline) {
			FAIL(w, "%s: no completion in %u s", what, w->timeout_s);
			return -1;
		}
	}
	if (wc->status != RTE_PMD_IRDMA_WC_SUCCESS) {
		FAIL(w, "%s: completion %s (vendor 0x%x)", what,
		     rte_pmd_irdma_wc_status_str(wc->status), wc->vendor_err);
		return -1;
	}
	return 0;
}

static uint32_t make_msg(struct wp *w, uint8_t *p, uint32_t len, uint32_t magic)
{
	struct wp_hdr h = { magic, w->seq++, len, 0 };

	h.seed = SEED(h.seq);
	memcpy(p, &h, sizeof(h));
	wp_fill(p + sizeof(h), len - sizeof(h), h.seed);
	return h.seq;
}

static int wait_echo(struct wp *w, bool ud, uint32_t seq, const uint8_t *sent, uint32_t len)
{
	struct rte_pmd_irdma_wc wc;
	uint32_t slot;
	const uint8_t *p;

	if (wait_wc(w, w->rcq, &wc, ud ? "UD echo" : "echo"))
		return -1;
	slot = wc.wr_id & 0xffff;
	if (((wc.wr_id & KIND_UD) != 0) != ud || !(wc.wc_flags & RTE_PMD_IRDMA_WC_WITH_IMM) ||
	    rte_be_to_cpu_32(wc.imm_data) != seq || wc.byte_len != len + (ud ? 40u : 0u)) {
		FAIL(w, "echo of seq %u: wr_id 0x%lx, imm 0x%x, %u bytes", seq,
		     (unsigned long)wc.wr_id, rte_be_to_cpu_32(wc.imm_data), wc.byte_len);
		return -1;
	}
	p = ud ? w->buf + WP_UD_OFF + slot * WP_UD_SLOT + 40 : w->buf + WP_RECV_OFF + slot * WP_RECV_SLOT;
	if (sent != NULL && memcmp(p, sent, len) != 0) {
		FAIL(w, "echo of seq %u: data differs from what was sent", seq);
		return -1;
	}
	return post_recv_slot(w, ud, slot);
}

int wp_send(struct wp *w, int opcode, uint32_t len)
{
	uint8_t *src = w->buf + WP_SRC_OFF;
	struct rte_pmd_irdma_sge s = { lkey_addr(w, WP_SRC_OFF), len, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	uint32_t seq = make_msg(w, src, len, WP_MAGIC_ECHO);

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = seq;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.opcode = opcode;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	if (opcode == RTE_PMD_IRDMA_WR_SEND_WITH_IMM)
		wr.imm_data = rte_cpu_to_be_32(IMM_OF(seq));
	else if (opcode == RTE_PMD_IRDMA_WR_SEND_WITH_INV)
		wr.invalidate_rkey = w->peer.inv_rkey;
	if (post_send1(w, w->rc, &wr) || wait_wc(w, w->scq, &wc, "SEND"))
		return -1;
	if (wc.opcode != RTE_PMD_IRDMA_WC_SEND || wc.wr_id != seq) {
		FAIL(w, "SEND completion: opcode %d wr_id %lu", wc.opcode, (unsigned long)wc.wr_id);
		return -1;
	}
	return wait_echo(w, false, seq, src, len);
}

int wp_write_read(struct wp *w, uint32_t len, uint32_t off)
{
	struct rte_pmd_irdma_sge s = { lkey_addr(w, WP_SRC_OFF), len, w->mr->lkey };
	struct rte_pmd_irdma_sge d = { lkey_addr(w, WP_DST_OFF), len, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	uint32_t seq = w->seq++;

	wp_fill(w->buf + WP_SRC_OFF, len, SEED(seq));
	memset(w->buf + WP_DST_OFF, 0xEE, len);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = seq;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = w->peer.addr + WP_WRITE_OFF + off;
	wr.wr.rdma.rkey = w->peer.rkey;
	if (post_send1(w, w->rc, &wr) || wait_wc(w, w->scq, &wc, "WRITE"))
		return -1;
	if (wc.opcode != RTE_PMD_IRDMA_WC_RDMA_WRITE) {
		FAIL(w, "WRITE completion opcode %d", wc.opcode);
		return -1;
	}
	wr.sg_list = &d;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
	if (post_send1(w, w->rc, &wr) || wait_wc(w, w->scq, &wc, "READ"))
		return -1;
	if (wc.opcode != RTE_PMD_IRDMA_WC_RDMA_READ || wc.byte_len != len) {
		FAIL(w, "READ completion opcode %d, %u bytes", wc.opcode, wc.byte_len);
		return -1;
	}
	if (!pattern_ok(w->buf + WP_DST_OFF, len, SEED(seq))) {
		FAIL(w, "READ of %u bytes at +%u: data differs from what was written", len, off);
		return -1;
	}
	return 0;
}

int wp_write_imm(struct wp *w, uint32_t len)
{
	struct rte_pmd_irdma_sge s = { lkey_addr(w, WP_SRC_OFF), len, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	uint32_t seq = w->seq++;

	wp_fill(w->buf + WP_SRC_OFF, len, SEED(seq));
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = seq;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.imm_data = rte_cpu_to_be_32(seq);
	wr.wr.rdma.remote_addr = w->peer.addr + WP_WRITE_OFF;
	wr.wr.rdma.rkey = w->peer.rkey;
	if (post_send1(w, w->rc, &wr) || wait_wc(w, w->scq, &wc, "WRITE_WITH_IMM"))
		return -1;
	/* the server checked the bytes before it answered */
	return wait_echo(w, false, seq, NULL, 16);
}

static int atomic1(struct wp *w, int opcode, uint64_t cmp_add, uint64_t swap, uint64_t *orig)
{
	struct rte_pmd_irdma_sge d = { lkey_addr(w, WP_DST_OFF), 8, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = w->seq++;
	wr.sg_list = &d;
	wr.num_sge = 1;
	wr.opcode = opcode;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.atomic.remote_addr = w->peer.addr + WP_ATOMIC_OFF;
	wr.wr.atomic.rkey = w->peer.rkey;
	wr.wr.atomic.compare_add = cmp_add;
	wr.wr.atomic.swap = swap;
	memset(w->buf + WP_DST_OFF, 0xEE, 8);
	if (post_send1(w, w->rc, &wr) || wait_wc(w, w->scq, &wc, "atomic"))
		return -1;
	memcpy(orig, w->buf + WP_DST_OFF, 8);
	return 0;
}

int wp_atomics(struct wp *w)
{
	uint64_t orig, back;
	struct rte_pmd_irdma_sge d = { lkey_addr(w, WP_DST_OFF + 64), 8, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	const uint64_t swap = 0x1122334455667788ull;

	if (atomic1(w, RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD, 5, 0, &orig))
		return -1;
	if (orig != w->model_counter) {
		FAIL(w, "FETCH_ADD returned 0x%lx, expected 0x%lx", (unsigned long)orig,
		     (unsigned long)w->model_counter);
		return -1;
	}
	w->model_counter += 5;
	if (atomic1(w, RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP, w->model_counter, swap, &orig) ||
	    orig != w->model_counter) {
		FAIL(w, "CMP_SWP (match) returned 0x%lx", (unsigned long)orig);
		return -1;
	}
	w->model_counter = swap;
	if (atomic1(w, RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP, 7, 99, &orig) || orig != swap) {
		FAIL(w, "CMP_SWP (no match) returned 0x%lx", (unsigned long)orig);
		return -1;
	}
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = w->seq++;
	wr.sg_list = &d;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = w->peer.addr + WP_ATOMIC_OFF;
	wr.wr.rdma.rkey = w->peer.rkey;
	if (post_send1(w, w->rc, &wr) || wait_wc(w, w->scq, &wc, "READ of the counter"))
		return -1;
	memcpy(&back, w->buf + WP_DST_OFF + 64, 8);
	if (back != swap) {
		FAIL(w, "counter reads 0x%lx after the atomics, expected 0x%lx",
		     (unsigned long)back, (unsigned long)swap);
		return -1;
	}
	return 0;
}

int wp_ud_send(struct wp *w, uint32_t len)
{
	uint8_t *src = w->buf + WP_SRC_OFF;
	struct rte_pmd_irdma_sge s = { lkey_addr(w, WP_SRC_OFF), len, w->mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc;
	uint32_t seq = make_msg(w, src, len, WP_MAGIC_ECHO);

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = seq;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_SEND;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.ud.ah = w->ah;
	wr.wr.ud.remote_qpn = w->peer.ud_qpn;
	wr.wr.ud.remote_qkey = WP_UD_QKEY;
	if (post_send1(w, w->ud, &wr) || wait_wc(w, w->scq, &wc, "UD SEND"))
		return -1;
	return wait_echo(w, true, seq, src, len);
}

int wp_all_ops(struct wp *w)
{
	static const uint32_t sizes[] = { 16, 17, 1023, 1024, 1025, 4096, 9000, 65536 };
	static const uint32_t rw_sizes[] = { 1, 63, 1024, 1025, 4097, 65536, 1u << 20 };
	static const uint32_t ud_sizes[] = { 16, 100, 1000, 1024 };
	int fails = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		fails += wp_send(w, RTE_PMD_IRDMA_WR_SEND, sizes[i]) != 0;
		fails += wp_send(w, RTE_PMD_IRDMA_WR_SEND_WITH_IMM, sizes[i]) != 0;
	}
	fails += wp_send(w, RTE_PMD_IRDMA_WR_SEND_WITH_INV, 100) != 0;
	for (i = 0; i < RTE_DIM(rw_sizes); i++) {
		fails += wp_write_read(w, rw_sizes[i], i * 8) != 0;
		if (rw_sizes[i] <= 65536)
			fails += wp_write_imm(w, rw_sizes[i]) != 0;
	}
	if (w->gen >= 3)
		fails += wp_atomics(w) != 0;
	for (i = 0; i < RTE_DIM(ud_sizes); i++)
		fails += wp_ud_send(w, ud_sizes[i]) != 0;
	return fails;
}

/* ---- the lossy test: a window of mixed operations ---- */

enum mixed_op { MX_SEND, MX_WRITE, MX_READ, MX_FADD, MX_NUM };

struct mixed_slot {
	uint32_t seed, len;       /* what the remote slot holds after the last WRITE */
	uint32_t reads;           /* READs of it outstanding */
};

struct mixed_wr {
	uint8_t op;
	uint32_t slot;            /* remote 4 KiB slot (WRITE/READ) */
	uint32_t dst;             /* local landing offset (READ/FADD) */
	uint32_t seed, len;
	uint64_t expect;          /* FADD: the original value */
};

int wp_mixed(struct wp *w, unsigned int n, unsigned int window)
{
	struct mixed_slot slots[256];
	struct mixed_wr *ops = calloc(n, sizeof(*ops));
	uint8_t *done = calloc(n, 1);
	unsigned int posted = 0, completed = 0, i, fails = 0, nops = w->gen >= 3 ? MX_NUM : MX_FADD;
	uint64_t fadds = 0, deadline;
	uint32_t rng = 12345;
	struct rte_pmd_irdma_wc wc[16];

	if (ops == NULL || done == NULL)
		return 1;
	memset(slots, 0, sizeof(slots));
	deadline = rte_get_timer_cycles() + (uint64_t)w->timeout_s * 10 * rte_get_timer_hz();
	while (completed < n) {
		while (posted < n && posted - completed < window) {
			struct mixed_wr *m = &ops[posted];
			uint32_t lslot = (posted % 256) * 4096;
			struct rte_pmd_irdma_sge s = { 0, 0, w->mr->lkey };
			struct rte_pmd_irdma_send_wr wr;

			rng = rng * 1103515245u + 12345u;
			m->op = (rng >> 16) % nops;
			m->slot = (rng >> 8) % 256;
			if (m->op == MX_READ && slots[m->slot].len == 0)
				m->op = MX_WRITE;
			memset(&wr, 0, sizeof(wr));
			wr.wr_id = posted;
			wr.sg_list = &s;
			wr.num_sge = 1;
			wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
			switch (m->op) {
			case MX_SEND:
				m->len = 16 + (rng >> 4) % 3000;
				s.addr = lkey_addr(w, WP_SRC_OFF + lslot);
				s.length = m->len;
				{
					struct wp_hdr h = { WP_MAGIC_SINK, (uint32_t)w->st.sink_sent++,
							    m->len, rng };

					memcpy(w->buf + WP_SRC_OFF + lslot, &h, sizeof(h));
					wp_fill(w->buf + WP_SRC_OFF + lslot + sizeof(h),
						m->len - sizeof(h), rng);
				}
				wr.opcode = RTE_PMD_IRDMA_WR_SEND;
				break;
			case MX_WRITE:
				m->len = 1 + (rng >> 4) % 4096;
				m->seed = rng;
				slots[m->slot].len = m->len;
				slots[m->slot].seed = m->seed;
				wp_fill(w->buf + WP_SRC_OFF + lslot, m->len, m->seed);
				s.addr = lkey_addr(w, WP_SRC_OFF + lslot);
				s.length = m->len;
				wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
				/* A READ retried after a lost response runs again at the
				 * responder and would see this WRITE (IBA's READ/WRITE hazard):
				 * fence behind outstanding READs of the slot, as verbs users do. */
				if (slots[m->slot].reads)
					wr.send_flags |= RTE_PMD_IRDMA_SEND_FENCE;
				wr.wr.rdma.remote_addr = w->peer.addr + WP_WRITE_OFF + m->slot * 4096;
				wr.wr.rdma.rkey = w->peer.rkey;
				break;
			case MX_READ:
				m->len = slots[m->slot].len;
				m->seed = slots[m->slot].seed;
				m->dst = WP_DST_OFF + (posted % 256) * 4096;
				slots[m->slot].reads++;
				memset(w->buf + m->dst, 0xEE, m->len);
				s.addr = lkey_addr(w, m->dst);
				s.length = m->len;
				wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
				wr.wr.rdma.remote_addr = w->peer.addr + WP_WRITE_OFF + m->slot * 4096;
				wr.wr.rdma.rkey = w->peer.rkey;
				break;
			default: /* MX_FADD on counter 1 */
				m->expect = fadds++;
				m->dst = WP_DST_OFF + (posted % 256) * 4096;
				s.addr = lkey_addr(w, m->dst);
				s.length = 8;
				wr.opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
				wr.wr.atomic.remote_addr = w->peer.addr + WP_ATOMIC_OFF + 8;
				wr.wr.atomic.rkey = w->peer.rkey;
				wr.wr.atomic.compare_add = 1;
				break;
			}
			if (post_send1(w, w->rc, &wr))
				goto out;
			posted++;
		}
		{
			int r = rte_pmd_irdma_poll_cq(w->scq, wc, RTE_DIM(wc));

			if (r < 0) {
				FAIL(w, "poll_cq: %d", r);
				goto out;
			}
			if (r == 0 && w->pump)
				w->pump(w->pump_arg);
			for (i = 0; i < (unsigned int)r; i++) {
				uint64_t id = wc[i].wr_id;
				struct mixed_wr *m;

				if (id >= n || done[id]) {
					FAIL(w, "completion for wr_id %lu %s", (unsigned long)id,
					     id >= n ? "never posted" : "a second time");
					fails++;
					continue;
				}
				done[id] = 1;
				completed++;
				m = &ops[id];
				if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
					FAIL(w, "op %lu (type %u): %s", (unsigned long)id, m->op,
					     rte_pmd_irdma_wc_status_str(wc[i].status));
					fails++;
					goto out;
				}
				if (m->op == MX_READ)
					slots[m->slot].reads--;
				if (m->op == MX_READ &&
				    !pattern_ok(w->buf + m->dst, m->len, m->seed)) {
					FAIL(w, "READ %lu of slot %u: wrong data", (unsigned long)id,
					     m->slot);
					fails++;
				}
				if (m->op == MX_FADD) {
					uint64_t v;

					memcpy(&v, w->buf + m->dst, 8);
					if (v != m->expect) {
						FAIL(w, "FETCH_ADD %lu returned %lu, expected %lu",
						     (unsigned long)id, (unsigned long)v,
						     (unsigned long)m->expect);
						fails++;
					}
				}
			}
		}
		if (rte_get_timer_cycles() > deadline) {
			FAIL(w, "%u of %u operations completed in time", completed, n);
			fails++;
			break;
		}
	}
out:
	for (i = 0; i < n; i++)
		if (i < posted && !done[i])
			fails++;
	free(ops);
	free(done);
	return (int)fails + (int)(n - posted);
}

/* ---- counters ---- */

static uint64_t xstat_of(int cnt, struct rte_pmd_irdma_xstat_name *names,
			 struct rte_pmd_irdma_xstat *vals, const char *name)
{
	int i;

	for (i = 0; i < cnt; i++)
		if (strcmp(names[vals[i].id].name, name) == 0)
			return vals[i].value;
	return UINT64_MAX;
}

uint64_t wp_xstat(struct rte_pmd_irdma_dev *dev, const char *name)
{
	struct rte_pmd_irdma_xstat_name names[256];
	struct rte_pmd_irdma_xstat vals[256];
	int n = rte_pmd_irdma_xstats_get_names(dev, names, RTE_DIM(names));

	if (n <= 0 || n > (int)RTE_DIM(names) || rte_pmd_irdma_xstats_get(dev, vals, n) != n)
		return UINT64_MAX;
	return xstat_of(n, names, vals, name);
}

uint64_t wp_qp_xstat(struct rte_pmd_irdma_qp *qp, const char *name)
{
	struct rte_pmd_irdma_xstat_name names[256];
	struct rte_pmd_irdma_xstat vals[256];
	int n = rte_pmd_irdma_qp_xstats_get_names(qp, names, RTE_DIM(names));

	if (n <= 0 || n > (int)RTE_DIM(names) || rte_pmd_irdma_qp_xstats_get(qp, vals, n) != n)
		return UINT64_MAX;
	return xstat_of(n, names, vals, name);
}

/* ---- two processes ---- */

int wp_xfer(int fd, void *buf, size_t len, bool wr)
{
	size_t off = 0;

	while (off < len) {
		ssize_t r = wr ? write(fd, (char *)buf + off, len - off) :
				 read(fd, (char *)buf + off, len - off);

		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)r;
	}
	return 0;
}

int wp_wait_link(const char *port, unsigned int secs)
{
	struct rte_eth_link link;
	uint64_t end = rte_get_timer_cycles() + secs * rte_get_timer_hz();
	uint16_t pid;

	if (rte_eth_dev_get_port_by_name(port, &pid) != 0)
		return -1;
	do {
		if (rte_eth_link_get_nowait(pid, &link) == 0 && link.link_status)
			return 0;
		usleep(10000);
	} while (rte_get_timer_cycles() < end);
	printf("# %s: link still down after %u s\n", port, secs);
	return -1;
}
