/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which received packets may have their ICRC checked while their payload is copied
 * (roce_crc32_copy) instead of before: those whose first effect is that copy. For an
 * in-order RDMA WRITE or SEND MIDDLE or LAST of the connected peer's message in progress
 * (a SEND: into the receive WQE it holds, at the running offset), every
 * check before the placement (transport, DestQP, addresses, state, PSN, opcode sequence,
 * lengths) passes, and the placement goes to the address the verified FIRST packet set,
 * within the range its key check allowed: a frame damaged on the way can only put wrong
 * bytes where the message's own bytes go, which its retransmission overwrites (IBTA
 * leaves the target undefined until the message completes). The device then reports a
 * failed check from mem_write or recv_place as -EBADMSG and the responder drops the packet without a
 * trace (no PSN, MSN, ACK or NAK state moved). Anything else is checked before it is
 * handled, as always.
 */
#include <string.h>

#include "roce_qp_priv.h"

int roce_resp_fusable(const struct roce_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t n = pkt->paylen;

	/* roce_qp_rx: RC, this QP, from the connected peer, a state that takes requests */
	if (qp->type != ROCE_QPT_RC || pkt->dqpn != qp->qpn ||
	    (qp->state != ROCE_QPS_RTR && qp->state != ROCE_QPS_RTS && qp->state != ROCE_QPS_SQD) ||
	    !roce_qp_from_peer(qp, pkt))
		return 0;
	if (pkt->psn != qp->resp.epsn || n == 0 || n > qp->pmtu)
		return 0;
	/* the send in progress: the general path's checks up to its recv_place call, with
	 * no NAK outstanding (the PSN check clears that flag first, a trace otherwise) */
	if (pkt->opcode == ROCE_OP_RC_SEND_MIDDLE || pkt->opcode == ROCE_OP_RC_SEND_LAST)
		return qp->resp.ctx == ROCE_RESP_IN_SEND && qp->resp.have_wqe &&
		       !qp->resp.nak_sent &&
		       (pkt->opcode == ROCE_OP_RC_SEND_LAST || n == qp->pmtu);
	/* the responder's fast path for the write in progress, up to its mem_write call */
	if (!(qp->access & ROCE_ACCESS_REMOTE_WRITE) || qp->resp.ctx != ROCE_RESP_IN_WRITE)
		return 0;
	if (pkt->opcode == ROCE_OP_RC_WRITE_MIDDLE)
		return n == qp->pmtu && qp->resp.wr_left > n;
	if (pkt->opcode == ROCE_OP_RC_WRITE_LAST)
		return n == qp->resp.wr_left;
	return 0;
}
