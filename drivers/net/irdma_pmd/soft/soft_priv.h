/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private state of the software device: object tables, the per-QP view of the queues as
 * hardware keeps it, and the interfaces between the device's parts (doorbells, WQE fetch,
 * key table, CQE writer, requester front end, completion and responder callbacks of the
 * lib/roce transport, wire, engine).
 */
#ifndef SOFT_PRIV_H
#define SOFT_PRIV_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "irdma_defs.h"
#include "irdma_user.h"

#include "irdma_db_page.h"
#include "irdma_hw.h"
#include "roce_qp.h"
#include "soft_wire.h"
#include "soft_port.h"
#include "soft_gsi.h"
#include "soft_devargs.h"

extern int soft_logtype;
#define SOFT_LOG(level, fmt, ...)                                                          \
	rte_log(RTE_LOG_##level, soft_logtype, "irdma.soft: %s(): " fmt "\n", __func__,    \
		##__VA_ARGS__)

/* Defaults for the object tables (devargs may lower or raise them). */
#define SOFT_DEF_MAX_QP  256u
#define SOFT_DEF_MAX_CQ  256u
#define SOFT_DEF_MAX_SRQ 64u
#define SOFT_DEF_MAX_MR  4096u /* MRs and MWs share the key table */
#define SOFT_DEF_MAX_PD  256u
#define SOFT_DEF_MAX_AH  256u
#define SOFT_FIRST_QPN   2u    /* QP0/QP1 are the IB special QPs */
#define SOFT_MAX_ORD     16u /* READ/atomics in flight per QP */
#define SOFT_MAX_IRD     16u /* responder resources per QP */
#define SOFT_MAX_WR_IN_FLIGHT 1024u /* remote WRs a QP hands to lib/roce at once */
#define SOFT_MAX_MSG     (1u << 31)
#define SOFT_MAX_SGE     16u   /* addl frag cnt is 4 bits */


enum soft_key_state {
	SOFT_KEY_FREE,      /* unallocated table slot */
	SOFT_KEY_VALID,     /* MR registered / MW bound */
	SOFT_KEY_INVALID,   /* MR invalidated / MW allocated but unbound */
};

struct soft_key {
	enum soft_key_state state;
	bool is_mw;
	uint8_t mw_type;       /* 1 or 2 */
	uint8_t key;           /* low byte of the STag */
	uint32_t pd_id;
	uint32_t access;       /* IRDMA_HW_ACCESS_* */
	uint64_t va;           /* first valid address as posted */
	uint64_t len;
	uint8_t *host;         /* host address of va */
	uint32_t parent;       /* MW: index of the MR it is bound to */
	uint32_t qp_id;        /* MW type 2: the QP it is bound through */
	uint32_t mw_bound;     /* MR: windows currently bound to it */
};

struct soft_dev;

struct soft_cq {
	bool in_use;
	uint32_t id;
	uint8_t *base;
	uint32_t size;         /* slots */
	bool cqe64;
	uint64_t *shadow;      /* shared with lib/uk: get_64bit_val_acquire/set_64bit_val_release */
	uint32_t head;         /* next slot the device writes */
	uint32_t room;         /* slots known free: the consumer index is read again only when
				* they are used up (it only moves on); 0 after a resize */
	uint8_t polarity;      /* valid bit for the current pass */
	bool overflowed;       /* error state: no more CQEs */
	bool cons_stale;       /* resized: shadow head still names the old ring */
	uint64_t stale_shadow;
	bool arm_any, arm_se;  /* armed (latched from the shadow arm word at the doorbell) */
	uint32_t arm_seq;      /* sequence number of the last arm seen */
	int eventfd;
	void (*event_cb)(void *arg, uint32_t cq_id);
	void *event_arg;
	uint32_t users;        /* QPs referencing it */
	uint64_t n_cqes, n_events;
};

struct soft_srq {
	bool in_use;
	uint32_t id;
	uint32_t pd_id;
	uint8_t *base;
	uint32_t size;         /* WQEs */
	uint8_t shift;
	uint32_t max_frags;
	uint64_t *shadow;      /* shared with lib/uk: get_64bit_val_acquire/set_64bit_val_release */
	uint32_t head;         /* next WQE index the device takes */
	uint8_t polarity;
	uint32_t limit;
	uint32_t users;
};

struct soft_ah {
	bool in_use;
	uint32_t pd_id;
	struct irdma_hw_av av;
	struct roce_av rav;    /* what lib/roce builds UD frames from */
};

/* One decoded SGE. */
struct soft_sge {
	uint64_t addr;
	uint32_t len;
	uint32_t stag;
};

/* A send WQE as the device decoded it from SQ memory. */
struct soft_wqe {
	uint32_t idx;          /* first quantum */
	uint16_t quanta;
	uint8_t op;            /* IRDMAQP_OP_* */
	bool signaled, read_fence, local_fence, solicited, imm_valid, inline_data;
	uint32_t imm;
	uint32_t num_sges;
	const uint8_t *wqe;    /* the WQE bytes in the SQ (inline data is read from there) */
	uint32_t inline_len;
	uint64_t total_len;
	uint64_t rem_addr;     /* RDMA / atomics */
	uint32_t rem_stag;     /* rkey, or the STag to invalidate */
	uint32_t ah_id;        /* UD */
	uint32_t qkey, dest_qp;/* UD */
	uint64_t atomic_swap_add, atomic_cmp;
	/* bind MW */
	uint32_t mr_stag, mw_stag;
	uint64_t bind_va, bind_len;
	uint32_t bind_access;
	bool bind_type1, bind_zero_based;
	struct soft_sge sge[SOFT_MAX_SGE]; /* last: not cleared on decode */
};

/* A receive WQE (RQ or SRQ). */
struct soft_rwqe {
	uint32_t idx;          /* RQ: WQE index; SRQ: WQE index */
	uint64_t wr_id;        /* SRQ only (qword 2) */
	uint32_t num_sges;
	struct soft_sge sge[SOFT_MAX_SGE];
	uint64_t total_len;
};

/* Send work in SQ order, from fetch until its CQE (or its place behind a later CQE): the
 * device's truth for execution and completion order. wr_id stays the host's (lib/uk's
 * sq_wrtrk, irdma_pmd.h), the wire state lib/roce's (struct roce_swqe). */
enum soft_swqe_state {
	SOFT_SWQE_PENDING,     /* fetched, not handed to the transport yet */
	SOFT_SWQE_POSTED,      /* in lib/roce's requester */
	SOFT_SWQE_DONE,        /* complete (status below) */
};

struct soft_swqe {
	uint32_t idx;          /* first quantum in the SQ */
	uint16_t quanta;
	uint8_t op;
	bool signaled;
	bool fence;            /* local fence: everything before completes first */
	bool read_fence;       /* earlier READ/atomics complete first */
	enum soft_swqe_state state;
	uint8_t status;        /* 0 = success, else an irdma flush code */
	uint8_t fail;          /* device-detected cause that overrides the transport's */
	bool inl;              /* inline data: the payload is read from the WQE at idx, */
	uint32_t inline_len;   /* without decoding the WQE again */
};

/* The receive WQE of the message in progress (lib/roce's recv cookie). */
struct soft_recv_ctx {
	bool active;
	bool from_srq;
	struct soft_rwqe rwqe;
	/* The R_Key range mr_check just allowed for RDMA WRITE, so the mem_write of the same
	 * packet need not look the key up again; void after each frame (soft_xport_rx). */
	uint32_t wchk_rkey;
	uint32_t wchk_len; /* 0: none */
	uint64_t wchk_va;
	uint8_t *wchk_host;
	/* The receive copy fused with the ICRC (soft_rx_fuse.c): the payload of the frame
	 * being delivered whose ICRC mem_write checks while it copies (NULL: none), the
	 * register through its headers and its ICRC; void after each frame. */
	const uint8_t *fuse_pl;
	uint32_t fuse_reg;
	uint32_t fuse_icrc;
};

struct soft_qp_stats {
	uint64_t tx_packets, tx_bytes, rx_packets, rx_bytes;
	uint64_t completions, errors;
};

/*
 * Hot fields first (what the engine reads per frame and per WR: state, rings and their
 * indices, CQs, the transport's header), cold ones (attributes kept for query, the
 * receive context of SENDs, counters) after, so a QP's common case touches few cache
 * lines (pahole: the fields through swq_send in lines 0-2, the transport from line 8 with its
 * requester and responder state in lines 10-12).
 */
struct soft_qp {
	bool in_use;
	uint8_t sq_polarity;
	uint8_t rq_polarity;
	uint8_t rq_shift;
	uint32_t id;
	enum irdma_hw_qp_type type;
	uint32_t pd_id;
	enum irdma_hw_qp_state state; /* the device's QP state (lib/roce keeps the transport's) */
	bool sq_kick;          /* doorbell seen: fetch until no valid WQE */
	bool sq_stalled;           /* a WQE failed: nothing more goes to the transport */
	bool wire_err;             /* lib/roce moved the QP to ERR: apply it after the call */
	uint8_t wire_err_status;   /* enum roce_wc_status */
	struct soft_dev *dev;

	/* SQ as hardware sees it. */
	uint8_t *sq_base;
	uint32_t sq_depth;     /* quanta */
	uint32_t xport_depth;  /* send WRs lib/roce holds at once (what the QP asked for) */
	uint32_t sq_head;      /* next quantum to fetch */
	uint32_t max_inline, max_sq_frags, max_rq_frags;
	uint64_t *shadow;      /* shared with lib/uk: get_64bit_val_acquire/set_64bit_val_release */
	uint64_t compl_ctx;

	/* RQ or SRQ. */
	uint8_t *rq_base;
	uint32_t rq_size;      /* WQEs */
	uint32_t rq_head;
	struct soft_srq *srq;

	struct soft_cq *scq, *rcq;

	/* Send WQEs: [tail, done) completed without a CQE of their own yet (unsignaled),
	 * [done, send) with the transport, [send, head) fetched and waiting. */
	struct soft_swqe *swq;     /* sq_depth entries */
	uint32_t swq_head, swq_tail, swq_done, swq_send;
	uint32_t cur_slot;         /* UINT32_MAX: none */
	struct soft_wqe cur;       /* decoded copy of swq[cur_slot] (payload source) */

	/* The RoCEv2 transport (lib/roce state machines). */
	struct roce_qp xport;     /* the transport QP (lib/roce), not a receive queue */
	void *xport_mem;
	size_t xport_mem_bytes;     /* roce_qp_mem_size() */

	/* Cold. */
	struct soft_recv_ctx rctx;
	struct irdma_hw_qp_attr attr; /* as last modified; attr.state unused: see state */
	struct soft_qp_stats st;
};

struct soft_wire;

struct soft_dev_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	/* rx_icrc_errors, rx_malformed and rx_not_roce are never counted: xstats reads fill
	 * them from wire's by-reason counters (soft_wire_stats_sums()) */
	uint64_t rx_icrc_errors, rx_malformed, rx_unknown_qp, rx_not_roce;
	uint64_t tx_backlog_full, tx_drop_no_mbuf, cq_overflows, doorbells, polls;
	uint64_t progress_calls; /* every engine call, idle ones too: is anyone driving the device? */
	uint64_t sq_kicks;       /* engine=inline posts whose doorbell the posting lcore took */
	uint64_t tx_fault_drops, tx_fault_dups, tx_fault_reorders, tx_fault_corrupts;
	uint64_t rx_fault_drops, rx_fault_dups, rx_fault_reorders, rx_fault_corrupts;
	/* delay=: frames held, and frames sent at once because the holding ring was full */
	uint64_t tx_fault_delayed, tx_fault_delay_full, rx_fault_delayed, rx_fault_delay_full;
	struct soft_wire_stats wire; /* port, ARP/ND and drop counters */
};

