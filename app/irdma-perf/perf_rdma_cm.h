/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perf_rdma_cm.h - perftest's rdma_cm mode (-R) for irdma-perf: two RDMA-CM connections to
 * the same port, as perftest makes them (doc/spec/rdma-cm.md §13):
 *   1. the "comm" connection: an RC QP of its own that carries perftest's exchange, each
 *      step one SEND each way of the step's bytes (versions, system data, MTU, results);
 *      the connection records go as perftest's binary pingpong_dest (56 bytes, fields
 *      big-endian) instead of the 108-byte text;
 *   2. the test connection: the test's own QP, connected by RDMA-CM (the CM moves it to
 *      RTR and RTS with the REQ/REP attributes) right after the MTU step, before the
 *      records. The client retries a REQ the server rejects (it listens again a little
 *      later), as perftest does: 10 tries, 100 ms apart.
 * Both close with DREQ/DREP at the end.
 */
#ifndef IRDMA_PERF_RDMA_CM_H
#define IRDMA_PERF_RDMA_CM_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_pmd_irdma.h>

#include "oob_sock.h"
#include "perf_opts.h"
#include "perf_res.h"
#include "perftest_exchange.h"
#include "tool_cm.h"

/* perftest's struct pingpong_dest as its rdma_cm exchange sends it (x86-64 layout). */
#define PERF_CM_DEST_LEN 56

struct perf_cm {
	struct tool_cm cm;
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;  /* the comm QP */
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;                 /* send half, receive half */
	int comm_id, test_id;         /* live connections, -1 none (or disconnected) */
	int comm_conn, test_conn;     /* their ids, to free at the end */
	bool client;
	bool test_established;
	bool recv_done;               /* the posted receive completed, its bytes in buf */
	uint32_t recv_len;
	const struct perf_opts *o;
	int (*idle)(void *);
	void *idle_arg;
	char err[200];
};

/** Comm connection (client: connect, retrying a refused REQ; server: listen on the
 *  port and accept) and perftest's first steps over it (versions, system data, MTU).
 *  @return 0 or a negative errno after a line on stderr. */
int perf_cm_start(struct perf_cm *c, const struct perf_opts *o, struct rte_pmd_irdma_dev *dev,
		  struct perftest_conn *conn, int mtu_enum, int (*idle)(void *), void *idle_arg);

/** The test QP through RDMA-CM (client: connect; server: accept the next request).
 *  @return 0 or a negative errno after a line on stderr. */
int perf_cm_connect_test(struct perf_cm *c, struct perf_res *r);

/** Disconnects both connections (DREQ, waits for the DREPs a little) and frees all. */
void perf_cm_close(struct perf_cm *c);

/** perftest's binary record <-> struct perftest_dest. decode: 0 or -EPROTO (short). */
void perf_cm_dest_encode(const struct perftest_dest *d, uint8_t out[PERF_CM_DEST_LEN]);
int perf_cm_dest_decode(const uint8_t *in, size_t len, struct perftest_dest *d);

#endif
