/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time stamps for the benchmarks: the TSC (rdtscp waits for earlier instructions, so a
 * sample does not start before the work it times), calibrated against CLOCK_MONOTONIC.
 * No DPDK here: bench/cacheline-pingpong uses it on plain pthreads.
 */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t bench_ticks(void)
{
	unsigned int aux;

	return __rdtscp(&aux);
}
static inline void bench_relax(void)
{
	_mm_pause();
}
#else
static inline uint64_t bench_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline void bench_relax(void)
{
}
#endif

static inline uint64_t bench_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Ticks per nanosecond, measured over about 50 ms. */
double bench_ticks_per_ns(void);

#endif /* BENCH_TIME_H */
