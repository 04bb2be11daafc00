/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Producer / consumer: the main thread posts sends and receives through lib/uk and polls the
 * CQ with irdma_uk_cq_poll_cmpl; a second thread plays the hardware. The hardware reads a WQE
 * only after its valid bit matches (acquire load of the header), checks the WQE body it then
 * reads, consumes one receive per send, and writes an RQ and an SQ CQE, each body first and
 * the qword with the valid bit last (release store). The producer checks that every wr_id
 * completes exactly once, in order, with the right byte count.
 *
 * This is the test of the ThreadSanitizer build (suite 'tsan'): lib/uk's ordering (release
 * store of the WQE header, acquire load of the CQE valid qword) must give TSan nothing to say.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "irdma_test.h"
#include "ukm_model.h"
#include "ukt_env.h"

#if defined(__SANITIZE_THREAD__)
#define N_SENDS 20000u
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define N_SENDS 20000u
#endif
#endif
#ifndef N_SENDS
#define N_SENDS 200000u
#endif

#define MAX_OUTSTANDING 48u /* sends in flight; the CQ has room for two CQEs per send */
#define CQ_SLOTS 128u
#define SEND_BASE 0x1000000000ull
#define RECV_BASE 0x2000000000ull

struct pc {
	int gen;
	struct ukt_qp t;
	struct ukt_cq cq;
	/* hardware-side copies, taken before the hardware thread starts */
	const uint8_t *sq, *rq;
	uint32_t sq_size, rq_size, rq_mult;
	/* hardware reports */
	uint32_t hw_bad;      /* WQE bodies that did not match what was posted */
	uint32_t hw_pads;     /* padding NOPs seen */
	char hw_msg[160];
	atomic_bool stop;     /* the producer gave up: the hardware thread ends too */
};

/* No progress for this long means a lost completion or a WQE the hardware never sees. */
#define STALL_SECONDS 20

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void yield_after(uint32_t *spins)
{
	if (++*spins >= 64) {
		*spins = 0;
		sched_yield();
	}
}

static uint32_t send_len(uint64_t seq, uint32_t k)
{
	return 1u + (uint32_t)(seq % 61) + 100u * k;
}

static uint32_t send_sges(uint64_t seq)
{
	return 1u + (uint32_t)(seq % 3);
}

/* The fragment k (GEN-specific layout) the producer wrote for send seq, as hardware reads it. */
static bool hw_frag_ok(const struct pc *P, const uint8_t *wqe, uint32_t k, uint64_t addr,
		       uint32_t len, uint32_t lkey)
{
	uint32_t off = k ? 32u + 16u * (k - 1u) : 0u;
	uint64_t a = ukt_get64(wqe, off), b = ukt_get64(wqe, off + 8);

	if (P->gen == 1)
		return a == addr && b == ((uint64_t)len | ((uint64_t)lkey << 32));
	return a == addr && (b & 0x7fffffffffffffffull) == ((uint64_t)lkey | ((uint64_t)len << 32));
}

