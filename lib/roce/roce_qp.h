/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-QP RoCEv2 transport: the RC requester, completer and responder, UC and UD, as
 * explicit state machines that move no memory themselves.
 *
 * How a device drives a QP (all calls for one QP from one thread at a time; no locks,
 * no allocation, no clock reads inside):
 *
 *   create   roce_qp_init(qp, &init, mem)      mem: roce_qp_mem_size(&init) bytes
 *   modify   roce_qp_modify(qp, &attr, mask)   verbs-style attributes and state
 *   post     roce_qp_post_send(qp, &wr)        copy of a send WQE (RC/UC/UD)
 *   rx       roce_qp_rx(qp, &pkt, now)         a parsed packet whose DestQP is this QP;
 *                                              returns ROCE_R_OK or the reason (count drops)
 *   tx       while (budget-- && roce_qp_tx(qp, now, &tx) == 1) {
 *                hl = roce_pkt_hdr_len(&tx.pkt); copy tx.pkt.paylen payload bytes
 *                to frame + hl from tx.pl_src; set tx.pkt.ip_id; roce_pkt_build() }
 *   timers   if (now >= roce_qp_next_deadline(qp)) roce_qp_timer(qp, now);
 *
 * The state machines call back into the device (struct roce_qp_ops) to check keys,
 * place received bytes, take receive WQEs and report completions; the device moves the
 * bytes and writes CQEs. Callbacks run synchronously inside roce_qp_rx/tx/timer, and
 * send_done also inside roce_qp_post_send/modify when the QP is in (or enters) ERR.
 * Payload bytes of a returned tx descriptor must be consumed before the next call on
 * the same QP (UD/UC sends complete on that next call).
 */
#ifndef ROCE_QP_H
#define ROCE_QP_H

#include <stddef.h>
#include <stdint.h>

#include "roce_pkt.h"
#include "roce_reason.h"
#include "roce_timer.h"

struct roce_qp;

/* A field that holds one of these enums has its enum type, as an 8-bit bit-field: the type
 * says what the field holds (and lets the compiler check switches over it), the width keeps
 * the structures as small as a uint8_t would. */
enum roce_qp_type {
	ROCE_QPT_RC,
	ROCE_QPT_UC,
	ROCE_QPT_UD,
};

enum roce_qp_state {
	ROCE_QPS_RESET,
	ROCE_QPS_INIT,
	ROCE_QPS_RTR,
	ROCE_QPS_RTS,
	ROCE_QPS_SQD,
	ROCE_QPS_ERR,
};

/* Completion status, numerically equal to enum ibv_wc_status (the PMD checks it against its public
 * enum at build time: irdma_value_checks.c). */
enum roce_wc_status {
	ROCE_WC_SUCCESS = 0,
	ROCE_WC_LOC_LEN_ERR = 1,
	ROCE_WC_LOC_QP_OP_ERR = 2,
	ROCE_WC_LOC_PROT_ERR = 4,
	ROCE_WC_WR_FLUSH_ERR = 5,
	ROCE_WC_BAD_RESP_ERR = 7,
	ROCE_WC_LOC_ACCESS_ERR = 8,
	ROCE_WC_REM_INV_REQ_ERR = 9,
	ROCE_WC_REM_ACCESS_ERR = 10,
	ROCE_WC_REM_OP_ERR = 11,
	ROCE_WC_RETRY_EXC_ERR = 12,
	ROCE_WC_RNR_RETRY_EXC_ERR = 13,
	ROCE_WC_FATAL_ERR = 19,
};

/* Operations a send WR carries on the wire. */
enum roce_wr_op {
	ROCE_WR_SEND,
	ROCE_WR_SEND_IMM,
	ROCE_WR_SEND_INV,
	ROCE_WR_WRITE,
	ROCE_WR_WRITE_IMM,
	ROCE_WR_READ,
	ROCE_WR_CMP_SWAP,
	ROCE_WR_FETCH_ADD,
};

#define ROCE_WR_F_SOLICITED (1u << 0)
#define ROCE_WR_F_FENCE     (1u << 1) /* wait for earlier READ/atomic WRs to complete */

/* Remote access rights (QP access flags and roce_qp_ops.mr_check). */
#define ROCE_ACCESS_REMOTE_WRITE  (1u << 1)
#define ROCE_ACCESS_REMOTE_READ   (1u << 2)
#define ROCE_ACCESS_REMOTE_ATOMIC (1u << 3)

