/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_pmd_irdma.h - public API of the irdma poll-mode RDMA driver.
 *
 * Verbs-shaped: the objects (device, PD, MR, CQ, QP, SRQ, AH, MW), the QP state machine,
 * the attribute masks, the work-request and work-completion layouts and every enum value
 * follow libibverbs, so a verbs programmer finds what they expect. DPDK-flavoured: devices
 * come from a devargs string, objects are created on the device's NUMA socket, the data
 * path is bursts over arrays, and nothing on it blocks, locks, allocates or enters the
 * kernel.
 *
 * Conventions
 * - Functions returning int give 0 (or a count) on success and a negative errno on failure.
 * - Functions returning a pointer give NULL on failure and set rte_errno (positive errno).
 * - Every failure is logged under pmd.net.irdma.* with the reason.
 * - The public structs below (rte_pmd_irdma_mr, _qp, ...) are handles whose fields are
 *   read-only for the application; the driver keeps its private state behind them.
 * - Threading (DPDK's queue model): one lcore at a time posts to a QP and one lcore at a
 *   time polls a CQ. Control calls (create, modify, destroy) are serialised per device
 *   internally and must not race with data-path calls on the same object.
 */
#ifndef RTE_PMD_IRDMA_H
#define RTE_PMD_IRDMA_H

#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * Device
 * ------------------------------------------------------------------------------------- */

struct rte_pmd_irdma_dev;

/** Length of device names ("irdma0", or the devargs key name=). */
#define RTE_PMD_IRDMA_NAME_LEN 32

/** Device capability flags (rte_pmd_irdma_dev_info.cap_flags). */
enum rte_pmd_irdma_dev_cap {
	RTE_PMD_IRDMA_CAP_SRQ = 1u << 0,         /**< shared receive queues (GEN_3) */
	RTE_PMD_IRDMA_CAP_ATOMICS = 1u << 1,     /**< fetch-add, compare-swap (GEN_3) */
	RTE_PMD_IRDMA_CAP_MW_TYPE1 = 1u << 2,    /**< memory windows type 1 */
	RTE_PMD_IRDMA_CAP_MW_TYPE2 = 1u << 3,    /**< memory windows type 2 */
	RTE_PMD_IRDMA_CAP_CQ_RESIZE = 1u << 4,   /**< rte_pmd_irdma_cq_resize() */
	RTE_PMD_IRDMA_CAP_CQE_64B = 1u << 5,     /**< 64-byte CQEs (GEN_3) */
	RTE_PMD_IRDMA_CAP_UD = 1u << 6,          /**< unreliable datagram QPs */
	RTE_PMD_IRDMA_CAP_IMM = 1u << 7,         /**< send/write with immediate */
};

/** How the device engine runs (devargs engine=). */
enum rte_pmd_irdma_engine {
	RTE_PMD_IRDMA_ENGINE_INLINE = 0,  /**< driven by rte_pmd_irdma_progress() / poll_cq */
	RTE_PMD_IRDMA_ENGINE_SERVICE = 1, /**< an rte_service the application maps to a lcore */
};

/** Global identifier (RoCEv2: IPv6 or IPv4-mapped address). */
union rte_pmd_irdma_gid {
	uint8_t raw[16];
	struct {
		rte_be64_t subnet_prefix;
		rte_be64_t interface_id;
	} global;
};

/** Device attributes, from rte_pmd_irdma_dev_info(). Limits are per device. */
struct rte_pmd_irdma_dev_info {
	char name[RTE_PMD_IRDMA_NAME_LEN]; /**< registry name, e.g. "irdma0" */
	char backend[16];                  /**< "soft" */
	char port[64];                     /**< devargs port= ("loop" or an ethdev name) */
	uint8_t gen;                       /**< irdma generation: 1, 2 or 3 (hw_rev) */
	int socket_id;                     /**< NUMA socket of all queue memory */
	enum rte_pmd_irdma_engine engine;
	uint32_t service_id;               /**< valid when engine == SERVICE */
	uint32_t cap_flags;                /**< enum rte_pmd_irdma_dev_cap */
	uint8_t mac[6];
	uint16_t active_mtu;               /**< bytes of RoCE payload per packet (256..4096) */
	union rte_pmd_irdma_gid gid;       /**< GID index 0 (link-local, from the MAC) */
	uint32_t max_qp;
	uint32_t max_qp_wr;                /**< largest max_send_wr a QP may ask for */
	uint32_t max_sge;                  /**< SGEs per send/recv WR */
	uint32_t max_sge_rd;               /**< SGEs per RDMA READ */
	uint32_t max_inline_data;          /**< bytes */
	uint32_t max_cq;
	uint32_t max_cqe;
	uint32_t max_mr;
	uint64_t max_mr_size;
	uint32_t max_pd;
	uint32_t max_ah;
	uint32_t max_mw;
	uint32_t max_srq;
	uint32_t max_srq_wr;
	uint32_t max_srq_sge;
	uint32_t max_qp_rd_atom;           /**< responder resources (max_dest_rd_atomic) */
	uint32_t max_qp_init_rd_atom;      /**< initiator depth (max_rd_atomic) */
	uint32_t max_msg_sz;
};

/**
 * Create a device from a devargs string.
 *
 *   "soft,port=loop,ip=198.18.0.1,mac=02:00:00:00:00:01,gen=2,engine=inline"
 *
 * The first token names the backend (only "soft" today). Keys (see doc/guides/devargs.md):
 *   name=<str>           registry name (default irdma<N>)
 *   port=loop|<ethdev>   the wire: in-process loop, or a DPDK port by name
 *   ip=<ipv4>            the device's IPv4 address (its IPv4-mapped GID follows the
 *                        link-local GID of index 0)
 *   ip6=<ipv6>           an IPv6 address (next GID index)
 *   mac=<xx:xx:xx:xx:xx:xx>  (GID index 0 is the link-local GID derived from it)
 *   neigh=<ip>@<mac>[;...]   static neighbours on an ethdev port (no ARP/ND for them)
 *   gen=1|2|3            irdma generation whose formats and limits the device has (default 2)
 *   engine=inline|service
 *   socket=<n>           NUMA socket for queue memory (default: the port's, else the caller's)
 *   mtu=256|512|1024|2048|4096   path MTU ceiling (default 1024)
 *   max_qp=, max_cq=, max_mr=, max_srq=, max_pd=, max_ah=   resource limits
 *   drop=, dup=, reorder=, corrupt= <rate 0..1 or n%>, seed=<n>   wire fault injection
 * An unknown key or a bad value fails with -EINVAL and a log line that names the key and
 * lists the valid keys (or the valid values).
 *
 * @return the device, or NULL with rte_errno set (EINVAL, EEXIST for a duplicate name,
 *   ENODEV for an unknown port, ENOMEM).
 */
struct rte_pmd_irdma_dev *rte_pmd_irdma_dev_create(const char *devargs);

/**
 * Close a device. Every object created on it must have been destroyed first.
 * @return 0, -EBUSY (objects still exist; the log lists them), -EINVAL.
 */
int rte_pmd_irdma_dev_close(struct rte_pmd_irdma_dev *dev);

/** Fill @p info. @return 0 or -EINVAL. */
int rte_pmd_irdma_dev_info(const struct rte_pmd_irdma_dev *dev,
			   struct rte_pmd_irdma_dev_info *info);

/** Look a device up by registry name. @return the device or NULL (rte_errno ENODEV). */
struct rte_pmd_irdma_dev *rte_pmd_irdma_dev_get_by_name(const char *name);

/** Number of open devices. */
unsigned int rte_pmd_irdma_dev_count(void);

/** Read GID @p index of the device. @return 0, -EINVAL (index out of range). */
int rte_pmd_irdma_query_gid(const struct rte_pmd_irdma_dev *dev, unsigned int index,
			    union rte_pmd_irdma_gid *gid);

/**
 * Run the device engine for up to @p budget units of work (doorbells, packets, timers).
 * Needed with engine=inline; poll_cq also calls it. Safe from any lcore: concurrent callers
 * do not block (one of them runs the engine, the others return 0 at once).
 * @return work done (>= 0), or a negative errno.
 */
int rte_pmd_irdma_progress(struct rte_pmd_irdma_dev *dev, unsigned int budget);

/** One CM MAD received on QP 1 (GSI), with the address it came from. */
struct rte_pmd_irdma_mad {
	union rte_pmd_irdma_gid sgid; /**< the sender (IPv4-mapped for IPv4) */
	uint8_t smac[6];              /**< its MAC */
	uint8_t data[256];            /**< the MAD: give it to irdma_cm_rx() of lib/cm */
};

/** QP 1 counters. */
struct rte_pmd_irdma_gsi_stats {
	uint64_t rx_mads;        /**< CM MADs queued for rte_pmd_irdma_gsi_recv() */
	uint64_t tx_mads;        /**< MADs sent */
	uint64_t rx_overflow;    /**< dropped: the queue (64) was full */
	uint64_t rx_bad_qkey;    /**< to QP 1 with a Q_Key other than 0x80010000 */
	uint64_t rx_bad_opcode;  /**< to QP 1 but not a UD SEND Only */
	uint64_t rx_bad_length;  /**< not 256 bytes of MAD */
	uint64_t rx_other_class; /**< MADs of another management class (no agent) */
	uint64_t tx_errors;      /**< no source address or no buffer */
	uint64_t rx_bad_base_version;    /**< MAD base version is not 1 */
	uint64_t tx_unsupported_replies; /**< Get/Set requests no agent takes, answered as
					  *   Linux does: GetResp, status 0x000C */
	uint64_t rx_class[8];    /**< MADs received by class: CM, SA, performance, baseboard,
				  *   device management, SNMP, vendor, other (lib/cm's
				  *   enum irdma_cm_gsi_class) */
	uint64_t tx_class[8];    /**< MADs sent, by class */
};

/**
 * Send one 256-byte CM MAD to QP 1 of @p dgid (UD, Q_Key 0x80010000). It leaves with the
 * next rte_pmd_irdma_progress(). @return 0, -EINVAL, -ENOTSUP (no GSI on this device),
 * -EADDRNOTAVAIL (no local GID of that family), -ENOBUFS.
 */
int rte_pmd_irdma_gsi_send(struct rte_pmd_irdma_dev *dev, const union rte_pmd_irdma_gid *dgid,
			   const uint8_t *mad, size_t len);

/**
 * Take up to @p n CM MADs received on QP 1 (filled by rte_pmd_irdma_progress()). One
 * caller at a time. @return the number taken (>= 0), -EINVAL or -ENOTSUP.
 */
int rte_pmd_irdma_gsi_recv(struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_mad *mads,
			   unsigned int n);

/** Read the QP 1 counters. @return 0, -EINVAL or -ENOTSUP. */
int rte_pmd_irdma_gsi_stats(const struct rte_pmd_irdma_dev *dev,
			    struct rte_pmd_irdma_gsi_stats *stats);

/**
 * Call from a busy-poll loop when a poll found nothing. Pauses; when the calling lcore shares
 * its CPU with another lcore (detected once, and warned about) it also yields the CPU, so two
 * pollers on one core hand off at once instead of after a scheduler tick.
 */
void rte_pmd_irdma_idle(struct rte_pmd_irdma_dev *dev);

/* ---------------------------------------------------------------------------------------
 * A port the application owns (devargs port=<ethdev>,rxq=<n>|app,txq=<n>|app)
 * ------------------------------------------------------------------------------------- */

struct rte_mbuf;

/**
 * Is @p m a frame for the device? RoCEv2 (UDP port 4791) to one of its IP addresses, ARP
 * for its IPv4 address, IPv6 neighbour solicitations and advertisements for its addresses;
 * untagged or with one 802.1Q tag. Reads only the headers (no state, no lock): meant for
 * the application's rx loop, which hands such frames over with rte_pmd_irdma_rx_burst().
 * @return 1 for the device, 0 not (or a NULL argument).
 */
int rte_pmd_irdma_frame_is_mine(const struct rte_pmd_irdma_dev *dev, const struct rte_mbuf *m);

/**
 * Hand the device up to @p n frames the application received (rxq=app, or ARP/ND that
 * reached the application's queues with rxq=<n>). Frames taken belong to the device, which
 * frees them (they may come from any mempool); the rest stay the caller's. The device
 * parses them at its next engine step; frames not for it are dropped and counted. Any
 * lcore may call it. @return the number taken (>= 0), -EINVAL, -ENOTSUP (the device does
 * not share a port with the application).
 */
int rte_pmd_irdma_rx_burst(struct rte_pmd_irdma_dev *dev, struct rte_mbuf **pkts, uint16_t n);

/**
 * Take up to @p n frames the device wants sent (txq=app): complete Ethernet frames,
 * checksums filled in. They belong to the caller, which sends them with its own
 * rte_eth_tx_burst() and frees any it does not send (a dropped frame is a lost packet the
 * transport recovers). Drain every loop: the device's mbuf pool is finite. @return the
 * number given (>= 0), -EINVAL, -ENOTSUP (the device was not opened with txq=app).
 */
int rte_pmd_irdma_tx_drain(struct rte_pmd_irdma_dev *dev, struct rte_mbuf **pkts, uint16_t n);

/* ---------------------------------------------------------------------------------------
 * Asynchronous events (values of enum ibv_event_type)
 * ------------------------------------------------------------------------------------- */

enum rte_pmd_irdma_event_type {
	RTE_PMD_IRDMA_EVENT_CQ_ERR = 0,
	RTE_PMD_IRDMA_EVENT_QP_FATAL = 1,
	RTE_PMD_IRDMA_EVENT_QP_REQ_ERR = 2,
	RTE_PMD_IRDMA_EVENT_QP_ACCESS_ERR = 3,
	RTE_PMD_IRDMA_EVENT_COMM_EST = 4,
	RTE_PMD_IRDMA_EVENT_SQ_DRAINED = 5,
	RTE_PMD_IRDMA_EVENT_DEVICE_FATAL = 8,
	RTE_PMD_IRDMA_EVENT_PORT_ACTIVE = 9,
	RTE_PMD_IRDMA_EVENT_PORT_ERR = 10,
	RTE_PMD_IRDMA_EVENT_SRQ_ERR = 14,
	RTE_PMD_IRDMA_EVENT_SRQ_LIMIT_REACHED = 15,
	RTE_PMD_IRDMA_EVENT_QP_LAST_WQE_REACHED = 16,
};

struct rte_pmd_irdma_cq;
struct rte_pmd_irdma_qp;
struct rte_pmd_irdma_srq;

struct rte_pmd_irdma_async_event {
	enum rte_pmd_irdma_event_type event_type;
	union {
		struct rte_pmd_irdma_cq *cq;
		struct rte_pmd_irdma_qp *qp;
		struct rte_pmd_irdma_srq *srq;
	} element;
};

/** Take the oldest pending async event. @return 0, -EAGAIN (none pending), -EINVAL. */
int rte_pmd_irdma_async_event_get(struct rte_pmd_irdma_dev *dev,
				  struct rte_pmd_irdma_async_event *ev);

/* ---------------------------------------------------------------------------------------
 * Protection domain
 * ------------------------------------------------------------------------------------- */

struct rte_pmd_irdma_pd {
	struct rte_pmd_irdma_dev *dev;
	uint32_t handle;                   /**< PD number */
};

struct rte_pmd_irdma_pd *rte_pmd_irdma_pd_alloc(struct rte_pmd_irdma_dev *dev);
/** @return 0, -EBUSY (MRs, MWs, QPs, SRQs or AHs still use it), -EINVAL. */
int rte_pmd_irdma_pd_free(struct rte_pmd_irdma_pd *pd);

/* ---------------------------------------------------------------------------------------
 * Memory region (access flags: enum ibv_access_flags values)
 * ------------------------------------------------------------------------------------- */

enum rte_pmd_irdma_access_flags {
	RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE = 1u << 0,
	RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE = 1u << 1,
	RTE_PMD_IRDMA_ACCESS_REMOTE_READ = 1u << 2,
	RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC = 1u << 3,
	RTE_PMD_IRDMA_ACCESS_MW_BIND = 1u << 4,
	RTE_PMD_IRDMA_ACCESS_ZERO_BASED = 1u << 5,
};

struct rte_pmd_irdma_mr {
	struct rte_pmd_irdma_pd *pd;
	void *addr;
	size_t length;
	uint64_t iova;                     /**< IOVA of addr (RTE_BAD_IOVA for non-DPDK memory) */
	uint32_t access;                   /**< enum rte_pmd_irdma_access_flags */
	uint32_t lkey;
	uint32_t rkey;
};

/**
 * Register @p length bytes at @p addr (any application memory; hugepage memory for
 * DMA-capable backends). Remote write or remote atomic access requires local write.
 */
struct rte_pmd_irdma_mr *rte_pmd_irdma_reg_mr(struct rte_pmd_irdma_pd *pd, void *addr,
					       size_t length, uint32_t access);
/** @return 0, -EBUSY (memory windows are bound to it), -EINVAL. */
int rte_pmd_irdma_dereg_mr(struct rte_pmd_irdma_mr *mr);

/* ---------------------------------------------------------------------------------------
 * Memory window
 * ------------------------------------------------------------------------------------- */

enum rte_pmd_irdma_mw_type {
	RTE_PMD_IRDMA_MW_TYPE_1 = 1,
	RTE_PMD_IRDMA_MW_TYPE_2 = 2,
};

struct rte_pmd_irdma_mw {
	struct rte_pmd_irdma_pd *pd;
	uint32_t rkey;                     /**< current rkey (changes with each bind) */
	uint32_t handle;
	enum rte_pmd_irdma_mw_type type;
};

/** Where a window is bound: a range of an MR and the rights granted. */
struct rte_pmd_irdma_mw_bind_info {
	struct rte_pmd_irdma_mr *mr;
	uint64_t addr;                     /**< start, inside the MR (VA-based) */
	uint64_t length;
	uint32_t mw_access_flags;          /**< REMOTE_READ / REMOTE_WRITE / REMOTE_ATOMIC / ZERO_BASED */
};

struct rte_pmd_irdma_mw *rte_pmd_irdma_alloc_mw(struct rte_pmd_irdma_pd *pd,
						 enum rte_pmd_irdma_mw_type type);
/** @return 0, -EINVAL. A bound window is invalidated first. */
int rte_pmd_irdma_dealloc_mw(struct rte_pmd_irdma_mw *mw);

/**
 * Bind a type 1 window (ibv_bind_mw): posts a bind WR on @p qp (RC, RTS) and updates
 * mw->rkey; the completion arrives on the QP's send CQ with @p wr_id when @p signaled.
 * Type 2 windows are bound with a RTE_PMD_IRDMA_WR_BIND_MW work request instead.
 * @return 0, -EINVAL (wrong type, rights the MR does not allow, range outside the MR),
 *   -EPERM (wrong QP state), -ENOMEM (SQ full).
 */
int rte_pmd_irdma_bind_mw(struct rte_pmd_irdma_qp *qp, struct rte_pmd_irdma_mw *mw,
			  const struct rte_pmd_irdma_mw_bind_info *bind, uint64_t wr_id,
			  int signaled);

/* ---------------------------------------------------------------------------------------
 * Completion queue
 * ------------------------------------------------------------------------------------- */

struct rte_pmd_irdma_cq_init_attr {
	uint32_t cqe;                      /**< minimum number of completions it must hold */
	int comp_fd;                       /**< eventfd written on armed events, -1 for none */
	void *cq_context;                  /**< returned in rte_pmd_irdma_cq.cq_context */
};

struct rte_pmd_irdma_cq {
	struct rte_pmd_irdma_dev *dev;
	void *cq_context;
	uint32_t cqe;                      /**< capacity granted (>= requested) */
	uint32_t handle;                   /**< CQ id */
	int comp_fd;
};

struct rte_pmd_irdma_cq *rte_pmd_irdma_cq_create(struct rte_pmd_irdma_dev *dev,
						  const struct rte_pmd_irdma_cq_init_attr *attr);
/** @return 0, -EBUSY (QPs still use it; the log names them), -EINVAL. */
int rte_pmd_irdma_cq_destroy(struct rte_pmd_irdma_cq *cq);
/**
 * Give the CQ room for @p cqe completions; completions already queued are kept in order.
 * Threading: not concurrently with a poll of the same CQ.
 * @return 0, -EINVAL (fewer than those outstanding, or over max_cqe), -EOPNOTSUPP (GEN_1),
 *   -EBUSY (earlier resized rings not yet drained by poll_cq), -ENOMEM.
 */
int rte_pmd_irdma_cq_resize(struct rte_pmd_irdma_cq *cq, uint32_t cqe);
/**
 * Arm the CQ (ibv_req_notify_cq): the next completion (or, with @p solicited_only, the next
 * solicited or error completion) writes 1 to the CQ's comp_fd. One event per arm.
 * @return 0, -EINVAL (no comp_fd).
 */
int rte_pmd_irdma_cq_req_notify(struct rte_pmd_irdma_cq *cq, int solicited_only);

/* ---------------------------------------------------------------------------------------
 * Address handle (UD)
 * ------------------------------------------------------------------------------------- */

struct rte_pmd_irdma_global_route {
	union rte_pmd_irdma_gid dgid;
	uint32_t flow_label;
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
};

struct rte_pmd_irdma_ah_attr {
	struct rte_pmd_irdma_global_route grh;
	uint16_t dlid;
	uint8_t sl;
	uint8_t src_path_bits;
	uint8_t static_rate;
	uint8_t is_global;                 /**< must be 1 on RoCE */
	uint8_t port_num;                  /**< 1 */
};

struct rte_pmd_irdma_ah {
	struct rte_pmd_irdma_pd *pd;
	uint32_t handle;                   /**< AH index given to the device */
};

struct rte_pmd_irdma_ah *rte_pmd_irdma_ah_create(struct rte_pmd_irdma_pd *pd,
						  const struct rte_pmd_irdma_ah_attr *attr);
int rte_pmd_irdma_ah_destroy(struct rte_pmd_irdma_ah *ah);

/* ---------------------------------------------------------------------------------------
 * Shared receive queue
 * ------------------------------------------------------------------------------------- */

struct rte_pmd_irdma_srq_attr {
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_limit;
};

struct rte_pmd_irdma_srq_init_attr {
	void *srq_context;
	struct rte_pmd_irdma_srq_attr attr; /**< in: requested; out: granted */
};

struct rte_pmd_irdma_srq {
	struct rte_pmd_irdma_pd *pd;
	void *srq_context;
	uint32_t handle;                   /**< SRQ id */
};

/** @return NULL with rte_errno EOPNOTSUPP when the device lacks RTE_PMD_IRDMA_CAP_SRQ. */
struct rte_pmd_irdma_srq *rte_pmd_irdma_srq_create(struct rte_pmd_irdma_pd *pd,
						    struct rte_pmd_irdma_srq_init_attr *init);
/** @return 0, -EBUSY (QPs still use it), -EINVAL. */
int rte_pmd_irdma_srq_destroy(struct rte_pmd_irdma_srq *srq);
int rte_pmd_irdma_srq_query(struct rte_pmd_irdma_srq *srq, struct rte_pmd_irdma_srq_attr *attr);
/** Only srq_limit can change (RTE_PMD_IRDMA_SRQ_LIMIT). */
#define RTE_PMD_IRDMA_SRQ_LIMIT (1u << 1)
int rte_pmd_irdma_srq_modify(struct rte_pmd_irdma_srq *srq, struct rte_pmd_irdma_srq_attr *attr,
			     uint32_t attr_mask);

/* ---------------------------------------------------------------------------------------
 * Queue pair (values of enum ibv_qp_type, ibv_qp_state, ibv_mtu, ibv_qp_attr_mask)
 * ------------------------------------------------------------------------------------- */

enum rte_pmd_irdma_qp_type {
	RTE_PMD_IRDMA_QPT_RC = 2,
	RTE_PMD_IRDMA_QPT_UD = 4,
};

enum rte_pmd_irdma_qp_state {
	RTE_PMD_IRDMA_QPS_RESET = 0,
	RTE_PMD_IRDMA_QPS_INIT = 1,
	RTE_PMD_IRDMA_QPS_RTR = 2,
	RTE_PMD_IRDMA_QPS_RTS = 3,
	RTE_PMD_IRDMA_QPS_SQD = 4,
	RTE_PMD_IRDMA_QPS_SQE = 5,
	RTE_PMD_IRDMA_QPS_ERR = 6,
};

enum rte_pmd_irdma_mtu {
	RTE_PMD_IRDMA_MTU_256 = 1,
	RTE_PMD_IRDMA_MTU_512 = 2,
	RTE_PMD_IRDMA_MTU_1024 = 3,
	RTE_PMD_IRDMA_MTU_2048 = 4,
	RTE_PMD_IRDMA_MTU_4096 = 5,
};

enum rte_pmd_irdma_qp_attr_mask {
	RTE_PMD_IRDMA_QP_STATE = 1u << 0,
	RTE_PMD_IRDMA_QP_CUR_STATE = 1u << 1,
	RTE_PMD_IRDMA_QP_EN_SQD_ASYNC_NOTIFY = 1u << 2,
	RTE_PMD_IRDMA_QP_ACCESS_FLAGS = 1u << 3,
	RTE_PMD_IRDMA_QP_PKEY_INDEX = 1u << 4,
	RTE_PMD_IRDMA_QP_PORT = 1u << 5,
	RTE_PMD_IRDMA_QP_QKEY = 1u << 6,
	RTE_PMD_IRDMA_QP_AV = 1u << 7,
	RTE_PMD_IRDMA_QP_PATH_MTU = 1u << 8,
	RTE_PMD_IRDMA_QP_TIMEOUT = 1u << 9,
	RTE_PMD_IRDMA_QP_RETRY_CNT = 1u << 10,
	RTE_PMD_IRDMA_QP_RNR_RETRY = 1u << 11,
	RTE_PMD_IRDMA_QP_RQ_PSN = 1u << 12,
	RTE_PMD_IRDMA_QP_MAX_QP_RD_ATOMIC = 1u << 13,
	RTE_PMD_IRDMA_QP_ALT_PATH = 1u << 14,
	RTE_PMD_IRDMA_QP_MIN_RNR_TIMER = 1u << 15,
	RTE_PMD_IRDMA_QP_SQ_PSN = 1u << 16,
	RTE_PMD_IRDMA_QP_MAX_DEST_RD_ATOMIC = 1u << 17,
	RTE_PMD_IRDMA_QP_PATH_MIG_STATE = 1u << 18,
	RTE_PMD_IRDMA_QP_CAP = 1u << 19,
	RTE_PMD_IRDMA_QP_DEST_QPN = 1u << 20,
};

struct rte_pmd_irdma_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

struct rte_pmd_irdma_qp_init_attr {
	void *qp_context;
	struct rte_pmd_irdma_cq *send_cq;
	struct rte_pmd_irdma_cq *recv_cq;
	struct rte_pmd_irdma_srq *srq;     /**< NULL: the QP has its own RQ */
	struct rte_pmd_irdma_qp_cap cap;   /**< in: requested; out: granted (lib/uk sizing) */
	enum rte_pmd_irdma_qp_type qp_type;
	int sq_sig_all;                    /**< every send WR generates a completion */
};

struct rte_pmd_irdma_qp_attr {
	enum rte_pmd_irdma_qp_state qp_state;
	enum rte_pmd_irdma_qp_state cur_qp_state;
	enum rte_pmd_irdma_mtu path_mtu;
	uint32_t qkey;
	uint32_t rq_psn;                   /**< 24 bits */
	uint32_t sq_psn;                   /**< 24 bits */
	uint32_t dest_qp_num;              /**< 24 bits */
	uint32_t qp_access_flags;          /**< REMOTE_WRITE / REMOTE_READ / REMOTE_ATOMIC */
	struct rte_pmd_irdma_qp_cap cap;   /**< query only */
	struct rte_pmd_irdma_ah_attr ah_attr;
	uint16_t pkey_index;
	uint8_t en_sqd_async_notify;
	uint8_t sq_draining;               /**< query only */
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t min_rnr_timer;             /**< IB encoding 0..31 */
	uint8_t port_num;                  /**< 1 */
	uint8_t timeout;                   /**< 4.096 us x 2^timeout; 0 = infinite */
	uint8_t retry_cnt;                 /**< 0..7 */
	uint8_t rnr_retry;                 /**< 0..7, 7 = infinite */
};

struct rte_pmd_irdma_qp {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	void *qp_context;
	struct rte_pmd_irdma_cq *send_cq;
	struct rte_pmd_irdma_cq *recv_cq;
	struct rte_pmd_irdma_srq *srq;
	uint32_t qp_num;
	enum rte_pmd_irdma_qp_type qp_type;
	/** Last state set by modify or reported by the device (an error completion, an async
	 * event, a query). The PMD's one copy of the QP state: it stores it with release
	 * ordering; another lcore reads it with __atomic_load_n(..., __ATOMIC_ACQUIRE). */
	enum rte_pmd_irdma_qp_state state;
};

/**
 * Create a QP in RESET. Its SQ and RQ live in memzones on the device's socket, sized by
 * lib/uk (irdma_uk_calc_depth_shift_sq/rq); init->cap returns what was granted.
 * @return NULL with rte_errno EINVAL (caps over the device limits, bad type, CQ of another
 *   device), EOPNOTSUPP, ENOSPC (max_qp), ENOMEM.
 */
struct rte_pmd_irdma_qp *rte_pmd_irdma_qp_create(struct rte_pmd_irdma_pd *pd,
						  struct rte_pmd_irdma_qp_init_attr *init);
/**
 * Move the QP through RESET -> INIT -> RTR -> RTS -> SQD -> ERR with the verbs rules: for
 * each transition a set of attributes is required and a set is allowed (per QP type).
 * @return 0, -EINVAL (illegal transition, missing or forbidden attribute, bad value; the log
 *   names the attribute), -EINVAL with nothing changed on any failure.
 */
int rte_pmd_irdma_qp_modify(struct rte_pmd_irdma_qp *qp, struct rte_pmd_irdma_qp_attr *attr,
			    uint32_t attr_mask);
/** Fill @p attr (all fields, whatever the mask) and, if non-NULL, @p init. */
int rte_pmd_irdma_qp_query(struct rte_pmd_irdma_qp *qp, struct rte_pmd_irdma_qp_attr *attr,
			   uint32_t attr_mask, struct rte_pmd_irdma_qp_init_attr *init);
/**
 * Destroy a QP in any state. Outstanding work is abandoned: completions it already produced
 * are removed from its CQs, no new ones appear.
 */
int rte_pmd_irdma_qp_destroy(struct rte_pmd_irdma_qp *qp);

/** Where one queue of a QP, SRQ or CQ lives. */
struct rte_pmd_irdma_queue_mem {
	void *addr;
	uint64_t iova;                     /**< first page; RTE_BAD_IOVA if unknown */
	size_t len;                        /**< exactly what lib/uk sizing asked for */
	uint32_t entry_size;               /**< bytes per WQE (SQ: quantum) or CQE */
	uint32_t depth;                    /**< entries (SQ: quanta) */
	int socket_id;
	uint8_t iova_contig;               /**< 0: described by a page list */
};

/** Memory of the SQ, RQ and shadow area of a QP (RQ len is 0 with an SRQ). */
int rte_pmd_irdma_qp_queue_mem(const struct rte_pmd_irdma_qp *qp,
			       struct rte_pmd_irdma_queue_mem *sq,
			       struct rte_pmd_irdma_queue_mem *rq);
int rte_pmd_irdma_cq_queue_mem(const struct rte_pmd_irdma_cq *cq,
			       struct rte_pmd_irdma_queue_mem *mem);
int rte_pmd_irdma_srq_queue_mem(const struct rte_pmd_irdma_srq *srq,
				struct rte_pmd_irdma_queue_mem *mem);

/* ---------------------------------------------------------------------------------------
 * Work requests (values of enum ibv_wr_opcode, ibv_send_flags)
 * ------------------------------------------------------------------------------------- */

enum rte_pmd_irdma_wr_opcode {
	RTE_PMD_IRDMA_WR_RDMA_WRITE = 0,
	RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM = 1,
	RTE_PMD_IRDMA_WR_SEND = 2,
	RTE_PMD_IRDMA_WR_SEND_WITH_IMM = 3,
	RTE_PMD_IRDMA_WR_RDMA_READ = 4,
	RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP = 5,
	RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD = 6,
	RTE_PMD_IRDMA_WR_LOCAL_INV = 7,
	RTE_PMD_IRDMA_WR_BIND_MW = 8,
	RTE_PMD_IRDMA_WR_SEND_WITH_INV = 9,
	RTE_PMD_IRDMA_WR_NOP = 11,         /**< irdma NOP WQE (slot of IBV_WR_DRIVER1) */
};

enum rte_pmd_irdma_send_flags {
	RTE_PMD_IRDMA_SEND_FENCE = 1u << 0,
	RTE_PMD_IRDMA_SEND_SIGNALED = 1u << 1,
	RTE_PMD_IRDMA_SEND_SOLICITED = 1u << 2,
	RTE_PMD_IRDMA_SEND_INLINE = 1u << 3,
	/* driver extension (outside the verbs range): local fence, ordering this WR after
	 * every earlier one has completed. */
	RTE_PMD_IRDMA_SEND_LOCAL_FENCE = 1u << 8,
};

struct rte_pmd_irdma_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

struct rte_pmd_irdma_send_wr {
	uint64_t wr_id;
	const struct rte_pmd_irdma_sge *sg_list;
	uint32_t num_sge;
	enum rte_pmd_irdma_wr_opcode opcode;
	uint32_t send_flags;
	union {
		rte_be32_t imm_data;        /**< network byte order, as in verbs */
		uint32_t invalidate_rkey;   /**< SEND_WITH_INV, LOCAL_INV */
	};
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
		} rdma;
		struct {
			uint64_t remote_addr;
			uint64_t compare_add;
			uint64_t swap;
			uint32_t rkey;
		} atomic;
		struct {
			struct rte_pmd_irdma_ah *ah;
			uint32_t remote_qpn;
			uint32_t remote_qkey;
		} ud;
	} wr;
	struct {
		struct rte_pmd_irdma_mw *mw;
		uint32_t rkey;              /**< new rkey: the low 8 bits are the new key */
		struct rte_pmd_irdma_mw_bind_info bind_info;
	} bind_mw;
};

