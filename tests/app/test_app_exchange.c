/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-band exchanges of perftest and ibv_*_pingpong, against the bytes a real
 * perftest 4.5 / rdma-core 44 put on the wire (tests/data/rxe-pcaps; the formats are in
 * doc/spec/rocev2.md §6.4): record codecs byte for byte, whole client and server
 * sequences against a scripted peer replaying the capture, malformed records, silent and
 * unreachable peers (each bounded in time).
 */
#include <errno.h>
#include <unistd.h>

#include "irdma_test.h"
#include "oob_sock.h"
#include "perftest_exchange.h"
#include "pingpong_exchange.h"
#include "scripted_peer.h"

#define TMO 3000

/* rdma_write.pcap (ib_write_lat -x 1 -n 5 -s 64): client 198.18.0.12, server .11 */
static const char WL_C[] = "0000:0001:000017:f11d8b:00000a58:0000560ba80fe000:00:00:00:00:00:"
			   "00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
static const char WL_S[] = "0000:0001:000018:e139ce:00000a29:0000556ce0f4f000:00:00:00:00:00:"
			   "00:00:00:00:00:ff:ff:c6:12:00:0b:00000000:";
/* rdma_write_bw.pcap (ib_write_bw -x 1 -n 5 -s 3000 -t 4) */
static const char WB_C[] = "0000:0001:000018:a2917f:00000b37:000055e801552000:00:00:00:00:00:"
			   "00:00:00:00:00:ff:ff:c6:12:00:0c:00000000:";
static const char WB_S[] = "0000:0001:000019:9c0929:00000b65:000055a6c3b11000:00:00:00:00:00:"
			   "00:00:00:00:00:ff:ff:c6:12:00:0b:00000000:";
/* rc_send.pcap (ibv_rc_pingpong -g 1 -n 4 -s 3000) */
static const char PP_C[] = "0000:000012:2d1431:00000000000000000000ffffc612000c";
static const char PP_S[] = "0000:000013:d857a6:00000000000000000000ffffc612000b";
/* The README's own pingpong example. */
static const char PP_README[] = "0000:000011:64f031:00000000000000000000ffffc612000c";

static const char VER[16] = "6.06";
static const uint8_t CYCLE[4] = { 0x00, 0x00, 0x10, 0x00 };
static const uint8_t CLINE[4] = { 0x00, 0x00, 0x00, 0x40 };
static const char MTU3[2] = "3";

static const uint8_t GID_12[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 12 };
static const uint8_t GID_11[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 11 };

static void check_peer(struct scripted_peer *p);

#define W(x) { SP_WRITE, (x), sizeof(x) }
#define E(x) { SP_EXPECT, (x), sizeof(x) }

T_CASE(perftest_dest_encodes_the_captured_record)
{
	struct perftest_dest d = { .lid = 0, .out_reads = 1, .qpn = 0x17, .psn = 0xf11d8b,
				   .rkey = 0xa58, .vaddr = 0x560ba80fe000ull, .srqn = 0 };
	char out[PERFTEST_DEST_LEN];

	memcpy(d.gid, GID_12, 16);
	T_EQ(sizeof(WL_C), PERFTEST_DEST_LEN);
	T_EQ(perftest_dest_encode(&d, out), PERFTEST_DEST_LEN);
	T_MEMEQ(out, WL_C, PERFTEST_DEST_LEN);
	d.qpn = 0x1000000;
	T_EQ(perftest_dest_encode(&d, out), -EINVAL);
}

T_CASE(perftest_dest_decodes_the_captured_record)
{
	struct perftest_dest d;

	memset(&d, 0xa5, sizeof(d));
	T_EQ(perftest_dest_decode(WL_S, sizeof(WL_S), &d), 0);
	T_EQ(d.lid, 0);
	T_EQ(d.out_reads, 1);
	T_EQ(d.qpn, 0x18);
	T_EQ(d.psn, 0xe139ce);
	T_EQ(d.rkey, 0xa29);
	T_EQ(d.vaddr, 0x556ce0f4f000ull);
	T_MEMEQ(d.gid, GID_11, 16);
	T_EQ(d.srqn, 0);
}

