// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "SMC_GEN_NETLINK" (see netlink.h).
 *
 * Every reply nests its payload the way the mainline ABI does, one object
 * per message, so existing tools parse it unchanged.  Reads are open to
 * anyone; every command that changes state needs CAP_NET_ADMIN in the
 * initial user namespace (GENL_ADMIN_PERM), exactly the ops mainline marks
 * so: the user EID table and the system EID, which every namespace of the
 * host uses, and the handshake limitation flag, which is per namespace but
 * mainline's command still refuses a user namespace's root (EPERM; that
 * root may write its namespace's net.smc.limit_smc_hs, as with mainline).
 *
 * Input is validated strictly by the core (the family is "new": unknown
 * attributes, attributes on commands that take none and a non-zero
 * reserved header field are all EINVAL); the handlers add extack messages
 * for what the policy cannot say.
 *
 * Also here: the per-namespace handshake limitation flag, the CLC host
 * name, and the debugfs file "config" with the control-plane object counts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include <smcx/wire.h>

#include "ib.h"
#include "netlink.h"
#include "obj.h"
#include "pnet.h"
#include "stats.h"
#include "sysctl.h"
#include "ueid.h"

static struct genl_family smcx_gen_family;

static u8 smcx_host[SMC_MAX_HOSTNAME_LEN];

static struct dentry *smcx_nl_dbg;

void *smcx_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
		       u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &smcx_gen_family, NLM_F_MULTI, cmd);
}

/* -- GET_SYS_INFO ----------------------------------------------------------- */

static int smcx_nl_sys_info(struct sk_buff *skb, struct netlink_callback *cb)
{
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	struct nlattr *nest;
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_SYS_INFO);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_SYS_INFO);
	if (!nest)
		goto cancel;
	memcpy(host, smcx_host, SMC_MAX_HOSTNAME_LEN);
	host[SMC_MAX_HOSTNAME_LEN] = '\0';
	/*
	 * Highest version and release spoken; ISM v2 while the loopback
	 * device is there, as mainline's loopback-ism sets it.  No system
	 * EID: it exists on s390 only (mainline sends an empty one).
	 */
	if (nla_put_u8(skb, SMC_NLA_SYS_VER, SMCX_CLC_V2) ||
	    nla_put_u8(skb, SMC_NLA_SYS_REL, SMCX_RELEASE_1) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_ISM_V2, smcx_nl_lo_present()) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_SMCR_V2, 1) ||
	    nla_put_string(skb, SMC_NLA_SYS_LOCAL_HOST, host))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* -- GET_DEV_SMCR ----------------------------------------------------------- */

static int smcx_nl_fill_port(struct sk_buff *skb, struct smcx_ibdev *d,
			     unsigned int i)
{
	struct smcx_ibport *p = &d->port[i];
	char pnetid[SMCX_PNETID_LEN + 1];
	struct nlattr *nest;
	bool user;

	nest = nla_nest_start(skb, SMC_NLA_DEV_PORT + i);
	if (!nest)
		return -EMSGSIZE;
	/* every PNET ID of an RDMA port comes from the (user's) table here */
	user = !smcx_pnet_ib_pnetid(d->ibdev, p->num, pnetid);
	if (nla_put_u8(skb, SMC_NLA_DEV_PORT_PNET_USR, user) ||
	    nla_put_string(skb, SMC_NLA_DEV_PORT_PNETID, pnetid) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PORT_NETDEV,
			smcx_ibport_ifindex(d, p->num)) ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_VALID, p->roce) ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_STATE,
		       smcx_ibport_active(d, p->num)) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PORT_LNK_CNT, atomic_read(&p->links))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int smcx_nl_fill_pci(struct sk_buff *skb, struct smcx_ibdev *d)
{
	struct device *parent = d->ibdev->dev.parent;
	struct pci_dev *pdev;

	/* soft devices (rxe) have no PCI function: leave the fields out */
	if (!parent || !dev_is_pci(parent))
		return 0;
	pdev = to_pci_dev(parent);
	/* function and channel ids exist on s390 only */
	if (nla_put_u32(skb, SMC_NLA_DEV_PCI_FID, 0) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_CHID, 0) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_VENDOR, pdev->vendor) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_DEVICE, pdev->device) ||
	    nla_put_string(skb, SMC_NLA_DEV_PCI_ID, pci_name(pdev)))
		return -EMSGSIZE;
	return 0;
}

