// SPDX-License-Identifier: GPL-2.0
/*
 * Server side: listen(), the accept worker, per-connection handshakes and
 * accept().
 *
 * Pipeline of one incoming connection:
 *   TCP accept queue of the CLC listener
 *     -> accept_work (smcx_listen_wq) takes it with kernel_accept(), makes
 *        an smcx sock for it and puts it on ->pending
 *     -> its hs_work (smcx_hs_wq, unbound) runs the server handshake; a
 *        silent or slow client blocks only its own work item, for at most
 *        SMCX_CLC_WAIT_TIME
 *     -> moved to ->acceptq (or dropped if the handshake failed), the
 *        listener's waiters are woken
 *     -> accept() takes it and grafts it onto the new socket.
 *
 * Bounds.  Every connection we hold (pending or queued for accept()) stays
 * counted in the TCP listener's sk_ack_backlog, as if it were still in
 * TCP's accept queue.  TCP's own overflow checks (SYN dropped, final ACK
 * ignored when the queue is full) therefore see everything not yet
 * accepted, and the listen backlog means exactly what it means for TCP.
 * With handshake limitation (net.smc.limit_smc_hs or SMC_LIMIT_HS when
 * listen() is called, as mainline), while handshakes are congested new
 * SYNs are answered without the SMC option (tcp_sk()->smc_hs_congested):
 * those clients become plain TCP at once instead of queueing behind slow
 * handshakes.  Without it they wait, as for a full TCP backlog.
 *
 * Lifetime.  A pending or queued connection is owned by the listener's lists
 * and holds a reference on the listener.  smcx_listen_stop() takes both
 * lists under ->accq_lock (and sets ->closing, so a handshake finishing at
 * that moment leaves its connection to it), aborts and waits for the
 * pending handshakes, and closes everything.  The accept work holds a
 * listener reference while queued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <net/tcp.h>

#include <smcx/wire.h>

#include "hsrec.h"
#include "join.h"
#include "lgr.h"
#include "obj.h"
#include "policy.h"
#include "sock.h"

static void smcx_srv_hs_work(struct work_struct *work);

static void smcx_accept_kick(struct smcx_sock *lsmc)
{
	sock_hold(&lsmc->sk);
	if (!queue_work(smcx_listen_wq, &lsmc->accept_work))
		sock_put(&lsmc->sk);
}

/* handshakes the listener lets run at once */
static unsigned int smcx_hs_limit(const struct smcx_sock *lsmc)
{
	return max_t(u32, READ_ONCE(lsmc->sk.sk_max_ack_backlog), 1);
}

/*
 * tcp_sk()->smc_hs_congested of a CLC listener with handshake limitation
 * (listen() sets it only then), asked by TCP for every SYN that carries
 * the SMC option (softirq): true means answer without it, so the client
 * goes on as TCP at once.  Congested, as mainline: handshakes wait for a
 * worker of the handshake workqueue; and the listener's own bound: as many
 * handshakes pending as its backlog.
 */
static bool smcx_hs_congested(const struct sock *tcpsk)
{
	struct sock *sk = (struct sock *)tcpsk;
	struct smcx_sock *lsmc;
	bool congested = true;

	if (workqueue_congested(WORK_CPU_UNBOUND, smcx_hs_wq))
		return true;
	read_lock_bh(&sk->sk_callback_lock);
	lsmc = __smcx_tcp_owner(sk);
	if (lsmc)
		congested = READ_ONCE(lsmc->npending) >= smcx_hs_limit(lsmc);
	read_unlock_bh(&sk->sk_callback_lock);
	return congested;
}

/* sk_data_ready of the CLC listener: TCP queued a connection (softirq) */
static void smcx_listen_data_ready(struct sock *tcpsk)
{
	struct smcx_sock *lsmc;

	read_lock_bh(&tcpsk->sk_callback_lock);
	lsmc = __smcx_tcp_owner(tcpsk);
	/* a child cloned before accept_work reset it has no owner: ignore */
	if (lsmc) {
		lsmc->tcp_data_ready(tcpsk);
		if (READ_ONCE(lsmc->sk.sk_state) == SMCX_LISTEN)
			smcx_accept_kick(lsmc);
	}
	read_unlock_bh(&tcpsk->sk_callback_lock);
}

