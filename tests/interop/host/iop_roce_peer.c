/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iop-roce-peer: the host side of the interop self-test. A RoCEv2 endpoint on lib/roce
 * over a raw AF_PACKET port that ping-pongs SENDs with rdma-core's ibv_ud_pingpong or
 * ibv_rc_pingpong on a real Linux rxe device, speaking the tools' 52-byte TCP exchange in
 * either role; or runs ib_write_lat / ib_read_lat / ib_atomic_lat's traffic with perftest
 * (iop_perf.c). Two engines (iop_peer.h): "pkt" exercises lib/roce's packet layer alone,
 * "qp" its transport state machines. Every frame from the peer must pass lib/roce's checks
 * (ICRC included) and every message must arrive whole, with the right length and layout.
 *
 *   iop-roce-peer -t ud|rc|write_lat|read_lat|atomic_lat|atomic_cs_lat
 *                 (-c GUEST_IP | -l BIND_IP) [-e pkt|qp] [-i IFNAME] [-a OUR_IP]
 *                 [-p PORT] [-s SIZE] [-n ITERS] [-m MTU] [-T SECONDS] [-x]
 *
 * -x first sends a probe whose ICRC is wrong and requires that the peer ignores it (rxe
 * drops such frames silently): proof that the peer really checks what lib/roce computes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iop_peer.h"
#include "roce_addr.h"
#include "roce_hdr.h"
#include "roce_opcode.h"
#include "roce_reason.h"

#define PROBE_QUIET_MS 500 /* how long the peer must stay silent after a bad-ICRC probe */

void iop_fail(struct iop_peer *pr, const char *fmt, ...)
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

void iop_pkt_init(struct iop_peer *pr, struct roce_pkt *p, uint8_t opcode, uint32_t psn)
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

int iop_pkt_send(struct iop_peer *pr, const struct roce_pkt *p, uint8_t *frame)
{
	int len = roce_pkt_build(p, frame, IOP_FRAME_MAX);

	if (len < 0) {
		iop_fail(pr, "roce_pkt_build(%s): %s", roce_opcode_name(p->opcode), strerror(-len));
		return len;
	}
	if (pr->corrupt_icrc) {
		frame[len - 1] ^= 0xff;
		pr->corrupt_icrc = false;
	}
	len = iop_port_send(&pr->port, frame, (size_t)len);
	if (len < 0)
		iop_fail(pr, "send on %s: %s", pr->o.ifname, strerror(-len));
	return len;
}

int iop_pkt_accept(struct iop_peer *pr, const uint8_t *frame, int len, struct roce_pkt *p)
{
	enum roce_reason rc = roce_pkt_parse(frame, (size_t)len, 0, p);

	pr->rx_frames++;
	if (rc != ROCE_R_OK) {
		pr->rx_bad++;
		iop_fail(pr, "frame %llu from the peer rejected by roce_pkt_parse: %s",
			 (unsigned long long)pr->rx_frames, roce_reason_name(rc));
		return -1;
	}
	if (p->ipv6 || memcmp(p->sgid, pr->theirs.gid, 16) != 0 || p->dqpn != pr->mine.qpn) {
		pr->rx_foreign++; /* not for our QP, or not from the peer: ignore */
		return 0;
	}
	return 1;
}

void iop_message_done(struct iop_peer *pr, const uint8_t *buf, uint32_t byte_len)
{
	uint32_t want = pr->o.size;

	if (pr->o.transport == T_UD) {
		static const uint8_t zero[ROCE_GRH_LEN - ROCE_IPV4_HLEN];
		const uint8_t *ip = buf + ROCE_GRH_LEN - ROCE_IPV4_HLEN;

		want += ROCE_GRH_LEN;
		/* verbs' UD receive layout: the GRH area first; for IPv4, 20 zero bytes and
		 * the IPv4 header of the packet, from the peer to us */
		if (byte_len >= ROCE_GRH_LEN &&
		    (memcmp(buf, zero, sizeof(zero)) != 0 || ip[0] != 0x45 ||
		     memcmp(ip + 12, pr->peer_ip, 4) != 0 || memcmp(ip + 16, pr->our_ip, 4) != 0)) {
			iop_fail(pr, "message %u: the GRH area does not hold the IPv4 header from the peer",
				 pr->rx_msgs);
			return;
		}
	}
	if (byte_len != want) {
		iop_fail(pr, "message %u: %u bytes, expected %u", pr->rx_msgs, byte_len, want);
		return;
	}
	pr->rx_msgs++;
}

/* Serves the wire until our send completed (if ack) and `msgs` messages have arrived. */
static int wait_for(struct iop_peer *pr, bool ack, uint32_t msgs, const char *what)
{
	while (!pr->failed && ((ack && pr->send_pending) || pr->rx_msgs < msgs)) {
		if (iop_now_ms() >= pr->deadline) {
			iop_fail(pr, "timed out waiting for %s (%u of %u messages, %s)", what,
				 pr->rx_msgs, msgs, pr->send_pending ? "send not complete" : "send done");
			break;
		}
		if (pr->eng->step(pr, pr->deadline) < 0)
			break;
	}
	return pr->failed ? -1 : 0;
}

