// SPDX-License-Identifier: GPL-2.0
/*
 * Client side: connect() and the client handshake.
 *
 * connect() starts a non-blocking TCP connect on the CLC socket with the SMC
 * experimental option in the SYN (tcp_sk()->syn_smc).  TCP's state change
 * (SYN-ACK, RST, timeout) queues the handshake work; no thread waits for the
 * TCP handshake.  The work then decides:
 *   - TCP connect failed:            graft; connect() reports TCP's error
 *   - peer's SYN-ACK without SMC:    graft, reason PEERNOSMC, no CLC byte
 *   - otherwise the CLC handshake:   Proposal, then Accept or Decline
 *                                    (clc.c); a decline means graft with
 *                                    the reason, a failure (timeout,
 *                                    garbage, reset) aborts the TCP
 *                                    connection with that error, then graft
 * and wakes the socket's wait queue.  A blocking connect() sleeps on that
 * queue (SO_SNDTIMEO bounds it, like TCP); a non-blocking one returns
 * EINPROGRESS and poll/epoll see POLLOUT (or POLLERR) once TCP is grafted.
 *
 * Why a CLC failure on the client kills the connection instead of falling
 * back: once our Proposal is sent, the server owes exactly one answer, and
 * the protocol cannot take the Proposal back.  After a timeout that answer
 * may still come; if it is a Decline the server has already fallen back, so
 * a Decline of ours would land in its application's data, and falling back
 * without one would hand the late answer to ours.  Garbage instead of an
 * answer means the server is not speaking CLC, so our Proposal is already
 * in its application's data.  Either way no ordering of bytes makes the
 * stream the applications' again; the connect fails (ETIMEDOUT, EPROTO) and
 * the peer gets a reset.  Mainline makes the same choice.
 *
 * shutdown() during the handshake aborts the connect as TCP aborts one in
 * SYN_SENT (smcx_connect_shutdown()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <net/tcp.h>

#include <smcx/wire.h>

#include "hsrec.h"
#include "join.h"
#include "lgr.h"
#include "peers.h"
#include "policy.h"
#include "sock.h"
#include "uapi.h"

/* TCP state change of a connecting CLC socket; softirq or process context */
static void smcx_connect_state_change(struct sock *tcpsk)
{
	struct smcx_sock *smc;

	read_lock_bh(&tcpsk->sk_callback_lock);
	smc = __smcx_tcp_owner(tcpsk);
	if (smc) {
		smc->tcp_state_change(tcpsk);
		/*
		 * A SYN-ACK that announces SMC: our Proposal follows at once,
		 * so TCP may hold the handshake's last ACK back for it (it
		 * does for a socket in pingpong mode, and leaves that mode
		 * again): one packet less per connection.  Process context
		 * or softirq, TCP owns the sock here.
		 */
		if (tcpsk->sk_state == TCP_ESTABLISHED && tcp_sk(tcpsk)->syn_smc)
			inet_csk_enter_pingpong_mode(tcpsk);
		if (!((1 << tcpsk->sk_state) & (TCPF_SYN_SENT | TCPF_SYN_RECV)))
			queue_work(smcx_hs_wq, &smc->hs_work);
	}
	read_unlock_bh(&tcpsk->sk_callback_lock);
}

static void smcx_connect_watch(struct smcx_sock *smc)
{
	struct sock *tcpsk = smc->clcsock->sk;

	write_lock_bh(&tcpsk->sk_callback_lock);
	tcpsk->sk_state_change = smcx_connect_state_change;
	write_unlock_bh(&tcpsk->sk_callback_lock);
}

/*
 * Make the TCP connection fail with @err as TCP itself would have failed it
 * (RST to the peer if needed), so connect() and SO_ERROR report @err.
 */
static void smcx_tcp_fail(struct sock *tcpsk, int err)
{
	lock_sock(tcpsk);
	if (tcpsk->sk_state == TCP_CLOSE) {
		/* already dead; its error may have been consumed by our read */
		if (!tcpsk->sk_err)
			WRITE_ONCE(tcpsk->sk_err, err);
		release_sock(tcpsk);
		return;
	}
	release_sock(tcpsk);
	tcp_abort(tcpsk, err);
}

/* the error TCP's connect failed with */
static int smcx_tcp_error(struct sock *tcpsk)
{
	int err = READ_ONCE(tcpsk->sk_err);

	return err ? -err : -ECONNREFUSED;
}

/*
 * Silence is the peer's only when it took our Proposal: every byte we
 * sent is acknowledged.  Unacknowledged bytes mean the path is down or
 * lossy (an outage, a device going), which says nothing about the peer.
 */