int smcx_listen(struct smcx_sock *smc, int backlog)
{
	struct sock *sk = &smc->sk;
	struct socket *cs;
	struct sock *tcpsk;
	u32 policy_id;
	int rc;

	lock_sock(sk);
	if (smc->grafted) {
		release_sock(sk);
		return SMCX_AGAIN;
	}
	cs = smc->clcsock;
	tcpsk = cs->sk;
	if (sk->sk_state == SMCX_LISTEN) {
		/* listen() again only changes the backlog, as for TCP */
		rc = cs->ops->listen(cs, backlog);
		if (!rc)
			WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
		goto out;
	}
	rc = -EINVAL;
	if (sk->sk_state != SMCX_INIT || smc->hs != SMCX_HS_NONE ||
	    !sk->sk_socket || sk->sk_socket->state != SS_UNCONNECTED)
		goto out;
	/*
	 * A scope rule may say plain TCP: the socket becomes TCP's and the
	 * caller runs TCP's listen(); its SYN-ACKs carry no SMC option.
	 */
	if (smcx_policy_listen(sk, inet_sk(tcpsk)->inet_num, &policy_id) ==
	    SMCX_POLICY_TCP) {
		smcx_fallback_record(smc, SMCX_SRV, SMCX_DECL_POLICY);
		smc->hs = SMCX_HS_DONE;
		smcx_graft_tcp(smc, sk->sk_socket);
		release_sock(sk);
		return SMCX_AGAIN;
	}

	strscpy(smc->listen_comm, current->comm, sizeof(smc->listen_comm));
	smcx_clcsock_inherit(smc);
	write_lock_bh(&tcpsk->sk_callback_lock);
	tcpsk->sk_data_ready = smcx_listen_data_ready;
	tcp_sk(tcpsk)->smc_hs_congested = smc->limit_hs ? smcx_hs_congested :
							  NULL;
	write_unlock_bh(&tcpsk->sk_callback_lock);
	tcp_sk(tcpsk)->syn_smc = 1;	/* SYN-ACKs announce SMC */
	spin_lock(&smc->accq_lock);
	smc->closing = false;
	spin_unlock(&smc->accq_lock);
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	WRITE_ONCE(sk->sk_ack_backlog, 0);
	sk->sk_state = SMCX_LISTEN;	/* before TCP can queue anything */

	rc = cs->ops->listen(cs, backlog);
	if (rc) {
		sk->sk_state = SMCX_INIT;
		write_lock_bh(&tcpsk->sk_callback_lock);
		tcpsk->sk_data_ready = smc->tcp_data_ready;
		tcp_sk(tcpsk)->smc_hs_congested = NULL;
		write_unlock_bh(&tcpsk->sk_callback_lock);
		tcp_sk(tcpsk)->syn_smc = 0;
		goto out;
	}
	smcx_obj_inc(SMCX_OBJ_LISTENER);
out:
	release_sock(sk);
	return rc;
}

/*
 * Keep @delta connections we hold counted in the TCP listener's backlog
 * (see "Bounds" above).  TCP changes sk_ack_backlog under its accept
 * queue's lock; so do we.
 */
static void smcx_tcp_backlog_add(struct smcx_sock *lsmc, int delta)
{
	struct sock *tcpsk = lsmc->clcsock->sk;
	struct request_sock_queue *q = &inet_csk(tcpsk)->icsk_accept_queue;

	spin_lock_bh(&q->rskq_lock);
	WRITE_ONCE(tcpsk->sk_ack_backlog, tcpsk->sk_ack_backlog + delta);
	spin_unlock_bh(&q->rskq_lock);
}

/*
 * A server connection's buffer sizes, as mainline: what the application
 * set on the listener with SO_SNDBUF / SO_RCVBUF (mirrored onto the TCP
 * listener, which TCP cloned into @tcpsk with the lock flags, at SYN time),
 * else the 2 x net.smc.wmem / rmem the new sock started with.  TCP's own
 * unlocked sizes are TCP's autotuning and mean nothing to the RMB.
 */
static void smcx_child_bufsizes(struct smcx_sock *child, struct sock *tcpsk)
{
	u8 locks = smcx_sk_userlocks(tcpsk) &
		   (SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK);
	struct sock *sk = &child->sk;

	sk->sk_userlocks |= locks;
	if (locks & SOCK_SNDBUF_LOCK)
		WRITE_ONCE(sk->sk_sndbuf, READ_ONCE(tcpsk->sk_sndbuf));
	if (locks & SOCK_RCVBUF_LOCK)
		WRITE_ONCE(sk->sk_rcvbuf, READ_ONCE(tcpsk->sk_rcvbuf));
}