/* One doorbell page (irdma_db_page.h): the words lib/uk writes and the summary levels. */
struct soft_db_page {
	void *mem;             /* header + words */
	uint32_t *word;
	uint64_t *leaf, *mid;
	uint64_t *top;         /* in soft_dev.db_top */
	uint32_t n_ids;
};

/* soft_dev.qp_sched flags: where a QP is queued in the engine. */
#define SOFT_SCHED_WORK  0x1u  /* on the work list */
#define SOFT_SCHED_TIMER 0x2u  /* on the timer list */

struct soft_dev {
	char name[64];
	struct irdma_hw_dev_config cfg;
	struct soft_devargs args;          /* cfg.backend_args, parsed */
	struct irdma_uk_attrs uk_attrs;
	uint8_t gen;
	bool faults;           /* any wire fault injection configured (transmit) */
	struct soft_tx_zc *zc; /* zero-copy transmit (soft_tx_zcopy.c), NULL: off */
	bool rx_faults;        /* the same on receive */
	uint16_t mtu;
	uint8_t mac[6];
	uint8_t gid[IRDMA_HW_MAX_GIDS][16];
	uint32_t n_gids;

	uint32_t max_qp, max_cq, max_srq, max_mr, max_pd, max_ah;
	struct soft_qp **qp;   /* indexed by qp_id; NULL: free (a QP is allocated at create) */
	uint32_t qp_hint;      /* no free QP id below it (from SOFT_FIRST_QPN) */
	struct soft_cq *cq;
	struct soft_srq *srq;
	struct soft_key *keys; /* indexed by STag >> 8 */
	struct soft_ah *ah;
	uint8_t *pd_used;
	uint32_t key_seq;      /* source of fresh key bytes */

