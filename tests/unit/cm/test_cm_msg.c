/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/cm codec: every CM MAD of the rxe captures parsed, its fields checked against the
 * decode in doc/spec/rdma-cm.md §9, and rebuilt byte for byte; the RDMA-CM IP header
 * and service IDs; malformed MADs refused with their reason.
 */
#include <errno.h>

#include "irdma_test.h"
#include "cm_capture.h"
#include "cm_ip.h"
#include "cm_reason.h"

static struct cap_mad perf[CAP_MAX], rping[CAP_MAX];
static int nperf = -1, nrping = -1;

static void load(void)
{
	if (nperf < 0)
		nperf = cap_load("rdma_cm_rc.pcap", perf, CAP_MAX);
	if (nrping < 0)
		nrping = cap_load("rping.pcap", rping, CAP_MAX);
}

static const uint8_t gid_c[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 12 };
static const uint8_t gid_s[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 11 };
static const uint8_t zeros[256];

static int parse_frame(const struct cap_mad *c, int n, unsigned int frame, struct irdma_cm_msg *m)
{
	const struct cap_mad *f = cap_frame(c, n, frame);

	if (!f)
		return -1000;
	return irdma_cm_msg_parse(f->mad, sizeof(f->mad), m);
}

/* Every QP1 packet of both captures: the GSI transport values, a CM MAD that parses, and
 * a rebuild that gives back the same 256 bytes. */
T_CASE(capture_every_mad_parses_and_rebuilds)
{
	static const struct { unsigned int frame; uint16_t attr; } want[] = {
		{ 1, IRDMA_CM_ATTR_REQ },   { 2, IRDMA_CM_ATTR_REP },   { 3, IRDMA_CM_ATTR_RTU },
		{ 24, IRDMA_CM_ATTR_REQ },  { 25, IRDMA_CM_ATTR_REP },  { 26, IRDMA_CM_ATTR_RTU },
		{ 67, IRDMA_CM_ATTR_DREQ }, { 68, IRDMA_CM_ATTR_DREP }, { 69, IRDMA_CM_ATTR_DREQ },
		{ 70, IRDMA_CM_ATTR_DREP },
	};
	struct irdma_cm_msg m;
	uint8_t out[IRDMA_CM_MAD_LEN];

	load();
	T_EQ(nperf, 10);
	T_EQ(nrping, 5); /* REQ, REP, RTU, DREQ, DREP */
	for (int i = 0; i < nperf && i < 10; i++) {
		T_EQ(perf[i].frame, want[i].frame);
		T_EQ(irdma_cm_msg_parse(perf[i].mad, IRDMA_CM_MAD_LEN, &m), 0);
		T_EQ(m.hdr.attr_id, want[i].attr);
	}
	for (int k = 0; k < 2; k++) {
		const struct cap_mad *c = k ? rping : perf;
		int n = k ? nrping : nperf;

		for (int i = 0; i < n; i++) {
			const struct roce_pkt *p = &c[i].pkt;

			T_EQ(p->pkey, 0xFFFF);
			T_EQ(p->deth.qkey, IRDMA_CM_GSI_QKEY);
			T_EQ(p->deth.sqpn, IRDMA_CM_GSI_QPN);
			T_EQ(p->hop_limit, 64);
			T_EQ(irdma_cm_msg_parse(c[i].mad, IRDMA_CM_MAD_LEN, &m), 0);
			T_EQ(m.hdr.base_version, 1);
			T_EQ(m.hdr.mgmt_class, 0x07);
			T_EQ(m.hdr.class_version, 2);
			T_EQ(m.hdr.method, 0x03);
			T_EQ(m.hdr.status, 0);
			T_EQ(m.hdr.attr_mod, 0);
			memset(out, 0xA5, sizeof(out));
			T_EQ(irdma_cm_msg_build(&m, out, sizeof(out)), IRDMA_CM_MAD_LEN);
			T_MEMEQ(out, c[i].mad, IRDMA_CM_MAD_LEN);
		}
	}
}

