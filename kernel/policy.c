// SPDX-License-Identifier: GPL-2.0
/*
 * Scope rules (policy.h).
 *
 * A list per namespace, in the order the rules were added.  Every
 * connect() and listen() of every smcx socket reads it (with tcp2smc on,
 * every TCP socket of the namespace is one), so readers take only
 * rcu_read_lock() and an empty list costs one load.  Writers (netlink,
 * the namespace's exit) hold pol->lock, unlink with list_del_rcu() and
 * free after a grace period.  A rule holds a reference on its cgroup from
 * ADD until it is freed.
 *
 * The matchers, each optional, all of them must match:
 *   cgroup  the socket's cgroup (v2, the one it was made in) is the rule's
 *           or below it
 *   comm    the task calling connect() or listen(), by name, exactly
 *   uid     the socket's owner, in the user namespace that owns the
 *           network namespace, within [uid_min, uid_max]
 *   addr    connect(): the destination within addr/prefix (an IPv4
 *           destination is v4-mapped); never matches a listen()
 *   port    connect(): the destination port, listen(): the bound port
 *           (0 if the socket is not bound), within [port_min, port_max]
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>

#include "addr16.h"
#include "policy.h"
#include "uapi.h"

struct smcx_rule {
	struct list_head list;		/* pol->rules */
	u32 id;
	u8 action, role, match, family, prefix;
	u8 addr[16];
	u16 port_min, port_max;
	u32 uid_min, uid_max;
	char comm[TASK_COMM_LEN];
	struct cgroup *cgrp;		/* held; NULL without a cgroup matcher */
	atomic64_t hits;
	char cgpath[];			/* as given; "" without one */
};

struct smcx_policy {
	struct mutex lock;		/* writers: rules, n, last_id */
	struct list_head rules;		/* readers: RCU */
	unsigned int n;
	u32 last_id;
};

/* what a socket shows the rules */
struct smcx_policy_key {
	u8 role;			/* SMCX_POLICY_CLIENT or _SERVER */
	bool has_addr;
	u16 port;
	u8 addr[16];
};

static unsigned int smcx_policy_id __read_mostly;

static struct smcx_policy *smcx_policy(struct net *net)
{
	return net_generic(net, smcx_policy_id);
}

static bool smcx_rule_cgroup(const struct smcx_rule *r, struct sock *sk)
{
#ifdef CONFIG_SOCK_CGROUP_DATA
	struct cgroup *cg = sock_cgroup_ptr(&sk->sk_cgrp_data);

	return cg && cgroup_is_descendant(cg, r->cgrp);
#else
	return false;
#endif
}

static bool smcx_rule_uid(const struct smcx_rule *r, struct sock *sk)
{
	uid_t uid = from_kuid(sock_net(sk)->user_ns, sk_uid(sk));

	return uid != (uid_t)-1 && uid >= r->uid_min && uid <= r->uid_max;
}

/* RCU read side; the cheap tests first */
static bool smcx_rule_matches(const struct smcx_rule *r, struct sock *sk,
			      const struct smcx_policy_key *k)
{
	if (r->role != SMCX_POLICY_ANY && r->role != k->role)
		return false;
	if ((r->match & SMCX_POLICY_M_PORT) &&
	    (k->port < r->port_min || k->port > r->port_max))
		return false;
	if ((r->match & SMCX_POLICY_M_ADDR) &&
	    (!k->has_addr ||
	     !ipv6_prefix_equal((const struct in6_addr *)k->addr,
				(const struct in6_addr *)r->addr, r->prefix)))
		return false;
	/* racy against prctl(PR_SET_NAME), as every reader of comm */
	if ((r->match & SMCX_POLICY_M_COMM) &&
	    strncmp(r->comm, current->comm, TASK_COMM_LEN))
		return false;
	if ((r->match & SMCX_POLICY_M_UID) && !smcx_rule_uid(r, sk))
		return false;
	if ((r->match & SMCX_POLICY_M_CGROUP) && !smcx_rule_cgroup(r, sk))
		return false;
	return true;
}

