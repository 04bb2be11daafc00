/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/roce: the RoCEv2 wire protocol. One include for users of the whole library. */
#ifndef ROCE_H
#define ROCE_H

#include "roce_addr.h"
#include "roce_hdr.h"
#include "roce_icrc.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_qp.h"
#include "roce_reason.h"
#include "roce_timer.h"

#endif /* ROCE_H */
