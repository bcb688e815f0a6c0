// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: recvmsg copies out of our RMB and has the push send our
 * consumer cursor once enough space is free (or the peer waits for it);
 * poll and the queue ioctls read the same cursors.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/stat.h>
#include <linux/uio.h>
#include <net/busy_poll.h>
#include <net/sock.h>
#include <asm/ioctls.h>

#include <smcx/cursor.h>
#include <smcx/urg.h>

#include "conn.h"
#include "lgr.h"
#include "stats.h"

/*
 * Bytes to read, without conn->lock.  cdc.c stores rx_prod with release,
 * after the RMB bytes it covers landed (the message that moves it
 * completes after the RDMA WRITEs before it on its QP, and the completion
 * is seen after them) and after the urgent mark it brings; the acquire
 * here pairs with that store, so every read after it, of the RMB's bytes
 * in recvmsg and of conn->urg_state, sees at least what the producer
 * cursor read covers.  rx_cons is written by recvmsg only (sock owned,
 * under lock for tx.c's sake): exact for recvmsg; read after rx_prod it
 * may be newer than the cursor read by another task (poll while a thread
 * receives), and the 0 that gives is as stale as any lockless poll: the
 * message that moves rx_prod wakes the poller after its store.
 */
u64 smcx_rx_avail(struct smcx_conn *conn)
{
	/* pairs with the release of rx_prod in cdc.c */
	u64 prod = smp_load_acquire(&conn->rx_prod);
	u64 cons = READ_ONCE(conn->rx_cons);

	return prod > cons ? prod - cons : 0;
}

/* is there something for recvmsg: data, the peer's close, our shutdown? */
static bool smcx_rx_ready(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_close c = smcx_conn_close(conn);

	return smcx_rx_avail(conn) || c.peer.done_writing ||
	       smcx_close_ended(c.state) ||
	       (smc->sk.sk_shutdown & RCV_SHUTDOWN);
}

/*
 * The wait condition of recvmsg (smcx_conn_wait()), and of its busy poll.
 * It reads the cursors and the close state without conn->lock, under
 * which cdc.c moves them before it wakes.  A yes needs no ordering; a no
 * may put us to sleep, so it is asked again after a barrier that orders
 * our wait-queue entry before the reads and pairs with the one of
 * skwq_has_sleeper() in smcx_conn_wake(): either we see the new cursor
 * or the waker sees us queued.  (The second look only: one barrier per
 * sleep, none when the data is there.)
 */
static bool smcx_can_recv(struct smcx_sock *smc)
{
	if (smcx_rx_ready(smc))
		return true;
	/* queued, then read: pairs with smcx_conn_wake()'s (see above) */
	smp_mb();
	return smcx_rx_ready(smc);
}

/*
 * Make the RMB's bytes the peer wrote visible to the CPU, for every link
 * of the group that has it mapped: the peer writes over whichever link its
 * connection sends on (the one a CDC came on), bytes before a failover
 * over the old one, and which bytes came over which link is not kept; a
 * sync is cheap (nothing on a coherent platform), so each mapping is
 * synced rather than the last CDC's link only.  A link whose share is
 * unmapped (cleared, or its group terminated and the device maybe gone)
 * is skipped: the unmap was its last sync, the bytes it carried are
 * readable as they are.  An RMB no mapping of which needs a sync (rxe's
 * virtual DMA, a coherent platform) skips the walk and its sections.
 */
static void smcx_rx_sync(struct smcx_lgr *lgr, struct smcx_buf *rmb)
{
	struct smcx_link *lnk;
	int i;

	if (!READ_ONCE(rmb->need_sync))
		return;
	for (i = 0; i < SMCX_LGR_LINKS; i++) {
		lnk = &lgr->lnk[i];
		if (!smcx_link_enter(lnk, SMCX_LNK_MAPPED))
			continue;
		if (smcx_buf_mapped(rmb, lnk))
			ib_dma_sync_single_for_cpu(lnk->ibdev,
						   smcx_buf_dma(rmb, lnk),
						   rmb->size,
						   DMA_BIDIRECTIONAL);
		smcx_link_leave(lnk);
	}
}

/*
 * Receive busy polling, opt-in as TCP's: SO_BUSY_POLL, or net.core.busy_read
 * as the socket's default.  Before a receive sleeps, it spins for up to that
 * many microseconds, sock lock released (as while it sleeps), until data or
 * the peer's close is there: the CDC that brings them is handled in softirq
 * on top of the spin, and the sleep and wakeup it saves are the largest part
 * of a small message's receive cost.  Other tasks keep their CPU time (see
 * below), and a signal ends the spin.  True when there is something to read.
 */
