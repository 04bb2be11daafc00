/* SPDX-License-Identifier: BSD-3-Clause */
#include "iop_port.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ETH_HLEN_ 14
#define ARP_LEN 28
#define ETHERTYPE_ARP_ 0x0806
#define ETHERTYPE_IPV4_ 0x0800
#define ARP_OP_REQUEST 1
#define ARP_OP_REPLY 2
#define ROCE_PORT_ 4791

int64_t iop_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

int iop_port_open(struct iop_port *port, const char *ifname, const uint8_t ip[4])
{
	struct sockaddr_ll sll;
	struct ifreq ifr;
	int fd;

	memset(port, 0, sizeof(*port));
	port->fd = -1;
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	port->rxq = calloc(IOP_RXQ_LEN, sizeof(*port->rxq));
	if (port->rxq == NULL)
		return -ENOMEM;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0)
		goto fail;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
		goto fail;
	port->ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		goto fail;
	memcpy(port->mac, ifr.ifr_hwaddr.sa_data, 6);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = port->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		goto fail;
	port->fd = fd;
	memcpy(port->ip, ip, 4);
	return 0;
fail:
	{
		int err = -errno;

		if (fd >= 0)
			close(fd);
		free(port->rxq);
		port->rxq = NULL;
		return err;
	}
}

void iop_port_close(struct iop_port *port)
{
	if (port->fd >= 0)
		close(port->fd);
	port->fd = -1;
	free(port->rxq);
	port->rxq = NULL;
}

int iop_port_send(struct iop_port *port, const void *frame, size_t len)
{
	ssize_t n = send(port->fd, frame, len, 0);

	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	port->tx_frames++;
	return 0;
}

static void arp_learn(struct iop_port *port, const uint8_t ip[4], const uint8_t mac[6])
{
	unsigned int i;

	for (i = 0; i < port->narp; i++) {
		if (memcmp(port->arp[i].ip, ip, 4) == 0) {
			memcpy(port->arp[i].mac, mac, 6);
			return;
		}
	}
	if (port->narp == IOP_ARP_CACHE)
		return;
	memcpy(port->arp[port->narp].ip, ip, 4);
	memcpy(port->arp[port->narp].mac, mac, 6);
	port->narp++;
}

static int arp_send(struct iop_port *port, uint16_t op, const uint8_t tha[6], const uint8_t tpa[4],
		    const uint8_t dmac[6])
{
	uint8_t f[ETH_HLEN_ + ARP_LEN];
	uint8_t *a = f + ETH_HLEN_;

	memcpy(f, dmac, 6);
	memcpy(f + 6, port->mac, 6);
	f[12] = ETHERTYPE_ARP_ >> 8;
	f[13] = ETHERTYPE_ARP_ & 0xff;
	a[0] = 0; a[1] = 1;          /* hardware: Ethernet */
	a[2] = 0x08; a[3] = 0x00;    /* protocol: IPv4 */
	a[4] = 6; a[5] = 4;
	a[6] = 0; a[7] = (uint8_t)op;
	memcpy(a + 8, port->mac, 6);
	memcpy(a + 14, port->ip, 4);
	memcpy(a + 18, tha, 6);
	memcpy(a + 24, tpa, 4);
	return iop_port_send(port, f, sizeof(f));
}

static void handle_arp(struct iop_port *port, const uint8_t *f, size_t len)
{
	const uint8_t *a = f + ETH_HLEN_;

	if (len < ETH_HLEN_ + ARP_LEN || be16(a) != 1 || be16(a + 2) != ETHERTYPE_IPV4_ ||
	    a[4] != 6 || a[5] != 4)
		return;
	arp_learn(port, a + 14, a + 8);
	if (be16(a + 6) == ARP_OP_REQUEST && memcmp(a + 24, port->ip, 4) == 0) {
		if (arp_send(port, ARP_OP_REPLY, a + 8, a + 14, a + 8) == 0)
			port->arp_replies++;
	}
}

