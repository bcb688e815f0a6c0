/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLC messages over the internal TCP socket (clc.c, framed by
 * clc_io.c): built, sent, received, validated and judged.  The handshake
 * runs in join.c, which calls these in order and does the link group work
 * between them.
 *
 * Results are those of the handshake (join.h): 0 (go on), a positive
 * reason code (SMCX_DECL_*: the decline is sent or received, the stream is
 * in sync, the connection continues as TCP) or a negative errno (the
 * connection is unusable and must be aborted).  Nothing else reads or
 * writes the CLC socket during the handshake.
 */
#ifndef SMCX_CLC_H
#define SMCX_CLC_H

#include <smcx/v2x.h>
#include <smcx/wire.h>

struct in6_addr;
struct sock;
struct socket;
struct smcx_sock;

/* one handshake's CLC buffer, and what the judgments found for the join */
struct smcx_clc_ctx {
	u8 buf[SMCX_CLC_MAX_LEN];
	union {
		struct smcx_clc_proposal prop;
		struct smcx_clc_accept acc;
		struct smcx_clc_accept_d accd;
		struct smcx_clc_decline dcl;
	} m;
	/* kept apart from @m, which our Accept or Confirm overwrites */
	struct smcx_v2x neg;		/* a new link group's release, counts */
	u8 eid[SMCX_EID_LEN];		/* the user EID both sides have */
	u8 peer_gid[SMCX_GID_LEN];	/* server: the proposal's RoCE GID */
	u32 reason;			/* server: the decline if not served */
	u32 offered;			/* client: our Proposal's SMCX_WWI_F_* */
	/*
	 * SMC-D over the loopback device (join_d.c): the server took our
	 * offer (client: its Accept, @len bytes, is in buf), or we take the
	 * client's (server: ctx->eid is set)
	 */
	bool smcd;
	int len;
};

/*
 * Client: the Proposal and its answer.  0: ctx->m.acc is an SMC-R v2
 * Accept to join (ctx->eid, and ctx->neg on first contact, are set).
 * @ctx NULL (no memory for it): a Decline in place of the Proposal.
 */
int smcx_clc_client(struct smcx_sock *smc, struct smcx_clc_ctx *ctx);
/* client: our Confirm for the Accept in ctx->m.acc, from our connection */
int smcx_clc_send_confirm(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			  bool first);

/*
 * Server: the client's Proposal.  0: an SMC-R v2 Proposal to serve
 * (ctx->eid, ctx->peer_gid, ctx->neg, ctx->reason are set); the join's
 * result then goes through smcx_clc_srv_unserved().  @ctx NULL: -ENOMEM.
 */
int smcx_clc_server(struct smcx_sock *smc, struct smcx_clc_ctx *ctx);
/*
 * Server: our Accept from our connection, the client's Confirm into
 * ctx->m.acc.  0 with *@decline 0: confirmed; 0 with *@decline set: the
 * Confirm does not fit the new link group, the decline to send once the
 * join is undone; SMCX_DECL_PEERDECL: the client declined; -errno.
 */
int smcx_clc_srv_accept(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			bool first, u32 *decline);
/* a join without a device, memory or place: decline (ctx->reason) instead */
int smcx_clc_srv_unserved(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			  int rc);

/*
 * The RoCE v2 GID of the CLC socket @tcpsk's source address: the
 * v4-mapped form of an IPv4 connection's (smcx_clc_ipv4_saddr()), or for
 * a native IPv6 connection (*@native6) the IPv6 source address itself,
 * if it is global or unique local (a link-local address is not routed,
 * so it makes no RoCE v2 path: false).  False: no GID to use.
 */
bool smcx_clc_src_gid(const struct sock *tcpsk, struct in6_addr *gid,
		      bool *native6);
/*
 * Is @gid the RoCE v2 GID of the CLC socket @tcpsk's peer address (the
 * v4-mapped form of an IPv4 peer's, a native IPv6 peer's own)?  An SMC-R
 * v2 peer's Proposal claims the GID of its connection's source address
 * (smcx_clc_src_gid() on its side; mainline picks it the same way), so
 * only a peer at that address can speak for that GID (N1, F11).
 */
bool smcx_clc_from_gid(const struct sock *tcpsk, const u8 *gid);
/* the CLC socket @tcpsk's peer address in that GID form (:: if none) */
void smcx_clc_peer_addr(const struct sock *tcpsk, u8 *gid);

/*
 * Our host name for a first contact extension: printable ASCII, blank
 * padded to SMCX_HOSTNAME_LEN
 */
void smcx_clc_hostname(u8 *out);

/* the peer's Decline of @len bytes in ctx->buf: SMCX_DECL_PEERDECL */
int smcx_clc_peer_declined(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
			   int len);

/* send a Decline (clc_io.c): its write error, else @reason */
int smcx_clc_decline(struct smcx_sock *smc, u32 reason, u8 version);

#endif /* SMCX_CLC_H */