T_CASE(capture_req_frame1_fields)
{
	struct irdma_cm_msg m;
	const struct irdma_cm_req *r = &m.req;

	load();
	T_EQ(parse_frame(perf, nperf, 1, &m), 0);
	T_EQ(m.hdr.tid, 0x0000000205f73242ull);
	T_EQ(m.hdr.attr_id, IRDMA_CM_ATTR_REQ);
	T_EQ(r->local_comm_id, 0x4232f705u);
	T_EQ(r->vendor_id, 0);
	T_EQ(r->service_id, 0x0000000001064853ull);
	T_EQ(r->local_ca_guid, 0x505400fffe000012ull);
	T_EQ(r->local_qkey, 0);
	T_EQ(r->local_qpn, 0x1d);
	T_EQ(r->responder_resources, 0);
	T_EQ(r->local_eecn, 0);
	T_EQ(r->initiator_depth, 0);
	T_EQ(r->remote_eecn, 0);
	T_EQ(r->remote_cm_response_timeout, 20);
	T_EQ(r->transport_type, IRDMA_CM_TRANSPORT_RC);
	T_EQ(r->flow_control, 0);
	T_EQ(r->starting_psn, 0xad1626);
	T_EQ(r->local_cm_response_timeout, 20);
	T_EQ(r->retry_count, 7);
	T_EQ(r->pkey, 0xFFFF);
	T_EQ(r->path_mtu, 3);
	T_EQ(r->rdc_exists, 0);
	T_EQ(r->rnr_retry_count, 7);
	T_EQ(r->max_cm_retries, 15);
	T_EQ(r->srq, 0);
	T_EQ(r->ext_transport_type, 0);
	T_EQ(r->primary.local_lid, 0xFFFF);
	T_EQ(r->primary.remote_lid, 0xFFFF);
	T_MEMEQ(r->primary.local_gid, gid_c, 16);
	T_MEMEQ(r->primary.remote_gid, gid_s, 16);
	T_EQ(r->primary.flow_label, 0xccbfa);
	T_EQ(r->primary.packet_rate, 0);
	T_EQ(r->primary.traffic_class, 0);
	T_EQ(r->primary.hop_limit, 64);
	T_EQ(r->primary.sl, 0);
	T_EQ(r->primary.subnet_local, 0);
	T_EQ(r->primary.local_ack_timeout, 19);
	T_EQ(r->alternate.local_lid, 0);
	T_MEMEQ(r->alternate.local_gid, zeros, 16);
	T_EQ(r->alternate.local_ack_timeout, 0);
	/* RDMA-CM IP header, then 56 zero bytes of user data. */
	T_EQ(r->private_data[0], 0x00);
	T_EQ(r->private_data[1], 0x40);
	T_MEMEQ(r->private_data + IRDMA_CM_IP_HDR_LEN, zeros, IRDMA_CM_REQ_USER_PD_LEN);
}

T_CASE(capture_rep_rtu_frames_2_3)
{
	struct irdma_cm_msg m;

	load();
	T_EQ(parse_frame(perf, nperf, 2, &m), 0);
	T_EQ(m.hdr.tid, 0x0000000205f73242ull); /* the REQ's */
	T_EQ(m.rep.local_comm_id, 0xc3367f51u);
	T_EQ(m.rep.remote_comm_id, 0x4232f705u);
	T_EQ(m.rep.local_qkey, 0);
	T_EQ(m.rep.local_qpn, 0x1e);
	T_EQ(m.rep.local_eecn, 0);
	T_EQ(m.rep.starting_psn, 0x5a1d1e);
	T_EQ(m.rep.responder_resources, 0);
	T_EQ(m.rep.initiator_depth, 0);
	T_EQ(m.rep.target_ack_delay, 15);
	T_EQ(m.rep.failover_accepted, 0);
	T_EQ(m.rep.flow_control, 0);
	T_EQ(m.rep.rnr_retry_count, 7);
	T_EQ(m.rep.srq, 0);
	T_EQ(m.rep.local_ca_guid, 0x505400fffe000011ull);
	T_MEMEQ(m.rep.private_data, zeros, IRDMA_CM_REP_PD_LEN);

	T_EQ(parse_frame(perf, nperf, 3, &m), 0);
	T_EQ(m.hdr.attr_id, IRDMA_CM_ATTR_RTU);
	T_EQ(m.hdr.tid, 0x0000000205f73242ull);
	T_EQ(m.rtu.local_comm_id, 0x4232f705u);
	T_EQ(m.rtu.remote_comm_id, 0xc3367f51u);
	T_MEMEQ(m.rtu.private_data, zeros, IRDMA_CM_RTU_PD_LEN);
}

