// SPDX-License-Identifier: GPL-2.0
/*
 * SMC-R connections: create and free (a place in the link group, a send
 * buffer and an RMB), the wake-ups and waits the other parts of the
 * connection layer share, the debugfs view, and the layer's init.  See
 * conn.h for the parts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "conn.h"
#include "lgr.h"
#include "obj.h"

void smcx_conn_wake(struct smcx_sock *smc, __poll_t events)
{
	struct sock *sk = &smc->sk;
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (wq && skwq_has_sleeper(wq))
		wake_up_interruptible_poll(&wq->wait, events);
	if (wq && events & (EPOLLIN | EPOLLRDHUP))
		sk_wake_async_rcu(sk, SOCK_WAKE_WAITD, POLL_IN);
	if (wq && events & EPOLLOUT)
		sk_wake_async_rcu(sk, SOCK_WAKE_SPACE, POLL_OUT);
	rcu_read_unlock();
}

/* sock lock held; returns with it held */
int smcx_conn_wait(struct smcx_sock *smc, long *timeo,
		   bool (*cond)(struct smcx_sock *smc))
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;

	add_wait_queue(sk_sleep(sk), &wait);
	sk_wait_event(sk, timeo, cond(smc), &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	if (signal_pending(current))
		return sock_intr_errno(*timeo);
	return 0;
}

/*
 * The send buffer / RMB size a new connection of @sk wants: half its
 * sk_sndbuf / sk_rcvbuf, which hold 2 x net.smc.wmem / rmem of its
 * namespace unless the application set SO_SNDBUF / SO_RCVBUF (on a tcp2smc
 * or preloaded socket too: the smcx sock takes SOL_SOCKET settings); a
 * server connection's come from its listener (listen.c).  Rounded up to a
 * size the CLC can carry (smcx/bufsize.h), at most SMCX_LO_DMB_MAX for
 * SMC-D (@smcd).  smcx_buf_get() may give less.
 */
static u32 smcx_buf_size(const struct sock *sk, bool rmb, bool smcd)
{
	int skbuf = rmb ? READ_ONCE(sk->sk_rcvbuf) : READ_ONCE(sk->sk_sndbuf);
	u32 size = smcx_bufsize_uncompress(smcx_bufsize_for_sock(skbuf));

	return smcd ? min(size, SMCX_LO_DMB_MAX) : size;
}

/*
 * A connection of @smc in @lgr.  Its place in the group comes first: if
 * there is none (-ENOSPC: the group is full or dead), nothing was made,
 * the caller keeps its reference on @lgr and may try another group with
 * the same @smc.  Otherwise the reference is the connection's, whatever
 * else fails.
 */
int smcx_conn_create(struct smcx_sock *smc, struct smcx_lgr *lgr)
{
	struct smcx_conn *conn = smc->conn;
	int rc;

	if (!conn) {		/* else left by a try that found no place */
		conn = kzalloc(sizeof(*conn), GFP_KERNEL);
		if (!conn)
			return -ENOMEM;
		smcx_obj_inc(SMCX_OBJ_CONN);
		spin_lock_init(&conn->lock);
		mutex_init(&conn->tx_mutex);
		INIT_WORK(&conn->tx_work, smcx_tx_work);
		INIT_DELAYED_WORK(&conn->close_work, smcx_close_work);
		conn->owner = smc;
		conn->peer_rtok = -1;
		conn->close.state = SMCX_INIT;	/* ACTIVE at smcx_conn_up() */
		smc->conn = conn;
	}
	/* before the token table: a link's down reads it there */
	conn->lnk = lgr->smcd ? NULL : smcx_lgr_conn_link(lgr);
	if (!conn->lnk && !lgr->smcd)
		return -ENOSPC;		/* no usable link: the group is going */
	conn->lgr = lgr;		/* takes the caller's reference */
	if (conn->lnk)
		smcx_conn_stated_start(conn);	/* before the token table */
	rc = smcx_lgr_conn_add(lgr, &smc->sk);
	if (rc < 0) {
		conn->lgr = NULL;	/* ... or leaves it */
		conn->lnk = NULL;
		return rc;
	}
	conn->token = rc;
	if (conn->lnk)
		atomic_inc(&conn->lnk->conn_cnt);
	conn->sndbuf = smcx_buf_get(lgr, &smc->sk,
				    smcx_buf_size(&smc->sk, false, lgr->smcd),
				    false);
	conn->rmb = smcx_buf_get(lgr, &smc->sk,
				 smcx_buf_size(&smc->sk, true, lgr->smcd), true);
	if (!conn->sndbuf || !conn->rmb)
		return -ENOMEM;
	/* as mainline: max(RMB/10, SOCK_MIN_SNDBUF/2) */
	conn->rmbe_update_limit = max_t(u32, conn->rmb->size / 10,
					SOCK_MIN_SNDBUF / 2);
	if (lgr->smcd)		/* the peer finds our RMB by this token */
		return smcx_lo_dmb_add(lgr, conn->rmb, conn->token,
				       smc->clcsock->sk, &conn->dmb_token);
	return 0;
}

