// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_SMC family (43): socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC{,6}) and
 * the proto_ops every such socket uses (setsockopt and getsockopt are in
 * sockopt.c, splice in splice.c).
 *
 * Dispatch.  sock->sk of an AF_SMC socket is either the smcx sock or, once
 * the connection fell back, the grafted TCP sock (see sock.h).  Every op
 * reads sock->sk once and sends a TCP sock straight to TCP's own stream ops,
 * so a fallen-back socket behaves as TCP in every detail.  An op that sees
 * the smcx sock takes its lock and checks ->grafted: a graft that happened
 * in between makes it start over (the "again" loops below run at most
 * twice, a graft is one-way).
 *
 * Before a connection exists (fresh, bound or listening socket) an op on
 * the smcx sock asks the CLC socket, which is a real TCP socket in the same
 * state, so error codes and signals (EPIPE and SIGPIPE, ENOTCONN, EINVAL,
 * ...) are TCP's own.  While a handshake runs, operations that need the
 * connection wait for it (or return EAGAIN) like TCP waits for its SYN-ACK.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <asm/ioctls.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <smcx/wire.h>

#include "af_smc.h"
#include "lgr.h"
#include "sock.h"

static int smcx_release(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!sk)
		return 0;
	if (!smcx_sk_is_smc(sk))
		return smcx_release_tcp(sock, sk);
	return smcx_sock_release(sock, smcx_sk(sk));
}

static int smcx_bind(struct socket *sock, struct sockaddr_unsized *addr, int len)
{
	struct smcx_sock *smc;
	struct sock *sk;
	int rc;

	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return smcx_tcp_ops_of(sk)->bind(sock, addr, len);
	if (sk->sk_state == SMCX_INIT)
		smcx_clcsock_inherit(smc);
	rc = smc->clcsock->ops->bind(smc->clcsock, addr, len);
	release_sock(sk);
	return rc;
}

static int smcx_connect_op(struct socket *sock, struct sockaddr_unsized *addr,
			   int alen, int flags)
{
	struct sock *sk;
	int rc;

again:
	sk = READ_ONCE(sock->sk);
	if (!smcx_sk_is_smc(sk))
		return smcx_tcp_ops_of(sk)->connect(sock, addr, alen, flags);
	rc = smcx_connect(sock, smcx_sk(sk), addr, alen, flags);
	if (rc == SMCX_AGAIN)
		goto again;
	return rc;
}

static int smcx_accept_arg(struct socket *sock, struct socket *newsock,
			   struct proto_accept_arg *arg)
{
	struct sock *sk;
	int rc;

again:
	sk = READ_ONCE(sock->sk);
	if (!smcx_sk_is_smc(sk))
		return smcx_ops_accept(smcx_tcp_ops_of(sk), sock, newsock, arg);
	rc = smcx_accept(smcx_sk(sk), newsock, arg);
	if (rc == SMCX_AGAIN)
		goto again;
	return rc;
}

/* proto_ops.accept of this kernel around smcx_accept_arg() (compat/) */
SMCX_DEFINE_ACCEPT_OP(smcx_accept_op, smcx_accept_arg)

static int smcx_getname(struct socket *sock, struct sockaddr *addr, int peer)
{
	struct smcx_sock *smc;
	struct sock *sk;
	int rc;

	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return smcx_tcp_ops_of(sk)->getname(sock, addr, peer);
	/* TCP has no peer before its handshake completes; neither do we */
	if (peer && smcx_hs_busy(smc))
		rc = -ENOTCONN;
	else
		rc = smc->clcsock->ops->getname(smc->clcsock, addr, peer);
	release_sock(sk);
	return rc;
}

/*
 * poll of an smcx sock.  It registers on the application's wait queue, the
 * same queue TCP wakes after a graft; after registering it looks again at
 * sock->sk, so a graft that raced with us is seen now or wakes us later.
 */
