/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tool_cm.h - RDMA-CM for the tools: lib/cm's RDMA-CM layer driven over a device's QP 1
 * (rte_pmd_irdma_gsi_send/recv), with the QP transitions lib/cm asks for applied to the
 * connection's RC QP (rte_pmd_irdma_qp_modify), and events copied into a small queue the
 * tool reads when it likes (librdmacm's rdma_get_cm_event, without a thread).
 *
 * One struct tool_cm per device. Nothing here blocks: tool_cm_step() does one round of
 * device progress, QP 1 receive and CM timers; tool_cm_next_event() pops what that
 * produced. A received DREQ is answered (DREP) as soon as it arrives, so a peer never
 * waits on the tool to close.
 */
#ifndef IRDMA_APP_TOOL_CM_H
#define IRDMA_APP_TOOL_CM_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_pmd_irdma.h>

#include "cm_rcm.h"

#define TOOL_CM_QUEUE 16u
#define TOOL_CM_PD_MAX 196u /* the largest user private data: a REP's */

struct tool_cm_event {
	enum irdma_rcm_event_type type;
	int id;
	int status;
	struct irdma_rcm_conn_info info; /* CONNECT_REQUEST only */
	uint8_t private_data[TOOL_CM_PD_MAX];
	size_t private_data_len;
};

struct tool_cm {
	struct rte_pmd_irdma_dev *dev;
	struct irdma_rcm rcm;
	unsigned int sgid_index; /* the GID the QPs' address vectors send from */
	union rte_pmd_irdma_gid gid;
	bool debug;              /* one line per CM event on stdout */
	unsigned int head, tail;
	uint64_t lost_events;    /* events dropped: the queue was full */
	struct tool_cm_event q[TOOL_CM_QUEUE];
};

/* Nanoseconds of the TSC, the clock lib/cm runs on. */
uint64_t tool_cm_now(void);

/* The GID of an IP address (IPv4-mapped for "a.b.c.d", or an IPv6 address), its version
 * in *ip_version. 0, or -EINVAL for a string that is neither. */
int tool_cm_parse_ip(const char *s, uint8_t gid[16], uint8_t *ip_version);

/* Starts RDMA-CM on dev, sending from its GID sgid_index. plt is the packet life time
 * code of the CM timers (4.096 us x 2^plt; the CM response timeout is 4 times that): 0
 * takes Linux's (18: 1 s, REQ retried every 6.4 s); tests use shorter ones. 0 or a
 * negative errno (logged on stderr). */
int tool_cm_init(struct tool_cm *t, struct rte_pmd_irdma_dev *dev, unsigned int sgid_index,
		 uint8_t plt);

/* One round: device progress, QP 1 receive, CM timers. Returns the MADs handled. */
int tool_cm_step(struct tool_cm *t);

/* Pops the oldest event into *ev: true, or false when there is none. */
bool tool_cm_next_event(struct tool_cm *t, struct tool_cm_event *ev);

/* Connect/accept parameters for the RC QP qp: lib/cm's connection user pointer is the
 * QP, so its transitions land on it. */
int tool_cm_connect(struct tool_cm *t, struct rte_pmd_irdma_qp *qp,
		    struct irdma_rcm_connect_param *p);
int tool_cm_accept(struct tool_cm *t, struct rte_pmd_irdma_qp *qp, int id,
		   struct irdma_cm_accept_param *p);

/* An RC QP with one CQ for both queues and one SGE per WR (what the tools' CM
 * connections use). NULL with rte_errno set. */
struct rte_pmd_irdma_qp *tool_cm_rc_qp(struct rte_pmd_irdma_pd *pd, struct rte_pmd_irdma_cq *cq,
				       uint32_t max_send_wr, uint32_t max_recv_wr);

/* One QP transition lib/cm asks for, as PMD verbs on qp (the address vector sends from
 * GID sgid_index). 0 or the negative errno of rte_pmd_irdma_qp_modify(). */
int tool_cm_qp_modify(struct rte_pmd_irdma_qp *qp, unsigned int sgid_index,
		      const struct irdma_cm_qp_attr *attr);

/* The path MTU code (1..5) of the device's active MTU. */
uint8_t tool_cm_path_mtu(const struct rte_pmd_irdma_dev *dev);

#endif
