/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RDMA devices as smcx sees them (ib.c).
 *
 * An ib_client tracks every RDMA channel adapter and its ports (at most
 * SMCX_IB_MAX_PORTS, like SMC: a link group never spans more than two ports
 * of one device).  Each device gets one struct smcx_ibdev.
 *
 * Lifetime of struct smcx_ibdev
 *   - created by the client's add callback with one reference, the
 *     "registration" reference owned by the device list;
 *   - anyone else takes references only through this file (a lookup, or
 *     smcx_ibdev_get() on a device already held) and drops them with
 *     smcx_ibdev_put(); those are counted ("ibdev_refs") so a leak shows;
 *   - when ib_core removes the device, the remove callback unlists it (no
 *     new lookups find it), stops its port events, announces
 *     SMCX_IB_EV_REMOVE to the notifier chain (the link layer must then tear
 *     down every link on the device and drop its references), drops the
 *     registration reference and *waits* until the last reference is gone.
 *     Only then does ib_core free the ib_device, so a held smcx_ibdev always
 *     has a valid ->ibdev.  A copy of that pointer is only as good as the
 *     reference behind it: a link's copy (lnk->ibdev) is used in the link's
 *     completion handlers and in smcx_link_enter() sections only (the
 *     netlink dump of links too, under smcx_lgrs_mutex), which all end
 *     before link clear lets the device go (link.h).
 *
 * Locking: the device list is under a mutex (process context only); port
 * state is read live from ib_core's cache; the notifier chain is blocking
 * and called without the list mutex held.  Lock order: device list mutex
 * -> pnet table lock.
 */
#ifndef SMCX_IB_H
#define SMCX_IB_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/if_ether.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "uapi.h"

#define SMCX_IB_MAX_PORTS	2

struct in6_addr;

struct smcx_ibport {
	u32 num;			/* 1-based port number */
	bool roce;			/* Ethernet link layer: has a RoCE GID table */
	u32 gid_tbl_len;		/* immutable size of the GID table */
	enum ib_port_state state;	/* last state announced to the chain */
	atomic_t links;			/* links the link layer runs on it */
};

struct smcx_ibdev {
	struct list_head list;		/* smcx_ib_devices, under the list mutex */
	struct ib_device *ibdev;	/* valid as long as we are referenced */
	struct kref ref;
	struct completion released;	/* completed by the last put */
	struct ib_event_handler evh;	/* ib_core's async events */
	struct work_struct port_work;	/* handles events in process context */
	unsigned long state_pending;	/* bit p-1: port p changed state */
	unsigned long gid_pending;	/* bit p-1: port p's GID table changed */
	unsigned int nports;
	struct smcx_ibport port[SMCX_IB_MAX_PORTS];
	atomic_t links;			/* all links on the device */
	bool removing;			/* unlisted, waiting for its users */
					/* (set once, before SMCX_IB_EV_REMOVE) */
};

/* references (see the lifetime notes above) */
struct smcx_ibdev *smcx_ibdev_get(struct smcx_ibdev *d);
void smcx_ibdev_put(struct smcx_ibdev *d);

/* the n-th listed device (0-based), referenced, or NULL past the end */
struct smcx_ibdev *smcx_ibdev_nth(unsigned int n);

const char *smcx_ibdev_name(const struct smcx_ibdev *d);
/* live port state from ib_core's cache: true when IB_PORT_ACTIVE */
bool smcx_ibport_active(struct smcx_ibdev *d, u32 port);
/* ACTIVE, and its netdev running with a carrier: what it sends can leave */
bool smcx_ibport_sending(struct smcx_ibdev *d, u32 port);
/* ifindex of the port's netdev (ib_device_get_netdev), 0 when none */
int smcx_ibport_ifindex(struct smcx_ibdev *d, u32 port);

