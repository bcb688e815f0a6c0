/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PNET table (pnet.c): generic netlink family "SMC_PNETID".
 *
 * A PNET ID names a physical network.  An entry binds one to an Ethernet
 * interface of the namespace or (initial namespace only) to an RDMA device
 * port.  The table is optional: smcx chooses RoCE ports from the GID table
 * without it (ib.c); with it, a netdev that has a PNET ID only uses ports
 * with the same PNET ID.
 *
 * Entries follow their devices: an interface entry is bound to the netdev
 * (by ifindex) while it exists and is dropped when that netdev unregisters
 * (or leaves the namespace); an RDMA entry is dropped when its device is
 * removed.  An entry may name a device that does not exist yet (as mainline
 * accepts it); it binds when the device appears.
 *
 * Only CAP_NET_ADMIN in the initial user namespace changes a table (as
 * mainline); each table holds at most SMCX_PNET_MAX entries.
 */
#ifndef SMCX_PNET_H
#define SMCX_PNET_H

#include <linux/types.h>

#include "uapi.h"

struct net_device;
struct ib_device;

/*
 * Entries per network namespace's table (RDMA entries count in the initial
 * namespace's): far more than a host has interfaces to give a PNET ID, few
 * enough that a table's walk under the RTNL stays short.  Mainline has no
 * limit; an ADD beyond it is ENOSPC.
 */
#define SMCX_PNET_MAX		256

/*
 * PNET ID of @ndev from its namespace's table: 0 with @pnetid filled
 * (SMCX_PNETID_LEN characters at most, NUL terminated), else -ENOENT.
 */
int smcx_pnet_ndev_pnetid(const struct net_device *ndev,
			  char pnetid[SMCX_PNETID_LEN + 1]);
/* PNET ID of RDMA port (@ibdev, @port) from the initial namespace's table */
int smcx_pnet_ib_pnetid(const struct ib_device *ibdev, u32 port,
			char pnetid[SMCX_PNETID_LEN + 1]);

/* entries in all tables (object count) */
long smcx_pnet_count(void);

int smcx_pnet_init(void);
void smcx_pnet_exit(void);

#endif /* SMCX_PNET_H */
