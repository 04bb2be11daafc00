/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iop-roce-peer: the host side of the interop self-test. A minimal RoCEv2 endpoint built
 * on lib/roce's packet layer (roce_pkt_build / roce_pkt_parse, ICRC) over a raw AF_PACKET
 * port, that ping-pongs SENDs with rdma-core's ibv_ud_pingpong or ibv_rc_pingpong running
 * on a real Linux rxe device. It speaks the tools' 52-byte TCP exchange in either role.
 *
 * It is a test instrument, not a transport: one QP, one message in flight, RC with a plain
 * resend of the outstanding message on timeout (the bridge does not lose frames). Every
 * frame from the peer must pass lib/roce's checks (ICRC included) and the QP's checks
 * (QPN, addresses, Q_Key, PSN order, opcode sequence, length); the run fails otherwise.
 *
 *   iop-roce-peer -t ud|rc (-c GUEST_IP | -l BIND_IP) [-i IFNAME] [-a OUR_IP] [-p PORT]
 *                 [-s SIZE] [-n ITERS] [-m MTU] [-T SECONDS] [-x]
 *
 * -x first sends a probe whose ICRC is wrong and requires that the peer ignores it (rxe
 * drops such frames silently): proof that the peer really checks what lib/roce computes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iop_oob.h"
#include "iop_port.h"
#include "roce_addr.h"
#include "roce_hdr.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_reason.h"

#define PP_QKEY 0x11111111u /* ibv_ud_pingpong's Q_Key */
#define RESEND_MS 500
#define RESEND_MAX 10
#define PROBE_QUIET_MS 500 /* how long the peer must stay silent after a bad-ICRC probe */

enum transport { T_UD, T_RC };

struct opts {
	enum transport transport;
	const char *connect_ip; /* client role: the guest's address */
	const char *bind_ip;    /* server role: where the guest's client connects */
	const char *ifname;
	const char *our_ip;
	uint16_t tcp_port;
	uint32_t size, iters, mtu;
	int timeout_s;
	bool icrc_probe;
};

struct peer {
	struct opts o;
	struct iop_port port;
	uint8_t our_ip[4], peer_ip[4], peer_mac[6];
	struct iop_pp_dest mine, theirs;
	uint16_t sport, ip_id;
	int64_t deadline;
	uint8_t *txbuf;  /* the message we send */
	uint8_t *rxbuf;  /* a receive buffer: 40-byte GRH area + message, as verbs lays it out */
	/* requester */
	uint32_t sq_psn;      /* next PSN to send */
	uint32_t msg_psn;     /* first PSN of the outstanding message */
	uint32_t msg_last;    /* last PSN of the outstanding message */
	bool outstanding;
	/* responder */
	uint32_t rq_epsn;     /* next PSN expected */
	uint32_t msn;
	uint32_t rlen;
	bool in_msg;
	uint32_t rx_msgs;
	/* counters */
	uint64_t rx_frames, rx_bad, rx_foreign, acks_tx, acks_rx, dups, resends;
	bool corrupt_icrc; /* the next frame goes out with its ICRC inverted */
	bool failed;
};

static void fail(struct peer *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct peer *pr, const char *fmt, ...)
{
	va_list ap;

	if (pr->failed)
		return; /* the first failure is the one that matters */
	pr->failed = true;
	fprintf(stderr, "iop-roce-peer: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The fields of every frame we send; the caller sets opcode, PSN and what follows. */
static void pkt_init(struct peer *pr, struct roce_pkt *p, uint8_t opcode, uint32_t psn)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->dmac, pr->peer_mac, 6);
	memcpy(p->smac, pr->port.mac, 6);
	p->hop_limit = 64;
	p->ip_id = pr->ip_id++;
	p->ip_frag = 0x4000; /* DF */
	memcpy(p->sgid, pr->mine.gid, 16);
	memcpy(p->dgid, pr->theirs.gid, 16);
	p->sport = pr->sport;
	p->opcode = opcode;
	p->pkey = ROCE_PKEY_DEFAULT;
	p->dqpn = pr->theirs.qpn;
	p->psn = psn & ROCE_PSN_MASK;
}

