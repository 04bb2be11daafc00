/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-bw: RDMA WRITE bandwidth between two soft devices joined by port=loop (one process),
 * at path MTU 4096 and 1024, side by side with memcpy of the same size measured in the same
 * run on the same lcore.
 *
 *   irdma-bw -l 0[,1] --no-pci --no-huge -m 512 --no-shconf --file-prefix=X -- \
 *            [-s SIZES] [-m MTUS] [-t SECONDS] [-d DEPTH] [-r ROUNDS] [-n COUNT]
 *
 * SIZES and MTUS are comma lists (default 65536,1048576 and 4096,1024). Rounds interleave
 * the cases (memcpy, each MTU, memcpy, ...) so a change of load on a shared machine hits
 * every case alike; each case reports its best round (the least disturbed one), and the
 * ratio is against the memcpy figure of the same size taken the same way. -n COUNT
 * streams COUNT WRITEs per case (after DEPTH of warm-up) instead of SECONDS: with
 * bench/bw-icount.sh, instructions per WRITE under callgrind.
 *
 * Core budget: the main lcore posts the writes (DEPTH outstanding, every one signaled) and
 * polls the requester's CQ, which steps its device (engine=inline). With one lcore (-l 0)
 * it steps the responder's device as well, so the figure is what one CPU moves, the same
 * budget memcpy has; with two (-l 0,1, two CPUs, never two pollers on one) the second lcore
 * steps the responder's device. memcpy runs on the main lcore alone. The destination is compared with the source
 * after each RDMA case, so the figure is of bytes that arrived.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "bench_ep.h"

#define MAX_LIST 8

struct opts {
	unsigned int n_sizes, n_mtus, rounds, depth;
	uint64_t count; /* -n: WRITEs per case instead of a time (for callgrind) */
	uint32_t sizes[MAX_LIST], mtus[MAX_LIST];
	double seconds;
};

static int parse_list(const char *s, uint32_t *out, unsigned int *n)
{
	char *end;

	*n = 0;
	while (*s && *n < MAX_LIST) {
		errno = 0;
		out[*n] = (uint32_t)strtoul(s, &end, 0);
		if (errno || end == s || !out[*n])
			return -EINVAL;
		(*n)++;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -EINVAL;
	}
	return *n ? 0 : -EINVAL;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	char *end;
	int c;

	/* every field a default, -n's count 0 above all: left to the stack, a non-zero count
	 * made a timed run (-t) wait for that many WRITEs (bench_smoke hung on one machine) */
	memset(o, 0, sizeof(*o));
	o->sizes[0] = 65536;
	o->sizes[1] = 1048576;
	o->n_sizes = 2;
	o->mtus[0] = 4096;
	o->mtus[1] = 1024;
	o->n_mtus = 2;
	o->seconds = 1.0;
	o->depth = 16;
	o->rounds = 3;
	optind = 1;
	while ((c = getopt(argc, argv, "s:m:t:d:r:n:h")) != -1) {
		errno = 0;
		switch (c) {
		case 's':
			if (parse_list(optarg, o->sizes, &o->n_sizes) < 0)
				goto bad;
			break;
		case 'm':
			if (parse_list(optarg, o->mtus, &o->n_mtus) < 0)
				goto bad;
			break;
		case 't':
			o->seconds = strtod(optarg, &end);
			if (errno || *end || o->seconds <= 0)
				goto bad;
			break;
		case 'd':
			o->depth = (unsigned int)strtoul(optarg, &end, 0);
			if (errno || *end || !o->depth || o->depth > 64)
				goto bad;
			break;
		case 'n':
			o->count = strtoull(optarg, &end, 0);
			if (errno || *end || !o->count)
				goto bad;
			break;
		case 'r':
			o->rounds = (unsigned int)strtoul(optarg, &end, 0);
			if (errno || *end || !o->rounds || o->rounds > 100)
				goto bad;
			break;
		case 'h':
			printf("usage: irdma-bw [EAL options] -- [-s SIZES] [-m MTUS] [-t SECONDS] "
			       "[-d DEPTH] [-r ROUNDS] [-n COUNT]\n");
			exit(0);
		default:
			return -EINVAL;
		}
	}
	for (c = 0; c < (int)o->n_mtus; c++)
		if (o->mtus[c] != 1024 && o->mtus[c] != 2048 && o->mtus[c] != 4096) {
			fprintf(stderr, "irdma-bw: path MTU %u: 1024, 2048 or 4096\n", o->mtus[c]);
			return -EINVAL;
		}
	return 0;
bad:
	fprintf(stderr, "irdma-bw: -%c '%s': bad value\n", c, optarg);
	return -EINVAL;
}

