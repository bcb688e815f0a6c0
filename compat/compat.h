/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One tree for the kernels smcx supports (docs/install.md): Debian 12's 6.1
 * and 6.12, and the API changes after 6.12 that are known.
 *
 * kernel/ is written against the newest API.  This header, which Kbuild
 * puts in front of every file (-include), gives older kernels what they
 * lack, under the newer name, or a small smcx_ helper where the difference
 * is not an API of its own.  Nothing else in the tree tests a kernel
 * version.
 *
 * How a kernel is told apart:
 *  - an API that stable trees backport is found by a probe of the kernel's
 *    headers in Kbuild (SMCX_HAVE_*): Debian's 6.12.y already has APIs of
 *    6.14 and later;
 *  - a change that stays with the release that made it is a version test,
 *    here and nowhere else;
 *  - a header that moved is found on the include path: compat/include/
 *    comes after the kernel's own directories;
 *  - a struct field that only some kernels have is the one place kernel/
 *    tests an SMCX_HAVE_* macro itself (inet.c).
 *
 * What a kernel before 6.2 cannot do is said where it happens
 * (smcx_compat_sol_socket() below); docs/install.md lists it.
 */
#ifndef SMCX_COMPAT_COMPAT_H
#define SMCX_COMPAT_COMPAT_H

/*
 * The headers below would give printk its default prefix; every file of
 * kernel/ defines this same one, which the compiler takes as no change.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/version.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>

/*
 * TCP carries SMC's SYN option, and keeps the syn_smc and smc_hs_congested
 * fields smcx reads, only in a kernel configured with SMC (=y or =m).
 * Debian's 7.2 (sid) has it off (SMC there depends on DIBS, which is off).
 */
#if !IS_ENABLED(CONFIG_SMC)
#error "smcx needs a kernel built with CONFIG_SMC (TCP's SMC option); this one has it off"
#endif

/* 6.4 made MAX_ORDER inclusive, 6.8 renamed it MAX_PAGE_ORDER */
#ifndef MAX_PAGE_ORDER
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define MAX_PAGE_ORDER MAX_ORDER
#else
#define MAX_PAGE_ORDER (MAX_ORDER - 1)
#endif
#endif

/* 6.7: an attribute of the smallest width that holds the value */
#ifndef SMCX_HAVE_NLA_PUT_UINT
static inline int nla_put_uint(struct sk_buff *skb, int type, u64 v)
{
	u32 v32 = (u32)v;

	if (v == v32)
		return nla_put_u32(skb, type, v32);
	/* 8-byte payloads that need no alignment pad: as 6.7 puts them */
	return nla_put(skb, type, sizeof(v), &v);
}
#endif

/* 6.10: the caller already holds rcu_read_lock(); older kernels nest it */
#ifndef SMCX_HAVE_SK_WAKE_ASYNC_RCU
#define sk_wake_async_rcu(sk, how, band) sk_wake_async(sk, how, band)
#endif

/*
 * 6.6: sysctl tables carry their size and need no empty last entry.
 * smcx's table ends with one anyway and passes the size without it, so
 * both kinds of kernel read the same entries.
 */
#ifndef SMCX_HAVE_REGISTER_NET_SYSCTL_SZ
static inline struct ctl_table_header *
register_net_sysctl_sz(struct net *net, const char *path,
		       struct ctl_table *table, size_t n)
{
	return register_net_sysctl(net, path, table);
}
#endif

/* 6.11: proc handlers take a const table */
#ifdef SMCX_HAVE_CONST_CTL_TABLE
#define SMCX_CTL_TABLE const struct ctl_table
#else
#define SMCX_CTL_TABLE struct ctl_table
#endif

/* 6.9: sk_userlocks became a whole byte; before, a bit-field READ_ONCE cannot read */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define smcx_sk_userlocks(sk) READ_ONCE((sk)->sk_userlocks)
#else
#define smcx_sk_userlocks(sk) ((sk)->sk_userlocks)
#endif

