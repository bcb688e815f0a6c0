// SPDX-License-Identifier: GPL-2.0
/*
 * A link group's second link: the SMC-Rv2 ADD_LINK flow (RFC 7609 3.3.2,
 * "Adding a link", in the v2 form mainline uses on a v2 link group).
 *
 *   server (add work)                       client (add work)
 *   alternate port, new QP (INIT),
 *   every RMB mapped on it (new keys)
 *   ADD_LINK: its QP, GID, MAC, MTU, PSN,
 *   link id; v2 extension: per RMB the
 *   key on the old link, key and address
 *   on the new one              ------->    port by the route to that GID,
 *                                           new QP, RTR/RTS, REG_MR of its
 *                                           RMBs on the new link
 *                               <-------    ADD_LINK response: its QP ...,
 *                                           its RMBs' keys likewise
 *   RTR/RTS, REG_MR of every RMB
 *   CONFIRM_LINK on the new link ------->
 *                               <-------    CONFIRM_LINK response on it
 *   ACTIVE                                  ACTIVE (on sending it)
 *
 * Both ADD_LINK messages go over an existing link (the "old" one); a
 * reject (flag ADD_LNK_REJ) or a missing answer (SMCX_LLC_WAIT) ends the
 * flow and clears the half-made link; nothing on the old link changes.
 * The keys a side sends for the new link are its MRs' keys and addresses
 * from the mapping (buf.c gives both before the REG_MR, which needs the
 * QP in RTS); each side registers its RMBs on the new link before the
 * peer can write there: the client before its response, the server before
 * CONFIRM_LINK, and nobody writes on a link before it is ACTIVE.  The
 * peer's keys go into the group's key table (lgr->rtoks).  An RMB beyond
 * the list's 255 entries, or made during the flow, is announced by its
 * next CONFIRM_RKEY with its keys on both links (llc.c).
 *
 * Which port: the server takes another RoCE v2 port with an IPv4 GID,
 * active, not the old link's, with the PNET ID of the group's first link
 * (none: any).  Without one it offers a second link on the old link's own
 * port, as mainline's server does (mainline's client waits for an
 * ADD_LINK after first contact).  The client takes the port its route to
 * the server's new GID leaves by, with the GID of the route's source
 * address; if that is the old link's port and the server offers the old
 * link's far end again, the client's second path is a port of its own
 * with an address on the server's subnet, and without one it rejects.
 * One side on a single port gives an asymmetric group (lgr.h,
 * smcx_lgr_type()): ASYMMETRIC_LOCAL on that side, _PEER on the other.
 *
 * Locking: the flows run under lgr->conf_mutex (smcx_lgr_conf_lock(), see
 * lgr.h), so no RMB is announced by CONFIRM_RKEY while the list is made
 * and sent; the new slot
 * is made under links_mutex, and only while the group is not dead
 * (terminate sets dead before it clears every slot).  Every wait is an
 * LLC wait or a REG_MR wait, each bounded; a group that dies meanwhile
 * fails them with -ENOLINK.  The work holds a group reference.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/route.h>

#include "addlink.h"
#include "lgr.h"
#include "llc.h"
#include "obj.h"
#include "stats.h"
#include "sysctl.h"

/* the RMBs whose keys an ADD_LINK lists, and that list (wire form) */
struct smcx_addlink_keys {
	struct smcx_buf **rmbs;
	u8 *rts;
	unsigned int n;
};

/* may @lgr get another link now: the negotiated and configured maximum */
static bool smcx_addlink_wanted(struct smcx_lgr *lgr)
{
	unsigned int max = min_t(unsigned int, lgr->v2x.max_links,
				 READ_ONCE(smcx_sysctl(lgr->net)->smcr_max_links_per_lgr));
	unsigned int act = smcx_lgr_active_links(lgr);

	return !READ_ONCE(lgr->dead) && act >= 1 && act < max;
}

/* a free slot of lgr->lnk[], a cleared one made free again; links_mutex */
static struct smcx_link *smcx_addlink_slot(struct smcx_lgr *lgr)
{
	struct smcx_link *lnk;
	int i;

	for (i = 0; i < SMCX_LGR_LINKS; i++) {
		lnk = &lgr->lnk[i];
		if (lnk->state == SMCX_LNK_UNUSED)
			return lnk;
		if (smcx_link_recycle(lnk))
			return lnk;
	}
	return NULL;
}

