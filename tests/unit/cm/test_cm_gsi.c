/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/cm GSI rules: every CM frame of the rxe captures is accepted as a CM MAD for QP 1,
 * and the frame lib/cm builds for the same MAD, addresses, PSN and IP ID is the captured
 * frame byte for byte, ICRC included; a reply path built from a REQ frame gives the REP
 * frame. Packets that are not CM MADs for QP 1 are refused with their reason.
 */
#include "irdma_test.h"
#include "cm_capture.h"
#include "cm_gsi.h"
#include "cm_reason.h"

static int capture_frame(const char *name, unsigned int frame, uint8_t *out, size_t cap)
{
	char path[1024];
	struct t_pcap pc;
	const uint8_t *f;
	uint32_t caplen, orig;
	int len = -1;

	snprintf(path, sizeof(path), "%s/rxe-pcaps/%s", TEST_DATA_DIR, name);
	if (t_pcap_open(&pc, path))
		return -1;
	for (unsigned int i = 1; t_pcap_next(&pc, &f, &caplen, &orig) == 1; i++) {
		if (i == frame && caplen <= cap) {
			memcpy(out, f, caplen);
			len = (int)caplen;
			break;
		}
	}
	t_pcap_close(&pc);
	return len;
}

T_CASE(capture_frames_rebuilt_byte_exact)
{
	static const char *const files[] = { "rdma_cm_rc.pcap", "rping.pcap" };
	int total = 0;

	for (unsigned int k = 0; k < 2; k++) {
		struct cap_mad c[CAP_MAX];
		int n = cap_load(files[k], c, CAP_MAX);

		T_CHECK(n >= 5);
		for (int i = 0; i < n; i++) {
			uint8_t want[512], got[512];
			struct irdma_cm_gsi_path path = { 0 };
			struct roce_pkt p;
			int wl = capture_frame(files[k], c[i].frame, want, sizeof(want));

			T_EQ(irdma_cm_gsi_check(&c[i].pkt), 0);
			memcpy(path.dmac, c[i].pkt.dmac, 6);
			memcpy(path.smac, c[i].pkt.smac, 6);
			memcpy(path.sgid, c[i].pkt.sgid, 16);
			memcpy(path.dgid, c[i].pkt.dgid, 16);
			path.traffic_class = c[i].pkt.tclass;
			path.hop_limit = c[i].pkt.hop_limit;
			irdma_cm_gsi_pkt_init(&p, &path, c[i].pkt.psn, c[i].pkt.ip_id, c[i].mad);
			T_EQ(p.sport, 55410);
			T_EQ(roce_pkt_build(&p, got, sizeof(got)), 322);
			T_EQ(wl, 322);
			T_MEMEQ(got, want, 322);
			total++;
		}
	}
	T_EQ(total, 15);
}

T_CASE(reply_path_gives_the_rep_frame)
{
	struct cap_mad c[CAP_MAX];
	struct irdma_cm_gsi_path path;
	uint8_t want[512], got[512];
	struct roce_pkt p;
	int n = cap_load("rdma_cm_rc.pcap", c, CAP_MAX);

	T_CHECK(n >= 2);
	if (n < 2)
		return;
	irdma_cm_gsi_reply_path(&c[0].pkt, &path); /* from the REQ */
	irdma_cm_gsi_pkt_init(&p, &path, c[1].pkt.psn, c[1].pkt.ip_id, c[1].mad);
	T_EQ(roce_pkt_build(&p, got, sizeof(got)), 322);
	T_EQ(capture_frame("rdma_cm_rc.pcap", c[1].frame, want, sizeof(want)), 322);
	T_MEMEQ(got, want, 322);
}

T_CASE(ipv6_path)
{
	struct irdma_cm_gsi_path path = { .hop_limit = 64, .flow_label = 0x12345, .traffic_class = 8 };
	uint8_t mad[IRDMA_CM_MAD_LEN] = { 1, 7, 2, 3 }, buf[512];
	struct roce_pkt p, q;
	int len;

	path.sgid[0] = 0xfd;
	path.sgid[15] = 1;
	path.dgid[0] = 0xfd;
	path.dgid[15] = 2;
	irdma_cm_gsi_pkt_init(&p, &path, 0x1000001, 9, mad);
	len = roce_pkt_build(&p, buf, sizeof(buf));
	T_EQ(len, 342);
	T_EQ(roce_pkt_parse(buf, (size_t)len, 0, &q), 0);
	T_EQ(q.ipv6, 1);
	T_EQ(q.flow_label, 0x12345);
	T_EQ(q.tclass, 8);
	T_EQ(q.psn, 1); /* 24 bits */
	T_EQ(irdma_cm_gsi_check(&q), 0);
	T_MEMEQ(q.payload, mad, sizeof(mad));
}

