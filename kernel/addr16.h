/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An endpoint as the flight recorder, the peer cache, the scope rules and
 * the DMB isolation check keep it: 16 address bytes (IPv4 v4-mapped) and a
 * port in host order.
 */
#ifndef SMCX_ADDR16_H
#define SMCX_ADDR16_H

#include <linux/in.h>
#include <linux/in6.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>

/* the address and port @sa names; false for a family or length it is not */
static inline bool smcx_addr16_of(const struct sockaddr *sa, int alen,
				  u8 *addr, u16 *port)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

	if (sa->sa_family == AF_INET && alen >= (int)sizeof(*in)) {
		ipv6_addr_set_v4mapped(in->sin_addr.s_addr,
				       (struct in6_addr *)addr);
		*port = ntohs(in->sin_port);
		return true;
	}
	if (sa->sa_family == AF_INET6 && alen >= SIN6_LEN_RFC2133) {
		memcpy(addr, &in6->sin6_addr, 16);
		*port = ntohs(in6->sin6_port);
		return true;
	}
	return false;
}

/* one end of the connected @sk: the far one (@peer) or its own */
static inline void smcx_addr16_sk(const struct sock *sk, bool peer, u8 *addr,
				  u16 *port)
{
	const struct inet_sock *inet = inet_sk(sk);

	*port = ntohs(peer ? inet->inet_dport : inet->inet_sport);
#if IS_ENABLED(CONFIG_IPV6)
	/* an IPv6 socket's own, v4-mapped for an IPv4 peer */
	if (sk->sk_family == AF_INET6) {
		memcpy(addr, peer ? &sk->sk_v6_daddr : &sk->sk_v6_rcv_saddr,
		       16);
		return;
	}
#endif
	ipv6_addr_set_v4mapped(peer ? inet->inet_daddr : inet->inet_rcv_saddr,
			       (struct in6_addr *)addr);
}

#endif /* SMCX_ADDR16_H */
