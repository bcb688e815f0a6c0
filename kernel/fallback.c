// SPDX-License-Identifier: GPL-2.0
/*
 * The switch to TCP ("fallback").
 *
 * A connection falls back when the peer did not announce SMC in its SYN or
 * SYN-ACK (PEERNOSMC, no CLC byte is ever sent), when either side declines
 * in the CLC handshake, when a client that announced SMC sends no CLC at
 * all (its first bytes are not a CLC eyecatcher, or a FIN: SYNCERR, the
 * server falls back without a word), or before any connection when the
 * application asks for something SMC cannot do (TCP Fast Open: OPTUNSUPP).  The reason and,
 * after a peer's decline, its diagnosis stay on the smcx sock for
 * diagnostics, and the per-netns statistics count the reason.
 *
 * The switch itself is smcx_graft_tcp(): the TCP sock becomes sock->sk of
 * the application's socket.  Why this gives exactly TCP's behaviour, and why
 * the wake-ups are right, is explained in sock.h and docs/kernel-socket.md.
 * A connection whose handshake failed (timeout, protocol error, the TCP
 * connect itself failed) is grafted as well, after its TCP connection was
 * aborted with the error: the application then sees that error exactly as
 * it would see a failed TCP connect.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/security.h>
#include <net/tcp.h>

#include <smcx/wire.h>

#include "sock.h"

/* remember why the connection is TCP and count it; sock lock held */
void smcx_fallback_record(struct smcx_sock *smc, enum smcx_role role,
			  u32 reason)
{
	smc->fallback = true;
	smc->fallback_rsn = reason;
	if (reason)
		smcx_stats_fallback(sock_net(&smc->sk), role, reason);
}

/*
 * Make the TCP sock the application's sock->sk.  Caller holds the smcx sock
 * lock, which orders the switch against every proto_op that still sees the
 * smcx sock: they look at ->grafted under that lock and re-dispatch.
 *
 * sock_graft() cannot be used here: it insists on sock->sk being NULL, and
 * a NULL sock->sk would crash concurrent system calls on the socket, which
 * read sock->sk without a lock.  So the same steps are done with sock->sk
 * switching from one valid sock to another in a single store.
 */
void smcx_graft_tcp(struct smcx_sock *smc, struct socket *sock)
{
	struct socket *cs = smc->clcsock;
	struct sock *tcpsk = cs->sk;

	smcx_tcp_restore_cbs(smc);
	/* a later connect() through TCP itself must not announce SMC */
	tcp_sk(tcpsk)->syn_smc = 0;
	/*
	 * The CLC exchange delays ACKs (smcx_clc_client()); the application
	 * gets TCP's ACKs as a new connection has them, and an ACK held back
	 * for our next CLC message goes now, so that the peer's first writes
	 * do not wait for it behind Nagle.
	 */
	if (inet_csk_in_pingpong_mode(tcpsk))
		tcp_sock_set_quickack(tcpsk, 1);
	if (sock_flag(&smc->sk, SOCK_FASYNC))
		sock_set_flag(tcpsk, SOCK_FASYNC);
	if (test_bit(SOCK_SUPPORT_ZC, &cs->flags))
		set_bit(SOCK_SUPPORT_ZC, &sock->flags);

	write_lock_bh(&tcpsk->sk_callback_lock);
	rcu_assign_pointer(tcpsk->sk_wq, &sock->wq);
	sk_set_socket(tcpsk, sock);
	WRITE_ONCE(tcpsk->sk_uid, SOCK_INODE(sock)->i_uid);
	security_sock_graft(tcpsk, sock);
	WRITE_ONCE(sock->sk, tcpsk);
	write_unlock_bh(&tcpsk->sk_callback_lock);
	smc->grafted = true;
	/* ->hs is DONE for every caller: nothing waits any more */
}

/*
 * Fall back right now, before any connection exists (the application set
 * an option SMC does not support).  Sock lock held; @sock is the socket
 * whose sk is @smc.
 */
int smcx_fallback_now(struct smcx_sock *smc, struct socket *sock, u32 reason)
{
	struct sock *sk = &smc->sk;

	if (smc->grafted)
		return 0;
	if (sk->sk_state != SMCX_INIT || smc->hs != SMCX_HS_NONE)
		return -EINVAL;
	smcx_fallback_record(smc, SMCX_CLNT, reason);
	sock->state = smc->clcsock->state;
	smc->hs = SMCX_HS_DONE;
	smcx_graft_tcp(smc, sock);
	return 0;
}

/*
 * release() of a grafted socket: TCP's release closes the connection exactly
 * as it would for a TCP socket (SO_LINGER, RST on unread data, FIN
 * otherwise), then the smcx sock that owned it goes.  A TCP sock without an
 * owner is a child accepted by a grafted listener: pure TCP.
 */
int smcx_release_tcp(struct socket *sock, struct sock *tcpsk)
{
	const struct proto_ops *ops = smcx_tcp_ops_of(tcpsk);
	struct smcx_sock *smc = smcx_tcp_owner(tcpsk);
	int rc;

	if (smc)
		smcx_tcp_unlink(smc);
	rc = ops->release(sock);
	if (smc) {
		/*
		 * A handshake work item may still be queued, or waiting for
		 * the sock lock, when the graft did not come from it
		 * (shutdown() during connect grafts at once; TCP may also
		 * queue it again while it runs).  It finds ->hs DONE and
		 * returns, but it holds no reference: let it finish first.
		 */
		cancel_work_sync(&smc->hs_work);
		smcx_sock_free_fallback(smc);
	}
	return rc;
}