struct rte_pmd_irdma_recv_wr {
	uint64_t wr_id;
	const struct rte_pmd_irdma_sge *sg_list;
	uint32_t num_sge;
};

/**
 * Post a burst of send work requests and ring the doorbell once.
 *
 * @return the number of WRs taken, from the start of @p wr. When fewer than @p nb_wr were
 *   taken, wr[return value] is the failing WR and *@p err (if non-NULL) tells why:
 *   -EINVAL (opcode, SGE count, inline size, flags, or AH invalid for this QP),
 *   -EPERM (lkey or MW of another PD, or QP state that does not accept sends),
 *   -ENOMEM (SQ full), -EOPNOTSUPP (operation the device generation lacks).
 *   *err is 0 when everything was taken.
 */
uint16_t rte_pmd_irdma_post_send(struct rte_pmd_irdma_qp *qp,
				 const struct rte_pmd_irdma_send_wr *wr, uint16_t nb_wr, int *err);

/** Post a burst of receive WRs to the QP's RQ. Same return convention as post_send. */
uint16_t rte_pmd_irdma_post_recv(struct rte_pmd_irdma_qp *qp,
				 const struct rte_pmd_irdma_recv_wr *wr, uint16_t nb_wr, int *err);

/** Post a burst of receive WRs to an SRQ. Same return convention as post_send. */
uint16_t rte_pmd_irdma_srq_post_recv(struct rte_pmd_irdma_srq *srq,
				     const struct rte_pmd_irdma_recv_wr *wr, uint16_t nb_wr,
				     int *err);