static double gbps(uint64_t bytes, uint64_t ticks)
{
	return ticks ? (double)bytes * (double)rte_get_tsc_hz() / (double)ticks / 1e9 : 0;
}

/* memcpy of size bytes between two buffers, repeated for the given time. The destination
 * starts 256 bytes into a page: source and destination at the same offset in their pages
 * make every load look like it hits the store before it (4 KiB aliasing), a slowdown the
 * device's copies (into mbufs, from mbufs) do not have. */
static double run_memcpy(uint32_t size, double seconds)
{
	uint8_t *a = rte_malloc("bbw_a", size, 4096), *mem = rte_malloc("bbw_b", size + 256, 4096);
	uint8_t *b = mem != NULL ? mem + 256 : NULL;
	uint64_t t0, t1, dur = (uint64_t)(seconds * (double)rte_get_tsc_hz()), bytes = 0;
	double r = -1;

	if (a && b) {
		memset(a, 0x5A, size);
		memset(b, 0, size);
		memcpy(b, a, size); /* warm */
		t0 = rte_rdtsc();
		do {
			memcpy(b, a, size);
			__asm__ volatile("" : : "r"(b) : "memory");
			bytes += size;
			t1 = rte_rdtsc();
		} while (t1 - t0 < dur);
		r = gbps(bytes, t1 - t0);
	}
	rte_free(a);
	rte_free(mem);
	return r;
}

/* ---- RDMA WRITE stream ------------------------------------------------------------- */

struct bw_pair {
	struct rte_pmd_irdma_dev *dev[2];
	struct bench_ep ep[2];
	volatile int stop;
};

static int responder_lcore(void *arg)
{
	struct bw_pair *p = arg;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
		rte_pmd_irdma_progress(p->dev[1], 64);
	return 0;
}

static int mtu_enum(uint32_t mtu)
{
	return mtu == 4096 ? RTE_PMD_IRDMA_MTU_4096 :
	       mtu == 2048 ? RTE_PMD_IRDMA_MTU_2048 : RTE_PMD_IRDMA_MTU_1024;
}