/* a new link with @link_id on the port @c chose, its buffers mapped */
static int smcx_addlink_new(struct smcx_lgr *lgr, struct smcx_ib_choice *c,
			    u8 link_id, struct smcx_link **out)
{
	struct smcx_link *lnk;
	int rc;

	mutex_lock(&lgr->links_mutex);
	/* the choice was made before: a removal may have begun since */
	if (READ_ONCE(c->dev->removing)) {
		mutex_unlock(&lgr->links_mutex);
		return -ENODEV;
	}
	lnk = READ_ONCE(lgr->dead) ? NULL : smcx_addlink_slot(lgr);
	if (!lnk) {
		mutex_unlock(&lgr->links_mutex);
		return -ENOSPC;
	}
	rc = smcx_link_init(lnk, link_id, c);
	if (!rc)
		rc = smcx_buf_map_link(lnk);
	if (rc)
		smcx_link_clear(lnk);
	mutex_unlock(&lgr->links_mutex);
	if (!rc)
		*out = lnk;
	return rc;
}

/*
 * The RMBs the peer knows on @old, mapped on @lnk: their list for the
 * ADD_LINK (key on @old, key and address on @lnk).  Buffers are freed only
 * with the group, so the pointers stay good.
 */
static int smcx_addlink_keys(struct smcx_lgr *lgr, struct smcx_link *old,
			     struct smcx_link *lnk, struct smcx_addlink_keys *k)
{
	struct smcx_llc_rt rt;
	struct smcx_buf *b;

	k->rmbs = kcalloc(SMCX_LLC_ADD_LINK_RKEYS_MAX_V2, sizeof(*k->rmbs),
			  GFP_KERNEL);
	k->rts = kcalloc(SMCX_LLC_ADD_LINK_RKEYS_MAX_V2, SMCX_LLC_RT_LEN,
			 GFP_KERNEL);
	k->n = 0;
	if (!k->rmbs || !k->rts)
		return -ENOMEM;
	mutex_lock(&lgr->mutex);
	list_for_each_entry(b, &lgr->bufs, list) {
		if (k->n == SMCX_LLC_ADD_LINK_RKEYS_MAX_V2)
			break;
		if (!b->rmb || !smcx_buf_on(b, old)->reg ||
		    !smcx_buf_on(b, lnk)->mr)
			continue;
		rt.rkey = smcx_buf_rkey(b, old);
		rt.rkey_new = smcx_buf_rkey(b, lnk);
		rt.vaddr_new = smcx_buf_raddr(b, lnk);
		smcx_llc_rt_put(k->rts, k->n, &rt);
		k->rmbs[k->n++] = b;
	}
	mutex_unlock(&lgr->mutex);
	return 0;
}

/* REG_MR of the listed RMBs on @lnk (its QP in RTS) */
static int smcx_addlink_reg(struct smcx_link *lnk, struct smcx_addlink_keys *k)
{
	unsigned int i;
	int rc;

	for (i = 0; i < k->n; i++) {
		rc = smcx_buf_reg(lnk, k->rmbs[i], NULL);
		if (rc)
			return rc;
	}
	return 0;
}

/* the link is confirmed: the peer has the listed keys on it */
static void smcx_addlink_confirmed(struct smcx_link *lnk,
				   struct smcx_addlink_keys *k)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		smcx_buf_on(k->rmbs[i], lnk)->rkey_conf = true;
	smcx_stats_link(lnk->lgr->net, SMCX_LINK_ADDED);
	pr_info("link group %*phN: link %u added (%s port %u)\n",
		SMCX_LLC_LGR_ID_LEN, lnk->lgr->id, lnk->link_id,
		smcx_ibdev_name(lnk->dev), lnk->port);
}

static void smcx_addlink_keys_free(struct smcx_addlink_keys *k)
{
	kfree(k->rmbs);
	kfree(k->rts);
}

/* our side of the new link in an ADD_LINK, with the key list */
static void smcx_addlink_fill(struct smcx_link *old, struct smcx_link *lnk,
			      struct smcx_llc_msg *m, u8 flags,
			      struct smcx_addlink_keys *k)
{
	struct smcx_llc_add_link *a = &m->u.add_link;