/*
 * 6.10: proto_ops.accept takes its flags in a struct.  On older kernels
 * SMCX_DEFINE_ACCEPT_OP() wraps the struct form into the (flags, kern)
 * one, and smcx_ops_accept() calls an ops table's accept either way.
 */
#ifdef SMCX_HAVE_PROTO_ACCEPT_ARG
#define SMCX_DEFINE_ACCEPT_OP(name, fn)					\
static int name(struct socket *sock, struct socket *newsock,		\
		struct proto_accept_arg *arg)				\
{									\
	return fn(sock, newsock, arg);					\
}

static inline int smcx_ops_accept(const struct proto_ops *ops,
				  struct socket *sock, struct socket *newsock,
				  struct proto_accept_arg *arg)
{
	return ops->accept(sock, newsock, arg);
}
#else
struct proto_accept_arg {
	int flags;
	int err;
	int is_empty;	/* 6.10's accept reports it; older callers ignore it */
	bool kern;
};

#define SMCX_DEFINE_ACCEPT_OP(name, fn)					\
static int name(struct socket *sock, struct socket *newsock, int flags,	\
		bool kern)						\
{									\
	struct proto_accept_arg arg = { .flags = flags, .kern = kern };	\
									\
	return fn(sock, newsock, &arg);					\
}

static inline int smcx_ops_accept(const struct proto_ops *ops,
				  struct socket *sock, struct socket *newsock,
				  struct proto_accept_arg *arg)
{
	return ops->accept(sock, newsock, arg->flags, arg->kern);
}
#endif

/*
 * 6.12 exports ib_device_get_netdev(); before, ib_core kept it to itself.
 * The same answer from the same fields: the driver's get_netdev op (which
 * returns a held device), else the netdev ib_core recorded for the port,
 * held under the port's netdev lock; a device that is not registered (any
 * more) is no answer.
 */
#ifndef SMCX_HAVE_IB_DEVICE_GET_NETDEV
static inline struct net_device *ib_device_get_netdev(struct ib_device *ib,
						      u32 port)
{
	struct ib_port_data *pd;
	struct net_device *nd;

	if (!rdma_is_port_valid(ib, port))
		return NULL;
	if (ib->ops.get_netdev) {
		nd = ib->ops.get_netdev(ib, port);
	} else {
		pd = &ib->port_data[port];
		spin_lock(&pd->netdev_lock);
		nd = rcu_dereference_protected(pd->netdev,
					       lockdep_is_held(&pd->netdev_lock));
		dev_hold(nd);
		spin_unlock(&pd->netdev_lock);
	}
	if (nd && nd->reg_state != NETREG_REGISTERED) {
		dev_put(nd);
		nd = NULL;
	}
	return nd;
}
#endif

/*
 * 6.14 (and 6.12.y, 6.6.y): a kernel socket that holds its namespace like
 * a user's.  Before, the three steps that helper takes, by hand; the sock's
 * destruction undoes them because sk_net_refcnt says so.
 */
#ifndef SMCX_HAVE_SK_NET_REFCNT_UPGRADE
static inline void sk_net_refcnt_upgrade(struct sock *sk)
{
	struct net *net = sock_net(sk);

	WARN_ON_ONCE(sk->sk_net_refcnt);
	sk->sk_net_refcnt = 1;
	get_net_track(net, &sk->ns_tracker, GFP_KERNEL);
	sock_inuse_add(net, 1);
}
#endif

/* 6.17 removes sock_i_uid(): the owner is read without sk_callback_lock */
#ifndef SMCX_HAVE_SK_UID
static inline kuid_t sk_uid(const struct sock *sk)
{
	return READ_ONCE(sk->sk_uid);
}
#endif

/*
 * 6.19: bind and connect take a struct sockaddr_unsized, which says no size
 * of its own (the length argument does).  Before, the same pointer is a
 * struct sockaddr; both have sa_family first, the one field smcx reads.
 */
#ifndef SMCX_HAVE_SOCKADDR_UNSIZED
#define sockaddr_unsized sockaddr
#endif