/* A RoCEv2 frame for our IPv4 address (further checks belong to lib/roce). */
static int is_roce_for_us(const struct iop_port *port, const uint8_t *f, size_t len)
{
	size_t ihl;

	if (len < ETH_HLEN_ + 20 + 8 || be16(f + 12) != ETHERTYPE_IPV4_)
		return 0;
	ihl = (size_t)(f[14] & 0x0f) * 4;
	if (f[14 + 9] != 17 || memcmp(f + 14 + 16, port->ip, 4) != 0 || len < ETH_HLEN_ + ihl + 8)
		return 0;
	return be16(f + ETH_HLEN_ + ihl + 2) == ROCE_PORT_;
}

int iop_port_drain(struct iop_port *port)
{
	struct sockaddr_ll from;
	socklen_t fl;
	uint8_t buf[IOP_FRAME_MAX];
	int queued = 0;

	for (;;) {
		ssize_t n;

		fl = sizeof(from);
		n = recvfrom(port->fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return queued;
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* our own transmissions come back on a packet socket */
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (n >= ETH_HLEN_ && be16(buf + 12) == ETHERTYPE_ARP_) {
			handle_arp(port, buf, (size_t)n);
		} else if (is_roce_for_us(port, buf, (size_t)n)) {
			struct iop_frame *slot;

			port->rx_roce++;
			if (port->rxq_len == IOP_RXQ_LEN) {
				port->rxq_drops++;
				continue;
			}
			slot = &port->rxq[(port->rxq_head + port->rxq_len) % IOP_RXQ_LEN];
			slot->len = (uint16_t)n;
			memcpy(slot->data, buf, (size_t)n);
			port->rxq_len++;
			queued++;
		} else {
			port->rx_other++;
		}
	}
}

static int poll_until(struct iop_port *port, int fd, short events, int64_t deadline_ms)
{
	struct pollfd pfd[2] = { { .fd = port->fd, .events = POLLIN }, { .fd = fd, .events = events } };
	int64_t left = deadline_ms - iop_now_ms();
	int n;

	if (left < 0)
		left = 0;
	n = poll(pfd, fd >= 0 ? 2 : 1, (int)(left > 1000 ? 1000 : left));
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (pfd[0].revents & POLLIN) {
		int rc = iop_port_drain(port);

		if (rc < 0)
			return rc;
	}
	return fd >= 0 && (pfd[1].revents & (events | POLLHUP | POLLERR)) ? 1 : 0;
}

int iop_port_recv(struct iop_port *port, uint8_t *buf, size_t cap, int64_t deadline_ms)
{
	for (;;) {
		int rc = iop_port_drain(port);

		if (rc < 0)
			return rc;
		if (port->rxq_len > 0) {
			struct iop_frame *f = &port->rxq[port->rxq_head];
			size_t n = f->len < cap ? f->len : cap;

			memcpy(buf, f->data, n);
			port->rxq_head = (port->rxq_head + 1) % IOP_RXQ_LEN;
			port->rxq_len--;
			return (int)n;
		}
		if (iop_now_ms() >= deadline_ms)
			return -ETIMEDOUT;
		rc = poll_until(port, -1, 0, deadline_ms);
		if (rc < 0)
			return rc;
	}
}

int iop_port_wait_fd(struct iop_port *port, int fd, short events, int64_t deadline_ms)
{
	for (;;) {
		int rc = poll_until(port, fd, events, deadline_ms);

		if (rc != 0)
			return rc < 0 ? rc : 0;
		if (iop_now_ms() >= deadline_ms)
			return -ETIMEDOUT;
	}
}

int iop_port_resolve(struct iop_port *port, const uint8_t ip[4], uint8_t mac[6],
		     int64_t deadline_ms)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[6];
	int64_t next = 0;

	for (;;) {
		unsigned int i;
		int64_t now;
		int rc;

		for (i = 0; i < port->narp; i++) {
			if (memcmp(port->arp[i].ip, ip, 4) == 0) {
				memcpy(mac, port->arp[i].mac, 6);
				return 0;
			}
		}
		now = iop_now_ms();
		if (now >= deadline_ms)
			return -ETIMEDOUT;
		if (now >= next) {
			rc = arp_send(port, ARP_OP_REQUEST, zero, ip, bcast);
			if (rc < 0)
				return rc;
			next = now + 200;
		}
		rc = poll_until(port, -1, 0, next < deadline_ms ? next : deadline_ms);
		if (rc < 0)
			return rc;
	}
}
