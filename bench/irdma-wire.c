/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-wire: RDMA WRITE 8 B half-RTT and message rate over a DPDK transport, side by side
 * with a raw DPDK ping-pong and burst flood over the same transport in the same run.
 *
 * In one process, over two net_ring pairs (one for the raw frames, one for the devices):
 *   irdma-wire -l 0,1 --no-pci --no-huge -m 512 --no-shconf --file-prefix=X -- --ring [opts]
 * Between two processes over net_memif (net_memif0 raw, net_memif1 for the device):
 *   irdma-wire -l 1 ... --vdev=net_memif0,role=server,socket=S0 \
 *              --vdev=net_memif1,role=server,socket=S1 -- --server [opts]
 *   irdma-wire -l 0 ... --vdev=net_memif0,role=client,socket=S0 \
 *              --vdev=net_memif1,role=client,socket=S1 -- --client [opts]
 * Options: -n ITERS (100000), -w WARMUP (10000), -t SECONDS of each rate phase (2),
 *          -s raw frame bytes (82, the size of a RoCEv2 WRITE frame with 8 bytes of payload),
 *          -x print the devices' non-zero counters at the end,
 *          -b BYTES: also phase 7 (RDMA WRITE bandwidth of BYTES-byte messages, and raw
 *          frames of the RDMA frames' size flooded the same way), -M path MTU (1024).
 *
 * Phases (the client leads; the raw port also carries the control frames):
 *   1. raw ping-pong: the client pings, the server echoes            -> raw half-RTT
 *   2. raw flood: bursts of 32, the server drains and drops          -> raw burst rate
 *   3. the client creates its device on the second port and sends its QPN/PSN/rkey/GID;
 *      the server creates its device, connects and answers with its own
 *   4. RDMA WRITE 8 B ping-pong, ib_write_lat style                  -> RDMA half-RTT
 *   5. RDMA WRITE 8 B, inline, 32 per doorbell, every 32nd signaled  -> RDMA message rate
 *   6. the client says bye; the server closes its device.
 *   7. (-b) raw flood of MTU + 58 B frames (an RDMA frame's size); RDMA WRITE of BYTES,
 *      16 outstanding, every one signaled -> GB/s side by side (before 6)
 * Each side runs engine=inline on its own lcore (one lcore per process with memif).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "bench_ep.h"
#include "bench_stats.h"
#include "bench_time.h"
#include "lat_write.h"
#include "raw_eth.h"

#define STALL_S 5
#define RATE_DEPTH 256u
#define RATE_BURST 32u

enum role { ROLE_RING, ROLE_CLIENT, ROLE_SERVER };

struct opts {
	enum role role;
	uint64_t iters, warmup;
	double seconds;
	uint16_t frame;
	bool xstats;                   /* -x: print the device's non-zero counters at the end */
	uint32_t bw_size;              /* -b: WRITE bandwidth phase, message bytes (0: none) */
	uint32_t mtu;                  /* -M: path MTU */
};

enum ctl_type { CTL_SYNC = 1, CTL_READY, CTL_FLOOD, CTL_HELLO, CTL_HELLO_ACK, CTL_BYE, CTL_BYE_ACK };

/* Control payload, at most RAW_CTL_LEN - 14 bytes (both ends are this program on this
 * machine: host byte order). */
struct ctl {
	uint8_t type;
	uint8_t gid_index;
	uint8_t pad[2];
	uint32_t qpn, psn, rkey;
	uint64_t addr;
	uint64_t iters, warmup;
	uint8_t gid[16];
};

struct side {
	const struct opts *o;
	const char *transport;         /* "net_ring" or "net_memif" */
	uint16_t raw_port;
	char rdma_port[RTE_ETH_NAME_MAX_LEN];
	struct rte_mempool *mp;
	int rc;
	char err[256];
	/* client results */
	uint64_t *raw_rtt, *rdma_rtt;
	double raw_mops, rdma_mops;
	double raw_bw_gbps, rdma_bw_gbps; /* phase 7 */
};

_Static_assert(sizeof(struct ctl) <= RAW_CTL_LEN - 14, "control payload too big");

static const char *const dev_ip[2] = { "198.18.1.1", "198.18.1.2" };

/* Each endpoint's buffer: the latency/rate words, or a bandwidth message. */
static size_t ep_len(const struct opts *o)
{
	return o->bw_size > 4096 ? o->bw_size : 4096;
}

static int mtu_enum(uint32_t mtu)
{
	return mtu == 4096 ? RTE_PMD_IRDMA_MTU_4096 :
	       mtu == 2048 ? RTE_PMD_IRDMA_MTU_2048 : RTE_PMD_IRDMA_MTU_1024;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "ring", no_argument, NULL, 'R' },
		{ "client", no_argument, NULL, 'C' },
		{ "server", no_argument, NULL, 'S' },
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "seconds", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "xstats", no_argument, NULL, 'x' },
		{ "bw", required_argument, NULL, 'b' },
		{ "mtu", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	int c, nrole = 0;
	char *end;

	memset(o, 0, sizeof(*o));
	o->iters = 100000;
	o->warmup = 10000;
	o->seconds = 2;
	o->frame = 82;
	o->mtu = 1024;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:w:t:s:xb:M:", lo, NULL)) != -1) {
		errno = 0;
		switch (c) {
		case 'x': o->xstats = true; break;
		case 'R': o->role = ROLE_RING; nrole++; break;
		case 'C': o->role = ROLE_CLIENT; nrole++; break;
		case 'S': o->role = ROLE_SERVER; nrole++; break;
		case 'n':
			o->iters = strtoull(optarg, &end, 0);
			if (errno || *end || !o->iters)
				goto bad;
			break;
		case 'w':
			o->warmup = strtoull(optarg, &end, 0);
			if (errno || *end)
				goto bad;
			break;
		case 't':
			o->seconds = strtod(optarg, &end);
			if (errno || *end || o->seconds <= 0 || o->seconds > 60)
				goto bad;
			break;
		case 'b':
			o->bw_size = (uint32_t)strtoul(optarg, &end, 0);
			if (errno || *end || o->bw_size < 1024 || o->bw_size > (16u << 20))
				goto bad;
			break;
		case 'M':
			o->mtu = (uint32_t)strtoul(optarg, &end, 0);
			if (errno || *end || (o->mtu != 1024 && o->mtu != 2048 && o->mtu != 4096))
				goto bad;
			break;
		case 's':
			o->frame = (uint16_t)strtoul(optarg, &end, 0);
			if (errno || *end || o->frame < 60 || o->frame > 1500)
				goto bad;
			break;
		default:
			return -EINVAL;
		}
	}
	if (nrole != 1) {
		fprintf(stderr, "irdma-wire: give exactly one of --ring, --client, --server\n");
		return -EINVAL;
	}
	return 0;
bad:
	fprintf(stderr, "irdma-wire: -%c '%s': bad value\n", c, optarg);
	return -EINVAL;
}

