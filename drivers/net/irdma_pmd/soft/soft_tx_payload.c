/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Payload out: the transmit copy fused with the ICRC (see soft_tx_payload.h). The frame's
 * bytes are the same as soft_wire_send() makes them: the register covers the same masked
 * headers, payload and pad, only in one pass over the payload instead of a copy and then
 * a pass over the whole frame.
 */
#include "roce_icrc.h"

#include "soft_priv.h"
#include "soft_tx_payload.h"

uint32_t soft_tx_hdr_reg(const struct rte_mbuf *m, const struct roce_pkt *p)
{
	uint32_t l3o = ROCE_ETH_HLEN + (p->has_vlan ? ROCE_VLAN_HLEN : 0);
	uint32_t pre = (p->ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	const uint8_t *l3 = rte_pktmbuf_mtod(m, const uint8_t *) + l3o;
	uint32_t reg = roce_icrc_begin(l3, p->ipv6), ext = m->data_len - l3o - pre;

	/* no extension header (every MIDDLE/LAST frame): no call for zero bytes */
	return ext != 0 ? roce_crc32_update(reg, l3 + pre, ext) : reg;
}

int soft_sge_piece(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge, uint32_t n,
		   uint64_t off, uint32_t len, const uint8_t **host)
{
	uint8_t *h;
	uint32_t i;

	for (i = 0; i < n && off >= sge[i].len; i++)
		off -= sge[i].len;
	if (i == n || sge[i].len - off < len ||
	    soft_mr_check_local(dev, pd_id, sge[i].stag, sge[i].addr + off, len, 0, &h))
		return -1;
	*host = h;
	return 0;
}
