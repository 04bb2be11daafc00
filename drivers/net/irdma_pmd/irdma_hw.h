/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hardware contract between the PMD and a device backend.
 *
 * It has the shape of what irdma hardware receives through its control queue (CQP): the
 * PMD plays the kernel driver's role (it owns queue memory, sizes it with lib/uk and keeps
 * the verbs state machine); the backend plays the silicon (it reads WQEs, writes CQEs and
 * hardware-owned shadow fields, moves registered memory, speaks RoCEv2). Every context a
 * backend gets is copied at the call; the queue memory and the host memory of MRs stay
 * owned by the PMD and must outlive the object that names them.
 *
 * Identifiers (PD, QP, CQ, SRQ, AH, STag) are allocated by the backend and returned by the
 * create calls, as hardware resource managers do. All calls return 0 or a negative errno.
 * Control calls (everything but progress) are not thread-safe against each other: the PMD
 * serialises them, as it serialises CQP commands. They are safe against a running engine.
 *
 * Data path: lib/uk writes WQEs and rings `wqe_alloc_db` (value = qp_id) and arms CQs through
 * the shadow area and `cqe_alloc_db` (value = cq_id). The words returned lie in the device's
 * doorbell pages (irdma_db_page.h): lib/uk's DPDK-flavoured doorbell write also marks the
 * page's summary bitmap, which the device takes with atomic exchanges, so no write is ever
 * lost and the device finds the objects that rang without a scan; it then fetches the queue
 * by valid bit, as hardware does.
 */
#ifndef IRDMA_HW_H
#define IRDMA_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_uk_attrs; /* lib/uk irdma_user.h: the generation attributes */
struct rte_mbuf;
struct irdma_hw_dev;   /* backend-private device */

/* A doorbell word no producer ever writes (ids are < 2^24). */
#define IRDMA_HW_DB_IDLE UINT32_MAX

enum irdma_hw_gen {
	IRDMA_HW_GEN_1 = 1, /* X722 */
	IRDMA_HW_GEN_2 = 2, /* E810 */
	IRDMA_HW_GEN_3 = 3, /* IPU: SRQ, atomics, 64-byte CQEs */
};

enum irdma_hw_engine {
	IRDMA_HW_ENGINE_INLINE,  /* progress() called by the lcore that polls, under a try-lock */
	IRDMA_HW_ENGINE_SERVICE, /* an rte_service the application maps to a service lcore */
};

/* Memory access rights: the values of enum ibv_access_flags, as the public RTE_PMD_IRDMA_ACCESS_*
 * flags (equality checked at build time in irdma_value_checks.c). */
#define IRDMA_HW_ACCESS_LOCAL_WRITE   0x01u
#define IRDMA_HW_ACCESS_REMOTE_WRITE  0x02u
#define IRDMA_HW_ACCESS_REMOTE_READ   0x04u
#define IRDMA_HW_ACCESS_REMOTE_ATOMIC 0x08u
#define IRDMA_HW_ACCESS_MW_BIND       0x10u
#define IRDMA_HW_ACCESS_ZERO_BASED    0x20u

/* Asynchronous events, reported through irdma_hw_dev_config.async_cb. */
enum irdma_hw_event_type {
	IRDMA_HW_EVENT_CQ_ERR,           /* CQ overflow: the CQE was not written; QPs on it -> ERR */
	IRDMA_HW_EVENT_QP_FATAL,         /* QP moved to ERR by the device (local/catastrophic) */
	IRDMA_HW_EVENT_QP_REQ_ERR,       /* invalid request from the peer, QP -> ERR */
	IRDMA_HW_EVENT_QP_ACCESS_ERR,    /* protection violation by the peer, QP -> ERR */
	IRDMA_HW_EVENT_QP_LAST_WQE,      /* SRQ-attached QP in ERR has no more receive work */
	IRDMA_HW_EVENT_SRQ_LIMIT,        /* SRQ fell below its limit (then disarmed) */
	IRDMA_HW_EVENT_PORT_ERR,         /* the wire went away */
};

struct irdma_hw_event {
	enum irdma_hw_event_type type;
	uint32_t id;       /* cq_id, qp_id or srq_id, by type */
	uint16_t ae_code;  /* async-event code if any (doc/spec/irdma-uk.md §3.10), else 0 */
};