static void *hardware(void *arg)
{
	struct pc *P = arg;
	uint32_t sq_tail = 0, rq_tail = 0, spins = 0;
	uint8_t sq_pol = 1, rq_pol = 1;
	uint64_t sends = 0;

	while (sends < N_SENDS) {
		const uint8_t *wqe = P->sq + 32u * sq_tail;
		uint64_t hdr = ukt_load_acquire64(wqe + 24);
		uint32_t opcode, addl, quanta, nsge, total = 0;
		const uint8_t *rwqe;
		struct ukt_cqe c;

		if ((hdr >> 63) != sq_pol) {
			if (atomic_load_explicit(&P->stop, memory_order_relaxed))
				break;
			yield_after(&spins);
			continue;
		}
		opcode = (uint32_t)UKT_BITS(hdr, 32, 37);
		addl = (uint32_t)UKT_BITS(hdr, 38, 41);
		quanta = addl ? 1 + (addl + 1) / 2 : 1;
		if (opcode == 0x0c) {
			P->hw_pads++;
		} else {
			/* A send: check its body against what the producer posted. */
			nsge = send_sges(sends);
			for (uint32_t k = 0; k < nsge; k++) {
				uint32_t len = send_len(sends, k);

				total += len;
				if (!hw_frag_ok(P, wqe, k, SEND_BASE + (sends << 8) + k, len, 0x100 + k) &&
				    !P->hw_bad++)
					snprintf(P->hw_msg, sizeof(P->hw_msg),
						 "send %llu fragment %u at SQ quantum %u is not what was posted",
						 (unsigned long long)sends, k, sq_tail);
			}
			if (opcode != 0x03 || !UKT_BITS(hdr, 62, 62)) {
				if (!P->hw_bad++)
					snprintf(P->hw_msg, sizeof(P->hw_msg), "send %llu header 0x%016llx",
						 (unsigned long long)sends, (unsigned long long)hdr);
			}
			/* One receive per send: wait for the next RQ WQE to be valid (RNR otherwise). */
			for (;;) {
				rwqe = P->rq + 32u * P->rq_mult * rq_tail;
				if ((ukt_load_acquire64(rwqe + 24) >> 63) == rq_pol ||
				    atomic_load_explicit(&P->stop, memory_order_relaxed))
					break;
				yield_after(&spins);
			}
			if (!hw_frag_ok(P, rwqe, 0, RECV_BASE + (sends << 12), 4096, 0x200) && !P->hw_bad++)
				snprintf(P->hw_msg, sizeof(P->hw_msg), "receive %llu at RQ index %u",
					 (unsigned long long)sends, rq_tail);
			ukt_cqe_rq(&c, &P->t.qp, P->t.qp.qp_id, rq_tail * P->rq_mult, total);
			ukt_cq_hw_write(&P->cq, &c);
			ukt_cqe_sq(&c, &P->t.qp, P->t.qp.qp_id, sq_tail, opcode);
			c.q[0] = (uint64_t)(sends & 0xffffff) << 32; /* PSN in the stat field */
			ukt_cq_hw_write(&P->cq, &c);
			if (++rq_tail == P->rq_size) {
				rq_tail = 0;
				rq_pol ^= 1;
			}
			sends++;
		}
		sq_tail += quanta;
		if (sq_tail >= P->sq_size) {
			sq_tail -= P->sq_size;
			sq_pol ^= 1;
		}
		spins = 0;
	}
	return NULL;
}

