/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The peer cache (peers.c): per network namespace, the servers that broke
 * our client handshake after announcing SMC in their SYN-ACK (an echoed
 * option, a box in the path, a half SMC stack), or that declined every
 * time.  For net.smc.smcx_peer_ttl seconds a connect() to such a peer
 * goes out as plain TCP, without the SMC option (reason PEERCACHED); then
 * SMC is tried again.  A success forgets the peer.  Keyed by address and
 * port: one broken service does not cost a whole host its SMC.
 */
#ifndef SMCX_PEERS_H
#define SMCX_PEERS_H

#include <linux/types.h>

struct net;
struct sock;
struct sockaddr;

/* declines in a row after which a peer is cached */
#define SMCX_PEER_DECLINE_MAX	3
/* entries per namespace; the least recently used goes first */
#define SMCX_PEER_MAX		1024

struct smcx_peer_info {
	u8 family;
	u8 addr[16];			/* IPv4 v4-mapped */
	u16 port;			/* host order */
	u8 why;				/* SMCX_PEER_* */
	u8 cached;
	u32 reason;			/* the last Decline's code */
	u32 fails;
	u32 expires_ms;
	u64 hits;
};

/* the peer of a connect() to @addr: cached (and counted as a hit)? */
bool smcx_peer_cached(struct net *net, const struct sockaddr *addr, int alen);
/*
 * How the client handshake with the peer of @tcpsk (connected) ended:
 * @why SMCX_PEER_* when it broke (cached at once), or 0 with @decline the
 * peer's Decline (cached after SMCX_PEER_DECLINE_MAX of them), or 0 and 0 for
 * a success (forgotten).
 */
void smcx_peer_note(struct net *net, const struct sock *tcpsk, u8 why,
		    u32 decline);
/* the @i-th entry: 0, or -ENOENT */
int smcx_peer_get(struct net *net, unsigned long i, struct smcx_peer_info *p);
int smcx_peer_del(struct net *net, u8 family, const u8 *addr, u16 port);
void smcx_peer_flush(struct net *net);

int smcx_peers_init(void);
void smcx_peers_exit(void);

#endif /* SMCX_PEERS_H */
