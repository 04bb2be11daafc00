/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A barrier with the EAL interrupt thread (soft_intr_sync.h). Ports whose drivers handle
 * their peer on that thread (net_memif) must not be closed while such a handler runs.
 *
 * Why two wake-ups: the thread takes a batch of ready descriptors from epoll and runs their
 * callbacks in turn; a callback that unregisters itself (memif's, when its peer has gone)
 * makes the thread rebuild its wait list, walking every source still registered, at the
 * next wait. The first wake-up can run in the same batch as that handler's, before the
 * rebuild; the second is sent after the first ran, so it can only come in a later batch,
 * after the rebuild. The rebuild reads the sources' handles, and net_memif 22.11 leaves its
 * listener's registered, in DPDK memory: it must not run while rte_eal_cleanup() unmaps it.
 *
 * Our own source is an eventfd, registered once per process and never unregistered: an
 * unregistration is itself a rebuild, and one in rte_eal_cleanup() (as the EAL's alarm
 * source has, once an alarm was set) races with the unmapping. Its handle is private (libc
 * memory), so it outlives rte_eal_cleanup() harmlessly.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_interrupts.h>

#include "soft_intr_sync.h"

static pthread_mutex_t sync_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rte_intr_handle *sync_handle; /* set once, under sync_lock */
static int sync_fd = -1;
static uint64_t sync_runs; /* callbacks run; written by the interrupt thread */

static void intr_sync_cb(void *arg)
{
	uint64_t n;
	ssize_t r;

	RTE_SET_USED(arg);
	r = read(sync_fd, &n, sizeof(n)); /* an EXT source is ours to clear */
	RTE_SET_USED(r);
	__atomic_fetch_add(&sync_runs, 1, __ATOMIC_RELEASE);
}

static int intr_sync_setup(void)
{
	int fd, rc;

	if (sync_handle != NULL)
		return 0;
	fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	sync_handle = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (sync_handle == NULL) {
		close(fd);
		return -ENOMEM;
	}
	sync_fd = fd;
	rc = rte_intr_fd_set(sync_handle, fd);
	if (rc == 0)
		rc = rte_intr_type_set(sync_handle, RTE_INTR_HANDLE_EXT);
	if (rc == 0)
		rc = rte_intr_callback_register(sync_handle, intr_sync_cb, NULL);
	if (rc != 0) {
		rte_intr_instance_free(sync_handle);
		sync_handle = NULL;
		close(fd);
		sync_fd = -1;
		return rc < 0 ? rc : -EINVAL;
	}
	return 0;
}

/* one wake-up through the interrupt thread; *waited_ms counts against timeout_ms */
static int intr_sync_round(unsigned int timeout_ms, unsigned int *waited_ms)
{
	uint64_t before = __atomic_load_n(&sync_runs, __ATOMIC_ACQUIRE), one = 1;

	if (write(sync_fd, &one, sizeof(one)) != sizeof(one))
		return -errno;
	for (; *waited_ms < timeout_ms; (*waited_ms)++) {
		if (__atomic_load_n(&sync_runs, __ATOMIC_ACQUIRE) != before)
			return 0;
		rte_delay_us_sleep(1000);
	}
	return -ETIMEDOUT;
}

int soft_intr_thread_sync(unsigned int timeout_ms)
{
	unsigned int waited_ms = 0;
	int rc;

	pthread_mutex_lock(&sync_lock);
	rc = intr_sync_setup();
	if (rc == 0)
		rc = intr_sync_round(timeout_ms, &waited_ms);
	if (rc == 0)
		rc = intr_sync_round(timeout_ms, &waited_ms);
	pthread_mutex_unlock(&sync_lock);
	return rc;
}
