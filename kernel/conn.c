// SPDX-License-Identifier: GPL-2.0
/*
 * SMC-R connections: CDC messages, send (copy into the send buffer, RDMA
 * WRITE into the peer's RMB, CDC with the producer cursor), receive (copy
 * out of our RMB, CDC with the consumer cursor once enough space is free),
 * poll, shutdown and close (done writing / closed / abort flags).
 *
 * Cursors are kept as monotonic 64-bit byte counts; the wire form (wrap,
 * count) is derived from them modulo the RMBE size (count) and 2^16 (wrap).
 * A received cursor is turned back into a count through its distance from
 * the last known one, which is never more than one RMBE.
 *
 * Softirq (completions) only updates cursors under conn->lock and wakes;
 * anything that sends from there is deferred to tx_work or close_work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/net.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/sched/signal.h>
#include <net/sock.h>
#include <asm/ioctls.h>

#include <smcx/cursor.h>
#include <smcx/urg.h>

#include "obj.h"
#include "sock.h"
#include "smcr.h"
#include "sysctl.h"

#define SMCX_CLOSE_WAIT		(30 * HZ)	/* peer's close after ours */
#define SMCX_FLUSH_WAIT		(10 * HZ)	/* in-flight data at close */

static void smcx_conn_wake(struct smcx_sock *smc, __poll_t events)
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

static void smcx_tx_work(struct work_struct *work);
static void smcx_close_work(struct work_struct *work);

/*
 * Run close_work after @delay (sooner if it is pending).  Every queueing
 * carries a sock reference that the run drops, and a run may come after
 * an earlier one (a CDC with the peer's close or abort arriving while the
 * first ran): smcx_conn_free() is idempotent, so that run only drops its
 * reference.  Any context.
 */
static void smcx_close_kick(struct smcx_sock *smc, unsigned long delay)
{
	sock_hold(&smc->sk);
	if (mod_delayed_work(system_wq, &smc->conn->close_work, delay))
		sock_put(&smc->sk);	/* was pending: that queueing's ref */
}

/*
 * A new connection's send buffer / RMB size: net.smc.wmem / rmem of its
 * namespace, as a buffer size the CLC can carry (a power of two from 16 KiB,
 * at most 512 KiB).
 */
static u32 smcx_buf_size(struct net *net, bool rmb)
{
	const struct smcx_sysctl *v = smcx_sysctl(net);
	u32 want = max_t(int, rmb ? READ_ONCE(v->rmem) : READ_ONCE(v->wmem),
			 SMCX_BUF_MIN);

	return min_t(u32, roundup_pow_of_two(want), SMCX_BUF_MAX);
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
		smc->conn = conn;
	}
	conn->lgr = lgr;		/* takes the caller's reference */
	rc = smcx_lgr_conn_add(lgr, smc);
	if (rc) {
		conn->lgr = NULL;	/* ... or leaves it */
		return rc;
	}
	conn->sndbuf = smcx_buf_get(lgr, smcx_buf_size(sock_net(&smc->sk), false),
				    false);
	conn->rmb = smcx_buf_get(lgr, smcx_buf_size(sock_net(&smc->sk), true),
				 true);
	if (!conn->sndbuf || !conn->rmb)
		return -ENOMEM;
	/* as mainline: max(RMB/10, SOCK_MIN_SNDBUF/2) */
	conn->rmbe_update_limit = max_t(u32, conn->rmb->size / 10,
					SOCK_MIN_SNDBUF / 2);
	return 0;
}

/* give back the link group's resources; process context, idempotent */
void smcx_conn_free(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lgr *lgr;

	if (!conn || !conn->lgr)
		return;
	lgr = conn->lgr;
	smcx_lgr_conn_del(smc);
	cancel_work_sync(&conn->tx_work);
	mutex_lock(&conn->tx_mutex);
	if (conn->sndbuf)
		smcx_buf_put(lgr, conn->sndbuf);
	if (conn->rmb)
		smcx_buf_put(lgr, conn->rmb);
	conn->sndbuf = NULL;
	conn->rmb = NULL;
	conn->lgr = NULL;
	mutex_unlock(&conn->tx_mutex);
	smcx_lgr_put(lgr);
}

/* sk_destruct: the memory only */
void smcx_conn_destruct(struct smcx_sock *smc)
{
	if (smc->conn) {
		kfree(smc->conn);
		smc->conn = NULL;
		smcx_obj_dec(SMCX_OBJ_CONN);
	}
}

