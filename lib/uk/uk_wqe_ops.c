/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-format WQE helpers: fragments, MW bind bodies, inline data placement and the inline size ->
 * quanta rule, for GEN_1 and for GEN_2 and later. The posting functions choose between them by a test of
 * hw_rev (no wqe_ops table: irdma_user.h says why).
 * Facts: doc/spec/irdma-uk.md §3.2-§3.4, §5.1.
 */
#include "uk_internal.h"

/**
 * irdma_set_fragment - write a GEN_2/3 fragment at a byte offset of a WQE
 * NULL sge writes a null fragment that only carries the valid bit.
 */
void irdma_set_fragment(uint64_t *wqe, uint32_t offset, struct irdma_sge *sge, uint8_t valid)
{
	irdma_frag_gen_2(wqe, offset, sge, valid);
}

/**
 * irdma_set_fragment_gen_1 - write a GEN_1 fragment (length low, STag high, no valid bit)
 */
void irdma_set_fragment_gen_1(uint64_t *wqe, uint32_t offset, struct irdma_sge *sge, uint8_t valid)
{
	(void)valid;
	irdma_frag_gen_1(wqe, offset, sge);
}

/**
 * irdma_set_mw_bind_wqe - body of a GEN_2/3 bind-MW WQE: VA, parent MR STag (high) / MW STag (low), length
 */
void irdma_set_mw_bind_wqe(uint64_t *wqe, struct irdma_bind_window *op_info)
{
	set_64bit_val(wqe, IRDMA_BYTE_0, IRDMA_FIELD_PREP(IRDMAQPSQ_BASEVA_TO_FBO, (uintptr_t)op_info->va));
	set_64bit_val(wqe, IRDMA_BYTE_8,
		      IRDMA_FIELD_PREP(IRDMAQPSQ_PARENTMRSTAG, op_info->mr_stag) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_MWSTAG, op_info->mw_stag));
	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPSQ_MWLEN, op_info->bind_len));
}

/**
 * irdma_set_mw_bind_wqe_gen_1 - GEN_1 bind-MW body: as GEN_2 with the two STags swapped
 */
void irdma_set_mw_bind_wqe_gen_1(uint64_t *wqe, struct irdma_bind_window *op_info)
{
	set_64bit_val(wqe, IRDMA_BYTE_0, IRDMA_FIELD_PREP(IRDMAQPSQ_BASEVA_TO_FBO, (uintptr_t)op_info->va));
	set_64bit_val(wqe, IRDMA_BYTE_8,
		      IRDMA_FIELD_PREP(IRDMAQPSQ_PARENTMRSTAG, op_info->mw_stag) |
		      IRDMA_FIELD_PREP(IRDMAQPSQ_MWSTAG, op_info->mr_stag));
	set_64bit_val(wqe, IRDMA_BYTE_16, IRDMA_FIELD_PREP(IRDMAQPSQ_MWLEN, op_info->bind_len));
}

/*
 * The inline byte stream of both formats: `first` bytes at byte first_off of the header quantum, then (past
 * the header's qwords 2 and 3) chunks of `chunk` bytes, each followed by the inline valid byte. Returns the
 * room left in the last chunk.
 */
static inline uint32_t irdma_inline_stream(uint8_t *wqe, uint32_t first_off, uint32_t first, uint32_t chunk,
					   uint8_t inline_valid, const struct irdma_sge *sge_list,
					   uint32_t num_sges, uint8_t **end)
{
	uint8_t *dst = wqe + first_off;
	uint32_t room = first; /* bytes left in the current chunk */
	bool in_first = true;
	uint32_t i;

	for (i = 0; i < num_sges; i++) {
		const uint8_t *src = (const uint8_t *)(uintptr_t)sge_list[i].addr;
		uint32_t len = sge_list[i].length;

		while (len) {
			uint32_t n = len < room ? len : room;

			memcpy(dst, src, n);
			dst += n;
			src += n;
			len -= n;
			room -= n;
			if (room)
				continue;
			if (in_first) {
				in_first = false;
				dst += 16; /* skip qwords 2 and 3 of the header quantum */
			} else {
				*dst++ = inline_valid;
			}
			room = chunk;
		}
	}
	*end = in_first ? NULL : dst;
	return room;
}

/**
 * irdma_copy_inline_data - place inline data in a GEN_2/3 WQE
 * The stream starts at byte 8 (qword 0 stays free for immediate data) with 8 bytes, resumes at byte 32 and
 * continues with 31 bytes per quantum; byte 31 of each such quantum is the inline valid byte. The last,
 * partly filled quantum also gets its valid byte; bytes it does not fill are left untouched.
 */
void irdma_copy_inline_data(uint8_t *wqe, struct irdma_sge *sge_list, uint32_t num_sges, uint8_t polarity)
{
	const uint8_t inline_valid = (uint8_t)(polarity << IRDMA_INLINE_VALID_S);
	uint8_t *dst;
	uint32_t room;

	room = irdma_inline_stream(wqe, IRDMA_INLINE_FIRST_CHUNK, IRDMA_INLINE_FIRST_CHUNK, IRDMA_INLINE_CHUNK,
				   inline_valid, sge_list, num_sges, &dst);
	if (dst != NULL && room < IRDMA_INLINE_CHUNK)
		dst[room] = inline_valid;
}

/**
 * irdma_copy_inline_data_gen_1 - place inline data in a GEN_1 WQE: 16 bytes at byte 0, the rest from byte 32
 */
void irdma_copy_inline_data_gen_1(uint8_t *wqe, struct irdma_sge *sge_list, uint32_t num_sges,
				  uint8_t polarity)
{
	uint8_t *dst;

	(void)polarity;
	/* after the first 16 bytes the rest is contiguous: one chunk that never fills */
	irdma_inline_stream(wqe, 0, IRDMA_INLINE_FIRST_CHUNK_GEN1, UINT32_MAX, 0, sge_list, num_sges, &dst);
}

/**
 * irdma_inline_data_size_to_quanta - GEN_2/3 quanta for an inline payload: 1 + ceil((n - 8) / 31), at most 8
 */
uint16_t irdma_inline_data_size_to_quanta(uint32_t data_size)
{
	if (data_size <= IRDMA_INLINE_FIRST_CHUNK)
		return 1;
	if (data_size > IRDMA_INLINE_FIRST_CHUNK + 6 * IRDMA_INLINE_CHUNK)
		return IRDMA_MAX_QUANTA_PER_WR;
	return (uint16_t)(1 + (data_size - IRDMA_INLINE_FIRST_CHUNK + IRDMA_INLINE_CHUNK - 1) /
				      IRDMA_INLINE_CHUNK);
}

/**
 * irdma_inline_data_size_to_quanta_gen_1 - GEN_1: up to 16 bytes fit the header quantum, else 2 quanta
 */
uint16_t irdma_inline_data_size_to_quanta_gen_1(uint32_t data_size)
{
	return data_size <= IRDMA_INLINE_FIRST_CHUNK_GEN1 ? 1 : 2;
}
