/* SPDX-License-Identifier: BSD-3-Clause */
/* The out-of-band TCP channel: connect/accept/read/write, each bounded by a deadline. */
#include "oob_sock.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int64_t oob_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left before @deadline (-1 = none), at least 0. */
static int left_ms(int64_t deadline)
{
	int64_t now;

	if (deadline < 0)
		return -1;
	now = oob_now_ms();
	return now >= deadline ? 0 : (int)(deadline - now);
}

static int64_t deadline_of(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : oob_now_ms() + timeout_ms;
}

/* Wait until @fd has @events or the deadline passes. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int rc;

	for (;;) {
		rc = poll(&p, 1, left_ms(deadline));
		if (rc > 0)
			return 0;
		if (rc == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

static int connect_one(const struct addrinfo *ai, int64_t deadline)
{
	int fd, rc, err = 0, one = 1;
	socklen_t elen = sizeof(err);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
	if (rc < 0 && errno != EINPROGRESS) {
		rc = -errno;
		goto fail;
	}
	if (rc < 0) {
		rc = wait_fd(fd, POLLOUT, deadline);
		if (rc < 0)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0) {
			rc = -errno;
			goto fail;
		}
		if (err) {
			rc = -err;
			goto fail;
		}
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
fail:
	close(fd);
	return rc;
}

int oob_connect(const char *host, uint16_t port, int timeout_ms)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	int64_t deadline = deadline_of(timeout_ms);
	char service[8];
	int rc, fd = -ENOENT;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0)
		return rc == EAI_SYSTEM ? -errno : -ENOENT;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = connect_one(ai, deadline);
		if (fd >= 0 || fd == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(res);
	return fd;
}

int oob_listen(uint16_t port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				  .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd, one = 1, zero = 0;

	/* Dual-stack where IPv6 exists, plain IPv4 otherwise. */
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(fd, 1) == 0)
			return fd;
		close(fd);
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a4, sizeof(a4)) < 0 || listen(fd, 1) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

int oob_bound_port(int listen_fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(listen_fd, (struct sockaddr *)&ss, &len) < 0)
		return -errno;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

int oob_accept(int listen_fd, int timeout_ms)
{
	int64_t deadline = deadline_of(timeout_ms);
	int fd, rc, one = 1;

	for (;;) {
		rc = wait_fd(listen_fd, POLLIN, deadline);
		if (rc < 0)
			return rc;
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			return -errno;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int oob_accept_idle(int listen_fd, int timeout_ms, int (*idle)(void *), void *arg)
{
	int64_t deadline = deadline_of(timeout_ms);
	struct pollfd p = { .fd = listen_fd, .events = POLLIN };

	if (!idle)
		return oob_accept(listen_fd, timeout_ms);
	/* Serve the device (ARP, ND, frames) until a client knocks. */
	while (poll(&p, 1, 0) == 0) {
		if (deadline >= 0 && oob_now_ms() >= deadline)
			return -ETIMEDOUT;
		idle(arg);
	}
	return oob_accept(listen_fd, left_ms(deadline));
}

int oob_write_all(int fd, const void *buf, size_t len, int timeout_ms)
{
	int64_t deadline = deadline_of(timeout_ms);
	const uint8_t *p = buf;
	ssize_t n;
	int rc;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		rc = wait_fd(fd, POLLOUT, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int oob_read_exact(int fd, void *buf, size_t len, int timeout_ms)
{
	int64_t deadline = deadline_of(timeout_ms);
	uint8_t *p = buf;
	ssize_t n;
	int rc;

	while (len) {
		n = recv(fd, p, len, MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		rc = wait_fd(fd, POLLIN, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int oob_read_exact_idle(int fd, void *buf, size_t len, int timeout_ms, int (*idle)(void *),
			void *arg)
{
	int64_t deadline = deadline_of(timeout_ms);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (!idle)
		return oob_read_exact(fd, buf, len, timeout_ms);
	/* Serve until the first byte is there; the rest of a record follows at once. A
	 * negative answer of idle() (its own watchdog) ends the wait. */
	while (poll(&p, 1, 0) == 0) {
		int rc;

		if (deadline >= 0 && oob_now_ms() >= deadline)
			return -ETIMEDOUT;
		rc = idle(arg);
		if (rc < 0)
			return rc;
	}
	return oob_read_exact(fd, buf, len, deadline < 0 ? 30000 : left_ms(deadline));
}

int oob_swap_idle(int fd, enum oob_role role, const void *mine, void *theirs, size_t len,
		  int timeout_ms, int (*idle)(void *), void *arg)
{
	int rc;

	if (role == OOB_CLIENT) {
		rc = oob_write_all(fd, mine, len, timeout_ms);
		return rc ? rc : oob_read_exact_idle(fd, theirs, len, timeout_ms, idle, arg);
	}
	rc = oob_read_exact_idle(fd, theirs, len, timeout_ms, idle, arg);
	return rc ? rc : oob_write_all(fd, mine, len, timeout_ms);
}

int oob_swap(int fd, enum oob_role role, const void *mine, void *theirs, size_t len,
	     int timeout_ms)
{
	return oob_swap_idle(fd, role, mine, theirs, len, timeout_ms, NULL, NULL);
}
