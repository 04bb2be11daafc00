/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-icount: a deterministic, single-lcore RDMA WRITE 8 B loop for callgrind, so the
 * cost of one message on the device path can be counted in instructions (this VM has no
 * PMU). Two soft devices on port=loop, engine=inline; each iteration posts one signaled
 * inline WRITE from A to B and steps A and B until A's completion arrives:
 *   post (A) -> A: doorbell, WQE, frame -> B: frame checks, write to memory, ACK -> A: ACK,
 *   CQE -> poll_cq (A).
 *
 *   irdma-icount -l 0 --no-pci --no-huge -m 512 --no-shconf --file-prefix=X -- N [BURST [MODE [IDLE]]]
 * With BURST > 1 each iteration posts BURST writes with one doorbell, only the last one
 * signaled (the message-rate pattern), and the figures are per write still.
 * MODE: write (default), send (8-byte inline SENDs into receives B posts before each
 * iteration and polls after it: two more stages, bic_post_recv and bic_poll_b) or read
 * (8-byte RDMA READs of B's buffer into A's; not inline).
 * bench/irdma-icount.sh runs it for N and 2N under callgrind; Ir/message is the difference
 * over N. The program prints how many engine steps an iteration took (steps that moved
 * work, and idle ones), since each step has a fixed cost of its own; after each write it
 * also steps device A four times with nothing to do (bic_idle: the cost of an idle poll).
 * With IDLE > 0 each device also holds IDLE more connected RC QPs (one CQ of their own)
 * that never carry anything: an idle step must cost the same with them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "bench_ep.h"

/* Wrappers with stable names: callgrind --toggle-collect=bic_* counts one stage each. */
__attribute__((noinline)) uint16_t bic_post(struct rte_pmd_irdma_qp *qp,
					   const struct rte_pmd_irdma_send_wr *wr, uint16_t n);
__attribute__((noinline)) int bic_step_a(struct rte_pmd_irdma_dev *dev);
__attribute__((noinline)) int bic_step_b(struct rte_pmd_irdma_dev *dev);
__attribute__((noinline)) int bic_idle(struct rte_pmd_irdma_dev *dev);
__attribute__((noinline)) int bic_poll(struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc);
__attribute__((noinline)) uint16_t bic_post_recv(struct rte_pmd_irdma_qp *qp,
						 const struct rte_pmd_irdma_recv_wr *wr,
						 uint16_t n);
__attribute__((noinline)) int bic_poll_b(struct rte_pmd_irdma_cq *cq,
					 struct rte_pmd_irdma_wc *wc, uint16_t n);

/* send mode: B's receives for the next iteration */
uint16_t bic_post_recv(struct rte_pmd_irdma_qp *qp, const struct rte_pmd_irdma_recv_wr *wr,
		       uint16_t n)
{
	int err;

	return rte_pmd_irdma_post_recv(qp, wr, n, &err);
}

/* send mode: B takes its receive completions (this also steps B's engine once). */
int bic_poll_b(struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc, uint16_t n)
{
	return rte_pmd_irdma_poll_cq(cq, wc, n);
}

uint16_t bic_post(struct rte_pmd_irdma_qp *qp, const struct rte_pmd_irdma_send_wr *wr,
		  uint16_t n)
{
	int err;

	return rte_pmd_irdma_post_send(qp, wr, n, &err);
}

int bic_step_a(struct rte_pmd_irdma_dev *dev)
{
	return rte_pmd_irdma_progress(dev, 64);
}

int bic_step_b(struct rte_pmd_irdma_dev *dev)
{
	return rte_pmd_irdma_progress(dev, 64);
}

/* One engine step with nothing to do: the fixed cost every poll pays. */
int bic_idle(struct rte_pmd_irdma_dev *dev)
{
	return rte_pmd_irdma_progress(dev, 64);
}

/* poll_cq steps the engine with engine=inline: A is stepped here only through bic_step_a. */
int bic_poll(struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc)
{
	return rte_pmd_irdma_poll_cq(cq, wc, 1);
}

