/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_SMC protocol family: registration and proto_ops (af_smc.c).  The
 * ops' table and most ops are af_smc.c's; the socket options are
 * sockopt.c's and splice is splice.c's, which follow the same dispatch.
 */
#ifndef SMCX_AF_SMC_H
#define SMCX_AF_SMC_H

#include <linux/net.h>

struct pipe_inode_info;
struct smcx_sock;

/* the ops of IPPROTO_SMC sockets (inet.c): AF_SMC's with .family changed */
extern const struct proto_ops smcx_inet_proto_ops;
extern const struct proto_ops smcx_inet6_proto_ops;

int smcx_af_init(void);
void smcx_af_exit(void);

/*
 * af_smc.c, for the ops in the other files: an op's prologue (NULL: the
 * socket is TCP, *@skp its sock; else the smcx sock, locked), and recvmsg.
 */
struct smcx_sock *smcx_lock_or_tcp(struct socket *sock, struct sock **skp);
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