T_CASE(capture_second_connection_and_disconnects)
{
	struct irdma_cm_msg m;

	load();
	T_EQ(parse_frame(perf, nperf, 24, &m), 0);
	T_EQ(m.hdr.tid, 0x0000000205f73241ull);
	T_EQ(m.req.local_comm_id, 0x4132f705u);
	T_EQ(m.req.local_qpn, 0x1e);
	T_EQ(m.req.starting_psn, 0xc51c6e);
	T_EQ(m.req.primary.flow_label, 0x4c352);
	T_EQ(parse_frame(perf, nperf, 25, &m), 0);
	T_EQ(m.rep.local_comm_id, 0xc5367f51u);
	T_EQ(m.rep.remote_comm_id, 0x4132f705u);
	T_EQ(m.rep.local_qpn, 0x1f);
	T_EQ(m.rep.starting_psn, 0x5ec39b);
	T_EQ(parse_frame(perf, nperf, 26, &m), 0);
	T_EQ(m.rtu.local_comm_id, 0x4132f705u);
	T_EQ(m.rtu.remote_comm_id, 0xc5367f51u);

	T_EQ(parse_frame(perf, nperf, 67, &m), 0);
	T_EQ(m.hdr.attr_id, IRDMA_CM_ATTR_DREQ);
	T_EQ(m.hdr.tid, 0x0000000205f73241ull);
	T_EQ(m.dreq.local_comm_id, 0x4132f705u);
	T_EQ(m.dreq.remote_comm_id, 0xc5367f51u);
	T_EQ(m.dreq.remote_qpn, 0x1f);
	T_MEMEQ(m.dreq.private_data, zeros, IRDMA_CM_DREQ_PD_LEN);
	T_EQ(parse_frame(perf, nperf, 68, &m), 0);
	T_EQ(m.hdr.attr_id, IRDMA_CM_ATTR_DREP);
	T_EQ(m.hdr.tid, 0x0000000205f73241ull); /* the DREQ's */
	T_EQ(m.drep.local_comm_id, 0xc5367f51u);
	T_EQ(m.drep.remote_comm_id, 0x4132f705u);
	T_EQ(parse_frame(perf, nperf, 69, &m), 0);
	T_EQ(m.hdr.tid, 0x0000000205f73242ull);
	T_EQ(m.dreq.remote_qpn, 0x1e);
	T_EQ(parse_frame(perf, nperf, 70, &m), 0);
	T_EQ(m.drep.local_comm_id, 0xc3367f51u);
	T_EQ(m.drep.remote_comm_id, 0x4232f705u);
}

