/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user EID table (ueid.c).
 *
 * An EID (enterprise ID) is 32 characters, blank padded: SMC v2 peers only
 * talk when they share one.  The table is global (not per namespace) and
 * holds at most SMC_MAX_UEID entries, in the order they were added; that
 * order is the order a CLC proposal lists them in.
 *
 * The module parameter "ueid" (default SMCX_UEID_DEFAULT) is added at load
 * exactly like an ADD_UEID, so two smcx hosts share an EID with no
 * configuration.  It is an ordinary entry afterwards: REMOVE_UEID and
 * FLUSH_UEID remove it (mainline semantics); it comes back at the next load.
 * Load with ueid= (empty) for an empty table.
 */
#ifndef SMCX_UEID_H
#define SMCX_UEID_H

#include <linux/types.h>

#include "uapi.h"

#define SMCX_UEID_DEFAULT	"SMCX-DEFAULT-UEID"

struct sk_buff;
struct genl_info;
struct nla_policy;

/* copy the table into @eids (table order); returns the number of entries */
int smcx_ueid_get(u8 eids[SMC_MAX_UEID][SMC_MAX_EID_LEN]);
/* is @eid (32 bytes, blank padded) in the table? */
bool smcx_ueid_has(const u8 *eid);
/* entries in the table */
int smcx_ueid_count(void);

/* SMC_GEN_NETLINK handlers (the op table is in netlink.c) */
extern const struct nla_policy smcx_ueid_policy[SMC_NLA_EID_TABLE_MAX + 1];
int smcx_ueid_nl_add(struct sk_buff *skb, struct genl_info *info);
int smcx_ueid_nl_remove(struct sk_buff *skb, struct genl_info *info);
int smcx_ueid_nl_flush(struct sk_buff *skb, struct genl_info *info);

int smcx_ueid_init(void);
void smcx_ueid_exit(void);

#endif /* SMCX_UEID_H */