static __poll_t smcx_poll(struct file *file, struct socket *sock,
			  poll_table *wait)
{
	struct sock *sk = READ_ONCE(sock->sk);
	struct smcx_sock *smc;
	__poll_t mask = 0;

	if (!sk)
		return EPOLLNVAL;
	if (!smcx_sk_is_smc(sk))
		return smcx_tcp_ops_of(sk)->poll(file, sock, wait);
	smc = smcx_sk(sk);
	sock_poll_wait(file, sock, wait);
	sk = READ_ONCE(sock->sk);
	if (!smcx_sk_is_smc(sk))
		return smcx_tcp_ops_of(sk)->poll(file, sock, NULL);

	if (READ_ONCE(sk->sk_state) == SMCX_LISTEN)
		return smcx_accept_poll(smc);
	if (smcx_hs_busy(smc)) {
		/* like TCP in SYN_SENT: nothing to report but errors */
		if (READ_ONCE(sk->sk_err))
			mask |= EPOLLERR;
		return mask;
	}
	if (READ_ONCE(smc->smcr))
		return smcx_conn_poll(smc);
	/* unconnected: TCP's answer for its unconnected socket (OUT|HUP) */
	return smc->clcsock->ops->poll(file, smc->clcsock, NULL);
}

static bool smcx_queue_ioctl(unsigned int cmd)
{
	return cmd == SIOCINQ || cmd == SIOCOUTQ || cmd == SIOCOUTQNSD ||
	       cmd == SIOCATMARK;
}

static int smcx_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct smcx_sock *smc;
	struct sock *sk;
	int rc;

	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return smcx_tcp_ops_of(sk)->ioctl(sock, cmd, arg);
	/* the CLC bytes in flight are not the application's data */
	if (smcx_hs_busy(smc) && smcx_queue_ioctl(cmd))
		rc = put_user(0, (int __user *)arg);
	else if (smc->smcr && smcx_queue_ioctl(cmd))
		rc = smcx_conn_ioctl(smc, cmd, arg);
	else
		rc = smc->clcsock->ops->ioctl(smc->clcsock, cmd, arg);
	release_sock(sk);
	return rc;
}

static int smcx_gettstamp(struct socket *sock, void __user *userstamp,
			  bool timeval, bool time32)
{
	struct sock *sk = READ_ONCE(sock->sk);
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return -ENOENT;
	ops = smcx_tcp_ops_of(sk);
	if (!ops->gettstamp)
		return -ENOIOCTLCMD;
	return ops->gettstamp(sock, userstamp, timeval, time32);
}

static int smcx_listen_op(struct socket *sock, int backlog)
{
	struct sock *sk;
	int rc;

again:
	sk = READ_ONCE(sock->sk);
	if (!smcx_sk_is_smc(sk))
		return smcx_tcp_ops_of(sk)->listen(sock, backlog);
	rc = smcx_listen(smcx_sk(sk), backlog);
	if (rc == SMCX_AGAIN)
		goto again;
	return rc;
}

static int smcx_shutdown(struct socket *sock, int how)
{
	struct smcx_sock *smc;
	struct socket *cs;
	struct sock *sk;
	int rc;

again:
	sk = READ_ONCE(sock->sk);
	if (!smcx_sk_is_smc(sk))
		return smcx_tcp_ops_of(sk)->shutdown(sock, how);
	smc = smcx_sk(sk);
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	if (((how + 1) & RCV_SHUTDOWN) &&
	    READ_ONCE(sk->sk_state) == SMCX_LISTEN)
		/* as TCP: stop listening, wake accept() with EINVAL */
		smcx_listen_stop(smc, SMCX_INIT);
	if (!smcx_lock(smc))
		goto again;
	cs = smc->clcsock;
	if (smcx_hs_busy(smc)) {
		/* connect in progress: aborted, as TCP aborts one */
		rc = smcx_connect_shutdown(smc, sock);
		if (rc == SMCX_AGAIN) {
			release_sock(sk);
			goto again;	/* grafted: TCP's own shutdown */
		}
	} else if (smc->smcr) {
		rc = smcx_conn_shutdown(smc, how);
	} else {
		rc = cs->ops->shutdown(cs, how);
	}
	release_sock(sk);
	/* TCP woke its own queue; pollers of this socket wait on ours */
	sk->sk_state_change(sk);
	return rc;
}

static int smcx_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct smcx_sock *smc;
	struct sock *sk;
	long timeo;
	int rc;

