/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-band exchanges of iop-roce-peer without a guest: the exact bytes of the
 * pingpong and perftest records (checked against records captured from rdma-core and
 * perftest on rxe), their parsers' rejection of malformed input, and both roles of each
 * exchange talking to each other over loopback TCP.
 */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "irdma_test.h"
#include "iop_oob.h"
#include "iop_perftest.h"

static const uint8_t gid_g2[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 12 };

/* From the rxe captures: ibv_ud_pingpong's record and ib_write_lat's client record. */
static const char pp_captured[IOP_PP_RECORD_LEN] =
	"0000:000011:64f031:00000000000000000000ffffc612000c";
static const char pt_captured[IOP_PT_RECORD_LEN] =
	"0000:0001:000017:f11d8b:00000a58:0000560ba80fe000:"
	"00:00:00:00:00:00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";

T_CASE(pingpong_record_bytes)
{
	struct iop_pp_dest d = { .lid = 0, .qpn = 0x11, .psn = 0x64f031 };
	char rec[IOP_PP_RECORD_LEN];

	memcpy(d.gid, gid_g2, 16);
	memset(rec, 'x', sizeof(rec));
	iop_pp_format(&d, rec);
	T_MEMEQ(rec, pp_captured, IOP_PP_RECORD_LEN);
	T_EQ(rec[IOP_PP_RECORD_LEN - 1], '\0');
}

T_CASE(pingpong_record_parse)
{
	struct iop_pp_dest d;
	char bad[IOP_PP_RECORD_LEN];

	T_EQ(iop_pp_parse(pp_captured, &d), 0);
	T_EQ(d.lid, 0);
	T_EQ(d.qpn, 0x11);
	T_EQ(d.psn, 0x64f031);
	T_MEMEQ(d.gid, gid_g2, 16);

	memcpy(bad, pp_captured, sizeof(bad));
	bad[11] = '-'; /* separator */
	T_EQ(iop_pp_parse(bad, &d), -EBADMSG);
	memcpy(bad, pp_captured, sizeof(bad));
	bad[7] = 'g'; /* not hex */
	T_EQ(iop_pp_parse(bad, &d), -EBADMSG);
	memcpy(bad, pp_captured, sizeof(bad));
	bad[50] = 'z'; /* in the GID */
	T_EQ(iop_pp_parse(bad, &d), -EBADMSG);
	memcpy(bad, pp_captured, sizeof(bad));
	bad[51] = '0'; /* no NUL */
	T_EQ(iop_pp_parse(bad, &d), -EBADMSG);
}

T_CASE(perftest_record_bytes)
{
	struct iop_pt_dest d = { .lid = 0, .out_reads = 1, .qpn = 0x17, .psn = 0xf11d8b,
				 .rkey = 0xa58, .vaddr = 0x560ba80fe000ull, .srqn = 0 };
	char rec[IOP_PT_RECORD_LEN];

	memcpy(d.gid, gid_g2, 16);
	memset(rec, 'x', sizeof(rec));
	iop_pt_format(&d, rec);
	T_MEMEQ(rec, pt_captured, IOP_PT_RECORD_LEN);
}

T_CASE(perftest_record_parse)
{
	struct iop_pt_dest d, e = { .lid = 0xbeef, .out_reads = 0x80, .qpn = 0xabcdef,
				    .psn = 0x123456, .rkey = 0xdeadbeef,
				    .vaddr = 0xfedcba9876543210ull, .srqn = 0x89abcdef };
	char rec[IOP_PT_RECORD_LEN], bad[IOP_PT_RECORD_LEN];
	int i;

	T_EQ(iop_pt_parse(pt_captured, &d), 0);
	T_EQ(d.out_reads, 1);
	T_EQ(d.qpn, 0x17);
	T_EQ(d.psn, 0xf11d8b);
	T_EQ(d.rkey, 0xa58);
	T_EQ(d.vaddr, 0x560ba80fe000ull);
	T_MEMEQ(d.gid, gid_g2, 16);
	T_EQ(d.srqn, 0);

	for (i = 0; i < 16; i++)
		e.gid[i] = (uint8_t)(0xf0 + i);
	iop_pt_format(&e, rec);
	T_EQ(iop_pt_parse(rec, &d), 0);
	T_EQ(d.lid, e.lid);
	T_EQ(d.out_reads, e.out_reads);
	T_EQ(d.qpn, e.qpn);
	T_EQ(d.psn, e.psn);
	T_EQ(d.rkey, e.rkey);
	T_EQ(d.vaddr, e.vaddr);
	T_EQ(d.srqn, e.srqn);
	T_MEMEQ(d.gid, e.gid, sizeof(d.gid));

	memcpy(bad, pt_captured, sizeof(bad));
	bad[9] = ';';
	T_EQ(iop_pt_parse(bad, &d), -EBADMSG);
	memcpy(bad, pt_captured, sizeof(bad));
	bad[40] = 'q';
	T_EQ(iop_pt_parse(bad, &d), -EBADMSG);
	memcpy(bad, pt_captured, sizeof(bad));
	bad[IOP_PT_RECORD_LEN - 1] = ':';
	T_EQ(iop_pt_parse(bad, &d), -EBADMSG);
}