/* an smcx sock for a connection TCP accepted; NULL on allocation failure */
static struct smcx_sock *smcx_child_new(struct smcx_sock *lsmc,
					struct socket *newcs)
{
	struct sock *tcpsk = newcs->sk;
	struct smcx_sock *child;

	child = smcx_sock_alloc(sock_net(&lsmc->sk), NULL, lsmc->sk.sk_protocol);
	if (!child)
		return NULL;
	child->clcsock = newcs;
	smcx_buf_memcg_inherit(&child->sk, &lsmc->sk);	/* N6: buf.c */
	/* TCP cloned the listener's callbacks into the child: undo that */
	write_lock_bh(&tcpsk->sk_callback_lock);
	tcpsk->sk_data_ready = lsmc->tcp_data_ready;
	tcp_sk(tcpsk)->smc_hs_congested = NULL;
	write_unlock_bh(&tcpsk->sk_callback_lock);
	smcx_tcp_link(child);
	smcx_child_bufsizes(child, tcpsk);
	child->hs = SMCX_HS_RUNNING;
	INIT_WORK(&child->hs_work, smcx_srv_hs_work);
	sock_hold(&lsmc->sk);
	child->listener = lsmc;
	return child;
}

/*
 * Close a connection that was never accepted: the peer gets a reset, like
 * the connections a closing TCP listener still had queued.  Over SMC-R
 * that is our abort CDC (smcx_conn_drop()): the peer's reads and writes
 * end at once, and its late RDMA WRITEs cannot reach the RMB's next user.
 * The drop only starts it: the close work ends the connection later
 * (bounded), on a sock reference of its own, so the listener's close()
 * does not wait.  The CLC TCP connection is reset here too.
 */
static void smcx_child_close(struct smcx_sock *child)
{
	struct smcx_sock *lsmc = child->listener;
	struct sock *sk = &child->sk;
	struct sock *tcpsk = child->clcsock->sk;

	if (child->smcr) {
		child->smcr = false;
		smcx_conn_drop(child);
	}
	smcx_tcp_unlink(child);
	if (inet_sk_state_load(tcpsk) != TCP_CLOSE)
		tcp_abort(tcpsk, ECONNABORTED);
	smcx_clcsock_free(child);
	lock_sock(sk);
	sk->sk_state = SMCX_CLOSED;
	sock_set_flag(sk, SOCK_DEAD);
	release_sock(sk);
	sk->sk_prot->unhash(sk);
	child->listener = NULL;
	sock_put(&lsmc->sk);		/* the child's listener reference */
	sock_put(sk);			/* owner: the listener's list */
}

void smcx_accept_work(struct work_struct *work)
{
	struct smcx_sock *lsmc = container_of(work, struct smcx_sock,
					      accept_work);
	struct sock *lsk = &lsmc->sk;

	lock_sock(lsk);
	while (lsk->sk_state == SMCX_LISTEN) {
		struct smcx_sock *child;
		struct socket *newcs;

		if (kernel_accept(lsmc->clcsock, &newcs, O_NONBLOCK))
			break;		/* TCP's queue is empty */
		smcx_obj_inc(SMCX_OBJ_CLCSOCK);
		child = smcx_child_new(lsmc, newcs);
		if (!child) {
			tcp_abort(newcs->sk, ENOMEM);
			sock_release(newcs);
			smcx_obj_dec(SMCX_OBJ_CLCSOCK);
			continue;
		}
		smcx_tcp_backlog_add(lsmc, 1);	/* still TCP's to count */
		spin_lock(&lsmc->accq_lock);
		list_add_tail(&child->lnode, &lsmc->pending);
		lsmc->npending++;
		spin_unlock(&lsmc->accq_lock);
		smcx_obj_inc(SMCX_OBJ_PENDING_HS);
		queue_work(smcx_hs_wq, &child->hs_work);
	}
	release_sock(lsk);
	sock_put(lsk);			/* from smcx_accept_kick() */
}

/* the handshake of @child ended: queue it for accept() or drop it */
static void smcx_listen_hs_done(struct smcx_sock *lsmc,
				struct smcx_sock *child, int rc, u32 reason)
{
	struct sock *lsk = &lsmc->sk;
	struct sock *sk = &child->sk;
	bool mine = false;

