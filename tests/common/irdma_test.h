/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The project's test harness: one header, no library.
 *
 * Each test binary registers cases with T_CASE() and calls t_main(). Output is TAP
 * (meson runs the binaries with protocol: 'tap'), so every case shows up on its own line
 * and a failed check prints the file, line and both values. Exit status: 0 when every
 * case passed, 1 when one failed; t_skip_all() prints the skip plan and exits 0.
 */
#ifndef IRDMA_TEST_H
#define IRDMA_TEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct t_case {
	const char *name;
	void (*fn)(void);
};

#define T_MAX_CASES 512

static struct t_case t_cases[T_MAX_CASES];
static unsigned int t_ncases;
static unsigned int t_case_failures; /* failed checks in the running case */
static unsigned long t_checks;       /* checks evaluated in the whole binary */
static const char *t_case_skip;      /* non-NULL when the running case skipped */

/* Registers a case before main() runs, in file order. */
#define T_CASE(fn_name)                                                                    \
	static void fn_name(void);                                                         \
	__attribute__((constructor)) static void t_register_##fn_name(void)                \
	{                                                                                  \
		if (t_ncases < T_MAX_CASES)                                                \
			t_cases[t_ncases++] = (struct t_case){ #fn_name, fn_name };        \
	}                                                                                  \
	static void fn_name(void)

static inline void t_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void t_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	t_case_failures++;
	printf("# FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define T_CHECK(cond)                                                                      \
	do {                                                                               \
		t_checks++;                                                                \
		if (!(cond))                                                               \
			t_fail_at(__FILE__, __LINE__, "%s", #cond);                        \
	} while (0)

#define T_CHECK_MSG(cond, ...)                                                             \
	do {                                                                               \
		t_checks++;                                                                \
		if (!(cond))                                                               \
			t_fail_at(__FILE__, __LINE__, __VA_ARGS__);                        \
	} while (0)

/* Integer equality with both values printed (signed and unsigned views). */
#define T_EQ(a, b)                                                                         \
	do {                                                                               \
		long long t_a_ = (long long)(a), t_b_ = (long long)(b);                    \
		t_checks++;                                                                \
		if (t_a_ != t_b_)                                                          \
			t_fail_at(__FILE__, __LINE__,                                      \
				  "%s == %s: got %lld (0x%llx), expected %lld (0x%llx)",   \
				  #a, #b, t_a_, (unsigned long long)t_a_, t_b_,            \
				  (unsigned long long)t_b_);                               \
	} while (0)

/* Byte equality; the first differing offset is printed. */
#define T_MEMEQ(got, exp, len)                                                             \
	do {                                                                               \
		const uint8_t *t_g_ = (const uint8_t *)(got);                              \
		const uint8_t *t_e_ = (const uint8_t *)(exp);                              \
		size_t t_n_ = (len), t_i_;                                                 \
		t_checks++;                                                                \
		for (t_i_ = 0; t_i_ < t_n_; t_i_++)                                        \
			if (t_g_[t_i_] != t_e_[t_i_])                                      \
				break;                                                     \
		if (t_i_ != t_n_)                                                          \
			t_fail_at(__FILE__, __LINE__,                                      \
				  "%s differs from %s at byte %zu of %zu: 0x%02x != 0x%02x",\
				  #got, #exp, t_i_, t_n_, t_g_[t_i_], t_e_[t_i_]);         \
	} while (0)

/* Skips the running case (reported as "ok N - name # SKIP reason"). */
#define T_SKIP(reason)                                                                     \
	do {                                                                               \
		t_case_skip = (reason);                                                    \
		return;                                                                    \
	} while (0)

/* Skips the whole binary: under protocol tap, meson counts the plan "1..0 # SKIP" with exit
 * status 0 as skipped (a non-zero status, 77 included, would be an error). */
static inline void t_skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	fflush(stdout);
	exit(0);
}

/* Runs every registered case, or only those whose name contains argv[1]. */
static inline int t_main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	unsigned int i, n = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < t_ncases; i++)
		if (!filter || strstr(t_cases[i].name, filter))
			n++;
	printf("1..%u\n", n);
	n = 0;
	for (i = 0; i < t_ncases; i++) {
		if (filter && !strstr(t_cases[i].name, filter))
			continue;
		t_case_failures = 0;
		t_case_skip = NULL;
		t_cases[i].fn();
		n++;
		if (t_case_failures) {
			failed++;
			printf("not ok %u - %s (%u failed checks)\n", n, t_cases[i].name,
			       t_case_failures);
		} else if (t_case_skip) {
			printf("ok %u - %s # SKIP %s\n", n, t_cases[i].name, t_case_skip);
		} else {
			printf("ok %u - %s\n", n, t_cases[i].name);
		}
	}
	printf("# %u cases, %u failed, %lu checks\n", n, failed, t_checks);
	return failed ? 1 : 0;
}

#endif /* IRDMA_TEST_H */
