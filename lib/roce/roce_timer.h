/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transport timers. Time is injected: every state machine call takes `now` in
 * nanoseconds from any monotonic clock, and timers are deadlines the caller polls
 * (roce_qp_next_deadline(), roce_qp_timer()). Nothing here reads a clock.
 */
#ifndef ROCE_TIMER_H
#define ROCE_TIMER_H

#include <stdint.h>

#define ROCE_TIME_NEVER UINT64_MAX

/* Local ACK timeout: 4.096 us x 2^timeout; 0 means the timer is disabled. */
static inline uint64_t roce_ack_timeout_ns(uint8_t timeout)
{
	return timeout ? 4096ull << (timeout & 31u) : ROCE_TIME_NEVER;
}

/* Minimum RNR wait of an RNR NAK timer code (IBTA table; code 0 = 655.36 ms). */
uint64_t roce_rnr_timer_ns(uint8_t code);

/* Smallest RNR timer code whose wait is at least ns (for tests and devargs). */
uint8_t roce_rnr_code_for_ns(uint64_t ns);

#endif /* ROCE_TIMER_H */
