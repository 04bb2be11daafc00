/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perftest_exchange.h - perftest's out-of-band TCP exchange ("Data ex. method: Ethernet"),
 * byte for byte, so irdma-perf pairs with a real ib_write_lat & co. Formats and step order
 * as captured from perftest 4.5-0.17 (internal version "6.06") in tests/data/rxe-pcaps
 * (doc/spec/rocev2.md §6.4):
 *
 *   version   16 bytes, NUL-padded ("6.06")
 *   sysdata   cycle_buffer, cache_line_size: 4 bytes each, big-endian (peer >= 5.32)
 *   mtu       "%d\0" of the ibv_mtu enum, 2 bytes (peer >= 5.31); the smaller wins
 *   dest      108 bytes: lid:out_reads:qpn:psn:rkey:vaddr:gid[0..15]:srqn: + NUL
 *   results   8 bytes big-endian (write/read/send BW: size, iters, peak, avg, msg rate)
 *   done      "done\0"
 *
 * Every step: the client writes and then reads, the server reads and then writes.
 * Pure libc (no DPDK): the interop tests reuse it.
 */
#ifndef IRDMA_APP_PERFTEST_EXCHANGE_H
#define IRDMA_APP_PERFTEST_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "oob_sock.h"

#define PERFTEST_VERSION "6.06"
#define PERFTEST_VERSION_LEN 16
#define PERFTEST_SYSDATA_LEN 4
#define PERFTEST_MTU_LEN 2
#define PERFTEST_DEST_LEN 108
#define PERFTEST_RESULT_LEN 8
#define PERFTEST_DONE "done"
#define PERFTEST_DONE_LEN 5
#define PERFTEST_CYCLE_BUFFER 4096u
#define PERFTEST_CACHE_LINE 64u

/** One side's connection data (perftest's pingpong_dest, GID form). */
struct perftest_dest {
	uint16_t lid;          /**< 0 on RoCE */
	uint16_t out_reads;    /**< outstanding reads/atomics the side allows */
	uint32_t qpn;          /**< 24 bits */
	uint32_t psn;          /**< 24 bits */
	uint32_t rkey;
	uint64_t vaddr;
	uint8_t gid[16];       /**< wire order */
	uint32_t srqn;
};

/**
 * Write the 108-byte record (with its NUL) into @p out.
 * @return PERFTEST_DEST_LEN, or -EINVAL when qpn or psn do not fit in 24 bits.
 */
int perftest_dest_encode(const struct perftest_dest *d, char out[PERFTEST_DEST_LEN]);

/**
 * Parse a 108-byte record: every field must have its exact width of hex digits, the
 * colons must sit where the format puts them and byte 107 must be NUL.
 * @return 0, or -EPROTO (malformed; nothing is written to @p d).
 */
int perftest_dest_decode(const void *buf, size_t len, struct perftest_dest *d);

/** 16-byte NUL-padded version field. */
void perftest_version_encode(char out[PERFTEST_VERSION_LEN], const char *version);
/**
 * Parse a version field ("major.minor", NUL-terminated inside the 16 bytes).
 * @return major * 100 + minor (6.06 -> 606), or -EPROTO.
 */
int perftest_version_decode(const void *buf, size_t len);

/** ibv_mtu enum (1..5) <-> "%d\0". decode: the enum, or -EPROTO. */
void perftest_mtu_encode(char out[PERFTEST_MTU_LEN], int mtu_enum);
int perftest_mtu_decode(const void *buf, size_t len);

/** The shape of a test's exchange (what perftest does around the run). */
struct perftest_script {
	uint8_t dest_before;   /**< dest pairs before the run (the first carries the data) */
	uint8_t dest_after;    /**< dest pairs right after the run (a barrier) */
	uint8_t results;       /**< 8-byte result pairs after that (BW tests: 5) */
	uint8_t dest_final;    /**< dest pairs after the results */
	uint8_t done;          /**< "done" each way before closing */
	uint8_t per_qp;        /**< -q: bit k set when the k-th dest step before the run swaps
				*   one record per QP (the others: QP 0's only) */
};

/** Observed perftest shapes: write_lat 4/0/0/0/no; send, read, atomic lat 4/1/0/0/yes;
 *  write_bw 3/1/5/1/yes (read_bw and atomic_bw too). send_bw is shaped like the latency
 *  tests: 4/1/0/0/yes, its 4th record swapped once the server's receives are posted, and
 *  each side prints its own figures (no results step). With several QPs (-q, bandwidth
 *  tests only) perftest 4.5 swaps a record per QP in the 1st and 2nd steps of write_bw's
 *  shape (the data, then the one each side prints its peer from) and in the 1st and 3rd of
 *  send_bw's (a record of QP 0 after the connection between them), as against rxe. */
extern const struct perftest_script perftest_script_write_lat;
extern const struct perftest_script perftest_script_lat;
extern const struct perftest_script perftest_script_bw;

/** A running exchange. */
struct perftest_conn {
	int fd;
	enum oob_role role;
	int timeout_ms;            /**< per step */
	int peer_version;          /**< major * 100 + minor */
	uint32_t cycle_buffer;     /**< negotiated (max) */
	uint32_t cache_line;       /**< negotiated (max) */
	int mtu;                   /**< negotiated ibv_mtu enum (min) */
	const char *failed_step;   /**< names the step of the last failure */
	int (*idle)(void *);       /**< called while waiting for the peer (may be NULL) */
	void *idle_arg;
	/** perftest's rdma_cm mode (-R): each step is one SEND each way over an RDMA-CM
	 *  connection instead of the socket (NULL: the socket). Same order and sizes. */
	int (*swap)(void *arg, enum oob_role role, const void *mine, void *theirs, size_t len,
		    int timeout_ms);
	void *swap_arg;
};

/**
 * Versions, system data and MTU (steps 1-4). @p mtu_enum is this side's; the agreed one is
 * left in c->mtu. @return 0 or a negative errno (-EPROTO for a malformed field).
 */
int perftest_conn_start(struct perftest_conn *c, int fd, enum oob_role role, int timeout_ms,
			int mtu_enum);
/** The same, calling @p idle(@p idle_arg) while it waits (kept for the later steps). */
int perftest_conn_start_idle(struct perftest_conn *c, int fd, enum oob_role role,
			     int timeout_ms, int mtu_enum, int (*idle)(void *), void *idle_arg);
/** perftest_conn_start_idle() with the steps carried by @p swap (see struct perftest_conn). */
int perftest_conn_start_swap(struct perftest_conn *c, enum oob_role role, int timeout_ms,
			     int mtu_enum, int (*swap)(void *, enum oob_role, const void *, void *,
						       size_t, int),
			     void *swap_arg, int (*idle)(void *), void *idle_arg);
/** One dest step. @return 0 or a negative errno. */
int perftest_conn_dest(struct perftest_conn *c, const struct perftest_dest *mine,
		       struct perftest_dest *theirs);
/** One 8-byte big-endian result step. */
int perftest_conn_u64(struct perftest_conn *c, uint64_t mine, uint64_t *theirs);
/** "done" each way (both write, then both read). */
int perftest_conn_done(struct perftest_conn *c);

/** A double as perftest puts it on the wire: its IEEE-754 bits, big-endian. */
uint64_t perftest_double_bits(double v);
double perftest_bits_double(uint64_t bits);

#endif /* IRDMA_APP_PERFTEST_EXCHANGE_H */