	/* Doorbells: summary top words (written by producers on any lcore) on a line of
	 * their own, then the pages. */
	uint64_t db_top[2] __rte_cache_aligned; /* QP page, CQ page */
	struct soft_db_page db_qp __rte_cache_aligned;
	struct soft_db_page db_cq;

	/* Engine scheduling (under engine_lock). Only QPs with something to do cost a step
	 * anything: the work list holds QPs with a doorbell, received frames, send work or
	 * completions pending (FIFO, served round-robin); the timer list holds every QP with an
	 * armed lib/roce deadline (and, until the next expiry walk, QPs whose timer stopped
	 * since: soft_engine_timer_follow), and timer_tsc is at most the earliest of them. */
	uint8_t *qp_sched;     /* per QP id: SOFT_SCHED_* (outlives the QP: ids in the lists) */
	uint32_t *work;        /* work_mask + 1 slots */
	uint32_t work_mask, work_head;
	/* What keeps the engine busy besides doorbells and received frames, in one word:
	 * an idle step tests it with one load (engine_idle). Written under engine_lock
	 * (wire_dirty also by soft_gsi.c, which holds it too); read without it, as a hint. */
	union {
		uint64_t busy;
		struct {
			uint32_t n_work;
			bool wire_dirty;    /* frames in the wire's backlog or held by a fault */
			bool timers_armed;  /* n_timers != 0 */
			bool poll_port;     /* not port=loop: every step polls the port */
			uint8_t busy_zero;  /* never written: busy reads it as 0 */
		};
	};
	uint32_t *timers;      /* n_timers ids */
	uint32_t *timer_pos;   /* per QP id: its index in timers */
	uint32_t n_timers;
	uint64_t timer_ns;     /* the earliest deadline (ns, lib/roce's clock) */
	uint64_t timer_tsc;    /* the same as a TSC value; UINT64_MAX: none */
	uint64_t tsc_per_ns_q32; /* TSC ticks per ns, 32.32 fixed point */
	/* lib/roce's clock (soft_now_ns): ns = clk_ns + (tsc - clk_tsc) * ns_per_tsc_q32 >> 32,
	 * rebased with the exact division once the TSC is a second past clk_tsc; step_ns is
	 * the time of the running step (0: not read yet). */
	uint64_t ns_per_tsc_q32;
	uint64_t clk_tsc, clk_ns;
	uint64_t step_ns;
	/* The receive queue the idle check reads: port=loop's (soft_wire_loop_queue()), or
	 * for any other port one that stays empty (poll_port keeps that port polled). */
	const struct soft_loop_q *loop_rx;
	bool loop_rx_direct;   /* port=loop, no receive fault: the step takes the queue itself */
	bool loop_tx_direct;   /* port=loop, no fault: no frame held, the flush is the backlog's */
	/* This step found the wire's backlog full (soft_wire_frame): nothing more can be sent
	 * until the step's push, so the work run ends (work_run) instead of visiting every
	 * other QP only to fail again. Cleared when a step starts. */
	bool wire_full;

