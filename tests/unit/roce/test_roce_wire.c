/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two RC endpoints, each a requester and a responder at once, joined by an in-memory
 * wire that drops, duplicates, reorders and corrupts frames from a seeded generator.
 * Every operation (SEND, SEND with immediate, WRITE, WRITE with immediate, READ,
 * CMP_SWAP, FETCH_ADD; 0 bytes to several MTUs) must complete exactly once, in order,
 * successfully, with the right data and atomic results; corrupted frames must never be
 * accepted. Time is injected: idle periods jump to the next timer deadline.
 */
#include "irdma_test.h"
#include "roce_ep.h"

struct wire_conf {
	uint32_t seed;
	uint32_t mtu;
	uint32_t nops;          /* per direction */
	uint32_t drop_ppm, dup_ppm, reorder_ppm, corrupt_ppm;
	int retry_forever; /* rxe's retry_cnt 7 = infinite, for very lossy wires */
};

struct op {
	uint8_t kind;
	uint32_t len;
	uint32_t off;     /* in the peer's memory (WRITE/READ/atomics) */
	uint64_t orig;    /* atomics: expected original value */
	uint64_t final;   /* atomics: expected value afterwards */
	uint32_t seed;
};

struct side {
	struct ep *e, *peer;
	struct op *ops;
	uint32_t nrecv_ops; /* ops that consume a receive WQE at the peer */
	/* wire towards the peer */
	struct ep_frame held;
	int have_held;
};

static struct ep EA, EB;
static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static int chance(uint32_t ppm)
{
	return rnd() % 1000000u < ppm;
}

static void pattern(uint8_t *b, uint32_t n, uint32_t seed)
{
	uint32_t i, x = seed * 2654435761u + 1;

	for (i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (uint8_t)(x >> 16);
	}
}

static unsigned long corrupt_sent, corrupt_accepted_masked, frames_sent;

/* Hands a frame to the peer, or not: the faults of the wire. */
static void wire_deliver(struct side *s, const struct wire_conf *wc, struct ep_frame *f,
			 uint64_t now)
{
	static struct ep_frame tmp;
	int copies = 1 + chance(wc->dup_ppm), i;

	frames_sent++;
	if (chance(wc->drop_ppm))
		return;
	if (chance(wc->reorder_ppm) && !s->have_held) {
		s->held = *f;
		s->have_held = 1;
		return;
	}
	for (i = 0; i < copies; i++) {
		if (chance(wc->corrupt_ppm)) {
			uint32_t at = 14 + rnd() % (f->len - 14);
			enum roce_reason rc;

			tmp = *f;
			tmp.b[at] ^= (uint8_t)(1u << (rnd() % 8));
			corrupt_sent++;
			rc = ep_deliver(s->peer, tmp.b, tmp.len, now);
			/* Parse failures are ROCE_R_TRUNC..ROCE_R_ICRC. Only BTH byte 4
			 * (FECN/BECN, masked from the ICRC) may pass. */
			if (rc == ROCE_R_OK || rc >= ROCE_R_QP_STATE) {
				if (at != 14 + 20 + 8 + 4)
					T_CHECK_MSG(0, "corrupted byte %u accepted (rc %d)", at, rc);
				corrupt_accepted_masked++;
			}
		} else {
			ep_deliver(s->peer, f->b, f->len, now);
		}
	}
	if (s->have_held && f != &s->held) {
		s->have_held = 0;
		ep_deliver(s->peer, s->held.b, s->held.len, now);
	}
}

