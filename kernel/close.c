// SPDX-License-Identifier: GPL-2.0
/*
 * Close: shutdown (done writing), close() (the data out, then "connection
 * closed"), the close work that frees the connection once the peer closed
 * or aborted (or gave no sign for SMCX_CLOSE_WAIT), the abort when the
 * link group goes, and the drop of a connection no application holds.
 *
 * Two facts are kept apart: "nothing can be sent any more" (aborted: the
 * link group or the connection's link is gone, set by smcx_conn_abort()
 * and tx.c) and "we abort" (local_abort: every later CDC carries the abort
 * flag, which still goes out).  After our abort the close work keeps the
 * connection registered until the peer is quiet (smcx_conn_peer_quiet())
 * or SMCX_ABORT_WAIT passed; the free then pools the RMB only if the peer
 * can no longer write into it (smcx_conn_rmb_reusable()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <net/sock.h>

#include "conn.h"
#include "lgr.h"

#define SMCX_CLOSE_WAIT		(30 * HZ)	/* peer's close after ours */
#define SMCX_FLUSH_WAIT		(10 * HZ)	/* in-flight data at close */
#define SMCX_CLOSE_LAND_WAIT	(10 * HZ)	/* our close CDC's completion */
#define SMCX_ABORT_WAIT		(10 * HZ)	/* the peer's answer to our abort */
#define SMCX_CLOSE_LAND_POLL	(HZ / 10)

/*
 * Run close_work after @delay (sooner if it is pending).  Every queueing
 * carries a sock reference that the run drops, and a run may come after
 * an earlier one (a CDC with the peer's close or abort arriving while the
 * first ran): smcx_conn_free() is idempotent, so that run only drops its
 * reference.  Any context.
 */
void smcx_close_kick(struct smcx_sock *smc, unsigned long delay)
{
	sock_hold(&smc->sk);
	if (mod_delayed_work(smcx_wq, &smc->conn->close_work, delay))
		sock_put(&smc->sk);	/* was pending: that queueing's ref */
}

/*
 * Move the close state on @ev (the rule: include/smcx/state.h), beside the
 * flag the caller just set; conn->lock held.  Only sock_diag reads the
 * state: the flags drive the protocol.
 */
void smcx_close_event(struct smcx_conn *conn, enum smcx_close_ev ev)
{
	lockdep_assert_held(&conn->lock);
	WRITE_ONCE(conn->state, smcx_close_next(conn->state, ev, conn->released,
						conn->peer_closed));
}

/* smcx_close_event() for process context, taking conn->lock */
static void smcx_close_event_bh(struct smcx_conn *conn,
				enum smcx_close_ev ev)
{
	spin_lock_bh(&conn->lock);
	smcx_close_event(conn, ev);
	spin_unlock_bh(&conn->lock);
}

/* link down or peer gone: wake everyone with ECONNRESET */
void smcx_conn_abort(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	spin_lock_bh(&conn->lock);
	conn->aborted = true;
	smcx_close_event(conn, SMCX_CLOSE_EV_GONE);
	if (!smc->sk.sk_err)
		WRITE_ONCE(smc->sk.sk_err, ECONNRESET);
	spin_unlock_bh(&conn->lock);
	smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP);
	if (conn->released)
		smcx_close_kick(smc, 0);
}

/*
 * Let go of a connection whose socket no application holds and that the
 * peer may consider open: a child of a listener closed (or shut down)
 * before accept() took it, a connect aborted after its join (release or
 * shutdown during the handshake, or its CLC TCP connection died).  TCP
 * would send a reset; we abort: a CDC with the abort flag and no data
 * goes to the peer (its reads and writes end with ECONNRESET), and the
 * close work frees the connection once the peer answered (its abort,
 * close or done writing: quiet) or SMCX_ABORT_WAIT passed or the group
 * went, never at once, so the RMB is not pooled while the peer may write.
 *
 * References: the caller still holds its own on the sock (the listener's
 * list or the handshake's owner) and may drop it right after; the close
 * work's queueing holds another until its last run (smcx_close_kick()),
 * and the sock holds the module (sk_alloc()), so unload waits for the
 * bounded close work.  Process context, without the sock lock.
 */
