// SPDX-License-Identifier: GPL-2.0
/*
 * The user EID table and its SMC_GEN_NETLINK commands (see ueid.h); the
 * table's dump is netlink.c's, from smcx_ueid_get().
 *
 * Wire and ABI facts:
 *   - an EID travels in CLC messages as 32 bytes, blank padded, no NUL;
 *   - over netlink it is a string attribute of exactly 33 bytes (the 32
 *     characters and a NUL); anything else is EINVAL, longer than that is
 *     refused by the policy (ERANGE);
 *   - valid: trailing blanks only, not all blank, first character A-Z or
 *     0-9, the others A-Z, 0-9, '.' or '-';
 *   - ADD: EINVAL invalid, EEXIST present, ERANGE when the table already
 *     holds SMC_MAX_UEID; REMOVE: ENOENT absent; FLUSH always succeeds.
 *     (Without a system EID there is no EAGAIN case: that is s390 only.)
 *
 * The table is a fixed array under a spinlock (taken with BHs off so any
 * context but hardirq may read it); nothing is allocated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/genetlink.h>

#include <smcx/names.h>

#include "ueid.h"

static char *ueid = SMCX_UEID_DEFAULT;
module_param(ueid, charp, 0444);
MODULE_PARM_DESC(ueid,
		 "user EID added at load like ADD_UEID (up to 32 of A-Z 0-9 . -, lower case is upper-cased; empty: none; default "
		 SMCX_UEID_DEFAULT ")");

static DEFINE_SPINLOCK(smcx_ueid_lock);
static u8 smcx_ueids[SMC_MAX_UEID][SMC_MAX_EID_LEN];	/* [0, n) used */
static int smcx_ueid_n;

/* the EID rules (smcx_ueid_valid(), smcx_ueid_normalize()): smcx/names.h */
static_assert(SMCX_NAME_EID_LEN == SMC_MAX_EID_LEN);

static int smcx_ueid_find(const u8 *eid)
{
	int i;

	for (i = 0; i < smcx_ueid_n; i++)
		if (!memcmp(smcx_ueids[i], eid, SMC_MAX_EID_LEN))
			return i;
	return -1;
}

static int smcx_ueid_add(const u8 *eid)
{
	int rc = 0;

	if (!smcx_ueid_valid(eid))
		return -EINVAL;
	spin_lock_bh(&smcx_ueid_lock);
	if (smcx_ueid_n >= SMC_MAX_UEID)
		rc = -ERANGE;
	else if (smcx_ueid_find(eid) >= 0)
		rc = -EEXIST;
	else
		memcpy(smcx_ueids[smcx_ueid_n++], eid, SMC_MAX_EID_LEN);
	spin_unlock_bh(&smcx_ueid_lock);
	return rc;
}

/* remove @eid, or everything when NULL; keeps the order of the rest */
static int smcx_ueid_remove(const u8 *eid)
{
	int i, rc = 0;

	spin_lock_bh(&smcx_ueid_lock);
	i = eid ? smcx_ueid_find(eid) : 0;
	if (!eid) {
		smcx_ueid_n = 0;
	} else if (i < 0) {
		rc = -ENOENT;
	} else {
		memmove(smcx_ueids[i], smcx_ueids[i + 1],
			(smcx_ueid_n - i - 1) * SMC_MAX_EID_LEN);
		smcx_ueid_n--;
	}
	spin_unlock_bh(&smcx_ueid_lock);
	return rc;
}

int smcx_ueid_get(u8 eids[SMC_MAX_UEID][SMC_MAX_EID_LEN])
{
	int n;

	spin_lock_bh(&smcx_ueid_lock);
	n = smcx_ueid_n;
	memcpy(eids, smcx_ueids, n * SMC_MAX_EID_LEN);
	spin_unlock_bh(&smcx_ueid_lock);
	return n;
}

bool smcx_ueid_has(const u8 *eid)
{
	bool found;

	spin_lock_bh(&smcx_ueid_lock);
	found = smcx_ueid_find(eid) >= 0;
	spin_unlock_bh(&smcx_ueid_lock);
	return found;
}

int smcx_ueid_count(void)
{
	return READ_ONCE(smcx_ueid_n);
}

/* -- netlink ----------------------------------------------------------------- */

const struct nla_policy smcx_ueid_policy[SMC_NLA_EID_TABLE_MAX + 1] = {
	/* NLA_STRING: a trailing NUL does not count against .len */
	[SMC_NLA_EID_TABLE_ENTRY] = { .type = NLA_STRING,
				      .len = SMC_MAX_EID_LEN },
};

/* the EID attribute of a request, or NULL with the error set */
static const u8 *smcx_ueid_attr(struct genl_info *info)
{
	struct nlattr *a = info->attrs[SMC_NLA_EID_TABLE_ENTRY];

	if (GENL_REQ_ATTR_CHECK(info, SMC_NLA_EID_TABLE_ENTRY)) {
		NL_SET_ERR_MSG(info->extack, "EID (SMC_NLA_EID_TABLE_ENTRY) missing");
		return NULL;
	}
	if (nla_len(a) != SMC_MAX_EID_LEN + 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "EID must be 32 characters, blank padded, plus NUL");
		return NULL;
	}
	return nla_data(a);
}

int smcx_ueid_nl_add(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smcx_ueid_attr(info);
	int rc;

	if (!eid)
		return -EINVAL;
	rc = smcx_ueid_add(eid);
	switch (rc) {
	case -EINVAL:
		NL_SET_ERR_MSG(info->extack,
			       "invalid EID: A-Z or 0-9 first, then A-Z 0-9 . -, blank padded");
		break;
	case -EEXIST:
		NL_SET_ERR_MSG(info->extack, "EID already in the table");
		break;
	case -ERANGE:
		NL_SET_ERR_MSG(info->extack, "user EID table is full");
		break;
	}
	return rc;
}

int smcx_ueid_nl_remove(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smcx_ueid_attr(info);
	int rc;

	if (!eid)
		return -EINVAL;
	rc = smcx_ueid_remove(eid);
	if (rc == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "EID not in the table");
	return rc;
}

int smcx_ueid_nl_flush(struct sk_buff *skb, struct genl_info *info)
{
	smcx_ueid_remove(NULL);
	return 0;
}

/* -- the load-time default --------------------------------------------------- */

int smcx_ueid_init(void)
{
	/* the parameter may be a string literal: read it, never modify it */
	const char *p = ueid ? skip_spaces(ueid) : "";
	size_t len = strlen(p);
	u8 eid[SMC_MAX_EID_LEN];
	int rc;

	while (len && isspace(p[len - 1]))
		len--;
	smcx_ueid_remove(NULL);
	if (!len)
		return 0;
	rc = smcx_ueid_normalize(p, len, eid, NULL);
	if (rc == -SMCX_NAME_ELONG) {
		pr_err("ueid=%s: longer than %d characters\n", p,
		       SMC_MAX_EID_LEN);
		return -EINVAL;
	}
	rc = rc ? -EINVAL : smcx_ueid_add(eid);
	if (rc) {
		pr_err("ueid=%s: not a valid EID (A-Z or 0-9 first, then A-Z 0-9 . -)\n",
		       p);
		return rc;
	}
	pr_info("user EID %.*s\n", (int)len, eid);
	return 0;
}

void smcx_ueid_exit(void)
{
	smcx_ueid_remove(NULL);
}
