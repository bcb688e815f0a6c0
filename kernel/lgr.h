/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link groups (lgr.c; their links' liveness: lgr_live.c), the top of the
 * transport layer: the links between two hosts in one role, their buffers,
 * and the connections' tokens.
 * Below it: wr.h (work requests), link.h (the QP), buf.h (buffers); beside
 * it llc.h (LLC flows).  See docs/kernel-datapath.md.
 *
 * Shape (the SMC-R data path, module parameter smcr=1, the default):
 *   - room for SMCX_LGR_LINKS links per link group (lgr->lnk[]): the
 *     first is formed at first contact, the second by the ADD_LINK flow
 *     (addlink.c: the server offers it, the client answers or asks).
 *     Each link is made and cleared on its own; a link that fails is
 *     taken down (smcx_lgr_link_down()), and the group ends with its last
 *     usable link.  Whoever needs "the link" says which: the connection's
 *     (conn->lnk: its RDMA WRITEs, CDCs and CLC), the one a message came
 *     on, or the group's first active link for group-wide LLC flows;
 *   - a link group is one (role, device port, peer GID); the server puts
 *     up to the negotiated max_conns connections into it (v2.1, smcx/v2x.h;
 *     the client follows the server's first-contact flag); idle ones
 *     linger (module parameter lgr_linger_ms), cut short at module exit
 *     and device removal;
 *   - buffers (send buffer and RMB) belong to the link group, are physically
 *     contiguous and DMA mapped; RMBs are registered (REG_MR) for remote
 *     write; send buffers use the PD's local DMA lkey.  Reused across the
 *     link group's connections, freed with it.
 *
 * Lifetimes: a connection holds a reference on its link group (kref);
 * teardown (smcx_lgr_terminate) runs once in process context: QP to error,
 * drain, destroy verbs objects, drop the device; memory of the buffers goes
 * with the last reference.  Completions run in softirq (IB_POLL_SOFTIRQ);
 * they never sleep: LLC requests they cause go to work items, and the CDC
 * sends either post at once (conn.h, smcx_tx_kick()) or go to tx_work.
 *
 * Locks: smcx sock lock -> conn->tx_mutex -> lgr->mutex (process context);
 * conn->lock, link->tx_lock, lgr->conns_lock are leaf spinlocks (BH);
 * a post from softirq holds link->tx_lock around ib_post_send() (wr.c).
 */
#ifndef SMCX_LGR_H
#define SMCX_LGR_H

#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include <smcx/reuse.h>
#include <smcx/rtoken.h>
#include <smcx/v2x.h>
#include <smcx/wire.h>

#include "buf.h"
#include "ib.h"
#include "link.h"
#include "obj.h"
#include "stats.h"
#include "wr.h"

struct seq_file;
struct sock;

#define SMCX_ADD_RETRY		(10 * HZ)
#define SMCX_ADD_RETRY_MAX	(320 * HZ)
/* the least time between two add flows a peer's REQ_ADD_LINK starts */
#define SMCX_ADD_ASK_GAP	(2 * HZ)

/*
 * Link groups per peer address and per network namespace (N4).  A first
 * contact costs a group (a PD, a CQ, a QP, the receive ring, the first
 * buffers) before the peer proved anything, and anyone who reaches a
 * listener can ask for one with a Proposal naming a new GID each time.
 * So a namespace holds at most SMCX_LGR_PER_NET groups, and at most
 * SMCX_LGR_PER_PEER of one role to one peer address (the CLC connection's
 * far end, whatever GID it claims).  An honest peer needs one group per
 * SMCX_V2X_CONNS_MIN (16) to 255 connections, plus one draining at times:
 * 32 carry 512 connections at the smallest max_conns.  Constants, not
 * sysctls (mainline has no such knob); a first contact over a cap is
 * declined with SMCX_DECL_MEM (insufficient resources: the peer falls
 * back to TCP), counted as lgr_capped in debugfs "stats".  A group counts
 * from its creation until its memory is freed (smcx_lgr_release()).
 */
#define SMCX_LGR_PER_PEER	32
#define SMCX_LGR_PER_NET	1024

extern int smcx_smcr_enabled;		/* module parameter smcr */
extern u8 smcx_systemid[SMCX_PEERID_LEN];

struct smcx_lgr {
	struct list_head list;		/* smcx_lgrs */
	struct list_head counted;	/* smcx_lgrs_counted (the caps) */
	u8 peer_addr[SMCX_GID_LEN];	/* the CLC peer's address, GID form */
	struct kref ref;
	struct mutex mutex;		/* buffers, state, conn count */
	int role;			/* SMCX_CLNT / SMCX_SRV */
	struct smcx_ibdev *dev;		/* referenced until terminate */
	struct net *net;
	u8 id[SMCX_LLC_LGR_ID_LEN];
	u8 peer_systemid[SMCX_PEERID_LEN];
	struct smcx_v2x v2x;		/* release, max conns/links (v2.1) */
	u8 version;			/* SMCX_CLC_V2 */
	/*
	 * An SMC-D group over the loopback device (lo.h): no links, no
	 * device; its connections' RMBs are DMBs that their peers (sockets
	 * of this host) copy into.  Set at create, never changed.
	 */
	bool smcd;
	/* first contact, for the netlink dump (mainline's attributes) */
	u8 neg_eid[SMCX_EID_LEN];
	u8 peer_host[SMCX_HOSTNAME_LEN];
	u8 peer_os;
	u8 v2_direct;
	bool dead;
	bool terminating;
	unsigned long term_logged;	/* bit 0: the reason was logged */
	/* server: failed reuses (smcx/reuse.h); under smcx_lgrs_mutex */
	struct smcx_reuse_meter reuse;
	unsigned int conns_num;
	spinlock_t conns_lock;		/* conns (BH: completions look tokens up) */
	struct idr conns;		/* token -> the connection's struct sock */
	struct list_head bufs;
	/*
	 * Bytes on bufs, [0] send buffers and [1] RMBs (DMBs), pooled ones
	 * included: mainline's SNDBUF_ALLOC / RMB_ALLOC, DMB_ALLOC.  Written
	 * under lgr->mutex with bufs, read unlocked by the netlink dump.
	 */
	u64 buf_alloc[2];
	struct delayed_work linger;
	struct delayed_work watchdog;	/* sends that never complete */
	struct work_struct term_work;
	/*
	 * The link slots.  A slot goes UNUSED -> INIT -> ACTIVE -> DEAD;
	 * making and clearing links is serialised by links_mutex (taken
	 * before lgr->mutex).  A link's index never changes.
	 */
	struct mutex links_mutex;
	struct smcx_link lnk[SMCX_LGR_LINKS];
	u8 next_link_id;		/* the server's next new link's id */
	char pnetid[SMCX_PNETID_LEN + 1]; /* first link's netdev's, or "" */
	/*
	 * The group's configuration of keys and links: a new RMB's REG_MR on
	 * every link and its CONFIRM_RKEY (join.c), and adding a link
	 * (addlink.c), which registers every RMB on the new link and sends
	 * their keys, run one at a time (mainline's llc_conf_mutex): an RMB
	 * is either in the new link's key list or announced on both links.
	 * Taken before links_mutex; held across LLC waits and REG_MRs (each
	 * bounded).  Taken only through smcx_lgr_conf_lock(), which gives up
	 * behind a stuck holder and on an aborted handshake (review N5).
	 */
	struct mutex conf_mutex;
	unsigned int conf_gen;		/* takers of conf_mutex, counted */
	wait_queue_head_t conf_wait;	/* its waiters, in turn (lgr.h) */
	/* the peer's RMB keys per link (smcx/rtoken.h), under rtok_lock */
	spinlock_t rtok_lock;
	struct smcx_rtoks *rtoks;
	/*
	 * Adding a link, in process context (addlink.c): the server's offer
	 * after first contact, the client's answer to the peer's ADD_LINK
	 * (add_req, taken from the link the request came on, add_from).
	 * Queued with a group reference.  add_req, add_from and add_pending
	 * are under rtok_lock too.
	 */
	struct work_struct add_work;
	struct smcx_llc_msg add_req;
	u8 add_from;			/* lnk[] index the request came on */
	bool add_pending;		/* add_req holds a request to answer */
	bool add_ask;			/* client: send REQ_ADD_LINK */
	bool add_offered;		/* server: first offer made */
	/*
	 * Server without a second port of its own: it offers a second link
	 * on its one port (ASYMMETRIC_LOCAL) after first contact, when the
	 * client asks (add_asked, set by the LLC receive path), and, once a
	 * client took such a link (asym_taken), on the retry schedule too.
	 */
	bool add_asked;
	bool asym_taken;
	/*
	 * Server: when the watchdog looks for a second link again, and the
	 * wait after that (doubling from SMCX_ADD_RETRY to SMCX_ADD_RETRY_MAX
	 * while the flow fails, e.g. on a wire that drops everything and
	 * gave no port event); written under conf_mutex, and when a link
	 * goes down, which sets the first try after the loss while no tries
	 * are failing (add_backoff 0); read by the watchdog.
	 */
	unsigned long add_retry_at;
	unsigned long add_backoff;
	/*
	 * Server: the peer's REQ_ADD_LINK starts no flow before this (llc.c,
	 * smcx_llc_ask_allowed()); 0: none started yet.  READ/WRITE_ONCE.
	 */
	unsigned long add_ask_next;
};

/*
 * The group's configuration lock (conf_mutex above), for a handshake's
 * new RMB (join.c) and the add-link flows (addlink.c).  The holder may
 * wait seconds for a slow peer (a quiesce, a REG_MR, an LLC answer), so
 * nobody sleeps uninterruptibly behind it (review N5): a waiter tries the
 * mutex and sleeps, in turn, on conf_wait; smcx_lgr_conf_unlock() wakes
 * the first waiter only, which keeps its place in the queue while it
 * sleeps (a burst of handshakes is served in order, without a herd of
 * wakeups per hand-over on a small guest).  It
 * gives up (-ETIMEDOUT) at @until, and when the mutex has not changed
 * hands for SMCX_CONF_STALL (conf_gen, counted by each taker): longer
 * than a holder's own bounded waits allow (a quiesce, SMCX_REG_WAIT, then
 * an LLC exchange), so the holder is stuck.  A handshake's @until is
 * where its peer's CLC wait ends, less the time its own step needs
 * (join.c): a burst of honest handshakes keeps the lock moving and each
 * waits its turn, but one still waiting when its peer is about to give
 * up declines instead, and the peer goes on over TCP (it would otherwise
 * time out, and we would register and announce an RMB for a connection
 * already gone).  The add-link flow waits up to SMCX_CONF_WAIT_MAX.  A
 * slow peer does not keep the lock for long either: after one quiesce
 * timed out, the next fail at once (smcx_wr_quiesce()).  A waiter gives
 * up at once when *@abort is set (-ECONNABORTED: @abort is the
 * handshake's smc->aborting, NULL for none); nobody wakes it for that,
 * so it looks every SMCX_CONF_POLL.  A waiter that gives up passes a
 * wakeup it may have taken on to the next one.
 */
#define SMCX_CONF_STALL		(13 * HZ)
#define SMCX_CONF_WAIT_MAX	(30 * HZ)
#define SMCX_CONF_POLL		(HZ / 10)

static inline int smcx_lgr_conf_lock(struct smcx_lgr *lgr, const bool *abort,
				     unsigned long until)
{
	unsigned int gen = READ_ONCE(lgr->conf_gen);
	unsigned long moved = jiffies;
	DEFINE_WAIT(wait);
	int rc;

	for (;;) {
		/* queued once, at the tail; a timed-out sleep keeps the place */
		prepare_to_wait_exclusive(&lgr->conf_wait, &wait, TASK_IDLE);
		rc = -ECONNABORTED;
		if (abort && READ_ONCE(*abort))
			break;
		if (mutex_trylock(&lgr->conf_mutex)) {
			WRITE_ONCE(lgr->conf_gen, lgr->conf_gen + 1);
			rc = 0;
			break;
		}
		if (READ_ONCE(lgr->conf_gen) != gen) {
			gen = READ_ONCE(lgr->conf_gen);
			moved = jiffies;
		}
		rc = -ETIMEDOUT;
		if (time_after_eq(jiffies, moved + SMCX_CONF_STALL) ||
		    time_after_eq(jiffies, until))
			break;
		schedule_timeout(SMCX_CONF_POLL);
	}
	finish_wait(&lgr->conf_wait, &wait);
	if (rc && !mutex_is_locked(&lgr->conf_mutex))
		wake_up(&lgr->conf_wait);	/* the turn we may have taken */
	return rc;
}

/* the lock if it is free now (a short holder: buf.c's reaper), else false */
static inline bool smcx_lgr_conf_trylock(struct smcx_lgr *lgr)
{
	return mutex_trylock(&lgr->conf_mutex);
}

static inline void smcx_lgr_conf_unlock(struct smcx_lgr *lgr)
{
	mutex_unlock(&lgr->conf_mutex);
	wake_up(&lgr->conf_wait);	/* the first waiter */
}

/*
 * The next usable link (INIT or ACTIVE) of @lgr after @prev (NULL: the
 * first), or NULL: each usable link in slot order is
 *
 *	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
 *	     lnk = smcx_lgr_next_link(lgr, lnk))
 */
static inline struct smcx_link *smcx_lgr_next_link(struct smcx_lgr *lgr,
						   struct smcx_link *prev)
{
	int i;

	for (i = prev ? prev->idx + 1 : 0; i < SMCX_LGR_LINKS; i++)
		if (smcx_link_usable(&lgr->lnk[i]))
			return &lgr->lnk[i];
	return NULL;
}

/*
 * The group's first ACTIVE link, or NULL: the one a group-wide LLC flow
 * (our DELETE_LINK of the whole group) goes on.  A hint without
 * lgr->links_mutex: the link may die right after, and the flow then fails
 * with -ENOLINK like any other on a dead link.
 */
static inline struct smcx_link *smcx_lgr_first_active(struct smcx_lgr *lgr)
{
	struct smcx_link *lnk;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		if (smcx_link_active(lnk))
			return lnk;
	return NULL;
}

/* the statistics block @lgr's buffers count in: its technology's */
static inline struct smcx_stats __percpu *smcx_lgr_stats(struct smcx_lgr *lgr)
{
	return smcx_stats_of_tech(lgr->net, lgr->smcd ? SMCX_TECH_D :
							SMCX_TECH_R);
}

/* how many links of @lgr are ACTIVE (the group's redundancy) */
static inline unsigned int smcx_lgr_active_links(struct smcx_lgr *lgr)
{
	struct smcx_link *lnk;
	unsigned int n = 0;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		n += smcx_link_active(lnk);
	return n;
}

/*
 * The link a new connection of @lgr sends on (conn->lnk): the ACTIVE one
 * with the fewest connections (the first of equals), else the first usable
 * one (a first contact's link, still INIT until CONFIRM_LINK), else NULL.
 */
static inline struct smcx_link *smcx_lgr_conn_link(struct smcx_lgr *lgr)
{
	struct smcx_link *lnk, *best = NULL;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		if (smcx_link_active(lnk) &&
		    (!best || atomic_read(&lnk->conn_cnt) <
			      atomic_read(&best->conn_cnt)))
			best = lnk;
	return best ?: smcx_lgr_next_link(lgr, NULL);
}

/*
 * The ACTIVE link of @lgr whose far end is the peer's QP @qpn on @gid (a
 * client's reuse: the server's Accept names the link it chose), or NULL.
 */
static inline struct smcx_link *smcx_lgr_link_to(struct smcx_lgr *lgr,
						 const u8 *gid, u32 qpn)
{
	struct smcx_link *lnk;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		if (smcx_link_active(lnk) && lnk->peer_qpn == qpn &&
		    !memcmp(lnk->peer_gid, gid, SMCX_GID_LEN))
			return lnk;
	return NULL;
}

/* the usable link of @lgr with the wire's @link_id, or NULL */
static inline struct smcx_link *smcx_lgr_link_by_id(struct smcx_lgr *lgr,
						    u8 link_id)
{
	struct smcx_link *lnk;

	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk))
		if (lnk->link_id == link_id)
			return lnk;
	return NULL;
}