/*
 * A new connection's WRITE WITH IMMEDIATE start (smcx/wwi.h, bit 2): on a
 * group that negotiated it, both ends state producer count 0 on the link
 * pair the CLC handshake names, so the first push may be one.  Called
 * again when a client moves to the link the server's Accept names, before
 * its Confirm, so before the peer can send anything.
 */
void smcx_conn_stated_start(struct smcx_conn *conn)
{
	if (!conn->lgr->v2x.wwi_first)
		return;
	spin_lock_bh(&conn->lock);
	conn->tx_stated = 0;
	conn->tx_stated_lnk = conn->lnk;
	conn->rx_stated = 0;
	conn->rx_stated_lnk = conn->lnk->idx;
	conn->rx_stated_set = true;
	spin_unlock_bh(&conn->lock);
}

void smcx_conn_use_link(struct smcx_conn *conn, struct smcx_link *lnk)
{
	if (conn->lnk == lnk)
		return;
	atomic_inc(&lnk->conn_cnt);
	atomic_dec(&conn->lnk->conn_cnt);
	WRITE_ONCE(conn->lnk, lnk);
}

/*
 * Give back the link group's resources; process context, idempotent.  The
 * caller holds a reference on the sock of its own.
 *
 * A CDC receive (softirq) may have looked the connection up just before
 * it left the token table and still run: it reads rmb under conn->lock,
 * so the pointers are cleared under that lock before the buffers go back
 * to the pool (where another connection may take them); the pushes
 * (process context, tx_work and completions) read them with the send side
 * owned (tx.c smcx_tx_lock()), which is held around the same stores.
 *
 * The close state machine's FREE event decides the RMB's fate
 * (smcx_close_rmb_reusable()): back to the pool, or, while the peer may
 * still write into it, which would write into the stream of the next
 * connection that takes it (review N2), retired: kept, registered and out
 * of the pool, until the group's release (buf.c).
 */
void smcx_conn_free(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lo_peer peer = {};
	struct smcx_buf *sndbuf, *rmb;
	struct smcx_lgr *lgr;
	bool reusable;

	if (!conn || !conn->lgr)
		return;
	lgr = conn->lgr;
	/* SMC-D: no new attach to our RMB from here */
	if (conn->dmb_token)
		smcx_lo_dmb_del(conn->dmb_token);
	conn->dmb_token = 0;
	smcx_lgr_conn_del(lgr, &smc->sk, conn->token);
	/* each queueing holds a sock reference that the run would drop */
	if (cancel_work_sync(&conn->tx_work))
		sock_put(&smc->sk);
	smcx_tx_lock(conn);
	spin_lock_bh(&conn->lock);
	sndbuf = conn->sndbuf;
	rmb = conn->rmb;
	reusable = __smcx_close_event(smc, SMCX_CLOSE_EV_FREE) &
		   SMCX_CA_RMB_POOL;
	conn->sndbuf = NULL;
	conn->rmb = NULL;
	conn->lgr = NULL;
	if (conn->lnk)
		atomic_dec(&conn->lnk->conn_cnt);
	WRITE_ONCE(conn->lnk, NULL);
	swap(peer, conn->peer_dmb);
	spin_unlock_bh(&conn->lock);
	smcx_tx_unlock(smc);
	smcx_lo_dmb_detach(&peer);	/* no push runs any more */
	if (sndbuf && !conn->tx_attached)	/* else the peer's DMB */
		smcx_buf_put(lgr, sndbuf);
	if (rmb && reusable)
		smcx_buf_put(lgr, rmb);
	else if (rmb)
		smcx_buf_retire(lgr, rmb);
	smcx_lgr_rtok_put(lgr, conn->peer_rtok);
	conn->peer_rtok = -1;
	smcx_lgr_put(lgr);
}