static void prodcons(int gen)
{
	struct ukt_qp_cfg cfg = { .gen = gen, .max_send_wr = 64, .max_recv_wr = 64, .sq_sge = 3,
				  .rq_sge = 1 };
	struct pc *P = calloc(1, sizeof(*P));
	uint64_t posted = 0, sq_done = 0, rq_posted = 0, rq_done = 0;
	uint32_t spins = 0, bad_order = 0, idle = 0;
	double last_progress = now_s();
	pthread_t hw;

	P->gen = gen;
	T_EQ(ukt_qp_create(&P->t, &cfg), 0);
	T_EQ(ukt_cq_create(&P->cq, CQ_SLOTS, gen == 3), 0);
	P->sq = P->t.sq_mem;
	P->rq = P->t.rq_mem;
	P->sq_size = P->t.sq_depth;
	P->rq_size = P->t.qp.rq_ring.size;
	P->rq_mult = P->t.qp.rq_wqe_size_multiplier;
	T_CHECK(P->rq_size > MAX_OUTSTANDING + 1);
	T_EQ(pthread_create(&hw, NULL, hardware, P), 0);

	while (sq_done < N_SENDS && !t_case_failures) {
		struct irdma_cq_poll_info pi;
		bool progress = false;
		int ret;

		/* Keep the receive queue full ahead of the sends. */
		while (rq_posted < N_SENDS && rq_posted - rq_done < MAX_OUTSTANDING + 8) {
			struct irdma_sge sg = { RECV_BASE + (rq_posted << 12), 4096, 0x200 };
			struct irdma_post_rq_info ri = { .wr_id = 0xb00000000ull + rq_posted,
							 .sg_list = &sg, .num_sges = 1 };

			ret = irdma_uk_post_receive(&P->t.qp, &ri);
			T_EQ(ret, 0);
			if (ret)
				break;
			rq_posted++;
			progress = true;
		}
		if (posted < N_SENDS && posted - sq_done < MAX_OUTSTANDING) {
			struct irdma_sge sg[3];
			struct irdma_post_sq_info si;
			uint32_t n = send_sges(posted);

			for (uint32_t k = 0; k < n; k++)
				sg[k] = (struct irdma_sge){ SEND_BASE + (posted << 8) + k,
							    send_len(posted, k), 0x100 + k };
			memset(&si, 0, sizeof(si));
			si.wr_id = 0xa00000000ull + posted;
			si.op_type = 0x03;
			si.signaled = true;
			si.op.send.sg_list = sg;
			si.op.send.num_sges = n;
			ret = irdma_uk_send(&P->t.qp, &si, true);
			T_EQ(ret, 0);
			if (ret)
				break;
			posted++;
			progress = true;
		}
		ret = irdma_uk_cq_poll_cmpl(&P->cq.cq, &pi);
		if (ret == 0) {
			uint64_t *done = pi.q_type == IRDMA_CQE_QTYPE_SQ ? &sq_done : &rq_done;
			uint64_t base = pi.q_type == IRDMA_CQE_QTYPE_SQ ? 0xa00000000ull : 0xb00000000ull;
			uint32_t total = 0;

			for (uint32_t k = 0; k < send_sges(*done); k++)
				total += send_len(*done, k);
			if (pi.wr_id != base + *done || pi.bytes_xfered != total ||
			    pi.comp_status != IRDMA_COMPL_STATUS_SUCCESS) {
				if (!bad_order++)
					printf("# completion %llu on the %s: wr_id 0x%llx bytes %u status %d\n",
					       (unsigned long long)*done, pi.q_type ? "SQ" : "RQ",
					       (unsigned long long)pi.wr_id, pi.bytes_xfered,
					       (int)pi.comp_status);
			}
			if (pi.q_type == IRDMA_CQE_QTYPE_SQ && pi.stat.raw != (*done & 0xffffff))
				bad_order++;
			(*done)++;
			progress = true;
		} else if (ret != -ENOENT) {
			T_EQ(ret, -ENOENT);
		}
		if (progress) {
			spins = 0;
			idle = 0;
		} else {
			yield_after(&spins);
			if (++idle % 4096 == 0) {
				if (idle == 4096)
					last_progress = now_s();
				else if (now_s() - last_progress > STALL_SECONDS) {
					T_CHECK_MSG(0, "no progress for %d s: %llu posted, %llu/%llu completed (SQ/RQ)",
						    STALL_SECONDS, (unsigned long long)posted,
						    (unsigned long long)sq_done, (unsigned long long)rq_done);
					break;
				}
			}
		}
	}
	atomic_store(&P->stop, true);
	T_EQ(pthread_join(hw, NULL), 0);
	T_EQ(bad_order, 0);
	if (t_case_failures)
		goto out;
	T_CHECK_MSG(P->hw_bad == 0, "hardware saw %u bad WQEs, first: %s", P->hw_bad, P->hw_msg);
	T_EQ(sq_done, N_SENDS);
	T_EQ(rq_done, N_SENDS);
	T_EQ(irdma_uk_cq_poll_cmpl(&P->cq.cq, &(struct irdma_cq_poll_info){ 0 }), -ENOENT);
	T_EQ(P->t.qp.sq_ring.tail, P->t.qp.sq_ring.head);
	T_EQ(P->t.qp.rq_ring.tail, P->t.qp.rq_ring.head);
	/* 1..3 SGEs per send: 2-quanta WQEs cross chunk boundaries, so padding must have happened. */
	T_CHECK(P->hw_pads > 0);
	printf("# GEN_%d: %u sends and receives, %u padding NOPs seen by the hardware thread\n", gen,
	       N_SENDS, P->hw_pads);
out:
	ukt_cq_destroy(&P->cq);
	ukt_qp_destroy(&P->t);
	free(P);
}

T_CASE(prodcons_gen1)
{
	prodcons(1);
}

T_CASE(prodcons_gen2)
{
	prodcons(2);
}

T_CASE(prodcons_gen3)
{
	prodcons(3);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
