/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The post path: verbs work requests -> struct irdma_post_sq_info -> lib/uk, one doorbell per
 * burst. No locks, no syscalls, no allocation. Every refusal names the WR's problem in a log
 * line (misuse at ERR level, a full queue at DEBUG: that is back-pressure, not a bug) and is
 * counted in the QP's xstats.
 */
#include <errno.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_byteorder.h>

#include "irdma_post.h"
#include "irdma_pmd.h"

/* The public SGE is passed to lib/uk as is. */
_Static_assert(sizeof(struct rte_pmd_irdma_sge) == sizeof(struct irdma_sge) &&
	       offsetof(struct rte_pmd_irdma_sge, length) == offsetof(struct irdma_sge, length) &&
	       offsetof(struct rte_pmd_irdma_sge, lkey) == offsetof(struct irdma_sge, lkey),
	       "rte_pmd_irdma_sge must match struct irdma_sge");

#define SGES(p) ((struct irdma_sge *)(uintptr_t)(p))

/* Refuse an lkey that names a live MR of another PD (unknown keys are the device's to fail). */
static __rte_always_inline int
check_lkeys(const struct irdma_key_entry *keys, uint32_t n_keys, uint32_t pd_id,
	    const struct rte_pmd_irdma_sge *sg, uint32_t num)
{
	uint32_t i;

	for (i = 0; i < num; i++) {
		uint32_t idx = irdma_stag_to_index(sg[i].lkey);
		uint64_t w;

		if (idx >= n_keys)
			continue;
		w = __atomic_load_n(&keys[idx].word, __ATOMIC_ACQUIRE);
		if ((uint32_t)w == sg[i].lkey && (uint32_t)(w >> 32) != pd_id)
			return (int)i + 1;
	}
	return 0;
}

/*
 * An SGE longer than the fragment's length field would be encoded truncated (2^31 as 0) and
 * the WR would "succeed" without moving the data; a WR longer than max_msg_sz is not a
 * message. Returns 0, or -EINVAL after a log line naming the WR's problem.
 */
static __rte_always_inline int
check_lengths(const char *dn, const char *kind, uint32_t id, uint64_t wr_id,
	      const struct rte_pmd_irdma_sge *sg, uint32_t num, uint32_t len_max, uint64_t msg_max)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < num; i++) {
		if (unlikely(sg[i].length > len_max)) {
			IRDMA_DP_LOG(tx, ERR, "%s %s %u: wr_id 0x%" PRIx64 ": SGE %u of %u bytes, "
				     "the SGE length field holds at most %u", dn, kind, id, wr_id,
				     i, sg[i].length, len_max);
			return -EINVAL;
		}
		total += sg[i].length;
	}
	if (unlikely(total > msg_max)) {
		IRDMA_DP_LOG(tx, ERR, "%s %s %u: wr_id 0x%" PRIx64 ": %" PRIu64 " bytes, over the "
			     "device's max_msg_sz %" PRIu64, dn, kind, id, wr_id, total, msg_max);
		return -EINVAL;
	}
	return 0;
}

static __rte_always_inline bool
sq_state_ok(enum rte_pmd_irdma_qp_state s)
{
	return s >= RTE_PMD_IRDMA_QPS_RTS;
}

