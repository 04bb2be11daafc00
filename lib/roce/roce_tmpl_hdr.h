/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-frame patch of a connection's template (internal to lib/roce): shared by
 * roce_tmpl_write_hdrs() and the transmit fast paths (roce_fast.c), so the bytes they
 * write cannot drift apart.
 */
#ifndef ROCE_TMPL_HDR_H
#define ROCE_TMPL_HDR_H

#include <string.h>

#include "roce_pkt.h"

static inline uint32_t roce_csum_fold(uint32_t s)
{
	s = (s & 0xFFFFu) + (s >> 16);
	return (s & 0xFFFFu) + (s >> 16);
}

/* Copies n bytes (a multiple of 16, a constant) in 16-byte unaligned moves: GCC turns a
 * fixed-size memcpy between objects of known alignment into rep movs, slow to start for
 * copies this short (and one instruction per word under callgrind). */
typedef uint8_t roce_v16 __attribute__((vector_size(16), aligned(1)));

static inline void roce_copy16n(void *dst, const void *src, size_t n)
{
	const roce_v16 *s = (const roce_v16 *)src;
	roce_v16 *d = (roce_v16 *)dst;
	size_t i;

	for (i = 0; i < n / 16; i++)
		d[i] = s[i];
}

/*
 * Copies t's headers through the BTH to buf and patches what changes per frame: IP total
 * (IPv4) or payload (IPv6) length, IPv4 id and header checksum (incrementally from the
 * invariant words' sum), UDP length, BTH opcode, SE/MIG/pad byte, byte 4, AckReq and PSN.
 * ext_len and paylen are the frame's extension-header and payload bytes (pad and ICRC are
 * added here). Returns where the extension headers go. Writes ROCE_TMPL_HDR_MAX bytes.
 */
static inline uint8_t *roce_tmpl_put(const struct roce_tmpl *t, uint8_t *buf, uint8_t opcode,
				     uint8_t se_mig, uint8_t b4, uint8_t ackreq, uint32_t psn,
				     uint32_t ext_len, uint32_t paylen, uint16_t ip_id)
{
	uint32_t pad = (4u - (paylen & 3u)) & 3u;
	uint32_t udp_len = ROCE_UDP_HLEN + ROCE_BTH_LEN + ext_len + paylen + pad + ROCE_ICRC_LEN;
	uint8_t *h;

	roce_copy16n(buf, t->hdr, ROCE_TMPL_HDR_MAX);
	h = buf + t->l3_off;
	if (t->ipv6) {
		roce_put_be16(h + 4, (uint16_t)udp_len);
		h += ROCE_IPV6_HLEN;
	} else {
		uint32_t tot = ROCE_IPV4_HLEN + udp_len;

		roce_put_be32(h + 2, tot << 16 | ip_id); /* total length, id: one store */
		roce_put_be16(h + 10, (uint16_t)~roce_csum_fold(t->csum_base + tot + ip_id));
		h += ROCE_IPV4_HLEN;
	}
	roce_put_be16(h + 4, (uint16_t)udp_len);
	h += ROCE_UDP_HLEN;
	h[0] = opcode;
	h[1] = (uint8_t)(se_mig | pad << ROCE_BTH_PAD_SHIFT);
	h[4] = b4;
	h[8] = ackreq ? ROCE_BTH_ACKREQ : 0;
	roce_put_be24(h + 9, psn);
	return h + ROCE_BTH_LEN;
}

#endif /* ROCE_TMPL_HDR_H */