T_CASE(capture_rping_req_rep)
{
	struct irdma_cm_msg m;
	struct irdma_cm_ip_hdr ip;

	load();
	T_CHECK(nrping >= 2);
	if (nrping < 2)
		return;
	T_EQ(irdma_cm_msg_parse(rping[0].mad, IRDMA_CM_MAD_LEN, &m), 0);
	T_EQ(m.hdr.attr_id, IRDMA_CM_ATTR_REQ);
	T_EQ(m.hdr.tid, 0x0000000205f73240ull);
	T_EQ(m.req.local_comm_id, 0x4032f705u);
	T_EQ(m.req.service_id, 0x0000000001061c06ull);
	T_EQ(m.req.local_qpn, 0x1f);
	T_EQ(m.req.responder_resources, 1);
	T_EQ(m.req.initiator_depth, 1);
	T_EQ(m.req.starting_psn, 0x06dc86);
	T_EQ(m.req.primary.flow_label, 0x7a603);
	T_EQ(irdma_cm_ip_hdr_parse(m.req.private_data, IRDMA_CM_REQ_PD_LEN, &ip), 0);
	T_EQ(ip.src_port, 0xc263);
	T_EQ(irdma_cm_flow_label(ip.src_port, 7174), m.req.primary.flow_label);
	T_EQ(irdma_cm_msg_parse(rping[1].mad, IRDMA_CM_MAD_LEN, &m), 0);
	T_EQ(m.hdr.attr_id, IRDMA_CM_ATTR_REP);
	T_EQ(m.rep.local_comm_id, 0xc7367f51u);
	T_EQ(m.rep.local_qpn, 0x20);
	T_EQ(m.rep.starting_psn, 0x988171);
	T_EQ(m.rep.responder_resources, 1);
	T_EQ(m.rep.initiator_depth, 1);
	T_EQ(m.rep.target_ack_delay, 15);
	T_EQ(m.rep.rnr_retry_count, 7);
}

T_CASE(ip_header_of_the_capture)
{
	struct irdma_cm_msg m;
	struct irdma_cm_ip_hdr ip;
	uint8_t out[IRDMA_CM_IP_HDR_LEN];
	enum irdma_cm_ps ps;
	uint16_t port;

	load();
	T_EQ(parse_frame(perf, nperf, 1, &m), 0);
	T_EQ(irdma_cm_ip_hdr_parse(m.req.private_data, IRDMA_CM_REQ_PD_LEN, &ip), 0);
	T_EQ(ip.version, 0);
	T_EQ(ip.ip_version, 4);
	T_EQ(ip.src_port, 60281);
	T_MEMEQ(ip.src_gid, gid_c, 16);
	T_MEMEQ(ip.dst_gid, gid_s, 16);
	/* The header carries the same addresses as the path GIDs. */
	T_MEMEQ(ip.src_gid, m.req.primary.local_gid, 16);
	T_EQ(irdma_cm_ip_hdr_build(&ip, out, sizeof(out)), IRDMA_CM_IP_HDR_LEN);
	T_MEMEQ(out, m.req.private_data, IRDMA_CM_IP_HDR_LEN);
	T_EQ(irdma_cm_service_id_parse(m.req.service_id, &ps, &port), 0);
	T_EQ(ps, IRDMA_CM_PS_TCP);
	T_EQ(port, 18515);
	T_EQ(irdma_cm_flow_label(ip.src_port, port), 0xccbfa);
	T_EQ(irdma_cm_flow_label(43297, 18515), 0x4c352);

	T_EQ(parse_frame(perf, nperf, 24, &m), 0);
	T_EQ(irdma_cm_ip_hdr_parse(m.req.private_data, IRDMA_CM_REQ_PD_LEN, &ip), 0);
	T_EQ(ip.src_port, 43297);
}

T_CASE(service_ids)
{
	enum irdma_cm_ps ps;
	uint16_t port;

	T_EQ(irdma_cm_service_id(IRDMA_CM_PS_TCP, 18515), 0x0000000001064853ull);
	T_EQ(irdma_cm_service_id(IRDMA_CM_PS_TCP, 7174), 0x0000000001061c06ull);
	T_EQ(irdma_cm_service_id(IRDMA_CM_PS_UDP, 1), 0x0000000001110001ull);
	T_EQ(irdma_cm_service_id(IRDMA_CM_PS_IB, 0xFFFF), 0x00000000013FFFFFull);
	T_EQ(irdma_cm_service_id_parse(0x00000000013F0007ull, &ps, &port), 0);
	T_EQ(ps, IRDMA_CM_PS_IB);
	T_EQ(port, 7);
	T_EQ(irdma_cm_service_id_parse(0x0000000001110102ull, &ps, &port), 0);
	T_EQ(ps, IRDMA_CM_PS_UDP);
	T_EQ(port, 0x102);
	/* Not an IP service ID: upper bits, unknown or IPoIB port space. */
	T_EQ(irdma_cm_service_id_parse(0x1000000001064853ull, &ps, &port), -EINVAL);
	T_EQ(irdma_cm_service_id_parse(0x0000000001074853ull, &ps, &port), -EINVAL);
	T_EQ(irdma_cm_service_id_parse(0x0000000000024853ull, &ps, &port), -EINVAL);
}