static int
bind_check(struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_mw *mw,
	   const struct rte_pmd_irdma_mw_bind_info *b)
{
	const char *dn = qp->pub.dev->name;
	const struct rte_pmd_irdma_mr *mr = b->mr;
	uint64_t mr_va;

	if (qp->pub.qp_type != RTE_PMD_IRDMA_QPT_RC) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: memory windows bind on RC QPs only", dn,
			     qp->pub.qp_num);
		return -EINVAL;
	}
	if (mw->pd->handle != qp->pd_id || (mr != NULL && mr->pd->handle != qp->pd_id)) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: MW or MR of another PD", dn, qp->pub.qp_num);
		return -EPERM;
	}
	if (mr == NULL || b->length == 0)
		return 0; /* an unbind (zero length) */
	if (!(mr->access & RTE_PMD_IRDMA_ACCESS_MW_BIND)) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: MR 0x%x was registered without MW_BIND", dn,
			     qp->pub.qp_num, mr->lkey);
		return -EINVAL;
	}
	if ((b->mw_access_flags & (RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE |
				   RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE)) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: window write/atomic rights need an MR with "
			     "LOCAL_WRITE", dn, qp->pub.qp_num);
		return -EINVAL;
	}
	mr_va = (mr->access & RTE_PMD_IRDMA_ACCESS_ZERO_BASED) ? 0 : (uint64_t)(uintptr_t)mr->addr;
	if (b->addr < mr_va || b->addr - mr_va > mr->length || b->length > mr->length - (b->addr - mr_va)) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: window [0x%" PRIx64 ", +%" PRIu64 ") is outside "
			     "the MR", dn, qp->pub.qp_num, b->addr, b->length);
		return -EINVAL;
	}
	return 0;
}

int
irdma_post_bind(struct irdma_pmd_qp *qp, struct rte_pmd_irdma_mw *mw_pub,
		const struct rte_pmd_irdma_mw_bind_info *b, uint32_t new_rkey, uint64_t wr_id,
		bool signaled, bool read_fence, bool post_sq)
{
	struct irdma_post_sq_info info;
	struct irdma_pmd_mr *mr = IRDMA_PRIV(irdma_pmd_mr, b->mr);
	int ret;

	ret = bind_check(qp, mw_pub, b);
	if (ret < 0)
		return ret;
	memset(&info, 0, sizeof(info));
	info.wr_id = wr_id;
	info.op_type = IRDMA_OP_TYPE_BIND_MW;
	info.signaled = signaled;
	info.read_fence = read_fence;
	info.op.bind_window.mr_stag = mr != NULL ? mr->stag : 0;
	info.op.bind_window.mw_stag = new_rkey;
	info.op.bind_window.bind_len = b->length;
	info.op.bind_window.va = (void *)(uintptr_t)b->addr;
	info.op.bind_window.addressing_type =
		(b->mw_access_flags & RTE_PMD_IRDMA_ACCESS_ZERO_BASED) ? IRDMA_ADDR_TYPE_ZERO_BASED :
									 IRDMA_ADDR_TYPE_VA_BASED;
	info.op.bind_window.ena_reads = (b->mw_access_flags & RTE_PMD_IRDMA_ACCESS_REMOTE_READ) != 0;
	info.op.bind_window.ena_writes = (b->mw_access_flags & RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE) != 0;
	info.op.bind_window.remote_atomics_en =
		(b->mw_access_flags & RTE_PMD_IRDMA_ACCESS_REMOTE_ATOMIC) != 0;
	info.op.bind_window.mem_window_type_1 = mw_pub->type == RTE_PMD_IRDMA_MW_TYPE_1;
	ret = irdma_uk_mw_bind(&qp->uk, &info, post_sq);
	if (ret < 0)
		return ret;
	/* Which MR a window is bound to is the device's to know: it executes the bind and sees
	 * invalidations (local and the peer's); dereg_mr asks it. */
	mw_pub->rkey = new_rkey;
	return 0;
}

/* Summed in 64 bits: 32-bit lengths must not wrap past a size check. One SGE, the common
 * inline case, without the loop. */
static __rte_always_inline uint64_t
sge_total(const struct rte_pmd_irdma_sge *sg, uint32_t n)
{
	uint64_t t = 0;
	uint32_t i;

	if (likely(n == 1))
		return sg[0].length;
	for (i = 0; i < n; i++)
		t += sg[i].length;
	return t;
}

