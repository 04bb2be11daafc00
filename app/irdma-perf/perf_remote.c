/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Client/server across processes (or against a real perftest): perftest's TCP exchange on
 * port 18515, then one side of the test on this lcore. While the exchange waits for the
 * peer, the device keeps serving it (the inline engine has no thread of its own).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_service.h>

#include "oob_sock.h"

#include "perf_rdma_cm.h"
#include "perf_run.h"

/* The endpoint's QPs (-q): one side each, one device. */
struct remote_group {
	struct perf_side *s;
	unsigned int n;
};

static int serve(void *arg)
{
	struct remote_group *g = arg;
	struct perf_side *s = &g->s[0];
	unsigned int i;
	int work = 0;

	for (i = 0; i < g->n; i++)
		work += perf_side_service(&g->s[i]);
	if (work)
		s->last_progress = rte_rdtsc();
	else
		rte_pmd_irdma_idle(s->res->dev);
	/* the passive side waits for the client's end as long as its device is busy */
	if (s->watch_tsc && rte_rdtsc() - s->last_progress > s->watch_tsc)
		return -ETIMEDOUT;
	return 0;
}

#define PERF_LEAVE_WAIT_MS 2000

/* The client's end: waits until the server closed the exchange (EOF), bounded. */
static void wait_peer_close(int fd, int timeout_ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * (uint64_t)timeout_ms;
	uint8_t b;

	while (oob_read_exact(fd, &b, 1, timeout_ms) == 0 && rte_get_timer_cycles() < end)
		; /* a byte (a peer that is not irdma-perf): read on until EOF */
}

/* The server's end: after this its device touches the port no more until it is closed
 * (the inline engine runs only in our calls; a service engine is stopped here). */
static void quiesce(struct rte_pmd_irdma_dev *dev)
{
	struct rte_pmd_irdma_dev_info info;
	unsigned int i;

	if (rte_pmd_irdma_dev_info(dev, &info) < 0 || info.engine != RTE_PMD_IRDMA_ENGINE_SERVICE)
		return;
	rte_service_runstate_set(info.service_id, 0);
	for (i = 0; i < 1000 && rte_service_may_be_active(info.service_id) == 1; i++)
		rte_delay_us_sleep(1000);
}

/* Serve for @ms milliseconds: lets the last ACKs of a test leave before the QP goes. */
static void linger(struct remote_group *g, unsigned int ms)
{
	uint64_t end = rte_rdtsc() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_rdtsc() < end)
		serve(g);
}

static const struct perftest_script *script_of(enum perf_mode m)
{
	if (m == PERF_WRITE_LAT)
		return &perftest_script_write_lat;
	/* send_bw is shaped like the latency tests (perftest's send_bw.c flow) */
	return perf_mode_is_lat(m) || m == PERF_SEND_BW ? &perftest_script_lat : &perftest_script_bw;
}

static int exch_fail(const struct perftest_conn *c, int rc, const char *host)
{
	fprintf(stderr, "irdma-perf: exchange with %s failed at the %s step: %s\n",
		host ? host : "the client", c->failed_step ? c->failed_step : "?",
		rc == -EPROTO ? "malformed message" : strerror(-rc));
	return rc;
}

/* The passive side of these tests has nothing to do per size: it waits for the client. */
static bool server_idle(enum perf_mode m)
{
	return m == PERF_READ_LAT || m == PERF_ATOMIC_LAT || m == PERF_WRITE_BW ||
	       m == PERF_READ_BW || m == PERF_ATOMIC_BW;
}

/* Run one size to its end on every QP (or an error, or the watchdog). */
static int run_one(const struct perf_opts *o, struct remote_group *g,
		   struct rte_pmd_irdma_dev *dev)
{
	struct perf_side *s = NULL;
	uint64_t last = rte_rdtsc();
	unsigned int i, done;
	int rc = 0;

