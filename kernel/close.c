// SPDX-License-Identifier: GPL-2.0
/*
 * Close: the close protocol of an SMC-R connection runs on one state
 * machine, include/smcx/close.h.  Every close, abort, shutdown, release
 * and peer-close decision is an event (enum smcx_close_ev) that
 * smcx_close_event() feeds to smcx_close_step() under conn->lock; it
 * stores the result in conn->close, the one source of truth, and carries
 * out the step's actions here and nowhere else: our wire bits (in the
 * close facts, which every later CDC carries), the CDC that says them,
 * sk_err, the wake-up, and the close work, now or after the close wait
 * or the abort wait.  The close work raises TIMEOUT when a wait runs out
 * and, once the state says free (smcx_close_timer_for()), sends what is
 * still owed, waits (bounded) for our last CDC to land and frees; the
 * free's FREE event decides whether the RMB goes back to the pool
 * (smcx_close_rmb_reusable(): never while the peer may write into it).
 *
 * Two facts are kept apart: "nothing can be sent any more" (close.gone,
 * the link group or the connection's link went: GONE) and "we abort"
 * (close.local.abort: every later CDC carries the abort flag, which still
 * goes out).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "conn.h"
#include "lgr.h"

#define SMCX_CLOSE_WAIT		(30 * HZ)	/* peer's close after ours */
#define SMCX_FLUSH_WAIT		(10 * HZ)	/* in-flight data at close */
#define SMCX_CLOSE_LAND_WAIT	(10 * HZ)	/* our close CDC's completion */
#define SMCX_ABORT_WAIT		(10 * HZ)	/* the peer's answer to our abort */
#define SMCX_CLOSE_LAND_POLL	(HZ / 10)	/* the longest poll of it */
#define SMCX_CLOSE_LAND_FIRST	1		/* jiffy: the first look */

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
 * Does the free still wait for our close or abort CDC to land (see
 * smcx_close_wait_land())?  conn->lock held; @c: the facts to judge.
 */
static bool __smcx_close_land_pending(const struct smcx_conn *conn,
				      struct smcx_close c)
{
	return conn->lgr && c.exposed && !c.gone && !c.peer.abort &&
	       !conn->close_landed && (c.local.closed || c.local.abort);
}

/*
 * The step of @ev, conn->lock held (any context): the new close facts are
 * stored, sk_err set (SMCX_CA_ERR) and the close work queued (KICK) or
 * armed (ARM_*); the CDC and the wake-up are left for smcx_close_apply()
 * once the lock is dropped.  The close work is queued here, under the
 * lock, so that the queueings keep the order of the steps: a later step's
 * KICK (the peer's close, from softirq) is never pushed back by the ARM
 * of an earlier one whose caller was still sending its CDC.  The caller
 * holds a sock reference, so the kick's sock_put() is never the last.
 */
u32 __smcx_close_event(struct smcx_sock *smc, enum smcx_close_ev ev)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_close_res r;

	lockdep_assert_held(&conn->lock);
	r = smcx_close_step(conn->close, ev);
	WRITE_ONCE(conn->close, r.next);
	if ((r.act & SMCX_CA_ERR) && !READ_ONCE(smc->sk.sk_err))
		WRITE_ONCE(smc->sk.sk_err, r.err);
	if (r.act & SMCX_CA_KICK) {
		/*
		 * A free that waits for our last CDC to land (the close of
		 * a release, pushed right after this step) would only poll
		 * now: its first look comes a jiffy later instead, when the
		 * CDC has mostly landed (smcx_close_finish() polls on).
		 */
		smcx_close_kick(smc, __smcx_close_land_pending(conn, r.next) ?
				     SMCX_CLOSE_LAND_FIRST : 0);
	} else if (r.act & SMCX_CA_ARM_AW) {
		WRITE_ONCE(conn->close_by, jiffies + SMCX_ABORT_WAIT);
		smcx_close_kick(smc, SMCX_ABORT_WAIT);
	} else if (r.act & SMCX_CA_ARM_CW) {
		WRITE_ONCE(conn->close_by, jiffies + SMCX_CLOSE_WAIT);
		smcx_close_kick(smc, SMCX_CLOSE_WAIT);
	}
	return r.act;
}

/*
 * The rest of a step's actions (the CDC, the wake-up), conn->lock dropped.  @bh: softirq (or a
 * caller that may own the send side): the CDC goes through
 * smcx_tx_kick(), which pushes what is owed (smcx_close_owed()) here or
 * through the send side's owner; else (process context, the send side
 * not owned) it is pushed here, waiting for a send slot.
 */