	lock_sock(sk);
	smcx_hs_record_end(child, rc, reason);
	if (rc < 0) {
		smcx_stats_hs_error(sock_net(sk), SMCX_SRV);
		sk->sk_state = SMCX_CLOSED;
	} else if (child->smcr) {
		smcx_stats_success_in(child->stats, SMCX_SRV, 2);
		smcx_conn_up(child);
		sk->sk_state = SMCX_ACTIVE;
		smcx_tcp_watch(child);	/* a client that lost it */
	} else {
		smcx_fallback_record(child, SMCX_SRV, reason);
		sk->sk_state = SMCX_ACTIVE;
	}
	child->hs = SMCX_HS_DONE;
	release_sock(sk);

	spin_lock(&lsmc->accq_lock);
	if (!lsmc->closing) {
		mine = true;
		list_del_init(&child->lnode);
		lsmc->npending--;
		if (rc >= 0) {
			list_add_tail(&child->lnode, &lsmc->acceptq);
			sk_acceptq_added(lsk);
		} else {
			/* under accq_lock: the listener's TCP socket is alive */
			smcx_tcp_backlog_add(lsmc, -1);
		}
	}
	spin_unlock(&lsmc->accq_lock);
	if (!mine)
		return;		/* smcx_listen_stop() owns the connection */

	smcx_obj_dec(SMCX_OBJ_PENDING_HS);
	if (rc >= 0) {
		lsk->sk_data_ready(lsk);	/* wake accept(), poll, epoll */
		return;
	}
	smcx_child_close(child);	/* may free @child: last use */
}

static void smcx_srv_hs_work(struct work_struct *work)
{
	struct smcx_sock *child = container_of(work, struct smcx_sock, hs_work);
	struct smcx_sock *lsmc = child->listener;
	struct sock *tcpsk = child->clcsock->sk;
	u32 reason = 0;
	int rc = 0;

	smcx_hs_record_start(child, SMCX_SRV, lsmc->listen_comm);
	if (child->rec) {
		child->rec->uid = sk_uid(&lsmc->sk);
		child->rec->syn_sent = 1;	/* our SYN-ACK announced SMC */
	}
	if (READ_ONCE(child->aborting)) {
		rc = -ECONNABORTED;
	} else if (!tcp_sk(tcpsk)->syn_smc) {
		/* the client's SYN had no SMC option: no CLC, TCP at once */
		reason = SMCX_DECL_PEERNOSMC;
	} else {
		smcx_stats_hs_started(sock_net(&child->sk), SMCX_SRV);
		rc = smcx_join_server(child);
		if (rc > 0) {
			reason = rc;
			rc = 0;
		}
	}
	smcx_listen_hs_done(lsmc, child, rc, reason);
}

/*
 * Stop listening (close, or shutdown(SHUT_RD) as TCP allows): no more
 * connections are taken from TCP, pending handshakes are aborted, queued
 * connections are reset, accept() waiters are woken.  @new_state is
 * SMCX_CLOSED for close and SMCX_INIT after shutdown (listen() may follow).
 * Called without the listener's lock.
 */
void smcx_listen_stop(struct smcx_sock *lsmc, int new_state)
{
	struct smcx_sock *child, *tmp;
	struct sock *lsk = &lsmc->sk;
	struct sock *tcpsk;
	unsigned int held;
	LIST_HEAD(pending);
	LIST_HEAD(ready);

	lock_sock(lsk);
	if (lsk->sk_state != SMCX_LISTEN) {
		release_sock(lsk);
		return;
	}
	lsk->sk_state = new_state;
	smcx_obj_dec(SMCX_OBJ_LISTENER);
	tcpsk = lsmc->clcsock->sk;
	write_lock_bh(&tcpsk->sk_callback_lock);
	tcpsk->sk_data_ready = lsmc->tcp_data_ready;
	tcp_sk(tcpsk)->smc_hs_congested = NULL;
	write_unlock_bh(&tcpsk->sk_callback_lock);
	tcp_sk(tcpsk)->syn_smc = 0;

	spin_lock(&lsmc->accq_lock);
	lsmc->closing = true;
	list_splice_init(&lsmc->pending, &pending);
	list_splice_init(&lsmc->acceptq, &ready);
	held = lsmc->npending + lsk->sk_ack_backlog;
	lsmc->npending = 0;
	WRITE_ONCE(lsk->sk_ack_backlog, 0);
	spin_unlock(&lsmc->accq_lock);
	smcx_tcp_backlog_add(lsmc, -(int)held);
	release_sock(lsk);

	if (cancel_work_sync(&lsmc->accept_work))
		sock_put(lsk);		/* the queued work's reference */

	list_for_each_entry_safe(child, tmp, &pending, lnode) {
		list_del_init(&child->lnode);
		smcx_hs_cancel(child);	/* abort its TCP, wait for its work */
		smcx_obj_dec(SMCX_OBJ_PENDING_HS);
		smcx_child_close(child);
	}
	list_for_each_entry_safe(child, tmp, &ready, lnode) {
		list_del_init(&child->lnode);
		smcx_child_close(child);
	}
	lsk->sk_state_change(lsk);	/* accept() returns EINVAL */
}