/* Address vector: where frames of a connection (RC/UC) or a UD WR go. */
struct roce_av {
	uint8_t dmac[6];
	uint8_t smac[6];
	uint8_t has_vlan;
	uint16_t vlan_tci;
	uint8_t sgid[16]; /* our address (IPv4-mapped for IPv4) */
	uint8_t dgid[16]; /* the peer's */
	uint8_t tclass;
	uint8_t hop_limit;
	uint32_t flow_label;
	uint16_t sport;   /* UDP source port; 0 = derive with roce_udp_sport() */
};

struct roce_send_wr {
	uint64_t id;       /* the device's cookie: echoed in completions and payload requests */
	enum roce_wr_op op : 8;
	uint8_t flags;     /* ROCE_WR_F_* */
	uint32_t len;      /* message length; atomics: 8 */
	uint64_t raddr;    /* WRITE/READ/atomics */
	uint32_t rkey;
	uint32_t imm;      /* immediate data (host order of the wire field) or R_Key to invalidate */
	uint64_t swap_add; /* CMP_SWAP swap value / FETCH_ADD addend */
	uint64_t cmp;      /* CMP_SWAP compare value */
	/* UD only */
	uint32_t dqpn;
	uint32_t qkey;
	const struct roce_av *av; /* must stay valid until the WR completes */
};

struct roce_send_done {
	uint64_t id;
	enum roce_wc_status status : 8;
	enum roce_wr_op op : 8;
	uint32_t byte_len;
	uint64_t atomic_orig; /* atomics: the remote value before the operation */
};

enum roce_recv_opcode {
	ROCE_RECV_SEND,
	ROCE_RECV_WRITE_IMM,
};

#define ROCE_RECV_F_IMM       (1u << 0)
#define ROCE_RECV_F_INV       (1u << 1)
#define ROCE_RECV_F_GRH       (1u << 2) /* UD: the 40-byte GRH area was filled */
#define ROCE_RECV_F_SOLICITED (1u << 3)

struct roce_recv_done {
	enum roce_wc_status status : 8;
	enum roce_recv_opcode opcode : 8;
	uint8_t flags;      /* ROCE_RECV_F_* */
	uint32_t byte_len;  /* UD: includes the 40-byte GRH area */
	uint32_t imm;       /* immediate data, or the R_Key to invalidate with ROCE_RECV_F_INV */
	uint32_t src_qp;    /* UD: DETH source QP */
	const struct roce_pkt *pkt; /* completing packet (addresses for UD), NULL on error */
};

/*
 * Device callbacks. Return 0 or a negative errno; the mapping to wire and completion
 * behaviour is given per callback.
 */
struct roce_qp_ops {
	/*
	 * Takes the next receive WQE (RQ or SRQ) for an incoming message: *cookie names it
	 * in later calls. -ENOBUFS: none posted (RC: RNR NAK; UD: drop). min_len > 0 (UD)
	 * asks for a buffer of at least min_len bytes; -EMSGSIZE: too small, the WQE is not
	 * consumed and the packet is dropped.
	 */
	int (*recv_begin)(struct roce_qp *qp, uint32_t min_len, uint64_t *cookie);
	/* Copies len bytes to offset off of the WQE's buffers. -EMSGSIZE: past the end
	 * (NAK invalid request, LOC_LEN_ERR); -EACCES: bad lkey (NAK remote operational,
	 * LOC_PROT_ERR); -EBADMSG: as for mem_write (the fused ICRC check failed, the packet
	 * is dropped); other: LOC_QP_OP_ERR. */
	int (*recv_place)(struct roce_qp *qp, uint64_t cookie, uint32_t off, const void *data,
			  uint32_t len);
	/* The message completed (or failed): write the receive CQE. For ROCE_RECV_F_INV
	 * the device invalidates d->imm. */
	void (*recv_end)(struct roce_qp *qp, uint64_t cookie, const struct roce_recv_done *d);
	/* May the peer access [va, va+len) through rkey with `access` (ROCE_ACCESS_*)?
	 * Key, PD, bounds, rights, MR/MW state. Non-zero: NAK remote access. */
	int (*mr_check)(struct roce_qp *qp, uint32_t rkey, uint64_t va, uint32_t len,
			unsigned int access);
	/* RDMA WRITE data to checked memory. Non-zero: NAK remote access; -EBADMSG for a
	 * packet roce_resp_fusable() allowed: its ICRC, checked while copying, failed, and
	 * the packet is dropped (ROCE_R_ICRC) as if it had not arrived. */
	int (*mem_write)(struct roce_qp *qp, uint32_t rkey, uint64_t va, const void *data,
			 uint32_t len);
	/* Optional (NULL: mr_check then mem_write): an RDMA WRITE whose whole message is
	 * this one packet, checked as mr_check(rkey, va, len, ROCE_ACCESS_REMOTE_WRITE) and,
	 * only when allowed, written, in one call. Non-zero: refused, nothing written (NAK
	 * remote access). */
	int (*mem_write_checked)(struct roce_qp *qp, uint32_t rkey, uint64_t va,
				 const void *data, uint32_t len);
	/* 64-bit atomic at checked, 8-byte aligned memory; *orig = value before. */
	int (*atomic)(struct roce_qp *qp, uint32_t rkey, uint64_t va, int cmp_swap,
		      uint64_t swap_add, uint64_t cmp, uint64_t *orig);
	/* READ response data into the local buffers of send WR wr_id at offset off.
	 * -EACCES: LOC_PROT_ERR; other: LOC_ACCESS_ERR (QP to error). */
	int (*read_place)(struct roce_qp *qp, uint64_t wr_id, uint32_t off, const void *data,
			  uint32_t len);
	/* A send WR completed, successfully or not, in SQ order (also unsignaled ones). */
	void (*send_done)(struct roce_qp *qp, const struct roce_send_done *d);
	/* The QP entered the error state from the wire side (status is the cause); the
	 * send queue has been flushed already, the device flushes its receive queue. */
	void (*qp_error)(struct roce_qp *qp, uint8_t status);
};

