// SPDX-License-Identifier: GPL-2.0
/*
 * Send: sendmsg copies into the send buffer (send.c); the push
 * RDMA-writes what the peer's RMB can take and sends a CDC with the new
 * producer cursor (and our consumer cursor and close flags), or between
 * two smcx hosts one RDMA WRITE WITH IMMEDIATE in place of both
 * (smcx/wwi.h).  One push
 * at a time (conn.h, tx_busy): process context owns the send side through
 * smcx_tx_lock(); a completion pushes in softirq (smcx_tx_kick()) when
 * nobody owns it, and leaves the push to the owner when someone does, or
 * to tx_work when no send slot is free or it pushed SMCX_TX_KICK_ROUNDS
 * times in a row on other completions' behalf.  A task waiting for the
 * side sleeps (smcx_tx_lock()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>
#include <linux/wait_bit.h>
#include <net/sock.h>

#include <smcx/cursor.h>
#include <smcx/urg.h>
#include <smcx/wwi.h>

#include "conn.h"
#include "lgr.h"
#include "stats.h"

/* pushes a completion makes in a row before tx_work takes over (N12) */
#define SMCX_TX_KICK_ROUNDS	4

/*
 * A send on @lnk failed: the link is dead or dying.  With another ACTIVE
 * link in the group the connection is left to the failover, which moves
 * it once the link is cleared and sends again (0); else it fails.
 */
static int smcx_tx_lost(struct smcx_conn *conn, struct smcx_link *lnk)
{
	if (smcx_lgr_can_failover(lnk))
		return 0;
	/* the send side owned: GONE sends nothing, it wakes and kicks */
	smcx_close_event_any(conn->owner, SMCX_CLOSE_EV_GONE);
	return -ECONNRESET;
}

/*
 * The RDMA WRITEs of @n bytes from stream position @pos into the peer's
 * RMBE over @lnk, split where either ring wraps (at most 3 pieces, one
 * WRITE each), chained; the number of WRITEs.
 */
static int smcx_tx_writes(struct smcx_conn *conn, struct smcx_link *lnk,
			  u64 pos, u64 n, u32 ssz, u32 psz,
			  struct ib_rdma_wr *wr, struct ib_sge *sge)
{
	int nwr = 0;
	u32 s, d, l;

	while (n) {
		s = smcx_ring_off(pos, ssz);
		d = smcx_ring_off(pos, psz);
		l = smcx_ring_chunk(pos, psz, smcx_ring_chunk(pos, ssz, n));
		sge[nwr].addr = smcx_buf_dma(conn->sndbuf, lnk) + s;
		sge[nwr].length = l;
		sge[nwr].lkey = lnk->lkey;
		memset(&wr[nwr], 0, sizeof(wr[nwr]));
		wr[nwr].wr.opcode = IB_WR_RDMA_WRITE;
		wr[nwr].wr.wr_cqe = &lnk->write_cqe;
		wr[nwr].wr.sg_list = &sge[nwr];
		wr[nwr].wr.num_sge = 1;
		wr[nwr].remote_addr = conn->peer_rmb_addr[lnk->idx] + d;
		wr[nwr].rkey = conn->peer_rkey[lnk->idx];
		smcx_wr_inline(lnk, &wr[nwr].wr, (u8 *)conn->sndbuf->cpu + s);
		if (nwr)
			wr[nwr - 1].wr.next = &wr[nwr].wr;
		nwr++;
		pos += l;
		n -= l;
	}
	return nwr;
}

/*
 * Would this push's CDC say more than the new producer cursor (then it
 * cannot be a WRITE WITH IMMEDIATE)?  A close, done writing or abort flag
 * may go with it, or the peer waits for our consumer cursor.  Under lock.
 */
static bool smcx_tx_cdc_news(const struct smcx_conn *conn)
{
	return conn->close.local.done_writing || conn->close.local.closed ||
	       conn->close.local.abort || conn->urg_tx_pend ||
	       (conn->peer_write_blocked && conn->rx_cons > conn->rx_cons_sent);
}

