/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency samples, percentiles and the table every bench program prints.
 *
 * Table rows come in two kinds: latency (p50/p99 in ns) and rate (million messages per
 * second). Each row may name a reference row; its ratio column is the row's figure over the
 * reference's, and the goal column says the bound the issue sets on that ratio (latency:
 * ratio of p50 at most the goal; rate: at least the goal). Figures are reported, never
 * asserted: a missed goal prints "no", the program still exits 0.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bench_lat {
	uint64_t n;
	double min_ns, p50_ns, p99_ns;
	/* the sorted samples (valid until the caller frees them) and ns per sample unit:
	 * bench_add_lat() writes their distribution when BENCH_SAMPLES is set */
	const uint64_t *sorted;
	double ns_per_tick;
};

/* Sorts @p ticks in place and fills @p out; each sample is divided by @p divisor
 * (2 turns a round trip into a one-way or half-RTT figure). */
void bench_lat_of(uint64_t *ticks, size_t n, double ticks_per_ns, unsigned int divisor,
		  struct bench_lat *out);

enum bench_row_kind { BENCH_ROW_LAT, BENCH_ROW_RATE };

struct bench_row {
	enum bench_row_kind kind;
	char name[64];
	struct bench_lat lat;     /* BENCH_ROW_LAT */
	double mops;              /* BENCH_ROW_RATE: million messages per second */
	int ref;                  /* index of the reference row, -1 for none */
	double goal;              /* 0: no goal */
	int skipped;              /* not measured (the reason is in note) */
	char note[96];
};

struct bench_table {
	const char *title;
	struct bench_row rows[16];
	unsigned int n;
};

/* Appends a row and returns its index (or -1 when the table is full). A latency row whose
 * samples are still there, with the environment variable BENCH_SAMPLES naming a directory,
 * also writes its distribution to BENCH_SAMPLES/<case>.cdf ("ns fraction" lines, at most
 * 1000 quantiles and the maximum; the case name with every character but [A-Za-z0-9.-]
 * as '_'), which bench/run-all.sh draws as CDF plots. */
int bench_add_lat(struct bench_table *t, const char *name, const struct bench_lat *lat,
		  int ref, double goal);
int bench_add_rate(struct bench_table *t, const char *name, double mops, int ref, double goal);
int bench_add_skipped(struct bench_table *t, enum bench_row_kind kind, const char *name,
		      const char *why);

/*
 * Prints the table as Markdown (it pastes into doc/guides/performance.md):
 *   ## <title>
 *   | case | n | p50 ns | p99 ns | p50 ratio | p99 ratio | goal | met |     (latency rows)
 *   | case | Mmsg/s | ratio | goal | met |                                  (rate rows)
 * and one machine-readable line per row, "RESULT <fields>", for scripts.
 */
void bench_table_print(FILE *f, const struct bench_table *t);

#endif /* BENCH_STATS_H */
