/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soak's many-QP phase (soak_mqp.h). Each side has its own CQs, buffer and MR for the
 * phase; the buffer holds one region per QP:
 *   client: SMQ_W source slots, then SMQ_W slots where READs and FETCH_ADDs land;
 *   server: SMQ_SLOTS slots the client WRITEs and READs, then SMQ_RECVS receive slots;
 * and after the regions one FETCH_ADD counter per QP (server). An operation's slot on the
 * client is its index modulo the window: RC completes a QP's work requests in order, so the
 * slot is free again when its completion was taken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "tool_qp.h"

#include "soak_mqp.h"

#define SMQ_W      4u            /* most operations outstanding per QP */
#define SMQ_SLOT   8192u         /* the largest operation */
#define SMQ_SLOTS  4u            /* server slots per QP that WRITEs and READs target */
#define SMQ_RECVS  16u           /* receives posted per server QP */
#define SMQ_REGION ((SMQ_SLOTS + SMQ_RECVS) * SMQ_SLOT)
#define SMQ_MAGIC  0x534f414bu   /* "SOAK" */
#define SMQ_SECS   60u           /* no progress for this long: the phase failed */

#define ACCESS_ALL                                                                         \
	(RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE | RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |            \
	 RTE_PMD_IRDMA_ACCESS_REMOTE_READ | RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC)

enum { OP_SEND, OP_WRITE, OP_READ, OP_FADD, OP_NUM };

struct smq_hdr { /* at the start of each SEND */
	uint32_t magic, qp, seq, len, seed;
};

struct smq_side {
	struct wp *w;
	struct rte_pmd_irdma_cq *scq, *rcq;
	struct rte_pmd_irdma_qp *qp[SMQ_MAX_QPS];
	uint8_t *buf;
	struct rte_pmd_irdma_mr *mr;
	size_t len;
};

struct smq_op {
	uint8_t op;
	uint8_t slot;      /* server slot (WRITE, READ) */
	uint32_t len, seed;
	uint64_t expect;   /* FETCH_ADD: the counter before it */
};

struct smq_qp {
	unsigned int n, posted, completed;
	uint32_t rng, sends, seen; /* SENDs posted; in order at the server */
	uint64_t fadds;
	struct smq_op op[SMQ_W];
	struct { uint32_t len, seed, reads; } slot[SMQ_SLOTS];
};

struct smq {
	struct smq_side c, s;
	unsigned int nqp, window;
	struct smq_qp q[SMQ_MAX_QPS];
	struct smq_result *out;
	void (*pump)(void *);
};

static void smq_fail(struct smq *m, const char *what, unsigned int q, unsigned int k)
{
	printf("# many-QP phase: QP %u operation %u: %s\n", q, k, what);
	m->out->fails++;
}

/* Checks len bytes against their pattern and adds their hash to the phase's checksum. */
static bool smq_check(struct smq *m, const uint8_t *b, uint32_t len, uint32_t seed)
{
	uint8_t expect[SMQ_SLOT];
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a of the buffer */
	uint32_t i;

	wp_fill(expect, len, seed);
	if (memcmp(b, expect, len) != 0)
		return false;
	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	m->out->checksum += h; /* a sum: the order the checks ran in does not matter */
	m->out->bytes += len;
	return true;
}

static int side_open(struct smq_side *s, struct wp *w, unsigned int nqp)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 2048, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa;
	unsigned int i;

	s->w = w;
	s->len = (size_t)nqp * SMQ_REGION + SMQ_MAX_QPS * 8;
	s->scq = rte_pmd_irdma_cq_create(w->dev, &ca);
	s->rcq = rte_pmd_irdma_cq_create(w->dev, &ca);
	s->buf = rte_zmalloc(NULL, s->len, 4096);
	if (s->scq == NULL || s->rcq == NULL || s->buf == NULL)
		goto fail;
	s->mr = rte_pmd_irdma_reg_mr(w->pd, s->buf, s->len, ACCESS_ALL);
	if (s->mr == NULL)
		goto fail;
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = s->scq;
	qa.recv_cq = s->rcq;
	qa.cap.max_send_wr = 16;
	qa.cap.max_recv_wr = SMQ_RECVS;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	for (i = 0; i < nqp; i++) {
		s->qp[i] = rte_pmd_irdma_qp_create(w->pd, &qa);
		if (s->qp[i] == NULL)
			goto fail;
	}
	return 0;
