/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private state of the PMD: the objects behind the public handles of rte_pmd_irdma.h.
 *
 * Each private object embeds its public handle as the first member, so a handle converts to
 * the object with a cast (IRDMA_PRIV). Control-path calls on a device are serialised by
 * dev->lock; the data path (post, poll) takes no lock: one lcore at a time per QP and per CQ.
 */
#ifndef IRDMA_PMD_H
#define IRDMA_PMD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_memzone.h>
#include <rte_spinlock.h>

#include "irdma_user.h"

#include "irdma_devargs.h"
#include "irdma_hw.h"
#include "irdma_log.h"
#include "irdma_queue_mem.h"
#include "irdma_stag.h"
#include "irdma_wr_rules.h"
#include "irdma_xstats.h"
#include "rte_pmd_irdma.h"

#define IRDMA_PRIV(type, pub) ((struct type *)(pub))

/*
 * Handle validation. Every private object (and the device) carries a magic naming its type
 * while it lives; every public entry point checks it. Destroying an object poisons the magic
 * and parks its memory behind the last IRDMA_RETIRED_MAX destroyed objects before freeing it
 * (irdma_handle_retire): a destroyed handle reads the poisoned magic and is refused with
 * -EINVAL, and a new object never takes the address of a recently destroyed one, so a stale
 * handle cannot silently name its successor of the same type.
 */
enum irdma_magic {
	IRDMA_MAGIC_DEV = 0x49d40001u,
	IRDMA_MAGIC_PD,
	IRDMA_MAGIC_MR,
	IRDMA_MAGIC_MW,
	IRDMA_MAGIC_AH,
	IRDMA_MAGIC_CQ,
	IRDMA_MAGIC_SRQ,
	IRDMA_MAGIC_QP,
	IRDMA_MAGIC_DEAD = 0xdead0bd1u,
};

#define IRDMA_RETIRED_MAX 1024

/* Poison *magic and park obj (rte_malloc memory); frees the oldest parked object. */
void irdma_handle_retire(void *obj, uint32_t *magic);

/*
 * Device-wide table for the post-path lkey check, by irdma_stag_to_index(). The device owns the
 * key table and checks every access; this is the PMD's view of one fact of it (which PD an
 * STag of a live MR belongs to) so a post can refuse another PD's lkey with -EPERM instead
 * of a completion error. One word per key, stored with release by reg/dereg (control path)
 * and loaded with acquire by the post path: a reader racing with a (de)registration sees the
 * old or the new entry whole, never a torn pair. The device's count of bound windows is not
 * mirrored (mr_dereg asks it).
 */
struct irdma_key_entry {
	uint64_t word; /* irdma_key_word(stag, pd_id); 0: free */
};

static inline uint64_t
irdma_key_word(uint32_t stag, uint32_t pd_id)
{
	return (uint64_t)pd_id << 32 | stag;
}

#define IRDMA_ASYNC_EVENTS 64 /* power of two */

struct irdma_pmd_pd {
	struct rte_pmd_irdma_pd pub;
	uint32_t magic; /* IRDMA_MAGIC_PD while it lives */
	uint32_t refcnt; /* MRs, MWs, QPs, SRQs, AHs */
};

struct irdma_pmd_mr {
	struct rte_pmd_irdma_mr pub;
	uint32_t magic; /* IRDMA_MAGIC_MR while it lives */
	uint32_t stag; /* windows bound to it: the device's count (mr_dereg answers -EBUSY) */
};

struct irdma_pmd_mw {
	struct rte_pmd_irdma_mw pub;
	uint32_t magic; /* IRDMA_MAGIC_MW while it lives */
	uint32_t stag;   /* as allocated; the key byte changes with binds (pub.rkey) */
};

struct irdma_pmd_ah {
	struct rte_pmd_irdma_ah pub;
	uint32_t magic; /* IRDMA_MAGIC_AH while it lives */
	struct rte_pmd_irdma_ah_attr attr;
};