/*
 * The group's type in mainline's terms (enum smc_lgr_type in
 * net/smc/smc_core.h, SMC_NLA_LGR_R_TYPE): NONE without an active link,
 * SINGLE with one; with two, SYMMETRIC when both ends have a device per
 * link, else ASYMMETRIC_LOCAL or _PEER (the side with one port for both
 * links: ours when both links leave from one of our ports, the peer's when
 * both end at one peer GID).
 */
enum smcx_lgr_type {
	SMCX_LGR_NONE = 0,
	SMCX_LGR_SINGLE = 1,
	SMCX_LGR_SYMMETRIC = 2,
	SMCX_LGR_ASYMMETRIC_PEER = 3,
	SMCX_LGR_ASYMMETRIC_LOCAL = 4,
};

static inline u8 smcx_lgr_type(struct smcx_lgr *lgr)
{
	struct smcx_link *a = smcx_lgr_first_active(lgr), *b = NULL;

	if (a)
		for (b = smcx_lgr_next_link(lgr, a); b;
		     b = smcx_lgr_next_link(lgr, b))
			if (smcx_link_active(b))
				break;
	if (!a)
		return SMCX_LGR_NONE;
	if (!b)
		return SMCX_LGR_SINGLE;
	/* both links from one of our ports: we are the side with one */
	if (a->ibdev == b->ibdev && a->port == b->port)
		return SMCX_LGR_ASYMMETRIC_LOCAL;
	if (!memcmp(a->peer_gid, b->peer_gid, SMCX_GID_LEN))
		return SMCX_LGR_ASYMMETRIC_PEER;
	return SMCX_LGR_SYMMETRIC;
}