	rte_spinlock_t engine_lock;
	uint32_t service_id;
	bool service_registered;
	uint64_t tsc_hz;

	struct rte_mempool *pool;
	struct soft_wire *wire;

	struct soft_dev_stats st;
	struct soft_gsi gsi;   /* QP 1 */
};

static inline struct soft_dev *soft_dev_from_hw(struct irdma_hw_dev *hw)
{
	return (struct soft_dev *)hw;
}

static inline struct soft_qp *soft_qp_get(struct soft_dev *dev, uint32_t qp_id)
{
	if (unlikely(qp_id >= dev->max_qp))
		return NULL;
	return dev->qp[qp_id];
}

static inline bool soft_pd_valid(const struct soft_dev *dev, uint32_t pd_id)
{
	return pd_id < dev->max_pd && dev->pd_used[pd_id];
}

static inline struct soft_cq *soft_cq_get(struct soft_dev *dev, uint32_t cq_id)
{
	if (cq_id >= dev->max_cq || !dev->cq[cq_id].in_use)
		return NULL;
	return &dev->cq[cq_id];
}

/* soft_doorbell.c */
int soft_db_page_init(struct soft_dev *dev, struct soft_db_page *p, uint32_t n_ids,
		      uint64_t *top);
void soft_db_page_fini(struct soft_db_page *p);
/* The word lib/uk rings for object id (set idle). */
uint32_t *soft_db_word(struct soft_db_page *p, uint32_t id);
/* Consumes every doorbell rung since the last call; returns how many. */
unsigned int soft_db_take(struct soft_dev *dev);

