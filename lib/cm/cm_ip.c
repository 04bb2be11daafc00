/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "cm_field.h"
#include "cm_ip.h"

/* IP header fields, relative to the start of the REQ private data. */
#define CM_IP_VERSION CM_INT(0, 1)
#define CM_IP_IPVER CM_FIELD(1, 1, 7, 4)
#define CM_IP_PORT CM_INT(2, 2)
#define CM_IP_SRC CM_BYTES(4, 16)
#define CM_IP_DST CM_BYTES(20, 16)

#define CM_SID_IP_MASK 0xFFFFFFFF00000000ull

static const uint8_t v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

uint64_t irdma_cm_service_id(enum irdma_cm_ps ps, uint16_t port)
{
	return (uint64_t)(uint16_t)ps << 16 | port;
}

int irdma_cm_service_id_parse(uint64_t service_id, enum irdma_cm_ps *ps, uint16_t *port)
{
	uint16_t p = (uint16_t)(service_id >> 16);

	if (service_id & CM_SID_IP_MASK)
		return -EINVAL;
	if (p != IRDMA_CM_PS_TCP && p != IRDMA_CM_PS_UDP && p != IRDMA_CM_PS_IB)
		return -EINVAL;
	*ps = (enum irdma_cm_ps)p;
	*port = (uint16_t)service_id;
	return 0;
}

static int addr_in(const uint8_t *wire, unsigned int ipver, uint8_t *gid)
{
	static const uint8_t zero[12];

	if (ipver == 6) {
		memcpy(gid, wire, 16);
		return 0;
	}
	if (memcmp(wire, zero, 12))
		return -EINVAL;
	memcpy(gid, v4_mapped, 12);
	memcpy(gid + 12, wire + 12, 4);
	return 0;
}

int irdma_cm_ip_hdr_parse(const uint8_t *pd, size_t len, struct irdma_cm_ip_hdr *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	if (len < IRDMA_CM_IP_HDR_LEN)
		return -EINVAL;
	hdr->version = (uint8_t)cm_fget(pd, CM_IP_VERSION);
	hdr->ip_version = (uint8_t)cm_fget(pd, CM_IP_IPVER);
	hdr->src_port = (uint16_t)cm_fget(pd, CM_IP_PORT);
	if (hdr->version != IRDMA_CM_IP_HDR_VERSION)
		return -EINVAL;
	if (hdr->ip_version != 4 && hdr->ip_version != 6)
		return -EINVAL;
	if (addr_in(pd + CM_IP_SRC.off, hdr->ip_version, hdr->src_gid) ||
	    addr_in(pd + CM_IP_DST.off, hdr->ip_version, hdr->dst_gid))
		return -EINVAL;
	return 0;
}

static int addr_out(const uint8_t *gid, unsigned int ipver, uint8_t *wire)
{
	if (ipver == 6) {
		memcpy(wire, gid, 16);
		return 0;
	}
	if (memcmp(gid, v4_mapped, 12))
		return -EINVAL;
	memset(wire, 0, 12);
	memcpy(wire + 12, gid + 12, 4);
	return 0;
}

int irdma_cm_ip_hdr_build(const struct irdma_cm_ip_hdr *hdr, uint8_t *pd, size_t cap)
{
	uint8_t b[IRDMA_CM_IP_HDR_LEN] = { 0 };

	if (cap < IRDMA_CM_IP_HDR_LEN)
		return -ENOSPC;
	if (hdr->ip_version != 4 && hdr->ip_version != 6)
		return -EINVAL;
	cm_fput(b, CM_IP_VERSION, hdr->version);
	cm_fput(b, CM_IP_IPVER, hdr->ip_version);
	cm_fput(b, CM_IP_PORT, hdr->src_port);
	if (addr_out(hdr->src_gid, hdr->ip_version, b + CM_IP_SRC.off) ||
	    addr_out(hdr->dst_gid, hdr->ip_version, b + CM_IP_DST.off))
		return -EINVAL;
	memcpy(pd, b, sizeof(b));
	return (int)IRDMA_CM_IP_HDR_LEN;
}

uint32_t irdma_cm_flow_label(uint16_t src_port, uint16_t dst_port)
{
	return ((uint32_t)src_port * 31u + dst_port) & 0xFFFFFu;
}
