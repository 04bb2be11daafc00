/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The peer of the exchange fuzz targets: a socketpair whose far end already holds the
 * fuzzer's bytes and is shut for writing, so the exchange under test reads exactly those
 * bytes, then end-of-file (never a timeout), and its own writes land in the far end's
 * receive buffer. Returns the near end, or -1.
 */
#ifndef FUZZ_EXCHANGE_IO_H
#define FUZZ_EXCHANGE_IO_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static inline int fuzz_peer_fd(const uint8_t *data, size_t size, int *far)
{
	int sv[2];
	size_t off = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		abort();
	while (off < size) {
		ssize_t n = write(sv[1], data + off, size - off);

		if (n <= 0)
			abort(); /* inputs are capped well below the socket buffer */
		off += (size_t)n;
	}
	shutdown(sv[1], SHUT_WR);
	*far = sv[1];
	return sv[0];
}

#endif /* FUZZ_EXCHANGE_IO_H */
