/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-band TCP exchange of rdma-core's ibv_{rc,uc,ud,srq}_pingpong: each side sends
 * one 52-byte ASCII record "LLLL:QQQQQQ:PPPPPP:<32 hex GID digits>\0"; the client writes
 * first, reads the server's record, then writes "done\0". Every step is bounded by a
 * deadline, during which the raw port keeps answering ARP (the server resolves our MAC
 * while the exchange is in progress).
 */
#ifndef IOP_OOB_H
#define IOP_OOB_H

#include <stdint.h>

#include "iop_port.h"

#define IOP_PP_RECORD_LEN 52
#define IOP_PP_DONE "done"

struct iop_pp_dest {
	uint16_t lid;
	uint32_t qpn;
	uint32_t psn;
	uint8_t gid[16];
};

/* Formats the 52-byte record (NUL included). */
void iop_pp_format(const struct iop_pp_dest *d, char rec[IOP_PP_RECORD_LEN]);

/* Parses a record: exactly the layout above, hex digits only. 0 or -EBADMSG. */
int iop_pp_parse(const char rec[IOP_PP_RECORD_LEN], struct iop_pp_dest *d);

/* Client side: connect to host:port, send ours, receive theirs, send "done". 0 or -errno. */
int iop_pp_client(struct iop_port *port, const char *host, uint16_t port_no,
		  const struct iop_pp_dest *mine, struct iop_pp_dest *theirs, int64_t deadline_ms);

/* Server side: listen on bind_ip:port, accept one client, receive its record, send ours,
 * receive "done". 0 or -errno. */
int iop_pp_server(struct iop_port *port, const char *bind_ip, uint16_t port_no,
		  const struct iop_pp_dest *mine, struct iop_pp_dest *theirs, int64_t deadline_ms);

#endif /* IOP_OOB_H */