/* --- both roles over loopback TCP (a port without a socket: nothing to serve) --- */

static uint16_t test_port(void)
{
	return (uint16_t)(20000 + getpid() % 20000);
}

struct side {
	int client;
	int rc, finish_rc;
	struct iop_port port;
	struct iop_pt_dest mine, theirs;
	struct iop_pp_dest pmine, ptheirs;
	int perftest;
};

static void *run_side(void *arg)
{
	struct side *s = arg;
	int64_t deadline = iop_now_ms() + 10000;

	if (s->client)
		usleep(100000); /* let the server listen first (refusals are retried anyway) */
	if (s->perftest) {
		struct iop_pt_conn c;

		s->rc = iop_pt_open(&c, &s->port, s->client, "127.0.0.1", test_port(), 3, &s->mine,
				    &s->theirs, deadline);
		s->finish_rc = s->rc ? s->rc : iop_pt_finish(&c, &s->mine);
		iop_pt_close(&c);
	} else if (s->client) {
		s->rc = iop_pp_client(&s->port, "127.0.0.1", test_port(), &s->pmine, &s->ptheirs, deadline);
	} else {
		s->rc = iop_pp_server(&s->port, "127.0.0.1", test_port(), &s->pmine, &s->ptheirs, deadline);
	}
	return NULL;
}

static void run_pair(struct side *srv, struct side *cli)
{
	pthread_t a, b;

	srv->port.fd = -1;
	cli->port.fd = -1;
	cli->client = 1;
	T_EQ(pthread_create(&a, NULL, run_side, srv), 0);
	T_EQ(pthread_create(&b, NULL, run_side, cli), 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
}

T_CASE(perftest_exchange_both_roles)
{
	struct side srv = { .perftest = 1 }, cli = { .perftest = 1 };

	srv.mine = (struct iop_pt_dest){ .out_reads = 16, .qpn = 0x101, .psn = 0x111111,
					 .rkey = 0x1000, .vaddr = 0x7f0000001000ull };
	cli.mine = (struct iop_pt_dest){ .out_reads = 128, .qpn = 0x202, .psn = 0x222222,
					 .rkey = 0x2000, .vaddr = 0x7f0000002000ull };
	memcpy(cli.mine.gid, gid_g2, 16);
	run_pair(&srv, &cli);
	T_EQ(srv.rc, 0);
	T_EQ(cli.rc, 0);
	T_EQ(srv.finish_rc, 0);
	T_EQ(cli.finish_rc, 0);
	T_MEMEQ(&srv.theirs, &cli.mine, sizeof(cli.mine));
	T_MEMEQ(&cli.theirs, &srv.mine, sizeof(srv.mine));
}

T_CASE(pingpong_exchange_both_roles)
{
	struct side srv = { 0 }, cli = { 0 };

	srv.pmine = (struct iop_pp_dest){ .qpn = 0x11, .psn = 0xabcdef };
	cli.pmine = (struct iop_pp_dest){ .qpn = 0x7f63, .psn = 0x012345 };
	memcpy(srv.pmine.gid, gid_g2, 16);
	run_pair(&srv, &cli);
	T_EQ(srv.rc, 0);
	T_EQ(cli.rc, 0);
	T_MEMEQ(&srv.ptheirs, &cli.pmine, sizeof(cli.pmine));
	T_MEMEQ(&cli.ptheirs, &srv.pmine, sizeof(srv.pmine));
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
