// SPDX-License-Identifier: GPL-2.0
/*
 * sendmsg: copy into the send buffer, then push (tx.c), hold the bytes
 * for a CDC in flight (autocorking, MSG_MORE, TCP_CORK), or leave them to
 * the peer's consumer update when its RMB is full.  Runs under the sock
 * lock, which makes it the only writer of tx_prep.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>
#include <linux/tcp.h>
#include <linux/uio.h>
#include <net/sock.h>

#include <smcx/cursor.h>

#include "buf.h"
#include "conn.h"
#include "stats.h"
#include "sysctl.h"

/*
 * Hold the data sendmsg just copied instead of pushing it?  conn->lock
 * held, in the same section that moved tx_prep, so a completion either
 * ran before (no CDC in flight: no autocork) or sees the data (cdc.c).
 *
 * Autocorking, mainline's rule: while a CDC is in flight, its completion
 * comes soon and pushes, so small sends in between leave as one RDMA
 * WRITE and one CDC, with no timer; at most min(sndbuf / 2,
 * net.smc.autocorking_size) bytes wait (0: off), and a send with no CDC
 * in flight goes at once.  MSG_MORE and TCP_CORK hold while the send
 * buffer has room: the application says when (a send without MSG_MORE,
 * uncork, TCP_NODELAY, shutdown, close).  An urgent byte is never held.
 */
static bool smcx_tx_cork(struct smcx_sock *smc, int flags)
{
	struct smcx_conn *conn = smc->conn;
	u32 ssz = conn->sndbuf->size;
	u64 limit;

	if (conn->urg_tx_pend)
		return false;
	limit = min_t(u64, ssz / 2,
		      READ_ONCE(smc->sysctl->autocorking_size));
	if (conn->cdc_pend && conn->tx_prep - conn->tx_sent <= limit)
		return true;
	return ((flags & MSG_MORE) || READ_ONCE(smc->tx_cork)) &&
	       smcx_curs_space(ssz, conn->tx_prep, conn->tx_fin);
}

/*
 * Is the peer's RMB full?  Then a push (without force) posts nothing,
 * and the peer's consumer update pushes the data when it comes: cdc.c
 * kicks when it moves peer_cons with data unsent, and conn->lock orders
 * that against the section of sendmsg that moved tx_prep and asked this.
 * A bulk sender of small writes meets a full RMB at most writes.
 */
static bool smcx_tx_peer_full(const struct smcx_conn *conn)
{
	u32 psz = READ_ONCE(conn->peer_rmbe_size);

	return psz && conn->peer_cons <= conn->tx_sent &&
	       !smcx_curs_space(psz, conn->tx_sent, conn->peer_cons);
}

/* push what corking held (uncork, TCP_NODELAY on) */
void smcx_tx_sockopt(struct smcx_sock *smc, int optname, int val)
{
	struct smcx_conn *conn = smc->conn;

	if (optname == TCP_CORK)
		WRITE_ONCE(smc->tx_cork, val != 0);
	if (!((optname == TCP_CORK && !val) || (optname == TCP_NODELAY && val)))
		return;
	if (!smc->smcr || !conn || smcx_hs_busy(smc))
		return;
	smcx_tx_lock(conn);
	if (conn->lgr)
		smcx_tx_push(smc, false);
	smcx_tx_unlock(smc);
}

u64 smcx_tx_space_or_wait(struct smcx_conn *conn)
{
	u64 v;

	spin_lock_bh(&conn->lock);
	v = conn->sndbuf ? smcx_curs_space(conn->sndbuf->size, conn->tx_prep,
					   conn->tx_fin) : 0;
	if (!v)
		conn->tx_nospace = true;
	spin_unlock_bh(&conn->lock);
	return v;
}

/*
 * The wait's condition, evaluated after the task is on the wait queue: a
 * full buffer sets tx_nospace again each time, so the completion that
 * frees room wakes it, whether it came before or during the sleep.
 */
static bool smcx_can_send(struct smcx_sock *smc)
{
	struct smcx_close c = smcx_conn_close(smc->conn);

	return smcx_tx_space_or_wait(smc->conn) > 0 ||
	       smcx_close_may_send(c) != SMCX_SEND_OK;
}

/*
 * Room in the send buffer for sendmsg, which owns tx_prep (sock lock) and
 * meets a send buffer that stays while it holds that lock: tx_fin only
 * grows (completions, under conn->lock), so a read without the lock finds
 * at most less room than there is, and only a full buffer takes the lock
 * to ask for the wakeup.  The copy into the room comes after the load that
 * found it (a control dependency), so after the completion that freed it.
 */