static bool smcx_connect_acked(struct sock *tcpsk)
{
	const struct tcp_sock *tp = tcp_sk(tcpsk);

	return READ_ONCE(tp->snd_una) == READ_ONCE(tp->write_seq);
}

/*
 * The peer cache (peers.h) learns how a handshake with this peer went,
 * once the peer announced SMC: a success forgets it; a Decline of its
 * counts; a stream that broke before any Accept or Decline came (not
 * CLC, our Proposal echoed, a reset, no answer) caches it at once.  A
 * failure after the peer answered in CLC (a link that did not come up,
 * a malformed Accept) is an SMC peer's, not one that only echoes the
 * option, and our own abort (release, shutdown) says nothing about it.
 */
static void smcx_connect_note_peer(struct smcx_sock *smc, int rc, u32 reason)
{
	struct sock *tcpsk = smc->clcsock->sk;
	struct net *net = sock_net(&smc->sk);
	u8 why = 0;

	if (READ_ONCE(smc->aborting) || (rc < 0 && smc->clc_answered))
		return;
	if (rc == -EPROTO)
		why = SMCX_PEER_NOT_CLC;
	else if (rc == -ECONNRESET || rc == -EPIPE)
		why = SMCX_PEER_RESET;
	else if (rc == -ETIMEDOUT && smcx_connect_acked(tcpsk))
		why = SMCX_PEER_SILENT;
	else if (rc < 0)
		return;
	if (why || !reason)
		smcx_peer_note(net, tcpsk, why, 0);
	else if (reason == SMCX_DECL_PEERDECL)
		smcx_peer_note(net, tcpsk, 0,
			       smc->peer_diag ? : SMCX_DECL_PEERDECL);
}

void smcx_connect_work(struct work_struct *work)
{
	struct smcx_sock *smc = container_of(work, struct smcx_sock, hs_work);
	struct sock *sk = &smc->sk;
	struct net *net = sock_net(sk);
	bool connected;
	struct sock *tcpsk;
	u32 reason = 0;
	int state, rc = 0;

	lock_sock(sk);
	if (smc->hs != SMCX_HS_CONNECTING || smc->aborting) {
		release_sock(sk);
		return;
	}
	tcpsk = smc->clcsock->sk;
	state = inet_sk_state_load(tcpsk);
	if ((1 << state) & (TCPF_SYN_SENT | TCPF_SYN_RECV)) {
		release_sock(sk);	/* early: TCP calls again */
		return;
	}
	smc->hs = SMCX_HS_RUNNING;
	release_sock(sk);
	smcx_tcp_restore_cbs(smc);

	connected = (1 << state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT);
	if (!connected) {
		/* TCP's own failure (refused, timed out, unreachable) */
	} else if (!tcp_sk(tcpsk)->syn_smc) {
		reason = SMCX_DECL_PEERNOSMC;
	} else {
		smcx_stats_hs_started(net, SMCX_CLNT);
		rc = smcx_join_client(smc);
		if (rc > 0) {
			reason = rc;
			rc = 0;
		}
		smcx_connect_note_peer(smc, rc, reason);
	}

	/*
	 * An SMC-R setup that finished after shutdown() (or a reset) killed
	 * the CLC connection under it: without its TCP connection the
	 * socket cannot close or fall back properly, so it is a failure.
	 * (A fallback on a dead TCP connection is just that dead TCP
	 * connection, as TCP would show it.)
	 */
	if (!rc && smc->smcr && inet_sk_state_load(tcpsk) == TCP_CLOSE)
		rc = -ECONNRESET;

	lock_sock(sk);
	if (smc->smcr && (smc->aborting || rc < 0)) {
		/*
		 * The server has its connection (it read our Confirm): abort
		 * it towards the peer instead of freeing it under it; the
		 * close work frees it (smcx_conn_drop()).
		 */
		smc->smcr = false;
		release_sock(sk);
		smcx_conn_drop(smc);
		lock_sock(sk);
	}
	if (smc->aborting) {
		/* release() owns the socket; it saw us busy and cleans up */
		smcx_hs_record_end(smc, -ECONNABORTED, 0);
		smc->hs = SMCX_HS_DONE;
		release_sock(sk);
		return;
	}
	smcx_hs_record_end(smc, connected ? rc : smcx_tcp_error(tcpsk), reason);
	if (rc < 0) {
		smcx_stats_hs_error(net, SMCX_CLNT);
		smcx_tcp_fail(tcpsk, -rc);
		connected = false;
	} else if (connected && smc->smcr) {
		smcx_stats_success_in(smc->stats, SMCX_CLNT, 2);
		smcx_conn_up(smc);
		smcx_tcp_watch(smc);	/* a server that lost it */
	} else if (connected) {
		smcx_fallback_record(smc, SMCX_CLNT, reason);
	}
	sk->sk_state = connected ? SMCX_ACTIVE : SMCX_CLOSED;
	smc->hs = SMCX_HS_DONE;
	/*
	 * SMC-R: sock->state stays SS_CONNECTING as with TCP, whose
	 * non-blocking connect() is told "0" by the next connect() call
	 * (which sets SS_CONNECTED) and EISCONN after that.
	 */
	if (!smc->smcr)
		smcx_graft_tcp(smc, sk->sk_socket);
	/* wake connect(), poll and epoll: they find TCP now */
	sk->sk_state_change(sk);
	release_sock(sk);
}

