/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the lib/roce tests: hex frames and a minimal pcap reader. */
#ifndef ROCE_TEST_UTIL_H
#define ROCE_TEST_UTIL_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decodes hex digits, ignoring spaces and newlines. Returns the byte count. */
static inline size_t t_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (isspace((unsigned char)*s))
			continue;
		v = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		if (hi < 0) {
			hi = v;
		} else {
			if (n < cap)
				out[n] = (uint8_t)(hi << 4 | v);
			n++;
			hi = -1;
		}
	}
	return n;
}

/* A classic little- or big-endian microsecond pcap file, read whole. */
struct t_pcap {
	uint8_t *data;
	size_t len;
	size_t off;
	int swap;
	uint32_t linktype;
};

static inline uint32_t t_pcap_u32(const struct t_pcap *pc, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return pc->swap ? __builtin_bswap32(v) : v;
}

/* 0 on success, -1 if the file is missing or not a pcap. */
static inline int t_pcap_open(struct t_pcap *pc, const char *path)
{
	FILE *f = fopen(path, "rb");
	long sz;
	uint32_t magic;

	memset(pc, 0, sizeof(*pc));
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	pc->data = malloc((size_t)sz);
	if (!pc->data || fread(pc->data, 1, (size_t)sz, f) != (size_t)sz || sz < 24) {
		fclose(f);
		free(pc->data);
		pc->data = NULL;
		return -1;
	}
	fclose(f);
	pc->len = (size_t)sz;
	memcpy(&magic, pc->data, 4);
	if (magic == 0xA1B2C3D4u)
		pc->swap = 0;
	else if (magic == 0xD4C3B2A1u)
		pc->swap = 1;
	else
		return -1;
	pc->linktype = t_pcap_u32(pc, pc->data + 20);
	pc->off = 24;
	return 0;
}

/* Next record: 1 with frame, caplen and origlen set, 0 at the end, -1 if malformed. */
static inline int t_pcap_next(struct t_pcap *pc, const uint8_t **frame, uint32_t *caplen,
			      uint32_t *origlen)
{
	if (pc->off == pc->len)
		return 0;
	if (pc->len - pc->off < 16)
		return -1;
	*caplen = t_pcap_u32(pc, pc->data + pc->off + 8);
	*origlen = t_pcap_u32(pc, pc->data + pc->off + 12);
	pc->off += 16;
	if (pc->len - pc->off < *caplen)
		return -1;
	*frame = pc->data + pc->off;
	pc->off += *caplen;
	return 1;
}

static inline void t_pcap_close(struct t_pcap *pc)
{
	free(pc->data);
	pc->data = NULL;
}

#endif /* ROCE_TEST_UTIL_H */
