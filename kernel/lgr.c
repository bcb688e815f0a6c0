// SPDX-License-Identifier: GPL-2.0
/*
 * SMC-R link groups: find, create and publish, the connections' tokens,
 * linger and terminate.  Whether the links live (the send watchdog,
 * TEST_LINK, a link's down, device and port events) is lgr_live.c's.  The
 * link is link.c's, its work requests wr.c's, its buffers buf.c's.  See
 * lgr.h for the shape and docs/kernel-datapath.md for the flows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <rdma/ib_cache.h>

#include "addlink.h"
#include "lgr.h"
#include "lgr_live.h"
#include "llc.h"
#include "lo.h"
#include "obj.h"
#include "stats.h"

int smcx_smcr_enabled = 1;
module_param_named(smcr, smcx_smcr_enabled, int, 0644);
MODULE_PARM_DESC(smcr,
		 "1 (default): SMC-R data path; 0: decline every proposal (TCP)");

/*
 * Idle link groups linger as in mainline: 10 minutes on the server, 10 s
 * more on the client.  The server frees first and tells the client with
 * DELETE_LINK; the client, which cannot know whether the server just
 * offered the group to a new connection, keeps it until the server let go.
 * (A client that frees first can make a stock server terminate a group
 * under a connection it has just added, and hang in smc_conn_kill()
 * waiting for CDC completions.)
 */
static unsigned int smcx_lgr_linger_ms = 600 * MSEC_PER_SEC;
module_param_named(lgr_linger_ms, smcx_lgr_linger_ms, uint, 0644);
MODULE_PARM_DESC(lgr_linger_ms,
		 "idle link groups are freed after this time (server; client +10 s)");
#define SMCX_LGR_LINGER_CLNT_EXTRA_MS	(10 * MSEC_PER_SEC)

u8 smcx_systemid[SMCX_PEERID_LEN];

/* the published groups (smcx_lgr_publish()); lgr_live.c walks them too */
LIST_HEAD(smcx_lgrs);
/* the list, and each group's reuse meter */
DEFINE_MUTEX(smcx_lgrs_mutex);
static struct notifier_block smcx_lgr_ib_nb;

/* the connection layer's upcall (smcx_lgr_set_conn_abort()) */
static void (*smcx_lgr_conn_abort)(struct sock *sk, struct smcx_link *lnk,
				   struct smcx_link *to) __ro_after_init;

void smcx_lgr_set_conn_abort(void (*fn)(struct sock *sk,
					struct smcx_link *lnk,
					struct smcx_link *to))
{
	smcx_lgr_conn_abort = fn;
}

/*
 * The groups that count against the caps (lgr.h), from their creation
 * until their release; under smcx_lgrs_count_lock, a leaf spinlock taken
 * with interrupts off since the last reference may go in any context.
 */
static LIST_HEAD(smcx_lgrs_counted);
static DEFINE_SPINLOCK(smcx_lgrs_count_lock);

/* count @lgr (its net, role and peer_addr set) unless a cap is reached */
static int smcx_lgr_count(struct smcx_lgr *lgr)
{
	unsigned int in_net = 0, to_peer = 0;
	const struct smcx_lgr *g;
	unsigned long flags;
	int rc = 0;

	spin_lock_irqsave(&smcx_lgrs_count_lock, flags);
	list_for_each_entry(g, &smcx_lgrs_counted, counted) {
		if (!net_eq(g->net, lgr->net))
			continue;
		in_net++;
		if (g->role == lgr->role &&
		    !memcmp(g->peer_addr, lgr->peer_addr, SMCX_GID_LEN))
			to_peer++;
	}
	if (in_net >= SMCX_LGR_PER_NET || to_peer >= SMCX_LGR_PER_PEER)
		rc = -EUSERS;
	else
		list_add(&lgr->counted, &smcx_lgrs_counted);
	spin_unlock_irqrestore(&smcx_lgrs_count_lock, flags);
	return rc;
}