again:
	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return smcx_tcp_ops_of(sk)->sendmsg(sock, msg, len);
	if ((msg->msg_flags & MSG_FASTOPEN) && sk->sk_state == SMCX_INIT &&
	    smc->hs == SMCX_HS_NONE) {
		rc = smcx_fallback_now(smc, sock, SMCX_DECL_OPTUNSUPP);
		release_sock(sk);
		if (rc)
			return rc;
		goto again;
	}
	if (smcx_hs_busy(smc)) {
		timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
		rc = smcx_wait_hs(smc, &timeo);
		release_sock(sk);
		if (rc)
			return rc;
		goto again;
	}
	if (smc->smcr) {
		rc = smcx_conn_sendmsg(smc, msg, len);
		release_sock(sk);
		return rc;
	}
	/* not connected: TCP's EPIPE (and SIGPIPE) */
	rc = smc->clcsock->ops->sendmsg(smc->clcsock, msg, len);
	release_sock(sk);
	return rc;
}

int smcx_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		 int flags)
{
	struct smcx_sock *smc;
	struct sock *sk;
	long timeo;
	int rc;

again:
	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return smcx_tcp_ops_of(sk)->recvmsg(sock, msg, len, flags);
	if (smcx_hs_busy(smc)) {
		timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
		rc = smcx_wait_hs(smc, &timeo);
		release_sock(sk);
		if (rc)
			return rc;
		goto again;
	}
	if (smc->smcr) {
		rc = smcx_conn_recvmsg(smc, msg, len, flags);
		release_sock(sk);
		return rc;
	}
	/* not connected: TCP's ENOTCONN */
	rc = smc->clcsock->ops->recvmsg(smc->clcsock, msg, len, flags);
	release_sock(sk);
	return rc;
}

static int smcx_mmap(struct file *file, struct socket *sock,
		     struct vm_area_struct *vma)
{
	struct sock *sk = READ_ONCE(sock->sk);
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return -ENODEV;
	ops = smcx_tcp_ops_of(sk);
	if (!ops->mmap)
		return -ENODEV;
	return ops->mmap(file, sock, vma);
}

/*
 * The ops below take a struct sock: the socket core and in-kernel users
 * call them with sock->sk, so they only ever meet a grafted TCP sock when
 * there is a connection to talk about.
 */
static int smcx_set_peek_off(struct sock *sk, int val)
{
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk)) {
		ops = smcx_sk(sk)->clcsock->ops;
		return ops->set_peek_off ?
			ops->set_peek_off(smcx_sk(sk)->clcsock->sk, val) :
			-EOPNOTSUPP;
	}
	ops = smcx_tcp_ops_of(sk);
	return ops->set_peek_off ? ops->set_peek_off(sk, val) : -EOPNOTSUPP;
}

static int smcx_peek_len(struct socket *sock)
{
	struct sock *sk = READ_ONCE(sock->sk);
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return 0;
	ops = smcx_tcp_ops_of(sk);
	return ops->peek_len ? ops->peek_len(sock) : 0;
}

static int smcx_read_sock(struct sock *sk, read_descriptor_t *desc,
			  sk_read_actor_t recv_actor)
{
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return -ENOTCONN;
	ops = smcx_tcp_ops_of(sk);
	return ops->read_sock ? ops->read_sock(sk, desc, recv_actor) :
				-EOPNOTSUPP;
}

static int smcx_read_skb(struct sock *sk, skb_read_actor_t recv_actor)
{
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return -ENOTCONN;
	ops = smcx_tcp_ops_of(sk);
	return ops->read_skb ? ops->read_skb(sk, recv_actor) : -EOPNOTSUPP;
}

static int smcx_sendmsg_locked(struct sock *sk, struct msghdr *msg,
			       size_t size)
{
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return -ENOTCONN;
	ops = smcx_tcp_ops_of(sk);
	return ops->sendmsg_locked ? ops->sendmsg_locked(sk, msg, size) :
				     -EOPNOTSUPP;
}

