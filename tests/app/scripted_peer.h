/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A scripted TCP peer for the exchange tests: a thread that listens on a free loopback port,
 * accepts (or connects, as a client) and then plays a list of steps: write these bytes, or
 * read exactly this many bytes and compare them with what the real perftest/pingpong sent.
 */
#ifndef IRDMA_TEST_SCRIPTED_PEER_H
#define IRDMA_TEST_SCRIPTED_PEER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* SP_READ: read len bytes, whatever they are. */
enum sp_op { SP_WRITE, SP_EXPECT, SP_READ, SP_CLOSE, SP_SLEEP_MS };

struct sp_step {
	enum sp_op op;
	const void *bytes; /* SP_WRITE, SP_EXPECT */
	size_t len;        /* bytes, or milliseconds for SP_SLEEP_MS */
};

struct scripted_peer {
	const struct sp_step *steps;
	unsigned int nsteps;
	int is_client;          /* connect to port instead of accepting */
	int listen_fd;
	uint16_t port;
	pthread_t thread;
	/* results */
	int failed_step;        /* -1 when every step passed */
	int error;              /* errno-style of that step, or 0 for a byte mismatch */
	size_t mismatch_at;     /* first differing byte of a failed SP_EXPECT */
};

/** Start a server peer on a free port (peer->port). @return 0 or -errno. */
int sp_start_server(struct scripted_peer *peer, const struct sp_step *steps, unsigned int n);
/** Start a client peer that connects to 127.0.0.1:@p port (retrying while refused:
 *  the program under test may still be starting). */
int sp_start_client(struct scripted_peer *peer, uint16_t port, const struct sp_step *steps,
		    unsigned int n);
/** Wait for the peer thread. */
void sp_join(struct scripted_peer *peer);

#endif