int smcx_lgr_init(void);
void smcx_lgr_exit(void);
int smcx_lgr_for_each(int (*fn)(struct smcx_lgr *lgr, void *arg), void *arg);
/*
 * A group of @net (a connection never joins another namespace's group) to
 * reuse, referenced, or NULL; see lgr.c.
 */
struct smcx_lgr *smcx_lgr_find_net(const struct net *net, int role,
				   struct smcx_ibdev *dev, u32 port,
				   const u8 *peer_gid, const u8 *peer_systemid,
				   u32 peer_qpn);
/*
 * Server: a reuse of @lgr failed (declined, reset, never confirmed).  Too
 * many close the group to reuse for a while; see smcx/reuse.h.
 */
void smcx_lgr_reuse_failed(struct smcx_lgr *lgr);
/*
 * A new group of @role in @net, to the peer at @peer_addr (the CLC
 * connection's far end, GID form): referenced, or an ERR_PTR; -EUSERS:
 * over a cap (SMCX_LGR_PER_PEER, SMCX_LGR_PER_NET).
 */
struct smcx_lgr *smcx_lgr_create(struct net *net, int role,
				 struct smcx_ib_choice *choice,
				 const struct smcx_v2x *v2x, const u8 *peer_addr);
/*
 * SMC-D loopback: a new group of @role in @net (referenced, or an
 * ERR_PTR), or one with room to reuse (referenced, or NULL).  The peer
 * is this host, so a group is one (namespace, role).
 */