/* Creation-time sizing; memory comes from the caller (roce_qp_mem_size()). */
struct roce_qp_init_attr {
	enum roce_qp_type type : 8;
	uint32_t qpn;
	uint32_t sq_depth;        /* outstanding send WRs, rounded up to a power of two */
	uint32_t max_rd_res;      /* upper bound for max_dest_rd_atomic (responder resources) */
	uint32_t max_unacked_psn; /* requester window in PSNs; 0 = 128 (as rxe) */
	const struct roce_qp_ops *ops;
	void *user;               /* the device's per-QP context, qp->user */
};

/* roce_qp_modify() attribute mask */
enum roce_qp_attr_mask {
	ROCE_QP_STATE = 1u << 0,
	ROCE_QP_ACCESS = 1u << 1,
	ROCE_QP_QKEY = 1u << 2,
	ROCE_QP_AV = 1u << 3,
	ROCE_QP_PATH_MTU = 1u << 4,
	ROCE_QP_DEST_QPN = 1u << 5,
	ROCE_QP_RQ_PSN = 1u << 6,
	ROCE_QP_MAX_DEST_RD_ATOMIC = 1u << 7,
	ROCE_QP_MIN_RNR_TIMER = 1u << 8,
	ROCE_QP_SQ_PSN = 1u << 9,
	ROCE_QP_TIMEOUT = 1u << 10,
	ROCE_QP_RETRY_CNT = 1u << 11,
	ROCE_QP_RNR_RETRY = 1u << 12,
	ROCE_QP_MAX_RD_ATOMIC = 1u << 13,
	ROCE_QP_FLAGS = 1u << 14,
};

#define ROCE_QP_F_RETRY7_INFINITE (1u << 0) /* rxe: retry_cnt 7 never exhausts */

struct roce_qp_attr {
	enum roce_qp_state state : 8;
	uint8_t access;             /* ROCE_ACCESS_* allowed to the peer */
	uint32_t qkey;              /* UD */
	struct roce_av av;          /* RC/UC */
	uint32_t path_mtu;          /* bytes: 256, 512, 1024, 2048 or 4096 */
	uint32_t dest_qpn;
	uint32_t rq_psn;
	uint8_t max_dest_rd_atomic; /* IRD, <= init max_rd_res */
	uint8_t min_rnr_timer;      /* RNR NAK timer code we send */
	uint32_t sq_psn;
	uint8_t timeout;            /* local ACK timeout code */
	uint8_t retry_cnt;          /* 0..7 */
	uint8_t rnr_retry;          /* 0..7, 7 = infinite */
	uint8_t max_rd_atomic;      /* ORD (0 is taken as 1 so READs can still run) */
	uint32_t flags;             /* ROCE_QP_F_* */
};

/* Where the payload of a transmitted packet comes from. */
enum roce_pl_src {
	ROCE_PL_NONE,
	ROCE_PL_SQ,  /* bytes [offset, offset + pkt.paylen) of send WR wr_id's message */
	ROCE_PL_MEM, /* READ response: pkt.paylen bytes at va of the region of rkey
		      * (checked when the request arrived) */
};