static void smcx_lgr_uncount(struct smcx_lgr *lgr)
{
	unsigned long flags;

	spin_lock_irqsave(&smcx_lgrs_count_lock, flags);
	list_del_init(&lgr->counted);
	spin_unlock_irqrestore(&smcx_lgrs_count_lock, flags);
}

static void smcx_lgr_release(struct kref *ref)
{
	struct smcx_lgr *lgr = container_of(ref, struct smcx_lgr, ref);
	struct smcx_buf *b, *t;

	smcx_lgr_uncount(lgr);

	list_for_each_entry_safe(b, t, &lgr->bufs, list) {
		list_del(&b->list);
		smcx_buf_free(b);
	}
	idr_destroy(&lgr->conns);
	kfree(lgr->rtoks);
	if (lgr->net && !lgr->smcd)	/* an SMC-D group holds none */
		put_net(lgr->net);
	kfree(lgr);
	smcx_obj_dec(SMCX_OBJ_LGR);
}

void smcx_lgr_put(struct smcx_lgr *lgr)
{
	kref_put(&lgr->ref, smcx_lgr_release);
}

/*
 * Fail the connections of @lgr (@lnk NULL), or move those that send on
 * @lnk to @to, failing those that cannot move (the upcall tells); process
 * context.  An aborted connection stays in the table until its socket is
 * released, so walk on by id rather than restarting at the front.
 */
void smcx_lgr_abort_conns(struct smcx_lgr *lgr, struct smcx_link *lnk,
			  struct smcx_link *to)
{
	struct sock *sk;
	int id;

	for (id = 0;; id++) {
		spin_lock_bh(&lgr->conns_lock);
		sk = idr_get_next(&lgr->conns, &id);
		if (sk)
			sock_hold(sk);
		spin_unlock_bh(&lgr->conns_lock);
		if (!sk)
			break;
		smcx_lgr_conn_abort(sk, lnk, to);
		sock_put(sk);
	}
}

/* abort every connection, take the links down; once, process context */
static void __smcx_lgr_terminate(struct smcx_lgr *lgr, bool from_linger)
{
	struct smcx_link *lnk;
	int i;

	mutex_lock(&smcx_lgrs_mutex);
	if (lgr->terminating) {
		mutex_unlock(&smcx_lgrs_mutex);
		return;
	}
	lgr->terminating = true;
	list_del_init(&lgr->list);
	mutex_unlock(&smcx_lgrs_mutex);
	/*
	 * Dead first: smcx_lgr_conn_del() arms the linger under lgr->mutex
	 * only while the group is not dead, so once this is set the cancel
	 * below is final (cancelled first, a conn_del in between re-armed it
	 * on a group about to be freed).  The linger work itself cannot wait
	 * for itself: it cancels a re-arm that came after its check.
	 */
	mutex_lock(&lgr->mutex);
	lgr->dead = true;
	mutex_unlock(&lgr->mutex);
	if (from_linger)
		cancel_delayed_work(&lgr->linger);
	else
		cancel_delayed_work_sync(&lgr->linger);
	cancel_delayed_work_sync(&lgr->watchdog);
	/*
	 * Tell the peer while a link still works: one DELETE_LINK for all
	 * links (orderly), on the first active one.
	 */
	lnk = smcx_lgr_first_active(lgr);
	if (lnk) {
		struct smcx_llc_msg m;

		smcx_llc_init_msg(lnk, &m, SMCX_LLC_DELETE_LINK);
		m.flags = SMCX_LLC_FLAG_DEL_LINK_ALL |
			  SMCX_LLC_FLAG_DEL_LINK_ORDERLY;
		m.u.delete_link.link_num = lnk->link_id;
		m.u.delete_link.reason = SMCX_LLC_DEL_LOST_PATH; /* or linger */
		/*
		 * Draining the QP below flushes whatever the device has not
		 * sent yet (rxe sends from a work item), so wait until the
		 * peer's transport acknowledged every posted WR, this
		 * DELETE_LINK included.  A peer that never hears of it keeps
		 * the link group and offers it to its next connection.
		 */
		if (!smcx_llc_send(lnk, &m, false))
			smcx_wr_wait(lnk,
				     READ_ONCE(lnk->tx_free) ==
					SMCX_WR_ALL_FREE ||
				     !smcx_link_active(lnk),
				     SMCX_LLC_WAIT);
	}
	smcx_lgr_abort_conns(lgr, NULL, NULL);
	mutex_lock(&lgr->links_mutex);
	for (i = 0; i < SMCX_LGR_LINKS; i++)
		smcx_link_clear(&lgr->lnk[i]);
	mutex_unlock(&lgr->links_mutex);
	for (i = 0; i < SMCX_LGR_LINKS; i++)
		smcx_link_destroy_sync(&lgr->lnk[i]);
	smcx_ibdev_put(lgr->dev);
	lgr->dev = NULL;
	smcx_lgr_put(lgr);		/* the list's reference */
}