static void __smcx_close_apply(struct smcx_sock *smc, u32 act, bool bh)
{
	__poll_t ev = EPOLLIN | EPOLLOUT | EPOLLRDHUP;

	if (act & SMCX_CA_PUSH) {
		if (bh)
			smcx_tx_kick(smc);
		else
			smcx_tx_push_locked(smc, true);
	}
	if (act & SMCX_CA_WAKE) {
		if (smcx_conn_dead(smc->conn))
			ev |= EPOLLERR | EPOLLHUP;
		smcx_conn_wake(smc, ev);
	}
}

/* smcx_close_apply() from any context (softirq, or the send side owned) */
void smcx_close_apply(struct smcx_sock *smc, u32 act)
{
	__smcx_close_apply(smc, act, true);
}

/* @ev in any context: softirq, or with the send side owned (tx.c) */
void smcx_close_event_any(struct smcx_sock *smc, enum smcx_close_ev ev)
{
	u32 act;

	spin_lock_bh(&smc->conn->lock);
	act = __smcx_close_event(smc, ev);
	spin_unlock_bh(&smc->conn->lock);
	__smcx_close_apply(smc, act, true);
}

/* @ev from process context, the send side not owned: the CDC goes here */
void smcx_close_event(struct smcx_sock *smc, enum smcx_close_ev ev)
{
	u32 act;

	spin_lock_bh(&smc->conn->lock);
	act = __smcx_close_event(smc, ev);
	spin_unlock_bh(&smc->conn->lock);
	__smcx_close_apply(smc, act, false);
}

/*
 * The CLC code named our RMB to the peer (the server's Accept, the
 * client's Confirm, about to be written): from now on the peer may write
 * into it, so an abort goes out and the free pools it only once the peer
 * is quiet.  Process context.
 */
void smcx_close_expose(struct smcx_conn *conn)
{
	struct smcx_close c;

	spin_lock_bh(&conn->lock);
	c = conn->close;
	c.exposed = true;
	WRITE_ONCE(conn->close, c);
	spin_unlock_bh(&conn->lock);
}

/*
 * The handshake is over and SMC-R carries @smc: its connection leaves
 * INIT (where a close is an abort, as the peer may know the connection
 * but no application had it yet) for ACTIVE, or APPCLOSEWAIT1 when the
 * peer's done writing came first.  Process context, the sock lock held.
 */
void smcx_conn_up(struct smcx_sock *smc)
{
	smcx_close_event_any(smc, SMCX_CLOSE_EV_UP);
}

/* link down or peer gone: nothing can be sent any more */
void smcx_conn_abort(struct smcx_sock *smc)
{
	smcx_close_event_any(smc, SMCX_CLOSE_EV_GONE);
}

/*
 * Let go of a connection whose socket no application holds and that the
 * peer may consider open: a child of a listener closed (or shut down)
 * before accept() took it, a connect aborted after its join (release or
 * shutdown during the handshake, or its CLC TCP connection died).  TCP
 * would send a reset; we abort (DROP): a CDC with the abort flag and no
 * data goes to the peer (its reads and writes end with ECONNRESET), and
 * the close work frees the connection once the peer answered (its abort,
 * close or done writing: quiet) or SMCX_ABORT_WAIT passed or the group
 * went, never at once, so the RMB is not pooled while the peer may write.
 * A connection never named to the peer (not exposed) is freed at once.
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
	smcx_close_event(smc, SMCX_CLOSE_EV_DROP);
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

/*
 * TCP state change of an SMC-R connection's CLC socket once the handshake
 * is over (sock.c smcx_tcp_watch()); softirq or process context, the
 * callback lock read-held (the owner stays until smcx_tcp_unlink()).
 *
 * A reset from the peer before its first CDC is the one word a peer that
 * lost the connection in its join (a server whose join failed after it
 * read our Confirm, a child dropped before it could say anything) can
 * still say: PEER_RESET, which ends the connection without an answer.
 * Once the peer has sent a CDC it knows the connection and says its end
 * in a CDC; a later reset (a middlebox dropping an idle TCP connection)
 * is TCP's business only, as in mainline.
 *
 * A CLC socket destroyed here (ECONNABORTED: sock_diag's destroy, ss -K)
 * aborts the connection, as it would a TCP one: the abort CDC tells a
 * peer that still holds it, and the reset our TCP sent ends it at a peer
 * that never heard from us.
 */
