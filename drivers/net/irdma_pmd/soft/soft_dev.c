/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software device: open and close (configuration, object tables, ports, engine) and the
 * operations table of the hardware contract (irdma_hw.h). The control commands are in
 * soft_ctrl_*.c, the counters in soft_xstats.c, the data path in the other soft_*.c files.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "roce_addr.h"

#include "cm_gsi.h"
#include "soft_ctrl.h"
#include "soft_priv.h"

RTE_LOG_REGISTER(soft_logtype, pmd.net.irdma.soft, NOTICE);

/* Generation attributes (doc/spec/irdma-uk.md §2.2). The soft device grants atomics on GEN_3. */
static void soft_fill_uk_attrs(struct irdma_uk_attrs *a, uint8_t gen)
{
	memset(a, 0, sizeof(*a));
	a->hw_rev = gen;
	a->min_hw_cq_size = IRDMA_MIN_CQ_SIZE;
	a->max_hw_cq_size = IRDMA_MAX_CQ_SIZE;
	switch (gen) {
	case IRDMA_GEN_1:
		a->max_hw_wq_frags = 3;
		a->max_hw_read_sges = 1;
		a->max_hw_inline = 48;
		a->max_hw_wq_quanta = 2048;
		a->max_hw_rq_quanta = 16384;
		a->max_hw_sq_chunk = 2;
		a->min_hw_wq_size = 4;
		break;
	case IRDMA_GEN_2:
		a->max_hw_wq_frags = 13;
		a->max_hw_read_sges = 13;
		a->max_hw_inline = 101;
		a->max_hw_wq_quanta = 32768;
		a->max_hw_rq_quanta = 32768;
		a->max_hw_sq_chunk = 8;
		a->min_hw_wq_size = 8;
		a->feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE;
		break;
	default:
		a->max_hw_wq_frags = 14;
		a->max_hw_read_sges = 14;
		a->max_hw_inline = 216;
		a->max_hw_wq_quanta = 32768;
		a->max_hw_rq_quanta = 32768;
		a->max_hw_srq_quanta = 262144;
		a->max_hw_sq_chunk = 8;
		a->min_hw_wq_size = 16;
		a->feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE |
				   IRDMA_FEATURE_64_BYTE_CQE | IRDMA_FEATURE_CQE_TIMESTAMPING |
				   IRDMA_FEATURE_SRQ | IRDMA_FEATURE_ATOMIC_OPS;
		break;
	}
}

