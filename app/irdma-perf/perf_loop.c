/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --loop: both endpoints in this process, on two soft devices joined by port=loop. With two
 * lcores each side spins on its own; with one, a single loop steps both sides in turn
 * (never two spinning pollers on one core). After each run the data the peer should have
 * received is checked byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "perf_run.h"

struct loop_ctx {
	/* [0]: the client's QPs (device a), [1]: the server's (device b); -q pairs them by index */
	struct perf_side side[2][PERF_MAX_QPS];
	unsigned int nq;
	int finished[2];                /* __atomic: each side's lcore sets its own */
	int abort;                      /* __atomic: either lcore, on failure */
	uint64_t timeout_tsc;
};

static bool stalled(const struct perf_side *s, uint64_t now, uint64_t timeout)
{
	/* signed: last_progress may be newer than a 'now' read before the step */
	return !s->done && (int64_t)(now - s->last_progress) > (int64_t)timeout;
}

static void stall_error(struct perf_side *s, unsigned int timeout_s)
{
	if (!s->error) {
		s->error = -ETIMEDOUT;
		snprintf(s->err, sizeof(s->err), "%s: no progress for %u s (posted %" PRIu64
			 ", completed %" PRIu64 ", received %" PRIu64 " of %" PRIu64 ")",
			 s->client ? "client" : "server", timeout_s, s->scnt, s->ccnt, s->rcnt,
			 s->p->iters);
	}
}

/* One step of every QP of endpoint @p me that is not done yet (the done ones keep their
 * device serving). @return 1 when all are done, 0, or a negative errno. */
static int step_endpoint(struct loop_ctx *c, unsigned int me, uint64_t now, unsigned int timeout_s,
			 bool *moved)
{
	unsigned int q, done = 0;
	int rc;

	for (q = 0; q < c->nq; q++) {
		struct perf_side *s = &c->side[me][q];
		uint64_t before = s->last_progress;

		if (s->done) {
			perf_side_service(s);
			done++;
			continue;
		}
		rc = perf_side_step(s);
		if (rc < 0)
			return rc;
		if (s->last_progress != before)
			*moved = true;
		if (rc == 1)
			done++;
		else if (stalled(s, now, c->timeout_tsc)) {
			stall_error(s, timeout_s);
			return s->error;
		}
	}
	/* one progress line a second for the run: the client's */
	if (me == 0)
		perf_sides_progress(c->side[me], c->nq);
	/* send_bw's server with -D or UD receives until the client is done and 20 ms went by
	 * without a receive (what UD lost never comes) */
	if (me == 1 && done < c->nq && c->side[1][0].p->open_end &&
	    __atomic_load_n(&c->finished[0], __ATOMIC_ACQUIRE)) {
		uint64_t last = 0;

		for (q = 0; q < c->nq; q++)
			last = RTE_MAX(last, c->side[1][q].last_progress);
		if ((int64_t)(now - last) > (int64_t)(rte_get_tsc_hz() / 50)) {
			for (q = 0; q < c->nq; q++)
				c->side[1][q].done = true;
			done = c->nq;
		}
	}
	return done == c->nq;
}

/* One endpoint on its own lcore: step until done, then keep the device serving until the
 * peer is done too. */
static int side_lcore(struct loop_ctx *c, unsigned int me, unsigned int timeout_s)
{
	struct rte_pmd_irdma_dev *dev = c->side[me][0].res->dev;
	bool done = false;
	int rc = 0;

	while (!__atomic_load_n(&c->abort, __ATOMIC_RELAXED)) {
		if (!done) {
			bool moved = false;

			rc = step_endpoint(c, me, rte_rdtsc(), timeout_s, &moved);
			if (rc < 0)
				break;
			/* Nothing moved: pause, and yield the CPU if another lcore shares it. */
			if (rc == 0 && !moved)
				rte_pmd_irdma_idle(dev);
			if (rc == 1) {
				done = true;
				__atomic_store_n(&c->finished[me], 1, __ATOMIC_RELEASE);
			}
		} else {
			unsigned int q;
			int work = 0;

			if (__atomic_load_n(&c->finished[!me], __ATOMIC_ACQUIRE))
				return 0;
			for (q = 0; q < c->nq; q++)
				work += perf_side_service(&c->side[me][q]);
			if (!work)
				rte_pmd_irdma_idle(dev);
		}
	}
	__atomic_store_n(&c->abort, 1, __ATOMIC_RELAXED);
	return rc < 0 ? rc : -ECANCELED;
}

