/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CQE writer, in the exact GEN format: 32-byte slots with the extension in the next slot
 * (GEN_1/2, and GEN_3 without 64-byte CQEs) or 64-byte slots with the extension in the
 * second half (doc/spec/irdma-uk.md §3.6). Body first, then the extension's valid qword,
 * then qword 3 with a release store, so a consumer that sees the valid bit sees the whole CQE.
 * A CQE that does not fit is never written: the CQ enters its error state and an
 * IRDMA_HW_EVENT_CQ_ERR is raised. Arming is latched from the shadow arm word when the
 * arm doorbell is rung; the next matching completion fires the event once.
 */
#include <errno.h>
#include <unistd.h>

#include "uk_osdep.h"

#include "soft_cqe_inl.h"
#include "soft_priv.h"

#define PREP(mask, v) IRDMA_FIELD_PREP(mask, v)

static inline uint64_t *cq_slot(const struct soft_cq *cq, uint32_t idx)
{
	return (uint64_t *)(cq->base + (size_t)idx * (cq->cqe64 ? IRDMA_EXTENDED_CQE_BYTES
								 : IRDMA_CQE_BYTES));
}

/* Slots in use, from the consumer index software publishes in shadow qword 0. */
static uint32_t cq_used(struct soft_cq *cq)
{
	uint64_t sh;
	uint32_t cons;

	get_64bit_val_acquire(cq->shadow, IRDMA_BYTE_CQ_SHADOW_HEAD, &sh);
	if (cq->cons_stale) {
		/* After a resize the shadow still names the old ring until software polls
		 * the new one. */
		if (sh == cq->stale_shadow)
			return cq->head;
		cq->cons_stale = false;
	}
	/* the same as (head + size - cons % size) % size, without the divisions */
	cons = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_DBSA_CQEIDX, sh);
	if (unlikely(cons >= cq->size))
		cons %= cq->size;
	return cq->head >= cons ? cq->head - cons : cq->head + cq->size - cons;
}

void soft_cq_event(struct soft_dev *dev, struct soft_cq *cq)
{
	cq->arm_any = cq->arm_se = false;
	cq->n_events++;
	if (cq->eventfd >= 0) {
		uint64_t one = 1;

		if (write(cq->eventfd, &one, sizeof(one)) != sizeof(one))
			SOFT_LOG(WARNING, "%s: CQ %u: eventfd write failed", dev->name, cq->id);
	}
	if (cq->event_cb)
		cq->event_cb(cq->event_arg, cq->id);
}

/* cq->room is used up: count the free slots again from the consumer index and take need
 * of them. 0, or -ENOSPC (the CQ is in its error state, or fewer are free) without
 * entering the error state. */
__rte_noinline int soft_cq_refill(struct soft_cq *cq, uint32_t need)
{
	uint32_t free;

	if (unlikely(cq->overflowed))
		return -ENOSPC;
	free = cq->size - 1 - cq_used(cq);
	if (unlikely(free < need))
		return -ENOSPC;
	cq->room = free - need;
	return 0;
}

/* Room for need more slots? When there is none, the CQ enters its error state. A CQE
 * fits when the slots counted free at the last look suffice (the consumer only frees
 * more since), else the consumer index is read again: the same answer as reading it
 * for every CQE. */
static inline int cq_room(struct soft_dev *dev, struct soft_cq *cq, uint32_t need)
{
	if (likely(cq->room >= need)) {
		cq->room -= need;
		return 0;
	}
	if (unlikely(soft_cq_refill(cq, need) != 0)) {
		if (!cq->overflowed) {
			cq->overflowed = true;
			cq->room = 0; /* no CQE after this one fits, whatever its size */
			dev->st.cq_overflows++;
			SOFT_LOG(ERR, "%s: CQ %u overflow (size %u)", dev->name, cq->id, cq->size);
			soft_async_event(dev, IRDMA_HW_EVENT_CQ_ERR, cq->id, 0);
		}
		return -ENOSPC;
	}
	return 0;
}

/* After the valid qword: the next slot, and the event an armed CQ waits for. */
static inline void cq_advance(struct soft_dev *dev, struct soft_cq *cq, uint32_t need,
			      bool solicited)
{
	cq->head += need;
	if (cq->head >= cq->size) {
		cq->head -= cq->size;
		cq->polarity ^= 1;
	}
	cq->n_cqes++;
	if (cq->arm_any || (cq->arm_se && solicited))
		soft_cq_event(dev, cq);
}