/*
 * The slot's completion frees the send buffer up to the new tx_sent
 * (smcx_cdc_tx_done), for a CDC as for a WRITE WITH IMMEDIATE.
 */
static void smcx_tx_slot_own(struct smcx_sock *smc, struct smcx_tx_slot *slot,
			     bool closing)
{
	sock_hold(&smc->sk);
	slot->done = smcx_cdc_tx_done;
	slot->owner = smc;
	slot->tx_upto = smc->conn->tx_sent;
	slot->closing = closing;
}

/*
 * A push of @n bytes on @lnk is about to be posted, as a CDC or a WRITE
 * WITH IMMEDIATE: the stream position moves, the producer count it states
 * is where an imm write on this link goes on from, and its completion
 * (smcx_cdc_tx_done()) will count it off the CDCs in flight that
 * autocorking waits for.  Under conn->lock.
 */
static void smcx_tx_posting(struct smcx_conn *conn, struct smcx_link *lnk,
			    u64 n)
{
	conn->tx_sent += n;
	if (conn->tx_sent > conn->tx_hi)
		conn->tx_hi = conn->tx_sent;
	conn->tx_stated = conn->tx_sent;
	conn->tx_stated_lnk = lnk;
	conn->cdc_pend++;
}

/*
 * A slot that was not posted after smcx_tx_slot_own(): give it back; no
 * completion will count it off conn->cdc_pend.
 */
static void smcx_tx_slot_drop(struct smcx_sock *smc, struct smcx_tx_slot *slot)
{
	slot->done = NULL;
	slot->owner = NULL;
	spin_lock_bh(&smc->conn->lock);
	smc->conn->cdc_pend--;
	spin_unlock_bh(&smc->conn->lock);
	sock_put(&smc->sk);
	smcx_wr_slot_put(slot);
}

/*
 * The CDC of an RFC-form push of @n bytes into @m: the new producer
 * cursor, our consumer cursor, the urgent mark (@urg_flags; the byte at
 * @urg_pos stays pending if @urg_pend) and the flags.  Under conn->lock,
 * in the section that moves the stream position.
 */
static void smcx_tx_cdc_fill(struct smcx_conn *conn, struct smcx_link *lnk,
			     struct smcx_cdc_msg *m, u64 n, u32 psz,
			     bool urg_pend, u64 urg_pos, u8 urg_flags)
{
	memset(m, 0, sizeof(*m));
	smcx_tx_posting(conn, lnk, n);
	m->seqno = ++conn->tx_seq;
	m->token = conn->peer_token;
	m->prod_flags |= urg_flags;
	/* a newer MSG_OOB meanwhile moved the byte: that one waits */
	if (!urg_pend && conn->urg_tx_pos == urg_pos)
		conn->urg_tx_pend = false;
	smcx_curs_from_count(conn->tx_sent, psz, &m->prod);
	smcx_curs_from_count(conn->rx_cons, conn->rmb->size, &m->cons);
	conn->rx_cons_sent = conn->rx_cons;
	if (conn->tx_prep > conn->tx_sent)
		m->prod_flags |= SMCX_CDC_PF_WRITE_BLOCKED;
	/* after the data, or when it can never go (the peer closed) */
	if (conn->tx_prep == conn->tx_sent || !smcx_close_data_ok(conn->close)) {
		if (conn->close.local.done_writing)
			m->conn_flags |= SMCX_CDC_CF_DONE_WRITING;
		if (conn->close.local.closed) {
			m->conn_flags |= SMCX_CDC_CF_CONN_CLOSED;
			conn->closed_sent = true;
		}
	}
	if (conn->close.local.abort) {
		m->conn_flags |= SMCX_CDC_CF_CONN_ABORT;
		conn->abort_sent = true;
	}
}

