/* SPDX-License-Identifier: BSD-3-Clause */
/* tool_hints.h - what the tools add to an error so the user knows what to look at. */
#ifndef IRDMA_APP_TOOL_HINTS_H
#define IRDMA_APP_TOOL_HINTS_H

/* The first WR ended in RETRY_EXC_ERR: nothing ever came back from the peer's device. */
#define TOOL_HINT_RETRY_EXC                                                                \
	"nothing came back from the peer: check that both sides use a GID of the same "    \
	"kind (-x/-g; the IPv4-mapped one by default), the same path MTU (-m), that the "  \
	"peer's MAC resolves (ARP, or a neigh= devarg naming the MAC the peer really "     \
	"uses), and that the peer's device is being polled"

#endif
