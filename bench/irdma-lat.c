/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * irdma-lat: RDMA WRITE 8 bytes, ib_write_lat-style half round trip between two QPs of two
 * soft devices joined by port=loop, side by side with the cache-line ping-pong measured on
 * the same two lcores in the same run.
 *
 *   irdma-lat -l 0,1 --no-pci --no-huge -m 512 --no-shconf --file-prefix=X -- \
 *             [-n ITERS] [-w WARMUP] [-r ROUNDS] [-e inline,service] [-g GEN]
 *
 * Rounds interleave the cases (cache line, inline, service, cache line, ...) so a change
 * of load on a shared machine hits every case alike; the samples of all rounds are pooled.
 *
 * Core budget (two CPUs, never two spinning pollers on one):
 *   cache line   initiator on the main lcore, responder on the second lcore.
 *   inline       client QP's application and device engine on the main lcore (poll_cq
 *                steps the engine); server QP's application and engine on the second.
 *   service      the second lcore becomes a service lcore running three services in turn:
 *                the client device's engine, the server device's engine and the passive
 *                side of the benchmark (itself an rte_service). The main lcore only posts
 *                and polls, so every request crosses to the engine on the other CPU and
 *                every answer crosses back: the "separate engine lcore" configuration. One
 *                thread per CPU, so nothing spins against another poller.
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
#include <rte_pause.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "bench_ep.h"
#include "bench_stats.h"
#include "bench_time.h"
#include "clpp.h"
#include "lat_write.h"

#define STALL_S 5

struct opts {
	uint64_t iters, warmup;
	unsigned int rounds, gen;
	bool inline_mode, service_mode;
};

struct run {
	const struct opts *o;
	unsigned int main_lcore, peer_lcore;
	uint64_t *samples[3];          /* cache line, inline, service: rounds x iters */
	char err[256];
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "engine", required_argument, NULL, 'e' },
		{ "gen", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	o->iters = 100000;
	o->warmup = 10000;
	o->rounds = 3;
	o->gen = 2;
	o->inline_mode = o->service_mode = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:w:r:e:g:h", lo, NULL)) != -1) {
		errno = 0;
		switch (c) {
		case 'n':
			o->iters = strtoull(optarg, &end, 0);
			if (errno || *end || !o->iters)
				goto bad;
			break;
		case 'w':
			o->warmup = strtoull(optarg, &end, 0);
			if (errno || *end)
				goto bad;
			break;
		case 'r':
			o->rounds = (unsigned int)strtoul(optarg, &end, 0);
			if (errno || *end || !o->rounds || o->rounds > 100)
				goto bad;
			break;
		case 'g':
			o->gen = (unsigned int)strtoul(optarg, &end, 0);
			if (errno || *end || o->gen < 1 || o->gen > 3)
				goto bad;
			break;
		case 'e':
			o->inline_mode = strstr(optarg, "inline") != NULL;
			o->service_mode = strstr(optarg, "service") != NULL;
			if (!o->inline_mode && !o->service_mode)
				goto bad;
			break;
		case 'h':
			printf("usage: irdma-lat [EAL options] -- [-n ITERS] [-w WARMUP] [-r ROUNDS] "
			       "[-e inline,service] [-g GEN]\n");
			exit(0);
		default:
			return -EINVAL;
		}
	}
	return 0;
bad:
	fprintf(stderr, "irdma-lat: -%c '%s': bad value\n", c, optarg);
	return -EINVAL;
}

/* ---- cache line -------------------------------------------------------------------- */

static int clpp_lcore(void *arg)
{
	clpp_responder(arg);
	return 0;
}

static int run_cacheline(struct run *r, uint64_t *out)
{
	struct clpp *c = clpp_new(r->o->iters, r->o->warmup);

	if (!c) {
		snprintf(r->err, sizeof(r->err), "cache line: out of memory");
		return -ENOMEM;
	}
	rte_eal_remote_launch(clpp_lcore, c, r->peer_lcore);
	clpp_initiator(c);
	rte_eal_wait_lcore(r->peer_lcore);
	memcpy(out, c->rtt, r->o->iters * sizeof(*out));
	clpp_free(c);
	return 0;
}

/* ---- RDMA write ping-pong ---------------------------------------------------------- */

struct pair {
	struct rte_pmd_irdma_dev *dev[2];
	uint32_t svc[2];
	struct bench_ep ep[2];
	struct lat_write side[2];      /* 0: initiator (main lcore), 1: responder */
	int abort;                     /* lat_write's shared abort flag (__atomic) */
};