static u64 smcx_tx_room(struct smcx_conn *conn)
{
	return smcx_curs_space(conn->sndbuf->size, conn->tx_prep,
			       READ_ONCE(conn->tx_fin)) ?:
	       smcx_tx_space_or_wait(conn);
}

/* one send call's statistics, at each of its ends */
static void smcx_tx_count(struct smcx_sock *smc, struct msghdr *msg,
			  size_t len, size_t copied)
{
	struct smcx_conn *conn = smc->conn;

	smcx_stats_send(smc->stats, len, copied,
			conn->sndbuf ? conn->sndbuf->size : 0,
			READ_ONCE(conn->peer_rmbe_size), msg->msg_flags);
}

int smcx_conn_sendmsg(struct smcx_sock *smc, struct msghdr *msg, size_t len)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	size_t copied = 0;
	long timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	int rc = 0;

	while (copied < len) {
		u64 space, n, pos;
		u32 ssz, off, l;
		bool cork, full, attached;

		switch (smcx_close_may_send(smcx_conn_close(conn))) {
		case SMCX_SEND_DEAD:
			/* as TCP after a reset: the error once, then EPIPE */
			rc = sock_error(sk) ?: -EPIPE;
			break;
		case SMCX_SEND_SHUT:
			rc = -EPIPE;
			break;
		case SMCX_SEND_RESET:
			/*
			 * TCP takes these bytes into a connection the peer
			 * has closed, and the peer's RST answers them:
			 * sk_err EPIPE (a reset in CLOSE_WAIT), both sides
			 * shut (RESET).  The peer's RMB may serve another
			 * connection by now, so nothing is written; the
			 * bytes are lost as TCP's are.
			 */
			smcx_close_event(smc, SMCX_CLOSE_EV_RESET);
			smcx_tx_count(smc, msg, len, copied);
			return len;
		case SMCX_SEND_OK:
			if (sk->sk_shutdown & SEND_SHUTDOWN)
				rc = -EPIPE;
			break;
		}
		if (rc)
			break;
		space = smcx_tx_room(conn);
		if (!space) {
			smcx_stats_tx_full(smc->stats);
			if (!timeo) {
				rc = -EAGAIN;
				break;
			}
			rc = smcx_conn_wait(smc, &timeo, smcx_can_send);
			if (rc)
				break;
			continue;
		}
		/*
		 * SMC-D into the peer's DMB (conn.h, tx_attached): the copy is
		 * the write into the peer's memory, so it owns the send side
		 * as a push does.  The CDC with our abort or close, after
		 * which the peer may give that memory to another connection,
		 * then goes out only after the copy (it needs the send side
		 * too), and a copy starts only while we may still send.
		 */
		attached = conn->tx_attached;
		if (attached) {
			smcx_tx_lock(conn);
			if (smcx_close_may_send(smcx_conn_close(conn)) !=
			    SMCX_SEND_OK) {
				smcx_tx_unlock(smc);
				continue;	/* the top says what happened */
			}
		}
		ssz = conn->sndbuf->size;
		n = min_t(u64, space, len - copied);
		pos = conn->tx_prep;
		while (n) {
			off = smcx_ring_off(pos, ssz);
			l = smcx_ring_chunk(pos, ssz, n);
			if (copy_from_iter((u8 *)conn->sndbuf->cpu + off, l,
					   &msg->msg_iter) != l) {
				rc = -EFAULT;
				break;
			}
			pos += l;
			n -= l;
			copied += l;
		}
		spin_lock_bh(&conn->lock);
		conn->tx_prep = pos;
		/* MSG_OOB: the send's last byte is urgent (tcp_mark_urg) */
		if ((msg->msg_flags & MSG_OOB) && copied == len) {
			conn->urg_tx_pos = pos - 1;
			conn->urg_tx_pend = true;
			conn->urg_tx_set = true;
		}
		cork = smcx_tx_cork(smc, msg->msg_flags);
		full = !cork && smcx_tx_peer_full(conn);
		spin_unlock_bh(&conn->lock);
		if (cork)
			smcx_stats_tx_corked(smc->stats);
		else if (full)	/* counted as the push would have */
			smcx_stats_tx_push(smc->stats, 1, 0, 0);
		else if (attached)
			smcx_tx_push(smc, false);
		else
			smcx_tx_push_locked(smc, false);
		if (attached)
			smcx_tx_unlock(smc);
		if (rc)
			break;
	}
	smcx_tx_count(smc, msg, len, copied);
	if (copied)
		return copied;
	if (rc == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return rc;
}