static void make_ops(struct side *s, const struct wire_conf *wc)
{
	uint32_t i, moff = 64;

	s->ops = calloc(wc->nops, sizeof(struct op));
	s->nrecv_ops = 0;
	for (i = 0; i < wc->nops; i++) {
		struct op *o = &s->ops[i];
		uint32_t r = rnd() % 100;

		o->kind = r < 25 ? ROCE_WR_SEND : r < 35 ? ROCE_WR_SEND_IMM : r < 55 ? ROCE_WR_WRITE :
			  r < 62 ? ROCE_WR_WRITE_IMM : r < 85 ? ROCE_WR_READ :
			  r < 92 ? ROCE_WR_FETCH_ADD : ROCE_WR_CMP_SWAP;
		r = rnd() % 100;
		o->len = r < 10 ? 0 : r < 40 ? rnd() % 64 : r < 80 ? rnd() % (3 * wc->mtu + 17) :
			 rnd() % 16384;
		o->seed = rnd();
		if (o->kind == ROCE_WR_FETCH_ADD || o->kind == ROCE_WR_CMP_SWAP)
			o->len = 8;
		o->off = moff;
		moff += (o->len + 15) & ~7u;
		if (o->kind <= ROCE_WR_SEND_INV || o->kind == ROCE_WR_WRITE_IMM)
			s->nrecv_ops++;
	}
	T_CHECK(moff < s->peer->mem_len);
}

static void post_ops(struct side *s, const struct wire_conf *wc)
{
	uint32_t i;

	for (i = 0; i < wc->nops; i++) {
		struct op *o = &s->ops[i];
		struct roce_send_wr wr = {
			.id = i,
			.op = o->kind,
			.len = o->len,
			.raddr = s->peer->mem_va + o->off,
			.rkey = s->peer->rkey,
			.imm = o->seed,
			.flags = (o->seed & 16) ? ROCE_WR_F_SOLICITED : 0,
		};
		uint8_t *src = malloc(o->len + 1);

		pattern(src, o->len, o->seed);
		if (o->kind == ROCE_WR_FETCH_ADD || o->kind == ROCE_WR_CMP_SWAP) {
			uint64_t cur;

			memcpy(&cur, s->peer->mem + o->off, 8);
			o->orig = cur;
			if (o->kind == ROCE_WR_FETCH_ADD) {
				wr.swap_add = o->seed;
				o->final = cur + o->seed;
			} else {
				wr.cmp = (o->seed & 1) ? cur : cur + 1;
				wr.swap_add = o->seed;
				o->final = (o->seed & 1) ? o->seed : cur;
			}
		}
		if (o->kind <= ROCE_WR_SEND_INV || o->kind == ROCE_WR_WRITE_IMM)
			ep_post_recv(s->peer, o->len + 8);
		T_EQ(ep_post(s->e, &wr, o->kind == ROCE_WR_READ ? NULL : src), 0);
		free(src);
	}
}

static void check_side(struct side *s, const struct wire_conf *wc, const uint8_t *peer_mem0)
{
	uint32_t i, r = 0, bad = 0;
	struct ep *e = s->e, *p = s->peer;

	T_EQ(e->nsdone, wc->nops);
	T_EQ(p->nrdone, s->nrecv_ops);
	for (i = 0; i < e->nsdone && i < wc->nops; i++) {
		const struct roce_send_done *d = &e->sdone[i];
		struct op *o = &s->ops[i];
		uint8_t *exp = malloc(o->len + 1);

		pattern(exp, o->len, o->seed);
		bad += d->id != i || d->status != ROCE_WC_SUCCESS || d->byte_len != o->len;
		switch (o->kind) {
		case ROCE_WR_READ:
			bad += memcmp(e->wr_buf[i], peer_mem0 + o->off, o->len) != 0;
			break;
		case ROCE_WR_WRITE:
		case ROCE_WR_WRITE_IMM:
			bad += memcmp(p->mem + o->off, exp, o->len) != 0;
			break;
		case ROCE_WR_FETCH_ADD:
		case ROCE_WR_CMP_SWAP: {
			uint64_t v;

			memcpy(&v, p->mem + o->off, 8);
			bad += d->atomic_orig != o->orig || v != o->final;
			break;
		}
		default:
			break;
		}
		if (o->kind <= ROCE_WR_SEND_INV || o->kind == ROCE_WR_WRITE_IMM) {
			const struct ep_rdone *rd = &p->rdone[r++];
			int is_imm = o->kind == ROCE_WR_SEND_IMM || o->kind == ROCE_WR_WRITE_IMM;

			bad += rd->d.status != ROCE_WC_SUCCESS || rd->d.byte_len != o->len;
			bad += !!(rd->d.flags & ROCE_RECV_F_IMM) != is_imm;
			bad += is_imm && rd->d.imm != o->seed;
			bad += rd->d.opcode != (o->kind == ROCE_WR_WRITE_IMM ? ROCE_RECV_WRITE_IMM :
									     ROCE_RECV_SEND);
			if (o->kind != ROCE_WR_WRITE_IMM)
				bad += memcmp(ep_recv_buf(p, rd->cookie), exp, o->len) != 0;
		}
		if (bad)
			T_CHECK_MSG(0, "op %u (kind %u len %u) wrong: status %u, error %u", i,
				    o->kind, o->len, d->status, e->err_status);
		bad = 0;
		free(exp);
	}
	T_EQ(e->nerr, 0);
	T_EQ(e->qp.state, ROCE_QPS_RTS);
	T_EQ(roce_qp_sq_outstanding(&e->qp), 0);
}