struct worker_arg {
	struct loop_ctx *c;
	unsigned int timeout_s;
	int rc;
};

static int worker_main(void *arg)
{
	struct worker_arg *w = arg;

	w->rc = side_lcore(w->c, 1, w->timeout_s);
	return 0;
}

/* One lcore: both endpoints from one loop. */
static int both_one_lcore(struct loop_ctx *c, unsigned int timeout_s)
{
	int rc[2] = { 0, 0 };
	unsigned int i;

	while (!(rc[0] == 1 && rc[1] == 1)) {
		uint64_t now = rte_rdtsc();
		bool moved = false;

		for (i = 0; i < 2; i++) {
			rc[i] = step_endpoint(c, i, now, timeout_s, &moved);
			if (rc[i] < 0)
				return rc[i];
			if (rc[i] == 1)
				__atomic_store_n(&c->finished[i], 1, __ATOMIC_RELEASE);
		}
	}
	return 0;
}

/* The first error among the QPs of both endpoints. */
static const struct perf_side *failed_side(const struct loop_ctx *c)
{
	unsigned int i, q;

	for (i = 0; i < 2; i++)
		for (q = 0; q < c->nq; q++)
			if (c->side[i][q].error)
				return &c->side[i][q];
	return &c->side[0][0];
}

static int check_bytes(const uint8_t *got, unsigned int seed, uint64_t from, uint64_t to,
		       const char *what, char *err, size_t errlen)
{
	uint64_t i;

	for (i = from; i < to; i++)
		if (got[i] != perf_pattern(seed, i)) {
			snprintf(err, errlen, "data check: %s byte %" PRIu64 " is %#04x, expected %#04x",
				 what, i, got[i], perf_pattern(seed, i));
			return -EIO;
		}
	return 0;
}

/* What arrived where, against the patterns perf_side_prepare() wrote (seed 0: client,
 * 1: server; recv half 2 x seed, send half 2 x seed + 1). */
/* The WRs a side posted: -n, or what it posted until its time was up (-D). */
static uint64_t ops_done(const struct perf_side *s)
{
	return s->limit ? s->limit : s->p->duration_tsc ? s->scnt : s->p->iters;
}

