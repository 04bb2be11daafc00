/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The software device: configuration, object tables and the control commands of the
 * hardware contract (irdma_hw.h). The data path lives in the other soft_*.c files.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "roce_addr.h"

#include "cm_gsi.h"
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
	dev->loop_rx = soft_wire_loop_ring(dev);
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

static int soft_pd_alloc(struct irdma_hw_dev *hw, uint32_t *pd_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	uint32_t i;

	for (i = 1; i < dev->max_pd; i++) {
		if (!dev->pd_used[i]) {
			dev->pd_used[i] = 1;
			*pd_id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

static int soft_pd_dealloc(struct irdma_hw_dev *hw, uint32_t pd_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (pd_id == 0 || pd_id >= dev->max_pd || !dev->pd_used[pd_id])
		return -EINVAL;
	dev->pd_used[pd_id] = 0;
	return 0;
}

static bool pd_valid(const struct soft_dev *dev, uint32_t pd_id)
{
	return pd_id < dev->max_pd && dev->pd_used[pd_id];
}

/* ---- CQ ---- */

static struct soft_cq *cq_get(struct soft_dev *dev, uint32_t cq_id)
{
	if (cq_id >= dev->max_cq || !dev->cq[cq_id].in_use)
		return NULL;
	return &dev->cq[cq_id];
}

static int soft_cq_create(struct irdma_hw_dev *hw, const struct irdma_hw_cq_ctx *ctx,
			  uint32_t *cq_id, uint32_t **db)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = NULL;
	uint32_t i;

	if (ctx->cq_base == NULL || ctx->shadow_area == NULL || ctx->cq_size < 2 ||
	    ctx->cq_size > IRDMA_MAX_CQ_SIZE)
		return -EINVAL;
	if (ctx->cqe_64byte && !(dev->uk_attrs.feature_flags & IRDMA_FEATURE_64_BYTE_CQE))
		return -EINVAL;
	for (i = 0; i < dev->max_cq; i++) {
		if (!dev->cq[i].in_use) {
			cq = &dev->cq[i];
			break;
		}
	}
	if (cq == NULL)
		return -ENOSPC;
	rte_spinlock_lock(&dev->engine_lock);
	memset(cq, 0, sizeof(*cq));
	cq->id = i;
	cq->base = ctx->cq_base;
	cq->size = ctx->cq_size;
	cq->cqe64 = ctx->cqe_64byte;
	cq->shadow = ctx->shadow_area;
	cq->polarity = 1;
	cq->eventfd = ctx->eventfd;
	cq->event_cb = ctx->event_cb;
	cq->event_arg = ctx->event_arg;
	cq->in_use = true;
	rte_spinlock_unlock(&dev->engine_lock);
	*cq_id = i;
	*db = soft_db_word(&dev->db_cq, i);
	return 0;
}

static int soft_cq_destroy(struct irdma_hw_dev *hw, uint32_t cq_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = cq_get(dev, cq_id);

	if (cq == NULL)
		return -EINVAL;
	if (cq->users)
		return -EBUSY;
	rte_spinlock_lock(&dev->engine_lock);
	cq->in_use = false;
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

static int soft_cq_resize(struct irdma_hw_dev *hw, uint32_t cq_id, void *base, uint64_t iova,
			  uint32_t size)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = cq_get(dev, cq_id);

	RTE_SET_USED(iova);
	if (cq == NULL || base == NULL || size < 2 || size > IRDMA_MAX_CQ_SIZE)
		return -EINVAL;
	if (!(dev->uk_attrs.feature_flags & IRDMA_FEATURE_CQ_RESIZE))
		return -EOPNOTSUPP;
	rte_spinlock_lock(&dev->engine_lock);
	cq->base = base;
	cq->size = size;
	cq->head = 0;
	cq->polarity = 1;
	cq->overflowed = false;
	cq->cons_stale = true;
	get_64bit_val_acquire(cq->shadow, IRDMA_BYTE_CQ_SHADOW_HEAD, &cq->stale_shadow);
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

static int soft_cq_set_event(struct irdma_hw_dev *hw, uint32_t cq_id, int eventfd,
			     void (*cb)(void *arg, uint32_t cq_id), void *arg)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *cq = cq_get(dev, cq_id);

	if (cq == NULL)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	cq->eventfd = eventfd;
	cq->event_cb = cb;
	cq->event_arg = arg;
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

/* ---- SRQ ---- */

static int soft_srq_create(struct irdma_hw_dev *hw, const struct irdma_hw_srq_ctx *ctx,
			   uint32_t *srq_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_srq *s = NULL;
	uint32_t i;

	if (!(dev->uk_attrs.feature_flags & IRDMA_FEATURE_SRQ))
		return -EOPNOTSUPP;
	if (!pd_valid(dev, ctx->pd_id) || ctx->srq_base == NULL || ctx->shadow_area == NULL ||
	    ctx->srq_shift > 3 || (ctx->srq_depth >> ctx->srq_shift) < 2)
		return -EINVAL;
	for (i = 0; i < dev->max_srq; i++) {
		if (!dev->srq[i].in_use) {
			s = &dev->srq[i];
			break;
		}
	}
	if (s == NULL)
		return -ENOSPC;
	memset(s, 0, sizeof(*s));
	s->id = i;
	s->pd_id = ctx->pd_id;
	s->base = ctx->srq_base;
	s->shift = ctx->srq_shift;
	s->size = ctx->srq_depth >> ctx->srq_shift;
	s->max_frags = ctx->max_frags;
	s->shadow = ctx->shadow_area;
	s->polarity = 1;
	s->limit = ctx->limit;
	s->in_use = true;
	*srq_id = i;
	return 0;
}

static int soft_srq_destroy(struct irdma_hw_dev *hw, uint32_t srq_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (srq_id >= dev->max_srq || !dev->srq[srq_id].in_use)
		return -EINVAL;
	if (dev->srq[srq_id].users)
		return -EBUSY;
	dev->srq[srq_id].in_use = false;
	return 0;
}

static int soft_srq_arm(struct irdma_hw_dev *hw, uint32_t srq_id, uint32_t limit)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (srq_id >= dev->max_srq || !dev->srq[srq_id].in_use)
		return -EINVAL;
	dev->srq[srq_id].limit = limit;
	return 0;
}

/* ---- QP ---- */

static int soft_qp_create(struct irdma_hw_dev *hw, const struct irdma_hw_qp_ctx *ctx,
			  uint32_t *qp_id, uint32_t **db)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_cq *scq = cq_get(dev, ctx->send_cq_id);
	struct soft_cq *rcq = cq_get(dev, ctx->recv_cq_id);
	struct soft_srq *srq = NULL;
	struct soft_swqe *swq;
	struct soft_qp *qp = NULL;
	uint32_t i;

	if (ctx->type != IRDMA_HW_QP_RC && ctx->type != IRDMA_HW_QP_UD)
		return -EINVAL;
	if (!pd_valid(dev, ctx->pd_id) || scq == NULL || rcq == NULL)
		return -EINVAL;
	if (ctx->sq_base == NULL || ctx->shadow_area == NULL || ctx->sq_depth < 8 ||
	    (ctx->sq_depth & (ctx->sq_depth - 1)))
		return -EINVAL;
	if (ctx->max_sq_frags > dev->uk_attrs.max_hw_wq_frags ||
	    ctx->max_rq_frags > dev->uk_attrs.max_hw_wq_frags ||
	    ctx->max_inline > dev->uk_attrs.max_hw_inline)
		return -EINVAL;
	if (ctx->use_srq) {
		if (ctx->srq_id >= dev->max_srq || !dev->srq[ctx->srq_id].in_use)
			return -EINVAL;
		srq = &dev->srq[ctx->srq_id];
	} else if (ctx->rq_base == NULL || ctx->rq_shift > 3 ||
		   (ctx->rq_depth >> ctx->rq_shift) < 2) {
		return -EINVAL;
	}
	for (i = dev->qp_hint; i < dev->max_qp && dev->qp[i] != NULL; i++)
		;
	if (i == dev->max_qp)
		return -ENOSPC;
	qp = rte_zmalloc_socket("soft_qp", sizeof(*qp), RTE_CACHE_LINE_SIZE, dev->cfg.socket_id);
	swq = rte_zmalloc_socket("soft_swq", sizeof(*swq) * ctx->sq_depth, 0,
				 dev->cfg.socket_id);
	if (qp == NULL || swq == NULL) {
		rte_free(qp);
		rte_free(swq);
		return -ENOMEM;
	}
	rte_spinlock_lock(&dev->engine_lock);
	qp->id = i;
	qp->dev = dev;
	qp->type = ctx->type;
	qp->pd_id = ctx->pd_id;
	qp->state = IRDMA_HW_QPS_RESET;
	qp->sq_base = ctx->sq_base;
	qp->sq_depth = ctx->sq_depth;
	qp->xport_depth = ctx->max_send_wr ? RTE_MIN(ctx->max_send_wr, ctx->sq_depth) :
			  ctx->sq_depth;
	qp->sq_polarity = 1;
	qp->max_inline = ctx->max_inline;
	qp->max_sq_frags = ctx->max_sq_frags;
	qp->max_rq_frags = ctx->max_rq_frags;
	qp->shadow = ctx->shadow_area;
	qp->compl_ctx = ctx->compl_ctx;
	qp->srq = srq;
	if (srq == NULL) {
		qp->rq_base = ctx->rq_base;
		qp->rq_shift = ctx->rq_shift;
		qp->rq_size = ctx->rq_depth >> ctx->rq_shift;
		qp->rq_polarity = 1;
	} else {
		srq->users++;
	}
	qp->scq = scq;
	qp->rcq = rcq;
	scq->users++;
	rcq->users++;
	qp->swq = swq;
	qp->cur_slot = UINT32_MAX;
	qp->attr.av.vlan_id = 0xFFFF;
	if (soft_xport_init(qp) != 0) {
		scq->users--;
		rcq->users--;
		if (srq)
			srq->users--;
		rte_spinlock_unlock(&dev->engine_lock);
		rte_free(swq);
		rte_free(qp);
		return -ENOMEM;
	}
	qp->in_use = true;
	dev->qp[i] = qp;
	dev->qp_hint = i + 1;
	rte_spinlock_unlock(&dev->engine_lock);
	*qp_id = i;
	*db = soft_db_word(&dev->db_qp, i);
	return 0;
}

/* Back to an empty SQ/RQ view (RESET, or RESET -> INIT). */
static void qp_reset(struct soft_qp *qp)
{
	qp->sq_head = 0;
	qp->sq_polarity = 1;
	qp->rq_head = 0;
	qp->rq_polarity = 1;
	qp->swq_head = qp->swq_tail = qp->swq_done = qp->swq_send = 0;
	qp->sq_stalled = false;
	qp->sq_kick = false;
	qp->wire_err = false;
	memset(&qp->rctx, 0, sizeof(qp->rctx));
	qp->cur_slot = UINT32_MAX;
}

static int soft_qp_modify(struct irdma_hw_dev *hw, uint32_t qp_id,
			  const struct irdma_hw_qp_attr *attr, uint32_t mask)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp = soft_qp_get(dev, qp_id);
	struct irdma_hw_qp_attr *a;
	int rc;

	if (qp == NULL || attr == NULL)
		return -EINVAL;
	if ((mask & IRDMA_HW_QP_ATTR_PATH_MTU) &&
	    (attr->path_mtu < 256 || attr->path_mtu > dev->mtu ||
	     (attr->path_mtu & (attr->path_mtu - 1))))
		return -EINVAL;
	if ((mask & IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > SOFT_MAX_ORD)
		return -EINVAL;
	if ((mask & IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > SOFT_MAX_IRD)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_xport_modify(qp, attr, mask);
	if (rc) {
		rte_spinlock_unlock(&dev->engine_lock);
		return rc;
	}
	a = &qp->attr;
	if (mask & IRDMA_HW_QP_ATTR_ACCESS_FLAGS)
		a->access_flags = attr->access_flags;
	if (mask & IRDMA_HW_QP_ATTR_QKEY)
		a->qkey = attr->qkey;
	if (mask & IRDMA_HW_QP_ATTR_AV)
		a->av = attr->av;
	if (mask & IRDMA_HW_QP_ATTR_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IRDMA_HW_QP_ATTR_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IRDMA_HW_QP_ATTR_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IRDMA_HW_QP_ATTR_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IRDMA_HW_QP_ATTR_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IRDMA_HW_QP_ATTR_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IRDMA_HW_QP_ATTR_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IRDMA_HW_QP_ATTR_DEST_QPN)
		a->dest_qpn = attr->dest_qpn & ROCE_QPN_MASK;
	if (mask & IRDMA_HW_QP_ATTR_RQ_PSN)
		a->rq_psn = attr->rq_psn & ROCE_PSN_MASK;
	if (mask & IRDMA_HW_QP_ATTR_SQ_PSN)
		a->sq_psn = attr->sq_psn & ROCE_PSN_MASK;
	if (mask & IRDMA_HW_QP_ATTR_STATE) {
		enum irdma_hw_qp_state old = qp->state;

		if (attr->state == IRDMA_HW_QPS_RESET) {
			qp_reset(qp);
			soft_engine_forget(dev, qp);
			qp->state = IRDMA_HW_QPS_RESET;
		} else if (attr->state == IRDMA_HW_QPS_ERR) {
			/* Also the flush request software sends after posting in ERR. */
			qp->state = IRDMA_HW_QPS_ERR;
			soft_qp_flush(qp);
		} else {
			if (old == IRDMA_HW_QPS_RESET)
				qp_reset(qp);
			qp->state = attr->state;
		}
		if (qp->state != IRDMA_HW_QPS_RESET)
			soft_engine_mark(dev, qp); /* a doorbell rung before RTS runs now */
	}
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

static int soft_qp_query(struct irdma_hw_dev *hw, uint32_t qp_id, struct irdma_hw_qp_attr *attr)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp = soft_qp_get(dev, qp_id);
	struct roce_qp_status st;

	if (qp == NULL || attr == NULL)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	roce_qp_query(&qp->xport, &st);
	*attr = qp->attr;
	/* lib/roce may have failed the QP a moment ago; the device applies it next step */
	attr->state = st.state == ROCE_QPS_ERR ? IRDMA_HW_QPS_ERR : qp->state;
	attr->sq_psn = st.sq_psn;
	attr->rq_psn = st.rq_psn;
	rte_spinlock_unlock(&dev->engine_lock);
	return 0;
}

static int soft_qp_destroy(struct irdma_hw_dev *hw, uint32_t qp_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp = soft_qp_get(dev, qp_id);
	uint32_t i;

	if (qp == NULL)
		return -EINVAL;
	rte_spinlock_lock(&dev->engine_lock);
	soft_engine_forget(dev, qp);
	/* Windows bound through this QP die with it. */
	for (i = 1; i < dev->max_mr; i++) {
		struct soft_key *k = &dev->keys[i];

		if (k->is_mw && k->mw_type == 2 && k->state == SOFT_KEY_VALID &&
		    k->qp_id == qp->id) {
			dev->keys[k->parent].mw_bound--;
			k->state = SOFT_KEY_INVALID;
		}
	}
	qp->scq->users--;
	qp->rcq->users--;
	if (qp->srq)
		qp->srq->users--;
	soft_xport_fini(qp);
	rte_free(qp->swq);
	qp->in_use = false;
	dev->qp[qp_id] = NULL;
	if (qp_id < dev->qp_hint)
		dev->qp_hint = qp_id;
	rte_spinlock_unlock(&dev->engine_lock);
	rte_free(qp);
	return 0;
}

/* ---- MR / MW / AH ---- */

static int soft_mr_reg_op(struct irdma_hw_dev *hw, const struct irdma_hw_mr_ctx *ctx,
			  uint32_t *stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mr_reg(dev, ctx, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

static int soft_mr_dereg_op(struct irdma_hw_dev *hw, uint32_t stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mr_dereg(dev, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

static int soft_mw_alloc_op(struct irdma_hw_dev *hw, uint32_t pd_id, enum irdma_hw_mw_type type,
			    uint32_t *stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mw_alloc(dev, pd_id, (uint8_t)type, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

static int soft_mw_dealloc_op(struct irdma_hw_dev *hw, uint32_t stag)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	int rc;

	rte_spinlock_lock(&dev->engine_lock);
	rc = soft_mw_dealloc(dev, stag);
	rte_spinlock_unlock(&dev->engine_lock);
	return rc;
}

static int soft_ah_create(struct irdma_hw_dev *hw, uint32_t pd_id, const struct irdma_hw_av *av,
			  uint32_t *ah_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	uint32_t i;

	if (!pd_valid(dev, pd_id) || av == NULL)
		return -EINVAL;
	/* ah_id must fit the 17-bit WQE field. */
	for (i = 1; i < dev->max_ah && i < (1u << 17); i++) {
		if (!dev->ah[i].in_use) {
			dev->ah[i].pd_id = pd_id;
			dev->ah[i].av = *av;
			soft_roce_av(dev, av, &dev->ah[i].rav);
			dev->ah[i].in_use = true;
			*ah_id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

static int soft_ah_destroy(struct irdma_hw_dev *hw, uint32_t ah_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);

	if (ah_id == 0 || ah_id >= dev->max_ah || !dev->ah[ah_id].in_use)
		return -EINVAL;
	dev->ah[ah_id].in_use = false;
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

static int soft_progress(struct irdma_hw_dev *hw, unsigned int budget)
{
	return soft_engine_progress(soft_dev_from_hw(hw), budget);
}

/* ---- xstats ---- */

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
	DEV_STAT(progress_calls),
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

static int soft_xstats_names(struct irdma_hw_dev *hw, int64_t qp_id, const char **names,
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

static int soft_xstats_get(struct irdma_hw_dev *hw, int64_t qp_id, uint64_t *values,
			   unsigned int n)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp;
	unsigned int i;

	if (qp_id < 0) {
		if (n >= RTE_DIM(dev_xstats) + RTE_DIM(gsi_xstats) && values) {
			struct soft_dev_stats st = dev->st;

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

static int soft_xstats_reset(struct irdma_hw_dev *hw, int64_t qp_id)
{
	struct soft_dev *dev = soft_dev_from_hw(hw);
	struct soft_qp *qp;

	if (qp_id < 0) {
		memset(&dev->st, 0, sizeof(dev->st));
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
	.progress = soft_progress,
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