/*
 * The peer's RMB, from its CLC Accept or Confirm, which names its rkey and
 * address on @lnk (the connection's link).  The size goes last with
 * release semantics: it says the rest is there.  A reader (CDC receive in
 * softirq, tx_work) loads it with smp_load_acquire() (0: not known yet)
 * before it reads the others.
 */
void smcx_conn_set_peer_rmb(struct smcx_conn *conn, struct smcx_link *lnk,
			    u32 token, u32 rkey, u64 addr, u32 size)
{
	conn->peer_token = token;
	conn->peer_rkey[lnk->idx] = rkey;
	conn->peer_rmb_addr[lnk->idx] = addr;
	if (conn->peer_rtok < 0)
		conn->peer_rtok = smcx_lgr_rtok_get(conn->lgr, lnk, rkey, addr);
	/* pairs with smp_load_acquire() in smcx_tx_push() */
	smp_store_release(&conn->peer_rmbe_size, size);
}

void smcx_conn_set_peer_dmb(struct smcx_conn *conn, struct smcx_lo_peer *peer)
{
	struct smcx_buf *own = conn->sndbuf;

	conn->peer_dmb = *peer;
	peer->lgr = NULL;
	conn->peer_token = conn->peer_dmb.alert;
	/*
	 * Inside the handshake: nothing was sent or copied yet, and nothing
	 * else reads the send buffer before the connection is up.
	 */
	if (smcx_lo_attach) {
		conn->sndbuf = conn->peer_dmb.buf;
		conn->tx_attached = true;
		smcx_buf_put(conn->lgr, own);
	}
	/* pairs with smp_load_acquire() in smcx_tx_push() */
	smp_store_release(&conn->peer_rmbe_size, conn->peer_dmb.buf->size);
}

/* sk_destruct: the memory only */
void smcx_conn_destruct(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	if (!conn)
		return;
	smc->conn = NULL;
	kfree(conn);
	smcx_obj_dec(SMCX_OBJ_CONN);
}

/*
 * debugfs "socks": the connection's cursors and flags under its lock, for
 * telling a stalled transfer's side (who waits for which cursor) from the
 * outside.
 */
void smcx_conn_show(struct seq_file *m, struct smcx_conn *conn)
{
	spin_lock_bh(&conn->lock);
	seq_printf(m, "  conn token %08x peer %08x tx prep %llu sent %llu fin %llu peer_cons %llu rx prod %llu cons %llu cons_sent %llu seq %u inline %u state %u flags %s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\n",
		   conn->token, conn->peer_token, conn->tx_prep, conn->tx_sent,
		   conn->tx_fin, conn->peer_cons, conn->rx_prod, conn->rx_cons,
		   conn->rx_cons_sent, conn->tx_seq,
		   /* the link's inline limit (wr.c); the link lives with lgr */
		   conn->lgr && conn->lnk ? conn->lnk->max_inline : 0,
		   conn->close.state,
		   conn->peer_write_blocked ? "Pwb " : "",
		   conn->close.peer.done_writing ? "Pdw " : "",
		   conn->close.peer.closed ? "Pcl " : "",
		   conn->close.peer.abort ? "Pab " : "",
		   conn->close.local.done_writing ? "Ldw " : "",
		   conn->close.local.closed ? "Lcl " : "",
		   conn->close.local.abort ? "Lab " : "",
		   conn->closed_sent ? "Lcs " : "",
		   conn->abort_sent ? "Las " : "",
		   conn->close_landed ? "land " : "",
		   conn->close.gone ? "dead " : "",
		   conn->close.exposed ? "exp " : "",
		   conn->close.released ? "rel " : "",
		   conn->lgr && conn->lgr->v2x.write_imm ? "wwi " : "",
		   conn->lgr && conn->lgr->v2x.wwi_first ? "wwi1 " : "",
		   conn->lgr ? "" : "nolgr");
	spin_unlock_bh(&conn->lock);
}

/* module init of the connection layer, before any link exists */
int smcx_conn_init(void)
{
	smcx_close_init();
	return smcx_cdc_init();
}