/* An opcode the QP does not allow (irdma_wr_allowed): the table says why. */
static __rte_noinline __rte_cold int
bad_opcode(const struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_send_wr *wr, bool inl)
{
	const char *why = "is not valid here";
	int ret;

	ret = irdma_wr_refusal(wr->opcode, inl, qp->pub.qp_type, qp->gen,
			       (qp->pub.dev->attrs->feature_flags & IRDMA_FEATURE_ATOMIC_OPS) != 0,
			       &why);
	if (ret == 0) { /* allowed by the table: a BIND_MW naming a dead MW or MR */
		why = "names a destroyed memory window or region";
		ret = -EINVAL;
	}
	IRDMA_DP_LOG(tx, ERR, "%s qp %u: wr_id 0x%" PRIx64 ": opcode %d (%s)%s %s",
		     qp->pub.dev->name, qp->pub.qp_num, wr->wr_id, wr->opcode,
		     wr->opcode >= 0 && wr->opcode < IRDMA_WR_OPCODES &&
				     irdma_wr_rules[wr->opcode].name != NULL ?
			     irdma_wr_rules[wr->opcode].name : "?",
		     inl ? " with INLINE" : "", why);
	return ret;
}

/* A WR that failed the irdma_wr_allowed test: its opcode, or its SGE count. */
static __rte_noinline __rte_cold int
wr_refused(const struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_send_wr *wr, bool inl)
{
	unsigned int op = (unsigned int)wr->opcode;

	if (op >= IRDMA_WR_OPCODES || qp->wr_allowed.lim[op][inl] == 0)
		return bad_opcode(qp, wr, inl);
	IRDMA_DP_LOG(tx, ERR, "%s qp %u: wr_id 0x%" PRIx64 ": %u SGEs, the QP allows %u in %s",
		     qp->pub.dev->name, qp->pub.qp_num, wr->wr_id, wr->num_sge,
		     qp->wr_allowed.lim[op][inl] - 1, irdma_wr_rules[op].name);
	return -EINVAL;
}

/* The work requests other than SEND and RDMA WRITE: kept out of line so the common path
 * stays small. The opcode is allowed on this QP (irdma_wr_allowed) and its SGE count is
 * within its limit; info carries wr_id and the flags. */
static __rte_noinline int
post_other(struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_send_wr *wr,
	   struct irdma_post_sq_info *info)
{
	const char *dn = qp->pub.dev->name;