/*
 * Post a push of @n bytes on @slot: RDMA WRITEs and the CDC (the RFC
 * form, smcx_tx_cdc_fill()), or, where the group negotiated it and the
 * CDC would say nothing but the new producer cursor (not @cdc: a forced
 * CDC or an urgent mark), one RDMA WRITE WITH IMMEDIATE (smcx/wwi.h):
 * the immediate is the peer's token of the connection, and the peer's
 * producer cursor moves by the write's length.  It takes the slot a CDC
 * would (the peer's receive buffers stay bounded as with CDCs).  Which
 * form, and the stream position the message states, are decided in one
 * lock section.  0, or -ENOLINK: not posted.
 */
static int smcx_tx_post(struct smcx_sock *smc, struct smcx_tx_slot *slot,
			u64 n, u32 ssz, u32 psz, bool cdc, bool urg_pend,
			u64 urg_pos, u8 urg_flags)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_link *lnk = slot->lnk;
	/*
	 * Written before use, entry by entry (smcx_tx_writes(),
	 * smcx_tx_cdc_fill()): no zeroing on entry, which a kernel built
	 * with INIT_STACK_ALL_ZERO (Debian's) would otherwise do for every
	 * push.
	 */
	struct ib_rdma_wr wr[3] __uninitialized;
	struct ib_sge sge[3] __uninitialized;
	struct smcx_cdc_msg m __uninitialized;
	bool imm;
	int nwr, len;

	nwr = smcx_tx_writes(conn, lnk, conn->tx_sent, n, ssz, psz, wr, sge);
	spin_lock_bh(&conn->lock);
	imm = smcx_wwi_tx_ok(conn->lgr->v2x.write_imm,
			     cdc || smcx_tx_cdc_news(conn), n,
			     conn->tx_stated_lnk == lnk, conn->tx_stated,
			     conn->tx_sent, ssz, psz);
	if (imm)
		smcx_tx_posting(conn, lnk, n);
	else
		smcx_tx_cdc_fill(conn, lnk, &m, n, psz, urg_pend, urg_pos,
				 urg_flags);
	spin_unlock_bh(&conn->lock);
	if (imm) {
		smcx_tx_slot_own(smc, slot, false);
		wr[0].wr.ex.imm_data = cpu_to_be32(conn->peer_token);
		if (smcx_wr_send_imm(slot, &wr[0],
				     smcx_buf_dma(conn->sndbuf, lnk), ssz))
			goto drop;
		smcx_stats_wwi(smc->stats, SMCX_WWI_TX);
		return 0;
	}
	smcx_tx_slot_own(smc, slot,
			 !!(m.conn_flags & (SMCX_CDC_CF_CONN_CLOSED |
					    SMCX_CDC_CF_CONN_ABORT)));
	len = smcx_cdc_encode(&m, slot->buf, SMCX_WR_SLOT_LEN);
	/* the WRITEs read the send buffer: synced with the post */
	if (len < 0 ||
	    smcx_wr_send_data(slot, len, nwr ? &wr[0].wr : NULL,
			      smcx_buf_dma(conn->sndbuf, lnk), n ? ssz : 0))
		goto drop;
	return 0;
drop:
	smcx_tx_slot_drop(smc, slot);
	return -ENOLINK;
}

/*
 * SMC-D loopback: a push of @n bytes is a copy into the peer's DMB, split
 * where either ring wraps (as smcx_tx_writes()), then its CDC, handed to
 * the peer's receive path (cdc.c), which finds the connection by its
 * token as a CDC over RDMA is found; then its completion, at once: a copy
 * is done when it is made, and cannot be flushed.  The copy goes first,
 * so the peer counts the bytes only once they are there (the release of
 * its producer cursor orders them, cdc.c).  The peer's DMB stays
 * allocated while we hold its group (lo.h); we copy into it only while
 * the close protocol lets data go (the caller's n), so never after the
 * peer could have given the buffer to another connection.
 */