/* A CQ ring being drained after a resize (polled before the current one). */
struct irdma_cq_old_ring {
	struct irdma_cq_uk uk;
	struct irdma_qmem mem;
	uint64_t scratch_shadow[IRDMA_SHADOW_AREA_SIZE]; /* keeps its head out of the real shadow */
};

#define IRDMA_CQ_MAX_OLD_RINGS 4

/* Engine work per inline call (poll_cq's step, a post's kick): what one poll may spend. */
#define IRDMA_INLINE_BUDGET 64

struct irdma_pmd_cq {
	struct rte_pmd_irdma_cq pub;
	uint32_t magic; /* IRDMA_MAGIC_CQ while it lives */
	struct irdma_cq_uk uk;
	/* engine=inline: the poll steps the device first (NULL with engine=service) */
	int (*progress)(struct irdma_hw_dev *hw, unsigned int budget);
	struct irdma_hw_dev *hw;
	struct irdma_qmem mem;
	struct irdma_shadow shadow;
	uint32_t refcnt;         /* QPs using it as send or recv CQ */
	uint8_t n_old;
	struct irdma_cq_old_ring *old[IRDMA_CQ_MAX_OLD_RINGS];
	uint8_t in_error;        /* overflowed: stored by the engine's async event, loaded by the
				  * poll (__atomic, relaxed: it orders nothing else) */
	struct irdma_cq_stats stats;
	TAILQ_ENTRY(irdma_pmd_cq) next;
};

struct irdma_pmd_srq {
	struct rte_pmd_irdma_srq pub;
	uint32_t magic; /* IRDMA_MAGIC_SRQ while it lives */
	struct irdma_srq_uk uk;
	struct irdma_qmem mem;
	struct irdma_shadow shadow;
	struct rte_pmd_irdma_srq_attr attr;
	uint32_t pd_id;
	uint32_t refcnt;         /* QPs attached */
	irdma_uk_spinlock_t tail_lock; /* the SRQ tail moves from polls of several CQs */
	TAILQ_ENTRY(irdma_pmd_srq) next;
};

struct irdma_pmd_qp {
	struct rte_pmd_irdma_qp pub;
	uint32_t magic; /* IRDMA_MAGIC_QP while it lives */
	struct irdma_qp_uk uk;
	/* engine=inline: the post takes its own doorbell (irdma_hw_ops.sq_kick; NULL: rings) */
	int (*sq_kick)(struct irdma_hw_dev *hw, uint32_t qp_id, unsigned int budget);
	struct irdma_hw_dev *hw;
	uint32_t pd_id;
	uint32_t sig_flags; /* sq_sig_all: RTE_PMD_IRDMA_SEND_SIGNALED, or'ed into every WR */
	uint8_t gen;
	const struct irdma_key_entry *keys; /* the device's lkey table */
	uint32_t n_keys;
	struct irdma_wr_allowed wr_allowed; /* from irdma_wr_rules at creation */
	uint32_t sge_len_max;               /* irdma_sge_len_max(gen) */
	struct irdma_qmem sq, rq;
	struct irdma_shadow shadow;
	/*
	 * A send WR is tracked once per layer, each for what only it knows; none copies
	 * another's facts:
	 *  - here, lib/uk's sq_wrtrk (per SQ quantum: wr_id, length, quanta, signaled): the
	 *    host's truth for what the application posted, and what a completion reports
	 *    (wr_id, byte_len) and frees (SQ space). A device never sees it.
	 *  - the device's own record of the WQEs it fetched (the soft device: soft_qp.swq,
	 *    state, status, fences): its truth for execution order and which CQE to write
	 *    when. It reads WQEs from SQ memory, never sq_wrtrk.
	 *  - lib/roce's request ring (struct roce_swqe, soft device only): the wire's truth
	 *    (PSN ranges, what was sent, acknowledged, retried); it hands back a status per WR.
	 */
	struct irdma_sq_uk_wr_trk_info *sq_wrtrk;
	uint64_t *rq_wrid;
	struct irdma_qp_uk_init_info uk_info; /* geometry, to re-initialise after RESET */
	struct rte_pmd_irdma_qp_attr attr;  /* verbs view, as last modified */
	struct rte_pmd_irdma_qp_cap cap;    /* granted */
	struct irdma_qp_stats stats;
	TAILQ_ENTRY(irdma_pmd_qp) next;
};