struct roce_tx {
	struct roce_pkt pkt; /* every field final except ip_id; pkt.payload is NULL */
	enum roce_pl_src pl_src : 8;
	uint8_t retransmit;  /* this request packet was sent before */
	uint64_t wr_id;
	uint32_t offset;
	uint32_t rkey;
	uint64_t va;
	/* The QP's frame template when the packet goes to the connected peer (RC/UC), else
	 * NULL: roce_tmpl_write_hdrs(tmpl, &pkt, ...) writes what roce_pkt_write_hdrs(&pkt)
	 * would, with less work. */
	const struct roce_tmpl *tmpl;
};

/* Counters a device exports as per-QP xstats. */
struct roce_qp_stats {
	uint64_t tx_pkts, rx_pkts;
	uint64_t retransmits;      /* request packets sent again */
	uint64_t timeouts;         /* local ACK timer expiries */
	uint64_t seq_naks_rx, rnr_naks_rx, err_naks_rx;
	uint64_t seq_naks_tx, rnr_naks_tx, err_naks_tx;
	uint64_t acks_tx, acks_rx;
	uint64_t dup_requests;     /* duplicates re-ACKed */
	uint64_t read_replays, atomic_replays;
	uint64_t implicit_naks;    /* READ/atomic responses found missing by a later ACK */
	uint64_t ud_oversize;      /* UD sends over the path MTU: completed, not sent */
	uint64_t drops[ROCE_R_NUM];
};

/* Send WR as the requester tracks it: the truth for its packets (PSNs, sent, acknowledged,
 * retried). The caller keeps its own record of the work (user names it) and gets a status
 * back per WR; nothing here duplicates the caller's queue. */
struct roce_swqe {
	struct roce_send_wr wr;
	uint32_t first_psn;
	uint32_t last_psn;
	uint32_t done;      /* READ: response bytes received */
	uint64_t orig;      /* atomics: value returned by the responder */
	uint8_t started;
};

enum roce_res_type { ROCE_RES_FREE, ROCE_RES_READ, ROCE_RES_ATOMIC };

/* Responder resource: what a READ or atomic needs for replay. */
struct roce_rd_res {
	enum roce_res_type type : 8;
	uint32_t first_psn;
	uint32_t last_psn;
	uint64_t va;
	uint32_t rkey;
	uint32_t len;
	uint64_t orig;      /* atomic: value returned */
};

enum roce_job_type { ROCE_JOB_ACK, ROCE_JOB_READ, ROCE_JOB_ATOMIC };

/* A response waiting for transmission (ACK, NAK, READ response stream, atomic ACK). */
struct roce_job {
	enum roce_job_type type : 8;
	uint8_t syndrome;
	uint32_t psn;
	uint32_t msn;
	uint64_t va;        /* READ: next byte */
	uint32_t rkey;
	uint32_t left;      /* READ: bytes still to send */
	uint32_t first_psn; /* READ: PSN of the request (position of the first response) */
	uint8_t started;    /* READ: a response of this job was sent (position MIDDLE/LAST) */
	uint64_t orig;      /* atomic ACK value */
};

enum roce_resp_ctx {
	ROCE_RESP_IDLE,
	ROCE_RESP_IN_SEND,
	ROCE_RESP_IN_WRITE,
};

struct roce_qp {
	/* configuration */
	uint8_t type;
	uint8_t state;
	uint8_t access;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint32_t flags;
	uint32_t qpn;
	uint32_t dest_qpn;
	uint32_t qkey;
	uint32_t pmtu;
	uint32_t max_unacked_psn;  /* requester window in PSNs */
	struct roce_av av;
	/* av's addresses for the receive check of IPv4 frames (roce_qp_from_peer): the peer's
	 * then ours, as the peer's IPv4 header holds them (roce_pkt ip4_src, ip4_dst);
	 * rx_ip4_ok: both GIDs of av are IPv4-mapped, else no IPv4 frame is the peer's */
	uint32_t rx_ip4[2];
	uint8_t rx_ip4_ok;
	const struct roce_qp_ops *ops;
	void *user;