static struct rte_pmd_irdma_dev *side_dev(struct side *s, int idx)
{
	char devargs[192];
	uint32_t svc;

	snprintf(devargs, sizeof(devargs), "soft,port=%s,gen=2,engine=inline,name=bwire%d,ip=%s%s",
		 s->rdma_port, idx, dev_ip[idx], s->o->mtu > 1024 ? ",mtu=4096" : "");
	return bench_dev_create(devargs, &svc, s->err, sizeof(s->err));
}

/* The device started its port; a memif link comes up once both processes have. */
static int side_link(struct side *s)
{
	uint16_t pid;

	if (rte_eth_dev_get_port_by_name(s->rdma_port, &pid) == 0 && raw_wait_link(pid, 10000) < 0) {
		snprintf(s->err, sizeof(s->err), "%s: link down after 10 s", s->rdma_port);
		return -ETIMEDOUT;
	}
	return 0;
}

static void ctl_of(struct ctl *c, enum ctl_type t, const struct bench_ep *ep,
		   const struct opts *o)
{
	struct bench_ep_addr a;

	memset(c, 0, sizeof(*c));
	c->type = (uint8_t)t;
	if (!ep)
		return;
	bench_ep_addr_of(ep, &a);
	c->qpn = a.qpn;
	c->psn = a.psn;
	c->rkey = a.rkey;
	c->addr = a.addr;
	c->gid_index = ep->gid_index;
	memcpy(c->gid, a.gid.raw, 16);
	c->iters = o->iters;
	c->warmup = o->warmup;
}