void smcx_lgr_terminate(struct smcx_lgr *lgr)
{
	__smcx_lgr_terminate(lgr, false);
}

static void smcx_lgr_term_work(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(work, struct smcx_lgr, term_work);

	smcx_lgr_terminate(lgr);
	smcx_lgr_put(lgr);		/* the work's */
}

/* any context; @why goes to the kernel log, once per link group */
void smcx_lgr_terminate_async(struct smcx_lgr *lgr, const char *why)
{
	if (READ_ONCE(lgr->terminating))
		return;
	if (!test_and_set_bit(0, &lgr->term_logged))
		pr_info("link group %*phN: terminating: %s\n",
			(int)sizeof(lgr->id), lgr->id, why);
	kref_get(&lgr->ref);
	if (!queue_work(smcx_wq, &lgr->term_work))
		smcx_lgr_put(lgr);
}

/*
 * An idle group ends here.  The decision and the end of reuse are one
 * step under lgr->mutex: a connection that smcx_lgr_conn_add() let in
 * first keeps the group; once the group is dead, conn_add refuses
 * (-ENOSPC) and the handshake looks for or makes another one, instead of
 * setting up a connection that terminate aborts right away.
 */
static void smcx_lgr_linger_work(struct work_struct *work)
{
	struct smcx_lgr *lgr = container_of(to_delayed_work(work),
					    struct smcx_lgr, linger);
	bool idle;

	mutex_lock(&lgr->mutex);
	idle = !lgr->conns_num && !lgr->dead;
	if (idle)
		lgr->dead = true;
	mutex_unlock(&lgr->mutex);
	if (idle)
		__smcx_lgr_terminate(lgr, true);
}

/*
 * A group's memory and its parts, counted against the caps (lgr.h), with
 * the list's reference: what both kinds share.  An ERR_PTR if not made.
 */
static struct smcx_lgr *smcx_lgr_alloc(struct net *net, int role,
				       const struct smcx_v2x *v2x,
				       const u8 *peer_addr)
{
	struct smcx_lgr *lgr;
	int i;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	/* counted before anything costly is made for it, or not made */
	lgr->net = net;
	lgr->role = role;
	memcpy(lgr->peer_addr, peer_addr, SMCX_GID_LEN);
	if (smcx_lgr_count(lgr)) {
		kfree(lgr);
		smcx_stats_lgr_capped(net, role);
		pr_info_ratelimited("link group limit reached (%u per peer, %u per netns): first contact declined\n",
				    SMCX_LGR_PER_PEER, SMCX_LGR_PER_NET);
		return ERR_PTR(-EUSERS);
	}
	lgr->rtoks = kzalloc(sizeof(*lgr->rtoks), GFP_KERNEL);
	if (!lgr->rtoks) {
		smcx_lgr_uncount(lgr);
		kfree(lgr);
		return ERR_PTR(-ENOMEM);
	}
	smcx_obj_inc(SMCX_OBJ_LGR);
	kref_init(&lgr->ref);		/* the list's */
	INIT_LIST_HEAD(&lgr->list);
	mutex_init(&lgr->mutex);
	spin_lock_init(&lgr->conns_lock);
	idr_init(&lgr->conns);
	INIT_LIST_HEAD(&lgr->bufs);
	INIT_DELAYED_WORK(&lgr->linger, smcx_lgr_linger_work);
	INIT_DELAYED_WORK(&lgr->watchdog, smcx_lgr_watchdog);
	INIT_WORK(&lgr->term_work, smcx_lgr_term_work);
	mutex_init(&lgr->links_mutex);
	mutex_init(&lgr->conf_mutex);
	init_waitqueue_head(&lgr->conf_wait);
	spin_lock_init(&lgr->rtok_lock);
	INIT_WORK(&lgr->add_work, smcx_addlink_work);
	lgr->next_link_id = 2;
	lgr->add_retry_at = jiffies + SMCX_ADD_RETRY;
	smcx_link_preinit(lgr);
	for (i = 0; i < SMCX_LGR_LINKS; i++)
		INIT_WORK(&lgr->lnk[i].down_work, smcx_lgr_link_down_work);
	lgr->net = get_net(net);
	lgr->version = SMCX_CLC_V2;
	lgr->v2x = *v2x;
	get_random_bytes(lgr->id, sizeof(lgr->id));
	return lgr;
}