/* ---------------------------------------------------------------------------------------
 * Work completions (values of enum ibv_wc_status, ibv_wc_opcode, ibv_wc_flags)
 * ------------------------------------------------------------------------------------- */

enum rte_pmd_irdma_wc_status {
	RTE_PMD_IRDMA_WC_SUCCESS = 0,
	RTE_PMD_IRDMA_WC_LOC_LEN_ERR = 1,
	RTE_PMD_IRDMA_WC_LOC_QP_OP_ERR = 2,
	RTE_PMD_IRDMA_WC_LOC_EEC_OP_ERR = 3,
	RTE_PMD_IRDMA_WC_LOC_PROT_ERR = 4,
	RTE_PMD_IRDMA_WC_WR_FLUSH_ERR = 5,
	RTE_PMD_IRDMA_WC_MW_BIND_ERR = 6,
	RTE_PMD_IRDMA_WC_BAD_RESP_ERR = 7,
	RTE_PMD_IRDMA_WC_LOC_ACCESS_ERR = 8,
	RTE_PMD_IRDMA_WC_REM_INV_REQ_ERR = 9,
	RTE_PMD_IRDMA_WC_REM_ACCESS_ERR = 10,
	RTE_PMD_IRDMA_WC_REM_OP_ERR = 11,
	RTE_PMD_IRDMA_WC_RETRY_EXC_ERR = 12,
	RTE_PMD_IRDMA_WC_RNR_RETRY_EXC_ERR = 13,
	RTE_PMD_IRDMA_WC_LOC_RDD_VIOL_ERR = 14,
	RTE_PMD_IRDMA_WC_REM_INV_RD_REQ_ERR = 15,
	RTE_PMD_IRDMA_WC_REM_ABORT_ERR = 16,
	RTE_PMD_IRDMA_WC_INV_EECN_ERR = 17,
	RTE_PMD_IRDMA_WC_INV_EEC_STATE_ERR = 18,
	RTE_PMD_IRDMA_WC_FATAL_ERR = 19,
	RTE_PMD_IRDMA_WC_RESP_TIMEOUT_ERR = 20,
	RTE_PMD_IRDMA_WC_GENERAL_ERR = 21,
};

