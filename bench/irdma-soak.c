/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Soak: rounds of a device pair over net_ring until the time is up. Each round opens two
 * devices with fault injection on transmit and on receive (drop, duplicate, reorder,
 * corrupt), connects them (wire_peer: an RC and a UD QP each), runs mixed operations (SEND,
 * WRITE, READ, FETCH_ADD, sizes 1 B .. 4 KiB, a window of outstanding WRs) in which every
 * buffer is checked against its pattern and every completion must arrive exactly once, then
 * closes everything. After each round the process must hold what it held after the first:
 * the same memzones, mempools, rings and ethdev ports (no leak of queue memory, mbufs or
 * ports across create/destroy), and every round's QP numbers start where the first round's
 * did (keys follow the devargs seed, which every round changes).
 *
 *   irdma-soak [-q QPS] [SECONDS [OPS_PER_ROUND]]      (defaults 1, 60 and 4000)
 *
 * With -q N (N > 1) each round then runs N - 1 more RC QP pairs at once (soak_mqp.c):
 * another OPS_PER_ROUND operations spread over them, sizes 1 B .. 8 KiB, every buffer
 * checked and folded into a checksum, every completion exactly once and in order per QP.
 * The delay fault is part of the mix on both directions.
 *
 * Prints one line per round and a summary; exits 0 when every round was clean. TAP when
 * SOAK_TAP is set (the short version in the tests).
 */
#include <stdlib.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_mempool.h>
#include <rte_memzone.h>

#include "wire_harness.h"
#include "wire_peer.h"
#include "soak_mqp.h"

#define FAULTS ",drop=0.02,dup=0.01,reorder=0.01,corrupt=0.005," \
	       "rx_drop=0.01,rx_dup=0.01,rx_reorder=0.01,rx_corrupt=0.002," \
	       "delay=0.01,delay_us=500,rx_delay=0.01,rx_delay_us=500"

static struct wh_link lk;
static struct wp srv, cli;

static void pump(void *arg)
{
	(void)arg;
	wh_link_pump(&lk);
	wp_server_step(&srv);
}

static void count_mz(const struct rte_memzone *mz, void *arg)
{
	(void)mz;
	(*(unsigned int *)arg)++;
}

static void print_mz(const struct rte_memzone *mz, void *arg)
{
	(void)arg;
	printf("# memzone %s (%zu bytes)\n", mz->name, mz->len);
}

static void count_mp(struct rte_mempool *mp, void *arg)
{
	(void)mp;
	(*(unsigned int *)arg)++;
}

struct held {
	unsigned int memzones, mempools, ports;
};

static struct held held_now(void)
{
	struct held h = { 0, 0, 0 };

	rte_memzone_walk(count_mz, &h.memzones);
	rte_mempool_walk(count_mp, &h.mempools);
	h.ports = rte_eth_dev_count_total();
	return h;
}

struct round {
	int fails;
	uint64_t sends, frames, faults, retransmits;
	uint32_t rc_qpn;
	struct smq_result mqp;
};

