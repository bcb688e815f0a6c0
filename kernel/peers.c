// SPDX-License-Identifier: GPL-2.0
/*
 * The peer cache (peers.h).
 *
 * A list per namespace, most recently used first, at most SMCX_PEER_MAX
 * entries, under pc->lock (a leaf spinlock; the connect() path and the
 * handshake work take it briefly, never across a wait).  An entry ends
 * when its time runs out (found so by a lookup or a dump), by a success,
 * by smcctl, or with the namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "addr16.h"
#include "peers.h"
#include "sysctl.h"
#include "uapi.h"

struct smcx_peer {
	struct list_head list;
	u8 addr[16];
	u16 port;
	u8 why;
	bool cached;
	u32 reason;
	u32 fails;			/* breaks or declines in a row */
	u64 until;			/* jiffies64: the entry ends */
	u64 hits;
};

struct smcx_peers {
	spinlock_t lock;		/* list, n, every entry */
	struct list_head list;
	unsigned int n;			/* written under lock, read without */
};

static unsigned int smcx_peers_id __read_mostly;

static struct smcx_peers *smcx_peers(struct net *net)
{
	return net_generic(net, smcx_peers_id);
}

static u64 smcx_peer_ttl(struct net *net)
{
	return (u64)READ_ONCE(smcx_sysctl(net)->smcx_peer_ttl) * HZ;
}

/* the live entry of @addr, @port; an expired one goes; pc->lock held */
static struct smcx_peer *smcx_peer_find(struct smcx_peers *pc, const u8 *addr,
					u16 port, struct list_head *gone)
{
	u64 now = get_jiffies_64();
	struct smcx_peer *p;

	list_for_each_entry(p, &pc->list, list) {
		if (p->port != port || memcmp(p->addr, addr, 16))
			continue;
		if (time_after_eq64(now, p->until)) {
			list_move(&p->list, gone);
			WRITE_ONCE(pc->n, pc->n - 1);
			return NULL;
		}
		return p;
	}
	return NULL;
}

static void smcx_peer_free_list(struct list_head *gone)
{
	struct smcx_peer *p, *t;

	list_for_each_entry_safe(p, t, gone, list)
		kfree(p);
}

bool smcx_peer_cached(struct net *net, const struct sockaddr *addr, int alen)
{
	struct smcx_peers *pc = smcx_peers(net);
	struct smcx_peer *p;
	bool cached = false;
	LIST_HEAD(gone);
	u8 key[16];
	u16 port;

	if (!smcx_peer_ttl(net) || !READ_ONCE(pc->n) ||
	    !smcx_addr16_of(addr, alen, key, &port))
		return false;
	spin_lock_bh(&pc->lock);
	p = smcx_peer_find(pc, key, port, &gone);
	if (p && p->cached) {
		p->hits++;
		cached = true;
		list_move(&p->list, &pc->list);
	}
	spin_unlock_bh(&pc->lock);
	smcx_peer_free_list(&gone);
	return cached;
}

void smcx_peer_note(struct net *net, const struct sock *tcpsk, u8 why,
		    u32 decline)
{
	struct smcx_peers *pc = smcx_peers(net);
	struct smcx_peer *p, *fresh = NULL;
	u64 ttl = smcx_peer_ttl(net);
	LIST_HEAD(gone);
	u8 key[16];
	u16 port;

	/* a success with nothing cached: every SMC connect comes here */
	if (!ttl || (!why && !decline && !READ_ONCE(pc->n)))
		return;
	smcx_addr16_sk(tcpsk, true, key, &port);
	if (why || decline)
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	spin_lock_bh(&pc->lock);
	p = smcx_peer_find(pc, key, port, &gone);
	if (!why && !decline) {
		/* a success: SMC works with this peer again */
		if (p) {
			list_move(&p->list, &gone);
			WRITE_ONCE(pc->n, pc->n - 1);
		}
		goto out;
	}
	if (!p && fresh) {
		p = fresh;
		fresh = NULL;
		memcpy(p->addr, key, 16);
		p->port = port;
		list_add(&p->list, &pc->list);
		if (pc->n == SMCX_PEER_MAX)
			list_move(pc->list.prev, &gone);	/* the oldest */
		else
			WRITE_ONCE(pc->n, pc->n + 1);
	}
	if (!p)
		goto out;
	list_move(&p->list, &pc->list);
	p->fails++;
	if (why) {
		p->why = why;
		p->cached = true;
	} else {
		if (p->why != SMCX_PEER_DECLINES)
			p->fails = 1;	/* declines count apart from breaks */
		p->why = SMCX_PEER_DECLINES;
		p->reason = decline;
		p->cached = p->fails >= SMCX_PEER_DECLINE_MAX;
	}
	p->until = get_jiffies_64() + ttl;
out:
	spin_unlock_bh(&pc->lock);
	kfree(fresh);
	smcx_peer_free_list(&gone);
}