static void run_wire(const struct wire_conf *wc)
{
	struct ep_conf c = ep_default_conf();
	struct side sa, sb;
	uint8_t *mem0a, *mem0b;
	uint64_t now = 1000000, rounds = 0;
	uint32_t d;

	rng = 0x9E3779B97F4A7C15ull ^ wc->seed;
	corrupt_sent = corrupt_accepted_masked = frames_sent = 0;
	c.mtu = wc->mtu;
	c.timeout = 8;
	c.mem_len = 8 << 20;
	ep_free(&EA);
	ep_free(&EB);
	ep_setup(&EA, 0x11, 0x12, 1, &c);
	ep_setup(&EB, 0x12, 0x11, 0, &c);
	if (wc->retry_forever) {
		struct roce_qp_attr fa = { .flags = ROCE_QP_F_RETRY7_INFINITE };

		roce_qp_modify(&EA.qp, &fa, ROCE_QP_FLAGS);
		roce_qp_modify(&EB.qp, &fa, ROCE_QP_FLAGS);
	}
	mem0a = malloc(c.mem_len);
	mem0b = malloc(c.mem_len);
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	sa.e = &EA;
	sa.peer = &EB;
	sb.e = &EB;
	sb.peer = &EA;
	make_ops(&sa, wc);
	make_ops(&sb, wc);
	post_ops(&sa, wc);
	post_ops(&sb, wc);
	memcpy(mem0a, EA.mem, c.mem_len);
	memcpy(mem0b, EB.mem, c.mem_len);

	while (rounds++ < 2000000) {
		struct side *s[2] = { &sa, &sb };
		uint32_t moved = 0, i, k;
		uint64_t da, db, dl;

		for (k = 0; k < 2; k++) {
			ep_pump(s[k]->e, now);
			moved += s[k]->e->ntx;
			for (i = 0; i < s[k]->e->ntx; i++)
				wire_deliver(s[k], wc, &s[k]->e->tx[i], now);
			s[k]->e->ntx = 0;
		}
		if (EA.nsdone == wc->nops && EB.nsdone == wc->nops && !sa.have_held && !sb.have_held)
			break;
		if (EA.qp.state == ROCE_QPS_ERR || EB.qp.state == ROCE_QPS_ERR)
			break;
		now += 2000;
		if (!moved) {
			/* Idle: release held frames, else jump to the next deadline. */
			for (k = 0; k < 2; k++)
				if (s[k]->have_held) {
					s[k]->have_held = 0;
					ep_deliver(s[k]->peer, s[k]->held.b, s[k]->held.len, now);
					moved++;
				}
			da = roce_qp_next_deadline(&EA.qp);
			db = roce_qp_next_deadline(&EB.qp);
			dl = da < db ? da : db;
			if (!moved && dl != ROCE_TIME_NEVER && dl > now)
				now = dl;
		}
		roce_qp_timer(&EA.qp, now);
		roce_qp_timer(&EB.qp, now);
	}
	{
		int r;

		for (r = 1; r < ROCE_R_NUM; r++)
			if (EA.qp.stats.drops[r] || EB.qp.stats.drops[r])
				printf("#   drops %-22s A %6lu  B %6lu\n", roce_reason_name(r),
				       (unsigned long)EA.qp.stats.drops[r],
				       (unsigned long)EB.qp.stats.drops[r]);
	}
	check_side(&sa, wc, mem0b);
	check_side(&sb, wc, mem0a);
	T_CHECK(corrupt_sent == 0 || EA.qp.stats.rx_pkts > 0);
	printf("# seed %u mtu %u: %u ops each way in %lu rounds, %.3f s simulated, %lu frames;"
	       " A: %lu retransmits, %lu timeouts, %lu seq NAKs rx, %lu dup requests,"
	       " %lu read replays, %lu atomic replays; corrupted %lu (accepted, masked bits: %lu)\n",
	       wc->seed, wc->mtu, wc->nops, (unsigned long)rounds, (double)(now - 1000000) / 1e9,
	       frames_sent, (unsigned long)EA.qp.stats.retransmits,
	       (unsigned long)EA.qp.stats.timeouts, (unsigned long)EA.qp.stats.seq_naks_rx,
	       (unsigned long)EB.qp.stats.dup_requests, (unsigned long)EB.qp.stats.read_replays,
	       (unsigned long)EB.qp.stats.atomic_replays, corrupt_sent, corrupt_accepted_masked);
	if (wc->drop_ppm)
		T_CHECK(EA.qp.stats.retransmits > 0);
	if (wc->drop_ppm && wc->nops >= 500)
		T_CHECK(EA.qp.stats.timeouts > 0);
	for (d = 0; d < 2; d++)
		free(d ? sb.ops : sa.ops);
	free(mem0a);
	free(mem0b);
}