static u8 smcx_policy_decide(struct sock *sk, const struct smcx_policy_key *k,
			     u32 *id)
{
	struct smcx_policy *pol = smcx_policy(sock_net(sk));
	struct smcx_rule *r;
	u8 action = 0;

	*id = 0;
	if (list_empty(&pol->rules))	/* READ_ONCE */
		return 0;
	rcu_read_lock();
	list_for_each_entry_rcu(r, &pol->rules, list) {
		if (!smcx_rule_matches(r, sk, k))
			continue;
		atomic64_inc(&r->hits);
		action = r->action;
		*id = r->id;
		break;
	}
	rcu_read_unlock();
	return action;
}

u8 smcx_policy_connect(struct sock *sk, const struct sockaddr *addr, int alen,
		       u32 *id)
{
	struct smcx_policy_key k = { .role = SMCX_POLICY_CLIENT };

	k.has_addr = smcx_addr16_of(addr, alen, k.addr, &k.port);
	return smcx_policy_decide(sk, &k, id);
}

u8 smcx_policy_listen(struct sock *sk, u16 port, u32 *id)
{
	struct smcx_policy_key k = { .role = SMCX_POLICY_SERVER, .port = port };

	return smcx_policy_decide(sk, &k, id);
}

static void smcx_rule_free(struct smcx_rule *r)
{
	if (r->cgrp)
		cgroup_put(r->cgrp);
	kfree(r);
}

/* free the rules on @gone once no reader can see them */
static void smcx_rule_free_list(struct list_head *gone, bool sync)
{
	struct smcx_rule *r, *t;

	if (list_empty(gone))
		return;
	if (sync)
		synchronize_rcu();
	list_for_each_entry_safe(r, t, gone, list)
		smcx_rule_free(r);
}

int smcx_policy_add(struct net *net, struct smcx_policy_info *p,
		    struct netlink_ext_ack *extack)
{
	bool has_cg = p->match & SMCX_POLICY_M_CGROUP;
	struct smcx_policy *pol = smcx_policy(net);
	size_t plen = has_cg ? strlen(p->cgroup) + 1 : 1;
	struct cgroup *cg = NULL;
	struct smcx_rule *r;

	if (has_cg) {
		if (!IS_ENABLED(CONFIG_SOCK_CGROUP_DATA)) {
			NL_SET_ERR_MSG(extack, "this kernel does not keep a socket's cgroup");
			return -EOPNOTSUPP;
		}
		/* resolved in the cgroup namespace of the caller */
		cg = cgroup_get_from_path(p->cgroup);
		if (IS_ERR(cg)) {
			NL_SET_ERR_MSG(extack, "no such cgroup v2 directory");
			return PTR_ERR(cg);
		}
	}
	r = kzalloc(struct_size(r, cgpath, plen), GFP_KERNEL);
	if (!r) {
		if (cg)
			cgroup_put(cg);
		return -ENOMEM;
	}
	r->action = p->action;
	r->role = p->role;
	r->match = p->match;
	r->family = p->family;
	r->prefix = p->prefix;
	memcpy(r->addr, p->addr, 16);
	r->port_min = p->port_min;
	r->port_max = p->port_max;
	r->uid_min = p->uid_min;
	r->uid_max = p->uid_max;
	strscpy(r->comm, p->comm, sizeof(r->comm));
	r->cgrp = cg;
	if (has_cg)
		memcpy(r->cgpath, p->cgroup, plen);
	atomic64_set(&r->hits, 0);

	mutex_lock(&pol->lock);
	if (pol->n >= SMCX_POLICY_MAX) {
		mutex_unlock(&pol->lock);
		NL_SET_ERR_MSG(extack, "at most 256 rules per network namespace");
		smcx_rule_free(r);
		return -ENOSPC;
	}
	/* ids are never reused in a namespace; 0 means "no rule" */
	if (!++pol->last_id)
		pol->last_id = 1;
	r->id = pol->last_id;
	p->id = r->id;
	list_add_tail_rcu(&r->list, &pol->rules);
	pol->n++;
	mutex_unlock(&pol->lock);
	return 0;
}

