/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive copy fused with the ICRC check, on lib/roce's side: roce_resp_fusable()
 * says yes exactly for the in-order WRITE (and SEND) MIDDLE/LAST of the message in
 * progress from the connected peer (not for FIRST/ONLY, a PSN gap, a duplicate, another source address,
 * another QP), and a mem_write that answers -EBADMSG (the ICRC, computed while copying
 * with roce_crc32_copy, failed) drops the packet without a trace: no PSN, write progress,
 * ACK or NAK moved, and the intact retransmission completes the message byte for byte;
 * the same for a SEND into its receive WQE (recv_place answering -EBADMSG).
 * The endpoint here plays the device the way soft_rx_fuse.c does.
 */
#include "irdma_test.h"
#include "roce_ep.h"

static struct ep A, B;
static uint64_t now = 1000000;
/* the armed frame: its payload, the register through its headers, its ICRC */
static const uint8_t *arm_pl;
static uint32_t arm_reg, arm_icrc;
static unsigned int fused_ok, fused_bad;

static int fused_mem_write(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			   uint32_t len)
{
	struct ep *e = qp->user;
	uint32_t reg;

	if (data != arm_pl)
		return ep_ops.mem_write(qp, rkey, va, data, len);
	arm_pl = NULL;
	if (!ep_in_mr(e, rkey, va, len))
		return -EACCES;
	reg = roce_crc32_copy(arm_reg, e->mem + (va - e->mem_va), data, len);
	reg = roce_crc32_update(reg, (const uint8_t *)data + len, roce_pad_len(len));
	if (roce_icrc_final(reg) != arm_icrc) {
		fused_bad++;
		return -EBADMSG;
	}
	fused_ok++;
	return 0;
}

static int fused_recv_place(struct roce_qp *qp, uint64_t cookie, uint32_t off,
			    const void *data, uint32_t len)
{
	struct ep *e = qp->user;
	struct ep_recv *r = &e->rq[cookie % EP_MAX_RECV];
	uint32_t reg;

	if (data != arm_pl)
		return ep_ops.recv_place(qp, cookie, off, data, len);
	arm_pl = NULL;
	if ((uint64_t)off + len > r->len)
		return -EMSGSIZE;
	reg = roce_crc32_copy(arm_reg, r->buf + off, data, len);
	reg = roce_crc32_update(reg, (const uint8_t *)data + len, roce_pad_len(len));
	if (roce_icrc_final(reg) != arm_icrc) {
		fused_bad++;
		return -EBADMSG;
	}
	fused_ok++;
	return 0;
}

static struct roce_qp_ops fused_ops;

static void pair(void)
{
	struct ep_conf c = ep_default_conf();

	ep_free(&A);
	ep_free(&B);
	ep_setup(&A, 0x21, 0x22, 1, &c);
	ep_setup(&B, 0x22, 0x21, 0, &c);
	fused_ops = ep_ops;
	fused_ops.mem_write = fused_mem_write;
	fused_ops.recv_place = fused_recv_place;
	B.qp.ops = &fused_ops;
	fused_ok = fused_bad = 0;
}

/* What the device does with a frame: parse without the ICRC, then check it at once or
 * arm the fused check. Returns roce_qp_rx's answer (or the drop). */
static enum roce_reason deliver(const uint8_t *b, uint32_t len, int *fusable)
{
	struct roce_pkt p;
	enum roce_reason rc = roce_pkt_parse(b, len, ROCE_PARSE_NO_ICRC, &p);
	const uint8_t *icrc;

