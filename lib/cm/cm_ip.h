/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RDMA-CM IP layer on the wire: port spaces and their service IDs, the 36-byte IP
 * header at the head of the REQ private data, and the RoCEv2 flow label Linux derives
 * from the ports. Facts: doc/spec/rdma-cm.md §4 (flow label), §8.
 */
#ifndef CM_IP_H
#define CM_IP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RDMA-CM port spaces (the service-ID "protocol" field). */
enum irdma_cm_ps {
	IRDMA_CM_PS_IPOIB = 0x0002,
	IRDMA_CM_PS_TCP = 0x0106, /* RC: perftest -R, rping */
	IRDMA_CM_PS_UDP = 0x0111, /* UD (SIDR) */
	IRDMA_CM_PS_IB = 0x013F,
};

#define IRDMA_CM_IP_HDR_LEN 36u     /* at the head of the REQ private data */
#define IRDMA_CM_REQ_USER_PD_LEN 56u /* what is left of the 92 bytes for the user */
#define IRDMA_CM_IP_HDR_VERSION 0u  /* the only header version in use */

/* The IP header of a REQ. Addresses are GIDs: an IPv4 address is IPv4-mapped
 * (::ffff:a.b.c.d) here even though the wire carries it as 12 zero bytes + 4. */
struct irdma_cm_ip_hdr {
	uint8_t version;    /* IRDMA_CM_IP_HDR_VERSION */
	uint8_t ip_version; /* 4 or 6 */
	uint16_t src_port;  /* the active side's source port */
	uint8_t src_gid[16];
	uint8_t dst_gid[16];
};

/* Service ID of a port in a port space: (ps << 16) | port. */
uint64_t irdma_cm_service_id(enum irdma_cm_ps ps, uint16_t port);

/* Splits an IP service ID. Returns 0, or -EINVAL if it is not one of TCP/UDP/IB. */
int irdma_cm_service_id_parse(uint64_t service_id, enum irdma_cm_ps *ps, uint16_t *port);

/* Parses the IP header from REQ private data. Returns 0 or -EINVAL (length, header
 * version, IP version, or an IPv4 address with non-zero upper bytes). */
int irdma_cm_ip_hdr_parse(const uint8_t *pd, size_t len, struct irdma_cm_ip_hdr *hdr);

/* Writes the header into pd. Returns IRDMA_CM_IP_HDR_LEN, -ENOSPC, or -EINVAL (IP
 * version not 4/6, or an IPv4 header whose GIDs are not IPv4-mapped). */
int irdma_cm_ip_hdr_build(const struct irdma_cm_ip_hdr *hdr, uint8_t *pd, size_t cap);

/* The 20-bit RoCEv2 flow label Linux derives from the active side's ports. */
uint32_t irdma_cm_flow_label(uint16_t src_port, uint16_t dst_port);

#ifdef __cplusplus
}
#endif

#endif /* CM_IP_H */