/*
 * debugfs "socks": the connection's cursors and flags under its lock, for
 * telling a stalled transfer's side (who waits for which cursor) from the
 * outside.
 */
void smcx_conn_show(struct seq_file *m, struct smcx_conn *conn)
{
	spin_lock_bh(&conn->lock);
	seq_printf(m, "  conn token %08x peer %08x tx prep %llu sent %llu fin %llu peer_cons %llu"
		   " rx prod %llu cons %llu cons_sent %llu seq %u flags %s%s%s%s%s%s%s%s%s%s\n",
		   conn->token, conn->peer_token, conn->tx_prep, conn->tx_sent,
		   conn->tx_fin, conn->peer_cons, conn->rx_prod, conn->rx_cons,
		   conn->rx_cons_sent, conn->tx_seq,
		   conn->peer_write_blocked ? "Pwb " : "",
		   conn->peer_done_writing ? "Pdw " : "",
		   conn->peer_closed ? "Pcl " : "",
		   conn->peer_abort ? "Pab " : "",
		   conn->local_done_writing ? "Ldw " : "",
		   conn->local_closed ? "Lcl " : "",
		   conn->closed_sent ? "Lcs " : "",
		   conn->aborted ? "dead " : "",
		   conn->released ? "rel " : "",
		   conn->lgr ? "" : "nolgr");
	spin_unlock_bh(&conn->lock);
}

/* ------------------------------------------------------------------ CDC */

/* cursor arithmetic (wire pair <-> byte count): include/smcx/cursor.h */

/* wr.c's receive handler of SMCX_WR_KIND_CDC (registered by smcx_conn_init) */
static void smcx_cdc_rx(struct smcx_link *lnk, const u8 *buf, u32 len)
{
	struct smcx_cdc_msg m;
	struct smcx_sock *smc;
	struct smcx_conn *conn;
	__poll_t ev = 0;
	bool push = false, finish = false;
	u64 v;

	if (smcx_cdc_decode(buf, len, &m, SMCX_WIRE_LAX_RSVD))
		return;
	smc = smcx_lgr_conn_get(lnk->lgr, m.token);
	if (!smc)
		return;
	conn = smc->conn;
	spin_lock_bh(&conn->lock);
	if (conn->rmb) {
		v = smcx_curs_to_count(conn->rx_prod, conn->rmb->size, &m.prod);
		if (smcx_curs_prod_ok(v, conn->rx_prod, conn->rx_cons,
				      conn->rmb->size)) {
			conn->rx_prod = v;
			ev |= EPOLLIN | EPOLLRDNORM;
			ev |= smcx_urg_rx(conn, m.prod_flags, v);
		}
	}
	/*
	 * On a reused link group the peer may write and send CDCs as soon
	 * as its CLC Confirm is out, before we have read that Confirm and
	 * know its RMB: its consumer cursor is then 0 (we sent nothing yet)
	 * and is skipped.
	 */
	v = 0;
	if (READ_ONCE(conn->peer_rmbe_size))
		v = smcx_curs_to_count(conn->peer_cons, conn->peer_rmbe_size,
				       &m.cons);
	if (smcx_curs_cons_ok(v, conn->peer_cons, conn->tx_sent)) {
		conn->peer_cons = v;
		if (conn->tx_prep > conn->tx_sent)
			push = true;
		ev |= EPOLLOUT;
	}
	conn->peer_write_blocked = !!(m.prod_flags &
				      (SMCX_CDC_PF_WRITE_BLOCKED |
				       SMCX_CDC_PF_CONS_UPD_REQ));
	if (m.conn_flags & SMCX_CDC_CF_DONE_WRITING)
		conn->peer_done_writing = true;
	if (m.conn_flags & SMCX_CDC_CF_CONN_CLOSED) {
		conn->peer_closed = true;
		conn->peer_done_writing = true;
	}
	if ((m.conn_flags & SMCX_CDC_CF_CONN_ABORT) && !conn->peer_abort) {
		conn->peer_abort = true;
		/* TCP's reset: the error is reported once (sock_error) */
		if (!READ_ONCE(smc->sk.sk_err))
			WRITE_ONCE(smc->sk.sk_err, ECONNRESET);
		/*
		 * Answer an abort with ours, as mainline does (it sets the
		 * abort flag in its next CDC): a mainline side that aborted
		 * waits for it in PEERABORTWAIT, its connection and module
		 * reference held until then.
		 */
		if (!conn->local_abort) {
			conn->local_abort = true;
			conn->abort_owed = true;
			push = true;
		}
	}
	if (m.conn_flags)
		ev |= EPOLLIN | EPOLLRDHUP | EPOLLOUT;
	finish = conn->released && (conn->peer_closed || conn->peer_abort);
	spin_unlock_bh(&conn->lock);
	if (push || (conn->peer_write_blocked && (ev & EPOLLIN) == 0)) {
		sock_hold(&smc->sk);
		if (!schedule_work(&conn->tx_work))
			sock_put(&smc->sk);
	}
	if (finish)
		smcx_close_kick(smc, 0);
	if (ev & EPOLLPRI)
		sk_send_sigurg(&smc->sk);
	if (ev)
		smcx_conn_wake(smc, ev);
	sock_put(&smc->sk);
}