static inline bool soft_db_pending(const struct soft_dev *dev)
{
	return (__atomic_load_n(&dev->db_top[0], __ATOMIC_RELAXED) |
		__atomic_load_n(&dev->db_top[1], __ATOMIC_RELAXED)) != 0;
}

/* soft_mr.c */
int soft_key_table_init(struct soft_dev *dev);
void soft_key_table_fini(struct soft_dev *dev);
int soft_mr_reg(struct soft_dev *dev, const struct irdma_hw_mr_ctx *ctx, uint32_t *stag);
int soft_mr_dereg(struct soft_dev *dev, uint32_t stag);
int soft_mw_alloc(struct soft_dev *dev, uint32_t pd_id, uint8_t type, uint32_t *stag);
int soft_mw_dealloc(struct soft_dev *dev, uint32_t stag);
/*
 * Key checks (soft_mr_check_*, soft_mr_invalidate, soft_mw_bind, soft_sges_*) return 0 or a
 * negative errno naming the cause, for the debug log (soft_mr_err_str()):
 *   -ENOENT no such STag (index, free slot, a window where an MR is wanted)
 *   -EKEYREJECTED key byte differs     -EKEYREVOKED invalidated, unbound or in use
 *   -EPERM another PD / a window bound to another QP     -EFAULT outside the region
 *   -EACCES access right missing       -EINVAL atomic target not 8-byte aligned
 * Callers map a refusal by context, never by cause, at one of two seams:
 * soft_mr_err_roce() for lib/roce's callbacks, soft_mr_err_to_flush() for a completion
 * (or a code of their own: MW bind, invalidate).
 */
int soft_mr_check_local(struct soft_dev *dev, uint32_t pd_id, uint32_t stag, uint64_t va,
			uint64_t len, uint32_t access, uint8_t **host);
int soft_mr_check_remote(struct soft_dev *dev, const struct soft_qp *qp, uint32_t rkey,
			 uint64_t va, uint64_t len, uint32_t access, uint8_t **host);
int soft_mr_invalidate(struct soft_dev *dev, uint32_t pd_id, uint32_t qp_id, uint32_t stag,
		       bool remote);
int soft_mw_bind(struct soft_dev *dev, const struct soft_qp *qp, const struct soft_wqe *w);
const char *soft_mr_err_str(int e);

/* A refused key check as lib/roce's callbacks answer it: -EACCES whatever the cause (the
 * errno recv_place and read_place tell a key refusal from other failures by; mr_check,
 * mem_write and atomic NAK any refusal with remote access). */
static inline int soft_mr_err_roce(int e)
{
	return e < 0 ? -EACCES : 0;
}

/* A refused local key check as a completion reports it: local protection (the irdma flush
 * code PROT), whatever the cause. */
static inline uint8_t soft_mr_err_to_flush(int e)
{
	return e < 0 ? FLUSH_PROT_ERR : 0;
}

/* soft_sq.c */
/* 1: *w filled from the SQ head; 0: no valid WQE there; -EINVAL: malformed (still taken). */
int soft_sq_fetch(struct soft_qp *qp, struct soft_wqe *w);
int soft_sq_decode(const struct soft_qp *qp, uint32_t idx, struct soft_wqe *w);
/* What the fast front end needs of an inline RDMA WRITE/SEND WQE (soft_sq_peek_inline,
 * soft_sq_fast.h). */
