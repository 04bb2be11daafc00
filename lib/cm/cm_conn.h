/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IB CM state machines, active and passive side, over an abstract MAD transport.
 *
 * One struct irdma_cm per port holds a fixed table of connections and listeners (no
 * allocation after irdma_cm_init()). Time is injected: every call takes `now` in
 * nanoseconds from any monotonic clock, and retransmissions and timewait are deadlines
 * the caller polls with irdma_cm_next_deadline() / irdma_cm_timer(). The CM sends MADs,
 * asks for QP transitions and reports events through the callbacks of struct
 * irdma_cm_ops. States, timers and QP attributes: doc/spec/rdma-cm.md §5, §6, §7.
 *
 * Callbacks run inside the call that caused them. From the event callback the
 * application may call irdma_cm_accept(), irdma_cm_reject(), irdma_cm_disconnect() and
 * irdma_cm_destroy() on the connection it was told about; from send and qp_modify it must
 * not call back into the CM.
 */
#ifndef CM_CONN_H
#define CM_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "cm_msg.h"
#include "cm_reason.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IRDMA_CM_TIME_NEVER UINT64_MAX
#define IRDMA_CM_MAX_CONNS 64u
#define IRDMA_CM_MAX_LISTENERS 16u
/* A connection id is (generation << 8) | slot: the slot of cm->conns it names. */
#define IRDMA_CM_ID_SLOT(id) ((unsigned int)(id) & 0xFFu)

/* Connection states (the names of the IBTA/Linux CM). REP_RCVD and MRA_REP_SENT are not
 * used: the active side moves its QP and answers a REP within irdma_cm_rx(). */
enum irdma_cm_state {
	IRDMA_CM_IDLE = 0, /* free slot */
	IRDMA_CM_REQ_SENT,
	IRDMA_CM_REQ_RCVD,
	IRDMA_CM_MRA_REQ_SENT,
	IRDMA_CM_MRA_REQ_RCVD,
	IRDMA_CM_REP_SENT,
	IRDMA_CM_REP_RCVD,
	IRDMA_CM_MRA_REP_SENT,
	IRDMA_CM_MRA_REP_RCVD,
	IRDMA_CM_ESTABLISHED,
	IRDMA_CM_DREQ_SENT,
	IRDMA_CM_DREQ_RCVD,
	IRDMA_CM_TIMEWAIT,
	IRDMA_CM_STATE_NUM
};

enum irdma_cm_event_type {
	IRDMA_CM_EVENT_REQ_RECEIVED = 0, /* passive: accept or reject it */
	IRDMA_CM_EVENT_ESTABLISHED,      /* active: REP handled, RTU sent; passive: RTU */
	IRDMA_CM_EVENT_REJECTED,         /* status = the REJ reason code */
	IRDMA_CM_EVENT_UNREACHABLE,      /* REQ or REP retries exhausted (-ETIMEDOUT) */
	IRDMA_CM_EVENT_CONNECT_ERROR,    /* active: the QP could not take the REP; REJ sent */
	IRDMA_CM_EVENT_DISCONNECTED,     /* DREQ or DREP received, or DREQ retries exhausted */
	IRDMA_CM_EVENT_TIMEWAIT_EXIT,    /* the connection is gone; its id is free */
	IRDMA_CM_EVENT_NUM
};

/* A peer: its GID (IPv4-mapped for IPv4). The MAD transport resolves the MAC. */
struct irdma_cm_addr {
	uint8_t gid[16];
};

enum irdma_cm_qp_state {
	IRDMA_CM_QPS_INIT = 1,
	IRDMA_CM_QPS_RTR,
	IRDMA_CM_QPS_RTS,
	IRDMA_CM_QPS_ERR,
};

#define IRDMA_CM_ACCESS_REMOTE_WRITE 0x1u
#define IRDMA_CM_ACCESS_REMOTE_READ 0x2u
#define IRDMA_CM_ACCESS_REMOTE_ATOMIC 0x4u

/* What one QP transition needs; which fields matter depends on the target state as in
 * verbs: INIT: pkey, access; RTR: dest_qpn, rq_psn, path_mtu, max_dest_rd_atomic,
 * min_rnr_timer and the address vector; RTS: sq_psn, retry_cnt, rnr_retry, timeout,
 * max_rd_atomic; ERR: nothing. */
struct irdma_cm_qp_attr {
	enum irdma_cm_qp_state state;
	uint32_t qpn; /* the local QP */
	uint16_t pkey;
	uint32_t access; /* IRDMA_CM_ACCESS_* */
	uint32_t dest_qpn;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint8_t path_mtu; /* IB MTU code */
	uint8_t max_dest_rd_atomic;
	uint8_t max_rd_atomic;
	uint8_t min_rnr_timer;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t timeout; /* local ACK timeout, 4.096 us x 2^timeout */
	uint8_t sgid[16];
	uint8_t dgid[16];
	uint32_t flow_label;
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint8_t sl;
};

