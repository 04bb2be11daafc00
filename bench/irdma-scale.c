/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-scale: RDMA WRITE 8 B message rate with N connected QP pairs used round-robin, on
 * port=loop, one lcore, engine=inline: device A holds the requesters, device B the
 * responders, each QP gets doorbells of 32 inline WRITEs (the last signaled) and up to two
 * of them outstanding; the lcore posts on the next QPs with room, steps B and polls A's CQ
 * (which steps A); the QPs are served in the order their room came back (a FIFO of
 * doorbell credits, no scan). The rate of each N is given next to that of one QP pair in the same
 * run, and the memory each QP costs: its queues (rte_pmd_irdma_qp_queue_mem) and the rest
 * (the growth of EAL's heap and memzones per QP once the devices are open, minus the
 * queues: the device's per-QP state and the PMD's, lib/uk's tracking arrays included, and
 * for small N the one PD, MR and CQ of each side).
 *
 *   irdma-scale -l 0 --no-pci --no-huge -m 2560 --no-shconf --file-prefix=X -- \
 *       [-t SECONDS | -n WRITES] N...        (default: -t 1  1 16 256 1024 16384)
 *
 * -n WRITES runs a fixed number of writes per N instead (plus a tenth as warm-up), for
 * callgrind: --toggle-collect=scale_turn counts the loop alone, and its Ir over the writes
 * completed (printed) is the cost per write with N QPs, a figure the machine's load does
 * not move.
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
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "bench_ep.h"

#define PER_DB 32u   /* WRITEs per doorbell */
#define OUTSTANDING 2u /* doorbells in flight per QP */
#define DEPTH (PER_DB * OUTSTANDING)

struct result {
	unsigned int n;
	double mops;
	double queue_bytes, other_bytes; /* per QP */
	uint64_t writes;                 /* completed in all, warm-up included */
	double per_ack;                  /* writes per ACK the responders sent */
};

/* A per-QP counter by name, summed over @p n endpoints' QPs (0 when there is none). */
static uint64_t
qp_xstat_sum(const struct bench_ep *ep, unsigned int n, const char *name)
{
	struct rte_pmd_irdma_xstat_name *names;
	struct rte_pmd_irdma_xstat *v;
	int k = rte_pmd_irdma_qp_xstats_get_names(ep[0].qp, NULL, 0), id = -1, i;
	uint64_t r = 0;
	unsigned int q;

	if (k <= 0)
		return 0;
	names = calloc((size_t)k, sizeof(*names));
	v = calloc((size_t)k, sizeof(*v));
	if (names != NULL && v != NULL && rte_pmd_irdma_qp_xstats_get_names(ep[0].qp, names, k) == k)
		for (i = 0; i < k; i++)
			if (strcmp(names[i].name, name) == 0)
				id = i;
	for (q = 0; id >= 0 && q < n; q++)
		if (rte_pmd_irdma_qp_xstats_get(ep[q].qp, v, k) == k)
			for (i = 0; i < k; i++)
				if (v[i].id == (uint64_t)id)
					r += v[i].value;
	free(names);
	free(v);
	return r;
}

static void
qmem_zone_bytes(const struct rte_memzone *mz, void *arg)
{
	if (strstr(mz->name, "_qmem_") != NULL)
		*(uint64_t *)arg += mz->len;
}

/* Bytes of EAL memory in use (memzones are heap allocations too) less the device's
 * queue-memory zones, which are reserved ahead of use: their queues are counted apart. */
static uint64_t
eal_bytes(void)
{
	struct rte_malloc_socket_stats st;
	uint64_t qz = 0, heap = 0;
	int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (rte_malloc_get_socket_stats(s, &st) == 0)
			heap += st.heap_allocsz_bytes;
	rte_memzone_walk(qmem_zone_bytes, &qz);
	return heap - qz;
}

/* One turn of the loop: post on the next QPs with room (two doorbells' worth), step B,
 * poll A's CQ (which steps A). Returns the doorbells completed, or -1. Its own function so
 * that callgrind can count it alone (--toggle-collect=scale_turn). */
struct turn {
	struct rte_pmd_irdma_dev *dev_b;
	struct bench_ep *ep_a;
	struct rte_pmd_irdma_send_wr *wr;
	uint8_t *out;
	/* Doorbell credits: the QPs with room for one more doorbell, in the order their room
	 * came back (each QP starts with OUTSTANDING, a completion returns one). A FIFO of
	 * n * OUTSTANDING slots, so a turn finds its QP at once: a scan for a QP with room
	 * cost the bench itself ~470 Ir per write at N = 1024, where most QPs are full. */
	uint32_t *credit;
	unsigned int n, c_head, c_count;
};

__attribute__((noinline)) int scale_turn(struct turn *t, char *err, size_t errlen);

