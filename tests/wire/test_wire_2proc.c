/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two processes, one device each, every operation between them with the data checked:
 *
 *   wire_2proc memif                       net_memif over a UNIX socket under /run/irdma-tests
 *   wire_2proc afpacket NS_A NS_B IF_A IF_B net_af_packet on a veth pair, each process in
 *                                          its own network namespace (test_wire_netns.sh
 *                                          creates them)
 *
 * The parent starts EAL nowhere: it forks a server and a client (each with its own EAL,
 * --file-prefix and core), connects them with a socketpair for the QP exchange, waits with
 * a deadline (and kills them by PID when it passes), removes their runtime directories and
 * reports TAP. The peers find each other by ARP (no static neighbours).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "wire_peer.h"

#define DEADLINE_S 150

struct result {
	uint32_t fails;
	uint64_t recvs, ud_recvs, write_imms, errors, neigh_resolved, arp_requests;
};

/* Without mac=, the device's MAC is its port's. */
static int check_mac(const char *role, struct rte_pmd_irdma_dev *dev, const char *port)
{
	struct rte_pmd_irdma_dev_info info;
	struct rte_ether_addr pm;
	uint16_t pid;

	if (rte_eth_dev_get_port_by_name(port, &pid) != 0 || rte_eth_macaddr_get(pid, &pm) != 0 ||
	    rte_pmd_irdma_dev_info(dev, &info) != 0 || memcmp(info.mac, pm.addr_bytes, 6) != 0) {
		printf("# %s: the device's MAC is not its port's\n", role);
		return -1;
	}
	return 0;
}

/* One side; returns the process exit status. */
static int child(bool server, const char *mode, const char *vdev, const char *port,
		 const char *core, int sock)
{
	char prefix[96], devargs[256];
	const char *role = server ? "server" : "client";
	char *argv[16];
	struct wp w;
	struct result res, peer;
	struct wp_info peer_info;
	int argc = 0, fails = 0;
	bool share_cpu = get_nprocs() < 2;

	snprintf(prefix, sizeof(prefix), "--file-prefix=irdma_wire_%s_%s_%d", mode, role,
		 (int)getpid());
	argv[argc++] = (char *)role;
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"512";
	/* net_memif exchanges its regions over EAL's multi-process channel, which
	 * --no-shconf disables: the memif processes keep their (unique, removed) runtime
	 * directory instead. */
	if (strcmp(mode, "memif") != 0)
		argv[argc++] = (char *)"--no-shconf";
	argv[argc++] = prefix;
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)core;
	argv[argc++] = (char *)"--vdev";
	argv[argc++] = (char *)vdev;
	argv[argc++] = (char *)"--log-level=lib.eal:error";
	if (getenv("WIRE_DEBUG") != NULL)
		argv[argc++] = (char *)getenv("WIRE_DEBUG"); /* e.g. --log-level=pmd.net.memif:debug */
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		printf("# %s: EAL: %s\n", role, rte_strerror(rte_errno));
		return 77;
	}
	snprintf(devargs, sizeof(devargs), "soft,port=%s,ip=198.18.0.%u,name=%s,gen=3", port,
		 server ? 1 : 2, role);
	/* The server's port is started before the client starts its own (a memif client
	 * that connects to a server port not yet started is refused and does not retry):
	 * the server speaks first. */
	if (server) {
		if (wp_open(&w, role, devargs, 3) || wp_xfer(sock, &w.me, sizeof(w.me), true) ||
		    wp_xfer(sock, &w.peer, sizeof(w.peer), false))
			return 1;
	} else {
		if (wp_xfer(sock, &w.peer, sizeof(w.peer), false)) {
			printf("# client: no word from the server\n");
			return 1;
		}
		peer_info = w.peer;
		if (wp_open(&w, role, devargs, 3))
			return 1;
		w.peer = peer_info;
		if (wp_xfer(sock, &w.me, sizeof(w.me), true))
			return 1;
	}
	if (wp_wait_link(port, 20) || check_mac(role, w.dev, port))
		return 1;
	if (wp_connect(&w, 14, 7))
		return 1;
	memset(&res, 0, sizeof(res));
	if (server) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		unsigned int n = 0;

		for (;;) {
			int work = wp_server_step(&w);

			if ((++n & 255) == 0 && poll(&pfd, 1, 0) == 1)
				break;
			if (work == 0 && share_cpu)
				sched_yield(); /* never two spinning pollers on one CPU */
		}
		if (wp_xfer(sock, &peer, sizeof(peer), false))
			return 1;
		res.recvs = w.st.recvs;
		res.ud_recvs = w.st.ud_recvs;
		res.write_imms = w.st.write_imms;
		res.errors = w.st.errors;
	} else {
		fails = wp_all_ops(&w);
		res.fails = (uint32_t)fails;
	}
	res.neigh_resolved = wp_xstat(w.dev, "neigh_resolved");
	res.arp_requests = wp_xstat(w.dev, "tx_arp_requests");
	if (server) {
		printf("# server: %lu receives, %lu UD receives, %lu WRITE_WITH_IMM, %lu errors, "
		       "%lu peers resolved, %lu ARP requests sent\n",
		       (unsigned long)res.recvs, (unsigned long)res.ud_recvs,
		       (unsigned long)res.write_imms, (unsigned long)res.errors,
		       (unsigned long)res.neigh_resolved, (unsigned long)res.arp_requests);
		if (wp_xfer(sock, &res, sizeof(res), true))
			return 1;
		fails = res.errors != 0 || res.recvs < 17 || res.ud_recvs != 4 ||
			res.write_imms != 6 || res.neigh_resolved < 1;
	} else {
		if (wp_xfer(sock, &res, sizeof(res), true) || wp_xfer(sock, &peer, sizeof(peer), false))
			return 1;
		printf("# client: %u failed operations, %lu peers resolved, %lu ARP requests sent\n",
		       res.fails, (unsigned long)res.neigh_resolved,
		       (unsigned long)res.arp_requests);
		fails = res.fails != 0 || peer.errors != 0 || res.neigh_resolved < 1 ||
			res.arp_requests + peer.arp_requests < 1;
	}
	wp_close(&w);
	rte_eal_cleanup();
	fflush(stdout);
	return fails ? 1 : 0;
}

