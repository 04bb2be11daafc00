/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "pkt" engine: lib/roce's packet layer with the least transport that ping-pong
 * needs. One message in flight; RC segments by the path MTU, asks for an ACK on the last
 * packet, ACKs what asks for it, re-ACKs duplicates and resends the outstanding message
 * when no ACK comes (the bridge does not lose frames, so this is a safety net).
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "iop_peer.h"
#include "roce_hdr.h"
#include "roce_opcode.h"

#define RESEND_MS 500
#define RESEND_MAX 10

struct pkt_engine {
	uint32_t sq_psn;   /* next PSN to send */
	uint32_t msg_psn;  /* first PSN of the outstanding message */
	uint32_t msg_last; /* last PSN of the outstanding message */
	int64_t resend_at;
	unsigned int resends_left;
	uint32_t rq_epsn;  /* responder: next PSN expected */
	uint32_t msn;
	uint32_t rlen;
	bool in_msg;
	uint8_t *rxbuf;    /* GRH area + message */
	uint64_t acks_tx, acks_rx, dups, resends;
};

static struct pkt_engine *E(struct iop_peer *pr)
{
	return pr->eng_priv;
}

static int pkt_start(struct iop_peer *pr)
{
	struct pkt_engine *e = calloc(1, sizeof(*e));

	if (e == NULL || (e->rxbuf = calloc(1, ROCE_GRH_LEN + pr->o.size)) == NULL) {
		free(e);
		return -ENOMEM;
	}
	e->sq_psn = pr->mine.psn;
	e->rq_epsn = pr->theirs.psn;
	pr->eng_priv = e;
	return 0;
}

static void pkt_stop(struct iop_peer *pr)
{
	if (E(pr)) {
		free(E(pr)->rxbuf);
		free(E(pr));
	}
	pr->eng_priv = NULL;
}

static uint32_t npkts(const struct iop_peer *pr)
{
	if (pr->o.transport == T_UD || pr->o.size <= pr->o.mtu)
		return 1;
	return (pr->o.size + pr->o.mtu - 1) / pr->o.mtu;
}

/* Sends the outstanding message (again, for a resend) as SEND packets of the path MTU. */
static int send_message(struct iop_peer *pr)
{
	struct pkt_engine *e = E(pr);
	uint8_t frame[IOP_FRAME_MAX];
	uint32_t n = npkts(pr), k, off = 0;

	for (k = 0; k < n; k++) {
		struct roce_pkt p;
		uint32_t len = pr->o.size - off < pr->o.mtu ? pr->o.size - off : pr->o.mtu;
		uint8_t op;

		if (pr->o.transport == T_UD)
			op = ROCE_OP_UD_SEND_ONLY;
		else if (n == 1)
			op = ROCE_OP_RC_SEND_ONLY;
		else if (k == 0)
			op = ROCE_OP_RC_SEND_FIRST;
		else if (k + 1 == n)
			op = ROCE_OP_RC_SEND_LAST;
		else
			op = ROCE_OP_RC_SEND_MIDDLE;
		iop_pkt_init(pr, &p, op, roce_psn_add(e->msg_psn, k));
		if (pr->o.transport == T_UD) {
			p.deth.qkey = PP_QKEY;
			p.deth.sqpn = pr->mine.qpn;
		}
		p.ackreq = pr->o.transport == T_RC && k + 1 == n; /* rxe ACKs what asks for it */
		p.payload = pr->txbuf + off;
		p.paylen = len;
		if (iop_pkt_send(pr, &p, frame) < 0)
			return -EIO;
		off += len;
	}
	return 0;
}

static int pkt_post(struct iop_peer *pr)
{
	struct pkt_engine *e = E(pr);
	uint32_t n = npkts(pr);

	e->msg_psn = e->sq_psn;
	e->msg_last = roce_psn_add(e->sq_psn, n - 1);
	e->sq_psn = roce_psn_add(e->sq_psn, n);
	pr->send_pending = pr->o.transport == T_RC; /* a UD send completes when it leaves */
	e->resend_at = iop_now_ms() + RESEND_MS;
	e->resends_left = RESEND_MAX;
	return send_message(pr);
}

static void send_ack(struct iop_peer *pr, uint32_t psn)
{
	uint8_t frame[IOP_FRAME_MAX];
	struct roce_pkt p;

	iop_pkt_init(pr, &p, ROCE_OP_RC_ACK, psn);
	p.aeth.syndrome = ROCE_SYN_ACK;
	p.aeth.msn = E(pr)->msn & ROCE_MSN_MASK;
	if (iop_pkt_send(pr, &p, frame) == 0)
		E(pr)->acks_tx++;
}

static void rx_ud(struct iop_peer *pr, const struct roce_pkt *p)
{
	uint8_t *b = E(pr)->rxbuf;

	if (p->opcode != ROCE_OP_UD_SEND_ONLY) {
		iop_fail(pr, "UD QP received %s", roce_opcode_name(p->opcode));
		return;
	}
	if (p->deth.qkey != PP_QKEY) {
		iop_fail(pr, "UD SEND with Q_Key 0x%08x, expected 0x%08x", p->deth.qkey, PP_QKEY);
		return;
	}
	if (p->paylen > pr->o.size) {
		iop_fail(pr, "UD SEND of %u bytes overflows the %u-byte receive", p->paylen, pr->o.size);
		return;
	}
	/* the GRH area verbs puts in front of a UD receive: for IPv4, 20 zero bytes and
	 * then the IPv4 header */
	memset(b, 0, ROCE_GRH_LEN - ROCE_IPV4_HLEN);
	memcpy(b + ROCE_GRH_LEN - ROCE_IPV4_HLEN, p->l3, ROCE_IPV4_HLEN);
	memcpy(b + ROCE_GRH_LEN, p->payload, p->paylen);
	iop_message_done(pr, b, ROCE_GRH_LEN + p->paylen);
}

