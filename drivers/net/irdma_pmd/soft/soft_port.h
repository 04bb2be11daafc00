/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The seam between the wire (soft_wire.c: RoCEv2 frames in mbufs, fault injection, the
 * transmit backlog, the device's counters) and a port back-end, one small ops table
 * chosen when the device opens: port=loop (soft_port_loop.c) delivers to the devices of
 * this process; port=<ethdev> (soft_port_eth.c) puts any DPDK port behind the same calls
 * and owns the device's addresses on that link (ARP, IPv6 neighbour discovery, the
 * neighbour table, filtering of everything that is not RoCEv2 for us).
 *
 * One way: a port never writes the device's counters. It keeps its own (a struct
 * soft_wire_stats of which it uses the fields it decides) and reports them through
 * stats(); the wire adds them to its own when the device's xstats are read.
 */
#ifndef SOFT_PORT_H
#define SOFT_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "roce_reason.h"

struct soft_dev;
struct soft_eth_io;
struct soft_wire_stats;

/* A port back-end. open: its private state for dev (0 or a negative errno, logged);
 * close: frees it, and every frame it still holds. tx and rx keep frame order and return
 * how many frames they took/gave. A frame taken by tx belongs to the port (sent, queued
 * for address resolution or dropped and counted); route (optional) is the port's routing
 * of a frame, taken when the wire queues it and handed back to tx with it (dst[i] for
 * pkts[i]; NULL without route). rx returns only frames the wire should parse as RoCEv2;
 * with rx_marked, each is marked (soft_port_rx_mark()): the port has walked its L2 header
 * and checked that it is UDP to port 4791 for one of the device's addresses, so the wire
 * parses it from its IP header on and does not look at the addresses again. stats
 * (optional) adds the port's counters to *sum; stats_reset zeroes them. All but
 * open/close/stats/stats_reset run on the device's engine only. */
struct soft_port_ops {
	const char *name;
	int (*open)(struct soft_dev *dev, void **priv);
	void (*close)(void *priv);
	void *(*route)(void *priv, const uint8_t dgid[16]);
	unsigned int (*tx)(void *priv, struct rte_mbuf **pkts, void *const *dst, unsigned int n);
	unsigned int (*rx)(void *priv, struct rte_mbuf **pkts, unsigned int n);
	void (*stats)(const void *priv, struct soft_wire_stats *sum);
	void (*stats_reset)(void *priv);
	bool rx_marked;
};

/* The port's classification of a frame it hands to the wire: where its IP header starts
 * and which IP version it is, in the mbuf's own L2-length and packet-type fields. */
static inline void soft_port_rx_mark(struct rte_mbuf *m, uint32_t l3_off, bool ipv6)
{
	m->l2_len = l3_off;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L4_UDP |
			 (ipv6 ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV4);
}

static inline uint32_t soft_port_rx_l3_off(const struct rte_mbuf *m)
{
	return m->l2_len;
}

static inline bool soft_port_rx_ipv6(const struct rte_mbuf *m)
{
	return RTE_ETH_IS_IPV6_HDR(m->packet_type);
}

/* soft_wire.c: the back-end of a device's wire and its private state (NULL before the
 * wire is open). */
const struct soft_port_ops *soft_wire_port_ops(const struct soft_dev *dev);
void *soft_wire_port_priv(const struct soft_dev *dev);

/* soft_port_eth.c: port=<ethdev name or PCI address>. open takes the ethdev named
 * dev->cfg.port (configure, 1 rx + 1 tx queue, start; with rxq=/txq= the application's
 * port, soft_port_shared.c) and sets dev->mac to the port's MAC unless mac= was given. */
extern const struct soft_port_ops soft_port_eth_ops;
/* The queues or hand-off rings of an ethdev port's private state (soft_port_io.h). */
struct soft_eth_io *soft_port_eth_io(void *priv);

/* soft_port_handoff.c: irdma_hw_ops.port_rx / port_drain (rxq=app, txq=app). */
struct irdma_hw_dev;
int soft_port_rx(struct irdma_hw_dev *hw, struct rte_mbuf **pkts, unsigned int n);
int soft_port_drain(struct irdma_hw_dev *hw, struct rte_mbuf **pkts, unsigned int n);