enum rte_pmd_irdma_wc_opcode {
	RTE_PMD_IRDMA_WC_SEND = 0,
	RTE_PMD_IRDMA_WC_RDMA_WRITE = 1,
	RTE_PMD_IRDMA_WC_RDMA_READ = 2,
	RTE_PMD_IRDMA_WC_COMP_SWAP = 3,
	RTE_PMD_IRDMA_WC_FETCH_ADD = 4,
	RTE_PMD_IRDMA_WC_BIND_MW = 5,
	RTE_PMD_IRDMA_WC_LOCAL_INV = 6,
	RTE_PMD_IRDMA_WC_NOP = 0x40,       /**< driver extension: completion of WR_NOP */
	RTE_PMD_IRDMA_WC_RECV = 1u << 7,
	RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM = (1u << 7) + 1,
};

enum rte_pmd_irdma_wc_flags {
	RTE_PMD_IRDMA_WC_GRH = 1u << 0,
	RTE_PMD_IRDMA_WC_WITH_IMM = 1u << 1,
	RTE_PMD_IRDMA_WC_WITH_INV = 1u << 3,
	/* driver extensions */
	RTE_PMD_IRDMA_WC_WITH_SMAC = 1u << 8,
	RTE_PMD_IRDMA_WC_WITH_VLAN = 1u << 9,
};