T_CASE(ip_header_ipv6_and_malformed)
{
	struct irdma_cm_ip_hdr ip = { .version = 0, .ip_version = 6, .src_port = 0x1234 };
	uint8_t pd[IRDMA_CM_REQ_PD_LEN] = { 0 };
	struct irdma_cm_ip_hdr back;

	for (int i = 0; i < 16; i++) {
		ip.src_gid[i] = (uint8_t)(0xfd + i);
		ip.dst_gid[i] = (uint8_t)(0x20 + i);
	}
	T_EQ(irdma_cm_ip_hdr_build(&ip, pd, sizeof(pd)), IRDMA_CM_IP_HDR_LEN);
	T_EQ(pd[0], 0x00);
	T_EQ(pd[1], 0x60);
	T_EQ(pd[2], 0x12);
	T_EQ(pd[3], 0x34);
	T_MEMEQ(pd + 4, ip.src_gid, 16);
	T_MEMEQ(pd + 20, ip.dst_gid, 16);
	T_EQ(irdma_cm_ip_hdr_parse(pd, sizeof(pd), &back), 0);
	T_MEMEQ(&back, &ip, sizeof(ip));
	T_EQ(irdma_cm_ip_hdr_parse(pd, IRDMA_CM_IP_HDR_LEN - 1, &back), -EINVAL);
	T_EQ(irdma_cm_ip_hdr_build(&ip, pd, IRDMA_CM_IP_HDR_LEN - 1), -ENOSPC);

	pd[0] = 1; /* header version */
	T_EQ(irdma_cm_ip_hdr_parse(pd, sizeof(pd), &back), -EINVAL);
	pd[0] = 0;
	pd[1] = 0x50; /* IP version 5 */
	T_EQ(irdma_cm_ip_hdr_parse(pd, sizeof(pd), &back), -EINVAL);
	pd[1] = 0x40; /* IPv4 with an address whose upper 12 bytes are not zero */
	T_EQ(irdma_cm_ip_hdr_parse(pd, sizeof(pd), &back), -EINVAL);
	ip.ip_version = 4; /* IPv4 header whose GIDs are not IPv4-mapped */
	T_EQ(irdma_cm_ip_hdr_build(&ip, pd, sizeof(pd)), -EINVAL);
	ip.ip_version = 0;
	T_EQ(irdma_cm_ip_hdr_build(&ip, pd, sizeof(pd)), -EINVAL);
}

/* MRA and REJ are absent from the captures: exact bytes from the layout tables. */
T_CASE(mra_rej_exact_bytes)
{
	struct irdma_cm_msg m = { 0 }, back;
	uint8_t mad[IRDMA_CM_MAD_LEN];

	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_MRA, 0x0000000205f73242ull);
	m.mra.local_comm_id = 0xc3367f51u;
	m.mra.remote_comm_id = 0x4232f705u;
	m.mra.msg_mraed = IRDMA_CM_MSG_REF_REQ;
	m.mra.service_timeout = 24;
	m.mra.private_data[0] = 0xAB;
	m.mra.private_data[IRDMA_CM_MRA_PD_LEN - 1] = 0xCD;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	{
		static const uint8_t want[36] = {
			0x01, 0x07, 0x02, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x05, 0xf7, 0x32, 0x42,
			0x00, 0x11, 0, 0, 0, 0, 0, 0, 0xc3, 0x36, 0x7f, 0x51, 0x42, 0x32, 0xf7, 0x05,
			0x00, 0xc0, 0xAB, 0x00 };
		T_MEMEQ(mad, want, sizeof(want));
		T_EQ(mad[255], 0xCD);
	}
	T_EQ(irdma_cm_msg_parse(mad, sizeof(mad), &back), 0);
	T_EQ(back.mra.service_timeout, 24);
	T_EQ(back.mra.msg_mraed, 0);
	m.mra.msg_mraed = IRDMA_CM_MSG_REF_REP;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(mad[32], 0x40);

	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REJ, 7);
	m.rej.local_comm_id = 0;
	m.rej.remote_comm_id = 0x4232f705u;
	m.rej.msg_rejected = IRDMA_CM_MSG_REF_REP;
	m.rej.ari_len = 8;
	m.rej.reason = IRDMA_CM_REJ_TIMEOUT;
	m.rej.ari[0] = 0x50;
	m.rej.ari[7] = 0x12;
	m.rej.private_data[0] = 0x77;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(mad[17], 0x12);
	T_EQ(mad[32], 0x40);  /* message rejected = REP in bits 7..6 */
	T_EQ(mad[33], 0x10);  /* ARI length 8 in bits 7..1 */
	T_EQ(mad[34], 0x00);
	T_EQ(mad[35], 0x04);
	T_EQ(mad[36], 0x50);
	T_EQ(mad[43], 0x12);
	T_EQ(mad[24 + 84], 0x77);
	T_EQ(irdma_cm_msg_parse(mad, sizeof(mad), &back), 0);
	T_MEMEQ(&back.rej, &m.rej, sizeof(m.rej));
}

