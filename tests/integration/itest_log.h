/* SPDX-License-Identifier: BSD-3-Clause */
/* Capture what the PMD logs during a call, to check that a failure says why. */
#ifndef ITEST_LOG_H
#define ITEST_LOG_H

#include <stdio.h>
#include <string.h>

#include <rte_log.h>

static FILE *itest_log_file;
static char itest_log_buf[8192];

static inline void
itest_log_begin(void)
{
	itest_log_file = tmpfile();
	if (itest_log_file != NULL)
		rte_openlog_stream(itest_log_file);
}

/* Stops capturing; returns what was logged (also echoed as TAP comments). */
static inline const char *
itest_log_end(void)
{
	size_t n = 0;

	itest_log_buf[0] = '\0';
	if (itest_log_file == NULL)
		return itest_log_buf;
	fflush(itest_log_file);
	rewind(itest_log_file);
	n = fread(itest_log_buf, 1, sizeof(itest_log_buf) - 1, itest_log_file);
	itest_log_buf[n] = '\0';
	rte_openlog_stream(NULL);
	fclose(itest_log_file);
	itest_log_file = NULL;
	return itest_log_buf;
}

#define T_LOGGED(text)                                                                     \
	T_CHECK_MSG(strstr(itest_log_buf, (text)) != NULL, "log lacks \"%s\"; it was: %s",   \
		    (text), itest_log_buf)

#endif /* ITEST_LOG_H */