	smcx_llc_init_msg(old, m, SMCX_LLC_ADD_LINK);
	m->flags = flags;
	memcpy(a->mac, lnk->mac, ETH_ALEN);
	memcpy(a->gid, lnk->gid, SMCX_GID_LEN);
	a->qpn = lnk->qp_num;
	a->link_num = lnk->link_id;
	a->qp_mtu = lnk->mtu;
	a->psn = lnk->psn;
	a->has_ext = 1;
	a->v2_direct = 1;
	a->num_rkeys = k->n;
	a->rkeys = k->rts;
}

/* the peer's side of the new link, from its ADD_LINK */
static void smcx_addlink_peer(struct smcx_link *lnk,
			      const struct smcx_llc_add_link *a)
{
	lnk->peer_qpn = a->qpn;
	lnk->peer_psn = a->psn;
	lnk->peer_mtu = a->qp_mtu;
	memcpy(lnk->peer_gid, a->gid, SMCX_GID_LEN);
	memcpy(lnk->peer_mac, a->mac, ETH_ALEN);
}

/* the peer's key list that came with its ADD_LINK on @old, into the table */
static void smcx_addlink_learn(struct smcx_lgr *lgr, struct smcx_link *old,
			       struct smcx_link *lnk)
{
	unsigned int n;
	u8 *rts;

	rts = kmalloc_array(SMCX_LLC_ADD_LINK_RKEYS_MAX_V2, SMCX_LLC_RT_LEN,
			    GFP_KERNEL);
	if (!rts)
		return;		/* the connections' own CLC keys still work */
	spin_lock_bh(&old->llc_lock);
	n = old->rx_rkeys ? old->rx_nrkeys : 0;
	if (n)
		memcpy(rts, old->rx_rkeys, n * SMCX_LLC_RT_LEN);
	spin_unlock_bh(&old->llc_lock);
	smcx_lgr_rtok_add_link(lgr, old, lnk, rts, n);
	kfree(rts);
}

/* a new link's id: unused, never 0 */
static u8 smcx_addlink_id(struct smcx_lgr *lgr)
{
	u8 id;

	do {
		id = lgr->next_link_id++;
	} while (!id || smcx_lgr_link_by_id(lgr, id));
	return id;
}

/* @gid's IPv4 address (v4-mapped RoCE v2 GID), or 0 */
static __be32 smcx_addlink_gid_v4(const u8 *gid)
{
	struct in6_addr a;

	memcpy(&a, gid, sizeof(a));
	return ipv6_addr_v4mapped(&a) ? a.s6_addr32[3] : 0;
}

/*
 * A native IPv6 group (its links' GIDs are IPv6 addresses, not v4-mapped:
 * smcx <-> smcx only, docs/wire.md) stays single-link: the alternate and
 * same-port choices below and the client's route are IPv4 ones, and a
 * group never mixes the families.  Its server offers no second link (a
 * client of it gets the "no link" ADD_LINK after first contact), its
 * client asks for none and rejects any ADD_LINK.
 */
static bool smcx_addlink_native6(const struct smcx_link *old)
{
	return !smcx_addlink_gid_v4(old->gid);
}

/* an IPv4 address of @ndev whose prefix holds @daddr (on link), or 0 */
static __be32 smcx_addlink_onlink(struct net_device *ndev, __be32 daddr)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	__be32 local = 0;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (inet_ifa_match(daddr, ifa)) {
				local = ifa->ifa_local;
				break;
			}
		}
	}
	rcu_read_unlock();
	return local;
}

/*
 * An active RoCE v2 port that is not @old's, with an IPv4 GID on its
 * netdev and the group's PNET ID; 0 and @c (referenced) or -ENODEV.
 * With @peer (a client looking for its own second path to the server's
 * one port) the netdev must also have an address whose prefix holds
 * @peer, and the GID is that address's: a port on another wire is no
 * path there, though a route lookup bound to it would still "succeed"
 * (the kernel takes a destination as on link when an oif has no route).
 */