static bool smcx_rx_busy_poll(struct smcx_sock *smc)
{
#ifdef CONFIG_NET_RX_BUSY_POLL
	struct sock *sk = &smc->sk;
	unsigned long start;
	bool got;

	if (!sk_can_busy_loop(sk))
		return false;
	release_sock(sk);
	start = busy_loop_current_time();
	for (;;) {
		got = smcx_can_recv(smc);
		if (got || signal_pending(current) ||
		    sk_busy_loop_timeout(sk, start))
			break;
		/*
		 * Others runnable here get the CPU first: on a one-CPU host
		 * that is often what brings the data (rxe sends our request
		 * from a kworker), and a woken kworker need not preempt us.
		 * schedule() while running re-picks: another task once ours
		 * had its share.
		 */
		if (need_resched() || !single_task_running())
			schedule();
		else
			cpu_relax();
	}
	lock_sock(sk);
	smcx_stats_busy_poll(sock_net(sk), got);
	return got;
#else
	return false;
#endif
}

/*
 * The application consumed the stream up to @pos (in an RMB of @rsz):
 * move the consumer cursor, and tell whether the peer must hear of it now
 * (include/smcx/cursor.h, smcx_curs_update_due(): why no writer stalls on
 * that rule, which needs it asked after every read that moves the
 * cursor).  Under conn->lock: the CDC that carries the cursor reads it
 * and sets rx_cons_sent under the lock (tx.c), and the urgent state is
 * cdc.c's too.
 */
static bool smcx_rx_consumed(struct smcx_conn *conn, u64 pos, u32 rsz)
{
	WRITE_ONCE(conn->rx_cons, pos);		/* smcx_rx_avail() */
	if (smcx_urg_passed(conn->urg_state, conn->urg_pos, pos))
		conn->urg_state = SMCX_URG_NONE;
	return smcx_curs_update_due(conn->rx_prod, pos, conn->rx_cons_sent,
				    rsz, conn->rmbe_update_limit,
				    conn->peer_write_blocked);
}

/* send our consumer cursor, unless the connection is over */
static void smcx_rx_update(struct smcx_sock *smc)
{
	if (!smcx_close_ended(smcx_conn_close(smc->conn).state))
		smcx_tx_push_locked(smc, true);
}

