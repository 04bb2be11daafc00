/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The peer killed mid-transfer: two processes over net_memif (wire_peer's server and
 * client). The client checks that the link works, posts a batch of large RDMA WRITEs and,
 * once the first of them has completed, asks the parent to kill the server (SIGKILL, by
 * PID). The survivor must then, without hanging:
 *  - complete every WR exactly once: those the dead peer acknowledged SUCCESS, the first
 *    unacknowledged one RETRY_EXC_ERR (its retries exhausted), every later one
 *    WR_FLUSH_ERR; its RC QP is in ERR, its posted receives are flushed, its UD QP is not
 *    touched;
 *  - keep its memory intact (the areas no operation writes hold what they held);
 *  - tear down cleanly (every destroy and dev_close returns 0);
 *  - connect again to a restarted server (the parent starts a new one on the same memif
 *    socket; the survivor creates its port again and a new device on it) and run verified
 *    operations with it.
 * The parent reports TAP and removes what the servers' EAL left behind.
 */
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_bus_vdev.h>
#include <rte_malloc.h>

#include "wire_peer.h"

#define DEADLINE_S  60
#define NWR         48u
#define WR_LEN      (64u << 10)
#define CANARY_OFF  (WP_ATOMIC_OFF + 1024u) /* no operation of this test writes here */
#define CANARY_LEN  2048u

#define SAY(...)                                                                           \
	do {                                                                               \
		printf("# client: " __VA_ARGS__);                                          \
		printf("\n");                                                              \
		fails++;                                                                   \
	} while (0)

static int eal(const char *role, const char *vdev, const char *core)
{
	char prefix[96];
	char *argv[16];
	int argc = 0;

	snprintf(prefix, sizeof(prefix), "--file-prefix=irdma_wire_killed_%s_%d", role,
		 (int)getpid());
	argv[argc++] = (char *)role;
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"512";
	/* net_memif needs EAL's multi-process channel: no --no-shconf (see wire_2proc) */
	argv[argc++] = prefix;
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)core;
	argv[argc++] = (char *)"--vdev";
	argv[argc++] = (char *)vdev;
	argv[argc++] = (char *)"--log-level=lib.eal:error";
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		printf("# %s: EAL: %s\n", role, rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/* The peer to be killed: serves until SIGKILL (or a minute, so it never outlives a run).
 * The restarted one serves until its socket to the survivor closes, then closes cleanly. */
static int server(const char *vdev, const char *core, int sock, bool restarted)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	unsigned int n = 0;
	char ready = 'C'; /* connected: the survivor sends nothing before (no race, no timing) */
	struct wp w;
	uint64_t end;

	if (eal("server", vdev, core) != 0)
		return 77;
	if (wp_open(&w, "server", "soft,port=net_memif0,ip=198.18.0.1,name=victim,gen=3", 3) ||
	    wp_xfer(sock, &w.me, sizeof(w.me), true) ||
	    wp_xfer(sock, &w.peer, sizeof(w.peer), false) || wp_wait_link("net_memif0", 20) ||
	    wp_connect(&w, 10, 6) || wp_xfer(sock, &ready, 1, true))
		return 1;
	end = rte_get_timer_cycles() + 60 * rte_get_timer_hz();
	while (rte_get_timer_cycles() < end) {
		wp_server_step(&w);
		if (restarted && (++n & 255) == 0 && poll(&pfd, 1, 0) == 1)
			break;
	}
	if (!restarted || w.st.errors != 0)
		return 1;
	wp_close(&w);
	rte_eal_cleanup();
	return 0;
}

/* After the teardown: a new server, the same port created again, a new device, verified
 * operations. Returns the number of failures. */
