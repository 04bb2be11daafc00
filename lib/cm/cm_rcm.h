/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM on top of the IB CM, in the shape of librdmacm: listen on an IP address and
 * port, connect to one, accept, reject, disconnect, and events carrying the peer's
 * private data. What it adds to cm_conn.h: port spaces and service IDs, the IP header in
 * the REQ private data, listener matching by address and port, the flow label, and the
 * user's 56 bytes of REQ private data (doc/spec/rdma-cm.md §8).
 *
 * Connection ids are those of the underlying struct irdma_cm. The same callback rules
 * apply: from the event callback the application may accept, reject, disconnect or
 * destroy the connection it is told about.
 */
#ifndef CM_RCM_H
#define CM_RCM_H

#include <stddef.h>
#include <stdint.h>

#include "cm_conn.h"
#include "cm_ip.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IRDMA_RCM_MAX_ADDRS 8u
#define IRDMA_RCM_MAX_LISTENERS 16u

/* An IP endpoint: version 4 or 6, the address as a GID (IPv4-mapped for IPv4), a port.
 * An all-zero GID in a listener is the wildcard address. */
struct irdma_rcm_addr {
	uint8_t ip_version;
	uint8_t gid[16];
	uint16_t port;
};

enum irdma_rcm_event_type {
	IRDMA_RCM_EVENT_CONNECT_REQUEST = 0,
	IRDMA_RCM_EVENT_ESTABLISHED,
	IRDMA_RCM_EVENT_REJECTED,      /* status: the REJ reason (28: the peer's application) */
	IRDMA_RCM_EVENT_UNREACHABLE,   /* status: -ETIMEDOUT */
	IRDMA_RCM_EVENT_CONNECT_ERROR, /* status: the qp_modify error */
	IRDMA_RCM_EVENT_DISCONNECTED,
	IRDMA_RCM_EVENT_TIMEWAIT_EXIT,
	IRDMA_RCM_EVENT_NUM
};

/* CONNECT_REQUEST: the request, from the passive side's point of view. */
struct irdma_rcm_conn_info {
	struct irdma_rcm_addr src; /* the peer */
	struct irdma_rcm_addr dst; /* the local address it asked for */
	enum irdma_cm_ps ps;
	uint32_t remote_qpn;
	uint8_t responder_resources; /* = REQ initiator depth */
	uint8_t initiator_depth;     /* = REQ responder resources */
	uint8_t retry_count;
	uint8_t rnr_retry_count;
	uint8_t srq;
};

struct irdma_rcm_event {
	enum irdma_rcm_event_type type;
	int id;
	int status;
	void *user;
	void *listen_ctx;              /* CONNECT_REQUEST: the listener's context */
	const struct irdma_rcm_conn_info *info; /* CONNECT_REQUEST only */
	const uint8_t *private_data;   /* the user's part: REQ 56, REP 196, REJ 148, ... */
	size_t private_data_len;
};

struct irdma_rcm_ops {
	int (*send)(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len);
	int (*qp_modify)(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *attr);
	void (*event)(void *ctx, const struct irdma_rcm_event *ev);
};

struct irdma_rcm_config {
	struct irdma_cm_config cm;
	/* The local IP addresses (GIDs); a REQ for any other destination is refused. */
	uint8_t local_gids[IRDMA_RCM_MAX_ADDRS][16];
	unsigned int n_local_gids;
};

struct irdma_rcm_connect_param {
	enum irdma_cm_ps ps;       /* IRDMA_CM_PS_TCP for RC */
	struct irdma_rcm_addr src; /* bound address and (ephemeral) port */
	struct irdma_rcm_addr dst;
	uint32_t qpn;
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t retry_count;
	uint8_t rnr_retry_count;
	uint8_t path_mtu;
	uint8_t srq;
	uint8_t traffic_class;
	uint8_t hop_limit;
	const void *private_data; /* <= IRDMA_CM_REQ_USER_PD_LEN bytes */
	size_t private_data_len;
	void *user;
};

struct irdma_rcm_listener {
	enum irdma_cm_ps ps;
	struct irdma_rcm_addr addr;
	void *ctx;
	uint8_t used;
};

struct irdma_rcm_conn {
	int id; /* -1: the slot is not an RDMA-CM connection */
	struct irdma_rcm_addr src, dst;
};

struct irdma_rcm {
	struct irdma_cm cm;
	struct irdma_rcm_config cfg;
	const struct irdma_rcm_ops *ops;
	void *ctx;
	uint64_t rejected_requests; /* REQs refused at the RDMA-CM level (REJ 28) */
	struct irdma_rcm_listener listeners[IRDMA_RCM_MAX_LISTENERS];
	struct irdma_rcm_conn conns[IRDMA_CM_MAX_CONNS];
};

/* Initialises r. Returns 0, or -EINVAL (NULL argument or callback, bad config). */
int irdma_rcm_init(struct irdma_rcm *r, const struct irdma_rcm_config *cfg,
		   const struct irdma_rcm_ops *ops, void *ctx);

/* Listens on addr (a local address or the wildcard) and port in port space ps. Returns
 * 0, -EINVAL (port space, IP version, or an address that is not local), -EADDRINUSE or
 * -ENOSPC. */
int irdma_rcm_listen(struct irdma_rcm *r, enum irdma_cm_ps ps, const struct irdma_rcm_addr *addr,
		     void *listen_ctx);

/* Connects: REQ with the IP header and the user's private data. Returns the connection
 * id, or a negative errno as irdma_cm_connect() does. */
int irdma_rcm_connect(struct irdma_rcm *r, const struct irdma_rcm_connect_param *param,
		      uint64_t now);

/* Accepts a CONNECT_REQUEST (see irdma_cm_accept()). */
int irdma_rcm_accept(struct irdma_rcm *r, int id, const struct irdma_cm_accept_param *param,
		     uint64_t now);

/* Rejects a CONNECT_REQUEST with REJ 28 and up to 148 bytes of private data. */
int irdma_rcm_reject(struct irdma_rcm *r, int id, const void *private_data, size_t len,
		     uint64_t now);

/* Disconnects (see irdma_cm_disconnect()). */
int irdma_rcm_disconnect(struct irdma_rcm *r, int id, uint64_t now);

/* Frees a connection at once (see irdma_cm_destroy()). */
int irdma_rcm_destroy(struct irdma_rcm *r, int id, uint64_t now);

/* A MAD received on QP 1 (see irdma_cm_rx()). */
int irdma_rcm_rx(struct irdma_rcm *r, const struct irdma_cm_addr *from, const uint8_t *mad,
		 size_t len, uint64_t now);

/* Timers (see irdma_cm_timer() and irdma_cm_next_deadline()). */
void irdma_rcm_timer(struct irdma_rcm *r, uint64_t now);
uint64_t irdma_rcm_next_deadline(const struct irdma_rcm *r);

/* The peer and local address of a connection. 0 or -EINVAL. */
int irdma_rcm_get_addrs(const struct irdma_rcm *r, int id, struct irdma_rcm_addr *local,
			struct irdma_rcm_addr *remote);

const char *irdma_rcm_event_name(enum irdma_rcm_event_type type);

#ifdef __cplusplus
}
#endif

#endif /* CM_RCM_H */
