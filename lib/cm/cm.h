/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/cm: everything public (see README.md). */
#ifndef CM_H
#define CM_H

#include "cm_msg.h"
#include "cm_reason.h"
#include "cm_ip.h"
#include "cm_conn.h"
#include "cm_rcm.h"
#include "cm_gsi.h"

#endif /* CM_H */