static void addr_of_ctl(const struct ctl *c, struct bench_ep_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->qpn = c->qpn;
	a->psn = c->psn;
	a->rkey = c->rkey;
	a->addr = c->addr;
	memcpy(a->gid.raw, c->gid, 16);
}

/* Serves the raw port until a control frame of @p type arrives (others are skipped). */
static int wait_ctl(struct side *s, struct ctl *c, enum ctl_type type, unsigned int ms)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * ms;
	int rc;

	do {
		rc = raw_serve(s->raw_port, false, c, sizeof(*c), ms);
		if (rc >= 0 && c->type == type)
			return 0;
	} while (rte_get_tsc_cycles() < end);
	return -ETIMEDOUT;
}

static void dump_xstats(struct rte_pmd_irdma_dev *dev, const char *who)
{
	struct rte_pmd_irdma_xstat_name *names;
	struct rte_pmd_irdma_xstat *vals;
	int n, i;

	n = rte_pmd_irdma_xstats_get_names(dev, NULL, 0);
	if (n <= 0)
		return;
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names && vals && rte_pmd_irdma_xstats_get_names(dev, names, (unsigned int)n) == n &&
	    rte_pmd_irdma_xstats_get(dev, vals, (unsigned int)n) == n) {
		printf("%s device counters:", who);
		for (i = 0; i < n; i++)
			if (vals[i].value)
				printf(" %s=%" PRIu64, names[vals[i].id].name, vals[i].value);
		printf("\n");
	}
	free(names);
	free(vals);
}

/* ---- server ------------------------------------------------------------------------ */

static int server_run(struct side *s)
{
	struct rte_pmd_irdma_dev *dev = NULL;
	struct bench_ep ep = { 0 };
	struct bench_ep_addr peer;
	struct lat_write lw;
	int abort_flag = 0; /* lat_write's shared abort flag (__atomic) */
	struct ctl c;
	uint64_t it = 0;
	bool echo = true;
	int rc;

	/* The device (and its port) first: a memif client must find the server's port
	 * started when it connects. */
	dev = side_dev(s, 1);
	if (!dev)
		return -ENODEV;
	/* phases 1 and 2 happen inside raw_serve; it returns on each control frame */
	for (;;) {
		rc = raw_serve(s->raw_port, echo, &c, sizeof(c), 120000);
		if (rc < 0) {
			snprintf(s->err, sizeof(s->err), "no hello from the client within 120 s");
			goto out;
		}
		if (c.type == CTL_FLOOD) {
			echo = false;
			continue;
		}
		if (c.type == CTL_SYNC) {
			ctl_of(&c, CTL_READY, NULL, s->o);
			raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c));
			continue;
		}
		if (c.type == CTL_BYE) {
			snprintf(s->err, sizeof(s->err), "the client gave up before the RDMA phases");
			rc = -ECANCELED;
			goto out;
		}
		if (c.type == CTL_HELLO)
			break;
	}
	rc = side_link(s);
	if (rc == 0)
		rc = bench_ep_create(&ep, dev, ep_len(s->o), RATE_DEPTH, s->err, sizeof(s->err));
	ep.path_mtu = (uint8_t)mtu_enum(s->o->mtu);
	addr_of_ctl(&c, &peer);
	if (rc == 0)
		rc = bench_ep_connect(&ep, &peer, s->err, sizeof(s->err));
	if (rc < 0)
		goto out;
	lat_write_init(&lw, &ep, &peer, c.iters, c.warmup, NULL, rte_get_tsc_hz() * STALL_S,
		       &abort_flag);
	ctl_of(&c, CTL_HELLO_ACK, &ep, s->o);
	rc = raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c));
	if (rc == 0)
		rc = lat_write_responder(&lw);
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "%s", lw.err);
		goto out;
	}
	/* phase 5: serve the client's writes until it says bye */
	for (;;) {
		rte_pmd_irdma_progress(dev, 64);
		if ((++it & 255) == 0 && raw_poll_ctl(s->raw_port, false, &c, sizeof(c)) > 0 &&
		    c.type == CTL_BYE)
			break;
	}
	if (s->o->xstats)
		dump_xstats(dev, "server");