fail:
	printf("# many-QP phase: %s: objects for %u QPs: %s\n", w->role, nqp,
	       rte_strerror(rte_errno));
	return -1;
}

static void side_close(struct smq_side *s, struct smq_result *out)
{
	unsigned int i;

	for (i = 0; i < SMQ_MAX_QPS; i++) {
		if (s->qp[i] == NULL)
			continue;
		out->retransmits += wp_qp_xstat(s->qp[i], "retransmits");
		rte_pmd_irdma_qp_destroy(s->qp[i]);
	}
	if (s->mr != NULL)
		rte_pmd_irdma_dereg_mr(s->mr);
	if (s->scq != NULL)
		rte_pmd_irdma_cq_destroy(s->scq);
	if (s->rcq != NULL)
		rte_pmd_irdma_cq_destroy(s->rcq);
	rte_free(s->buf);
	memset(s, 0, sizeof(*s));
}

static int connect_qp(struct rte_pmd_irdma_qp *qp, const struct rte_pmd_irdma_qp *peer,
		      const struct wp *w)
{
	struct tool_qp_conn c;
	char err[160];

	tool_qp_conn_init(&c);
	c.access = ACCESS_ALL & ~RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE;
	c.dest_qpn = peer->qp_num;
	c.rq_psn = 0xffff00;
	c.sq_psn = 0xffff00; /* wraps during the phase */
	c.max_dest_rd_atomic = 8;
	c.max_rd_atomic = 8;
	c.min_rnr_timer = 1;
	c.sgid_index = 1;
	memcpy(c.dgid, w->peer.gid, 16);
	/* 16.8 ms: one lcore serves every QP of the phase, so an ACK waits for all of them;
	 * at 1 ms an ASan build on a slower machine timed out ACKs that were on their way,
	 * and those resends, with the 3% loss injected, ran out of the 7 retries (RETRY_EXC_ERR
	 * on every run there). Loss is still recovered by the timer, only later. */
	c.timeout = 12;
	c.retry_cnt = 7;
	if (tool_qp_connect(qp, &c, err, sizeof(err)) == 0)
		return 0;
	printf("# many-QP phase: %s: %s\n", w->role, err);
	return -1;
}

static int post_recv(struct smq *m, unsigned int q, unsigned int r)
{
	struct rte_pmd_irdma_sge s = {
		(uintptr_t)(m->s.buf + (size_t)q * SMQ_REGION + (SMQ_SLOTS + r) * SMQ_SLOT),
		SMQ_SLOT, m->s.mr->lkey,
	};
	struct rte_pmd_irdma_recv_wr wr = { .wr_id = (uint64_t)q << 16 | r, .sg_list = &s,
					    .num_sge = 1 };
	int err = 0;

	if (rte_pmd_irdma_post_recv(m->s.qp[q], &wr, 1, &err) != 1) {
		printf("# many-QP phase: post_recv QP %u: %d\n", q, err);
		return -1;
	}
	return 0;
}

/* The server: checks each SEND (its QP, in order, the pattern) and posts the slot again. */
static void server_step(struct smq *m)
{
	struct rte_pmd_irdma_wc wc[32];
	int n, i;

	n = rte_pmd_irdma_poll_cq(m->s.rcq, wc, RTE_DIM(wc));
	if (n < 0)
		smq_fail(m, "server poll_cq failed", 0, 0);
	for (i = 0; i < n; i++) {
		unsigned int q = (unsigned int)(wc[i].wr_id >> 16), r = wc[i].wr_id & 0xffff;
		const uint8_t *p = m->s.buf + (size_t)q * SMQ_REGION + (SMQ_SLOTS + r) * SMQ_SLOT;
		struct smq_hdr h;

		if (q >= m->nqp || r >= SMQ_RECVS || wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
			smq_fail(m, rte_pmd_irdma_wc_status_str(wc[i].status), q, r);
			continue;
		}
		memcpy(&h, p, sizeof(h));
		if (wc[i].byte_len < sizeof(h) || h.magic != SMQ_MAGIC || h.qp != q ||
		    h.len != wc[i].byte_len)
			smq_fail(m, "SEND with a wrong header", q, r);
		else if (h.seq != m->q[q].seen)
			smq_fail(m, "SEND out of order (lost or twice)", q, h.seq);
		else if (!smq_check(m, p + sizeof(h), h.len - sizeof(h), h.seed))
			smq_fail(m, "SEND payload differs", q, h.seq);
		m->q[q].seen = h.seq + 1;
		post_recv(m, q, r);
	}
}