/*
 * Device configuration, derived from devargs by the PMD: the generic keys. Each field is one
 * the PMD itself needs or that any backend has: engine decides whether poll_cq drives the
 * device (a hardware backend takes the default and has no progress op), port names the
 * device's wire (the soft device's ethdev or "loop"; a hardware backend would check that it
 * names its own), addresses, MTU and limits describe any RoCE device. Keys only one backend
 * understands travel unparsed in backend_args.
 */
struct irdma_hw_dev_config {
	const char *name;          /* device name, used in logs, service and memzone names */
	enum irdma_hw_gen gen;
	enum irdma_hw_engine engine;
	int socket_id;             /* NUMA socket of the device (SOCKET_ID_ANY allowed) */
	const char *port;          /* "loop" or the name of a DPDK ethdev */
	uint8_t mac[6];            /* our MAC; all zero: the backend derives one */
	bool has_ipv4;
	uint8_t ipv4[4];           /* network order */
	bool has_ipv6;
	uint8_t ipv6[16];
	uint16_t mtu;              /* largest path MTU in bytes (256..4096); 0: 4096 */
	/* Limits; 0 takes the backend default. */
	uint32_t max_qp, max_cq, max_srq, max_mr, max_pd, max_ah;
	/* The backend's own devargs, "key=value,..." in the order given (NULL or "": none),
	 * already checked by the backend's irdma_hw_devargs.check; valid during dev_open. */
	const char *backend_args;
	/* Async events (from the engine's context; may be NULL). */
	void (*async_cb)(void *arg, const struct irdma_hw_event *ev);
	void *async_arg;
};

#define IRDMA_HW_MAX_GIDS 4

struct irdma_hw_dev_info {
	const struct irdma_uk_attrs *uk_attrs; /* generation attributes, valid until close */
	uint32_t max_qp, max_cq, max_srq, max_mr, max_pd, max_ah, max_mw;
	uint32_t max_qp_rd_atom;      /* ORD per QP */
	uint32_t max_qp_init_rd_atom; /* IRD per QP */
	uint64_t max_mr_size;
	uint32_t max_msg_size;
	uint16_t mtu;                 /* active path MTU limit in bytes */
	uint8_t mac[6];
	uint32_t n_gids;
	uint8_t gid[IRDMA_HW_MAX_GIDS][16]; /* index 0: fe80::EUI-64; then IPv4-mapped, IPv6 */
	uint32_t service_id;          /* engine=service: the rte_service id; else UINT32_MAX */
};

enum irdma_hw_qp_type {
	IRDMA_HW_QP_RC = 3, /* = IRDMA_QP_TYPE_ROCE_RC */
	IRDMA_HW_QP_UD = 4, /* = IRDMA_QP_TYPE_ROCE_UD */
};

enum irdma_hw_qp_state { /* verbs states */
	IRDMA_HW_QPS_RESET,
	IRDMA_HW_QPS_INIT,
	IRDMA_HW_QPS_RTR,
	IRDMA_HW_QPS_RTS,
	IRDMA_HW_QPS_SQD,
	IRDMA_HW_QPS_SQE,
	IRDMA_HW_QPS_ERR,
};

/* Address vector: where a QP (RC) or an AH (UD) sends. */
struct irdma_hw_av {
	uint8_t dgid[16];      /* IPv4-mapped (::ffff:a.b.c.d) means IPv4 */
	uint8_t dmac[6];
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint32_t flow_label;
	uint16_t vlan_id;      /* 0xFFFF: untagged */
};

/* Creation context of a QP: queue memory prepared by the PMD with lib/uk's sizing. */
struct irdma_hw_qp_ctx {
	enum irdma_hw_qp_type type;
	uint32_t pd_id;
	void *sq_base;          /* SQ ring, sq_depth quanta of 32 bytes */
	uint64_t sq_iova;
	uint32_t sq_depth;      /* quanta */
	uint8_t sq_shift;       /* log2 quanta of the largest SQ WQE */
	void *rq_base;          /* RQ ring (NULL with an SRQ) */
	uint64_t rq_iova;
	uint32_t rq_depth;      /* quanta; the RQ holds rq_depth >> rq_shift WQEs */
	uint8_t rq_shift;       /* log2 quanta per RQ WQE */
	bool use_srq;
	uint32_t srq_id;
	uint32_t send_cq_id;
	uint32_t recv_cq_id;
	void *shadow_area;      /* 64 bytes; the device writes the SQ tail into qword 0 */
	uint64_t shadow_iova;
	uint64_t compl_ctx;     /* completion context: CQE qword 1 (the struct irdma_qp_uk address) */
	uint32_t max_inline;    /* max inline bytes the QP accepts (checked by the device) */
	uint32_t max_sq_frags;  /* max SGEs per SQ WR */
	uint32_t max_rq_frags;  /* max SGEs per RQ WR */
	uint32_t max_send_wr;   /* send WRs the QP asked for: the device sizes its per-WR
				 * transport state by it (0: sq_depth) */
};