int smcx_conn_recvmsg(struct smcx_sock *smc, struct msghdr *msg, size_t len,
		      int flags)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	long timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	int target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	size_t copied = 0;
	struct smcx_lgr *lgr;
	bool update, skip, polled = false;
	int rc = 0;

	if (flags & MSG_OOB)
		return smcx_urg_recv(smc, msg, len, flags);
	smcx_stats_rx_call(smc->stats, len, conn->rmb ? conn->rmb->size : 0,
			   smcx_rx_avail(conn));
	/* len 0 makes one pass: 0, or EAGAIN / an error as for len 1 */
	while (copied < len || !len) {
		u64 avail = smcx_rx_avail(conn), n, pos;
		u32 rsz, off, l;

		if (avail && !len)
			break;
		if (!avail) {
			if (copied >= target)
				break;
			if (smcx_close_ended(smcx_conn_close(conn).state)) {
				/* as TCP after a reset: the error once, then EOF */
				rc = copied ? 0 : sock_error(sk);
				break;
			}
			if (smcx_conn_close(conn).peer.done_writing ||
			    (sk->sk_shutdown & RCV_SHUTDOWN))
				break;
			if (!timeo) {
				rc = -EAGAIN;
				break;
			}
			/* measured: TCP's blocking recv of 0 bytes returns 0 */
			if (!len)
				break;
			/* once per call, before its first sleep, as TCP */
			if (!polled) {
				polled = true;
				if (smcx_rx_busy_poll(smc))
					continue;
			}
			rc = smcx_conn_wait(smc, &timeo, smcx_can_recv);
			if (rc)
				break;
			continue;
		}
		lgr = conn->lgr;
		if (!conn->rmb || !lgr)
			break;
		rsz = conn->rmb->size;
		n = min_t(u64, avail, len - copied);
		pos = conn->rx_cons;
		/*
		 * Urgent data: stop at the mark, skip the byte unless inline.
		 * Without a mark, no lock: cdc.c sets a mark before the
		 * producer cursor that covers it (smcx_rx_avail()), so one
		 * set after this look lies past the @n bytes counted above.
		 */
		skip = false;
		if (READ_ONCE(conn->urg_state) != SMCX_URG_NONE) {
			spin_lock_bh(&conn->lock);
			n = smcx_urg_rx_limit(conn->urg_state, conn->urg_pos,
					      pos, n, copied,
					      sock_flag(sk, SOCK_URGINLINE),
					      &skip);
			spin_unlock_bh(&conn->lock);
		}
		if (!n)
			break;
		if (skip) {
			if (avail == 1) {
				if (flags & MSG_PEEK) {
					rc = -EAGAIN;
					break;
				}
				spin_lock_bh(&conn->lock);
				update = smcx_rx_consumed(conn, pos + 1, rsz);
				spin_unlock_bh(&conn->lock);
				if (update)
					smcx_rx_update(smc);
				continue;
			}
			pos++;
			n = min_t(u64, avail - 1, len - copied);
		}
		smcx_rx_sync(lgr, conn->rmb);
		while (n) {
			off = smcx_ring_off(pos, rsz);
			l = smcx_ring_chunk(pos, rsz, n);
			/* MSG_TRUNC: TCP drops the bytes and counts them */
			if (!(flags & MSG_TRUNC) &&
			    copy_to_iter((u8 *)conn->rmb->cpu + off, l,
					 &msg->msg_iter) != l) {
				rc = -EFAULT;
				break;
			}
			pos += l;
			n -= l;
			copied += l;
		}
		if (flags & MSG_PEEK)
			break;
		spin_lock_bh(&conn->lock);
		update = smcx_rx_consumed(conn, pos, rsz);
		spin_unlock_bh(&conn->lock);
		if (update)
			smcx_rx_update(smc);
		if (rc)
			break;
	}
	if (copied && !(flags & MSG_PEEK))
		smcx_stats_rx(smc->stats, len, copied);
	return copied ? copied : rc;
}

/*
 * The connection's shutdown as TCP would have it: the peer's done writing
 * is TCP's FIN (receive side shut), an abort or a dead link is TCP's reset
 * (both sides), and so is a send after the peer closed (see sendmsg).
 */
static u8 smcx_conn_shutdown_state(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_close c = smcx_conn_close(conn);
	u8 shut = READ_ONCE(smc->sk.sk_shutdown);

	if (c.peer.done_writing)
		shut |= RCV_SHUTDOWN;
	if (smcx_close_app_dead(c))
		shut |= SHUTDOWN_MASK;
	return shut;
}

__poll_t smcx_conn_poll(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	__poll_t mask = 0;

	u8 shut = smcx_conn_shutdown_state(smc);

	/* tcp_poll()'s rules, with the peer's flags for TCP's FIN and RST */
	if (shut == SHUTDOWN_MASK)
		mask |= EPOLLHUP;
	if (shut & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (smcx_rx_avail(conn) >=
	    smcx_urg_poll_target(smc, sock_rcvlowat(sk, 0, INT_MAX)))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(conn->urg_state) == SMCX_URG_VALID)
		mask |= EPOLLPRI;
	if (shut & SEND_SHUTDOWN)
		mask |= EPOLLOUT | EPOLLWRNORM;
	else if (smcx_tx_space_or_wait(conn))	/* full: wake the poller */
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	return mask;
}

int smcx_conn_ioctl(struct smcx_sock *smc, unsigned int cmd,
		    unsigned long arg)
{
	struct smcx_conn *conn = smc->conn;
	int v;

	switch (cmd) {
	case SIOCINQ:
		v = smcx_urg_inq(smc, smcx_rx_avail(conn));
		break;
	case SIOCOUTQ:
		/*
		 * TCP's unacknowledged bytes: for SMC-D into the peer's DMB,
		 * what we wrote there and announced has landed
		 */
		spin_lock_bh(&conn->lock);
		v = conn->tx_prep -
		    (conn->tx_attached ? conn->tx_sent : conn->tx_fin);
		spin_unlock_bh(&conn->lock);
		break;
	case SIOCOUTQNSD:
		spin_lock_bh(&conn->lock);
		v = conn->tx_prep - conn->tx_sent;
		spin_unlock_bh(&conn->lock);
		break;
	case SIOCATMARK:
		v = smcx_urg_atmark(conn);
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user(v, (int __user *)arg);
}
