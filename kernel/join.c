// SPDX-License-Identifier: GPL-2.0
/*
 * The handshake of one connection, both roles: the CLC messages in their
 * order (clc.c builds, sends, receives and judges them) and, when both
 * sides go SMC-R, the join of a link group between them - first contact
 * (a new group) or reuse (a place in a group made before) - and its undo.
 *
 *   client  Proposal -> Accept -> [join] -> Confirm -> first contact:
 *           CONFIRM_LINK from the server, answered
 *   server  Proposal -> [join] -> Accept -> Confirm -> first contact:
 *           link ready, CONFIRM_LINK, ADD_LINK offer
 *
 * A reused group already has its link; the connection's RMB is registered
 * and, on reuse, announced with CONFIRM_RKEY before the rkey goes out in
 * the Accept or Confirm.
 *
 * Locking.  First contacts are serialised per peer: per role, our device
 * port and the peer's GID (server: the Proposal's, when the client is at
 * that GID's address, see smcx_join_srv(); client: the Accept's),
 * as the "first-contact slot" of that peer (struct smcx_first, on
 * smcx_firsts under smcx_firsts_lock, a leaf spinlock).  The reason is the
 * one mainline has for its per-role lock: a second connection to the same
 * peer must wait for a first contact in progress and then find the new
 * group ready, instead of making another one.  A first contact holds the
 * slot from the lookup (server) or the create (client: the server said
 * first contact) until its link is confirmed or the join is undone,
 * across the CLC and LLC waits in between (each bounded: SMCX_CLC_WAIT_TIME,
 * SMCX_LLC_WAIT).  A reuse takes it only around its lookup.  Connections
 * to other peers never wait for it, so a silent peer (a client that never
 * sends its Confirm, a server that never starts CONFIRM_LINK) holds up
 * nobody but connections claiming its own GID.  Those wait at most
 * SMCX_FIRST_WAIT, shorter than the peer's CLC wait, and not once the
 * handshake is aborted (smcx_join_kick() from smcx_hs_cancel()); then
 * they go on without the slot, and at worst a peer gets a second link
 * group.  The waits are bounded sleeps, never an uninterruptible lock
 * held by a stranger.  The slot is taken without the smcx sock lock (the
 * handshake work holds none) and without any other lock held; smcx_lgrs_mutex,
 * lgr->mutex and the link's locks nest inside the holder's join freely.
 * Only smcx_join_unlock() gives it back: right after a reuse's lookup,
 * and at the one exit of a join, smcx_join_end().
 *
 * Link group state after a wait.  Every wait of the join (the peer's CLC
 * message, REG_MR, an LLC exchange) may end with the group terminated
 * under it (device removal, a QP error, the peer's DELETE_LINK): the
 * link's QP, the MRs and the device go with that.  Terminate sets
 * lgr->dead under lgr->mutex before it clears the link, so the join
 * checks the group under lgr->mutex after each wait and holds it while it
 * calls a verb on the link (smcx_join_link_ready()) or reads the QP and
 * the MR for a CLC message (clc.c).  A dead group fails the join: a
 * decline while it is our turn to send a CLC message, else a reset.
 *
 * References.  smcx_lgr_find_net() and smcx_lgr_create() return a reference on
 * the group, the join's (j->lgr).  smcx_conn_create() takes it into the
 * connection (conn->lgr) once it got a place in the group; without one
 * (-ENOSPC: full or dead) it stays the join's, and the server drops it and
 * looks again.  From then on the connection holds it until
 * smcx_conn_free() (close, abort, or the undo).  The undo frees the
 * connection or drops the join's reference, and terminates a group this
 * join made (the group's own list reference goes with terminate).  The
 * device reference of the route choice is held from smcx_join_choose()
 * until the group is found or made (a group holds its own).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/dst.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include <smcx/wire.h>

#include "addlink.h"
#include "clc.h"
#include "conn.h"
#include "ib.h"
#include "join.h"
#include "lgr.h"
#include "llc.h"
#include "stats.h"

/* a server connection's lookups of a group with a free place */
#define SMCX_SRV_LGR_TRIES	4