struct smcx_lgr *smcx_lgr_create(struct net *net, int role,
				 struct smcx_ib_choice *c,
				 const struct smcx_v2x *v2x, const u8 *peer_addr)
{
	struct smcx_link *lnk;
	struct smcx_lgr *lgr;
	int rc;

	/* a device being removed gets no new group (smcx_lgr_publish()) */
	if (READ_ONCE(c->dev->removing))
		return ERR_PTR(-ENODEV);
	lgr = smcx_lgr_alloc(net, role, v2x, peer_addr);
	if (IS_ERR(lgr))
		return lgr;
	strscpy(lgr->pnetid, c->pnetid, sizeof(lgr->pnetid));
	lgr->dev = smcx_ibdev_get(c->dev);
	if (v2x->write_imm)
		smcx_stats_wwi(smcx_stats_of(net), SMCX_WWI_GROUPS);
	/* the first link: slot 0, link id 1 (the client takes the server's) */
	lnk = &lgr->lnk[0];
	mutex_lock(&lgr->links_mutex);
	rc = smcx_link_init(lnk, 1, c);
	if (!rc)
		rc = smcx_buf_map_link(lnk);
	if (rc)
		smcx_link_clear(lnk);
	mutex_unlock(&lgr->links_mutex);
	if (rc) {
		lgr->terminating = true;
		smcx_ibdev_put(lgr->dev);
		lgr->dev = NULL;
		smcx_lgr_put(lgr);
		return ERR_PTR(rc);
	}
	kref_get(&lgr->ref);		/* the caller's */
	queue_delayed_work(smcx_wq, &lgr->watchdog, SMCX_TX_STALL / 3);
	return lgr;
}

/*
 * Connections @lgr takes: the server keeps to the negotiated maximum; the
 * client follows the server's first-contact flag (a server may fill in a
 * connection the client still counts as open), up to the protocol's limit.
 */
static unsigned int smcx_lgr_max_conns(const struct smcx_lgr *lgr)
{
	return lgr->role == SMCX_SRV ? lgr->v2x.max_conns : SMCX_V2X_CONNS_MAX;
}

/*
 * Make a ready lgr findable for reuse, and for the device removal's sweep.
 * A group on a device being removed is terminated instead: removal sets
 * ->removing before its sweep (smcx_lgr_ib_event()) takes smcx_lgrs_mutex,
 * so a group is either listed before the sweep, which ends it, or sees
 * ->removing here.  Removal waits for the device references of both.
 */
static void smcx_lgr_publish(struct smcx_lgr *lgr)
{
	bool gone = false;

	mutex_lock(&smcx_lgrs_mutex);
	if (list_empty(&lgr->list) && !lgr->terminating) {
		gone = lgr->dev && READ_ONCE(lgr->dev->removing);
		if (!gone)
			list_add(&lgr->list, &smcx_lgrs);
	}
	mutex_unlock(&smcx_lgrs_mutex);
	if (gone)
		smcx_lgr_terminate_async(lgr, "device removed");
}

