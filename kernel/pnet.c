// SPDX-License-Identifier: GPL-2.0
/*
 * The PNET table, per network namespace, and its generic netlink family
 * "SMC_PNETID" (see pnet.h for what entries mean).
 *
 * Behaviour kept identical to the mainline ABI, because tools depend on it:
 *   - PNET IDs are 1..16 letters or digits; leading and trailing blanks are
 *     ignored; they are stored upper case.  Anything else is EINVAL.
 *   - ADD with ETHNAME and/or IBNAME (+IBPORT, default 1, must be 1 or 2):
 *     EEXIST when nothing new was added (the interface or RDMA device name
 *     already has an entry, whatever its PNET ID).  Outside the initial
 *     namespace IBNAME is ignored, so an RDMA-only ADD there is EEXIST.
 *   - DEL removes every entry of the PNET ID, ENOENT when none matched.
 *     The name is compared as given (tools upper-case it first).
 *   - FLUSH always succeeds.  GET as a dump lists the table; GET as a
 *     request with NAME answers a multi-part reply of that PNET ID.
 *   - Replies carry NAME, ETHNAME ("n/a" for RDMA entries), IBNAME ("n/a"
 *     for interface entries) and IBPORT (0xff for interface entries).
 *   - ADD, DEL and FLUSH need CAP_NET_ADMIN in the initial user namespace
 *     (GENL_ADMIN_PERM), in every network namespace: a user namespace's
 *     root gets EPERM, also for its own namespace's table.  GET is open.
 * Differences, on purpose: entries are dropped with their device (mainline
 * keeps interface entries as dangling names); empty device names are
 * refused; an invalid IBPORT is refused before anything is added; a table
 * holds at most SMCX_PNET_MAX entries (mainline: no limit), an ADD beyond
 * that is ENOSPC; entries are charged to the adding task's memory cgroup.
 *
 * Locking: each table has a spinlock that covers its list; nothing sleeps
 * under it (entries are allocated before, freed after).  ADD and the
 * netdevice notifier also hold the RTNL, so an interface cannot register or
 * unregister between an ADD's name lookup and its insertion.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>

#include <smcx/names.h>

#include "ib.h"
#include "pnet.h"

enum smcx_pnet_type {
	SMCX_PNET_ETH = 1,
	SMCX_PNET_IB,
};

struct smcx_pnet_entry {
	struct list_head list;
	char pnetid[SMCX_PNETID_LEN + 1];
	enum smcx_pnet_type type;
	union {
		struct {
			char name[IFNAMSIZ];
			int ifindex;	/* 0 while no such netdev exists */
		} eth;
		struct {
			char name[IB_DEVICE_NAME_MAX];
			u8 port;
		} ib;
	};
};

struct smcx_pnet_table {
	spinlock_t lock;		/* entries, n */
	struct list_head entries;
	unsigned int n;			/* entries in the list */
};

static unsigned int smcx_pnet_net_id __read_mostly;
static atomic_long_t smcx_pnet_entries;
/* set at module exit: the notifier replays UNREGISTER for every netdev */
static bool smcx_pnet_exiting;
static struct genl_family smcx_pnet_family;

long smcx_pnet_count(void)
{
	return atomic_long_read(&smcx_pnet_entries);
}

static struct smcx_pnet_table *smcx_pnet_table(const struct net *net)
{
	return net_generic(net, smcx_pnet_net_id);
}

static void smcx_pnet_free(struct smcx_pnet_entry *e)
{
	kfree(e);
	atomic_long_dec(&smcx_pnet_entries);
}

static void smcx_pnet_free_list(struct list_head *gone)
{
	struct smcx_pnet_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, gone, list) {
		list_del(&e->list);
		smcx_pnet_free(e);
	}
}

/* -- names ----------------------------------------------------------------- */

/*
 * The PNET ID rules (smcx_pnetid_normalize(), smcx_pnetid_match()) are in
 * smcx/names.h; only the blanks around the user's input are the kernel's
 * (isspace()).
 */
static_assert(SMCX_NAME_PNETID_MAX == SMCX_PNETID_LEN);

/* parse a PNET ID as given by the user into @out, upper case */
static bool smcx_pnetid_parse(const char *in, char out[SMCX_PNETID_LEN + 1])
{
	size_t len;

	in = skip_spaces(in);
	len = strlen(in);
	while (len && isspace(in[len - 1]))
		len--;
	return !smcx_pnetid_normalize(in, len, out, NULL);
}