	/* requester + completer */
	struct {
		struct roce_swqe *ring;
		uint32_t mask;
		uint32_t head;   /* oldest not completed */
		uint32_t next;   /* next to (re)send */
		uint32_t tail;   /* next free */
		uint32_t psn;    /* next PSN to send */
		uint32_t off;    /* bytes of ring[next] already sent */
		uint32_t una;    /* oldest unacknowledged PSN */
		uint32_t hi_psn; /* one past the highest PSN ever sent (retransmit detection) */
		uint16_t rd_atomic;   /* READ/atomic WRs in [head, next) */
		uint16_t pkts_no_ackreq;
		uint8_t retry_left;
		uint8_t rnr_left;
		uint8_t nak_active;   /* a go-back-N for nak_psn is under way */
		uint8_t rnr_wait;
		uint8_t rnr_episode;  /* an RNR NAK named rnr_psn, nothing acknowledged since */
		uint32_t nak_psn;
		uint32_t rnr_psn;
		uint64_t ack_deadline;
		uint64_t rnr_deadline;
		uint64_t ack_timeout_ns;
	} req;

	/* responder */
	struct {
		uint32_t epsn;     /* next expected PSN */
		uint32_t msn;
		uint32_t ack_psn;  /* PSN of the last executed SEND/WRITE/atomic */
		enum roce_resp_ctx ctx : 8;
		uint8_t nak_sent;  /* one NAK per gap */
		uint8_t have_wqe;
		uint64_t wqe;      /* receive WQE cookie of the message in progress */
		uint32_t wqe_off;
		uint64_t wr_va;    /* RDMA WRITE in progress */
		uint32_t wr_rkey;
		uint32_t wr_left;
		uint32_t wr_len;
		struct roce_rd_res *res;
		uint32_t nres;
		uint32_t res_next;
		struct roce_job *jobs;
		uint32_t jmask;
		uint32_t jhead, jtail;
	} resp;
	/* after the requester's and responder's state, which every frame reads: the
	 * template's prototype packet is cold, its header bytes are read per frame sent */
	struct roce_tmpl tmpl;     /* frames to av / dest_qpn (RC/UC), rebuilt when they change */

	struct roce_qp_stats stats;
};

/* Bytes of memory roce_qp_init() needs for the given sizing (8-byte aligned). */
size_t roce_qp_mem_size(const struct roce_qp_init_attr *ia);

/* Initialises qp in RESET. mem: roce_qp_mem_size() bytes, owned by the caller. */
int roce_qp_init(struct roce_qp *qp, const struct roce_qp_init_attr *ia, void *mem);

/*
 * Applies the attributes selected by mask. A state change to RESET clears all transport
 * state; to ERR flushes the send queue (send_done with WR_FLUSH_ERR). The caller (the
 * PMD) enforces the verbs transition rules; this checks values. 0 or -EINVAL.
 */
int roce_qp_modify(struct roce_qp *qp, const struct roce_qp_attr *attr, uint32_t mask);

/*
 * Queues a send WR. 0, -ENOMEM (sq_depth WRs outstanding), -EINVAL (bad WR for the QP
 * type: atomic length not 8 or address not 8-aligned, message over 2^31 bytes, ...), or
 * -EINVAL also in RESET/INIT/RTR. In ERR the WR completes at once with WR_FLUSH_ERR.
 */
int roce_qp_post_send(struct roce_qp *qp, const struct roce_send_wr *wr);

/* Processes a parsed packet addressed to this QP. ROCE_R_OK, or the ROCE_R_* the packet
 * was dropped for (also counted in qp->stats.drops). */
enum roce_reason roce_qp_rx(struct roce_qp *qp, const struct roce_pkt *pkt, uint64_t now);

/*
 * 1 when pkt (parsed, its ICRC not checked yet) is one whose first effect in roce_qp_rx()
 * is the mem_write (recv_place) of its whole payload to the range the message's verified
 * first packet set (an in-order RDMA WRITE or SEND MIDDLE/LAST of the message in
 * progress): the device may then check the ICRC while it copies, and answer mem_write
 * (recv_place) with -EBADMSG when it fails
 * (roce_rx_fuse.c says why that is safe). 0: check the ICRC first.
 */
int roce_resp_fusable(const struct roce_qp *qp, const struct roce_pkt *pkt);

/* Produces the next packet to send: 1 with *tx filled, 0 when there is nothing now. */
int roce_qp_tx(struct roce_qp *qp, uint64_t now, struct roce_tx *tx);

