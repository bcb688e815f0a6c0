/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CLC messages on the CLC socket (clc_io.c), for clc.c.  Results as in
 * clc.h: 0, a reason code, or -errno.
 */
#ifndef SMCX_CLC_IO_H
#define SMCX_CLC_IO_H

#include <linux/types.h>

struct smcx_clc_ctx;
struct smcx_clc_hdr;
struct smcx_sock;
struct socket;

/*
 * On @smc's CLC socket, each message in @smc's flight record (hsrec.h).
 * Write one whole message: 0, or -errno (a partial write is -EPROTO).
 */
int smcx_clc_write(struct smcx_sock *smc, const u8 *buf, size_t len);
/* one message into ctx->buf within *@timeo: its length, or -errno */
int smcx_clc_recv(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
		  struct smcx_clc_hdr *hdr, long *timeo);
/* server: does the client's stream start with CLC?  1, 0 or -errno */
int smcx_clc_sniff(struct smcx_sock *smc, long *timeo);
/* our Decline with @reason in @version: 0, or the write's error */
int smcx_clc_send_decline(struct smcx_sock *smc, u32 reason, u8 version);

#endif /* SMCX_CLC_IO_H */