static void *tbl(struct soft_dev *dev, const char *what, size_t n, size_t sz)
{
	return rte_zmalloc_socket(what, n * sz, RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
}

static void soft_dev_free(struct soft_dev *dev)
{
	uint32_t i;

	soft_engine_stop(dev);
	soft_wire_close(dev);
	soft_key_table_fini(dev);
	if (dev->qp != NULL)
		for (i = 0; i < dev->max_qp; i++)
			rte_free(dev->qp[i]);
	rte_free(dev->qp);
	rte_free(dev->cq);
	rte_free(dev->srq);
	rte_free(dev->ah);
	rte_free(dev->pd_used);
	soft_engine_fini(dev);
	soft_db_page_fini(&dev->db_qp);
	soft_db_page_fini(&dev->db_cq);
	rte_free(dev);
}

static int soft_dev_open(const struct irdma_hw_dev_config *cfg, struct irdma_hw_dev **out,
			 struct irdma_hw_dev_info *info)
{
	struct soft_dev *dev;
	int rc;

	if (cfg == NULL || out == NULL || info == NULL)
		return -EINVAL;
	if (cfg->gen < IRDMA_HW_GEN_1 || cfg->gen > IRDMA_HW_GEN_3) {
		SOFT_LOG(ERR, "%s: gen=%d: valid generations are 1, 2, 3", cfg->name, cfg->gen);
		return -EINVAL;
	}
	if (cfg->mtu && (cfg->mtu < 256 || cfg->mtu > 4096 || (cfg->mtu & (cfg->mtu - 1)))) {
		SOFT_LOG(ERR, "%s: mtu=%u: valid path MTUs are 256, 512, 1024, 2048, 4096",
			 cfg->name, cfg->mtu);
		return -EINVAL;
	}
	dev = rte_zmalloc_socket("soft_dev", sizeof(*dev), RTE_CACHE_LINE_SIZE, cfg->socket_id);
	if (dev == NULL)
		return -ENOMEM;
	dev->cfg = *cfg;
	dev->cfg.backend_args = NULL; /* not kept: parsed into dev->args */
	rc = soft_devargs_parse(cfg->backend_args, cfg->backend_args ? cfg->backend_args : "",
				&dev->args);
	if (rc == 0 && dev->args.rxq != SOFT_QUEUE_OWN &&
	    (cfg->port == NULL || strcmp(cfg->port, "loop") == 0)) {
		SOFT_LOG(ERR, "%s: rxq= and txq= name queues of an ethdev: they need port=<ethdev>",
			 cfg->name ? cfg->name : "irdma_soft");
		rc = -EINVAL;
	}
	if (rc) {
		rte_free(dev);
		return rc;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", cfg->name ? cfg->name : "irdma_soft");
	dev->cfg.name = dev->name;
	dev->cfg.port = NULL; /* not kept: the caller's string */
	dev->gen = (uint8_t)cfg->gen;
	dev->faults = dev->args.drop_ppm || dev->args.dup_ppm || dev->args.reorder_ppm ||
		      dev->args.corrupt_ppm || dev->args.delay_ppm;
	dev->rx_faults = dev->args.rx_drop_ppm || dev->args.rx_dup_ppm ||
			 dev->args.rx_reorder_ppm || dev->args.rx_corrupt_ppm ||
			 dev->args.rx_delay_ppm;
	dev->mtu = cfg->mtu ? cfg->mtu : 4096;
	soft_fill_uk_attrs(&dev->uk_attrs, dev->gen);
	dev->max_qp = cfg->max_qp ? cfg->max_qp : SOFT_DEF_MAX_QP;
	dev->max_cq = cfg->max_cq ? cfg->max_cq : SOFT_DEF_MAX_CQ;
	dev->max_srq = cfg->max_srq ? cfg->max_srq : SOFT_DEF_MAX_SRQ;
	dev->max_mr = cfg->max_mr ? cfg->max_mr : SOFT_DEF_MAX_MR;
	dev->max_pd = cfg->max_pd ? cfg->max_pd : SOFT_DEF_MAX_PD;
	dev->max_ah = cfg->max_ah ? cfg->max_ah : SOFT_DEF_MAX_AH;
	if (dev->max_qp < SOFT_FIRST_QPN + 1 || dev->max_qp > IRDMA_DB_PAGE_MAX_IDS ||
	    dev->max_cq > IRDMA_DB_PAGE_MAX_IDS || dev->max_mr > (1u << 24)) {
		SOFT_LOG(ERR, "%s: max_qp/max_cq/max_mr out of range (max_qp, max_cq <= %u)",
			 dev->name, IRDMA_DB_PAGE_MAX_IDS);
		rte_free(dev);
		return -EINVAL;
	}
	rte_spinlock_init(&dev->engine_lock);
	dev->service_id = UINT32_MAX;
	dev->tsc_hz = rte_get_tsc_hz();

	memcpy(dev->mac, cfg->mac, 6);

	dev->qp = tbl(dev, "soft_qp", dev->max_qp, sizeof(*dev->qp));
	dev->cq = tbl(dev, "soft_cq", dev->max_cq, sizeof(*dev->cq));
	dev->srq = tbl(dev, "soft_srq", dev->max_srq, sizeof(*dev->srq));
	dev->ah = tbl(dev, "soft_ah", dev->max_ah, sizeof(*dev->ah));
	dev->pd_used = tbl(dev, "soft_pd", dev->max_pd, 1);
	if (!dev->qp || !dev->cq || !dev->srq || !dev->ah || !dev->pd_used) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = soft_db_page_init(dev, &dev->db_qp, dev->max_qp, &dev->db_top[0]);
	if (rc == 0)
		rc = soft_db_page_init(dev, &dev->db_cq, dev->max_cq, &dev->db_top[1]);
	if (rc == 0)
		rc = soft_engine_init(dev);
	if (rc)
		goto fail;
	dev->qp_hint = SOFT_FIRST_QPN;
	rc = soft_key_table_init(dev);
	if (rc)
		goto fail;
	dev->cfg.port = cfg->port;
	rc = soft_wire_open(dev);
	dev->cfg.port = NULL;
	if (rc)
		goto fail;
	dev->loop_rx = soft_wire_loop_queue(dev);
	/* Addresses: the MAC given, else the port's, else a locally administered one;
	 * GID 0 = fe80::EUI-64, then the IPv4-mapped and IPv6 addresses. */
	if (!(dev->mac[0] | dev->mac[1] | dev->mac[2] | dev->mac[3] | dev->mac[4] | dev->mac[5])) {
		static uint32_t serial;

		dev->mac[0] = 0x02;
		dev->mac[1] = 0x1d;
		dev->mac[2] = 0xa0;
		dev->mac[5] = (uint8_t)++serial;
	}
	roce_gid_from_mac(dev->gid[dev->n_gids++], dev->mac);
	if (cfg->has_ipv4)
		roce_gid_from_ipv4(dev->gid[dev->n_gids++], cfg->ipv4);
	if (cfg->has_ipv6)
		memcpy(dev->gid[dev->n_gids++], cfg->ipv6, 16);
	soft_wire_addrs_set(dev);

	rc = soft_engine_start(dev);
	if (rc)
		goto fail;

	memset(info, 0, sizeof(*info));
	info->uk_attrs = &dev->uk_attrs;
	info->max_qp = dev->max_qp - SOFT_FIRST_QPN;
	info->max_cq = dev->max_cq;
	info->max_srq = dev->gen >= IRDMA_GEN_3 ? dev->max_srq : 0;
	info->max_mr = dev->max_mr - 1;
	info->max_mw = dev->max_mr - 1;
	/* index 0 of the PD and AH tables is never handed out, as for MRs (found by
	 * tests/integration exhaustion: max_pd=2 advertised 2 PDs and gave 1) */
	info->max_pd = dev->max_pd - 1;
	info->max_ah = dev->max_ah - 1;
	info->max_qp_rd_atom = SOFT_MAX_ORD;
	info->max_qp_init_rd_atom = SOFT_MAX_IRD;
	info->max_mr_size = UINT64_MAX;
	info->max_msg_size = SOFT_MAX_MSG;
	info->mtu = dev->mtu;
	memcpy(info->mac, dev->mac, 6);
	info->n_gids = dev->n_gids;
	memcpy(info->gid, dev->gid, sizeof(info->gid));
	info->service_id = dev->service_id;
	*out = (struct irdma_hw_dev *)dev;
	SOFT_LOG(INFO, "%s: GEN_%u, mtu %u, engine %s", dev->name, dev->gen, dev->mtu,
		 cfg->engine == IRDMA_HW_ENGINE_SERVICE ? "service" : "inline");
	return 0;
fail:
	soft_dev_free(dev);
	return rc;
}

static int soft_dev_close(struct irdma_hw_dev *hw)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	uint32_t i;

	for (i = 0; i < dev->max_qp; i++)
		if (dev->qp[i] != NULL)
			return -EBUSY;
	for (i = 0; i < dev->max_cq; i++)
		if (dev->cq[i].in_use)
			return -EBUSY;
	for (i = 0; i < dev->max_srq; i++)
		if (dev->srq[i].in_use)
			return -EBUSY;
	soft_dev_free(dev);
	return 0;
}

/* The QP's own allocations: its context, the WQE shadow (per SQ quantum) and lib/roce's. */
static size_t soft_qp_state_bytes(struct irdma_hw_dev *hw, uint32_t qp_id)
{
	struct soft_qp *qp = soft_qp_get(soft_dev_from_hw(hw), qp_id);

	if (qp == NULL)
		return 0;
	return sizeof(*qp) + (size_t)qp->sq_depth * sizeof(*qp->swq) + qp->xport_mem_bytes;
}

const struct irdma_hw_ops irdma_soft_ops = {
	.name = "soft",
	.dev_open = soft_dev_open,
	.dev_close = soft_dev_close,
	.pd_alloc = soft_pd_alloc,
	.pd_dealloc = soft_pd_dealloc,
	.cq_create = soft_cq_create,
	.cq_destroy = soft_cq_destroy,
	.cq_resize = soft_cq_resize,
	.cq_set_event = soft_cq_set_event,
	.qp_create = soft_qp_create,
	.qp_modify = soft_qp_modify,
	.qp_query = soft_qp_query,
	.qp_destroy = soft_qp_destroy,
	.srq_create = soft_srq_create,
	.srq_destroy = soft_srq_destroy,
	.srq_arm = soft_srq_arm,
	.mr_reg = soft_mr_reg_op,
	.mr_dereg = soft_mr_dereg_op,
	.mw_alloc = soft_mw_alloc_op,
	.mw_dealloc = soft_mw_dealloc_op,
	.ah_create = soft_ah_create,
	.ah_destroy = soft_ah_destroy,
	.progress = soft_engine_progress,
	.sq_kick = soft_engine_sq_kick,
	.xstats_names = soft_xstats_names,
	.xstats_get = soft_xstats_get,
	.xstats_reset = soft_xstats_reset,
	.gsi_send = soft_gsi_send,
	.gsi_recv = soft_gsi_recv,
	.gsi_stats = soft_gsi_stats,
	.qp_state_bytes = soft_qp_state_bytes,
	.port_rx = soft_port_rx,
	.port_drain = soft_port_drain,
};