	if (rc)
		return rc;
	icrc = p.payload + p.paylen + p.padcnt;
	*fusable = roce_resp_fusable(&B.qp, &p);
	if (*fusable) {
		uint32_t pre = ROCE_IPV4_HLEN + ROCE_UDP_HLEN + ROCE_BTH_LEN;

		arm_reg = roce_crc32_update(roce_icrc_begin(p.l3, 0), p.l3 + pre,
					    (size_t)(p.payload - p.l3) - pre);
		arm_icrc = roce_icrc_get(icrc);
		arm_pl = p.payload;
	} else if (roce_icrc_compute(p.l3, (size_t)(icrc - p.l3), 0) != roce_icrc_get(icrc)) {
		return ROCE_R_ICRC;
	}
	rc = roce_qp_rx(&B.qp, &p, now);
	arm_pl = NULL;
	return rc;
}

static void post_write(uint32_t id, uint32_t off, uint32_t len, uint8_t seed)
{
	struct roce_send_wr wr = {
		.id = id, .op = ROCE_WR_WRITE, .len = len,
		.raddr = B.mem_va + off, .rkey = B.rkey,
	};
	uint8_t *src = malloc(len);
	uint32_t i;

	for (i = 0; i < len; i++)
		src[i] = (uint8_t)(seed + i * 7);
	T_EQ(ep_post(&A, &wr, src), 0);
	free(src);
}

static int written(uint32_t off, uint32_t len, uint8_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (B.mem[off + i] != (uint8_t)(seed + i * 7))
			return 0;
	return 1;
}

T_CASE(fusable_only_for_the_write_in_progress)
{
	struct ep_frame f;
	int fus;

	pair();
	post_write(0, 0, 4000, 1);  /* FIRST, MIDDLE, MIDDLE, LAST (928 + pad) */
	post_write(1, 8192, 16, 2); /* ONLY */
	T_EQ(ep_pump(&A, now), 5);
	/* a MIDDLE before its FIRST: not the write in progress */
	T_EQ(deliver(A.tx[1].b, A.tx[1].len, &fus), ROCE_R_PSN_AHEAD);
	T_EQ(fus, 0);
	T_EQ(deliver(A.tx[0].b, A.tx[0].len, &fus), 0); /* FIRST: checked first */
	T_EQ(fus, 0);
	/* the second MIDDLE while the first is expected: a gap */
	T_EQ(deliver(A.tx[2].b, A.tx[2].len, &fus), ROCE_R_PSN_AHEAD);
	T_EQ(fus, 0);
	/* the expected MIDDLE from another source address */
	f = A.tx[1];
	f.b[14 + 15] ^= 1; /* IPv4 source, last byte */
	roce_icrc_put(f.b + f.len - 4, roce_icrc_compute(f.b + 14, f.len - 18, 0));
	f.b[14 + 10] = f.b[14 + 11] = 0;
	roce_put_be16(f.b + 14 + 10, roce_ip_csum(f.b + 14, ROCE_IPV4_HLEN));
	T_EQ(deliver(f.b, f.len, &fus), ROCE_R_ADDR);
	T_EQ(fus, 0);
	T_EQ(deliver(A.tx[1].b, A.tx[1].len, &fus), 0);
	T_EQ(fus, 1);
	/* a duplicate of it: re-ACKed, not written again */
	T_EQ(deliver(A.tx[1].b, A.tx[1].len, &fus), ROCE_R_DUPLICATE);
	T_EQ(fus, 0);
	T_EQ(deliver(A.tx[2].b, A.tx[2].len, &fus), 0);
	T_EQ(fus, 1);
	T_EQ(deliver(A.tx[3].b, A.tx[3].len, &fus), 0); /* LAST */
	T_EQ(fus, 1);
	T_EQ(deliver(A.tx[4].b, A.tx[4].len, &fus), 0); /* ONLY: checked first */
	T_EQ(fus, 0);
	T_EQ(fused_ok, 3);
	T_CHECK(written(0, 4000, 1));
	T_CHECK(written(8192, 16, 2));
	T_EQ(B.qp.resp.msn, 2);
}

