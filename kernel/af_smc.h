/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_SMC protocol family: registration and proto_ops (af_smc.c).  The
 * ops' table and most ops are af_smc.c's; the socket options are
 * sockopt.c's and splice is splice.c's, which follow the same dispatch.
 */
#ifndef SMCX_AF_SMC_H
#define SMCX_AF_SMC_H

#include <linux/net.h>
#include <net/sock.h>

#include "conn.h"

struct pipe_inode_info;

/* the ops of IPPROTO_SMC sockets (inet.c): AF_SMC's with .family changed */
extern const struct proto_ops smcx_inet_proto_ops;
extern const struct proto_ops smcx_inet6_proto_ops;

int smcx_af_init(void);
void smcx_af_exit(void);

/*
 * Lock the smcx sock for an op.  false (and unlocked) if the socket was
 * grafted meanwhile: the caller starts over and reaches TCP.
 */
static inline bool smcx_lock(struct smcx_sock *smc)
{
	lock_sock(&smc->sk);
	if (likely(!smc->grafted))
		return true;
	release_sock(&smc->sk);
	return false;
}

/*
 * The prologue of most ops: read sock->sk once into *@skp; a TCP sock
 * (grafted) returns NULL and the caller hands the op to TCP with *@skp,
 * else the smcx sock is returned locked.  A graft while we waited for the
 * lock starts over, which then finds TCP.
 */
static inline struct smcx_sock *smcx_lock_or_tcp(struct socket *sock,
						 struct sock **skp)
{
	struct sock *sk;

again:
	sk = READ_ONCE(sock->sk);
	*skp = sk;
	if (!smcx_sk_is_smc(sk))
		return NULL;
	if (!smcx_lock(smcx_sk(sk)))
		goto again;
	return smcx_sk(sk);
}

/* af_smc.c, for splice.c */
int smcx_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		 int flags);

/* sockopt.c */
int smcx_setsockopt(struct socket *sock, int level, int optname,
		    sockptr_t optval, unsigned int optlen);
int smcx_getsockopt(struct socket *sock, int level, int optname,
		    char __user *optval, int __user *optlen);

/* splice.c */
ssize_t smcx_splice_read(struct socket *sock, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags);
void smcx_splice_eof(struct socket *sock);

#endif /* SMCX_AF_SMC_H */