static bool smcx_pnet_ib_named(const struct smcx_pnet_entry *e,
			       const struct ib_device *ibdev)
{
	const struct device *parent = ibdev->dev.parent;

	if (!strcmp(e->ib.name, dev_name(&ibdev->dev)))
		return true;
	return parent && !strcmp(e->ib.name, dev_name(parent));
}

/* -- lookups for the route choice ----------------------------------------- */

int smcx_pnet_ndev_pnetid(const struct net_device *ndev,
			  char pnetid[SMCX_PNETID_LEN + 1])
{
	struct smcx_pnet_table *t = smcx_pnet_table(dev_net(ndev));
	struct smcx_pnet_entry *e;
	int rc = -ENOENT;

	pnetid[0] = '\0';
	spin_lock(&t->lock);
	list_for_each_entry(e, &t->entries, list) {
		if (e->type == SMCX_PNET_ETH && e->eth.ifindex == ndev->ifindex) {
			strscpy(pnetid, e->pnetid, SMCX_PNETID_LEN + 1);
			rc = 0;
			break;
		}
	}
	spin_unlock(&t->lock);
	return rc;
}

int smcx_pnet_ib_pnetid(const struct ib_device *ibdev, u32 port,
			char pnetid[SMCX_PNETID_LEN + 1])
{
	struct smcx_pnet_table *t = smcx_pnet_table(&init_net);
	struct smcx_pnet_entry *e;
	int rc = -ENOENT;

	pnetid[0] = '\0';
	spin_lock(&t->lock);
	list_for_each_entry(e, &t->entries, list) {
		if (e->type == SMCX_PNET_IB && e->ib.port == port &&
		    smcx_pnet_ib_named(e, ibdev)) {
			strscpy(pnetid, e->pnetid, SMCX_PNETID_LEN + 1);
			rc = 0;
			break;
		}
	}
	spin_unlock(&t->lock);
	return rc;
}

/* -- ADD ------------------------------------------------------------------- */

/* append @e to @t unless @t is full (-ENOSPC); under t->lock */
static int smcx_pnet_insert(struct smcx_pnet_table *t,
			    struct smcx_pnet_entry *e)
{
	if (t->n >= SMCX_PNET_MAX)
		return -ENOSPC;
	list_add_tail(&e->list, &t->entries);
	t->n++;
	return 0;
}

/* unlink @e from @t onto @gone, to be freed after t->lock is dropped */
static void smcx_pnet_unlink(struct smcx_pnet_table *t,
			     struct smcx_pnet_entry *e, struct list_head *gone)
{
	list_move_tail(&e->list, gone);
	t->n--;
}

static int smcx_pnet_add_eth(struct net *net, const char *name,
			     const char *pnetid)
{
	struct smcx_pnet_table *t = smcx_pnet_table(net);
	struct smcx_pnet_entry *e, *old;
	struct net_device *ndev;
	int rc = 0;

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	atomic_long_inc(&smcx_pnet_entries);
	e->type = SMCX_PNET_ETH;
	strscpy(e->pnetid, pnetid, sizeof(e->pnetid));
	strscpy(e->eth.name, name, sizeof(e->eth.name));

	rtnl_lock();
	ndev = __dev_get_by_name(net, name);
	e->eth.ifindex = ndev ? ndev->ifindex : 0;
	spin_lock(&t->lock);
	list_for_each_entry(old, &t->entries, list) {
		if (old->type == SMCX_PNET_ETH &&
		    (!strcmp(old->eth.name, name) ||
		     (ndev && old->eth.ifindex == ndev->ifindex))) {
			rc = -EEXIST;
			break;
		}
	}
	if (!rc)
		rc = smcx_pnet_insert(t, e);
	spin_unlock(&t->lock);
	rtnl_unlock();

	if (rc)
		smcx_pnet_free(e);
	return rc;
}

static int smcx_pnet_add_ib(const char *name, u8 port, const char *pnetid)
{
	struct smcx_pnet_table *t = smcx_pnet_table(&init_net);
	struct smcx_pnet_entry *e, *old;
	int rc = 0;

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	atomic_long_inc(&smcx_pnet_entries);
	e->type = SMCX_PNET_IB;
	strscpy(e->pnetid, pnetid, sizeof(e->pnetid));
	strscpy(e->ib.name, name, sizeof(e->ib.name));
	e->ib.port = port;

	/* one entry per device name, whatever the port (as mainline) */
	spin_lock(&t->lock);
	list_for_each_entry(old, &t->entries, list) {
		if (old->type == SMCX_PNET_IB && !strcmp(old->ib.name, name)) {
			rc = -EEXIST;
			break;
		}
	}
	if (!rc)
		rc = smcx_pnet_insert(t, e);
	spin_unlock(&t->lock);

	if (rc)
		smcx_pnet_free(e);
	return rc;
}