/*
 * Has @lgr an active link from our @port to @peer_gid (and the peer's QP
 * @peer_qpn, 0: any)?  The reused connection sends on the group's first
 * active link, whose far end the CLC names (smcx_lgr_conn_link()).
 */
static bool smcx_lgr_has_path(struct smcx_lgr *lgr, u32 port,
			      const u8 *peer_gid, u32 peer_qpn)
{
	struct smcx_link *lnk;

	if (lgr->lnk[0].port != port)	/* the group's first link's port */
		return false;
	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		if (smcx_link_active(lnk) &&
		    !memcmp(lnk->peer_gid, peer_gid, SMCX_GID_LEN) &&
		    (!peer_qpn || lnk->peer_qpn == peer_qpn))
			return true;
	return false;
}

/*
 * An active link group to reuse, referenced, or NULL.  @peer_systemid (a
 * v2 proposal carries none: NULL) and @peer_qpn (0: any) narrow the
 * match: a client reusing a group must pick the one whose link ends at the
 * QP the server's Accept names (mainline matches it too).  Two groups to
 * one peer exist while an old one drains; using the wrong one has the
 * server write with an rkey of the other group's PD, which the QP answers
 * with a remote access error.  A server skips a group closed to reuse
 * (smcx_lgr_reuse_failed()): the connection gets a first contact.
 */
struct smcx_lgr *smcx_lgr_find_net(const struct net *net, int role,
				   struct smcx_ibdev *dev, u32 port,
				   const u8 *peer_gid, const u8 *peer_systemid,
				   u32 peer_qpn)
{
	u64 now = jiffies64_to_msecs(get_jiffies_64());
	struct smcx_lgr *lgr, *found = NULL;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list) {
		if (net && !net_eq(lgr->net, net))
			continue;
		if (lgr->role != role || lgr->dev != dev ||
		    READ_ONCE(dev->removing) || READ_ONCE(lgr->dead) ||
		    !smcx_lgr_has_path(lgr, port, peer_gid, peer_qpn))
			continue;
		if (peer_systemid &&
		    memcmp(lgr->peer_systemid, peer_systemid, SMCX_PEERID_LEN))
			continue;
		if (lgr->conns_num >= smcx_lgr_max_conns(lgr))
			continue;
		/* a server offers a group its strangers failed too often */
		if (role == SMCX_SRV && !smcx_reuse_open(&lgr->reuse, now)) {
			smcx_stats_reuse_refused(lgr->net);
			continue;
		}
		kref_get(&lgr->ref);
		found = lgr;
		break;
	}
	mutex_unlock(&smcx_lgrs_mutex);
	return found;
}

struct smcx_lgr *smcx_lgr_create_d(struct net *net, int role,
				   const struct smcx_v2x *v2x)
{
	u8 peer[SMCX_GID_LEN];
	struct smcx_lgr *lgr;

	/* the peer is this host: the cap per peer is one per namespace */
	memcpy(peer, &smcx_lo_gid, SMCX_GID_LEN);
	lgr = smcx_lgr_alloc(net, role, v2x, peer);
	if (IS_ERR(lgr))
		return lgr;
	/*
	 * No reference on the namespace (the caller's socket holds it now):
	 * an idle group would keep a container's namespace for its linger.
	 * The namespace's exit ends its groups instead (see below).
	 */
	lgr->smcd = true;
	put_net(lgr->net);
	kref_get(&lgr->ref);		/* the caller's */
	return lgr;
}

struct smcx_lgr *smcx_lgr_find_d(const struct net *net, int role)
{
	struct smcx_lgr *lgr, *found = NULL;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list) {
		if (!lgr->smcd || !net_eq(lgr->net, net) || lgr->role != role ||
		    READ_ONCE(lgr->dead) ||
		    lgr->conns_num >= smcx_lgr_max_conns(lgr))
			continue;
		kref_get(&lgr->ref);
		found = lgr;
		break;
	}
	mutex_unlock(&smcx_lgrs_mutex);
	return found;
}