struct soft_sq_inl {
	uint32_t idx;
	uint16_t quanta;
	uint8_t op;            /* IRDMAQP_OP_RDMA_WRITE(_SOL) or IRDMAQP_OP_RDMA_SEND(_SOL_EVENT) */
	bool signaled, read_fence, solicited, imm_valid;
	uint32_t len, imm, rkey;
	uint64_t raddr;
};
uint32_t soft_sq_inline_copy(const struct soft_qp *qp, const uint8_t *wqe, uint64_t off,
			     uint8_t *dst, uint32_t len);
/* Copies len <= 8 bytes without a memcpy call: two overlapping 4-byte moves, or three
 * single bytes (0, len / 2, len - 1 cover 1..3). */
static inline void soft_copy8(uint8_t *dst, const uint8_t *src, uint32_t len)
{
	if (len >= 4) {
		uint32_t a, b;

		memcpy(&a, src, 4);
		memcpy(&b, src + len - 4, 4);
		memcpy(dst, &a, 4);
		memcpy(dst + len - 4, &b, 4);
	} else if (len) {
		dst[0] = src[0];
		dst[len / 2] = src[len / 2];
		dst[len - 1] = src[len - 1];
	}
}
static inline const uint8_t *soft_sq_wqe_at(const struct soft_qp *qp, uint32_t idx)
{
	return qp->sq_base + (size_t)idx * IRDMA_QP_WQE_MIN_SIZE;
}
void soft_sq_consumed(struct soft_qp *qp, uint16_t quanta);

/* soft_rq.c */
/* 1: *r filled (and taken when take); 0: nothing posted; -EINVAL: malformed (taken). */
int soft_rq_fetch(struct soft_qp *qp, struct soft_rwqe *r, bool *from_srq, bool take);

/* soft_cqe.c */
struct soft_cqe {
	bool sq;
	bool error;
	uint16_t major, minor;
	uint8_t op;
	uint32_t wqe_idx;
	uint32_t bytes;
	uint32_t stat;         /* qword 0 high half (RoCE PSN / timestamp); 0 here */
	uint64_t ctx;          /* qword 1 */
	uint64_t srq_qp_ctx;   /* qword 5 for SRQ completions */
	bool srq;
	uint32_t qp_id;
	uint32_t inv_stag_or_src_qpn;
	bool inv_or_ipv4;      /* bit 53 */
	bool solicited;
	bool imm_valid;
	uint32_t imm;
	bool smac_valid;
	uint8_t smac[6];
	bool vlan_valid;
	uint16_t vlan;
};
int soft_cqe_write(struct soft_dev *dev, struct soft_cq *cq, const struct soft_cqe *c);
/* The CQE soft_cqe_write() writes for a send WQE that completed without error, with less
 * work; -ENOSPC without writing (and without entering the error state) when it does not
 * fit: soft_cqe_write() then reports the overflow. */
int soft_cqe_write_sq_ok(struct soft_dev *dev, struct soft_cq *cq, uint32_t qp_id, uint64_t ctx,
			 uint8_t op, uint32_t wqe_idx);
void soft_cq_arm_doorbell(struct soft_dev *dev, struct soft_cq *cq);

/* soft_sge.c: checked data movement */
int soft_sges_check(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
		    uint32_t n, uint32_t access);
int soft_sges_copy(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge, uint32_t n,
		   uint64_t off, uint8_t *buf, uint32_t len, bool to_sges);
/* soft_flush.c: QP to ERR, flush */
void soft_qp_to_error(struct soft_qp *qp, enum irdma_hw_event_type ev, uint16_t ae);
void soft_qp_flush(struct soft_qp *qp);
void soft_async_event(struct soft_dev *dev, enum irdma_hw_event_type t, uint32_t id,
		      uint16_t ae);
/* soft_rq.c: the CQE of a receive WQE (success, error or flush) */
int soft_rq_complete(struct soft_qp *qp, struct soft_cqe *c, bool from_srq,
		     const struct soft_rwqe *r);

/* soft_req.c: requester front end (fetch, local operations, posting to the transport) */
unsigned int soft_req_run(struct soft_qp *qp, unsigned int budget, uint64_t now);

/* soft_comp.c: send completions */
unsigned int soft_comp_retire(struct soft_qp *qp);
uint8_t soft_wc_to_flush(uint8_t roce_status);
int soft_sq_cqe(struct soft_qp *qp, const struct soft_swqe *s, uint8_t minor, bool error);
int soft_comp_read_place(struct roce_qp *xq, uint64_t wr_id, uint32_t off, const void *data,
			 uint32_t len);