struct rte_pmd_irdma_wc {
	uint64_t wr_id;
	enum rte_pmd_irdma_wc_status status;
	enum rte_pmd_irdma_wc_opcode opcode;
	uint32_t vendor_err;               /**< irdma major << 16 | minor */
	uint32_t byte_len;
	union {
		rte_be32_t imm_data;        /**< network byte order, as in verbs */
		uint32_t invalidated_rkey;
	};
	uint32_t qp_num;
	uint32_t src_qp;                   /**< UD: sender's QPN */
	uint32_t wc_flags;                 /**< enum rte_pmd_irdma_wc_flags */
	uint16_t pkey_index;
	uint16_t vlan_id;
	uint8_t smac[6];
	uint8_t sl;
	uint8_t solicited;
};

/**
 * Poll up to @p nb completions into @p wc (oldest first). With engine=inline the engine is
 * stepped first, so a plain poll loop makes progress.
 * @return the number of completions (0 when none), or -EIO when the CQ is in error
 *   (it overflowed; an RTE_PMD_IRDMA_EVENT_CQ_ERR event was queued).
 */
int rte_pmd_irdma_poll_cq(struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc,
			  uint16_t nb);

/* ---------------------------------------------------------------------------------------
 * Extended statistics (DPDK xstats shape: names once, then values by id)
 * ------------------------------------------------------------------------------------- */