void smcx_conn_drop(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	if (!conn || !conn->lgr)
		return;
	spin_lock_bh(&conn->lock);
	conn->released = true;
	conn->local_abort = true;
	/* pushed by the close work, and by completions until it went out */
	conn->abort_owed = true;
	smcx_close_event(conn, SMCX_CLOSE_EV_ABORT);
	smcx_close_event(conn, SMCX_CLOSE_EV_CLOSE);
	if (!smc->sk.sk_err)
		WRITE_ONCE(smc->sk.sk_err, ECONNRESET);
	spin_unlock_bh(&conn->lock);
	smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP);
	smcx_close_kick(smc, 0);
}

/*
 * lgr.c's upcall: the link group of @sk's connection is going (@lnk NULL),
 * or the link @lnk of it, cleared; a connection that sends on that link
 * moves to @to (tx.c, failover) or fails.  conn->lnk changes only with
 * the send side owned (smcx_tx_lock()), here and in a client's join.
 */
static void smcx_close_lgr_gone(struct sock *sk, struct smcx_link *lnk,
				struct smcx_link *to)
{
	struct smcx_sock *smc = smcx_sk(sk);

	if (lnk && READ_ONCE(smc->conn->lnk) != lnk)
		return;
	if (lnk && to && !smcx_tx_failover(smc, lnk, to))
		return;
	smcx_conn_abort(smc);
}

/* module init: the link group layer aborts connections through us */
void smcx_close_init(void)
{
	smcx_lgr_set_conn_abort(smcx_close_lgr_gone);
}

int smcx_conn_shutdown(struct smcx_sock *smc, int how)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;

	/*
	 * TCP's socket is CLOSE once both FINs went (or after a reset), and
	 * shutdown() on it is ENOTCONN.
	 */
	if (smcx_conn_dead(conn) || READ_ONCE(conn->reset) ||
	    (conn->local_done_writing && conn->peer_done_writing))
		return -ENOTCONN;
	if ((how + 1) & RCV_SHUTDOWN)
		sk->sk_shutdown |= RCV_SHUTDOWN;
	if (((how + 1) & SEND_SHUTDOWN) && !conn->local_done_writing) {
		sk->sk_shutdown |= SEND_SHUTDOWN;
		conn->local_done_writing = true;
		smcx_close_event_bh(conn, SMCX_CLOSE_EV_SHUT_WR);
		smcx_tx_push_locked(smc, true);
	}
	smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLHUP);
	return 0;
}

/*
 * close() waits no longer: the data is out and our close with it, or it
 * never will be (dead connection, a peer that closed: it reads no more,
 * or our abort: it drops the data)
 */
static bool smcx_flushed(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	return smcx_conn_dead(conn) || READ_ONCE(conn->peer_closed) ||
	       conn->local_abort ||
	       (conn->tx_fin == conn->tx_prep && conn->closed_sent);
}

/*
 * close(): what was written still reaches the peer (bounded wait), then
 * a CDC with "connection closed".  The connection stays registered until
 * the peer's close or abort arrives (or SMCX_CLOSE_WAIT passes, then we
 * abort it); the sock stays alive for that through close_work's reference.
 */
void smcx_conn_release(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	long timeo = SMCX_FLUSH_WAIT;

	lock_sock(sk);
	if (!smcx_conn_dead(conn) && conn->lgr) {
		if (smcx_rx_avail(conn) ||
		    (sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime)) {
			/* unread data or SO_LINGER {1, 0}: abort, as TCP resets */
			conn->local_abort = true;
		}
		/*
		 * FIN on the CLC socket before the close CDC: the peer's TCP
		 * sees it before the peer's application can close, so the
		 * TIME_WAIT stays on the side that closed first, as with TCP
		 * (mainline shuts its CLC socket right after the CDC for the
		 * same reason).  Otherwise a server keeps its port in
		 * TIME_WAIT and cannot listen again without SO_REUSEADDR.
		 */
		if (!conn->peer_closed && smc->clcsock)
			kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
		conn->local_done_writing = true;
		conn->local_closed = true;
		smcx_close_event_bh(conn, conn->local_abort ?
					  SMCX_CLOSE_EV_ABORT :
					  SMCX_CLOSE_EV_CLOSE);
		smcx_tx_push_locked(smc, true);
		/*
		 * The rest of the data goes as the peer's consumer cursor
		 * moves (cdc.c kicks a push), our close in its last CDC.
		 * Every CDC completion wakes us: a push here sends nothing
		 * new unless the close itself is still owed, else each CDC
		 * would send the next (a storm until the wait ends).
		 */
		while (!smcx_flushed(smc) && timeo) {
			if (smcx_conn_wait(smc, &timeo, smcx_flushed))
				break;
			smcx_tx_push_locked(smc,
					    conn->tx_sent == conn->tx_prep &&
					    !conn->closed_sent);
		}
		/*
		 * Data that did not get out (the peer closed, or did not
		 * consume it within the wait) never will: TCP would reset,
		 * we abort, at once (the close work would only do it later,
		 * and not at all for a peer that closed).
		 */
		if (!smcx_conn_dead(conn) && !conn->closed_sent &&
		    !conn->local_abort) {
			conn->local_abort = true;
			smcx_close_event_bh(conn, SMCX_CLOSE_EV_ABORT);
			smcx_tx_push_locked(smc, true);
		}
	}
	spin_lock_bh(&conn->lock);
	conn->released = true;
	/* a dead connection sent nothing above; a second CLOSE changes nothing */
	smcx_close_event(conn, SMCX_CLOSE_EV_CLOSE);
	spin_unlock_bh(&conn->lock);
	release_sock(sk);
	if (smcx_conn_dead(conn) || conn->peer_closed || !conn->lgr ||
	    conn->local_abort)
		smcx_close_kick(smc, 0);
	else
		smcx_close_kick(smc, SMCX_CLOSE_WAIT);
}

