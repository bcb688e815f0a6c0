// SPDX-License-Identifier: GPL-2.0
/*
 * setsockopt and getsockopt of an smcx socket, two of the proto_ops that
 * af_smc.c holds (its header comment gives the dispatch rule: a grafted
 * socket goes straight to TCP, an op on the smcx sock takes its lock).
 *
 * Until the graft, an option goes to the CLC socket, the TCP socket that
 * carries the handshake and becomes the application's socket on fallback,
 * and TCP's answer is the option's.  SOL_SOCKET options are set on the
 * smcx sock too, because the socket core reads them from sock->sk.  Level
 * SOL_SMC holds mainline's SMC_LIMIT_HS.  A few options reach further:
 * TCP_ULP is refused, TCP_FASTOPEN_CONNECT on a fresh socket makes it TCP
 * at once, TCP_CORK and TCP_NODELAY reach the SMC-R send path
 * (smcx_tx_sockopt()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <smcx/wire.h>

#include "af_smc.h"
#include "sock.h"
#include "uapi.h"

static bool smcx_is_tfo_connect(int level, int optname, sockptr_t optval,
				unsigned int optlen)
{
	int val;

	if (level != SOL_TCP || optname != TCP_FASTOPEN_CONNECT)
		return false;
	if (optlen < sizeof(int) || copy_from_sockptr(&val, optval, sizeof(val)))
		return false;
	return val != 0;
}

/*
 * Level SOL_SMC (mainline's options): SMC_LIMIT_HS, the handshake
 * limitation a listen() takes (listen.c).  A socket that is TCP already
 * (grafted) has no SMC options.
 */
static int smcx_smc_setsockopt(struct socket *sock, int optname,
			       sockptr_t optval, unsigned int optlen)
{
	struct smcx_sock *smc;
	struct sock *sk;
	int val;

	if (optname != SMC_LIMIT_HS)
		return -EOPNOTSUPP;
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return -EOPNOTSUPP;
	smc->limit_hs = val != 0;
	release_sock(sk);
	return 0;
}

static int smcx_smc_getsockopt(struct socket *sock, int optname,
			       char __user *optval, int __user *optlen)
{
	struct sock *sk;
	int val, len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	len = min_t(int, len, sizeof(int));
	if (optname != SMC_LIMIT_HS)
		return -EOPNOTSUPP;
	sk = READ_ONCE(sock->sk);
	if (!smcx_sk_is_smc(sk))
		return -EOPNOTSUPP;
	val = READ_ONCE(smcx_sk(sk)->limit_hs);
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

/*
 * SOL_SOCKET options reach us because the socket has SOCK_CUSTOM_SOCKOPT:
 * they apply to the TCP socket (whose answer is returned) and to the smcx
 * sock, because SOL_SOCKET getsockopt() reads sock->sk directly and must see
 * the same values before a graft.
 */
int smcx_setsockopt(struct socket *sock, int level, int optname,
		    sockptr_t optval, unsigned int optlen)
{
	const struct proto_ops *ops;
	struct smcx_sock *smc;
	struct socket *cs;
	struct sock *sk;
	int rc, val;

	/* a ULP would replace sock->ops and TCP's proto: not on our socket */
	if (level == SOL_TCP && optname == TCP_ULP)
		return -EOPNOTSUPP;
	if (level == SOL_SMC)
		return smcx_smc_setsockopt(sock, optname, optval, optlen);
	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc) {
		if (level == SOL_SOCKET)
			return sock_setsockopt(sock, level, optname, optval,
					       optlen);
		ops = smcx_tcp_ops_of(sk);
		return ops->setsockopt(sock, level, optname, optval, optlen);
	}
	cs = smc->clcsock;
	if (level == SOL_SOCKET)
		rc = sock_setsockopt(cs, level, optname, optval, optlen);
	else
		rc = cs->ops->setsockopt(cs, level, optname, optval, optlen);
	/* TCP Fast Open puts data in the SYN, before any CLC: be TCP now */
	if (!rc && smcx_is_tfo_connect(level, optname, optval, optlen) &&
	    sk->sk_state == SMCX_INIT && smc->hs == SMCX_HS_NONE)
		smcx_fallback_now(smc, sock, SMCX_DECL_OPTUNSUPP);
	smcx_stats_sockopt(READ_ONCE(smc->stats), smc->smcr, level, optname,
			   optval, optlen, rc);
	if (!rc && level == SOL_TCP && optlen >= sizeof(int) &&
	    !copy_from_sockptr(&val, optval, sizeof(val)))
		smcx_tx_sockopt(smc, optname, val);
	release_sock(sk);
	if (!rc && level == SOL_SOCKET)
		sock_setsockopt(sock, level, optname, optval, optlen);
	return rc;
}

int smcx_getsockopt(struct socket *sock, int level, int optname,
		    char __user *optval, int __user *optlen)
{
	const struct proto_ops *ops;
	struct smcx_sock *smc;
	struct socket *cs;
	struct sock *sk;
	int rc;

	if (level == SOL_SMC)
		return smcx_smc_getsockopt(sock, optname, optval, optlen);
	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc) {
		ops = smcx_tcp_ops_of(sk);
		if (!ops->getsockopt)
			return -EOPNOTSUPP;
		return ops->getsockopt(sock, level, optname, optval, optlen);
	}
	cs = smc->clcsock;
	if (cs->ops->getsockopt)
		rc = cs->ops->getsockopt(cs, level, optname, optval, optlen);
	else
		rc = -EOPNOTSUPP;
	release_sock(sk);
	return rc;
}
