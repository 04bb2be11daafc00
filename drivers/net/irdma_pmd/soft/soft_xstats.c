/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft device's extended statistics: the device's counters (the wire's by-reason drops
 * among them), QP 1's, and per QP the device's and lib/roce's transport counters. Names are
 * made once at start-up; values are read from their owners' counters at the time of the call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cm_gsi.h"
#include "soft_ctrl.h"
#include "soft_priv.h"

#define DEV_STAT(n) { #n, offsetof(struct soft_dev_stats, n) }
static const struct {
	const char *name;
	size_t off;
} dev_xstats[] = {
	DEV_STAT(rx_packets), DEV_STAT(tx_packets), DEV_STAT(rx_bytes), DEV_STAT(tx_bytes),
	DEV_STAT(rx_icrc_errors), DEV_STAT(rx_malformed), DEV_STAT(rx_unknown_qp),
	DEV_STAT(rx_not_roce),
	DEV_STAT(tx_backlog_full), DEV_STAT(tx_drop_no_mbuf),
	DEV_STAT(cq_overflows), DEV_STAT(doorbells), DEV_STAT(polls),
	DEV_STAT(progress_calls), DEV_STAT(sq_kicks),
	DEV_STAT(tx_fault_drops), DEV_STAT(tx_fault_dups), DEV_STAT(tx_fault_reorders),
	DEV_STAT(tx_fault_corrupts),
	DEV_STAT(rx_fault_drops), DEV_STAT(rx_fault_dups), DEV_STAT(rx_fault_reorders),
	DEV_STAT(rx_fault_corrupts),
	DEV_STAT(tx_fault_delayed), DEV_STAT(tx_fault_delay_full), DEV_STAT(rx_fault_delayed),
	DEV_STAT(rx_fault_delay_full),
	SOFT_WIRE_XSTATS,
};

char soft_reason_xstat_name[ROCE_R_NUM][SOFT_XSTAT_NAME_LEN];

/* QP 1's counters (soft_gsi.c), after the device's: offsets into struct
 * irdma_hw_gsi_stats; the per-class names are made at start-up. */
#define GSI_STAT(name, f) { name, offsetof(struct irdma_hw_gsi_stats, f) }
static char gsi_class_xstat_name[2][IRDMA_CM_GSI_CLASS_NUM][SOFT_XSTAT_NAME_LEN];
#define GSI_CLASS(dir, c) { gsi_class_xstat_name[dir][c], (dir ? \
	offsetof(struct irdma_hw_gsi_stats, tx_class) : \
	offsetof(struct irdma_hw_gsi_stats, rx_class)) + (c) * sizeof(uint64_t) }
static const struct {
	const char *name;
	size_t off;
} gsi_xstats[] = {
	GSI_STAT("gsi_rx_mads", rx_mads), GSI_STAT("gsi_tx_mads", tx_mads),
	GSI_STAT("gsi_rx_drop_overflow", rx_overflow), GSI_STAT("gsi_rx_drop_qkey", rx_bad_qkey),
	GSI_STAT("gsi_rx_drop_opcode", rx_bad_opcode), GSI_STAT("gsi_rx_drop_length", rx_bad_length),
	GSI_STAT("gsi_rx_drop_base_version", rx_bad_base_version),
	GSI_STAT("gsi_rx_other_class", rx_other_class), GSI_STAT("gsi_tx_errors", tx_errors),
	GSI_STAT("gsi_tx_unsupported_replies", tx_unsupported_replies),
	GSI_CLASS(0, 0), GSI_CLASS(0, 1), GSI_CLASS(0, 2), GSI_CLASS(0, 3),
	GSI_CLASS(0, 4), GSI_CLASS(0, 5), GSI_CLASS(0, 6), GSI_CLASS(0, 7),
	GSI_CLASS(1, 0), GSI_CLASS(1, 1), GSI_CLASS(1, 2), GSI_CLASS(1, 3),
	GSI_CLASS(1, 4), GSI_CLASS(1, 5), GSI_CLASS(1, 6), GSI_CLASS(1, 7),
};
_Static_assert(IRDMA_CM_GSI_CLASS_NUM == 8, "gsi_xstats lists 8 classes each way");