	for (i = 0; i < g->n; i++)
		g->s[i].last_progress = last;
	for (;;) {
		bool moved = false;

		for (i = 0, done = 0; i < g->n; i++) {
			uint64_t before = g->s[i].last_progress;

			s = &g->s[i];
			rc = perf_side_step(s);
			if (rc < 0)
				break;
			done += rc == 1;
			if (s->last_progress != before) {
				moved = true;
				last = s->last_progress;
			}
		}
		if (rc < 0 || done == g->n)
			break;
		perf_sides_progress(g->s, g->n);
		if (!moved) {
			/* -e: sleep until the CQ has something (a second at most: the watchdog
			 * below still runs) */
			if (o->use_events && g->s[0].res->evfd >= 0) {
				struct perf_res *res[PERF_MAX_QPS];

				for (i = 0; i < g->n; i++)
					res[i] = g->s[i].res;
				perf_res_wait_events(res, g->n, rte_rdtsc() + rte_get_tsc_hz());
			} else {
				rte_pmd_irdma_idle(dev);
			}
		}
		if (rte_rdtsc() - last > rte_get_tsc_hz() * o->timeout_s) {
			snprintf(s->err, sizeof(s->err), "no progress for %u s (posted %" PRIu64
				 ", completed %" PRIu64 ", received %" PRIu64 ")", o->timeout_s,
				 s->scnt, s->ccnt, s->rcnt);
			rc = -ETIMEDOUT;
			break;
		}
	}
	if (rc < 0 && g->n > 1)
		fprintf(stderr, "irdma-perf: %s failed on QP %u: %s\n", perf_mode_name(s->p->mode),
			(unsigned int)(s - g->s), s->err);
	else if (rc < 0)
		fprintf(stderr, "irdma-perf: %s failed: %s\n", perf_mode_name(s->p->mode), s->err);
	return rc < 0 ? rc : 0;
}

/* The idle step of send_bw's open-ended server while it waits for the client's record: its
 * QPs keep receiving (and reposting), with the --timeout watchdog on their progress. */
struct open_end_wait {
	struct remote_group *g;
	uint64_t timeout_tsc;
};

static int receive_step(void *arg)
{
	struct open_end_wait *w = arg;
	struct remote_group *g = w->g;
	uint64_t last = 0;
	unsigned int i, k;
	int rc;

	for (k = 0; k < 16; k++)
		for (i = 0; i < g->n; i++) {
			rc = perf_side_step(&g->s[i]);
			if (rc < 0)
				return rc;
		}
	for (i = 0; i < g->n; i++)
		last = RTE_MAX(last, g->s[i].last_progress);
	return rte_rdtsc() - last > w->timeout_tsc ? -ETIMEDOUT : 0;
}

static int receive_until_the_client_is_done(const struct perf_opts *o, struct perftest_conn *c,
					    struct remote_group *g,
					    const struct perftest_dest *mine,
					    struct perftest_dest *theirs)
{
	struct open_end_wait w = { g, rte_get_tsc_hz() * o->timeout_s };
	int (*idle)(void *) = c->idle;
	void *idle_arg = c->idle_arg;
	int timeout_ms = c->timeout_ms, rc;
	uint64_t quiet_since, hz = rte_get_tsc_hz();
	unsigned int i;

	for (i = 0; i < g->n; i++)
		g->s[i].last_progress = rte_rdtsc();
	c->idle = receive_step;
	c->idle_arg = &w;
	c->timeout_ms = -1; /* the run's length is the client's: the watchdog is on progress */
	rc = perftest_conn_dest(c, &mine[0], &theirs[0]);
	c->idle = idle;
	c->idle_arg = idle_arg;
	c->timeout_ms = timeout_ms;
	if (rc < 0)
		return rc;
	/* what is still on its way (UD) or in the CQ: until 20 ms go by without a receive */
	quiet_since = rte_rdtsc();
	while (rte_rdtsc() - quiet_since < hz / 50) {
		uint64_t before = 0, after = 0;

		for (i = 0; i < g->n; i++)
			before += g->s[i].rcnt;
		if (receive_step(&w) < 0)
			break;
		for (i = 0; i < g->n; i++)
			after += g->s[i].rcnt;
		if (after != before)
			quiet_since = rte_rdtsc();
	}
	for (i = 0; i < g->n; i++)
		g->s[i].done = true;
	return 0;
}