/*
 * shutdown() while connect() is in progress; smcx sock lock held, the
 * handshake busy.  TCP aborts a connect in progress: in SYN_SENT
 * inet_shutdown() disconnects (no RST, SO_ERROR ECONNRESET, returns 0, the
 * socket is unconnected and may connect again); after a failed connect it
 * answers ENOTCONN.  From the application's view our connect is in
 * progress until the handshake work decided, so:
 *
 *   - TCP not established yet (SYN_SENT, or the connect already failed)
 *     and no CLC byte sent: nothing SMC has happened, so the TCP socket is
 *     grafted right here and the caller lets TCP's own shutdown answer -
 *     TCP's behaviour by construction.  The handshake work, if queued,
 *     finds ->hs DONE and does nothing.
 *   - TCP established or synchronising (the handshake work is queued or
 *     running, CLC bytes may be in flight, or a simultaneous open would
 *     bring an SMC peer that expects them): the stream cannot become the
 *     application's, so
 *     the connect is aborted as TCP aborts one in SYN_SENT, with
 *     tcp_disconnect() (RST to the peer, SO_ERROR ECONNRESET).  That wakes
 *     a CLC read of the work at once; we wait until the work has grafted
 *     the dead TCP socket, so that SO_ERROR, poll and a new connect() see
 *     TCP's disconnected socket the moment shutdown() returns.
 *
 * Returns SMCX_AGAIN (grafted: dispatch to TCP) or 0.
 */
int smcx_connect_shutdown(struct smcx_sock *smc, struct socket *sock)
{
	struct sock *sk = &smc->sk;
	struct sock *tcpsk = smc->clcsock->sk;
	long timeo = MAX_SCHEDULE_TIMEOUT;
	int state = inet_sk_state_load(tcpsk);

	if (smc->hs == SMCX_HS_CONNECTING &&
	    ((1 << state) & (TCPF_SYN_SENT | TCPF_CLOSE))) {
		smc->hs = SMCX_HS_DONE;
		sk->sk_state = SMCX_CLOSED;
		smcx_graft_tcp(smc, sock);
		sk->sk_state_change(sk);	/* a blocked connect() re-dispatches */
		return SMCX_AGAIN;
	}

	lock_sock(tcpsk);
	tcp_disconnect(tcpsk, O_NONBLOCK);
	release_sock(tcpsk);
	/*
	 * tcp_disconnect() reports an error, not a state change: a work
	 * that still waits for TCP (CONNECTING) is kicked; a running one
	 * sees its CLC read fail.
	 */
	if (smc->hs == SMCX_HS_CONNECTING)
		queue_work(smcx_hs_wq, &smc->hs_work);
	/* bounded: the CLC read returns now, an SMC-R setup within its waits */
	smcx_wait_hs(smc, &timeo);
	if (smc->grafted)
		sock->state = SS_UNCONNECTED;	/* as inet_shutdown() */
	return 0;
}

/*
 * Does this connect() go out as plain TCP, without the SMC option?  The
 * reason (SMCX_DECL_POLICY, _PEERCACHED), or 0: try SMC.  *@policy_id is
 * the scope rule that decided, 0: none.  A rule that says SMC leaves the
 * peer cache its say.
 */
static u32 smcx_connect_scope(struct smcx_sock *smc,
			      struct sockaddr_unsized *addr, int alen,
			      u32 *policy_id)
{
	struct net *net = sock_net(&smc->sk);

	if (smcx_policy_connect(&smc->sk, (struct sockaddr *)addr, alen,
				policy_id) == SMCX_POLICY_TCP)
		return SMCX_DECL_POLICY;
	if (smcx_peer_cached(net, (struct sockaddr *)addr, alen))
		return SMCX_DECL_PEERCACHED;
	return 0;
}

