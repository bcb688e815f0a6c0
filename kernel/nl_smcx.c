// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "SMCX" (include/uapi/linux/smcx.h): smcx's own
 * objects beside mainline's ABI, each per network namespace.  The state
 * lives below (hsrec.c, peers.c, policy.c); here are only the messages.
 *
 * Who may do what.  Every change needs CAP_NET_ADMIN in the user namespace
 * that owns the network namespace (GENL_UNS_ADMIN_PERM): a container's
 * root governs its own namespace and nothing else.  The flight recorder
 * shows other users' connections (addresses, ports, task names), so a
 * caller without that capability gets only the records of its own uid.
 * The rules and the peer cache are readable by anyone, as the routing
 * table is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "hsrec.h"
#include "nl_policy.h"
#include "nl_smcx.h"
#include "peers.h"
#include "uapi.h"

static struct genl_family smcx_x_family;

void *smcx_nlx_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &smcx_x_family, NLM_F_MULTI, cmd);
}

/* -- the flight recorder ----------------------------------------------------- */

static int smcx_nlx_put_msg(struct sk_buff *skb, const struct smcx_hsrec_msg *m)
{
	struct nlattr *nest = nla_nest_start(skb, SMCX_HS_A_MSG);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMCX_HS_MSG_A_TYPE, m->type) ||
	    nla_put_u8(skb, SMCX_HS_MSG_A_OUT, m->out) ||
	    nla_put_u16(skb, SMCX_HS_MSG_A_LEN, m->len) ||
	    nla_put_u8(skb, SMCX_HS_MSG_A_VERSION, m->version) ||
	    nla_put_u8(skb, SMCX_HS_MSG_A_PATH, m->path) ||
	    nla_put_u8(skb, SMCX_HS_MSG_A_PATH2, m->path2) ||
	    nla_put_u8(skb, SMCX_HS_MSG_A_FIRST, m->first) ||
	    nla_put_u32(skb, SMCX_HS_MSG_A_USEC, m->usec) ||
	    (m->diag && nla_put_u32(skb, SMCX_HS_MSG_A_DIAG, m->diag))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int smcx_nlx_put_eid(struct sk_buff *skb, int type, const u8 *eid)
{
	char s[SMCX_EID_LEN + 1];
	int n = SMCX_EID_LEN;

	/* EIDs are blank-padded on the wire */
	while (n && (eid[n - 1] == ' ' || !eid[n - 1]))
		n--;
	if (!n)
		return 0;
	memcpy(s, eid, n);
	s[n] = '\0';
	return nla_put_string(skb, type, s);
}

static int smcx_nlx_put_conn(struct sk_buff *skb, const struct smcx_hsrec *r)
{
	if (r->dev[0] && nla_put_string(skb, SMCX_HS_A_DEV, r->dev))
		return -EMSGSIZE;
	if (r->result != SMCX_HS_SMCR && r->result != SMCX_HS_SMCD)
		return 0;
	if (nla_put_u8(skb, SMCX_HS_A_IBPORT, r->ibport) ||
	    nla_put(skb, SMCX_HS_A_GID, SMCX_GID_LEN, r->gid) ||
	    nla_put(skb, SMCX_HS_A_PEER_GID, SMCX_GID_LEN, r->peer_gid) ||
	    nla_put_u8(skb, SMCX_HS_A_FIRST, r->first) ||
	    nla_put_u32(skb, SMCX_HS_A_LGR_ID, r->lgr_id) ||
	    nla_put_u8(skb, SMCX_HS_A_VERSION, r->version) ||
	    nla_put_u8(skb, SMCX_HS_A_RELEASE, r->release) ||
	    nla_put_u8(skb, SMCX_HS_A_MAX_CONNS, r->max_conns) ||
	    nla_put_u8(skb, SMCX_HS_A_MAX_LINKS, r->max_links) ||
	    nla_put_u8(skb, SMCX_HS_A_WWI, r->wwi) ||
	    smcx_nlx_put_eid(skb, SMCX_HS_A_EID, r->eid))
		return -EMSGSIZE;
	return 0;
}