/*
 * How long a first contact or reuse waits for another first contact to the
 * same peer: well inside the peer's own CLC wait (SMCX_CLC_WAIT_TIME for
 * our Accept or Confirm), so that a peer that claims someone else's GID and
 * then goes silent cannot make that peer's handshakes time out.
 */
#define SMCX_FIRST_WAIT		(SMCX_CLC_WAIT_TIME / 2)

/*
 * What a join keeps of its peer's CLC wait (SMCX_CLC_WAIT_TIME from the
 * peer's last CLC message, the Proposal or the Accept) for its own step
 * after the group's configuration lock: a REG_MR, a CONFIRM_RKEY and our
 * next CLC message on its way.  See smcx_join_reg_rmb().
 */
#define SMCX_JOIN_SLACK		HZ

/* a first contact in progress to one peer (see "Locking") */
struct smcx_first {
	struct list_head list;		/* smcx_firsts */
	int role;
	const struct smcx_ibdev *dev;	/* compared only, never used */
	u32 port;
	u8 peer_gid[SMCX_GID_LEN];
};

static LIST_HEAD(smcx_firsts);
static DEFINE_SPINLOCK(smcx_firsts_lock);
/* woken when a slot is given back, and by smcx_join_kick() */
static DECLARE_WAIT_QUEUE_HEAD(smcx_firsts_wait);

/* one connection's join of a link group */
struct smcx_join {
	struct smcx_sock *smc;
	struct smcx_lgr *lgr;		/* found or made; see "References" */
	struct smcx_first slot;		/* the peer's first-contact slot ... */
	bool locked;			/* ... held */
	bool first;			/* first contact: @lgr is new */
	long wait_left;			/* of SMCX_FIRST_WAIT, all lookups */
	unsigned long until;		/* configuration lock given up (jiffies) */
};

/* the peer's CLC message came now: when our answer must be on its way */
static unsigned long smcx_join_until(void)
{
	return jiffies + SMCX_CLC_WAIT_TIME - SMCX_JOIN_SLACK;
}

static void smcx_join_key(struct smcx_join *j, int role,
			  const struct smcx_ib_choice *c, const u8 *peer_gid)
{
	j->slot.role = role;
	j->slot.dev = c->dev;
	j->slot.port = c->port;
	memcpy(j->slot.peer_gid, peer_gid, SMCX_GID_LEN);
}

/* smcx_firsts_lock held: is the slot of @j's peer taken? */
static bool smcx_first_taken(const struct smcx_join *j)
{
	const struct smcx_first *f;

	list_for_each_entry(f, &smcx_firsts, list)
		if (f->role == j->slot.role && f->dev == j->slot.dev &&
		    f->port == j->slot.port &&
		    !memcmp(f->peer_gid, j->slot.peer_gid, SMCX_GID_LEN))
			return true;
	return false;
}

static bool smcx_first_busy(const struct smcx_join *j)
{
	bool taken;

	spin_lock(&smcx_firsts_lock);
	taken = smcx_first_taken(j);
	spin_unlock(&smcx_firsts_lock);
	return taken;
}

static bool smcx_first_try(struct smcx_join *j)
{
	bool got;

	spin_lock(&smcx_firsts_lock);
	got = !smcx_first_taken(j);
	if (got)
		list_add(&j->slot.list, &smcx_firsts);
	spin_unlock(&smcx_firsts_lock);
	return got;
}

/*
 * Take the first-contact slot of @j's peer (smcx_join_key()), waiting at
 * most SMCX_FIRST_WAIT in all (per join, across its lookups) for other
 * holders.  0: held; -ETIMEDOUT: still taken, go on without it;
 * -ECONNABORTED: the handshake is being cancelled.
 */
static int smcx_join_lock(struct smcx_join *j)
{
	for (;;) {
		if (READ_ONCE(j->smc->aborting))
			return -ECONNABORTED;
		if (smcx_first_try(j)) {
			j->locked = true;
			return 0;
		}
		if (!j->wait_left)
			return -ETIMEDOUT;
		j->wait_left = wait_event_timeout(smcx_firsts_wait,
						  READ_ONCE(j->smc->aborting) ||
						  !smcx_first_busy(j),
						  j->wait_left);
	}
}