int smcx_connect(struct socket *sock, struct smcx_sock *smc,
		 struct sockaddr_unsized *addr, int alen, int flags)
{
	struct sock *sk = &smc->sk;
	struct socket *cs;
	u32 reason, policy_id;
	long timeo;
	int rc;

	lock_sock(sk);
	if (smc->grafted) {
		release_sock(sk);
		return SMCX_AGAIN;
	}
	cs = smc->clcsock;
	/*
	 * TCP failed already (a refusal over loopback comes inside the first
	 * connect()): decide here rather than in the queued handshake work,
	 * so that this call tells the error as TCP's second connect() does,
	 * instead of EALREADY.  The work then finds the handshake done.
	 */
	if (smc->hs == SMCX_HS_CONNECTING && !smc->aborting &&
	    inet_sk_state_load(cs->sk) == TCP_CLOSE) {
		smcx_hs_record_end(smc, smcx_tcp_error(cs->sk), 0);
		smcx_tcp_restore_cbs(smc);
		sk->sk_state = SMCX_CLOSED;
		smc->hs = SMCX_HS_DONE;
		smcx_graft_tcp(smc, sock);
		sk->sk_state_change(sk);
		release_sock(sk);
		return SMCX_AGAIN;
	}
	if (smcx_hs_busy(smc)) {
		rc = -EALREADY;
		if (flags & O_NONBLOCK)
			goto out;
		goto wait;
	}
	if (smc->hs == SMCX_HS_DONE) {
		rc = -EISCONN;
		if (sock->state == SS_CONNECTING &&
		    sk->sk_state == SMCX_ACTIVE) {
			sock->state = SS_CONNECTED;
			rc = 0;
		}
		goto out;
	}
	if (sk->sk_state != SMCX_INIT || alen < (int)sizeof(sa_family_t) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
		/* TCP decides: EISCONN when listening, AF_UNSPEC, EINVAL, ... */
		rc = cs->ops->connect(cs, addr, alen, flags);
		goto out;
	}

	/* the scope rules and the peer cache may send it out as plain TCP */
	reason = smcx_connect_scope(smc, addr, alen, &policy_id);
	if (reason) {
		smcx_fallback_now(smc, sock, reason);
		smcx_hs_record_scoped(smc, (struct sockaddr *)addr, alen,
				      reason, policy_id);
		release_sock(sk);
		return SMCX_AGAIN;
	}

	/* TCP may finish inside connect() (loopback): be ready for it */
	smcx_hs_record_start(smc, SMCX_CLNT, current->comm);
	if (smc->rec) {
		smc->rec->syn_sent = 1;
		smc->rec->policy_id = policy_id;
	}
	smc->hs = SMCX_HS_CONNECTING;
	smcx_clcsock_inherit(smc);
	smcx_connect_watch(smc);
	tcp_sk(cs->sk)->syn_smc = 1;
	rc = cs->ops->connect(cs, addr, alen, O_NONBLOCK);
	if (rc && rc != -EINPROGRESS) {
		/* refused before a SYN left: the socket stays as it was */
		smcx_hsrec_free(smc->rec);
		smc->rec = NULL;
		smcx_tcp_restore_cbs(smc);
		tcp_sk(cs->sk)->syn_smc = 0;
		smc->hs = SMCX_HS_NONE;
		goto out;
	}
	sock->state = SS_CONNECTING;
	if (!((1 << inet_sk_state_load(cs->sk)) &
	      (TCPF_SYN_SENT | TCPF_SYN_RECV)))
		queue_work(smcx_hs_wq, &smc->hs_work);
	if (flags & O_NONBLOCK) {
		rc = -EINPROGRESS;
		goto out;
	}
wait:
	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	rc = smcx_wait_hs(smc, &timeo);
	if (rc == -EAGAIN)
		rc = -EINPROGRESS;	/* SO_SNDTIMEO ran out, as TCP */
	if (rc)
		goto out;
	if (smc->grafted) {
		/*
		 * shutdown() aborted this connect while we slept and left
		 * the socket unconnected (as inet_shutdown() does): its
		 * error, as TCP's waiting connect() reports it - asking
		 * TCP's connect() now would start a new connection.
		 */
		if (sock->state == SS_UNCONNECTED) {
			rc = sock_error(cs->sk) ? : -ECONNABORTED;
			goto out;
		}
		/* TCP's verdict on the grafted socket: 0, or its error */
		release_sock(sk);
		return SMCX_AGAIN;
	}
	sock->state = SS_CONNECTED;
	rc = 0;
out:
	release_sock(sk);
	return rc;
}