out:
	bench_ep_destroy(&ep);
	if (dev)
		rte_pmd_irdma_dev_close(dev);
	/* Our device is closed: the client may close its own and exit (one side at a time;
	 * this side no longer polls). */
	ctl_of(&c, CTL_BYE_ACK, NULL, s->o);
	raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c));
	return rc;
}

/* ---- client ------------------------------------------------------------------------ */

/* Phase 7: o->bw_size-byte WRITEs, 16 outstanding, every one signaled; GB/s. */
static double rdma_bw(struct side *s, struct bench_ep *ep, const struct bench_ep_addr *peer,
		      int *rc)
{
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)ep->buf, .length = s->o->bw_size, .lkey = ep->mr->lkey,
	};
	uint64_t hz = rte_get_tsc_hz(), t0 = 0, t1 = 0, posted = 0, done = 0, counted = 0;
	uint64_t last = rte_get_tsc_cycles(), dur = (uint64_t)(s->o->seconds * (double)hz);
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_wc wc[16];
	bool stopping = false;
	int n, i, err = 0;

	memset(&wr, 0, sizeof(wr));
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = peer->addr;
	wr.wr.rdma.rkey = peer->rkey;
	while (!stopping || done < posted) {
		while (!stopping && posted - done < 16) {
			if (rte_pmd_irdma_post_send(ep->qp, &wr, 1, &err) != 1) {
				snprintf(s->err, sizeof(s->err), "bw: post_send: %s", strerror(-err));
				*rc = err ? err : -EIO;
				return -1;
			}
			posted++;
		}
		n = rte_pmd_irdma_poll_cq(ep->cq, wc, 16);
		for (i = 0; i < n; i++)
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
				snprintf(s->err, sizeof(s->err), "bw: completion %s",
					 rte_pmd_irdma_wc_status_str(wc[i].status));
				*rc = -EIO;
				return -1;
			}
		if (n > 0) {
			uint64_t now = rte_get_tsc_cycles();

			done += (uint64_t)n;
			last = now;
			if (t0 == 0 && done >= 16) {
				t0 = now;
				counted = done;
			} else if (t0 && !stopping && now - t0 >= dur) {
				t1 = now;
				counted = done - counted;
				stopping = true;
			}
		} else if (rte_get_tsc_cycles() - last > hz * STALL_S) {
			snprintf(s->err, sizeof(s->err), "bw: stalled (%" PRIu64 " posted, %" PRIu64
				 " done)", posted, done);
			*rc = -ETIMEDOUT;
			return -1;
		}
	}
	*rc = 0;
	return (double)counted * s->o->bw_size * (double)hz / (double)(t1 - t0) / 1e9;
}

