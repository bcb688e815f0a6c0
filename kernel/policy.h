/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scope rules (policy.c): per network namespace, an ordered list of rules
 * that say which sockets try SMC at all.  connect() asks the client rules,
 * listen() the server rules; the first rule whose every matcher matches
 * decides (SMCX_POLICY_SMC or _TCP), no rule: SMC.  Managed over the SMCX
 * generic netlink family (nl_policy.c, include/uapi/linux/smcx.h).
 */
#ifndef SMCX_POLICY_H
#define SMCX_POLICY_H

#include <linux/limits.h>
#include <linux/sched.h>
#include <linux/types.h>

struct net;
struct netlink_ext_ack;
struct sock;
struct sockaddr;

/* rules per namespace; ADD beyond: -ENOSPC */
#define SMCX_POLICY_MAX		256

/* which matchers a rule has (smcx_policy_info.match) */
#define SMCX_POLICY_M_CGROUP	0x01
#define SMCX_POLICY_M_COMM	0x02
#define SMCX_POLICY_M_UID	0x04
#define SMCX_POLICY_M_ADDR	0x08
#define SMCX_POLICY_M_PORT	0x10

/* a rule as netlink gives and shows it */
struct smcx_policy_info {
	u32 id;				/* given by smcx_policy_add() */
	u8 action;			/* SMCX_POLICY_SMC or _TCP */
	u8 role;			/* SMCX_POLICY_ANY, _CLIENT, _SERVER */
	u8 match;			/* SMCX_POLICY_M_* */
	u8 family;			/* of addr */
	u8 prefix;			/* 0..128 over the 16 bytes */
	u8 addr[16];			/* IPv4 v4-mapped */
	u16 port_min, port_max;		/* host order */
	u32 uid_min, uid_max;		/* in the namespace's user namespace */
	char comm[TASK_COMM_LEN];
	u64 hits;
	char cgroup[PATH_MAX];		/* as given */
};

/*
 * connect() of @sk to @addr: the first client rule that matches; its
 * action (SMCX_POLICY_SMC, _TCP), or 0 for none.  *@id is its id.
 */
u8 smcx_policy_connect(struct sock *sk, const struct sockaddr *addr, int alen,
		       u32 *id);
/* listen() of @sk on @port (0: not bound): as smcx_policy_connect() */
u8 smcx_policy_listen(struct sock *sk, u16 port, u32 *id);

/* append @p (checked by the caller but for the cgroup); @p->id set */
int smcx_policy_add(struct net *net, struct smcx_policy_info *p,
		    struct netlink_ext_ack *extack);
int smcx_policy_del(struct net *net, u32 id);
void smcx_policy_flush(struct net *net);
/* a copy of the first rule with an id above @after: 0, or -ENOENT */
int smcx_policy_get(struct net *net, u32 after, struct smcx_policy_info *out);

int smcx_policy_init(void);
void smcx_policy_exit(void);

#endif /* SMCX_POLICY_H */