static void smcx_join_unlock(struct smcx_join *j)
{
	if (!j->locked)
		return;
	j->locked = false;
	spin_lock(&smcx_firsts_lock);
	list_del(&j->slot.list);
	spin_unlock(&smcx_firsts_lock);
	wake_up_all(&smcx_firsts_wait);
}

void smcx_join_kick(void)
{
	wake_up_all(&smcx_firsts_wait);
}

/*
 * Are @lnk (the connection's link) and its group still alive (after a
 * wait)?  0 with lgr->mutex held: the link's verbs objects stay valid
 * until the caller unlocks (see "Link group state after a wait"; link
 * clear takes the mutex before it unmaps); -ENOLINK without it.
 */
static int smcx_join_lock_alive(struct smcx_link *lnk)
{
	struct smcx_lgr *lgr = lnk->lgr;

	mutex_lock(&lgr->mutex);
	if (!lgr->dead && smcx_link_usable(lnk) && lnk->qp)
		return 0;
	mutex_unlock(&lgr->mutex);
	return -ENOLINK;
}

static int smcx_join_alive(struct smcx_link *lnk)
{
	int rc = smcx_join_lock_alive(lnk);

	if (!rc)
		mutex_unlock(&lnk->lgr->mutex);
	return rc;
}

/* first contact, the peer's side saved: RTR and RTS, on a live link */
static int smcx_join_link_ready(struct smcx_link *lnk)
{
	int rc = smcx_join_lock_alive(lnk);

	if (rc)
		return rc;
	rc = smcx_link_ready(lnk);
	mutex_unlock(&lnk->lgr->mutex);
	return rc;
}

/*
 * Undo a half-made SMC-R connection on j->lgr, the link group too if it
 * was new.  The join's reference on the group went to the connection if
 * smcx_conn_create() got it a place in the group (freeing it drops it),
 * else it is still the join's and is dropped here.  Nothing to undo before
 * a group was found or made.
 */
static void smcx_join_undo(struct smcx_join *j)
{
	struct smcx_sock *smc = j->smc;
	struct smcx_lgr *lgr = j->lgr;

	if (!lgr)
		return;
	kref_get(&lgr->ref);		/* across the connection's release */
	if (smc->conn && smc->conn->lgr)
		smcx_conn_free(smc);
	else
		smcx_lgr_put(lgr);
	if (j->first)
		smcx_lgr_terminate(lgr);
	smcx_lgr_put(lgr);
}

/*
 * The one exit of a join, both roles.  A failure (@rc, or @decline: a
 * decline owed to the peer) undoes it; the first-contact mutex is dropped
 * if held; then the decline goes out.  0 (SMC-R), a reason or -errno.
 */
static int smcx_join_end(struct smcx_join *j, int rc, u32 decline)
{
	if (rc || decline)
		smcx_join_undo(j);
	smcx_join_unlock(j);
	if (decline)
		return smcx_clc_decline(j->smc, decline, SMCX_CLC_V2);
	if (rc)
		return rc;
	/*
	 * A first contact's RMB: the peer has its rkey from our Accept or
	 * Confirm, on the link CONFIRM_LINK just confirmed, so a connection
	 * that reuses the buffer later sends no CONFIRM_RKEY (as mainline).
	 */
	if (j->first)
		smcx_buf_on(j->smc->conn->rmb, j->smc->conn->lnk)->rkey_conf =
			true;
	j->smc->smcr = true;
	return 0;
}

/*
 * Is the connection's RMB registered, and its key confirmed, on every
 * usable link of the group already (a buffer from the pool, whose keys
 * the peer has)?  Then the join has nothing to configure.  A link an
 * add-link flow is making (INIT) has neither, so such a join waits for the
 * flow; one made after this look lists the RMB in its ADD_LINK, as it is
 * registered on the old link.  Under lgr->mutex, which link clear holds
 * while it unmaps.
 */