int smcx_peer_get(struct net *net, unsigned long i, struct smcx_peer_info *out)
{
	struct smcx_peers *pc = smcx_peers(net);
	u64 now = get_jiffies_64();
	struct smcx_peer *p;
	int rc = -ENOENT;

	spin_lock_bh(&pc->lock);
	list_for_each_entry(p, &pc->list, list) {
		if (time_after_eq64(now, p->until) || i--)
			continue;
		memcpy(out->addr, p->addr, 16);
		out->family = ipv6_addr_v4mapped((struct in6_addr *)p->addr) ?
			      AF_INET : AF_INET6;
		out->port = p->port;
		out->why = p->why;
		out->cached = p->cached;
		out->reason = p->reason;
		out->fails = p->fails;
		out->expires_ms = jiffies_to_msecs(p->until - now);
		out->hits = p->hits;
		rc = 0;
		break;
	}
	spin_unlock_bh(&pc->lock);
	return rc;
}

int smcx_peer_del(struct net *net, u8 family, const u8 *addr, u16 port)
{
	struct smcx_peers *pc = smcx_peers(net);
	struct smcx_peer *p;
	LIST_HEAD(gone);
	u8 key[16];
	int rc = -ENOENT;

	memcpy(key, addr, 16);
	/* an IPv4 peer may be given as its 4 bytes, the rest zero */
	if (family == AF_INET && !ipv6_addr_v4mapped((struct in6_addr *)key))
		ipv6_addr_set_v4mapped(*(const __be32 *)addr,
				       (struct in6_addr *)key);
	spin_lock_bh(&pc->lock);
	p = smcx_peer_find(pc, key, port, &gone);
	if (p) {
		list_move(&p->list, &gone);
		WRITE_ONCE(pc->n, pc->n - 1);
		rc = 0;
	}
	spin_unlock_bh(&pc->lock);
	smcx_peer_free_list(&gone);
	return rc;
}

void smcx_peer_flush(struct net *net)
{
	struct smcx_peers *pc = smcx_peers(net);
	LIST_HEAD(gone);

	spin_lock_bh(&pc->lock);
	list_splice_init(&pc->list, &gone);
	WRITE_ONCE(pc->n, 0);
	spin_unlock_bh(&pc->lock);
	smcx_peer_free_list(&gone);
}

static int __net_init smcx_peers_net_init(struct net *net)
{
	struct smcx_peers *pc = smcx_peers(net);

	spin_lock_init(&pc->lock);
	INIT_LIST_HEAD(&pc->list);
	return 0;
}

static void __net_exit smcx_peers_net_exit(struct net *net)
{
	smcx_peer_flush(net);
}

static struct pernet_operations smcx_peers_net_ops = {
	.init = smcx_peers_net_init,
	.exit = smcx_peers_net_exit,
	.id = &smcx_peers_id,
	.size = sizeof(struct smcx_peers),
};

int smcx_peers_init(void)
{
	return register_pernet_subsys(&smcx_peers_net_ops);
}

void smcx_peers_exit(void)
{
	unregister_pernet_subsys(&smcx_peers_net_ops);
}