struct irdma_cm_event {
	enum irdma_cm_event_type type;
	int id;      /* the connection */
	void *user;  /* what connect/accept/irdma_cm_set_user() attached */
	int status;  /* 0, -ETIMEDOUT, the REJ reason (REJECTED), a qp_modify error */
	void *listen_ctx; /* REQ_RECEIVED: the listener's context */
	const struct irdma_cm_msg *msg; /* the MAD behind the event, NULL for timers */
	const uint8_t *private_data;    /* that MAD's private data (full capacity) */
	size_t private_data_len;
};

struct irdma_cm_ops {
	/* Sends one MAD to QP 1 of the peer. 0 or a negative errno (then counted; the
	 * retransmission timers recover REQ, REP and DREQ). */
	int (*send)(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len);
	/* Moves the connection's QP. A negative errno refuses (connect/accept fail, an
	 * active side rejects the REP). */
	int (*qp_modify)(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *attr);
	void (*event)(void *ctx, const struct irdma_cm_event *ev);
};

struct irdma_cm_config {
	uint64_t local_ca_guid;
	uint8_t ca_ack_delay;        /* REP TargetAckDelay (T); Linux rxe: 15 */
	uint8_t packet_life_time;    /* PLT (T) of every path; Linux RoCE: 18 */
	uint8_t cm_response_timeout; /* REQ CM response timeouts (T); Linux: 20 */
	uint8_t max_cm_retries;      /* REQ MaxCMRetries and DREQ retries; Linux: 15 */
	uint8_t mra_service_timeout; /* MRA ServiceTimeout (T); Linux: 24 */
	uint32_t hi_tid;             /* upper 32 bits of the TIDs this side starts */
	uint64_t seed;               /* communication IDs and PSNs (0: a fixed default) */
};

/* Active side: what the REQ carries. */
struct irdma_cm_connect_param {
	uint64_t service_id;
	uint8_t sgid[16]; /* local address (the path's local GID) */
	uint8_t dgid[16]; /* the peer; the REQ is sent there */
	uint32_t qpn;
	uint8_t responder_resources; /* my max_dest_rd_atomic */
	uint8_t initiator_depth;     /* my max_rd_atomic */
	uint8_t retry_count;         /* 0..7 */
	uint8_t rnr_retry_count;     /* 0..7, for the peer's QP */
	uint8_t path_mtu;            /* IB MTU code 1..5 */
	uint8_t srq;
	uint32_t flow_label;
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint8_t sl;
	const void *private_data; /* <= IRDMA_CM_REQ_PD_LEN bytes */
	size_t private_data_len;
	void *user;
};

/* Passive side: what the REP carries. */
struct irdma_cm_accept_param {
	uint32_t qpn;
	uint8_t responder_resources; /* clamped to the REQ's initiator depth */
	uint8_t initiator_depth;     /* clamped to the REQ's responder resources */
	uint8_t rnr_retry_count;     /* 0..7, for the active side's QP */
	uint8_t srq;
	uint8_t min_rnr_timer;
	const void *private_data; /* <= IRDMA_CM_REP_PD_LEN bytes */
	size_t private_data_len;
	void *user;
};

struct irdma_cm_stats {
	uint64_t drops[IRDMA_CM_R_NUM]; /* irdma_cm_rx() results by reason */
	uint64_t tx[11];                /* MADs sent, by attribute ID - 0x10 */
	uint64_t rx[11];                /* MADs parsed, by attribute ID - 0x10 */
	uint64_t retransmits;           /* REQ/REP/DREQ sent again on a timer */
	uint64_t send_errors;           /* ops->send failures */
};

/* Internal state of one connection; read it through the functions below. */
struct irdma_cm_conn {
	enum irdma_cm_state state;
	uint8_t active;
	uint8_t qp_live;    /* the QP went past INIT: move it to ERR at the end */
	uint8_t retries;    /* retransmissions left */
	uint16_t gen;       /* part of the id, so a stale id does not name a new connection */
	uint32_t local_id;
	uint32_t remote_id;
	uint32_t local_qpn;
	uint32_t remote_qpn;
	uint64_t remote_guid;
	uint64_t tid;       /* the exchange in progress (REQ or DREQ TID) */
	uint64_t deadline;
	uint64_t interval;  /* retransmission interval of this connection (ns) */
	uint8_t av_timeout; /* the path's ACK timeout: MRA extension and timewait */
	struct irdma_cm_addr peer;
	void *user;
	void *listen_ctx;
	struct irdma_cm_req req; /* the REQ sent or received */
	uint8_t mad[IRDMA_CM_MAD_LEN]; /* REQ/REP/DREQ to retransmit, RTU to re-send */
};