static int pair_open(struct bw_pair *p, uint32_t size, uint32_t mtu, uint32_t depth, char *err,
		     size_t errlen)
{
	static const char *const ip[2] = { "198.18.1.1", "198.18.1.2" };
	struct bench_ep_addr a[2];
	char devargs[160];
	uint32_t svc;
	int i, rc;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < 2; i++) {
		snprintf(devargs, sizeof(devargs),
			 "soft,port=loop,gen=2,engine=inline,name=bbw%d,ip=%s,mtu=4096", i, ip[i]);
		p->dev[i] = bench_dev_create(devargs, &svc, err, errlen);
		if (!p->dev[i])
			return -ENODEV;
	}
	for (i = 0; i < 2; i++) {
		rc = bench_ep_create(&p->ep[i], p->dev[i], size, depth, err, errlen);
		if (rc < 0)
			return rc;
		p->ep[i].path_mtu = (uint8_t)mtu_enum(mtu);
		bench_ep_addr_of(&p->ep[i], &a[i]);
	}
	for (i = 0; i < 2; i++) {
		rc = bench_ep_connect(&p->ep[i], &a[!i], err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void pair_close(struct bw_pair *p)
{
	int i, k;

	for (k = 0; k < 1000; k++)
		for (i = 0; i < 2; i++)
			if (p->dev[i])
				rte_pmd_irdma_progress(p->dev[i], 64);
	for (i = 1; i >= 0; i--) {
		bench_ep_destroy(&p->ep[i]);
		if (p->dev[i] && rte_pmd_irdma_dev_close(p->dev[i]) < 0)
			fprintf(stderr, "irdma-bw: device %d left objects behind\n", i);
	}
}

static int post_write(struct bw_pair *p, uint32_t size, uint64_t id, char *err, size_t errlen)
{
	struct bench_ep *e = &p->ep[0];
	struct rte_pmd_irdma_sge sge = {
		.addr = (uint64_t)(uintptr_t)e->buf, .length = size, .lkey = e->mr->lkey,
	};
	struct rte_pmd_irdma_send_wr wr;
	int bad = 0;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)p->ep[1].buf;
	wr.wr.rdma.rkey = p->ep[1].mr->rkey;
	if (rte_pmd_irdma_post_send(e->qp, &wr, 1, &bad) != 1) {
		snprintf(err, errlen, "post_send: %s", strerror(bad ? -bad : EIO));
		return -EIO;
	}
	return 0;
}

/* Streams size-byte WRITEs with depth outstanding for the given time; GB/s or < 0. */
static __rte_noinline double run_write(uint32_t size, uint32_t mtu, const struct opts *o,
				       unsigned int peer, char *err, size_t errlen)
{
	uint64_t hz = rte_get_tsc_hz(), dur = (uint64_t)(o->seconds * (double)hz);
	uint64_t posted = 0, done = 0, counted = 0, t0 = 0, t1 = 0, last = 0;
	uint64_t warm = o->depth; /* completions before the clock starts */
	struct rte_pmd_irdma_wc wc[16];
	struct bw_pair p;
	double r = -1;
	bool timing = false, stopping = false;
	int n, i, rc;

	rc = pair_open(&p, size, mtu, o->depth, err, errlen);
	if (rc < 0)
		goto out;
	for (i = 0; i < (int)size; i++)
		p.ep[0].buf[i] = (uint8_t)(i * 131 + 7);
	memset(p.ep[1].buf, 0, size);
	if (peer != RTE_MAX_LCORE)
		rte_eal_remote_launch(responder_lcore, &p, peer);
	last = rte_rdtsc();
	while (!stopping || done < posted) {
		while (!stopping && posted - done < o->depth) {
			if (post_write(&p, size, posted, err, errlen) < 0)
				goto stop;
			posted++;
		}
		if (peer == RTE_MAX_LCORE)
			rte_pmd_irdma_progress(p.dev[1], 64); /* one lcore: the responder too */
		n = rte_pmd_irdma_poll_cq(p.ep[0].cq, wc, 16);
		if (n < 0) {
			snprintf(err, errlen, "poll_cq: %s", strerror(-n));
			goto stop;
		}
		for (i = 0; i < n; i++)
			if (wc[i].status != RTE_PMD_IRDMA_WC_SUCCESS) {
				snprintf(err, errlen, "write %" PRIu64 ": %s", wc[i].wr_id,
					 rte_pmd_irdma_wc_status_str(wc[i].status));
				goto stop;
			}
		if (n > 0) {
			uint64_t now = rte_rdtsc();

			done += (uint64_t)n;
			last = now;
			if (!timing && done >= warm) {
				timing = true;
				t0 = now;
				counted = done;
			} else if (timing && !stopping &&
				   (o->count ? done - counted >= o->count : now - t0 >= dur)) {
				t1 = now;
				counted = done - counted;
				stopping = true;
			}
		} else if (rte_rdtsc() - last > 5 * hz) {
			snprintf(err, errlen, "stalled (%" PRIu64 " posted, %" PRIu64 " done)",
				 posted, done);
			goto stop;
		}
	}
	if (memcmp(p.ep[0].buf, p.ep[1].buf, size) != 0)
		snprintf(err, errlen, "the destination differs from the source");
	else
		r = gbps(counted * size, t1 - t0);
stop:
	__atomic_store_n(&p.stop, 1, __ATOMIC_RELEASE);
	if (peer != RTE_MAX_LCORE)
		rte_eal_wait_lcore(peer);
out:
	pair_close(&p);
	return r;
}

static const char *size_name(uint32_t s, char *buf, size_t len)
{
	if (s >= 1048576 && s % 1048576 == 0)
		snprintf(buf, len, "%u MiB", s / 1048576);
	else if (s >= 1024 && s % 1024 == 0)
		snprintf(buf, len, "%u KiB", s / 1024);
	else
		snprintf(buf, len, "%u B", s);
	return buf;
}

/* The bounds: 64 KiB at path MTU 4096 >= 0.4x memcpy, at 1024 >= 0.25x. */
static double goal_of(uint32_t size, uint32_t mtu)
{
	if (size != 65536)
		return 0;
	return mtu == 4096 ? 0.4 : mtu == 1024 ? 0.25 : 0;
}

int main(int argc, char **argv)
{
	static double best[MAX_LIST][MAX_LIST + 1]; /* [size][0: memcpy, 1 + mtu index] */
	unsigned int s, m, round, peer;
	char err[256] = "", sz[32];
	struct opts o;
	int rc, status = 1;

	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "irdma-bw: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (parse_opts(argc - rc, argv + rc, &o) < 0)
		goto out;
	/* -l 0: one lcore steps both devices; -l 0,1: the responder on its own lcore */
	peer = rte_lcore_count() > 1 ? rte_get_next_lcore(rte_get_main_lcore(), 1, 0) :
				       RTE_MAX_LCORE;
	for (round = 0; round < o.rounds; round++) {
		for (s = 0; s < o.n_sizes; s++) {
			double v = run_memcpy(o.sizes[s], o.seconds);

			if (v < 0) {
				fprintf(stderr, "irdma-bw: memcpy %u: out of memory\n", o.sizes[s]);
				goto out;
			}
			if (v > best[s][0])
				best[s][0] = v;
			for (m = 0; m < o.n_mtus; m++) {
				v = run_write(o.sizes[s], o.mtus[m], &o, peer, err, sizeof(err));
				if (v < 0) {
					fprintf(stderr, "irdma-bw: WRITE %u at MTU %u, round %u: %s\n",
						o.sizes[s], o.mtus[m], round + 1, err);
					goto out;
				}
				if (v > best[s][1 + m])
					best[s][1 + m] = v;
			}
		}
	}
	printf("## RDMA WRITE bandwidth on port=loop vs. memcpy of the same size\n\n");
	printf("| case | GB/s | ratio | goal | met |\n|---|--:|--:|--:|:-:|\n");
	for (s = 0; s < o.n_sizes; s++) {
		size_name(o.sizes[s], sz, sizeof(sz));
		printf("| memcpy %s | %.2f | 1.00 | | |\n", sz, best[s][0]);
		for (m = 0; m < o.n_mtus; m++) {
			double ratio = best[s][0] > 0 ? best[s][1 + m] / best[s][0] : 0;
			double goal = goal_of(o.sizes[s], o.mtus[m]);

			printf("| RDMA WRITE %s, path MTU %u | %.2f | %.2f | ", sz, o.mtus[m],
			       best[s][1 + m], ratio);
			if (goal > 0)
				printf("≥ %.2f | %s |\n", goal, ratio >= goal ? "yes" : "no");
			else
				printf("| |\n");
		}
	}
	printf("\nbest of %u interleaved rounds of %.1f s per case; %u WRITEs outstanding, every one "
	       "signaled; engine=inline, requester on lcore %u, ", o.rounds, o.seconds, o.depth,
	       rte_get_main_lcore());
	if (peer == RTE_MAX_LCORE)
		printf("responder stepped by the same lcore (both devices on one CPU)");
	else
		printf("responder on lcore %u", peer);
	printf("; ratios against memcpy of the same size on the requester's lcore\n");
	for (s = 0; s < o.n_sizes; s++) {
		printf("RESULT bw memcpy size=%u gbps=%.3f\n", o.sizes[s], best[s][0]);
		for (m = 0; m < o.n_mtus; m++)
			printf("RESULT bw write size=%u mtu=%u gbps=%.3f ratio=%.3f\n", o.sizes[s],
			       o.mtus[m], best[s][1 + m],
			       best[s][0] > 0 ? best[s][1 + m] / best[s][0] : 0);
	}
	status = 0;
out:
	rte_eal_cleanup();
	return status;
}