static bool smcx_join_rmb_known(struct smcx_conn *conn)
{
	struct smcx_lgr *lgr = conn->lgr;
	struct smcx_buf_lnk *bl;
	struct smcx_link *l;
	bool known = true;

	mutex_lock(&lgr->mutex);
	for (l = smcx_lgr_next_link(lgr, NULL); l && known;
	     l = smcx_lgr_next_link(lgr, l)) {
		bl = smcx_buf_on(conn->rmb, l);
		known = bl->reg && bl->rkey_conf;
	}
	mutex_unlock(&lgr->mutex);
	return known;
}

/*
 * The connection's new RMB: registered on every link of the group (a
 * failure on another link than the connection's only leaves the RMB off
 * that link: its CONFIRM_RKEY does not name it there) and, on reuse
 * (@confirm), announced with CONFIRM_RKEY on the connection's link, with
 * its keys on the others.  Under the group's conf_mutex (lgr.h): an
 * ADD_LINK in progress either lists it or is over before.  A buffer the
 * peer knows on every link already needs none of that, and does not queue
 * for the lock behind the burst's new RMBs.
 *
 * The lock is waited for until @until, the peer's CLC wait less our step
 * (smcx_join_until()), and not once the handshake is aborted: a burst of
 * handshakes on one group registers its RMBs one after the other, and a
 * holder stuck on a slow peer makes the others decline (review N5).
 * -EBUSY: the lock was not taken and nothing was done; the caller
 * declines, and the peer goes on over TCP in time instead of timing out.
 */
static int smcx_join_reg_rmb(struct smcx_sock *smc, bool confirm,
			     unsigned long until)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lgr *lgr = conn->lgr;
	struct smcx_link *l;
	int rc;

	if (smcx_join_rmb_known(conn))
		return 0;
	rc = smcx_lgr_conf_lock(lgr, &smc->aborting, until);
	if (rc) {
		pr_info_ratelimited("%s: %d\n",
				    "new RMB: group configuration busy", rc);
		return rc == -ETIMEDOUT ? -EBUSY : rc;
	}
	rc = smcx_buf_reg(conn->lnk, conn->rmb, &smc->aborting);
	for (l = smcx_lgr_next_link(lgr, NULL); l && !rc;
	     l = smcx_lgr_next_link(lgr, l))
		if (l != conn->lnk && smcx_link_active(l))
			smcx_buf_reg(l, conn->rmb, &smc->aborting);
	if (!rc && confirm)
		rc = smcx_llc_confirm_rkey(conn->lnk, conn->rmb);
	smcx_lgr_conf_unlock(lgr);
	return rc;
}

/*
 * The RoCE v2 device port for the CLC socket's egress route, with the GID
 * of the connection's source address (IPv4 v4-mapped, or native IPv6:
 * clc.c judged the family against the peer's before)
 */
static int smcx_join_choose(struct smcx_sock *smc, struct smcx_ib_choice *c)
{
	struct sock *tcpsk = smc->clcsock->sk;
	struct dst_entry *dst;
	struct in6_addr gid;
	bool native6;
	int rc;

	if (!smcx_clc_src_gid(tcpsk, &gid, &native6))
		return -ENODEV;
	dst = sk_dst_get(tcpsk);
	if (!dst)
		return -ENODEV;
	rc = dst->dev ? smcx_ib_choose_gid(dst->dev, &gid, SMCX_ROCE_V2, NULL,
					   c) : -ENODEV;
	dst_release(dst);
	return rc;
}

/*
 * The peer's side of @conn, from its Accept or Confirm: the far end of the
 * connection's link (first contact) and the peer's RMB on it.
 */
static void smcx_join_save_peer(struct smcx_conn *conn,
				const struct smcx_clc_accept *a, bool first)
{
	struct smcx_link *lnk = conn->lnk;

	smcx_conn_set_peer_rmb(conn, lnk, a->rmbe_alert_token, a->rmb_rkey,
			       a->rmb_dma_addr,
			       smcx_uncompress_bufsize(a->rmbe_size));
	if (!first)
		return;
	lnk->peer_qpn = a->qpn;
	lnk->peer_psn = a->psn;
	lnk->peer_mtu = a->qp_mtu;
	memcpy(lnk->peer_gid, a->gid, SMCX_GID_LEN);
	memcpy(lnk->peer_mac, a->mac, ETH_ALEN);
	memcpy(conn->lgr->peer_systemid, a->peer_id, SMCX_PEERID_LEN);
	memcpy(conn->lgr->neg_eid, a->eid, SMCX_EID_LEN);
	memcpy(conn->lgr->peer_host, a->hostname, SMCX_HOSTNAME_LEN);
	conn->lgr->peer_os = a->os_type;
	conn->lgr->v2_direct = a->v2_direct;
}