static int pair_open(struct run *r, struct pair *p, const char *engine)
{
	static const char *const ip[2] = { "198.18.0.1", "198.18.0.2" };
	struct bench_ep_addr a[2];
	char devargs[160];
	int i, rc;

	memset(p, 0, sizeof(*p));
	p->svc[0] = p->svc[1] = UINT32_MAX;
	for (i = 0; i < 2; i++) {
		snprintf(devargs, sizeof(devargs), "soft,port=loop,gen=%u,engine=%s,name=blat%d,ip=%s",
			 r->o->gen, engine, i, ip[i]);
		p->dev[i] = bench_dev_create(devargs, &p->svc[i], r->err, sizeof(r->err));
		if (!p->dev[i])
			return -ENODEV;
	}
	for (i = 0; i < 2; i++) {
		rc = bench_ep_create(&p->ep[i], p->dev[i], 4096, 64, r->err, sizeof(r->err));
		if (rc < 0)
			return rc;
		bench_ep_addr_of(&p->ep[i], &a[i]);
	}
	for (i = 0; i < 2; i++) {
		rc = bench_ep_connect(&p->ep[i], &a[!i], r->err, sizeof(r->err));
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void pair_close(struct pair *p)
{
	int i, k;

	/* Let the last acknowledgements land before the QPs go (inline engines only: with
	 * service engines the services are stopped already). */
	for (k = 0; k < 1000; k++)
		for (i = 0; i < 2; i++)
			if (p->dev[i] && p->svc[i] == UINT32_MAX)
				rte_pmd_irdma_progress(p->dev[i], 64);
	for (i = 1; i >= 0; i--) {
		bench_ep_destroy(&p->ep[i]);
		if (p->dev[i] && rte_pmd_irdma_dev_close(p->dev[i]) < 0)
			fprintf(stderr, "irdma-lat: device %d left objects behind\n", i);
	}
}

static void pair_sides(struct run *r, struct pair *p, uint64_t *out)
{
	struct bench_ep_addr a[2];
	uint64_t stall = rte_get_tsc_hz() * STALL_S;

	bench_ep_addr_of(&p->ep[0], &a[0]);
	bench_ep_addr_of(&p->ep[1], &a[1]);
	lat_write_init(&p->side[0], &p->ep[0], &a[1], r->o->iters, r->o->warmup, out, stall,
		       &p->abort);
	lat_write_init(&p->side[1], &p->ep[1], &a[0], r->o->iters, r->o->warmup, NULL, stall,
		       &p->abort);
}

static int pair_result(struct run *r, struct pair *p, int rc0, int rc1)
{
	if (rc0 == 0 && rc1 == 0)
		return 0;
	snprintf(r->err, sizeof(r->err), "%s", p->side[0].error && p->side[0].error != -ECANCELED ?
		 p->side[0].err : p->side[1].err);
	return rc0 ? rc0 : rc1;
}

static int responder_lcore(void *arg)
{
	return lat_write_responder(arg);
}

static int run_inline(struct run *r, uint64_t *out)
{
	struct pair p;
	int rc, rc1;

	rc = pair_open(r, &p, "inline");
	if (rc == 0) {
		pair_sides(r, &p, out);
		rte_eal_remote_launch(responder_lcore, &p.side[1], r->peer_lcore);
		rc = lat_write_initiator(&p.side[0]);
		rc1 = rte_eal_wait_lcore(r->peer_lcore);
		rc = pair_result(r, &p, rc, rc1);
	}
	pair_close(&p);
	return rc;
}

static int32_t responder_service(void *arg)
{
	struct lat_write *l = arg;

	/* Done or failed: nothing more to do, but the service stays callable. */
	return lat_write_responder_step(l) == 0 ? 0 : -EAGAIN;
}

static int service_stop_all(const uint32_t *ids, unsigned int n, unsigned int lcore)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] != UINT32_MAX)
			rte_service_runstate_set(ids[i], 0);
	rte_service_lcore_stop(lcore);
	for (i = 0; i < n; i++)
		if (ids[i] != UINT32_MAX)
			while (rte_service_may_be_active(ids[i]) == 1)
				rte_pause();
	for (i = 0; i < n; i++)
		if (ids[i] != UINT32_MAX)
			rte_service_map_lcore_set(ids[i], lcore, 0);
	return rte_service_lcore_del(lcore);
}

static int run_service(struct run *r, uint64_t *out)
{
	struct rte_service_spec spec;
	uint32_t ids[3] = { UINT32_MAX, UINT32_MAX, UINT32_MAX };
	unsigned int i, lc = r->peer_lcore;
	bool lcore_added = false;
	struct pair p;
	int rc, rc1;

	rc = pair_open(r, &p, "service");
	if (rc < 0)
		goto out;
	pair_sides(r, &p, out);
	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "blat_responder");
	spec.callback = responder_service;
	spec.callback_userdata = &p.side[1];
	spec.socket_id = (int)rte_socket_id();
	rc = rte_service_component_register(&spec, &ids[2]);
	if (rc == 0)
		rc = rte_service_component_runstate_set(ids[2], 1);
	ids[0] = p.svc[0];
	ids[1] = p.svc[1];
	if (rc == 0) {
		rc = rte_service_lcore_add(lc);
		lcore_added = rc == 0;
	}
	for (i = 0; rc == 0 && i < 3; i++) {
		rc = rte_service_map_lcore_set(ids[i], lc, 1);
		if (rc == 0)
			rc = rte_service_runstate_set(ids[i], 1);
	}
	if (rc == 0)
		rc = rte_service_lcore_start(lc);
	if (rc < 0) {
		snprintf(r->err, sizeof(r->err), "cannot run the services on lcore %u: %s", lc,
			 strerror(-rc));
		goto out;
	}
	rc = lat_write_initiator(&p.side[0]);
	/* the responder finishes on its own once the initiator's last write is answered */
	while (rc == 0 && !__atomic_load_n(&p.side[1].done, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&p.abort, __ATOMIC_ACQUIRE))
		rte_pause();
	rc1 = p.side[1].error;
	rc = pair_result(r, &p, rc, rc1);
