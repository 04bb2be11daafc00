/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CM time codes (private to lib/cm). A time code T means 4.096 us x 2^T; for CM timers
 * Linux rounds it to 2^max(T-8, 0) ms and we do the same, so that our retransmission
 * intervals are the ones a Linux peer expects (doc/spec/rdma-cm.md §5).
 */
#ifndef CM_TIME_H
#define CM_TIME_H

#include <stdint.h>

#define CM_NS_PER_MS 1000000ull

static inline uint64_t cm_time_ns(uint8_t t)
{
	return CM_NS_PER_MS << (t > 8 ? (t > 31 ? 23 : t - 8) : 0);
}

/* The QP local ACK timeout from the CA ACK delay and the packet life time. */
static inline uint8_t cm_ack_timeout(uint8_t ca_ack_delay, uint8_t plt)
{
	unsigned int t = plt + 1u, d = ca_ack_delay;

	if (t >= d)
		t += (d + 1 >= t) ? 1 : 0;
	else
		t = d + ((t + 1 >= d) ? 1 : 0);
	return (uint8_t)(t > 31 ? 31 : t);
}

#endif /* CM_TIME_H */