T_CASE(clean_wire)
{
	struct wire_conf wc = { .seed = 1, .mtu = 1024, .nops = 300 };

	run_wire(&wc);
	T_EQ(EA.qp.stats.retransmits, 0);
	T_EQ(EB.qp.stats.retransmits, 0);
}

T_CASE(lossy_wire_issue_rates_mtu1024)
{
	/* 5% drop, 1% duplicate, 1% reorder, 0.5% corrupt */
	struct wire_conf wc = { 7, 1024, 1000, 50000, 10000, 10000, 5000, 0 };

	run_wire(&wc);
}

T_CASE(lossy_wire_mtu256)
{
	struct wire_conf wc = { 11, 256, 600, 50000, 10000, 10000, 5000, 0 };

	run_wire(&wc);
}

T_CASE(lossy_wire_mtu4096)
{
	struct wire_conf wc = { 23, 4096, 600, 50000, 10000, 10000, 5000, 0 };

	run_wire(&wc);
}

T_CASE(harsh_wire)
{
	/* 15% drop, 5% duplicate, 5% reorder, 2% corrupt; rxe's endless retries */
	struct wire_conf wc = { 99, 512, 300, 150000, 50000, 50000, 20000, 1 };

	run_wire(&wc);
}

/* Many seeds and path MTUs (suite 'slow'): ROCE_WIRE_SEEDS=<n> runs n of them. */
T_CASE(seed_sweep)
{
	static const uint32_t mtus[] = { 256, 512, 1024, 2048, 4096 };
	const char *env = getenv("ROCE_WIRE_SEEDS");
	uint32_t n = env ? (uint32_t)strtoul(env, NULL, 0) : 0, i;

	if (!n)
		T_SKIP("set ROCE_WIRE_SEEDS to run");
	for (i = getenv("ROCE_WIRE_FIRST") ? (uint32_t)strtoul(getenv("ROCE_WIRE_FIRST"), NULL, 0) : 0; i < n; i++) {
		struct wire_conf wc = { 1000 + i, mtus[i % 5], 200, 50000 + (i % 4) * 30000,
					10000 + (i % 3) * 20000, 10000 + (i % 5) * 10000, 5000,
					i % 4 != 0 };

		run_wire(&wc);
		if (t_case_failures) {
			printf("# first failing seed %u\n", wc.seed);
			return;
		}
	}
}

int main(int argc, char **argv)
{
	int rc = t_main(argc, argv);

	ep_free(&EA);
	ep_free(&EB);
	return rc;
}