	switch (wr->opcode) {
	case RTE_PMD_IRDMA_WR_RDMA_READ:
		info->op_type = IRDMA_OP_TYPE_RDMA_READ;
		info->op.rdma_read.lo_sg_list = SGES(wr->sg_list);
		info->op.rdma_read.num_lo_sges = wr->num_sge;
		info->op.rdma_read.rem_addr.addr = wr->wr.rdma.remote_addr;
		info->op.rdma_read.rem_addr.lkey = wr->wr.rdma.rkey;
		return irdma_uk_rdma_read(&qp->uk, info, false, false);
	case RTE_PMD_IRDMA_WR_ATOMIC_CMP_AND_SWP:
	case RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD:
		if (unlikely(wr->num_sge != 1 || wr->sg_list[0].length < 8 ||
			     (wr->wr.atomic.remote_addr & 7))) {
			IRDMA_DP_LOG(tx, ERR, "%s qp %u: an atomic takes one SGE of 8 bytes and an "
				     "8-byte aligned remote address", dn, qp->pub.qp_num);
			return -EINVAL;
		}
		if (wr->opcode == RTE_PMD_IRDMA_WR_ATOMIC_FETCH_AND_ADD) {
			info->op_type = IRDMA_OP_TYPE_ATOMIC_FETCH_AND_ADD;
			info->op.atomic_fetch_add.tagged_offset = wr->sg_list[0].addr;
			info->op.atomic_fetch_add.stag = wr->sg_list[0].lkey;
			info->op.atomic_fetch_add.remote_tagged_offset = wr->wr.atomic.remote_addr;
			info->op.atomic_fetch_add.remote_stag = wr->wr.atomic.rkey;
			info->op.atomic_fetch_add.fetch_add_data_bytes = wr->wr.atomic.compare_add;
			return irdma_uk_atomic_fetch_add(&qp->uk, info, false);
		}
		info->op_type = IRDMA_OP_TYPE_ATOMIC_COMPARE_AND_SWAP;
		info->op.atomic_compare_swap.tagged_offset = wr->sg_list[0].addr;
		info->op.atomic_compare_swap.stag = wr->sg_list[0].lkey;
		info->op.atomic_compare_swap.remote_tagged_offset = wr->wr.atomic.remote_addr;
		info->op.atomic_compare_swap.remote_stag = wr->wr.atomic.rkey;
		info->op.atomic_compare_swap.compare_data_bytes = wr->wr.atomic.compare_add;
		info->op.atomic_compare_swap.swap_data_bytes = wr->wr.atomic.swap;
		return irdma_uk_atomic_compare_swap(&qp->uk, info, false);
	case RTE_PMD_IRDMA_WR_LOCAL_INV:
		info->op_type = IRDMA_OP_TYPE_INV_STAG;
		info->local_fence = true; /* the newest kernel forces it: no WR may overtake */
		info->op.inv_local_stag.target_stag = wr->invalidate_rkey;
		return irdma_uk_stag_local_invalidate(&qp->uk, info, false);
	case RTE_PMD_IRDMA_WR_BIND_MW:
		if (unlikely(!irdma_mw_live(wr->bind_mw.mw) ||
			     (wr->bind_mw.bind_info.mr != NULL && !irdma_mr_live(wr->bind_mw.bind_info.mr))))
			return bad_opcode(qp, wr, false);
		if (unlikely(wr->bind_mw.mw->type != RTE_PMD_IRDMA_MW_TYPE_2)) {
			IRDMA_DP_LOG(tx, ERR, "%s qp %u: BIND_MW work requests bind type 2 windows; "
				     "use rte_pmd_irdma_bind_mw() for type 1", dn, qp->pub.qp_num);
			return -EINVAL;
		}
		return irdma_post_bind(qp, wr->bind_mw.mw, &wr->bind_mw.bind_info,
				       irdma_stag_with_key(IRDMA_PRIV(irdma_pmd_mw, wr->bind_mw.mw)->stag,
							   irdma_stag_to_key(wr->bind_mw.rkey)),
				       wr->wr_id, info->signaled, info->read_fence, false);
	case RTE_PMD_IRDMA_WR_NOP:
		return irdma_nop(&qp->uk, wr->wr_id, info->signaled, false);
	default: /* not reached: irdma_wr_allowed has no other opcode */
		return bad_opcode(qp, wr, false);
	}
}

/* UD addressing of a SEND: the AH (of the QP's PD), remote QPN and Q_Key. */
static __rte_always_inline int
set_ud_dest(const struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_send_wr *wr,
	    struct irdma_post_sq_info *info)
{
	const struct rte_pmd_irdma_ah *ah = wr->wr.ud.ah;

	if (unlikely(!irdma_ah_live(ah))) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: UD send without a live AH", qp->pub.dev->name,
			     qp->pub.qp_num);
		return -EINVAL;
	}
	if (unlikely(ah->pd->handle != qp->pd_id)) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: AH of another PD", qp->pub.dev->name,
			     qp->pub.qp_num);
		return -EPERM;
	}
	info->op.send.ah_id = ah->handle;
	info->op.send.dest_qp = wr->wr.ud.remote_qpn;
	/* A Q_Key with the high bit set means "use the QP's own" (verbs rule). */
	info->op.send.qkey = (wr->wr.ud.remote_qkey & 0x80000000u) ? qp->attr.qkey :
								  wr->wr.ud.remote_qkey;
	return 0;
}

