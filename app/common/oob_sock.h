/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * oob_sock.h - the out-of-band TCP channel that perftest and ibv_*_pingpong use to swap
 * connection records. Every call has a deadline, so a silent or vanished peer turns into
 * -ETIMEDOUT instead of a hang. Plain libc: no DPDK here, the interop tests reuse it.
 */
#ifndef IRDMA_APP_OOB_SOCK_H
#define IRDMA_APP_OOB_SOCK_H

#include <stddef.h>
#include <stdint.h>

/** perftest's and ibv_*_pingpong's default port. */
#define OOB_DEFAULT_PORT 18515

/**
 * Connect to @p host:@p port within @p timeout_ms (name resolution included).
 * @return a connected socket, or -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH, -ENOENT (unknown
 *   host), ... (negative errno).
 */
int oob_connect(const char *host, uint16_t port, int timeout_ms);

/**
 * Listen on @p port (all addresses; 0 picks a free port). @return the listening socket or a
 * negative errno. oob_bound_port() tells which port it got.
 */
int oob_listen(uint16_t port);
int oob_bound_port(int listen_fd);

/** Accept one connection within @p timeout_ms (< 0: wait forever). @return fd or -errno. */
int oob_accept(int listen_fd, int timeout_ms);

/** oob_accept() that keeps calling @p idle(@p arg) while no client is waiting (the
 *  device keeps answering ARP/ND and draining frames). @p idle NULL: oob_accept(). */
int oob_accept_idle(int listen_fd, int timeout_ms, int (*idle)(void *), void *arg);

/** Write all @p len bytes before @p timeout_ms. @return 0, -ETIMEDOUT, -EPIPE, ... */
int oob_write_all(int fd, const void *buf, size_t len, int timeout_ms);

/**
 * Read exactly @p len bytes before @p timeout_ms.
 * @return 0, -ETIMEDOUT, -ECONNRESET (peer closed before @p len bytes), or another -errno.
 */
int oob_read_exact(int fd, void *buf, size_t len, int timeout_ms);

/**
 * oob_read_exact() that keeps calling @p idle(@p arg) while no byte is waiting, for a
 * caller whose device engine runs on its own thread (the inline engine must keep serving
 * the peer while we wait for its TCP message). @p idle NULL: same as oob_read_exact().
 * A negative return of @p idle ends the wait with that value (the caller's own watchdog,
 * for a wait without @p timeout_ms: -1).
 */
int oob_read_exact_idle(int fd, void *buf, size_t len, int timeout_ms, int (*idle)(void *),
			void *arg);

/** Client writes then reads, server reads then writes: one "step" of the exchange. */
enum oob_role { OOB_CLIENT = 0, OOB_SERVER = 1 };
int oob_swap(int fd, enum oob_role role, const void *mine, void *theirs, size_t len,
	     int timeout_ms);
int oob_swap_idle(int fd, enum oob_role role, const void *mine, void *theirs, size_t len,
		  int timeout_ms, int (*idle)(void *), void *arg);

/** Monotonic milliseconds. */
int64_t oob_now_ms(void);

#endif /* IRDMA_APP_OOB_SOCK_H */
