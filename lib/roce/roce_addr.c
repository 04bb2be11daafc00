/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "roce_addr.h"

static const uint8_t v4mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

int roce_gid_is_ipv4(const uint8_t gid[16])
{
	return memcmp(gid, v4mapped_prefix, sizeof(v4mapped_prefix)) == 0;
}

void roce_gid_from_ipv4(uint8_t gid[16], const uint8_t ip[4])
{
	memcpy(gid, v4mapped_prefix, sizeof(v4mapped_prefix));
	memcpy(gid + 12, ip, 4);
}

void roce_gid_from_mac(uint8_t gid[16], const uint8_t mac[6])
{
	memset(gid, 0, 16);
	gid[0] = 0xFE;
	gid[1] = 0x80;
	gid[8] = mac[0] ^ 0x02; /* universal/local bit flipped */
	gid[9] = mac[1];
	gid[10] = mac[2];
	gid[11] = 0xFF;
	gid[12] = 0xFE;
	gid[13] = mac[3];
	gid[14] = mac[4];
	gid[15] = mac[5];
}

int roce_gid_parse(const char *s, uint8_t gid[16])
{
	uint8_t ip4[4];

	if (!s)
		return -EINVAL;
	if (inet_pton(AF_INET, s, ip4) == 1) {
		roce_gid_from_ipv4(gid, ip4);
		return 0;
	}
	return inet_pton(AF_INET6, s, gid) == 1 ? 0 : -EINVAL;
}

char *roce_gid_format(const uint8_t gid[16], char *buf, size_t len)
{
	const char *r;

	if (roce_gid_is_ipv4(gid))
		r = inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len);
	else
		r = inet_ntop(AF_INET6, gid, buf, (socklen_t)len);
	if (!r && len)
		buf[0] = '\0';
	return buf;
}

uint16_t roce_udp_sport(uint32_t lqpn, uint32_t rqpn, uint32_t flow_label)
{
	uint32_t fl = flow_label & 0xFFFFFu;

	if (!fl) {
		uint64_t v = (uint64_t)lqpn * rqpn;

		v ^= v >> 20;
		v ^= v >> 40;
		fl = (uint32_t)(v & 0xFFFFFu);
	}
	return (uint16_t)(0xC000u | ((fl & 0x3FFFu) ^ ((fl & 0xFC000u) >> 14)));
}

void roce_mcast_mac(const uint8_t gid[16], uint8_t mac[6])
{
	if (roce_gid_is_ipv4(gid)) {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5E;
		mac[3] = gid[13] & 0x7F;
		mac[4] = gid[14];
		mac[5] = gid[15];
	} else {
		mac[0] = 0x33;
		mac[1] = 0x33;
		memcpy(mac + 2, gid + 12, 4);
	}
}