static int verify_pair(const struct perf_side *cs, const struct perf_side *ss, char *err,
		       size_t errlen)
{
	const struct perf_params *p = cs->p;
	const uint8_t *a_recv = cs->res->buf, *b_recv = ss->res->buf;
	uint64_t n = p->size, v;

	switch (p->mode) {
	case PERF_WRITE_LAT:
		/* the last byte is the iteration counter */
		if (a_recv[n - 1] != (uint8_t)ops_done(ss) || b_recv[n - 1] != (uint8_t)ops_done(cs)) {
			snprintf(err, errlen, "data check: counters %u/%u, expected %u/%u",
				 a_recv[n - 1], b_recv[n - 1], (uint8_t)ops_done(ss),
				 (uint8_t)ops_done(cs));
			return -EIO;
		}
		if (check_bytes(a_recv, 3, 0, n - 1, "client buffer", err, errlen) ||
		    check_bytes(b_recv, 1, 0, n - 1, "server buffer", err, errlen))
			return -EIO;
		return 0;
	case PERF_SEND_LAT:
		/* UD: the message follows the 40-byte GRH area */
		if (cs->res->ud) {
			a_recv += PERF_UD_GRH;
			b_recv += PERF_UD_GRH;
		}
		if (check_bytes(a_recv, 3, 0, n, "client receive buffer", err, errlen) ||
		    check_bytes(b_recv, 1, 0, n, "server receive buffer", err, errlen))
			return -EIO;
		return 0;
	case PERF_WRITE_BW:
	case PERF_SEND_BW:
		/* UD: the message follows the 40-byte GRH area */
		if (cs->res->ud)
			b_recv += PERF_UD_GRH;
		if (p->duplex && check_bytes(a_recv, 3, 0, n, "client buffer", err, errlen))
			return -EIO;
		if (p->mode == PERF_SEND_BW && !ss->rcnt) {
			snprintf(err, errlen, "data check: the server received nothing");
			return -EIO;
		}
		return check_bytes(b_recv, 1, 0, n, "server buffer", err, errlen);
	case PERF_READ_BW:
		if (p->duplex) {
			/* -b: each side read the other's receive half into its own send half */
			const uint8_t *a_send = a_recv + cs->res->slot;
			const uint8_t *b_send = b_recv + ss->res->slot;

			if (check_bytes(a_send, 2, 0, n, "client buffer (read data)", err, errlen) ||
			    check_bytes(b_send, 0, 0, n, "server buffer (read data)", err, errlen))
				return -EIO;
			return 0;
		}
		/* fall through */
	case PERF_READ_LAT:
		/* the client read the server's untouched receive half into its own */
		return check_bytes(a_recv, 2, 0, n, "client buffer (read data)", err, errlen);
	case PERF_ATOMIC_LAT:
	case PERF_ATOMIC_BW:
		memcpy(&v, b_recv, 8);
		if (p->mode == PERF_ATOMIC_BW && p->atomic == PERF_CMP_AND_SWAP) {
			if (v != 0) {
				snprintf(err, errlen, "data check: target is %" PRIu64 " after "
					 "compare-0-swap-0 atomics, expected 0", v);
				return -EIO;
			}
			return 0;
		}
		if (p->duplex) {
			uint64_t w;

			/* -b: each side added its count to the other's word */
			memcpy(&w, a_recv, 8);
			if (v != ops_done(cs) ||
			    w != ops_done(ss)) {
				snprintf(err, errlen, "data check: targets are %" PRIu64 " and %"
					 PRIu64 " after both sides' atomics", v, w);
				return -EIO;
			}
			return 0;
		}
		if (v != ops_done(cs)) {
			snprintf(err, errlen, "data check: target is %" PRIu64 " after %" PRIu64
				 " atomics, expected %" PRIu64, v, ops_done(cs), ops_done(cs));
			return -EIO;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

static int verify(const struct loop_ctx *c, char *err, size_t errlen)
{
	unsigned int q;
	int rc = 0;

	for (q = 0; q < c->nq && rc == 0; q++) {
		rc = verify_pair(&c->side[0][q], &c->side[1][q], err, errlen);
		if (rc < 0 && c->nq > 1) {
			char e[512];

			snprintf(e, sizeof(e), "QP %u: %s", q, err);
			snprintf(err, errlen, "%s", e);
		}
	}
	return rc;
}

/* On a failure, the devices' non-zero counters say where the work stopped. */
static void dump_xstats(struct rte_pmd_irdma_dev *dev)
{
	struct rte_pmd_irdma_xstat_name *names;
	struct rte_pmd_irdma_xstat *vals;
	struct rte_pmd_irdma_dev_info info;
	int n, i;

	n = rte_pmd_irdma_xstats_get_names(dev, NULL, 0);
	if (n <= 0 || rte_pmd_irdma_dev_info(dev, &info) < 0)
		return;
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names && vals && rte_pmd_irdma_xstats_get_names(dev, names, (unsigned int)n) == n &&
	    rte_pmd_irdma_xstats_get(dev, vals, (unsigned int)n) == n) {
		fprintf(stderr, "irdma-perf: %s counters:", info.name);
		for (i = 0; i < n; i++)
			if (vals[i].value)
				fprintf(stderr, " %s=%" PRIu64, names[vals[i].id].name, vals[i].value);
		fputc('\n', stderr);
	}
	free(names);
	free(vals);
}

/* The lcore for the server side: the next worker, unless it shares a CPU with the main
 * lcore (two spinning pollers on one CPU hand off only at scheduler ticks): then both
 * sides run from one loop. RTE_MAX_LCORE: one loop. */
static unsigned int server_lcore(void)
{
	static bool told;
	unsigned int main_lcore = rte_get_main_lcore(), w;
	rte_cpuset_t a, b, both;

	w = rte_get_next_lcore(main_lcore, 1, 0);
	if (w >= RTE_MAX_LCORE)
		return RTE_MAX_LCORE;
	a = rte_lcore_cpuset(main_lcore);
	b = rte_lcore_cpuset(w);
	CPU_AND(&both, &a, &b);
	if (CPU_COUNT(&both) == 0)
		return w;
	if (!told)
		fprintf(stderr, "irdma-perf: lcores %u and %u share a CPU: both sides run from one "
			"loop on lcore %u\n", main_lcore, w, main_lcore);
	told = true;
	return RTE_MAX_LCORE;
}

static int run_size(const struct perf_opts *o, struct loop_ctx *c,
		    struct perf_res r[2][PERF_MAX_QPS], const struct perf_params *p,
		    const struct perftest_dest d[2][PERF_MAX_QPS], unsigned int nq, bool head,
		    char *err, size_t errlen)
{
	unsigned int worker = RTE_MAX_LCORE, q;
	struct worker_arg w = { c, o->timeout_s, 0 };
	int rc = 0, i;

	memset(c, 0, sizeof(*c));
	c->nq = nq;
	c->timeout_tsc = rte_get_tsc_hz() * o->timeout_s;
	for (i = 0; i < 2; i++)
		for (q = 0; q < nq; q++) {
			rc = perf_side_init(&c->side[i][q], &r[i][q], p, i == 0, d[!i][q].vaddr,
					    d[!i][q].rkey);
			if (rc < 0) {
				snprintf(err, errlen, "cannot allocate timestamps for %" PRIu64
					 " iterations", p->iters);
				goto out;
			}
		}
	for (i = 0; i < 2; i++)
		for (q = 0; q < nq; q++) {
			rc = perf_side_prepare(&c->side[i][q], (unsigned int)i);
			if (rc < 0) {
				snprintf(err, errlen, "%s", c->side[i][q].err);
				goto out;
			}
		}

	worker = server_lcore();
	if (worker < RTE_MAX_LCORE) {
		rc = rte_eal_remote_launch(worker_main, &w, worker);
		if (rc < 0) {
			snprintf(err, errlen, "cannot launch the server side on lcore %u: %s", worker,
				 strerror(-rc));
			goto out;
		}
		rc = side_lcore(c, 0, o->timeout_s);
		rte_eal_wait_lcore(worker);
		if (rc == -ECANCELED)
			rc = 0;
		if (rc == 0 && w.rc < 0)
			rc = w.rc;
	} else {
		rc = both_one_lcore(c, o->timeout_s);
	}
	if (rc < 0) {
		const struct perf_side *f = failed_side(c);

		if (nq > 1)
			snprintf(err, errlen, "QP %u: %s", (unsigned int)(f - c->side[f->client ? 0 : 1]),
				 f->err);
		else
			snprintf(err, errlen, "%s", f->err);
		dump_xstats(r[0][0].dev);
		dump_xstats(r[1][0].dev);
		goto out;
	}
	if (p->duplex) {
		struct perf_bw_stats st[2];

		perf_bw_of(c->side[0], nq, o, &st[0]);
		perf_bw_of(c->side[1], nq, o, &st[1]);
		rc = perf_print_duplex(stdout, &st[0], &st[1], o, head);
	} else {
		rc = perf_print_results(stdout, c->side[0], nq, o, head);
	}
	if (rc == -ERANGE)
		snprintf(err, errlen, "the result is below the limit of -w/-y");
	if (rc == 0)
		rc = verify(c, err, errlen);
out:
	for (i = 0; i < 2; i++)
		for (q = 0; q < nq; q++)
			perf_side_fini(&c->side[i][q]);
	return rc;
}

static int run_mode(const struct perf_opts *o, enum perf_mode m,
		    struct rte_pmd_irdma_dev *devs[2], char *err, size_t errlen)
{
	static struct loop_ctx ctx; /* big: both endpoints' sides */
	static struct perf_res r[2][PERF_MAX_QPS];
	static struct perftest_dest d[2][PERF_MAX_QPS];
	const unsigned int nq = o->num_qps ? o->num_qps : 1;
	struct perf_res_cfg cfg;
	struct perf_params p;
	struct perf_header h;
	struct perf_addr a;
	uint64_t size, first, last;
	uint32_t mtu;
	int rc = 0, i, mtu_enum;
	unsigned int q;
	bool head = true;

	bool atomic = m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW;
	bool full = o->output == PERF_OUT_FULL;

	perf_params_of(o, m, 0, &p);
	first = o->all_sizes ? 2 : (o->size_set ? o->size : 0);
	if (!o->all_sizes && !o->size_set) {
		struct perf_opts t = *o;

		perf_opts_apply_defaults(&t, m);
		first = t.size;
	}
	last = o->all_sizes ? PERF_MAX_SIZE : first;
	if (atomic)
		first = last = 8;

	memset(r, 0, sizeof(r));
	perf_res_cfg_of(o, m, &p, last, &cfg);
	for (i = 0; i < 2; i++)
		for (q = 0; q < nq; q++) {
			rc = perf_res_create(&r[i][q], devs[i], &cfg, err, errlen);
			if (rc < 0)
				goto out;
			perf_res_local_dest(&r[i][q], &d[i][q]);
		}
	mtu = o->mtu ? o->mtu : RTE_MIN(r[0][0].info.active_mtu, r[1][0].info.active_mtu);
	mtu_enum = perf_mtu_enum(mtu);
	if (!mtu_enum) {
		snprintf(err, errlen, "the devices report path MTU %u", mtu);
		rc = -EINVAL;
		goto out;
	}
	rc = perf_ud_sizes(o, mtu, &first, &last, err, errlen);
	if (rc < 0)
		goto out;
	for (i = 0; i < 2; i++)
		for (q = 0; q < nq; q++) {
			rc = perf_res_connect(&r[i][q], &d[!i][q], mtu_enum, err, errlen);
			if (rc < 0)
				goto out;
		}

	if (full) {
		perf_header_of(o, &p, &r[0][0], true, mtu, "In-process loop", &h);
		perf_print_header(stdout, &h);
		for (i = 0; i < 2; i++)
			for (q = 0; q < nq; q++) {
				perf_addr_of(&d[i][q], &a);
				perf_print_addr(stdout, i ? "remote" : "local", &a,
						perf_addr_style_of(m));
			}
		printf("%s\n", PERF_RESULT_LINE);
	}

	for (size = first; size <= last; size = size ? size * 2 : 1) {
		perf_params_of(o, m, size, &p);
		p.verify = true;
		rc = run_size(o, &ctx, r, &p, d, nq, head, err, errlen);
		head = false;
		if (rc < 0)
			break;
	}
	if (full)
		printf("%s\n", PERF_RESULT_LINE);
	fflush(stdout);
out:
	for (i = 1; i >= 0; i--)
		for (q = nq; q-- > 0;)
			if (r[i][q].dev)
				perf_res_destroy(&r[i][q]);
	return rc;
}

int perf_run_loop(const struct perf_opts *o, struct rte_pmd_irdma_dev *a,
		  struct rte_pmd_irdma_dev *b)
{
	static const enum perf_mode all[] = { PERF_WRITE_LAT, PERF_SEND_LAT, PERF_READ_LAT,
					      PERF_ATOMIC_LAT, PERF_WRITE_BW };
	struct rte_pmd_irdma_dev *devs[2] = { a, b };
	struct rte_pmd_irdma_dev_info ia, ib;
	char err[768], passed[128] = "", skipped[160] = "";
	unsigned int i, n = o->all_tests ? RTE_DIM(all) : 1, npass = 0;
	int rc;

	rte_pmd_irdma_dev_info(a, &ia);
	rte_pmd_irdma_dev_info(b, &ib);
	for (i = 0; i < n; i++) {
		enum perf_mode m = o->all_tests ? all[i] : o->mode;

		if ((m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW) &&
		    !(ia.cap_flags & ib.cap_flags & RTE_PMD_IRDMA_CAP_ATOMICS)) {
			snprintf(err, sizeof(err), "%s: the devices (gen=%u) have no atomics; "
				 "atomics need gen=3", perf_mode_name(m), RTE_MIN(ia.gen, ib.gen));
			if (!o->all_tests) {
				fprintf(stderr, "irdma-perf: %s\n", err);
				return -EOPNOTSUPP;
			}
			printf("irdma-perf: skipped %s\n", err);
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
				 ", atomic_lat skipped (gen=%u)", RTE_MIN(ia.gen, ib.gen));
			continue;
		}
		err[0] = '\0';
		rc = run_mode(o, m, devs, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "irdma-perf: %s failed: %s\n", perf_mode_name(m), err);
			return rc;
		}
		npass++;
		snprintf(passed + strlen(passed), sizeof(passed) - strlen(passed), "%s%s",
			 npass > 1 ? " " : "", perf_mode_name(m));
	}
	if (o->output == PERF_OUT_FULL)
		printf("irdma-perf: %u test%s passed (%s), data verified%s\n", npass,
		       npass == 1 ? "" : "s", passed, skipped);
	return 0;
}
