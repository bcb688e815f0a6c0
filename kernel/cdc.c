// SPDX-License-Identifier: GPL-2.0
/*
 * CDC receive and send completion.  A received CDC moves the peer's
 * cursors (turned back into byte counts, include/smcx/cursor.h) and flags
 * into the connection; a completed CDC send frees its part of the send
 * buffer.  Both run in softirq: they update under conn->lock, wake, and
 * push what is owed through smcx_tx_kick() (tx.c) once the lock is
 * dropped; closing is deferred to close_work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/sock.h>

#include <smcx/cursor.h>
#include <smcx/wwi.h>

#include "conn.h"
#include "lgr.h"
#include "stats.h"

/* cursor arithmetic (wire pair <-> byte count): include/smcx/cursor.h */

/*
 * SIGURG to the socket's owner, from softirq.  TCP sends it with the
 * socket locked against its close; here release runs sock_orphan() with
 * the smcx sock owned, which a softirq cannot wait for, so the callback
 * lock does it: sock_orphan() clears sk_socket and sets SOCK_DEAD under
 * its write side, so under the read side the socket and its file (being
 * released at most) stay valid.
 */
static void smcx_cdc_sigurg(struct sock *sk)
{
	read_lock(&sk->sk_callback_lock);
	if (!sock_flag(sk, SOCK_DEAD) && sk->sk_socket)
		sk_send_sigurg(sk);
	read_unlock(&sk->sk_callback_lock);
}

/*
 * A cursor no correct peer sends (include/smcx/cursor.h, smcx/wwi.h): the
 * stream is out of step, so the connection ends as mainline ends one on a
 * protocol error, with our abort (VIOLATION); the application sees TCP's
 * reset.  From then on the receive side is deaf (smcx_close_rx_deaf()):
 * only the peer's connection-state bits count, which end our wait for its
 * answer.  Under conn->lock; the step's actions.
 */
static u32 smcx_cdc_violated(struct smcx_sock *smc)
{
	return __smcx_close_event(smc, SMCX_CLOSE_EV_VIOLATION);
}

/*
 * The connection-state bits of a peer's CDC, as events (a repeated bit
 * changes nothing; closed implies done writing; the abort last).  The
 * step answers a peer's abort with ours, as mainline does (it sets the
 * abort flag in its next CDC): a mainline side that aborted waits for it
 * in PEERABORTWAIT, its connection and module reference held until then.
 * Under conn->lock; the step's actions.
 */
static u32 smcx_cdc_rx_flags(struct smcx_sock *smc, u8 cf)
{
	u32 act = 0;

	if (cf & SMCX_CDC_CF_CONN_CLOSED)
		act |= __smcx_close_event(smc, SMCX_CLOSE_EV_PEER_CLOSED);
	else if (cf & SMCX_CDC_CF_DONE_WRITING)
		act |= __smcx_close_event(smc, SMCX_CLOSE_EV_PEER_DONE);
	if (cf & SMCX_CDC_CF_CONN_ABORT)
		act |= __smcx_close_event(smc, SMCX_CLOSE_EV_PEER_ABORT);
	return act;
}

/*
 * A message that brought no data, from a peer that waits for our
 * consumer cursor (conn->peer_write_blocked): is the cursor owed now?
 * When the peer asked for it (@prod_flags has the update request) and we
 * read something since the last one; or when the rule recvmsg follows
 * says so (smcx_curs_update_due(), whose comment says why no writer
 * stalls on it): its blocked flag may have come after our last read.
 * Otherwise the reads to come send it.  tx.c's push sends the cursor to a
 * blocked peer when we read something since the last one.  Under lock.
 */
static bool smcx_cdc_cons_owed(const struct smcx_conn *conn, u8 prod_flags)
{
	if (!conn->peer_write_blocked || !conn->rmb)
		return false;
	if (prod_flags & SMCX_CDC_PF_CONS_UPD_REQ)
		return conn->rx_cons > conn->rx_cons_sent;
	return smcx_curs_update_due(conn->rx_prod, conn->rx_cons,
				    conn->rx_cons_sent, conn->rmb->size,
				    conn->rmbe_update_limit, true);
}