static __rte_always_inline int
post_one(struct irdma_pmd_qp *qp, const struct rte_pmd_irdma_send_wr *wr)
{
	struct irdma_post_sq_info info;
	const uint32_t flags = wr->send_flags;
	const bool inl = (flags & RTE_PMD_IRDMA_SEND_INLINE) != 0;
	const bool sol = (flags & RTE_PMD_IRDMA_SEND_SOLICITED) != 0;
	const unsigned int op = (unsigned int)wr->opcode;
	bool imm = false, write = false;
	int bad, ret;

	/* What the opcode allows on this QP (type, inline, generation, SGE count), in one test
	 * (irdma_wr_allowed); the cold path says which rule the WR broke. */
	if (unlikely(op >= IRDMA_WR_OPCODES || wr->num_sge >= qp->wr_allowed.lim[op][inl]))
		return wr_refused(qp, wr, inl);
	if (unlikely(wr->num_sge != 0 && wr->sg_list == NULL)) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: wr_id 0x%" PRIx64 ": %u SGEs but no SGE list",
			     qp->pub.dev->name, qp->pub.qp_num, wr->wr_id, wr->num_sge);
		return -EINVAL;
	}
	if (!inl) {
		bad = check_lkeys(qp->keys, qp->n_keys, qp->pd_id, wr->sg_list, wr->num_sge);
		if (unlikely(bad)) {
			IRDMA_DP_LOG(tx, ERR, "%s qp %u: wr_id 0x%" PRIx64 ": SGE %d lkey 0x%x belongs "
				     "to another PD", qp->pub.dev->name, qp->pub.qp_num, wr->wr_id,
				     bad - 1, wr->sg_list[bad - 1].lkey);
			return -EPERM;
		}
		ret = check_lengths(qp->pub.dev->name, "qp", qp->pub.qp_num, wr->wr_id, wr->sg_list,
				    wr->num_sge, qp->sge_len_max,
				    qp->pub.dev->hw_info.max_msg_size);
		if (unlikely(ret < 0))
			return ret;
	}

	memset(&info, 0, sizeof(info));
	info.wr_id = wr->wr_id;
	info.signaled = ((flags | qp->sig_flags) & RTE_PMD_IRDMA_SEND_SIGNALED) != 0;
	info.read_fence = (flags & RTE_PMD_IRDMA_SEND_FENCE) != 0;
	info.local_fence = (flags & RTE_PMD_IRDMA_SEND_LOCAL_FENCE) != 0;

	/* The cases follow irdma_wr_rules: IMM for the _WITH_IMM opcodes, UD_AH for SENDs. */
	switch (op) {
	case RTE_PMD_IRDMA_WR_SEND_WITH_IMM:
		imm = true;
		/* fall through */
	case RTE_PMD_IRDMA_WR_SEND:
		info.op_type = sol ? IRDMA_OP_TYPE_SEND_SOL : IRDMA_OP_TYPE_SEND;
		break;
	case RTE_PMD_IRDMA_WR_SEND_WITH_INV:
		info.op_type = sol ? IRDMA_OP_TYPE_SEND_SOL_INV : IRDMA_OP_TYPE_SEND_INV;
		info.stag_to_inv = wr->invalidate_rkey;
		break;
	case RTE_PMD_IRDMA_WR_RDMA_WRITE_WITH_IMM:
		imm = true;
		/* fall through */
	case RTE_PMD_IRDMA_WR_RDMA_WRITE:
		write = true;
		info.op_type = (sol && imm) ? IRDMA_OP_TYPE_RDMA_WRITE_SOL : IRDMA_OP_TYPE_RDMA_WRITE;
		info.op.rdma_write.rem_addr.addr = wr->wr.rdma.remote_addr;
		info.op.rdma_write.rem_addr.lkey = wr->wr.rdma.rkey;
		break;
	default:
		return post_other(qp, wr, &info);
	}

	/* SEND and RDMA WRITE variants. */
	if (imm) {
		info.imm_data_valid = true;
		info.imm_data = rte_be_to_cpu_32(wr->imm_data);
	}
	if (qp->pub.qp_type == RTE_PMD_IRDMA_QPT_UD) { /* a SEND: the only UD opcode here */
		ret = set_ud_dest(qp, wr, &info);
		if (unlikely(ret < 0))
			return ret;
	}
	if (inl) {
		uint64_t total = sge_total(wr->sg_list, wr->num_sge);

		if (unlikely(total > qp->uk.max_inline_data)) {
			IRDMA_DP_LOG(tx, ERR, "%s qp %u: %" PRIu64 " inline bytes, the QP allows %u",
				     qp->pub.dev->name, qp->pub.qp_num, total, qp->uk.max_inline_data);
			return -EINVAL;
		}
		info.inline_data = true;
	}
	if (write) {
		info.op.rdma_write.lo_sg_list = SGES(wr->sg_list);
		info.op.rdma_write.num_lo_sges = wr->num_sge;
		return inl ? irdma_uk_inline_rdma_write(&qp->uk, &info, false) :
			     irdma_uk_rdma_write(&qp->uk, &info, false);
	}
	info.op.send.sg_list = SGES(wr->sg_list);
	info.op.send.num_sges = wr->num_sge;
	return inl ? irdma_uk_inline_send(&qp->uk, &info, false) :
		     irdma_uk_send(&qp->uk, &info, false);
}