static void smcx_txd_post(struct smcx_sock *smc, u64 n, u32 ssz, u32 psz,
			  bool urg_pend, u64 urg_pos, u8 urg_flags)
{
	struct smcx_conn *conn = smc->conn;
	u8 *dst = conn->peer_dmb.buf->cpu;
	const u8 *src = conn->sndbuf->cpu;
	struct smcx_cdc_msg m;
	u64 pos = conn->tx_sent, left = n, end;
	u32 s, d, l;

	while (left && !conn->tx_attached) {	/* else sendmsg wrote there */
		s = smcx_ring_off(pos, ssz);
		d = smcx_ring_off(pos, psz);
		l = smcx_ring_chunk(pos, psz, smcx_ring_chunk(pos, ssz, left));
		memcpy(dst + d, src + s, l);
		pos += l;
		left -= l;
	}
	spin_lock_bh(&conn->lock);
	smcx_tx_cdc_fill(conn, NULL, &m, n, psz, urg_pend, urg_pos, urg_flags);
	end = conn->tx_sent;
	spin_unlock_bh(&conn->lock);
	smcx_cdc_rx_d(conn->peer_dmb.lgr, &m);
	smcx_cdc_landed_d(smc, end,
			  !!(m.conn_flags & (SMCX_CDC_CF_CONN_CLOSED |
					     SMCX_CDC_CF_CONN_ABORT)));
}

/*
 * Push what the send buffer holds and the peer's RMB can take: RDMA WRITEs
 * and one CDC carrying the new producer cursor, our consumer cursor and
 * the flags, or, where the group negotiated it and the CDC would say
 * nothing else, one RDMA WRITE WITH IMMEDIATE (smcx/wwi.h).  @force sends
 * a CDC even without data (cursor update, close flags).  The send side
 * owned (tx_busy).  @wait: for a send slot (process context); without it
 * (softirq) -EAGAIN when none is free.
 */
static int __smcx_tx_push(struct smcx_sock *smc, bool force, bool wait)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lgr *lgr = conn->lgr;
	struct smcx_link *lnk;
	struct smcx_tx_slot *slot;
	u64 pending, space, n, urg_pos;
	struct smcx_close c;
	u32 ssz, psz;
	bool urg_pend;
	u8 urg_flags;
	int rc;

	if (!lgr || !conn->sndbuf)
		return -ECONNRESET;
	lnk = conn->lnk;		/* the connection's link */
	ssz = conn->sndbuf->size;
	/* pairs with smcx_conn_set_peer_rmb(): rkey, address, token after */
	psz = smp_load_acquire(&conn->peer_rmbe_size);
	if (!psz)
		return 0;	/* peer's RMB not known yet (CLC Confirm unread) */
	do {
		c = smcx_conn_close(conn);
		if (c.gone)
			return -ECONNRESET;
		/* our close or abort is out, and nothing more is owed */
		if ((c.local.closed || c.local.abort) &&
		    conn->tx_sent == conn->tx_prep &&
		    !smcx_close_owed(c, READ_ONCE(conn->closed_sent),
				     READ_ONCE(conn->abort_sent)))
			return 0;
		spin_lock_bh(&conn->lock);
		/*
		 * After a failover the peer may report consumed bytes we
		 * were about to write again (its CDC overtook ours): those
		 * landed, write on after them.
		 */
		if (conn->peer_cons > conn->tx_sent)
			conn->tx_sent = conn->peer_cons;
		pending = conn->tx_prep - conn->tx_sent;
		space = smcx_curs_space(psz, conn->tx_sent, conn->peer_cons);
		/*
		 * No data to a peer that aborted or closed (nobody reads it,
		 * and its RMB may serve another connection by now), nor with
		 * or after our abort (TCP's reset drops unsent data too).
		 */
		n = smcx_close_data_ok(conn->close) ? min(pending, space) : 0;
		/*
		 * An urgent byte ends the CDC that marks it; it stops being
		 * pending only once that CDC is built (below), not when no
		 * send slot comes (a dying link): the failover's push must
		 * still mark it.
		 */
		urg_flags = 0;
		urg_pend = conn->urg_tx_pend;
		urg_pos = conn->urg_tx_pos;
		n = smcx_urg_tx_limit(&urg_pend, conn->tx_sent, urg_pos, n,
				      &urg_flags);
		spin_unlock_bh(&conn->lock);
		smcx_stats_tx_push(smc->stats, pending, space, n);
		if (!n && !force)
			return 0;
		if (lgr->smcd) {
			smcx_txd_post(smc, n, ssz, psz, urg_pend, urg_pos,
				      urg_flags);
			force = false;
			continue;
		}
		slot = smcx_wr_slot_get(lnk, wait);
		if (!slot && !wait && smcx_link_usable(lnk))
			return -EAGAIN;
		if (!slot)
			return smcx_tx_lost(conn, lnk);
		rc = smcx_tx_post(smc, slot, n, ssz, psz, force || urg_flags,
				  urg_pend, urg_pos, urg_flags);
		if (rc)		/* not posted: the link is dead or dying */
			return smcx_tx_lost(conn, lnk);
		force = false;
	} while (n && conn->tx_prep > conn->tx_sent);
	return 0;
}