static int smcx_pnet_nl_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ethattr = info->attrs[SMC_PNETID_ETHNAME];
	struct nlattr *ibattr = info->attrs[SMC_PNETID_IBNAME];
	struct nlattr *portattr = info->attrs[SMC_PNETID_IBPORT];
	struct net *net = genl_info_net(info);
	char ibname[IB_DEVICE_NAME_MAX];
	char pnetid[SMCX_PNETID_LEN + 1];
	bool added = false;
	char *name = NULL;
	u8 port = 1;
	int rc;

	if (GENL_REQ_ATTR_CHECK(info, SMC_PNETID_NAME)) {
		NL_SET_ERR_MSG(info->extack, "PNET ID (SMC_PNETID_NAME) missing");
		return -EINVAL;
	}
	if (!smcx_pnetid_parse(nla_data(info->attrs[SMC_PNETID_NAME]), pnetid)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SMC_PNETID_NAME],
				    "PNET ID must be 1 to 16 letters or digits");
		return -EINVAL;
	}
	if (ethattr && !*(char *)nla_data(ethattr)) {
		NL_SET_ERR_MSG_ATTR(info->extack, ethattr, "empty interface name");
		return -EINVAL;
	}
	/* the RDMA half only counts in the initial namespace */
	if (ibattr && net_eq(net, &init_net)) {
		nla_strscpy(ibname, ibattr, sizeof(ibname));
		name = strim(ibname);
		if (!*name) {
			NL_SET_ERR_MSG_ATTR(info->extack, ibattr,
					    "empty RDMA device name");
			return -EINVAL;
		}
		if (portattr) {
			port = nla_get_u8(portattr);
			if (port < 1 || port > SMCX_IB_MAX_PORTS) {
				NL_SET_ERR_MSG_ATTR(info->extack, portattr,
						    "RDMA port must be 1 or 2");
				return -EINVAL;
			}
		}
	}

	if (ethattr) {
		rc = smcx_pnet_add_eth(net, nla_data(ethattr), pnetid);
		if (rc && rc != -EEXIST)
			goto fail;
		added = !rc;
	}
	if (name) {
		rc = smcx_pnet_add_ib(name, port, pnetid);
		if (rc && rc != -EEXIST)
			goto fail;
		added |= !rc;
	}
	if (added)
		return 0;
	if (ibattr && !net_eq(net, &init_net))
		NL_SET_ERR_MSG(info->extack,
			       "RDMA device entries belong to the initial network namespace");
	else
		NL_SET_ERR_MSG(info->extack,
			       "the device already has a PNET table entry");
	return -EEXIST;
fail:
	if (rc == -ENOSPC)
		NL_SET_ERR_MSG(info->extack,
			       "PNET table full: at most " __stringify(SMCX_PNET_MAX)
			       " entries per network namespace");
	return rc;
}

/* -- DEL / FLUSH ----------------------------------------------------------- */

/* remove every entry of @pnetid (all entries when NULL); count them */
static int smcx_pnet_remove(struct net *net, const char *pnetid)
{
	struct smcx_pnet_table *t = smcx_pnet_table(net);
	struct smcx_pnet_entry *e, *tmp;
	LIST_HEAD(gone);
	int n = 0;

	spin_lock(&t->lock);
	list_for_each_entry_safe(e, tmp, &t->entries, list) {
		if (!pnetid || smcx_pnetid_match(e->pnetid, pnetid)) {
			smcx_pnet_unlink(t, e, &gone);
			n++;
		}
	}
	spin_unlock(&t->lock);
	smcx_pnet_free_list(&gone);
	return n;
}

static int smcx_pnet_nl_del(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, SMC_PNETID_NAME)) {
		NL_SET_ERR_MSG(info->extack, "PNET ID (SMC_PNETID_NAME) missing");
		return -EINVAL;
	}
	if (smcx_pnet_remove(genl_info_net(info),
			     nla_data(info->attrs[SMC_PNETID_NAME])))
		return 0;
	NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SMC_PNETID_NAME],
			    "no entry with this PNET ID");
	return -ENOENT;
}

static int smcx_pnet_nl_flush(struct sk_buff *skb, struct genl_info *info)
{
	smcx_pnet_remove(genl_info_net(info), NULL);
	return 0;
}

/* -- GET ------------------------------------------------------------------- */

