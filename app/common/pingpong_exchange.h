/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pingpong_exchange.h - the out-of-band exchange of ibv_{rc,uc,ud,srq}_pingpong (rdma-core),
 * byte for byte. Each side sends one 52-byte ASCII record, NUL included:
 *
 *   "%04x:%06x:%06x:%s" = lid:qpn:psn:gid   e.g.
 *   "0000:000011:64f031:00000000000000000000ffffc612000c"
 *
 * (gid = the 16 GID bytes in wire order, 32 hex digits). Order: the client sends its
 * record, the server answers with its own (after moving its QP to RTR), the client sends
 * "done\0" and both close. Pure libc (no DPDK): the interop tests reuse it.
 */
#ifndef IRDMA_APP_PINGPONG_EXCHANGE_H
#define IRDMA_APP_PINGPONG_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "oob_sock.h"

#define PINGPONG_DEST_LEN 52
#define PINGPONG_DONE "done"
#define PINGPONG_DONE_LEN 5
/** ibv_ud_pingpong's Q_Key. */
#define PINGPONG_UD_QKEY 0x11111111u
/** Bytes of GRH space in front of every UD receive. */
#define PINGPONG_GRH_LEN 40

struct pingpong_dest {
	uint16_t lid;      /**< 0 on RoCE */
	uint32_t qpn;      /**< 24 bits */
	uint32_t psn;      /**< 24 bits */
	uint8_t gid[16];   /**< wire order */
};

/** @return PINGPONG_DEST_LEN, or -EINVAL when qpn or psn do not fit in 24 bits. */
int pingpong_dest_encode(const struct pingpong_dest *d, char out[PINGPONG_DEST_LEN]);
/**
 * Strict parse: exact field widths, colons in place, 32 hex digits of GID, NUL last.
 * @return 0 or -EPROTO (nothing written to @p d).
 */
int pingpong_dest_decode(const void *buf, size_t len, struct pingpong_dest *d);

/**
 * Client side: send @p mine, receive the server's record into @p theirs, send "done".
 * @p step (if non-NULL) names the step that failed. @return 0 or a negative errno
 * (-EPROTO: the server's record is malformed).
 */
int pingpong_client_exchange(int fd, const struct pingpong_dest *mine,
			     struct pingpong_dest *theirs, int timeout_ms, const char **step);

/**
 * pingpong_client_exchange() calling @p idle(@p arg) while it waits for the server's record:
 * the server moves its QP to RTR before it answers, and a peer's RTR may need us to answer
 * its ARP (a userspace device whose engine runs only when the application drives it).
 */
int pingpong_client_exchange_idle(int fd, const struct pingpong_dest *mine,
				  struct pingpong_dest *theirs, int timeout_ms, const char **step,
				  int (*idle)(void *), void *arg);

/** Server side, first half: receive the client's record. */
int pingpong_server_receive(int fd, struct pingpong_dest *theirs, int timeout_ms,
			    const char **step);
/** pingpong_server_receive() calling @p idle(@p arg) while it waits (the device keeps
 *  answering ARP/ND and draining frames). */
int pingpong_server_receive_idle(int fd, struct pingpong_dest *theirs, int timeout_ms,
				 const char **step, int (*idle)(void *), void *arg);
/** Server side, second half (after RTR): send @p mine and wait for "done". */
int pingpong_server_reply(int fd, const struct pingpong_dest *mine, int timeout_ms,
			  const char **step);

/** pingpong_server_reply() calling @p idle(@p arg) while it waits for "done" (the client
 * moves its QP to RTR first, see pingpong_client_exchange_idle()). */
int pingpong_server_reply_idle(int fd, const struct pingpong_dest *mine, int timeout_ms,
			       const char **step, int (*idle)(void *), void *arg);

#endif /* IRDMA_APP_PINGPONG_EXCHANGE_H */
