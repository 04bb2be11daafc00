/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A raw Ethernet port for the host side of the interop tests: an AF_PACKET socket on an
 * interface that has no kernel IP address, owning one IPv4 address in userspace. It
 * answers ARP for that address, learns the senders of ARP packets, and hands back the
 * RoCEv2 frames (UDP 4791) addressed to it. Nothing else.
 */
#ifndef IOP_PORT_H
#define IOP_PORT_H

#include <stddef.h>
#include <stdint.h>

#define IOP_FRAME_MAX 9216
#define IOP_RXQ_LEN 256
#define IOP_ARP_CACHE 16

struct iop_frame {
	uint16_t len;
	uint8_t data[IOP_FRAME_MAX];
};

struct iop_port {
	int fd;
	int ifindex;
	uint8_t mac[6];
	uint8_t ip[4];
	struct {
		uint8_t ip[4];
		uint8_t mac[6];
	} arp[IOP_ARP_CACHE];
	unsigned int narp;
	/* RoCEv2 frames read while waiting for something else, oldest first */
	struct iop_frame *rxq;
	unsigned int rxq_head, rxq_len;
	/* counters */
	uint64_t tx_frames, rx_roce, rx_other, arp_replies, rxq_drops;
};

/* Opens ifname (its MAC becomes ours) for the address ip. 0 or -errno. */
int iop_port_open(struct iop_port *port, const char *ifname, const uint8_t ip[4]);
void iop_port_close(struct iop_port *port);

/* Sends one frame. 0 or -errno. */
int iop_port_send(struct iop_port *port, const void *frame, size_t len);

/*
 * Reads every frame the socket has ready (never blocks): ARP is handled here, RoCEv2
 * frames for our address are queued. Returns the number queued, or -errno.
 */
int iop_port_drain(struct iop_port *port);

/*
 * The oldest queued RoCEv2 frame, waiting up to deadline_ms (CLOCK_MONOTONIC ms) for one.
 * Returns its length (the frame is copied to buf) or -ETIMEDOUT.
 */
int iop_port_recv(struct iop_port *port, uint8_t *buf, size_t cap, int64_t deadline_ms);

/* Waits until fd is readable (events POLLIN) or writable (POLLOUT) while serving the
 * port. 0, -ETIMEDOUT or -errno. */
int iop_port_wait_fd(struct iop_port *port, int fd, short events, int64_t deadline_ms);

/* The MAC of ip: from the cache, else by ARP requests until deadline_ms. 0 or -ETIMEDOUT. */
int iop_port_resolve(struct iop_port *port, const uint8_t ip[4], uint8_t mac[6],
		     int64_t deadline_ms);

/* CLOCK_MONOTONIC in milliseconds. */
int64_t iop_now_ms(void);

#endif /* IOP_PORT_H */