struct smcx_lgr *smcx_lgr_create_d(struct net *net, int role,
				   const struct smcx_v2x *v2x);
struct smcx_lgr *smcx_lgr_find_d(const struct net *net, int role);
void smcx_lgr_put(struct smcx_lgr *lgr);
/*
 * The token table: each connection is known by its socket, on which the
 * table holds a reference while the connection is in it.
 */
int smcx_lgr_conn_add(struct smcx_lgr *lgr, struct sock *sk);
void smcx_lgr_conn_del(struct smcx_lgr *lgr, struct sock *sk, u32 token);
struct sock *smcx_lgr_conn_get(struct smcx_lgr *lgr, u32 token);
/*
 * The one upcall of the link group layer, set by the connection layer
 * (smcx_conn_init()) at module init, before any link group exists, and
 * read-only afterwards: terminate calls @fn once for each connection
 * still in the group (@lnk and @to NULL): @fn fails it, sending nothing.
 * A link's down calls it for each connection in the group after the
 * link was cleared (every send on it completed or flushed): those that
 * send on @lnk move to the ACTIVE link @to (failover), or fail when they
 * cannot (@to NULL: none).  Process context, with a reference on @sk.
 */
void smcx_lgr_set_conn_abort(void (*fn)(struct sock *sk,
					struct smcx_link *lnk,
					struct smcx_link *to));
