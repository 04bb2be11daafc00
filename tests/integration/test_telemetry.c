/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry: the process talks to its own telemetry socket, as dpdk-telemetry.py does, and
 * checks the JSON of /irdma/list, /irdma/info, /irdma/xstats and /irdma/qp.
 */
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "itest_pair.h"

static int tel_fd = -1;
static char reply[16384];

static int
tel_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	ssize_t n;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	tel_fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (tel_fd < 0 || connect(tel_fd, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		return -1;
	n = read(tel_fd, reply, sizeof(reply) - 1); /* the greeting: version, pid, ... */
	return n > 0 ? 0 : -1;
}

static const char *
tel(const char *cmd)
{
	ssize_t n;

	reply[0] = '\0';
	if (write(tel_fd, cmd, strlen(cmd)) < 0)
		return reply;
	n = read(tel_fd, reply, sizeof(reply) - 1);
	reply[n > 0 ? n : 0] = '\0';
	return reply;
}

#define T_HAS(text)                                                                        \
	T_CHECK_MSG(strstr(reply, (text)) != NULL, "reply lacks %s: %s", (text), reply)

static struct pair p;

T_CASE(list_and_info)
{
	T_EQ(tel_connect(), 0);
	if (tel_fd < 0)
		return;
	tel("/irdma/list");
	T_CHECK(strcmp(reply, "{\"/irdma/list\": [\"epA\", \"epB\"]}") == 0 ||
		strcmp(reply, "{\"/irdma/list\":[\"epA\",\"epB\"]}") == 0);
	T_CHECK_MSG(strstr(reply, "epA") != NULL, "%s", reply);

	tel("/irdma/info,epB");
	T_HAS("\"name\":\"epB\"");
	T_HAS("\"backend\":\"soft\"");
	T_HAS("\"port\":\"loop\"");
	T_HAS("\"gen\":3");
	T_HAS("\"engine\":\"inline\"");
	T_HAS("\"max_sge\":14");
	T_HAS("\"max_inline_data\":216");
	T_HAS("\"qp\":1");
	T_HAS("\"cq\":1");
	T_HAS("\"mr\":1");
	T_HAS("\"pd\":1");

	/* Unknown device or no parameter: null data. */
	tel("/irdma/info,nosuch");
	T_HAS("null");
	tel("/irdma/info");
	T_HAS("null");
}

T_CASE(xstats_and_qp)
{
	struct rte_pmd_irdma_sge s = { (uintptr_t)p.a.buf, 100, p.a.mr->lkey };
	struct rte_pmd_irdma_send_wr wr = {
		.wr_id = 1, .sg_list = &s, .num_sge = 1, .opcode = RTE_PMD_IRDMA_WR_RDMA_WRITE,
		.send_flags = RTE_PMD_IRDMA_SEND_SIGNALED,
	};
	struct rte_pmd_irdma_queue_mem sq, rq;
	struct rte_pmd_irdma_wc wc;
	char cmd[64], want[64];
	const char *c;
	int i;

	if (tel_fd < 0)
		return;
	wr.wr.rdma.remote_addr = (uintptr_t)p.b.buf;
	wr.wr.rdma.rkey = p.b.mr->rkey;
	for (i = 0; i < 3; i++) {
		T_EQ(rte_pmd_irdma_post_send(p.a.qp, &wr, 1, NULL), 1);
		T_EQ(itest_poll(&p, p.a.cq, &wc, 1), 1);
	}
	tel("/irdma/xstats,epA");
	T_HAS("\"tx_wrs\":3");
	T_HAS("\"tx_doorbells\":3");
	T_HAS("\"cq_completions\":3");
	T_HAS("\"cq_error_completions\":0");
	T_HAS("\"tx_packets\":");   /* the device's wire counters follow */
	T_HAS("\"rx_icrc_errors\":0");
	c = strstr(reply, "\"cq_overflows\"");
	T_CHECK_MSG(c != NULL && strstr(c + 1, "\"cq_overflows\"") == NULL,
		    "cq_overflows missing or twice: %s", reply);

	tel("/irdma/qp,epA");
	snprintf(want, sizeof(want), "[%u]", p.a.qp->qp_num);
	T_HAS(want);

	snprintf(cmd, sizeof(cmd), "/irdma/qp,epA,%u", p.a.qp->qp_num);
	tel(cmd);
	rte_pmd_irdma_qp_queue_mem(p.a.qp, &sq, &rq);
	snprintf(want, sizeof(want), "\"qp_num\":%u", p.a.qp->qp_num);
	T_HAS(want);
	T_HAS("\"type\":\"RC\"");
	T_HAS("\"state\":\"RTS\"");
	snprintf(want, sizeof(want), "\"sq_bytes\":%zu", sq.len);
	T_HAS(want);
	snprintf(want, sizeof(want), "\"rq_bytes\":%zu", rq.len);
	T_HAS(want);
	/* memory per QP beyond its rings: reported, and not nothing */
	T_HAS("\"device_state_bytes\":");
	T_HAS("\"pmd_state_bytes\":");
	T_CHECK(strstr(reply, "\"device_state_bytes\":0,") == NULL);
	T_CHECK(strstr(reply, "\"pmd_state_bytes\":0,") == NULL);
	T_HAS("\"tx_wrs\":3");
	T_HAS("\"tx_packets\":3");     /* three 100-byte writes: one packet each */
	T_HAS("\"tx_bytes\":");

	tel("/irdma/qp,epA,99999");
	T_HAS("null");
}

/* The operator's tool, dpdk-telemetry.py, reads the same commands (skipped without it). */
T_CASE(dpdk_telemetry_py_reads_them)
{
	char cmd[256], out[8192];
	size_t n;
	FILE *f;

	if (system("command -v dpdk-telemetry.py >/dev/null 2>&1") != 0)
		T_SKIP("dpdk-telemetry.py is not installed (Debian package dpdk-dev)");
	snprintf(cmd, sizeof(cmd),
		 "printf '/irdma/list\\n/irdma/info,epA\\n' | dpdk-telemetry.py -f %s 2>&1",
		 itest_prefix);
	f = popen(cmd, "r");
	T_CHECK(f != NULL);
	if (f == NULL)
		return;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	T_EQ(pclose(f), 0);
	T_CHECK_MSG(strstr(out, "\"/irdma/list\": [") != NULL && strstr(out, "\"epA\"") != NULL,
		    "%s", out);
	T_CHECK_MSG(strstr(out, "\"name\": \"epA\"") != NULL, "%s", out);
	T_CHECK_MSG(strstr(out, "\"gen\": 3") != NULL, "%s", out);
}

/*
 * Telemetry against dev_close (issue 12, defect 7): a client polls /irdma/xstats, /irdma/info
 * and /irdma/qp of a device that is created and closed in a loop. The close used to clear the
 * backend pointer before the device left the registry; the PMD's close hook (called at the
 * point between the two steps, for tests) widens that window so a request lands in it.
 */
extern void (*irdma_dev_close_hook)(const struct rte_pmd_irdma_dev *dev);

static int race_stop; /* __atomic: main stops the racing lcore */
static unsigned long race_replies;

static void
close_hook_pause(const struct rte_pmd_irdma_dev *dev)
{
	(void)dev;
	usleep(2000);
}

static void *
race_poller(void *arg)
{
	static const char *const cmds[] = { "/irdma/xstats,race", "/irdma/qp,race",
					    "/irdma/info,race", "/irdma/qp,race,1" };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[16384];
	unsigned int i = 0;
	int fd;

	(void)arg;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    read(fd, buf, sizeof(buf)) <= 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (!__atomic_load_n(&race_stop, __ATOMIC_RELAXED)) {
		const char *c = cmds[i++ % RTE_DIM(cmds)];

		if (write(fd, c, strlen(c)) < 0 || read(fd, buf, sizeof(buf)) <= 0)
			break;
		race_replies++;
	}
	close(fd);
	return NULL;
}

T_CASE(telemetry_polls_while_devices_close)
{
	static const struct rte_pmd_irdma_qp_cap qcap = { 16, 16, 1, 1, 0 };
	pthread_t th;
	unsigned int i;

	__atomic_store_n(&race_stop, 0, __ATOMIC_RELAXED);
	race_replies = 0;
	T_EQ(pthread_create(&th, NULL, race_poller, NULL), 0);
	irdma_dev_close_hook = close_hook_pause;
	for (i = 0; i < 40; i++) {
		struct rte_pmd_irdma_dev *dev = itest_dev("gen=3,name=race,ip=198.18.0.9");
		struct rte_pmd_irdma_pd *pd;
		struct rte_pmd_irdma_cq *cq;
		struct rte_pmd_irdma_qp *qp;

		T_CHECK(dev != NULL);
		if (dev == NULL)
			break;
		pd = rte_pmd_irdma_pd_alloc(dev);
		cq = itest_cq(dev, 64);
		qp = itest_qp(pd, cq, cq, RTE_PMD_IRDMA_QPT_RC, qcap.max_send_wr, 1, 0);
		T_CHECK(pd != NULL && cq != NULL && qp != NULL);
		usleep(500); /* let requests see the live device too */
		T_EQ(rte_pmd_irdma_qp_destroy(qp), 0);
		T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
		T_EQ(rte_pmd_irdma_pd_free(pd), 0);
		T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	}
	irdma_dev_close_hook = NULL;
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	/* The poller was answered throughout (the process is alive to say so). */
	T_CHECK(race_replies > 0);
	printf("# %lu telemetry replies during 40 create/close rounds\n", race_replies);
}

int
main(int argc, char **argv)
{
	static const struct rte_pmd_irdma_qp_cap cap = { 16, 16, 1, 1, 0 };
	int ret;

	itest_eal_init("telemetry", "0", ITEST_NO_HUGE);
	if (pair_open(&p, 3, RTE_PMD_IRDMA_QPT_RC, &cap, 7) < 0) {
		printf("1..0 # could not open the endpoints\n");
		return 1;
	}
	ret = t_main(argc, argv);
	if (tel_fd >= 0)
		close(tel_fd);
	pair_close(&p);
	return ret;
}