int smcx_tx_push(struct smcx_sock *smc, bool force)
{
	return __smcx_tx_push(smc, force, true);
}

/*
 * Process context: own the send side.  tx_mutex orders the tasks; a
 * completion that holds tx_busy is pushing on another CPU, in softirq,
 * without sleeping or waiting for anything, for at most
 * SMCX_TX_KICK_ROUNDS pushes (smcx_tx_kick()).  Sleep until it lets go
 * (review N12: spinning here could last as long as other CPUs' completions
 * kept the owner going): every path that clears tx_busy wakes us
 * (smcx_tx_free_side()).  The wait ends: the owner never waits for us.
 */
void smcx_tx_lock(struct smcx_conn *conn)
{
	mutex_lock(&conn->tx_mutex);
	spin_lock_bh(&conn->lock);
	while (conn->tx_busy) {
		conn->tx_waiter = true;
		spin_unlock_bh(&conn->lock);
		wait_var_event(&conn->tx_busy, !READ_ONCE(conn->tx_busy));
		spin_lock_bh(&conn->lock);
	}
	conn->tx_waiter = false;
	conn->tx_busy = true;
	spin_unlock_bh(&conn->lock);
}

/*
 * The send side is free (tx_busy just cleared under lock, which is
 * released) and @waiter, tx_waiter read in the same section, says a task
 * sleeps or is about to sleep in smcx_tx_lock(): wake it.  A task that
 * set tx_waiter did so under lock before this release's section, so the
 * release sees it; one that comes later finds tx_busy clear and does not
 * sleep.  The barrier orders the clear before wake_up_var()'s look at the
 * wait queue, against the waiter's queueing before its look at tx_busy.
 * Most releases have no waiter and skip the barrier.
 */
static void smcx_tx_free_side(struct smcx_conn *conn, bool waiter)
{
	if (!waiter)
		return;
	/* tx_busy's clear before the look at the waiters (see above) */
	smp_mb();
	wake_up_var(&conn->tx_busy);
}

/*
 * Let go of the send side; a completion that found it owned meanwhile
 * (tx_again) left its push to us.  Under lock, so a completion either sees
 * tx_busy and sets tx_again before we look, or finds the side free.
 */
static bool smcx_tx_release(struct smcx_conn *conn)
{
	bool again, waiter;

	spin_lock_bh(&conn->lock);
	again = conn->tx_again;
	conn->tx_again = false;
	if (!again)
		conn->tx_busy = false;
	waiter = conn->tx_waiter;
	spin_unlock_bh(&conn->lock);
	if (!again)
		smcx_tx_free_side(conn, waiter);
	return again;
}