/* Every field at its maximum: parse(build(x)) == x, and no field spills into another. */
T_CASE(roundtrip_all_fields_saturated)
{
	struct irdma_cm_msg m, back;
	uint8_t mad[IRDMA_CM_MAD_LEN];
	struct irdma_cm_path *p = &m.req.primary;

	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REQ, ~0ull);
	m.hdr.status = 0xFFFF;
	m.hdr.class_specific = 0xFFFF;
	m.hdr.attr_mod = 0xFFFFFFFFu;
	m.req = (struct irdma_cm_req){ 0xFFFFFFFFu, 0xFFFFFF, ~0ull, ~0ull, 0xFFFFFFFFu, 0xFFFFFF,
		0xFF, 0xFFFFFF, 0xFF, 0xFFFFFF, 31, 3, 1, 0xFFFFFF, 31, 7, 0xFFFF, 15, 1, 7, 15,
		1, 7, { 0 }, { 0 }, { 0 } };
	*p = (struct irdma_cm_path){ 0xFFFF, 0xFFFF, { 0 }, { 0 }, 0xFFFFF, 63, 0xFF, 0xFF, 15,
		1, 31 };
	memset(p->local_gid, 0xFF, 16);
	memset(p->remote_gid, 0xFF, 16);
	m.req.alternate = *p;
	memset(m.req.private_data, 0xFF, sizeof(m.req.private_data));
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(irdma_cm_msg_parse(mad, sizeof(mad), &back), 0);
	T_MEMEQ(&back.req, &m.req, sizeof(m.req));
	T_MEMEQ(&back.hdr, &m.hdr, sizeof(m.hdr));
	/* Only reserved bits stay zero: REQ bytes 4 (rsvd), 24..27, path bytes 38 bits
	 * 11..6 of the flow-label word, 42 bits 2..0 and 43 bits 2..0. */
	T_EQ(mad[24 + 4], 0);
	T_EQ(mad[24 + 24] | mad[24 + 25] | mad[24 + 26] | mad[24 + 27], 0);
	T_EQ(mad[24 + 52 + 38], 0xF0);
	T_EQ(mad[24 + 52 + 39], 0x3F);
	T_EQ(mad[24 + 52 + 42], 0xF8);
	T_EQ(mad[24 + 52 + 43], 0xF8);

	/* Values wider than their fields truncate without touching neighbours. */
	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REQ, 1);
	m.req.local_comm_id = 1;
	m.req.local_qpn = 0x1ABCDEF;
	m.req.starting_psn = 0xFF123456;
	m.req.retry_count = 9; /* 3 bits: 1 */
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(irdma_cm_msg_parse(mad, sizeof(mad), &back), 0);
	T_EQ(back.req.local_qpn, 0xABCDEF);
	T_EQ(back.req.responder_resources, 0);
	T_EQ(back.req.starting_psn, 0x123456);
	T_EQ(back.req.local_cm_response_timeout, 0);
	T_EQ(back.req.retry_count, 1);

	/* REP, DREQ saturated. */
	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REP, 2);
	m.rep = (struct irdma_cm_rep){ 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFF, 0xFFFFFF,
		0xFFFFFF, 0xFF, 0xFF, 31, 3, 1, 7, 1, ~0ull, { 0 } };
	memset(m.rep.private_data, 0xEE, sizeof(m.rep.private_data));
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(irdma_cm_msg_parse(mad, sizeof(mad), &back), 0);
	T_MEMEQ(&back.rep, &m.rep, sizeof(m.rep));
	T_EQ(mad[24 + 15] | mad[24 + 19] | mad[24 + 23], 0); /* ECE vendor bytes */
	T_EQ(mad[24 + 27], 0xF0);
	memset(&m, 0, sizeof(m));
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_DREQ, 3);
	m.dreq.local_comm_id = 0x01020304;
	m.dreq.remote_comm_id = 0x05060708;
	m.dreq.remote_qpn = 0xFFFFFF;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), IRDMA_CM_MAD_LEN);
	T_EQ(mad[24 + 11], 0);
	T_EQ(irdma_cm_msg_parse(mad, sizeof(mad), &back), 0);
	T_MEMEQ(&back.dreq, &m.dreq, sizeof(m.dreq));
}