/* a CDC's send slot completed (its done callback, set by smcx_tx_push) */
static void smcx_cdc_tx_done(struct smcx_tx_slot *slot, bool ok)
{
	struct smcx_sock *smc = slot->owner;
	struct smcx_conn *conn;

	if (!smc)
		return;
	conn = smc->conn;
	spin_lock_bh(&conn->lock);
	if (slot->tx_upto > conn->tx_fin)
		conn->tx_fin = slot->tx_upto;
	if (!ok)
		conn->aborted = true;
	spin_unlock_bh(&conn->lock);
	smcx_conn_wake(smc, EPOLLOUT | EPOLLWRNORM);
	slot->owner = NULL;
	sock_put(&smc->sk);
}

/*
 * Push what the send buffer holds and the peer's RMB can take: RDMA WRITEs
 * (split where either ring wraps) and one CDC carrying the new producer
 * cursor, our consumer cursor and the flags.  @force sends a CDC even
 * without data (cursor update, close flags).  conn->tx_mutex held.
 */
static int smcx_tx_push(struct smcx_sock *smc, bool force)
{
	struct smcx_conn *conn = smc->conn;
	struct smcx_lgr *lgr = conn->lgr;
	struct smcx_link *lnk;
	struct ib_rdma_wr wr[3];
	struct ib_sge sge[3];
	struct smcx_tx_slot *slot;
	struct smcx_cdc_msg m;
	u64 pending, space, n, pos, left;
	u32 ssz, psz, s, d, l;
	u8 urg_flags;
	int nwr, len;

	if (!lgr || !conn->sndbuf)
		return -ECONNRESET;
	lnk = &lgr->lnk;
	ssz = conn->sndbuf->size;
	psz = READ_ONCE(conn->peer_rmbe_size);
	if (!psz)
		return 0;	/* peer's RMB not known yet (CLC Confirm unread) */
	do {
		if (READ_ONCE(conn->aborted))
			return -ECONNRESET;
		if (conn->local_closed && conn->tx_sent == conn->tx_prep &&
		    conn->closed_sent)
			return 0;
		spin_lock_bh(&conn->lock);
		pending = conn->tx_prep - conn->tx_sent;
		space = smcx_curs_space(psz, conn->tx_sent, conn->peer_cons);
		n = conn->peer_abort ? 0 : min(pending, space);
		urg_flags = 0;
		n = smcx_urg_tx_cap(conn, n, &urg_flags);
		spin_unlock_bh(&conn->lock);
		smcx_stats_tx_push(sock_net(&smc->sk), pending, space);
		if (!n && !force)
			return 0;
		slot = smcx_wr_slot_get(lnk, true);
		if (!slot) {
			WRITE_ONCE(conn->aborted, true);
			return -ECONNRESET;
		}
		nwr = 0;
		pos = conn->tx_sent;
		left = n;
		while (left) {
			/* split where either ring wraps */
			s = smcx_ring_off(pos, ssz);
			d = smcx_ring_off(pos, psz);
			l = smcx_ring_chunk(pos, psz,
					    smcx_ring_chunk(pos, ssz, left));
			sge[nwr].addr = conn->sndbuf->dma + s;
			sge[nwr].length = l;
			sge[nwr].lkey = lnk->pd->local_dma_lkey;
			memset(&wr[nwr], 0, sizeof(wr[nwr]));
			wr[nwr].wr.opcode = IB_WR_RDMA_WRITE;
			wr[nwr].wr.wr_cqe = &lnk->write_cqe;
			wr[nwr].wr.sg_list = &sge[nwr];
			wr[nwr].wr.num_sge = 1;
			wr[nwr].remote_addr = conn->peer_rmb_addr + d;
			wr[nwr].rkey = conn->peer_rkey;
			if (nwr)
				wr[nwr - 1].wr.next = &wr[nwr].wr;
			nwr++;
			pos += l;
			left -= l;
		}
		if (n)
			ib_dma_sync_single_for_device(lnk->ibdev,
						      conn->sndbuf->dma, ssz,
						      DMA_TO_DEVICE);
		memset(&m, 0, sizeof(m));
		spin_lock_bh(&conn->lock);
		conn->tx_sent += n;
		m.seqno = ++conn->tx_seq;
		m.token = conn->peer_token;
		m.prod_flags |= urg_flags;
		smcx_curs_from_count(conn->tx_sent, psz, &m.prod);
		smcx_curs_from_count(conn->rx_cons, conn->rmb->size, &m.cons);
		conn->rx_cons_sent = conn->rx_cons;
		if (conn->tx_prep > conn->tx_sent)
			m.prod_flags |= SMCX_CDC_PF_WRITE_BLOCKED;
		if (conn->tx_prep == conn->tx_sent) {
			if (conn->local_done_writing)
				m.conn_flags |= SMCX_CDC_CF_DONE_WRITING;
			if (conn->local_closed) {
				m.conn_flags |= SMCX_CDC_CF_CONN_CLOSED;
				conn->closed_sent = true;
			}
		}
		if (conn->local_abort) {
			m.conn_flags |= SMCX_CDC_CF_CONN_ABORT;
			conn->abort_owed = false;
		}
		spin_unlock_bh(&conn->lock);
		sock_hold(&smc->sk);
		slot->done = smcx_cdc_tx_done;
		slot->owner = smc;
		slot->tx_upto = conn->tx_sent;
		len = smcx_cdc_encode(&m, slot->buf, SMCX_WR_SLOT_LEN);
		if (len < 0 || smcx_wr_send(slot, len, nwr ? &wr[0].wr : NULL)) {
			slot->done = NULL;
			slot->owner = NULL;
			sock_put(&smc->sk);
			smcx_wr_slot_put(slot);
			WRITE_ONCE(conn->aborted, true);
			return -ECONNRESET;
		}
		force = false;
	} while (n && conn->tx_prep > conn->tx_sent);
	return 0;
}

