/* SPDX-License-Identifier: BSD-3-Clause */
/* Device creation from devargs: defaults, every key, and the error for each bad input. */
#include <arpa/inet.h>

#include "itest.h"
#include "itest_log.h"

/* Expect creation to fail with @p err and the log to contain @p text. */
static void
expect_fail(const char *devargs, int err, const char *text)
{
	struct rte_pmd_irdma_dev *dev;

	itest_log_begin();
	rte_errno = 0;
	dev = rte_pmd_irdma_dev_create(devargs);
	itest_log_end();
	T_CHECK_MSG(dev == NULL, "\"%s\" was accepted", devargs ? devargs : "(null)");
	T_EQ(rte_errno, err);
	if (text != NULL)
		T_LOGGED(text);
	if (dev != NULL)
		rte_pmd_irdma_dev_close(dev);
}

T_CASE(defaults)
{
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev = rte_pmd_irdma_dev_create("soft");

	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	T_CHECK(strcmp(info.name, "irdma0") == 0);
	T_CHECK(strcmp(info.backend, "soft") == 0);
	T_CHECK(strcmp(info.port, "loop") == 0);
	T_EQ(info.gen, 2);
	T_EQ(info.engine, RTE_PMD_IRDMA_ENGINE_INLINE);
	T_EQ(info.active_mtu, 1024);
	T_EQ(info.max_sge, 13);
	T_EQ(info.max_sge_rd, 13);
	T_EQ(info.max_inline_data, 101);
	T_EQ(info.max_qp_wr, (32768 - 258) / 8);
	T_EQ(info.max_cqe, 1048574);
	T_CHECK(info.cap_flags & RTE_PMD_IRDMA_CAP_CQ_RESIZE);
	T_CHECK(!(info.cap_flags & RTE_PMD_IRDMA_CAP_SRQ));
	T_CHECK(!(info.cap_flags & RTE_PMD_IRDMA_CAP_ATOMICS));
	T_EQ(info.max_srq, 0);
	T_EQ(rte_pmd_irdma_dev_count(), 1);
	T_CHECK(rte_pmd_irdma_dev_get_by_name("irdma0") == dev);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	T_EQ(rte_pmd_irdma_dev_count(), 0);
	T_CHECK(rte_pmd_irdma_dev_get_by_name("irdma0") == NULL);
	T_EQ(rte_errno, ENODEV);
}

T_CASE(every_key)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 };
	struct rte_pmd_irdma_dev_info info;
	union rte_pmd_irdma_gid gid;
	struct rte_pmd_irdma_dev *dev;
	uint8_t v4[4];

	dev = rte_pmd_irdma_dev_create("soft,name=dev3,port=loop,gen=3,engine=inline,socket=0,"
				       "ip=198.18.0.1,ip6=fd00::1,mac=02:00:00:00:00:07,mtu=4096,"
				       "max_qp=64,max_cq=32,max_mr=128,max_srq=8,max_pd=8,max_ah=8,"
				       "drop=0,dup=0%,reorder=0.0,corrupt=0,seed=7");
	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	T_CHECK(strcmp(info.name, "dev3") == 0);
	T_EQ(info.gen, 3);
	T_EQ(info.socket_id, 0);
	T_EQ(info.active_mtu, 4096);
	T_MEMEQ(info.mac, mac, 6);
	T_EQ(info.max_sge, 14);
	T_EQ(info.max_inline_data, 216);
	T_CHECK(info.cap_flags & RTE_PMD_IRDMA_CAP_SRQ);
	T_CHECK(info.cap_flags & RTE_PMD_IRDMA_CAP_ATOMICS);
	T_CHECK(info.cap_flags & RTE_PMD_IRDMA_CAP_CQE_64B);
	T_CHECK(info.max_qp <= 64);
	T_CHECK(info.max_cq <= 32);
	T_EQ(info.max_srq, 8);
	/* GID 1: the IPv4-mapped address ::ffff:198.18.0.1; GID 2: the IPv6 address. */
	T_EQ(rte_pmd_irdma_query_gid(dev, 1, &gid), 0);
	inet_pton(AF_INET, "198.18.0.1", v4);
	T_EQ(gid.raw[10], 0xff);
	T_EQ(gid.raw[11], 0xff);
	T_MEMEQ(&gid.raw[12], v4, 4);
	T_EQ(rte_pmd_irdma_query_gid(dev, 2, &gid), 0);
	T_EQ(gid.raw[0], 0xfd);
	T_EQ(gid.raw[15], 0x01);
	/* GID 0 is the link-local one derived from the MAC. */
	T_EQ(rte_pmd_irdma_query_gid(dev, 0, &gid), 0);
	T_EQ(gid.raw[0], 0xfe);
	T_EQ(gid.raw[1], 0x80);
	itest_log_begin();
	T_EQ(rte_pmd_irdma_query_gid(dev, 3, &gid), -EINVAL);
	itest_log_end();
	T_LOGGED("GID index 3 out of range");
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

T_CASE(service_engine)
{
	struct rte_pmd_irdma_dev_info info;
	struct rte_pmd_irdma_dev *dev = rte_pmd_irdma_dev_create("soft,engine=service");

	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	T_EQ(rte_pmd_irdma_dev_info(dev, &info), 0);
	T_EQ(info.engine, RTE_PMD_IRDMA_ENGINE_SERVICE);
	T_CHECK(info.service_id != UINT32_MAX);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
}