static int enter_netns(const char *ns)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
		printf("# cannot enter network namespace %s: %s\n", ns, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	char vdev[2][256], port[2][64], sockpath[128], dir[256];
	const char *core[2] = { "0", get_nprocs() >= 2 ? "1" : "0" };
	pid_t pid[2] = { 0, 0 };
	int status[2] = { -1, -1 }, sv[2], i, skipped = 0;
	time_t end;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(mode, "memif") == 0) {
		mkdir("/run/irdma-tests", 0755);
		snprintf(sockpath, sizeof(sockpath), "/run/irdma-tests/wire_%d.sock", (int)getpid());
		unlink(sockpath);
		for (i = 0; i < 2; i++) {
			snprintf(vdev[i], sizeof(vdev[i]),
				 "net_memif%d,role=%s,id=0,socket=%s,socket-abstract=no,mac=02:00:00:00:01:0%d",
				 i, i == 0 ? "server" : "client", sockpath, i + 1);
			snprintf(port[i], sizeof(port[i]), "net_memif%d", i);
		}
	} else if (strcmp(mode, "afpacket") == 0 && argc == 6) {
		sockpath[0] = '\0';
		for (i = 0; i < 2; i++) {
			snprintf(vdev[i], sizeof(vdev[i]), "net_af_packet%d,iface=%s,qpairs=1", i,
				 argv[4 + i]);
			snprintf(port[i], sizeof(port[i]), "net_af_packet%d", i);
		}
	} else {
		fprintf(stderr, "usage: %s memif | afpacket NS_A NS_B IF_A IF_B\n", argv[0]);
		return 2;
	}
	printf("1..3\n");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
		printf("Bail out! socketpair: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(sv[i ^ 1]);
			if (strcmp(mode, "afpacket") == 0 && enter_netns(argv[2 + i]) != 0)
				_exit(1);
			_exit(child(i == 0, mode, vdev[i], port[i], core[i], sv[i]));
		}
	}
	close(sv[0]);
	close(sv[1]);
	/* a bounded runtime: children that outlive the deadline are killed by PID */
	end = time(NULL) + DEADLINE_S;
	while ((status[0] == -1 || status[1] == -1) && time(NULL) < end) {
		for (i = 0; i < 2; i++)
			if (status[i] == -1 && pid[i] > 0 && waitpid(pid[i], &status[i], WNOHANG) == 0)
				status[i] = -1;
		usleep(20000);
	}
	for (i = 0; i < 2; i++) {
		if (status[i] == -1 && pid[i] > 0) {
			printf("# %s (pid %d) still running after %d s: killed\n",
			       i ? "client" : "server", (int)pid[i], DEADLINE_S);
			kill(pid[i], SIGKILL);
			waitpid(pid[i], &status[i], 0);
			status[i] = -2;
		}
	}
	for (i = 0; i < 2; i++) {
		int code = status[i] >= 0 && WIFEXITED(status[i]) ? WEXITSTATUS(status[i]) : -1;

		if (code == 77)
			skipped++;
		printf("%s %d - %s over %s%s\n", code == 0 || code == 77 ? "ok" : "not ok", i + 1,
		       i ? "client: every operation verified" : "server: every message verified",
		       mode, code == 77 ? " # SKIP EAL could not start" : "");
	}
	/* what the children's EAL left behind */
	{
		struct stat st;
		int left = 0;

		for (i = 0; i < 2; i++) {
			snprintf(dir, sizeof(dir), "/var/run/dpdk/irdma_wire_%s_%s_%d", mode,
				 i ? "client" : "server", (int)pid[i]);
			if (stat(dir, &st) == 0) {
				nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
				left++;
			}
		}
		if (sockpath[0] != '\0')
			unlink(sockpath);
		printf("ok 3 - runtime directories removed (%d were left by the children)\n", left);
	}
	/* both skipped (EAL could not start): the plan says so, status 0 (meson's TAP rule) */
	if (skipped == 2)
		return 0;
	return (status[0] == 0 && status[1] == 0) ? 0 : 1;
}