static double rdma_rate(struct side *s, struct bench_ep *ep, const struct bench_ep_addr *peer,
			int *rc)
{
	struct rte_pmd_irdma_send_wr wr[RATE_BURST];
	struct rte_pmd_irdma_wc wc[16];
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)(ep->buf + 64), .length = 8, .lkey = ep->mr->lkey,
	};
	uint64_t hz = rte_get_tsc_hz(), t0, now = 0, end, posted = 0, done = 0, counted = 0, it = 0;
	uint16_t taken;
	int n, i, err = 0;

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < (int)RATE_BURST; i++) {
		wr[i].sg_list = &sge;
		wr[i].num_sge = 1;
		wr[i].opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr[i].send_flags = RTE_PMD_IRDMA_SEND_INLINE |
				   (i == RATE_BURST - 1 ? RTE_PMD_IRDMA_SEND_SIGNALED : 0);
		wr[i].wr.rdma.remote_addr = peer->addr;
		wr[i].wr.rdma.rkey = peer->rkey;
	}
	t0 = rte_get_tsc_cycles();
	end = t0 + (uint64_t)(s->o->seconds * (double)hz);
	for (;;) {
		if (!counted && posted - done <= RATE_DEPTH - RATE_BURST) {
			wr[RATE_BURST - 1].wr_id = posted + RATE_BURST;
			taken = rte_pmd_irdma_post_send(ep->qp, wr, RATE_BURST, &err);
			if (taken != RATE_BURST) {
				snprintf(s->err, sizeof(s->err), "rate: post_send took %u of %u: %s",
					 taken, RATE_BURST, strerror(-err));
				*rc = err ? err : -EIO;
				return -1;
			}
			posted += RATE_BURST;
		}
		n = rte_pmd_irdma_poll_cq(ep->cq, wc, 16);
		for (i = 0; i < n; i++) {
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
				snprintf(s->err, sizeof(s->err), "rate: completion %s",
					 rte_pmd_irdma_wc_status_str(wc[i].status));
				*rc = -EIO;
				return -1;
			}
			done = wc[i].wr_id;
		}
		if ((++it & 63) == 0) {
			uint64_t c = rte_get_tsc_cycles();

			if (!counted && c >= end) {
				counted = done;
				now = c;
			}
			/* drain what is in flight, so the QP goes idle */
			if (counted && (done == posted || c - now > hz * STALL_S))
				break;
			if (!counted && c - t0 > hz && done == 0) {
				snprintf(s->err, sizeof(s->err), "rate: nothing completed in 1 s");
				*rc = -ETIMEDOUT;
				return -1;
			}
		}
	}
	*rc = 0;
	return (double)counted / ((double)(now - t0) / (double)hz) / 1e6;
}