/*
 * A CDC @m for the connection of @sk (referenced: the reference is
 * dropped here), which came on @lnk, or by a copy of the loopback device
 * (@lnk NULL: SMC-D, from the peer's push, tx.c).
 */
static void smcx_cdc_rx_msg(struct sock *sk, struct smcx_link *lnk,
			    const struct smcx_cdc_msg *cdc)
{
	const struct smcx_cdc_msg m = *cdc;
	enum smcx_curs_move mv;
	struct smcx_sock *smc;
	struct smcx_conn *conn;
	struct smcx_buf *rmb;
	__poll_t ev = 0;
	bool push = false, work = false, owed = false;
	u32 psz, act = 0;
	u64 v = 0;

	smc = smcx_sk(sk);
	conn = smc->conn;
	spin_lock_bh(&conn->lock);
	/* after an abort (or a protocol error) only the peer's bits count */
	if (smcx_close_rx_deaf(conn->close.state))
		goto flags;
	/*
	 * Mainline's failover validation (smcx/cursor.h): nothing to take
	 * from it, unless it shows that the dead link took a CDC with it;
	 * then the stream cannot go on, and ends as on a protocol error.
	 * Taken as a normal CDC, its zero cursors would look like a cursor
	 * going back, and every connection a stock peer moves to another
	 * link would be aborted.
	 */
	if (m.prod_flags & SMCX_CDC_PF_FAILOVER_VALID) {
		if (smcx_cdc_validation_lost(conn->rx_seq_set, conn->rx_seq,
					     m.seqno))
			goto violation;
		goto unlock;
	}
	/*
	 * A CDC older than one already taken (a newer one, sent on the
	 * group's other link, overtook it) carries cursors and flags the
	 * newer one repeats or moved past: dropped before it is judged, as
	 * mainline drops it.  The first CDC sets the start.
	 */
	if (conn->rx_seq_set && smcx_cdc_seq_before(m.seqno, conn->rx_seq))
		goto unlock;
	conn->rx_seq = m.seqno;
	conn->rx_seq_set = true;
	/* NULL once smcx_conn_free() let go of it (under this lock) */
	rmb = conn->rmb;
	if (rmb) {
		mv = smcx_curs_rx_prod(&m.prod, rmb->size, conn->rx_prod,
				       conn->rx_cons, &v);
		if (mv == SMCX_CURS_BAD)
			goto violation;
		if (mv == SMCX_CURS_FWD) {
			ev |= smcx_urg_rx(conn, lnk, m.prod_flags, v);
			/*
			 * The mark first, then the cursor, with release:
			 * smcx_rx_avail()'s acquire pairs with it, so a reader
			 * that counts the new bytes sees them and the mark.
			 */
			smp_store_release(&conn->rx_prod, v);
			ev |= EPOLLIN | EPOLLRDNORM;
		}
		/* where a WRITE WITH IMMEDIATE on this link goes on from */
		if (lnk) {
			conn->rx_stated = conn->rx_prod;
			conn->rx_stated_lnk = lnk->idx;
			conn->rx_stated_set = true;
		}
	}
	/*
	 * On a reused link group the peer may write and send CDCs as soon
	 * as its CLC Confirm is out, before we have read that Confirm and
	 * know its RMB: its consumer cursor is then (0, 0), we sent nothing
	 * yet.
	 */
	psz = READ_ONCE(conn->peer_rmbe_size);	/* only the size is used */
	if (!psz)
		mv = m.cons.wrap || m.cons.count ? SMCX_CURS_BAD : SMCX_CURS_SAME;
	else
		mv = smcx_curs_rx_cons(&m.cons, psz, conn->peer_cons,
				       conn->tx_hi, &v);
	if (mv == SMCX_CURS_BAD)
		goto violation;
	/*
	 * Room in the peer's RMB lets the push write on; it frees nothing
	 * in our send buffer (that is the CDC completion's tx_fin), so no
	 * writer is woken for it.
	 */
	if (mv == SMCX_CURS_FWD) {
		conn->peer_cons = v;
		if (conn->tx_prep > conn->tx_sent)
			push = true;
		/*
		 * SMC-D with our send buffer the peer's DMB (conn.h): what the
		 * peer read is room to write, and a writer waits for nothing
		 * else.
		 */
		if (conn->tx_attached) {
			conn->tx_fin = v;
			if (conn->tx_nospace) {
				conn->tx_nospace = false;
				ev |= EPOLLOUT | EPOLLWRNORM;
			}
		}
	}
	conn->peer_write_blocked = !!(m.prod_flags &
				      (SMCX_CDC_PF_WRITE_BLOCKED |
				       SMCX_CDC_PF_CONS_UPD_REQ));
	owed = !(ev & EPOLLIN) && smcx_cdc_cons_owed(conn, m.prod_flags);
flags:
	act = smcx_cdc_rx_flags(smc, m.conn_flags);
	goto out;
violation:
	act = smcx_cdc_violated(smc);
out:
	/* the step's CDC (our abort) goes with this kick */
	work = push || owed || (act & SMCX_CA_PUSH);
	act &= ~SMCX_CA_PUSH;
unlock:
	spin_unlock_bh(&conn->lock);
	if (work)
		smcx_tx_kick(smc);
	smcx_close_apply(smc, act);
	if (ev & EPOLLPRI)
		smcx_cdc_sigurg(&smc->sk);
	if (ev)
		smcx_conn_wake(smc, ev);
	sock_put(&smc->sk);
}