static int restart(const char *vdev, int sock, int parent)
{
	const char *args = strchr(vdev, ',') + 1;
	struct wp_info peer;
	struct wp w;
	char c = 'R';
	int fails = 0;

	if (wp_xfer(parent, &c, 1, true) || wp_xfer(sock, &peer, sizeof(peer), false)) {
		printf("# client: no word from the restarted server\n");
		return 1;
	}
	if (rte_vdev_uninit("net_memif1") != 0 || rte_vdev_init("net_memif1", args) != 0) {
		printf("# client: cannot create net_memif1 again\n");
		return 1;
	}
	if (wp_open(&w, "client", "soft,port=net_memif1,ip=198.18.0.2,name=survivor2,gen=3", 3))
		return 1;
	w.peer = peer;
	if (wp_xfer(sock, &w.me, sizeof(w.me), true) || wp_wait_link("net_memif1", 20) ||
	    wp_connect(&w, 10, 6) || wp_xfer(sock, &c, 1, false) || c != 'C')
		fails++;
	else if (wp_send(&w, RTE_PMD_IRDMA_WR_SEND, 1000) || wp_write_read(&w, 65536, 0) ||
		 wp_write_imm(&w, 4096))
		fails++;
	if (fails)
		printf("# client: operations with the restarted server failed\n");
	wp_close(&w);
	close(sock); /* the restarted server stops */
	return fails;
}

/* On a hang: the device's and the RC QP's counters that are not zero. */
static void dump_counters(struct wp *w)
{
	struct rte_pmd_irdma_xstat_name names[256];
	struct rte_pmd_irdma_xstat vals[256];
	int n, i, q;

	for (q = 0; q < 2; q++) {
		n = q ? rte_pmd_irdma_qp_xstats_get_names(w->rc, names, RTE_DIM(names)) :
			rte_pmd_irdma_xstats_get_names(w->dev, names, RTE_DIM(names));
		if (n <= 0 || n > (int)RTE_DIM(names) ||
		    (q ? rte_pmd_irdma_qp_xstats_get(w->rc, vals, n) :
			 rte_pmd_irdma_xstats_get(w->dev, vals, n)) != n)
			continue;
		for (i = 0; i < n; i++)
			if (vals[i].value)
				printf("# client %s: %s = %lu\n", q ? "RC QP" : "device",
				       names[vals[i].id].name, (unsigned long)vals[i].value);
	}
}

static int post_writes(struct wp *w)
{
	struct rte_pmd_irdma_sge s[NWR];
	struct rte_pmd_irdma_send_wr wr[NWR];
	unsigned int i;
	int err = 0;

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < NWR; i++) {
		s[i].addr = (uintptr_t)(w->buf + WP_SRC_OFF);
		s[i].length = WR_LEN;
		s[i].lkey = w->mr->lkey;
		wr[i].wr_id = 1000 + i;
		wr[i].sg_list = &s[i];
		wr[i].num_sge = 1;
		wr[i].opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr[i].send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
		wr[i].wr.rdma.remote_addr = w->peer.addr + WP_WRITE_OFF + (i % 16) * WR_LEN;
		wr[i].wr.rdma.rkey = w->peer.rkey;
	}
	return rte_pmd_irdma_post_send(w->rc, wr, NWR, &err) == NWR ? 0 : err;
}

