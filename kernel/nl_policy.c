// SPDX-License-Identifier: GPL-2.0
/*
 * The scope rules over generic netlink (include/uapi/linux/smcx.h): the
 * dump, ADD (append), DEL by id and FLUSH.  The rules themselves live in
 * policy.c; here a request is checked, attribute by attribute, so that a
 * bad one fails with a message that names what is wrong.  Who may call
 * what: nl_smcx.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "nl_policy.h"
#include "nl_smcx.h"
#include "policy.h"
#include "uapi.h"

static const struct nla_policy smcx_nlx_rule_policy[SMCX_POLICY_A_MAX + 1] = {
	[SMCX_POLICY_A_ID]		= { .type = NLA_U32 },
	[SMCX_POLICY_A_ACTION]		= { .type = NLA_U8 },
	[SMCX_POLICY_A_ROLE]		= { .type = NLA_U8 },
	[SMCX_POLICY_A_CGROUP]		= { .type = NLA_NUL_STRING },
	[SMCX_POLICY_A_COMM]		= { .type = NLA_NUL_STRING },
	[SMCX_POLICY_A_UID_MIN]		= { .type = NLA_U32 },
	[SMCX_POLICY_A_UID_MAX]		= { .type = NLA_U32 },
	[SMCX_POLICY_A_FAMILY]		= { .type = NLA_U8 },
	[SMCX_POLICY_A_ADDR]		= NLA_POLICY_EXACT_LEN(16),
	[SMCX_POLICY_A_PREFIX]		= { .type = NLA_U8 },
	[SMCX_POLICY_A_PORT_MIN]	= { .type = NLA_U16 },
	[SMCX_POLICY_A_PORT_MAX]	= { .type = NLA_U16 },
};

const struct nla_policy smcx_nlx_policy_attrs[SMCX_A_MAX + 1] = {
	[SMCX_A_POLICY]	= NLA_POLICY_NESTED(smcx_nlx_rule_policy),
};

static int smcx_nlx_put_rule(struct sk_buff *skb,
			     const struct smcx_policy_info *p)
{
	struct nlattr *nest = nla_nest_start(skb, SMCX_A_POLICY);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, SMCX_POLICY_A_ID, p->id) ||
	    nla_put_u8(skb, SMCX_POLICY_A_ACTION, p->action) ||
	    nla_put_u8(skb, SMCX_POLICY_A_ROLE, p->role) ||
	    nla_put_u64_64bit(skb, SMCX_POLICY_A_HITS, p->hits,
			      SMCX_POLICY_A_PAD))
		goto cancel;
	if ((p->match & SMCX_POLICY_M_CGROUP) &&
	    nla_put_string(skb, SMCX_POLICY_A_CGROUP, p->cgroup))
		goto cancel;
	if ((p->match & SMCX_POLICY_M_COMM) &&
	    nla_put_string(skb, SMCX_POLICY_A_COMM, p->comm))
		goto cancel;
	if ((p->match & SMCX_POLICY_M_UID) &&
	    (nla_put_u32(skb, SMCX_POLICY_A_UID_MIN, p->uid_min) ||
	     nla_put_u32(skb, SMCX_POLICY_A_UID_MAX, p->uid_max)))
		goto cancel;
	if ((p->match & SMCX_POLICY_M_ADDR) &&
	    (nla_put_u8(skb, SMCX_POLICY_A_FAMILY, p->family) ||
	     nla_put(skb, SMCX_POLICY_A_ADDR, 16, p->addr) ||
	     nla_put_u8(skb, SMCX_POLICY_A_PREFIX, p->prefix)))
		goto cancel;
	if ((p->match & SMCX_POLICY_M_PORT) &&
	    (nla_put_u16(skb, SMCX_POLICY_A_PORT_MIN, p->port_min) ||
	     nla_put_u16(skb, SMCX_POLICY_A_PORT_MAX, p->port_max)))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* cb->args[0]: the id of the last rule sent */