/* The out-of-line name of soft_cqe_write_sq_ok_inl() (soft_cqe_inl.h). */
int soft_cqe_write_sq_ok(struct soft_dev *dev, struct soft_cq *cq, uint32_t qp_id, uint64_t ctx,
			 uint8_t op, uint32_t wqe_idx)
{
	return soft_cqe_write_sq_ok_inl(dev, cq, qp_id, ctx, op, wqe_idx);
}

int soft_cqe_write(struct soft_dev *dev, struct soft_cq *cq, const struct soft_cqe *c)
{
	bool ext = dev->gen != IRDMA_GEN_1 && (c->imm_valid || c->smac_valid || c->vlan_valid);
	uint32_t need = (ext && !cq->cqe64) ? 2 : 1;
	uint64_t *cqe, *ecqe = NULL, q3, e3 = 0;

	if (cq_room(dev, cq, need))
		return -ENOSPC;
	cqe = cq_slot(cq, cq->head);
	set_64bit_val(cqe, IRDMA_BYTE_0, PREP(IRDMACQ_PAYLDLEN, c->bytes) |
					       PREP(IRDMACQ_TCPSQN_ROCEPSN_RTT_TS, c->stat));
	set_64bit_val(cqe, IRDMA_BYTE_8, c->ctx);
	set_64bit_val(cqe, IRDMA_BYTE_16, PREP(IRDMACQ_INVSTAG, c->inv_stag_or_src_qpn) |
						PREP(IRDMACQ_QPID, c->qp_id));
	if (c->srq && cq->cqe64)
		set_64bit_val(cqe, IRDMA_BYTE_SRQ_QPCTX, c->srq_qp_ctx);
	q3 = PREP(IRDMA_CQ_MINERR, c->minor) | PREP(IRDMA_CQ_MAJERR, c->major) |
	     PREP(IRDMA_CQ_WQEIDX, c->wqe_idx) | PREP(IRDMA_CQ_EXTCQE, ext) |
	     PREP(IRDMA_CQ_SRQ, c->srq) | PREP(IRDMACQ_STAG, c->inv_or_ipv4) |
	     PREP(IRDMACQ_SOEVENT, c->solicited) | PREP(IRDMA_CQ_ERROR, c->error) |
	     PREP(IRDMACQ_OP, c->op) | PREP(IRDMA_CQ_SQ, c->sq) |
	     PREP(IRDMA_CQ_VALID, cq->polarity);
	if (ext) {
		uint8_t epol = cq->polarity;
		uint64_t smac = 0;
		unsigned int i;

		if (cq->cqe64) {
			ecqe = cqe + IRDMA_CQE_SIZE;
		} else {
			uint32_t n = cq->head + 1;

			if (n == cq->size) {
				n = 0;
				epol ^= 1;
			}
			ecqe = cq_slot(cq, n);
		}
		for (i = 0; i < 6; i++)
			smac = smac << 8 | c->smac[i];
		set_64bit_val(ecqe, IRDMA_BYTE_0, PREP(IRDMA_CQ_IMMDATALOW32, c->imm));
		if (!(c->srq && cq->cqe64))
			set_64bit_val(ecqe, IRDMA_BYTE_8, 0);
		set_64bit_val(ecqe, IRDMA_BYTE_16, PREP(IRDMA_CQ_UDSMAC, smac) |
							 PREP(IRDMA_CQ_UDVLAN, c->vlan));
		e3 = PREP(IRDMA_CQ_UDVLANVALID, c->vlan_valid) |
		     PREP(IRDMA_CQ_UDSMACVALID, c->smac_valid) |
		     PREP(IRDMA_CQ_IMMVALID, c->imm_valid) | PREP(IRDMA_CQ_VALID, epol);
		set_64bit_val_release(ecqe, IRDMA_BYTE_24, e3);
	}
	set_64bit_val_release(cqe, IRDMA_BYTE_24, q3);
	cq_advance(dev, cq, need, c->solicited || c->error);
	return 0;
}

/* The arm doorbell was rung: latch what the arm word asks for. lib/uk always sets
 * arm-next-solicited and sets arm-next only for "any completion". */
void soft_cq_arm_doorbell(struct soft_dev *dev, struct soft_cq *cq)
{
	uint64_t arm;

	RTE_SET_USED(dev);
	get_64bit_val_acquire(cq->shadow, IRDMA_BYTE_CQ_SHADOW_ARM, &arm);
	cq->arm_seq = (uint32_t)IRDMA_FIELD_GET(IRDMA_CQ_DBSA_ARM_SEQ_NUM, arm);
	cq->arm_any = IRDMA_FIELD_GET(IRDMA_CQ_DBSA_ARM_NEXT, arm);
	cq->arm_se = IRDMA_FIELD_GET(IRDMA_CQ_DBSA_ARM_NEXT_SE, arm) || cq->arm_any;
}
