/* SPDX-License-Identifier: BSD-3-Clause */
#include "clpp.h"
#include "bench_time.h"

#include <stdlib.h>
#include <string.h>

struct clpp *clpp_new(uint64_t iters, uint64_t warmup)
{
	struct clpp *c = aligned_alloc(128, sizeof(*c));

	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->iters = iters;
	c->warmup = warmup;
	c->rtt = calloc(iters ? iters : 1, sizeof(*c->rtt));
	if (!c->rtt) {
		free(c);
		return NULL;
	}
	return c;
}

void clpp_free(struct clpp *c)
{
	if (!c)
		return;
	free(c->rtt);
	free(c);
}

void clpp_initiator(struct clpp *c)
{
	uint64_t seq, total = c->warmup + c->iters, t0;

	for (seq = 1; seq <= total; seq++) {
		t0 = bench_ticks();
		atomic_store_explicit(&c->ping.v, seq, memory_order_release);
		while (atomic_load_explicit(&c->pong.v, memory_order_acquire) != seq)
			bench_relax();
		if (seq > c->warmup)
			c->rtt[seq - c->warmup - 1] = bench_ticks() - t0;
	}
}

void clpp_responder(struct clpp *c)
{
	uint64_t seq, total = c->warmup + c->iters;

	for (seq = 1; seq <= total; seq++) {
		while (atomic_load_explicit(&c->ping.v, memory_order_acquire) != seq)
			bench_relax();
		atomic_store_explicit(&c->pong.v, seq, memory_order_release);
	}
}
