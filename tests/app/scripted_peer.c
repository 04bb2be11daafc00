/* SPDX-License-Identifier: BSD-3-Clause */
/* A scripted TCP peer for the exchange tests (see scripted_peer.h). */
#include "scripted_peer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oob_sock.h"

#define SP_TIMEOUT_MS 5000

static void *sp_main(void *arg)
{
	struct scripted_peer *p = arg;
	unsigned int i;
	int fd, rc = 0;

	if (p->is_client) {
		int64_t end = oob_now_ms() + SP_TIMEOUT_MS;
		struct timespec ts = { 0, 20 * 1000000L };

		while ((fd = oob_connect("127.0.0.1", p->port, SP_TIMEOUT_MS)) == -ECONNREFUSED &&
		       oob_now_ms() < end)
			nanosleep(&ts, NULL);
	} else
		fd = oob_accept(p->listen_fd, SP_TIMEOUT_MS);
	if (fd < 0) {
		p->failed_step = 0;
		p->error = -fd;
		return NULL;
	}
	for (i = 0; i < p->nsteps; i++) {
		const struct sp_step *s = &p->steps[i];
		uint8_t *buf;

		switch (s->op) {
		case SP_WRITE:
			rc = oob_write_all(fd, s->bytes, s->len, SP_TIMEOUT_MS);
			break;
		case SP_EXPECT:
			buf = malloc(s->len);
			rc = buf ? oob_read_exact(fd, buf, s->len, SP_TIMEOUT_MS) : -ENOMEM;
			if (rc == 0 && memcmp(buf, s->bytes, s->len) != 0) {
				size_t k = 0;

				while (buf[k] == ((const uint8_t *)s->bytes)[k])
					k++;
				p->mismatch_at = k;
				rc = 1;
			}
			free(buf);
			break;
		case SP_READ:
			buf = malloc(s->len);
			rc = buf ? oob_read_exact(fd, buf, s->len, SP_TIMEOUT_MS) : -ENOMEM;
			free(buf);
			break;
		case SP_CLOSE:
			close(fd);
			fd = -1;
			break;
		case SP_SLEEP_MS: {
			struct timespec ts = { (time_t)(s->len / 1000),
					       (long)(s->len % 1000) * 1000000L };
			nanosleep(&ts, NULL);
			break;
		}
		}
		if (rc) {
			p->failed_step = (int)i;
			p->error = rc > 0 ? 0 : -rc;
			break;
		}
		if (fd < 0)
			break;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int sp_launch(struct scripted_peer *p, const struct sp_step *steps, unsigned int n)
{
	p->steps = steps;
	p->nsteps = n;
	p->failed_step = -1;
	p->error = 0;
	p->mismatch_at = 0;
	return -pthread_create(&p->thread, NULL, sp_main, p);
}

int sp_start_server(struct scripted_peer *p, const struct sp_step *steps, unsigned int n)
{
	int fd;

	memset(p, 0, sizeof(*p));
	fd = oob_listen(0);
	if (fd < 0)
		return fd;
	p->listen_fd = fd;
	p->port = (uint16_t)oob_bound_port(fd);
	return sp_launch(p, steps, n);
}

int sp_start_client(struct scripted_peer *p, uint16_t port, const struct sp_step *steps,
		    unsigned int n)
{
	memset(p, 0, sizeof(*p));
	p->is_client = 1;
	p->listen_fd = -1;
	p->port = port;
	return sp_launch(p, steps, n);
}

void sp_join(struct scripted_peer *p)
{
	pthread_join(p->thread, NULL);
	if (p->listen_fd >= 0)
		close(p->listen_fd);
}