/* 7.2 warns on a workqueue that is neither per-CPU nor unbound */
#ifndef SMCX_HAVE_WQ_PERCPU
#define WQ_PERCPU 0
#endif

/*
 * 6.2: SOCK_CUSTOM_SOCKOPT sends SOL_SOCKET setsockopt() to the socket's
 * ops, which apply it to the smcx sock and its TCP socket alike
 * (kernel/sockopt.c).  Before 6.2 the socket core applies it to the smcx
 * sock alone, so smcx_compat_sol_socket() copies what the application set
 * onto the TCP socket before it binds, connects or listens, as mainline's
 * smc did on those kernels.  An option set later stays with the smcx sock
 * (a connection that fell back is the TCP socket itself by then, and gets
 * every option).
 */
#ifdef SMCX_HAVE_SOCK_CUSTOM_SOCKOPT
static inline void smcx_custom_sockopt(struct socket *sock)
{
	set_bit(SOCK_CUSTOM_SOCKOPT, &sock->flags);
}

static inline void smcx_compat_sol_socket(struct sock *tcpsk,
					  const struct sock *sk)
{
}
#else
static inline void smcx_custom_sockopt(struct socket *sock)
{
}

/* the SOL_SOCKET flags an application sets that matter to a TCP socket */
#define SMCX_COMPAT_SK_FLAGS						\
	(BIT(SOCK_URGINLINE) | BIT(SOCK_KEEPOPEN) | BIT(SOCK_LINGER) |	\
	 BIT(SOCK_BROADCAST) | BIT(SOCK_TIMESTAMP) | BIT(SOCK_DBG) |	\
	 BIT(SOCK_RCVTSTAMP) | BIT(SOCK_RCVTSTAMPNS) |			\
	 BIT(SOCK_LOCALROUTE) | BIT(SOCK_TIMESTAMPING_RX_SOFTWARE) |	\
	 BIT(SOCK_RXQ_OVFL) | BIT(SOCK_WIFI_STATUS) | BIT(SOCK_NOFCS) |	\
	 BIT(SOCK_TSTAMP_NEW))

static inline void smcx_compat_sol_socket(struct sock *tcpsk,
					  const struct sock *sk)
{
	unsigned long f = READ_ONCE(sk->sk_flags) & SMCX_COMPAT_SK_FLAGS;

	tcpsk->sk_flags = (tcpsk->sk_flags & ~SMCX_COMPAT_SK_FLAGS) | f;
	tcpsk->sk_reuse = sk->sk_reuse;
	tcpsk->sk_reuseport = sk->sk_reuseport;
	/*
	 * Buffer sizes only where the application set them (TCP sizes the
	 * others itself); the bind locks are the TCP socket's own.
	 */
	if (sk->sk_userlocks & SOCK_SNDBUF_LOCK) {
		tcpsk->sk_userlocks |= SOCK_SNDBUF_LOCK;
		WRITE_ONCE(tcpsk->sk_sndbuf, READ_ONCE(sk->sk_sndbuf));
	}
	if (sk->sk_userlocks & SOCK_RCVBUF_LOCK) {
		tcpsk->sk_userlocks |= SOCK_RCVBUF_LOCK;
		WRITE_ONCE(tcpsk->sk_rcvbuf, READ_ONCE(sk->sk_rcvbuf));
	}
	WRITE_ONCE(tcpsk->sk_sndtimeo, READ_ONCE(sk->sk_sndtimeo));
	WRITE_ONCE(tcpsk->sk_rcvtimeo, READ_ONCE(sk->sk_rcvtimeo));
	WRITE_ONCE(tcpsk->sk_rcvlowat, READ_ONCE(sk->sk_rcvlowat));
	WRITE_ONCE(tcpsk->sk_lingertime, READ_ONCE(sk->sk_lingertime));
	tcpsk->sk_tsflags = sk->sk_tsflags;
	tcpsk->sk_max_pacing_rate = sk->sk_max_pacing_rate;
}
#endif

#endif /* SMCX_COMPAT_COMPAT_H */