void smcx_lgr_reuse_failed(struct smcx_lgr *lgr)
{
	u64 now = jiffies64_to_msecs(get_jiffies_64());
	bool closed;

	mutex_lock(&smcx_lgrs_mutex);
	closed = smcx_reuse_failed(&lgr->reuse, now);
	mutex_unlock(&smcx_lgrs_mutex);
	smcx_stats_reuse_failed(lgr->net);
	if (closed)
		pr_info_ratelimited("link group %*phN: its reuses keep failing, not offered for %u s\n",
				    SMCX_LLC_LGR_ID_LEN, lgr->id,
				    SMCX_REUSE_HOLD_MS / 1000);
}

/*
 * A connection's alert token: the peer names the connection by it in every
 * CDC, so it is random (1..INT_MAX, the range the lookup accepts), not the
 * next number a third party could guess.  The first free id from a random
 * start; the table holds at most SMCX_V2X_CONNS_MAX, so that is the start
 * itself almost always.  conns_lock held, idr preloaded.
 */
static int smcx_lgr_token_alloc(struct smcx_lgr *lgr, struct sock *sk)
{
	u32 start = get_random_u32_inclusive(1, INT_MAX);
	int id;

	id = idr_alloc(&lgr->conns, sk, start, 0, GFP_NOWAIT);
	if (id == -ENOSPC && start > 1)
		id = idr_alloc(&lgr->conns, sk, 1, start, GFP_NOWAIT);
	return id;
}

/*
 * Register the connection of @sk: its token (> 0, returned), the count,
 * and a reference on @sk held by the table.  -ENOSPC: full or dead.
 */
int smcx_lgr_conn_add(struct smcx_lgr *lgr, struct sock *sk)
{
	int id;

	mutex_lock(&lgr->mutex);
	if (lgr->dead || lgr->conns_num >= smcx_lgr_max_conns(lgr)) {
		mutex_unlock(&lgr->mutex);
		return -ENOSPC;
	}
	idr_preload(GFP_KERNEL);
	spin_lock_bh(&lgr->conns_lock);
	id = smcx_lgr_token_alloc(lgr, sk);
	spin_unlock_bh(&lgr->conns_lock);
	idr_preload_end();
	if (id < 0) {
		mutex_unlock(&lgr->mutex);
		return id;
	}
	sock_hold(sk);			/* the table's */
	lgr->conns_num++;
	/*
	 * Not _sync (the linger work takes lgr->mutex): a linger already
	 * running sees conns_num and keeps the group (smcx_lgr_linger_work()).
	 */
	cancel_delayed_work(&lgr->linger);
	mutex_unlock(&lgr->mutex);
	smcx_lgr_publish(lgr);
	return id;
}

static unsigned int smcx_lgr_linger(const struct smcx_lgr *lgr)
{
	unsigned int ms = READ_ONCE(smcx_lgr_linger_ms);

	if (lgr->role == SMCX_CLNT)
		ms += SMCX_LGR_LINGER_CLNT_EXTRA_MS;
	return ms;
}

/*
 * Unregister the connection of @sk with @token; nothing if the table does
 * not hold @sk there (never added, or removed already).
 */
void smcx_lgr_conn_del(struct smcx_lgr *lgr, struct sock *sk, u32 token)
{
	bool idle = false;

	mutex_lock(&lgr->mutex);
	spin_lock_bh(&lgr->conns_lock);
	if (token > INT_MAX || idr_find(&lgr->conns, token) != sk) {
		spin_unlock_bh(&lgr->conns_lock);
		mutex_unlock(&lgr->mutex);
		return;
	}
	idr_remove(&lgr->conns, token);
	spin_unlock_bh(&lgr->conns_lock);
	idle = !--lgr->conns_num && !lgr->dead;
	if (idle)
		mod_delayed_work(smcx_wq, &lgr->linger,
				 msecs_to_jiffies(smcx_lgr_linger(lgr)));
	mutex_unlock(&lgr->mutex);
	sock_put(sk);			/* the table's */
}