static void expect_reason(const uint8_t *base, size_t len, unsigned int off, uint8_t val, int reason)
{
	uint8_t mad[IRDMA_CM_MAD_LEN + 1];
	struct irdma_cm_msg m;
	int rc;

	memcpy(mad, base, IRDMA_CM_MAD_LEN);
	mad[IRDMA_CM_MAD_LEN] = 0;
	if (off < IRDMA_CM_MAD_LEN)
		mad[off] = val;
	rc = irdma_cm_msg_parse(mad, len, &m);
	T_CHECK_MSG(rc == -reason, "byte %u = 0x%02x, len %zu: got %d (%s), expected -%d (%s)",
		    off, val, len, rc, irdma_cm_reason_name(rc), reason, irdma_cm_reason_name(reason));
}

T_CASE(malformed_mads_refused_with_reason)
{
	const uint8_t *req, *rep, *rtu;
	uint8_t mra[IRDMA_CM_MAD_LEN], rej[IRDMA_CM_MAD_LEN];
	struct irdma_cm_msg m = { 0 };

	load();
	T_CHECK(nperf >= 3);
	if (nperf < 3)
		return;
	req = perf[0].mad;
	rep = perf[1].mad;
	rtu = perf[2].mad;
	expect_reason(req, 255, 999, 0, IRDMA_CM_R_LENGTH);
	expect_reason(req, 257, 999, 0, IRDMA_CM_R_LENGTH);
	expect_reason(req, 0, 999, 0, IRDMA_CM_R_LENGTH);
	expect_reason(req, 256, 0, 2, IRDMA_CM_R_BASE_VERSION);
	expect_reason(req, 256, 1, 0x04, IRDMA_CM_R_MGMT_CLASS);  /* subnet administration */
	expect_reason(req, 256, 1, 0x81, IRDMA_CM_R_MGMT_CLASS);
	expect_reason(req, 256, 2, 1, IRDMA_CM_R_CLASS_VERSION);
	expect_reason(req, 256, 2, 3, IRDMA_CM_R_CLASS_VERSION);
	expect_reason(req, 256, 3, 0x01, IRDMA_CM_R_METHOD);      /* Get */
	expect_reason(req, 256, 3, 0x83, IRDMA_CM_R_METHOD);      /* response bit */
	expect_reason(req, 256, 17, 0x19, IRDMA_CM_R_LAP_APR);
	expect_reason(req, 256, 17, 0x1A, IRDMA_CM_R_LAP_APR);
	expect_reason(req, 256, 17, 0x17, IRDMA_CM_R_SIDR);
	expect_reason(req, 256, 17, 0x18, IRDMA_CM_R_SIDR);
	expect_reason(req, 256, 17, 0x01, IRDMA_CM_R_ATTR);       /* ClassPortInfo */
	expect_reason(req, 256, 17, 0x0F, IRDMA_CM_R_ATTR);
	expect_reason(req, 256, 17, 0x1B, IRDMA_CM_R_ATTR);
	expect_reason(req, 256, 16, 0x01, IRDMA_CM_R_ATTR);       /* 0x0110 */
	{
		uint8_t z[IRDMA_CM_MAD_LEN];

		memcpy(z, req, sizeof(z));
		memset(z + 24, 0, 4); /* REQ local comm ID 0 */
		expect_reason(z, 256, 999, 0, IRDMA_CM_R_COMM_ID);
		memcpy(z, rep, sizeof(z));
		memset(z + 24, 0, 4);
		expect_reason(z, 256, 999, 0, IRDMA_CM_R_COMM_ID);
	}
	/* RTU with comm IDs 0 is not malformed by itself (the state machine decides). */
	expect_reason(rtu, 256, 24, 0, IRDMA_CM_R_OK);

	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_MRA, 1);
	T_EQ(irdma_cm_msg_build(&m, mra, sizeof(mra)), IRDMA_CM_MAD_LEN);
	expect_reason(mra, 256, 32, 0x80, IRDMA_CM_R_OK);   /* MRAed "other" */
	expect_reason(mra, 256, 32, 0xC0, IRDMA_CM_R_FIELD); /* 3 is reserved */
	expect_reason(mra, 256, 32, 0x3F, IRDMA_CM_R_OK);   /* reserved bits ignored */
	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_REJ, 1);
	T_EQ(irdma_cm_msg_build(&m, rej, sizeof(rej)), IRDMA_CM_MAD_LEN);
	expect_reason(rej, 256, 32, 0xC0, IRDMA_CM_R_FIELD);
	expect_reason(rej, 256, 33, 72 << 1, IRDMA_CM_R_OK);
	expect_reason(rej, 256, 33, 73 << 1, IRDMA_CM_R_FIELD);

	/* Every reason has a distinct name. */
	for (int a = 1; a < IRDMA_CM_R_NUM; a++) {
		T_CHECK(strcmp(irdma_cm_reason_name(a), "unknown"));
		T_CHECK(!strcmp(irdma_cm_reason_name(a), irdma_cm_reason_name(-a)));
		for (int b = 1; b < a; b++)
			T_CHECK(strcmp(irdma_cm_reason_name(a), irdma_cm_reason_name(b)));
	}
	T_CHECK(!strcmp(irdma_cm_reason_name(IRDMA_CM_R_NUM), "unknown"));
}