static int pkt_send(struct peer *pr, const struct roce_pkt *p)
{
	uint8_t frame[IOP_FRAME_MAX];
	int len = roce_pkt_build(p, frame, sizeof(frame));

	if (len < 0) {
		fail(pr, "roce_pkt_build(%s): %s", roce_opcode_name(p->opcode), strerror(-len));
		return len;
	}
	if (pr->corrupt_icrc) {
		frame[len - 1] ^= 0xff;
		pr->corrupt_icrc = false;
	}
	len = iop_port_send(&pr->port, frame, (size_t)len);
	if (len < 0)
		fail(pr, "send on %s: %s", pr->o.ifname, strerror(-len));
	return len;
}

/* Sends the outstanding message (again, for a resend) as SEND packets of the path MTU. */
static int send_message(struct peer *pr)
{
	uint32_t npkts = 1, k, off = 0;

	if (pr->o.transport == T_UD) {
		struct roce_pkt p;

		pkt_init(pr, &p, ROCE_OP_UD_SEND_ONLY, pr->msg_psn);
		p.deth.qkey = PP_QKEY;
		p.deth.sqpn = pr->mine.qpn;
		p.payload = pr->txbuf;
		p.paylen = pr->o.size;
		return pkt_send(pr, &p);
	}
	if (pr->o.size > pr->o.mtu)
		npkts = (pr->o.size + pr->o.mtu - 1) / pr->o.mtu;
	for (k = 0; k < npkts; k++) {
		struct roce_pkt p;
		uint8_t op;
		uint32_t len = pr->o.size - off < pr->o.mtu ? pr->o.size - off : pr->o.mtu;

		if (npkts == 1)
			op = ROCE_OP_RC_SEND_ONLY;
		else if (k == 0)
			op = ROCE_OP_RC_SEND_FIRST;
		else if (k + 1 == npkts)
			op = ROCE_OP_RC_SEND_LAST;
		else
			op = ROCE_OP_RC_SEND_MIDDLE;
		pkt_init(pr, &p, op, roce_psn_add(pr->msg_psn, k));
		p.ackreq = k + 1 == npkts; /* rxe acknowledges only what asks for it */
		p.payload = pr->txbuf + off;
		p.paylen = len;
		if (pkt_send(pr, &p) < 0)
			return -EIO;
		off += len;
	}
	return 0;
}

static int post_message(struct peer *pr, uint32_t iter)
{
	uint32_t i, npkts = 1;

	/* a pattern that differs per message, so a stale or misplaced segment shows */
	for (i = 0; i < pr->o.size; i++)
		pr->txbuf[i] = (uint8_t)(iter * 7 + i);
	if (pr->o.transport == T_RC && pr->o.size > pr->o.mtu)
		npkts = (pr->o.size + pr->o.mtu - 1) / pr->o.mtu;
	pr->msg_psn = pr->sq_psn;
	pr->msg_last = roce_psn_add(pr->sq_psn, npkts - 1);
	pr->sq_psn = roce_psn_add(pr->sq_psn, npkts);
	pr->outstanding = pr->o.transport == T_RC; /* a UD send completes when it leaves */
	return send_message(pr);
}

static void send_ack(struct peer *pr, uint32_t psn)
{
	struct roce_pkt p;

	pkt_init(pr, &p, ROCE_OP_RC_ACK, psn);
	p.aeth.syndrome = ROCE_SYN_ACK;
	p.aeth.msn = pr->msn & ROCE_MSN_MASK;
	if (pkt_send(pr, &p) == 0)
		pr->acks_tx++;
}

/* A message arrived whole in rxbuf + ROCE_GRH_LEN. */
static void message_done(struct peer *pr, uint32_t len)
{
	if (len != pr->o.size) {
		fail(pr, "message %u: %u bytes, expected %u", pr->rx_msgs, len, pr->o.size);
		return;
	}
	pr->rx_msgs++;
}