/* BH: the socket of @token's connection, referenced, or NULL */
struct sock *smcx_lgr_conn_get(struct smcx_lgr *lgr, u32 token)
{
	struct sock *sk;

	spin_lock_bh(&lgr->conns_lock);
	sk = token <= INT_MAX ? idr_find(&lgr->conns, token) : NULL;
	if (sk)
		sock_hold(sk);
	spin_unlock_bh(&lgr->conns_lock);
	return sk;
}

/*
 * Terminate every listed link group of @net (NULL: any) on @dev (NULL:
 * any; an SMC-D group has none), one at a time, and wait for each.
 */
static void smcx_lgr_terminate_where(const struct net *net,
				     struct smcx_ibdev *dev)
{
	struct smcx_lgr *lgr;

	for (;;) {
		mutex_lock(&smcx_lgrs_mutex);
		lgr = NULL;
		list_for_each_entry(lgr, &smcx_lgrs, list)
			if ((!dev || lgr->dev == dev) &&
			    (!net || net_eq(lgr->net, net)))
				break;
		if (list_entry_is_head(lgr, &smcx_lgrs, list))
			lgr = NULL;
		if (lgr)
			kref_get(&lgr->ref);
		mutex_unlock(&smcx_lgrs_mutex);
		if (!lgr)
			break;
		smcx_lgr_terminate(lgr);
		smcx_lgr_put(lgr);
	}
}

/* terminate all link groups (or those on @dev) and wait for them */
void smcx_lgr_terminate_all(struct smcx_ibdev *dev)
{
	smcx_lgr_terminate_where(NULL, dev);
}

/*
 * Call @fn for each listed link group, in list order, under the list's
 * mutex, so each stays alive and listed while @fn runs; stop at the first
 * non-zero return and pass it on.  For the views (nl_lgr.c).
 */
int smcx_lgr_for_each(int (*fn)(struct smcx_lgr *lgr, void *arg), void *arg)
{
	struct smcx_lgr *lgr;
	int rc = 0;

	mutex_lock(&smcx_lgrs_mutex);
	list_for_each_entry(lgr, &smcx_lgrs, list) {
		rc = fn(lgr, arg);
		if (rc)
			break;
	}
	mutex_unlock(&smcx_lgrs_mutex);
	return rc;
}

/*
 * A namespace goes (none of its sockets is left, each held it): its
 * SMC-D groups, idle and lingering, end now.  A peer's connection may
 * still hold such a group's memory (its DMB), but not its namespace: it
 * only looks up tokens in the empty table.  SMC-R groups hold their
 * namespace, so only SMC-D ones are left here.
 */
static void __net_exit smcx_lgr_net_pre_exit(struct net *net)
{
	smcx_lgr_terminate_where(net, NULL);
}

static struct pernet_operations smcx_lgr_net_ops = {
	.pre_exit = smcx_lgr_net_pre_exit,
};

int smcx_lgr_init(void)
{
	int rc;

	get_random_bytes(smcx_systemid, 2);
	smcx_systemid[2] = 0x02;	/* locally administered, random */
	get_random_bytes(smcx_systemid + 3, 5);
	smcx_lgr_ib_nb.notifier_call = smcx_lgr_ib_event;
	rc = register_pernet_subsys(&smcx_lgr_net_ops);
	if (rc)
		return rc;
	rc = smcx_ib_notifier_register(&smcx_lgr_ib_nb);
	if (rc)
		unregister_pernet_subsys(&smcx_lgr_net_ops);
	return rc;
}

/*
 * Module exit, after the sockets are gone: end every group, then wait for
 * the work they queued (a term_work holds a group reference, a close_work
 * may still be returning from its last sock_put).
 */
void smcx_lgr_exit(void)
{
	smcx_ib_notifier_unregister(&smcx_lgr_ib_nb);
	unregister_pernet_subsys(&smcx_lgr_net_ops);
	smcx_lgr_terminate_all(NULL);
	flush_workqueue(smcx_wq);
}