/*
 * Can the connections of @lnk move to another link when it fails: has its
 * group another ACTIVE link?  A hint (links come and go): the send paths
 * use it to leave a connection to the failover rather than fail it.
 */
static inline bool smcx_lgr_can_failover(struct smcx_link *lnk)
{
	return smcx_lgr_active_links(lnk->lgr) > smcx_link_active(lnk);
}

void smcx_lgr_terminate(struct smcx_lgr *lgr);
void smcx_lgr_terminate_async(struct smcx_lgr *lgr, const char *why);
/*
 * @lnk failed (QP or completion error, no answer, the peer's DELETE_LINK
 * of it, its port down); any context, @why for the log.  The last ACTIVE
 * link of its group takes the group with it (terminate); otherwise the
 * link alone is cleared, in process context, its connections move to an
 * ACTIVE link (failover, see the upcall above), and the peer is told by
 * a DELETE_LINK over that link.
 */
void smcx_lgr_link_down(struct smcx_link *lnk, const char *why);

/*
 * The peer's RMB keys (lgr->rtoks, smcx/rtoken.h) under lgr->rtok_lock.
 * A connection refers to the entry of its peer RMB (get: the key and
 * address its CLC message named on @lnk; -1: none) until it is freed
 * (put); the keys on the other links come by LLC (learn).
 */