static void rx_rc_ack(struct iop_peer *pr, const struct roce_pkt *p)
{
	struct pkt_engine *e = E(pr);
	uint8_t type = p->aeth.syndrome & ROCE_AETH_TYPE_MASK;

	e->acks_rx++;
	if (type == ROCE_AETH_NAK) {
		iop_fail(pr, "NAK (syndrome 0x%02x) at PSN 0x%06x", p->aeth.syndrome, p->psn);
		return;
	}
	if (type != ROCE_AETH_ACK)
		return; /* RNR NAK: the resend timer tries again */
	if (pr->send_pending && roce_psn_diff(p->psn, e->msg_last) >= 0 &&
	    roce_psn_diff(p->psn, e->sq_psn) < 0)
		pr->send_pending = false;
}

static void rx_rc_send(struct iop_peer *pr, const struct roce_pkt *p)
{
	struct pkt_engine *e = E(pr);
	uint32_t f = p->oi->flags;
	int32_t d = roce_psn_diff(p->psn, e->rq_epsn);

	if (d < 0) {
		/* a resend of something we have: acknowledge again what we have */
		e->dups++;
		send_ack(pr, roce_psn_add(e->rq_epsn, ROCE_PSN_MASK));
		return;
	}
	if (d > 0) {
		iop_fail(pr, "PSN 0x%06x after a gap (expected 0x%06x) on a loss-free bridge", p->psn,
			 e->rq_epsn);
		return;
	}
	if ((f & ROCE_OPF_FIRST) ? e->in_msg : !e->in_msg) {
		iop_fail(pr, "%s out of sequence", roce_opcode_name(p->opcode));
		return;
	}
	if (!(f & ROCE_OPF_LAST) && p->paylen != pr->o.mtu) {
		iop_fail(pr, "%s carries %u bytes, path MTU is %u", roce_opcode_name(p->opcode),
			 p->paylen, pr->o.mtu);
		return;
	}
	if (f & ROCE_OPF_FIRST)
		e->rlen = 0;
	if (e->rlen + p->paylen > pr->o.size) {
		iop_fail(pr, "message longer than the %u-byte receive", pr->o.size);
		return;
	}
	memcpy(e->rxbuf + e->rlen, p->payload, p->paylen);
	e->rlen += p->paylen;
	e->in_msg = !(f & ROCE_OPF_LAST);
	e->rq_epsn = roce_psn_add(e->rq_epsn, 1);
	if (f & ROCE_OPF_LAST) {
		e->msn = (e->msn + 1) & ROCE_MSN_MASK;
		iop_message_done(pr, e->rxbuf, e->rlen);
	}
	if (p->ackreq)
		send_ack(pr, p->psn);
}

static int pkt_step(struct iop_peer *pr, int64_t until_ms)
{
	struct pkt_engine *e = E(pr);
	uint8_t frame[IOP_FRAME_MAX];
	struct roce_pkt p;
	int len;

	if (pr->send_pending && e->resend_at < until_ms)
		until_ms = e->resend_at;
	len = iop_port_recv(&pr->port, frame, sizeof(frame), until_ms);
	if (len == -ETIMEDOUT) {
		if (pr->send_pending && iop_now_ms() >= e->resend_at) {
			if (e->resends_left-- == 0) {
				iop_fail(pr, "no acknowledgement after %u resends", RESEND_MAX);
				return -1;
			}
			e->resends++;
			e->resend_at = iop_now_ms() + RESEND_MS;
			return send_message(pr);
		}
		return 0;
	}
	if (len < 0) {
		iop_fail(pr, "receive on %s: %s", pr->o.ifname, strerror(-len));
		return -1;
	}
	if (iop_pkt_accept(pr, frame, len, &p) <= 0)
		return 0;
	if (pr->o.transport == T_UD)
		rx_ud(pr, &p);
	else if (ROCE_OP_TRANSPORT(p.opcode) != ROCE_TRANSPORT_RC)
		iop_fail(pr, "RC QP received %s", roce_opcode_name(p.opcode));
	else if (p.opcode == ROCE_OP_RC_ACK)
		rx_rc_ack(pr, &p);
	else if ((p.oi->flags & (ROCE_OPF_SEND | ROCE_OPF_REQ)) == (ROCE_OPF_SEND | ROCE_OPF_REQ))
		rx_rc_send(pr, &p);
	else
		iop_fail(pr, "unexpected %s", roce_opcode_name(p.opcode));
	return 0;
}

static void pkt_report(struct iop_peer *pr, char *buf, size_t len)
{
	struct pkt_engine *e = E(pr);

	snprintf(buf, len, "ACKs tx %llu rx %llu, duplicates %llu, resends %llu",
		 (unsigned long long)e->acks_tx, (unsigned long long)e->acks_rx,
		 (unsigned long long)e->dups, (unsigned long long)e->resends);
}

const struct iop_engine iop_engine_pkt = {
	.name = "pkt",
	.start = pkt_start,
	.post = pkt_post,
	.step = pkt_step,
	.report = pkt_report,
	.stop = pkt_stop,
};