/*
 * Transmit fast paths (the common case straight into a frame; byte for byte and state for
 * state what the general path does). buf/cap: the frame buffer; *ip_id: the device's IPv4
 * id counter, taken (and advanced) only when a frame is written. Each returns the length of
 * the headers written (> 0), or 0 when the case is not the common one and nothing changed.
 *
 * roce_qp_post_send_fast(): roce_qp_post_send() of wr and roce_qp_tx() of its one packet,
 * when wr is a SEND/WRITE of at most one path MTU or a READ request, on an RC QP in RTS
 * with a template, nothing queued, resent or waiting before it, and room in the ring and
 * the window. The caller places wr->len payload bytes at buf + return (SEND/WRITE), then
 * pad and ICRC (buf + tmpl.l3_off on). 0: post it with roce_qp_post_send().
 *
 * roce_qp_tx_ack_fast(): roce_qp_tx() when the next packet is an ACK/NAK (no payload;
 * the caller adds the ICRC). 0: call roce_qp_tx().
 *
 * roce_qp_tx_read_fast(): roce_qp_tx() when the next packet is the whole response to a
 * READ of at most max_pl bytes (RDMA READ RESPONSE ONLY). *rd says what the caller places
 * at buf + return: rd->len bytes of the responder's memory at (rd->rkey, rd->va), which it
 * key-checks for remote read before copying (what roce_qp_tx()'s ROCE_PL_MEM asks), and on
 * a failed check frees the frame and calls roce_qp_set_error(ROCE_WC_REM_ACCESS_ERR), as
 * after roce_qp_tx(); then pad and ICRC. 0: call roce_qp_tx().
 */
int roce_qp_post_send_fast(struct roce_qp *qp, const struct roce_send_wr *wr, uint64_t now,
			   uint16_t *ip_id, uint8_t *buf, size_t cap);
int roce_qp_tx_ack_fast(struct roce_qp *qp, uint16_t *ip_id, uint8_t *buf, size_t cap);

struct roce_tx_read {
	uint64_t va;
	uint32_t rkey;
	uint32_t len;
};

int roce_qp_tx_read_fast(struct roce_qp *qp, uint16_t *ip_id, uint8_t *buf, size_t cap,
			 uint32_t max_pl, struct roce_tx_read *rd);

/* Handles expired timers (ACK timeout, RNR wait). Call when now >= next deadline. */
void roce_qp_timer(struct roce_qp *qp, uint64_t now);


/* Moves the QP to ERR with the given cause: flushes the send queue, calls qp_error. */
void roce_qp_set_error(struct roce_qp *qp, uint8_t status);

/* The transport's own view of a QP, for a device's query (roce_qp_query.c). The state is
 * the transport's: it moves to ERR on the wire side before the device hears of it. */
struct roce_qp_status {
	enum roce_qp_state state;
	uint32_t sq_psn;            /* next PSN the requester sends */
	uint32_t rq_psn;            /* PSN the responder expects */
};

void roce_qp_query(const struct roce_qp *qp, struct roce_qp_status *st);

/*
 * Cheap test for an engine's scheduler: 1 when roce_qp_tx() may produce a packet or a
 * UD/UC completion now (responses queued, or send work that is not waiting for an RNR
 * timer); 0 means the QP needs attention only on rx or at roce_qp_next_deadline().
 */
static inline int roce_qp_wants_tx(const struct roce_qp *qp, uint64_t now)
{
	if (qp->resp.jhead != qp->resp.jtail)
		return 1;
	if (qp->state != ROCE_QPS_RTS && qp->state != ROCE_QPS_SQD)
		return qp->req.head != qp->req.next && qp->type != ROCE_QPT_RC;
	if (qp->req.rnr_wait && now < qp->req.rnr_deadline)
		return 0;
	return qp->req.next != qp->req.tail ||
	       (qp->type != ROCE_QPT_RC && qp->req.head != qp->req.next);
}

/* The earliest deadline (ns) at which roce_qp_timer() has work, or ROCE_TIME_NEVER.
 * Inline: engines ask it for every QP on every step. */
static inline uint64_t roce_qp_next_deadline(const struct roce_qp *qp)
{
	if (qp->type != ROCE_QPT_RC)
		return ROCE_TIME_NEVER;
	if (qp->req.rnr_wait)
		return qp->req.rnr_deadline;
	return qp->req.ack_deadline;
}

/* Send WRs posted and not yet completed. */
static inline uint32_t roce_qp_sq_outstanding(const struct roce_qp *qp)
{
	return qp->req.tail - qp->req.head;
}

static inline const char *roce_qp_state_name(uint8_t s)
{
	static const char *const n[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "ERR" };

	return s <= ROCE_QPS_ERR ? n[s] : "?";
}

#endif /* ROCE_QP_H */
