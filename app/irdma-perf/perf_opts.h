/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perf_opts.h - irdma-perf's command line (the part after EAL's "--"): perftest's options
 * where they apply, plus --devargs, --loop, --all and --test. Plain C so the parser is
 * unit-tested without EAL.
 */
#ifndef IRDMA_PERF_OPTS_H
#define IRDMA_PERF_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum perf_mode {
	PERF_WRITE_LAT,
	PERF_READ_LAT,
	PERF_SEND_LAT,
	PERF_ATOMIC_LAT,
	PERF_WRITE_BW,
	PERF_READ_BW,
	PERF_SEND_BW,
	PERF_MODE_COUNT,
	PERF_MODE_NONE = -1,
};

enum perf_atomic { PERF_FETCH_AND_ADD, PERF_CMP_AND_SWAP };

#define PERF_MAX_DEVARGS 2
#define PERF_MAX_SIZE (1u << 23)       /* -a goes up to 8 MiB, as perftest */
#define PERF_DEFAULT_TIMEOUT_S 30

struct perf_opts {
	enum perf_mode mode;           /**< --test/alias; NONE with --all */
	bool all_tests;                /**< --all: the demo's sequence */
	bool loop;                     /**< --loop: both sides in this process */
	bool all_sizes;                /**< -a */
	bool size_set, iters_set, tx_depth_set;
	uint32_t size;                 /**< -s */
	uint64_t iters;                /**< -n */
	uint32_t mtu;                  /**< -m, bytes (0: the device's) */
	uint16_t tcp_port;             /**< -p */
	uint8_t ib_port;               /**< -i (accepted, must be 1) */
	int gid_index;                 /**< -x */
	bool cpu_freq_ok;              /**< -F */
	uint32_t tx_depth;             /**< -t */
	uint32_t rx_depth;             /**< -r */
	uint32_t inline_size;          /**< -I */
	bool inline_set;
	enum perf_atomic atomic;       /**< -A */
	bool report_gbits;             /**< --report_gbits */
	unsigned int timeout_s;        /**< --timeout: watchdog for every wait */
	const char *server_host;       /**< positional: client mode when set */
	const char *devargs[PERF_MAX_DEVARGS];
	unsigned int n_devargs;
};

/** Human name of a mode ("write_lat"); NULL for an invalid one. */
const char *perf_mode_name(enum perf_mode m);
/** Mode from a name ("write_lat", "ib_write_lat", "irdma_write_lat", "write-lat"). */
enum perf_mode perf_mode_from_name(const char *name);
bool perf_mode_is_lat(enum perf_mode m);

/** Fill the per-mode defaults that options left unset (size, iters, depths). */
void perf_opts_apply_defaults(struct perf_opts *o, enum perf_mode m);

/**
 * Parse @p argc/@p argv (tool options only; argv[0] is the program name, used for
 * argv[0]-style aliases such as a link named ib_write_lat).
 * @return 0; 1 when --help was printed (exit 0); -EINVAL with a one-line reason written
 *   into @p err.
 */
int perf_opts_parse(struct perf_opts *o, const char *prog, int argc, char **argv, char *err,
		    size_t errlen);

void perf_opts_usage(const char *prog);

#endif /* IRDMA_PERF_OPTS_H */