static int post_one(struct smq *m, unsigned int q)
{
	struct smq_qp *s = &m->q[q];
	unsigned int k = s->posted, w = k % SMQ_W;
	struct smq_op *o = &s->op[w];
	uint8_t *src = m->c.buf + (size_t)q * SMQ_REGION + w * SMQ_SLOT;
	uint8_t *dst = src + SMQ_W * SMQ_SLOT;
	uint64_t sbase = (uintptr_t)m->s.buf + (size_t)q * SMQ_REGION;
	struct rte_pmd_irdma_sge sg = { (uintptr_t)src, 0, m->c.mr->lkey };
	struct rte_pmd_irdma_send_wr wr;
	int err = 0;

	s->rng = s->rng * 1103515245u + 12345u;
	o->op = (uint8_t)((s->rng >> 16) % OP_NUM);
	o->slot = (uint8_t)((s->rng >> 8) % SMQ_SLOTS);
	o->seed = s->rng ^ (q << 24) ^ k;
	if (o->op == OP_READ && s->slot[o->slot].len == 0)
		o->op = OP_WRITE;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uint64_t)q << 32 | k;
	wr.sg_list = &sg;
	wr.num_sge = 1;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	switch (o->op) {
	case OP_SEND: {
		struct smq_hdr h = { SMQ_MAGIC, q, s->sends++, 0, o->seed };

		/* small and large alike: 1 B .. 8 KiB of payload after the header */
		h.len = o->len = sizeof(h) + 1 + (s->rng >> 3) % (SMQ_SLOT - sizeof(h));
		memcpy(src, &h, sizeof(h));
		wp_fill(src + sizeof(h), o->len - sizeof(h), o->seed);
		sg.length = o->len;
		wr.opcode = RTE_PMD_IRDMA_WR_SEND;
		break;
	}
	case OP_WRITE:
		o->len = 1 + (s->rng >> 3) % SMQ_SLOT;
		wp_fill(src, o->len, o->seed);
		s->slot[o->slot].len = o->len;
		s->slot[o->slot].seed = o->seed;
		/* a READ of the slot retried after a lost response would see this WRITE */
		if (s->slot[o->slot].reads)
			wr.send_flags |= RTE_PMD_IRDMA_SEND_FENCE;
		sg.length = o->len;
		wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = sbase + o->slot * SMQ_SLOT;
		wr.wr.rdma.rkey = m->s.mr->rkey;
		break;
	case OP_READ:
		o->len = s->slot[o->slot].len;
		o->seed = s->slot[o->slot].seed;
		s->slot[o->slot].reads++;
		memset(dst, 0xEE, o->len);
		sg.addr = (uintptr_t)dst;
		sg.length = o->len;
		wr.opcode = RTE_PMD_IRDMA_WR_RDMA_READ;
		wr.wr.rdma.remote_addr = sbase + o->slot * SMQ_SLOT;
		wr.wr.rdma.rkey = m->s.mr->rkey;
		break;
	default:
		o->len = 8;
		o->expect = s->fadds++;
		sg.addr = (uintptr_t)dst;
		sg.length = 8;
		wr.opcode = RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD;
		wr.wr.atomic.remote_addr = (uintptr_t)m->s.buf + (size_t)m->nqp * SMQ_REGION + q * 8;
		wr.wr.atomic.rkey = m->s.mr->rkey;
		wr.wr.atomic.compare_add = 1;
		break;
	}
	if (rte_pmd_irdma_post_send(m->c.qp[q], &wr, 1, &err) != 1) {
		printf("# many-QP phase: post_send QP %u opcode %d: %d\n", q, wr.opcode, err);
		return -1;
	}
	s->posted++;
	return 0;
}