int scale_turn(struct turn *t, char *err, size_t errlen)
{
	struct rte_pmd_irdma_wc wc[64];
	unsigned int i;
	int got, j;

	const unsigned int slots = t->n * OUTSTANDING;

	for (j = 0; j < 2 && t->c_count != 0; j++) {
		unsigned int q = t->credit[t->c_head];

		t->c_head = t->c_head + 1 == slots ? 0 : t->c_head + 1;
		t->c_count--;
		t->wr[PER_DB - 1].wr_id = q;
		if (rte_pmd_irdma_post_send(t->ep_a[q].qp, t->wr, PER_DB, NULL) != PER_DB) {
			snprintf(err, errlen, "post_send on QP %u refused", q);
			return -1;
		}
		t->out[q]++;
	}
	rte_pmd_irdma_progress(t->dev_b, 64);
	got = rte_pmd_irdma_poll_cq(t->ep_a[0].cq, wc, RTE_DIM(wc));
	if (got < 0) {
		snprintf(err, errlen, "poll_cq: %d", got);
		return -1;
	}
	for (j = 0; j < got; j++) {
		if (wc[j].status != RTE_PMD_IRDMA_WC_SUCCESS) {
			snprintf(err, errlen, "completion on QP %" PRIu64 ": %s", wc[j].wr_id,
				 rte_pmd_irdma_wc_status_str(wc[j].status));
			return -1;
		}
		t->out[wc[j].wr_id]--;
		i = t->c_head + t->c_count++;
		t->credit[i >= slots ? i - slots : i] = (uint32_t)wc[j].wr_id;
	}
	return got;
}

static int
run_one(unsigned int n, double secs, uint64_t writes, struct result *r, char *err, size_t errlen)
{
	struct rte_pmd_irdma_dev *dev[2] = { NULL, NULL };
	struct bench_ep *ep[2] = { NULL, NULL };
	struct rte_pmd_irdma_send_wr wr[PER_DB];
	struct rte_pmd_irdma_sge sge;
	struct rte_pmd_irdma_wc wc[64];
	uint8_t *out = NULL;
	uint32_t *credit = NULL;
	/* (wc: the drain below) */
	uint64_t base, t0, t_end, done = 0, total = 0, qbytes = 0, acks;
	struct turn t;
	char devargs[192];
	unsigned int k, i;
	uint32_t svc;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->n = n;
	out = calloc(n, 1);
	credit = calloc((size_t)n * OUTSTANDING, sizeof(*credit));
	if (out == NULL || credit == NULL) {
		free(out);
		free(credit);
		snprintf(err, errlen, "no memory");
		return -ENOMEM;
	}
	for (k = 0; k < 2; k++) {
		snprintf(devargs, sizeof(devargs), "soft,port=loop,gen=2,engine=inline,name=bsc%c%u,"
			 "ip=198.18.4.%u,max_qp=%u", 'a' + k, n, k + 1, n + 8);
		dev[k] = bench_dev_create(devargs, &svc, err, errlen);
		if (dev[k] == NULL)
			goto out;
	}
	/* What the QPs cost comes after the devices (their tables, mbuf pool, wire). */
	base = eal_bytes();
	for (k = 0; k < 2; k++) {
		ep[k] = calloc(n, sizeof(*ep[k]));
		if (ep[k] == NULL ||
		    bench_ep_create_many(ep[k], n, dev[k], 4096, DEPTH, 2 * OUTSTANDING * n + 16, err,
					 errlen) < 0)
			goto out;
	}
	for (i = 0; i < n; i++) {
		struct bench_ep_addr a[2];
		struct rte_pmd_irdma_queue_mem sq, rq;

		for (k = 0; k < 2; k++)
			bench_ep_addr_of(&ep[k][i], &a[k]);
		for (k = 0; k < 2; k++)
			if (bench_ep_connect(&ep[k][i], &a[!k], err, errlen) < 0)
				goto out;
		for (k = 0; k < 2; k++)
			if (rte_pmd_irdma_qp_queue_mem(ep[k][i].qp, &sq, &rq) == 0)
				qbytes += sq.len + rq.len;
	}
	r->queue_bytes = (double)qbytes / (2.0 * n);
	r->other_bytes = (double)(eal_bytes() - base) / (2.0 * n);

	memset(wr, 0, sizeof(wr));
	sge.addr = (uint64_t)(uintptr_t)ep[0][0].buf;
	sge.length = 8;
	sge.lkey = ep[0][0].mr->lkey;
	for (k = 0; k < PER_DB; k++) {
		wr[k].sg_list = &sge;
		wr[k].num_sge = 1;
		wr[k].opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr[k].send_flags = RTE_PMD_IRDMA_SEND_INLINE |
				   (k == PER_DB - 1 ? RTE_PMD_IRDMA_SEND_SIGNALED : 0);
		wr[k].wr.rdma.remote_addr = (uint64_t)(uintptr_t)ep[1][0].buf;
		wr[k].wr.rdma.rkey = ep[1][0].mr->rkey;
	}
	/* every QP's credits, round-robin: 0..n-1 twice */
	for (i = 0; i < n * OUTSTANDING; i++)
		credit[i] = i % n;
	t = (struct turn){ .dev_b = dev[1], .ep_a = ep[0], .wr = wr, .out = out, .credit = credit,
			   .n = n, .c_count = n * OUTSTANDING };
	/* Warm-up of a tenth of the time (or of the writes), then the measured part. */
	for (k = 0; k < 2; k++) {
		uint64_t hz = rte_get_tsc_hz(), goal = k == 0 ? writes / 10 : writes;

		t0 = rte_rdtsc();
		t_end = t0 + (uint64_t)((k == 0 ? secs / 10 : secs) * (double)hz);
		done = 0;
		while (writes ? done < goal : rte_rdtsc() < t_end) {
			int got = scale_turn(&t, err, errlen);

			if (got < 0)
				goto out;
			done += (uint64_t)got * PER_DB;
			total += (uint64_t)got * PER_DB;
		}
		r->mops = (double)done / ((double)(rte_rdtsc() - t0) / (double)hz) / 1e6;
	}
	r->writes = total;
	acks = qp_xstat_sum(ep[1], n, "tx_acks");
	r->per_ack = acks ? (double)total / (double)acks : 0;
	/* Drain before tearing down. */
	for (t_end = rte_rdtsc() + rte_get_tsc_hz() * 5; rte_rdtsc() < t_end;) {
		unsigned int left = 0;
		int got, j;

		rte_pmd_irdma_progress(dev[1], 64);
		got = rte_pmd_irdma_poll_cq(ep[0][0].cq, wc, RTE_DIM(wc));
		for (j = 0; j < got; j++)
			out[wc[j].wr_id]--;
		for (i = 0; i < n; i++)
			left += out[i];
		if (left == 0)
			break;
	}
	rc = 0;
out:
	for (k = 2; k-- > 0;) {
		if (ep[k] != NULL)
			bench_ep_destroy_many(ep[k], n);
		free(ep[k]);
		if (dev[k] != NULL)
			rte_pmd_irdma_dev_close(dev[k]);
	}
	free(out);
	free(credit);
	return rc;
}

