/* SPDX-License-Identifier: BSD-3-Clause */
/* ibv_*_pingpong's out-of-band exchange: the 52-byte record and "done". */
#include "pingpong_exchange.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hexfield.h"

int pingpong_dest_encode(const struct pingpong_dest *d, char out[PINGPONG_DEST_LEN])
{
	int n, i;

	if (d->qpn > 0xffffff || d->psn > 0xffffff)
		return -EINVAL;
	n = snprintf(out, PINGPONG_DEST_LEN, "%04x:%06x:%06x:", d->lid, d->qpn, d->psn);
	for (i = 0; i < 16; i++)
		n += snprintf(out + n, (size_t)(PINGPONG_DEST_LEN - n), "%02x", d->gid[i]);
	return n + 1 == PINGPONG_DEST_LEN ? PINGPONG_DEST_LEN : -EINVAL;
}

int pingpong_dest_decode(const void *buf, size_t len, struct pingpong_dest *d)
{
	const char *s = buf;
	uint64_t lid, qpn, psn, b;
	uint8_t gid[16];
	unsigned int i;

	if (len != PINGPONG_DEST_LEN || s[PINGPONG_DEST_LEN - 1] != '\0')
		return -EPROTO;
	if (hexfield_get(s, 4, &lid) || s[4] != ':' || hexfield_get(s + 5, 6, &qpn) ||
	    s[11] != ':' || hexfield_get(s + 12, 6, &psn) || s[18] != ':')
		return -EPROTO;
	for (i = 0; i < 16; i++) {
		if (hexfield_get(s + 19 + 2 * i, 2, &b))
			return -EPROTO;
		gid[i] = (uint8_t)b;
	}
	d->lid = (uint16_t)lid;
	d->qpn = (uint32_t)qpn;
	d->psn = (uint32_t)psn;
	memcpy(d->gid, gid, sizeof(gid));
	return 0;
}

static int fail(const char **step, const char *name, int rc)
{
	if (step)
		*step = name;
	return rc;
}

/* Encode and send our record. */
static int send_record(int fd, const struct pingpong_dest *mine, int timeout_ms, const char **step)
{
	char out[PINGPONG_DEST_LEN];
	int rc;

	rc = pingpong_dest_encode(mine, out);
	if (rc < 0)
		return fail(step, "local record", rc);
	rc = oob_write_all(fd, out, sizeof(out), timeout_ms);
	if (rc < 0)
		return fail(step, "sending our record", rc);
	return 0;
}

/* Read and parse the peer's record, calling idle(arg) while waiting; the step names say
 * whose ("the server's record", ...). */
static int read_record(int fd, struct pingpong_dest *theirs, int timeout_ms, const char *reading,
		       const char *parsing, const char **step, int (*idle)(void *), void *arg)
{
	char in[PINGPONG_DEST_LEN];
	int rc;

	rc = oob_read_exact_idle(fd, in, sizeof(in), timeout_ms, idle, arg);
	if (rc < 0)
		return fail(step, reading, rc);
	rc = pingpong_dest_decode(in, sizeof(in), theirs);
	if (rc < 0)
		return fail(step, parsing, rc);
	return 0;
}

int pingpong_client_exchange(int fd, const struct pingpong_dest *mine,
			     struct pingpong_dest *theirs, int timeout_ms, const char **step)
{
	return pingpong_client_exchange_idle(fd, mine, theirs, timeout_ms, step, NULL, NULL);
}

int pingpong_client_exchange_idle(int fd, const struct pingpong_dest *mine,
				  struct pingpong_dest *theirs, int timeout_ms, const char **step,
				  int (*idle)(void *), void *arg)
{
	int rc;

	rc = send_record(fd, mine, timeout_ms, step);
	if (rc == 0)
		rc = read_record(fd, theirs, timeout_ms, "reading the server's record",
				 "parsing the server's record", step, idle, arg);
	if (rc < 0)
		return rc;
	rc = oob_write_all(fd, PINGPONG_DONE, PINGPONG_DONE_LEN, timeout_ms);
	if (rc < 0)
		return fail(step, "sending done", rc);
	return 0;
}

int pingpong_server_receive(int fd, struct pingpong_dest *theirs, int timeout_ms,
			    const char **step)
{
	return pingpong_server_receive_idle(fd, theirs, timeout_ms, step, NULL, NULL);
}

int pingpong_server_receive_idle(int fd, struct pingpong_dest *theirs, int timeout_ms,
				 const char **step, int (*idle)(void *), void *arg)
{
	return read_record(fd, theirs, timeout_ms, "reading the client's record",
			   "parsing the client's record", step, idle, arg);
}

int pingpong_server_reply(int fd, const struct pingpong_dest *mine, int timeout_ms,
			  const char **step)
{
	return pingpong_server_reply_idle(fd, mine, timeout_ms, step, NULL, NULL);
}

int pingpong_server_reply_idle(int fd, const struct pingpong_dest *mine, int timeout_ms,
			       const char **step, int (*idle)(void *), void *arg)
{
	char in[PINGPONG_DONE_LEN];
	int rc;

	rc = send_record(fd, mine, timeout_ms, step);
	if (rc < 0)
		return rc;
	rc = oob_read_exact_idle(fd, in, sizeof(in), timeout_ms, idle, arg);
	if (rc < 0)
		return fail(step, "reading done", rc);
	if (memcmp(in, PINGPONG_DONE, PINGPONG_DONE_LEN) != 0)
		return fail(step, "reading done", -EPROTO);
	return 0;
}
