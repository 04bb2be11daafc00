/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the ibv_*_pingpong TCP exchange of irdma-pingpong
 * (app/common/pingpong_exchange.c) against a peer that sends arbitrary bytes: the client's
 * exchange, or the server's receive and reply (first byte); the rest is what the peer
 * sends. The decoder runs on the same bytes; a dest it accepts must encode back to them
 * (for inputs in the encoder's lower-case form).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_exchange_io.h"
#include "pingpong_exchange.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pingpong_dest mine = { 0, 0x123, 0x456, { 0xfe, 0x80, [15] = 1 } }, theirs, d;
	char again[PINGPONG_DEST_LEN];
	const char *step = NULL;
	int fd, far, rc;
	size_t i;

	if (size < 1 || size > 65536)
		return 0;
	if (size - 1 >= PINGPONG_DEST_LEN && pingpong_dest_decode(data + 1, PINGPONG_DEST_LEN, &d) == 0) {
		if (pingpong_dest_encode(&d, again) != PINGPONG_DEST_LEN)
			abort();
		for (i = 0; i < PINGPONG_DEST_LEN && !isupper(data[1 + i]); i++)
			;
		if (i == PINGPONG_DEST_LEN && memcmp(again, data + 1, PINGPONG_DEST_LEN) != 0)
			abort();
	}
	fd = fuzz_peer_fd(data + 1, size - 1, &far);
	if (data[0] & 1) {
		rc = pingpong_server_receive(fd, &theirs, 50, &step);
		if (rc == 0)
			rc = pingpong_server_reply(fd, &mine, 50, &step);
	} else {
		rc = pingpong_client_exchange(fd, &mine, &theirs, 50, &step);
	}
	if (rc != 0 && step == NULL)
		abort(); /* every failure names its step */
	close(fd);
	close(far);
	return 0;
}
