/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink family "SMC_GEN_NETLINK" (netlink.c): system info,
 * devices, link groups and links, statistics, the EID tables and the
 * handshake limitation flag (net.smc.limit_smc_hs, kept by sysctl.c).
 * The op table is complete from the start; what another layer owns is
 * reached through a hook or a handler in that layer's file (ueid.c,
 * stats.c, sysctl.c, and the link-group layer below).
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
 * Hook for the link-group layer.  Until ops are set GET_LGR_SMCR and
 * GET_LINK_SMCR answer empty dumps and devices are never "critical".
 *   dump_lgr:     fill SMC_GEN_LGR_SMCR messages (mainline nesting), keep
 *                 the resume position in cb->args[], return skb->len.
 *   dump_link:    the same for SMC_NETLINK_GET_LINK_SMCR: per link group a
 *                 SMC_GEN_LGR_SMCR message followed by its SMC_GEN_LINK_SMCR
 *                 messages.
 *   dev_critical: true when a link group depends on @dev alone (single
 *                 or asymmetric-local), for SMC_NLA_DEV_IS_CRIT.
 * Any member may be NULL.  smcx_nl_lgr_ops_set(NULL) (the layer's exit)
 * waits for callbacks already running; the ops must stay valid until then.
 */
struct smcx_nl_lgr_ops {
	int (*dump_lgr)(struct sk_buff *skb, struct netlink_callback *cb);
	int (*dump_link)(struct sk_buff *skb, struct netlink_callback *cb);
	bool (*dev_critical)(const struct smcx_ibdev *dev);
};

void smcx_nl_lgr_ops_set(const struct smcx_nl_lgr_ops *ops);

/* the CLC host name: the host's name at load, blank padded, no NUL */
void smcx_hostname(u8 out[SMC_MAX_HOSTNAME_LEN]);

int smcx_nl_init(void);
void smcx_nl_exit(void);

#endif /* SMCX_NETLINK_H */