/*
 * Let go of the send side even though a push is owed (tx_again): the
 * caller queues tx_work, which takes the side and pushes what is owed
 * then.  A completion between the two either pushes itself or finds
 * tx_work's owner and leaves the push to it.
 */
static void smcx_tx_hand_off(struct smcx_conn *conn)
{
	bool waiter;

	spin_lock_bh(&conn->lock);
	conn->tx_again = false;
	conn->tx_busy = false;
	waiter = conn->tx_waiter;
	spin_unlock_bh(&conn->lock);
	smcx_tx_free_side(conn, waiter);
}

int smcx_tx_push_locked(struct smcx_sock *smc, bool force)
{
	int rc;

	smcx_tx_lock(smc->conn);
	rc = smcx_tx_push(smc, force);
	smcx_tx_unlock(smc);
	return rc;
}

/*
 * Failover (see conn.h).  The send side owned, so no push runs on either link
 * meanwhile.  What may not have landed is what was written after the
 * last completed CDC (RC completes in order: a completed CDC's WRITEs
 * landed before it): tx_sent goes back to tx_fin, or to the peer's
 * consumer cursor if that is further (it read more: a CDC whose
 * completion the dead link lost).  The push then writes those bytes again
 * at the same places of the peer's RMB, and the first CDC on @to names a
 * producer cursor at least as far as any the peer saw (it covers all the
 * data rewritten) and our consumer cursor, which the dead link may have
 * lost too, and, after close(), the close again: without it the peer
 * waits for a close that is gone, and our close work aborts the
 * connection SMCX_CLOSE_WAIT later.  A close the peer took
 * already changes nothing there.  The peer drops CDCs older than one it
 * took (sequence numbers, cdc.c).
 */
int smcx_tx_failover(struct smcx_sock *smc, struct smcx_link *from,
		     struct smcx_link *to)
{
	struct smcx_conn *conn = smc->conn;
	u64 addr, sent;
	u32 rkey;
	int rc = 0;

	smcx_tx_lock(conn);
	if (!conn->lgr || conn->lnk != from)
		goto out;		/* freed, or moved already */
	rc = smcx_lgr_rtok_key(conn->lgr, conn->peer_rtok, to, &rkey, &addr);
	if (rc)
		goto out;		/* the peer's RMB has no key on @to */
	spin_lock_bh(&conn->lock);
	if (conn->close.gone) {
		rc = -ECONNRESET;
	} else {
		conn->peer_rkey[to->idx] = rkey;
		conn->peer_rmb_addr[to->idx] = addr;
		sent = conn->tx_sent;
		conn->tx_sent = max(conn->tx_fin, conn->peer_cons);
		/* the urgent byte's mark may be lost with the link: again */
		if (smcx_urg_tx_rewound(conn->urg_tx_set, conn->urg_tx_pos,
					conn->tx_sent, sent))
			conn->urg_tx_pend = true;
		/* our close may have gone with the dead link: say it again */
		conn->closed_sent = false;
		conn->abort_sent = false;
		/* the first message on @to is a CDC (smcx/wwi.h) */
		conn->tx_stated_lnk = NULL;
		atomic_inc(&to->conn_cnt);
		atomic_dec(&from->conn_cnt);
		WRITE_ONCE(conn->lnk, to);
	}
	spin_unlock_bh(&conn->lock);
	if (!rc) {
		smcx_stats_link(sock_net(&smc->sk), SMCX_LINK_FAILOVER);
		rc = smcx_tx_push(smc, true);
	}
out:
	smcx_tx_unlock(smc);
	return rc;
}

/*
 * TCP_CORK holds data against the pushes nobody asked for (a CDC
 * completion, room in the peer's RMB) while the send buffer has room and
 * the socket still sends.  A full buffer goes out: a sender waits for
 * room, which only the push's completion makes.
 */