/* One record step before the run: the script says which carry a record per QP (the data,
 * and its repetition that perftest prints the peer from), the others are QP 0's. */
static int dest_step(struct perftest_conn *c, const struct perftest_script *sc, unsigned int step,
		     unsigned int nq, const struct perftest_dest *mine, struct perftest_dest *theirs)
{
	unsigned int i, n = step < 8 && (sc->per_qp >> step & 1) ? nq : 1;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = perftest_conn_dest(c, &mine[i], &theirs[i]);
	return rc;
}

int perf_run_remote(const struct perf_opts *o, struct rte_pmd_irdma_dev *dev)
{
	const bool client = o->server_host != NULL;
	const bool full = o->output == PERF_OUT_FULL;
	const int tmo = (int)o->timeout_s * 1000;
	const enum perf_mode m = o->mode;
	const bool atomic = m == PERF_ATOMIC_LAT || m == PERF_ATOMIC_BW;
	const bool sync_each = m == PERF_SEND_LAT || m == PERF_SEND_BW;
	const unsigned int nq = o->num_qps ? o->num_qps : 1;
	const bool open_end = !client && m == PERF_SEND_BW && !o->duplex &&
			      (o->duration_s || o->ud);
	struct perftest_script script = *script_of(m);
	const struct perftest_script *sc = &script;
	/* not static: a test runs a client and a server of this function at once */
	struct perftest_dest mine[PERF_MAX_QPS], theirs[PERF_MAX_QPS];
	struct perf_res r[PERF_MAX_QPS];
	struct perf_side s[PERF_MAX_QPS];
	struct remote_group g = { s, nq };
	struct perftest_conn c;
	struct perf_cm cm = { 0 }; /* -R (perf_rdma_cm.c) */
	struct perf_params p;
	struct perf_res_cfg cfg;
	struct perf_header h;
	struct perf_addr a;
	char err[256] = "";
	int lfd = -1, fd = -1, rc, i, mtu_enum, before;
	unsigned int q;
	uint64_t results[5] = { 0 }, got[5] = { 0 }, size, first, last;
	bool head = true, measured = false, below = false;

	memset(r, 0, sizeof(r));
	memset(s, 0, sizeof(s));
	for (q = 0; q < PERF_MAX_QPS; q++)
		r[q].evfd = -1;
	/* perftest's -b: a record swapped right before the run, both sides report to each
	 * other, no barrier after the run (write_bw.c's duplex flow) */
	if (o->duplex && m == PERF_SEND_BW) {
		/* send_bw.c: the reports right after the run, then the closing record */
		script.results = 5;
		script.dest_final = script.dest_after;
		script.dest_after = 0;
	} else if (o->duplex) {
		script.dest_before++;
		script.dest_after = 0;
	}
	{
		struct perf_opts t = *o;

		perf_opts_apply_defaults(&t, m);
		first = o->all_sizes ? 2 : t.size;
		last = o->all_sizes ? PERF_MAX_SIZE : first;
		if (atomic)
			first = last = 8;
		/* the passive side of a client-driven test runs one (empty) round */
		if (!client && !o->duplex && server_idle(m))
			last = first;
	}
	perf_params_of(o, m, first, &p);
	perf_res_cfg_of(o, m, &p, o->all_sizes && !atomic ? PERF_MAX_SIZE : first, &cfg);
	for (q = 0; q < nq; q++) {
		rc = perf_res_create(&r[q], dev, &cfg, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "irdma-perf: %s%s\n", nq > 1 ? "-q: " : "", err);
			goto out;
		}
	}
	if (atomic && !(r[0].info.cap_flags & RTE_PMD_IRDMA_CAP_ATOMICS)) {
		fprintf(stderr, "irdma-perf: %s: the device (gen=%u) has no atomics; "
			"atomics need gen=3\n", perf_mode_name(m), r[0].info.gen);
		rc = -EOPNOTSUPP;
		goto out;
	}
	mtu_enum = perf_mtu_enum(o->mtu ? o->mtu : r[0].info.active_mtu);
	rc = perf_ud_sizes(o, perf_mtu_bytes(mtu_enum), &first, &last, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "irdma-perf: %s\n", err);
		goto out;
	}
	/* The sides' state lives through the exchange: serve() drains their CQs meanwhile. */
	for (q = 0; q < nq; q++) {
		rc = perf_side_init(&s[q], &r[q], &p, client, 0, 0);
		if (rc < 0) {
			fprintf(stderr, "irdma-perf: out of memory for %" PRIu64 " timestamps\n",
				p.iters);
			goto out;
		}
	}
	/* write_lat polls a byte per size that the peer's earlier sizes never wrote: fill and
	 * clear the buffers once, before the peer knows where they are (it may write as soon
	 * as it has our record, before this side returns from the exchange: seen with -R) */
	if (m == PERF_WRITE_LAT) {
		rc = perf_side_prepare(&s[0], client ? 0 : 1);
		if (rc < 0) {
			fprintf(stderr, "irdma-perf: %s\n", s[0].err[0] ? s[0].err : "out of memory");
			goto out;
		}
		if (o->all_sizes)
			memset(r[0].buf, 0, r[0].slot);
	}

	if (o->rdma_cm) {
		rc = perf_cm_start(&cm, o, dev, &c, mtu_enum, serve, &g);
		if (rc == 0)
			rc = perf_cm_connect_test(&cm, &r[0]);
		if (rc < 0)
			goto out;
		goto exchange_started;
	}
	if (client) {
		fd = oob_connect(o->server_host, o->tcp_port, tmo);
		if (fd < 0) {
			fprintf(stderr, "irdma-perf: cannot connect to %s:%u: %s\n", o->server_host,
				o->tcp_port, strerror(-fd));
			rc = fd;
			goto out;
		}
	} else {
		lfd = oob_listen(o->tcp_port);
		if (lfd < 0) {
			fprintf(stderr, "irdma-perf: cannot listen on TCP port %u: %s\n", o->tcp_port,
				strerror(-lfd));
			rc = lfd;
			goto out;
		}
		if (full) {
			printf("\n************************************\n"
			       "* Waiting for client to connect... *\n"
			       "************************************\n");
			fflush(stdout);
		}
		fd = oob_accept_idle(lfd, tmo, serve, &g);
		if (fd < 0) {
			fprintf(stderr, "irdma-perf: no client connected to port %u within %u s: %s\n",
				o->tcp_port, o->timeout_s, strerror(-fd));
			rc = fd;
			goto out;
		}
	}

	rc = perftest_conn_start_idle(&c, fd, client ? OOB_CLIENT : OOB_SERVER, tmo, mtu_enum,
				      serve, &g);
	if (rc < 0) {
		exch_fail(&c, rc, o->server_host);
		goto out;
	}