void soft_comp_send_done(struct roce_qp *xq, const struct roce_send_done *d);

/* soft_resp.c: lib/roce's responder callbacks */
int soft_resp_recv_begin(struct roce_qp *xq, uint32_t min_len, uint64_t *cookie);
int soft_resp_recv_place(struct roce_qp *xq, uint64_t cookie, uint32_t off, const void *data,
			 uint32_t len);
void soft_resp_recv_end(struct roce_qp *xq, uint64_t cookie, const struct roce_recv_done *d);
int soft_resp_mr_check(struct roce_qp *xq, uint32_t rkey, uint64_t va, uint32_t len,
		       unsigned int access);
int soft_resp_mem_write(struct roce_qp *xq, uint32_t rkey, uint64_t va, const void *data,
			uint32_t len);
int soft_resp_mem_write_checked(struct roce_qp *xq, uint32_t rkey, uint64_t va, const void *data,
				uint32_t len);
int soft_resp_atomic(struct roce_qp *xq, uint32_t rkey, uint64_t va, int cmp_swap,
		     uint64_t swap_add, uint64_t cmp, uint64_t *orig);
void soft_resp_qp_error(struct roce_qp *xq, uint8_t status);

/* soft_transport.c: the binding to lib/roce */
int soft_xport_init(struct soft_qp *qp);
void soft_xport_fini(struct soft_qp *qp);
int soft_xport_modify(struct soft_qp *qp, const struct irdma_hw_qp_attr *a, uint32_t mask);
int soft_xport_post_fast(struct soft_qp *qp, uint32_t slot, const struct roce_send_wr *wr,
			 uint64_t now);
void soft_xport_timers(struct soft_qp *qp, uint64_t now);
/* A frame for the QP into lib/roce (inline: the wire calls it for every frame). */
static inline void soft_xport_rx(struct soft_qp *qp, const struct roce_pkt *p, uint64_t now)
{
	qp->st.rx_packets++;
	qp->st.rx_bytes += p->paylen;
	roce_qp_rx(&qp->xport, p, now); /* drops are counted in qp->xport.stats */
	qp->rctx.wchk_len = 0; /* a key check holds for the frame it was made for only */
	qp->rctx.fuse_pl = NULL; /* so does a fused ICRC check left to mem_write */
}
void soft_xport_settle(struct soft_qp *qp);
uint64_t soft_clock_rebase(struct soft_dev *dev, uint64_t tsc);

/* The TSC value at which soft_now_ns() reaches ns, about (a 32.32 fixed-point product,
 * no division; a little early at worst, which costs one extra look). */