/*
 * Work posted to a QP in ERR completes flushed, and there is one way to get there per queue:
 *  - sends: the doorbell. A device fetches the SQ on every doorbell and, in ERR, completes
 *    what it finds with flush CQEs (the soft device: soft_req_run). The post path does
 *    nothing more, and need not know the QP is in ERR: the device's state decides.
 *  - receives: a flush request. An RQ has no doorbell (the device takes a receive WQE when
 *    a message arrives, and none arrives in ERR), so a receive posted in ERR would wait
 *    forever; the PMD asks the device to flush with a modify to ERR (the verbs provider
 *    asks the kernel the same way). It takes the control-path lock, on this path only in ERR.
 * The state read here is the PMD's word (irdma_qp_state): ERR once modify, the device's
 * async event or an error completion said so. The device moves to ERR on its own before
 * the word does, so a receive written while the word still reads RTS must be found by the
 * device: it publishes ERR (the event, whose callback sets the word) and then scans the RQ
 * once more, and the post writes its WQEs and then reads the word, each side with a full
 * fence between its write and its read (soft_qp_to_error has the argument). Either the
 * post reads ERR and asks, or the device's scan sees the WQE. A modify to ERR is the same
 * pair: the word, a fence, then one more flush request (irdma_qp.c). The fence is one
 * locked instruction per post_recv call, with no lock and no call.
 */
static __rte_noinline __rte_cold void
rq_flush_request(struct irdma_pmd_qp *qp)
{
	struct rte_pmd_irdma_dev *dev = qp->pub.dev;
	struct irdma_hw_qp_attr hw;

	memset(&hw, 0, sizeof(hw));
	hw.state = IRDMA_HW_QPS_ERR;
	rte_spinlock_lock(&dev->lock);
	dev->ops->qp_modify(dev->hw, qp->pub.qp_num, &hw, IRDMA_HW_QP_ATTR_STATE);
	rte_spinlock_unlock(&dev->lock);
}

