/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Values that cross a namespace without a translation table. Where the PMD hands a public
 * value (rte_pmd_irdma.h) to a device (irdma_hw.h) as is, or the software device hands a
 * contract value to lib/roce, the two enumerations must agree number for number: these
 * checks make a renumbering on either side a build error instead of a silent
 * misinterpretation. Every other crossing goes through an explicit map (irdma_poll.c,
 * irdma_post.c, soft_comp.c). Nothing here generates code.
 */
#include "irdma_defs.h"
#include "irdma_hw.h"
#include "roce_qp.h"
#include "rte_pmd_irdma.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " must equal " #b)

/* MR/MW and QP access flags: rte_pmd_irdma_reg_mr() and qp_modify pass them to the device. */
SAME(RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE, IRDMA_HW_ACCESS_LOCAL_WRITE);
SAME(RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE, IRDMA_HW_ACCESS_REMOTE_WRITE);
SAME(RTE_PMD_IRDMA_ACCESS_REMOTE_READ, IRDMA_HW_ACCESS_REMOTE_READ);
SAME(RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC, IRDMA_HW_ACCESS_REMOTE_ATOMIC);
SAME(RTE_PMD_IRDMA_ACCESS_MW_BIND, IRDMA_HW_ACCESS_MW_BIND);
SAME(RTE_PMD_IRDMA_ACCESS_ZERO_BASED, IRDMA_HW_ACCESS_ZERO_BASED);

/* The QP's remote rights: soft/soft_transport.c masks the contract's flags into lib/roce's. */
SAME(IRDMA_HW_ACCESS_REMOTE_WRITE, ROCE_ACCESS_REMOTE_WRITE);
SAME(IRDMA_HW_ACCESS_REMOTE_READ, ROCE_ACCESS_REMOTE_READ);
SAME(IRDMA_HW_ACCESS_REMOTE_ATOMIC, ROCE_ACCESS_REMOTE_ATOMIC);

/* QP states: irdma_qp.c casts the verbs state to the contract's, and back. */
SAME((int)RTE_PMD_IRDMA_QPS_RESET, (int)IRDMA_HW_QPS_RESET);
SAME((int)RTE_PMD_IRDMA_QPS_INIT, (int)IRDMA_HW_QPS_INIT);
SAME((int)RTE_PMD_IRDMA_QPS_RTR, (int)IRDMA_HW_QPS_RTR);
SAME((int)RTE_PMD_IRDMA_QPS_RTS, (int)IRDMA_HW_QPS_RTS);
SAME((int)RTE_PMD_IRDMA_QPS_SQD, (int)IRDMA_HW_QPS_SQD);
SAME((int)RTE_PMD_IRDMA_QPS_SQE, (int)IRDMA_HW_QPS_SQE);
SAME((int)RTE_PMD_IRDMA_QPS_ERR, (int)IRDMA_HW_QPS_ERR);

/* QP types of the contract are irdma's own (irdma_hw.h). */
SAME((int)IRDMA_HW_QP_RC, (int)IRDMA_QP_TYPE_ROCE_RC);
SAME((int)IRDMA_HW_QP_UD, (int)IRDMA_QP_TYPE_ROCE_UD);

/* Generations: irdma_devargs.c casts gen=N to the contract's enum, lib/uk's numbering. */
SAME((int)IRDMA_HW_GEN_1, (int)IRDMA_GEN_1);
SAME((int)IRDMA_HW_GEN_2, (int)IRDMA_GEN_2);
SAME((int)IRDMA_HW_GEN_3, (int)IRDMA_GEN_3);

/* lib/uk's caller-side opcode names are the WQE opcodes (irdma_defs.h). */
SAME(IRDMA_OP_TYPE_RDMA_WRITE, IRDMAQP_OP_RDMA_WRITE);
SAME(IRDMA_OP_TYPE_RDMA_READ, IRDMAQP_OP_RDMA_READ);
SAME(IRDMA_OP_TYPE_SEND, IRDMAQP_OP_RDMA_SEND);
SAME(IRDMA_OP_TYPE_SEND_INV, IRDMAQP_OP_RDMA_SEND_INV);
SAME(IRDMA_OP_TYPE_SEND_SOL, IRDMAQP_OP_RDMA_SEND_SOL_EVENT);
SAME(IRDMA_OP_TYPE_SEND_SOL_INV, IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV);
SAME(IRDMA_OP_TYPE_BIND_MW, IRDMAQP_OP_BIND_MW);
SAME(IRDMA_OP_TYPE_INV_STAG, IRDMAQP_OP_LOCAL_INVALIDATE);
SAME(IRDMA_OP_TYPE_RDMA_READ_INV_STAG, IRDMAQP_OP_RDMA_READ_LOC_INV);
SAME(IRDMA_OP_TYPE_NOP, IRDMAQP_OP_NOP);
SAME(IRDMA_OP_TYPE_RDMA_WRITE_SOL, IRDMAQP_OP_RDMA_WRITE_SOL);
SAME(IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD, IRDMAQP_OP_ATOMIC_FETCH_ADD);
SAME(IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP, IRDMAQP_OP_ATOMIC_COMPARE_SWAP);

/* Work-completion statuses: lib/roce reports the verbs numbering the public enum uses. */
SAME((int)ROCE_WC_SUCCESS, (int)RTE_PMD_IRDMA_WC_SUCCESS);
SAME((int)ROCE_WC_LOC_LEN_ERR, (int)RTE_PMD_IRDMA_WC_LOC_LEN_ERR);
SAME((int)ROCE_WC_LOC_QP_OP_ERR, (int)RTE_PMD_IRDMA_WC_LOC_QP_OP_ERR);
SAME((int)ROCE_WC_LOC_PROT_ERR, (int)RTE_PMD_IRDMA_WC_LOC_PROT_ERR);
SAME((int)ROCE_WC_WR_FLUSH_ERR, (int)RTE_PMD_IRDMA_WC_WR_FLUSH_ERR);
SAME((int)ROCE_WC_BAD_RESP_ERR, (int)RTE_PMD_IRDMA_WC_BAD_RESP_ERR);
SAME((int)ROCE_WC_LOC_ACCESS_ERR, (int)RTE_PMD_IRDMA_WC_LOC_ACCESS_ERR);
SAME((int)ROCE_WC_REM_INV_REQ_ERR, (int)RTE_PMD_IRDMA_WC_REM_INV_REQ_ERR);
SAME((int)ROCE_WC_REM_ACCESS_ERR, (int)RTE_PMD_IRDMA_WC_REM_ACCESS_ERR);
SAME((int)ROCE_WC_REM_OP_ERR, (int)RTE_PMD_IRDMA_WC_REM_OP_ERR);
SAME((int)ROCE_WC_RETRY_EXC_ERR, (int)RTE_PMD_IRDMA_WC_RETRY_EXC_ERR);
SAME((int)ROCE_WC_RNR_RETRY_EXC_ERR, (int)RTE_PMD_IRDMA_WC_RNR_RETRY_EXC_ERR);
SAME((int)ROCE_WC_FATAL_ERR, (int)RTE_PMD_IRDMA_WC_FATAL_ERR);
