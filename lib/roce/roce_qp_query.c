/* SPDX-License-Identifier: BSD-3-Clause */
/* What a device may read of a transport QP without knowing its layout. */
#include "roce_qp.h"

void roce_qp_query(const struct roce_qp *qp, struct roce_qp_status *st)
{
	st->state = qp->state;
	st->sq_psn = qp->req.psn;
	st->rq_psn = qp->resp.epsn;
}