/*
 * Counters of the wire, part of the device's xstats. Every frame a port receives ends in
 * exactly one of: rx_packets (handed to RoCEv2 parsing, whose failures are counted by
 * reason below, and only there), rx_arp_requests/replies, rx_nd_solicits/adverts/other, or
 * one rx_drop_* counter of this struct. The device's rx_icrc_errors, rx_malformed and
 * rx_not_roce are sums of these, made when the xstats are read (soft_wire_stats_sums()).
 */
struct soft_wire_stats {
	uint64_t rx_drop_dst_mac;      /* unicast to another MAC, or multicast not for us */
	uint64_t rx_drop_ethertype;    /* neither ARP, IPv4 nor IPv6 (LLDP, ...), or QinQ */
	uint64_t rx_drop_dst_ip;       /* IPv4/IPv6 to an address that is not ours (the port's
					* check, or the wire's for port=loop) */
	uint64_t rx_drop_not_roce;     /* IP but not UDP to port 4791 (other UDP, TCP, ICMP) */
	uint64_t rx_drop_short;        /* shorter than its L2/L3 headers, at the port */
	uint64_t rx_drop_segmented;    /* multi-segment frame that could not be linearised */
	uint64_t rx_drop_arp;          /* malformed ARP (hardware/protocol type, lengths, op) */
	uint64_t rx_drop_nd;           /* malformed ND (hop limit, checksum, lengths, options) */
	uint64_t rx_arp_requests, rx_arp_replies, tx_arp_requests, tx_arp_replies;
	uint64_t rx_arp_other;         /* of those, ARP for an address that is not ours */
	uint64_t rx_nd_solicits, rx_nd_adverts, tx_nd_solicits, tx_nd_adverts;
	uint64_t rx_nd_other;          /* valid ICMPv6 that is not NS/NA (RS, RA, MLD, ...) */
	uint64_t neigh_resolved;       /* peers learnt by ARP/ND */
	uint64_t neigh_failed;         /* resolutions that ran out of retries */
	uint64_t tx_drop_neigh_failed; /* frames dropped: peer did not answer ARP/NS */
	uint64_t tx_drop_neigh_full;   /* frames dropped: waiting queue or table full */
	uint64_t tx_drop_no_route;     /* frames to an address family we have no address in */
	uint64_t tx_port_errors;       /* frames the port refused after retries */
	/* RoCEv2 parse failures of frames for us, by lib/roce reason (ICRC, P_Key, ...). */
	uint64_t rx_drop_reason[ROCE_R_ICRC + 1];
};