static bool smcx_tx_held(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	bool held;

	if (!READ_ONCE(smc->tx_cork))
		return false;
	spin_lock_bh(&conn->lock);
	held = conn->sndbuf && !conn->close.local.done_writing &&
	       !conn->urg_tx_pend &&
	       smcx_curs_space(conn->sndbuf->size, conn->tx_prep, conn->tx_fin);
	spin_unlock_bh(&conn->lock);
	return held;
}

/*
 * What a completion asks for: the data the peer has room for now (unless
 * TCP_CORK holds it), our consumer cursor to a peer that waits for it, the
 * abort we owe.  The send side owned; -EAGAIN: no slot and !@wait.
 */
static int smcx_tx_owed(struct smcx_sock *smc, bool wait)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_close c;
	bool force;

	if (!conn->lgr)
		return 0;
	/*
	 * what the close owes (smcx_close_owed()): our abort at once, our
	 * close once the data is out (it goes in the last data's CDC)
	 */
	c = smcx_conn_close(conn);
	force = smcx_close_owed(c, READ_ONCE(conn->closed_sent),
				READ_ONCE(conn->abort_sent)) &&
		(c.local.abort || conn->tx_sent == conn->tx_prep ||
		 !smcx_close_data_ok(c));
	force = force ||
		(conn->peer_write_blocked && conn->rx_cons > conn->rx_cons_sent);
	if (!force && smcx_tx_held(smc))
		return 0;
	return __smcx_tx_push(smc, force, wait);
}

void smcx_tx_unlock(struct smcx_sock *smc)
{
	while (smcx_tx_release(smc->conn))
		smcx_tx_owed(smc, true);
	mutex_unlock(&smc->conn->tx_mutex);
}

/* the fallback of smcx_tx_kick(): no send slot was free */
void smcx_tx_work(struct work_struct *work)
{
	struct smcx_conn *conn = container_of(work, struct smcx_conn, tx_work);
	struct smcx_sock *smc = conn->owner;

	/* the sock is alive: the queueing holds a reference */
	smcx_tx_lock(conn);
	smcx_tx_owed(smc, true);
	smcx_tx_unlock(smc);
	sock_put(&smc->sk);
}

/*
 * Softirq: a receive or send completion of any link.  The post goes to
 * the QP under the link's tx_lock (wr.c), as the sleeping POST section
 * cannot be entered here.  When all send slots are taken the push waits
 * in tx_work for one; the queued work holds a sock reference, which
 * smcx_tx_work() drops; work already queued takes this event along.
 */
void smcx_tx_kick(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	bool slotless = false, handed = false;
	int rounds = 0;

	spin_lock_bh(&conn->lock);
	if (conn->tx_busy) {
		conn->tx_again = true;
		spin_unlock_bh(&conn->lock);
		smcx_stats_tx_kick(smc->stats, SMCX_KICK_OWNER);
		return;
	}
	conn->tx_busy = true;
	spin_unlock_bh(&conn->lock);
	/*
	 * Push again while other CPUs' completions ask for it (tx_again),
	 * but not without end (review N12): after SMCX_TX_KICK_ROUNDS the
	 * rest goes to tx_work, and a task waiting in smcx_tx_lock() gets
	 * its turn.
	 */
	do {
		if (!slotless)
			slotless = smcx_tx_owed(smc, false) == -EAGAIN;
		if (++rounds >= SMCX_TX_KICK_ROUNDS &&
		    READ_ONCE(conn->tx_again)) {
			smcx_tx_hand_off(conn);
			handed = true;
			break;
		}
	} while (smcx_tx_release(conn));
	smcx_stats_tx_kick(smc->stats,
			   slotless || handed ? SMCX_KICK_WORK : SMCX_KICK_BH);
	if (slotless || handed) {
		sock_hold(&smc->sk);
		if (!queue_work(smcx_wq, &conn->tx_work))
			sock_put(&smc->sk);
	}
}
