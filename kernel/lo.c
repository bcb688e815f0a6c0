// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D loopback device: its GID and the table of DMBs (see lo.h).
 * The table is a hash of tokens under a leaf spinlock taken with BHs off;
 * nothing in it sleeps.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "addr16.h"
#include "lgr.h"
#include "lo.h"
#include "obj.h"

struct smcx_lo_gid smcx_lo_gid;

bool smcx_lo_attach = true;
module_param_named(lo_attach, smcx_lo_attach, bool, 0644);
MODULE_PARM_DESC(lo_attach,
		 "1 (default): an SMC-D sender writes into the peer's DMB; 0: into its own send buffer, copied at each push");

/* one end of a CLC connection: address (v4-mapped for IPv4) and port */
struct smcx_lo_end {
	struct in6_addr addr;
	u16 port;
};

struct smcx_lo_dmb {
	struct hlist_node node;
	u64 token;
	struct smcx_lgr *lgr;		/* the owner's; its reference */
	struct smcx_buf *buf;
	u32 alert;
	struct smcx_lo_end local, remote;	/* the owner's CLC socket */
};

#define SMCX_LO_HASH_BITS	9
static DEFINE_HASHTABLE(smcx_lo_dmbs, SMCX_LO_HASH_BITS);
static DEFINE_SPINLOCK(smcx_lo_lock);
static unsigned int smcx_lo_ndmbs;

static void smcx_lo_ends(const struct sock *sk, struct smcx_lo_end *local,
			 struct smcx_lo_end *remote)
{
	smcx_addr16_sk(sk, false, local->addr.s6_addr, &local->port);
	smcx_addr16_sk(sk, true, remote->addr.s6_addr, &remote->port);
}

static bool smcx_lo_end_eq(const struct smcx_lo_end *a,
			   const struct smcx_lo_end *b)
{
	return a->port == b->port && ipv6_addr_equal(&a->addr, &b->addr);
}

/* under smcx_lo_lock */
static struct smcx_lo_dmb *smcx_lo_find(u64 token)
{
	struct smcx_lo_dmb *d;

	hash_for_each_possible(smcx_lo_dmbs, d, node, token)
		if (d->token == token)
			return d;
	return NULL;
}

int smcx_lo_dmb_add(struct smcx_lgr *lgr, struct smcx_buf *buf, u32 alert,
		    const struct sock *tcpsk, u64 *token)
{
	struct smcx_lo_dmb *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	d->lgr = lgr;
	d->buf = buf;
	d->alert = alert;
	smcx_lo_ends(tcpsk, &d->local, &d->remote);
	spin_lock_bh(&smcx_lo_lock);
	if (smcx_lo_ndmbs >= SMCX_LO_MAX_DMBS) {
		spin_unlock_bh(&smcx_lo_lock);
		kfree(d);
		return -EUSERS;
	}
	/* random, never 0, unique: a token says nothing about another */
	do {
		d->token = get_random_u64();
	} while (!d->token || smcx_lo_find(d->token));
	hash_add(smcx_lo_dmbs, &d->node, d->token);
	smcx_lo_ndmbs++;
	spin_unlock_bh(&smcx_lo_lock);
	smcx_obj_inc(SMCX_OBJ_DMB);
	*token = d->token;
	return 0;
}

void smcx_lo_dmb_del(u64 token)
{
	struct smcx_lo_dmb *d;

	spin_lock_bh(&smcx_lo_lock);
	d = smcx_lo_find(token);
	if (d) {
		hash_del(&d->node);
		smcx_lo_ndmbs--;
	}
	spin_unlock_bh(&smcx_lo_lock);
	if (!d)
		return;
	kfree(d);
	smcx_obj_dec(SMCX_OBJ_DMB);
}

int smcx_lo_dmb_attach(u64 token, const struct sock *tcpsk,
		       struct smcx_lo_peer *peer)
{
	struct smcx_lo_end local, remote;
	struct smcx_lo_dmb *d;
	int rc = -ENOENT;

	smcx_lo_ends(tcpsk, &local, &remote);
	spin_lock_bh(&smcx_lo_lock);
	d = smcx_lo_find(token);
	/* its owner's CLC connection is ours, seen from the other end */
	if (d && smcx_lo_end_eq(&d->local, &remote) &&
	    smcx_lo_end_eq(&d->remote, &local)) {
		kref_get(&d->lgr->ref);
		peer->lgr = d->lgr;
		peer->buf = d->buf;
		peer->alert = d->alert;
		peer->token = token;
		rc = 0;
	}
	spin_unlock_bh(&smcx_lo_lock);
	return rc;
}

void smcx_lo_dmb_detach(struct smcx_lo_peer *peer)
{
	if (!peer->lgr)
		return;
	smcx_lgr_put(peer->lgr);
	peer->lgr = NULL;
	peer->buf = NULL;
}

unsigned int smcx_lo_dmb_count(void)
{
	return READ_ONCE(smcx_lo_ndmbs);
}

void smcx_lo_init(void)
{
	/* a random 128-bit GID, as mainline's (from a random UUID) */
	do {
		get_random_bytes(&smcx_lo_gid, sizeof(smcx_lo_gid));
	} while (!smcx_lo_gid.gid);
}

/* module exit, after every connection is gone: the table is empty */
void smcx_lo_exit(void)
{
	WARN_ON_ONCE(smcx_lo_ndmbs);
}