static int smcx_set_rcvlowat(struct sock *sk, int val)
{
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk)) {
		/* the TCP socket gets it through the mirrored setsockopt */
		WRITE_ONCE(sk->sk_rcvlowat, val ? : 1);
		return 0;
	}
	ops = smcx_tcp_ops_of(sk);
	if (!ops->set_rcvlowat) {
		WRITE_ONCE(sk->sk_rcvlowat, val ? : 1);
		return 0;
	}
	return ops->set_rcvlowat(sk, val);
}

/*
 * The proto_ops of all three families: AF_SMC, and IPPROTO_SMC in AF_INET
 * and AF_INET6 (inet.c), which differ only in .family.
 */
#define SMCX_PROTO_OPS(fam) {						\
	.family		= (fam),					\
	.owner		= THIS_MODULE,					\
	.release	= smcx_release,					\
	.bind		= smcx_bind,					\
	.connect	= smcx_connect_op,				\
	.socketpair	= sock_no_socketpair,				\
	.accept		= smcx_accept_op,				\
	.getname	= smcx_getname,					\
	.poll		= smcx_poll,					\
	.ioctl		= smcx_ioctl,					\
	.gettstamp	= smcx_gettstamp,				\
	.listen		= smcx_listen_op,				\
	.shutdown	= smcx_shutdown,				\
	.setsockopt	= smcx_setsockopt,				\
	.getsockopt	= smcx_getsockopt,				\
	.sendmsg	= smcx_sendmsg,					\
	.recvmsg	= smcx_recvmsg,					\
	.mmap		= smcx_mmap,					\
	.splice_read	= smcx_splice_read,				\
	.splice_eof	= smcx_splice_eof,				\
	.set_peek_off	= smcx_set_peek_off,				\
	.peek_len	= smcx_peek_len,				\
	.read_sock	= smcx_read_sock,				\
	.read_skb	= smcx_read_skb,				\
	.sendmsg_locked	= smcx_sendmsg_locked,				\
	.set_rcvlowat	= smcx_set_rcvlowat,				\
}

static const struct proto_ops smcx_proto_ops = SMCX_PROTO_OPS(PF_SMC);
const struct proto_ops smcx_inet_proto_ops = SMCX_PROTO_OPS(PF_INET);
const struct proto_ops smcx_inet6_proto_ops = SMCX_PROTO_OPS(PF_INET6);

/* sockets created by accept() get their ops from the listener */
static int smcx_create(struct net *net, struct socket *sock, int protocol,
		       int kern)
{
	struct smcx_sock *smc;
	int rc;

	if (sock->type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	if (protocol != SMCX_PROTO_SMC && protocol != SMCX_PROTO_SMC6)
		return -EPROTONOSUPPORT;
	if (protocol == SMCX_PROTO_SMC6 && !smcx_family_v6_ok())
		return -EAFNOSUPPORT;

	sock->ops = &smcx_proto_ops;
	sock->state = SS_UNCONNECTED;
	smcx_custom_sockopt(sock);
	smc = smcx_sock_alloc(net, sock, protocol);
	if (!smc)
		return -ENOBUFS;
	rc = smcx_clcsock_create(smc);
	if (rc) {
		struct sock *sk = &smc->sk;

		/* undo smcx_sock_alloc(): the core will not call release */
		sock_orphan(sk);
		sock->sk = NULL;
		sk->sk_prot->unhash(sk);
		sock_put(sk);
	}
	return rc;
}

static const struct net_proto_family smcx_family_ops = {
	.family	= PF_SMC,
	.owner	= THIS_MODULE,
	.create	= smcx_create,
};

/*
 * Registering the family is the last step of module init: once it
 * succeeds, sockets can exist.  It fails with EEXIST when another provider
 * (the in-tree smc.ko) owns AF_SMC; the caller then unwinds everything.
 */
int smcx_af_init(void)
{
	int rc = sock_register(&smcx_family_ops);

	if (rc == -EEXIST)
		pr_err("AF_SMC (%d) is provided by another module (smc.ko?); unload it before loading smcx\n",
		       PF_SMC);
	else if (rc)
		pr_err("cannot register AF_SMC: %d\n", rc);
	return rc;
}

void smcx_af_exit(void)
{
	sock_unregister(PF_SMC);
}
