/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive copy fused with the ICRC check (see soft_rx_fuse.h). The wire parses every
 * frame without its ICRC and asks here: frames with a small payload, frames for no QP and
 * frames lib/roce does not call fusable are checked at once, over the whole frame, as
 * before. For the others (in-order RDMA WRITE or SEND MIDDLE/LAST of the message in
 * progress, the bulk of a large transfer) the register through the headers and the frame's
 * ICRC are kept in the QP; the responder's mem_write or recv_place (after its key check)
 * copies the payload with roce_crc32_copy(), adds the pad and compares. A mismatch is counted as an ICRC drop,
 * exactly as if the wire had found it, and lib/roce drops the packet without a trace.
 */
#include <errno.h>
#include <string.h>

#include "roce_icrc.h"

#include "soft_priv.h"
#include "soft_rx_fuse.h"
#include "soft_tx_payload.h"

static void count_icrc_drop(struct soft_dev *dev)
{
	/* the only count: rx_icrc_errors is the sum xstats makes of it (soft_port.h) */
	soft_wire_stats_parse_drop(&dev->st.wire, ROCE_R_ICRC);
}

int soft_rx_fuse_arm(struct soft_dev *dev, const struct roce_pkt *p)
{
	struct soft_qp *qp = soft_qp_get(dev, p->dqpn);
	uint32_t pre, ext, reg;

	if (qp == NULL || qp->type != IRDMA_HW_QP_RC || !roce_resp_fusable(&qp->xport, p))
		return 0;
	/* IP + UDP + BTH (masked), then the extension headers (none on MIDDLE/LAST: no
	 * call for zero bytes) */
	pre = (p->ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	ext = (uint32_t)(p->payload - p->l3) - pre;
	reg = roce_icrc_begin(p->l3, p->ipv6);
	qp->rctx.fuse_reg = ext != 0 ? roce_crc32_update(reg, p->l3 + pre, ext) : reg;
	qp->rctx.fuse_icrc = roce_icrc_get(p->payload + p->paylen + p->padcnt);
	qp->rctx.fuse_pl = p->payload;
	return 1;
}

/* The rest of an armed frame after len payload bytes: its pad, then the comparison. */
static int fuse_finish(struct soft_qp *qp, uint32_t reg, const uint8_t *pl, uint32_t len)
{
	uint32_t pad = roce_pad_len(len);

	if (pad != 0) /* none on MIDDLE frames, nor on a LAST of a multiple of 4 */
		reg = roce_crc32_update(reg, pl + len, pad);
	qp->rctx.fuse_pl = NULL;
	if (likely(roce_icrc_final(reg) == qp->rctx.fuse_icrc))
		return 0;
	count_icrc_drop(qp->dev);
	return -EBADMSG;
}

int soft_rx_fuse_copy(struct soft_qp *qp, uint8_t *host, const void *data, uint32_t len)
{
	if (likely(qp->rctx.fuse_pl != data)) {
		memcpy(host, data, len);
		return 0;
	}
	return fuse_finish(qp, roce_crc32_copy(qp->rctx.fuse_reg, host, data, len), data, len);
}

int soft_rx_fuse_settle(struct soft_qp *qp, const void *data, uint32_t len)
{
	if (qp->rctx.fuse_pl != data)
		return 0;
	return fuse_finish(qp, roce_crc32_update(qp->rctx.fuse_reg, data, len), data, len);
}

int soft_rx_fuse_scatter(struct soft_qp *qp, uint32_t pd_id, const struct soft_sge *sge,
			 uint32_t n, uint32_t off, const void *data, uint32_t len)
{
	uint32_t reg = qp->rctx.fuse_reg;
	int e;

	if (likely(qp->rctx.fuse_pl != data))
		return soft_mr_err_roce(soft_sges_copy(qp->dev, pd_id, sge, n, off,
							(uint8_t *)(uintptr_t)data, len, true));
	e = soft_sges_scatter_crc(qp->dev, pd_id, sge, n, off, data, len, &reg);
	if (unlikely(e)) /* a damaged frame is dropped, not answered */
		return soft_rx_fuse_settle(qp, data, len) ? -EBADMSG : soft_mr_err_roce(e);
	return fuse_finish(qp, reg, data, len);
}
