/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iop-roce-peer internals: one QP that ping-pongs SEND messages with a pingpong tool on
 * the other side, driven by one of two engines:
 *   pkt  the packet layer only (roce_pkt_build/parse): a few lines of RC/UD logic here,
 *        a plain resend of the outstanding message on timeout;
 *   qp   lib/roce's transport state machines (roce_qp_*: requester, completer,
 *        responder, UD), with this tool as the "device" that moves the bytes.
 */
#ifndef IOP_PEER_H
#define IOP_PEER_H

#include <stdbool.h>
#include <stdint.h>

#include "iop_oob.h"
#include "iop_port.h"
#include "roce_pkt.h"
#include "roce_qp.h"

#define PP_QKEY 0x11111111u /* ibv_ud_pingpong's Q_Key */

enum iop_transport {
	T_UD,            /* ibv_ud_pingpong */
	T_RC,            /* ibv_rc_pingpong */
	T_WRITE_LAT,     /* ib_write_lat: RDMA WRITE both ways */
	T_READ_LAT,      /* ib_read_lat: the client READs */
	T_ATOMIC_LAT,    /* ib_atomic_lat: the client FETCH_ADDs */
	T_ATOMIC_CS_LAT, /* ib_atomic_lat -A CMP_AND_SWAP */
};

/* The one memory region of a perftest run, which the peer accesses. */
struct iop_mr {
	uint8_t *buf;
	uint64_t va;
	uint32_t len;
	uint32_t rkey;
	uint8_t access; /* ROCE_ACCESS_* */
	uint64_t reads, writes, atomics; /* remote accesses checked and allowed */
};

struct iop_opts {
	enum iop_transport transport;
	const char *engine;     /* "pkt" or "qp" */
	const char *connect_ip; /* client role: the guest's address */
	const char *bind_ip;    /* server role: where the guest's client connects */
	const char *ifname;
	const char *our_ip;
	uint16_t tcp_port;
	uint32_t size, iters, mtu;
	int timeout_s;
	bool icrc_probe;
};

struct iop_peer;

struct iop_engine {
	const char *name;
	/* after the exchange and ARP: bring the QP up */
	int (*start)(struct iop_peer *pr);
	/* send message number iter (pr->txbuf holds it) */
	int (*post)(struct iop_peer *pr);
	/* serve the wire and timers until until_ms or until something happened */
	int (*step)(struct iop_peer *pr, int64_t until_ms);
	/* one line of engine counters */
	void (*report)(struct iop_peer *pr, char *buf, size_t len);
	void (*stop)(struct iop_peer *pr);
};

struct iop_peer {
	struct iop_opts o;
	const struct iop_engine *eng;
	void *eng_priv;
	struct iop_port port;
	uint8_t our_ip[4], peer_ip[4], peer_mac[6];
	struct iop_pp_dest mine, theirs;
	uint16_t sport, ip_id;
	int64_t deadline;
	uint8_t *txbuf; /* the message we send */
	/* progress the driver waits for; set by the engines */
	bool send_pending;
	uint32_t rx_msgs;
	/* perftest runs (engine qp only) */
	struct iop_mr mr;
	uint8_t *rdbuf;      /* READ responses land here */
	uint64_t last_orig;  /* atomics: the value before, from the last completion */
	uint8_t qp_access;   /* remote access the QP grants */
	uint8_t ord, ird;    /* READ/atomic depth: ours out, the peer's in */
	/* frames */
	uint64_t rx_frames, rx_bad, rx_foreign;
	bool corrupt_icrc; /* the next frame goes out with its ICRC inverted */
	bool failed;
};

extern const struct iop_engine iop_engine_pkt;
extern const struct iop_engine iop_engine_qp;

void iop_fail(struct iop_peer *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The fields of every frame we send; the caller sets opcode, PSN and what follows. */
void iop_pkt_init(struct iop_peer *pr, struct roce_pkt *p, uint8_t opcode, uint32_t psn);

/* Builds p (payload copied from p->payload unless NULL: then already at frame + hdr len)
 * into frame and sends it. 0 or -errno (the run has failed then). */
int iop_pkt_send(struct iop_peer *pr, const struct roce_pkt *p, uint8_t *frame);

/* Parses a received frame and applies the checks every engine wants: lib/roce accepts it,
 * it comes from the peer and is for our QP. 1 = use p, 0 = ignore, -1 = the run failed. */
int iop_pkt_accept(struct iop_peer *pr, const uint8_t *frame, int len, struct roce_pkt *p);

/* Checks a received message (GRH area + payload as verbs lays out a UD receive, or the
 * payload of an RC receive) and counts it. */
void iop_message_done(struct iop_peer *pr, const uint8_t *buf, uint32_t byte_len);

/* Engine qp: posts one send WR (WRITE, READ, atomics for the perftest modes). */
int iop_qp_post_wr(struct iop_peer *pr, const struct roce_send_wr *wr);

/* After the exchange (pr->theirs known): ARP for the peer, UDP source port, engine start.
 * 0 or -1 (failed). */
int iop_peer_attach(struct iop_peer *pr);

/* Serves the wire until a perftest run is over; see iop_perf.c. 0 or -1 (failed). */
int iop_perf_run(struct iop_peer *pr);

static inline bool iop_is_perftest(enum iop_transport t)
{
	return t >= T_WRITE_LAT;
}

#endif /* IOP_PEER_H */