RTE_INIT(soft_gsi_xstat_names)
{
	for (int c = 0; c < IRDMA_CM_GSI_CLASS_NUM; c++) {
		snprintf(gsi_class_xstat_name[0][c], SOFT_XSTAT_NAME_LEN, "gsi_rx_class_%s",
			 irdma_cm_gsi_class_name(c));
		snprintf(gsi_class_xstat_name[1][c], SOFT_XSTAT_NAME_LEN, "gsi_tx_class_%s",
			 irdma_cm_gsi_class_name(c));
	}
}

RTE_INIT(soft_reason_xstat_names)
{
	int r;

	for (r = 0; r < ROCE_R_NUM; r++)
		snprintf(soft_reason_xstat_name[r], SOFT_XSTAT_NAME_LEN, "rx_drop_%s",
			 roce_reason_name(r));
}

/* Per-QP counters: the device's own, then lib/roce's transport counters. */
#define QP_STAT(n) { #n, offsetof(struct soft_qp, st) + offsetof(struct soft_qp_stats, n) }
#define QP_DROP(r) { soft_reason_xstat_name[r], offsetof(struct soft_qp, xport) + \
			offsetof(struct roce_qp, stats) + offsetof(struct roce_qp_stats, drops[r]) }
#define RQ_STAT(name, f) { name, offsetof(struct soft_qp, xport) + offsetof(struct roce_qp, stats) + \
				 offsetof(struct roce_qp_stats, f) }
static const struct {
	const char *name;
	size_t off;
} qp_xstats[] = {
	QP_STAT(tx_packets), QP_STAT(tx_bytes), QP_STAT(rx_packets), QP_STAT(rx_bytes),
	QP_STAT(completions), QP_STAT(errors),
	RQ_STAT("tx_acks", acks_tx), RQ_STAT("rx_acks", acks_rx),
	RQ_STAT("tx_seq_naks", seq_naks_tx), RQ_STAT("rx_seq_naks", seq_naks_rx),
	RQ_STAT("tx_rnr_naks", rnr_naks_tx), RQ_STAT("rx_rnr_naks", rnr_naks_rx),
	RQ_STAT("tx_error_naks", err_naks_tx), RQ_STAT("rx_error_naks", err_naks_rx),
	RQ_STAT("retransmits", retransmits), RQ_STAT("ack_timeouts", timeouts),
	RQ_STAT("rx_duplicate_requests", dup_requests), RQ_STAT("read_replays", read_replays),
	RQ_STAT("atomic_replays", atomic_replays), RQ_STAT("implicit_naks", implicit_naks),
	RQ_STAT("tx_ud_oversize", ud_oversize),
	/* Frames the QP did not use, by lib/roce reason (flow events included: psn_ahead,
	 * duplicate, rnr and response_psn are a lossy wire's normal business). */
	QP_DROP(ROCE_R_QP_STATE), QP_DROP(ROCE_R_TRANSPORT), QP_DROP(ROCE_R_ADDR),
	QP_DROP(ROCE_R_QKEY), QP_DROP(ROCE_R_PSN_AHEAD), QP_DROP(ROCE_R_DUPLICATE),
	QP_DROP(ROCE_R_DUP_NO_RES), QP_DROP(ROCE_R_OPSEQ), QP_DROP(ROCE_R_LENGTH),
	QP_DROP(ROCE_R_INVALID_REQ), QP_DROP(ROCE_R_REMOTE_ACCESS), QP_DROP(ROCE_R_REMOTE_OP),
	QP_DROP(ROCE_R_RNR), QP_DROP(ROCE_R_RESP_PSN), QP_DROP(ROCE_R_RESP_UNEXPECTED),
	QP_DROP(ROCE_R_UD_NO_RECV), QP_DROP(ROCE_R_UD_TOO_LONG), QP_DROP(ROCE_R_UC_DROP),
	QP_DROP(ROCE_R_CNP),
	/* the one wire reason a QP sees: the ICRC checked while the payload was copied */
	QP_DROP(ROCE_R_ICRC),
};
_Static_assert(ROCE_R_CNP + 1 == ROCE_R_NUM && ROCE_R_ICRC + 1 == ROCE_R_QP_STATE,
	       "a new lib/roce reason needs its xstat in SOFT_WIRE_XSTATS or qp_xstats");