static int smcx_nlx_put_hs(struct sk_buff *skb, const struct smcx_hsrec *r,
			   struct user_namespace *uns)
{
	struct nlattr *nest = nla_nest_start(skb, SMCX_A_HS);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, SMCX_HS_A_SEQ, r->seq, SMCX_HS_A_PAD) ||
	    nla_put_u64_64bit(skb, SMCX_HS_A_TIME, r->time_ns,
			      SMCX_HS_A_PAD) ||
	    nla_put_u32(skb, SMCX_HS_A_USEC, r->usec) ||
	    nla_put_u8(skb, SMCX_HS_A_ROLE, r->role) ||
	    nla_put_u8(skb, SMCX_HS_A_RESULT, r->result) ||
	    nla_put_u32(skb, SMCX_HS_A_REASON, r->reason) ||
	    nla_put_u32(skb, SMCX_HS_A_PEER_REASON, r->peer_reason) ||
	    nla_put_u32(skb, SMCX_HS_A_ERRNO, r->err) ||
	    nla_put_u8(skb, SMCX_HS_A_FAMILY, r->family) ||
	    nla_put(skb, SMCX_HS_A_LADDR, 16, r->laddr) ||
	    nla_put(skb, SMCX_HS_A_PADDR, 16, r->paddr) ||
	    nla_put_u16(skb, SMCX_HS_A_LPORT, r->lport) ||
	    nla_put_u16(skb, SMCX_HS_A_PPORT, r->pport) ||
	    nla_put_u32(skb, SMCX_HS_A_UID, from_kuid_munged(uns, r->uid)) ||
	    nla_put_string(skb, SMCX_HS_A_COMM, r->comm) ||
	    nla_put_u32(skb, SMCX_HS_A_NETNS, r->netns) ||
	    nla_put_u8(skb, SMCX_HS_A_SYN_SENT, r->syn_sent) ||
	    nla_put_u8(skb, SMCX_HS_A_SYN_SEEN, r->syn_seen) ||
	    nla_put_u8(skb, SMCX_HS_A_OFFER, r->offer) ||
	    nla_put_u32(skb, SMCX_HS_A_POLICY_ID, r->policy_id) ||
	    nla_put_u8(skb, SMCX_HS_A_MSGS_LOST, r->lost))
		goto cancel;
	for (i = 0; i < r->nmsgs; i++)
		if (smcx_nlx_put_msg(skb, &r->msgs[i]))
			goto cancel;
	for (i = 0; i < r->neids; i++)
		if (smcx_nlx_put_eid(skb, SMCX_HS_A_PEER_EID, r->eids[i]))
			goto cancel;
	if (smcx_nlx_put_conn(skb, r))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * cb->args[0]: the last sequence number sent; [1]: 1 for a caller that
 * sees every record, 2 for one that sees its own uid's (decided at the
 * first call, from the requesting socket's opener).
 */