exchange_started:
	for (q = 0; q < nq; q++)
		perf_res_local_dest(&r[q], &mine[q]);
	rc = dest_step(&c, sc, 0, nq, mine, theirs);
	if (rc < 0) {
		exch_fail(&c, rc, o->server_host);
		goto out;
	}
	rc = perf_ud_sizes(o, perf_mtu_bytes(c.mtu), &first, &last, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "irdma-perf: %s (the MTU the peer agreed to)\n", err);
		goto out;
	}
	for (q = 0; q < nq; q++) {
		/* -R: RDMA-CM moved the QP already */
		rc = o->rdma_cm ? 0 : perf_res_connect(&r[q], &theirs[q], c.mtu, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "irdma-perf: %s\n", err);
			goto out;
		}
	}
	if (full) {
		perf_header_of(o, &p, &r[0], client, perf_mtu_bytes(c.mtu),
			       o->rdma_cm ? "rdma_cm" : "Ethernet", &h);
		perf_print_header(stdout, &h);
		for (q = 0; q < nq; q++) {
			perf_addr_of(&mine[q], &a);
			perf_print_addr(stdout, "local", &a, perf_addr_style_of(m));
		}
		for (q = 0; q < nq; q++) {
			perf_addr_of(&theirs[q], &a);
			perf_print_addr(stdout, "remote", &a, perf_addr_style_of(m));
		}
		printf("%s\n", PERF_RESULT_LINE);
		fflush(stdout);
	}
	/* The send tests swap their last record before the run once per size, after the
	 * receives are posted (below). */
	before = sc->dest_before - (sync_each ? 1 : 0);
	for (i = 1; i < before; i++) {
		rc = dest_step(&c, sc, (unsigned int)i, nq, mine, theirs);
		if (rc < 0) {
			exch_fail(&c, rc, o->server_host);
			goto out;
		}
	}

	for (size = first; size <= last; size *= 2) {
		perf_params_of(o, m, size, &p);
		for (q = 0; q < nq; q++) {
			perf_side_fini(&s[q]);
			rc = perf_side_init(&s[q], &r[q], &p, client, theirs[q].vaddr,
					    theirs[q].rkey);
			if (rc == 0 && m != PERF_WRITE_LAT) /* write_lat's: above */
				rc = perf_side_prepare(&s[q], client ? 0 : 1);
			if (rc < 0) {
				fprintf(stderr, "irdma-perf: %s\n",
					s[q].err[0] ? s[q].err : "out of memory");
				goto out;
			}
		}
		if (sync_each) {
			rc = perftest_conn_dest(&c, &mine[0], &theirs[0]);
			if (rc < 0) {
				exch_fail(&c, rc, o->server_host);
				goto out;
			}
		}
		/* send_bw's server with -D or UD receives until the client's next record (the
		 * one after each size with -a, else the first after the run) */
		if (open_end) {
			rc = receive_until_the_client_is_done(o, &c, &g, mine, theirs);
			if (rc < 0) {
				exch_fail(&c, rc, o->server_host);
				goto out;
			}
		} else {
			rc = run_one(o, &g, dev);
		}
		if (rc < 0)
			goto out;
		if (perf_side_measures(&s[0]) && !o->duplex) {
			if (perf_print_results(stdout, s, nq, o, head) == -ERANGE)
				below = true;
			head = false;
			measured = true;
		}
		/* perftest's send_bw -a swaps a record after each size */
		if (m == PERF_SEND_BW && o->all_sizes && !open_end) {
			rc = perftest_conn_dest(&c, &mine[0], &theirs[0]);
			if (rc < 0) {
				exch_fail(&c, rc, o->server_host);
				goto out;
			}
		}
	}

	/* The passive side of a client-driven test waits here for the whole run (all sizes
	 * with -a): no step timeout, but --timeout without any device activity. */
	if (!client && server_idle(m) && !o->duplex) {
		c.timeout_ms = -1;
		s[0].watch_tsc = rte_get_tsc_hz() * o->timeout_s;
		s[0].last_progress = rte_rdtsc();
	}
	for (i = open_end && !o->all_sizes ? 1 : 0; i < sc->dest_after; i++) {
		rc = perftest_conn_dest(&c, &mine[0], &theirs[0]);
		if (rc < 0) {
			exch_fail(&c, rc, o->server_host);
			goto out;
		}
	}
	c.timeout_ms = tmo;
	s[0].watch_tsc = 0;
	if (sc->results) {
		/* The client reports its last size to the server: size, iterations, then peak,
		 * average and message rate as doubles (perftest's report exchange). */
		if (client || o->duplex) {
			struct perf_bw_stats st;

			perf_bw_of(s, nq, o, &st);
			results[0] = st.size;
			results[1] = st.iters;
			results[2] = perftest_double_bits(st.bw_peak);
			results[3] = perftest_double_bits(st.bw_avg);
			results[4] = perftest_double_bits(st.msg_rate);
		}
		for (i = 0; i < sc->results && i < 5; i++) {
			rc = perftest_conn_u64(&c, results[i], &got[i]);
			if (rc < 0) {
				exch_fail(&c, rc, o->server_host);
				goto out;
			}
		}
	}
	for (i = 0; i < sc->dest_final; i++) {
		rc = perftest_conn_dest(&c, &mine[0], &theirs[0]);
		if (rc < 0) {
			exch_fail(&c, rc, o->server_host);
			goto out;
		}
	}
	if (sc->done && !o->rdma_cm) { /* no "done" over RDMA-CM: the disconnect says it */
		rc = perftest_conn_done(&c);
		if (rc < 0) {
			exch_fail(&c, rc, o->server_host);
			goto out;
		}
	}

	if (o->duplex) {
		struct perf_bw_stats mine_st, theirs_st = {
			.size = got[0], .iters = got[1], .bw_peak = perftest_bits_double(got[2]),
			.bw_avg = perftest_bits_double(got[3]),
			.msg_rate = perftest_bits_double(got[4]),
		};

		perf_bw_of(s, nq, o, &mine_st);
		below = perf_print_duplex(stdout, &mine_st, &theirs_st, o, true) < 0;
		measured = true;
	} else if (!measured && sc->results && !client) {
		struct perf_bw_stats st = {
			.size = got[0], .iters = got[1], .bw_peak = perftest_bits_double(got[2]),
			.bw_avg = perftest_bits_double(got[3]),
			.msg_rate = perftest_bits_double(got[4]),
		};

		if (o->output == PERF_OUT_BANDWIDTH) {
			printf("%lf\n", st.bw_avg);
		} else if (o->output == PERF_OUT_MSG_RATE) {
			printf("%lf\n", st.msg_rate);
		} else if (full) {
			perf_print_bw_head(stdout, o->report_gbits);
			perf_print_bw_row(stdout, &st);
		}
		below = perf_check_limits(o, &st) < 0;
		measured = true;
	}
	if (measured && full)
		printf("%s\n", PERF_RESULT_LINE);
	fflush(stdout);
	/* Our last ACKs (write_lat has no closing barrier) must reach the peer. */
	linger(&g, 100);
	rc = below ? -ERANGE : 0;
out:
	perf_cm_close(&cm);
	for (q = 0; q < PERF_MAX_QPS; q++) {
		perf_side_fini(&s[q]);
		if (r[q].dev)
			perf_res_destroy(&r[q]);
	}
	if (fd >= 0) {
		/* The sides leave in turn: the server closes the exchange once it no longer
		 * uses its device, and the client's port goes only after that. Over net_memif
		 * (DPDK 22.11) the peer's disconnect is handled on the EAL interrupt thread,
		 * which unmaps the shared rings with no event first and no lock against
		 * rte_eth_rx_burst/tx_burst: a burst in progress in the server at that moment
		 * crashed it (drivers/net/irdma_pmd/soft/README.md, "Closing a net_memif port").
		 * Bounded: a peer that waits for our close first costs the timeout. */
		if (client)
			wait_peer_close(fd, PERF_LEAVE_WAIT_MS);
		else
			quiesce(dev);
		close(fd);
	}
	if (lfd >= 0)
		close(lfd);
	return rc;
}
