/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software device's own devargs (soft_devargs.c): what only this backend understands.
 * The PMD parses the generic keys (name, port, ip, ip6, mac, gen, engine, socket, mtu,
 * max_*) and hands the rest over as a "key=value,..." string (irdma_hw_dev_config's
 * backend_args), which is checked when the devargs are parsed and parsed again here at
 * dev_open. doc/guides/devargs.md lists which key belongs to which layer.
 */
#ifndef SOFT_DEVARGS_H
#define SOFT_DEVARGS_H

#include <stdbool.h>
#include <stdint.h>

#define SOFT_MAX_NEIGH 16 /* static neighbour entries (neigh=) */

/* rxq= / txq=: not given (the device takes the port over), the application's loop
 * (rxq=app / txq=app: the mbuf hand-off), or a queue of a port the application runs. */
#define SOFT_QUEUE_OWN (-1)
#define SOFT_QUEUE_APP (-2)
#define SOFT_QUEUE_MAX 1023

#define SOFT_DELAY_US_DEF 1000u    /* delay_us= / rx_delay_us= not given */
#define SOFT_DELAY_US_MAX 1000000u

struct soft_devargs {
	/* Wire fault injection, parts per million, with a seed (0 everywhere: off). */
	uint32_t drop_ppm, dup_ppm, reorder_ppm, corrupt_ppm;
	/* The same on receive (frames as the port delivers them, before any check). */
	uint32_t rx_drop_ppm, rx_dup_ppm, rx_reorder_ppm, rx_corrupt_ppm;
	/* Delay (delay=/delay_us=, rx_delay=/rx_delay_us=): that share of the frames held for
	 * that long (microseconds) before it goes on, in order among the delayed ones. */
	uint32_t delay_ppm, delay_us, rx_delay_ppm, rx_delay_us;
	uint64_t seed;
	/* Static neighbours from neigh=<ip>@<mac>[;...]: never resolved by ARP/ND and never
	 * expire. IPv4 addresses in IPv4-mapped form. */
	uint32_t n_neigh;
	struct soft_neigh_arg {
		uint8_t ip[16];
		uint8_t mac[6];
	} neigh[SOFT_MAX_NEIGH];
	int32_t rxq, txq; /* SOFT_QUEUE_OWN, SOFT_QUEUE_APP or a queue id */
};

/* The keys, NULL-terminated, in the order the guide and the messages list them. */
extern const char *const soft_devarg_keys[];

/*
 * Parses @p args ("key=value,...", only keys of soft_devarg_keys; NULL or "" for none)
 * into @p out, defaults filled in. @p full is the string named in messages (the whole
 * devargs when the PMD checks them). 0, or -EINVAL after one line naming the key and value.
 */
int soft_devargs_parse(const char *args, const char *full, struct soft_devargs *out);

/* rte_kvargs handler of neigh= (soft_devargs_neigh.c); @p opaque is the struct soft_devargs. */
int soft_devargs_neigh(const char *key, const char *value, void *opaque);

/* The log type of devargs messages (pmd.net.irdma.soft.devargs). */
extern int soft_devargs_logtype;

#endif /* SOFT_DEVARGS_H */