T_CASE(not_a_cm_mad_for_qp1)
{
	struct cap_mad c[CAP_MAX];
	struct roce_pkt p;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	int n = cap_load("rdma_cm_rc.pcap", c, CAP_MAX);

	T_CHECK(n >= 1);
	if (n < 1)
		return;
	p = c[0].pkt;
	p.dqpn = 2;
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_GSI_QPN);
	p = c[0].pkt;
	p.opcode = ROCE_OP_UD_SEND_ONLY_IMM;
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_GSI_OPCODE);
	p.opcode = ROCE_OP_RC_SEND_ONLY;
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_GSI_OPCODE);
	p = c[0].pkt;
	p.deth.qkey = 0x80010001u;
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_GSI_QKEY);
	p = c[0].pkt;
	p.paylen = 252;
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_LENGTH);
	p = c[0].pkt;
	memcpy(mad, c[0].mad, sizeof(mad));
	p.payload = mad;
	mad[1] = 0x03; /* subnet administration: nobody here answers it */
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_MGMT_CLASS);
	mad[1] = 0x07;
	mad[0] = 2;
	T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_BASE_VERSION);
	/* The UD data packets of another capture go to other QPs. */
	{
		struct t_pcap pc;
		const uint8_t *f;
		uint32_t caplen, orig;
		char path[1024];
		int ud = 0;

		snprintf(path, sizeof(path), "%s/rxe-pcaps/ud_send.pcap", TEST_DATA_DIR);
		T_EQ(t_pcap_open(&pc, path), 0);
		while (t_pcap_next(&pc, &f, &caplen, &orig) == 1) {
			static uint8_t keep[9000];

			memcpy(keep, f, caplen < sizeof(keep) ? caplen : sizeof(keep));
			if (roce_pkt_parse(keep, caplen, 0, &p) || p.opcode != ROCE_OP_UD_SEND_ONLY)
				continue;
			if (p.dqpn == 1)
				continue;
			T_EQ(irdma_cm_gsi_check(&p), -IRDMA_CM_R_GSI_QPN);
			ud++;
		}
		t_pcap_close(&pc);
		T_CHECK(ud > 0);
	}
}

/* Linux's answer to a request no agent takes (ib_mad's unmatched response), byte for
 * byte: only the method (GetResp 0x81) and the status (0x000C) change. */
T_CASE(unsupported_get_and_set_answered_as_linux)
{
	uint8_t mad[IRDMA_CM_MAD_LEN], out[IRDMA_CM_MAD_LEN], want[IRDMA_CM_MAD_LEN];
	static const uint8_t methods_not_answered[] = { 0x03, 0x05, 0x06, 0x07, 0x81, 0x86 };

	for (unsigned int i = 0; i < sizeof(mad); i++)
		mad[i] = (uint8_t)(i * 7 + 1);
	mad[0] = 1;    /* base version */
	mad[1] = 0x03; /* SA */
	mad[2] = 2;
	mad[3] = 0x01; /* Get */
	mad[4] = mad[5] = 0;
	memcpy(want, mad, sizeof(want));
	want[3] = 0x81;
	want[4] = 0x00;
	want[5] = 0x0C;
	T_EQ(irdma_cm_gsi_unsupported_reply(mad, out), 1);
	T_MEMEQ(out, want, sizeof(want));
	mad[3] = 0x02; /* Set: the same answer */
	T_EQ(irdma_cm_gsi_unsupported_reply(mad, out), 1);
	T_MEMEQ(out, want, sizeof(want));
	for (unsigned int i = 0; i < sizeof(methods_not_answered); i++) {
		mad[3] = methods_not_answered[i];
		T_EQ(irdma_cm_gsi_unsupported_reply(mad, out), 0);
	}
	mad[3] = 0x01;
	mad[0] = 2; /* another base version: dropped before any agent */
	T_EQ(irdma_cm_gsi_unsupported_reply(mad, out), 0);
}

T_CASE(mad_classes_counted_by_name)
{
	static const struct {
		uint8_t cls;
		enum irdma_cm_gsi_class want;
		const char *name;
	} cases[] = {
		{ 0x07, IRDMA_CM_GSI_CLASS_CM, "cm" },     { 0x03, IRDMA_CM_GSI_CLASS_SA, "sa" },
		{ 0x04, IRDMA_CM_GSI_CLASS_PERF, "perf" }, { 0x05, IRDMA_CM_GSI_CLASS_BM, "bm" },
		{ 0x06, IRDMA_CM_GSI_CLASS_DEV_MGT, "dev_mgt" },
		{ 0x08, IRDMA_CM_GSI_CLASS_SNMP, "snmp" }, { 0x09, IRDMA_CM_GSI_CLASS_VENDOR, "vendor" },
		{ 0x0F, IRDMA_CM_GSI_CLASS_VENDOR, "vendor" },
		{ 0x30, IRDMA_CM_GSI_CLASS_VENDOR, "vendor" },
		{ 0x4F, IRDMA_CM_GSI_CLASS_VENDOR, "vendor" },
		{ 0x01, IRDMA_CM_GSI_CLASS_OTHER, "other" }, { 0x81, IRDMA_CM_GSI_CLASS_OTHER, "other" },
		{ 0x10, IRDMA_CM_GSI_CLASS_OTHER, "other" }, { 0x50, IRDMA_CM_GSI_CLASS_OTHER, "other" },
	};
	uint8_t mad[24] = { 1 };

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mad[1] = cases[i].cls;
		T_EQ(irdma_cm_gsi_class_of(mad), cases[i].want);
		T_CHECK(!strcmp(irdma_cm_gsi_class_name(irdma_cm_gsi_class_of(mad)), cases[i].name));
	}
	T_CHECK(!strcmp(irdma_cm_gsi_class_name(IRDMA_CM_GSI_CLASS_NUM), "unknown"));
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
