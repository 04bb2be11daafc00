/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The completion path: irdma_uk_cq_poll_cmpl() -> verbs-shaped work completions. Rings left
 * by a resize are drained first, in order. With the inline engine, the polling lcore steps
 * the device first (a try-lock inside the backend keeps that safe from any lcore).
 */
#include <errno.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>

#include "irdma_pmd.h"

static __rte_always_inline enum rte_pmd_irdma_wc_status
flush_status(uint16_t minor)
{
	static const uint8_t map[] = {
		[FLUSH_INVALID] = RTE_PMD_IRDMA_WC_FATAL_ERR,
		[FLUSH_GENERAL_ERR] = RTE_PMD_IRDMA_WC_WR_FLUSH_ERR,
		[FLUSH_PROT_ERR] = RTE_PMD_IRDMA_WC_LOC_PROT_ERR,
		[FLUSH_REM_ACCESS_ERR] = RTE_PMD_IRDMA_WC_REM_ACCESS_ERR,
		[FLUSH_LOC_QP_OP_ERR] = RTE_PMD_IRDMA_WC_LOC_QP_OP_ERR,
		[FLUSH_REM_OP_ERR] = RTE_PMD_IRDMA_WC_REM_OP_ERR,
		[FLUSH_LOC_LEN_ERR] = RTE_PMD_IRDMA_WC_LOC_LEN_ERR,
		[FLUSH_FATAL_ERR] = RTE_PMD_IRDMA_WC_FATAL_ERR,
		[FLUSH_RETRY_EXC_ERR] = RTE_PMD_IRDMA_WC_RETRY_EXC_ERR,
		[FLUSH_MW_BIND_ERR] = RTE_PMD_IRDMA_WC_MW_BIND_ERR,
		[FLUSH_REM_INV_REQ_ERR] = RTE_PMD_IRDMA_WC_REM_INV_REQ_ERR,
		[FLUSH_RNR_RETRY_EXC_ERR] = RTE_PMD_IRDMA_WC_RNR_RETRY_EXC_ERR,
	};

	return minor < RTE_DIM(map) ? (enum rte_pmd_irdma_wc_status)map[minor] :
				      RTE_PMD_IRDMA_WC_FATAL_ERR;
}

/* Work-completion opcode + 1 of an SQ CQE's op_type; 0: none (a malformed CQE). A table
 * rather than a switch: one load on the poll path. */
#define WC1(x) (RTE_PMD_IRDMA_WC_##x + 1)
static const uint8_t sq_wc_opcode1[IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP + 1] = {
	[IRDMA_OP_TYPE_RDMA_WRITE] = WC1(RDMA_WRITE),
	[IRDMA_OP_TYPE_RDMA_WRITE_SOL] = WC1(RDMA_WRITE),
	[IRDMA_OP_TYPE_RDMA_READ] = WC1(RDMA_READ),
	[IRDMA_OP_TYPE_RDMA_READ_INV_STAG] = WC1(RDMA_READ),
	[IRDMA_OP_TYPE_SEND] = WC1(SEND),
	[IRDMA_OP_TYPE_SEND_SOL] = WC1(SEND),
	[IRDMA_OP_TYPE_SEND_INV] = WC1(SEND),
	[IRDMA_OP_TYPE_SEND_SOL_INV] = WC1(SEND),
	[IRDMA_OP_TYPE_BIND_MW] = WC1(BIND_MW),
	[IRDMA_OP_TYPE_INV_STAG] = WC1(LOCAL_INV),
	[IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD] = WC1(FETCH_ADD),
	[IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP] = WC1(COMP_SWAP),
	[IRDMA_OP_TYPE_NOP] = WC1(NOP),
};
#undef WC1

static __rte_always_inline bool
sq_opcode(uint8_t op, enum rte_pmd_irdma_wc_opcode *out)
{
	unsigned int w = op < RTE_DIM(sq_wc_opcode1) ? sq_wc_opcode1[op] : 0;

	*out = (enum rte_pmd_irdma_wc_opcode)(w - 1);
	return w != 0;
}

/* Receive opcode: an RDMA WRITE with immediate, or a plain receive (doc/spec/irdma-uk.md §3.9). */
static __rte_always_inline enum rte_pmd_irdma_wc_opcode
rq_opcode(uint8_t gen, const struct irdma_cq_poll_info *info)
{
	if (gen >= IRDMA_GEN_3) {
		if (info->op_type == IRDMA_OP_TYPE_RDMA_WRITE ||
		    info->op_type == IRDMA_OP_TYPE_RDMA_WRITE_SOL)
			return RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM;
	} else if (gen == IRDMA_GEN_2) {
		if (info->op_type == IRDMA_IB_OPCODE_RDMA_WRITE_LAST_WITH_IMM ||
		    info->op_type == IRDMA_IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMM)
			return RTE_PMD_IRDMA_WC_RECV_RDMA_WITH_IMM;
	}
	return RTE_PMD_IRDMA_WC_RECV;
}

