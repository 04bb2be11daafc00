/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/roce's frame parser on arbitrary bytes. The first byte picks the
 * parse flags (so frames with a bad ICRC or checksum also reach the later checks); the rest
 * is the frame. A parsed frame is built again: every field the parser accepted must be
 * writable by the builder, and the rebuilt frame must parse to the same packet. The one
 * pass the device's wire calls inline (roce_pkt_rc.h) must give the same answer on every
 * input, and for an accepted frame the fields it promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "roce.h"
#include "roce_pkt_rc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[16384];
	struct roce_pkt p, q, r;
	enum roce_reason rc;
	unsigned int flags;
	int len;

	if (size < 1)
		return 0;
	flags = data[0] & (ROCE_PARSE_NO_ICRC | ROCE_PARSE_NO_CSUM);
	rc = roce_pkt_parse(data + 1, size - 1, flags, &p);
	if (roce_pkt_parse_rc_inline(data + 1, size - 1, ROCE_ETH_HLEN, 0, flags, &r) != rc)
		abort();
	if (rc != ROCE_R_OK)
		return 0;
	if (r.opcode != p.opcode || r.dqpn != p.dqpn || r.psn != p.psn || r.paylen != p.paylen ||
	    r.payload != p.payload || r.wire_len != p.wire_len || r.ipv6 != p.ipv6 ||
	    (!p.ipv6 && (r.ip4_src != p.ip4_src || r.ip4_dst != p.ip4_dst)))
		abort();
	if (p.wire_len > size - 1)
		abort(); /* the parser claimed bytes the frame does not have */
	len = roce_pkt_build(&p, out, sizeof(out));
	if (len > 0 && roce_pkt_parse(out, (size_t)len, 0, &q) == 0 &&
	    (q.psn != p.psn || q.opcode != p.opcode || q.paylen != p.paylen))
		abort();
	return 0;
}
