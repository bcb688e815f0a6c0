// SPDX-License-Identifier: GPL-2.0
/*
 * IPPROTO_SMC (256): socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC)
 * gives an smcx socket whose addresses are ordinary sockaddr_in/_in6, the
 * form tcp2smc creates behind the application's back.
 *
 * How.  We register an inet_protosw for (SOCK_STREAM, IPPROTO_SMC) with
 * each inet family.  inet_create()/inet6_create() then allocate the sock
 * from our struct proto (family AF_INET/AF_INET6, sk_protocol IPPROTO_SMC),
 * set their generic inet fields, and call the proto's init, where we do
 * exactly what smcx_create() does for AF_SMC after its sk_alloc: the smcx
 * part of the sock and its CLC (TCP) socket.  From then on the socket is an
 * smcx socket like any other: the same proto_ops (copied, with .family set
 * to the inet family), the same handshake, fallback by grafting, release.
 * smcx_sk_is_smc() recognises such a sock by sk_protocol == IPPROTO_SMC.
 *
 * Layout.  inet_create() writes the struct inet_sock fields behind struct
 * sock, so struct smcx_sock starts with a union of struct sock and struct
 * inet_sock (sock.h).  inet6_create() also writes a struct ipv6_pinfo at
 * the proto's ipv6_pinfo_offset: the IPv6 proto's objects are a struct
 * smcx6_sock with room for it at the end.  Neither is used after creation:
 * every address operation goes to the CLC socket, options included.  The
 * proto's init replaces inet's destructor with smcx's (nothing inet would
 * free is ever allocated on this sock).
 *
 * Server side: connections accepted on an IPPROTO_SMC listener are smcx
 * socks of the listener's protocol made like all server connections
 * (listen.c); their sockets have the listener's ops, and their addresses
 * come from TCP as always.
 *
 * Registration follows AF_SMC's (main.c), so the check that no other
 * provider (smc.ko, which registers the same protosw) is loaded has been
 * made.  Each socket holds a reference on this module through its ops and
 * its proto, so unloading waits until all are closed;
 * inet_unregister_protosw() waits for creations in flight (RCU).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/net.h>
#include <net/inet_common.h>
#include <net/ipv6.h>
#include <net/protocol.h>
#include <net/sock.h>

#include "af_smc.h"
#include "inet.h"
#include "sock.h"

struct smcx6_sock {
	struct smcx_sock smc;
	struct ipv6_pinfo inet6;	/* inet6_create() writes here */
};

static bool smcx_inet6_registered;

static int smcx_inet_init_sock(struct sock *sk)
{
	struct socket *sock = sk->sk_socket;

	if (!sock)
		return -EINVAL;
	smcx_custom_sockopt(sock);
	smcx_sock_setup(sk, IPPROTO_SMC);
	/* on error inet_create() releases the sock: unhash, put, destruct */
	return smcx_clcsock_create(smcx_sk(sk));
}

/*
 * inet_create() runs the cgroup sock_create programs after our init; on a
 * deny (or a failed init) it releases the sock with sk_common_release(),
 * which calls only this, unhash and the last sock_put(): the CLC socket
 * our init made would stay behind, pointing back at a freed sock and
 * holding its network namespace.  Nothing else calls a proto's destroy on
 * our socks (release is smcx_sock_release(), which frees the CLC socket
 * itself), so here the sock was never connected, listened nor grafted.
 */
static void smcx_inet_destroy_sock(struct sock *sk)
{
	struct smcx_sock *smc = smcx_sk(sk);

	smcx_tcp_unlink(smc);
	smcx_clcsock_free(smc);
}

static struct proto smcx_inet_prot = {
	.name		= "SMCX_INET",
	.owner		= THIS_MODULE,
	.init		= smcx_inet_init_sock,
	.destroy	= smcx_inet_destroy_sock,
	.hash		= smcx_hash,
	.unhash		= smcx_unhash,
	.obj_size	= sizeof(struct smcx_sock),
};

static struct proto smcx_inet6_prot = {
	.name		= "SMCX_INET6",
	.owner		= THIS_MODULE,
	.init		= smcx_inet_init_sock,
	.destroy	= smcx_inet_destroy_sock,
	.hash		= smcx_hash,
	.unhash		= smcx_unhash,
	.obj_size	= sizeof(struct smcx6_sock),
#ifdef SMCX_HAVE_IPV6_PINFO_OFFSET
	.ipv6_pinfo_offset = offsetof(struct smcx6_sock, inet6),
#endif
};

static struct inet_protosw smcx_inet_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smcx_inet_prot,
	.ops		= &smcx_inet_proto_ops,
};

static struct inet_protosw smcx_inet6_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smcx_inet6_prot,
	.ops		= &smcx_inet6_proto_ops,
};

/*
 * Everything that can fail comes first, the one step that cannot
 * (inet_register_protosw()) last: once a protosw is registered sockets
 * can be created, so a failure after it would unwind under live sockets.
 */
int smcx_inet_init(void)
{
	bool v6 = smcx_family_v6_ok();	/* no IPv6: AF_INET6 IPPROTO_SMC fails */
	int rc;

	/* kernels without ipv6_pinfo_offset look for it at the end */
	BUILD_BUG_ON(offsetof(struct smcx6_sock, inet6) +
		     sizeof(struct ipv6_pinfo) != sizeof(struct smcx6_sock));
	rc = proto_register(&smcx_inet_prot, 1);
	if (rc)
		return rc;
	if (v6) {
		rc = proto_register(&smcx_inet6_prot, 1);
		if (rc)
			goto err_proto;
		rc = inet6_register_protosw(&smcx_inet6_protosw);
		if (rc)
			goto err_proto6;
		smcx_inet6_registered = true;
	}
	inet_register_protosw(&smcx_inet_protosw);
	return 0;

err_proto6:
	proto_unregister(&smcx_inet6_prot);
err_proto:
	proto_unregister(&smcx_inet_prot);
	return rc;
}

void smcx_inet_exit(void)
{
	inet_unregister_protosw(&smcx_inet_protosw);
	if (smcx_inet6_registered) {
		inet6_unregister_protosw(&smcx_inet6_protosw);
		proto_unregister(&smcx_inet6_prot);
		smcx_inet6_registered = false;
	}
	proto_unregister(&smcx_inet_prot);
}