int smcx_nlx_policy_get(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct smcx_policy_info *p;
	void *hdr;

	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	while (!smcx_policy_get(net, cb->args[0], p)) {
		hdr = smcx_nlx_dump_hdr(skb, cb, SMCX_CMD_POLICY_GET);
		if (!hdr)
			break;
		if (smcx_nlx_put_rule(skb, p)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = p->id;
	}
	kfree(p);
	return skb->len;
}

/* an optional range [MIN, MAX]: one end alone is [it, it] (MIN) or [0, it] */
static int smcx_nlx_range(struct nlattr *lo, struct nlattr *hi, bool u16,
			  u32 *min, u32 *max, struct netlink_ext_ack *extack)
{
	u32 a = 0, b = 0;

	if (lo)
		a = u16 ? nla_get_u16(lo) : nla_get_u32(lo);
	if (hi)
		b = u16 ? nla_get_u16(hi) : nla_get_u32(hi);
	else
		b = a;
	if (a > b) {
		if (u16)
			NL_SET_ERR_MSG_ATTR(extack, lo,
					    "the lowest port is above the highest");
		else
			NL_SET_ERR_MSG_ATTR(extack, lo,
					    "the lowest uid is above the highest");
		return -EINVAL;
	}
	*min = a;
	*max = b;
	return 0;
}

static int smcx_nlx_rule_addr(struct nlattr **tb, struct smcx_policy_info *p,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *fa = tb[SMCX_POLICY_A_FAMILY];
	struct nlattr *pa = tb[SMCX_POLICY_A_PREFIX];
	struct in6_addr *a = (struct in6_addr *)p->addr;
	struct in6_addr net;

	if (!tb[SMCX_POLICY_A_ADDR]) {
		if (fa || pa) {
			NL_SET_ERR_MSG_ATTR(extack, fa ? : pa,
					    "a family or prefix needs an address");
			return -EINVAL;
		}
		return 0;
	}
	if (p->role == SMCX_POLICY_SERVER) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SMCX_POLICY_A_ADDR],
				    "a server rule has no destination address");
		return -EINVAL;
	}
	p->family = fa ? nla_get_u8(fa) : 0;
	if (p->family != AF_INET && p->family != AF_INET6) {
		NL_SET_ERR_MSG_ATTR(extack, fa,
				    "an address needs its family, AF_INET or AF_INET6");
		return -EINVAL;
	}
	memcpy(p->addr, nla_data(tb[SMCX_POLICY_A_ADDR]), 16);
	p->prefix = pa ? nla_get_u8(pa) : 128;
	if (p->prefix > 128) {
		NL_SET_ERR_MSG_ATTR(extack, pa, "the prefix is 0..128 bits");
		return -EINVAL;
	}
	if (p->family == AF_INET &&
	    (!ipv6_addr_v4mapped(a) || p->prefix < 96)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SMCX_POLICY_A_ADDR],
				    "an IPv4 address is v4-mapped, its prefix 96 + 0..32");
		return -EINVAL;
	}
	/* the network, as listed (ipv6_addr_prefix() clears its target first) */
	ipv6_addr_prefix(&net, a, p->prefix);
	*a = net;
	p->match |= SMCX_POLICY_M_ADDR;
	return 0;
}

static int smcx_nlx_rule_strings(struct nlattr **tb,
				 struct smcx_policy_info *p,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *c = tb[SMCX_POLICY_A_COMM];
	struct nlattr *g = tb[SMCX_POLICY_A_CGROUP];

	if (c) {
		if (nla_strscpy(p->comm, c, sizeof(p->comm)) <= 0) {
			NL_SET_ERR_MSG_ATTR(extack, c,
					    "a command name has 1..15 characters");
			return -EINVAL;
		}
		p->match |= SMCX_POLICY_M_COMM;
	}
	if (g) {
		if (nla_strscpy(p->cgroup, g, sizeof(p->cgroup)) <= 0) {
			NL_SET_ERR_MSG_ATTR(extack, g,
					    "a cgroup path has 1..4095 characters");
			return -EINVAL;
		}
		p->match |= SMCX_POLICY_M_CGROUP;
	}
	return 0;
}

