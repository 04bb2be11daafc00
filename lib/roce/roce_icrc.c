/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC-32 by slicing-by-8 (eight 256-entry tables, 8 KiB, built once before main) and the
 * RoCEv2 ICRC masking.
 */
#include <string.h>

#include "roce_hdr.h"
#include "roce_icrc.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u

static uint32_t crc_tab[8][256];

__attribute__((constructor)) static void roce_crc32_tables_init(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ ((c & 1u) ? CRC32_POLY_REFLECTED : 0u);
		crc_tab[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			crc_tab[j][i] = (crc_tab[j - 1][i] >> 8) ^ crc_tab[0][crc_tab[j - 1][i] & 0xFFu];
}

uint32_t roce_crc32_update(uint32_t reg, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len >= 8) {
		/* Byte-wise loads keep this endian- and alignment-neutral. */
		uint32_t lo = reg ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
			      (uint32_t)p[7] << 24;

		reg = crc_tab[7][lo & 0xFFu] ^ crc_tab[6][(lo >> 8) & 0xFFu] ^
		      crc_tab[5][(lo >> 16) & 0xFFu] ^ crc_tab[4][lo >> 24] ^
		      crc_tab[3][hi & 0xFFu] ^ crc_tab[2][(hi >> 8) & 0xFFu] ^
		      crc_tab[1][(hi >> 16) & 0xFFu] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		reg = (reg >> 8) ^ crc_tab[0][(reg ^ *p++) & 0xFFu];
	return reg;
}

uint32_t roce_icrc_begin(const uint8_t *l3, int ipv6)
{
	uint8_t m[ROCE_IPV6_HLEN + ROCE_UDP_HLEN + ROCE_BTH_LEN];
	size_t iplen = ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN;
	size_t n = iplen + ROCE_UDP_HLEN + ROCE_BTH_LEN;

	memcpy(m, l3, n);
	if (ipv6) {
		/* Traffic class and flow label: everything but the version nibble. */
		m[0] |= 0x0F;
		m[1] = m[2] = m[3] = 0xFF;
		m[7] = 0xFF; /* hop limit */
	} else {
		m[1] = 0xFF;          /* TOS */
		m[8] = 0xFF;          /* TTL */
		m[10] = m[11] = 0xFF; /* header checksum */
	}
	m[iplen + 6] = m[iplen + 7] = 0xFF;           /* UDP checksum */
	m[iplen + ROCE_UDP_HLEN + 4] = 0xFF;          /* BTH FECN/BECN/reserved */
	return roce_crc32_update(ROCE_ICRC_SEED, m, n);
}

uint32_t roce_icrc_compute(const uint8_t *l3, size_t len, int ipv6)
{
	size_t pre = (ipv6 ? ROCE_IPV6_HLEN : ROCE_IPV4_HLEN) + ROCE_UDP_HLEN + ROCE_BTH_LEN;
	uint32_t reg = roce_icrc_begin(l3, ipv6);

	reg = roce_crc32_update(reg, l3 + pre, len - pre);
	return roce_icrc_final(reg);
}

uint16_t roce_ip_csum(const void *hdr, size_t len)
{
	const uint8_t *p = hdr;
	uint32_t sum = 0;

	for (; len >= 2; p += 2, len -= 2)
		sum += roce_get_be16(p);
	if (len)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFFu) + (sum >> 16);
	return (uint16_t)~sum;
}
