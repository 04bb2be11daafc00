/* SPDX-License-Identifier: BSD-3-Clause */
#include "raw_eth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bench_time.h"

#define RAW_ETHERTYPE 0x88b5
#define CTL_HDR 14 /* MACs, EtherType */

int raw_wait_link(uint16_t port, unsigned int ms)
{
	struct rte_eth_link link;
	unsigned int i;

	for (i = 0; i <= ms; i += 10) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(port, &link) == 0 && link.link_status)
			return 0;
		rte_delay_ms(10);
	}
	return -ETIMEDOUT;
}

int raw_port_start(uint16_t port, struct rte_mempool *mp, char *err, size_t errlen)
{
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL, mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	if (rc < 0) {
		snprintf(err, errlen, "port %u: configure/start: %s", port, rte_strerror(-rc));
		return rc;
	}
	if (raw_wait_link(port, 10000) < 0) {
		snprintf(err, errlen, "port %u: link still down after 10 s (is the peer running?)",
			 port);
		return -ETIMEDOUT;
	}
	return 0;
}

void raw_port_stop(uint16_t port)
{
	rte_eth_dev_stop(port);
}

static inline bool is_ctl(const struct rte_mbuf *m)
{
	return m->data_len == RAW_CTL_LEN;
}

int raw_ping(uint16_t port, struct rte_mempool *mp, uint16_t size, uint64_t iters,
	     uint64_t warmup, uint64_t *rtt)
{
	struct rte_mbuf *b[RAW_BURST], *m;
	uint64_t k, t0, limit = rte_get_tsc_hz();
	uint16_t n;

	if (size == RAW_CTL_LEN)
		size++;
	for (k = 0; k < warmup + iters; k++) {
		t0 = bench_ticks();
		m = rte_pktmbuf_alloc(mp);
		if (unlikely(m == NULL || rte_pktmbuf_append(m, size) == NULL))
			return -ENOMEM;
		while (rte_eth_tx_burst(port, 0, &m, 1) != 1)
			;
		for (;;) {
			n = rte_eth_rx_burst(port, 0, b, RAW_BURST);
			if (n && !is_ctl(b[n - 1]))
				break;
			/* a late control frame is no answer */
			rte_pktmbuf_free_bulk(b, n);
			if (unlikely(bench_ticks() - t0 > limit))
				return -ETIMEDOUT;
		}
		if (k >= warmup)
			rtt[k - warmup] = bench_ticks() - t0;
		rte_pktmbuf_free_bulk(b, n);
	}
	return 0;
}

double raw_flood(uint16_t port, struct rte_mempool *mp, uint16_t size, double seconds)
{
	struct rte_mbuf *b[RAW_BURST];
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_get_tsc_cycles(), end, now, sent = 0, iter = 0;
	uint64_t starved = 0;
	uint16_t i, have = 0, s;

	if (size == RAW_CTL_LEN)
		size++;
	end = t0 + (uint64_t)(seconds * (double)hz);
	for (;;) {
		/* Refused frames stay for the next burst: a full ring costs a retry, not an
		 * alloc/free cycle. */
		if (have == 0) {
			if (rte_pktmbuf_alloc_bulk(mp, b, RAW_BURST) == 0) {
				for (i = 0; i < RAW_BURST; i++)
					b[i]->data_len = b[i]->pkt_len = size;
				have = RAW_BURST;
				starved = 0;
			} else if (starved == 0) {
				starved = rte_get_tsc_cycles();
			} else if (rte_get_tsc_cycles() - starved > hz) {
				return -1.0;
			}
		}
		if (have) {
			s = rte_eth_tx_burst(port, 0, b + RAW_BURST - have, have);
			have = (uint16_t)(have - s);
			sent += s;
		}
		if ((++iter & 63) == 0) {
			now = rte_get_tsc_cycles();
			if (now >= end) {
				if (have)
					rte_pktmbuf_free_bulk(b + RAW_BURST - have, have);
				return (double)sent / ((double)(now - t0) / (double)hz) / 1e6;
			}
		}
	}
}

int raw_send_ctl(uint16_t port, struct rte_mempool *mp, const void *payload, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	unsigned int tries;
	uint8_t *d;

	if (m == NULL || len > RAW_CTL_LEN - CTL_HDR) {
		rte_pktmbuf_free(m);
		return m ? -EINVAL : -EAGAIN;
	}
	d = (uint8_t *)rte_pktmbuf_append(m, RAW_CTL_LEN);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return -EAGAIN;
	}
	memset(d, 0, RAW_CTL_LEN);
	d[0] = 0x02; /* locally administered */
	d[6] = 0x02;
	d[12] = RAW_ETHERTYPE >> 8;
	d[13] = RAW_ETHERTYPE & 0xff;
	memcpy(d + CTL_HDR, payload, len);
	for (tries = 0; tries < 1000; tries++) {
		if (rte_eth_tx_burst(port, 0, &m, 1) == 1)
			return 0;
		rte_delay_us(10);
	}
	rte_pktmbuf_free(m);
	return -EAGAIN;
}

/* One burst: data frames echoed or dropped, the first control frame's payload kept. */
static int serve_burst(uint16_t port, bool echo, void *payload, size_t len)
{
	struct rte_mbuf *b[RAW_BURST], *keep[RAW_BURST], *drop[RAW_BURST];
	uint16_t n, i, nk = 0, nd = 0, s;
	int got = -EAGAIN;

	n = rte_eth_rx_burst(port, 0, b, RAW_BURST);
	for (i = 0; i < n; i++) {
		if (unlikely(is_ctl(b[i]))) {
			if (got < 0) {
				size_t have = RAW_CTL_LEN - CTL_HDR;

				got = (int)(have < len ? have : len);
				memcpy(payload, rte_pktmbuf_mtod_offset(b[i], uint8_t *, CTL_HDR),
				       (size_t)got);
			}
			drop[nd++] = b[i];
		} else if (echo) {
			keep[nk++] = b[i];
		} else {
			drop[nd++] = b[i];
		}
	}
	if (nk) {
		s = rte_eth_tx_burst(port, 0, keep, nk);
		if (s < nk)
			rte_pktmbuf_free_bulk(keep + s, nk - s);
	}
	if (nd)
		rte_pktmbuf_free_bulk(drop, nd);
	return got;
}

int raw_poll_ctl(uint16_t port, bool echo, void *payload, size_t len)
{
	return serve_burst(port, echo, payload, len);
}

int raw_serve(uint16_t port, bool echo, void *payload, size_t len, unsigned int timeout_ms)
{
	uint64_t end = timeout_ms ? rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * timeout_ms :
			UINT64_MAX;
	uint64_t iter = 0;
	int got;

	for (;;) {
		got = serve_burst(port, echo, payload, len);
		if (got >= 0)
			return got;
		if ((++iter & 1023) == 0 && rte_get_tsc_cycles() > end)
			return -ETIMEDOUT;
	}
}