uint16_t
rte_pmd_irdma_post_send(struct rte_pmd_irdma_qp *pub, const struct rte_pmd_irdma_send_wr *wr,
			uint16_t nb_wr, int *err)
{
	struct irdma_pmd_qp *qp = IRDMA_PRIV(irdma_pmd_qp, pub);
	uint16_t i;
	int ret = 0;

	if (unlikely(!irdma_qp_live(pub) || (wr == NULL && nb_wr != 0))) {
		IRDMA_DP_LOG(tx, ERR, "%s", qp == NULL ? "qp is NULL" : wr == NULL ? "wr is NULL" :
			     "qp is a destroyed handle");
		ret = -EINVAL;
		i = 0;
		goto out;
	}
	if (unlikely(!sq_state_ok(irdma_qp_state(qp)))) {
		IRDMA_DP_LOG(tx, ERR, "%s qp %u: post_send in state %s (needs RTS, SQD, SQE or ERR)",
			     pub->dev->name, pub->qp_num,
			     rte_pmd_irdma_qp_state_str(irdma_qp_state(qp)));
		qp->stats.tx_rejected_wrs++;
		ret = -EPERM;
		i = 0;
		goto out;
	}
	for (i = 0; i < nb_wr; i++) {
		ret = post_one(qp, &wr[i]);
		if (unlikely(ret < 0))
			break;
	}
	if (likely(i > 0)) {
		/* engine=inline: the device takes the WQEs now unless another lcore is in its
		 * engine; then the doorbell, for that lcore's step or the next */
		if (qp->sq_kick == NULL || qp->sq_kick(qp->hw, qp->uk.qp_id, IRDMA_INLINE_BUDGET) == 0)
			irdma_uk_qp_post_wr(&qp->uk);
		qp->stats.tx_wrs += i;
		qp->stats.tx_doorbells++; /* in ERR, the doorbell is the flush request */
	}
	if (unlikely(ret < 0)) {
		if (ret == -ENOMEM) {
			qp->stats.tx_sq_full++;
			IRDMA_DP_LOG(tx, DEBUG, "%s qp %u: SQ full after %u WRs", pub->dev->name,
				     pub->qp_num, i);
		} else {
			qp->stats.tx_rejected_wrs++;
			IRDMA_DP_LOG(tx, DEBUG, "%s qp %u: WR %u (wr_id 0x%" PRIx64 ") refused: %s",
				     pub->dev->name, pub->qp_num, i, wr[i].wr_id, strerror(-ret));
		}
	}
out:
	if (err != NULL)
		*err = ret;
	return i;
}

/*
 * Checks shared by QP and SRQ receives: SGE count and list, lkeys of the queue's PD. `kind` is
 * "qp" or "srq", `limit_of` "QP" or "SRQ" (for the log line). Returns 0, -EINVAL or -EPERM.
 */
static __rte_always_inline int
recv_wr_check(const char *dn, const char *kind, const char *limit_of, uint32_t id, uint16_t i,
	      const struct rte_pmd_irdma_recv_wr *wr, uint32_t max_sge,
	      const struct irdma_key_entry *keys, uint32_t n_keys, uint32_t pd_id,
	      uint32_t len_max, uint64_t msg_max)
{
	int bad;

	if (unlikely(wr->num_sge > max_sge || (wr->num_sge != 0 && wr->sg_list == NULL))) {
		IRDMA_DP_LOG(rx, ERR, "%s %s %u: receive WR %u has %u SGEs%s, the %s allows %u", dn,
			     kind, id, i, wr->num_sge, wr->sg_list == NULL ? " and no list" : "",
			     limit_of, max_sge);
		return -EINVAL;
	}
	bad = check_lkeys(keys, n_keys, pd_id, wr->sg_list, wr->num_sge);
	if (unlikely(bad)) {
		IRDMA_DP_LOG(rx, ERR, "%s %s %u: receive WR %u SGE %d: lkey 0x%x belongs to another "
			     "PD", dn, kind, id, i, bad - 1, wr->sg_list[bad - 1].lkey);
		return -EPERM;
	}
	return check_lengths(dn, kind, id, wr->wr_id, wr->sg_list, wr->num_sge, len_max, msg_max);
}