int main(int argc, char **argv)
{
	struct rte_pmd_irdma_dev *dev[2] = { NULL, NULL };
	struct bench_ep ep[2], *idle_ep[2] = { NULL, NULL };
	struct bench_ep_addr a[2];
	struct rte_pmd_irdma_send_wr wr[32];
	struct rte_pmd_irdma_sge sge;
	struct rte_pmd_irdma_wc wc, rwc[32];
	struct rte_pmd_irdma_recv_wr rwr[32];
	struct rte_pmd_irdma_sge rsge;
	uint64_t n, i, busy = 0, idle = 0, burst, t0, n_idle = 0;
	const char *mode = "write";
	int is_send, is_read;
	char err[256], devargs[160];
	uint32_t svc;
	int rc, k, status = 1;

	memset(ep, 0, sizeof(ep));
	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "irdma-icount: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	n = argc - rc > 1 ? strtoull(argv[rc + 1], NULL, 0) : 10000;
	burst = argc - rc > 2 ? strtoull(argv[rc + 2], NULL, 0) : 1;
	if (argc - rc > 3)
		mode = argv[rc + 3];
	if (argc - rc > 4)
		n_idle = strtoull(argv[rc + 4], NULL, 0);
	is_send = strcmp(mode, "send") == 0;
	is_read = strcmp(mode, "read") == 0;
	if (!n || !burst || burst > 32 || (!is_send && !is_read && strcmp(mode, "write") != 0) ||
	    n_idle > 65536) {
		fprintf(stderr, "irdma-icount: N > 0, 1 <= BURST <= 32, MODE write|send|read, IDLE <= 65536\n");
		goto out;
	}
	for (k = 0; k < 2; k++) {
		/* engine=service would need a service lcore; inline is stepped by this loop */
		snprintf(devargs, sizeof(devargs), "soft,port=loop,gen=2,engine=inline,name=bic%d,"
			 "ip=198.18.2.%d,max_qp=%" PRIu64, k, k + 1, n_idle + 8);
		dev[k] = bench_dev_create(devargs, &svc, err, sizeof(err));
		if (!dev[k] || bench_ep_create(&ep[k], dev[k], 4096, 64, err, sizeof(err)) < 0)
			goto fail;
		bench_ep_addr_of(&ep[k], &a[k]);
		if (n_idle == 0)
			continue;
		idle_ep[k] = calloc(n_idle, sizeof(*idle_ep[k]));
		if (idle_ep[k] == NULL || bench_ep_create_many(idle_ep[k], (unsigned int)n_idle,
							       dev[k], 4096, 8, 16, err,
							       sizeof(err)) < 0)
			goto fail;
	}
	for (k = 0; k < 2; k++)
		if (bench_ep_connect(&ep[k], &a[!k], err, sizeof(err)) < 0)
			goto fail;
	for (i = 0; i < n_idle; i++) {
		struct bench_ep_addr ia[2];

		for (k = 0; k < 2; k++)
			bench_ep_addr_of(&idle_ep[k][i], &ia[k]);
		for (k = 0; k < 2; k++)
			if (bench_ep_connect(&idle_ep[k][i], &ia[!k], err, sizeof(err)) < 0)
				goto fail;
	}
	memset(wr, 0, sizeof(wr));
	sge.addr = (uint64_t)(uintptr_t)(ep[0].buf + 64);
	sge.length = 8;
	sge.lkey = ep[0].mr->lkey;
	rsge.addr = (uint64_t)(uintptr_t)(ep[1].buf + 128);
	rsge.length = 64;
	rsge.lkey = ep[1].mr->lkey;
	for (k = 0; k < (int)burst; k++) {
		wr[k].sg_list = &sge;
		wr[k].num_sge = 1;
		wr[k].opcode = is_send ? RTE_PMD_IRDMA_WR_SEND :
			       is_read ? RTE_PMD_IRDMA_WR_RDMA_READ : RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr[k].send_flags = (is_read ? 0 : RTE_PMD_IRDMA_SEND_INLINE) |
				   (k == (int)burst - 1 ? RTE_PMD_IRDMA_SEND_SIGNALED : 0);
		wr[k].wr.rdma.remote_addr = a[1].addr;
		wr[k].wr.rdma.rkey = a[1].rkey;
		rwr[k].wr_id = (uint64_t)k;
		rwr[k].sg_list = &rsge;
		rwr[k].num_sge = 1;
	}
	t0 = rte_rdtsc();
	for (i = 0; i < n; i++) {
		uint64_t spins = 0;

		wr[burst - 1].wr_id = i;
		if (is_read)
			memcpy(ep[1].buf, &i, 8); /* what A reads into buf + 64 */
		else
			memcpy(ep[0].buf + 64, &i, 8);
		if (is_send && bic_post_recv(ep[1].qp, rwr, (uint16_t)burst) != burst) {
			snprintf(err, sizeof(err), "post_recv %" PRIu64 " refused", i);
			goto fail;
		}
		if (bic_post(ep[0].qp, wr, (uint16_t)burst) != burst) {
			snprintf(err, sizeof(err), "post_send %" PRIu64 " refused", i);
			goto fail;
		}
		for (;;) {
			int wa = bic_step_a(dev[0]), wb = bic_step_b(dev[1]);

			(wa > 0 ? busy++ : idle++);
			(wb > 0 ? busy++ : idle++);
			rc = bic_poll(ep[0].cq, &wc);
			if (rc == 1)
				break;
			if (rc < 0 || ++spins > 1000000) {
				snprintf(err, sizeof(err), "write %" PRIu64 " never completed", i);
				goto fail;
			}
		}
		if (is_send) {
			int got = 0;

			while (got < (int)burst) {
				rc = bic_poll_b(ep[1].cq, rwc, (uint16_t)(burst - (uint64_t)got));
				if (rc < 0 || ++spins > 1000000) {
					snprintf(err, sizeof(err), "send %" PRIu64 " never received", i);
					goto fail;
				}
				for (k = 0; k < rc; k++)
					if (rwc[k].status != RTE_PMD_IRDMA_WC_SUCCESS)
						break;
				if (k < rc) {
					snprintf(err, sizeof(err), "receive %" PRIu64 ": %s", i,
						 rte_pmd_irdma_wc_status_str(rwc[k].status));
					goto fail;
				}
				got += rc;
			}
		}
		for (k = 0; k < 4; k++)
			if (bic_idle(dev[0]) != 0)
				busy++;
		{
			const uint8_t *landed = is_send ? ep[1].buf + 128 :
						is_read ? ep[0].buf + 64 : ep[1].buf;

			if (wc.status != RTE_PMD_IRDMA_WC_SUCCESS || memcmp(landed, &i, 8) != 0) {
				snprintf(err, sizeof(err), "%s %" PRIu64 ": %s, data %s", mode, i,
					 rte_pmd_irdma_wc_status_str(wc.status),
					 memcmp(landed, &i, 8) ? "wrong" : "right");
				goto fail;
			}
		}
	}
	t0 = rte_rdtsc() - t0;
	printf("irdma-icount: %" PRIu64 " %ss (%" PRIu64 " per doorbell, %" PRIu64 " idle "
	       "connected QPs more on each device), %.2f busy + %.2f idle "
	       "engine steps per doorbell; %.0f ns per write on one CPU (post to completion, "
	       "both devices; meaningless under valgrind)\n", n * burst, mode, burst, n_idle,
	       (double)busy / (double)n, (double)idle / (double)n,
	       (double)t0 * 1e9 / (double)rte_get_tsc_hz() / (double)(n * burst));
	status = 0;
	goto out;
fail:
	fprintf(stderr, "irdma-icount: %s\n", err);
out:
	for (k = 1; k >= 0; k--) {
		if (idle_ep[k] != NULL)
			bench_ep_destroy_many(idle_ep[k], (unsigned int)n_idle);
		free(idle_ep[k]);
		bench_ep_destroy(&ep[k]);
		if (dev[k])
			rte_pmd_irdma_dev_close(dev[k]);
	}
	rte_eal_cleanup();
	return status;
}