int smcx_policy_del(struct net *net, u32 id)
{
	struct smcx_policy *pol = smcx_policy(net);
	struct smcx_rule *r;
	LIST_HEAD(gone);

	mutex_lock(&pol->lock);
	list_for_each_entry(r, &pol->rules, list) {
		if (r->id != id)
			continue;
		list_del_rcu(&r->list);
		pol->n--;
		list_add(&r->list, &gone);
		break;
	}
	mutex_unlock(&pol->lock);
	if (list_empty(&gone))
		return -ENOENT;
	smcx_rule_free_list(&gone, true);
	return 0;
}

/* unlink every rule of @pol onto @gone; pol->lock held */
static void smcx_policy_unlink_all(struct smcx_policy *pol,
				   struct list_head *gone)
{
	struct smcx_rule *r, *t;

	list_for_each_entry_safe(r, t, &pol->rules, list) {
		list_del_rcu(&r->list);
		list_add_tail(&r->list, gone);
	}
	pol->n = 0;
}

void smcx_policy_flush(struct net *net)
{
	struct smcx_policy *pol = smcx_policy(net);
	LIST_HEAD(gone);

	mutex_lock(&pol->lock);
	smcx_policy_unlink_all(pol, &gone);
	mutex_unlock(&pol->lock);
	smcx_rule_free_list(&gone, true);
}

int smcx_policy_get(struct net *net, u32 after, struct smcx_policy_info *out)
{
	struct smcx_policy *pol = smcx_policy(net);
	struct smcx_rule *r;
	int rc = -ENOENT;

	/* ids grow along the list: the next one after @after is the first */
	mutex_lock(&pol->lock);
	list_for_each_entry(r, &pol->rules, list) {
		if (r->id <= after)
			continue;
		out->id = r->id;
		out->action = r->action;
		out->role = r->role;
		out->match = r->match;
		out->family = r->family;
		out->prefix = r->prefix;
		memcpy(out->addr, r->addr, 16);
		out->port_min = r->port_min;
		out->port_max = r->port_max;
		out->uid_min = r->uid_min;
		out->uid_max = r->uid_max;
		strscpy(out->comm, r->comm, sizeof(out->comm));
		strscpy(out->cgroup, r->cgpath, sizeof(out->cgroup));
		out->hits = atomic64_read(&r->hits);
		rc = 0;
		break;
	}
	mutex_unlock(&pol->lock);
	return rc;
}

static int __net_init smcx_policy_net_init(struct net *net)
{
	struct smcx_policy *pol = smcx_policy(net);

	mutex_init(&pol->lock);
	INIT_LIST_HEAD(&pol->rules);
	return 0;
}

static void __net_exit smcx_policy_net_exit(struct net *net)
{
	struct smcx_policy *pol = smcx_policy(net);
	LIST_HEAD(gone);

	/*
	 * No reader is left: every socket and every netlink socket of the
	 * namespace holds a reference on it, so none can connect, listen or
	 * dump now.
	 */
	mutex_lock(&pol->lock);
	smcx_policy_unlink_all(pol, &gone);
	mutex_unlock(&pol->lock);
	smcx_rule_free_list(&gone, false);
	mutex_destroy(&pol->lock);
}

static struct pernet_operations smcx_policy_net_ops = {
	.init = smcx_policy_net_init,
	.exit = smcx_policy_net_exit,
	.id = &smcx_policy_id,
	.size = sizeof(struct smcx_policy),
};

int smcx_policy_init(void)
{
	return register_pernet_subsys(&smcx_policy_net_ops);
}

void smcx_policy_exit(void)
{
	unregister_pernet_subsys(&smcx_policy_net_ops);
}