static void rx_ud(struct peer *pr, const struct roce_pkt *p)
{
	if (p->opcode != ROCE_OP_UD_SEND_ONLY) {
		fail(pr, "UD QP received %s", roce_opcode_name(p->opcode));
		return;
	}
	if (p->deth.qkey != PP_QKEY) {
		fail(pr, "UD SEND with Q_Key 0x%08x, expected 0x%08x", p->deth.qkey, PP_QKEY);
		return;
	}
	if (p->deth.sqpn != pr->theirs.qpn) {
		fail(pr, "UD SEND from QP 0x%06x, expected 0x%06x", p->deth.sqpn, pr->theirs.qpn);
		return;
	}
	if (p->paylen > pr->o.size) {
		fail(pr, "UD SEND of %u bytes overflows the %u-byte receive", p->paylen, pr->o.size);
		return;
	}
	/* the GRH area verbs puts in front of a UD receive: for IPv4, 20 zero bytes and
	 * then the IPv4 header */
	memset(pr->rxbuf, 0, ROCE_GRH_LEN - ROCE_IPV4_HLEN);
	memcpy(pr->rxbuf + ROCE_GRH_LEN - ROCE_IPV4_HLEN, p->l3, ROCE_IPV4_HLEN);
	memcpy(pr->rxbuf + ROCE_GRH_LEN, p->payload, p->paylen);
	if (memcmp(pr->rxbuf + ROCE_GRH_LEN - 8, pr->peer_ip, 4) != 0 ||
	    memcmp(pr->rxbuf + ROCE_GRH_LEN - 4, pr->our_ip, 4) != 0) {
		fail(pr, "GRH area does not carry the peer's and our address");
		return;
	}
	message_done(pr, p->paylen);
}

static void rx_rc_ack(struct peer *pr, const struct roce_pkt *p)
{
	uint8_t type = p->aeth.syndrome & ROCE_AETH_TYPE_MASK;

	pr->acks_rx++;
	if (type == ROCE_AETH_NAK) {
		fail(pr, "NAK (syndrome 0x%02x) at PSN 0x%06x", p->aeth.syndrome, p->psn);
		return;
	}
	if (type == ROCE_AETH_RNR_NAK) {
		/* resent by the timer; the peer posts its receives before it connects, so
		 * this would be unusual but it is not an error */
		return;
	}
	if (type != ROCE_AETH_ACK)
		return;
	if (pr->outstanding && roce_psn_diff(p->psn, pr->msg_last) >= 0 &&
	    roce_psn_diff(p->psn, pr->sq_psn) < 0)
		pr->outstanding = false;
}

static void rx_rc_send(struct peer *pr, const struct roce_pkt *p)
{
	uint32_t f = p->oi->flags;
	int32_t d = roce_psn_diff(p->psn, pr->rq_epsn);

	if (d < 0) {
		/* a resend of something we have: acknowledge again what we have */
		pr->dups++;
		send_ack(pr, roce_psn_add(pr->rq_epsn, ROCE_PSN_MASK));
		return;
	}
	if (d > 0) {
		fail(pr, "PSN 0x%06x after a gap (expected 0x%06x) on a loss-free bridge", p->psn,
		     pr->rq_epsn);
		return;
	}
	if ((f & ROCE_OPF_FIRST) ? pr->in_msg : !pr->in_msg) {
		fail(pr, "%s out of sequence", roce_opcode_name(p->opcode));
		return;
	}
	if (!(f & ROCE_OPF_LAST) && p->paylen != pr->o.mtu) {
		fail(pr, "%s carries %u bytes, path MTU is %u", roce_opcode_name(p->opcode),
		     p->paylen, pr->o.mtu);
		return;
	}
	if (f & ROCE_OPF_FIRST)
		pr->rlen = 0;
	if (pr->rlen + p->paylen > pr->o.size) {
		fail(pr, "message longer than the %u-byte receive", pr->o.size);
		return;
	}
	memcpy(pr->rxbuf + ROCE_GRH_LEN + pr->rlen, p->payload, p->paylen);
	pr->rlen += p->paylen;
	pr->in_msg = !(f & ROCE_OPF_LAST);
	pr->rq_epsn = roce_psn_add(pr->rq_epsn, 1);
	if (f & ROCE_OPF_LAST) {
		pr->msn = (pr->msn + 1) & ROCE_MSN_MASK;
		message_done(pr, pr->rlen);
	}
	if (p->ackreq)
		send_ack(pr, p->psn);
}

