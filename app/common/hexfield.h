/* SPDX-License-Identifier: BSD-3-Clause */
/* Strict fixed-width hex fields, shared by the perftest and pingpong record codecs. */
#ifndef IRDMA_APP_HEXFIELD_H
#define IRDMA_APP_HEXFIELD_H

#include <stddef.h>
#include <stdint.h>

/**
 * Parse exactly @p width lowercase-or-uppercase hex digits at @p s into @p v.
 * @return 0, or -1 when any of them is not a hex digit.
 */
static inline int hexfield_get(const char *s, unsigned int width, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < width; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return -1;
		x = (x << 4) | d;
	}
	*v = x;
	return 0;
}

#endif /* IRDMA_APP_HEXFIELD_H */