void smcx_conn_clc_check(struct smcx_sock *smc, struct sock *tcpsk)
{
	struct smcx_conn *conn = smc->conn;
	enum smcx_close_ev ev;
	bool heard;

	if (!conn || READ_ONCE(tcpsk->sk_state) != TCP_CLOSE)
		return;
	switch (READ_ONCE(tcpsk->sk_err)) {
	case ECONNRESET:
		spin_lock_bh(&conn->lock);
		heard = conn->rx_seq_set;
		spin_unlock_bh(&conn->lock);
		if (heard)
			return;
		ev = SMCX_CLOSE_EV_PEER_RESET;
		break;
	case ECONNABORTED:
		ev = SMCX_CLOSE_EV_ABORT;
		break;
	default:
		return;
	}
	sock_hold(&smc->sk);		/* the event's caller holds one */
	smcx_close_event_any(smc, ev);
	sock_put(&smc->sk);
}

/* module init: the link group layer aborts connections through us */
void smcx_close_init(void)
{
	smcx_lgr_set_conn_abort(smcx_close_lgr_gone);
}

int smcx_conn_shutdown(struct smcx_sock *smc, int how)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_close c = smcx_conn_close(conn);
	struct sock *sk = &smc->sk;

	/*
	 * TCP's socket is CLOSE once both FINs went (or after a reset), and
	 * shutdown() on it is ENOTCONN.
	 */
	if (smcx_close_app_dead(c) || smcx_close_shut_done(c.state))
		return -ENOTCONN;
	if ((how + 1) & RCV_SHUTDOWN)
		sk->sk_shutdown |= RCV_SHUTDOWN;
	if (((how + 1) & SEND_SHUTDOWN) && !c.local.done_writing) {
		sk->sk_shutdown |= SEND_SHUTDOWN;
		/* our done writing goes out after the data (the push) */
		smcx_close_event(smc, SMCX_CLOSE_EV_SHUT_WR);
	}
	smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLHUP);
	return 0;
}

/*
 * close() waits no longer: the data is out and our close with it, or it
 * never will be (smcx_close_flushed(): an ended connection, a peer that
 * closed and reads no more, or our abort, which drops the data)
 */
static bool smcx_flushed(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	return smcx_close_flushed(smcx_conn_close(conn),
				  READ_ONCE(conn->tx_fin) ==
				  READ_ONCE(conn->tx_prep),
				  READ_ONCE(conn->closed_sent));
}

/*
 * close(): what was written still reaches the peer (bounded wait), then
 * a CDC with "connection closed" (CLOSE), or at once our abort (DROP:
 * unread data, SO_LINGER {1, 0}).  The state then says what the close
 * work waits for: the peer's close (SMCX_CLOSE_WAIT, then we abort) or
 * its answer to our abort (SMCX_ABORT_WAIT), or nothing; the sock stays
 * alive for it through close_work's reference.
 */
