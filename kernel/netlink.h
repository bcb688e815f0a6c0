/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink family "SMC_GEN_NETLINK" (netlink.c): system info,
 * devices, link groups and links, statistics, the EID tables and the
 * handshake limitation flag (net.smc.limit_smc_hs, kept by sysctl.c).
 * The family is registered last at module init and unregistered first at
 * exit, so its handlers call every layer below directly: nl_lgr.c for the
 * link groups, ueid.c, stats.c and sysctl.c for what they own.
 */
#ifndef SMCX_NETLINK_H
#define SMCX_NETLINK_H

#include <linux/types.h>

#include "uapi.h"

struct net;
struct sk_buff;
struct netlink_callback;
struct smcx_ibdev;

/*
 * Start one message of a dump of this family (NLM_F_MULTI, the request's
 * port and sequence); NULL when @skb is full.  End it with genlmsg_end(),
 * or genlmsg_cancel() on failure.
 */
void *smcx_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
		       u8 cmd);

/*
 * nl_lgr.c: the link-group dumps (mainline's nesting), resume position in
 * cb->args[]; GET_LINK_SMCR sends per link group an SMC_GEN_LGR_SMCR
 * message followed by its SMC_GEN_LINK_SMCR messages.  A device is
 * critical when a link group depends on it alone (SMC_NLA_DEV_IS_CRIT).
 */
int smcx_nl_dump_lgr(struct sk_buff *skb, struct netlink_callback *cb);
int smcx_nl_dump_link(struct sk_buff *skb, struct netlink_callback *cb);
bool smcx_nl_dev_critical(struct smcx_ibdev *dev);
/*
 * SMC-D over the loopback device (lo.h): GET_LGR_SMCD, the caller's
 * namespace's SMC-D groups; GET_DEV_SMCD, the device while it is present
 * (module parameter smcr=1), which SYS_INFO reports as ISM v2.
 */
int smcx_nl_dump_lgr_d(struct sk_buff *skb, struct netlink_callback *cb);
int smcx_nl_dump_dev_d(struct sk_buff *skb, struct netlink_callback *cb);
bool smcx_nl_lo_present(void);

int smcx_nl_init(void);
void smcx_nl_exit(void);

#endif /* SMCX_NETLINK_H */