/*
 * Client, SMC-R v2 accept received and judged (ctx->m.acc): make or reuse
 * the link group, answer with a confirm, and on first contact the
 * CONFIRM_LINK exchange (the server starts it).  A step that fails before
 * the confirm is declined (@decline, sent after the undo).
 */
static int smcx_join_clnt(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_clc_accept *a = &ctx->m.acc;
	struct smcx_join j = {
		.smc = smc,
		.first = smcx_clc_first_contact(&a->hdr),
		.wait_left = SMCX_FIRST_WAIT,
		.until = smcx_join_until(),	/* the server's Confirm wait */
	};
	u8 paddr[SMCX_GID_LEN];
	struct smcx_ib_choice c;
	struct smcx_link *lnk;
	struct smcx_lgr *lgr;
	u32 decline = 0;
	int rc = 0;

	if (smcx_join_choose(smc, &c)) {
		decline = SMCX_DECL_NOSMCRDEV;
		goto out;
	}
	smcx_clc_peer_addr(smc->clcsock->sk, paddr);
	/* as the server: one first contact at a time per peer */
	smcx_join_key(&j, SMCX_CLNT, &c, a->gid);
	rc = smcx_join_lock(&j);
	if (rc == -ECONNABORTED) {
		smcx_ib_choice_release(&c);
		goto out;
	}
	rc = 0;			/* -ETIMEDOUT: go on without the slot */
	if (j.first) {
		lgr = smcx_lgr_create(sock_net(&smc->sk), SMCX_CLNT, &c,
				      &ctx->neg, paddr);
	} else {
		lgr = smcx_lgr_find_net(sock_net(&smc->sk), SMCX_CLNT, c.dev,
					c.port, a->gid, a->peer_id, a->qpn);
		if (!lgr)
			lgr = ERR_PTR(-ENOENT);
	}
	if (!j.first)
		smcx_join_unlock(&j);
	smcx_ib_choice_release(&c);
	if (IS_ERR(lgr)) {
		/* over a cap (-EUSERS) as out of memory: TCP, reason MEM */
		decline = j.first ? SMCX_DECL_MEM : SMCX_DECL_SYNCERR;
		goto out;
	}
	j.lgr = lgr;
	if (smcx_conn_create(smc, lgr)) {
		decline = SMCX_DECL_MEM;
		goto out;
	}
	/* reuse: the link the server chose, which its Accept names */
	lnk = j.first ? smc->conn->lnk : smcx_lgr_link_to(lgr, a->gid, a->qpn);
	if (!lnk) {
		decline = SMCX_DECL_SYNCERR;
		goto out;
	}
	smcx_conn_use_link(smc->conn, lnk);
	smcx_conn_stated_start(smc->conn);	/* on the link the Accept names */
	smcx_join_save_peer(smc->conn, a, j.first);
	if (j.first && smcx_join_link_ready(lnk))
		decline = SMCX_DECL_ERR_RDYLNK;
	else if (smcx_join_reg_rmb(smc, !j.first, j.until))
		decline = SMCX_DECL_ERR_REGBUF;	/* as mainline */
	else if (smcx_join_alive(lnk))		/* after REG_MR, CONFIRM_RKEY */
		decline = SMCX_DECL_NOACTLINK;
	if (decline)
		goto out;
	rc = smcx_clc_send_confirm(smc, ctx, j.first);
	if (!rc && j.first)
		rc = smcx_llc_confirm_link_clnt(lnk);
out:
	return smcx_join_end(&j, rc > 0 ? -EPROTO : rc, decline);
}