struct rte_pmd_irdma_dev {
	TAILQ_ENTRY(rte_pmd_irdma_dev) next;
	uint32_t magic;                     /* IRDMA_MAGIC_DEV while open */
	char name[RTE_PMD_IRDMA_NAME_LEN];
	uint32_t index;                     /* registry slot, used in memzone names */
	const struct irdma_hw_ops *ops;
	struct irdma_hw_dev *hw;
	struct irdma_hw_dev_info hw_info;
	struct irdma_uk_attrs uk_attrs;    /* copy: lib/uk takes a non-const pointer */
	const struct irdma_uk_attrs *attrs; /* = &uk_attrs */
	struct irdma_devargs da;
	int socket_id;
	rte_spinlock_t lock;                /* control path */
	uint32_t mz_seq;                    /* memzone name sequence */
	struct irdma_shadow_pool shadows;
	struct irdma_qmem_pool qpool;       /* queue memory carved from large memzones */

	uint32_t n_pd, n_mr, n_mw, n_cq, n_qp, n_srq, n_ah;
	TAILQ_HEAD(, irdma_pmd_qp) qps;
	TAILQ_HEAD(, irdma_pmd_cq) cqs;
	TAILQ_HEAD(, irdma_pmd_srq) srqs;
	struct irdma_key_entry *keys;
	uint32_t n_keys;
	struct irdma_pmd_cq **cq_by_id;     /* for async events; n_cq_ids entries */
	uint32_t n_cq_ids;
	struct irdma_pmd_qp **qp_by_id;     /* for async events; n_qp_ids entries */
	uint32_t n_qp_ids;

	/* Async events: written by the engine (any lcore), read by the application. */
	rte_spinlock_t ev_lock;
	struct irdma_hw_event ev[IRDMA_ASYNC_EVENTS];
	uint32_t ev_head, ev_tail;
	uint64_t ev_lost;

	/* Counters of destroyed QPs and CQs, so device totals do not go backwards. */
	struct irdma_qp_stats retired_qp;
	struct irdma_cq_stats retired_cq;
};

/* The largest SGE length the WQE fragment encodes: 31 bits on GEN_2/3, 32 on GEN_1. */
static inline uint32_t
irdma_sge_len_max(uint8_t gen)
{
	return gen == IRDMA_GEN_1 ? UINT32_MAX : (uint32_t)INT32_MAX;
}

/* Registry (irdma_dev.c). */
void irdma_registry_lock(void);
void irdma_registry_unlock(void);
struct rte_pmd_irdma_dev *irdma_registry_first(void);
struct rte_pmd_irdma_dev *irdma_registry_next(struct rte_pmd_irdma_dev *dev);
/* By name; the caller holds the registry lock. */
struct rte_pmd_irdma_dev *irdma_registry_find(const char *name);

/* Tests only (irdma_dev.c): called inside dev_close once the device has left the registry. */
extern void (*irdma_dev_close_hook)(const struct rte_pmd_irdma_dev *dev);

/* dev_info.max_srq_wr (irdma_dev.c): srq_create refuses more. */
uint32_t irdma_dev_max_srq_wr(const struct rte_pmd_irdma_dev *dev);

/* MR table maintenance (irdma_mr.c). */
void irdma_keys_set(struct rte_pmd_irdma_dev *dev, uint32_t stag, uint32_t pd_id);
void irdma_keys_clear(struct rte_pmd_irdma_dev *dev, uint32_t stag);