/*
 * Does the close work keep the connection registered a while longer
 * (bounded by close_by)?  While our close or abort is posted and its CDC
 * has not completed (below), and after our abort until the peer is quiet:
 * its answer tells that its RDMA WRITEs are in (smcx_conn_peer_quiet()).
 * Not once nothing can be sent or heard any more (link group or link
 * gone), nor after a protocol violation (the peer's messages are ignored
 * from then on: its RMB goes as one the peer may write, retired).
 */
static bool smcx_close_waits(struct smcx_conn *conn)
{
	if (!conn->lgr || READ_ONCE(conn->aborted) || READ_ONCE(conn->violated))
		return false;
	if ((conn->closed_sent || conn->local_abort) &&
	    !READ_ONCE(conn->close_landed) && !READ_ONCE(conn->peer_abort))
		return true;
	return conn->local_abort && !smcx_conn_peer_quiet(conn);
}

void smcx_close_work(struct work_struct *work)
{
	struct smcx_conn *conn = container_of(to_delayed_work(work),
					      struct smcx_conn, close_work);
	struct smcx_sock *smc = conn->owner;

	if (conn->close_by) {
		/* waiting for our close to land, or the peer's answer */
	} else if (conn->lgr && !conn->peer_closed && !smcx_conn_dead(conn) &&
		   !conn->local_abort) {
		/* the peer never closed: abort it (after our close too) */
		spin_lock_bh(&conn->lock);
		conn->local_abort = true;
		conn->abort_owed = true;
		smcx_close_event(conn, SMCX_CLOSE_EV_ABORT);
		spin_unlock_bh(&conn->lock);
		smcx_tx_push_locked(smc, true);
	} else if (conn->lgr && READ_ONCE(conn->abort_owed)) {
		/* an abort no push has sent yet: the free cancels tx_work */
		smcx_tx_push_locked(smc, true);
	}
	if (!conn->close_by)
		conn->close_by = jiffies + (conn->local_abort ? SMCX_ABORT_WAIT :
						SMCX_CLOSE_LAND_WAIT);
	/*
	 * Our close (or abort) is posted, but its CDC has not completed: a
	 * link that dies now takes it along, and only the failover says it
	 * again (tx.c), to a connection that is still registered.  Freed
	 * now, the peer would wait for a close that never comes and end the
	 * connection by abort SMCX_CLOSE_WAIT later (the side that read the
	 * EOF closes and frees at once, while its close is on a wire just
	 * dropped).  So the free waits for the completion, a few
	 * ticks normally; a dead connection or group ends the wait, and so
	 * does SMCX_CLOSE_LAND_WAIT (a dead wire's CDC fails within seconds).
	 * After our abort the wait goes on for the peer's answer (a round
	 * trip normally; SMCX_ABORT_WAIT at most), so that the RMB can go back
	 * to the pool; without one the free retires it.
	 */
	if (smcx_close_waits(conn) && time_before(jiffies, conn->close_by)) {
		smcx_close_kick(smc, SMCX_CLOSE_LAND_POLL);
		sock_put(&smc->sk);	/* this run's */
		return;
	}
	smcx_conn_free(smc);
	smcx_close_event_bh(conn, SMCX_CLOSE_EV_GONE);
	sock_put(&smc->sk);
}