uint16_t
rte_pmd_irdma_post_recv(struct rte_pmd_irdma_qp *pub, const struct rte_pmd_irdma_recv_wr *wr,
			uint16_t nb_wr, int *err)
{
	struct irdma_pmd_qp *qp = IRDMA_PRIV(irdma_pmd_qp, pub);
	struct irdma_post_rq_info info;
	uint16_t i = 0;
	int ret = 0;

	if (unlikely(!irdma_qp_live(pub) || (wr == NULL && nb_wr != 0))) {
		IRDMA_DP_LOG(rx, ERR, "%s", qp == NULL ? "qp is NULL" : wr == NULL ? "wr is NULL" :
			     "qp is a destroyed handle");
		ret = -EINVAL;
		goto out;
	}
	if (unlikely(irdma_qp_state(qp) == RTE_PMD_IRDMA_QPS_RESET || pub->srq != NULL)) {
		IRDMA_DP_LOG(rx, ERR, "%s qp %u: post_recv %s", pub->dev->name, pub->qp_num,
			     pub->srq != NULL ? "on a QP attached to an SRQ (post to the SRQ)" :
						"in RESET (move it to INIT first)");
		ret = pub->srq != NULL ? -EINVAL : -EPERM;
		qp->stats.rx_rejected_wrs++;
		goto out;
	}
	for (; i < nb_wr; i++) {
		ret = recv_wr_check(pub->dev->name, "qp", "QP", pub->qp_num, i, &wr[i],
				    qp->uk.max_rq_frag_cnt, qp->keys, qp->n_keys, qp->pd_id,
				    qp->sge_len_max, pub->dev->hw_info.max_msg_size);
		if (unlikely(ret < 0))
			break;
		info.wr_id = wr[i].wr_id;
		info.sg_list = SGES(wr[i].sg_list);
		info.num_sges = wr[i].num_sge;
		ret = irdma_uk_post_receive(&qp->uk, &info);
		if (unlikely(ret < 0))
			break;
	}
	qp->stats.rx_wrs += i;
	if (likely(i > 0)) {
		/* The WQEs before the state word: a full fence (see rq_flush_request). */
		rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (unlikely(irdma_qp_state(qp) == RTE_PMD_IRDMA_QPS_ERR))
			rq_flush_request(qp);
	}
	if (unlikely(ret < 0)) {
		if (ret == -ENOMEM)
			qp->stats.rx_rq_full++;
		else
			qp->stats.rx_rejected_wrs++;
	}
out:
	if (err != NULL)
		*err = ret;
	return i;
}

uint16_t
rte_pmd_irdma_srq_post_recv(struct rte_pmd_irdma_srq *pub, const struct rte_pmd_irdma_recv_wr *wr,
			    uint16_t nb_wr, int *err)
{
	struct irdma_pmd_srq *srq = IRDMA_PRIV(irdma_pmd_srq, pub);
	struct irdma_post_rq_info info;
	const struct rte_pmd_irdma_dev *dev;
	uint16_t i = 0;
	int ret = 0;

	if (unlikely(!irdma_srq_live(pub) || (wr == NULL && nb_wr != 0))) {
		IRDMA_DP_LOG(rx, ERR, "%s", srq == NULL ? "srq is NULL" : wr == NULL ? "wr is NULL" :
			     "srq is a destroyed handle");
		ret = -EINVAL;
		goto out;
	}
	dev = pub->pd->dev;
	for (; i < nb_wr; i++) {
		ret = recv_wr_check(dev->name, "srq", "SRQ", pub->handle, i, &wr[i],
				    srq->uk.max_srq_frag_cnt, dev->keys, dev->n_keys, srq->pd_id,
				    irdma_sge_len_max(dev->attrs->hw_rev), dev->hw_info.max_msg_size);
		if (unlikely(ret < 0))
			break;
		info.wr_id = wr[i].wr_id;
		info.sg_list = SGES(wr[i].sg_list);
		info.num_sges = wr[i].num_sge;
		ret = irdma_uk_srq_post_receive(&srq->uk, &info);
		if (unlikely(ret < 0))
			break;
	}
out:
	if (err != NULL)
		*err = ret;
	return i;
}