/* A completion of the client: the next one of its QP, exactly once, checked. */
static void client_wc(struct smq *m, const struct rte_pmd_irdma_wc *wc)
{
	unsigned int q = (unsigned int)(wc->wr_id >> 32), k = (uint32_t)wc->wr_id;
	struct smq_qp *s;
	struct smq_op *o;
	const uint8_t *dst;

	if (q >= m->nqp || k != m->q[q].completed) {
		smq_fail(m, "completion out of order, never posted or twice", q, k);
		return;
	}
	s = &m->q[q];
	s->completed++;
	m->out->ops++;
	o = &s->op[k % SMQ_W];
	dst = m->c.buf + (size_t)q * SMQ_REGION + (SMQ_W + k % SMQ_W) * SMQ_SLOT;
	if (wc->status != RTE_PMD_IRDMA_WC_SUCCESS) {
		smq_fail(m, rte_pmd_irdma_wc_status_str(wc->status), q, k);
		return;
	}
	if (o->op == OP_READ) {
		s->slot[o->slot].reads--;
		if (!smq_check(m, dst, o->len, o->seed))
			smq_fail(m, "READ returned other bytes than the WRITE put there", q, k);
	} else if (o->op == OP_FADD) {
		uint64_t v;

		memcpy(&v, dst, 8);
		if (v != o->expect)
			smq_fail(m, "FETCH_ADD returned a wrong value (run twice or lost)", q, k);
	}
}

static void smq_pump(struct smq *m)
{
	m->pump(NULL);
	server_step(m);
}

static bool all_sends_seen(const struct smq *m)
{
	unsigned int q;

	for (q = 0; q < m->nqp; q++)
		if (m->q[q].seen != m->q[q].sends)
			return false;
	return true;
}

static void smq_drive(struct smq *m, unsigned int total)
{
	struct rte_pmd_irdma_wc wc[32];
	uint64_t idle_since = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	unsigned int done = 0, q;
	int n, i;

	while (done < total || !all_sends_seen(m)) {
		for (q = 0; q < m->nqp; q++)
			while (m->q[q].posted < m->q[q].n &&
			       m->q[q].posted - m->q[q].completed < m->window)
				if (post_one(m, q) != 0) {
					m->out->fails++;
					return;
				}
		n = rte_pmd_irdma_poll_cq(m->c.scq, wc, RTE_DIM(wc));
		if (n < 0) {
			smq_fail(m, "client poll_cq failed", 0, 0);
			return;
		}
		for (i = 0; i < n; i++)
			client_wc(m, &wc[i]);
		done += (unsigned int)n;
		if (n > 0) {
			idle_since = rte_get_timer_cycles();
		} else if (rte_get_timer_cycles() - idle_since > SMQ_SECS * hz) {
			printf("# many-QP phase: nothing completed for %u s (%u of %u done)\n",
			       SMQ_SECS, done, total);
			m->out->fails++;
			return;
		}
		smq_pump(m);
		if (m->out->fails != 0)
			return;
	}
}

int smq_run(struct wp *cli, struct wp *srv, unsigned int nqp, unsigned int ops,
	    unsigned int window, void (*pump)(void *), struct smq_result *out)
{
	struct smq *m = calloc(1, sizeof(*m));
	unsigned int q, r;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (m == NULL || nqp == 0 || nqp > SMQ_MAX_QPS)
		goto done;
	m->nqp = nqp;
	m->window = window == 0 || window > SMQ_W ? SMQ_W : window;
	m->out = out;
	m->pump = pump;
	if (side_open(&m->c, cli, nqp) || side_open(&m->s, srv, nqp))
		goto close;
	for (q = 0; q < nqp; q++) {
		if (connect_qp(m->c.qp[q], m->s.qp[q], cli) ||
		    connect_qp(m->s.qp[q], m->c.qp[q], srv))
			goto close;
		for (r = 0; r < SMQ_RECVS; r++)
			if (post_recv(m, q, r))
				goto close;
		m->q[q].n = ops / nqp + (q < ops % nqp);
		m->q[q].rng = 0x9e3779b9u * (q + 1);
	}
	out->last_qpn = m->c.qp[nqp - 1]->qp_num;
	rc = 0;
	smq_drive(m, ops);
close:
	side_close(&m->c, out);
	side_close(&m->s, out);
done:
	free(m);
	return rc;
}