/* wr.c's receive handler of SMCX_WR_KIND_CDC (registered by smcx_cdc_init) */
static void smcx_cdc_rx(struct smcx_link *lnk, const u8 *buf, u32 len)
{
	struct smcx_cdc_msg m;
	struct sock *sk;

	if (smcx_cdc_decode(buf, len, &m, SMCX_WIRE_LAX_RSVD))
		return;
	sk = smcx_lgr_conn_get(lnk->lgr, m.token);
	if (sk)
		smcx_cdc_rx_msg(sk, lnk, &m);
}

void smcx_cdc_rx_d(struct smcx_lgr *lgr, const struct smcx_cdc_msg *m)
{
	struct sock *sk = smcx_lgr_conn_get(lgr, m->token);

	/* gone from its group: freed, as a CDC to an unknown token */
	if (sk)
		smcx_cdc_rx_msg(sk, NULL, m);
}

/*
 * wr.c's receive handler of RDMA WRITE WITH IMMEDIATE (smcx/wwi.h): @len
 * bytes landed in the RMB of the connection whose token is @token, right
 * after the producer cursor the previous message on this link stated.
 * What follows is what a CDC that moved only the producer cursor does.
 */
static void smcx_cdc_rx_imm(struct smcx_link *lnk, u32 token, u32 len)
{
	struct smcx_lgr *lgr = lnk->lgr;
	struct smcx_sock *smc;
	struct smcx_conn *conn;
	struct sock *sk;
	enum smcx_wwi_ev counted = SMCX_WWI_EVS;
	__poll_t ev = 0;
	bool work = false;
	u32 act = 0;
	u64 v = 0;

	sk = smcx_lgr_conn_get(lgr, token);
	if (!sk)
		return;
	smc = smcx_sk(sk);
	conn = smc->conn;
	spin_lock_bh(&conn->lock);
	if (smcx_close_rx_deaf(conn->close.state) || !conn->rmb)
		goto unlock;
	switch (smcx_wwi_rx_judge(lgr->v2x.write_imm, conn->rx_stated_set,
				  conn->rx_stated_lnk, lnk->idx, len,
				  conn->rmb->size, conn->rx_stated,
				  conn->rx_cons, &v)) {
	case SMCX_WWI_RX_STALE:
		counted = SMCX_WWI_STALE;
		goto unlock;
	case SMCX_WWI_RX_BAD:
		act = smcx_cdc_violated(smc);
		work = act & SMCX_CA_PUSH;
		act &= ~SMCX_CA_PUSH;
		break;
	case SMCX_WWI_RX_OK:
		counted = SMCX_WWI_RX;
		conn->rx_stated = v;
		if (v > conn->rx_prod) {
			/* release: smcx_rx_avail() (as in smcx_cdc_rx()) */
			smp_store_release(&conn->rx_prod, v);
			ev |= EPOLLIN | EPOLLRDNORM;
		}
		/* what a CDC's write-blocked flag would have said */
		conn->peer_write_blocked =
			smcx_wwi_rx_blocked(v, conn->rx_cons_sent,
					    conn->rmb->size);
		break;
	}
	/* as after a CDC: the peer waits for our cursor, no data to read */
	work = work || (!(ev & EPOLLIN) && smcx_cdc_cons_owed(conn, 0));
unlock:
	spin_unlock_bh(&conn->lock);
	if (counted != SMCX_WWI_EVS)
		smcx_stats_wwi(smc->stats, counted);
	if (work)
		smcx_tx_kick(smc);
	smcx_close_apply(smc, act);
	if (ev)
		smcx_conn_wake(smc, ev);
	sock_put(sk);
}