static int smcx_pnet_fill(struct sk_buff *skb, u32 portid, u32 seq,
			  const struct smcx_pnet_entry *e)
{
	bool eth = e->type == SMCX_PNET_ETH;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &smcx_pnet_family, NLM_F_MULTI,
			  SMC_PNETID_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, SMC_PNETID_NAME, e->pnetid) ||
	    nla_put_string(skb, SMC_PNETID_ETHNAME, eth ? e->eth.name : "n/a") ||
	    nla_put_string(skb, SMC_PNETID_IBNAME, eth ? "n/a" : e->ib.name) ||
	    nla_put_u8(skb, SMC_PNETID_IBPORT, eth ? 0xff : e->ib.port)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Put the entries from index @start on (those of @pnetid only, when given)
 * into @skb; returns the index of the first entry that did not fit.
 */
static long smcx_pnet_fill_from(struct net *net, struct sk_buff *skb,
				u32 portid, u32 seq, const char *pnetid,
				long start)
{
	struct smcx_pnet_table *t = smcx_pnet_table(net);
	struct smcx_pnet_entry *e;
	long idx = 0;

	spin_lock(&t->lock);
	list_for_each_entry(e, &t->entries, list) {
		if (pnetid && !smcx_pnetid_match(e->pnetid, pnetid))
			continue;
		if (idx < start) {
			idx++;
			continue;
		}
		if (smcx_pnet_fill(skb, portid, seq, e))
			break;
		idx++;
	}
	spin_unlock(&t->lock);
	return idx;
}

static int smcx_pnet_nl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	cb->args[0] = smcx_pnet_fill_from(sock_net(skb->sk), skb,
					  NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NULL,
					  cb->args[0]);
	return skb->len;
}

/* GET with NAME as a plain request: a multi-part reply, ended by DONE */
static int smcx_pnet_nl_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct nlmsghdr *done;

	if (GENL_REQ_ATTR_CHECK(info, SMC_PNETID_NAME)) {
		NL_SET_ERR_MSG(info->extack, "PNET ID (SMC_PNETID_NAME) missing");
		return -EINVAL;
	}
	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	/* what does not fit one message is left out, as mainline does */
	smcx_pnet_fill_from(genl_info_net(info), msg, info->snd_portid,
			    info->snd_seq, nla_data(info->attrs[SMC_PNETID_NAME]),
			    0);
	done = nlmsg_put(msg, info->snd_portid, info->snd_seq, NLMSG_DONE, 0,
			 NLM_F_MULTI);
	if (!done) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return genlmsg_reply(msg, info);
}

/* -- the family -------------------------------------------------------------- */

static const struct nla_policy smcx_pnet_policy[SMC_PNETID_MAX + 1] = {
	[SMC_PNETID_NAME]	= { .type = NLA_NUL_STRING, .len = SMCX_PNETID_LEN },
	[SMC_PNETID_ETHNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[SMC_PNETID_IBNAME]	= { .type = NLA_NUL_STRING,
				    .len = IB_DEVICE_NAME_MAX - 1 },
	[SMC_PNETID_IBPORT]	= { .type = NLA_U8 },
};

static const struct genl_ops smcx_pnet_ops[] = {
	{
		.cmd = SMC_PNETID_GET,		/* anyone may read */
		.doit = smcx_pnet_nl_get,
		.dumpit = smcx_pnet_nl_dump,
	},
	{
		.cmd = SMC_PNETID_ADD,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_pnet_nl_add,
	},
	{
		.cmd = SMC_PNETID_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_pnet_nl_del,
	},
	{
		.cmd = SMC_PNETID_FLUSH,
		.flags = GENL_ADMIN_PERM,
		.doit = smcx_pnet_nl_flush,
	},
};

static struct genl_family smcx_pnet_family __ro_after_init = {
	.name = SMCR_GENL_FAMILY_NAME,
	.version = SMCR_GENL_FAMILY_VERSION,
	.maxattr = SMC_PNETID_MAX,
	.policy = smcx_pnet_policy,
	.netnsok = true,
	.parallel_ops = true,		/* the tables have their own locks */
	.module = THIS_MODULE,
	.ops = smcx_pnet_ops,
	.n_ops = ARRAY_SIZE(smcx_pnet_ops),
};

/* -- entries follow their devices ------------------------------------------ */

static int smcx_pnet_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct smcx_pnet_table *t = smcx_pnet_table(dev_net(ndev));
	struct smcx_pnet_entry *e, *tmp, *bound = NULL;
	LIST_HEAD(gone);

	if (READ_ONCE(smcx_pnet_exiting) ||
	    (event != NETDEV_REGISTER && event != NETDEV_UNREGISTER &&
	     event != NETDEV_CHANGENAME))
		return NOTIFY_DONE;

	spin_lock(&t->lock);
	list_for_each_entry(e, &t->entries, list)
		if (e->type == SMCX_PNET_ETH && e->eth.ifindex == ndev->ifindex)
			bound = e;
	list_for_each_entry_safe(e, tmp, &t->entries, list) {
		if (e->type != SMCX_PNET_ETH)
			continue;
		switch (event) {
		case NETDEV_UNREGISTER:
			/* the device is gone (or leaves the namespace) */
			if (e == bound) {
				pr_info("pnet entry %s for %s dropped with the device\n",
					e->pnetid, e->eth.name);
				smcx_pnet_unlink(t, e, &gone);
			}
			break;
		case NETDEV_REGISTER:
		case NETDEV_CHANGENAME:
			if (e == bound) {
				strscpy(e->eth.name, ndev->name,
					sizeof(e->eth.name));
			} else if (!e->eth.ifindex &&
				   !strcmp(e->eth.name, ndev->name)) {
				if (bound)	/* superseded by the bound one */
					smcx_pnet_unlink(t, e, &gone);
				else
					e->eth.ifindex = ndev->ifindex;
			}
			break;
		}
	}
	spin_unlock(&t->lock);
	smcx_pnet_free_list(&gone);
	return NOTIFY_OK;
}

