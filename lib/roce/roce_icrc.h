/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 invariant CRC: the Ethernet CRC-32 (reflected polynomial 0xEDB88320, not
 * CRC32C) over the IP header, UDP header, BTH, extension headers, payload and pad, with
 * the variant fields masked to ones and 8 bytes of 0xFF in front for the absent IB LRH.
 * The result goes on the wire least-significant byte first.
 */
#ifndef ROCE_ICRC_H
#define ROCE_ICRC_H

#include <stddef.h>
#include <stdint.h>

/* CRC register after eight 0xFF bytes from the 0xFFFFFFFF seed (the LRH stand-in). */
#define ROCE_ICRC_SEED 0xDEBB20E3u

/*
 * Advances a reflected CRC-32 register over buf (no pre/post inversion, so calls chain
 * over discontiguous segments). The standard CRC-32 of a buffer is
 * ~roce_crc32_update(0xFFFFFFFF, buf, len).
 */
uint32_t roce_crc32_update(uint32_t reg, const void *buf, size_t len);

/*
 * Copies len bytes from src to dst (not overlapping) and returns the register advanced
 * over them, in one pass: each block is loaded once, stored and folded. The same result
 * as memcpy() then roce_crc32_update().
 */
uint32_t roce_crc32_copy(uint32_t reg, void *dst, const void *src, size_t len);

/* The portable table-driven engine alone (reference for tests and benchmarks). */
uint32_t roce_crc32_update_generic(uint32_t reg, const void *buf, size_t len);

/* 1 when roce_crc32_update() uses carry-less multiplication on this CPU. */
int roce_crc32_accelerated(void);

/*
 * ICRC state after the masked IP + UDP + BTH prefix at l3 (IPv4 when ipv6 == 0).
 * Continue with roce_crc32_update() over the extension headers, payload and pad, then
 * finish with roce_icrc_final().
 */
uint32_t roce_icrc_begin(const uint8_t *l3, int ipv6);

static inline uint32_t roce_icrc_final(uint32_t reg)
{
	return ~reg;
}

/*
 * ICRC of a contiguous packet: l3 points at the IP header, len covers IP header through
 * the last pad byte (the ICRC itself excluded). Returns the CRC value; its wire form is
 * the four bytes value & 0xFF, value >> 8, ... (see roce_icrc_put/roce_icrc_get).
 */
uint32_t roce_icrc_compute(const uint8_t *l3, size_t len, int ipv6);

/*
 * roce_icrc_compute() with its wire form stored at l3 + len (the 4 bytes after the last
 * pad byte), in the engine itself: a sender can end on it as a tail call, with nothing
 * left to do after the CRC.
 */
void roce_icrc_write(uint8_t *l3, size_t len, int ipv6);

/* The same on the portable table engine alone (reference for tests and benchmarks). */
uint32_t roce_icrc_compute_generic(const uint8_t *l3, size_t len, int ipv6);

/*
 * The same on the carry-less multiply engine without AVX, the one CPUs with PCLMULQDQ but
 * no AVX run (roce_icrc_compute() takes the AVX build of the same code where it can):
 * for tests. The table engine where there is no PCLMULQDQ.
 */
uint32_t roce_icrc_compute_noavx(const uint8_t *l3, size_t len, int ipv6);

static inline void roce_icrc_put(uint8_t *p, uint32_t crc)
{
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
}

static inline uint32_t roce_icrc_get(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Internet checksum (RFC 1071) of a header, the result ready to store big-endian. */
uint16_t roce_ip_csum(const void *hdr, size_t len);

#endif /* ROCE_ICRC_H */