static void smcx_tx_work(struct work_struct *work)
{
	struct smcx_conn *conn = container_of(work, struct smcx_conn, tx_work);
	struct smcx_sock *smc = conn->owner;

	/* the sock is alive: the scheduler holds a reference */
	mutex_lock(&conn->tx_mutex);
	if (conn->lgr)
		smcx_tx_push(smc, READ_ONCE(conn->abort_owed) ||
			     (conn->peer_write_blocked &&
			      conn->rx_cons > conn->rx_cons_sent));
	mutex_unlock(&conn->tx_mutex);
	sock_put(&smc->sk);
}

/* link down or peer gone: wake everyone with ECONNRESET */
void smcx_conn_abort(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	spin_lock_bh(&conn->lock);
	conn->aborted = true;
	if (!smc->sk.sk_err)
		WRITE_ONCE(smc->sk.sk_err, ECONNRESET);
	spin_unlock_bh(&conn->lock);
	smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP);
	if (conn->released)
		smcx_close_kick(smc, 0);
}

/* --------------------------------------------------------------- socket */

static u64 smcx_rx_avail(struct smcx_conn *conn)
{
	u64 v;

	spin_lock_bh(&conn->lock);
	v = conn->rx_prod - conn->rx_cons;
	spin_unlock_bh(&conn->lock);
	return v;
}

static u64 smcx_tx_space(struct smcx_conn *conn)
{
	u64 v;

	spin_lock_bh(&conn->lock);
	v = conn->sndbuf ? smcx_curs_space(conn->sndbuf->size, conn->tx_prep,
					   conn->tx_fin) : 0;
	spin_unlock_bh(&conn->lock);
	return v;
}

static bool smcx_conn_dead(struct smcx_conn *conn)
{
	return READ_ONCE(conn->aborted) || READ_ONCE(conn->peer_abort);
}