static int smcx_addlink_alt(struct smcx_lgr *lgr, struct smcx_link *old,
			    __be32 peer, struct smcx_ib_choice *c)
{
	struct net_device *ndev;
	struct smcx_ibdev *d;
	unsigned int n, i;
	__be32 saddr;
	u32 port;
	int rc;

	for (n = 0; (d = smcx_ibdev_nth(n)); n++) {
		for (i = 0; i < d->nports; i++) {
			port = d->port[i].num;
			if (d == old->dev && port == old->port)
				continue;
			ndev = ib_device_get_netdev(d->ibdev, port);
			if (!ndev)
				continue;
			saddr = peer ? smcx_addlink_onlink(ndev, peer) : 0;
			rc = -ENODEV;
			if (net_eq(dev_net(ndev), lgr->net) && (!peer || saddr))
				rc = smcx_ib_choose(ndev, saddr, SMCX_ROCE_V2,
						    NULL, c);
			dev_put(ndev);
			if (rc)
				continue;
			if (c->dev == d && c->port == port &&
			    !strcmp(c->pnetid, lgr->pnetid)) {
				smcx_ibdev_put(d);
				return 0;
			}
			smcx_ib_choice_release(c);
		}
		smcx_ibdev_put(d);
	}
	return -ENODEV;
}

/*
 * Server without a second port: a second link on @old's own port, with
 * @old's GID (ASYMMETRIC_LOCAL here; a client with a port of its own on
 * our wire takes it, ASYMMETRIC_PEER there, and one without rejects it).
 * Offered when a client may take it: after first contact (mainline's
 * client waits for an ADD_LINK then), when it asked with REQ_ADD_LINK,
 * and on the retry schedule once a client of this group took one.
 */
static bool smcx_addlink_same_wanted(struct smcx_lgr *lgr)
{
	return !lgr->add_offered || READ_ONCE(lgr->add_asked) ||
	       lgr->asym_taken;
}

static int smcx_addlink_same(struct smcx_lgr *lgr, struct smcx_link *old,
			     struct smcx_ib_choice *c)
{
	struct net_device *ndev;
	int rc;

	ndev = ib_device_get_netdev(old->dev->ibdev, old->port);
	if (!ndev)
		return -ENODEV;
	rc = smcx_ib_choose(ndev, smcx_addlink_gid_v4(old->gid), SMCX_ROCE_V2,
			    NULL, c);
	dev_put(ndev);
	if (!rc && (c->dev != old->dev || c->port != old->port)) {
		smcx_ib_choice_release(c);
		rc = -ENODEV;
	}
	return rc;
}

static void smcx_addlink_srv(struct smcx_lgr *lgr)
{
	struct smcx_link *old = smcx_lgr_first_active(lgr), *lnk = NULL;
	struct smcx_addlink_keys k = {};
	struct smcx_ib_choice c;
	struct smcx_llc_msg m;
	bool alt, same = false;
	int rc;

	if (!old || !smcx_addlink_wanted(lgr))
		return;
	/* the next try (see lgr.h); a success resets the wait */
	WRITE_ONCE(lgr->add_backoff, clamp(lgr->add_backoff * 2, SMCX_ADD_RETRY,
					   SMCX_ADD_RETRY_MAX));
	WRITE_ONCE(lgr->add_retry_at, jiffies + lgr->add_backoff);
	alt = !smcx_addlink_native6(old) && !smcx_addlink_alt(lgr, old, 0, &c);
	if (!alt) {
		same = !smcx_addlink_native6(old) &&
		       smcx_addlink_same_wanted(lgr) &&
		       !smcx_addlink_same(lgr, old, &c);
		/* nothing after first contact: a stock client waits for one */
		if (!same && !lgr->add_offered)
			smcx_llc_add_link_none(old);
	}
	lgr->add_offered = true;
	WRITE_ONCE(lgr->add_asked, false);
	if (!alt && !same)
		return;
	rc = smcx_addlink_new(lgr, &c, smcx_addlink_id(lgr), &lnk);
	smcx_ib_choice_release(&c);
	if (rc)
		goto out;
	rc = smcx_addlink_keys(lgr, old, lnk, &k);
	if (rc)
		goto out;
	smcx_addlink_fill(old, lnk, &m, 0, &k);
	rc = smcx_llc_request(old, &m, SMCX_LLC_WAIT);
	if (rc)
		goto out;
	if ((m.flags & SMCX_LLC_FLAG_ADD_LNK_REJ) ||
	    m.u.add_link.link_num != lnk->link_id) {
		smcx_stats_link(lgr->net, SMCX_LINK_REJECTED);
		rc = -ECONNREFUSED;
		goto out;
	}
	smcx_addlink_peer(lnk, &m.u.add_link);
	smcx_addlink_learn(lgr, old, lnk);
	rc = smcx_link_ready(lnk);
	if (!rc)
		rc = smcx_addlink_reg(lnk, &k);
	if (!rc)
		rc = smcx_llc_confirm_link_srv(lnk);
	if (!rc) {
		smcx_addlink_confirmed(lnk, &k);
		WRITE_ONCE(lgr->add_backoff, 0);
		lgr->asym_taken |= same;
	}
out:
	if (rc)
		smcx_stats_link(lgr->net, SMCX_LINK_ADD_FAILED);
	/* a client without a second path says no to our own port again */
	if (rc && lnk && !(same && rc == -ECONNREFUSED))
		pr_info("link group %*phN: link %u not added: %d\n",
			SMCX_LLC_LGR_ID_LEN, lgr->id, lnk->link_id, rc);
	if (rc && lnk)
		smcx_lgr_link_clear(lgr, lnk);	/* half made */
	smcx_addlink_keys_free(&k);
}

