/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Nothing from the wire is trusted. Seeded mutations of real frames (from the rxe
 * captures and from a live QP pair) must be rejected by parse or, when accepted,
 * re-encode to exactly the same bytes. Then, with the ICRC check off so that mutated
 * headers reach the state machines, a QP pair is fed garbage-laced traffic: it must never
 * ask the device to write outside a checked region, never place past a receive buffer
 * without being told, and keep serving valid traffic afterwards (or fail cleanly).
 */
#include <dirent.h>

#include "irdma_test.h"
#include "roce_ep.h"
#include "roce_pkt_rc.h"
#include "roce_test_util.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

#define CORPUS_MAX 1024

static struct ep_frame *corpus;
static uint32_t ncorpus;
static uint64_t rng = 0x243F6A8885A308D3ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static void corpus_add(const uint8_t *b, uint32_t len)
{
	if (ncorpus < CORPUS_MAX && len <= EP_FRAME_MAX) {
		memcpy(corpus[ncorpus].b, b, len);
		corpus[ncorpus++].len = len;
	}
}

static void load_captures(void)
{
	char dir[512], path[1024];
	DIR *d;
	struct dirent *de;

	snprintf(dir, sizeof(dir), "%s/rxe-pcaps", TEST_DATA_DIR);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct t_pcap pc;
		const uint8_t *f;
		uint32_t cap, orig;
		size_t nl = strlen(de->d_name);

		if (nl < 6 || strcmp(de->d_name + nl - 5, ".pcap"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (t_pcap_open(&pc, path))
			continue;
		while (t_pcap_next(&pc, &f, &cap, &orig) == 1) {
			struct roce_pkt q;

			if (roce_pkt_parse(f, cap, 0, &q) == 0)
				corpus_add(f, q.wire_len);
		}
		t_pcap_close(&pc);
	}
	closedir(d);
}

static void mutate(uint8_t *b, uint32_t *len)
{
	uint32_t k, n = 1 + rnd() % 4;

	switch (rnd() % 8) {
	case 0: /* truncate */
		*len = rnd() % (*len + 1);
		return;
	case 1: /* extend with junk (trailing bytes are Ethernet padding) */
		for (k = 0; k < 1 + rnd() % 16 && *len < EP_FRAME_MAX; k++)
			b[(*len)++] = (uint8_t)rnd();
		return;
	default:
		for (k = 0; k < n; k++)
			b[rnd() % *len] ^= (uint8_t)(1u << (rnd() % 8));
		if (rnd() % 3 == 0) { /* aim at the transport headers */
			uint32_t at = 42 + rnd() % 40;

			if (at < *len)
				b[at] = (uint8_t)rnd();
		}
	}
}

T_CASE(mutated_frames_rejected_or_reencoded_exactly)
{
	uint32_t i, accepted = 0, rejected = 0, reasons = 0;
	unsigned long seen[ROCE_R_NUM] = { 0 };
	static struct ep_frame f, again;

	T_CHECK(ncorpus > 200);
	for (i = 0; i < 200000; i++) {
		struct roce_pkt q;
		enum roce_reason rc;
		int len;

		f = corpus[rnd() % ncorpus];
		mutate(f.b, &f.len);
		rc = roce_pkt_parse(f.b, f.len, 0, &q);
		if (rc) {
			rejected++;
			seen[rc]++;
			continue;
		}
		accepted++;
		len = roce_pkt_build(&q, again.b, sizeof(again.b));
		T_EQ(len, q.wire_len);
		if (len > 0 && memcmp(again.b, f.b, (size_t)len))
			T_CHECK_MSG(0, "accepted mutant re-encodes differently (%s)",
				    roce_opcode_name(q.opcode));
	}
	for (i = 1; i < ROCE_R_NUM; i++)
		reasons += seen[i] != 0;
	printf("# %u mutants: %u rejected (%u distinct reasons, %lu by ICRC), %u accepted "
	       "(L2 or masked fields only) and re-encoded byte-exact\n",
	       accepted + rejected, rejected, reasons, seen[ROCE_R_ICRC], accepted);
	T_CHECK(reasons >= 12);
}

/* Compares the fields roce_pkt_parse_rc() promises with the full parse's. */
static int rc_fields_equal(const struct roce_pkt *a, const struct roce_pkt *b)
{
	uint32_t f = b->oi->flags;

	if (a->opcode != b->opcode || a->oi != b->oi || a->se != b->se ||
	    a->padcnt != b->padcnt || a->ackreq != b->ackreq || a->pkey != b->pkey ||
	    a->dqpn != b->dqpn || a->psn != b->psn || a->payload != b->payload ||
	    a->paylen != b->paylen || a->ip4_src != b->ip4_src || a->ip4_dst != b->ip4_dst ||
	    a->ipv6 != b->ipv6 || a->has_vlan != b->has_vlan || a->l3 != b->l3 ||
	    a->l3_off != b->l3_off || a->bth_off != b->bth_off || a->wire_len != b->wire_len)
		return 0;
	if ((f & ROCE_OPF_RETH) && (a->reth.va != b->reth.va || a->reth.rkey != b->reth.rkey ||
				    a->reth.len != b->reth.len))
		return 0;
	if ((f & ROCE_OPF_AETH) && (a->aeth.syndrome != b->aeth.syndrome ||
				    a->aeth.msn != b->aeth.msn))
		return 0;
	return 1;
}

T_CASE(parse_rc_agrees_with_parse)
{
	uint32_t i, same = 0, fast = 0;
	static struct ep_frame f;

	for (i = 0; i < 200000; i++) {
		struct roce_pkt q, r;
		int a, b;

		f = corpus[rnd() % ncorpus];
		if (i % 4)
			mutate(f.b, &f.len);
		memset(&r, 0xA5, sizeof(r));
		a = roce_pkt_parse(f.b, f.len, 0, &q);
		b = roce_pkt_parse_rc(f.b, f.len, &r);
		if (a != b) {
			T_CHECK_MSG(0, "parse %d, parse_rc %d (%s)", a, b,
				    roce_opcode_name(f.b[42]));
			continue;
		}
		if (a == 0 && !rc_fields_equal(&r, &q)) {
			T_CHECK_MSG(0, "parse_rc fields differ (%s)", roce_opcode_name(q.opcode));
			continue;
		}
		same++;
		/* the one pass left the fields it does not promise as they were */
		fast += a == 0 && r.sport == 0xA5A5 && q.oi->transport == ROCE_TRANSPORT_RC;
	}
	printf("# %u frames: parse_rc agrees with parse on all; %u took the one pass\n", same,
	       fast);
	T_EQ(same, 200000);
	T_CHECK(fast > 10000);
}

/*
 * roce_pkt_parse_rc_flags() and roce_pkt_parse_rc_l3_flags() with each of roce_pkt_parse()'s
 * flag sets: the same return value as the full parse with those flags (a frame with a bad
 * ICRC or IPv4 header checksum passes where the flag says so, and only there), the same
 * fields, and the one pass taken for long frames too when the ICRC is left to the caller.
 */
T_CASE(parse_rc_flags_agree_with_parse)
{
	static const unsigned int fl[] = { 0, ROCE_PARSE_NO_ICRC, ROCE_PARSE_NO_CSUM,
					   ROCE_PARSE_NO_ICRC | ROCE_PARSE_NO_CSUM };
	uint32_t i, same = 0, fast[4] = { 0 }, long_fast = 0, differs[4] = { 0 };
	static struct ep_frame f;

	for (i = 0; i < 200000; i++) {
		unsigned int flags = fl[i % 4];
		struct roce_pkt q, r, s0;
		int a, b, c, z;

		f = corpus[rnd() % ncorpus];
		if (i % 8 >= 4)
			mutate(f.b, &f.len);
		memset(&r, 0xA5, sizeof(r));
		a = roce_pkt_parse(f.b, f.len, flags, &q);
		b = roce_pkt_parse_rc_flags(f.b, f.len, flags, &r);
		if (a != b) {
			T_CHECK_MSG(0, "parse %d, parse_rc_flags(%u) %d", a, flags, b);
			continue;
		}
		if (a == 0 && !rc_fields_equal(&r, &q)) {
			T_CHECK_MSG(0, "parse_rc_flags(%u) fields differ (%s)", flags,
				    roce_opcode_name(q.opcode));
			continue;
		}
		memset(&r, 0xA5, sizeof(r));
		c = roce_pkt_parse_rc_l3_flags(f.b, f.len, 14, 0, flags, &r);
		if ((f.len >= 14 && f.b[12] == 0x08 && f.b[13] == 0x00) &&
		    (c != a || (a == 0 && !rc_fields_equal(&r, &q)))) {
			T_CHECK_MSG(0, "parse %d, parse_rc_l3_flags(%u) %d", a, flags, c);
			continue;
		}
		/* the inline pass the wire calls, for a port that marks nothing: any frame */
		memset(&r, 0xA5, sizeof(r));
		c = roce_pkt_parse_rc_inline(f.b, f.len, 14, 0, flags, &r);
		if (c != a || (a == 0 && !rc_fields_equal(&r, &q))) {
			T_CHECK_MSG(0, "parse %d, parse_rc_inline(%u) %d", a, flags, c);
			continue;
		}
		same++;
		/* what the flags change: a frame the full check rejects passes with them */
		z = roce_pkt_parse(f.b, f.len, 0, &s0);
		differs[i % 4] += z != a;
		if (a == 0 && r.sport == 0xA5A5 && q.oi->transport == ROCE_TRANSPORT_RC) {
			fast[i % 4]++;
			long_fast += (flags & ROCE_PARSE_NO_ICRC) && q.paylen >= 256;
		}
	}
	printf("# %u frames: parse_rc_flags agrees with parse on all; one pass %u/%u/%u/%u "
	       "(flags 0, NO_ICRC, NO_CSUM, both), %u long ones without the ICRC; full check "
	       "differs %u/%u/%u\n", same, fast[0], fast[1], fast[2], fast[3], long_fast,
	       differs[1], differs[2], differs[3]);
	T_EQ(same, 200000);
	T_CHECK(fast[0] > 5000 && fast[1] > 5000 && fast[2] > 5000 && fast[3] > 5000);
	T_EQ(differs[0], 0);
	T_CHECK(differs[1] > 0 && differs[2] > 0 && differs[3] > 0);
	T_CHECK(long_fast > 1000); /* long frames take the one pass when the ICRC is apart */
}

/*
 * roce_pkt_parse_rc_l3(): entered at the IP header a port found from the EtherType (after an
 * 802.1Q tag in half the frames here), it gives what the full parse gives, VLAN fields too.
 */
T_CASE(parse_rc_l3_agrees_with_parse)
{
	uint32_t i, same = 0, fast = 0, ip = 0;
	static struct ep_frame f;

	for (i = 0; i < 200000; i++) {
		struct roce_pkt q, r;
		uint32_t l3 = 14;
		uint16_t et;
		int a, b;

		f = corpus[rnd() % ncorpus];
		if ((i & 1) && f.len + 4 <= sizeof(f.b)) { /* tag it: VLAN 0x0123 */
			memmove(f.b + 16, f.b + 12, f.len - 12);
			f.b[12] = 0x81;
			f.b[13] = 0x00;
			f.b[14] = 0x01;
			f.b[15] = 0x23;
			f.len += 4;
		}
		if (i % 4 >= 2)
			mutate(f.b, &f.len);
		if (f.len < 18)
			continue;
		et = (uint16_t)(f.b[12] << 8 | f.b[13]);
		if (et == 0x8100) {
			et = (uint16_t)(f.b[16] << 8 | f.b[17]);
			l3 = 18;
		}
		if (et != 0x0800 && et != 0x86DD)
			continue; /* the port drops it before any parse */
		ip++;
		memset(&r, 0xA5, sizeof(r));
		a = roce_pkt_parse(f.b, f.len, 0, &q);
		b = roce_pkt_parse_rc_l3(f.b, f.len, l3, et == 0x86DD, &r);
		if (a != b) {
			T_CHECK_MSG(0, "parse %d, parse_rc_l3 %d (l3 at %u)", a, b, l3);
			continue;
		}
		if (a == 0 && (!rc_fields_equal(&r, &q) ||
			       (q.has_vlan && r.vlan_tci != q.vlan_tci))) {
			T_CHECK_MSG(0, "parse_rc_l3 fields differ (%s, l3 at %u)",
				    roce_opcode_name(q.opcode), l3);
			continue;
		}
		same++;
		fast += a == 0 && r.sport == 0xA5A5 && q.has_vlan;
	}
	printf("# %u IP frames: parse_rc_l3 agrees with parse on all; %u tagged ones took the "
	       "one pass\n", ip, fast);
	T_EQ(same, ip);
	T_CHECK(fast > 5000);
}

/*
 * The one pass's combined compares at their edges, on corpus frames that take it: every
 * opcode (one flag, ROCE_OPF_RC1, stands for "RC, headers none/RETH/AETH, not ATOMIC
 * WRITE"), and every IP total length 0..99 with the UDP word built to look right for it,
 * including the lengths under 20 whose "tot - 20" wraps into the port's bits (port 0xFFFF,
 * length (tot - 20) mod 2^16). Same answer and fields as the full parse, each flag set.
 */
T_CASE(parse_rc_flags_edges)
{
	static const unsigned int fl[] = { 0, ROCE_PARSE_NO_ICRC | ROCE_PARSE_NO_CSUM };
	uint32_t i, k, tried = 0, same = 0, one_pass = 0, wrap = 0;
	static struct ep_frame f, g;

	for (i = 0; i < ncorpus && tried < 8; i++) {
		struct roce_pkt q;

		g = corpus[i];
		if (g.len < 60 || g.b[12] != 0x08 || g.b[13] != 0x00 || g.b[14] != 0x45 ||
		    roce_pkt_parse(g.b, g.len, 0, &q) != 0 || q.oi->transport != ROCE_TRANSPORT_RC)
			continue;
		tried++;
		for (k = 0; k < 2 * (256 + 100); k++) {
			unsigned int flags = fl[k & 1], v = k >> 1;
			struct roce_pkt a, b;
			int ra, rb;

			f = g;
			if (v < 256) {
				f.b[42] = (uint8_t)v; /* BTH opcode */
			} else {
				uint32_t tot = v - 256, ul = (tot - 20) & 0xFFFFu;

				f.b[16] = (uint8_t)(tot >> 8);
				f.b[17] = (uint8_t)tot;
				f.b[38] = (uint8_t)(ul >> 8);
				f.b[39] = (uint8_t)ul;
				if (tot < 20) { /* the wrapped expectation: port 0xFFFF */
					f.b[36] = 0xFF;
					f.b[37] = 0xFF;
					wrap++;
				}
			}
			memset(&b, 0xA5, sizeof(b));
			ra = roce_pkt_parse(f.b, f.len, flags, &a);
			rb = roce_pkt_parse_rc_flags(f.b, f.len, flags, &b);
			if (ra != rb || (ra == 0 && !rc_fields_equal(&b, &a))) {
				T_CHECK_MSG(0, "edge %u (flags %u): parse %d, parse_rc_flags %d", v,
					    flags, ra, rb);
				continue;
			}
			same++;
			one_pass += ra == 0 && b.sport == 0xA5A5;
		}
	}
	printf("# %u corpus frames, %u edge frames (%u with a wrapped length): parse_rc_flags "
	       "agrees with parse on all; %u took the one pass\n", tried, same, wrap, one_pass);
	T_EQ(tried, 8);
	T_EQ(same, tried * 2 * (256 + 100));
	T_CHECK(wrap > 0 && one_pass > 0);
}

/* ---- the state machines under garbage ---- */

static struct ep A, B;
static unsigned long oob_writes;

static int strict_mem_write(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			    uint32_t len)
{
	int r = ep_ops.mem_write(qp, rkey, va, data, len);

	oob_writes += r != 0; /* the library wrote without a successful check */
	return r;
}

static int strict_atomic(struct roce_qp *qp, uint32_t rkey, uint64_t va, int cmp_swap,
			 uint64_t swap_add, uint64_t cmp, uint64_t *orig)
{
	int r = ep_ops.atomic(qp, rkey, va, cmp_swap, swap_add, cmp, orig);

	oob_writes += r != 0;
	return r;
}

static struct roce_qp_ops strict_ops;

T_CASE(state_machines_under_garbage)
{
	struct ep_conf c = ep_default_conf();
	uint64_t now = 1000000;
	uint32_t round, i, rx = 0, refused = 0, errors = 0;

	strict_ops = ep_ops;
	strict_ops.mem_write = strict_mem_write;
	strict_ops.atomic = strict_atomic;
	for (round = 0; round < 200; round++) {
		ep_free(&A);
		ep_free(&B);
		c.mtu = 256u << (round % 5);
		ep_setup(&A, 0x11, 0x12, 1, &c);
		ep_setup(&B, 0x12, 0x11, 0, &c);
		A.qp.ops = &strict_ops;
		B.qp.ops = &strict_ops;
		for (i = 0; i < 64; i++) {
			struct roce_send_wr wr = {
				.id = i,
				.op = (uint8_t)(rnd() % 8),
				.len = rnd() % (3 * c.mtu + 5),
				.raddr = B.mem_va + (rnd() % 4096) * 8,
				.rkey = B.rkey,
				.swap_add = rnd(),
				.cmp = rnd(),
			};

			if (wr.op == ROCE_WR_CMP_SWAP || wr.op == ROCE_WR_FETCH_ADD)
				wr.len = 8;
			ep_post_recv(&B, 4 * c.mtu);
			ep_post(&A, &wr, NULL);
		}
		for (i = 0; i < 3000; i++) {
			struct ep *from = (i & 1) ? &B : &A, *to = (i & 1) ? &A : &B;
			uint32_t k;

			ep_pump(from, now);
			for (k = 0; k < from->ntx; k++) {
				struct ep_frame *fr = &from->tx[k];
				struct roce_pkt q;
				int rc;

				if (rnd() % 4 == 0)
					mutate(fr->b, &fr->len);
				/* No ICRC check: mutated headers reach the QP. */
				if (roce_pkt_parse(fr->b, fr->len, ROCE_PARSE_NO_ICRC, &q))
					continue;
				rx++;
				rc = roce_qp_rx(&to->qp, &q, now);
				refused += rc != 0;
			}
			from->ntx = 0;
			now += 20000;
			roce_qp_timer(&A.qp, now);
			roce_qp_timer(&B.qp, now);
			if (A.qp.state == ROCE_QPS_ERR && B.qp.state == ROCE_QPS_ERR)
				break;
		}
		errors += A.qp.state == ROCE_QPS_ERR;
		/* Completions are reported once per WR, in order, whatever happened. */
		if (A.qp.state == ROCE_QPS_ERR) {
			T_EQ(A.nsdone, 64);
			for (i = 0; i < A.nsdone; i++)
				T_EQ(A.sdone[i].id, i);
		}
		T_CHECK(A.nsdone <= 64);
	}
	T_EQ(oob_writes, 0);
	printf("# garbage rounds: %u packets reached the QPs, %u refused, %u of 200 requesters "
	       "ended in error (cleanly flushed)\n", rx, refused, errors);
}

int main(int argc, char **argv)
{
	struct ep_conf c = ep_default_conf();
	uint32_t i;
	int rc;

	corpus = calloc(CORPUS_MAX, sizeof(*corpus));
	load_captures();
	/* Frames of every kind from a live pair: SEND, WRITE, READ, atomics, ACKs, NAKs. */
	ep_setup(&A, 0x11, 0x12, 1, &c);
	ep_setup(&B, 0x12, 0x11, 0, &c);
	for (i = 0; i < 40; i++) {
		struct roce_send_wr wr = { .id = i, .op = (uint8_t)(i % 8), .len = (i * 397) % 3000,
					   .raddr = B.mem_va + 64 * i, .rkey = B.rkey };

		if (wr.op == ROCE_WR_CMP_SWAP || wr.op == ROCE_WR_FETCH_ADD)
			wr.len = 8;
		if (i % 5)
			ep_post_recv(&B, 4096);
		ep_post(&A, &wr, NULL);
	}
	for (i = 0; i < 200; i++) {
		uint32_t k;

		ep_pump(&A, 1000 + i * 1000000ull);
		for (k = 0; k < A.ntx; k++)
			corpus_add(A.tx[k].b, A.tx[k].len);
		ep_flush_to(&A, &B, 1000 + i * 1000000ull);
		ep_pump(&B, 1000 + i * 1000000ull);
		for (k = 0; k < B.ntx; k++)
			corpus_add(B.tx[k].b, B.tx[k].len);
		ep_flush_to(&B, &A, 1000 + i * 1000000ull);
		roce_qp_timer(&A.qp, 1000 + (i + 1) * 1000000ull);
	}
	rc = t_main(argc, argv);
	ep_free(&A);
	ep_free(&B);
	free(corpus);
	return rc;
}