static int smcx_nlx_hs_get(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sock *nlsk = NETLINK_CB(cb->skb).sk;
	struct net *net = sock_net(skb->sk);
	struct user_namespace *uns = sk_user_ns(nlsk);
	struct smcx_hsrec *r;
	kuid_t me = sk_uid(nlsk);
	void *hdr;

	if (!cb->args[1])
		cb->args[1] = netlink_net_capable(cb->skb, CAP_NET_ADMIN) ?
			      1 : 2;
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	while (!smcx_hsrec_get(net, cb->args[0], r)) {
		if (cb->args[1] == 2 && !uid_eq(r->uid, me)) {
			cb->args[0] = r->seq;
			continue;
		}
		hdr = smcx_nlx_dump_hdr(skb, cb, SMCX_CMD_HS_GET);
		if (!hdr)
			break;
		if (smcx_nlx_put_hs(skb, r, uns)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = r->seq;
	}
	kfree(r);
	return skb->len;
}

static int smcx_nlx_hs_flush(struct sk_buff *skb, struct genl_info *info)
{
	smcx_hsrec_flush(genl_info_net(info));
	return 0;
}

/* -- the peer cache ---------------------------------------------------------- */

static int smcx_nlx_put_peer(struct sk_buff *skb, const struct smcx_peer_info *p)
{
	struct nlattr *nest = nla_nest_start(skb, SMCX_A_PEER);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMCX_PEER_A_FAMILY, p->family) ||
	    nla_put(skb, SMCX_PEER_A_ADDR, 16, p->addr) ||
	    nla_put_u16(skb, SMCX_PEER_A_PORT, p->port) ||
	    nla_put_u8(skb, SMCX_PEER_A_WHY, p->why) ||
	    nla_put_u32(skb, SMCX_PEER_A_REASON, p->reason) ||
	    nla_put_u32(skb, SMCX_PEER_A_FAILS, p->fails) ||
	    nla_put_u8(skb, SMCX_PEER_A_CACHED, p->cached) ||
	    nla_put_u32(skb, SMCX_PEER_A_EXPIRES_MS, p->expires_ms) ||
	    nla_put_u64_64bit(skb, SMCX_PEER_A_HITS, p->hits,
			      SMCX_PEER_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* cb->args[0]: entries sent */
static int smcx_nlx_peer_get(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct smcx_peer_info p;
	void *hdr;

	while (!smcx_peer_get(net, cb->args[0], &p)) {
		hdr = smcx_nlx_dump_hdr(skb, cb, SMCX_CMD_PEER_GET);
		if (!hdr)
			break;
		if (smcx_nlx_put_peer(skb, &p)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0]++;
	}
	return skb->len;
}

static const struct nla_policy smcx_nlx_peer_policy[SMCX_PEER_A_MAX + 1] = {
	[SMCX_PEER_A_FAMILY]	= NLA_POLICY_RANGE(NLA_U8, AF_INET, AF_INET6),
	[SMCX_PEER_A_ADDR]	= NLA_POLICY_EXACT_LEN(16),
	[SMCX_PEER_A_PORT]	= { .type = NLA_U16 },
};

static const struct nla_policy smcx_nlx_policy[SMCX_A_MAX + 1] = {
	[SMCX_A_PEER]	= NLA_POLICY_NESTED(smcx_nlx_peer_policy),
};

static int smcx_nlx_peer_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[SMCX_PEER_A_MAX + 1];
	int rc;

	if (!info->attrs[SMCX_A_PEER]) {
		NL_SET_ERR_MSG(info->extack, "SMCX_A_PEER is required");
		return -EINVAL;
	}
	rc = nla_parse_nested(tb, SMCX_PEER_A_MAX, info->attrs[SMCX_A_PEER],
			      smcx_nlx_peer_policy, info->extack);
	if (rc)
		return rc;
	if (!tb[SMCX_PEER_A_FAMILY] || !tb[SMCX_PEER_A_ADDR] ||
	    !tb[SMCX_PEER_A_PORT]) {
		NL_SET_ERR_MSG(info->extack, "family, address and port are required");
		return -EINVAL;
	}
	rc = smcx_peer_del(genl_info_net(info),
			   nla_get_u8(tb[SMCX_PEER_A_FAMILY]),
			   nla_data(tb[SMCX_PEER_A_ADDR]),
			   nla_get_u16(tb[SMCX_PEER_A_PORT]));
	if (rc)
		NL_SET_ERR_MSG(info->extack, "no such peer in the cache");
	return rc;
}

static int smcx_nlx_peer_flush(struct sk_buff *skb, struct genl_info *info)
{
	smcx_peer_flush(genl_info_net(info));
	return 0;
}

/* -- the family -------------------------------------------------------------- */

static const struct genl_ops smcx_x_ops[] = {
	{ .cmd = SMCX_CMD_HS_GET,	.dumpit = smcx_nlx_hs_get },
	{
		.cmd = SMCX_CMD_HS_FLUSH,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = smcx_nlx_hs_flush,
	},
	{ .cmd = SMCX_CMD_POLICY_GET,	.dumpit = smcx_nlx_policy_get },
	{
		.cmd = SMCX_CMD_POLICY_ADD,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = smcx_nlx_policy_add,
		.policy = smcx_nlx_policy_attrs,
		.maxattr = SMCX_A_MAX,
	},
	{
		.cmd = SMCX_CMD_POLICY_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = smcx_nlx_policy_del,
		.policy = smcx_nlx_policy_attrs,
		.maxattr = SMCX_A_MAX,
	},
	{
		.cmd = SMCX_CMD_POLICY_FLUSH,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = smcx_nlx_policy_flush,
	},
	{ .cmd = SMCX_CMD_PEER_GET,	.dumpit = smcx_nlx_peer_get },
	{
		.cmd = SMCX_CMD_PEER_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = smcx_nlx_peer_del,
		.policy = smcx_nlx_policy,
		.maxattr = SMCX_A_MAX,
	},
	{
		.cmd = SMCX_CMD_PEER_FLUSH,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = smcx_nlx_peer_flush,
	},
};

static struct genl_family smcx_x_family __ro_after_init = {
	.name = SMCX_GENL_NAME,
	.version = SMCX_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,		/* all state has its own locks */
	.module = THIS_MODULE,
	.ops = smcx_x_ops,
	.n_ops = ARRAY_SIZE(smcx_x_ops),
};

int smcx_nlx_init(void)
{
	return genl_register_family(&smcx_x_family);
}

void smcx_nlx_exit(void)
{
	genl_unregister_family(&smcx_x_family);
}
