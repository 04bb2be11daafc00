/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The independent model checked against the worked examples of doc/spec/irdma-uk.md (§6.5,
 * §5.6) before anything trusts it to judge lib/uk.
 */
#include <errno.h>

#include "irdma_test.h"
#include "ukm_model.h"

T_CASE(model_fragcnt_table)
{
	static const uint32_t in[] = { 0, 1, 2, 3, 4, 13, 14, 15, 16 };
	static const uint32_t out[] = { 1, 1, 2, 2, 3, 7, 8, 8, 0 };

	for (unsigned int i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		T_EQ(ukm_frag_quanta(in[i]), out[i]);
}

T_CASE(model_inline_quanta_table)
{
	static const uint32_t in[] = { 0, 8, 9, 39, 40, 70, 71, 101, 102, 132, 133, 163, 164, 194,
				       195, 216 };
	static const uint32_t out[] = { 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8 };

	for (unsigned int i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		T_EQ(ukm_inline_quanta(2, in[i]), out[i]);
		T_EQ(ukm_inline_quanta(3, in[i]), out[i]);
	}
	T_EQ(ukm_inline_quanta(1, 0), 1);
	T_EQ(ukm_inline_quanta(1, 16), 1);
	T_EQ(ukm_inline_quanta(1, 17), 2);
	T_EQ(ukm_inline_quanta(1, 48), 2);
}

T_CASE(model_wqe_shift_rows)
{
	static const struct { int gen; uint32_t sge, inl, shift; } r[] = {
		{ 2, 0, 0, 0 },   { 2, 1, 8, 0 },  { 2, 1, 9, 1 },   { 2, 2, 0, 1 },
		{ 2, 3, 39, 1 },  { 2, 3, 40, 2 }, { 2, 4, 0, 2 },   { 2, 7, 101, 2 },
		{ 2, 7, 102, 3 }, { 2, 8, 0, 3 },  { 3, 15, 216, 3 }, { 1, 1, 16, 0 },
		{ 1, 1, 17, 1 },  { 1, 3, 48, 1 }, { 1, 3, 49, 2 },  { 1, 4, 0, 2 },
	};

	for (unsigned int i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		T_EQ(ukm_wqe_shift(r[i].gen, r[i].sge, r[i].inl), r[i].shift);
}

T_CASE(model_depth_rows)
{
	T_EQ(ukm_sq_depth(2, 0, 0), 512);
	T_EQ(ukm_sq_depth(2, 254, 0), 512);
	T_EQ(ukm_sq_depth(2, 255, 0), 1024);
	T_EQ(ukm_sq_depth(2, 127, 1), 512);
	T_EQ(ukm_sq_depth(2, 128, 1), 1024);
	T_EQ(ukm_sq_depth(2, 32, 3), 1024);
	T_EQ(ukm_sq_depth(2, 4095, 2), 32768);
	T_EQ(ukm_sq_depth(2, 4095, 3), 0);
	T_EQ(ukm_sq_depth(2, 16383, 0), 32768);
	T_EQ(ukm_sq_depth(2, 32767, 0), 0);
	T_EQ(ukm_sq_depth(1, 1024, 0), 2048);
	T_EQ(ukm_sq_depth(1, 1024, 1), 0);
	for (uint32_t s = 0; s < 8; s++)
		T_EQ(ukm_rq_depth(2, s, 0), 8);
	T_EQ(ukm_rq_depth(2, 1, 3), 64);
	T_EQ(ukm_rq_depth(2, 8, 0), 16);
	T_EQ(ukm_rq_depth(2, 32767, 0), 32768);
	T_EQ(ukm_rq_depth(2, 32768, 0), 0);
	T_EQ(ukm_rq_depth(1, 3, 0), 4);
	T_EQ(ukm_rq_depth(1, 4096, 2), 0);
	T_EQ(ukm_rq_depth(3, 15, 0), 16);
	T_EQ(ukm_rq_depth(3, 16, 0), 32);
}

/* The golden vectors' padding case: GEN_2, head 55, a 2-quantum send → 1 NOP at 55, WQE at 56. */
T_CASE(model_padding_and_wrap)
{
	struct ukm_sq sq;
	struct ukm_sq_post p;

	ukm_sq_init(&sq, 2, 1024, 55, 1);
	ukm_sq_post(&sq, 2, true, &p);
	T_EQ(p.rc, 0);
	T_EQ(p.npad, 1);
	T_EQ(p.pad_start, 55);
	T_EQ(p.wqe_idx, 56);
	T_EQ(sq.head, 58);
	T_EQ(p.polarity, 1);

	/* Last slot, then slot 0 flips the polarity (gen2_send_last_slot / _after_wrap). */
	ukm_sq_init(&sq, 2, 1024, 1023, 1);
	ukm_sq_post(&sq, 1, true, &p);
	T_EQ(p.wqe_idx, 1023);
	T_EQ(sq.head, 0);
	T_EQ(p.polarity, 1);
	sq.tail = 1000;
	ukm_sq_post(&sq, 1, true, &p);
	T_EQ(p.wqe_idx, 0);
	T_EQ(p.polarity, 0);
	T_CHECK(p.clr);
	T_EQ(p.clr_start, 128);
	T_EQ(p.clr_byte, 0xff);

	/* GEN_1: chunk 2; 1-quantum WQE at an even index marks the odd slot after it. */
	ukm_sq_init(&sq, 1, 512, 0, 0);
	ukm_sq_post(&sq, 1, true, &p);
	T_CHECK(p.odd_fixup);
	T_EQ(p.odd_slot, 1);
	ukm_sq_post(&sq, 2, true, &p);
	T_EQ(p.npad, 1);
	T_EQ(p.wqe_idx, 2);

	/* Full: 512 - 257 = 255 quanta postable. */
	ukm_sq_init(&sq, 2, 512, 0, 0);
	T_EQ(ukm_sq_free(&sq), 255);
	for (int i = 0; i < 255; i++) {
		ukm_sq_post(&sq, 1, true, &p);
		T_EQ(p.rc, 0);
	}
	ukm_sq_post(&sq, 1, true, &p);
	T_EQ(p.rc, -ENOMEM);
	T_EQ(sq.head, 255);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
