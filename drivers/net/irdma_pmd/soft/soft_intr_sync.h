/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SOFT_INTR_SYNC_H
#define SOFT_INTR_SYNC_H

/*
 * Wait until the EAL interrupt thread has finished the callback it is running now, if any,
 * and has gone back to waiting once more (so that the wait list it rebuilds after a
 * callback unregistered itself is rebuilt), by waking a callback of ours on that thread
 * twice in turn: the thread runs its callbacks one at a time. At most timeout_ms in all.
 * Returns 0, -ETIMEDOUT, or a negative errno when our callback cannot be set up.
 * Not from the interrupt thread itself (it would wait for itself).
 */
int soft_intr_thread_sync(unsigned int timeout_ms);

#endif