static int client_run(struct side *s)
{
	const struct opts *o = s->o;
	struct rte_pmd_irdma_dev *dev = NULL;
	struct bench_ep ep = { 0 };
	struct bench_ep_addr peer;
	struct lat_write lw;
	int abort_flag = 0; /* lat_write's shared abort flag (__atomic) */
	struct ctl c;
	int rc, tries;

	/* the server is ready once its device exists */
	for (tries = 0, rc = -ETIMEDOUT; tries < 100 && rc < 0; tries++) {
		ctl_of(&c, CTL_SYNC, NULL, o);
		raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c));
		rc = wait_ctl(s, &c, CTL_READY, 300);
	}
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "the server did not get ready within 30 s");
		return rc;
	}
	rc = raw_ping(s->raw_port, s->mp, o->frame, o->iters, o->warmup, s->raw_rtt);
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "raw ping-pong: %s", strerror(-rc));
		return rc;
	}
	ctl_of(&c, CTL_FLOOD, NULL, o);
	rc = raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c));
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "cannot send a control frame");
		return rc;
	}
	s->raw_mops = raw_flood(s->raw_port, s->mp, o->frame, o->seconds);
	if (s->raw_mops < 0) {
		snprintf(s->err, sizeof(s->err), "raw flood: out of mbufs");
		return -ENOMEM;
	}
	dev = side_dev(s, 0);
	if (!dev)
		return -ENODEV;
	rc = bench_ep_create(&ep, dev, ep_len(o), RATE_DEPTH, s->err, sizeof(s->err));
	if (rc < 0)
		goto out;
	ep.path_mtu = (uint8_t)mtu_enum(o->mtu);
	for (tries = 0, rc = -ETIMEDOUT; tries < 3 && rc < 0; tries++) {
		ctl_of(&c, CTL_HELLO, &ep, o);
		rc = raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c));
		if (rc == 0)
			rc = wait_ctl(s, &c, CTL_HELLO_ACK, 5000);
	}
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "no answer from the server to the hello");
		goto out;
	}
	addr_of_ctl(&c, &peer);
	rc = side_link(s);
	if (rc == 0)
		rc = bench_ep_connect(&ep, &peer, s->err, sizeof(s->err));
	if (rc < 0)
		goto out;
	lat_write_init(&lw, &ep, &peer, o->iters, o->warmup, s->rdma_rtt,
		       rte_get_tsc_hz() * STALL_S, &abort_flag);
	rc = lat_write_initiator(&lw);
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "%s", lw.err);
		goto out;
	}
	s->rdma_mops = rdma_rate(s, &ep, &peer, &rc);
	if (rc == 0 && o->bw_size) {
		/* phase 7: raw frames of an RDMA frame's size, then the WRITE stream */
		uint16_t fsz = (uint16_t)(o->mtu + 58);

		s->raw_bw_gbps = raw_flood(s->raw_port, s->mp, fsz, o->seconds) * fsz / 1e3;
		s->rdma_bw_gbps = rdma_bw(s, &ep, &peer, &rc);
	}
	if (o->xstats)
		dump_xstats(dev, "client");
out:
	ctl_of(&c, CTL_BYE, NULL, o);
	if (raw_send_ctl(s->raw_port, s->mp, &c, sizeof(c)) == 0)
		wait_ctl(s, &c, CTL_BYE_ACK, 5000);
	bench_ep_destroy(&ep);
	if (dev)
		rte_pmd_irdma_dev_close(dev);
	return rc;
}

static void client_report(const struct side *s, double tpn)
{
	/* issue 13's goals: net_ring half-RTT <= 1.5x and rate >= 0.5x, net_memif 1.3x / 0.6x */
	bool ring = strcmp(s->transport, "net_ring") == 0;
	struct bench_table t = { .title = NULL };
	struct bench_lat raw, rdma;
	char title[96], name[96];
	int ref;

	snprintf(title, sizeof(title), "RDMA WRITE 8 B over %s vs. raw DPDK frames", s->transport);
	t.title = title;
	bench_lat_of(s->raw_rtt, s->o->iters, tpn, 2, &raw);
	bench_lat_of(s->rdma_rtt, s->o->iters, tpn, 2, &rdma);
	snprintf(name, sizeof(name), "raw %s, %u B frames, half-RTT", s->transport, s->o->frame);
	ref = bench_add_lat(&t, name, &raw, -1, 0);
	snprintf(name, sizeof(name), "RDMA WRITE 8 B over %s, half-RTT", s->transport);
	bench_add_lat(&t, name, &rdma, ref, ring ? 1.5 : 1.3);
	snprintf(name, sizeof(name), "raw %s, %u B frames, burst %u, one way", s->transport,
		 s->o->frame, RAW_BURST);
	ref = bench_add_rate(&t, name, s->raw_mops, -1, 0);
	snprintf(name, sizeof(name), "RDMA WRITE 8 B over %s, %u per doorbell", s->transport,
		 RATE_BURST);
	bench_add_rate(&t, name, s->rdma_mops, ref, ring ? 0.5 : 0.6);
	bench_table_print(stdout, &t);
	if (s->o->bw_size) {
		double r = s->raw_bw_gbps > 0 ? s->rdma_bw_gbps / s->raw_bw_gbps : 0;

		printf("| case | GB/s | ratio | goal | met |\n|---|--:|--:|--:|:-:|\n");
		printf("| raw %s, %u B frames, burst %u, one way | %.2f | 1.00 | | |\n",
		       s->transport, s->o->mtu + 58, RAW_BURST, s->raw_bw_gbps);
		printf("| RDMA WRITE %u B over %s, path MTU %u | %.2f | %.2f | ", s->o->bw_size,
		       s->transport, s->o->mtu, s->rdma_bw_gbps, r);
		if (s->o->mtu == 4096)
			printf("≥ 0.70 | %s |\n\n", r >= 0.7 ? "yes" : "no");
		else
			printf("| |\n\n");
		printf("RESULT bw raw transport=%s frame=%u gbps=%.3f\n", s->transport,
		       s->o->mtu + 58, s->raw_bw_gbps);
		printf("RESULT bw write transport=%s size=%u mtu=%u gbps=%.3f ratio=%.3f\n",
		       s->transport, s->o->bw_size, s->o->mtu, s->rdma_bw_gbps, r);
	}
	printf("%" PRIu64 " samples after %" PRIu64 " warm-up round trips; rates over %.1f s; "
	       "engine=inline, one lcore per side; half-RTT = RTT / 2\n", s->o->iters,
	       s->o->warmup, s->o->seconds);
}

