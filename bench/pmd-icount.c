/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Instructions per post_send (1 SGE) and per poll_cq (1 CQE) through the PMD, and how many of
 * them lib/uk accounts for: the PMD's own overhead over lib/uk.
 *
 *   pmd-icount [N]              run the measurement (valgrind and callgrind_annotate on PATH)
 *   pmd-icount run OP N         the workload alone (OP: write | send), what callgrind runs
 *
 * Two devices on port=loop with engine=service and no service lcore: the bench steps both
 * engines itself with rte_pmd_irdma_progress(), outside what is measured, so poll_cq costs
 * only the PMD and lib/uk (with engine=inline, poll_cq would also run the device). Each
 * iteration posts one signaled 8-byte RDMA WRITE (or SEND, B re-posting its receive), lets
 * the devices run until idle, then polls the one CQE. The measured calls go through two
 * noinline wrappers (pmdb_post, pmdb_poll); callgrind collects only inside them
 * (--toggle-collect=pmdb_*), and callgrind_annotate --inclusive=yes splits the cost between
 * the PMD entry points and the lib/uk calls they make. Ir/op = (Ir(2N) - Ir(N)) / N.
 * Build it optimised, like the library under test (bench/uk-icount.sh measures lib/uk alone):
 *   meson setup build-pmdbench -Dbuildtype=debugoptimized -Dtests=false && \
 *   ninja -C build-pmdbench bench/pmd-icount && build-pmdbench/bench/pmd-icount
 */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "rte_pmd_irdma.h"
#include "tool_qp.h"

#define BUF_LEN 4096
#define MSG_LEN 8

struct ep {
	struct rte_pmd_irdma_dev *dev;
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;
	struct rte_pmd_irdma_qp *qp;
	struct rte_pmd_irdma_mr *mr;
	uint8_t *buf;
	union rte_pmd_irdma_gid gid;
};