/* Adds the counters of b to a (a port's report into the wire's snapshot). */
static inline void soft_wire_stats_add(struct soft_wire_stats *a, const struct soft_wire_stats *b)
{
	uint64_t *d = (uint64_t *)a;
	const uint64_t *s = (const uint64_t *)b;
	unsigned int i;

	RTE_BUILD_BUG_ON(sizeof(*a) % sizeof(uint64_t) != 0);
	for (i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

/*
 * xstats names of the lib/roce drop reasons: "rx_drop_" + roce_reason_name(r), built once
 * (soft_xstats.c), so the reason table of lib/roce is the only spelling.
 */
#define SOFT_XSTAT_NAME_LEN 48
extern char soft_reason_xstat_name[ROCE_R_NUM][SOFT_XSTAT_NAME_LEN];

/* xstats entries for struct soft_dev_stats.wire (used in soft_xstats.c's table). */
#define SOFT_WIRE_STAT(n) { #n, offsetof(struct soft_dev_stats, wire.n) }
#define SOFT_WIRE_RSTAT(r) { soft_reason_xstat_name[r], offsetof(struct soft_dev_stats, wire.rx_drop_reason[r]) }
#define SOFT_WIRE_XSTATS                                                                   \
	SOFT_WIRE_STAT(rx_drop_dst_mac), SOFT_WIRE_STAT(rx_drop_ethertype),                \
	SOFT_WIRE_STAT(rx_drop_dst_ip), SOFT_WIRE_STAT(rx_drop_not_roce),                  \
	SOFT_WIRE_STAT(rx_drop_short), SOFT_WIRE_STAT(rx_drop_segmented),                  \
	SOFT_WIRE_STAT(rx_drop_arp), SOFT_WIRE_STAT(rx_drop_nd),                           \
	SOFT_WIRE_STAT(rx_arp_requests), SOFT_WIRE_STAT(rx_arp_replies),                   \
	SOFT_WIRE_STAT(tx_arp_requests), SOFT_WIRE_STAT(tx_arp_replies),                   \
	SOFT_WIRE_STAT(rx_arp_other),                                                      \
	SOFT_WIRE_STAT(rx_nd_solicits), SOFT_WIRE_STAT(rx_nd_adverts),                     \
	SOFT_WIRE_STAT(tx_nd_solicits), SOFT_WIRE_STAT(tx_nd_adverts),                     \
	SOFT_WIRE_STAT(rx_nd_other),                                                       \
	SOFT_WIRE_STAT(neigh_resolved), SOFT_WIRE_STAT(neigh_failed),                      \
	SOFT_WIRE_STAT(tx_drop_neigh_failed), SOFT_WIRE_STAT(tx_drop_neigh_full),          \
	SOFT_WIRE_STAT(tx_drop_no_route), SOFT_WIRE_STAT(tx_port_errors),                  \
	SOFT_WIRE_RSTAT(ROCE_R_TRUNC), SOFT_WIRE_RSTAT(ROCE_R_ETHERTYPE),                  \
	SOFT_WIRE_RSTAT(ROCE_R_IP_VERSION), SOFT_WIRE_RSTAT(ROCE_R_IP_HDR),                \
	SOFT_WIRE_RSTAT(ROCE_R_IP_CSUM), SOFT_WIRE_RSTAT(ROCE_R_IP_LEN),                   \
	SOFT_WIRE_RSTAT(ROCE_R_NOT_UDP), SOFT_WIRE_RSTAT(ROCE_R_UDP_PORT),                 \
	SOFT_WIRE_RSTAT(ROCE_R_UDP_LEN), SOFT_WIRE_RSTAT(ROCE_R_UDP_CSUM),                 \
	SOFT_WIRE_RSTAT(ROCE_R_BTH_TVER), SOFT_WIRE_RSTAT(ROCE_R_OPCODE),                  \
	SOFT_WIRE_RSTAT(ROCE_R_HDR_LEN), SOFT_WIRE_RSTAT(ROCE_R_PAYLOAD),                  \
	SOFT_WIRE_RSTAT(ROCE_R_PAD), SOFT_WIRE_RSTAT(ROCE_R_PKEY),                         \
	SOFT_WIRE_RSTAT(ROCE_R_QPN), SOFT_WIRE_RSTAT(ROCE_R_ICRC)

/* Counts a RoCEv2 parse failure by its lib/roce reason. */
static inline void soft_wire_stats_parse_drop(struct soft_wire_stats *s, enum roce_reason r)
{
	if ((unsigned int)r < RTE_DIM(s->rx_drop_reason))
		s->rx_drop_reason[r]++;
}

/*
 * The device's summary counters, from the by-reason ones (each drop is counted once, where
 * it is decided): rx_icrc_errors is rx_drop_icrc; rx_not_roce the frames that are not
 * RoCEv2 and not used by ARP/ND (the port's rx_drop_ethertype, rx_drop_not_roce,
 * rx_drop_arp, rx_drop_nd, rx_arp_other and rx_nd_other, the parser's not_ip, not_udp and
 * udp_port); rx_malformed the parser's other reasons.
 */
static inline void soft_wire_stats_sums(const struct soft_wire_stats *s, uint64_t *icrc,
					uint64_t *not_roce, uint64_t *malformed)
{
	uint64_t m = 0;
	unsigned int r;

	for (r = ROCE_R_TRUNC; r <= ROCE_R_ICRC; r++)
		m += s->rx_drop_reason[r];
	*icrc = s->rx_drop_reason[ROCE_R_ICRC];
	*not_roce = s->rx_drop_reason[ROCE_R_ETHERTYPE] + s->rx_drop_reason[ROCE_R_NOT_UDP] +
		    s->rx_drop_reason[ROCE_R_UDP_PORT];
	*malformed = m - *icrc - *not_roce;
	*not_roce += s->rx_drop_ethertype + s->rx_drop_not_roce + s->rx_drop_arp +
		     s->rx_drop_nd + s->rx_arp_other + s->rx_nd_other;
}

#endif /* SOFT_PORT_H */