T_CASE(perftest_dest_round_trips_extreme_values)
{
	struct perftest_dest a, b;
	char out[PERFTEST_DEST_LEN];
	unsigned int i;

	memset(&a, 0, sizeof(a)); /* padding too: the structs are compared whole */
	memset(&b, 0, sizeof(b));
	a.lid = 0xffff;
	a.out_reads = 0xffff;
	a.qpn = 0xffffff;
	a.psn = 0xffffff;
	a.rkey = 0xffffffff;
	a.vaddr = 0xffffffffffffffffull;
	a.srqn = 0xffffffff;

	for (i = 0; i < 16; i++)
		a.gid[i] = (uint8_t)(0xf0 + i);
	T_EQ(perftest_dest_encode(&a, out), PERFTEST_DEST_LEN);
	T_EQ(perftest_dest_decode(out, sizeof(out), &b), 0);
	T_MEMEQ(&a, &b, sizeof(a));
}

T_CASE(perftest_dest_rejects_every_single_byte_corruption)
{
	struct perftest_dest d;
	char bad[PERFTEST_DEST_LEN];
	unsigned int i, rejected = 0;

	/* Each byte is a hex digit, a colon or the NUL: 'g' fits none of them. A colon
	 * turned into a digit, or the NUL into a colon, must fail too. */
	for (i = 0; i < PERFTEST_DEST_LEN; i++) {
		memcpy(bad, WL_C, sizeof(bad));
		bad[i] = WL_C[i] == ':' || WL_C[i] == '\0' ? '7' : 'g';
		if (perftest_dest_decode(bad, sizeof(bad), &d) == -EPROTO)
			rejected++;
		else
			T_CHECK_MSG(0, "corruption at byte %u accepted", i);
	}
	T_EQ(rejected, PERFTEST_DEST_LEN);
	T_EQ(perftest_dest_decode(WL_C, sizeof(WL_C) - 1, &d), -EPROTO);
}

T_CASE(perftest_small_fields)
{
	char v[PERFTEST_VERSION_LEN], m[PERFTEST_MTU_LEN];

	perftest_version_encode(v, PERFTEST_VERSION);
	T_MEMEQ(v, VER, sizeof(v));
	T_EQ(perftest_version_decode(VER, sizeof(VER)), 606);
	T_EQ(perftest_version_decode("5.4\0____________", 16), 540);
	T_EQ(perftest_version_decode("5.31\0___________", 16), 531);
	T_EQ(perftest_version_decode("six\0____________", 16), -EPROTO);
	T_EQ(perftest_version_decode("6.06xxxxxxxxxxxx", 16), -EPROTO); /* no NUL */
	perftest_mtu_encode(m, 3);
	T_MEMEQ(m, MTU3, 2);
	T_EQ(perftest_mtu_decode(MTU3, 2), 3);
	T_EQ(perftest_mtu_decode("6", 2), -EPROTO);
	T_EQ(perftest_mtu_decode("33", 2), -EPROTO);
	/* ib_write_bw's results: BW peak 4.39, average 2.06, 0.000719 Mpps on the wire */
	T_EQ(perftest_double_bits(perftest_bits_double(0x40118c6464124006ull)),
	     0x40118c6464124006ull);
	T_CHECK(perftest_bits_double(0x40118c6464124006ull) > 4.385 &&
		perftest_bits_double(0x40118c6464124006ull) < 4.395);
	T_CHECK(perftest_bits_double(0x400076807705d545ull) > 2.055 &&
		perftest_bits_double(0x400076807705d545ull) < 2.065);
}