static int one_round(unsigned int r, unsigned int ops, unsigned int qps, struct round *out)
{
	char a[32], b[32], da[320], db[320];
	static const char *const faults[] = {
		"tx_fault_drops", "tx_fault_dups", "tx_fault_reorders", "tx_fault_corrupts",
		"rx_fault_drops", "rx_fault_dups", "rx_fault_reorders", "rx_fault_corrupts",
		"tx_fault_delayed", "rx_fault_delayed",
	};
	unsigned int i;

	memset(out, 0, sizeof(*out));
	snprintf(a, sizeof(a), "soak%ua", r);
	snprintf(b, sizeof(b), "soak%ub", r);
	if (wh_link_create(&lk, a, b) != 0)
		return -1;
	snprintf(da, sizeof(da), "soft,port=net_ring_%s,ip=198.18.0.1,name=ssrv%u,gen=3" FAULTS
		 ",seed=%u", a, r, 2 * r + 1);
	snprintf(db, sizeof(db), "soft,port=net_ring_%s,ip=198.18.0.2,name=scli%u,gen=3" FAULTS
		 ",seed=%u", b, r, 2 * r + 2);
	if (wp_open(&srv, "server", da, 3) || wp_open(&cli, "client", db, 3))
		return -1;
	srv.peer = cli.me;
	cli.peer = srv.me;
	if (wp_connect(&srv, 8, 7) || wp_connect(&cli, 8, 7))
		return -1;
	cli.pump = pump;
	cli.timeout_s = 30;
	out->rc_qpn = cli.me.rc_qpn;
	out->fails = wp_mixed(&cli, ops, 32);
	if (srv.st.errors != 0 || srv.st.sink_seq != cli.st.sink_sent) {
		printf("# round %u: server saw %lu errors, %lu of %lu SENDs in order\n", r,
		       (unsigned long)srv.st.errors, (unsigned long)srv.st.sink_seq,
		       (unsigned long)cli.st.sink_sent);
		out->fails++;
	}
	out->sends = cli.st.sink_sent;
	if (qps > 1) {
		if (smq_run(&cli, &srv, qps - 1, ops, 4, pump, &out->mqp) != 0)
			return -1;
		out->fails += out->mqp.fails;
		out->retransmits += out->mqp.retransmits;
		if (srv.st.errors != 0) {
			printf("# round %u: server saw %lu errors\n", r, (unsigned long)srv.st.errors);
			out->fails++;
		}
	}
	out->frames = lk.frames[0] + lk.frames[1];
	for (i = 0; i < RTE_DIM(faults); i++)
		out->faults += wp_xstat(cli.dev, faults[i]) + wp_xstat(srv.dev, faults[i]);
	out->retransmits = wp_qp_xstat(cli.rc, "retransmits") + wp_qp_xstat(srv.rc, "retransmits");
	wp_close(&cli);
	wp_close(&srv);
	wh_link_close(&lk);
	for (i = 0; i < 2; i++) {
		rte_ring_free(lk.in[i]);
		rte_ring_free(lk.out[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int secs, ops, qps = 1;
	bool tap = getenv("SOAK_TAP") != NULL;
	uint64_t end, total_ops = 0, total_frames = 0, total_faults = 0, total_retx = 0;
	struct held base = { 0, 0, 0 }, now;
	struct round first = { 0 }, rd;
	unsigned int r, bad = 0;
	uint64_t mqp_ops = 0, mqp_bytes = 0;
	int opt;

	while ((opt = getopt(argc, argv, "q:")) != -1) {
		if (opt != 'q' || atoi(optarg) < 1 || atoi(optarg) > (int)SMQ_MAX_QPS + 1) {
			fprintf(stderr, "usage: irdma-soak [-q QPS 1..%u] [SECONDS [OPS_PER_ROUND]]\n",
				SMQ_MAX_QPS + 1);
			return 2;
		}
		qps = (unsigned int)atoi(optarg);
	}
	secs = optind < argc ? (unsigned int)atoi(argv[optind]) : 60;
	ops = optind + 1 < argc ? (unsigned int)atoi(argv[optind + 1]) : 4000;
	wh_eal_init("soak", "0", NULL);
	end = rte_get_timer_cycles() + (uint64_t)secs * rte_get_timer_hz();
	if (tap)
		printf("1..1\n");
	/* at least two rounds: the first one's end is the reference (DPDK allocates the
	 * memzone of its ethdev data, rte_eth_dev_data, with the first port and keeps it) */
	for (r = 0; r < 2 || rte_get_timer_cycles() < end; r++) {
		if (one_round(r, ops, qps, &rd) != 0) {
			printf("# round %u: could not set up the pair\n", r);
			bad++;
			break;
		}
		now = held_now();
		if (r == 0) {
			first = rd;
			base = now;
		}
		if (rd.fails != 0 || now.memzones != base.memzones || now.mempools != base.mempools ||
		    now.ports != base.ports || rd.rc_qpn != first.rc_qpn ||
		    rd.mqp.last_qpn != first.mqp.last_qpn || rd.mqp.ops != first.mqp.ops ||
		    rd.mqp.checksum != first.mqp.checksum) {
			printf("# round %u: %d failed operations; memzones %u (before %u), mempools %u "
			       "(%u), ports %u (%u), client RC QP %u (first round %u), last QP of "
			       "the many-QP phase %u (%u), its operations %lu (%lu) and checksum "
			       "%016lx (%016lx)\n", r, rd.fails,
			       now.memzones, base.memzones, now.mempools, base.mempools, now.ports,
			       base.ports, rd.rc_qpn, first.rc_qpn, rd.mqp.last_qpn,
			       first.mqp.last_qpn, (unsigned long)rd.mqp.ops,
			       (unsigned long)first.mqp.ops, (unsigned long)rd.mqp.checksum,
			       (unsigned long)first.mqp.checksum);
			rte_memzone_walk(print_mz, NULL);
			bad++;
		}
		total_ops += ops + rd.mqp.ops;
		mqp_ops += rd.mqp.ops;
		mqp_bytes += rd.mqp.bytes;
		total_frames += rd.frames;
		total_faults += rd.faults;
		total_retx += rd.retransmits;
		printf("# round %u: %u operations (%lu SENDs), %lu frames, %lu faults injected, "
		       "%lu retransmits", r, ops, (unsigned long)rd.sends,
		       (unsigned long)rd.frames, (unsigned long)rd.faults,
		       (unsigned long)rd.retransmits);
		if (qps > 1)
			printf("; %u more QPs: %lu operations, %lu bytes checked, checksum %016lx",
			       qps - 1, (unsigned long)rd.mqp.ops, (unsigned long)rd.mqp.bytes,
			       (unsigned long)rd.mqp.checksum);
		printf("%s\n", rd.fails ? ", FAILED" : "");
		if (bad)
			break;
	}
	printf("# soak: %u rounds, %u RC QPs per device, %lu operations (%lu on the many-QP phase, "
	       "%lu bytes checked there), %lu frames, %lu faults injected, %lu retransmits, %u bad "
	       "rounds\n", r + (bad ? 1 : 0), qps, (unsigned long)total_ops,
	       (unsigned long)mqp_ops, (unsigned long)mqp_bytes, (unsigned long)total_frames,
	       (unsigned long)total_faults, (unsigned long)total_retx, bad);
	if (tap)
		printf("%s 1 - soak: every operation once with the right data, nothing held "
		       "after a round\n", bad ? "not ok" : "ok");
	return bad ? 1 : 0;
}