static int smcx_nl_fill_dev(struct sk_buff *skb, struct netlink_callback *cb,
			    struct smcx_ibdev *d)
{
	struct nlattr *nest;
	unsigned int i;
	void *hdr;

	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_DEV_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_DEV_SMCR);
	if (!nest)
		goto cancel;
	if (nla_put_u8(skb, SMC_NLA_DEV_IS_CRIT, smcx_nl_dev_critical(d)) ||
	    smcx_nl_fill_pci(skb, d) ||
	    nla_put_string(skb, SMC_NLA_DEV_IB_NAME, smcx_ibdev_name(d)))
		goto cancel;
	for (i = 0; i < d->nports; i++)
		if (smcx_nl_fill_port(skb, d, i))
			goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int smcx_nl_dev_smcr(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smcx_ibdev *d;
	int rc = 0;

	/* devices are referenced one at a time; the cursor is an index */
	while ((d = smcx_ibdev_nth(cb->args[0]))) {
		rc = smcx_nl_fill_dev(skb, cb, d);
		smcx_ibdev_put(d);
		if (rc)
			break;
		cb->args[0]++;
	}
	/* a device too big for an empty skb would loop forever: report it */
	if (rc && !skb->len)
		return rc;
	return skb->len;
}

/* -- GET_STATS ---------------------------------------------------------------- */