/*
 * One link of @lgr goes (not the group): its clear, and the peer's keys
 * on it, under links_mutex, so that a slot made again starts with none.
 */
void smcx_lgr_link_clear(struct smcx_lgr *lgr, struct smcx_link *lnk);
int smcx_lgr_rtok_get(struct smcx_lgr *lgr, struct smcx_link *lnk, u32 rkey,
		      u64 addr);
void smcx_lgr_rtok_put(struct smcx_lgr *lgr, int idx);
int smcx_lgr_rtok_key(struct smcx_lgr *lgr, int idx, struct smcx_link *lnk,
		      u32 *rkey, u64 *addr);
/* the peer's CONFIRM_RKEY, which came on @lnk */
void smcx_lgr_rtok_confirm(struct smcx_lgr *lgr, struct smcx_link *lnk,
			   const struct smcx_llc_confirm_rkey *c);
/* the peer's DELETE_RKEY of the RMB with @rkey on @lnk: 0, or -ENOENT */
int smcx_lgr_rtok_delete(struct smcx_lgr *lgr, struct smcx_link *lnk,
			 u32 rkey);
/* ADD_LINK's list: @n triples of keys on @from, keys on @to (wire form) */
void smcx_lgr_rtok_add_link(struct smcx_lgr *lgr, struct smcx_link *from,
			    struct smcx_link *to, const u8 *rts, unsigned int n);

#endif /* SMCX_LGR_H */