/* Each side sends its own MTU; the smaller one wins. */
T_CASE(perftest_mtu_negotiates_the_smaller)
{
	static const char MTU5[2] = "5", MTU2[2] = "2";
	static const struct sp_step srv[] = {
		E(VER), W(VER), E(CYCLE), W(CYCLE), E(CLINE), W(CLINE), E(MTU5), W(MTU2),
	};
	struct scripted_peer p;
	struct perftest_conn c;
	int fd;

	T_EQ(sp_start_server(&p, srv, sizeof(srv) / sizeof(srv[0])), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	T_EQ(perftest_conn_start(&c, fd, OOB_CLIENT, TMO, 5), 0);
	T_EQ(c.mtu, 2);
	close(fd);
	sp_join(&p);
	check_peer(&p);
}

T_CASE(pingpong_record_encodes_byte_exact)
{
	struct pingpong_dest d = { .lid = 0, .qpn = 0x11, .psn = 0x64f031 };
	char out[PINGPONG_DEST_LEN];

	memcpy(d.gid, GID_12, 16);
	T_EQ(sizeof(PP_README), PINGPONG_DEST_LEN);
	T_EQ(pingpong_dest_encode(&d, out), PINGPONG_DEST_LEN);
	T_MEMEQ(out, PP_README, PINGPONG_DEST_LEN);
	d.psn = 0x1000000;
	T_EQ(pingpong_dest_encode(&d, out), -EINVAL);
}

T_CASE(pingpong_record_decodes_and_rejects_corruption)
{
	struct pingpong_dest d;
	char bad[PINGPONG_DEST_LEN];
	unsigned int i, rejected = 0;

	T_EQ(pingpong_dest_decode(PP_S, sizeof(PP_S), &d), 0);
	T_EQ(d.lid, 0);
	T_EQ(d.qpn, 0x13);
	T_EQ(d.psn, 0xd857a6);
	T_MEMEQ(d.gid, GID_11, 16);
	for (i = 0; i < PINGPONG_DEST_LEN; i++) {
		memcpy(bad, PP_S, sizeof(bad));
		bad[i] = PP_S[i] == ':' || PP_S[i] == '\0' ? '7' : 'x';
		if (pingpong_dest_decode(bad, sizeof(bad), &d) == -EPROTO)
			rejected++;
		else
			T_CHECK_MSG(0, "corruption at byte %u accepted", i);
	}
	T_EQ(rejected, PINGPONG_DEST_LEN);
	T_EQ(pingpong_dest_decode(PP_S, 51, &d), -EPROTO);
}

static void dest_of(const char *rec, struct perftest_dest *d)
{
	T_EQ(perftest_dest_decode(rec, PERFTEST_DEST_LEN, d), 0);
}

static void check_peer(struct scripted_peer *p)
{
	T_CHECK_MSG(p->failed_step < 0, "scripted peer failed at step %d (errno %d, byte %zu)",
		    p->failed_step, p->error, p->mismatch_at);
}

/* Our client against ib_write_lat's server side, replayed: every byte we send must be
 * the real client's. */
T_CASE(perftest_client_write_lat_sequence_matches_capture)
{
	static const struct sp_step srv[] = {
		E(VER), W(VER), E(CYCLE), W(CYCLE), E(CLINE), W(CLINE), E(MTU3), W(MTU3),
		E(WL_C), W(WL_S), E(WL_C), W(WL_S), E(WL_C), W(WL_S), E(WL_C), W(WL_S),
	};
	struct scripted_peer p;
	struct perftest_conn c;
	struct perftest_dest mine, theirs;
	int fd, i;

	dest_of(WL_C, &mine);
	T_EQ(sp_start_server(&p, srv, sizeof(srv) / sizeof(srv[0])), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	T_CHECK(fd >= 0);
	T_EQ(perftest_conn_start(&c, fd, OOB_CLIENT, TMO, 3), 0);
	T_EQ(c.peer_version, 606);
	T_EQ(c.mtu, 3);
	T_EQ(c.cycle_buffer, 4096);
	T_EQ(c.cache_line, 64);
	for (i = 0; i < perftest_script_write_lat.dest_before; i++) {
		T_EQ(perftest_conn_dest(&c, &mine, &theirs), 0);
		T_EQ(theirs.qpn, 0x18);
		T_EQ(theirs.rkey, 0xa29);
	}
	close(fd);
	sp_join(&p);
	check_peer(&p);
}

/* Our server against ib_write_bw's client side, replayed, with the BW results. */
T_CASE(perftest_server_write_bw_sequence_matches_capture)
{
	static const uint8_t c_size[8] = { 0, 0, 0, 0, 0, 0, 0x0b, 0xb8 };
	static const uint8_t c_iters[8] = { 0, 0, 0, 0, 0, 0, 0, 5 };
	static const uint8_t c_peak[8] = { 0x40, 0x11, 0x8c, 0x64, 0x64, 0x12, 0x40, 0x06 };
	static const uint8_t c_avg[8] = { 0x40, 0x00, 0x76, 0x80, 0x77, 0x05, 0xd5, 0x45 };
	static const uint8_t c_rate[8] = { 0x3f, 0x47, 0x91, 0xb7, 0x40, 0x2e, 0x98, 0x3a };
	static const uint8_t zero8[8] = { 0 };
	static const char done[5] = "done";
	static const struct sp_step cli[] = {
		W(VER), E(VER), W(CYCLE), E(CYCLE), W(CLINE), E(CLINE), W(MTU3), E(MTU3),
		W(WB_C), E(WB_S), W(WB_C), E(WB_S), W(WB_C), E(WB_S), W(WB_C), E(WB_S),
		W(c_size), E(zero8), W(c_iters), E(zero8), W(c_peak), E(zero8), W(c_avg), E(zero8),
		W(c_rate), E(zero8), W(WB_C), E(WB_S), W(done), E(done),
	};
	const struct perftest_script *s = &perftest_script_bw;
	struct scripted_peer p;
	struct perftest_conn c;
	struct perftest_dest mine, theirs;
	uint64_t got[5];
	int lfd, fd, i;

	dest_of(WB_S, &mine);
	lfd = oob_listen(0);
	T_CHECK(lfd >= 0);
	T_EQ(sp_start_client(&p, (uint16_t)oob_bound_port(lfd), cli,
			     sizeof(cli) / sizeof(cli[0])), 0);
	fd = oob_accept(lfd, TMO);
	T_CHECK(fd >= 0);
	T_EQ(perftest_conn_start(&c, fd, OOB_SERVER, TMO, 3), 0);
	T_EQ(c.mtu, 3);
	for (i = 0; i < s->dest_before + s->dest_after; i++)
		T_EQ(perftest_conn_dest(&c, &mine, &theirs), 0);
	T_EQ(theirs.qpn, 0x18);
	T_EQ(theirs.vaddr, 0x55e801552000ull);
	for (i = 0; i < s->results; i++)
		T_EQ(perftest_conn_u64(&c, 0, &got[i]), 0);
	T_EQ(got[0], 3000);
	T_EQ(got[1], 5);
	T_EQ(got[2], 0x40118c6464124006ull);
	for (i = 0; i < s->dest_final; i++)
		T_EQ(perftest_conn_dest(&c, &mine, &theirs), 0);
	T_EQ(perftest_conn_done(&c), 0);
	close(fd);
	close(lfd);
	sp_join(&p);
	check_peer(&p);
}

T_CASE(pingpong_client_and_server_match_capture)
{
	static const char done[5] = "done";
	static const struct sp_step srv[] = { E(PP_C), W(PP_S), E(done) };
	static const struct sp_step cli[] = { W(PP_C), E(PP_S), W(done) };
	struct pingpong_dest mine, theirs;
	struct scripted_peer p;
	const char *stepname = NULL;
	int fd, lfd;

	T_EQ(pingpong_dest_decode(PP_C, sizeof(PP_C), &mine), 0);
	T_EQ(sp_start_server(&p, srv, 3), 0);
	fd = oob_connect("localhost", p.port, TMO);
	T_CHECK(fd >= 0);
	T_EQ(pingpong_client_exchange(fd, &mine, &theirs, TMO, &stepname), 0);
	T_EQ(theirs.qpn, 0x13);
	T_EQ(theirs.psn, 0xd857a6);
	close(fd);
	sp_join(&p);
	check_peer(&p);

	T_EQ(pingpong_dest_decode(PP_S, sizeof(PP_S), &mine), 0);
	lfd = oob_listen(0);
	T_EQ(sp_start_client(&p, (uint16_t)oob_bound_port(lfd), cli, 3), 0);
	fd = oob_accept(lfd, TMO);
	T_CHECK(fd >= 0);
	T_EQ(pingpong_server_receive(fd, &theirs, TMO, &stepname), 0);
	T_EQ(theirs.qpn, 0x12);
	T_EQ(theirs.psn, 0x2d1431);
	T_MEMEQ(theirs.gid, GID_12, 16);
	T_EQ(pingpong_server_reply(fd, &mine, TMO, &stepname), 0);
	close(fd);
	close(lfd);
	sp_join(&p);
	check_peer(&p);
}

T_CASE(malformed_records_fail_fast_with_eproto)
{
	static char bad_pp[PINGPONG_DEST_LEN];
	static char bad_pt[PERFTEST_DEST_LEN];
	static const struct sp_step srv_pp[] = { E(PP_C), W(bad_pp) };
	static const struct sp_step srv_pt[] = {
		E(VER), W(VER), E(CYCLE), W(CYCLE), E(CLINE), W(CLINE), E(MTU3), W(MTU3),
		E(WL_C), W(bad_pt),
	};
	static const char bad_ver[16] = "garbage";
	static const struct sp_step srv_ver[] = { E(VER), W(bad_ver) };
	struct pingpong_dest pmine, ptheirs;
	struct perftest_dest mine, theirs;
	struct perftest_conn c;
	struct scripted_peer p;
	const char *stepname = NULL;
	int64_t t0;
	int fd;

	memcpy(bad_pp, PP_S, sizeof(bad_pp));
	bad_pp[4] = '-';
	memcpy(bad_pt, WL_S, sizeof(bad_pt));
	bad_pt[60] = 'z';
	T_EQ(pingpong_dest_decode(PP_C, sizeof(PP_C), &pmine), 0);
	dest_of(WL_C, &mine);

	t0 = oob_now_ms();
	T_EQ(sp_start_server(&p, srv_pp, 2), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	T_EQ(pingpong_client_exchange(fd, &pmine, &ptheirs, TMO, &stepname), -EPROTO);
	T_CHECK(stepname && strstr(stepname, "parsing"));
	close(fd);
	sp_join(&p);

	T_EQ(sp_start_server(&p, srv_pt, sizeof(srv_pt) / sizeof(srv_pt[0])), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	T_EQ(perftest_conn_start(&c, fd, OOB_CLIENT, TMO, 3), 0);
	T_EQ(perftest_conn_dest(&c, &mine, &theirs), -EPROTO);
	T_CHECK(c.failed_step && strcmp(c.failed_step, "dest") == 0);
	close(fd);
	sp_join(&p);

	T_EQ(sp_start_server(&p, srv_ver, 2), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	T_EQ(perftest_conn_start(&c, fd, OOB_CLIENT, TMO, 3), -EPROTO);
	T_CHECK(c.failed_step && strcmp(c.failed_step, "version") == 0);
	close(fd);
	sp_join(&p);
	T_CHECK(oob_now_ms() - t0 < 2000); /* nothing waited for a timeout */
}

T_CASE(silent_and_vanishing_peers_time_out_or_reset)
{
	static const struct sp_step silent[] = { { SP_SLEEP_MS, NULL, 1500 } };
	static const struct sp_step half[] = { E(PP_C), { SP_WRITE, PP_S, 20 }, { SP_CLOSE, 0, 0 } };
	struct pingpong_dest mine, theirs;
	struct scripted_peer p;
	const char *stepname = NULL;
	int64_t t0, dt;
	int fd;

	T_EQ(pingpong_dest_decode(PP_C, sizeof(PP_C), &mine), 0);
	T_EQ(sp_start_server(&p, silent, 1), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	t0 = oob_now_ms();
	T_EQ(pingpong_client_exchange(fd, &mine, &theirs, 300, &stepname), -ETIMEDOUT);
	dt = oob_now_ms() - t0;
	T_CHECK_MSG(dt >= 290 && dt < 1200, "timed out after %lld ms", (long long)dt);
	T_CHECK(stepname && strstr(stepname, "server's record"));
	close(fd);
	sp_join(&p);

	T_EQ(sp_start_server(&p, half, 3), 0);
	fd = oob_connect("127.0.0.1", p.port, TMO);
	T_EQ(pingpong_client_exchange(fd, &mine, &theirs, TMO, &stepname), -ECONNRESET);
	close(fd);
	sp_join(&p);
}

T_CASE(unreachable_peer_is_refused_quickly)
{
	int64_t t0 = oob_now_ms();
	int lfd, port, fd;

	/* A port that was just free: bind, note it, close. */
	lfd = oob_listen(0);
	T_CHECK(lfd >= 0);
	port = oob_bound_port(lfd);
	close(lfd);
	fd = oob_connect("127.0.0.1", (uint16_t)port, 2000);
	T_EQ(fd, -ECONNREFUSED);
	T_EQ(oob_connect("no-such-host.invalid", 18515, 2000), -ENOENT);
	T_CHECK(oob_now_ms() - t0 < 2500);
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