static int client(const char *vdev, const char *core, int sock, int parent, int sock2)
{
	static uint8_t canary[CANARY_LEN], src[WR_LEN];
	struct rte_pmd_irdma_wc wc[16];
	struct rte_pmd_irdma_qp_attr qa;
	uint8_t seen[NWR] = { 0 };
	struct wp w;
	struct wp_info peer;
	unsigned int done = 0, ok = 0, exc = 0, flushed = 0, rflushed = 0;
	uint64_t deadline;
	int fails = 0, rfails, n, k, err = 0;
	char c = 'K';
	bool bad_order = false;

	if (eal("client", vdev, core) != 0)
		return 77;
	if (wp_xfer(sock, &peer, sizeof(peer), false))
		return 1;
	if (wp_open(&w, "client", "soft,port=net_memif1,ip=198.18.0.2,name=survivor,gen=3", 3))
		return 1;
	w.peer = peer;
	/* ACK timeout ~4 ms, 6 retries (7 means forever, as in rxe), backing off: the end comes
	 * within a second */
	if (wp_xfer(sock, &w.me, sizeof(w.me), true) || wp_wait_link("net_memif1", 20) ||
	    wp_connect(&w, 10, 6) || wp_xfer(sock, &c, 1, false) || c != 'C')
		return 1;
	c = 'K';
	/* the link works */
	if (wp_send(&w, RTE_PMD_IRDMA_WR_SEND, 1000) || wp_write_read(&w, 65536, 0))
		SAY("operations before the kill failed");
	wp_fill(w.buf + CANARY_OFF, CANARY_LEN, 77);
	memcpy(canary, w.buf + CANARY_OFF, CANARY_LEN);
	wp_fill(w.buf + WP_SRC_OFF, WR_LEN, 78);
	memcpy(src, w.buf + WP_SRC_OFF, WR_LEN);

	if (post_writes(&w) != 0)
		SAY("could not post %u WRITEs", NWR);
	/* mid-transfer: after the first completion, the peer dies */
	deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();
	while (done == 0 && rte_get_timer_cycles() < deadline) {
		n = rte_pmd_irdma_poll_cq(w.scq, wc, 1);
		for (k = 0; k < n; k++, done++) {
			seen[wc[k].wr_id - 1000]++;
			ok += wc[k].status == RTE_PMD_IRDMA_WC_SUCCESS;
		}
	}
	if (wp_xfer(parent, &c, 1, true) || wp_xfer(parent, &c, 1, false) || c != 'D')
		SAY("the parent did not confirm the kill");
	/* every WR completes once; nothing hangs */
	deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();
	while (done < NWR && rte_get_timer_cycles() < deadline) {
		n = rte_pmd_irdma_poll_cq(w.scq, wc, RTE_DIM(wc));
		for (k = 0; k < n; k++, done++) {
			uint64_t id = wc[k].wr_id - 1000;

			if (id >= NWR || seen[id]++) {
				SAY("completion for wr_id %lu %s", (unsigned long)wc[k].wr_id,
				    id >= NWR ? "never posted" : "twice");
				continue;
			}
			switch (wc[k].status) {
			case RTE_PMD_IRDMA_WC_SUCCESS:
				bad_order |= exc + flushed != 0;
				ok++;
				break;
			case RTE_PMD_IRDMA_WC_RETRY_EXC_ERR:
				bad_order |= flushed != 0;
				exc++;
				break;
			case RTE_PMD_IRDMA_WC_WR_FLUSH_ERR:
				flushed++;
				break;
			default:
				SAY("wr_id %lu: %s", (unsigned long)wc[k].wr_id,
				    rte_pmd_irdma_wc_status_str(wc[k].status));
			}
		}
	}
	printf("# client: %u WRITEs: %u SUCCESS before the peer died, %u RETRY_EXC_ERR, %u "
	       "WR_FLUSH_ERR, %lu retransmits, %lu ACK timeouts, transmit backlog full %lu "
	       "times, %lu port errors\n", NWR, ok, exc, flushed,
	       (unsigned long)wp_qp_xstat(w.rc, "retransmits"),
	       (unsigned long)wp_qp_xstat(w.rc, "ack_timeouts"),
	       (unsigned long)wp_xstat(w.dev, "tx_backlog_full"),
	       (unsigned long)wp_xstat(w.dev, "tx_port_errors"));
	if (done != NWR) {
		SAY("%u of %u WRs completed in 20 s", done, NWR);
		dump_counters(&w);
	}
	if (exc != 1 || ok < 1 || ok + exc + flushed != NWR || bad_order)
		SAY("expected SUCCESS..., one RETRY_EXC_ERR, then WR_FLUSH_ERR");
	/* the dead peer's port took no more frames: the backlog filled, and says so */
	if (wp_xstat(w.dev, "tx_backlog_full") == 0 || wp_xstat(w.dev, "tx_backlog_full") == UINT64_MAX)
		SAY("tx_backlog_full did not move");
	if (rte_pmd_irdma_qp_query(w.rc, &qa, RTE_PMD_IRDMA_QP_STATE, NULL) != 0 ||
	    qa.qp_state != RTE_PMD_IRDMA_QPS_ERR)
		SAY("RC QP not in ERR");
	if (rte_pmd_irdma_qp_query(w.ud, &qa, RTE_PMD_IRDMA_QP_STATE, NULL) != 0 ||
	    qa.qp_state != RTE_PMD_IRDMA_QPS_RTS)
		SAY("UD QP left RTS");
	/* the RC receives are flushed, the UD ones stay posted */
	deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	while (rflushed < WP_RECV_N && rte_get_timer_cycles() < deadline) {
		n = rte_pmd_irdma_poll_cq(w.rcq, wc, RTE_DIM(wc));
		for (k = 0; k < n; k++) {
			if ((wc[k].wr_id & 0x20000u) || wc[k].status != RTE_PMD_IRDMA_WC_WR_FLUSH_ERR)
				SAY("receive wr_id 0x%lx: %s", (unsigned long)wc[k].wr_id,
				    rte_pmd_irdma_wc_status_str(wc[k].status));
			else
				rflushed++;
		}
	}
	if (rflushed != WP_RECV_N)
		SAY("%u of %u RC receives flushed", rflushed, WP_RECV_N);
	/* a WR posted now is flushed at once (or refused), never left hanging */
	{
		struct rte_pmd_irdma_sge s = { (uintptr_t)w.buf, 64, w.mr->lkey };
		struct rte_pmd_irdma_send_wr wr = {
			.wr_id = 5555, .sg_list = &s, .num_sge = 1,
			.opcode = RTE_PMD_IRDMA_WR_SEND, .send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
		};

		if (rte_pmd_irdma_post_send(w.rc, &wr, 1, &err) == 1) {
			deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
			n = 0;
			while (n == 0 && rte_get_timer_cycles() < deadline)
				n = rte_pmd_irdma_poll_cq(w.scq, wc, 1);
			if (n != 1 || wc[0].wr_id != 5555 ||
			    wc[0].status != RTE_PMD_IRDMA_WC_WR_FLUSH_ERR)
				SAY("a SEND posted in ERR did not flush");
		}
	}
	/* memory: what no operation writes is unchanged, the WRITEs' source too */
	if (memcmp(w.buf + CANARY_OFF, canary, CANARY_LEN) != 0)
		SAY("canary area changed");
	if (memcmp(w.buf + WP_SRC_OFF, src, WR_LEN) != 0)
		SAY("the WRITEs' source changed");
	/* clean teardown */
	if (rte_pmd_irdma_ah_destroy(w.ah) || rte_pmd_irdma_qp_destroy(w.rc) ||
	    rte_pmd_irdma_qp_destroy(w.ud) || rte_pmd_irdma_dereg_mr(w.mr) ||
	    rte_pmd_irdma_dereg_mr(w.inv_mr) || rte_pmd_irdma_cq_destroy(w.scq) ||
	    rte_pmd_irdma_cq_destroy(w.rcq) || rte_pmd_irdma_pd_free(w.pd) ||
	    rte_pmd_irdma_dev_close(w.dev))
		SAY("teardown failed");
	rte_free(w.buf);
	rte_free(w.inv_buf);
	rfails = fails ? 1 : restart(vdev, sock2, parent);
	rte_eal_cleanup();
	fflush(stdout);
	return fails ? 1 : rfails ? 2 : 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	char vdev[2][256], sockpath[128], dir[256];
	pid_t pid[3] = { 0, 0, 0 };
	int sv[2], sv2[2], pc[2], st[3] = { -1, -1, -1 }, i, left = 0;
	bool killed = false, restarted;
	time_t end;
	int code;
	char c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir("/run/irdma-tests", 0755);
	snprintf(sockpath, sizeof(sockpath), "/run/irdma-tests/killed_%d.sock", (int)getpid());
	unlink(sockpath);
	for (i = 0; i < 2; i++)
		snprintf(vdev[i], sizeof(vdev[i]),
			 "net_memif%d,role=%s,id=0,socket=%s,socket-abstract=no,mac=02:00:00:00:01:0%d",
			 i, i == 0 ? "server" : "client", sockpath, i + 1);
	printf("1..4\n");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || socketpair(AF_UNIX, SOCK_STREAM, 0, pc) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv2)) {
		printf("Bail out! socketpair: %s\n", strerror(errno));
		return 1;
	}
	pid[0] = fork();
	if (pid[0] == 0) {
		close(sv[1]);
		close(sv2[0]);
		close(sv2[1]);
		close(pc[0]);
		close(pc[1]);
		_exit(server(vdev[0], "0", sv[0], false));
	}
	pid[1] = fork();
	if (pid[1] == 0) {
		close(sv[0]);
		close(sv2[0]);
		close(pc[0]);
		/* exit(), not _exit(): under ASan the survivor's own leak check runs too */
		exit(client(vdev[1], sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? "1" : "0", sv[1], pc[1],
			    sv2[1]));
	}
	close(sv[0]);
	close(sv[1]);
	close(sv2[1]);
	close(pc[1]);
	/* the client's word: kill the server now */
	if (wp_xfer(pc[0], &c, 1, false) == 0 && c == 'K') {
		kill(pid[0], SIGKILL);
		waitpid(pid[0], &st[0], 0);
		killed = WIFSIGNALED(st[0]) && WTERMSIG(st[0]) == SIGKILL;
		c = 'D';
		wp_xfer(pc[0], &c, 1, true);
	}
	/* the survivor asks for a new server, on the same socket path */
	if (killed && wp_xfer(pc[0], &c, 1, false) == 0 && c == 'R') {
		unlink(sockpath); /* the killed server could not remove it */
		pid[2] = fork();
		if (pid[2] == 0) {
			close(pc[0]);
			_exit(server(vdev[0], "0", sv2[0], true));
		}
	}
	close(sv2[0]);
	end = time(NULL) + DEADLINE_S;
	while ((st[1] == -1 || (pid[2] > 0 && st[2] == -1)) && time(NULL) < end) {
		for (i = 1; i < 3; i++)
			if (pid[i] > 0 && st[i] == -1 && waitpid(pid[i], &st[i], WNOHANG) == 0)
				st[i] = -1;
		usleep(20000);
	}
	for (i = 0; i < 3; i++)
		if ((i == 0 ? !killed && st[0] == -1 : st[i] == -1) && pid[i] > 0) {
			printf("# %s (pid %d) still running: killed\n", i == 1 ? "client" : "server",
			       (int)pid[i]);
			kill(pid[i], SIGKILL);
			waitpid(pid[i], &st[i], 0);
			st[i] = -2;
		}
	printf("%s 1 - server killed by SIGKILL mid-transfer\n", killed ? "ok" : "not ok");
	code = st[1] >= 0 && WIFEXITED(st[1]) ? WEXITSTATUS(st[1]) : -1;
	restarted = pid[2] > 0 && st[2] >= 0 && WIFEXITED(st[2]) && WEXITSTATUS(st[2]) == 0;
	if (code == 77) {
		printf("ok 2 - survivor # SKIP EAL could not start\n");
		printf("ok 4 - restarted server # SKIP EAL could not start\n");
	} else {
		printf("%s 2 - survivor: every WR completed once (RETRY_EXC_ERR, then flushed), "
		       "memory intact, clean teardown\n", code == 0 || code == 2 ? "ok" : "not ok");
	}
	for (i = 0; i < 3; i++) {
		struct stat sb;

		if (pid[i] <= 0)
			continue;
		snprintf(dir, sizeof(dir), "/var/run/dpdk/irdma_wire_killed_%s_%d",
			 i == 1 ? "client" : "server", (int)pid[i]);
		if (stat(dir, &sb) == 0) {
			nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
			left++;
		}
	}
	unlink(sockpath);
	printf("ok 3 - runtime directories removed (%d were left)\n", left);
	if (code != 77)
		printf("%s 4 - a restarted server: the survivor connects again, SEND, WRITE + READ "
		       "and WRITE_WITH_IMM verified\n", code == 0 && restarted ? "ok" : "not ok");
	return killed && (code == 77 || (code == 0 && restarted)) ? 0 : 1;
}
