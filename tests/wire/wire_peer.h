/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A peer for wire tests: one device with an RC and a UD QP, a registered buffer and the
 * two roles of the tests.
 *
 * The server is a non-blocking step function (wp_server_step): it verifies every message
 * it receives (pattern, immediate data, invalidated rkey, UD GRH and source QPN), echoes
 * the ones marked for echo back to the client, and counts what it saw. The client drives
 * the operations and blocks until each one is verified; while it waits it calls a pump
 * (in one process: the server's step; across processes: nothing).
 *
 * The same code runs in one process (two devices over a net_ring pair), across two
 * processes over net_memif, and across two network namespaces over net_af_packet.
 */
#ifndef WIRE_PEER_H
#define WIRE_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rte_pmd_irdma.h"

#define WP_BUF_SIZE   (8u << 20)
/* Buffer layout (both sides). */
#define WP_RECV_OFF   0u               /* RC receive slots */
#define WP_RECV_SLOT  (64u << 10)
#define WP_RECV_N     32u
#define WP_WRITE_OFF  (2u << 20)       /* target of the client's WRITEs (1 MiB) */
#define WP_SRC_OFF    (3u << 20)       /* client: what it sends/writes; server: RC echoes */
#define WP_DST_OFF    (5u << 20)       /* client: where READs land; server: UD echoes */
#define WP_ATOMIC_OFF (7u << 20)       /* server: 64 atomic counters */
#define WP_UD_OFF     ((7u << 20) + 4096u) /* UD receive slots */
#define WP_UD_SLOT    (4096u + 64u)
#define WP_UD_N       16u
#define WP_INV_SIZE   4096u
#define WP_UD_QKEY    0x11111111u

/* What each side tells the other (fixed layout, sent as bytes over the control channel). */
struct wp_info {
	uint32_t rc_qpn, ud_qpn;
	uint64_t addr;        /* buffer base as the peer names it in RETHs */
	uint32_t rkey;
	uint32_t inv_rkey;    /* server: an MR the client invalidates with SEND_WITH_INV */
	uint8_t gid[16];      /* GID index 1: IPv4-mapped */
};

struct wp_stats {
	uint64_t recvs, echoes, ud_recvs, write_imms, errors;
	uint64_t sink_seq;    /* server: next expected sequence of the lossy test's SENDs */
	uint64_t sink_sent;   /* client: SENDs of the lossy test posted */
};

struct wp {
	const char *role;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *scq, *rcq;
	struct rte_pmd_irdma_qp *rc, *ud;
	struct rte_pmd_irdma_mr *mr, *inv_mr;
	struct rte_pmd_irdma_ah *ah;
	uint8_t *buf, *inv_buf;
	unsigned int gen;
	struct wp_info me, peer;
	void (*pump)(void *arg);
	void *pump_arg;
	unsigned int timeout_s;   /* per wait */
	uint32_t seq;             /* client: next message sequence */
	uint64_t model_counter;   /* client: expected value of atomic counter 0 */
	struct wp_stats st;
	bool verbose;
};

/* Opens the device (devargs), PD, CQs, QPs (RC + UD), MRs; fills w->me. */
int wp_open(struct wp *w, const char *role, const char *devargs, unsigned int gen);
/* Connects the RC QP to w->peer and creates the UD AH; posts the receives. */
int wp_connect(struct wp *w, uint8_t timeout, uint8_t retry_cnt);
void wp_close(struct wp *w);

/* Server: one non-blocking step (progress, verify, echo, repost). Returns work done. */
int wp_server_step(struct wp *w);

/* Client operations: each returns 0 once the result was verified, else -1 (with a '#'
 * line saying what went wrong). */
int wp_send(struct wp *w, int opcode, uint32_t len);       /* SEND, SEND_IMM, SEND_INV */
int wp_write_read(struct wp *w, uint32_t len, uint32_t off); /* WRITE then READ back */
int wp_write_imm(struct wp *w, uint32_t len);
int wp_atomics(struct wp *w);                               /* FETCH_ADD, CMP_SWP x2 */
int wp_ud_send(struct wp *w, uint32_t len);
/* Every operation above at several sizes (atomics when gen >= 3). Returns failures. */
int wp_all_ops(struct wp *w);
/* The lossy test: @p n mixed operations with up to @p window outstanding; every one must
 * complete exactly once with the right data. Returns failures. */
int wp_mixed(struct wp *w, unsigned int n, unsigned int window);

/* Device xstat by name (UINT64_MAX when absent). */
uint64_t wp_xstat(struct rte_pmd_irdma_dev *dev, const char *name);
uint64_t wp_qp_xstat(struct rte_pmd_irdma_qp *qp, const char *name);

void wp_fill(uint8_t *b, uint32_t len, uint32_t seed);

/* Two processes: all @p len bytes written to (wr) or read from @p fd, 0 or -1; wait until
 * the ethdev @p port has link (up to @p secs), 0 or -1 with a '#' line. */
int wp_xfer(int fd, void *buf, size_t len, bool wr);
int wp_wait_link(const char *port, unsigned int secs);

#endif /* WIRE_PEER_H */