static void rx_frame(struct peer *pr, const uint8_t *frame, int len)
{
	struct roce_pkt p;
	int rc = roce_pkt_parse(frame, (size_t)len, 0, &p);

	pr->rx_frames++;
	if (rc < 0) {
		pr->rx_bad++;
		fail(pr, "frame %llu from the peer rejected by roce_pkt_parse: %s",
		     (unsigned long long)pr->rx_frames, roce_reason_name(-rc));
		return;
	}
	if (p.ipv6 || memcmp(p.sgid, pr->theirs.gid, 16) != 0 || p.dqpn != pr->mine.qpn) {
		pr->rx_foreign++; /* not for our QP, or not from the peer: ignore */
		return;
	}
	if (pr->o.transport == T_UD) {
		rx_ud(pr, &p);
		return;
	}
	if (ROCE_OP_TRANSPORT(p.opcode) != ROCE_TRANSPORT_RC) {
		fail(pr, "RC QP received %s", roce_opcode_name(p.opcode));
		return;
	}
	if (p.opcode == ROCE_OP_RC_ACK)
		rx_rc_ack(pr, &p);
	else if ((p.oi->flags & (ROCE_OPF_SEND | ROCE_OPF_REQ)) == (ROCE_OPF_SEND | ROCE_OPF_REQ))
		rx_rc_send(pr, &p);
	else
		fail(pr, "unexpected %s", roce_opcode_name(p.opcode));
}

/* Serves the wire until our message is acknowledged (if ack) and `msgs` messages have
 * arrived, resending the outstanding message when the peer is silent. */
static int wait_for(struct peer *pr, bool ack, uint32_t msgs, const char *what)
{
	int64_t resend_at = iop_now_ms() + RESEND_MS;
	unsigned int resends = 0;

	while (!pr->failed && ((ack && pr->outstanding) || pr->rx_msgs < msgs)) {
		uint8_t frame[IOP_FRAME_MAX];
		int64_t now = iop_now_ms(), until = pr->deadline;
		int len;

		if (now >= pr->deadline) {
			fail(pr, "timed out waiting for %s (%u of %u messages, %s)", what,
			     pr->rx_msgs, msgs, pr->outstanding ? "send not acknowledged" : "send done");
			break;
		}
		if (pr->outstanding && resend_at < until)
			until = resend_at;
		len = iop_port_recv(&pr->port, frame, sizeof(frame), until);
		if (len > 0) {
			rx_frame(pr, frame, len);
			continue;
		}
		if (len != -ETIMEDOUT) {
			fail(pr, "receive on %s: %s", pr->o.ifname, strerror(-len));
			break;
		}
		if (pr->outstanding && iop_now_ms() >= resend_at) {
			if (++resends > RESEND_MAX) {
				fail(pr, "no acknowledgement after %u resends", RESEND_MAX);
				break;
			}
			pr->resends++;
			send_message(pr);
			resend_at = iop_now_ms() + RESEND_MS;
		}
	}
	return pr->failed ? -1 : 0;
}

/* Sends one SEND whose ICRC is wrong and fails if anything comes back in the quiet time:
 * a peer that checks the ICRC drops it without a word (no reply, no ACK, no NAK). */
static void icrc_probe(struct peer *pr)
{
	uint8_t frame[IOP_FRAME_MAX];
	uint64_t before = pr->rx_frames;
	struct roce_pkt p;
	int len;

	pkt_init(pr, &p, pr->o.transport == T_UD ? ROCE_OP_UD_SEND_ONLY : ROCE_OP_RC_SEND_ONLY,
		 pr->sq_psn);
	p.deth.qkey = PP_QKEY;
	p.deth.sqpn = pr->mine.qpn;
	p.ackreq = 1;
	p.payload = pr->txbuf;
	p.paylen = pr->o.size < pr->o.mtu ? pr->o.size : pr->o.mtu;
	pr->corrupt_icrc = true;
	if (pkt_send(pr, &p) < 0)
		return;
	len = iop_port_recv(&pr->port, frame, sizeof(frame), iop_now_ms() + PROBE_QUIET_MS);
	if (len > 0) {
		rx_frame(pr, frame, len);
		fail(pr, "the peer answered a SEND with a bad ICRC (%llu frame(s) back)",
		     (unsigned long long)(pr->rx_frames - before));
		return;
	}
	printf("bad-ICRC probe: no answer in %d ms (dropped, as it must be)\n", PROBE_QUIET_MS);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: iop-roce-peer -t ud|rc (-c GUEST_IP | -l BIND_IP) [-i IFNAME] [-a OUR_IP]\n"
		   "                     [-p PORT] [-s SIZE] [-n ITERS] [-m MTU] [-T SECONDS]\n"
		   "  -t  transport: ud (ibv_ud_pingpong) or rc (ibv_rc_pingpong)\n"
		   "  -c  client role: connect to the pingpong server at GUEST_IP\n"
		   "  -l  server role: accept the pingpong client on BIND_IP\n"
		   "  -i  raw interface (default roce0)      -a  our RoCE address (default 198.18.0.2)\n"
		   "  -p  TCP port (default 18515)            -s  message size (default 1024)\n"
		   "  -n  iterations (default 8)              -m  RC path MTU (default 1024)\n"
		   "  -T  overall time limit in seconds (default 30)\n"
		   "  -x  first send a probe with a bad ICRC; fail if the peer answers it\n");
}

