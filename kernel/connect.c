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
 * Why a CLC failure kills the connection instead of falling back: after a
 * timeout the peer may still answer, and its late CLC bytes would reach the
 * application as data.  Mainline makes the same choice (ETIMEDOUT).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <net/tcp.h>

#include <smcx/wire.h>

#include "clc.h"
#include "smcr.h"
#include "sock.h"

/* TCP state change of a connecting CLC socket; softirq or process context */
static void smcx_connect_state_change(struct sock *tcpsk)
{
	struct smcx_sock *smc;

	read_lock_bh(&tcpsk->sk_callback_lock);
	smc = __smcx_tcp_owner(tcpsk);
	if (smc) {
		smc->tcp_state_change(tcpsk);
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
		rc = smcx_clc_client(smc);
		if (rc > 0) {
			reason = rc;
			rc = 0;
		}
	}

	lock_sock(sk);
	if (smc->aborting) {
		/* release() owns the socket; it saw us busy and cleans up */
		if (smc->smcr) {
			smc->smcr = false;
			release_sock(sk);
			smcx_conn_abort(smc);
			smcx_conn_free(smc);
			lock_sock(sk);
		}
		smc->hs = SMCX_HS_DONE;
		release_sock(sk);
		return;
	}
	if (rc < 0) {
		smcx_stats_hs_error(net, SMCX_CLNT);
		smcx_tcp_fail(tcpsk, -rc);
		connected = false;
	} else if (connected && smc->smcr) {
		smcx_stats_success(net, SMCX_CLNT, 2);
	} else if (connected) {
		smcx_fallback_record(smc, SMCX_CLNT, reason);
	}
	sk->sk_state = connected ? SMCX_ACTIVE : SMCX_CLOSED;
	smc->hs = SMCX_HS_DONE;
	if (!smc->smcr)
		smcx_graft_tcp(smc, sk->sk_socket);
	else
		sk->sk_socket->state = SS_CONNECTED;
	/* wake connect(), poll and epoll: they find TCP now */
	sk->sk_state_change(sk);
	release_sock(sk);
}

int smcx_connect(struct socket *sock, struct smcx_sock *smc,
		 struct sockaddr *addr, int alen, int flags)
{
	struct sock *sk = &smc->sk;
	struct socket *cs;
	long timeo;
	int rc;

	lock_sock(sk);
	if (smc->grafted) {
		release_sock(sk);
		return SMCX_AGAIN;
	}
	cs = smc->clcsock;
	if (smcx_hs_busy(smc)) {
		rc = -EALREADY;
		if (flags & O_NONBLOCK)
			goto out;
		goto wait;
	}
	if (smc->hs == SMCX_HS_DONE) {
		rc = -EISCONN;
		goto out;
	}
	if (sk->sk_state != SMCX_INIT || alen < (int)sizeof(sa_family_t) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
		/* TCP decides: EISCONN when listening, AF_UNSPEC, EINVAL, ... */
		rc = cs->ops->connect(cs, addr, alen, flags);
		goto out;
	}

	/* TCP may finish inside connect() (loopback): be ready for it */
	smc->hs = SMCX_HS_CONNECTING;
	smcx_connect_watch(smc);
	tcp_sk(cs->sk)->syn_smc = 1;
	rc = cs->ops->connect(cs, addr, alen, O_NONBLOCK);
	if (rc && rc != -EINPROGRESS) {
		/* refused before a SYN left: the socket stays as it was */
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
