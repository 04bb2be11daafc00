/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "cm_gsi.h"
#include "cm_msg.h"
#include "cm_reason.h"
#include "soft_gsi.h"
#include "soft_priv.h"

_Static_assert(IRDMA_CM_GSI_CLASS_NUM == RTE_DIM(((struct irdma_hw_gsi_stats *)0)->rx_class),
	       "one GSI counter per MAD class");

static int gsi_xmit(struct soft_dev *dev, const uint8_t dgid[16], const uint8_t *mad);

/* Linux's answer to a request no agent takes: GetResp, status "unsupported". */
static void gsi_answer_unsupported(struct soft_dev *dev, const struct roce_pkt *p)
{
	uint8_t reply[IRDMA_CM_MAD_LEN];

	if (irdma_cm_gsi_unsupported_reply(p->payload, reply) &&
	    gsi_xmit(dev, p->sgid, reply) == 0)
		dev->gsi.st.tx_unsupported_replies++;
}

void soft_gsi_rx(struct soft_dev *dev, const struct roce_pkt *p)
{
	struct soft_gsi *g = &dev->gsi;
	uint32_t head, tail;
	struct irdma_hw_mad *m;

	switch (-irdma_cm_gsi_check(p)) {
	case IRDMA_CM_R_OK:
		break;
	case IRDMA_CM_R_GSI_QKEY:
		g->st.rx_bad_qkey++;
		return;
	case IRDMA_CM_R_GSI_OPCODE:
		g->st.rx_bad_opcode++;
		return;
	case IRDMA_CM_R_LENGTH:
		g->st.rx_bad_length++;
		return;
	case IRDMA_CM_R_BASE_VERSION:
		g->st.rx_bad_base_version++;
		return;
	default: /* another class: there is no agent for it here */
		g->st.rx_other_class++;
		g->st.rx_class[irdma_cm_gsi_class_of(p->payload)]++;
		gsi_answer_unsupported(dev, p);
		return;
	}
	g->st.rx_class[IRDMA_CM_GSI_CLASS_CM]++;
	/* the CM agent takes Send only: a Get/Set of the CM class is answered like any */
	if (p->payload[3] == 0x01 || p->payload[3] == 0x02) {
		gsi_answer_unsupported(dev, p);
		return;
	}
	head = atomic_load_explicit(&g->head, memory_order_relaxed);
	tail = atomic_load_explicit(&g->tail, memory_order_acquire);
	if (head - tail == SOFT_GSI_QLEN) {
		g->st.rx_overflow++; /* the CM retransmits: dropping is safe */
		return;
	}
	m = &g->q[head & (SOFT_GSI_QLEN - 1)];
	memcpy(m->sgid, p->sgid, 16);
	memcpy(m->smac, p->smac, 6);
	memcpy(m->data, p->payload, IRDMA_CM_MAD_LEN);
	g->st.rx_mads++;
	atomic_store_explicit(&g->head, head + 1, memory_order_release);
}

int soft_gsi_recv(struct irdma_hw_dev *hw, struct irdma_hw_mad *mads, unsigned int n)
{
	struct soft_gsi *g = &soft_dev_from_hw(hw)->gsi;
	uint32_t tail = atomic_load_explicit(&g->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&g->head, memory_order_acquire);
	unsigned int i;

	for (i = 0; i < n && tail != head; i++, tail++)
		mads[i] = g->q[tail & (SOFT_GSI_QLEN - 1)];
	atomic_store_explicit(&g->tail, tail, memory_order_release);
	return (int)i;
}

/* Builds and queues one MAD to QP 1 of dgid. Engine context or engine_lock held. */
static int gsi_xmit(struct soft_dev *dev, const uint8_t dgid[16], const uint8_t *mad)
{
	struct irdma_cm_gsi_path path = { .hop_limit = 64 };
	static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };
	bool v4 = memcmp(dgid, v4_prefix, sizeof(v4_prefix)) == 0;
	struct roce_pkt p;
	struct rte_mbuf *m;
	uint8_t *payload;
	uint32_t i;
	int rc = -EADDRNOTAVAIL;

	/* The source address: the first GID of the destination's family. */
	for (i = 0; i < dev->n_gids; i++) {
		if ((memcmp(dev->gid[i], v4_prefix, sizeof(v4_prefix)) == 0) == v4 &&
		    (v4 || dev->gid[i][0] != 0xfe)) { /* not the link-local GID */
			memcpy(path.sgid, dev->gid[i], 16);
			rc = 0;
			break;
		}
	}
	if (rc) {
		SOFT_LOG(ERR, "%s: no source GID for a MAD to that address family", dev->name);
		dev->gsi.st.tx_errors++;
		return rc;
	}
	memcpy(path.dgid, dgid, 16);
	memcpy(path.smac, dev->mac, 6); /* the port fills the destination MAC (ARP/ND) */
	irdma_cm_gsi_pkt_init(&p, &path, dev->gsi.psn++, 0, NULL);
	m = soft_wire_tx_room(dev, 1) ? soft_wire_alloc(dev, &p, NULL, &payload) : NULL;
	if (m == NULL) {
		dev->gsi.st.tx_errors++;
		return -ENOBUFS;
	}
	memcpy(payload, mad, IRDMA_CM_MAD_LEN);
	soft_wire_send(dev, m, &p); /* sets wire_dirty: the next step pushes it */
	dev->gsi.st.tx_mads++;
	dev->gsi.st.tx_class[irdma_cm_gsi_class_of(mad)]++;
	return 0;
}

int soft_gsi_send(struct irdma_hw_dev *hw, const uint8_t dgid[16], const uint8_t *mad)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = gsi_xmit(dev, dgid, mad);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

int soft_gsi_stats(struct irdma_hw_dev *hw, struct irdma_hw_gsi_stats *st)
{
	*st = soft_dev_from_hw(hw)->gsi.st;
	return 0;
}
