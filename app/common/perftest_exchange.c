/* SPDX-License-Identifier: BSD-3-Clause */
/* perftest's out-of-band exchange: record codecs and the step sequence. */
#include "perftest_exchange.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hexfield.h"
#include "roce_hdr.h" /* the big-endian field readers */

const struct perftest_script perftest_script_write_lat = { 4, 0, 0, 0, 0, 0x5 };
const struct perftest_script perftest_script_lat = { 4, 1, 0, 0, 1, 0x5 };
const struct perftest_script perftest_script_bw = { 3, 1, 5, 1, 1, 0x3 };

/* Peers from these versions on send the system data and the MTU steps. */
#define PERFTEST_VER_SYSDATA 532
#define PERFTEST_VER_MTU 531

int perftest_dest_encode(const struct perftest_dest *d, char out[PERFTEST_DEST_LEN])
{
	int n, i;

	if (d->qpn > 0xffffff || d->psn > 0xffffff)
		return -EINVAL;
	n = snprintf(out, PERFTEST_DEST_LEN, "%04x:%04x:%06x:%06x:%08x:%016llx:", d->lid,
		     d->out_reads, d->qpn, d->psn, d->rkey, (unsigned long long)d->vaddr);
	for (i = 0; i < 16; i++)
		n += snprintf(out + n, (size_t)(PERFTEST_DEST_LEN - n), "%02x:", d->gid[i]);
	n += snprintf(out + n, (size_t)(PERFTEST_DEST_LEN - n), "%08x:", d->srqn);
	return n + 1 == PERFTEST_DEST_LEN ? PERFTEST_DEST_LEN : -EINVAL;
}

int perftest_dest_decode(const void *buf, size_t len, struct perftest_dest *d)
{
	/* Widths of the 23 colon-terminated fields, in order. */
	static const uint8_t width[] = { 4, 4, 6, 6, 8, 16, 2, 2, 2, 2, 2, 2, 2, 2,
					   2, 2, 2, 2, 2, 2, 2, 2, 8 };
	const char *s = buf;
	uint64_t v[sizeof(width)];
	unsigned int f, pos = 0;

	if (len != PERFTEST_DEST_LEN || s[PERFTEST_DEST_LEN - 1] != '\0')
		return -EPROTO;
	for (f = 0; f < sizeof(width); f++) {
		if (hexfield_get(s + pos, width[f], &v[f]) < 0 || s[pos + width[f]] != ':')
			return -EPROTO;
		pos += width[f] + 1u;
	}
	if (pos != PERFTEST_DEST_LEN - 1)
		return -EPROTO;
	d->lid = (uint16_t)v[0];
	d->out_reads = (uint16_t)v[1];
	d->qpn = (uint32_t)v[2];
	d->psn = (uint32_t)v[3];
	d->rkey = (uint32_t)v[4];
	d->vaddr = v[5];
	for (f = 0; f < 16; f++)
		d->gid[f] = (uint8_t)v[6 + f];
	d->srqn = (uint32_t)v[22];
	return 0;
}

void perftest_version_encode(char out[PERFTEST_VERSION_LEN], const char *version)
{
	memset(out, 0, PERFTEST_VERSION_LEN);
	strncpy(out, version, PERFTEST_VERSION_LEN - 1);
}

int perftest_version_decode(const void *buf, size_t len)
{
	const char *s = buf;
	unsigned int major = 0, minor = 0, nmaj = 0, nmin = 0, i = 0;

	if (len != PERFTEST_VERSION_LEN || !memchr(s, '\0', len))
		return -EPROTO;
	for (; s[i] >= '0' && s[i] <= '9' && nmaj < 4; i++, nmaj++)
		major = major * 10 + (unsigned int)(s[i] - '0');
	if (!nmaj || s[i++] != '.')
		return -EPROTO;
	/* The minor part is a decimal fraction, as perftest compares versions ("5.4" > "5.31"). */
	for (; s[i] >= '0' && s[i] <= '9'; i++, nmin++)
		if (nmin < 2)
			minor = minor * 10 + (unsigned int)(s[i] - '0');
	if (!nmin)
		return -EPROTO;
	if (nmin == 1)
		minor *= 10;
	/* Trailing text ("6.06-beta") is allowed; a version is not a number after it. */
	return (int)(major * 100 + minor);
}

void perftest_mtu_encode(char out[PERFTEST_MTU_LEN], int mtu_enum)
{
	out[0] = (char)('0' + mtu_enum);
	out[1] = '\0';
}

int perftest_mtu_decode(const void *buf, size_t len)
{
	const char *s = buf;

	if (len != PERFTEST_MTU_LEN || s[0] < '1' || s[0] > '5' || s[1] != '\0')
		return -EPROTO;
	return s[0] - '0';
}

static int step(struct perftest_conn *c, const char *name, const void *mine, void *theirs,
		size_t len)
{
	int rc = c->swap ? c->swap(c->swap_arg, c->role, mine, theirs, len, c->timeout_ms) :
			   oob_swap_idle(c->fd, c->role, mine, theirs, len, c->timeout_ms, c->idle,
					 c->idle_arg);

	if (rc < 0)
		c->failed_step = name;
	return rc;
}

int perftest_conn_start(struct perftest_conn *c, int fd, enum oob_role role, int timeout_ms,
			int mtu_enum)
{
	return perftest_conn_start_idle(c, fd, role, timeout_ms, mtu_enum, NULL, NULL);
}