int soft_xstats_names(struct irdma_hw_dev *hw, int64_t qp_id, const char **names,
		      unsigned int n)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	unsigned int i;

	if (qp_id < 0) {
		if (n >= RTE_DIM(dev_xstats) + RTE_DIM(gsi_xstats) && names) {
			for (i = 0; i < RTE_DIM(dev_xstats); i++)
				names[i] = dev_xstats[i].name;
			for (i = 0; i < RTE_DIM(gsi_xstats); i++)
				names[RTE_DIM(dev_xstats) + i] = gsi_xstats[i].name;
		}
		return RTE_DIM(dev_xstats) + RTE_DIM(gsi_xstats);
	}
	if (soft_qp_get(dev, (uint32_t)qp_id) == NULL)
		return -EINVAL;
	if (n >= RTE_DIM(qp_xstats) && names)
		for (i = 0; i < RTE_DIM(qp_xstats); i++)
			names[i] = qp_xstats[i].name;
	return RTE_DIM(qp_xstats);
}

int soft_xstats_get(struct irdma_hw_dev *hw, int64_t qp_id, uint64_t *values,
		    unsigned int n)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp;
	unsigned int i;

	if (qp_id < 0) {
		if (n >= RTE_DIM(dev_xstats) + RTE_DIM(gsi_xstats) && values) {
			struct soft_dev_stats st = dev->st;

			soft_wire_stats_read(dev, &st.wire); /* the port's counters added */
			soft_wire_stats_sums(&st.wire, &st.rx_icrc_errors, &st.rx_not_roce,
					     &st.rx_malformed);
			for (i = 0; i < RTE_DIM(dev_xstats); i++)
				values[i] = *(const uint64_t *)((const uint8_t *)&st +
								dev_xstats[i].off);
			for (i = 0; i < RTE_DIM(gsi_xstats); i++)
				values[RTE_DIM(dev_xstats) + i] =
					*(const uint64_t *)((const uint8_t *)&dev->gsi.st +
							    gsi_xstats[i].off);
		}
		return RTE_DIM(dev_xstats) + RTE_DIM(gsi_xstats);
	}
	qp = soft_qp_get(dev, (uint32_t)qp_id);
	if (qp == NULL)
		return -EINVAL;
	if (n >= RTE_DIM(qp_xstats) && values)
		for (i = 0; i < RTE_DIM(qp_xstats); i++)
			values[i] = *(const uint64_t *)((const uint8_t *)qp + qp_xstats[i].off);
	return RTE_DIM(qp_xstats);
}

int soft_xstats_reset(struct irdma_hw_dev *hw, int64_t qp_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp;

	if (qp_id < 0) {
		memset(&dev->st, 0, sizeof(dev->st));
		soft_wire_stats_reset(dev);
		memset(&dev->gsi.st, 0, sizeof(dev->gsi.st));
		return 0;
	}
	qp = soft_qp_get(dev, (uint32_t)qp_id);
	if (qp == NULL)
		return -EINVAL;
	memset(&qp->st, 0, sizeof(qp->st));
	memset(&qp->xport.stats, 0, sizeof(qp->xport.stats));
	return 0;
}
