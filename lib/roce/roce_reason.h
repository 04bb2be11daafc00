/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Why a packet was not used: the classification of a received frame, not an error of the
 * call. roce_pkt_parse*() and roce_qp_rx() return it as their value (ROCE_R_OK: the frame
 * was taken), so a device can keep one counter array indexed by it and name each counter
 * with roce_reason_name(). Every other int-returning function of lib/roce returns 0 (or a
 * length or count) or a negative errno, and the device callbacks answer in negative errno
 * (roce_qp.h); the two never mix. Reasons marked "(flow)" are normal protocol events on a
 * lossy wire (the packet was handled: NAKed, re-ACKed or replayed) rather than malformed
 * input.
 */
#ifndef ROCE_REASON_H
#define ROCE_REASON_H

enum roce_reason {
	/* Internal to lib/roce, never returned: a receive fast path leaves the packet to the
	 * general path. Being negative it also gives the enum the type int (GCC makes an enum
	 * without negative values unsigned, and the receive functions then take 2 to 5
	 * instructions more per frame: bench/irdma-icount.sh). */
	ROCE_R_GENERAL = -1,
	ROCE_R_OK = 0,
	/* roce_pkt_parse(): the frame itself */
	ROCE_R_TRUNC,        /* frame shorter than its headers or IP length */
	ROCE_R_ETHERTYPE,    /* not IPv4/IPv6 (ARP, LLDP, ...): not RoCE */
	ROCE_R_IP_VERSION,   /* IP version nibble does not match the EtherType */
	ROCE_R_IP_HDR,       /* IPv4 options or fragment, IPv6 extension header */
	ROCE_R_IP_CSUM,      /* IPv4 header checksum */
	ROCE_R_IP_LEN,       /* IP length inconsistent */
	ROCE_R_NOT_UDP,      /* IP protocol is not UDP: not RoCE */
	ROCE_R_UDP_PORT,     /* UDP destination port is not 4791: not RoCE */
	ROCE_R_UDP_LEN,      /* UDP length does not match the IP length */
	ROCE_R_UDP_CSUM,     /* non-zero UDP checksum that is wrong */
	ROCE_R_BTH_TVER,     /* BTH transport header version is not 0 */
	ROCE_R_OPCODE,       /* reserved or unsupported opcode */
	ROCE_R_HDR_LEN,      /* too short for the opcode's extension headers and ICRC */
	ROCE_R_PAYLOAD,      /* payload on an opcode that carries none, or wrong size */
	ROCE_R_PAD,          /* PadCnt larger than the payload or payload+pad not 4-aligned */
	ROCE_R_PKEY,         /* P_Key not in the default partition */
	ROCE_R_QPN,          /* destination QP 0 */
	ROCE_R_ICRC,         /* invariant CRC mismatch */
	/* roce_qp_rx(): the packet against the QP */
	ROCE_R_QP_STATE,     /* the QP's state does not accept this packet */
	ROCE_R_TRANSPORT,    /* opcode transport does not match the QP type */
	ROCE_R_ADDR,         /* source or destination GID is not the QP's peer/own */
	ROCE_R_QKEY,         /* UD Q_Key mismatch */
	ROCE_R_PSN_AHEAD,    /* (flow) packet after a gap: sequence NAK sent or suppressed */
	ROCE_R_DUPLICATE,    /* (flow) duplicate request: re-ACKed or replayed */
	ROCE_R_DUP_NO_RES,   /* duplicate READ/atomic whose responder resource is gone */
	ROCE_R_OPSEQ,        /* opcode sequence violation (NAK invalid request) */
	ROCE_R_LENGTH,       /* payload/DMA length check failed (NAK invalid request) */
	ROCE_R_INVALID_REQ,  /* operation not permitted on this QP (NAK invalid request) */
	ROCE_R_REMOTE_ACCESS, /* R_Key/bounds/access check failed (NAK remote access) */
	ROCE_R_REMOTE_OP,    /* local failure placing data (NAK remote operational) */
	ROCE_R_RNR,          /* (flow) no receive WQE: RNR NAK sent */
	ROCE_R_RESP_PSN,     /* (flow) response outside the expected PSN window */
	ROCE_R_RESP_UNEXPECTED, /* response that matches no outstanding request */
	ROCE_R_UD_NO_RECV,   /* UD packet with no receive WQE posted */
	ROCE_R_UD_TOO_LONG,  /* UD payload larger than the receive buffer */
	ROCE_R_UC_DROP,      /* UC packet dropped while resynchronising to a new message */
	ROCE_R_CNP,          /* congestion notification, ignored */
	ROCE_R_NUM
};

/* Short stable name, usable as an xstats suffix ("icrc", "psn_ahead", ...). */
const char *roce_reason_name(enum roce_reason reason);

#endif /* ROCE_REASON_H */