/*
 * A push's CDC (or WRITE WITH IMMEDIATE) of @smc completed (@ok), or was
 * flushed: the send buffer up to @end is free once it completed, and
 * @closing says it carried our close or abort.  @lnk is the link it went
 * on; NULL for SMC-D, whose copy completes as it is made.
 */
static void smcx_cdc_landed(struct smcx_sock *smc, struct smcx_link *lnk,
			    u64 end, bool closing, bool ok)
{
	struct smcx_conn *conn = smc->conn;
	bool wake = false, push;
	u32 act = 0;

	spin_lock_bh(&conn->lock);
	if (!WARN_ON_ONCE(!conn->cdc_pend))
		conn->cdc_pend--;
	/*
	 * A flushed or failed CDC: its data may not have landed.  A send
	 * buffer that is the peer's DMB is free only once the peer read it
	 * (smcx_cdc_rx_msg()).
	 */
	if (ok && end > conn->tx_fin && !conn->tx_attached)
		conn->tx_fin = end;
	if (ok && closing)
		conn->close_landed = true;
	if (!ok && (!lnk || !smcx_lgr_can_failover(lnk)))
		act = __smcx_close_event(smc, SMCX_CLOSE_EV_GONE);
	/*
	 * Wake only who waits for this (TCP's rule, SOCK_NOSPACE): a sender
	 * or poller that found the send buffer full, once there is room;
	 * and close(), which waits for its data and close to land
	 * (close.c).  Anyone else sleeping on the socket (a reader) would
	 * only wake to sleep again.
	 */
	if (conn->tx_nospace && conn->sndbuf &&
	    smcx_curs_space(conn->sndbuf->size, conn->tx_prep, conn->tx_fin)) {
		conn->tx_nospace = false;
		wake = true;
	}
	if (conn->close.local.closed || conn->close.local.abort)
		wake = true;
	/*
	 * Autocorking (send.c): the last CDC in flight pushes what the sends
	 * meanwhile held back, whether it completed or was flushed (then the
	 * push fails harmlessly: the failover pushes again, or the
	 * connection is dead).  SMC-D lands inside the push that copied,
	 * which goes on by itself.
	 */
	push = lnk && !conn->cdc_pend && conn->lgr &&
	       conn->tx_prep > conn->tx_sent;
	spin_unlock_bh(&conn->lock);
	if (push)
		smcx_tx_kick(smc);
	smcx_close_apply(smc, act);
	if (wake)
		smcx_conn_wake(smc, EPOLLOUT | EPOLLWRNORM);
}

/* a CDC's send slot completed (its done callback, set by smcx_tx_push) */
void smcx_cdc_tx_done(struct smcx_tx_slot *slot, bool ok)
{
	struct smcx_sock *smc = slot->owner;

	if (!smc)
		return;
	smcx_cdc_landed(smc, slot->lnk, slot->tx_upto, slot->closing, ok);
	slot->owner = NULL;
	sock_put(&smc->sk);
}

void smcx_cdc_landed_d(struct smcx_sock *smc, u64 end, bool closing)
{
	smcx_cdc_landed(smc, NULL, end, closing, true);
}

/*
 * module init, before any link exists: CDC messages come to smcx_cdc_rx(),
 * WRITE WITH IMMEDIATE to smcx_cdc_rx_imm()
 */
int smcx_cdc_init(void)
{
	int rc = smcx_wr_rx_register(SMCX_WR_KIND_CDC, smcx_cdc_rx);

	return rc ?: smcx_wr_imm_register(smcx_cdc_rx_imm);
}