static int parse_u32(const char *s, const char *what, uint32_t min, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "iop-roce-peer: %s '%s' is not a number in %u..%u\n", what, s, min, max);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	uint32_t v;
	int c;

	*o = (struct opts){ .transport = T_UD, .ifname = "roce0", .our_ip = "198.18.0.2",
			    .tcp_port = 18515, .size = 1024, .iters = 8, .mtu = 1024, .timeout_s = 30 };
	while ((c = getopt(argc, argv, "t:c:l:i:a:p:s:n:m:T:xh")) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "ud") == 0)
				o->transport = T_UD;
			else if (strcmp(optarg, "rc") == 0)
				o->transport = T_RC;
			else {
				fprintf(stderr, "iop-roce-peer: transport '%s' is not ud or rc\n", optarg);
				return -1;
			}
			break;
		case 'c': o->connect_ip = optarg; break;
		case 'l': o->bind_ip = optarg; break;
		case 'i': o->ifname = optarg; break;
		case 'a': o->our_ip = optarg; break;
		case 'p':
			if (parse_u32(optarg, "port", 1, 65535, &v))
				return -1;
			o->tcp_port = (uint16_t)v;
			break;
		case 's':
			if (parse_u32(optarg, "size", 1, 1u << 20, &o->size))
				return -1;
			break;
		case 'n':
			if (parse_u32(optarg, "iterations", 1, 1000000, &o->iters))
				return -1;
			break;
		case 'm':
			if (parse_u32(optarg, "MTU", 256, 4096, &o->mtu))
				return -1;
			if (o->mtu & (o->mtu - 1)) {
				fprintf(stderr, "iop-roce-peer: MTU %u is not 256, 512, 1024, 2048 or 4096\n", o->mtu);
				return -1;
			}
			break;
		case 'T':
			if (parse_u32(optarg, "time limit", 1, 3600, &v))
				return -1;
			o->timeout_s = (int)v;
			break;
		case 'x': o->icrc_probe = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc || !o->connect_ip == !o->bind_ip) {
		fprintf(stderr, "iop-roce-peer: give exactly one of -c GUEST_IP and -l BIND_IP\n");
		return -1;
	}
	if (o->icrc_probe && !o->connect_ip) {
		fprintf(stderr, "iop-roce-peer: -x needs the client role (-c): the server's peer talks first\n");
		return -1;
	}
	if (o->transport == T_UD && o->size > o->mtu) {
		fprintf(stderr, "iop-roce-peer: a UD message of %u bytes exceeds the %u-byte MTU\n",
			o->size, o->mtu);
		return -1;
	}
	return 0;
}

static void print_dest(const char *what, const struct iop_pp_dest *d)
{
	char g[ROCE_GID_STRLEN];

	printf("  %s address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n", what, d->lid, d->qpn,
	       d->psn, roce_gid_format(d->gid, g, sizeof(g)));
}

