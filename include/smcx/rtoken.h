/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx pure logic: the peer's RMB keys of a link group, per link (the
 * "rtokens": mainline's name for an rkey and address pair).
 *
 * Every RMB the peer registers has one rkey and address per link of the
 * group: the link's QP writes into it with that link's key.  A connection
 * learns the key of the one link it starts on from the CLC Accept or
 * Confirm; the other links' keys come by LLC and belong to the RMB, not to
 * a connection:
 *   - CONFIRM_RKEY, the peer's announcement of a new RMB: its key on the
 *     link the message came on (rt[0]) and on each other link (by link id);
 *   - ADD_LINK (v2 extension) / ADD_LINK_CONT: for each RMB, its key on an
 *     existing link and its key and address on the new link;
 *   - DELETE_RKEY: the RMB is gone.
 * A peer reuses an RMB for a later connection without announcing it again,
 * so the table keeps an entry while nothing refers to it: the next CLC
 * message naming the key on one link finds the keys of the other links.
 *
 * An entry is free when no link's key is known and no connection refers
 * to it.  When the table is full, an entry no connection refers to is
 * reused; a connection that later names that RMB again knows its key on
 * its own link only (its failover to another link then has no key and
 * fails that connection, not the group).  Entries that connections refer
 * to are never reused, so SMCX_RTOK_MAX (the most connections a group
 * takes, SMC-R's 255) always has room for a group's connections.
 *
 * What a hostile peer can do with it: name keys that are wrong, which
 * only make our RDMA WRITEs to it fail (a remote access error ends the
 * link, as any peer can end it); and fill the unreferenced entries, which
 * evicts them and costs the failover of connections of its own.
 *
 * Header-only C that compiles in the kernel (SMCX_KERNEL), C11 and C++20.
 * The caller serialises all calls on one table (the kernel: lgr->rtok_lock).
 */
#ifndef SMCX_RTOKEN_H
#define SMCX_RTOKEN_H

#define SMCX_RTOK_LINKS		2	/* = SMCX_LGR_LINKS (kernel/link.h) */
#define SMCX_RTOK_MAX		255	/* connections per link group */

struct smcx_rtok {
	unsigned int rkey[SMCX_RTOK_LINKS];		/* by link index */
	unsigned long long addr[SMCX_RTOK_LINKS];
	unsigned char valid;		/* bit l: rkey[l], addr[l] known */
	unsigned short refs;		/* connections that write with it */
};

struct smcx_rtoks {
	struct smcx_rtok e[SMCX_RTOK_MAX];
};

/* the entry with @rkey on link @l, or -1 */
static inline int smcx_rtok_find(const struct smcx_rtoks *t, unsigned int l,
				 unsigned int rkey)
{
	int i;

	if (l >= SMCX_RTOK_LINKS)
		return -1;
	for (i = 0; i < SMCX_RTOK_MAX; i++)
		if ((t->e[i].valid & (1u << l)) && t->e[i].rkey[l] == rkey)
			return i;
	return -1;
}

/*
 * The entry for the RMB with @rkey and @addr on link @l: the one known, or
 * a new one (a free entry, else one no connection refers to); -1 when
 * every entry is referred to, or @l is out of range.  The same key with
 * another address is another RMB under a recycled key: the entry forgets
 * the other links' keys, which belonged to the old one.
 */
static inline int smcx_rtok_add(struct smcx_rtoks *t, unsigned int l,
				unsigned int rkey, unsigned long long addr)
{
	int i = smcx_rtok_find(t, l, rkey), spare = -1;
	struct smcx_rtok *e;

	if (i >= 0) {
		e = &t->e[i];
		if (e->addr[l] != addr) {
			e->valid = (unsigned char)(1u << l);
			e->addr[l] = addr;
		}
		return i;
	}
	if (l >= SMCX_RTOK_LINKS)
		return -1;
	for (i = 0; i < SMCX_RTOK_MAX; i++) {
		if (t->e[i].refs)
			continue;
		if (!t->e[i].valid)
			break;			/* free */
		if (spare < 0)
			spare = i;		/* unreferenced: reusable */
	}
	if (i == SMCX_RTOK_MAX)
		i = spare;
	if (i < 0)
		return -1;
	e = &t->e[i];
	e->valid = (unsigned char)(1u << l);
	e->rkey[l] = rkey;
	e->addr[l] = addr;
	return i;
}

/* a connection refers to the entry smcx_rtok_add() gave: -1 as there */
static inline int smcx_rtok_get(struct smcx_rtoks *t, unsigned int l,
				unsigned int rkey, unsigned long long addr)
{
	int i = smcx_rtok_add(t, l, rkey, addr);

	if (i >= 0)
		t->e[i].refs++;
	return i;
}

/* the connection that got entry @i is done with it; it stays known */
static inline void smcx_rtok_put(struct smcx_rtoks *t, int i)
{
	if (i >= 0 && i < SMCX_RTOK_MAX && t->e[i].refs)
		t->e[i].refs--;
}

/* entry @i's key and address on link @l; 0, or -1 when not known */
static inline int smcx_rtok_key(const struct smcx_rtoks *t, int i,
				unsigned int l, unsigned int *rkey,
				unsigned long long *addr)
{
	if (i < 0 || i >= SMCX_RTOK_MAX || l >= SMCX_RTOK_LINKS ||
	    !(t->e[i].valid & (1u << l)))
		return -1;
	*rkey = t->e[i].rkey[l];
	*addr = t->e[i].addr[l];
	return 0;
}

/*
 * The RMB known by @rkey on link @l has @rkey_new and @addr_new on link
 * @l_new (CONFIRM_RKEY's other links, ADD_LINK's list): 0, or -1 when no
 * such RMB is known (nothing is added: such a key has no use) or a link
 * is out of range.
 */
static inline int smcx_rtok_learn(struct smcx_rtoks *t, unsigned int l,
				  unsigned int rkey, unsigned int l_new,
				  unsigned int rkey_new,
				  unsigned long long addr_new)
{
	int i = smcx_rtok_find(t, l, rkey);

	if (i < 0 || l_new >= SMCX_RTOK_LINKS)
		return -1;
	t->e[i].rkey[l_new] = rkey_new;
	t->e[i].addr[l_new] = addr_new;
	t->e[i].valid |= (unsigned char)(1u << l_new);
	return 0;
}

/* link @l went (or is made again): no key on it is known any more */
static inline void smcx_rtok_drop_link(struct smcx_rtoks *t, unsigned int l)
{
	int i;

	if (l >= SMCX_RTOK_LINKS)
		return;
	for (i = 0; i < SMCX_RTOK_MAX; i++)
		t->e[i].valid &= (unsigned char)~(1u << l);
}

/*
 * DELETE_RKEY: the RMB known by @rkey on link @l is gone, on every link;
 * 0, or -1 when not known.  Connections still referring to it keep the
 * reference (they cannot write with it any more).
 */
static inline int smcx_rtok_del(struct smcx_rtoks *t, unsigned int l,
				unsigned int rkey)
{
	int i = smcx_rtok_find(t, l, rkey);

	if (i < 0)
		return -1;
	t->e[i].valid = 0;
	return 0;
}

#endif /* SMCX_RTOKEN_H */
