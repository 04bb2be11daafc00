/* SPDX-License-Identifier: BSD-3-Clause */
#include "roce_timer.h"

/* RNR NAK timer codes in units of 10 us (0.01 ms). */
static const uint32_t rnr_10us[32] = {
	65536, 1,    2,    3,    4,    6,    8,    12,   16,   24,   32,
	48,    64,   96,   128,  192,  256,  384,  512,  768,  1024, 1536,
	2048,  3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

uint64_t roce_rnr_timer_ns(uint8_t code)
{
	return (uint64_t)rnr_10us[code & 31u] * 10000u;
}

uint8_t roce_rnr_code_for_ns(uint64_t ns)
{
	uint8_t c;

	for (c = 1; c < 32; c++)
		if (roce_rnr_timer_ns(c) >= ns)
			return c;
	return 0;
}