/* Attributes for modify/query (verbs semantics, selected by mask). */
#define IRDMA_HW_QP_ATTR_STATE              (1u << 0)
#define IRDMA_HW_QP_ATTR_ACCESS_FLAGS       (1u << 1)
#define IRDMA_HW_QP_ATTR_QKEY               (1u << 2)
#define IRDMA_HW_QP_ATTR_AV                 (1u << 3)
#define IRDMA_HW_QP_ATTR_PATH_MTU           (1u << 4)
#define IRDMA_HW_QP_ATTR_TIMEOUT            (1u << 5)
#define IRDMA_HW_QP_ATTR_RETRY_CNT          (1u << 6)
#define IRDMA_HW_QP_ATTR_RNR_RETRY          (1u << 7)
#define IRDMA_HW_QP_ATTR_RQ_PSN             (1u << 8)
#define IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC   (1u << 9)
#define IRDMA_HW_QP_ATTR_MIN_RNR_TIMER      (1u << 10)
#define IRDMA_HW_QP_ATTR_SQ_PSN             (1u << 11)
#define IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC (1u << 12)
#define IRDMA_HW_QP_ATTR_DEST_QPN           (1u << 13)

struct irdma_hw_qp_attr {
	enum irdma_hw_qp_state state;
	uint32_t access_flags;       /* IRDMA_HW_ACCESS_REMOTE_* accepted from the peer */
	uint32_t qkey;               /* UD */
	struct irdma_hw_av av;       /* RC: the peer */
	uint16_t path_mtu;           /* bytes: 256, 512, 1024, 2048, 4096 */
	uint8_t timeout;             /* local ACK timeout 4.096 us << timeout; 0 = none */
	uint8_t retry_cnt;
	uint8_t rnr_retry;           /* 7 = infinite */
	uint8_t min_rnr_timer;       /* RNR NAK timer code we send */
	uint8_t max_rd_atomic;       /* ORD */
	uint8_t max_dest_rd_atomic;  /* IRD */
	uint32_t rq_psn;             /* 24 bits */
	uint32_t sq_psn;             /* 24 bits */
	uint32_t dest_qpn;
};

struct irdma_hw_cq_ctx {
	void *cq_base;           /* cq_size slots of 32 bytes, or 64 with cqe_64byte */
	uint64_t cq_iova;
	uint32_t cq_size;        /* slots, the value given to irdma_uk_cq_init */
	bool cqe_64byte;         /* avoid_mem_cflct: 64-byte slots (GEN_3) */
	void *shadow_area;       /* 64 bytes: qword 0 consumer head, qword 4 arm word */
	uint64_t shadow_iova;
	/* Completion events after an arm: eventfd is written 1 (-1: none), then the callback. */
	int eventfd;
	void (*event_cb)(void *arg, uint32_t cq_id);
	void *event_arg;
};

struct irdma_hw_srq_ctx {
	uint32_t pd_id;
	void *srq_base;
	uint64_t srq_iova;
	uint32_t srq_depth;      /* quanta; the ring holds srq_depth >> srq_shift WQEs */
	uint8_t srq_shift;       /* log2 quanta per SRQ WQE */
	uint32_t max_frags;
	void *shadow_area;       /* qword 0: software producer index */
	uint64_t shadow_iova;
	uint32_t limit;          /* SRQ_LIMIT event threshold in WQEs (0: disarmed) */
};

struct irdma_hw_mr_ctx {
	uint32_t pd_id;
	uint64_t va;             /* first address as posted in SGEs and RETHs (0 if zero-based) */
	uint64_t length;
	void *host_addr;         /* where the first byte lives in this process */
	uint64_t iova;           /* for DMA-capable backends; the soft device ignores it */
	uint32_t access;         /* IRDMA_HW_ACCESS_* */
};

enum irdma_hw_mw_type {
	IRDMA_HW_MW_TYPE_1 = 1,
	IRDMA_HW_MW_TYPE_2 = 2,
};