static __rte_always_inline void
to_wc(struct irdma_pmd_cq *cq, const struct irdma_cq_poll_info *info, struct rte_pmd_irdma_wc *wc)
{
	struct irdma_pmd_qp *qp = info->qp_handle->back_qp;
	uint32_t flags = 0;

	wc->wr_id = info->wr_id;
	wc->qp_num = info->qp_id;
	wc->vendor_err = 0;
	wc->byte_len = info->bytes_xfered;
	wc->src_qp = 0;
	wc->pkey_index = 0;
	wc->sl = 0;
	wc->vlan_id = 0;
	wc->solicited = info->solicited_event;
	wc->imm_data = 0;

	if (likely(info->comp_status == IRDMA_COMPL_STATUS_SUCCESS)) {
		wc->status = RTE_PMD_IRDMA_WC_SUCCESS;
	} else {
		wc->status = info->comp_status == IRDMA_COMPL_STATUS_FLUSHED ?
			flush_status(info->minor_err) : RTE_PMD_IRDMA_WC_GENERAL_ERR;
		wc->vendor_err = ((uint32_t)info->major_err << 16) | info->minor_err;
		/* An error completion means the device moved the QP to ERR: the handle shows it
		 * at once, and receives posted from now on ask for a flush (irdma_post.c). */
		irdma_qp_state_note_error(qp);
		if (wc->status == RTE_PMD_IRDMA_WC_WR_FLUSH_ERR)
			cq->stats.flush_completions++;
		else
			cq->stats.error_completions++;
	}

	if (info->q_type == IRDMA_CQE_QTYPE_SQ) {
		enum rte_pmd_irdma_wc_opcode op;

		if (likely(sq_opcode(info->op_type, &op))) {
			wc->opcode = op;
		} else {
			wc->opcode = RTE_PMD_IRDMA_WC_SEND;
			wc->status = RTE_PMD_IRDMA_WC_GENERAL_ERR;
		}
	} else {
		wc->opcode = rq_opcode(qp->gen, info);
		if (info->imm_valid) {
			flags |= RTE_PMD_IRDMA_WC_WITH_IMM;
			wc->imm_data = rte_cpu_to_be_32(info->imm_data);
		} else if (info->stag_invalid_set && qp->pub.qp_type == RTE_PMD_IRDMA_QPT_RC) {
			flags |= RTE_PMD_IRDMA_WC_WITH_INV;
			wc->invalidated_rkey = info->inv_stag;
		}
		if (qp->pub.qp_type == RTE_PMD_IRDMA_QPT_UD) {
			/* RoCE UD receives always carry the 40-byte GRH area. */
			flags |= RTE_PMD_IRDMA_WC_GRH;
			wc->src_qp = info->ud_src_qpn;
			if (info->ud_smac_valid) {
				flags |= RTE_PMD_IRDMA_WC_WITH_SMAC;
				memcpy(wc->smac, info->ud_smac, sizeof(wc->smac));
			}
			if (info->ud_vlan_valid) {
				flags |= RTE_PMD_IRDMA_WC_WITH_VLAN;
				wc->vlan_id = info->ud_vlan;
			}
		}
	}
	wc->wc_flags = flags;
}

/* Poll one ring; returns completions written, sets *empty when the ring had nothing left. */
static __rte_always_inline uint16_t
poll_ring(struct irdma_pmd_cq *cq, struct irdma_cq_uk *uk, struct rte_pmd_irdma_wc *wc,
	  uint16_t nb, bool *empty)
{
	struct irdma_cq_poll_info info;
	uint16_t n = 0;
	int ret;

	*empty = false;
	while (n < nb) {
		ret = irdma_uk_cq_poll_cmpl(uk, &info);
		if (ret == -ENOENT) {
			*empty = true;
			break;
		}
		if (unlikely(ret == -EFAULT))
			continue; /* QP destroyed, or an unsignaled SQ completion */
		if (unlikely(ret < 0)) {
			*empty = true;
			break;
		}
		to_wc(cq, &info, &wc[n]);
		n++;
	}
	return n;
}

/* The oldest resized ring is fully drained: release it and tell the device. */
static void
retire_old_ring(struct irdma_pmd_cq *cq)
{
	struct irdma_cq_old_ring *old = cq->old[0];
	unsigned int i;

	irdma_qmem_free(&old->mem);
	rte_free(old);
	for (i = 1; i < cq->n_old; i++)
		cq->old[i - 1] = cq->old[i];
	cq->old[--cq->n_old] = NULL;
	irdma_uk_cq_set_resized_cnt(&cq->uk, 1);
}

/* Completions left on rings a resize replaced, oldest first; only after a resize. */
static __rte_noinline __rte_cold uint16_t
poll_old_rings(struct irdma_pmd_cq *cq, struct rte_pmd_irdma_wc *wc, uint16_t nb)
{
	uint16_t n = 0;
	bool empty;

	while (cq->n_old != 0 && n < nb) {
		n += poll_ring(cq, &cq->old[0]->uk, wc + n, nb - n, &empty);
		if (!empty)
			break;
		retire_old_ring(cq);
	}
	return n;
}

int
rte_pmd_irdma_poll_cq(struct rte_pmd_irdma_cq *pub, struct rte_pmd_irdma_wc *wc, uint16_t nb)
{
	struct irdma_pmd_cq *cq = IRDMA_PRIV(irdma_pmd_cq, pub);
	uint16_t n = 0;
	bool empty;

	if (unlikely(!irdma_cq_live(pub) || (wc == NULL && nb != 0))) {
		IRDMA_DP_LOG(cq, ERR, "%s", cq == NULL ? "cq is NULL" : wc == NULL ? "wc is NULL" :
			     "cq is a destroyed handle");
		return -EINVAL;
	}
	if (cq->progress != NULL)
		cq->progress(cq->hw, IRDMA_INLINE_BUDGET);

	if (unlikely(cq->n_old != 0))
		n = poll_old_rings(cq, wc, nb);
	if (likely(cq->n_old == 0))
		n += poll_ring(cq, &cq->uk, wc + n, nb - n, &empty);
	cq->stats.completions += n;
	if (unlikely(n == 0 && __atomic_load_n(&cq->in_error, __ATOMIC_RELAXED)))
		return -EIO;
	return n;
}
