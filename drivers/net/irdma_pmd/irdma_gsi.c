/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QP 1 (GSI) for applications that run the IB CM / RDMA-CM of lib/cm: MADs in and out
 * of the device, and its counters. The device applies the GSI rules (soft/soft_gsi.c).
 */
#include <errno.h>
#include <string.h>

#include "irdma_pmd.h"

int
rte_pmd_irdma_gsi_send(struct rte_pmd_irdma_dev *dev, const union rte_pmd_irdma_gid *dgid,
		       const uint8_t *mad, size_t len)
{
	if (!irdma_dev_valid(dev) || dgid == NULL || mad == NULL || len != 256) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, a closed device, or a MAD of %zu "
			  "bytes (a MAD is 256)", len);
		return -EINVAL;
	}
	if (dev->ops->gsi_send == NULL)
		return -ENOTSUP;
	return dev->ops->gsi_send(dev->hw, dgid->raw, mad);
}

int
rte_pmd_irdma_gsi_recv(struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_mad *mads,
		       unsigned int n)
{
	struct irdma_hw_mad hm[16];
	unsigned int done = 0;

	if (!irdma_dev_valid(dev) || (mads == NULL && n)) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	if (dev->ops->gsi_recv == NULL)
		return -ENOTSUP;
	while (done < n) {
		unsigned int want = n - done < RTE_DIM(hm) ? n - done : RTE_DIM(hm);
		int got = dev->ops->gsi_recv(dev->hw, hm, want);

		if (got <= 0)
			break;
		for (int i = 0; i < got; i++, done++) {
			memcpy(mads[done].sgid.raw, hm[i].sgid, 16);
			memcpy(mads[done].smac, hm[i].smac, 6);
			memcpy(mads[done].data, hm[i].data, sizeof(mads[done].data));
		}
		if ((unsigned int)got < want)
			break;
	}
	return (int)done;
}

int
rte_pmd_irdma_gsi_stats(const struct rte_pmd_irdma_dev *dev, struct rte_pmd_irdma_gsi_stats *stats)
{
	struct irdma_hw_gsi_stats st;
	int rc;

	if (!irdma_dev_valid(dev) || stats == NULL) {
		IRDMA_LOG(ctrl, ERR, "NULL handle or argument, or a closed device");
		return -EINVAL;
	}
	if (dev->ops->gsi_stats == NULL)
		return -ENOTSUP;
	rc = dev->ops->gsi_stats(dev->hw, &st);
	if (rc)
		return rc;
	*stats = (struct rte_pmd_irdma_gsi_stats){ st.rx_mads, st.tx_mads, st.rx_overflow,
		st.rx_bad_qkey, st.rx_bad_opcode, st.rx_bad_length, st.rx_other_class, st.tx_errors,
		st.rx_bad_base_version, st.tx_unsupported_replies, { 0 }, { 0 } };
	memcpy(stats->rx_class, st.rx_class, sizeof(stats->rx_class));
	memcpy(stats->tx_class, st.tx_class, sizeof(stats->tx_class));
	return 0;
}
