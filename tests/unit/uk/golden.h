/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Row types of the golden-vector tables. gen_golden.py transcribes tests/data/irdma-golden-vectors.json
 * into these rows at build time (values as in the file: rdma-core's positive errno); test_uk_golden.c
 * replays them against lib/uk.
 */
#ifndef UK_GOLDEN_H
#define UK_GOLDEN_H

#include <stdbool.h>
#include <stdint.h>

#define GV_MAX_SGES 16
#define GV_MAX_SLOTS 6
#define GV_MAX_QWORDS 32

struct gv_attrs {
	uint8_t hw_rev;
	uint32_t max_hw_wq_frags, max_hw_read_sges, max_hw_inline, max_hw_rq_quanta, max_hw_wq_quanta;
	uint16_t max_hw_sq_chunk, min_hw_wq_size;
	uint32_t max_hw_srq_quanta, min_hw_cq_size, max_hw_cq_size;
	uint64_t feature_flags;
};

struct gv_wqe_shift {
	uint8_t gen;
	uint32_t sge, inline_len;
	uint8_t shift;
};

struct gv_fragcnt {
	uint32_t frag_cnt;
	int ret;
	uint32_t value; /* quanta or wqe_size */
};

enum gv_depth_fn { GV_SQDEPTH, GV_RQDEPTH, GV_SRQDEPTH };

struct gv_depth {
	enum gv_depth_fn fn;
	uint8_t gen;
	uint32_t size;
	uint8_t shift;
	int ret;
	uint32_t depth;
};

struct gv_calc {
	uint8_t gen;
	uint32_t max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline;
	int abi_ver;
	int sq_ret, rq_ret;
	uint32_t sq_depth, rq_depth;
	uint8_t sq_shift, rq_shift;
	int64_t reported_max_send_wr, reported_max_recv_wr;
	uint32_t sq_size_for_qp_init, rq_size_for_qp_init;
};

struct gv_qp_cfg {
	uint8_t gen;
	uint32_t sq_depth, rq_depth, sq_ring_size, rq_ring_size;
	uint8_t sq_shift, rq_shift;
	uint32_t max_sq_frag_cnt, max_rq_frag_cnt, max_inline_data, qp_id;
	uint8_t first_sq_wq;
};

struct gv_sge {
	uint64_t addr;
	uint32_t len, lkey;
};

enum gv_op {
	GV_OP_SEND,
	GV_OP_INLINE_SEND,
	GV_OP_RDMA_WRITE,
	GV_OP_INLINE_WRITE,
	GV_OP_RDMA_READ,
	GV_OP_LOCAL_INV,
	GV_OP_BIND_MW,
	GV_OP_NOP,
	GV_OP_ATOMIC_FAA,
	GV_OP_ATOMIC_CAS,
};

struct gv_slot {
	uint32_t wqe_idx;
	uint16_t quanta;
	uint64_t wrid;
	uint32_t wr_len;
	uint32_t nqwords;
	uint64_t qwords[GV_MAX_QWORDS];
	const char *bytes_le; /* hex image of the slot's memory */
};

struct gv_sq {
	const char *name;
	struct gv_qp_cfg qp;
	uint32_t before_head;
	uint8_t before_polarity;
	enum gv_op op;
	uint64_t wr_id;
	uint8_t op_type;
	bool signaled, read_fence, local_fence, report_rtt, udp_hdr, imm_valid, inv_stag, post_sq;
	uint8_t l4len;
	uint32_t imm_data, stag_to_inv, qkey, dest_qp, ah_id;
	uint64_t remote_addr;
	uint32_t rkey;
	uint32_t num_sges;
	struct gv_sge sges[GV_MAX_SGES]; /* explicit SGEs (non-inline ops) */
	uint32_t inline_len;             /* inline ops: payload bytes k+1 */
	uint32_t inline_split[2];        /* inline ops: SGE lengths (second 0 when one SGE) */
	uint32_t target_stag;
	uint32_t mr_stag, mw_stag;
	uint64_t bind_len, va;
	bool va_based, ena_reads, ena_writes, type1;
	uint64_t local_addr, add, swap, compare;
	uint32_t lkey;
	int ret;
	uint32_t after_head;
	uint8_t after_polarity;
	bool doorbell_written;
	uint32_t doorbell_value;
	uint32_t nslots;
	struct gv_slot slots[GV_MAX_SLOTS];
	bool has_next_slot_qword3;
	uint64_t next_slot_qword3;
};

struct gv_rq {
	const char *name;
	struct gv_qp_cfg qp;
	uint32_t before_head;
	uint8_t before_polarity;
	uint64_t wr_id;
	uint32_t num_sges;
	int ret;
	uint32_t after_head;
	uint8_t after_polarity;
	uint32_t after_multiplier;
	uint32_t slot_quanta_index;
	uint32_t nqwords;
	uint64_t qwords[GV_MAX_QWORDS];
};

struct gv_srq {
	const char *name;
	int init_ret;
	uint32_t max_sge_requested;
	uint8_t wqe_shift;
	uint32_t depth_wrs, depth, ring_size, max_srq_frag_cnt, multiplier;
	uint32_t before_head;
	uint8_t before_polarity;
	uint64_t wr_id;
	uint32_t num_sges;
	int ret;
	uint32_t after_head;
	uint8_t after_polarity;
	uint64_t shadow_qword0;
	uint32_t nqwords;
	uint64_t qwords[GV_MAX_QWORDS];
};

struct gv_info {
	uint64_t wr_id;
	uint32_t bytes_xfered, qp_id, ud_src_qpn, imm_data, inv_stag, stat_raw;
	bool imm_valid, stag_invalid_set, error, solicited_event, ipv4, ud_vlan_valid, ud_smac_valid;
	int comp_status;
	uint16_t major_err, minor_err, ud_vlan;
	uint8_t op_type, q_type;
	uint8_t ud_smac[6];
};

struct gv_cqe {
	const char *name;
	uint8_t gen;
	uint32_t cq_size;
	bool avoid_mem_cflct;
	uint32_t head_before;
	uint8_t polarity_before;
	uint32_t sq_tail_before, rq_tail_before;
	uint32_t nqwords;
	uint64_t qwords[8];
	bool qword_is_qp_ctx[8];
	int ret;
	struct gv_info info;
	uint32_t head_after, tail_after;
	uint8_t polarity_after;
	uint64_t shadow_qword0_after;
	uint32_t sq_tail_after, rq_tail_after;
	uint64_t qword3_after;
};

struct gv_arm {
	const char *name;
	uint8_t gen;
	bool resized_cnt; /* false: request_notification, true: set_resized_cnt */
	uint64_t shadow_before;
	int notify;
	uint32_t cq_id;
	uint16_t cnt;
	uint64_t shadow_after;
	uint32_t doorbell_value;
};

#endif /* UK_GOLDEN_H */
