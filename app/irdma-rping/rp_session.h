/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One irdma-rping endpoint as a step machine: rp_session_step() never blocks, so main
 * loops on it and a test can step a client and a server of one process in turn.
 *
 * The protocol is rping's (doc/spec/rdma-cm.md §12): after RDMA-CM connects, every ping
 * is three rounds. The client SENDs a 16-byte advertisement (buffer address, rkey, size,
 * big-endian) of its source buffer; the server RDMA READs it and SENDs a go-ahead; the
 * client SENDs the advertisement of its sink buffer; the server RDMA WRITEs the data
 * back into it and SENDs a second go-ahead. The client disconnects after -C pings.
 */
#ifndef IRDMA_RPING_SESSION_H
#define IRDMA_RPING_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include <rte_pmd_irdma.h>

#include "rp_opts.h"
#include "tool_cm.h"

enum rp_state {
	RP_LISTENING = 0, /* server: waiting for a CONNECT_REQUEST */
	RP_CONNECTING,    /* REQ sent, or REP sent: waiting for ESTABLISHED */
	RP_WAIT_READ_ADV, /* server: the client's source advertisement */
	RP_READING,       /* server: RDMA READ in flight */
	RP_WAIT_WRITE_ADV,/* server: the sink advertisement; client: the first go-ahead */
	RP_WRITING,       /* server: RDMA WRITE in flight */
	RP_WAIT_WRITE_DONE, /* client: the second go-ahead */
	RP_DISCONNECTING, /* DREQ sent: waiting for the DREP (or its give-up) */
	RP_DONE,
	RP_FAILED,
};

/* The 16 bytes of an advertisement (rping's struct, network byte order). */
struct rp_rdma_info {
	uint64_t buf;
	uint32_t rkey;
	uint32_t size;
} __attribute__((packed));

struct rp_session {
	const struct rp_opts *o;
	FILE *out;              /* -v lines (stdout) */
	FILE *err;              /* errors and the DISCONNECT line (stderr) */
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr; /* one region: recv, send, rdma and start buffers */
	uint8_t *mem;
	struct rp_rdma_info *recv_buf, *send_buf;
	char *rdma_buf, *start_buf;
	struct tool_cm cm;
	int id;                 /* the connection, -1 none */
	enum rp_state state;
	uint32_t ping;          /* pings completed (client) or served (server) */
	unsigned char start;    /* the first payload character of the next ping */
	uint64_t remote_addr;
	uint32_t remote_rkey, remote_len;
	uint64_t last_progress; /* tool_cm_now() of the last state change */
	uint32_t connections;   /* served (server) */
	int status;             /* RP_DONE: 0; RP_FAILED: a negative errno */
};

/* Creates the device and listens (server) or connects (client). 0 or -1 after a line. */
int rp_session_init(struct rp_session *s, const struct rp_opts *o);

/* One step. Returns the state after it; RP_DONE and RP_FAILED are final. */
enum rp_state rp_session_step(struct rp_session *s);

/* Ends what is in flight (disconnects a live connection) and frees everything. */
void rp_session_fini(struct rp_session *s);

#endif