/* ---- in-process ring pairs --------------------------------------------------------- */

static int ring_pair(const char *tag, uint16_t port[2], char name[2][RTE_ETH_NAME_MAX_LEN])
{
	struct rte_ring *r[2];
	char rn[32];
	int i, sock = (int)rte_socket_id();

	for (i = 0; i < 2; i++) {
		snprintf(rn, sizeof(rn), "%s_%d", tag, i);
		r[i] = rte_ring_create(rn, 1024, sock, RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (!r[i])
			return -rte_errno;
	}
	for (i = 0; i < 2; i++) {
		snprintf(rn, sizeof(rn), "%s%c", tag, 'a' + i);
		/* side i receives from ring i and sends into the other */
		int p = rte_eth_from_rings(rn, &r[i], 1, &r[!i], 1, sock);

		if (p < 0)
			return -rte_errno;
		port[i] = (uint16_t)p;
		rte_eth_dev_get_name_by_port(port[i], name[i]);
	}
	return 0;
}

static int server_lcore(void *arg)
{
	struct side *s = arg;

	s->rc = server_run(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct side cs, ss;
	struct opts o;
	int rc, status = 1;
	double tpn;

	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "irdma-wire: EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	if (parse_opts(argc - rc, argv + rc, &o) < 0)
		goto out;
	memset(&cs, 0, sizeof(cs));
	memset(&ss, 0, sizeof(ss));
	cs.o = ss.o = &o;
	/* data room for the bandwidth phase's raw frames of an MTU-4096 RDMA frame's size */
	cs.mp = ss.mp = rte_pktmbuf_pool_create("bwire_raw", 8191, 256, 0,
						o.bw_size ? 4096 + 256 + RTE_PKTMBUF_HEADROOM :
						RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (!cs.mp) {
		fprintf(stderr, "irdma-wire: mbuf pool: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	if (o.role != ROLE_SERVER) {
		cs.raw_rtt = calloc(o.iters, sizeof(uint64_t));
		cs.rdma_rtt = calloc(o.iters, sizeof(uint64_t));
		if (!cs.raw_rtt || !cs.rdma_rtt) {
			fprintf(stderr, "irdma-wire: out of memory for the samples\n");
			goto out;
		}
	}
	tpn = bench_ticks_per_ns();

	if (o.role == ROLE_RING) {
		uint16_t raw[2], rdma[2];
		char rawn[2][RTE_ETH_NAME_MAX_LEN], rdman[2][RTE_ETH_NAME_MAX_LEN];
		unsigned int peer = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
		char err[256];

		if (peer >= RTE_MAX_LCORE) {
			fprintf(stderr, "irdma-wire: --ring needs two lcores (-l 0,1)\n");
			goto out;
		}
		if (ring_pair("bwraw", raw, rawn) < 0 || ring_pair("bwrdma", rdma, rdman) < 0) {
			fprintf(stderr, "irdma-wire: ring pairs: %s\n", rte_strerror(rte_errno));
			goto out;
		}
		if (raw_port_start(raw[0], cs.mp, err, sizeof(err)) < 0 ||
		    raw_port_start(raw[1], cs.mp, err, sizeof(err)) < 0) {
			fprintf(stderr, "irdma-wire: %s\n", err);
			goto out;
		}
		cs.transport = ss.transport = "net_ring";
		cs.raw_port = raw[0];
		ss.raw_port = raw[1];
		snprintf(cs.rdma_port, sizeof(cs.rdma_port), "%s", rdman[0]);
		snprintf(ss.rdma_port, sizeof(ss.rdma_port), "%s", rdman[1]);
		rte_eal_remote_launch(server_lcore, &ss, peer);
		rc = client_run(&cs);
		rte_eal_wait_lcore(peer);
		if (rc == 0)
			rc = ss.rc;
		if (rc < 0) {
			fprintf(stderr, "irdma-wire: %s\n", cs.err[0] ? cs.err : ss.err);
			goto out;
		}
		client_report(&cs, tpn);
	} else {
		struct side *s = o.role == ROLE_CLIENT ? &cs : &ss;
		char err[256];
		uint16_t rdma;

		s->transport = "net_memif";
		if (rte_eth_dev_get_port_by_name("net_memif0", &s->raw_port) != 0 ||
		    rte_eth_dev_get_port_by_name("net_memif1", &rdma) != 0) {
			fprintf(stderr, "irdma-wire: --client/--server need --vdev=net_memif0,... "
				"(raw frames) and --vdev=net_memif1,... (the RDMA device)\n");
			goto out;
		}
		snprintf(s->rdma_port, sizeof(s->rdma_port), "net_memif1");
		if (o.bw_size) { /* the path MTU's frames must fit the port (memif: 1518 B) */
			struct rte_eth_dev_info di;

			if (rte_eth_dev_info_get(rdma, &di) == 0 &&
			    o.mtu + 58 + 14 > di.max_rx_pktlen) {
				fprintf(stderr, "irdma-wire: net_memif1 carries frames of up to %u "
					"bytes: path MTU %u does not fit\n", di.max_rx_pktlen, o.mtu);
				goto out;
			}
		}
		if (raw_port_start(s->raw_port, s->mp, err, sizeof(err)) < 0) {
			fprintf(stderr, "irdma-wire: %s\n", err);
			goto out;
		}
		rc = o.role == ROLE_CLIENT ? client_run(s) : server_run(s);
		if (o.role == ROLE_SERVER) {
			/* memif tears a link down under a poller's feet: stop polling and let
			 * the client go first (the link drops when it closes its port) */
			struct rte_eth_link link;
			unsigned int ms;

			for (ms = 0; ms < 3000; ms += 10) {
				if (rte_eth_link_get_nowait(s->raw_port, &link) == 0 &&
				    !link.link_status)
					break;
				rte_delay_ms(10);
			}
		}
		if (rc < 0) {
			fprintf(stderr, "irdma-wire: %s: %s\n", o.role == ROLE_CLIENT ? "client" :
				"server", s->err);
			goto out;
		}
		if (o.role == ROLE_CLIENT)
			client_report(s, tpn);
		else
			printf("irdma-wire: server done\n");
	}
	status = 0;
out:
	free(cs.raw_rtt);
	free(cs.rdma_rtt);
	/* Close every port before EAL frees memory: a memif port left open still has its
	 * socket handler on the interrupt thread, which would run on freed memory. */
	{
		uint16_t pid;

		RTE_ETH_FOREACH_DEV(pid) {
			rte_eth_dev_stop(pid);
			rte_eth_dev_close(pid);
		}
	}
	rte_eal_cleanup();
	return status;
}
