/* SPDX-License-Identifier: BSD-3-Clause */
#include "bench_stats.h"
#include "bench_time.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

double bench_ticks_per_ns(void)
{
	uint64_t t0 = bench_mono_ns(), c0 = bench_ticks(), t1, c1;

	do
		t1 = bench_mono_ns();
	while (t1 - t0 < 50000000u);
	c1 = bench_ticks();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void bench_lat_of(uint64_t *ticks, size_t n, double ticks_per_ns, unsigned int divisor,
		  struct bench_lat *out)
{
	double f = 1.0 / (ticks_per_ns * (divisor ? divisor : 1));

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	qsort(ticks, n, sizeof(*ticks), cmp_u64);
	out->n = n;
	out->min_ns = (double)ticks[0] * f;
	out->p50_ns = (double)ticks[n / 2] * f;
	out->p99_ns = (double)ticks[(n * 99) / 100] * f;
	out->sorted = ticks;
	out->ns_per_tick = f;
}

/* The distribution of a latency row, for the CDF plots (see bench_add_lat). */
static void lat_save(const char *name, const struct bench_lat *lat)
{
	const char *dir = getenv("BENCH_SAMPLES");
	char path[512], slug[64];
	uint64_t i, step;
	size_t k;
	FILE *f;

	if (dir == NULL || *dir == 0 || lat->sorted == NULL || lat->n == 0)
		return;
	for (k = 0; name[k] && k + 1 < sizeof(slug); k++) {
		char c = name[k];

		slug[k] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '.' || c == '-' ? c : '_';
	}
	slug[k] = 0;
	snprintf(path, sizeof(path), "%s/%s.cdf", dir, slug);
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "bench: %s: cannot write the samples\n", path);
		return;
	}
	fprintf(f, "# %s: %" PRIu64 " samples, ns and fraction at or below\n", name, lat->n);
	step = lat->n > 1000 ? lat->n / 1000 : 1;
	for (i = 0; i < lat->n; i += step)
		fprintf(f, "%.1f %.5f\n", (double)lat->sorted[i] * lat->ns_per_tick,
			(double)(i + 1) / (double)lat->n);
	fprintf(f, "%.1f 1.00000\n", (double)lat->sorted[lat->n - 1] * lat->ns_per_tick);
	fclose(f);
}

static struct bench_row *row_new(struct bench_table *t, enum bench_row_kind kind,
				 const char *name, int ref, double goal)
{
	struct bench_row *r;

	if (t->n >= sizeof(t->rows) / sizeof(t->rows[0]))
		return NULL;
	r = &t->rows[t->n];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->ref = ref;
	r->goal = goal;
	return r;
}

int bench_add_lat(struct bench_table *t, const char *name, const struct bench_lat *lat,
		  int ref, double goal)
{
	struct bench_row *r = row_new(t, BENCH_ROW_LAT, name, ref, goal);

	if (!r)
		return -1;
	r->lat = *lat;
	r->lat.sorted = NULL; /* the caller's memory: the table does not keep it */
	lat_save(name, lat);
	return (int)t->n++;
}

int bench_add_rate(struct bench_table *t, const char *name, double mops, int ref, double goal)
{
	struct bench_row *r = row_new(t, BENCH_ROW_RATE, name, ref, goal);

	if (!r)
		return -1;
	r->mops = mops;
	return (int)t->n++;
}

int bench_add_skipped(struct bench_table *t, enum bench_row_kind kind, const char *name,
		      const char *why)
{
	struct bench_row *r = row_new(t, kind, name, -1, 0);

	if (!r)
		return -1;
	r->skipped = 1;
	snprintf(r->note, sizeof(r->note), "%s", why);
	return (int)t->n++;
}

static const struct bench_row *ref_of(const struct bench_table *t, const struct bench_row *r)
{
	if (r->ref < 0 || (unsigned int)r->ref >= t->n || t->rows[r->ref].skipped ||
	    t->rows[r->ref].kind != r->kind)
		return NULL;
	return &t->rows[r->ref];
}