out:
	if (lcore_added)
		service_stop_all(ids, 3, lc);
	if (ids[2] != UINT32_MAX) {
		rte_service_component_runstate_set(ids[2], 0);
		rte_service_component_unregister(ids[2]);
	}
	pair_close(&p);
	return rc;
}

/* ---- main -------------------------------------------------------------------------- */

static int cpu_of(unsigned int lcore)
{
	rte_cpuset_t set = rte_lcore_cpuset(lcore);
	int cpu, found = -1;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set)) {
			if (found >= 0)
				return -2; /* floats over several CPUs */
			found = cpu;
		}
	return found;
}

int main(int argc, char **argv)
{
	static const char *const label[3] = { "cache line one-way", "RDMA WRITE 8 B half-RTT, engine=inline",
					      "RDMA WRITE 8 B half-RTT, engine=service" };
	/* issue 13's goals: inline <= 3x, service <= 2.5x the cache line one-way */
	static const double goal[3] = { 0, 3.0, 2.5 };
	struct bench_table t = { .title = "RDMA WRITE 8 B latency on port=loop vs. the cache line" };
	struct opts o;
	struct run r;
	struct bench_lat lat;
	bool want[3];
	unsigned int k, round;
	int rc, cpu0, cpu1, status = 1, cl_row = -1;
	double tpn;
	char name[96];

	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "irdma-lat: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= rc;
	argv += rc;
	if (parse_opts(argc, argv, &o) < 0)
		goto out;
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.main_lcore = rte_get_main_lcore();
	r.peer_lcore = rte_get_next_lcore(r.main_lcore, 1, 0);
	if (rte_lcore_count() < 2 || r.peer_lcore >= RTE_MAX_LCORE) {
		fprintf(stderr, "irdma-lat: needs two lcores on two CPUs (-l 0,1)\n");
		goto out;
	}
	cpu0 = cpu_of(r.main_lcore);
	cpu1 = cpu_of(r.peer_lcore);
	if (cpu0 < 0 || cpu1 < 0 || cpu0 == cpu1) {
		fprintf(stderr, "irdma-lat: lcores %u and %u must each be pinned to one CPU of its "
			"own (two spinning pollers on one CPU hand off at scheduler ticks)\n",
			r.main_lcore, r.peer_lcore);
		goto out;
	}
	want[0] = true;
	want[1] = o.inline_mode;
	want[2] = o.service_mode;
	for (k = 0; k < 3; k++) {
		if (!want[k])
			continue;
		r.samples[k] = calloc(o.iters * o.rounds, sizeof(uint64_t));
		if (!r.samples[k]) {
			fprintf(stderr, "irdma-lat: out of memory for the samples\n");
			goto out;
		}
	}
	tpn = bench_ticks_per_ns();
	for (round = 0; round < o.rounds; round++) {
		for (k = 0; k < 3; k++) {
			uint64_t *dst = r.samples[k] ? r.samples[k] + round * o.iters : NULL;

			if (!want[k])
				continue;
			rc = k == 0 ? run_cacheline(&r, dst) :
			     k == 1 ? run_inline(&r, dst) : run_service(&r, dst);
			if (rc < 0) {
				fprintf(stderr, "irdma-lat: %s, round %u: %s\n", label[k], round + 1,
					r.err);
				goto out;
			}
		}
	}
	for (k = 0; k < 3; k++) {
		if (!want[k])
			continue;
		bench_lat_of(r.samples[k], o.iters * o.rounds, tpn, 2, &lat);
		if (k == 0)
			snprintf(name, sizeof(name), "%s, cpu%d<->cpu%d", label[k], cpu0, cpu1);
		else
			snprintf(name, sizeof(name), "%s", label[k]);
		rc = bench_add_lat(&t, name, &lat, cl_row, goal[k]);
		if (k == 0)
			cl_row = rc;
	}
	bench_table_print(stdout, &t);
	printf("lcores %u (cpu%d) and %u (cpu%d); %" PRIu64 " samples x %u rounds per case "
	       "(interleaved), %" PRIu64 " warm-up round trips each; gen=%u; half-RTT = RTT / 2; "
	       "ratios against the cache line one-way\n", r.main_lcore, cpu0, r.peer_lcore, cpu1,
	       o.iters, o.rounds, o.warmup, o.gen);
	status = 0;
out:
	for (k = 0; k < 3; k++)
		free(r.samples[k]);
	rte_eal_cleanup();
	return status;
}
