/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checked data movement between SGE lists and flat buffers (frames), shared by the
 * requester, responder and completer: every piece checked against the key table right
 * before its bytes move, optionally folded into the ICRC as it is copied. 0 or the key
 * check's negative errno (soft_priv.h).
 */
#include <errno.h>
#include <string.h>

#include "roce_icrc.h"

#include "soft_mr_inl.h"
#include "soft_priv.h"
#include "soft_tx_payload.h"

int soft_sges_check(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
		    uint32_t n, uint32_t access)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint8_t *host;
		int e;

		if (sge[i].len == 0)
			continue;
		e = soft_mr_check_local_inl(dev, pd_id, sge[i].stag, sge[i].addr, sge[i].len,
					    access, &host);
		if (e)
			return e;
	}
	return 0;
}

/*
 * Moves len bytes between a flat buffer and the SGE list, starting at logical offset off
 * of the list. Every SGE piece is checked against the key table right before its bytes
 * move (the region may have been invalidated since the WQE was accepted). With reg !=
 * NULL the bytes are folded into the CRC register *reg as they are copied
 * (roce_crc32_copy: the copies fused with the ICRC, soft_tx_payload.c, soft_rx_fuse.c).
 */
static inline int sges_move(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
			    uint32_t n, uint64_t off, uint8_t *buf, uint32_t len, bool to_sges,
			    uint32_t *reg)
{
	uint32_t i;

	for (i = 0; i < n && len; i++) {
		uint64_t take;
		uint8_t *host;
		int e;

		if (off >= sge[i].len) {
			off -= sge[i].len;
			continue;
		}
		take = sge[i].len - off;
		if (take > len)
			take = len;
		e = soft_mr_check_local_inl(dev, pd_id, sge[i].stag, sge[i].addr + off, take,
					    to_sges ? IRDMA_HW_ACCESS_LOCAL_WRITE : 0, &host);
		if (unlikely(e))
			return e;
		if (to_sges && reg != NULL)
			*reg = roce_crc32_copy(*reg, host, buf, take);
		else if (to_sges)
			memcpy(host, buf, take);
		else if (reg != NULL)
			*reg = roce_crc32_copy(*reg, buf, host, take);
		else
			memcpy(buf, host, take);
		buf += take;
		len -= (uint32_t)take;
		off = 0;
	}
	return len ? -EFAULT : 0;
}

/* soft_sges_copy() past its common case. */
static __rte_noinline int sges_copy_general(struct soft_dev *dev, uint32_t pd_id,
					    const struct soft_sge *sge, uint32_t n, uint64_t off,
					    uint8_t *buf, uint32_t len, bool to_sges)
{
	return sges_move(dev, pd_id, sge, n, off, buf, len, to_sges, NULL);
}

/* The common case without a frame (soft_sges_copy_fast), the rest takes the loop. */
int soft_sges_copy(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge, uint32_t n,
		   uint64_t off, uint8_t *buf, uint32_t len, bool to_sges)
{
	if (likely(soft_sges_copy_fast(dev, pd_id, sge, n, off, buf, len, to_sges)))
		return 0;
	return sges_copy_general(dev, pd_id, sge, n, off, buf, len, to_sges);
}

int soft_sges_scatter_crc(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
			  uint32_t n, uint64_t off, const uint8_t *buf, uint32_t len, uint32_t *reg)
{
	return sges_move(dev, pd_id, sge, n, off, (uint8_t *)(uintptr_t)buf, len, true, reg);
}

int soft_sges_gather_crc(struct soft_dev *dev, uint32_t pd_id, const struct soft_sge *sge,
			 uint32_t n, uint64_t off, uint8_t *buf, uint32_t len, uint32_t *reg)
{
	return sges_move(dev, pd_id, sge, n, off, buf, len, false, reg);
}