T_CASE(build_errors_and_names)
{
	struct irdma_cm_msg m = { 0 };
	uint8_t mad[IRDMA_CM_MAD_LEN];

	irdma_cm_mad_hdr_init(&m.hdr, IRDMA_CM_ATTR_RTU, 1);
	T_EQ(irdma_cm_msg_build(&m, mad, IRDMA_CM_MAD_LEN - 1), -ENOSPC);
	m.hdr.attr_id = IRDMA_CM_ATTR_LAP;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), -EINVAL);
	m.hdr.attr_id = 0;
	T_EQ(irdma_cm_msg_build(&m, mad, sizeof(mad)), -EINVAL);
	T_CHECK(!strcmp(irdma_cm_attr_name(IRDMA_CM_ATTR_REQ), "REQ"));
	T_CHECK(!strcmp(irdma_cm_attr_name(IRDMA_CM_ATTR_DREP), "DREP"));
	T_CHECK(!strcmp(irdma_cm_attr_name(IRDMA_CM_ATTR_LAP), "LAP"));
	T_CHECK(!strcmp(irdma_cm_attr_name(IRDMA_CM_ATTR_SIDR_REP), "SIDR_REP"));
	T_CHECK(!strcmp(irdma_cm_attr_name(0x1B), "unknown"));
	T_CHECK(!strcmp(irdma_cm_attr_name(0), "unknown"));
}

int main(int argc, char **argv)
{
	return t_main(argc, argv);
}
