/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Addressing for RoCEv2: GIDs are IPv6 addresses; an IPv4 address a.b.c.d is the
 * IPv4-mapped GID ::ffff:a.b.c.d and means "send IPv4".
 */
#ifndef ROCE_ADDR_H
#define ROCE_ADDR_H

#include <stddef.h>
#include <stdint.h>

#define ROCE_GID_LEN 16
#define ROCE_GID_STRLEN 46 /* INET6_ADDRSTRLEN */

/* True when gid is ::ffff:a.b.c.d. */
int roce_gid_is_ipv4(const uint8_t gid[16]);

/* gid = ::ffff:ip[0].ip[1].ip[2].ip[3] */
void roce_gid_from_ipv4(uint8_t gid[16], const uint8_t ip[4]);

/* The default link-local GID fe80::<EUI-64 of mac> (entry 0 of a RoCE GID table). */
void roce_gid_from_mac(uint8_t gid[16], const uint8_t mac[6]);

/* Parses "a.b.c.d" (to its mapped GID) or any IPv6 text form. 0 or -EINVAL. */
int roce_gid_parse(const char *s, uint8_t gid[16]);

/* Formats as dotted IPv4 for mapped GIDs, IPv6 text otherwise. Returns buf. */
char *roce_gid_format(const uint8_t gid[16], char *buf, size_t len);

/*
 * UDP source port for a connection (Linux convention, symmetric in the two QPNs):
 * flow label if non-zero, else a 20-bit fold of lqpn * rqpn; then folded to 14 bits
 * in the 0xC000 range.
 */
uint16_t roce_udp_sport(uint32_t lqpn, uint32_t rqpn, uint32_t flow_label);

/* IP multicast MAC of a multicast GID (01:00:5e:... or 33:33:...). */
void roce_mcast_mac(const uint8_t gid[16], uint8_t mac[6]);

#endif /* ROCE_ADDR_H */