#define RTE_PMD_IRDMA_XSTAT_NAME_LEN 64

struct rte_pmd_irdma_xstat_name {
	char name[RTE_PMD_IRDMA_XSTAT_NAME_LEN];
};

struct rte_pmd_irdma_xstat {
	uint64_t id;
	uint64_t value;
};

/**
 * Device counters (sums over the device's QPs plus device-wide ones). Called with
 * @p names NULL or @p n too small, returns the number of counters.
 * @return the number of counters, or a negative errno.
 */
int rte_pmd_irdma_xstats_get_names(const struct rte_pmd_irdma_dev *dev,
				   struct rte_pmd_irdma_xstat_name *names, unsigned int n);
int rte_pmd_irdma_xstats_get(const struct rte_pmd_irdma_dev *dev,
			     struct rte_pmd_irdma_xstat *xstats, unsigned int n);
int rte_pmd_irdma_xstats_reset(struct rte_pmd_irdma_dev *dev);
/** Per-QP counters, same shape (names from rte_pmd_irdma_qp_xstats_get_names). */
int rte_pmd_irdma_qp_xstats_get_names(const struct rte_pmd_irdma_qp *qp,
				      struct rte_pmd_irdma_xstat_name *names, unsigned int n);
int rte_pmd_irdma_qp_xstats_get(const struct rte_pmd_irdma_qp *qp,
				struct rte_pmd_irdma_xstat *xstats, unsigned int n);

/** Human-readable names of the enums above ("WR_FLUSH_ERR", "RTS", ...). */
const char *rte_pmd_irdma_wc_status_str(enum rte_pmd_irdma_wc_status status);
const char *rte_pmd_irdma_qp_state_str(enum rte_pmd_irdma_qp_state state);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_IRDMA_H */