T_CASE(bad_icrc_in_the_copy_drops_without_a_trace)
{
	struct ep_frame f;
	uint32_t epsn, left, ntx;
	int fus;

	pair();
	post_write(0, 4096, 3001, 3); /* FIRST, MIDDLE, LAST (953 + 3 pad) */
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(deliver(A.tx[0].b, A.tx[0].len, &fus), 0);
	B.ntx = 0;
	ep_pump(&B, now);
	ntx = B.ntx;
	epsn = B.qp.resp.epsn;
	left = B.qp.resp.wr_left;
	/* one payload bit of the MIDDLE, and one of the LAST's pad, flipped on the way */
	f = A.tx[1];
	f.b[f.len - 4 - 500] ^= 0x04;
	T_EQ(deliver(f.b, f.len, &fus), ROCE_R_ICRC);
	T_EQ(fus, 1);
	f = A.tx[2];
	T_EQ(deliver(A.tx[1].b, A.tx[1].len, &fus), 0);
	epsn = B.qp.resp.epsn;
	left = B.qp.resp.wr_left;
	f.b[f.len - 5] ^= 0x80; /* the last pad byte */
	T_EQ(deliver(f.b, f.len, &fus), ROCE_R_ICRC);
	T_EQ(fus, 1);
	T_EQ(fused_bad, 2);
	/* nothing moved: PSN, write progress, no ACK/NAK queued */
	T_EQ(B.qp.resp.epsn, epsn);
	T_EQ(B.qp.resp.wr_left, left);
	T_EQ(B.qp.resp.ctx, ROCE_RESP_IN_WRITE);
	ep_pump(&B, now);
	T_EQ(B.ntx, ntx);
	/* the retransmission completes it */
	T_EQ(deliver(A.tx[2].b, A.tx[2].len, &fus), 0);
	T_EQ(fus, 1);
	T_CHECK(written(4096, 3001, 3));
	T_EQ(B.qp.resp.msn, 1);
	T_EQ(B.qp.resp.ctx, ROCE_RESP_IDLE);
	T_EQ(B.nerr, 0);
}

T_CASE(send_middle_last_fused)
{
	struct roce_send_wr wr = { .id = 0, .op = ROCE_WR_SEND, .len = 3001 };
	uint8_t src[3001];
	struct ep_frame f;
	uint32_t i, off;
	int fus;

	pair();
	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 13 + 5);
	ep_post_recv(&B, 4096);
	T_EQ(ep_post(&A, &wr, src), 0); /* FIRST, MIDDLE, LAST */
	T_EQ(ep_pump(&A, now), 3);
	T_EQ(deliver(A.tx[0].b, A.tx[0].len, &fus), 0); /* FIRST: takes the WQE, checked first */
	T_EQ(fus, 0);
	off = B.qp.resp.wqe_off;
	f = A.tx[1];
	f.b[f.len - 4 - 1000] ^= 0x01;
	T_EQ(deliver(f.b, f.len, &fus), ROCE_R_ICRC);
	T_EQ(fus, 1);
	T_EQ(B.qp.resp.wqe_off, off); /* nothing moved */
	T_EQ(B.qp.resp.ctx, ROCE_RESP_IN_SEND);
	T_EQ(B.nrdone, 0);
	T_EQ(deliver(A.tx[1].b, A.tx[1].len, &fus), 0);
	T_EQ(fus, 1);
	T_EQ(deliver(A.tx[2].b, A.tx[2].len, &fus), 0);
	T_EQ(fus, 1);
	T_EQ(fused_ok, 2);
	T_EQ(fused_bad, 1);
	T_EQ(B.nrdone, 1);
	T_EQ(B.rdone[0].d.byte_len, 3001);
	T_MEMEQ(ep_recv_buf(&B, B.rdone[0].cookie), src, sizeof(src));
	T_EQ(B.nerr, 0);
}

int main(int argc, char **argv)
{
	int rc = t_main(argc, argv);

	ep_free(&A);
	ep_free(&B);
	return rc;
}
