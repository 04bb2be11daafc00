/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/uk public API: the irdma "uk" queue layer (the Linux kernel's user.h equivalent).
 *
 * Names, prototypes, structs and field names follow the Linux kernel (drivers/infiniband/hw/irdma/user.h as of
 * the 6.19+/7.x uk), errors are negative errno. C types: u8/u16/u32/u64 of the kernel are uint8_t..uint64_t,
 * __le64 is uint64_t holding a little-endian value, `bool x:1` flag fields are plain bool (same names).
 * Additions that the kernel struct does not have are marked "lib/uk".
 *
 * Threading: a QP, CQ or SRQ is driven by one thread at a time (posting) and one thread at a time (polling);
 * the SRQ tail moved by polls on several CQs is protected by srq->lock when one is supplied.
 */
#ifndef IRDMA_USER_H
#define IRDMA_USER_H

#include <stdbool.h>
#include <stdint.h>

#include "irdma_defs.h"
#include "uk_osdep.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_qp_uk;
struct irdma_cq_uk;
struct irdma_srq_uk;

typedef uint32_t irdma_stag;
typedef uint32_t irdma_stag_index;
typedef uint32_t irdma_stag_key;
typedef struct irdma_qp_uk *irdma_qp_handle;
typedef struct irdma_cq_uk *irdma_cq_handle;

enum irdma_device_caps_const {
	IRDMA_DB_ID_ZERO = 0,
	IRDMA_MAX_PUSH_PAGE_COUNT = 1024,
	IRDMA_MAX_SQ_PAYLOAD_SIZE = 2145386496,
	IRDMA_MAX_PDS = 262144,
};

enum irdma_addressing_type {
	IRDMA_ADDR_TYPE_ZERO_BASED = 0,
	IRDMA_ADDR_TYPE_VA_BASED = 1,
};

/* Minor error codes of flush CQEs (major IRDMA_FLUSH_MAJOR_ERR). */
enum irdma_flush_opcode {
	FLUSH_INVALID = 0,
	FLUSH_GENERAL_ERR,
	FLUSH_PROT_ERR,
	FLUSH_REM_ACCESS_ERR,
	FLUSH_LOC_QP_OP_ERR,
	FLUSH_REM_OP_ERR,
	FLUSH_LOC_LEN_ERR,
	FLUSH_FATAL_ERR,
	FLUSH_RETRY_EXC_ERR,
	FLUSH_MW_BIND_ERR,
	FLUSH_REM_INV_REQ_ERR,
	FLUSH_RNR_RETRY_EXC_ERR,
};

enum irdma_qp_event_type {
	IRDMA_QP_EVENT_CATASTROPHIC,
	IRDMA_QP_EVENT_ACCESS_ERR,
	IRDMA_QP_EVENT_REQ_ERR,
};

/* Completion status produced by irdma_uk_cq_poll_cmpl: SUCCESS, FLUSHED or UNKNOWN (the others exist for
 * the verbs mapping and are never produced by the uk poll). */
enum irdma_cmpl_status {
	IRDMA_COMPL_STATUS_SUCCESS = 0,
	IRDMA_COMPL_STATUS_FLUSHED,
	IRDMA_COMPL_STATUS_INVALID_WQE,
	IRDMA_COMPL_STATUS_QP_CATASTROPHIC,
	IRDMA_COMPL_STATUS_REMOTE_TERMINATION,
	IRDMA_COMPL_STATUS_INVALID_STAG,
	IRDMA_COMPL_STATUS_BASE_BOUND_VIOLATION,
	IRDMA_COMPL_STATUS_ACCESS_VIOLATION,
	IRDMA_COMPL_STATUS_INVALID_PD_ID,
	IRDMA_COMPL_STATUS_WRAP_ERROR,
	IRDMA_COMPL_STATUS_STAG_INVALID_PDID,
	IRDMA_COMPL_STATUS_RDMA_READ_ZERO_ORD,
	IRDMA_COMPL_STATUS_QP_NOT_PRIVLEDGED,
	IRDMA_COMPL_STATUS_STAG_NOT_INVALID,
	IRDMA_COMPL_STATUS_INVALID_PHYS_BUF_SIZE,
	IRDMA_COMPL_STATUS_INVALID_PHYS_BUF_ENTRY,
	IRDMA_COMPL_STATUS_INVALID_FBO,
	IRDMA_COMPL_STATUS_INVALID_LEN,
	IRDMA_COMPL_STATUS_INVALID_ACCESS,
	IRDMA_COMPL_STATUS_PHYS_BUF_LIST_TOO_LONG,
	IRDMA_COMPL_STATUS_INVALID_VIRT_ADDRESS,
	IRDMA_COMPL_STATUS_INVALID_REGION,
	IRDMA_COMPL_STATUS_INVALID_WINDOW,
	IRDMA_COMPL_STATUS_INVALID_TOTAL_LEN,
	IRDMA_COMPL_STATUS_UNKNOWN,
};

enum irdma_cmpl_notify {
	IRDMA_CQ_COMPL_EVENT = 0,     /* arm for the next completion */
	IRDMA_CQ_COMPL_SOLICITED = 1, /* arm for the next solicited completion */
};

enum irdma_qp_caps {
	IRDMA_WRITE_WITH_IMM = 1,
	IRDMA_SEND_WITH_IMM = 2,
	IRDMA_ROCE = 4,
	IRDMA_PUSH_MODE = 8,
};

/* One quantum of an SQ/RQ/SRQ ring, and CQE slots. */
struct irdma_qp_quanta {
	uint64_t elem[IRDMA_WQE_SIZE];
};

struct irdma_cqe {
	uint64_t buf[IRDMA_CQE_SIZE];
};

struct irdma_extended_cqe {
	uint64_t buf[IRDMA_EXTENDED_CQE_SIZE];
};

/* A scatter/gather element (the kernel's struct ib_sge: same fields as struct ibv_sge). */
struct irdma_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

struct irdma_ring {
	uint32_t head;
	uint32_t tail;
	uint32_t size;
};

/* ------------------------------------------------------------------------------------------------------ */
/* Work requests                                                                                           */
/* ------------------------------------------------------------------------------------------------------ */

struct irdma_post_send {
	struct irdma_sge *sg_list;
	uint32_t num_sges;
	uint32_t qkey;    /* UD */
	uint32_t dest_qp; /* UD */
	uint32_t ah_id;   /* UD */
};

struct irdma_post_rq_info {
	uint64_t wr_id;
	struct irdma_sge *sg_list;
	uint32_t num_sges;
};

struct irdma_rdma_write {
	struct irdma_sge *lo_sg_list;
	uint32_t num_lo_sges;
	struct irdma_sge rem_addr; /* addr = remote address, lkey = remote STag (rkey) */
};

struct irdma_rdma_read {
	struct irdma_sge *lo_sg_list;
	uint32_t num_lo_sges;
	struct irdma_sge rem_addr; /* addr = remote address, lkey = remote STag (rkey) */
};

struct irdma_bind_window {
	irdma_stag mr_stag;
	uint64_t bind_len;
	void *va;
	enum irdma_addressing_type addressing_type;
	bool ena_reads;
	bool ena_writes;
	irdma_stag mw_stag;
	bool mem_window_type_1;
	bool remote_atomics_en; /* GEN_3 */
};

struct irdma_inv_local_stag {
	irdma_stag target_stag;
};

struct irdma_atomic_fetch_add {
	uint64_t tagged_offset;        /* local buffer (8 bytes) */
	uint64_t remote_tagged_offset;
	uint64_t fetch_add_data_bytes;
	uint32_t stag;                 /* local lkey */
	uint32_t remote_stag;
};

struct irdma_atomic_compare_swap {
	uint64_t tagged_offset;
	uint64_t remote_tagged_offset;
	uint64_t swap_data_bytes;
	uint64_t compare_data_bytes;
	uint32_t stag;
	uint32_t remote_stag;
};

struct irdma_post_sq_info {
	uint64_t wr_id;
	uint8_t op_type;
	uint8_t l4len;
	bool signaled;
	bool read_fence;
	bool local_fence;
	bool inline_data;
	bool imm_data_valid;
	bool report_rtt;
	bool udp_hdr;
	bool defer_flag;
	bool remote_atomic_en;
	uint32_t imm_data;
	uint32_t stag_to_inv;
	union {
		struct irdma_post_send send;
		struct irdma_rdma_write rdma_write;
		struct irdma_rdma_read rdma_read;
		struct irdma_bind_window bind_window;
		struct irdma_inv_local_stag inv_local_stag;
		struct irdma_atomic_fetch_add atomic_fetch_add;
		struct irdma_atomic_compare_swap atomic_compare_swap;
	} op;
};

/* ------------------------------------------------------------------------------------------------------ */
/* Completions                                                                                             */
/* ------------------------------------------------------------------------------------------------------ */

struct irdma_cq_poll_info {
	uint64_t wr_id;
	irdma_qp_handle qp_handle;
	uint32_t bytes_xfered;
	uint32_t qp_id;
	uint32_t ud_src_qpn;
	uint32_t imm_data;
	irdma_stag inv_stag;
	enum irdma_cmpl_status comp_status;
	uint16_t major_err;
	uint16_t minor_err;
	uint16_t ud_vlan;
	uint8_t ud_smac[6];
	uint8_t op_type;
	uint8_t q_type;
	bool stag_invalid_set; /* or L_R_Key set */
	bool error;
	bool solicited_event;
	bool ipv4;
	bool ud_vlan_valid;
	bool ud_smac_valid;
	bool imm_valid;
	union {
		uint32_t tcp_sqn;
		uint32_t roce_psn;
		uint32_t rtt;
		uint32_t raw; /* CQE qword 0 bits 32..63; GEN_3 completion timestamp */
	} stat;
};

/* ------------------------------------------------------------------------------------------------------ */
/* Device attributes, queues                                                                               */
/* ------------------------------------------------------------------------------------------------------ */

struct irdma_uk_attrs {
	uint64_t feature_flags;  /* IRDMA_FEATURE_* */
	uint32_t max_hw_wq_frags;
	uint32_t max_hw_read_sges;
	uint32_t max_hw_inline;
	uint32_t max_hw_rq_quanta;
	uint32_t max_hw_srq_quanta;
	uint32_t max_hw_wq_quanta;
	uint32_t min_hw_cq_size;
	uint32_t max_hw_cq_size;
	uint16_t max_hw_sq_chunk;
	uint16_t min_hw_wq_size;
	uint8_t hw_rev;          /* enum irdma_vers */
};

/*
 * The kernel's struct irdma_wqe_uk_ops (per-format fragment, inline and bind helpers called
 * through qp->wqe_ops) has no counterpart here: lib/uk dispatches on the WQE format with one
 * idiom, a test of hw_rev at the point of use, which the compiler folds into the inlined
 * one-SGE fast paths; a call through a table there would cost an indirect call per fragment
 * and stop that inlining. A second, unused way to the same helpers would only mislead.
 */

/* One entry per SQ quantum index; filled at the first quantum of every WQE. */
struct irdma_sq_uk_wr_trk_info {
	uint64_t wrid;
	uint32_t wr_len;   /* total SGE length, reported as bytes of a successful SQ completion */
	uint16_t quanta;
	uint8_t signaled;  /* kernel >= 6.19: unsignaled completions are consumed silently */
	uint8_t reserved[1];
};

struct irdma_srq_uk {
	uint32_t srq_caps;
	struct irdma_qp_quanta *srq_base;
	struct irdma_uk_attrs *uk_attrs;
	uint64_t *shadow_area;
	struct irdma_ring srq_ring;
	uint32_t srq_id;
	uint32_t srq_size;
	uint32_t max_srq_frag_cnt;
	uint8_t srwqe_polarity;
	uint8_t wqe_size;            /* shift */
	uint8_t wqe_size_multiplier; /* quanta per WQE */
	uint8_t deferred_flag;
	irdma_uk_spinlock_t *lock;   /* taken when a poll moves the SRQ tail; NULL = caller serialises */
};

struct irdma_srq_uk_init_info {
	struct irdma_qp_quanta *srq;
	struct irdma_uk_attrs *uk_attrs;
	uint64_t *shadow_area;
	uint64_t *srq_wrid_array; /* unused by the uk layer */
	uint32_t srq_id;
	uint32_t srq_caps;
	uint32_t srq_size;        /* WQEs (depth >> shift) */
	uint32_t max_srq_frag_cnt;
	irdma_uk_spinlock_t *lock; /* lib/uk: copied to srq->lock */
};

struct irdma_qp_uk {
	struct irdma_qp_quanta *sq_base;
	struct irdma_qp_quanta *rq_base;
	struct irdma_uk_attrs *uk_attrs;
	uint32_t *wqe_alloc_db;       /* SQ doorbell (MMIO in hardware) */
	struct irdma_sq_uk_wr_trk_info *sq_wrtrk_array;
	uint64_t *rq_wrid_array;
	uint64_t *shadow_area;
	struct irdma_ring sq_ring;    /* counts quanta */
	struct irdma_ring rq_ring;    /* counts WQEs */
	uint32_t qp_id;
	uint32_t qp_caps;
	uint32_t sq_size;
	uint32_t rq_size;
	uint32_t max_sq_frag_cnt;
	uint32_t max_rq_frag_cnt;
	uint32_t max_inline_data;
	/* lib/uk: copies of uk_attrs fields the post path reads on every WR. Here they also keep
	 * first_sq_wq and destroy_pending in one aligned qword, which the fast poll tests with one
	 * load (with the two flags split across qwords a poll costs an instruction more). */
	uint8_t hw_rev;
	uint16_t max_hw_sq_chunk;
	uint16_t conn_wqes;
	uint8_t qp_type;
	uint8_t swqe_polarity;
	uint8_t swqe_polarity_deferred;
	uint8_t rwqe_polarity;
	uint8_t rq_wqe_size;           /* shift */
	uint8_t rq_wqe_size_multiplier;
	bool deferred_flag;
	bool first_sq_wq;
	bool sq_flush_complete;
	bool rq_flush_complete;
	bool destroy_pending;
	void *back_qp;                 /* owner object; untouched by the uk layer */
	uint8_t dbg_rq_flushed;
	uint8_t sq_flush_seen;
	uint8_t rq_flush_seen;
	struct irdma_srq_uk *srq_uk;
};

struct irdma_qp_uk_init_info {
	struct irdma_qp_quanta *sq;
	struct irdma_qp_quanta *rq;
	struct irdma_uk_attrs *uk_attrs;
	uint32_t *wqe_alloc_db;
	uint64_t *shadow_area;
	struct irdma_sq_uk_wr_trk_info *sq_wrtrk_array;
	uint64_t *rq_wrid_array;
	uint32_t qp_id;
	uint32_t qp_caps;
	uint32_t sq_size;          /* WQEs: sq_depth >> sq_shift (input of the depth functions: WRs) */
	uint32_t rq_size;          /* WQEs: rq_depth >> rq_shift (input of the depth functions: WRs) */
	uint32_t max_sq_frag_cnt;
	uint32_t max_rq_frag_cnt;
	uint32_t max_inline_data;
	uint32_t sq_depth;         /* quanta */
	uint32_t rq_depth;         /* quanta */
	uint8_t first_sq_wq;       /* iWARP: reserve the connection WQEs */
	uint8_t type;              /* IRDMA_QP_TYPE_*; 0 means iWARP */
	uint8_t sq_shift;
	uint8_t rq_shift;
	int abi_ver;
	bool legacy_mode;
	struct irdma_srq_uk *srq_uk;
};

struct irdma_cq_uk {
	struct irdma_cqe *cq_base;
	uint32_t *cqe_alloc_db;   /* CQ arm doorbell */
	uint32_t *cq_ack_db;      /* unused by the uk layer */
	uint64_t *shadow_area;
	uint32_t cq_id;
	uint32_t cq_size;         /* CQE slots */
	struct irdma_ring cq_ring;
	uint8_t polarity;
	bool avoid_mem_cflct;     /* 64-byte CQE slots */
};

struct irdma_cq_uk_init_info {
	uint32_t *cqe_alloc_db;
	uint32_t *cq_ack_db;
	struct irdma_cqe *cq_base;
	uint64_t *shadow_area;
	uint32_t cq_size;
	uint32_t cq_id;
	bool avoid_mem_cflct;
};

/* Asynchronous event code -> flush code and QP event (used for GEN_3 SRQ flush CQEs). */
struct qp_err_code {
	enum irdma_flush_opcode flush_code;
	enum irdma_qp_event_type event_type;
};

struct qp_err_code irdma_ae_to_qp_err_code(uint16_t ae_id);

/* ------------------------------------------------------------------------------------------------------ */
/* Posting work (negative errno: -EINVAL bad argument, -ENOMEM ring full)                                  */
/* ------------------------------------------------------------------------------------------------------ */
int irdma_uk_send(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);
int irdma_uk_inline_send(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);
int irdma_uk_rdma_write(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);
int irdma_uk_inline_rdma_write(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);
int irdma_uk_rdma_read(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool inv_stag,
		       bool post_sq);
int irdma_uk_atomic_fetch_add(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);
int irdma_uk_atomic_compare_swap(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);
int irdma_uk_stag_local_invalidate(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info,
				   bool post_sq);
int irdma_nop(struct irdma_qp_uk *qp, uint64_t wr_id, bool signaled, bool post_sq);
int irdma_uk_post_receive(struct irdma_qp_uk *qp, struct irdma_post_rq_info *info);
int irdma_uk_srq_post_receive(struct irdma_srq_uk *srq, struct irdma_post_rq_info *info);
void irdma_uk_qp_post_wr(struct irdma_qp_uk *qp);

/* lib/uk extension (rdma-core's entry point; the kernel uk only has the set_mw_bind_wqe helpers):
 * posts a 1-quantum bind-memory-window WQE from info->op.bind_window. */
int irdma_uk_mw_bind(struct irdma_qp_uk *qp, struct irdma_post_sq_info *info, bool post_sq);

/* Ring slot allocation (the post functions use these; exposed as in the kernel). */
uint64_t *irdma_qp_get_next_send_wqe(struct irdma_qp_uk *qp, uint32_t *wqe_idx, uint16_t quanta,
				     uint32_t total_size, struct irdma_post_sq_info *info);
uint64_t *irdma_qp_get_next_recv_wqe(struct irdma_qp_uk *qp, uint32_t *wqe_idx);
uint64_t *irdma_srq_get_next_recv_wqe(struct irdma_srq_uk *srq, uint32_t *wqe_idx);
void irdma_clr_wqes(struct irdma_qp_uk *qp, uint32_t qp_wqe_idx);

/* ------------------------------------------------------------------------------------------------------ */
/* Completion queues                                                                                       */
/* ------------------------------------------------------------------------------------------------------ */
void irdma_uk_cq_init(struct irdma_cq_uk *cq, struct irdma_cq_uk_init_info *info);
/* 0: info filled; -ENOENT: nothing to report; -EFAULT: a CQE was consumed that must not be reported. */
int irdma_uk_cq_poll_cmpl(struct irdma_cq_uk *cq, struct irdma_cq_poll_info *info);
bool irdma_uk_cq_empty(struct irdma_cq_uk *cq);
void irdma_uk_cq_request_notification(struct irdma_cq_uk *cq, enum irdma_cmpl_notify cq_notify);
void irdma_uk_cq_resize(struct irdma_cq_uk *cq, void *cq_base, int cq_size);
void irdma_uk_cq_set_resized_cnt(struct irdma_cq_uk *cq, uint16_t cq_cnt);
void irdma_uk_clean_cq(void *q, struct irdma_cq_uk *cq);

/* ------------------------------------------------------------------------------------------------------ */
/* Initialisation and sizing                                                                               */
/* ------------------------------------------------------------------------------------------------------ */
int irdma_uk_qp_init(struct irdma_qp_uk *qp, struct irdma_qp_uk_init_info *info);
int irdma_uk_srq_init(struct irdma_srq_uk *srq, struct irdma_srq_uk_init_info *info);
void irdma_uk_calc_shift_wq(struct irdma_qp_uk_init_info *ukinfo, uint8_t *sq_shift, uint8_t *rq_shift);
int irdma_uk_calc_depth_shift_sq(struct irdma_qp_uk_init_info *ukinfo, uint32_t *sq_depth,
				 uint8_t *sq_shift);
int irdma_uk_calc_depth_shift_rq(struct irdma_qp_uk_init_info *ukinfo, uint32_t *rq_depth,
				 uint8_t *rq_shift);
void irdma_get_wqe_shift(struct irdma_uk_attrs *uk_attrs, uint32_t sge, uint32_t inline_data,
			 uint8_t *shift);
int irdma_get_sqdepth(struct irdma_uk_attrs *uk_attrs, uint32_t sq_size, uint8_t shift,
		      uint32_t *sqdepth);
int irdma_get_rqdepth(struct irdma_uk_attrs *uk_attrs, uint32_t rq_size, uint8_t shift,
		      uint32_t *rqdepth);
int irdma_get_srqdepth(struct irdma_uk_attrs *uk_attrs, uint32_t srq_size, uint8_t shift,
		       uint32_t *srqdepth);
int irdma_fragcnt_to_quanta_sq(uint32_t frag_cnt, uint16_t *quanta);
/* lib/uk extension: the kernel's (>= 6.19) CQ sizing rule, slots for cqe completions. */
int irdma_uk_calc_cq_size(struct irdma_uk_attrs *uk_attrs, uint32_t cqe, bool cqe_64byte, uint32_t *cq_size);
int irdma_fragcnt_to_wqesize_rq(uint32_t frag_cnt, uint16_t *wqe_size);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_USER_H */
