/* SPDX-License-Identifier: BSD-3-Clause */
/* The CM MADs of a capture (tests/data/rxe-pcaps), with their frame numbers. */
#ifndef CM_CAPTURE_H
#define CM_CAPTURE_H

#include "roce.h"
#include "roce_test_util.h"

#include "cm_msg.h"

#define CAP_MAX 32

struct cap_mad {
	unsigned int frame;      /* 1-based, as tshark numbers them */
	struct roce_pkt pkt;     /* the RoCEv2 packet that carried it */
	uint8_t mad[IRDMA_CM_MAD_LEN];
};

/* Loads every UD packet to QP 1 of the capture; returns how many, -1 if unreadable. */
static inline int cap_load(const char *name, struct cap_mad *out, int max)
{
	char path[1024];
	struct t_pcap pc;
	const uint8_t *f;
	uint32_t caplen, orig;
	unsigned int i;
	int n = 0;

	snprintf(path, sizeof(path), "%s/rxe-pcaps/%s", TEST_DATA_DIR, name);
	if (t_pcap_open(&pc, path))
		return -1;
	for (i = 1; t_pcap_next(&pc, &f, &caplen, &orig) == 1; i++) {
		static uint8_t keep[9000];
		struct roce_pkt p;

		if (caplen > sizeof(keep))
			continue;
		memcpy(keep, f, caplen);
		if (roce_pkt_parse(keep, caplen, 0, &p) || p.opcode != ROCE_OP_UD_SEND_ONLY ||
		    p.dqpn != IRDMA_CM_GSI_QPN || n == max || p.paylen != IRDMA_CM_MAD_LEN)
			continue;
		out[n].frame = i;
		out[n].pkt = p;
		memcpy(out[n].mad, p.payload, IRDMA_CM_MAD_LEN);
		out[n].pkt.payload = out[n].mad;
		n++;
	}
	t_pcap_close(&pc);
	return n;
}

static inline const struct cap_mad *cap_frame(const struct cap_mad *c, int n, unsigned int frame)
{
	for (int i = 0; i < n; i++)
		if (c[i].frame == frame)
			return &c[i];
	return NULL;
}

#endif /* CM_CAPTURE_H */