/*
 * Route choice for one connection: which RoCE device port carries traffic
 * for the CLC socket's egress netdev.
 *
 * A port qualifies when it is ACTIVE, its device is not going away, its
 * GID table holds a GID of the requested RoCE version whose netdev is
 * @ndev itself (so VLAN devices match their own GIDs), and for v2 the GID
 * is the IPv4-mapped form of @saddr (any IPv4-mapped GID when @saddr is 0);
 * smcx_ib_choose_gid() takes the GID itself instead (a native IPv6 address
 * for a native IPv6 connection; NULL: any IPv4-mapped one).
 * No configuration is needed.  The pnet table only narrows the choice: when
 * @ndev has a PNET ID, only ports with the same PNET ID qualify.  @skip
 * (may be NULL) excludes one device, for finding an alternate link.
 *
 * Returns 0 and fills @out (holding a device reference) or -ENODEV.
 * Process context; takes the device list mutex.
 */
enum smcx_roce_ver {
	SMCX_ROCE_V1,		/* IB_GID_TYPE_ROCE: SMC-Rv1 */
	SMCX_ROCE_V2,		/* IB_GID_TYPE_ROCE_UDP_ENCAP: SMC-Rv2 */
};

struct smcx_ib_choice {
	struct smcx_ibdev *dev;		/* referenced: smcx_ib_choice_release() */
	u32 port;
	u32 gid_index;			/* sgid_index for the QP's address vector */
	enum ib_gid_type gid_type;
	union ib_gid gid;
	u8 mac[ETH_ALEN];		/* @ndev's address (SMC-Rv1 CLC field) */
	char pnetid[SMCX_PNETID_LEN + 1]; /* @ndev's PNET ID, "" when none */
};

int smcx_ib_choose(struct net_device *ndev, __be32 saddr,
		   enum smcx_roce_ver ver, const struct smcx_ibdev *skip,
		   struct smcx_ib_choice *out);
int smcx_ib_choose_gid(struct net_device *ndev, const struct in6_addr *gid,
		       enum smcx_roce_ver ver, const struct smcx_ibdev *skip,
		       struct smcx_ib_choice *out);
void smcx_ib_choice_release(struct smcx_ib_choice *c);

/*
 * Link accounting for the link layer: a link on (@d, @port) holds one
 * device reference from link_add to link_del and is counted per port
 * (netlink SMC_NLA_DEV_PORT_LNK_CNT).
 */
void smcx_ibdev_link_add(struct smcx_ibdev *d, u32 port);
void smcx_ibdev_link_del(struct smcx_ibdev *d, u32 port);

/*
 * Device events, on a blocking notifier chain; the data is a
 * struct smcx_ib_event.  Callbacks run in process context without the
 * device list mutex.  A subscriber registered after devices appeared gets
 * no ADD for them (walk smcx_ibdev_nth() instead).
 */
enum smcx_ib_event_type {
	SMCX_IB_EV_ADD = 1,	/* listed and usable */
	SMCX_IB_EV_REMOVE,	/* going away: drop every reference now */
	SMCX_IB_EV_PORT_ACTIVE,	/* port became ACTIVE */
	SMCX_IB_EV_PORT_DOWN,	/* port left ACTIVE (or device fatal) */
	SMCX_IB_EV_GID_CHANGE,	/* the port's GID table changed */
};

struct smcx_ib_event {
	struct smcx_ibdev *dev;
	u32 port;		/* 0 for ADD/REMOVE */
};

int smcx_ib_notifier_register(struct notifier_block *nb);
void smcx_ib_notifier_unregister(struct notifier_block *nb);

/* object counts: listed devices, and references held beyond the list's */
long smcx_ib_count(void);
long smcx_ib_user_refs(void);

int smcx_ib_init(void);
void smcx_ib_exit(void);
/* debugfs "devices" and "route": between smcx_pnet_init() and _exit() */
void smcx_ib_debugfs_init(void);
void smcx_ib_debugfs_exit(void);

#endif /* SMCX_IB_H */