static int smcx_nlx_rule_parse(struct nlattr **tb, struct smcx_policy_info *p,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *a = tb[SMCX_POLICY_A_ACTION];
	u32 min, max;
	int rc;

	p->action = a ? nla_get_u8(a) : 0;
	if (p->action != SMCX_POLICY_SMC && p->action != SMCX_POLICY_TCP) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "the action is SMCX_POLICY_SMC (1) or SMCX_POLICY_TCP (2)");
		return -EINVAL;
	}
	if (tb[SMCX_POLICY_A_ROLE])
		p->role = nla_get_u8(tb[SMCX_POLICY_A_ROLE]);
	if (p->role > SMCX_POLICY_SERVER) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SMCX_POLICY_A_ROLE],
				    "the role is ANY (0), CLIENT (1) or SERVER (2)");
		return -EINVAL;
	}
	rc = smcx_nlx_rule_strings(tb, p, extack);
	if (rc)
		return rc;
	if (tb[SMCX_POLICY_A_UID_MIN] || tb[SMCX_POLICY_A_UID_MAX]) {
		rc = smcx_nlx_range(tb[SMCX_POLICY_A_UID_MIN],
				    tb[SMCX_POLICY_A_UID_MAX], false,
				    &p->uid_min, &p->uid_max, extack);
		if (rc)
			return rc;
		p->match |= SMCX_POLICY_M_UID;
	}
	if (tb[SMCX_POLICY_A_PORT_MIN] || tb[SMCX_POLICY_A_PORT_MAX]) {
		rc = smcx_nlx_range(tb[SMCX_POLICY_A_PORT_MIN],
				    tb[SMCX_POLICY_A_PORT_MAX], true,
				    &min, &max, extack);
		if (rc)
			return rc;
		p->port_min = min;
		p->port_max = max;
		p->match |= SMCX_POLICY_M_PORT;
	}
	return smcx_nlx_rule_addr(tb, p, extack);
}

static int smcx_nlx_rule_attrs(struct genl_info *info, struct nlattr **tb)
{
	if (!info->attrs[SMCX_A_POLICY]) {
		NL_SET_ERR_MSG(info->extack, "SMCX_A_POLICY is required");
		return -EINVAL;
	}
	return nla_parse_nested(tb, SMCX_POLICY_A_MAX,
				info->attrs[SMCX_A_POLICY],
				smcx_nlx_rule_policy, info->extack);
}

int smcx_nlx_policy_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[SMCX_POLICY_A_MAX + 1];
	struct smcx_policy_info *p;
	int rc;

	rc = smcx_nlx_rule_attrs(info, tb);
	if (rc)
		return rc;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	rc = smcx_nlx_rule_parse(tb, p, info->extack);
	if (!rc)
		rc = smcx_policy_add(genl_info_net(info), p, info->extack);
	kfree(p);
	return rc;
}

int smcx_nlx_policy_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[SMCX_POLICY_A_MAX + 1];
	int rc;

	rc = smcx_nlx_rule_attrs(info, tb);
	if (rc)
		return rc;
	if (!tb[SMCX_POLICY_A_ID]) {
		NL_SET_ERR_MSG(info->extack, "SMCX_POLICY_A_ID is required");
		return -EINVAL;
	}
	rc = smcx_policy_del(genl_info_net(info),
			     nla_get_u32(tb[SMCX_POLICY_A_ID]));
	if (rc)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SMCX_POLICY_A_ID],
				    "no rule with this id");
	return rc;
}

int smcx_nlx_policy_flush(struct sk_buff *skb, struct genl_info *info)
{
	smcx_policy_flush(genl_info_net(info));
	return 0;
}
