/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bit-field idiom of the CM formats (private to lib/cm).
 *
 * A CM field is (byte offset, container size, high bit, low bit): the container is a
 * big-endian integer of 1..8 bytes at that offset of the CM payload (the 232 bytes after
 * the MAD header), and the field is bits hi..lo of it, exactly as the layout tables of
 * doc/spec/rdma-cm.md §3 give them. A container of more than 8 bytes is a byte string
 * (GIDs, private data). The container is read with lib/roce's big-endian accessors and
 * the bits are taken with an IRDMA_GENMASK-style mask, so one definition serves build and
 * parse. Nothing on the wire is assumed to be aligned.
 */
#ifndef CM_FIELD_H
#define CM_FIELD_H

#include <stdint.h>
#include <string.h>

#include "roce_hdr.h"

struct cm_field {
	uint8_t off; /* CM payload offset of the container */
	uint8_t len; /* container bytes: 1..8 integer, more: byte string */
	uint8_t hi;  /* highest bit of the field in the container (63..0) */
	uint8_t lo;  /* lowest bit */
};

/* Bits hi..lo of a container of `len` bytes at CM offset `off`. */
#define CM_FIELD(off, len, hi, lo) ((struct cm_field){ (off), (len), (hi), (lo) })
/* A whole container: an 8/16/24/32/64-bit integer. */
#define CM_INT(off, len) CM_FIELD((off), (len), (len) * 8 - 1, 0)
/* A byte string. */
#define CM_BYTES(off, len) CM_FIELD((off), (len), 0, 0)

#define CM_GENMASK(h, l) ((~0ULL >> (63 - (h))) & (~0ULL << (l)))

static inline uint64_t cm_container_get(const uint8_t *p, unsigned int len)
{
	uint64_t v = 0;

	switch (len) {
	case 2:
		return roce_get_be16(p);
	case 3:
		return roce_get_be24(p);
	case 4:
		return roce_get_be32(p);
	case 8:
		return roce_get_be64(p);
	default:
		for (unsigned int i = 0; i < len; i++)
			v = v << 8 | p[i];
		return v;
	}
}

static inline void cm_container_put(uint8_t *p, unsigned int len, uint64_t v)
{
	for (unsigned int i = len; i-- > 0; v >>= 8)
		p[i] = (uint8_t)v;
}

/* Field value from a CM payload. */
static inline uint64_t cm_fget(const uint8_t *cm, struct cm_field f)
{
	uint64_t mask = CM_GENMASK(f.hi, f.lo);

	return (cm_container_get(cm + f.off, f.len) & mask) >> f.lo;
}

/* Places v into the field, keeping the container's other bits. Wider values truncate. */
static inline void cm_fput(uint8_t *cm, struct cm_field f, uint64_t v)
{
	uint64_t mask = CM_GENMASK(f.hi, f.lo);
	uint64_t c = cm_container_get(cm + f.off, f.len);

	cm_container_put(cm + f.off, f.len, (c & ~mask) | ((v << f.lo) & mask));
}

#endif /* CM_FIELD_H */