struct irdma_cm_listener {
	uint64_t service_id;
	void *ctx;
	uint8_t used;
};

struct irdma_cm {
	struct irdma_cm_config cfg;
	const struct irdma_cm_ops *ops;
	void *ctx;
	uint64_t rng;
	struct irdma_cm_stats stats;
	struct irdma_cm_listener listeners[IRDMA_CM_MAX_LISTENERS];
	struct irdma_cm_conn conns[IRDMA_CM_MAX_CONNS];
};

/* Initialises cm. Returns 0, or -EINVAL (a NULL argument, a callback missing, or a
 * timeout code above 31). */
int irdma_cm_init(struct irdma_cm *cm, const struct irdma_cm_config *cfg,
		  const struct irdma_cm_ops *ops, void *ctx);

/* Accepts REQs for service_id. Returns 0, -EADDRINUSE or -ENOSPC. */
int irdma_cm_listen(struct irdma_cm *cm, uint64_t service_id, void *listen_ctx);

/* Stops accepting REQs for service_id (connections already made stay). 0 or -ENOENT. */
int irdma_cm_unlisten(struct irdma_cm *cm, uint64_t service_id);

/* Active side: moves the QP to INIT, sends a REQ and arms its timer. Returns the
 * connection id (>= 0), or -EINVAL (a parameter out of range), -ENOSPC (table full), or
 * the qp_modify error. */
int irdma_cm_connect(struct irdma_cm *cm, const struct irdma_cm_connect_param *param, uint64_t now);

/* Passive side, after REQ_RECEIVED: moves the QP to INIT, RTR, RTS, then sends the REP.
 * Returns 0, -EINVAL (bad id, state or parameter) or the qp_modify error (the connection
 * stays in REQ_RCVD: reject or destroy it). */
int irdma_cm_accept(struct irdma_cm *cm, int id, const struct irdma_cm_accept_param *param,
		    uint64_t now);

/* Passive side, after REQ_RECEIVED: sends a REJ (reason, up to 148 bytes of private
 * data) and frees the connection. Returns 0 or -EINVAL. */
int irdma_cm_reject(struct irdma_cm *cm, int id, uint16_t reason, const void *private_data,
		    size_t len, uint64_t now);

/* Passive side: sends an MRA for the REQ now (the peer extends its timer). 0 or -EINVAL. */
int irdma_cm_mra(struct irdma_cm *cm, int id, uint64_t now);

/* Passive side: data arrived before the RTU, the connection is established. 0 or -EINVAL. */
int irdma_cm_established(struct irdma_cm *cm, int id, uint64_t now);

/* Either side: ESTABLISHED -> QP to ERR, DREQ (retransmitted until DREP); after a
 * DISCONNECTED event for a received DREQ -> QP to ERR, DREP, timewait. Returns 0 (also
 * when a disconnect is already under way) or -EINVAL. */
int irdma_cm_disconnect(struct irdma_cm *cm, int id, uint64_t now);

/* Frees a connection at once, telling the peer what the state calls for (REJ, DREQ or
 * DREP, sent once). No event follows. Returns 0 or -EINVAL. */
int irdma_cm_destroy(struct irdma_cm *cm, int id, uint64_t now);

/* One MAD received from `from` (QP 1). Returns 0 if it was used, or -IRDMA_CM_R_<reason>
 * (also counted in cm->stats.drops). */
int irdma_cm_rx(struct irdma_cm *cm, const struct irdma_cm_addr *from, const uint8_t *mad,
		size_t len, uint64_t now);

/* The earliest deadline of any connection, IRDMA_CM_TIME_NEVER if none. */
uint64_t irdma_cm_next_deadline(const struct irdma_cm *cm);

/* Runs every timer due at now: retransmissions, give-ups, timewait exits. */
void irdma_cm_timer(struct irdma_cm *cm, uint64_t now);

/* State of a connection, IRDMA_CM_IDLE for an id that names none. */
enum irdma_cm_state irdma_cm_get_state(const struct irdma_cm *cm, int id);

/* Attaches user data reported with the connection's events. 0 or -EINVAL. */
int irdma_cm_set_user(struct irdma_cm *cm, int id, void *user);

/* Names: "REQ_SENT", "ESTABLISHED", ...; "REJECTED", ...; "unknown" otherwise. */
const char *irdma_cm_state_name(enum irdma_cm_state state);
const char *irdma_cm_event_name(enum irdma_cm_event_type type);

#ifdef __cplusplus
}
#endif

#endif /* CM_CONN_H */
