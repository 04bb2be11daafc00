/* SPDX-License-Identifier: BSD-3-Clause */
#include "iop_oob.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void iop_pp_format(const struct iop_pp_dest *d, char rec[IOP_PP_RECORD_LEN])
{
	int i, n;

	n = snprintf(rec, IOP_PP_RECORD_LEN, "%04x:%06x:%06x:", d->lid, d->qpn & 0xffffff,
		     d->psn & 0xffffff);
	for (i = 0; i < 16; i++)
		n += snprintf(rec + n, (size_t)(IOP_PP_RECORD_LEN - n), "%02x", d->gid[i]);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int hexfield(const char *s, int digits, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < digits; i++) {
		int h = hexval(s[i]);

		if (h < 0)
			return -EBADMSG;
		v = v << 4 | (uint32_t)h;
	}
	*out = v;
	return 0;
}

int iop_pp_parse(const char rec[IOP_PP_RECORD_LEN], struct iop_pp_dest *d)
{
	uint32_t lid, v;
	int i;

	if (rec[4] != ':' || rec[11] != ':' || rec[18] != ':' || rec[51] != '\0')
		return -EBADMSG;
	if (hexfield(rec, 4, &lid) || hexfield(rec + 5, 6, &d->qpn) || hexfield(rec + 12, 6, &d->psn))
		return -EBADMSG;
	d->lid = (uint16_t)lid;
	for (i = 0; i < 16; i++) {
		if (hexfield(rec + 19 + 2 * i, 2, &v))
			return -EBADMSG;
		d->gid[i] = (uint8_t)v;
	}
	return 0;
}

static int send_all(struct iop_port *port, int fd, const void *buf, size_t len, int64_t deadline_ms)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		n = iop_port_wait_fd(port, fd, POLLOUT, deadline_ms);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

static int recv_all(struct iop_port *port, int fd, void *buf, size_t len, int64_t deadline_ms)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = recv(fd, p, len, MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET; /* the peer closed before the whole record */
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		n = iop_port_wait_fd(port, fd, POLLIN, deadline_ms);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

static int exchange(struct iop_port *port, int fd, int client, const struct iop_pp_dest *mine,
		    struct iop_pp_dest *theirs, int64_t deadline_ms)
{
	char out[IOP_PP_RECORD_LEN], in[IOP_PP_RECORD_LEN];
	char done[sizeof(IOP_PP_DONE)];
	int rc;

	iop_pp_format(mine, out);
	if (client) {
		rc = send_all(port, fd, out, sizeof(out), deadline_ms);
		if (rc == 0)
			rc = recv_all(port, fd, in, sizeof(in), deadline_ms);
		if (rc == 0)
			rc = iop_pp_parse(in, theirs);
		if (rc == 0)
			rc = send_all(port, fd, IOP_PP_DONE, sizeof(IOP_PP_DONE), deadline_ms);
		return rc;
	}
	rc = recv_all(port, fd, in, sizeof(in), deadline_ms);
	if (rc == 0)
		rc = iop_pp_parse(in, theirs);
	if (rc == 0)
		rc = send_all(port, fd, out, sizeof(out), deadline_ms);
	if (rc == 0)
		rc = recv_all(port, fd, done, sizeof(done), deadline_ms);
	if (rc == 0 && memcmp(done, IOP_PP_DONE, sizeof(done)) != 0)
		rc = -EBADMSG;
	return rc;
}

int iop_pp_client(struct iop_port *port, const char *host, uint16_t port_no,
		  const struct iop_pp_dest *mine, struct iop_pp_dest *theirs, int64_t deadline_ms)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port_no) };
	int fd, rc;

	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -EINVAL;
	/* the server may not listen yet: retry refused connections until the deadline */
	for (;;) {
		int err = 0;
		socklen_t el = sizeof(err);

		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
		if (rc < 0 && errno != EINPROGRESS) {
			rc = -errno;
		} else {
			rc = iop_port_wait_fd(port, fd, POLLOUT, deadline_ms);
			if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err)
				rc = -err;
		}
		if (rc == 0)
			break;
		close(fd);
		if (rc != -ECONNREFUSED || iop_now_ms() + 100 >= deadline_ms)
			return rc;
		iop_port_wait_fd(port, -1, 0, iop_now_ms() + 100);
	}
	rc = exchange(port, fd, 1, mine, theirs, deadline_ms);
	close(fd);
	return rc;
}

int iop_pp_server(struct iop_port *port, const char *bind_ip, uint16_t port_no,
		  const struct iop_pp_dest *mine, struct iop_pp_dest *theirs, int64_t deadline_ms)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port_no) };
	int one = 1, lfd, fd, rc;

	if (inet_pton(AF_INET, bind_ip, &sa.sin_addr) != 1)
		return -EINVAL;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return -errno;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0) {
		rc = -errno;
		close(lfd);
		return rc;
	}
	/* tell a waiting script that it may start the client now */
	fprintf(stderr, "listening on %s:%u\n", bind_ip, port_no);
	rc = iop_port_wait_fd(port, lfd, POLLIN, deadline_ms);
	if (rc < 0) {
		close(lfd);
		return rc;
	}
	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	rc = fd < 0 ? -errno : 0;
	close(lfd);
	if (rc < 0)
		return rc;
	rc = exchange(port, fd, 0, mine, theirs, deadline_ms);
	close(fd);
	return rc;
}
