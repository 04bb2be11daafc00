/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * soft_intr_thread_sync(), the barrier the memif server's close uses against net_memif's
 * peer-disconnect handler on the EAL interrupt thread: it returns only after a callback
 * running on that thread when it was called has returned (a slow callback of the test's own
 * stands for memif's handler), also for a callback that unregisters itself the way memif's
 * does, and again and again from one process (its own source is registered once).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_interrupts.h>

#include "soft_intr_sync.h"

#include "wire_harness.h"

struct slow_src {
	struct rte_intr_handle *h;
	int fd;
	bool self_unregister;
	int started, finished, unregistered;
};

static void slow_cb(void *arg)
{
	struct slow_src *s = arg;
	uint64_t n;
	ssize_t r;

	r = read(s->fd, &n, sizeof(n));
	RTE_SET_USED(r);
	__atomic_store_n(&s->started, 1, __ATOMIC_RELEASE);
	rte_delay_us_sleep(300 * 1000); /* long past any fixed pause a close might take */
	if (s->self_unregister &&
	    rte_intr_callback_unregister_pending(s->h, slow_cb, s, NULL) > 0)
		s->unregistered = 1;
	__atomic_store_n(&s->finished, 1, __ATOMIC_RELEASE);
}

static int slow_src_open(struct slow_src *s, bool self_unregister)
{
	memset(s, 0, sizeof(*s));
	s->self_unregister = self_unregister;
	s->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	s->h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (s->fd < 0 || s->h == NULL || rte_intr_fd_set(s->h, s->fd) != 0 ||
	    rte_intr_type_set(s->h, RTE_INTR_HANDLE_EXT) != 0)
		return -1;
	return rte_intr_callback_register(s->h, slow_cb, s);
}

/* wakes the slow callback and waits (up to 10 s) until it is running */
static int slow_src_fire(struct slow_src *s)
{
	uint64_t one = 1;
	int i;

	if (write(s->fd, &one, sizeof(one)) != sizeof(one))
		return -1;
	for (i = 0; i < 10000 && !__atomic_load_n(&s->started, __ATOMIC_ACQUIRE); i++)
		rte_delay_us_sleep(1000);
	return __atomic_load_n(&s->started, __ATOMIC_ACQUIRE) ? 0 : -1;
}

static void slow_src_close(struct slow_src *s)
{
	if (!s->unregistered)
		rte_intr_callback_unregister_sync(s->h, slow_cb, s);
	rte_intr_instance_free(s->h);
	close(s->fd);
}

T_CASE(sync_waits_for_the_running_callback)
{
	struct slow_src s;

	T_EQ(slow_src_open(&s, false), 0);
	T_EQ(slow_src_fire(&s), 0);
	T_EQ(__atomic_load_n(&s.finished, __ATOMIC_ACQUIRE), 0);
	T_EQ(soft_intr_thread_sync(10000), 0);
	T_EQ(__atomic_load_n(&s.finished, __ATOMIC_ACQUIRE), 1);
	slow_src_close(&s);
}

T_CASE(sync_waits_for_a_callback_that_unregisters_itself)
{
	struct slow_src s;

	T_EQ(slow_src_open(&s, true), 0);
	T_EQ(slow_src_fire(&s), 0);
	T_EQ(soft_intr_thread_sync(10000), 0);
	T_EQ(__atomic_load_n(&s.finished, __ATOMIC_ACQUIRE), 1);
	T_EQ(s.unregistered, 1);
	/* gone from the thread's list: unregistering it again finds nothing */
	T_EQ(rte_intr_callback_unregister(s.h, slow_cb, &s), -ENOENT);
	slow_src_close(&s);
}

T_CASE(sync_repeats_with_the_thread_idle)
{
	int i;

	for (i = 0; i < 100; i++)
		T_EQ(soft_intr_thread_sync(10000), 0);
}

int main(int argc, char **argv)
{
	wh_eal_init("wintrsync", "0", NULL);
	return t_main(argc, argv);
}
