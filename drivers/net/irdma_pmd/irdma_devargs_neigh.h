/* SPDX-License-Identifier: BSD-3-Clause */
/* Devarg neigh=<ip>@<mac>[;<ip>@<mac>...]: static neighbours of the device's wire. */
#ifndef IRDMA_DEVARGS_NEIGH_H
#define IRDMA_DEVARGS_NEIGH_H

/* rte_kvargs handler; @p opaque is the struct irdma_hw_dev_config to fill. */
int irdma_devargs_neigh(const char *key, const char *value, void *opaque);

#endif /* IRDMA_DEVARGS_NEIGH_H */