/* sock lock held; returns with it held */
static int smcx_wait(struct smcx_sock *smc, long *timeo, bool (*cond)(struct smcx_sock *))
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

static bool smcx_can_send(struct smcx_sock *smc)
{
	return smcx_tx_space(smc->conn) > 0 || smcx_conn_dead(smc->conn) ||
	       READ_ONCE(smc->conn->peer_closed);
}

int smcx_conn_sendmsg(struct smcx_sock *smc, struct msghdr *msg, size_t len)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	size_t copied = 0;
	long timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	int rc = 0;

	smcx_stats_tx_call(sock_net(sk), len,
			   conn->sndbuf ? conn->sndbuf->size : 0,
			   READ_ONCE(conn->peer_rmbe_size));
	while (copied < len) {
		u64 space, n, pos;
		u32 ssz, off, l;

		if (smcx_conn_dead(conn) || READ_ONCE(conn->reset)) {
			/* as TCP after a reset: the error once, then EPIPE */
			rc = sock_error(sk) ?: -EPIPE;
			break;
		}
		if (conn->local_done_writing || (sk->sk_shutdown & SEND_SHUTDOWN)) {
			rc = -EPIPE;
			break;
		}
		if (conn->peer_closed) {
			/*
			 * TCP takes these bytes into a connection the peer
			 * has closed, and the peer's RST answers them:
			 * sk_err EPIPE (a reset in CLOSE_WAIT), both sides
			 * shut.  The peer's RMB may serve another connection
			 * by now, so nothing is written; the bytes are lost
			 * as TCP's are.
			 */
			WRITE_ONCE(conn->reset, true);
			WRITE_ONCE(sk->sk_err, EPIPE);
			smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLERR |
					    EPOLLHUP | EPOLLRDHUP);
			smcx_stats_tx(sock_net(sk), len, copied);
			return len;
		}
		space = smcx_tx_space(conn);
		if (!space) {
			smcx_stats_tx_full(sock_net(sk));
			if (!timeo) {
				rc = -EAGAIN;
				break;
			}
			rc = smcx_wait(smc, &timeo, smcx_can_send);
			if (rc)
				break;
			continue;
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
		}
		spin_unlock_bh(&conn->lock);
		mutex_lock(&conn->tx_mutex);
		smcx_tx_push(smc, false);
		mutex_unlock(&conn->tx_mutex);
		if (rc)
			break;
	}
	if (copied) {
		smcx_stats_tx(sock_net(sk), len, copied);
		return copied;
	}
	if (rc == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return rc;
}

static bool smcx_can_recv(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	return smcx_rx_avail(conn) || conn->peer_done_writing ||
	       smcx_conn_dead(conn) ||
	       (smc->sk.sk_shutdown & RCV_SHUTDOWN);
}