/* a size histogram, SMC_NLA_STATS_PLOAD_* */
static int smcx_nl_put_hist(struct sk_buff *skb, int type, const u64 *h)
{
	struct nlattr *nest = nla_nest_start(skb, type);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < SMCX_STATS_BUCKETS; i++)
		if (nla_put_u64_64bit(skb, SMC_NLA_STATS_PLOAD_8K + i,
				      h[i], SMC_NLA_STATS_PLOAD_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* one direction's buffer events, SMC_NLA_STATS_RMB_* */
static int smcx_nl_put_bufev(struct sk_buff *skb, int type,
			     const struct smcx_stats_buf *b)
{
	const struct {
		int attr;
		u64 val;
	} v[] = {
		{ SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT, b->size_small_peer },
		{ SMC_NLA_STATS_RMB_SIZE_SM_CNT, b->size_small },
		{ SMC_NLA_STATS_RMB_FULL_PEER_CNT, b->full_peer },
		{ SMC_NLA_STATS_RMB_FULL_CNT, b->full },
		{ SMC_NLA_STATS_RMB_REUSE_CNT, b->reuse },
		{ SMC_NLA_STATS_RMB_ALLOC_CNT, b->alloc },
		{ SMC_NLA_STATS_RMB_DGRADE_CNT, b->dgrade },
	};
	struct nlattr *nest = nla_nest_start(skb, type);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (nla_put_u64_64bit(skb, v[i].attr, v[i].val,
				      SMC_NLA_STATS_RMB_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* one technology's counters (stats.h: its block), in mainline's nesting */
static int smcx_nl_put_tech(struct sk_buff *skb, int type,
			    const struct smcx_stats *s)
{
	const struct {
		int attr;
		u64 val;
	} v[] = {
		{ SMC_NLA_STATS_T_CLNT_V1_SUCC, s->success_v1[SMCX_CLNT] },
		{ SMC_NLA_STATS_T_CLNT_V2_SUCC, s->success_v2[SMCX_CLNT] },
		{ SMC_NLA_STATS_T_SRV_V1_SUCC, s->success_v1[SMCX_SRV] },
		{ SMC_NLA_STATS_T_SRV_V2_SUCC, s->success_v2[SMCX_SRV] },
		{ SMC_NLA_STATS_T_SENDPAGE_CNT, 0 },	/* no sendpage in 6.12 */
		{ SMC_NLA_STATS_T_SPLICE_CNT, s->splice_cnt },
		{ SMC_NLA_STATS_T_CORK_CNT, s->cork_cnt },
		{ SMC_NLA_STATS_T_NDLY_CNT, s->ndly_cnt },
		{ SMC_NLA_STATS_T_URG_DATA_CNT, s->urg_data_cnt },
		{ SMC_NLA_STATS_T_RX_BYTES, s->rx_bytes },
		{ SMC_NLA_STATS_T_TX_BYTES, s->tx_bytes },
		{ SMC_NLA_STATS_T_RX_CNT, s->rx_cnt },
		{ SMC_NLA_STATS_T_TX_CNT, s->tx_cnt },
	};
	struct nlattr *nest = nla_nest_start(skb, type);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	if (smcx_nl_put_bufev(skb, SMC_NLA_STATS_T_TX_RMB_STATS,
			      &s->buf[SMCX_TX]) ||
	    smcx_nl_put_bufev(skb, SMC_NLA_STATS_T_RX_RMB_STATS,
			      &s->buf[SMCX_RX]) ||
	    smcx_nl_put_hist(skb, SMC_NLA_STATS_T_TXPLOAD_SIZE,
			     s->pload[SMCX_TX]) ||
	    smcx_nl_put_hist(skb, SMC_NLA_STATS_T_RXPLOAD_SIZE,
			     s->pload[SMCX_RX]) ||
	    smcx_nl_put_hist(skb, SMC_NLA_STATS_T_TX_RMB_SIZE,
			     s->bufsize[SMCX_TX]) ||
	    smcx_nl_put_hist(skb, SMC_NLA_STATS_T_RX_RMB_SIZE,
			     s->bufsize[SMCX_RX]))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (nla_put_u64_64bit(skb, v[i].attr, v[i].val,
				      SMC_NLA_STATS_T_PAD))
			return -EMSGSIZE;
	if (nla_put_uint(skb, SMC_NLA_STATS_T_RX_RMB_USAGE,
			 s->buf_usage[SMCX_RX]) ||
	    nla_put_uint(skb, SMC_NLA_STATS_T_TX_RMB_USAGE,
			 s->buf_usage[SMCX_TX]))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * SMC_NLA_STATS_SMCD_TECH and _SMCR_TECH from the namespace's two blocks;
 * the handshake errors, which mainline counts once per namespace, are the
 * SMC-R block's (stats.h: every counter that takes only a namespace).
 */
static int smcx_nl_stats(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smcx_stats *s, *d;
	struct nlattr *nest;
	void *hdr;
	int rc = -EMSGSIZE;

	if (cb->args[0])
		return 0;
	s = kcalloc(SMCX_TECHS, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	d = &s[SMCX_TECH_D];
	smcx_stats_fold_tech(sock_net(skb->sk), SMCX_TECH_R, s);
	smcx_stats_fold_tech(sock_net(skb->sk), SMCX_TECH_D, d);
	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_STATS);
	if (!hdr)
		goto out;
	nest = nla_nest_start(skb, SMC_GEN_STATS);
	if (!nest ||
	    smcx_nl_put_tech(skb, SMC_NLA_STATS_SMCD_TECH, d) ||
	    smcx_nl_put_tech(skb, SMC_NLA_STATS_SMCR_TECH, s) ||
	    nla_put_u64_64bit(skb, SMC_NLA_STATS_CLNT_HS_ERR_CNT,
			      s->hs_errors[SMCX_CLNT], SMC_NLA_STATS_PAD) ||
	    nla_put_u64_64bit(skb, SMC_NLA_STATS_SRV_HS_ERR_CNT,
			      s->hs_errors[SMCX_SRV], SMC_NLA_STATS_PAD)) {
		genlmsg_cancel(skb, hdr);
		goto out;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	rc = skb->len;
out:
	kfree(s);
	return rc;
}

/* -- GET_FBACK_STATS ------------------------------------------------------------ */

/*
 * Mainline's order: reason k of the server, then reason k of the client,
 * for k = 0, 1, ... until both sides have no k-th reason; the totals ride
 * in the first message only.  Reasons are those with a known code and a
 * non-zero count, in the order of the reason table.  The sequence is
 * rebuilt on every call; cb->args[0] is the position in it.
 */
struct smcx_fback {
	u32 code[SMCX_ROLES][SMCX_STATS_RSN_SLOTS];
	u64 cnt[SMCX_ROLES][SMCX_STATS_RSN_SLOTS];
	unsigned int n[SMCX_ROLES];
};

static int smcx_nl_fback_one(struct sk_buff *skb, struct netlink_callback *cb,
			     const struct smcx_stats *s,
			     const struct smcx_fback *f, int role,
			     unsigned int k, bool totals)
{
	struct nlattr *nest;
	void *hdr;

	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_FBACK_STATS);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_FBACK_STATS);
	if (!nest ||
	    nla_put_u8(skb, SMC_NLA_FBACK_STATS_TYPE, role == SMCX_SRV) ||
	    (totals &&
	     (nla_put_u64_64bit(skb, SMC_NLA_FBACK_STATS_SRV_CNT,
				s->fallback[SMCX_SRV], SMC_NLA_FBACK_STATS_PAD) ||
	      nla_put_u64_64bit(skb, SMC_NLA_FBACK_STATS_CLNT_CNT,
				s->fallback[SMCX_CLNT],
				SMC_NLA_FBACK_STATS_PAD))) ||
	    nla_put_u32(skb, SMC_NLA_FBACK_STATS_RSN_CODE, f->code[role][k]) ||
	    nla_put_u16(skb, SMC_NLA_FBACK_STATS_RSN_CNT,
			min_t(u64, f->cnt[role][k], U16_MAX))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
}

static int smcx_nl_fback(struct sk_buff *skb, struct netlink_callback *cb)
{
	static const int order[SMCX_ROLES] = { SMCX_SRV, SMCX_CLNT };
	struct smcx_stats *s;
	struct smcx_fback *f;
	unsigned int i, k, r, pos = 0;
	int rc = 0;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!s || !f) {
		rc = -ENOMEM;
		goto out;
	}
	smcx_stats_fold(sock_net(skb->sk), s);
	for (r = 0; r < SMCX_ROLES; r++) {
		for (i = 0; i < SMCX_STATS_RSN_SLOTS; i++) {
			u32 code = smcx_stats_rsn_code(i);

			if (!code || !s->fallback_rsn[r][i])
				continue;
			f->code[r][f->n[r]] = code;
			f->cnt[r][f->n[r]++] = s->fallback_rsn[r][i];
		}
	}
	for (k = 0; k < SMCX_STATS_RSN_SLOTS; k++) {
		for (i = 0; i < SMCX_ROLES; i++) {
			r = order[i];
			if (k >= f->n[r])
				continue;
			if (pos++ < cb->args[0])
				continue;
			if (smcx_nl_fback_one(skb, cb, s, f, r, k, pos == 1))
				goto done;
			cb->args[0] = pos;
		}
	}
done:
	rc = skb->len;
out:
	kfree(f);
	kfree(s);
	return rc;
}

/* -- DUMP_UEID: the user EID table, one entry per message ------------------ */

/* a snapshot of the table (ueid.c); cb->args[0]: entries sent so far */
static int smcx_nl_dump_ueid(struct sk_buff *skb, struct netlink_callback *cb)
{
	u8 eids[SMC_MAX_UEID][SMC_MAX_EID_LEN];
	char str[SMC_MAX_EID_LEN + 1];
	int n = smcx_ueid_get(eids);
	long i = cb->args[0];
	void *hdr;

	for (; i < n; i++) {
		hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_UEID);
		if (!hdr)
			break;
		memcpy(str, eids[i], SMC_MAX_EID_LEN);
		str[SMC_MAX_EID_LEN] = '\0';
		if (nla_put_string(skb, SMC_NLA_EID_TABLE_ENTRY, str)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
	return skb->len;
}

/*
 * -- SEID: a system EID exists on s390 only --------------------------------------
 * With ISM v2 (the loopback device) mainline's dump on other machines
 * carries an empty entry and enabled 0; smcx keeps the empty message, which
 * says the same to every reader, and refuses enable and disable as
 * mainline does off s390.
 */

static int smcx_nl_dump_seid(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;

	if (cb->args[0])
		return 0;
	/* an empty message says "no system EID" */
	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_SEID);
	if (!hdr)
		return -EMSGSIZE;
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

static int smcx_nl_seid_set(struct sk_buff *skb, struct genl_info *info)
{
	NL_SET_ERR_MSG(info->extack,
		       "no system EID: it exists only on s390");
	return -EOPNOTSUPP;
}

/* -- handshake limitation -------------------------------------------------------- */

/* the flag is net.smc.limit_smc_hs of the namespace, as mainline */

static int smcx_nl_dump_hs(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct smcx_sysctl *v = smcx_sysctl(sock_net(skb->sk));
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_HS_LIMITATION);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_HS_LIMITATION_ENABLED,
		       !!READ_ONCE(v->limit_smc_hs))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

static int smcx_nl_hs_set(struct sk_buff *skb, struct genl_info *info)
{
	smcx_sysctl_set_limit_smc_hs(genl_info_net(info),
				     info->genlhdr->cmd ==
				     SMC_NETLINK_ENABLE_HS_LIMITATION);
	return 0;
}

/* -- the family -------------------------------------------------------------------- */

static const struct genl_ops smcx_gen_ops[] = {
	/* reads: anyone */
	{ .cmd = SMC_NETLINK_GET_SYS_INFO,	.dumpit = smcx_nl_sys_info },
	{ .cmd = SMC_NETLINK_GET_LGR_SMCR,	.dumpit = smcx_nl_dump_lgr },
	{ .cmd = SMC_NETLINK_GET_LINK_SMCR,	.dumpit = smcx_nl_dump_link },
	{ .cmd = SMC_NETLINK_GET_LGR_SMCD,	.dumpit = smcx_nl_dump_lgr_d },
	{ .cmd = SMC_NETLINK_GET_DEV_SMCD,	.dumpit = smcx_nl_dump_dev_d },
	{ .cmd = SMC_NETLINK_GET_DEV_SMCR,	.dumpit = smcx_nl_dev_smcr },
	{ .cmd = SMC_NETLINK_GET_STATS,		.dumpit = smcx_nl_stats },
	{ .cmd = SMC_NETLINK_GET_FBACK_STATS,	.dumpit = smcx_nl_fback },
	{ .cmd = SMC_NETLINK_DUMP_UEID,		.dumpit = smcx_nl_dump_ueid },
	{ .cmd = SMC_NETLINK_DUMP_SEID,		.dumpit = smcx_nl_dump_seid },
	{ .cmd = SMC_NETLINK_DUMP_HS_LIMITATION, .dumpit = smcx_nl_dump_hs },
	/* changes: CAP_NET_ADMIN in the initial user namespace */
	{
		.cmd = SMC_NETLINK_ADD_UEID,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_ueid_nl_add,
		.policy = smcx_ueid_policy,
		.maxattr = SMC_NLA_EID_TABLE_MAX,
	},
	{
		.cmd = SMC_NETLINK_REMOVE_UEID,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_ueid_nl_remove,
		.policy = smcx_ueid_policy,
		.maxattr = SMC_NLA_EID_TABLE_MAX,
	},
	{
		.cmd = SMC_NETLINK_FLUSH_UEID,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_ueid_nl_flush,
	},
	{
		.cmd = SMC_NETLINK_ENABLE_SEID,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_nl_seid_set,
	},
	{
		.cmd = SMC_NETLINK_DISABLE_SEID,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_nl_seid_set,
	},
	/* the namespace's flag, but GENL_ADMIN_PERM as mainline */
	{
		.cmd = SMC_NETLINK_ENABLE_HS_LIMITATION,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_nl_hs_set,
	},
	{
		.cmd = SMC_NETLINK_DISABLE_HS_LIMITATION,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_nl_hs_set,
	},
};

static struct genl_family smcx_gen_family __ro_after_init = {
	.name = SMC_GENL_FAMILY_NAME,
	.version = SMC_GENL_FAMILY_VERSION,
	.netnsok = true,
	.parallel_ops = true,		/* all state has its own locks */
	.module = THIS_MODULE,
	.ops = smcx_gen_ops,
	.n_ops = ARRAY_SIZE(smcx_gen_ops),
};

/* -- debugfs: control-plane object counts ----------------------------------------- */

static int smcx_nl_config_show(struct seq_file *m, void *v)
{
	seq_printf(m, "ibdevs %ld\n", smcx_ib_count());
	seq_printf(m, "ibdev_refs %ld\n", smcx_ib_user_refs());
	seq_printf(m, "pnet_entries %ld\n", smcx_pnet_count());
	seq_printf(m, "ueids %d\n", smcx_ueid_count());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smcx_nl_config);

static void smcx_nl_debugfs_init(void)
{
	struct dentry *dir = smcx_debugfs_dir();

	if (!dir)
		return;
	smcx_nl_dbg = debugfs_create_file("config", 0444, dir, NULL,
					  &smcx_nl_config_fops);
	if (IS_ERR(smcx_nl_dbg))
		smcx_nl_dbg = NULL;
}

int smcx_nl_init(void)
{
	const char *name = init_utsname()->nodename;
	int rc;

	/*
	 * SYS_INFO's host name, read once at load.  The CLC messages read
	 * the host name at each first contact (clc.c, non-ASCII bytes made
	 * '?'), so after a rename the two differ until the next load.
	 */
	memset(smcx_host, ' ', sizeof(smcx_host));
	memcpy(smcx_host, name, min_t(size_t, strlen(name), sizeof(smcx_host)));

	rc = genl_register_family(&smcx_gen_family);
	if (rc)
		return rc;
	smcx_nl_debugfs_init();
	return 0;
}

void smcx_nl_exit(void)
{
	debugfs_remove(smcx_nl_dbg);
	smcx_nl_dbg = NULL;
	genl_unregister_family(&smcx_gen_family);
}
