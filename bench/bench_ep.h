/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One RDMA endpoint for the benchmarks, on the public API only (rte_pmd_irdma.h): a PD, a
 * registered buffer, one CQ for sends and receives, and an RC QP, connected to a peer
 * endpoint of the same process (port=loop or an ethdev both devices share) or of another
 * process (the peer's QPN, GID and rkey given as numbers).
 */
#ifndef BENCH_EP_H
#define BENCH_EP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_pmd_irdma.h>

struct bench_ep {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_mr *mr;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	uint8_t *buf;                  /* the registered buffer, 4 KiB aligned */
	size_t len;
	union rte_pmd_irdma_gid gid;   /* the device's IPv4-mapped GID, else GID 0 */
	uint8_t gid_index;
	uint32_t psn;
	uint32_t max_inline;           /* granted */
	bool shared;                   /* PD, buffer, MR, CQ are another endpoint's */
	uint8_t path_mtu;              /* enum rte_pmd_irdma_mtu for connect; 0: 1024 */
};

/* What a peer needs to reach this endpoint. */
struct bench_ep_addr {
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint64_t addr;                 /* start of the peer's registered buffer */
	union rte_pmd_irdma_gid gid;
};

/* Creates the endpoint on @p dev: @p len bytes of buffer, @p depth send and receive WRs
 * (the CQ holds both), 8 bytes of inline data. @return 0, or a negative errno with a message in @p err. */
int bench_ep_create(struct bench_ep *ep, struct rte_pmd_irdma_dev *dev, size_t len,
		    uint32_t depth, char *err, size_t errlen);
/* @p n endpoints on @p dev sharing the first one's PD, buffer, MR and CQ (of @p cqe
 * entries): one QP each. Destroy them with bench_ep_destroy_many (the others first). */
int bench_ep_create_many(struct bench_ep *ep, unsigned int n, struct rte_pmd_irdma_dev *dev,
			 size_t len, uint32_t depth, uint32_t cqe, char *err, size_t errlen);
void bench_ep_destroy_many(struct bench_ep *ep, unsigned int n);
void bench_ep_addr_of(const struct bench_ep *ep, struct bench_ep_addr *a);
/* RESET -> INIT -> RTR -> RTS towards @p peer. */
int bench_ep_connect(struct bench_ep *ep, const struct bench_ep_addr *peer, char *err,
		     size_t errlen);
void bench_ep_destroy(struct bench_ep *ep);

/* Creates a device from @p devargs and, with engine=service, returns its service id in
 * *@p service_id (UINT32_MAX for engine=inline). NULL with a message in @p err. */
struct rte_pmd_irdma_dev *bench_dev_create(const char *devargs, uint32_t *service_id,
					   char *err, size_t errlen);

#endif /* BENCH_EP_H */
