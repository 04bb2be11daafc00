/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/roce frame templates: the headers written from a connection's template equal, byte
 * for byte, those of the general builder (roce_pkt_write_hdrs) for every opcode, IPv4 and
 * IPv6, with and without a VLAN tag, every pad length and every IPv4 id (the incremental
 * header checksum); and an RC QP hands its template out for frames to its peer only.
 */
#include <errno.h>

#include "irdma_test.h"
#include "roce_ep.h"

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* A connection's prototype packet: addresses, VLAN, IP fields, UDP port, P_Key, DestQP. */
static void proto_of(struct roce_pkt *p, int ipv6, int vlan)
{
	static const uint8_t ip_a[4] = { 198, 18, 0, 11 }, ip_b[4] = { 198, 18, 0, 12 };

	memset(p, 0, sizeof(*p));
	memcpy(p->dmac, "\x02\x11\x22\x33\x44\x55", 6);
	memcpy(p->smac, "\x02\x66\x77\x88\x99\xaa", 6);
	p->has_vlan = (uint8_t)vlan;
	p->vlan_tci = vlan ? 0x0123 : 0;
	p->ipv6 = (uint8_t)ipv6;
	if (ipv6) {
		roce_gid_parse("fd00::a:1", p->sgid);
		roce_gid_parse("fd00::b:2", p->dgid);
		p->flow_label = 0xABCDE;
	} else {
		roce_gid_from_ipv4(p->sgid, ip_a);
		roce_gid_from_ipv4(p->dgid, ip_b);
	}
	p->tclass = 0x68;
	p->hop_limit = 61;
	p->ip_frag = 0x4000;
	p->sport = roce_udp_sport(0x11, 0x12, p->flow_label);
	p->pkey = ROCE_PKEY_DEFAULT;
	p->dqpn = 0x123456;
}

/* The per-frame fields of p at random, for opcode op and payload length paylen. */
static void vary(struct roce_pkt *p, uint8_t op, uint32_t paylen)
{
	p->opcode = op;
	p->oi = &roce_opcode_table[op];
	p->paylen = paylen;
	p->ip_id = (uint16_t)rnd();
	p->psn = rnd() & ROCE_PSN_MASK;
	p->se = rnd() & 1;
	p->ackreq = rnd() & 1;
	p->reth.va = (uint64_t)rnd() << 32 | rnd();
	p->reth.rkey = rnd();
	p->reth.len = rnd();
	p->aeth.syndrome = (uint8_t)rnd();
	p->aeth.msn = rnd() & ROCE_MSN_MASK;
	p->atmeth.va = (uint64_t)rnd() << 32 | rnd();
	p->atmeth.rkey = rnd();
	p->atmeth.swap_add = (uint64_t)rnd() << 32 | rnd();
	p->atmeth.cmp = (uint64_t)rnd() << 32 | rnd();
	p->atmack = (uint64_t)rnd() << 32 | rnd();
	p->deth.qkey = rnd();
	p->deth.sqpn = rnd() & ROCE_QPN_MASK;
	p->imm = rnd();
	p->ieth = rnd();
	p->feth = rnd();
}

/* Both writers on p: same return value, same bytes. */
static void compare(const struct roce_tmpl *t, const struct roce_pkt *p)
{
	uint8_t a[256], b[256];
	int la, lb;

	memset(a, 0xA5, sizeof(a));
	memset(b, 0x5A, sizeof(b));
	la = roce_pkt_write_hdrs(p, a, sizeof(a));
	lb = roce_tmpl_write_hdrs(t, p, b, sizeof(b));
	T_EQ(lb, la);
	if (la > 0)
		T_MEMEQ(b, a, (size_t)la);
}

T_CASE(every_opcode_ipv4_ipv6_vlan)
{
	static const uint32_t lens[] = { 0, 1, 2, 3, 4, 8, 61, 1024, 4096 };
	struct roce_tmpl t;
	struct roce_pkt p;
	unsigned int op, i, ipv6, vlan, k, n = 0;

	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		for (vlan = 0; vlan < 2; vlan++) {
			proto_of(&p, (int)ipv6, (int)vlan);
			T_EQ(roce_tmpl_init(&t, &p), 0);
			T_EQ(t.valid, 1);
			T_EQ(t.l3_off, vlan ? 18 : 14);
			for (op = 0; op < 256; op++) {
				const struct roce_opcode_info *oi = roce_opcode_get((uint8_t)op);

				if (!oi)
					continue;
				for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
					if (lens[i] && !(oi->flags & ROCE_OPF_PAYLOAD))
						continue;
					for (k = 0; k < 4; k++) {
						vary(&p, (uint8_t)op, lens[i]);
						compare(&t, &p);
						n++;
					}
				}
			}
		}
	}
	T_CHECK(n > 1000);
}

/* Every IPv4 id at three lengths: the incremental checksum equals the full one, including
 * the ids where the one's-complement sum wraps to 0xFFFF. */
T_CASE(ipv4_checksum_every_id)
{
	static const uint32_t lens[] = { 0, 8, 1024 };
	uint8_t a[128], b[128];
	struct roce_tmpl t;
	struct roce_pkt p;
	unsigned int id, i, bad = 0;

	proto_of(&p, 0, 0);
	T_EQ(roce_tmpl_init(&t, &p), 0);
	for (i = 0; i < 3; i++) {
		vary(&p, ROCE_OP_RC_WRITE_ONLY, lens[i]);
		for (id = 0; id < 65536; id++) {
			p.ip_id = (uint16_t)id;
			roce_pkt_write_hdrs(&p, a, sizeof(a));
			roce_tmpl_write_hdrs(&t, &p, b, sizeof(b));
			bad += memcmp(a, b, 14 + 20) != 0;
		}
	}
	T_EQ(bad, 0);
}