int
main(int argc, char **argv)
{
	static const unsigned int def_n[] = { 1, 16, 256, 1024, 16384 };
	struct result res[16];
	unsigned int nres = 0, i, ns[16], nn = 0;
	double secs = 1.0;
	uint64_t writes = 0;
	char err[256];
	int rc, opt;

	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "irdma-scale: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= rc;
	argv += rc;
	while ((opt = getopt(argc, argv, "t:n:")) != -1) {
		if (opt == 't') {
			secs = strtod(optarg, NULL);
		} else if (opt == 'n') {
			writes = strtoull(optarg, NULL, 0);
		} else {
			fprintf(stderr, "usage: irdma-scale [EAL] -- [-t SECONDS | -n WRITES] N...\n");
			return 1;
		}
	}
	for (; optind < argc && nn < RTE_DIM(ns); optind++)
		ns[nn++] = (unsigned int)strtoul(argv[optind], NULL, 0);
	if (nn == 0)
		for (; nn < RTE_DIM(def_n); nn++)
			ns[nn] = def_n[nn];
	if (!(secs > 0)) {
		fprintf(stderr, "irdma-scale: -t must be > 0\n");
		return 1;
	}
	for (i = 0; i < nn; i++) {
		if (ns[i] == 0 || ns[i] > 65536) {
			fprintf(stderr, "irdma-scale: N from 1 to 65536\n");
			return 1;
		}
		if (run_one(ns[i], secs, writes, &res[nres], err, sizeof(err)) < 0) {
			fprintf(stderr, "irdma-scale: N = %u: %s\n", ns[i], err);
			rte_eal_cleanup();
			return 1;
		}
		nres++;
	}
	printf("\nRDMA WRITE 8 B, %u per doorbell, %u doorbells in flight per QP, N QP pairs "
	       "round-robin, port=loop, one lcore, engine=inline, GEN_2, %.1f s each; memory "
	       "per QP: queues (SQ + RQ) and the rest (device and PMD state)\n\n",
	       PER_DB, OUTSTANDING, secs);
	printf("| QP pairs | Mmsg/s | vs 1 QP pair | goal | met | queues per QP | other per QP | "
	       "writes per ACK |\n");
	printf("|--:|--:|--:|--:|:-:|--:|--:|--:|\n");
	for (i = 0; i < nres; i++) {
		double ratio = res[0].mops > 0 ? res[i].mops / res[0].mops : 0;
		bool goal = res[i].n == 1024;

		printf("| %u | %.3f | %.2fx | %s | %s | %.1f KiB | %.1f KiB | %.1f |\n", res[i].n,
		       res[i].mops, ratio, goal ? ">= 0.70x" : "", goal ? (ratio >= 0.7 ? "yes" : "no") : "",
		       res[i].queue_bytes / 1024, res[i].other_bytes / 1024, res[i].per_ack);
	}
	for (i = 0; i < nres; i++)
		printf("irdma-scale: N=%u: %" PRIu64 " writes completed in scale_turn, warm-up included\n",
		       res[i].n, res[i].writes);
	for (i = 0; i < nres; i++)
		printf("RESULT case=\"scale N=%u\" mops=%.3f\n", res[i].n, res[i].mops);
	rte_eal_cleanup();
	return 0;
}