/* QP 1 (GSI): one CM MAD received, with the address it came from. */
struct irdma_hw_mad {
	uint8_t sgid[16];
	uint8_t smac[6];
	uint8_t data[256];
};

struct irdma_hw_gsi_stats {
	uint64_t rx_mads;        /* CM MADs queued for gsi_recv */
	uint64_t tx_mads;
	uint64_t rx_overflow;    /* dropped: gsi_recv did not keep up */
	uint64_t rx_bad_qkey;    /* to QP 1 with a Q_Key other than 0x80010000 */
	uint64_t rx_bad_opcode;  /* to QP 1 but not a UD SEND Only */
	uint64_t rx_bad_length;  /* not 256 bytes of MAD */
	uint64_t rx_other_class; /* a MAD of another management class: no agent here */
	uint64_t tx_errors;
	uint64_t rx_bad_base_version;    /* MAD base version is not 1 */
	uint64_t tx_unsupported_replies; /* Get/Set no agent takes, answered (GetResp 0x000C) */
	uint64_t rx_class[8];            /* MADs received, by enum irdma_cm_gsi_class */
	uint64_t tx_class[8];            /* MADs sent, by class */
};

struct irdma_hw_ops {
	const char *name;

	int (*dev_open)(const struct irdma_hw_dev_config *cfg, struct irdma_hw_dev **dev,
			struct irdma_hw_dev_info *info);
	/* Fails with -EBUSY while objects exist. */
	int (*dev_close)(struct irdma_hw_dev *dev);

	int (*pd_alloc)(struct irdma_hw_dev *dev, uint32_t *pd_id);
	int (*pd_dealloc)(struct irdma_hw_dev *dev, uint32_t pd_id);

	/* Returns the id and the arm doorbell for irdma_cq_uk_init_info.cqe_alloc_db. */
	int (*cq_create)(struct irdma_hw_dev *dev, const struct irdma_hw_cq_ctx *ctx,
			 uint32_t *cq_id, uint32_t **cqe_alloc_db);
	int (*cq_destroy)(struct irdma_hw_dev *dev, uint32_t cq_id);
	/* New CQEs go to the new ring (head 0, polarity 1) from this call on. */
	int (*cq_resize)(struct irdma_hw_dev *dev, uint32_t cq_id, void *cq_base,
			 uint64_t cq_iova, uint32_t cq_size);
	/* Replaces the event channel of a CQ (eventfd -1 and cb NULL: none). */
	int (*cq_set_event)(struct irdma_hw_dev *dev, uint32_t cq_id, int eventfd,
			    void (*event_cb)(void *arg, uint32_t cq_id), void *event_arg);

	/* Returns the id and the SQ doorbell for irdma_qp_uk_init_info.wqe_alloc_db. */
	int (*qp_create)(struct irdma_hw_dev *dev, const struct irdma_hw_qp_ctx *ctx,
			 uint32_t *qp_id, uint32_t **wqe_alloc_db);
	/* Applies the attributes of `mask`; the PMD has validated the transition. A move to
	 * ERR flushes outstanding work with flush CQEs; to RESET forgets it. Work posted to a
	 * QP already in ERR: sends are flushed by their doorbell (the device fetches the SQ
	 * and completes it flushed), receives, which ring no doorbell, by a modify to ERR
	 * again (the PMD's flush request, irdma_post.c). */
	int (*qp_modify)(struct irdma_hw_dev *dev, uint32_t qp_id,
			 const struct irdma_hw_qp_attr *attr, uint32_t mask);
	/* Current attributes; the device may have moved the QP to ERR on its own. */
	int (*qp_query)(struct irdma_hw_dev *dev, uint32_t qp_id, struct irdma_hw_qp_attr *attr);
	/* Stops all work on the QP; CQEs already written stay (irdma_uk_clean_cq). */
	int (*qp_destroy)(struct irdma_hw_dev *dev, uint32_t qp_id);

	int (*srq_create)(struct irdma_hw_dev *dev, const struct irdma_hw_srq_ctx *ctx,
			  uint32_t *srq_id);
	int (*srq_destroy)(struct irdma_hw_dev *dev, uint32_t srq_id);
	int (*srq_arm)(struct irdma_hw_dev *dev, uint32_t srq_id, uint32_t limit);