T_CASE(unknown_key_names_it_and_lists_valid_keys)
{
	expect_fail("soft,port=loop,bogus=1", EINVAL, "unknown key \"bogus\"");
	T_LOGGED("valid keys: name, port, ip, ip6, mac, gen, engine, socket, mtu, max_qp, max_cq, "
		 "max_mr, max_srq, max_pd, max_ah, drop, dup, reorder, corrupt, rx_drop, rx_dup, "
		 "rx_reorder, rx_corrupt, delay, delay_us, rx_delay, rx_delay_us, seed");
	expect_fail("soft,gen", EINVAL, "key \"gen\" needs a value");
	expect_fail("soft,=3", EINVAL, "empty or overlong key");
}

T_CASE(bad_values_name_the_key_and_valid_values)
{
	expect_fail("soft,gen=4", EINVAL, "bad value \"4\" for key \"gen\": valid values: 1 (X722), "
		    "2 (E810), 3 (IPU)");
	expect_fail("soft,gen=two", EINVAL, "for key \"gen\"");
	expect_fail("soft,engine=fast", EINVAL, "bad value \"fast\" for key \"engine\": valid "
		    "values: inline, service");
	expect_fail("soft,ip=300.1.1.1", EINVAL, "for key \"ip\": expected an IPv4 address");
	expect_fail("soft,ip6=fd00:::1::", EINVAL, "for key \"ip6\"");
	expect_fail("soft,mac=01:00:00:00:00:01", EINVAL, "for key \"mac\": expected a unicast MAC");
	expect_fail("soft,mac=02:00:00", EINVAL, "for key \"mac\"");
	expect_fail("soft,mtu=1000", EINVAL, "valid values: 256, 512, 1024, 2048, 4096");
	expect_fail("soft,socket=abc", EINVAL, "for key \"socket\"");
	expect_fail("soft,max_qp=0", EINVAL, "for key \"max_qp\": expected an integer");
	expect_fail("soft,max_qp=-5", EINVAL, "for key \"max_qp\"");
	expect_fail("soft,drop=2", EINVAL, "for key \"drop\": expected a rate 0..1");
	expect_fail("soft,corrupt=x%", EINVAL, "for key \"corrupt\"");
	expect_fail("soft,seed=-1", EINVAL, "for key \"seed\"");
	expect_fail("soft,delay=1.5", EINVAL, "for key \"delay\": expected a rate 0..1");
	expect_fail("soft,delay_us=0", EINVAL, "for key \"delay_us\": expected microseconds 1..1000000");
	expect_fail("soft,rx_delay_us=1000001", EINVAL, "for key \"rx_delay_us\"");
	expect_fail("soft,name=a-b", EINVAL, "only letters, digits and '_'");
	expect_fail("soft,name=abcdefghijklmn", EINVAL, "at most 12 characters");
	expect_fail("soft,gen=2,gen=3", EINVAL, "key \"gen\" given 2 times");
}

T_CASE(bad_backend_port_and_strings)
{
	expect_fail(NULL, EINVAL, "devargs: empty");
	expect_fail("", EINVAL, "devargs: empty");
	expect_fail("hard,port=loop", EINVAL, "unknown backend \"hard\"; valid backends: soft");
	expect_fail("port=loop", EINVAL, "unknown backend \"port=loop\"");
	expect_fail("soft,port=net_nothing0", ENODEV, "port=net_nothing0: no such ethdev; valid "
		    "values: loop");
}

T_CASE(duplicate_name)
{
	struct rte_pmd_irdma_dev *a = rte_pmd_irdma_dev_create("soft,name=twin");

	T_CHECK(a != NULL);
	expect_fail("soft,name=twin", EEXIST, "name=twin: a device of that name exists");
	T_EQ(rte_pmd_irdma_dev_close(a), 0);
	/* The name is free again. */
	a = rte_pmd_irdma_dev_create("soft,name=twin");
	T_CHECK(a != NULL);
	T_EQ(rte_pmd_irdma_dev_close(a), 0);
}

T_CASE(close_with_objects_is_busy)
{
	struct rte_pmd_irdma_dev *dev = itest_dev(NULL);
	struct rte_pmd_irdma_pd *pd;
	struct rte_pmd_irdma_cq *cq;

	T_CHECK(dev != NULL);
	if (dev == NULL)
		return;
	pd = rte_pmd_irdma_pd_alloc(dev);
	cq = itest_cq(dev, 16);
	T_CHECK(pd != NULL && cq != NULL);
	itest_log_begin();
	T_EQ(rte_pmd_irdma_dev_close(dev), -EBUSY);
	itest_log_end();
	T_LOGGED("cannot close, objects remain: 0 QP, 1 CQ, 0 SRQ, 0 MR, 0 MW, 0 AH, 1 PD");
	T_EQ(rte_pmd_irdma_cq_destroy(cq), 0);
	T_EQ(rte_pmd_irdma_pd_free(pd), 0);
	T_EQ(rte_pmd_irdma_dev_close(dev), 0);
	T_EQ(rte_pmd_irdma_dev_close(NULL), -EINVAL);
}

T_CASE(several_devices_get_distinct_names)
{
	struct rte_pmd_irdma_dev *d[3];
	struct rte_pmd_irdma_dev_info info[3];
	int i;

	for (i = 0; i < 3; i++) {
		d[i] = itest_dev(NULL);
		T_CHECK(d[i] != NULL);
		if (d[i] == NULL)
			return;
		rte_pmd_irdma_dev_info(d[i], &info[i]);
	}
	T_EQ(rte_pmd_irdma_dev_count(), 3);
	T_CHECK(strcmp(info[0].name, info[1].name) != 0);
	T_CHECK(strcmp(info[1].name, info[2].name) != 0);
	T_CHECK(strcmp(info[0].name, info[2].name) != 0);
	for (i = 0; i < 3; i++)
		T_EQ(rte_pmd_irdma_dev_close(d[i]), 0);
}

int
main(int argc, char **argv)
{
	itest_eal_init("devargs", "0", ITEST_NO_HUGE);
	return t_main(argc, argv);
}