/*
 * Server, reuse: does the client's Confirm name the far end of the link
 * @lnk (the connection's, which our Accept named) the group already has
 * with that peer?  A client may claim any GID in its Proposal; the Confirm
 * of a connection that really is the peer of this link repeats the link's
 * far end.  Otherwise the group's peer would get our RDMA writes and CDC
 * messages for a connection it never made.
 */
static bool smcx_join_same_peer(const struct smcx_link *lnk,
				const struct smcx_clc_accept *a)
{
	return !memcmp(a->gid, lnk->peer_gid, SMCX_GID_LEN) &&
	       !memcmp(a->mac, lnk->peer_mac, ETH_ALEN) &&
	       a->qpn == lnk->peer_qpn;
}

/*
 * Server, SMC-R v2 proposal we can serve (judged, ctx): find or make the
 * link group, accept, wait for the confirm, ready the link and run
 * CONFIRM_LINK on first contact.
 */
static int smcx_join_srv(struct smcx_sock *smc, struct smcx_clc_ctx *ctx)
{
	struct smcx_join j = {
		.smc = smc,
		.wait_left = SMCX_FIRST_WAIT,
		.until = smcx_join_until(),	/* the client's Accept wait */
	};
	u8 paddr[SMCX_GID_LEN];
	struct smcx_ib_choice c;
	struct smcx_link *lnk;
	struct smcx_lgr *lgr;
	unsigned int tries;
	bool offered = false, peer;
	u32 decline = 0;
	int rc;

	if (smcx_join_choose(smc, &c)) {
		rc = -ENODEV;
		goto out;
	}
	/*
	 * A reuse is offered only to the peer at the GID its Proposal claims
	 * (an SMC-R v2 peer claims its source address's): anyone else who
	 * could reach our listener could otherwise put a connection into
	 * that peer's group, cost it a REG_MR and a CONFIRM_RKEY, guess its
	 * QP number in the Confirm, or end it with an "out of sync" Decline
	 * (N1; clc.c).  Any other Proposal gets a first contact, without the
	 * peer's first-contact slot: it cannot delay the real peer's
	 * handshakes either.
	 */
	peer = smcx_clc_from_gid(smc->clcsock->sk, ctx->peer_gid);
	smcx_clc_peer_addr(smc->clcsock->sk, paddr);
	if (!peer)
		smcx_stats_gid_not_peer(sock_net(&smc->sk));
	/*
	 * First contacts are serialised per peer (see "Locking" above): a
	 * second proposal from the same peer waits and then finds the link
	 * group ready instead of making another one.  A group found with a
	 * free place may be full when the connection asks for it (another
	 * handshake took the last one): then look again, which finds another
	 * group or makes one.
	 */
	smcx_join_key(&j, SMCX_SRV, &c, ctx->peer_gid);
	for (tries = 0;; tries++) {
		rc = peer ? smcx_join_lock(&j) : 0;
		if (rc == -ECONNABORTED) {
			lgr = ERR_PTR(rc);
			break;
		}
		lgr = !peer ? NULL :
		      smcx_lgr_find_net(sock_net(&smc->sk), SMCX_SRV, c.dev,
					c.port, ctx->peer_gid, NULL, 0);
		j.first = !lgr;
		if (!j.first) {
			smcx_join_unlock(&j);
		} else {
			lgr = smcx_lgr_create(sock_net(&smc->sk), SMCX_SRV, &c,
					      &ctx->neg, paddr);
			if (IS_ERR(lgr))
				break;
			/* a new group's one link, lnk[0], is the new link */
			memcpy(lgr->lnk[0].peer_gid, ctx->peer_gid,
			       SMCX_GID_LEN);
		}
		rc = smcx_conn_create(smc, lgr);
		if (rc != -ENOSPC || j.first || tries == SMCX_SRV_LGR_TRIES)
			break;
		smcx_lgr_put(lgr);	/* ours: the group was full */
	}
	smcx_ib_choice_release(&c);
	if (IS_ERR(lgr))
		rc = PTR_ERR(lgr);
	else
		j.lgr = lgr;
	/*
	 * Over a cap (-EUSERS, lgr.h), or no memory for the group, the
	 * connection or its buffers (-ENOMEM: a memory cgroup at its limit,
	 * review N6): it is still our turn to speak, so decline with the
	 * MEM reason and the client goes on over TCP, as mainline's
	 * SMC_CLC_DECL_MEM; a reset would end a connection TCP can carry.
	 */
	if (rc == -EUSERS || rc == -ENOMEM) {
		rc = 0;
		decline = SMCX_DECL_MEM;
	}
	if (rc || decline)
		goto out;
	/*
	 * Reuse: the new RMB is registered and its rkey confirmed on the
	 * link before the Accept names it.  It is still our turn to speak,
	 * so a failure (no or a negative CONFIRM_RKEY answer, REG_MR
	 * failed or timed out, the group died meanwhile) is declined, as
	 * mainline declines it; the client falls back to TCP.  From here on
	 * a reuse that fails counts against the group (F11, see below),
	 * unless the group's configuration was too busy to start it: that
	 * cost the peer nothing.
	 */
	offered = !j.first;
	lnk = smc->conn->lnk;
	if (!j.first) {
		rc = smcx_join_reg_rmb(smc, true, j.until);
		offered = rc != -EBUSY;
		if (rc || smcx_join_alive(lnk)) {
			rc = 0;
			decline = SMCX_DECL_ERR_REGBUF;
			goto out;
		}
	}
	rc = smcx_clc_srv_accept(smc, ctx, j.first, &decline);
	if (rc || decline)
		goto out;
	/*
	 * First contact: the Confirm's GID is the one the Proposal claimed,
	 * which the first-contact slot and the group's link were keyed by
	 * (the save below would otherwise replace it, N4).
	 */
	if (j.first && memcmp(ctx->m.acc.gid, ctx->peer_gid, SMCX_GID_LEN)) {
		pr_info_ratelimited("%s\n",
				    "first contact: Confirm names another GID: reset");
		rc = -EPROTO;
		goto out;
	}
	if (!j.first && !smcx_join_same_peer(lnk, &ctx->m.acc)) {
		/* not its turn to hear from us: the client is done */
		pr_info_ratelimited("%s\n",
				    "reuse: Confirm names another peer: reset");
		rc = -EPROTO;
		goto out;
	}
	smcx_join_save_peer(smc->conn, &ctx->m.acc, j.first);
	if (j.first) {
		/* after the Confirm wait: is the group still there? */
		rc = smcx_join_link_ready(lnk);
		if (!rc)
			rc = smcx_buf_reg(lnk, smc->conn->rmb, &smc->aborting);
		if (!rc)
			rc = smcx_join_alive(lnk);
		if (!rc)
			rc = smcx_llc_confirm_link_srv(lnk);
		if (!rc)
			rc = smcx_join_alive(lnk);
		if (!rc)
			smcx_addlink_kick(lnk->lgr);	/* a second link */
	}
out:
	/*
	 * A reuse that failed after it cost the group's link a REG_MR and
	 * the peer a CONFIRM_RKEY, unless we cancelled it: a stranger
	 * claiming the peer's GID, or a client that does not confirm.  The
	 * group closes to reuse when that happens too often.
	 */
	if (offered && (rc || decline) && !READ_ONCE(smc->aborting))
		smcx_lgr_reuse_failed(j.lgr);
	return smcx_join_end(&j, rc, decline);
}

int smcx_join_client(struct smcx_sock *smc)
{
	struct smcx_clc_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	int rc;

	rc = smcx_clc_client(smc, ctx);		/* declines without @ctx */
	if (!rc)
		rc = ctx->smcd ? smcx_join_d_clnt(smc, ctx, ctx->len) :
				 smcx_join_clnt(smc, ctx);
	kfree(ctx);
	return rc;
}

int smcx_join_server(struct smcx_sock *smc)
{
	struct smcx_clc_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	int rc;

	rc = smcx_clc_server(smc, ctx);		/* -ENOMEM without @ctx */
	if (!rc && ctx->smcd)
		rc = smcx_join_d_srv(smc, ctx);
	else if (!rc)
		rc = smcx_clc_srv_unserved(smc, ctx, smcx_join_srv(smc, ctx));
	kfree(ctx);
	return rc;
}