void smcx_conn_release(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	long timeo = SMCX_FLUSH_WAIT;
	struct smcx_close c;
	bool abort;

	lock_sock(sk);
	c = smcx_conn_close(conn);
	if (!smcx_close_app_dead(c) && conn->lgr) {
		/*
		 * unread data, SO_LINGER {1, 0}, or data a peer that closed
		 * will never read: abort, as TCP resets
		 */
		abort = smcx_rx_avail(conn) ||
			(sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
			(c.peer.closed &&
			 READ_ONCE(conn->tx_prep) != READ_ONCE(conn->tx_sent));
		/*
		 * FIN on the CLC socket before the close CDC: the peer's TCP
		 * sees it before the peer's application can close, so the
		 * TIME_WAIT stays on the side that closed first, as with TCP
		 * (mainline shuts its CLC socket right after the CDC for the
		 * same reason).  Otherwise a server keeps its port in
		 * TIME_WAIT and cannot listen again without SO_REUSEADDR.
		 */
		if (!c.peer.closed && smc->clcsock)
			kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
		smcx_close_event(smc, abort ? SMCX_CLOSE_EV_DROP :
					      SMCX_CLOSE_EV_CLOSE);
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
		 * Data that did not get out (the peer did not consume it
		 * within the wait) never will: TCP would reset, we abort, at
		 * once (the close work would only do it later).
		 */
		c = smcx_conn_close(conn);
		if (!smcx_close_ended(c.state) && !c.local.abort &&
		    !c.peer.closed && !READ_ONCE(conn->closed_sent))
			smcx_close_event(smc, SMCX_CLOSE_EV_ABORT);
	}
	/* never joined, or its group went: nothing to say to the peer */
	if (!conn->lgr)
		smcx_close_event(smc, SMCX_CLOSE_EV_GONE);
	/*
	 * Released in every state: an ended one goes to the free.  After
	 * the close or drop above it is released already, which nothing
	 * undoes (no event clears released, and a released connection
	 * never rests in INIT or PROCESSABORT), so a second CLOSE would
	 * change nothing and act on nothing: skip its lock round trip.
	 */
	if (!smcx_conn_close(conn).released)
		smcx_close_event(smc, SMCX_CLOSE_EV_CLOSE);
	release_sock(sk);
	/* never joined, or freed already: the close work only lets go */
	if (!conn->lgr)
		smcx_close_kick(smc, 0);
}

/*
 * Does the close work keep the connection registered a while longer
 * (bounded by land_by)?  While our close or abort is set and its CDC has
 * not completed: posted, a link that dies now takes it along, and only
 * the failover says it again (tx.c), to a connection that is still
 * registered; or still owed, as a push on a link already dead but not yet
 * failed over posts nothing and leaves it to that failover.  Not for a
 * connection the peer never knew, not once nothing can be sent any more,
 * nor after the peer's abort (it freed its side).
 */
static bool smcx_close_wait_land(struct smcx_conn *conn)
{
	bool wait;

	spin_lock_bh(&conn->lock);
	wait = __smcx_close_land_pending(conn, conn->close);
	spin_unlock_bh(&conn->lock);
	return wait;
}

/*
 * The free, the state saying so: what is still owed goes out, then the
 * wait for it to land (SMCX_CLOSE_LAND_WAIT at most, polling).  Freed
 * before, the peer would wait for a close that never comes and end the
 * connection by abort SMCX_CLOSE_WAIT later (the side that read the EOF
 * closes and frees at once, while its close is on a wire just dropped).
 * A dead connection or group ends the wait (a dead wire's CDC fails
 * within seconds).
 */
static void smcx_close_finish(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_close c = smcx_conn_close(conn);
	unsigned long waited;

	if (conn->lgr &&
	    smcx_close_owed(c, READ_ONCE(conn->closed_sent),
			    READ_ONCE(conn->abort_sent)))
		smcx_tx_push_locked(smc, true);
	if (!conn->land_by)
		conn->land_by = (jiffies + SMCX_CLOSE_LAND_WAIT) ?: 1;
	if (smcx_close_wait_land(conn) && time_before(jiffies, conn->land_by)) {
		/*
		 * Poll again after as long as we waited so far, a jiffy at
		 * least, SMCX_CLOSE_LAND_POLL at most: a CDC that lands in a
		 * round trip frees the connection (its buffers back to the
		 * pool for the next one) a jiffy or two after the close, and
		 * a slow or dying link costs a few polls more than before.
		 */
		waited = jiffies - (conn->land_by - SMCX_CLOSE_LAND_WAIT);
		smcx_close_kick(smc, clamp(waited, 1UL, SMCX_CLOSE_LAND_POLL));
		return;
	}
	smcx_conn_free(smc);
}

/*
 * The close work: queued by the step's KICK and ARM_* actions (and the
 * land wait's polls), each queueing with a sock reference, runs only once
 * the socket is released.  A run before the armed wait's end (a kick
 * that came first) does nothing: the armed run follows.
 */
void smcx_close_work(struct work_struct *work)
{
	struct smcx_conn *conn = container_of(to_delayed_work(work),
					      struct smcx_conn, close_work);
	struct smcx_sock *smc = conn->owner;

	switch (smcx_close_timer_for(smcx_conn_close(conn))) {
	case SMCX_CT_NONE:
		/* the application holds it; close() goes on from here */
		if (!conn->lgr)
			smcx_conn_free(smc);
		break;
	case SMCX_CT_CLOSE:
	case SMCX_CT_ABORT:
		if (conn->lgr &&
		    time_before(jiffies, READ_ONCE(conn->close_by)))
			break;
		/* the wait ran out: abort, or free after the abort wait */
		smcx_close_event(smc, SMCX_CLOSE_EV_TIMEOUT);
		break;
	case SMCX_CT_FREE:
		smcx_close_finish(smc);
		break;
	}
	sock_put(&smc->sk);
}