int smcx_conn_recvmsg(struct smcx_sock *smc, struct msghdr *msg, size_t len,
		      int flags)
{
	struct smcx_conn *conn = smc->conn;
	struct sock *sk = &smc->sk;
	long timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	int target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	size_t copied = 0;
	bool update, skip;
	int rc = 0;

	if (flags & MSG_OOB)
		return smcx_urg_recv(smc, msg, len, flags);
	smcx_stats_rx_call(sock_net(sk), len, conn->rmb ? conn->rmb->size : 0,
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
			if (smcx_conn_dead(conn)) {
				/* as TCP after a reset: the error once, then EOF */
				rc = copied ? 0 : sock_error(sk);
				break;
			}
			if (conn->peer_done_writing ||
			    (sk->sk_shutdown & RCV_SHUTDOWN))
				break;
			if (!timeo) {
				rc = -EAGAIN;
				break;
			}
			/* measured: TCP's blocking recv of 0 bytes returns 0 */
			if (!len)
				break;
			rc = smcx_wait(smc, &timeo, smcx_can_recv);
			if (rc)
				break;
			continue;
		}
		if (!conn->rmb)
			break;
		rsz = conn->rmb->size;
		n = min_t(u64, avail, len - copied);
		pos = conn->rx_cons;
		/* urgent data: stop at the mark, skip the byte unless inline */
		spin_lock_bh(&conn->lock);
		n = smcx_urg_rx_limit(conn->urg_state, conn->urg_pos, pos, n,
				      copied, sock_flag(sk, SOCK_URGINLINE),
				      &skip);
		spin_unlock_bh(&conn->lock);
		if (!n)
			break;
		if (skip) {
			if (avail == 1) {
				if (flags & MSG_PEEK) {
					rc = -EAGAIN;
					break;
				}
				spin_lock_bh(&conn->lock);
				conn->rx_cons = pos + 1;
				conn->urg_state = SMCX_URG_NONE;
				spin_unlock_bh(&conn->lock);
				continue;
			}
			pos++;
			n = min_t(u64, avail - 1, len - copied);
		}
		ib_dma_sync_single_for_cpu(conn->lgr->lnk.ibdev, conn->rmb->dma,
					   rsz, DMA_BIDIRECTIONAL);
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
		conn->rx_cons = pos;
		if (smcx_urg_passed(conn->urg_state, conn->urg_pos, pos))
			conn->urg_state = SMCX_URG_NONE;
		update = smcx_curs_update_due(conn->rx_cons, conn->rx_cons_sent,
					      conn->rmbe_update_limit) ||
			 conn->peer_write_blocked;
		spin_unlock_bh(&conn->lock);
		if (update && !smcx_conn_dead(conn)) {
			mutex_lock(&conn->tx_mutex);
			smcx_tx_push(smc, true);
			mutex_unlock(&conn->tx_mutex);
		}
		if (rc)
			break;
	}
	if (copied && !(flags & MSG_PEEK))
		smcx_stats_rx(sock_net(sk), len, copied);
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
	u8 shut = READ_ONCE(smc->sk.sk_shutdown);

	if (READ_ONCE(conn->peer_done_writing))
		shut |= RCV_SHUTDOWN;
	if (smcx_conn_dead(conn) || READ_ONCE(conn->reset))
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
	else if (smcx_tx_space(conn))
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
		spin_lock_bh(&conn->lock);
		v = conn->tx_prep - conn->tx_fin;
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
		mutex_lock(&conn->tx_mutex);
		smcx_tx_push(smc, true);
		mutex_unlock(&conn->tx_mutex);
	}
	smcx_conn_wake(smc, EPOLLIN | EPOLLOUT | EPOLLHUP);
	return 0;
}

static bool smcx_flushed(struct smcx_sock *smc)
{
	struct smcx_conn *conn = smc->conn;

	return smcx_conn_dead(conn) ||
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
		 * same reason).  A server otherwise kept its port in
		 * TIME_WAIT and could not listen again without SO_REUSEADDR
		 * (sockperf, seen in the lab).
		 */
		if (!conn->peer_closed && smc->clcsock)
			kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
		conn->local_done_writing = true;
		conn->local_closed = true;
		mutex_lock(&conn->tx_mutex);
		smcx_tx_push(smc, true);
		mutex_unlock(&conn->tx_mutex);
		while (!smcx_flushed(smc) && timeo) {
			if (smcx_wait(smc, &timeo, smcx_flushed))
				break;
			mutex_lock(&conn->tx_mutex);
			smcx_tx_push(smc, !conn->closed_sent);
			mutex_unlock(&conn->tx_mutex);
		}
	}
	spin_lock_bh(&conn->lock);
	conn->released = true;
	spin_unlock_bh(&conn->lock);
	release_sock(sk);
	if (smcx_conn_dead(conn) || conn->peer_closed || !conn->lgr ||
	    conn->local_abort)
		smcx_close_kick(smc, 0);
	else
		smcx_close_kick(smc, SMCX_CLOSE_WAIT);
}

static void smcx_close_work(struct work_struct *work)
{
	struct smcx_conn *conn = container_of(to_delayed_work(work),
					      struct smcx_conn, close_work);
	struct smcx_sock *smc = conn->owner;

	if (conn->lgr && !conn->peer_closed && !smcx_conn_dead(conn)) {
		/* the peer never closed: abort it */
		conn->local_abort = true;
		mutex_lock(&conn->tx_mutex);
		smcx_tx_push(smc, true);
		mutex_unlock(&conn->tx_mutex);
	}
	smcx_conn_free(smc);
	sock_put(&smc->sk);
}

/* module init, before any link exists: CDC messages come to smcx_cdc_rx() */
int smcx_conn_init(void)
{
	return smcx_wr_rx_register(SMCX_WR_KIND_CDC, smcx_cdc_rx);
}
