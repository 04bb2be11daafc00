/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The perftest modes of iop-roce-peer: ib_write_lat, ib_read_lat and ib_atomic_lat's
 * traffic on lib/roce's state machines (engine qp), in either role, with perftest's TCP
 * exchange (iop_perftest.c). What the tools do on the wire (as captured from two rxe
 * peers):
 *   write_lat   both sides RDMA WRITE `size` bytes into the other's buffer; the last byte
 *               carries the iteration number (1, 2, ...). The server writes first; each
 *               side writes i once it has seen the peer's i (the server: i-1).
 *   read_lat    the client READs `size` bytes from the server's buffer, one at a time.
 *   atomic_lat  the client FETCH_ADDs 1 (or CMP_AND_SWAPs compare 0 / swap 0) on the
 *               first 8 bytes of the server's buffer, one at a time.
 * Both sides check what they can see: the written bytes, READ data lengths, the sequence
 * of values the atomics return, and what the peer's operations did to our memory.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iop_peer.h"
#include "iop_perftest.h"

#define MR_ATOMIC_SEED 0x1000200030004000ull /* our atomic target's value before the run */

/* Serves the wire until done() says so or the deadline passes. */
static int serve_until(struct iop_peer *pr, bool (*done)(struct iop_peer *, uint32_t), uint32_t arg,
		       const char *what)
{
	while (!pr->failed && !done(pr, arg)) {
		if (iop_now_ms() >= pr->deadline) {
			iop_fail(pr, "timed out waiting for %s", what);
			break;
		}
		if (pr->eng->step(pr, pr->deadline) < 0)
			break;
	}
	return pr->failed ? -1 : 0;
}

static bool send_done(struct iop_peer *pr, uint32_t unused)
{
	(void)unused;
	return !pr->send_pending;
}

static bool peer_wrote(struct iop_peer *pr, uint32_t iter)
{
	return pr->mr.buf[pr->o.size - 1] == (uint8_t)iter;
}

/* Serves the wire (the peer's READs/atomics) until the TCP connection has data. */
static int serve_until_readable(struct iop_peer *pr, int fd)
{
	while (!pr->failed) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 0) > 0)
			return 0;
		if (iop_now_ms() >= pr->deadline) {
			iop_fail(pr, "timed out waiting for the peer to finish");
			break;
		}
		if (pr->eng->step(pr, iop_now_ms() + 5) < 0)
			break;
	}
	return -1;
}

static int post_and_wait(struct iop_peer *pr, const struct roce_send_wr *wr, const char *what)
{
	if (iop_qp_post_wr(pr, wr) < 0)
		return -1;
	return serve_until(pr, send_done, 0, what);
}

static int run_write_lat(struct iop_peer *pr, const struct iop_pt_dest *theirs, bool client)
{
	struct roce_send_wr wr = { .op = ROCE_WR_WRITE, .len = pr->o.size, .raddr = theirs->vaddr,
				   .rkey = theirs->rkey };
	uint32_t i;

	memset(pr->txbuf, 0, pr->o.size);
	for (i = 1; i <= pr->o.iters && !pr->failed; i++) {
		if (client && serve_until(pr, peer_wrote, i, "the peer's RDMA WRITE"))
			break;
		pr->txbuf[pr->o.size - 1] = (uint8_t)i;
		wr.id = i;
		if (post_and_wait(pr, &wr, "our RDMA WRITE to complete"))
			break;
		if (!client && serve_until(pr, peer_wrote, i, "the peer's RDMA WRITE"))
			break;
		pr->rx_msgs++;
	}
	return pr->failed ? -1 : 0;
}

static int run_client_ops(struct iop_peer *pr, const struct iop_pt_dest *theirs)
{
	bool cs = pr->o.transport == T_ATOMIC_CS_LAT;
	struct roce_send_wr wr = { .raddr = theirs->vaddr, .rkey = theirs->rkey };
	uint64_t first = 0;
	uint32_t i;

	if (pr->o.transport == T_READ_LAT) {
		wr.op = ROCE_WR_READ;
		wr.len = pr->o.size;
	} else {
		wr.op = cs ? ROCE_WR_CMP_SWAP : ROCE_WR_FETCH_ADD;
		wr.len = 8;
		wr.swap_add = cs ? 0 : 1; /* what ib_atomic_lat sends */
		wr.cmp = 0;
	}
	for (i = 0; i < pr->o.iters && !pr->failed; i++) {
		wr.id = i;
		if (post_and_wait(pr, &wr, "our operation to complete"))
			break;
		if (wr.op != ROCE_WR_READ) {
			/* FETCH_ADD 1 returns consecutive values; CMP_SWAP (0 -> 0) returns the
			 * same value every time */
			uint64_t want = i == 0 ? pr->last_orig : cs ? first : first + i;

			if (i == 0)
				first = pr->last_orig;
			if (pr->last_orig != want) {
				iop_fail(pr, "atomic %u returned 0x%016llx, expected 0x%016llx", i,
					 (unsigned long long)pr->last_orig, (unsigned long long)want);
				break;
			}
		}
		pr->rx_msgs++;
	}
	if (!pr->failed && wr.op != ROCE_WR_READ)
		printf("atomics returned 0x%016llx .. 0x%016llx\n", (unsigned long long)first,
		       (unsigned long long)pr->last_orig);
	return pr->failed ? -1 : 0;
}

