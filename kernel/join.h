/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handshake of one connection (join.c): the CLC messages (clc.c) and,
 * for SMC-R, joining a link group - first contact or reuse - and undoing
 * that join when the handshake fails.
 *
 * Both entry points run in a work item, own the CLC socket while they run
 * and return 0 (SMC-R: smc->smcr is set, the connection holds its link
 * group), a positive reason code (SMCX_DECL_*: the connection continues as
 * TCP, the stream is in sync: every CLC byte either side sent has been
 * consumed by the other, and no more will come) or a negative errno (the
 * connection is unusable and must be aborted: timeout, garbage after a CLC
 * eyecatcher, reset).
 */
#ifndef SMCX_JOIN_H
#define SMCX_JOIN_H

struct smcx_sock;

struct smcx_clc_ctx;
struct smcx_clc_proposal;

int smcx_join_client(struct smcx_sock *smc);
int smcx_join_server(struct smcx_sock *smc);
/*
 * A handshake was marked aborting (smcx_hs_cancel()): wake joins waiting
 * for a peer's first-contact slot so that they see it at once.
 */
void smcx_join_kick(void);

/*
 * SMC-D over the loopback device (join_d.c).  Client: add the device to
 * our Proposal (false: off here); the server's SMC-D Accept of @len bytes
 * in ctx->buf, joined and confirmed.  Server: does the Proposal in ctx
 * offer our device, and does this namespace take it (sets ctx->eid); the
 * join, Accept and Confirm.  Results as smcx_join_client()'s.
 */
bool smcx_clc_d_offer(struct smcx_sock *smc, struct smcx_clc_proposal *p);
bool smcx_clc_d_wanted(struct smcx_sock *smc, struct smcx_clc_ctx *ctx);
int smcx_join_d_clnt(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
		     int len);
int smcx_join_d_srv(struct smcx_sock *smc, struct smcx_clc_ctx *ctx);

#endif /* SMCX_JOIN_H */