static inline uint64_t soft_ns_to_tsc(const struct soft_dev *dev, uint64_t ns)
{
	unsigned __int128 t = (unsigned __int128)ns * dev->tsc_per_ns_q32;

	t >>= 32;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* lib/roce's clock in ns at TSC value tsc: within a nanosecond of tsc * 10^9 / tsc_hz,
 * with a multiply instead of two divisions. */
static inline uint64_t soft_clock_ns(struct soft_dev *dev, uint64_t tsc)
{
	uint64_t d = tsc - dev->clk_tsc;

	if (unlikely(d >= dev->tsc_hz)) /* a second on (or a TSC behind the base) */
		return soft_clock_rebase(dev, tsc);
	return dev->clk_ns + (uint64_t)(((unsigned __int128)d * dev->ns_per_tsc_q32) >> 32);
}

/* The time of the running engine step: the TSC is read once per step, by the first part
 * of the step that needs the time. */
static inline uint64_t soft_now_ns(struct soft_dev *dev)
{
	if (dev->step_ns == 0)
		dev->step_ns = soft_clock_ns(dev, rte_get_tsc_cycles());
	return dev->step_ns;
}
void soft_roce_av(struct soft_dev *dev, const struct irdma_hw_av *av, struct roce_av *out);

/* soft_engine.c */
/* The QP has something for the engine (a doorbell, a received frame, a state change):
 * queue it for the next step unless it is queued. Engine context or engine_lock held. */
static inline void soft_engine_mark(struct soft_dev *dev, const struct soft_qp *qp)
{
	uint8_t *f = &dev->qp_sched[qp->id];

	if (*f & SOFT_SCHED_WORK)
		return;
	*f |= SOFT_SCHED_WORK;
	dev->work[(dev->work_head + dev->n_work++) & dev->work_mask] = qp->id;
}
/* Work for the engine that a step of this QP can move on whatever the wire does: an
 * error to apply, completions to retire, frames lib/roce wants to send. (Send WQEs waiting
 * for room in the transport, or behind a fence, wait for a frame from the wire; deadlines
 * are the timer list's.) */
static inline bool soft_engine_qp_pending(const struct soft_qp *qp, uint64_t now)
{
	return qp->wire_err ||
	       (qp->swq_done != qp->swq_head && qp->swq[qp->swq_done].state == SOFT_SWQE_DONE) ||
	       roce_qp_wants_tx(&qp->xport, now);
}

/* Send work the front end has not handed to the transport: WQEs to fetch, or fetched
 * ones waiting (for room in lib/roce, behind a fence). */
static inline bool soft_engine_sq_waiting(const struct soft_qp *qp)
{
	/* the usual answer (nothing fetched or to fetch) first */
	return (qp->sq_kick || qp->swq_send != qp->swq_head) && !qp->sq_stalled &&
	       (qp->state == IRDMA_HW_QPS_RTS || qp->state == IRDMA_HW_QPS_SQD);
}

/* soft_engine_timer_follow() when an armed QP is not listed or its deadline is the new
 * earliest (out of line: the list's general case); d: the QP's lib/roce deadline, just read
 * (roce_qp_next_deadline). */
void soft_engine_timer_note(struct soft_dev *dev, const struct soft_qp *qp, uint64_t d);

/* After a QP's step or a frame: the timer list follows its lib/roce deadline. The ACK
 * timer starts and stops with every write, so the common cases are inline: the first armed
 * QP makes the list, and when the only listed QP's timer stops the list empties (an idle
 * step then reads no clock: engine_idle). With several QPs listed, one whose timer stopped,
 * or moved later, stays listed without list work until the expiry walk drops it
 * (timers_expire); timer_tsc is then at worst early. */
static __rte_always_inline void soft_engine_timer_follow(struct soft_dev *dev,
							 const struct soft_qp *qp)
{
	uint64_t d = roce_qp_next_deadline(&qp->xport);
	uint8_t *f = &dev->qp_sched[qp->id];

	if (d == ROCE_TIME_NEVER) {
		if ((*f & SOFT_SCHED_TIMER) && dev->n_timers == 1) { /* timers[0] is this QP */
			*f &= (uint8_t)~SOFT_SCHED_TIMER;
			dev->n_timers = 0;
			dev->timers_armed = false;
			dev->timer_ns = ROCE_TIME_NEVER;
			dev->timer_tsc = UINT64_MAX;
		}
		return;
	}
	if (dev->n_timers == 0) {
		*f |= SOFT_SCHED_TIMER;
		dev->timers[0] = qp->id;
		dev->timer_pos[qp->id] = 0;
		dev->n_timers = 1;
		dev->timers_armed = true;
		dev->timer_ns = d;
		dev->timer_tsc = soft_ns_to_tsc(dev, d);
		return;
	}
	if (!(*f & SOFT_SCHED_TIMER) || unlikely(d < dev->timer_ns))
		soft_engine_timer_note(dev, qp, d);
}

/* After the wire handed the QP a frame (and its completions were retired): queue it when
 * it has something to send or fetch, else just follow its deadline (an ACK that ends the
 * wait takes the QP off the timer list without a visit). */
static inline void soft_engine_rx_done(struct soft_dev *dev, struct soft_qp *qp, uint64_t now)
{
	if (soft_engine_qp_pending(qp, now) || soft_engine_sq_waiting(qp)) {
		soft_engine_mark(dev, qp);
		return;
	}
	soft_engine_timer_follow(dev, qp);
}
int soft_engine_init(struct soft_dev *dev);
void soft_engine_fini(struct soft_dev *dev);
/* The QP is going away or to RESET: off the timer list (the work list skips it). */
void soft_engine_forget(struct soft_dev *dev, struct soft_qp *qp);
int soft_engine_progress(struct irdma_hw_dev *hw, unsigned int budget);
int soft_engine_sq_kick(struct irdma_hw_dev *hw, uint32_t qp_id, unsigned int budget);
int soft_engine_start(struct soft_dev *dev);
void soft_engine_stop(struct soft_dev *dev);

#endif /* SOFT_PRIV_H */