/* client: the port its route to the server's new @gid leaves by */
static int smcx_addlink_route(struct smcx_lgr *lgr, const u8 *gid,
			      struct smcx_ib_choice *c)
{
	struct flowi4 fl4 = {};
	struct rtable *rt;
	int rc;

	fl4.daddr = smcx_addlink_gid_v4(gid);
	if (!fl4.daddr)
		return -EINVAL;
	rt = ip_route_output_key(lgr->net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	rc = smcx_ib_choose(rt->dst.dev, fl4.saddr, SMCX_ROCE_V2, NULL, c);
	ip_rt_put(rt);
	return rc;
}

static void smcx_addlink_clnt(struct smcx_lgr *lgr)
{
	struct smcx_link *old, *lnk = NULL;
	struct smcx_addlink_keys k = {};
	struct smcx_llc_add_link *a;
	struct smcx_ib_choice c;
	struct smcx_llc_msg req, m;
	bool pending, sent = false;
	int rc;

	spin_lock(&lgr->rtok_lock);
	pending = lgr->add_pending;
	req = lgr->add_req;
	old = &lgr->lnk[lgr->add_from];
	spin_unlock(&lgr->rtok_lock);
	if (!pending)
		return;
	a = &req.u.add_link;
	rc = -EINVAL;
	if (!smcx_link_active(old) || !smcx_addlink_wanted(lgr) ||
	    !a->has_ext || !a->qp_mtu || !a->link_num ||
	    smcx_lgr_link_by_id(lgr, a->link_num) || smcx_addlink_native6(old))
		goto out;
	rc = smcx_addlink_route(lgr, a->gid, &c);
	if (rc)
		goto out;
	/*
	 * The server offers its one port again: a port of ours on its wire
	 * makes the second path (ASYMMETRIC_PEER), else there is none.
	 */
	if (c.dev == old->dev && c.port == old->port &&
	    !memcmp(a->gid, old->peer_gid, SMCX_GID_LEN)) {
		smcx_ib_choice_release(&c);
		rc = -EHOSTUNREACH;
		if (smcx_addlink_alt(lgr, old, smcx_addlink_gid_v4(a->gid), &c))
			goto out;
	}
	rc = smcx_addlink_new(lgr, &c, a->link_num, &lnk);
	smcx_ib_choice_release(&c);
	if (rc)
		goto out;
	smcx_addlink_peer(lnk, a);
	smcx_addlink_learn(lgr, old, lnk);
	rc = smcx_link_ready(lnk);
	if (!rc)
		rc = smcx_addlink_keys(lgr, old, lnk, &k);
	if (!rc)
		rc = smcx_addlink_reg(lnk, &k);
	if (rc)
		goto out;
	smcx_addlink_fill(old, lnk, &m, SMCX_LLC_FLAG_RESP, &k);
	rc = smcx_llc_send(old, &m, true);
	sent = !rc;
	if (!rc)
		rc = smcx_llc_confirm_link_clnt(lnk);
	if (!rc)
		smcx_addlink_confirmed(lnk, &k);
out:
	if (rc && lnk) {
		pr_info("link group %*phN: link %u not added: %d\n",
			SMCX_LLC_LGR_ID_LEN, lgr->id, lnk->link_id, rc);
		smcx_lgr_link_clear(lgr, lnk);	/* half made */
	}
	/* failed before our response: reject (the old link may be gone) */
	if (rc && !sent && smcx_link_usable(old)) {
		smcx_stats_link(lgr->net, SMCX_LINK_REJECTED);
		smcx_llc_add_link_reject(old, a->link_num);
	} else if (rc) {
		smcx_stats_link(lgr->net, SMCX_LINK_ADD_FAILED);
	}
	smcx_addlink_keys_free(&k);
	spin_lock(&lgr->rtok_lock);
	lgr->add_pending = false;
	spin_unlock(&lgr->rtok_lock);
}

/*
 * Client, a port came up and the group has one link: ask the server for a
 * second (v2 REQ_ADD_LINK, with the GID of our alternate port); its
 * ADD_LINK then comes as after first contact.
 */
static void smcx_addlink_ask(struct smcx_lgr *lgr)
{
	struct smcx_link *old = smcx_lgr_first_active(lgr);
	struct smcx_ib_choice c;
	struct smcx_llc_msg m;

	if (!old || !smcx_addlink_wanted(lgr) || smcx_addlink_native6(old) ||
	    smcx_addlink_alt(lgr, old, 0, &c))
		return;
	smcx_llc_init_msg(old, &m, SMCX_LLC_REQ_ADD_LINK);
	m.u.req_add_link.gid_cnt = 1;
	memcpy(m.u.req_add_link.gids[0], c.gid.raw, SMCX_GID_LEN);
	smcx_ib_choice_release(&c);
	smcx_llc_send(old, &m, true);
}

void smcx_addlink_work(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(work, struct smcx_lgr, add_work);
	bool ask;

	/*
	 * A handshake holding the group's configuration for long (a slow
	 * peer, N5): this try is dropped.  A server tries again from its
	 * watchdog (lgr_live.c); a client forgets the server's pending
	 * request (the server's LLC wait ends, and it tries again later)
	 * and its own ask.
	 */
	if (smcx_lgr_conf_lock(lgr, NULL, jiffies + SMCX_CONF_WAIT_MAX)) {
		spin_lock(&lgr->rtok_lock);
		lgr->add_ask = false;
		lgr->add_pending = false;
		spin_unlock(&lgr->rtok_lock);
		smcx_lgr_put(lgr);	/* the work's */
		return;
	}
	spin_lock(&lgr->rtok_lock);
	ask = lgr->add_ask && !lgr->add_pending;
	lgr->add_ask = false;
	spin_unlock(&lgr->rtok_lock);
	if (lgr->role == SMCX_SRV)
		smcx_addlink_srv(lgr);
	else if (ask)
		smcx_addlink_ask(lgr);
	else
		smcx_addlink_clnt(lgr);
	smcx_lgr_conf_unlock(lgr);
	smcx_lgr_put(lgr);		/* the work's */
}

void smcx_addlink_kick(struct smcx_lgr *lgr)
{
	kref_get(&lgr->ref);
	if (!queue_work(smcx_wq, &lgr->add_work))
		smcx_lgr_put(lgr);
}

void smcx_addlink_port_up(struct smcx_lgr *lgr)
{
	if (lgr->role == SMCX_CLNT) {
		spin_lock(&lgr->rtok_lock);
		lgr->add_ask = true;
		spin_unlock(&lgr->rtok_lock);
	}
	smcx_addlink_kick(lgr);
}

int smcx_addlink_request(struct smcx_link *lnk, const struct smcx_llc_msg *m)
{
	struct smcx_lgr *lgr = lnk->lgr;
	bool taken = false;

	if (lgr->role != SMCX_CLNT || m->version != SMCX_LLC_V2)
		return -EOPNOTSUPP;
	spin_lock(&lgr->rtok_lock);
	if (!lgr->add_pending) {
		lgr->add_req = *m;
		lgr->add_from = lnk->idx;
		lgr->add_pending = true;
		taken = true;
	}
	spin_unlock(&lgr->rtok_lock);
	if (!taken)
		return -EBUSY;
	smcx_addlink_kick(lgr);
	return 0;
}