__poll_t smcx_accept_poll(struct smcx_sock *lsmc)
{
	return READ_ONCE(lsmc->sk.sk_ack_backlog) ? EPOLLIN | EPOLLRDNORM : 0;
}

static struct smcx_sock *smcx_acceptq_pop(struct smcx_sock *lsmc)
{
	struct smcx_sock *child;

	spin_lock(&lsmc->accq_lock);
	child = list_first_entry_or_null(&lsmc->acceptq, struct smcx_sock,
					 lnode);
	if (child) {
		list_del_init(&child->lnode);
		sk_acceptq_removed(&lsmc->sk);
	}
	spin_unlock(&lsmc->accq_lock);
	if (child)
		smcx_tcp_backlog_add(lsmc, -1);	/* accepted: TCP counts no more */
	return child;
}

/*
 * Give an accepted connection its socket.  The smcx sock is attached to
 * @newsock (its wait queue, its inode); a fallen-back connection then
 * grafts its TCP sock, so @newsock is a TCP socket in all but its ops.
 */
static void smcx_child_graft(struct smcx_sock *child, struct socket *newsock)
{
	struct smcx_sock *lsmc = child->listener;
	struct sock *sk = &child->sk;

	lock_sock(sk);
	newsock->state = SS_CONNECTED;
	smcx_custom_sockopt(newsock);
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(sk->sk_wq, &newsock->wq);
	sk_set_socket(sk, newsock);
	WRITE_ONCE(sk->sk_uid, SOCK_INODE(newsock)->i_uid);
	write_unlock_bh(&sk->sk_callback_lock);
	if (child->fallback)
		smcx_graft_tcp(child, newsock);
	else
		WRITE_ONCE(newsock->sk, sk);
	child->listener = NULL;
	release_sock(sk);
	sock_put(&lsmc->sk);		/* the child's listener reference */
}

int smcx_accept(struct smcx_sock *lsmc, struct socket *newsock,
		struct proto_accept_arg *arg)
{
	struct sock *lsk = &lsmc->sk;
	struct smcx_sock *child = NULL;
	DEFINE_WAIT(wait);
	long timeo;
	int rc = 0;

	lock_sock(lsk);
	if (lsmc->grafted) {
		release_sock(lsk);
		return SMCX_AGAIN;
	}
	if (lsk->sk_state != SMCX_LISTEN) {
		rc = -EINVAL;
		goto out;
	}
	timeo = sock_rcvtimeo(lsk, arg->flags & O_NONBLOCK);
	for (;;) {
		child = smcx_acceptq_pop(lsmc);
		if (child)
			break;
		if (!timeo) {
			rc = -EAGAIN;
			break;
		}
		prepare_to_wait_exclusive(sk_sleep(lsk), &wait,
					  TASK_INTERRUPTIBLE);
		release_sock(lsk);
		if (!READ_ONCE(lsk->sk_ack_backlog))
			timeo = schedule_timeout(timeo);
		sched_annotate_sleep();
		lock_sock(lsk);
		finish_wait(sk_sleep(lsk), &wait);
		if (lsk->sk_state != SMCX_LISTEN) {
			rc = -EINVAL;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
	}
	if (child)
		arg->is_empty = !READ_ONCE(lsk->sk_ack_backlog);
out:
	release_sock(lsk);
	if (!child)
		return rc;
	smcx_child_graft(child, newsock);
	return 0;
}