static void print_lat_rows(FILE *f, const struct bench_table *t)
{
	unsigned int i;

	fprintf(f, "| case | n | p50 ns | p99 ns | p50 ratio | p99 ratio | goal (p50) | met |\n");
	fprintf(f, "|---|--:|--:|--:|--:|--:|--:|:-:|\n");
	for (i = 0; i < t->n; i++) {
		const struct bench_row *r = &t->rows[i], *ref = ref_of(t, r);
		char r50[16] = "-", r99[16] = "-", goal[16] = "-";
		const char *met = "-";

		if (r->kind != BENCH_ROW_LAT)
			continue;
		if (r->skipped) {
			fprintf(f, "| %s | - | - | - | - | - | - | skipped: %s |\n", r->name, r->note);
			continue;
		}
		if (ref && ref->lat.p50_ns > 0 && ref->lat.p99_ns > 0) {
			double x = r->lat.p50_ns / ref->lat.p50_ns;

			snprintf(r50, sizeof(r50), "%.2fx", x);
			snprintf(r99, sizeof(r99), "%.2fx", r->lat.p99_ns / ref->lat.p99_ns);
			if (r->goal > 0) {
				snprintf(goal, sizeof(goal), "<= %.2gx", r->goal);
				met = x <= r->goal ? "yes" : "no";
			}
		}
		fprintf(f, "| %s | %" PRIu64 " | %.1f | %.1f | %s | %s | %s | %s |\n", r->name,
			r->lat.n, r->lat.p50_ns, r->lat.p99_ns, r50, r99, goal, met);
	}
}

static void print_rate_rows(FILE *f, const struct bench_table *t)
{
	unsigned int i;

	fprintf(f, "| case | Mmsg/s | ratio | goal | met |\n");
	fprintf(f, "|---|--:|--:|--:|:-:|\n");
	for (i = 0; i < t->n; i++) {
		const struct bench_row *r = &t->rows[i], *ref = ref_of(t, r);
		char ratio[16] = "-", goal[16] = "-";
		const char *met = "-";

		if (r->kind != BENCH_ROW_RATE)
			continue;
		if (r->skipped) {
			fprintf(f, "| %s | - | - | - | skipped: %s |\n", r->name, r->note);
			continue;
		}
		if (ref && ref->mops > 0) {
			double x = r->mops / ref->mops;

			snprintf(ratio, sizeof(ratio), "%.2fx", x);
			if (r->goal > 0) {
				snprintf(goal, sizeof(goal), ">= %.2gx", r->goal);
				met = x >= r->goal ? "yes" : "no";
			}
		}
		fprintf(f, "| %s | %.2f | %s | %s | %s |\n", r->name, r->mops, ratio, goal, met);
	}
}

void bench_table_print(FILE *f, const struct bench_table *t)
{
	unsigned int i, nlat = 0, nrate = 0;

	for (i = 0; i < t->n; i++) {
		if (t->rows[i].kind == BENCH_ROW_LAT)
			nlat++;
		else
			nrate++;
	}
	fprintf(f, "\n## %s\n\n", t->title);
	if (nlat)
		print_lat_rows(f, t);
	if (nlat && nrate)
		fputc('\n', f);
	if (nrate)
		print_rate_rows(f, t);
	fputc('\n', f);
	for (i = 0; i < t->n; i++) {
		const struct bench_row *r = &t->rows[i];

		if (r->skipped)
			fprintf(f, "RESULT case=\"%s\" skipped=\"%s\"\n", r->name, r->note);
		else if (r->kind == BENCH_ROW_LAT)
			fprintf(f, "RESULT case=\"%s\" n=%" PRIu64 " min_ns=%.1f p50_ns=%.1f "
				"p99_ns=%.1f\n", r->name, r->lat.n, r->lat.min_ns, r->lat.p50_ns,
				r->lat.p99_ns);
		else
			fprintf(f, "RESULT case=\"%s\" mops=%.3f\n", r->name, r->mops);
	}
	fflush(f);
}