/* QP helpers used by other objects (irdma_qp.c). */
struct irdma_pmd_qp *irdma_qp_by_num(struct rte_pmd_irdma_dev *dev, uint32_t qp_num);

/*
 * The QP state the PMD owns: one word, pub.state (the application reads it, read-only).
 * The device keeps its own (irdma_hw_ops.qp_query reports it); everything else is derived
 * from these two: the verbs attributes of rte_pmd_irdma_qp_query take this word, the soft
 * device's attributes take its own state, lib/roce's transport state is the device's.
 *
 * Writers: rte_pmd_irdma_qp_modify (control path, under dev->lock) stores with release;
 * irdma_qp_state_note_error moves a working QP to ERR from any context (the engine's async
 * event, the polling lcore at an error CQE, a query that finds the device in ERR) with a
 * compare-and-swap, so it never undoes a RESET or a state the control path set meanwhile.
 * Readers on the post path load with acquire: a post that sees RTS also sees what the
 * modify to RTS wrote before it.
 */
static inline enum rte_pmd_irdma_qp_state
irdma_qp_state(const struct irdma_pmd_qp *qp)
{
	return __atomic_load_n(&qp->pub.state, __ATOMIC_ACQUIRE);
}

static inline void
irdma_qp_state_set(struct irdma_pmd_qp *qp, enum rte_pmd_irdma_qp_state s)
{
	__atomic_store_n(&qp->pub.state, s, __ATOMIC_RELEASE);
}

/* The device moved the QP to ERR. Only a QP the device runs (RTR, RTS, SQD, SQE) moves:
 * a late report about an incarnation reset since is ignored. */
void irdma_qp_state_note_error(struct irdma_pmd_qp *qp);

/* Completion-side cleanup when a QP goes away (irdma_cq.c). */
void irdma_cq_clean_qp(struct irdma_pmd_cq *cq, struct irdma_pmd_qp *qp);

/* Busy-poll CPU sharing check (irdma_lcore.c). */
void irdma_lcore_check_sharing(const struct rte_pmd_irdma_dev *dev);

/* Telemetry helpers (irdma_telemetry.c). */
const char *irdma_gen_str(uint8_t gen);

static inline bool
irdma_dev_valid(const struct rte_pmd_irdma_dev *dev)
{
	return dev != NULL && dev->magic == IRDMA_MAGIC_DEV && dev->hw != NULL;
}

/* A live handle of each type: not NULL, not destroyed (the magic of its type). */
#define IRDMA_LIVE_FN(t, M)                                                                \
	static inline bool irdma_##t##_live(const struct rte_pmd_irdma_##t *pub)           \
	{                                                                                  \
		return pub != NULL &&                                                      \
		       ((const struct irdma_pmd_##t *)(const void *)pub)->magic == (M);    \
	}
IRDMA_LIVE_FN(pd, IRDMA_MAGIC_PD)
IRDMA_LIVE_FN(mr, IRDMA_MAGIC_MR)
IRDMA_LIVE_FN(mw, IRDMA_MAGIC_MW)
IRDMA_LIVE_FN(ah, IRDMA_MAGIC_AH)
IRDMA_LIVE_FN(cq, IRDMA_MAGIC_CQ)
IRDMA_LIVE_FN(srq, IRDMA_MAGIC_SRQ)
IRDMA_LIVE_FN(qp, IRDMA_MAGIC_QP)
#undef IRDMA_LIVE_FN

/*
 * Control-path allocation of @p size zeroed bytes on the device's socket. On failure it logs
 * what could not be allocated, for which device and function, and returns NULL.
 */
void *irdma_zmalloc_at(const char *func, const struct rte_pmd_irdma_dev *dev, const char *type,
		       size_t size, unsigned int align);
#define IRDMA_ZMALLOC(dev, type, size, align) irdma_zmalloc_at(__func__, dev, type, size, align)

#endif /* IRDMA_PMD_H */
