/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The loop's receive queue (soft_loop_q.h): order, fill to every slot, partial enqueue
 * at the end, wrap of the positions; and two producer threads against one consumer: every
 * frame arrives once, each producer's in its order (the queue is multi-producer because a
 * loop device may have several senders). Each thread yields when it can do nothing (queue
 * full or empty), so three threads share two cores without spinning against each other.
 * A stress: it sees a lost reservation only when the producers do interleave (a plain
 * single-producer store of the head was caught at 2 x 2M frames without the yields).
 * No EAL: the queue is a plain struct here, the "mbufs" tagged pointers that are never
 * dereferenced.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "irdma_test.h"
#include "soft_loop_q.h"

static struct soft_loop_q q;

static struct rte_mbuf *tag(uintptr_t v)
{
	return (struct rte_mbuf *)(v << 4);
}

static uintptr_t untag(const struct rte_mbuf *m)
{
	return (uintptr_t)m >> 4;
}

T_CASE(loop_q_order_fill_wrap)
{
	struct rte_mbuf *in[8], *out[SOFT_LOOP_Q_SIZE];
	uint32_t i, round, k, next = 1, expect = 1;

	memset(&q, 0, sizeof(q));
	q.head = q.tail = q.cons = UINT32_MAX - 100; /* positions wrap within the test */
	T_CHECK(soft_loop_q_empty(&q));
	T_EQ(soft_loop_q_dequeue(&q, out, 4), 0);
	for (round = 0; round < 3; round++) {
		/* fill every slot in runs of 7, the last run cut short */
		for (k = 0; k < SOFT_LOOP_Q_SIZE;) {
			unsigned int n, want = 7;

			for (i = 0; i < want; i++)
				in[i] = tag(next + i);
			n = soft_loop_q_enqueue(&q, in, want);
			T_EQ(n, SOFT_LOOP_Q_SIZE - k < want ? SOFT_LOOP_Q_SIZE - k : want);
			next += n;
			k += n;
		}
		T_EQ(soft_loop_q_enqueue(&q, in, 1), 0); /* full */
		T_CHECK(!soft_loop_q_empty(&q));
		/* drain in bursts of 1, 2, 3, ... */
		for (k = 0, i = 1; k < SOFT_LOOP_Q_SIZE; i = i % 32 + 1) {
			unsigned int n = soft_loop_q_dequeue(&q, out, i), j;

			T_CHECK(n >= 1 && n <= i);
			for (j = 0; j < n; j++)
				T_EQ(untag(out[j]), expect++);
			k += n;
		}
		T_CHECK(soft_loop_q_empty(&q));
	}
	T_EQ(expect, next);
}

#define MP_FRAMES 1000000u

static unsigned int producers_done;

static void *producer(void *arg)
{
	uintptr_t id = (uintptr_t)arg, seq = 0;
	struct rte_mbuf *in[5];
	unsigned int k;

	while (seq < MP_FRAMES) {
		unsigned int n = (unsigned int)(seq % 5) + 1, i;

		if (n > MP_FRAMES - seq)
			n = (unsigned int)(MP_FRAMES - seq);
		for (i = 0; i < n; i++)
			in[i] = tag(id << 28 | (seq + i));
		k = soft_loop_q_enqueue(&q, in, n);
		if (k == 0)
			sched_yield();
		seq += k;
	}
	__atomic_fetch_add(&producers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

T_CASE(loop_q_two_producers_one_consumer)
{
	pthread_t th[2];
	uintptr_t next[2] = { 0, 0 };
	struct rte_mbuf *out[32];
	uint32_t got = 0, bad = 0;

	memset(&q, 0, sizeof(q));
	producers_done = 0;
	T_EQ(pthread_create(&th[0], NULL, producer, (void *)(uintptr_t)0), 0);
	T_EQ(pthread_create(&th[1], NULL, producer, (void *)(uintptr_t)1), 0);
	for (;;) { /* until both producers are done and nothing is left (no hang on a loss) */
		unsigned int done = __atomic_load_n(&producers_done, __ATOMIC_ACQUIRE);
		unsigned int n = soft_loop_q_dequeue(&q, out, 32), i;

		if (n == 0) {
			if (done == 2)
				break;
			sched_yield();
		}
		for (i = 0; i < n; i++) {
			uintptr_t v = untag(out[i]), id = v >> 28, seq = v & ((1u << 28) - 1);

			if (id > 1 || seq != next[id])
				bad++;
			else
				next[id]++;
		}
		got += n;
	}
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	T_EQ(bad, 0);
	T_EQ(got, 2 * MP_FRAMES);
	T_EQ(next[0], MP_FRAMES);
	T_EQ(next[1], MP_FRAMES);
	T_CHECK(soft_loop_q_empty(&q));
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
