/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink family "SMCX" (nl_smcx.c, include/uapi/linux/smcx.h):
 * the flight recorder, the scope rules and the peer cache.  Registered
 * after "SMC_GEN_NETLINK" and unregistered before it.
 */
#ifndef SMCX_NL_SMCX_H
#define SMCX_NL_SMCX_H

#include <linux/types.h>

struct sk_buff;
struct netlink_callback;

/* one message of a dump of this family; as smcx_nl_dump_hdr() */
void *smcx_nlx_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			u8 cmd);

int smcx_nlx_init(void);
void smcx_nlx_exit(void);

#endif /* SMCX_NL_SMCX_H */
