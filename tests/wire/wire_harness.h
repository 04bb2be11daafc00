/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * In-process harness of the wire tests: EAL start with the project's flags and cleanup of
 * the runtime directory, and a "link": two net_ring ethdevs whose transmit rings the test
 * forwards to the other's receive ring (optionally writing every frame to a pcap file,
 * so tshark can read what the devices sent).
 */
#ifndef WIRE_HARNESS_H
#define WIRE_HARNESS_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "irdma_test.h"

static char wh_runtime_dir[PATH_MAX];

static int wh_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void wh_cleanup(void)
{
	rte_eal_cleanup();
	if (wh_runtime_dir[0] != '\0')
		nftw(wh_runtime_dir, wh_rm, 8, FTW_DEPTH | FTW_PHYS);
}

/* EAL on one core with @p extra arguments (NULL-terminated, may be NULL). Skips the whole
 * binary when EAL cannot start. */
static inline void wh_eal_init(const char *name, const char *core, const char *const *extra)
{
	char prefix[96];
	char *argv[32];
	int argc = 0;

	snprintf(prefix, sizeof(prefix), "--file-prefix=irdma_wire_%s_%d", name, (int)getpid());
	argv[argc++] = (char *)name;
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"512";
	argv[argc++] = (char *)"--no-shconf";
	argv[argc++] = prefix;
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)core;
	argv[argc++] = (char *)"--log-level=lib.eal:error";
	if (getenv("WIRE_DEBUG") != NULL)
		argv[argc++] = (char *)"--log-level=pmd.net.irdma.*:debug";
	while (extra != NULL && *extra != NULL && argc < 31)
		argv[argc++] = (char *)*extra++;
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		char msg[160];

		snprintf(msg, sizeof(msg), "EAL could not start: %s", rte_strerror(rte_errno));
		t_skip_all(msg);
	}
	snprintf(wh_runtime_dir, sizeof(wh_runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(wh_cleanup);
}

struct wh_link {
	struct rte_ring *in[2], *out[2];  /* port i receives from in[i], sends into out[i] */
	uint16_t port[2];
	FILE *pcap;
	uint64_t frames[2];               /* forwarded from port i */
	bool hold;                        /* when set, frames stay in out[] (tests read them) */
};

/* Ports @p a and @p b (ethdev names) with their rings. Returns 0 or -1. */
static inline int wh_link_create(struct wh_link *l, const char *a, const char *b)
{
	const char *names[2] = { a, b };
	char rn[64];
	int i, p;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < 2; i++) {
		snprintf(rn, sizeof(rn), "%s_in", names[i]);
		l->in[i] = rte_ring_create(rn, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(rn, sizeof(rn), "%s_out", names[i]);
		l->out[i] = rte_ring_create(rn, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (l->in[i] == NULL || l->out[i] == NULL)
			return -1;
		p = rte_eth_from_rings(names[i], &l->in[i], 1, &l->out[i], 1, SOCKET_ID_ANY);
		if (p < 0)
			return -1;
		l->port[i] = (uint16_t)p;
	}
	return 0;
}

/* pcap (not pcapng): global header, then one record per frame. */
static inline int wh_pcap_open(struct wh_link *l, const char *path)
{
	static const uint32_t hdr[6] = { 0xa1b2c3d4u, 0x00040002u, 0, 0, 65535, 1 };

	l->pcap = fopen(path, "wb");
	if (l->pcap == NULL)
		return -1;
	fwrite(hdr, sizeof(hdr), 1, l->pcap);
	return 0;
}

static inline void wh_pcap_write(FILE *f, const struct rte_mbuf *m)
{
	uint8_t frame[RTE_MBUF_DEFAULT_BUF_SIZE * 4];
	const void *d = rte_pktmbuf_read(m, 0, RTE_MIN(m->pkt_len, sizeof(frame)), frame);
	struct timeval tv;
	uint32_t rec[4];

	gettimeofday(&tv, NULL);
	rec[0] = (uint32_t)tv.tv_sec;
	rec[1] = (uint32_t)tv.tv_usec;
	rec[2] = RTE_MIN(m->pkt_len, (uint32_t)sizeof(frame));
	rec[3] = m->pkt_len;
	fwrite(rec, sizeof(rec), 1, f);
	fwrite(d, rec[2], 1, f);
}

/* Moves what each port sent to the other port. Returns frames moved. */
static inline unsigned int wh_link_pump(struct wh_link *l)
{
	struct rte_mbuf *m[64];
	unsigned int i, n, k, total = 0;

	if (l->hold)
		return 0;
	for (i = 0; i < 2; i++) {
		n = rte_ring_dequeue_burst(l->out[i], (void **)m, RTE_DIM(m), NULL);
		for (k = 0; k < n && l->pcap != NULL; k++)
			wh_pcap_write(l->pcap, m[k]);
		k = rte_ring_enqueue_burst(l->in[i ^ 1], (void **)m, n, NULL);
		if (k < n)
			rte_pktmbuf_free_bulk(m + k, n - k);
		l->frames[i] += n;
		total += n;
	}
	return total;
}

static inline void wh_link_close(struct wh_link *l)
{
	struct rte_mbuf *m = NULL; /* gcc -O2 cannot see the dequeue set it */
	int i;

	if (l->pcap != NULL)
		fclose(l->pcap);
	for (i = 0; i < 2; i++) {
		while (l->in[i] && rte_ring_dequeue(l->in[i], (void **)&m) == 0)
			rte_pktmbuf_free(m);
		while (l->out[i] && rte_ring_dequeue(l->out[i], (void **)&m) == 0)
			rte_pktmbuf_free(m);
	}
}

#endif /* WIRE_HARNESS_H */
