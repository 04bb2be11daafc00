/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The STag split, in one place. An STag (lkey = rkey) is index << 8 | key: the index names a
 * slot of the device's key table (MRs and MWs share it), the key byte is the part a new
 * registration or a type 1 bind changes, so an old key never names a new region.
 */
#ifndef IRDMA_STAG_H
#define IRDMA_STAG_H

#include <stdint.h>

#define IRDMA_STAG_KEY_MASK 0xFFu

static inline uint32_t
irdma_stag_to_index(uint32_t stag)
{
	return stag >> 8;
}

static inline uint8_t
irdma_stag_to_key(uint32_t stag)
{
	return (uint8_t)(stag & IRDMA_STAG_KEY_MASK);
}

static inline uint32_t
irdma_stag_from(uint32_t index, uint8_t key)
{
	return index << 8 | key;
}

/* The same index with another key byte. */
static inline uint32_t
irdma_stag_with_key(uint32_t stag, uint8_t key)
{
	return (stag & ~IRDMA_STAG_KEY_MASK) | key;
}

#endif /* IRDMA_STAG_H */