	/* Returns the STag (lkey = rkey): index << 8 | key. */
	int (*mr_reg)(struct irdma_hw_dev *dev, const struct irdma_hw_mr_ctx *ctx,
		      uint32_t *stag);
	int (*mr_dereg)(struct irdma_hw_dev *dev, uint32_t stag);

	/* A memory window, unbound; bound later by a bind WQE on a QP of the same PD. */
	int (*mw_alloc)(struct irdma_hw_dev *dev, uint32_t pd_id, enum irdma_hw_mw_type type,
			uint32_t *stag);
	int (*mw_dealloc)(struct irdma_hw_dev *dev, uint32_t stag);

	/* The id goes into UD send WQEs (ah_id). */
	int (*ah_create)(struct irdma_hw_dev *dev, uint32_t pd_id, const struct irdma_hw_av *av,
			 uint32_t *ah_id);
	int (*ah_destroy)(struct irdma_hw_dev *dev, uint32_t ah_id);

	/* Bounded engine step: rx burst, doorbells, timers, tx. Returns the work done (>= 0).
	 * Safe from any lcore: a caller that finds the engine busy returns 0 at once. */
	int (*progress)(struct irdma_hw_dev *dev, unsigned int budget);

	/* engine=inline: the doorbell of a post, taken at once by the posting lcore, the way
	 * hardware starts fetching at the doorbell write. Returns 1 when the engine ran a step
	 * that took the QP's new WQEs (the caller rings no doorbell), 0 when another lcore is
	 * in the engine (the caller rings it, and that step or the next takes it). Optional
	 * (NULL: the caller always rings). */
	int (*sq_kick)(struct irdma_hw_dev *dev, uint32_t qp_id, unsigned int budget);

	/* Counters: qp_id < 0 selects the device's own set, else that QP's. Names are DPDK
	 * style (rx_icrc_errors, tx_packets, retransmits, rx_rnr_naks...). Both return the
	 * number of counters (when n is smaller, nothing is written). */
	int (*xstats_names)(struct irdma_hw_dev *dev, int64_t qp_id, const char **names,
			    unsigned int n);
	int (*xstats_get)(struct irdma_hw_dev *dev, int64_t qp_id, uint64_t *values,
			  unsigned int n);
	int (*xstats_reset)(struct irdma_hw_dev *dev, int64_t qp_id);

	/* QP 1: send one 256-byte CM MAD to dgid's QP 1 / take up to n received ones /
	 * counters. Optional (NULL: the device has no GSI). */
	int (*gsi_send)(struct irdma_hw_dev *dev, const uint8_t dgid[16], const uint8_t *mad);
	int (*gsi_recv)(struct irdma_hw_dev *dev, struct irdma_hw_mad *mads, unsigned int n);
	int (*gsi_stats)(struct irdma_hw_dev *dev, struct irdma_hw_gsi_stats *st);

	/* Bytes of device state the QP holds beyond its queue memory (NULL: not known). */
	size_t (*qp_state_bytes)(struct irdma_hw_dev *dev, uint32_t qp_id);

	/* The mbuf hand-off of a port the application owns (rte_pmd_irdma_rx_burst and
	 * rte_pmd_irdma_tx_drain). port_rx takes up to n frames (the ones taken are the
	 * device's); port_drain gives up to n frames to send (the caller's). Both return the
	 * count, or -ENOTSUP when the device was not opened for it. Optional (NULL: none). */
	int (*port_rx)(struct irdma_hw_dev *dev, struct rte_mbuf **pkts, unsigned int n);
	int (*port_drain)(struct irdma_hw_dev *dev, struct rte_mbuf **pkts, unsigned int n);
};

/*
 * A backend's own devargs. The PMD parses the keys every device has (name, port, addresses,
 * gen, engine, socket, mtu, limits); any other key must be one of `keys`, and those go to
 * the backend as irdma_hw_dev_config.backend_args. `check` validates them while the PMD
 * parses (before anything is opened): 0, or -EINVAL after one log line naming the key and
 * value; `full` is the whole devargs string, for that line.
 */
struct irdma_hw_devargs {
	const char *backend;             /* the first devargs token, e.g. "soft" */
	const char *const *keys;         /* NULL-terminated */
	int (*check)(const char *args, const char *full);
};

/* The software device (drivers/net/irdma_pmd/soft). */
extern const struct irdma_hw_ops irdma_soft_ops;
extern const struct irdma_hw_devargs irdma_soft_devargs; /* soft/soft_devargs.c */

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_HW_H */
