/* SPDX-License-Identifier: BSD-3-Clause */
#include "iop_perftest.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PT_VERSION "6.06"
#define PT_VERSION_LEN 16
#define PT_CYCLE_BUFFER 4096u
#define PT_CACHE_LINE 64u
#define PT_DONE "done"

void iop_pt_format(const struct iop_pt_dest *d, char rec[IOP_PT_RECORD_LEN])
{
	int i, n;

	n = snprintf(rec, IOP_PT_RECORD_LEN, "%04x:%04x:%06x:%06x:%08x:%016llx:", d->lid,
		     d->out_reads, d->qpn & 0xffffff, d->psn & 0xffffff, d->rkey,
		     (unsigned long long)d->vaddr);
	for (i = 0; i < 16; i++)
		n += snprintf(rec + n, (size_t)(IOP_PT_RECORD_LEN - n), "%02x:", d->gid[i]);
	snprintf(rec + n, (size_t)(IOP_PT_RECORD_LEN - n), "%08x:", d->srqn);
}

static int hexfield(const char **s, int digits, uint64_t *out)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < digits; i++) {
		char c = (*s)[i];
		int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (h < 0)
			return -EBADMSG;
		v = v << 4 | (uint64_t)h;
	}
	if ((*s)[digits] != ':')
		return -EBADMSG;
	*s += digits + 1;
	*out = v;
	return 0;
}

int iop_pt_parse(const char rec[IOP_PT_RECORD_LEN], struct iop_pt_dest *d)
{
	static const int widths[] = { 4, 4, 6, 6, 8, 16 };
	const char *s = rec;
	uint64_t v[6], g;
	int i;

	if (rec[IOP_PT_RECORD_LEN - 1] != '\0')
		return -EBADMSG;
	for (i = 0; i < 6; i++)
		if (hexfield(&s, widths[i], &v[i]))
			return -EBADMSG;
	for (i = 0; i < 16; i++) {
		if (hexfield(&s, 2, &g))
			return -EBADMSG;
		d->gid[i] = (uint8_t)g;
	}
	if (hexfield(&s, 8, &g))
		return -EBADMSG;
	d->lid = (uint16_t)v[0];
	d->out_reads = (uint16_t)v[1];
	d->qpn = (uint32_t)v[2];
	d->psn = (uint32_t)v[3];
	d->rkey = (uint32_t)v[4];
	d->vaddr = v[5];
	d->srqn = (uint32_t)g;
	return 0;
}

static int xfer(struct iop_pt_conn *c, int out, const void *buf, size_t len)
{
	uint8_t *p = (uint8_t *)(uintptr_t)buf;

	while (len > 0) {
		ssize_t n = out ? send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT) :
				  recv(c->fd, p, len, MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		n = iop_port_wait_fd(c->port, c->fd, out ? POLLOUT : POLLIN, c->deadline_ms);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

/* One step of the exchange: the client writes first, the server reads first. */
static int step(struct iop_pt_conn *c, const void *mine, void *theirs, size_t len)
{
	int rc;

	if (c->client) {
		rc = xfer(c, 1, mine, len);
		return rc ? rc : xfer(c, 0, theirs, len);
	}
	rc = xfer(c, 0, theirs, len);
	return rc ? rc : xfer(c, 1, mine, len);
}

static int records(struct iop_pt_conn *c, const struct iop_pt_dest *mine, struct iop_pt_dest *theirs)
{
	char out[IOP_PT_RECORD_LEN], in[IOP_PT_RECORD_LEN];
	int rc;

	iop_pt_format(mine, out);
	rc = step(c, out, in, sizeof(in));
	return rc ? rc : iop_pt_parse(in, theirs);
}

static int connect_or_accept(struct iop_pt_conn *c, const char *ip, uint16_t tcp_port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(tcp_port) };
	int one = 1, fd, rc;

	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		return -EINVAL;
	if (c->client) {
		for (;;) {
			int err = 0;
			socklen_t el = sizeof(err);

			fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
			if (fd < 0)
				return -errno;
			rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 && errno != EINPROGRESS ? -errno : 0;
			if (rc == 0)
				rc = iop_port_wait_fd(c->port, fd, POLLOUT, c->deadline_ms);
			if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err)
				rc = -err;
			if (rc == 0) {
				c->fd = fd;
				return 0;
			}
			close(fd);
			if (rc != -ECONNREFUSED || iop_now_ms() + 100 >= c->deadline_ms)
				return rc;
			iop_port_wait_fd(c->port, -1, 0, iop_now_ms() + 100);
		}
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	fprintf(stderr, "listening on %s:%u\n", ip, tcp_port);
	rc = iop_port_wait_fd(c->port, fd, POLLIN, c->deadline_ms);
	if (rc == 0) {
		c->fd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		rc = c->fd < 0 ? -errno : 0;
	}
	close(fd);
	return rc;
}

int iop_pt_open(struct iop_pt_conn *c, struct iop_port *port, int client, const char *ip,
		uint16_t tcp_port, unsigned int mtu_code, const struct iop_pt_dest *mine,
		struct iop_pt_dest *theirs, int64_t deadline_ms)
{
	char ver[PT_VERSION_LEN] = PT_VERSION, rver[PT_VERSION_LEN];
	uint8_t be[4], rbe[4];
	char mtu[2], rmtu[2];
	int i, rc;

	*c = (struct iop_pt_conn){ .fd = -1, .client = client, .port = port, .deadline_ms = deadline_ms };
	rc = connect_or_accept(c, ip, tcp_port);
	if (rc)
		return rc;
	rc = step(c, ver, rver, sizeof(ver));
	if (rc)
		return rc;
	/* the peer refuses versions older than its own minimum; we accept only our own */
	if (memcmp(rver, ver, sizeof(ver)) != 0)
		return -EBADMSG;
	be[0] = be[1] = 0, be[2] = PT_CYCLE_BUFFER >> 8, be[3] = 0;
	rc = step(c, be, rbe, sizeof(be));
	if (rc)
		return rc;
	be[2] = 0, be[3] = PT_CACHE_LINE;
	rc = step(c, be, rbe, sizeof(be));
	if (rc)
		return rc;
	mtu[0] = (char)('0' + mtu_code), mtu[1] = '\0';
	rc = step(c, mtu, rmtu, sizeof(mtu));
	if (rc)
		return rc;
	if (memcmp(mtu, rmtu, sizeof(mtu)) != 0)
		return -EBADMSG; /* both ends must use the same path MTU */
	for (i = 0; i < IOP_PT_PRE_RECORDS; i++) {
		rc = records(c, mine, theirs);
		if (rc)
			return rc;
	}
	return 0;
}

int iop_pt_finish(struct iop_pt_conn *c, const struct iop_pt_dest *mine)
{
	struct iop_pt_dest theirs;
	char done[sizeof(PT_DONE)];
	int rc = records(c, mine, &theirs);

	/* "done" goes both ways at once (the server's is often first on the wire): write,
	 * then read, in both roles */
	if (rc == 0)
		rc = xfer(c, 1, PT_DONE, sizeof(done));
	if (rc == 0)
		rc = xfer(c, 0, done, sizeof(done));
	if (rc == 0 && memcmp(done, PT_DONE, sizeof(done)) != 0)
		rc = -EBADMSG;
	return rc;
}

void iop_pt_close(struct iop_pt_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