static void
die(const char *what, int err)
{
	fprintf(stderr, "pmd-icount: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void
ep_open(struct ep *e, const char *devargs)
{
	struct rte_pmd_irdma_cq_init_attr ca = { .cqe = 256, .comp_fd = -1 };
	struct rte_pmd_irdma_qp_init_attr qa;

	memset(e, 0, sizeof(*e));
	e->dev = rte_pmd_irdma_dev_create(devargs);
	if (e->dev == NULL)
		die(devargs, rte_errno);
	rte_pmd_irdma_query_gid(e->dev, 1, &e->gid);
	e->pd = rte_pmd_irdma_pd_alloc(e->dev);
	e->cq = rte_pmd_irdma_cq_create(e->dev, &ca);
	e->buf = rte_zmalloc(NULL, BUF_LEN, 4096);
	if (e->pd == NULL || e->cq == NULL || e->buf == NULL)
		die("PD, CQ or buffer", ENOMEM);
	e->mr = rte_pmd_irdma_reg_mr(e->pd, e->buf, BUF_LEN, RTE_PMD_IRDMA_ACCESS_LOCAL_WRITE |
				     RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE);
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = e->cq;
	qa.recv_cq = e->cq;
	qa.qp_type = RTE_PMD_IRDMA_QPT_RC;
	qa.cap.max_send_wr = 64;
	qa.cap.max_recv_wr = 64;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	e->qp = rte_pmd_irdma_qp_create(e->pd, &qa);
	if (e->mr == NULL || e->qp == NULL)
		die("MR or QP", rte_errno);
}

static void
ep_connect(struct ep *e, const struct ep *peer)
{
	struct tool_qp_conn c;
	char err[160];
	int rc;

	/* the tools' bring-up (app/common/tool_qp.h); PSNs 0, the shortest RNR timer */
	tool_qp_conn_init(&c);
	c.access = RTE_PMD_IRDMA_ACCESS_REMOTE_WRITE;
	c.dest_qpn = peer->qp->qp_num;
	c.min_rnr_timer = 1;
	c.sgid_index = 1;
	memcpy(c.dgid, peer->gid.raw, 16);
	rc = tool_qp_connect(e->qp, &c, err, sizeof(err));
	if (rc < 0)
		die(err, -rc);
}

/* The measured calls: callgrind collects only inside these two. */
__attribute__((noinline)) uint16_t
pmdb_post(struct rte_pmd_irdma_qp *qp, const struct rte_pmd_irdma_send_wr *wr, int *err)
{
	return rte_pmd_irdma_post_send(qp, wr, 1, err);
}

__attribute__((noinline)) int
pmdb_poll(struct rte_pmd_irdma_cq *cq, struct rte_pmd_irdma_wc *wc)
{
	return rte_pmd_irdma_poll_cq(cq, wc, 1);
}

static void
post_recv(struct ep *b, const struct rte_pmd_irdma_sge *sge)
{
	struct rte_pmd_irdma_recv_wr rw = { .wr_id = 2, .sg_list = sge, .num_sge = 1 };
	int err;

	if (rte_pmd_irdma_post_recv(b->qp, &rw, 1, &err) != 1)
		die("post_recv", err);
}

/* Removes a DPDK runtime directory (a flat folder of sockets and config files). */
static void remove_runtime_dir(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static int
run(const char *op, unsigned long n)
{
	char *eal_argv[] = { (char *)"pmd-icount", (char *)"--no-pci", (char *)"-l", (char *)"0",
			     NULL, (char *)"--no-huge", (char *)"-m", (char *)"256",
			     (char *)"--no-shconf", (char *)"--log-level=lib.eal:error", NULL };
	bool send = strcmp(op, "send") == 0;
	struct rte_pmd_irdma_send_wr wr;
	struct rte_pmd_irdma_sge sa, sb;
	struct rte_pmd_irdma_wc wc;
	char prefix[64];
	struct ep a, b;
	unsigned long i;
	int err;

	if (!send && strcmp(op, "write") != 0) {
		fprintf(stderr, "pmd-icount: unknown op '%s' (write or send)\n", op);
		return 2;
	}
	snprintf(prefix, sizeof(prefix), "--file-prefix=pmd_icount_%d", (int)getpid());
	eal_argv[4] = prefix;
	if (rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv) < 0)
		die("rte_eal_init", rte_errno);
	ep_open(&a, "soft,port=loop,gen=2,engine=service,ip=198.18.0.1,name=icA");
	ep_open(&b, "soft,port=loop,gen=2,engine=service,ip=198.18.0.2,name=icB");
	ep_connect(&a, &b);
	ep_connect(&b, &a);

	sa = (struct rte_pmd_irdma_sge){ (uint64_t)(uintptr_t)a.buf, MSG_LEN, a.mr->lkey };
	sb = (struct rte_pmd_irdma_sge){ (uint64_t)(uintptr_t)b.buf, MSG_LEN, b.mr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 1;
	wr.sg_list = &sa;
	wr.num_sge = 1;
	wr.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED;
	if (send) {
		wr.opcode = RTE_PMD_IRDMA_WR_SEND;
	} else {
		wr.opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = (uint64_t)(uintptr_t)b.buf;
		wr.wr.rdma.rkey = b.mr->rkey;
	}

	for (i = 0; i < n; i++) {
		if (send)
			post_recv(&b, &sb);
		if (pmdb_post(a.qp, &wr, &err) != 1)
			die("post_send", err);
		while (rte_pmd_irdma_progress(a.dev, 64) + rte_pmd_irdma_progress(b.dev, 64) > 0)
			;
		if (send && rte_pmd_irdma_poll_cq(b.cq, &wc, 1) != 1)
			die("the receive did not complete once the engines went idle", EPROTO);
		if (pmdb_poll(a.cq, &wc) != 1 || wc.status != RTE_PMD_IRDMA_WC_SUCCESS)
			die("the send completion was not there once the engines went idle", EPROTO);
	}
	rte_pmd_irdma_qp_destroy(a.qp);
	rte_pmd_irdma_qp_destroy(b.qp);
	rte_eal_cleanup();
	/* EAL leaves its runtime directory behind even with --no-shconf. */
	snprintf(prefix, sizeof(prefix), "/var/run/dpdk/pmd_icount_%d", (int)getpid());
	remove_runtime_dir(prefix);
	return 0;
}

/* ---- the driver: callgrind twice per op, inclusive costs from callgrind_annotate ---- */

enum { F_POST, F_PMD_POST, F_UK_WR, F_UK_DB, F_POLL, F_PMD_POLL, F_UK_POLL, N_F };

static const char *const fn_names[N_F] = {
	"pmdb_post", "rte_pmd_irdma_post_send", NULL /* per op */, "irdma_uk_qp_post_wr",
	"pmdb_poll", "rte_pmd_irdma_poll_cq", "irdma_uk_cq_poll_cmpl",
};

static int
measure(const char *self, const char *op, unsigned long n, double ir[N_F])
{
	char cmd[1024], line[1024], out[] = "/tmp/pmd-icount.XXXXXX";
	const char *names[N_F];
	FILE *p;
	int fd, k;

	memcpy(names, fn_names, sizeof(names));
	names[F_UK_WR] = strcmp(op, "send") == 0 ? "irdma_uk_send" : "irdma_uk_rdma_write";
	fd = mkstemp(out);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "valgrind --tool=callgrind --toggle-collect='pmdb_*' "
		 "--callgrind-out-file=%s '%s' run %s %lu >/dev/null 2>%s.log", out, self, op, n, out);
	if (system(cmd) != 0) {
		fprintf(stderr, "pmd-icount: '%s' failed, see %s.log\n", cmd, out);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "callgrind_annotate --inclusive=yes --threshold=100 %s", out);
	p = popen(cmd, "r");
	if (p == NULL)
		return -1;
	for (k = 0; k < N_F; k++)
		ir[k] = 0;
	/* lines: "  1,234 (12.34%)  file.c:function [object]" */
	while (fgets(line, sizeof(line), p) != NULL) {
		char num[64], *s = line, *fn, *end;
		size_t j = 0;

		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			continue;
		for (; (*s >= '0' && *s <= '9') || *s == ','; s++)
			if (*s != ',' && j < sizeof(num) - 1)
				num[j++] = *s;
		num[j] = '\0';
		end = strstr(s, " [");
		if (end != NULL)
			*end = '\0';
		fn = strrchr(s, ':');
		if (fn == NULL)
			continue;
		fn++;
		fn[strcspn(fn, " \n")] = '\0';
		for (k = 0; k < N_F; k++)
			if (strcmp(fn, names[k]) == 0)
				ir[k] = strtod(num, NULL);
	}
	pclose(p);
	snprintf(cmd, sizeof(cmd), "%s.log", out);
	unlink(cmd);
	unlink(out);
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *const ops[] = { "write", "send" };
	unsigned long n;
	unsigned int o;

	if (argc == 4 && strcmp(argv[1], "run") == 0)
		return run(argv[2], strtoul(argv[3], NULL, 0));
	if (argc > 2 || (argc == 2 && strtoul(argv[1], NULL, 0) == 0)) {
		fprintf(stderr, "usage: pmd-icount [N]   |   pmd-icount run write|send N\n");
		return 2;
	}
	n = argc == 2 ? strtoul(argv[1], NULL, 0) : 20000;

	printf("%-14s %10s %10s %10s %10s\n", "op (8 B, 1 SGE)", "call Ir/op", "PMD Ir/op",
	       "lib/uk", "overhead");
	for (o = 0; o < RTE_DIM(ops); o++) {
		double r1[N_F], r2[N_F], d[N_F];
		int k;

		if (measure(argv[0], ops[o], n, r1) < 0 || measure(argv[0], ops[o], 2 * n, r2) < 0)
			return 1;
		for (k = 0; k < N_F; k++)
			d[k] = (r2[k] - r1[k]) / (double)n;
		/* call: the wrapper (PMD entry plus the call itself); lib/uk: its calls inside */
		printf("post_send %-4s %10.1f %10.1f %10.1f %10.1f\n", ops[o], d[F_POST],
		       d[F_PMD_POST], d[F_UK_WR] + d[F_UK_DB], d[F_PMD_POST] - d[F_UK_WR] - d[F_UK_DB]);
		printf("poll_cq   %-4s %10.1f %10.1f %10.1f %10.1f\n", ops[o], d[F_POLL],
		       d[F_PMD_POLL], d[F_UK_POLL], d[F_PMD_POLL] - d[F_UK_POLL]);
	}
	printf("N=%lu and 2N=%lu; engine=service stepped outside the measured calls; GEN_2, RC\n", n,
	       2 * n);
	return 0;
}