static struct notifier_block smcx_pnet_netdev_nb = {
	.notifier_call = smcx_pnet_netdev_event,
};

static int smcx_pnet_ib_event(struct notifier_block *nb, unsigned long event,
			      void *data)
{
	struct smcx_pnet_table *t = smcx_pnet_table(&init_net);
	struct smcx_ib_event *ev = data;
	struct smcx_pnet_entry *e, *tmp;
	LIST_HEAD(gone);

	if (event != SMCX_IB_EV_REMOVE)
		return NOTIFY_DONE;
	spin_lock(&t->lock);
	list_for_each_entry_safe(e, tmp, &t->entries, list) {
		if (e->type == SMCX_PNET_IB && smcx_pnet_ib_named(e, ev->dev->ibdev)) {
			pr_info("pnet entry %s for %s dropped with the device\n",
				e->pnetid, e->ib.name);
			smcx_pnet_unlink(t, e, &gone);
		}
	}
	spin_unlock(&t->lock);
	smcx_pnet_free_list(&gone);
	return NOTIFY_OK;
}

static struct notifier_block smcx_pnet_ib_nb = {
	.notifier_call = smcx_pnet_ib_event,
};

static __net_init int smcx_pnet_net_init(struct net *net)
{
	struct smcx_pnet_table *t = smcx_pnet_table(net);

	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->entries);
	t->n = 0;
	return 0;
}

static __net_exit void smcx_pnet_net_exit(struct net *net)
{
	smcx_pnet_remove(net, NULL);
}

static struct pernet_operations smcx_pnet_net_ops = {
	.init = smcx_pnet_net_init,
	.exit = smcx_pnet_net_exit,
	.id = &smcx_pnet_net_id,
	.size = sizeof(struct smcx_pnet_table),
};

int smcx_pnet_init(void)
{
	int rc;

	/* tables first: the notifiers and the family index them */
	rc = register_pernet_subsys(&smcx_pnet_net_ops);
	if (rc)
		return rc;
	rc = register_netdevice_notifier(&smcx_pnet_netdev_nb);
	if (rc)
		goto out_pernet;
	rc = smcx_ib_notifier_register(&smcx_pnet_ib_nb);
	if (rc)
		goto out_netdev;
	rc = genl_register_family(&smcx_pnet_family);
	if (rc)
		goto out_ib;
	return 0;

out_ib:
	smcx_ib_notifier_unregister(&smcx_pnet_ib_nb);
out_netdev:
	unregister_netdevice_notifier(&smcx_pnet_netdev_nb);
out_pernet:
	unregister_pernet_subsys(&smcx_pnet_net_ops);
	return rc;
}

void smcx_pnet_exit(void)
{
	genl_unregister_family(&smcx_pnet_family);
	smcx_ib_notifier_unregister(&smcx_pnet_ib_nb);
	WRITE_ONCE(smcx_pnet_exiting, true);
	unregister_netdevice_notifier(&smcx_pnet_netdev_nb);
	/* flushes every namespace's table */
	unregister_pernet_subsys(&smcx_pnet_net_ops);
	if (smcx_pnet_count())
		pr_err("BUG: %ld pnet entries left at exit\n", smcx_pnet_count());
}