int main(int argc, char **argv)
{
	struct peer pr;
	int64_t t0;
	uint32_t i;
	int rc;

	memset(&pr, 0, sizeof(pr));
	if (parse_opts(argc, argv, &pr.o))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (inet_pton(AF_INET, pr.o.our_ip, pr.our_ip) != 1) {
		fprintf(stderr, "iop-roce-peer: our address '%s' is not IPv4\n", pr.o.our_ip);
		return 2;
	}
	pr.deadline = iop_now_ms() + (int64_t)pr.o.timeout_s * 1000;
	pr.txbuf = calloc(1, pr.o.size);
	pr.rxbuf = calloc(1, ROCE_GRH_LEN + pr.o.size);
	if (!pr.txbuf || !pr.rxbuf) {
		fprintf(stderr, "iop-roce-peer: out of memory\n");
		return 1;
	}
	rc = iop_port_open(&pr.port, pr.o.ifname, pr.our_ip);
	if (rc < 0) {
		fprintf(stderr, "iop-roce-peer: cannot open %s: %s\n", pr.o.ifname, strerror(-rc));
		return 1;
	}
	srandom((unsigned int)(time(NULL) ^ getpid()));
	pr.mine.qpn = 0x100 + (uint32_t)(random() % 0xff00);
	pr.mine.psn = (uint32_t)random() & ROCE_PSN_MASK;
	roce_gid_from_ipv4(pr.mine.gid, pr.our_ip);
	pr.sq_psn = pr.mine.psn;

	if (pr.o.connect_ip)
		rc = iop_pp_client(&pr.port, pr.o.connect_ip, pr.o.tcp_port, &pr.mine, &pr.theirs,
				   pr.deadline);
	else
		rc = iop_pp_server(&pr.port, pr.o.bind_ip, pr.o.tcp_port, &pr.mine, &pr.theirs,
				   pr.deadline);
	if (rc < 0) {
		fprintf(stderr, "iop-roce-peer: pingpong exchange with %s:%u failed: %s\n",
			pr.o.connect_ip ? pr.o.connect_ip : pr.o.bind_ip, pr.o.tcp_port,
			rc == -EBADMSG ? "malformed record" : strerror(-rc));
		iop_port_close(&pr.port);
		return 1;
	}
	print_dest("local ", &pr.mine);
	print_dest("remote", &pr.theirs);
	if (!roce_gid_is_ipv4(pr.theirs.gid)) {
		fprintf(stderr, "iop-roce-peer: the peer's GID is not IPv4-mapped (start it with -g <index>)\n");
		iop_port_close(&pr.port);
		return 1;
	}
	memcpy(pr.peer_ip, pr.theirs.gid + 12, 4);
	rc = iop_port_resolve(&pr.port, pr.peer_ip, pr.peer_mac, pr.deadline);
	if (rc < 0) {
		fprintf(stderr, "iop-roce-peer: no ARP reply from the peer: %s\n", strerror(-rc));
		iop_port_close(&pr.port);
		return 1;
	}
	pr.sport = roce_udp_sport(pr.mine.qpn, pr.theirs.qpn, 0);
	pr.rq_epsn = pr.theirs.psn;

	if (pr.o.icrc_probe)
		icrc_probe(&pr);
	t0 = iop_now_ms();
	for (i = 0; i < pr.o.iters && !pr.failed; i++) {
		if (pr.o.connect_ip) {
			/* the client sends first, then waits for its completion and the reply */
			if (post_message(&pr, i) == 0)
				wait_for(&pr, true, i + 1, "the reply");
		} else {
			if (wait_for(&pr, false, i + 1, "a message") == 0 && post_message(&pr, i) == 0)
				wait_for(&pr, true, i + 1, "our acknowledgement");
		}
	}
	if (!pr.failed) {
		/* keep answering briefly: a peer resending our last ACK's packet gets it again */
		uint8_t frame[IOP_FRAME_MAX];
		int64_t linger = iop_now_ms() + 200;
		int len;

		while ((len = iop_port_recv(&pr.port, frame, sizeof(frame), linger)) > 0 && !pr.failed)
			rx_frame(&pr, frame, len);
	}
	printf("%s %s: %u/%u round trips of %u bytes in %.3f s; rx %llu frames (%llu rejected, "
	       "%llu foreign), tx %llu frames, ACKs tx %llu rx %llu, duplicates %llu, resends %llu, "
	       "ARP replies %llu\n",
	       pr.o.transport == T_UD ? "ud" : "rc", pr.o.connect_ip ? "client" : "server",
	       pr.failed ? (i ? i - 1 : 0) : i, pr.o.iters, pr.o.size,
	       (double)(iop_now_ms() - t0) / 1000.0, (unsigned long long)pr.rx_frames,
	       (unsigned long long)pr.rx_bad, (unsigned long long)pr.rx_foreign,
	       (unsigned long long)pr.port.tx_frames, (unsigned long long)pr.acks_tx,
	       (unsigned long long)pr.acks_rx, (unsigned long long)pr.dups,
	       (unsigned long long)pr.resends, (unsigned long long)pr.port.arp_replies);
	iop_port_close(&pr.port);
	free(pr.txbuf);
	free(pr.rxbuf);
	return pr.failed ? 1 : 0;
}