static int conn_start(struct perftest_conn *c, int fd, enum oob_role role, int timeout_ms,
		      int mtu_enum, int (*swap)(void *, enum oob_role, const void *, void *,
						size_t, int),
		      void *swap_arg, int (*idle)(void *), void *idle_arg);

int perftest_conn_start_idle(struct perftest_conn *c, int fd, enum oob_role role,
			     int timeout_ms, int mtu_enum, int (*idle)(void *), void *idle_arg)
{
	return conn_start(c, fd, role, timeout_ms, mtu_enum, NULL, NULL, idle, idle_arg);
}

int perftest_conn_start_swap(struct perftest_conn *c, enum oob_role role, int timeout_ms,
			     int mtu_enum, int (*swap)(void *, enum oob_role, const void *, void *,
						       size_t, int),
			     void *swap_arg, int (*idle)(void *), void *idle_arg)
{
	return conn_start(c, -1, role, timeout_ms, mtu_enum, swap, swap_arg, idle, idle_arg);
}

static int conn_start(struct perftest_conn *c, int fd, enum oob_role role, int timeout_ms,
		      int mtu_enum, int (*swap)(void *, enum oob_role, const void *, void *,
						size_t, int),
		      void *swap_arg, int (*idle)(void *), void *idle_arg)
{
	char ver[PERFTEST_VERSION_LEN], rver[PERFTEST_VERSION_LEN];
	char mtu[PERFTEST_MTU_LEN], rmtu[PERFTEST_MTU_LEN];
	uint8_t sys[PERFTEST_SYSDATA_LEN], rsys[PERFTEST_SYSDATA_LEN];
	int rc, v;

	memset(c, 0, sizeof(*c));
	c->idle = idle;
	c->idle_arg = idle_arg;
	c->swap = swap;
	c->swap_arg = swap_arg;
	c->fd = fd;
	c->role = role;
	c->timeout_ms = timeout_ms;
	c->cycle_buffer = PERFTEST_CYCLE_BUFFER;
	c->cache_line = PERFTEST_CACHE_LINE;
	c->mtu = mtu_enum;

	perftest_version_encode(ver, PERFTEST_VERSION);
	rc = step(c, "version", ver, rver, sizeof(ver));
	if (rc < 0)
		return rc;
	v = perftest_version_decode(rver, sizeof(rver));
	if (v < 0) {
		c->failed_step = "version";
		return v;
	}
	c->peer_version = v;

	if (v >= PERFTEST_VER_SYSDATA) {
		roce_put_be32(sys, PERFTEST_CYCLE_BUFFER);
		rc = step(c, "cycle_buffer", sys, rsys, sizeof(sys));
		if (rc < 0)
			return rc;
		if (roce_get_be32(rsys) > c->cycle_buffer)
			c->cycle_buffer = roce_get_be32(rsys);
		roce_put_be32(sys, PERFTEST_CACHE_LINE);
		rc = step(c, "cache_line_size", sys, rsys, sizeof(sys));
		if (rc < 0)
			return rc;
		if (roce_get_be32(rsys) > c->cache_line)
			c->cache_line = roce_get_be32(rsys);
	}
	if (v >= PERFTEST_VER_MTU) {
		perftest_mtu_encode(mtu, mtu_enum);
		rc = step(c, "mtu", mtu, rmtu, sizeof(mtu));
		if (rc < 0)
			return rc;
		rc = perftest_mtu_decode(rmtu, sizeof(rmtu));
		if (rc < 0) {
			c->failed_step = "mtu";
			return rc;
		}
		if (rc < c->mtu)
			c->mtu = rc;
	}
	return 0;
}

int perftest_conn_dest(struct perftest_conn *c, const struct perftest_dest *mine,
		       struct perftest_dest *theirs)
{
	char out[PERFTEST_DEST_LEN], in[PERFTEST_DEST_LEN];
	int rc;

	rc = perftest_dest_encode(mine, out);
	if (rc < 0) {
		c->failed_step = "dest (local record)";
		return rc;
	}
	rc = step(c, "dest", out, in, sizeof(in));
	if (rc < 0)
		return rc;
	rc = perftest_dest_decode(in, sizeof(in), theirs);
	if (rc < 0)
		c->failed_step = "dest";
	return rc;
}

int perftest_conn_u64(struct perftest_conn *c, uint64_t mine, uint64_t *theirs)
{
	uint8_t out[8], in[8];
	uint64_t v = 0;
	int i, rc;

	for (i = 0; i < 8; i++)
		out[i] = (uint8_t)(mine >> (56 - 8 * i));
	rc = step(c, "results", out, in, sizeof(in));
	if (rc < 0)
		return rc;
	for (i = 0; i < 8; i++)
		v = v << 8 | in[i];
	*theirs = v;
	return 0;
}

int perftest_conn_done(struct perftest_conn *c)
{
	static const char done[PERFTEST_DONE_LEN] = PERFTEST_DONE;
	char in[PERFTEST_DONE_LEN];
	int rc;

	/* Both sides write first (the captures show either order on the wire). */
	rc = oob_write_all(c->fd, done, sizeof(done), c->timeout_ms);
	if (rc == 0)
		rc = oob_read_exact_idle(c->fd, in, sizeof(in), c->timeout_ms, c->idle,
					 c->idle_arg);
	if (rc == 0 && memcmp(in, done, sizeof(done)) != 0)
		rc = -EPROTO;
	if (rc < 0)
		c->failed_step = "done";
	return rc;
}

uint64_t perftest_double_bits(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return b;
}

double perftest_bits_double(uint64_t bits)
{
	double v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}