/* What the peer's READs or atomics must have done to (or taken from) our region. */
static int check_server_side(struct iop_peer *pr)
{
	uint64_t v;

	switch (pr->o.transport) {
	case T_READ_LAT:
		if (pr->mr.reads < pr->o.iters)
			iop_fail(pr, "the peer READ %llu times, expected %u",
				 (unsigned long long)pr->mr.reads, pr->o.iters);
		else
			pr->rx_msgs = pr->o.iters;
		break;
	case T_ATOMIC_LAT:
	case T_ATOMIC_CS_LAT:
		memcpy(&v, pr->mr.buf, 8);
		/* FETCH_ADD 1 per iteration; CMP_SWAP compare 0 never matches our seed */
		if (pr->mr.atomics != pr->o.iters ||
		    v != MR_ATOMIC_SEED + (pr->o.transport == T_ATOMIC_LAT ? pr->o.iters : 0))
			iop_fail(pr, "%llu atomics left 0x%016llx in our region (seed 0x%016llx, %u iterations)",
				 (unsigned long long)pr->mr.atomics, (unsigned long long)v,
				 (unsigned long long)MR_ATOMIC_SEED, pr->o.iters);
		else
			pr->rx_msgs = pr->o.iters;
		break;
	default:
		break;
	}
	return pr->failed ? -1 : 0;
}

static unsigned int mtu_code(uint32_t mtu)
{
	unsigned int c = 1;

	while ((256u << (c - 1)) < mtu)
		c++;
	return c; /* enum ibv_mtu: 1 = 256 ... 5 = 4096 */
}

int iop_perf_run(struct iop_peer *pr)
{
	bool client = pr->o.connect_ip != NULL;
	struct iop_pt_dest mine = { 0 }, theirs;
	struct iop_pt_conn c;
	uint32_t len = pr->o.size < 4096 ? 4096 : (pr->o.size + 4095) & ~4095u;
	int rc;

	/* the region the peer writes, reads or updates */
	pr->mr.buf = aligned_alloc(4096, len);
	pr->rdbuf = calloc(1, pr->o.size);
	if (pr->mr.buf == NULL || pr->rdbuf == NULL) {
		iop_fail(pr, "out of memory");
		return -1;
	}
	memset(pr->mr.buf, 0, len);
	if (pr->o.transport == T_ATOMIC_LAT || pr->o.transport == T_ATOMIC_CS_LAT) {
		uint64_t seed = MR_ATOMIC_SEED;

		memcpy(pr->mr.buf, &seed, 8);
	}
	pr->mr.va = (uint64_t)(uintptr_t)pr->mr.buf;
	pr->mr.len = len;
	pr->mr.rkey = 0x100000u | ((uint32_t)random() & 0xfff00u) | 0x5a;
	pr->mr.access = ROCE_ACCESS_REMOTE_WRITE | ROCE_ACCESS_REMOTE_READ | ROCE_ACCESS_REMOTE_ATOMIC;
	pr->qp_access = pr->mr.access;
	pr->ird = 16;

	mine.out_reads = pr->ird;
	mine.qpn = pr->mine.qpn;
	mine.psn = pr->mine.psn;
	mine.rkey = pr->mr.rkey;
	mine.vaddr = pr->mr.va;
	memcpy(mine.gid, pr->mine.gid, 16);
	rc = iop_pt_open(&c, &pr->port, client, client ? pr->o.connect_ip : pr->o.bind_ip,
			 pr->o.tcp_port, mtu_code(pr->o.mtu), &mine, &theirs, pr->deadline);
	if (rc < 0) {
		iop_fail(pr, "perftest exchange with %s:%u failed: %s",
			 client ? pr->o.connect_ip : pr->o.bind_ip, pr->o.tcp_port,
			 rc == -EBADMSG ? "malformed or incompatible message" : strerror(-rc));
		iop_pt_close(&c);
		return -1;
	}
	printf("  local  address: QPN 0x%06x, PSN 0x%06x, RKey 0x%08x, VAddr 0x%016llx\n", mine.qpn,
	       mine.psn, mine.rkey, (unsigned long long)mine.vaddr);
	printf("  remote address: QPN 0x%06x, PSN 0x%06x, RKey 0x%08x, VAddr 0x%016llx, out_reads %u\n",
	       theirs.qpn, theirs.psn, theirs.rkey, (unsigned long long)theirs.vaddr, theirs.out_reads);
	pr->theirs.qpn = theirs.qpn;
	pr->theirs.psn = theirs.psn;
	memcpy(pr->theirs.gid, theirs.gid, 16);
	pr->ord = theirs.out_reads == 0 ? 1 : theirs.out_reads < 16 ? (uint8_t)theirs.out_reads : 16;
	rc = -1;
	if (iop_peer_attach(pr) == 0) {
		if (pr->o.transport == T_WRITE_LAT)
			rc = run_write_lat(pr, &theirs, client);
		else if (client)
			rc = run_client_ops(pr, &theirs);
		else
			rc = serve_until_readable(pr, c.fd) ? -1 : check_server_side(pr);
	}
	/* write_lat's client just closes; read/atomic runs end with a record pair and "done" */
	if (rc == 0 && pr->o.transport != T_WRITE_LAT) {
		rc = iop_pt_finish(&c, &mine);
		if (rc < 0)
			iop_fail(pr, "perftest closing exchange failed: %s", strerror(-rc));
	}
	iop_pt_close(&c);
	return pr->failed ? -1 : 0;
}
