/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/cm, the IB CM on QP 1. The input is a list of records
 * [ctl][256-byte MAD] (the last may be short); each MAD goes through
 *  - irdma_cm_msg_parse(); what it accepts is built again and must parse and build to the
 *    same 256 bytes (idempotent round trip); a REQ's private data through the RDMA-CM IP
 *    header parser, with the same round trip;
 *  - irdma_cm_rx() of a CM that, at the start of every input, is new, has an active
 *    connection of its own outstanding (so REP, REJ, MRA and DREQ have something to name)
 *    and, when ctl bit 0 is set, listens on the service ID of the REQ it is given (and
 *    accepts every REQ); ctl's other bits advance the clock (ms) and run the timers.
 * Oracle: no crash and no sanitizer report; every MAD the CM sends is 256 bytes and
 * parses; a connection id in an event names a connection.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cm_conn.h"
#include "cm_ip.h"
#include "cm_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct irdma_cm cm;
static const struct irdma_cm_addr peer = { { [10] = 0xff, [11] = 0xff, 198, 18, 0, 2 } };
static const uint8_t me[16] = { [10] = 0xff, [11] = 0xff, 198, 18, 0, 1 };
static uint64_t now;

static int fz_send(void *ctx, const struct irdma_cm_addr *to, const uint8_t *mad, size_t len)
{
	struct irdma_cm_msg m;

	(void)ctx;
	(void)to;
	if (len != IRDMA_CM_MAD_LEN || irdma_cm_msg_parse(mad, len, &m) != 0)
		abort(); /* the CM sent a MAD its own parser refuses */
	return 0;
}

static int fz_qp_modify(void *ctx, int id, void *user, const struct irdma_cm_qp_attr *a)
{
	(void)ctx;
	(void)id;
	(void)user;
	(void)a;
	return 0;
}

static void fz_event(void *ctx, const struct irdma_cm_event *ev)
{
	struct irdma_cm_accept_param ap = { .qpn = 0x55, .responder_resources = 4,
					    .initiator_depth = 4, .rnr_retry_count = 7 };

	(void)ctx;
	if (ev->id >= 0 && irdma_cm_get_state(&cm, ev->id) == IRDMA_CM_IDLE &&
	    ev->type == IRDMA_CM_EVENT_REQ_RECEIVED)
		abort(); /* a REQ event for a connection that does not exist */
	if (ev->type == IRDMA_CM_EVENT_REQ_RECEIVED)
		(void)irdma_cm_accept(&cm, ev->id, &ap, now);
}

static const struct irdma_cm_ops fz_ops = { fz_send, fz_qp_modify, fz_event };

static void round_trip(const uint8_t *mad, size_t len)
{
	uint8_t a[IRDMA_CM_MAD_LEN], b[IRDMA_CM_MAD_LEN];
	struct irdma_cm_msg m, m2;
	struct irdma_cm_ip_hdr h, h2;
	uint8_t pa[IRDMA_CM_IP_HDR_LEN], pb[IRDMA_CM_IP_HDR_LEN];

	memset(&m, 0, sizeof(m));
	if (irdma_cm_msg_parse(mad, len, &m) != 0)
		return;
	if (irdma_cm_msg_build(&m, a, sizeof(a)) != (int)IRDMA_CM_MAD_LEN)
		return; /* LAP/APR/SIDR: parsed for their header only */
	memset(&m2, 0, sizeof(m2));
	if (irdma_cm_msg_parse(a, sizeof(a), &m2) != 0 ||
	    irdma_cm_msg_build(&m2, b, sizeof(b)) != (int)IRDMA_CM_MAD_LEN ||
	    memcmp(a, b, sizeof(a)) != 0)
		abort(); /* what the builder writes, the parser must read back unchanged */
	if (m.hdr.attr_id != IRDMA_CM_ATTR_REQ ||
	    irdma_cm_ip_hdr_parse(m.req.private_data, sizeof(m.req.private_data), &h) != 0)
		return;
	if (irdma_cm_ip_hdr_build(&h, pa, sizeof(pa)) != (int)IRDMA_CM_IP_HDR_LEN ||
	    irdma_cm_ip_hdr_parse(pa, sizeof(pa), &h2) != 0 ||
	    irdma_cm_ip_hdr_build(&h2, pb, sizeof(pb)) != (int)IRDMA_CM_IP_HDR_LEN ||
	    memcmp(pa, pb, sizeof(pa)) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irdma_cm_config cfg = { .local_ca_guid = 0x0200000000000001ull, .ca_ack_delay = 15,
				       .packet_life_time = 18, .cm_response_timeout = 20,
				       .max_cm_retries = 3, .mra_service_timeout = 24,
				       .hi_tid = 0x1234, .seed = 1 };
	struct irdma_cm_connect_param cp = { .service_id = 0x0000000001064e21ull, .qpn = 0x44,
					     .responder_resources = 4, .initiator_depth = 4,
					     .retry_count = 7, .rnr_retry_count = 7, .path_mtu = 3,
					     .hop_limit = 64 };
	size_t pos = 0;

	now = 1000000000ull;
	if (irdma_cm_init(&cm, &cfg, &fz_ops, NULL) != 0)
		abort();
	memcpy(cp.sgid, me, 16);
	memcpy(cp.dgid, peer.gid, 16);
	(void)irdma_cm_connect(&cm, &cp, now);
	while (pos < size) {
		uint8_t ctl = data[pos++];
		size_t len = size - pos < IRDMA_CM_MAD_LEN ? size - pos : IRDMA_CM_MAD_LEN;
		struct irdma_cm_msg m;

		round_trip(data + pos, len);
		if ((ctl & 1) && irdma_cm_msg_parse(data + pos, len, &m) == 0 &&
		    m.hdr.attr_id == IRDMA_CM_ATTR_REQ)
			(void)irdma_cm_listen(&cm, m.req.service_id, NULL);
		(void)irdma_cm_rx(&cm, &peer, data + pos, len, now);
		pos += len;
		now += (uint64_t)(ctl >> 1) * 1000000ull;
		irdma_cm_timer(&cm, now);
	}
	/* the rest of the retransmission schedule: every timer runs out without a crash */
	now += 600ull * 1000000000ull;
	irdma_cm_timer(&cm, now);
	return 0;
}
