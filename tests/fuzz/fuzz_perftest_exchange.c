/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the perftest-compatible TCP exchange of irdma-perf
 * (app/common/perftest_exchange.c) against a peer that sends arbitrary bytes. The first
 * byte picks the role and the script; the rest is what the peer sends. The field decoders
 * run on the same bytes, and a decoded dest must encode back to the bytes it came from
 * (lower-case hex is the only form the encoder writes, so only such inputs are compared).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_exchange_io.h"
#include "perftest_exchange.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void decoders(const uint8_t *data, size_t size)
{
	struct perftest_dest d;
	char again[PERFTEST_DEST_LEN];
	size_t i;

	(void)perftest_version_decode(data, size < PERFTEST_VERSION_LEN ? size : PERFTEST_VERSION_LEN);
	(void)perftest_mtu_decode(data, size < PERFTEST_MTU_LEN ? size : PERFTEST_MTU_LEN);
	if (size < PERFTEST_DEST_LEN || perftest_dest_decode(data, PERFTEST_DEST_LEN, &d) != 0)
		return;
	if (perftest_dest_encode(&d, again) != PERFTEST_DEST_LEN)
		abort(); /* a dest the decoder accepted must encode */
	for (i = 0; i < PERFTEST_DEST_LEN; i++)
		if (isupper(data[i]))
			return;
	if (memcmp(again, data, PERFTEST_DEST_LEN) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct perftest_script *const scripts[3] = {
		&perftest_script_write_lat, &perftest_script_lat, &perftest_script_bw,
	};
	struct perftest_dest mine = { 0, 16, 0x123, 0x456, 0x789, 0x7f0000001000ull, { 0 }, 0 };
	const struct perftest_script *s;
	struct perftest_dest theirs;
	struct perftest_conn c;
	uint64_t v;
	int fd, far, rc, i;

	if (size < 1 || size > 65536)
		return 0;
	decoders(data + 1, size - 1);
	s = scripts[(data[0] >> 1) % 3];
	fd = fuzz_peer_fd(data + 1, size - 1, &far);
	rc = perftest_conn_start(&c, fd, (data[0] & 1) ? OOB_SERVER : OOB_CLIENT, 50, 3);
	for (i = 0; rc == 0 && i < s->dest_before + s->dest_after; i++)
		rc = perftest_conn_dest(&c, &mine, &theirs);
	for (i = 0; rc == 0 && i < s->results; i++)
		rc = perftest_conn_u64(&c, (uint64_t)i, &v);
	for (i = 0; rc == 0 && i < s->dest_final; i++)
		rc = perftest_conn_dest(&c, &mine, &theirs);
	if (rc == 0 && s->done)
		rc = perftest_conn_done(&c);
	if (rc != 0 && c.failed_step == NULL)
		abort(); /* every failure names its step */
	close(fd);
	close(far);
	return 0;
}