T_CASE(errors_as_the_general_builder)
{
	uint8_t b[256];
	struct roce_tmpl t;
	struct roce_pkt p;

	proto_of(&p, 0, 0);
	T_EQ(roce_tmpl_init(&t, &p), 0);
	vary(&p, 0x1A, 0); /* reserved opcode */
	T_EQ(roce_tmpl_write_hdrs(&t, &p, b, sizeof(b)), -EINVAL);
	T_EQ(roce_pkt_write_hdrs(&p, b, sizeof(b)), -EINVAL);
	vary(&p, ROCE_OP_RC_ACK, 8); /* an ACK carries no payload */
	T_EQ(roce_tmpl_write_hdrs(&t, &p, b, sizeof(b)), -EINVAL);
	vary(&p, ROCE_OP_RC_WRITE_ONLY, 8);
	T_EQ(roce_tmpl_write_hdrs(&t, &p, b, ROCE_TMPL_HDR_MAX - 1), -ENOSPC);
	vary(&p, ROCE_OP_RC_WRITE_ONLY, 0xFFFF);
	T_EQ(roce_tmpl_write_hdrs(&t, &p, b, sizeof(b)), -EINVAL);
	T_EQ(roce_pkt_write_hdrs(&p, b, sizeof(b)), -EINVAL);
}

static struct ep A, B;
static uint64_t now = 1000000;

/* An RC pair: every frame to the peer comes with the template (ep_pump compares it with
 * the general builder); the template follows a change of the address vector. */
T_CASE(rc_qp_frames_use_the_template)
{
	struct ep_conf c = ep_default_conf();
	struct roce_send_wr wr;
	struct roce_qp_attr a;
	struct roce_tx tx;
	uint8_t src[3000];
	unsigned long before = ep_tmpl_frames;
	uint32_t i;

	ep_setup(&A, 0x11, 0x12, 1, &c);
	ep_setup(&B, 0x12, 0x11, 0, &c);
	T_EQ(A.qp.tmpl.valid, 1);
	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)i;
	memset(&wr, 0, sizeof(wr));
	wr.id = 1;
	wr.op = ROCE_WR_WRITE;
	wr.len = sizeof(src);
	wr.raddr = B.mem_va + 64;
	wr.rkey = B.rkey;
	T_EQ(ep_post(&A, &wr, src), 0);
	wr.id = 2;
	wr.op = ROCE_WR_READ;
	wr.len = 2000;
	T_EQ(ep_post(&A, &wr, NULL), 0);
	T_EQ(ep_pump(&A, now), 4); /* WRITE FIRST, MIDDLE, LAST, READ request */
	ep_flush_to(&A, &B, now);
	T_EQ(ep_pump(&B, now), 3); /* ACK, READ response FIRST, LAST */
	ep_flush_to(&B, &A, now);
	T_EQ(A.nsdone, 2);
	T_EQ(ep_tmpl_frames - before, 7);
	T_MEMEQ(B.mem + 64, src, sizeof(src));

	/* A new address vector (VLAN, IPv6 peer): the template is rebuilt from it. */
	memset(&a, 0, sizeof(a));
	a.av = A.av;
	a.av.has_vlan = 1;
	a.av.vlan_tci = 7;
	roce_gid_parse("fd00::b", a.av.dgid);
	roce_gid_parse("fd00::a", a.av.sgid);
	T_EQ(roce_qp_modify(&A.qp, &a, ROCE_QP_AV), 0);
	T_EQ(A.qp.tmpl.valid, 1);
	T_EQ(A.qp.tmpl.ipv6, 1);
	T_EQ(A.qp.tmpl.l3_off, 18);
	wr.id = 3;
	wr.op = ROCE_WR_SEND;
	wr.len = 5;
	T_EQ(ep_post(&A, &wr, src), 0);
	before = ep_tmpl_frames;
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_tmpl_frames - before, 1);
	T_EQ(A.tx[0].b[12], 0x81); /* 802.1Q */
	A.ntx = 0;
	(void)tx;
	ep_free(&A);
	ep_free(&B);
}

/* UD frames go to each WR's own address vector: no template. */
T_CASE(ud_frames_take_the_general_builder)
{
	struct ep_conf c = ep_default_conf();
	struct roce_send_wr wr;
	uint8_t src[16] = { 1, 2, 3 };
	unsigned long before;

	c.type = ROCE_QPT_UD;
	ep_setup(&A, 0x11, 0x12, 1, &c);
	T_EQ(A.qp.tmpl.valid, 0);
	memset(&wr, 0, sizeof(wr));
	wr.id = 1;
	wr.op = ROCE_WR_SEND;
	wr.len = sizeof(src);
	wr.dqpn = 0x12;
	wr.qkey = 0x11111111;
	wr.av = &A.av;
	T_EQ(ep_post(&A, &wr, src), 0);
	before = ep_tmpl_frames;
	T_EQ(ep_pump(&A, now), 1);
	T_EQ(ep_tmpl_frames - before, 0);
	T_CHECK(A.tx[0].len > 0);
	A.ntx = 0;
	ep_free(&A);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
