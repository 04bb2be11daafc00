/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cacheline-pingpong: the physical limit of a hand-off between two CPUs.
 *
 *   cacheline-pingpong [-a CPU] [-b CPU] [-n ITERS] [-w WARMUP]     (default 0, 1, 1000000)
 *
 * Two threads pinned to CPU a and CPU b bounce a cache line (see clpp.h) and the program
 * prints one-way time (RTT / 2) and RTT, p50 and p99, as a Markdown table. Both CPUs must
 * be free: each thread spins.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_stats.h"
#include "bench_time.h"
#include "clpp.h"

struct side {
	struct clpp *c;
	int cpu;
	int rc;
};

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *responder_main(void *arg)
{
	struct side *s = arg;

	s->rc = pin(s->cpu);
	if (s->rc == 0)
		clpp_responder(s->c);
	return NULL;
}

static int parse_u64(const char *opt, const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end || *s == '-') {
		fprintf(stderr, "cacheline-pingpong: %s '%s': not a number\n", opt, s);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long a = 0, b = 1, iters = 1000000, warmup = 10000;
	struct bench_table t = { .title = "Cache-line ping-pong" };
	struct bench_lat one_way, rtt;
	struct side s;
	pthread_t th;
	double tpn;
	char name[64];
	int opt, rc;

	while ((opt = getopt(argc, argv, "a:b:n:w:h")) != -1) {
		switch (opt) {
		case 'a': if (parse_u64("-a", optarg, &a)) return 1; break;
		case 'b': if (parse_u64("-b", optarg, &b)) return 1; break;
		case 'n': if (parse_u64("-n", optarg, &iters)) return 1; break;
		case 'w': if (parse_u64("-w", optarg, &warmup)) return 1; break;
		default:
			fprintf(stderr, "usage: %s [-a CPU] [-b CPU] [-n ITERS] [-w WARMUP]\n",
				argv[0]);
			return opt == 'h' ? 0 : 1;
		}
	}
	if (a == b || iters == 0 || a >= CPU_SETSIZE || b >= CPU_SETSIZE) {
		fprintf(stderr, "cacheline-pingpong: needs two different CPUs and ITERS > 0 "
			"(spinning on one CPU measures the scheduler, not the cache)\n");
		return 1;
	}
	s.c = clpp_new(iters, warmup);
	if (!s.c) {
		fprintf(stderr, "cacheline-pingpong: out of memory for %llu samples\n", iters);
		return 1;
	}
	tpn = bench_ticks_per_ns();
	s.cpu = (int)b;
	s.rc = 0;
	rc = pin((int)a);
	if (rc) {
		fprintf(stderr, "cacheline-pingpong: cannot pin to CPU %llu: %s\n", a, strerror(rc));
		return 1;
	}
	rc = pthread_create(&th, NULL, responder_main, &s);
	if (rc) {
		fprintf(stderr, "cacheline-pingpong: pthread_create: %s\n", strerror(rc));
		return 1;
	}
	/* A responder that could not pin never answers: check before spinning on it. */
	usleep(20000);
	if (s.rc) {
		pthread_join(th, NULL);
		fprintf(stderr, "cacheline-pingpong: cannot pin to CPU %llu: %s\n", b,
			strerror(s.rc));
		return 1;
	}
	clpp_initiator(s.c);
	pthread_join(th, NULL);

	bench_lat_of(s.c->rtt, iters, tpn, 2, &one_way);
	bench_lat_of(s.c->rtt, iters, tpn, 1, &rtt);
	snprintf(name, sizeof(name), "cache line one-way, cpu%llu<->cpu%llu", a, b);
	bench_add_lat(&t, name, &one_way, -1, 0);
	snprintf(name, sizeof(name), "cache line RTT, cpu%llu<->cpu%llu", a, b);
	bench_add_lat(&t, name, &rtt, -1, 0);
	bench_table_print(stdout, &t);
	printf("TSC %.3f ticks/ns; one-way = RTT / 2; each sample includes one rdtscp\n", tpn);
	clpp_free(s.c);
	return 0;
}
