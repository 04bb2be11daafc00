/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soak's many-QP phase (soak_mqp.c): more RC QP pairs between the two wire peers of a
 * round, driven at once with mixed SEND / WRITE / READ / FETCH_ADD of 1 B .. 8 KiB.
 */
#ifndef SOAK_MQP_H
#define SOAK_MQP_H

#include <stdint.h>

#include "wire_peer.h"

#define SMQ_MAX_QPS 64u

struct smq_result {
	int fails;            /* operations that failed or were checked wrong */
	uint64_t ops;         /* operations completed */
	uint64_t bytes;       /* payload bytes checked */
	uint64_t checksum;    /* of every buffer checked: the same in every round */
	uint64_t retransmits; /* of the phase's QPs, both sides */
	uint32_t last_qpn;    /* the client's last QP number (QP numbers must be reused) */
};

/*
 * @p nqp RC QP pairs (1 .. SMQ_MAX_QPS) between @p cli and @p srv (opened and connected
 * wire peers); @p ops operations spread over them, @p window outstanding per QP, then every
 * QP, CQ and MR of the phase destroyed. @p pump drives the wire and the server meanwhile.
 * Every completion must come exactly once with success; the server checks each SEND (in
 * order per QP, pattern), the client each READ (what the last WRITE of the slot put there)
 * and FETCH_ADD (0, 1, 2, ... per QP). Returns 0 when the phase could be set up (then
 * @p out says how it went), -1 when not.
 */
int smq_run(struct wp *cli, struct wp *srv, unsigned int nqp, unsigned int ops,
	    unsigned int window, void (*pump)(void *), struct smq_result *out);

#endif /* SOAK_MQP_H */
