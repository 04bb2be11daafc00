/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Output capture for tests that run a tool's code in-process: while a capture is on,
 * stdout and stderr (the process's descriptors 1 and 2, so what EAL and the PMD log too)
 * go to an unlinked temporary file, and the TAP stream stays clean; stopping puts the
 * descriptors back and leaves what was written, NUL-terminated, in the capture's text.
 * One capture at a time (the descriptors are the process's).
 */
#ifndef TEST_CAPTURE_H
#define TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct t_capture {
	int saved_out, saved_err, fd;
	char text[65536]; /* what the run wrote, cut to fit */
};

static inline void t_capture_start(struct t_capture *c)
{
	char tmpl[] = "/tmp/irdma_test_captureXXXXXX";

	fflush(stdout);
	fflush(stderr);
	c->fd = mkstemp(tmpl);
	unlink(tmpl);
	c->saved_out = dup(1);
	c->saved_err = dup(2);
	dup2(c->fd, 1);
	dup2(c->fd, 2);
}

static inline const char *t_capture_stop(struct t_capture *c)
{
	ssize_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved_out, 1);
	dup2(c->saved_err, 2);
	close(c->saved_out);
	close(c->saved_err);
	lseek(c->fd, 0, SEEK_SET);
	n = read(c->fd, c->text, sizeof(c->text) - 1);
	c->text[n > 0 ? n : 0] = '\0';
	close(c->fd);
	return c->text;
}

/* How often @p needle occurs in @p hay (overlapping occurrences count). */
static inline unsigned int t_count(const char *hay, const char *needle)
{
	unsigned int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay++;
	}
	return n;
}

#endif /* TEST_CAPTURE_H */
