/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perftest's out-of-band TCP exchange ("Data ex. method: Ethernet"), as perftest 4.5
 * (internal version 6.06) does it for the latency tests. At every step the client writes
 * and then reads, the server reads and then writes, each message of a fixed size:
 *   version    16 bytes, "6.06" NUL-padded
 *   cycle      4 bytes, big-endian 4096 (cycle buffer)
 *   cache line 4 bytes, big-endian 64
 *   MTU        "<enum ibv_mtu>\0", 2 bytes ("3" = 1024)
 *   QP record  108 bytes: "%04x:%04x:%06x:%06x:%08x:%016llx:" + 16 x "%02x:" + "%08x:" + NUL
 *              (LID, outstanding reads, QPN, PSN, R_Key, buffer VA, GID bytes, SRQ number),
 *              exchanged 4 times before the test,
 * and after the test (read_lat, atomic_lat; not write_lat, whose client just closes) one
 * more record pair and "done\0" (5 bytes) each way.
 */
#ifndef IOP_PERFTEST_H
#define IOP_PERFTEST_H

#include <stdint.h>

#include "iop_port.h"

#define IOP_PT_RECORD_LEN 108
#define IOP_PT_PRE_RECORDS 4

struct iop_pt_dest {
	uint16_t lid;
	uint16_t out_reads;
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint64_t vaddr;
	uint8_t gid[16];
	uint32_t srqn;
};

struct iop_pt_conn {
	int fd;
	int client;
	struct iop_port *port; /* served (ARP) while the exchange waits */
	int64_t deadline_ms;
};

void iop_pt_format(const struct iop_pt_dest *d, char rec[IOP_PT_RECORD_LEN]);
int iop_pt_parse(const char rec[IOP_PT_RECORD_LEN], struct iop_pt_dest *d);

/* Connects (client) or accepts one client (server), then runs the preamble and the
 * IOP_PT_PRE_RECORDS record exchanges. mtu_code: enum ibv_mtu of our path MTU; the
 * peer's must match. 0 or -errno (-EBADMSG: malformed or incompatible message). */
int iop_pt_open(struct iop_pt_conn *c, struct iop_port *port, int client, const char *ip,
		uint16_t tcp_port, unsigned int mtu_code, const struct iop_pt_dest *mine,
		struct iop_pt_dest *theirs, int64_t deadline_ms);

/* The closing record pair and "done" of read_lat / atomic_lat. 0 or -errno. */
int iop_pt_finish(struct iop_pt_conn *c, const struct iop_pt_dest *mine);

void iop_pt_close(struct iop_pt_conn *c);

#endif /* IOP_PERFTEST_H */
