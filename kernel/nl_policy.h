/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scope rules' messages of the generic netlink family "SMCX"
 * (nl_policy.c): the handlers nl_smcx.c puts in its op table.
 */
#ifndef SMCX_NL_POLICY_H
#define SMCX_NL_POLICY_H

#include <net/genetlink.h>

#include "uapi.h"

/* the top level of ADD and DEL: SMCX_A_POLICY, a nest of SMCX_POLICY_A_* */
extern const struct nla_policy smcx_nlx_policy_attrs[SMCX_A_MAX + 1];

int smcx_nlx_policy_get(struct sk_buff *skb, struct netlink_callback *cb);
int smcx_nlx_policy_add(struct sk_buff *skb, struct genl_info *info);
int smcx_nlx_policy_del(struct sk_buff *skb, struct genl_info *info);
int smcx_nlx_policy_flush(struct sk_buff *skb, struct genl_info *info);

#endif /* SMCX_NL_POLICY_H */