/* Sends one SEND whose ICRC is wrong and fails if anything comes back in the quiet time:
 * a peer that checks the ICRC drops it without a word (no reply, no ACK, no NAK). */
static void icrc_probe(struct iop_peer *pr)
{
	uint8_t frame[IOP_FRAME_MAX];
	uint64_t before = pr->rx_frames;
	struct roce_pkt p;
	int len;

	iop_pkt_init(pr, &p, pr->o.transport == T_UD ? ROCE_OP_UD_SEND_ONLY : ROCE_OP_RC_SEND_ONLY,
		     pr->mine.psn);
	p.deth.qkey = PP_QKEY;
	p.deth.sqpn = pr->mine.qpn;
	p.ackreq = 1;
	p.payload = pr->txbuf;
	p.paylen = pr->o.size < pr->o.mtu ? pr->o.size : pr->o.mtu;
	pr->corrupt_icrc = true;
	if (iop_pkt_send(pr, &p, frame) < 0)
		return;
	len = iop_port_recv(&pr->port, frame, sizeof(frame), iop_now_ms() + PROBE_QUIET_MS);
	if (len > 0) {
		pr->rx_frames++;
		iop_fail(pr, "the peer answered a SEND with a bad ICRC (%llu frame(s) back)",
			 (unsigned long long)(pr->rx_frames - before));
		return;
	}
	printf("bad-ICRC probe: no answer in %d ms (dropped, as it must be)\n", PROBE_QUIET_MS);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: iop-roce-peer -t TEST (-c GUEST_IP | -l BIND_IP) [-e pkt|qp] [-i IFNAME]\n"
		   "                     [-a OUR_IP] [-p PORT] [-s SIZE] [-n ITERS] [-m MTU] [-T SECONDS] [-x]\n"
		   "  -t  ud (ibv_ud_pingpong), rc (ibv_rc_pingpong), write_lat, read_lat, atomic_lat,\n"
		   "      atomic_cs_lat (ib_write_lat, ib_read_lat, ib_atomic_lat [-A CMP_AND_SWAP])\n"
		   "  -c  client role: connect to the pingpong server at GUEST_IP\n"
		   "  -l  server role: accept the pingpong client on BIND_IP\n"
		   "  -e  engine: pkt (lib/roce packet layer) or qp (lib/roce state machines; default)\n"
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

/* -t names, in enum iop_transport order */
static const char *const transports[] = { "ud", "rc", "write_lat", "read_lat", "atomic_lat",
					  "atomic_cs_lat" };

static int parse_opts(int argc, char **argv, struct iop_opts *o)
{
	uint32_t v;
	int c;

	*o = (struct iop_opts){ .transport = T_UD, .engine = "qp", .ifname = "roce0",
				.our_ip = "198.18.0.2", .tcp_port = 18515, .size = 1024, .iters = 8,
				.mtu = 1024, .timeout_s = 30 };
	while ((c = getopt(argc, argv, "t:c:l:e:i:a:p:s:n:m:T:xh")) != -1) {
		switch (c) {
		case 't':
			for (v = 0; v < sizeof(transports) / sizeof(transports[0]); v++)
				if (strcmp(optarg, transports[v]) == 0)
					break;
			if (v == sizeof(transports) / sizeof(transports[0])) {
				fprintf(stderr, "iop-roce-peer: test '%s' is not ud, rc, write_lat, read_lat, "
						"atomic_lat or atomic_cs_lat\n", optarg);
				return -1;
			}
			o->transport = (enum iop_transport)v;
			break;
		case 'e':
			if (strcmp(optarg, "pkt") && strcmp(optarg, "qp")) {
				fprintf(stderr, "iop-roce-peer: engine '%s' is not pkt or qp\n", optarg);
				return -1;
			}
			o->engine = optarg;
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
	if (iop_is_perftest(o->transport) && strcmp(o->engine, "qp") != 0) {
		fprintf(stderr, "iop-roce-peer: the perftest modes run on engine qp only\n");
		return -1;
	}
	if (o->icrc_probe && (!o->connect_ip || iop_is_perftest(o->transport))) {
		fprintf(stderr, "iop-roce-peer: -x needs a pingpong client (-t ud|rc -c ...)\n");
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

/* Exchange, ARP, QP up. 0 or -1 (with a message). */
static int connect_peer(struct iop_peer *pr)
{
	int rc;

	if (pr->o.connect_ip)
		rc = iop_pp_client(&pr->port, pr->o.connect_ip, pr->o.tcp_port, &pr->mine, &pr->theirs,
				   pr->deadline);
	else
		rc = iop_pp_server(&pr->port, pr->o.bind_ip, pr->o.tcp_port, &pr->mine, &pr->theirs,
				   pr->deadline);
	if (rc < 0) {
		iop_fail(pr, "pingpong exchange with %s:%u failed: %s",
			 pr->o.connect_ip ? pr->o.connect_ip : pr->o.bind_ip, pr->o.tcp_port,
			 rc == -EBADMSG ? "malformed record" : strerror(-rc));
		return -1;
	}
	print_dest("local ", &pr->mine);
	print_dest("remote", &pr->theirs);
	return iop_peer_attach(pr);
}

int iop_peer_attach(struct iop_peer *pr)
{
	int rc;

	if (!roce_gid_is_ipv4(pr->theirs.gid)) {
		iop_fail(pr, "the peer's GID is not IPv4-mapped (start it with -g <index>)");
		return -1;
	}
	memcpy(pr->peer_ip, pr->theirs.gid + 12, 4);
	rc = iop_port_resolve(&pr->port, pr->peer_ip, pr->peer_mac, pr->deadline);
	if (rc < 0) {
		iop_fail(pr, "no ARP reply from the peer: %s", strerror(-rc));
		return -1;
	}
	pr->sport = roce_udp_sport(pr->mine.qpn, pr->theirs.qpn, 0);
	rc = pr->eng->start(pr);
	if (rc < 0) {
		iop_fail(pr, "engine %s: %s", pr->eng->name, strerror(-rc));
		return -1;
	}
	return 0;
}

static void pingpong(struct iop_peer *pr)
{
	uint32_t i, j;

	for (i = 0; i < pr->o.iters && !pr->failed; i++) {
		/* a pattern that differs per message, so a stale or misplaced segment shows */
		for (j = 0; j < pr->o.size; j++)
			pr->txbuf[j] = (uint8_t)(i * 7 + j);
		if (pr->o.connect_ip) {
			/* the client sends first, then waits for its completion and the reply */
			if (pr->eng->post(pr) == 0)
				wait_for(pr, true, i + 1, "the reply");
		} else if (wait_for(pr, false, i + 1, "a message") == 0 && pr->eng->post(pr) == 0) {
			wait_for(pr, true, i + 1, "our send to complete");
		}
	}
	/* keep serving briefly: a peer that resends our last reply's packet gets its ACK */
	{
		int64_t linger = iop_now_ms() + 200;

		while (!pr->failed && iop_now_ms() < linger)
			if (pr->eng->step(pr, linger) < 0)
				break;
	}
}

int main(int argc, char **argv)
{
	struct iop_peer pr;
	char stats[512] = "";
	int64_t t0;
	int rc;

	memset(&pr, 0, sizeof(pr));
	if (parse_opts(argc, argv, &pr.o))
		return 2;
	pr.eng = strcmp(pr.o.engine, "pkt") == 0 ? &iop_engine_pkt : &iop_engine_qp;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (inet_pton(AF_INET, pr.o.our_ip, pr.our_ip) != 1) {
		fprintf(stderr, "iop-roce-peer: our address '%s' is not IPv4\n", pr.o.our_ip);
		return 2;
	}
	pr.deadline = iop_now_ms() + (int64_t)pr.o.timeout_s * 1000;
	pr.txbuf = calloc(1, pr.o.size);
	if (pr.txbuf == NULL) {
		fprintf(stderr, "iop-roce-peer: out of memory\n");
		return 1;
	}
	rc = iop_port_open(&pr.port, pr.o.ifname, pr.our_ip);
	if (rc < 0) {
		fprintf(stderr, "iop-roce-peer: cannot open %s: %s\n", pr.o.ifname, strerror(-rc));
		free(pr.txbuf);
		return 1;
	}
	srandom((unsigned int)(time(NULL) ^ getpid()));
	pr.mine.qpn = 0x100 + (uint32_t)(random() % 0xff00);
	pr.mine.psn = (uint32_t)random() & ROCE_PSN_MASK;
	roce_gid_from_ipv4(pr.mine.gid, pr.our_ip);

	t0 = iop_now_ms();
	if (iop_is_perftest(pr.o.transport)) {
		iop_perf_run(&pr);
	} else if (connect_peer(&pr) == 0) {
		if (pr.o.icrc_probe)
			icrc_probe(&pr);
		t0 = iop_now_ms();
		pingpong(&pr);
	}
	if (pr.eng_priv)
		pr.eng->report(&pr, stats, sizeof(stats));
	printf("%s %s (engine %s): %u/%u iterations of %u bytes in %.3f s; rx %llu frames "
	       "(%llu rejected, %llu foreign), tx %llu frames, ARP replies %llu; %s\n",
	       transports[pr.o.transport], pr.o.connect_ip ? "client" : "server",
	       pr.eng->name, pr.rx_msgs, pr.o.iters, pr.o.size, (double)(iop_now_ms() - t0) / 1000.0,
	       (unsigned long long)pr.rx_frames, (unsigned long long)pr.rx_bad,
	       (unsigned long long)pr.rx_foreign, (unsigned long long)pr.port.tx_frames,
	       (unsigned long long)pr.port.arp_replies, stats);
	pr.eng->stop(&pr);
	iop_port_close(&pr.port);
	free(pr.txbuf);
	free(pr.mr.buf);
	free(pr.rdbuf);
	return pr.failed ? 1 : 0;
}
